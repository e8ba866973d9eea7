/**
 * The commit search index (GET /search/commits): the history of each repository's default branch,
 * brought up to date by the code search task (src/api/search/code-index.ts) after the files. The
 * branch's reachable commits (at most MAX_COMMITS, nearest first) are compared with those indexed:
 * commits no longer reachable (a forced push) are taken out, new ones parsed and written (a branch
 * that only moved forward walks just the commits it brought),
 * COMMIT_BATCH per transaction, yielding to the event loop between batches. The author and
 * committer accounts are those their emails belong to at indexing time (as GitHub links them).
 */
import type { App } from '../../app';
import { isoSeconds } from '../../time';
import { AuthorLookup } from '../commits/render';
import { parseCommit } from '../git/objects';
import { isAncestor, resolveCommit } from '../git/service';
import type { NewCommitSearchRow } from './commit-store';

/** Commits indexed per repository at most (the nearest to the branch's head). */
export const MAX_COMMITS = 100_000;
/** Commits written per transaction. */
const COMMIT_BATCH = 500;

const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Commits reachable from `head` and not from the indexed ones, breadth first, at most `limit`. */
function newCommits(app: App, repoId: number, head: string, indexed: ReadonlySet<string>, limit: number): string[] {
	const seen = new Set<string>();
	const queue = [head];
	const out: string[] = [];
	for (let at = 0; at < queue.length && out.length < limit; at++) {
		const sha = queue[at];
		if (seen.has(sha) || indexed.has(sha)) continue;
		seen.add(sha);
		out.push(sha);
		queue.push(...app.stores.git.parents(repoId, sha));
	}
	return out;
}

/**
 * Brings a repository's commit index to its default branch as it is now. Idempotent: nothing is
 * written when the indexed head is the branch's.
 * @returns true when the branch moved meanwhile (index again)
 */
export async function indexCommits(app: App, repoId: number): Promise<boolean> {
	const { repos, commitSearch, git } = app.stores;
	const repo = repos.byId(repoId);
	if (!repo) return false;
	const head = resolveCommit(app, repo, `refs/heads/${repo.default_branch}`);
	const before = commitSearch.state(repoId);
	if (before === head) return false;
	const indexed = commitSearch.indexed(repoId);
	let gone: string[];
	let fresh: string[];
	if (head && before && indexed.size && isAncestor(app, repoId, before, head)) {
		// The branch moved forward (the usual push): only the commits it brought, walked from the
		// head down to what is indexed; nothing left the branch.
		gone = [];
		fresh = newCommits(app, repoId, head, indexed, MAX_COMMITS - indexed.size);
	} else {
		// A new branch, a forced push or a first indexing: the whole history, compared.
		const reachable = head ? git.ancestors(repoId, head).slice(0, MAX_COMMITS) : [];
		const wanted = new Set(reachable);
		gone = [...indexed].filter((sha) => !wanted.has(sha));
		fresh = reachable.filter((sha) => !indexed.has(sha));
	}
	for (let at = 0; at < gone.length; at += COMMIT_BATCH * 10) {
		const batch = gone.slice(at, at + COMMIT_BATCH * 10);
		app.transaction(() => commitSearch.remove(repoId, batch));
		await yieldTurn();
	}
	const authors = new AuthorLookup(app);
	for (let at = 0; at < fresh.length; at += COMMIT_BATCH) {
		const rows = fresh.slice(at, at + COMMIT_BATCH).flatMap((sha): NewCommitSearchRow[] => {
			const object = git.object(repoId, sha);
			if (!object || object.type !== 'commit') return [];
			const data = parseCommit(object.content);
			return [
				{
					sha,
					tree_sha: data.tree,
					parents: JSON.stringify(data.parents),
					message: data.message,
					author_name: data.author.name,
					author_email: data.author.email,
					author_date: isoSeconds(data.author.seconds * 1000),
					author_id: authors.account(data.author.email)?.id ?? null,
					committer_name: data.committer.name,
					committer_email: data.committer.email,
					committer_date: isoSeconds(data.committer.seconds * 1000),
					committer_id: authors.account(data.committer.email)?.id ?? null,
				},
			];
		});
		if (rows.length) app.transaction(() => commitSearch.add(repoId, rows));
		await yieldTurn();
	}
	const current = repos.byId(repoId);
	if (!current) return false;
	app.transaction(() => commitSearch.setState(repoId, head, isoSeconds(app.clock())));
	return resolveCommit(app, current, `refs/heads/${current.default_branch}`) !== head;
}
