/**
 * Line-level three-way merge of text as git's xdiff merges it (xdl_merge, for deciding clean or
 * conflicting): both sides are diffed against the base with Myers' O(ND) algorithm (git's too),
 * whose changes are then slid as git slides them (xdl_change_compact);
 * a change of one side that neither overlaps nor touches a change of the other applies; changes
 * that overlap or touch form one region, clean only when both sides made it identically. Pure
 * functions, bounded: a diff needing more than MAX_EDITS line edits gives up (null).
 *
 * node-diff3 (an LCS by candidate lists) was measured first: a 10,000-line file of repeated lines
 * ('}' and blank) took 262 s, so the engine uses this instead.
 */

/** Line edits (deletions plus insertions) one diff may need at most; its memory grows with the square. */
export const MAX_EDITS = 3000;

/** A changed range: `baseLength` lines of the base from `base` became `sideLength` lines of the side from `side`. */
export interface Hunk {
	base: number;
	baseLength: number;
	side: number;
	sideLength: number;
}

/**
 * The hunks turning `a` into `b` (line ids), in order, with Myers' greedy algorithm after trimming the
 * common prefix and suffix, slid as git slides them.
 * @returns null when more than `maxEdits` edits are needed
 */
export function diffLines(a: Int32Array, b: Int32Array, maxEdits = MAX_EDITS): Hunk[] | null {
	const n0 = a.length;
	const m0 = b.length;
	let pre = 0;
	while (pre < n0 && pre < m0 && a[pre] === b[pre]) pre++;
	let suf = 0;
	while (suf < n0 - pre && suf < m0 - pre && a[n0 - 1 - suf] === b[m0 - 1 - suf]) suf++;
	const A = a.subarray(pre, n0 - suf);
	const B = b.subarray(pre, m0 - suf);
	const N = A.length;
	const M = B.length;
	if (N === 0 && M === 0) return [];
	if (N === 0 || M === 0) return [{ base: pre, baseLength: N, side: pre, sideLength: M }];
	const max = N + M;
	const offset = max + 1;
	const v = new Int32Array(2 * max + 3);
	// trace[d]: the furthest x on each diagonal k in [-d, d] after step d (index k + d).
	const trace: Int32Array[] = [];
	let found = -1;
	for (let d = 0; d <= Math.min(max, maxEdits); d++) {
		for (let k = -d; k <= d; k += 2) {
			let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
			let y = x - k;
			while (x < N && y < M && A[x] === B[y]) {
				x++;
				y++;
			}
			v[offset + k] = x;
			if (x >= N && y >= M) found = d;
		}
		trace.push(v.slice(offset - d, offset + d + 1));
		if (found >= 0) break;
	}
	if (found < 0) return null;
	// Walk back from (N, M), marking deleted lines of A and inserted lines of B (whole-file indexes).
	const deleted = new Uint8Array(n0);
	const inserted = new Uint8Array(m0);
	let x = N;
	let y = M;
	for (let d = found; d > 0; d--) {
		const prev = trace[d - 1];
		const at = (k: number) => prev[k + d - 1];
		const k = x - y;
		const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
		const prevK = down ? k + 1 : k - 1;
		const prevX = at(prevK);
		const prevY = prevX - prevK;
		if (down) inserted[pre + prevY] = 1;
		else deleted[pre + prevX] = 1;
		x = prevX;
		y = prevY;
	}
	compact(a, deleted, inserted);
	compact(b, inserted, deleted);
	const hunks: Hunk[] = [];
	let i = 0;
	let j = 0;
	while (i < n0 || j < m0) {
		if (i < n0 && j < m0 && !deleted[i] && !inserted[j]) {
			i++;
			j++;
			continue;
		}
		const i0 = i;
		const j0 = j;
		for (;;) {
			const before = i + j;
			while (i < n0 && deleted[i]) i++;
			while (j < m0 && inserted[j]) j++;
			if (i + j === before) break;
		}
		hunks.push({ base: i0, baseLength: i - i0, side: j0, sideLength: j - j0 });
	}
	return hunks;
}

/** A run of changed lines [start, end) of one file. */
interface Group {
	start: number;
	end: number;
}

/**
 * git's xdl_change_compact (without the indent heuristic, as merges run it): each run of changed
 * lines of `rec` slides as far down as equal lines allow, or back to line up with a change of the
 * other file, so that ambiguous diffs come out as git's do. `changed` and `other` are edited in place.
 */
function compact(rec: Int32Array, changed: Uint8Array, other: Uint8Array): void {
	const n = changed.length;
	const on = other.length;
	const chg = (i: number) => i >= 0 && i < n && changed[i] === 1;
	const ochg = (i: number) => i >= 0 && i < on && other[i] === 1;
	const g: Group = { start: 0, end: 0 };
	const go: Group = { start: 0, end: 0 };
	while (chg(g.end)) g.end++;
	while (ochg(go.end)) go.end++;
	const slideUp = (): boolean => {
		if (g.start > 0 && rec[g.start - 1] === rec[g.end - 1]) {
			changed[--g.start] = 1;
			changed[--g.end] = 0;
			while (chg(g.start - 1)) g.start--;
			return true;
		}
		return false;
	};
	const slideDown = (): boolean => {
		if (g.end < n && rec[g.start] === rec[g.end]) {
			changed[g.start++] = 0;
			changed[g.end++] = 1;
			while (chg(g.end)) g.end++;
			return true;
		}
		return false;
	};
	const previousOther = () => {
		go.end = go.start - 1;
		for (go.start = go.end; ochg(go.start - 1); go.start--);
	};
	const nextOther = () => {
		go.start = go.end + 1;
		for (go.end = go.start; ochg(go.end); go.end++);
	};
	for (;;) {
		if (g.end !== g.start) {
			let size: number;
			let earliestEnd: number;
			let endMatchingOther: number;
			do {
				size = g.end - g.start;
				endMatchingOther = -1;
				while (slideUp()) previousOther();
				earliestEnd = g.end;
				if (go.end > go.start) endMatchingOther = g.end;
				while (slideDown()) {
					nextOther();
					if (go.end > go.start) endMatchingOther = g.end;
				}
			} while (size !== g.end - g.start);
			if (g.end !== earliestEnd && endMatchingOther !== -1) {
				while (go.end === go.start) {
					slideUp();
					previousOther();
				}
			}
		}
		if (g.end === n) break;
		g.start = g.end + 1;
		for (g.end = g.start; chg(g.end); g.end++);
		nextOther();
	}
}

/** Lines with their terminators ('a\nb' → ['a\n', 'b']), so joining them gives the text back. */
export function splitLines(text: string): string[] {
	return text === '' ? [] : text.split(/(?<=\n)/);
}

/**
 * Merges `ours` and `theirs`, both changed from `base` (git's rules for clean and conflicting, see
 * the module comment; a region both sides changed identically is clean).
 * @returns the merged text; 'conflict'; or 'too large' when a side's diff exceeds `maxEdits`
 */
export function merge3(base: string, ours: string, theirs: string, maxEdits = MAX_EDITS): string | 'conflict' | 'too large' {
	const ids = new Map<string, number>();
	const intern = (lines: string[]) => {
		const out = new Int32Array(lines.length);
		lines.forEach((line, index) => {
			let id = ids.get(line);
			if (id === undefined) ids.set(line, (id = ids.size));
			out[index] = id;
		});
		return out;
	};
	const [b, o, t] = [splitLines(base), splitLines(ours), splitLines(theirs)];
	const [bi, oi, ti] = [intern(b), intern(o), intern(t)];
	const h1 = diffLines(bi, oi, maxEdits);
	const h2 = diffLines(bi, ti, maxEdits);
	if (!h1 || !h2) return 'too large';
	const out: string[] = [];
	let pos = 0; // base lines consumed
	let d1 = 0; // ours index - base index before the next ours hunk
	let d2 = 0;
	let x = 0;
	let y = 0;
	const end = (h: Hunk) => h.base + h.baseLength;
	const copyBase = (to: number) => {
		for (; pos < to; pos++) out.push(b[pos]);
	};
	while (x < h1.length || y < h2.length) {
		const a = h1[x];
		const c = h2[y];
		// git: a change lies before the other's when it ends strictly before the other starts.
		if (a && (!c || end(a) < c.base)) {
			copyBase(a.base);
			for (let i = a.side; i < a.side + a.sideLength; i++) out.push(o[i]);
			pos = end(a);
			d1 += a.sideLength - a.baseLength;
			x++;
			continue;
		}
		if (c && (!a || end(c) < a.base)) {
			copyBase(c.base);
			for (let i = c.side; i < c.side + c.sideLength; i++) out.push(t[i]);
			pos = end(c);
			d2 += c.sideLength - c.baseLength;
			y++;
			continue;
		}
		// Overlapping or touching: one region, grown while a further change of either side touches it.
		const start = Math.min(a.base, c.base);
		let stop = Math.max(end(a), end(c));
		const o0 = start + d1;
		const t0 = start + d2;
		for (;;) {
			if (x < h1.length && h1[x].base <= stop) {
				stop = Math.max(stop, end(h1[x]));
				d1 += h1[x].sideLength - h1[x].baseLength;
				x++;
			} else if (y < h2.length && h2[y].base <= stop) {
				stop = Math.max(stop, end(h2[y]));
				d2 += h2[y].sideLength - h2[y].baseLength;
				y++;
			} else break;
		}
		const mine = o.slice(o0, stop + d1);
		const yours = t.slice(t0, stop + d2);
		if (mine.length !== yours.length || mine.some((line, index) => line !== yours[index])) return 'conflict';
		copyBase(start);
		for (const line of mine) out.push(line);
		pos = stop;
	}
	copyBase(b.length);
	return out.join('');
}
