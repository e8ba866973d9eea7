/**
 * Paths inside a repository's trees for the contents API: checking a path a client writes, and
 * finding what a path names in a stored tree. Reads only (src/api/git/store.ts); nothing here
 * writes.
 */
import type { App } from '../../app';
import { invalidField } from '../../model/errors';
import { badEntryName, parseTree, type TreeEntry } from '../git/objects';
import { MAX_PATH } from '../git/writes';

/**
 * A path as the contents routes take it: surrounding slashes dropped ('/docs/' → 'docs'); '' is
 * the root.
 */
export function normalizePath(path: string): string {
	return path.replace(/^\/+|\/+$/g, '');
}

/**
 * Checks a path a client writes to: not empty, at most MAX_PATH characters, no empty segment,
 * no '.' or '..', no '.git', no NUL (git fsck's rules for tree entries).
 * @throws DomainError 422 naming `path`
 */
export function checkWritePath(path: string): void {
	if (path === '') throw invalidField('Content', 'path', 'path must name a file');
	if (path.length > MAX_PATH) throw invalidField('Content', 'path', `path has more than ${MAX_PATH} characters`);
	for (const part of path.split('/')) {
		const bad = badEntryName(part);
		if (bad) throw invalidField('Content', 'path', `"${path.slice(0, 200)}" ${bad}`);
	}
}

/** What a path names in a tree: the root tree itself, or an entry of one of its trees. */
export type Found = { root: true; sha: string } | { root: false; entry: TreeEntry; parent: string };

/** Entries of a stored tree ([] for an id that is no tree). */
export function treeEntries(app: App, repoId: number, sha: string): TreeEntry[] {
	const row = app.stores.git.object(repoId, sha);
	return row && row.type === 'tree' ? parseTree(row.content) : [];
}

/**
 * Walks `path` down from the tree `rootTree`, one tree per segment (names compared exactly, as git
 * does).
 * @returns what the path names, or null when a segment is missing or passes through something
 *   that is not a tree
 */
export function lookupPath(app: App, repoId: number, rootTree: string, path: string): Found | null {
	if (path === '') return { root: true, sha: rootTree };
	const parts = path.split('/');
	let tree = rootTree;
	for (let i = 0; i < parts.length; i++) {
		const entry = treeEntries(app, repoId, tree).find((e) => e.name === parts[i]);
		if (!entry) return null;
		if (i === parts.length - 1) return { root: false, entry, parent: parts.slice(0, -1).join('/') };
		if (entry.mode !== '040000') return null;
		tree = entry.sha;
	}
	return null;
}

/**
 * The first segment of `path` that exists in `rootTree` as something other than a tree (a file
 * where a folder would have to be), or null.
 */
export function blockingFile(app: App, repoId: number, rootTree: string, path: string): string | null {
	const parts = path.split('/');
	let tree = rootTree;
	for (let i = 0; i < parts.length - 1; i++) {
		const entry = treeEntries(app, repoId, tree).find((e) => e.name === parts[i]);
		if (!entry) return null;
		if (entry.mode !== '040000') return parts.slice(0, i + 1).join('/');
		tree = entry.sha;
	}
	return null;
}

/**
 * Resolves a symbolic link's target against the link's folder ('a/b' → '../c' is 'c').
 * @returns the repository path, or null when the target leaves the repository or is absolute
 */
export function resolveLink(linkPath: string, target: string): string | null {
	if (target.startsWith('/')) return null;
	const parts = linkPath.split('/').slice(0, -1);
	for (const part of target.split('/')) {
		if (part === '' || part === '.') continue;
		if (part === '..') {
			if (parts.length === 0) return null;
			parts.pop();
		} else parts.push(part);
	}
	return parts.join('/');
}
