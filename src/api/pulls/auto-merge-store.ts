/**
 * Prepared statements for pull_request_auto_merges (schema.sql): the auto-merge request of an open
 * pull request, one row per pull request.
 */
import type { DB } from '../../db/open';

/** One auto-merge request as stored. */
export interface AutoMergeRow {
	issue_id: number;
	/** The user who enabled it (null once that account is deleted). */
	enabled_by_id: number | null;
	merge_method: 'merge' | 'squash' | 'rebase';
	/** The merge commit's title and message; null: the method's defaults. */
	commit_title: string | null;
	commit_message: string | null;
	author_email: string | null;
	/** ISO timestamp. */
	enabled_at: string;
}

export type AutoMergeStore = ReturnType<typeof createAutoMergeStore>;

export function createAutoMergeStore(db: DB) {
	const byIssue = db.prepare('SELECT * FROM pull_request_auto_merges WHERE issue_id = ?');
	const byIssues = db.prepare('SELECT * FROM pull_request_auto_merges WHERE issue_id IN (SELECT value FROM json_each(?))');
	const upsert = db.prepare(`
		INSERT INTO pull_request_auto_merges (issue_id, enabled_by_id, merge_method, commit_title, commit_message, author_email, enabled_at)
		VALUES (@issue_id, @enabled_by_id, @merge_method, @commit_title, @commit_message, @author_email, @enabled_at)
		ON CONFLICT (issue_id) DO UPDATE SET enabled_by_id = excluded.enabled_by_id, merge_method = excluded.merge_method,
			commit_title = excluded.commit_title, commit_message = excluded.commit_message, author_email = excluded.author_email,
			enabled_at = excluded.enabled_at`);
	const remove = db.prepare('DELETE FROM pull_request_auto_merges WHERE issue_id = ?');
	// Open pull requests of a repository waiting to be merged (few: the index is the primary key of a small table).
	const waitingIn = db.prepare(`
		SELECT a.issue_id FROM pull_request_auto_merges a
		JOIN pull_requests p ON p.issue_id = a.issue_id
		JOIN issues i ON i.id = a.issue_id
		WHERE p.repo_id = ? AND i.state = 'open' AND p.merged_at IS NULL
		ORDER BY a.issue_id LIMIT 100`);
	return {
		byIssue: (issueId: number) => byIssue.get(issueId) as AutoMergeRow | undefined,
		/** The rows of several pull requests, by issue id. */
		byIssues(issueIds: readonly number[]): Map<number, AutoMergeRow> {
			if (issueIds.length === 0) return new Map();
			return new Map((byIssues.all(JSON.stringify(issueIds)) as AutoMergeRow[]).map((row) => [row.issue_id, row]));
		},
		set: (row: AutoMergeRow) => void upsert.run(row),
		/** @returns whether a row was removed */
		remove: (issueId: number) => remove.run(issueId).changes > 0,
		/** Issue ids of the repository's open pull requests with auto-merge enabled (at most 100). */
		waitingIn: (repoId: number) => waitingIn.pluck().all(repoId) as number[],
	};
}
