/**
 * Prepared statements for organization listings (settings are written by the account store).
 */
import type { DB } from '../../db/open';
import type { AccountRow } from '../users/store';

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

	return {
		/** GET /organizations: organizations with id > since, in id order. */
		list: (since: number, limit: number) => all.all(since, limit) as AccountRow[],
		/** Organizations the user is an active member of, by id; `orgId` (optional) narrows them to one. */
		ofUser(filter: { userId: number; orgId?: number | null; publicOnly: boolean; limit: number; offset: number }) {
			const params = { ...filter, orgId: filter.orgId ?? null, publicOnly: filter.publicOnly ? 1 : 0 };
			return { rows: ofUser.all(params) as AccountRow[], total: countOfUser.get(params) as number };
		},
	};
}
