/**
 * Prepared statements for stars (GitHub's starring): who starred which repository, and when.
 * repositories.stargazers_count follows the rows by triggers (schema.sql), so repository records
 * carry the count without a query.
 */
import type { DB } from '../../db/open';
import type { AccountRow } from '../../model/rows';
import type { ListedRepository } from '../repos/store';

export interface StarRow {
	user_id: number;
	repo_id: number;
	/** ISO timestamp: starred_at. */
	created_at: string;
}

/** A stargazer: the account and when it starred (`at`, ISO timestamp). */
export type Stargazer = AccountRow & { at: string };

/** Sort keys of GET /user/starred: when starred, or when the repository was last pushed to. */
export type StarSort = 'created' | 'updated';

const SORT_KEYS: Record<StarSort, string> = { created: 's.created_at', updated: 'coalesce(r.pushed_at, r.updated_at)' };

export type StarStore = ReturnType<typeof createStarStore>;

/** Prepares the starring statements on `db` (once per open database, src/api/stores.ts). */
export function createStarStore(db: DB) {
	const get = db.prepare('SELECT * FROM stars WHERE user_id = ? AND repo_id = ?');
	const insert = db.prepare('INSERT OR IGNORE INTO stars (user_id, repo_id, created_at) VALUES (?, ?, ?)');
	const remove = db.prepare('DELETE FROM stars WHERE user_id = ? AND repo_id = ?');
	// A user's starred repositories, whole list in order: ids, owners and visibility only (lists
	// decide visibility on these, then load the one page they show).
	const starredBy = new Map(
		(Object.keys(SORT_KEYS) as StarSort[]).flatMap((sort) =>
			(['asc', 'desc'] as const).map((direction) => [
				`${sort} ${direction}`,
				db.prepare(`
					SELECT r.id AS repo_id, r.owner_id, r.visibility, s.created_at AS at FROM stars s JOIN repositories r ON r.id = s.repo_id
					WHERE s.user_id = ? ORDER BY ${SORT_KEYS[sort]} ${direction}, r.id ${direction}`),
			]),
		),
	);
	// Stargazers, oldest star first (GitHub's order).
	const stargazerPage = db.prepare(`
		SELECT a.*, s.created_at AS at FROM stars s JOIN accounts a ON a.id = s.user_id
		WHERE s.repo_id = ? ORDER BY s.created_at, s.user_id LIMIT ? OFFSET ?`);
	const stargazerCount = db.prepare('SELECT count(*) FROM stars WHERE repo_id = ?').pluck();
	const stargazerIds = db.prepare('SELECT user_id, created_at AS at FROM stars WHERE repo_id = ? ORDER BY created_at, user_id');

	return {
		get: (userId: number, repoId: number) => get.get(userId, repoId) as StarRow | undefined,
		/**
		 * Stars the repository for the user (nothing when already starred).
		 * @param now ISO timestamp
		 * @returns the new star, or null when it existed
		 */
		star(userId: number, repoId: number, now: string): StarRow | null {
			return insert.run(userId, repoId, now).changes > 0 ? { user_id: userId, repo_id: repoId, created_at: now } : null;
		},
		/** Removes the user's star. @returns whether there was one */
		unstar: (userId: number, repoId: number) => remove.run(userId, repoId).changes > 0,
		/** Every repository the user starred, in the order asked (ties by repository id). */
		starredBy: (userId: number, sort: StarSort, direction: 'asc' | 'desc') =>
			starredBy.get(`${sort} ${direction}`)!.all(userId) as ListedRepository[],
		/** One page of the repository's stargazers, oldest star first. */
		stargazerPage: (repoId: number, limit: number, offset: number) => stargazerPage.all(repoId, limit, offset) as Stargazer[],
		stargazerCount: (repoId: number) => stargazerCount.get(repoId) as number,
		/** Every stargazer's id with when it starred, oldest first. */
		stargazerIds: (repoId: number) => stargazerIds.all(repoId) as Array<{ user_id: number; at: string }>,
	};
}
