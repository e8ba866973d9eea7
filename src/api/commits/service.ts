/**
 * Repository commits read from the stored git objects: the commit list with GitHub's filters (sha,
 * path, author, committer, since, until), one commit with its stats and files, comparisons of two
 * commits (base...head, owner:branch forms), and the tags list. Reads only; errors are GitHub's.
 */
import type { App } from '../../app';
import { notFound, unprocessable } from '../../model/errors';
import { diffTrees, filePatch, MAX_DIFF_FILES, type TreeChange } from '../git/diff';
import { aheadBehind, CommitReader, reachable, walkCommits, type WalkedCommit } from '../git/graph';
import { parseTree, type CommitData } from '../git/objects';
import type { RepoView } from '../git/render';
import { mergeBase, resolveCommit } from '../git/service';
import { requireCommits } from '../git/writes';
import { AuthorLookup, diffEntry } from './render';

/** GitHub lists at most 250 commits of a comparison. */
export const MAX_COMPARE_COMMITS = 250;

/** Filters of GET /repos/{owner}/{repo}/commits. */
export interface CommitFilter {
	/** A login or an email. */
	author?: string;
	committer?: string;
	path?: string;
	/** Epoch seconds, inclusive. */
	since?: number;
	until?: number;
}

/** The id of the entry at `path` below `tree` ('' is the tree itself), or null when nothing is there. */
function entryAt(app: App, repoId: number, tree: string, path: string, cache: Map<string, Map<string, string>>): string | null {
	let current = tree;
	for (const part of path.split('/').filter(Boolean)) {
		let entries = cache.get(current);
		if (!entries) {
			const row = app.stores.git.object(repoId, current);
			entries = new Map(row && row.type === 'tree' ? parseTree(row.content).map((e) => [e.name, e.sha]) : []);
			cache.set(current, entries);
		}
		const next = entries.get(part);
		if (!next) return null;
		current = next;
	}
	return current;
}

/**
 * One page of the commits reachable from `head` that pass the filters, newest first, with a path
 * filter as `git log -- <path>` simplifies history: a commit counts when the path differs from
 * every parent. The walk stops after the page: without filters `total` is exact (a count of the
 * reachable commits); with filters it is what the walk proved (the commits up to the page, plus one
 * when more follow), so Link always names the next page when there is one.
 */
export function listCommits(
	app: App,
	view: RepoView,
	head: string,
	filter: CommitFilter,
	offset: number,
	limit: number,
): { commits: WalkedCommit[]; total: number } {
	const filtered = Object.values(filter).some((value) => value !== undefined);
	const { commits } = filterCommits(app, view, head, filter, offset + limit + 1);
	const page = commits.slice(offset, offset + limit);
	const total = filtered
		? offset + page.length + (commits.length > offset + limit ? 1 : 0)
		: app.stores.git.ancestors(view.repo.id, head).length;
	return { commits: page, total };
}

function filterCommits(
	app: App,
	view: RepoView,
	head: string,
	filter: CommitFilter,
	stopAfter: number,
): { commits: WalkedCommit[]; complete: boolean } {
	const repoId = view.repo.id;
	const reader = new CommitReader(app, repoId);
	const authors = new AuthorLookup(app);
	const trees = new Map<string, Map<string, string>>();
	const matches = (person: CommitData['author'], wanted: string) =>
		person.email.toLowerCase() === wanted.toLowerCase() || authors.account(person.email)?.login.toLowerCase() === wanted.toLowerCase();
	const path = filter.path?.replace(/^\/+|\/+$/g, '');
	return walkCommits(app, repoId, head, {
		reader,
		stopAfter,
		accept: ({ data }) => {
			if (filter.author !== undefined && !matches(data.author, filter.author)) return false;
			if (filter.committer !== undefined && !matches(data.committer, filter.committer)) return false;
			if (filter.since !== undefined && data.committer.seconds < filter.since) return false;
			if (filter.until !== undefined && data.committer.seconds > filter.until) return false;
			if (path) {
				const here = entryAt(app, repoId, data.tree, path, trees);
				if (data.parents.length === 0) return here !== null;
				return data.parents.every((parent) => {
					const parentData = reader.read(parent);
					return !parentData || entryAt(app, repoId, parentData.tree, path, trees) !== here;
				});
			}
			return true;
		},
	});
}

/**
 * A revision of the repository (sha, branch, tag, HEAD) → its commit.
 * @param missing the status of GitHub's answer for an unknown revision: 422 for one commit, 404 for the commit list's `sha`
 * @throws DomainError 409 "Git Repository is empty."; 422 or 404 "No commit found for SHA: <ref>"
 */
export function requireCommit(app: App, view: RepoView, ref: string, missing: 404 | 422 = 422): string {
	requireCommits(app, view.repo.id);
	const sha = resolveCommit(app, view.repo, ref);
	if (!sha) {
		const message = `No commit found for SHA: ${ref}`;
		throw missing === 404 ? notFound(message) : unprocessable(message);
	}
	return sha;
}

/** Files of one commit GitHub lists at most, over pages of MAX_DIFF_FILES. */
export const MAX_COMMIT_FILES = 3000;

/**
 * The files of a change list as GitHub lists them: the `limit` files from `offset` (at most
 * MAX_DIFF_FILES), and the line totals over every change given.
 */
export function diffFiles(app: App, view: RepoView, atSha: string, changes: TreeChange[], offset = 0, limit = MAX_DIFF_FILES) {
	let additions = 0;
	let deletions = 0;
	const end = offset + Math.min(limit, MAX_DIFF_FILES);
	const files: Array<ReturnType<typeof diffEntry>> = [];
	changes.forEach((change, index) => {
		const patch = filePatch(app, view.repo.id, change);
		additions += patch.additions;
		deletions += patch.deletions;
		if (index >= offset && index < end) files.push(diffEntry(app.urls, view, atSha, change, patch));
	});
	return { files, stats: { total: additions + deletions, additions, deletions } };
}

/** The changes a commit made (at most `limit`): its tree against its first parent's (everything, for a root commit). */
export function commitChanges(app: App, repoId: number, data: CommitData, limit = MAX_COMMIT_FILES): TreeChange[] {
	const parent = data.parents[0] ? new CommitReader(app, repoId).read(data.parents[0]) : null;
	return diffTrees(app, repoId, parent?.tree ?? null, data.tree, limit).changes;
}

/** One side of a comparison: the repository holding it and the commit. */
export interface CompareSide {
	/** The text as given ('main', 'octocat:main', 'octocat:hello-world:main'). */
	text: string;
	sha: string;
	/** The login owning the repository the side names (for permalink_url). */
	ownerLogin: string;
}

/**
 * Parses "base...head" (or "base..head"), each side `ref`, `owner:ref` or `owner:repo:ref`; an
 * owner names this repository's owner or the fork of this repository's network it owns.
 * @returns the repository to read both commits in, and both commits
 * @throws DomainError 404 "Not Found" for a malformed basehead, an unknown side, or sides that share no objects
 */
export function resolveComparison(
	app: App,
	view: RepoView,
	basehead: string,
	canRead: (repoId: number) => boolean,
): { repoId: number; base: CompareSide; head: CompareSide } {
	const match = /^(.+?)\.{2,3}(.+)$/.exec(basehead);
	if (!match) throw notFound();
	const side = (text: string) => {
		const parts = text.split(':');
		if (parts.length > 3) throw notFound();
		const ref = parts[parts.length - 1];
		let repo = view.repo;
		if (parts.length > 1) {
			const owner = app.stores.accounts.byLogin(parts[0]);
			if (!owner) throw notFound();
			if (owner.id !== view.owner.id || parts.length === 3) {
				const network = new Set(app.stores.repos.network(view.repo.id));
				const named = parts.length === 3 ? app.stores.repos.byOwnerAndName(owner.id, parts[1]) : undefined;
				const candidates = named ? [named] : app.stores.repos.byIds([...network]).filter((r) => r.owner_id === owner.id);
				const found = candidates.find((r) => network.has(r.id) && canRead(r.id));
				if (!found) throw notFound();
				repo = found;
			}
		}
		const sha = resolveCommit(app, repo, ref);
		if (!sha) throw notFound();
		const ownerLogin = repo.id === view.repo.id ? view.owner.login : app.stores.accounts.byId(repo.owner_id)!.login;
		return { repoId: repo.id, side: { text, sha, ownerLogin } };
	};
	const base = side(match[1]);
	const head = side(match[2]);
	// A fork holds its parent's objects as of the fork: read both commits where both are.
	const has = (repoId: number, sha: string) => app.stores.git.meta(repoId, sha)?.type === 'commit';
	const repoId = [head.repoId, base.repoId].find((id) => has(id, base.side.sha) && has(id, head.side.sha));
	if (repoId === undefined) throw notFound();
	return { repoId, base: base.side, head: head.side };
}

/**
 * The commits of head that base lacks, oldest first: the page at `offset` of `limit` commits
 * (GitHub answers at most MAX_COMPARE_COMMITS at once), and how many there are in all.
 */
export function comparisonCommits(
	app: App,
	repoId: number,
	base: string,
	head: string,
	offset = 0,
	limit = MAX_COMPARE_COMMITS,
): { commits: WalkedCommit[]; total: number } {
	const exclude = reachable(app, repoId, base);
	const { commits } = walkCommits(app, repoId, head, { exclude });
	commits.reverse();
	return { commits: commits.slice(offset, offset + Math.min(limit, MAX_COMPARE_COMMITS)), total: commits.length };
}

/** The best common ancestor of two commits. @throws DomainError 404 "No common ancestor between <base> and <head>." */
export function requireMergeBase(app: App, repoId: number, base: CompareSide, head: CompareSide): string {
	const found = mergeBase(app, repoId, base.sha, head.sha);
	if (!found) throw notFound(`No common ancestor between ${base.text} and ${head.text}.`);
	return found;
}

/** A comparison of two commits (GET …/compare/{basehead}): what compareCommits finds. */
export interface Comparison {
	/** The repository both commits are read in (this one, or a fork of its network). */
	repoId: number;
	base: CompareSide;
	head: CompareSide;
	mergeBaseSha: string;
	reader: CommitReader;
	/** The page of head's commits that base lacks, oldest first, and how many there are in all. */
	commits: WalkedCommit[];
	total: number;
	/** The files changed from the merge base to head (at most MAX_DIFF_FILES). */
	changes: TreeChange[];
	/** identical, ahead, behind or diverged, with the commits on each side. */
	counts: ReturnType<typeof aheadBehind>;
}

/**
 * Compares two commits as GitHub's compare API does: resolves `basehead` (resolveComparison), finds
 * their merge base, the page (`offset`, `limit` commits) of head's commits that base lacks, and
 * the files changed from the merge base to head.
 * @param canRead whether the caller may read a repository of the network (a side naming a fork)
 * @throws DomainError 404 for a malformed basehead, an unknown side, sides without a common ancestor
 *   (resolveComparison, requireMergeBase); 409 for an empty repository
 */
export function compareCommits(
	app: App,
	view: RepoView,
	basehead: string,
	canRead: (repoId: number) => boolean,
	page: { offset: number; limit: number },
): Comparison {
	requireCommits(app, view.repo.id);
	const { repoId, base, head } = resolveComparison(app, view, basehead, canRead);
	const mergeBaseSha = requireMergeBase(app, repoId, base, head);
	const reader = new CommitReader(app, repoId);
	const { commits, total } = comparisonCommits(app, repoId, base.sha, head.sha, page.offset, page.limit);
	const changes = diffTrees(app, repoId, reader.read(mergeBaseSha)!.tree, reader.read(head.sha)!.tree, MAX_DIFF_FILES).changes;
	return { repoId, base, head, mergeBaseSha, reader, commits, total, changes, counts: aheadBehind(app, repoId, base.sha, head.sha) };
}
