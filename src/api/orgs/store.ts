/**
 * Prepared statements for organization listings (settings are written by the account store).
 */
import type { DB } from '../../db/open';
import type { AccountRow } from '../../model/rows';

export type OrgStore = ReturnType<typeof createOrgStore>;

export function createOrgStore(db: DB) {
	const all = db.prepare(`SELECT * FROM accounts WHERE type = 'Organization' AND id > ? ORDER BY id LIMIT ?`);
	// Organizations of a user: all active ones, or only publicized memberships (publicOnly = 1);
	// @orgId NULL: every organization, otherwise that one only (a token bound to one account).
	const ofUser = db.prepare(`
		SELECT a.* FROM org_memberships m JOIN accounts a ON a.id = m.org_id
		WHERE m.user_id = @userId AND m.state = 'active' AND (@publicOnly = 0 OR m.public = 1) AND (@orgId IS NULL OR m.org_id = @orgId)
		ORDER BY a.id LIMIT @limit OFFSET @offset`);
	const countOfUser = db
		.prepare(`
		SELECT count(*) FROM org_memberships m
		WHERE m.user_id = @userId AND m.state = 'active' AND (@publicOnly = 0 OR m.public = 1) AND (@orgId IS NULL OR m.org_id = @orgId)`)
		.pluck();

	const repositoryCount = db.prepare('SELECT count(*) FROM repositories WHERE owner_id = ?').pluck();
	const repositoryIds = db.prepare('SELECT id FROM repositories WHERE owner_id = ? ORDER BY id LIMIT ?').pluck();
	// Parking: the repositories move to the holder, private, without direct collaborators (nobody reads them).
	const park = db.prepare(`UPDATE repositories SET owner_id = ?, visibility = 'private' WHERE owner_id = ?`);
	const dropCollaborators = db.prepare(
		'DELETE FROM repository_collaborators WHERE repo_id IN (SELECT id FROM repositories WHERE owner_id = ?)',
	);

	return {
		/** How many repositories the account owns. */
		repositoryCount: (ownerId: number) => repositoryCount.get(ownerId) as number,
		/** Up to `limit` ids of the account's repositories, oldest first. */
		repositoryIds: (ownerId: number, limit: number) => repositoryIds.all(ownerId, limit) as number[],
		/**
		 * Moves every repository of `fromId` to the holder account `toId`, made private and without
		 * direct collaborators, in two statements (the deletion of a large organization).
		 */
		parkRepositories(fromId: number, toId: number): void {
			park.run(toId, fromId);
			dropCollaborators.run(toId);
		},
		/** GET /organizations: organizations with id > since, in id order. */
		list: (since: number, limit: number) => all.all(since, limit) as AccountRow[],
		/** Organizations the user is an active member of, by id; `orgId` (optional) narrows them to one. */
		ofUser(filter: { userId: number; orgId?: number | null; publicOnly: boolean; limit: number; offset: number }) {
			const params = { ...filter, orgId: filter.orgId ?? null, publicOnly: filter.publicOnly ? 1 : 0 };
			return { rows: ofUser.all(params) as AccountRow[], total: countOfUser.get(params) as number };
		},
	};
}
