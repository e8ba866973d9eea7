/**
 * The issues' full-text index rows (issues_fts, contentless) and what it has still to take: the
 * watermark (the highest issue id indexed; issues above it are not in the index yet) and the
 * pending list (indexed issues whose title or body changed, or which were deleted, since: triggers
 * on issues fill it). Written only by the indexer (src/api/search/issue-index.ts).
 */
import type { DB } from '../../db/open';

/** An issue's indexed text; `present` 0 when the issue no longer exists (its entry is removed). */
export interface IssueText {
	id: number;
	title: string | null;
	body: string | null;
	present: 0 | 1;
}

/** Creates the issue index store. */
export function createIssueIndexStore(db: DB) {
	const watermark = db.prepare('SELECT issue_id FROM issues_fts_watermark WHERE id = 1').pluck();
	const setWatermark = db.prepare('UPDATE issues_fts_watermark SET issue_id = ? WHERE id = 1');
	const behind = db
		.prepare(
			`SELECT (SELECT coalesce(max(id), 0) FROM issues) > (SELECT issue_id FROM issues_fts_watermark WHERE id = 1)
				OR EXISTS (SELECT 1 FROM issues_fts_pending)`,
		)
		.pluck();
	const above = db.prepare('SELECT id, title, body, 1 AS present FROM issues WHERE id > ? ORDER BY id LIMIT ?');
	const pending = db.prepare(`
		SELECT p.issue_id AS id, i.title, i.body, i.id IS NOT NULL AS present
		FROM issues_fts_pending p LEFT JOIN issues i ON i.id = p.issue_id ORDER BY p.issue_id LIMIT ?`);
	const done = db.prepare('DELETE FROM issues_fts_pending WHERE issue_id = ?');
	const put = db.prepare('INSERT OR REPLACE INTO issues_fts (rowid, title, body) VALUES (?, ?, ?)');
	const remove = db.prepare('DELETE FROM issues_fts WHERE rowid = ?');
	return {
		/** The highest issue id the index holds (issues above it are not indexed yet). */
		watermark: () => watermark.get() as number,
		setWatermark: (id: number) => void setWatermark.run(id),
		/** True when some issue is above the watermark or pending. */
		behind: () => (behind.get() as number) === 1,
		/** Issues above `id`, in id order, at most `limit`. */
		above: (id: number, limit: number) => above.all(id, limit) as IssueText[],
		/** Pending issues in id order, at most `limit` (present 0: deleted). */
		pending: (limit: number) => pending.all(limit) as IssueText[],
		/** Indexes the issue's text as it is now (replacing its entry), or removes a deleted one's. */
		write(row: IssueText): void {
			if (row.present) put.run(row.id, row.title, row.body);
			else remove.run(row.id);
		},
		/** Takes an issue off the pending list. */
		settle: (id: number) => void done.run(id),
	};
}
