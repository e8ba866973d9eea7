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
 */

interface Node<T> {
	statics: Map<string, Node<T>>;
	/** Parameter children by name (GitHub names one place differently on different paths: {org}, {org_id}). */
	params: Array<{ name: string; node: Node<T> }>;
	/** `*` (rest of one segment or more) or `*?` (rest, possibly empty) at this point. */
	rest: { optional: boolean; value: T } | null;
	value: T | null;
}

const node = <T>(): Node<T> => ({ statics: new Map(), params: [], rest: null, value: null });

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

	/**
	 * Adds a route.
	 * @throws Error when the method and path are taken.
	 */
	add(method: string, path: string, value: T): void {
		let at: Node<T> | undefined = this.roots.get(method);
		if (!at) this.roots.set(method, (at = node<T>()));
		const segments = path.split('/');
		for (let i = 1; i < segments.length; i++) {
			const segment = segments[i];
			if (segment === '*' || segment === '*?') {
				if (i !== segments.length - 1) throw new Error(`a wildcard must end the path: ${method} ${path}`);
				if (at.rest) throw new Error(`route declared twice: ${method} ${path}`);
				at.rest = { optional: segment === '*?', value };
				return;
			}
			// {name}: a parameter (the regular expression only where the braces say so).
			const param = segment.charCodeAt(0) === 123 ? /^\{([a-z_]+)\}$/.exec(segment) : null;
			if (param) {
				const name = param[1];
				let child: { name: string; node: Node<T> } | undefined = at.params.find((p) => p.name === name);
				if (!child) at.params.push((child = { name, node: node<T>() }));
				at = child.node;
			} else {
				let next: Node<T> | undefined = at.statics.get(segment);
				if (!next) at.statics.set(segment, (next = node<T>()));
				at = next;
			}
		}
		if (at.value !== null) throw new Error(`route declared twice: ${method} ${path}`);
		at.value = value;
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
