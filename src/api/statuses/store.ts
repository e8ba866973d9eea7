/**
 * Prepared statements for commit statuses (schema.sql, "commit statuses"): one row per status a
 * caller posted for a commit; the combined status of a commit is the newest row per context.
 */
import type { DB } from '../../db/open';

export type StatusState = 'error' | 'failure' | 'pending' | 'success';

export interface CommitStatusRow {
	id: number;
	repo_id: number;
	/** The commit's full id, lower-case hex. */
	sha: string;
	state: StatusState;
	context: string;
	description: string | null;
	target_url: string | null;
	creator_id: number | null;
	/** ISO timestamps. */
	created_at: string;
	updated_at: string;
}

export type StatusStore = ReturnType<typeof createStatusStore>;

/** Prepares the statements of commit statuses on `db`. */
export function createStatusStore(db: DB) {
	const insert = db.prepare(`
		INSERT INTO commit_statuses (repo_id, sha, state, context, description, target_url, creator_id, created_at, updated_at)
		VALUES (@repo_id, @sha, @state, @context, @description, @target_url, @creator_id, @created_at, @created_at)`);
	const byId = db.prepare('SELECT * FROM commit_statuses WHERE id = ?');
	const list = db.prepare('SELECT * FROM commit_statuses WHERE repo_id = ? AND sha = ? ORDER BY id DESC LIMIT ? OFFSET ?');
	const count = db.prepare('SELECT count(*) FROM commit_statuses WHERE repo_id = ? AND sha = ?').pluck();
	const contextCount = db.prepare('SELECT count(*) FROM commit_statuses WHERE repo_id = ? AND sha = ? AND context = ?').pluck();
	// The newest status of each context (the index holds (repo_id, sha, context, id): one seek per context).
	const latest = db.prepare(`
		SELECT s.* FROM commit_statuses s
		WHERE s.id IN (SELECT max(id) FROM commit_statuses WHERE repo_id = ? AND sha = ? GROUP BY context)
		ORDER BY s.id DESC`);

	return {
		/** Stores a status. @param row.created_at ISO timestamp (also updated_at) */
		insert(row: Omit<CommitStatusRow, 'id' | 'updated_at'>): CommitStatusRow {
			return byId.get(insert.run(row).lastInsertRowid) as CommitStatusRow;
		},
		/** Statuses of a commit, newest first, and how many there are. */
		list(repoId: number, sha: string, limit: number, offset: number): { rows: CommitStatusRow[]; total: number } {
			return { rows: list.all(repoId, sha, limit, offset) as CommitStatusRow[], total: count.get(repoId, sha) as number };
		},
		/** How many statuses a commit has in one context. */
		contextCount: (repoId: number, sha: string, context: string) => contextCount.get(repoId, sha, context) as number,
		/** The newest status of each context of a commit, newest first. */
		latestByContext: (repoId: number, sha: string) => latest.all(repoId, sha) as CommitStatusRow[],
	};
}
