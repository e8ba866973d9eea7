/**
 * The route table as a segment trie: a request finds its route in one walk over its path segments
 * instead of testing every route's pattern (polka's own router tests all ~240 of them on every
 * request). Paths use GitHub's syntax: `{name}` is one segment, a final `*` is the rest of the path
 * (one segment or more), a final `*?` the rest or nothing; both are read as params['*'].
 *
 * A static segment wins over a parameter at the same place, and the walk falls back to the
 * parameter when the static branch finds nothing deeper, so /repos/{owner}/{repo}/issues/comments
 * answers before /repos/{owner}/{repo}/issues/{issue_number} whatever the declaration order.
 *
 * GitHub's git reference parameters ({ref}, {branch}, {basehead}) may hold slashes, unencoded:
 * GET /repos/o/r/commits/renovate/lodash-4.x/status is the status of branch renovate/lodash-4.x.
 * Such a parameter spans several segments only when no one-segment reading of the path matches
 * (shortest span first), so every path that matched before still matches the same route.
 *
 * The trie grows as requests walk it: a route added is kept at its method's root, and a node
 * places the routes below it one segment deeper at its first walk. A server answers its first
 * request without building the trie of its ~670 routes (7 ms of CPU and the collections of the
 * garbage it made), and builds only the branches its requests visit.
 */

/** A route not placed in the trie yet: its path (split at its first placement) and value. */
interface PendingRoute<T> {
	path: string;
	segments: string[] | null;
	value: T;
}

interface Node<T> {
	/** The index of the path segment this node's children match (its depth, plus one). */
	next: number;
	statics: Map<string, Node<T>>;
	/** Parameter children by name (GitHub names one place differently on different paths: {org}, {org_id}). */
	params: Array<{ name: string; node: Node<T> }>;
	/** `*` (rest of one segment or more) or `*?` (rest, possibly empty) at this point. */
	rest: { optional: boolean; value: T } | null;
	value: T | null;
	/** Routes below this node, placed among its children at its first walk (null once placed). */
	pending: Array<PendingRoute<T>> | null;
}

const node = <T>(next: number): Node<T> => ({ next, statics: new Map(), params: [], rest: null, value: null, pending: null });

/** Places a node's pending routes one segment deeper: its value, its wildcard, or a child's pending list. */
function expand<T>(at: Node<T>): void {
	const pending = at.pending!;
	at.pending = null;
	const i = at.next;
	for (const route of pending) {
		const segments = (route.segments ??= route.path.split('/'));
		if (i === segments.length) {
			at.value = route.value;
			continue;
		}
		const segment = segments[i];
		if (segment === '*' || segment === '*?') {
			at.rest = { optional: segment === '*?', value: route.value };
			continue;
		}
		// {name}: a parameter (the regular expression only where the braces say so).
		const param = segment.charCodeAt(0) === 123 ? /^\{([a-z_]+)\}$/.exec(segment) : null;
		let child: Node<T> | undefined;
		if (param) {
			const name = param[1];
			child = at.params.find((p) => p.name === name)?.node;
			if (!child) at.params.push({ name, node: (child = node<T>(i + 1)) });
		} else {
			child = at.statics.get(segment);
			if (!child) at.statics.set(segment, (child = node<T>(i + 1)));
		}
		(child.pending ??= []).push(route);
	}
}

/** Parameters that may span segments: git reference names (branch names hold slashes). */
const SPANNING = new Set(['ref', 'branch', 'basehead']);
/** The most segments one spanning parameter takes (a bound on the walk of a hostile path). */
const MAX_SPAN = 32;

/** A match: the route's value and its path parameters, percent-decoded where they decode. */
export interface Match<T> {
	value: T;
	params: Record<string, string>;
}

export class RouteTable<T> {
	private readonly roots = new Map<string, Node<T>>();
	/** "METHOD path" of every route added (a wildcard's optional form counted as the plain one). */
	private readonly taken = new Set<string>();

	/**
	 * Adds a route (placed in the trie at the first walk that needs it).
	 * @throws Error when the method and path are taken, or a wildcard does not end the path.
	 */
	add(method: string, path: string, value: T): void {
		const star = path.indexOf('*');
		if (star !== -1 && (path.charCodeAt(star - 1) !== 47 || (star !== path.length - 1 && path.slice(star) !== '*?')))
			throw new Error(`a wildcard must end the path: ${method} ${path}`);
		const key = `${method} ${star === -1 ? path : path.slice(0, star + 1)}`;
		if (this.taken.has(key)) throw new Error(`route declared twice: ${method} ${path}`);
		this.taken.add(key);
		let root = this.roots.get(method);
		if (!root) this.roots.set(method, (root = node<T>(1)));
		(root.pending ??= []).push({ path, segments: null, value });
	}

	/** The route of `method` and `pathname` (no query string), or null. */
	find(method: string, pathname: string): Match<T> | null {
		const root = this.roots.get(method);
		if (!root) return null;
		const segments = pathname.split('/');
		const names: string[] = [];
		const values: string[] = [];
		const value = walk(root, segments, 1, names, values);
		if (value === null) return null;
		const params: Record<string, string> = {};
		for (let i = 0; i < names.length; i++) params[names[i]] = decode(values[i]);
		return { value, params };
	}
}

/** Depth-first: static child, then the parameters, then a wildcard; parameters collected on the way. */
function walk<T>(at: Node<T>, segments: string[], i: number, names: string[], values: string[]): T | null {
	if (at.pending !== null) expand(at);
	if (i === segments.length) {
		if (at.value !== null) return at.value;
		if (!at.rest?.optional) return null;
		names.push('*');
		values.push('');
		return at.rest.value;
	}
	const segment = segments[i];
	const next = at.statics.get(segment);
	if (next) {
		const found = walk(next, segments, i + 1, names, values);
		if (found !== null) return found;
	}
	if (segment !== '') {
		for (const param of at.params) {
			names.push(param.name);
			values.push(segment);
			const found = walk(param.node, segments, i + 1, names, values);
			if (found !== null) return found;
			names.pop();
			values.pop();
		}
	}
	if (at.rest) {
		const rest = segments.slice(i).join('/');
		if (rest !== '' || at.rest.optional) {
			names.push('*');
			values.push(rest);
			return at.rest.value;
		}
	}
	// Nothing matched with one segment per parameter: a reference name with slashes.
	if (segment !== '') {
		for (const param of at.params) {
			if (!SPANNING.has(param.name)) continue;
			for (let end = i + 2; end <= Math.min(segments.length, i + MAX_SPAN); end++) {
				if (segments[end - 1] === '') break;
				names.push(param.name);
				values.push(segments.slice(i, end).join('/'));
				const found = walk(param.node, segments, end, names, values);
				if (found !== null) return found;
				names.pop();
				values.pop();
			}
		}
	}
	return null;
}

/** decodeURIComponent, keeping a malformed escape as it came (the route then answers 404 for it). */
function decode(text: string): string {
	if (!text.includes('%')) return text;
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}
