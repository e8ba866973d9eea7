/**
 * The statements of a "selected repositories" list: a table of (owner id, repository id) rows that
 * gives something (an organization secret, an app installation, an organization policy) to the
 * repositories chosen for it. Stores that keep such a list prepare it here instead of writing the
 * same six statements again.
 */
import type { DB } from '../db/open';
import type { RepositoryRow } from './rows';

/**
 * Prepares the statements of one selection table.
 * @param table the table, e.g. 'actions_secret_repositories'
 * @param owner its column naming what the repositories are chosen for, e.g. 'secret_id'
 * @param repo its column naming the repository, e.g. 'repo_id'
 * @param order the ORDER BY of a page, over the repository `r` (e.g. 'r.id')
 */
export function repositorySelection(db: DB, table: string, owner: string, repo: string, order: string) {
	const ids = db.prepare(`SELECT ${repo} FROM ${table} WHERE ${owner} = ? ORDER BY ${repo}`).pluck();
	const page = db.prepare(`
		SELECT r.* FROM ${table} s JOIN repositories r ON r.id = s.${repo}
		WHERE s.${owner} = ? ORDER BY ${order} LIMIT ? OFFSET ?`);
	const count = db.prepare(`SELECT count(*) FROM ${table} WHERE ${owner} = ?`).pluck();
	const has = db.prepare(`SELECT 1 FROM ${table} WHERE ${owner} = ? AND ${repo} = ?`).pluck();
	const add = db.prepare(`INSERT OR IGNORE INTO ${table} (${owner}, ${repo}) VALUES (?, ?)`);
	const remove = db.prepare(`DELETE FROM ${table} WHERE ${owner} = ? AND ${repo} = ?`);
	const clear = db.prepare(`DELETE FROM ${table} WHERE ${owner} = ?`);
	return {
		/** Ids of the repositories chosen for `id`, ascending. */
		ids: (id: number) => ids.all(id) as number[],
		/** One page of them (in `order`) and how many there are. */
		page: (id: number, limit: number, offset: number) => ({
			rows: page.all(id, limit, offset) as RepositoryRow[],
			total: count.get(id) as number,
		}),
		count: (id: number) => count.get(id) as number,
		has: (id: number, repoId: number) => has.get(id, repoId) === 1,
		/** @returns whether it was not chosen before */
		add: (id: number, repoId: number) => add.run(id, repoId).changes > 0,
		/** @returns whether it was chosen */
		remove: (id: number, repoId: number) => remove.run(id, repoId).changes > 0,
		clear: (id: number) => void clear.run(id),
	};
}
