/**
 * The commit search index's rows (schema 37): which commit of a repository's default branch its
 * indexed history ends at (commit_search_repos) and the commits (commit_search, with the message
 * in commit_search_fts). Written only by the indexing task (src/api/search/commit-index.ts).
 */
import type { DB } from '../../db/open';

/** A commit as the index stores it (dates ISO UTC). */
export interface CommitSearchRow {
	id: number;
	repo_id: number;
	sha: string;
	tree_sha: string;
	/** JSON array of parent ids. */
	parents: string;
	message: string;
	author_name: string;
	author_email: string;
	author_date: string;
	author_id: number | null;
	committer_name: string;
	committer_email: string;
	committer_date: string;
	committer_id: number | null;
}

/** One author of a repository's indexed history. */
export interface ContributorRow {
	/** The account the author email belongs to, if any. */
	author_id: number | null;
	email: string;
	name: string;
	contributions: number;
}

/** A commit to index. */
export type NewCommitSearchRow = Omit<CommitSearchRow, 'id' | 'repo_id'>;

/** Creates the commit search store. */
export function createCommitSearchStore(db: DB) {
	const state = db.prepare('SELECT commit_sha FROM commit_search_repos WHERE repo_id = ?');
	const indexed = db.prepare('SELECT sha FROM commit_search WHERE repo_id = ?').pluck();
	const remove = db.prepare('DELETE FROM commit_search WHERE repo_id = ? AND sha = ?');
	const insert = db.prepare(`
		INSERT OR IGNORE INTO commit_search (repo_id, sha, tree_sha, parents, message, author_name, author_email, author_date,
		  author_id, committer_name, committer_email, committer_date, committer_id)
		VALUES (@repo_id, @sha, @tree_sha, @parents, @message, @author_name, @author_email, @author_date,
		  @author_id, @committer_name, @committer_email, @committer_date, @committer_id)`);
	const setState = db.prepare(`
		INSERT INTO commit_search_repos (repo_id, commit_sha, indexed_at) VALUES (?, ?, ?)
		ON CONFLICT (repo_id) DO UPDATE SET commit_sha = excluded.commit_sha, indexed_at = excluded.indexed_at`);
	// Authors of the indexed history, most commits first: accounts by id, the rest by email (lower case).
	const contributorsOf = (anonymous: boolean) =>
		db.prepare(`
			SELECT author_id, min(lower(author_email)) AS email, min(author_name) AS name, count(*) AS contributions
			FROM commit_search WHERE repo_id = ? ${anonymous ? '' : 'AND author_id IS NOT NULL'}
			GROUP BY coalesce(author_id, 0), CASE WHEN author_id IS NULL THEN lower(author_email) END
			ORDER BY contributions DESC, min(id)
			LIMIT ? OFFSET ?`);
	const contributors = { true: contributorsOf(true), false: contributorsOf(false) };
	const contributorCount = {
		true: db.prepare('SELECT count(DISTINCT coalesce(author_id, lower(author_email))) FROM commit_search WHERE repo_id = ?').pluck(),
		false: db.prepare('SELECT count(DISTINCT author_id) FROM commit_search WHERE repo_id = ? AND author_id IS NOT NULL').pluck(),
	};
	return {
		/**
		 * A page of the indexed history's authors, most commits first (ties: who committed first in
		 * index order): accounts by id; with `anonymous`, authors matching no account too, by email.
		 * @returns the page and the number of authors
		 */
		contributors(repoId: number, anonymous: boolean, limit: number, offset: number): { rows: ContributorRow[]; total: number } {
			const key = anonymous ? 'true' : 'false';
			return {
				rows: contributors[key].all(repoId, limit, offset) as ContributorRow[],
				total: contributorCount[key].get(repoId) as number,
			};
		},
		/** The head whose history is indexed: a commit id, null (no branch), or undefined (never indexed). */
		state(repoId: number): string | null | undefined {
			const row = state.get(repoId) as { commit_sha: string | null } | undefined;
			return row ? row.commit_sha : undefined;
		},
		/** Ids of the indexed commits. */
		indexed: (repoId: number) => new Set(indexed.all(repoId) as string[]),
		/** Takes commits out of the index. */
		remove(repoId: number, shas: readonly string[]): void {
			for (const sha of shas) remove.run(repoId, sha);
		},
		/** Indexes commits (those indexed already stay). */
		add(repoId: number, rows: readonly NewCommitSearchRow[]): void {
			for (const row of rows) insert.run({ ...row, repo_id: repoId });
		},
		/** Records the head now indexed. @param now ISO timestamp */
		setState(repoId: number, head: string | null, now: string): void {
			setState.run(repoId, head, now);
		},
	};
}
