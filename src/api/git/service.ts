/**
 * Revisions and the commit graph of a repository, for other areas (e.g. dependency review's
 * base...head comparisons) and for the git routes themselves:
 *
 * - resolveCommit(app, repo, rev): a revision name → the commit it names, or null;
 * - commitParents(app, repo.id, sha): a commit's parents, first parent first;
 * - mergeBase(app, repo.id, a, b) / mergeBases(...): the best common ancestor(s) of two commits;
 * - isAncestor(app, repo.id, ancestor, descendant): the fast-forward test;
 * - resolveObject / peel: a revision → its object, an object → the commit or tree it leads to.
 *
 * All are reads of the git tables (src/api/git/store.ts); none throws for unknown names. The
 * repository is given as its row (`app.stores.repos.byId(id)`, or `ctx.repo.repo`).
 */
import type { App } from '../../app';
import type { RepositoryRow } from '../../model/rows';
import { FULL_SHA, parseCommit, parseTag } from './objects';
import type { ObjectMeta } from './store';

/** What the revision functions need of a repository row. */
export type GitRepository = Pick<RepositoryRow, 'id' | 'default_branch'>;

/** Shortest abbreviated object id accepted (git's minimum). */
export const MIN_ABBREV = 4;

/** Tag chains longer than this are not followed (git itself stops much later; none is this long). */
const MAX_PEEL = 16;

/**
 * The object a reference or id names, without peeling, trying in git's order (rev-parse's
 * get_oid_basic): a full 40-digit id; a reference — the name as given when it starts with 'refs/',
 * then refs/<rev>, refs/tags/<rev>, refs/heads/<rev> ('HEAD' is the default branch); last an
 * abbreviated id of at least 4 hex digits naming one object only.
 * @returns the object, or null when nothing (or more than one object) matches
 */
export function resolveObject(app: App, repo: GitRepository, rev: string): ObjectMeta | null {
	const { git } = app.stores;
	const lower = rev.toLowerCase();
	if (FULL_SHA.test(lower)) return git.meta(repo.id, lower) ?? null;
	const names = rev === 'HEAD' ? [`refs/heads/${repo.default_branch}`] : [rev, `refs/${rev}`, `refs/tags/${rev}`, `refs/heads/${rev}`];
	for (const name of names) {
		if (!name.startsWith('refs/')) continue;
		const ref = git.ref(repo.id, name);
		if (ref) return git.meta(repo.id, ref.sha) ?? null;
	}
	if (lower.length >= MIN_ABBREV && /^[0-9a-f]+$/.test(lower)) {
		const found = git.byPrefix(repo.id, lower, 2);
		if (found.length === 1) return found[0];
	}
	return null;
}

/**
 * Follows an object to the commit or tree it leads to: tags to their objects, and for 'tree' a
 * commit to its tree.
 * @returns the sha, or null when the object is missing or leads elsewhere (a blob, a tag of a tree for 'commit')
 */
export function peel(app: App, repoId: number, sha: string, target: 'commit' | 'tree'): string | null {
	const { git } = app.stores;
	let current = git.meta(repoId, sha);
	for (let depth = 0; current && depth < MAX_PEEL; depth++) {
		if (current.type === target) return current.sha;
		if (current.type === 'tag') {
			current = git.meta(repoId, parseTag(git.object(repoId, current.sha)!.content).object);
		} else if (current.type === 'commit' && target === 'tree') {
			current = git.meta(repoId, parseCommit(git.object(repoId, current.sha)!.content).tree);
		} else {
			return null;
		}
	}
	return null;
}

/**
 * The commit a revision names: a branch name ('main', 'heads/main', 'refs/heads/main'), a tag name
 * (an annotated tag is followed to its commit), 'HEAD' (the default branch), or a full or
 * abbreviated commit id. An abbreviated id must match one commit (or tag of a commit) only.
 * @returns the commit's sha, or null when the name is unknown, ambiguous, or names no commit
 */
export function resolveCommit(app: App, repo: GitRepository, rev: string): string | null {
	const object = resolveObject(app, repo, rev);
	if (object) return peel(app, repo.id, object.sha, 'commit');
	// An abbreviation shared with trees or blobs still names a commit when only one candidate is one.
	const lower = rev.toLowerCase();
	if (lower.length < MIN_ABBREV || lower.length >= 40 || !/^[0-9a-f]+$/.test(lower)) return null;
	const commits = new Set<string>();
	for (const candidate of app.stores.git.byPrefix(repo.id, lower, 64)) {
		if (candidate.type !== 'commit' && candidate.type !== 'tag') continue;
		const commit = peel(app, repo.id, candidate.sha, 'commit');
		if (commit) commits.add(commit);
	}
	return commits.size === 1 ? [...commits][0] : null;
}

/**
 * A commit's parents, first parent first ([] for a root commit).
 * @returns null when `sha` is not a commit of the repository
 */
export function commitParents(app: App, repoId: number, sha: string): string[] | null {
	const meta = app.stores.git.meta(repoId, sha);
	if (!meta || meta.type !== 'commit') return null;
	return app.stores.git.parents(repoId, sha);
}

/** True when `ancestor` is `descendant` or reachable from it through parents (a fast-forward). */
export function isAncestor(app: App, repoId: number, ancestor: string, descendant: string): boolean {
	return app.stores.git.reaches(repoId, descendant, ancestor);
}

/** Merge bases computed while a transaction was open, per app (a probe for tests: slow work holding the write lock). */
const mergeBasesInTransaction = new WeakMap<App, number>();
/** How many merge bases this app computed inside a transaction so far. */
export const mergeBasesInTransactions = (app: App): number => mergeBasesInTransaction.get(app) ?? 0;

/**
 * Every best common ancestor of two commits (git merge-base --all): common ancestors that are not
 * ancestors of another common ancestor; newest committer date first.
 * @returns [] when the commits share no history or one of them is not a commit
 */
export function mergeBases(app: App, repoId: number, a: string, b: string): string[] {
	const { git } = app.stores;
	if (app.db.inTransaction) mergeBasesInTransaction.set(app, (mergeBasesInTransaction.get(app) ?? 0) + 1);
	if (commitParents(app, repoId, a) === null || commitParents(app, repoId, b) === null) return [];
	const ofA = new Set(git.ancestors(repoId, a));
	if (ofA.has(b)) return [b];
	// Walk back from b; the first commits of a's history met on each path are the candidates.
	const candidates: string[] = [];
	const seen = new Set<string>([b]);
	const queue = [b];
	while (queue.length) {
		const sha = queue.shift()!;
		if (ofA.has(sha)) {
			candidates.push(sha);
			continue;
		}
		for (const parent of git.parents(repoId, sha)) {
			if (!seen.has(parent)) {
				seen.add(parent);
				queue.push(parent);
			}
		}
	}
	const best = candidates.filter((c) => !candidates.some((other) => other !== c && git.reaches(repoId, other, c)));
	const date = (sha: string) => parseCommit(git.object(repoId, sha)!.content).committer.seconds;
	return best.sort((x, y) => date(y) - date(x) || (x < y ? -1 : 1));
}

/**
 * The best common ancestor of two commits (what `git merge-base a b` prints).
 * @returns null when they share no history or one is not a commit
 */
export function mergeBase(app: App, repoId: number, a: string, b: string): string | null {
	return mergeBases(app, repoId, a, b)[0] ?? null;
}
