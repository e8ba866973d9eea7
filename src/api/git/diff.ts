/**
 * Differences between two trees of a repository (git diff-tree -r with exact rename detection),
 * and the line statistics and unified patches GitHub shows for each file (the `diff` package's
 * structuredPatch). Bounded as GitHub bounds it: at most MAX_DIFF_FILES files, no patch for binary
 * blobs or blobs over MAX_PATCH_BLOB bytes. Reads only.
 */
import { structuredPatch } from 'diff';
import type { App } from '../../app';
import { parseTree, type TreeEntry, type TreeMode } from './objects';

/** GitHub lists at most 300 files of a commit or comparison. */
export const MAX_DIFF_FILES = 300;
/** Blobs larger than this (bytes) get no patch and no line counts. */
export const MAX_PATCH_BLOB = 1024 * 1024;
/** Bytes git inspects for a NUL to call a blob binary. */
const BINARY_SNIFF = 8000;

/** One changed path: a file (blob or submodule), never a directory. */
export interface TreeChange {
	status: 'added' | 'removed' | 'modified' | 'renamed';
	/** The path after the change (before, for removed files). */
	path: string;
	/** Where a renamed file was. */
	previousPath?: string;
	oldSha: string | null;
	newSha: string | null;
	oldMode: TreeMode | null;
	newMode: TreeMode | null;
}

type Entries = Map<string, TreeEntry>;

function entries(app: App, repoId: number, sha: string | null): Entries {
	const map: Entries = new Map();
	if (!sha) return map;
	const row = app.stores.git.object(repoId, sha);
	if (!row || row.type !== 'tree') return map;
	for (const entry of parseTree(row.content)) map.set(entry.name, entry);
	return map;
}

/**
 * Every file that differs between `oldTree` (null: nothing, a root commit) and `newTree`, in path
 * order; a file removed in one place and added with the same content elsewhere is one rename.
 * Subtrees with equal ids are not opened, so the cost follows the size of the change.
 * @returns the changes and whether the list is complete (false past `limit` changes)
 */
export function diffTrees(
	app: App,
	repoId: number,
	oldTree: string | null,
	newTree: string | null,
	limit = Infinity,
): { changes: TreeChange[]; complete: boolean } {
	const changes: TreeChange[] = [];
	// A stack of directories to compare; paths come out in order because each level is sorted and
	// directories are expanded in place.
	const walk = (oldSha: string | null, newSha: string | null, prefix: string): boolean => {
		if (oldSha === newSha) return true;
		const before = entries(app, repoId, oldSha);
		const after = entries(app, repoId, newSha);
		const names = [...new Set([...before.keys(), ...after.keys()])].sort();
		for (const name of names) {
			const a = before.get(name);
			const b = after.get(name);
			const path = prefix + name;
			const aTree = a?.mode === '040000';
			const bTree = b?.mode === '040000';
			if (a && b && a.sha === b.sha && a.mode === b.mode) continue;
			// A directory on either side: compare below it (a file turned directory is a removal plus additions).
			if (aTree || bTree) {
				if (a && !aTree) changes.push({ status: 'removed', path, oldSha: a.sha, newSha: null, oldMode: a.mode, newMode: null });
				if (!walk(aTree ? a!.sha : null, bTree ? b!.sha : null, `${path}/`)) return false;
				if (b && !bTree) changes.push({ status: 'added', path, oldSha: null, newSha: b.sha, oldMode: null, newMode: b.mode });
			} else if (a && b) {
				changes.push({ status: 'modified', path, oldSha: a.sha, newSha: b.sha, oldMode: a.mode, newMode: b.mode });
			} else if (a) {
				changes.push({ status: 'removed', path, oldSha: a.sha, newSha: null, oldMode: a.mode, newMode: null });
			} else {
				changes.push({ status: 'added', path, oldSha: null, newSha: b!.sha, oldMode: null, newMode: b!.mode });
			}
			// Rename pairing needs the whole list; stop far beyond what is shown.
			if (changes.length > limit * 2 + 100) return false;
		}
		return true;
	};
	const complete = walk(oldTree, newTree, '');
	return { changes: pairRenames(changes).slice(0, limit), complete: complete && changes.length <= limit };
}

/** Exact renames: a removed file whose content (and kind) reappears as an added file. */
function pairRenames(changes: TreeChange[]): TreeChange[] {
	const removed = new Map<string, TreeChange[]>();
	for (const change of changes) {
		if (change.status !== 'removed') continue;
		const list = removed.get(change.oldSha!) ?? [];
		list.push(change);
		removed.set(change.oldSha!, list);
	}
	if (removed.size === 0) return changes;
	const gone = new Set<TreeChange>();
	const out: TreeChange[] = [];
	for (const change of changes) {
		if (change.status === 'added') {
			const source = removed.get(change.newSha!)?.find((candidate) => !gone.has(candidate));
			if (source) {
				gone.add(source);
				out.push({ ...change, status: 'renamed', previousPath: source.path, oldSha: source.oldSha, oldMode: source.oldMode });
				continue;
			}
		}
		out.push(change);
	}
	return out.filter((change) => !gone.has(change));
}

/** A file's line statistics and patch (GitHub's diff-entry numbers). */
export interface FilePatch {
	additions: number;
	deletions: number;
	/** The unified diff's hunks ("@@ -1,2 +1,3 @@ ..."), or undefined for binary, huge or unchanged content. */
	patch?: string;
	/** The content is binary or over MAX_PATCH_BLOB: no lines are compared. */
	binary?: boolean;
}

function isBinary(content: Buffer): boolean {
	return content.subarray(0, BINARY_SNIFF).includes(0);
}

/**
 * Line statistics and hunks of one change, as GitHub shows them: binary blobs and blobs over
 * MAX_PATCH_BLOB count no lines and get no patch; submodules count none.
 */
export function filePatch(app: App, repoId: number, change: TreeChange): FilePatch {
	const { git } = app.stores;
	const blob = (sha: string | null, mode: TreeMode | null): Buffer | null | 'skip' => {
		if (!sha || mode === '160000') return mode === '160000' ? 'skip' : null;
		const meta = git.meta(repoId, sha);
		if (!meta || meta.type !== 'blob' || meta.size > MAX_PATCH_BLOB) return 'skip';
		return git.object(repoId, sha)!.content;
	};
	const before = blob(change.oldSha, change.oldMode);
	const after = blob(change.newSha, change.newMode);
	if (change.oldMode === '160000' || change.newMode === '160000') return { additions: 0, deletions: 0 };
	if (before === 'skip' || after === 'skip') return { additions: 0, deletions: 0, binary: true };
	if ((before && isBinary(before)) || (after && isBinary(after))) return { additions: 0, deletions: 0, binary: true };
	if (before && after && before.equals(after)) return { additions: 0, deletions: 0 };
	const structured = structuredPatch('a', 'b', before?.toString('utf8') ?? '', after?.toString('utf8') ?? '', '', '', { context: 3 });
	let additions = 0;
	let deletions = 0;
	const lines: string[] = [];
	for (const hunk of structured.hunks) {
		// git numbers an empty side's range as 0,0.
		const oldStart = hunk.oldLines === 0 ? hunk.oldStart - (hunk.oldStart > 0 ? 1 : 0) : hunk.oldStart;
		const newStart = hunk.newLines === 0 ? hunk.newStart - (hunk.newStart > 0 ? 1 : 0) : hunk.newStart;
		lines.push(`@@ -${range(oldStart, hunk.oldLines)} +${range(newStart, hunk.newLines)} @@`);
		for (const line of hunk.lines) {
			if (line.startsWith('+')) additions++;
			else if (line.startsWith('-')) deletions++;
			lines.push(line);
		}
	}
	return { additions, deletions, patch: lines.length ? lines.join('\n') : undefined };
}

/** A hunk range as git writes it: "start" for one line, "start,count" otherwise. */
function range(start: number, count: number): string {
	return count === 1 ? String(start) : `${start},${count}`;
}

/** An abbreviated object id for `index` lines (7 digits; zeros for nothing). */
const short = (sha: string | null) => (sha ?? '0'.repeat(40)).slice(0, 7);

/**
 * The changes as `git diff` prints them (GitHub's application/vnd.github.diff): a header per file
 * (new, deleted, renamed; modes; index line), then its hunks, or "Binary files … differ" for
 * binary or huge blobs.
 */
export function unifiedDiff(app: App, repoId: number, changes: TreeChange[]): string {
	let out = '';
	for (const change of changes) {
		const from = change.previousPath ?? change.path;
		out += `diff --git a/${from} b/${change.path}\n`;
		if (change.status === 'added') out += `new file mode ${change.newMode}\n`;
		else if (change.status === 'removed') out += `deleted file mode ${change.oldMode}\n`;
		else if (change.oldMode !== change.newMode) out += `old mode ${change.oldMode}\nnew mode ${change.newMode}\n`;
		if (change.status === 'renamed') out += `similarity index 100%\nrename from ${from}\nrename to ${change.path}\n`;
		if (change.oldSha === change.newSha) continue;
		const mode = change.status === 'modified' && change.oldMode === change.newMode ? ` ${change.newMode}` : '';
		out += `index ${short(change.oldSha)}..${short(change.newSha)}${mode}\n`;
		const patch = filePatch(app, repoId, change);
		const a = change.status === 'added' ? '/dev/null' : `a/${from}`;
		const b = change.status === 'removed' ? '/dev/null' : `b/${change.path}`;
		if (patch.binary) {
			out += `Binary files ${a} and ${b} differ\n`;
			continue;
		}
		if (patch.patch === undefined) continue;
		out += `--- ${a}\n+++ ${b}\n${patch.patch}\n`;
	}
	return out;
}

/** How git names a rename in a diffstat: the common folders and suffix outside braces ("docs/{a.md => b.md}"). */
function renameName(from: string, to: string): string {
	let prefix = 0;
	for (let i = 0; i < Math.min(from.length, to.length) && from[i] === to[i]; i++) if (from[i] === '/') prefix = i + 1;
	let suffix = 0;
	for (let i = 1; i <= Math.min(from.length, to.length) - prefix && from[from.length - i] === to[to.length - i]; i++) {
		if (from[from.length - i] === '/') suffix = i;
	}
	if (!prefix && !suffix) return `${from} => ${to}`;
	return `${from.slice(0, prefix)}{${from.slice(prefix, from.length - suffix)} => ${to.slice(prefix, to.length - suffix)}}${from.slice(from.length - suffix)}`;
}

/**
 * The diffstat and summary `git format-patch` puts under a patch's message (git's show_stats at
 * 72 columns, then --summary): one line per file with its changed lines and +/- graph ("Bin 6 -> 0
 * bytes" for binary files), the totals, and the created, deleted and renamed files.
 */
export function diffStat(app: App, repoId: number, changes: TreeChange[]): string {
	const width = 72;
	const rows = changes.map((change) => {
		const name = change.status === 'renamed' ? renameName(change.previousPath!, change.path) : change.path;
		const patch = filePatch(app, repoId, change);
		const size = (sha: string | null) => (sha ? (app.stores.git.meta(repoId, sha)?.size ?? 0) : 0);
		return { change, name, patch, binary: patch.binary === true, oldSize: size(change.oldSha), newSize: size(change.newSha) };
	});
	const maxLen = Math.max(0, ...rows.map((r) => r.name.length));
	const maxChange = Math.max(0, ...rows.filter((r) => !r.binary).map((r) => r.patch.additions + r.patch.deletions));
	const binWidth = rows.some((r) => r.binary)
		? Math.max(...rows.filter((r) => r.binary).map((r) => `Bin ${r.oldSize} -> ${r.newSize} bytes`.length))
		: 0;
	const numberWidth = Math.max(binWidth ? 3 : 0, String(maxChange).length);
	let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
	let nameWidth = maxLen;
	if (nameWidth + numberWidth + 6 + graphWidth > width) {
		if (graphWidth > Math.floor((width * 3) / 8) - numberWidth - 6)
			graphWidth = Math.max(6, Math.floor((width * 3) / 8) - numberWidth - 6);
		if (nameWidth > width - numberWidth - 6 - graphWidth) nameWidth = width - numberWidth - 6 - graphWidth;
		else graphWidth = width - numberWidth - 6 - nameWidth;
	}
	const scale = (n: number) => (graphWidth <= maxChange && n ? 1 + Math.floor((n * (graphWidth - 1)) / maxChange) : n);
	let out = '';
	let insertions = 0;
	let deletions = 0;
	for (const row of rows) {
		const name = row.name.length > nameWidth ? `...${row.name.slice(row.name.length - nameWidth + 3)}` : row.name;
		out += ` ${name.padEnd(nameWidth)} |`;
		if (row.binary) {
			out += ` ${'Bin'.padStart(numberWidth)}`;
			out += row.oldSize || row.newSize ? ` ${row.oldSize} -> ${row.newSize} bytes\n` : '\n';
			continue;
		}
		const { additions, deletions: removed } = row.patch;
		insertions += additions;
		deletions += removed;
		const total = additions + removed;
		out += ` ${String(total).padStart(numberWidth)}${total ? ' ' : ''}${'+'.repeat(scale(additions))}${'-'.repeat(scale(removed))}\n`;
	}
	const files = rows.length;
	out += ` ${files} ${files === 1 ? 'file' : 'files'} changed`;
	if (insertions || !deletions) out += `, ${insertions} ${insertions === 1 ? 'insertion' : 'insertions'}(+)`;
	if (deletions || !insertions) out += `, ${deletions} ${deletions === 1 ? 'deletion' : 'deletions'}(-)`;
	out += '\n';
	for (const { change, name } of rows) {
		if (change.status === 'added') out += ` create mode ${change.newMode} ${change.path}\n`;
		else if (change.status === 'removed') out += ` delete mode ${change.oldMode} ${change.path}\n`;
		else if (change.status === 'renamed') out += ` rename ${name} (100%)\n`;
		if (change.status !== 'added' && change.status !== 'removed' && change.oldMode !== change.newMode)
			out += ` mode change ${change.oldMode} => ${change.newMode} ${change.path}\n`;
	}
	return out;
}
