/**
 * Prepared statements for repository milestones (GitHub's milestones API). open_issues and
 * closed_issues are kept by triggers on issues (schema.sql), so a milestone row carries its counts.
 */
import type { DB } from '../../db/open';
import type { LabelRow, MilestoneRow } from '../../model/rows';

/** REST's sorts (due_on, completeness) and GraphQL's other orders (number, created, updated). */
export type MilestoneSort = 'due_on' | 'completeness' | 'number' | 'created' | 'updated';

/** Filter and order of GET /repos/{owner}/{repo}/milestones. */
export interface MilestoneFilter {
	repoId: number;
	state: 'open' | 'closed' | 'all';
	sort: MilestoneSort;
	direction: 'asc' | 'desc';
	limit: number;
	offset: number;
}

// Milestones without a due date come last either way; completeness is the share of closed issues
// (a milestone without issues counts as 0 %).
const ORDER: Record<MilestoneSort, (direction: string) => string> = {
	due_on: (d) => `m.due_on IS NULL, m.due_on ${d}, m.number ${d}`,
	completeness: (d) =>
		`CASE WHEN m.open_issues + m.closed_issues = 0 THEN 0.0 ELSE 1.0 * m.closed_issues / (m.open_issues + m.closed_issues) END ${d}, m.number ${d}`,
	number: (d) => `m.number ${d}`,
	created: (d) => `m.created_at ${d}, m.number ${d}`,
	updated: (d) => `m.updated_at ${d}, m.number ${d}`,
};
const WHERE = "m.repo_id = @repoId AND (@state = 'all' OR m.state = @state)";

export type MilestoneStore = ReturnType<typeof createMilestoneStore>;

/** Prepares the milestone statements on `db` (once per open database). */
export function createMilestoneStore(db: DB) {
	const byNumber = db.prepare('SELECT * FROM milestones WHERE repo_id = ? AND number = ?');
	const byTitle = db.prepare('SELECT * FROM milestones WHERE repo_id = ? AND title = ?');
	const byId = db.prepare('SELECT * FROM milestones WHERE id = ?');
	const byIds = db.prepare('SELECT * FROM milestones WHERE id IN (SELECT value FROM json_each(?))');
	const nextNumber = db.prepare('SELECT coalesce(max(number), 0) + 1 FROM milestones WHERE repo_id = ?').pluck();
	const insert = db.prepare(`
		INSERT INTO milestones (repo_id, number, title, description, state, due_on, creator_id, created_at, updated_at, closed_at)
		VALUES (@repo_id, @number, @title, @description, @state, @due_on, @creator_id, @now, @now, @closed_at)`);
	const update = db.prepare(`
		UPDATE milestones SET title = @title, description = @description, state = @state, due_on = @due_on,
			closed_at = @closed_at, updated_at = @now WHERE id = @id`);
	const remove = db.prepare('DELETE FROM milestones WHERE id = ?');
	const lists = new Map<string, ReturnType<DB['prepare']>>();
	for (const sort of Object.keys(ORDER) as MilestoneSort[]) {
		for (const direction of ['asc', 'desc']) {
			lists.set(
				`${sort} ${direction}`,
				db.prepare(`SELECT m.* FROM milestones m WHERE ${WHERE} ORDER BY ${ORDER[sort](direction)} LIMIT @limit OFFSET @offset`),
			);
		}
	}
	const count = db.prepare(`SELECT count(*) FROM milestones m WHERE ${WHERE}`).pluck();
	// The labels of a milestone's issues, distinct, in name order (GET …/milestones/{n}/labels).
	const labelsWhere =
		'l.id IN (SELECT il.label_id FROM issues i JOIN issue_labels il ON il.issue_id = i.id WHERE i.milestone_id = @milestoneId)';
	const labels = db.prepare(
		`SELECT l.* FROM labels l WHERE ${labelsWhere} ORDER BY l.name COLLATE NOCASE, l.id LIMIT @limit OFFSET @offset`,
	);
	const labelCount = db.prepare(`SELECT count(*) FROM labels l WHERE ${labelsWhere}`).pluck();

	return {
		byNumber: (repoId: number, number: number) => byNumber.get(repoId, number) as MilestoneRow | undefined,
		byTitle: (repoId: number, title: string) => byTitle.get(repoId, title) as MilestoneRow | undefined,
		byId: (id: number) => byId.get(id) as MilestoneRow | undefined,
		/** id → milestone, for several ids (one query). */
		mapByIds(ids: Iterable<number>): Map<number, MilestoneRow> {
			const unique = [...new Set(ids)];
			if (unique.length === 0) return new Map();
			return new Map((byIds.all(JSON.stringify(unique)) as MilestoneRow[]).map((row) => [row.id, row]));
		},
		/** Inserts a milestone with the repository's next number. @param now ISO timestamp */
		insert(
			row: Pick<MilestoneRow, 'repo_id' | 'title' | 'description' | 'state' | 'due_on' | 'creator_id'>,
			now: string,
		): MilestoneRow {
			const number = nextNumber.get(row.repo_id) as number;
			const closed_at = row.state === 'closed' ? now : null;
			return byId.get(insert.run({ ...row, number, now, closed_at }).lastInsertRowid) as MilestoneRow;
		},
		/** Writes the editable fields; closed_at follows the state. @param now ISO timestamp */
		update(row: MilestoneRow, now: string): MilestoneRow {
			update.run({ ...row, now });
			return byId.get(row.id) as MilestoneRow;
		},
		/** Deletes a milestone; its issues keep no milestone (ON DELETE SET NULL). */
		remove: (id: number) => void remove.run(id),
		list(filter: MilestoneFilter) {
			const { sort, direction, limit, offset, ...where } = filter;
			return {
				rows: lists.get(`${sort} ${direction}`)!.all({ ...where, limit, offset }) as MilestoneRow[],
				total: count.get(where) as number,
			};
		},
		/** The labels on the milestone's issues, distinct, one page. */
		labels(milestoneId: number, limit: number, offset: number) {
			return {
				rows: labels.all({ milestoneId, limit, offset }) as LabelRow[],
				total: labelCount.get({ milestoneId }) as number,
			};
		},
	};
}
