/**
 * Prepared statements for organization settings and listings.
 */
import type { DB } from '../../db/open';
import type { AccountRow } from '../users/store';

/** Columns PATCH /orgs/{org} may change. */
export type OrgSettings = Pick<
	AccountRow,
	| 'name'
	| 'email'
	| 'company'
	| 'blog'
	| 'location'
	| 'description'
	| 'billing_email'
	| 'default_repository_permission'
	| 'members_can_create_repositories'
	| 'members_can_create_teams'
	| 'has_organization_projects'
	| 'has_repository_projects'
>;

export type OrgStore = ReturnType<typeof createOrgStore>;

export function createOrgStore(db: DB) {
	const update = db.prepare(`
		UPDATE accounts SET name = @name, email = @email, company = @company, blog = @blog, location = @location,
			description = @description, billing_email = @billing_email,
			default_repository_permission = @default_repository_permission,
			members_can_create_repositories = @members_can_create_repositories,
			members_can_create_teams = @members_can_create_teams,
			has_organization_projects = @has_organization_projects, has_repository_projects = @has_repository_projects,
			updated_at = @updated_at
		WHERE id = @id AND type = 'Organization'`);
	const all = db.prepare(`SELECT * FROM accounts WHERE type = 'Organization' AND id > ? ORDER BY id LIMIT ?`);
	// Organizations of a user: all active ones, or only publicized memberships (publicOnly = 1).
	const ofUser = db.prepare(`
		SELECT a.* FROM org_memberships m JOIN accounts a ON a.id = m.org_id
		WHERE m.user_id = @userId AND m.state = 'active' AND (@publicOnly = 0 OR m.public = 1)
		ORDER BY a.id LIMIT @limit OFFSET @offset`);
	const countOfUser = db
		.prepare(`SELECT count(*) FROM org_memberships m WHERE m.user_id = @userId AND m.state = 'active' AND (@publicOnly = 0 OR m.public = 1)`)
		.pluck();

	return {
		/** @param updatedAt ISO timestamp */
		update: (id: number, settings: OrgSettings, updatedAt: string) => void update.run({ ...settings, id, updated_at: updatedAt }),
		/** GET /organizations: organizations with id > since, in id order. */
		list: (since: number, limit: number) => all.all(since, limit) as AccountRow[],
		ofUser(filter: { userId: number; publicOnly: boolean; limit: number; offset: number }) {
			const params = { ...filter, publicOnly: filter.publicOnly ? 1 : 0 };
			return { rows: ofUser.all(params) as AccountRow[], total: countOfUser.get(params) as number };
		},
	};
}
