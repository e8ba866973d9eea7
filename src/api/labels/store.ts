/**
 * Prepared statements for repository labels and the labels of issues.
 */
import type { DB } from '../../db/open';
import type { LabelRow } from '../../model/rows';

/** GitHub's default labels, created with every repository: [name, color, description]. */
export const DEFAULT_LABELS: ReadonlyArray<readonly [string, string, string]> = [
	['bug', 'd73a4a', "Something isn't working"],
	['documentation', '0075ca', 'Improvements or additions to documentation'],
	['duplicate', 'cfd3d7', 'This issue or pull request already exists'],
	['enhancement', 'a2eeef', 'New feature or request'],
	['good first issue', '7057ff', 'Good for newcomers'],
	['help wanted', '008672', 'Extra attention is needed'],
	['invalid', 'e4e669', "This doesn't seem right"],
	['question', 'd876e3', 'Further information is requested'],
	['wontfix', 'ffffff', 'This will not be worked on'],
];

/** Color of a label created implicitly, by naming it on an issue (GitHub's grey). */
export const IMPLICIT_LABEL_COLOR = 'ededed';

export type LabelStore = ReturnType<typeof createLabelStore>;

export function createLabelStore(db: DB) {
	const byName = db.prepare('SELECT * FROM labels WHERE repo_id = ? AND name = ?');
	const byId = db.prepare('SELECT * FROM labels WHERE id = ?');
	const list = db.prepare('SELECT * FROM labels WHERE repo_id = ? ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?');
	const count = db.prepare('SELECT count(*) FROM labels WHERE repo_id = ?').pluck();
	const MATCHING = `repo_id = @repoId AND (@query IS NULL OR instr(lower(name), @query) > 0
		OR instr(lower(coalesce(description, '')), @query) > 0)`;
	const matching = {
		asc: db.prepare(`SELECT * FROM labels WHERE ${MATCHING} ORDER BY name COLLATE NOCASE, id LIMIT @limit OFFSET @offset`),
		desc: db.prepare(`SELECT * FROM labels WHERE ${MATCHING} ORDER BY name COLLATE NOCASE DESC, id DESC LIMIT @limit OFFSET @offset`),
	};
	const matchingCount = db.prepare(`SELECT count(*) FROM labels WHERE ${MATCHING}`).pluck();
	const insert = db.prepare(
		'INSERT INTO labels (repo_id, name, color, description, is_default) VALUES (@repo_id, @name, @color, @description, @is_default)',
	);
	const update = db.prepare('UPDATE labels SET name = @name, color = @color, description = @description WHERE id = @id');
	const remove = db.prepare('DELETE FROM labels WHERE id = ?');
	// Labels of several issues at once, in name order (as GitHub lists them).
	const forIssues = db.prepare(`
		SELECT il.issue_id, l.* FROM issue_labels il JOIN labels l ON l.id = il.label_id
		WHERE il.issue_id IN (SELECT value FROM json_each(?)) ORDER BY l.name COLLATE NOCASE, l.id`);
	const attach = db.prepare('INSERT OR IGNORE INTO issue_labels (issue_id, label_id) VALUES (?, ?)');
	const detach = db.prepare('DELETE FROM issue_labels WHERE issue_id = ? AND label_id = ?');
	const detachAll = db.prepare('DELETE FROM issue_labels WHERE issue_id = ?');

	const store = {
		byName: (repoId: number, name: string) => byName.get(repoId, name) as LabelRow | undefined,
		byId: (id: number) => byId.get(id) as LabelRow | undefined,
		list(repoId: number, limit: number, offset: number) {
			return { rows: list.all(repoId, limit, offset) as LabelRow[], total: count.get(repoId) as number };
		},
		/**
		 * A repository's labels by name (case-insensitively), `direction` first, whose name or
		 * description contains `query` (case-insensitively; null: all), and how many match.
		 */
		matching(repoId: number, query: string | null, direction: 'asc' | 'desc', limit: number, offset: number) {
			const where = { repoId, query: query === null ? null : query.toLowerCase() };
			return {
				rows: matching[direction].all({ ...where, limit, offset }) as LabelRow[],
				total: matchingCount.get(where) as number,
			};
		},
		insert(label: Omit<LabelRow, 'id'>): LabelRow {
			return byId.get(insert.run(label).lastInsertRowid) as LabelRow;
		},
		update(label: Pick<LabelRow, 'id' | 'name' | 'color' | 'description'>): LabelRow {
			update.run(label);
			return byId.get(label.id) as LabelRow;
		},
		remove: (id: number) => void remove.run(id),
		/** Creates GitHub's default labels in a new repository. */
		createDefaults(repoId: number): void {
			for (const [name, color, description] of DEFAULT_LABELS)
				insert.run({ repo_id: repoId, name, color, description, is_default: 1 });
		},
		/** The labels named, creating the missing ones (grey, no description) as GitHub does for issues. */
		ensure(repoId: number, names: string[]): LabelRow[] {
			return names.map(
				(name) =>
					(byName.get(repoId, name) as LabelRow | undefined) ??
					store.insert({ repo_id: repoId, name, color: IMPLICIT_LABEL_COLOR, description: null, is_default: 0 }),
			);
		},
		/** issue id → its labels, for several issues. */
		forIssues(issueIds: number[]): Map<number, LabelRow[]> {
			const result = new Map<number, LabelRow[]>();
			for (const row of forIssues.all(JSON.stringify(issueIds)) as Array<LabelRow & { issue_id: number }>) {
				const { issue_id, ...label } = row;
				let labels = result.get(issue_id);
				if (!labels) result.set(issue_id, (labels = []));
				labels.push(label);
			}
			return result;
		},
		/** Adds labels to an issue (labels already on it stay once). */
		attach(issueId: number, labelIds: number[]): void {
			for (const id of labelIds) attach.run(issueId, id);
		},
		/** Replaces an issue's labels. */
		replace(issueId: number, labelIds: number[]): void {
			detachAll.run(issueId);
			for (const id of labelIds) attach.run(issueId, id);
		},
		/** @returns false when the label was not on the issue */
		detach: (issueId: number, labelId: number) => detach.run(issueId, labelId).changes > 0,
	};
	return store;
}
