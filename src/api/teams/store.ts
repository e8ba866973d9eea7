/**
 * Prepared statements for teams, team memberships and team repository grants.
 */
import type { DB } from '../../db/open';
import type { AccountRow, TeamRow, RepositoryRow } from '../../model/rows';
import type { RepoPermission } from '../../model/repo-permissions';

export interface TeamMembershipRow {
	team_id: number;
	user_id: number;
	role: 'member' | 'maintainer';
	state: 'active' | 'pending';
	created_at: string;
}

/** A member of a team as listed: the account, its role, and whether it comes from a child team. */
export type TeamMemberRow = AccountRow & { member_role: 'member' | 'maintainer'; inherited: number };

export type NewTeam = Omit<TeamRow, 'id' | 'created_at' | 'updated_at'>;

export type TeamStore = ReturnType<typeof createTeamStore>;

/**
 * Visibility rule in SQL: @seeAll = 1 (owner or app) sees every team; otherwise closed teams and
 * the secret teams the user (@userId) belongs to.
 */
const VISIBLE = `(@seeAll = 1 OR t.privacy = 'closed' OR EXISTS (
	SELECT 1 FROM team_memberships tm WHERE tm.team_id = t.id AND tm.user_id = @userId AND tm.state = 'active'))`;

export function createTeamStore(db: DB) {
	const byId = db.prepare('SELECT * FROM teams WHERE id = ?');
	const bySlug = db.prepare('SELECT * FROM teams WHERE org_id = ? AND slug = ?');
	const byIds = db.prepare('SELECT * FROM teams WHERE id IN (SELECT value FROM json_each(?))');
	const insert = db.prepare(`
		INSERT INTO teams (org_id, name, slug, description, privacy, notification_setting, permission, parent_id, ldap_dn, created_at, updated_at)
		VALUES (@org_id, @name, @slug, @description, @privacy, @notification_setting, @permission, @parent_id, @ldap_dn, @now, @now)`);
	const update = db.prepare(`
		UPDATE teams SET name = @name, slug = @slug, description = @description, privacy = @privacy,
			notification_setting = @notification_setting, permission = @permission, parent_id = @parent_id, updated_at = @now
		WHERE id = @id`);
	const remove = db.prepare('DELETE FROM teams WHERE id = ?');
	const reparent = db.prepare('UPDATE teams SET parent_id = ? WHERE parent_id = ?');
	const order = db.prepare('SELECT id, privacy FROM teams WHERE org_id = ? ORDER BY name COLLATE NOCASE, id').raw();
	const userTeamIds = db
		.prepare(`
		SELECT m.team_id FROM team_memberships m JOIN teams t ON t.id = m.team_id
		WHERE m.user_id = ? AND m.state = 'active' AND t.org_id = ?`)
		.pluck();
	const childIds = db
		.prepare(`
		SELECT t.id FROM teams t WHERE t.parent_id = @parentId AND ${VISIBLE}
		ORDER BY t.name COLLATE NOCASE, t.id LIMIT @limit OFFSET @offset`)
		.pluck();
	const countChildren = db.prepare(`SELECT count(*) FROM teams t WHERE t.parent_id = @parentId AND ${VISIBLE}`).pluck();
	const hasChildren = db.prepare('SELECT EXISTS (SELECT 1 FROM teams WHERE parent_id = ?)').pluck();
	const descendants = db.prepare(`
		WITH RECURSIVE down(id) AS (SELECT id FROM teams WHERE parent_id = ? UNION SELECT t.id FROM teams t JOIN down ON t.parent_id = down.id)
		SELECT * FROM teams WHERE id IN (SELECT id FROM down) ORDER BY id`);
	const ancestors = db
		.prepare(`
		WITH RECURSIVE up(id) AS (SELECT parent_id FROM teams WHERE id = ? AND parent_id IS NOT NULL
			UNION SELECT t.parent_id FROM teams t JOIN up ON t.id = up.id WHERE t.parent_id IS NOT NULL)
		SELECT id FROM up`)
		.pluck();

	// Memberships
	const membership = db.prepare('SELECT * FROM team_memberships WHERE team_id = ? AND user_id = ?');
	const setMembership = db.prepare(`
		INSERT INTO team_memberships (team_id, user_id, role, state, created_at) VALUES (@teamId, @userId, @role, @state, @now)
		ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role,
			state = CASE WHEN team_memberships.state = 'active' THEN 'active' ELSE excluded.state END`);
	const removeMembership = db.prepare('DELETE FROM team_memberships WHERE team_id = ? AND user_id = ?');
	const memberCount = db.prepare("SELECT count(*) FROM team_memberships WHERE team_id = ? AND state = 'active'").pluck();
	// Members of the team and of its descendants; a direct membership wins over an inherited one.
	const members = db.prepare(`
		WITH RECURSIVE family(id, depth) AS (SELECT @teamId, 0 UNION SELECT t.id, f.depth + 1 FROM teams t JOIN family f ON t.parent_id = f.id),
		ranked AS (
			SELECT m.user_id, m.role, f.depth > 0 AS inherited,
				row_number() OVER (PARTITION BY m.user_id ORDER BY f.depth, m.role = 'maintainer' DESC) AS n
			FROM team_memberships m JOIN family f ON f.id = m.team_id WHERE m.state = 'active'
		)
		SELECT a.*, r.role AS member_role, r.inherited FROM ranked r JOIN accounts a ON a.id = r.user_id
		WHERE r.n = 1 AND (@role = 'all' OR r.role = @role) AND (@membership = 'all' OR r.inherited = (@membership = 'child'))
		ORDER BY a.id LIMIT @limit OFFSET @offset`);
	const countMembers = db
		.prepare(`
		WITH RECURSIVE family(id, depth) AS (SELECT @teamId, 0 UNION SELECT t.id, f.depth + 1 FROM teams t JOIN family f ON t.parent_id = f.id),
		ranked AS (
			SELECT m.user_id, m.role, f.depth > 0 AS inherited,
				row_number() OVER (PARTITION BY m.user_id ORDER BY f.depth, m.role = 'maintainer' DESC) AS n
			FROM team_memberships m JOIN family f ON f.id = m.team_id WHERE m.state = 'active'
		)
		SELECT count(*) FROM ranked WHERE n = 1 AND (@role = 'all' OR role = @role) AND (@membership = 'all' OR inherited = (@membership = 'child'))`)
		.pluck();
	const inheritedMembership = db.prepare(`
		WITH RECURSIVE family(id) AS (SELECT id FROM teams WHERE parent_id = @teamId UNION SELECT t.id FROM teams t JOIN family f ON t.parent_id = f.id)
		SELECT m.* FROM team_memberships m WHERE m.user_id = @userId AND m.state = 'active' AND m.team_id IN (SELECT id FROM family) LIMIT 1`);
	const activatePending = db.prepare(`
		UPDATE team_memberships SET state = 'active'
		WHERE user_id = ? AND state = 'pending' AND team_id IN (SELECT id FROM teams WHERE org_id = ?)`);
	const membershipsInOrg = db.prepare(`
		SELECT m.* FROM team_memberships m JOIN teams t ON t.id = m.team_id WHERE t.org_id = ? AND m.user_id = ?`);

	// Repository grants; a team also has what its ancestors were granted.
	const grant = db.prepare('SELECT permission FROM team_repositories WHERE team_id = ? AND repo_id = ?').pluck();
	const setGrant = db.prepare(`
		INSERT INTO team_repositories (team_id, repo_id, permission, created_at, role_id) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (team_id, repo_id) DO UPDATE SET permission = excluded.permission, role_id = excluded.role_id`);
	const removeGrant = db.prepare('DELETE FROM team_repositories WHERE team_id = ? AND repo_id = ?');
	const lineageGrants = db
		.prepare(`
		WITH RECURSIVE lineage(id) AS (SELECT @teamId UNION SELECT t.parent_id FROM teams t JOIN lineage l ON t.id = l.id WHERE t.parent_id IS NOT NULL)
		SELECT permission FROM team_repositories WHERE repo_id = @repoId AND team_id IN (SELECT id FROM lineage)`)
		.pluck();
	const lineageRepositories = db.prepare(`
		WITH RECURSIVE lineage(id) AS (SELECT @teamId UNION SELECT t.parent_id FROM teams t JOIN lineage l ON t.id = l.id WHERE t.parent_id IS NOT NULL)
		SELECT r.*, g.permission AS granted FROM team_repositories g JOIN repositories r ON r.id = g.repo_id
		WHERE g.team_id IN (SELECT id FROM lineage) ORDER BY r.id`);
	// Grants reaching a user through the organization's teams (and their ancestors).
	const userTeamGrants = db.prepare(`
		WITH RECURSIVE my_teams(id) AS (
			SELECT m.team_id FROM team_memberships m JOIN teams t ON t.id = m.team_id
			WHERE m.user_id = @userId AND m.state = 'active' AND t.org_id = @orgId
			UNION SELECT t.parent_id FROM teams t JOIN my_teams m ON t.id = m.id WHERE t.parent_id IS NOT NULL
		)
		SELECT repo_id, permission FROM team_repositories WHERE team_id IN (SELECT id FROM my_teams)`);
	// Grants reaching a user on any of the repositories through any team (and its ancestors): the
	// repository store's teamPermissions for many repositories at once.
	const userGrantsOn = db.prepare(`
		WITH RECURSIVE my_teams(id) AS (
			SELECT team_id FROM team_memberships WHERE user_id = @userId AND state = 'active'
			UNION SELECT t.parent_id FROM teams t JOIN my_teams m ON t.id = m.id WHERE t.parent_id IS NOT NULL
		)
		SELECT repo_id, permission FROM team_repositories
		WHERE repo_id IN (SELECT value FROM json_each(@repoIds)) AND team_id IN (SELECT id FROM my_teams)`);
	// Users among @userIds a team grant reaches on the repository: active members of a granted team
	// or of any of its descendants (a child team inherits its parent's access).
	const usersGrantedOn = db
		.prepare(`
		WITH RECURSIVE granted(id) AS (
			SELECT team_id FROM team_repositories WHERE repo_id = @repoId
			UNION SELECT t.id FROM teams t JOIN granted g ON t.parent_id = g.id
		)
		SELECT DISTINCT user_id FROM team_memberships
		WHERE state = 'active' AND team_id IN (SELECT id FROM granted) AND user_id IN (SELECT value FROM json_each(@userIds))`)
		.pluck();
	const directRepoCount = db.prepare('SELECT count(*) FROM team_repositories WHERE team_id = ?').pluck();
	const repositoryTeams = db.prepare(`
		SELECT t.*, g.permission AS granted FROM team_repositories g JOIN teams t ON t.id = g.team_id
		WHERE g.repo_id = ? ORDER BY t.name LIMIT ?`);

	return {
		byId: (id: number) => byId.get(id) as TeamRow | undefined,
		bySlug: (orgId: number, slug: string) => bySlug.get(orgId, slug) as TeamRow | undefined,
		byIds: (ids: number[]) => byIds.all(JSON.stringify(ids)) as TeamRow[],
		/** @param now ISO timestamp */
		insert: (team: NewTeam, now: string) => Number(insert.run({ ...team, now }).lastInsertRowid),
		/** @param now ISO timestamp */
		update: (team: TeamRow, now: string) => void update.run({ ...team, now }),
		remove: (id: number) => void remove.run(id),
		/** Moves the children of `teamId` under `newParentId` (null: top level). */
		reparentChildren: (teamId: number, newParentId: number | null) => void reparent.run(newParentId, teamId),
		/** Every team of the organization as [id, privacy], ordered by name. */
		order: (orgId: number) => order.all(orgId) as Array<[number, 'secret' | 'closed']>,
		/** Ids of the organization's teams the user is an active member of. */
		userTeamIds: (orgId: number, userId: number) => userTeamIds.all(userId, orgId) as number[],
		/** Ids of the child teams the viewer sees, one page, by name. */
		visibleChildren(filter: { parentId: number; seeAll: boolean; userId: number | null; limit: number; offset: number }) {
			const params = { ...filter, seeAll: filter.seeAll ? 1 : 0, userId: filter.userId ?? 0 };
			return { ids: childIds.all(params) as number[], total: countChildren.get(params) as number };
		},
		hasChildren: (id: number) => (hasChildren.get(id) as number) === 1,
		/** The team's child teams, their children, ... */
		descendants: (id: number) => descendants.all(id) as TeamRow[],
		/** Ids of the team's parent, grandparent, ... */
		ancestors: (id: number) => ancestors.all(id) as number[],

		membership: (teamId: number, userId: number) => membership.get(teamId, userId) as TeamMembershipRow | undefined,
		/** An active membership in one of the team's descendants. */
		inheritedMembership: (teamId: number, userId: number) =>
			inheritedMembership.get({ teamId, userId }) as TeamMembershipRow | undefined,
		/** Adds or updates a membership; an active membership never goes back to pending. @param now ISO timestamp */
		setMembership: (input: {
			teamId: number;
			userId: number;
			role: 'member' | 'maintainer';
			state: 'active' | 'pending';
			now: string;
		}) => void setMembership.run(input),
		removeMembership: (teamId: number, userId: number) => removeMembership.run(teamId, userId).changes > 0,
		memberCount: (teamId: number) => memberCount.get(teamId) as number,
		/**
		 * Active members of the team and of its descendants, by account id; a direct membership wins
		 * over an inherited one. `membership`: all, `immediate` (members of the team itself) or
		 * `child` (members only through a descendant); default all.
		 */
		members(filter: {
			teamId: number;
			role: 'all' | 'member' | 'maintainer';
			membership?: 'all' | 'immediate' | 'child';
			limit: number;
			offset: number;
		}) {
			const params = { ...filter, membership: filter.membership ?? 'all' };
			return { rows: members.all(params) as TeamMemberRow[], total: countMembers.get(params) as number };
		},
		/** Activates the user's pending team memberships in the organization (invitation accepted). */
		activatePending: (orgId: number, userId: number) => void activatePending.run(userId, orgId),
		membershipsInOrg: (orgId: number, userId: number) => membershipsInOrg.all(orgId, userId) as TeamMembershipRow[],

		grant: (teamId: number, repoId: number) => grant.get(teamId, repoId) as RepoPermission | undefined,
		/** @param now ISO timestamp */
		/** @param roleId a custom repository role whose base role is `permission` (null: none) */
		setGrant: (teamId: number, repoId: number, permission: RepoPermission, now: string, roleId: number | null = null) =>
			void setGrant.run(teamId, repoId, permission, now, roleId),
		removeGrant: (teamId: number, repoId: number) => removeGrant.run(teamId, repoId).changes > 0,
		/** Grants on the repository to the team and its ancestors. */
		lineageGrants: (teamId: number, repoId: number) => lineageGrants.all({ teamId, repoId }) as RepoPermission[],
		/** Repositories granted to the team or its ancestors (one row per grant). */
		lineageRepositories: (teamId: number) => lineageRepositories.all({ teamId }) as Array<RepositoryRow & { granted: RepoPermission }>,
		/** Repository grants that reach the user through the organization's teams. */
		userTeamGrants: (orgId: number, userId: number) =>
			userTeamGrants.all({ orgId, userId }) as Array<{ repo_id: number; permission: RepoPermission }>,
		/** Team grants (with parent teams') that reach the user on any of the repositories; one row per grant. */
		userGrantsOn: (userId: number, repoIds: number[]) =>
			userGrantsOn.all({ userId, repoIds: JSON.stringify(repoIds) }) as Array<{ repo_id: number; permission: RepoPermission }>,
		/** Which of the users some team grant (their teams' or an ancestor's) reaches on the repository. */
		usersGrantedOn: (repoId: number, userIds: number[]) => usersGrantedOn.all({ repoId, userIds: JSON.stringify(userIds) }) as number[],
		directRepoCount: (teamId: number) => directRepoCount.get(teamId) as number,
		/** The teams granted a role on the repository directly (not through a parent), by name, at most `limit`. */
		repositoryTeams: (repoId: number, limit: number) =>
			repositoryTeams.all(repoId, limit) as Array<TeamRow & { granted: RepoPermission }>,
	};
}
