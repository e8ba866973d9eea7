/**
 * Prepared statements of roles (schema 22): custom repository roles, and the assignments of the
 * predefined organization roles (src/api/roles/catalog.ts) to members and teams.
 */
import type { DB } from '../../db/open';
import { ORGANIZATION_ROLE_RANK_SQL } from './catalog';

export interface CustomRepositoryRoleRow {
	id: number;
	org_id: number;
	name: string;
	description: string | null;
	base_role: 'read' | 'triage' | 'write' | 'maintain';
	/** JSON array of repository fine-grained permission names. */
	permissions: string;
	created_at: string;
	updated_at: string;
}

/** A member holding an organization role: directly, through teams, or both. */
export interface RoleUserRow {
	user_id: number;
	direct: 0 | 1;
	/** Comma-separated ids of the teams it comes through (null: none). */
	team_ids: string | null;
}

export type RoleStore = ReturnType<typeof createRoleStore>;

export function createRoleStore(db: DB) {
	const customRoles = db.prepare('SELECT * FROM custom_repository_roles WHERE org_id = ? ORDER BY id');
	const customRole = db.prepare('SELECT * FROM custom_repository_roles WHERE org_id = ? AND id = ?');
	const customRoleByName = db.prepare('SELECT * FROM custom_repository_roles WHERE org_id = ? AND name = ?');
	const insertRole = db.prepare(`
		INSERT INTO custom_repository_roles (org_id, name, description, base_role, permissions, created_at, updated_at)
		VALUES (@org_id, @name, @description, @base_role, @permissions, @now, @now)`);
	const updateRole = db.prepare(`
		UPDATE custom_repository_roles SET name = @name, description = @description, base_role = @base_role,
			permissions = @permissions, updated_at = @now WHERE id = @id`);
	// A role's grants keep their permission in step with its base role.
	const regrantCollaborators = db.prepare('UPDATE repository_collaborators SET permission = ? WHERE role_id = ?');
	const regrantTeams = db.prepare('UPDATE team_repositories SET permission = ? WHERE role_id = ?');
	const regrantInvitations = db.prepare('UPDATE repository_invitations SET permission = ? WHERE role_id = ?');
	const deleteRole = db.prepare('DELETE FROM custom_repository_roles WHERE id = ?');

	// Organization roles: the strongest rank an active member holds, directly or through a team.
	const HELD = `
		SELECT a.user_id AS user_id, a.role_id AS role_id, NULL AS team_id FROM organization_role_assignments a
			WHERE a.org_id = @orgId AND a.user_id IS NOT NULL
		UNION ALL
		SELECT tm.user_id, a.role_id, a.team_id FROM organization_role_assignments a
			JOIN team_memberships tm ON tm.team_id = a.team_id AND tm.state = 'active'
			WHERE a.org_id = @orgId AND a.team_id IS NOT NULL`;
	const rankOf = db
		.prepare(
			`SELECT coalesce(max(${ORGANIZATION_ROLE_RANK_SQL('h.role_id')}), 0) FROM (${HELD}) h
			JOIN org_memberships m ON m.org_id = @orgId AND m.user_id = h.user_id AND m.state = 'active'
			WHERE h.user_id = @userId`,
		)
		.pluck();
	const holders = db.prepare(
		`SELECT h.user_id, max(${ORGANIZATION_ROLE_RANK_SQL('h.role_id')}) AS rank FROM (${HELD}) h
		JOIN org_memberships m ON m.org_id = @orgId AND m.user_id = h.user_id AND m.state = 'active'
		GROUP BY h.user_id`,
	);
	const roleUsers = db.prepare(
		`SELECT h.user_id, max(h.team_id IS NULL) AS direct, group_concat(h.team_id) AS team_ids FROM (${HELD}) h
		WHERE h.role_id = @roleId GROUP BY h.user_id ORDER BY h.user_id LIMIT @limit OFFSET @offset`,
	);
	const roleTeams = db.prepare(
		'SELECT team_id FROM organization_role_assignments WHERE org_id = ? AND role_id = ? AND team_id IS NOT NULL ORDER BY team_id LIMIT ? OFFSET ?',
	);
	const assignUser = db.prepare(
		'INSERT OR IGNORE INTO organization_role_assignments (org_id, role_id, user_id, created_at) VALUES (?, ?, ?, ?)',
	);
	const assignTeam = db.prepare(
		'INSERT OR IGNORE INTO organization_role_assignments (org_id, role_id, team_id, created_at) VALUES (?, ?, ?, ?)',
	);
	const revokeUser = db.prepare('DELETE FROM organization_role_assignments WHERE org_id = ? AND role_id = ? AND user_id = ?');
	const revokeTeam = db.prepare('DELETE FROM organization_role_assignments WHERE org_id = ? AND role_id = ? AND team_id = ?');
	const revokeAllUser = db.prepare('DELETE FROM organization_role_assignments WHERE org_id = ? AND user_id = ?');
	const revokeAllTeam = db.prepare('DELETE FROM organization_role_assignments WHERE org_id = ? AND team_id = ?');

	// The fine-grained permissions custom roles give a user on a repository: its own grant's role and
	// the roles of the teams it is in (a child team inherits its parents' grants).
	const customPermissions = db
		.prepare(
			`WITH RECURSIVE granted(id, role_id) AS (
				SELECT team_id, role_id FROM team_repositories WHERE repo_id = @repoId
				UNION ALL SELECT t.id, g.role_id FROM teams t JOIN granted g ON t.parent_id = g.id
			),
			roles(role_id) AS (
				SELECT role_id FROM repository_collaborators WHERE repo_id = @repoId AND user_id = @userId AND role_id IS NOT NULL
				UNION SELECT g.role_id FROM granted g JOIN team_memberships tm ON tm.team_id = g.id AND tm.user_id = @userId AND tm.state = 'active'
					WHERE g.role_id IS NOT NULL
			)
			SELECT r.permissions FROM roles JOIN custom_repository_roles r ON r.id = roles.role_id`,
		)
		.pluck();

	return {
		customRoles: (orgId: number) => customRoles.all(orgId) as CustomRepositoryRoleRow[],
		customRole: (orgId: number, id: number) => customRole.get(orgId, id) as CustomRepositoryRoleRow | undefined,
		customRoleByName: (orgId: number, name: string) => customRoleByName.get(orgId, name) as CustomRepositoryRoleRow | undefined,
		/** @param now ISO timestamp */
		insertCustomRole(row: Omit<CustomRepositoryRoleRow, 'id' | 'created_at' | 'updated_at'>, now: string): CustomRepositoryRoleRow {
			const id = Number(insertRole.run({ ...row, now }).lastInsertRowid);
			return customRole.get(row.org_id, id) as CustomRepositoryRoleRow;
		},
		/** Updates the role and moves its grants and invitations to its base role's permission. @param now ISO */
		updateCustomRole(row: CustomRepositoryRoleRow, permission: string, now: string): void {
			updateRole.run({ ...row, now });
			regrantCollaborators.run(permission, row.id);
			regrantTeams.run(permission, row.id);
			regrantInvitations.run(permission, row.id);
		},
		/** Deletes the role; its grants keep its base role's permission (role_id set null). */
		deleteCustomRole: (id: number) => deleteRole.run(id).changes > 0,
		/** The rank (pull 1 … admin 5) organization roles give an active member; 0 for none. */
		organizationRank: (orgId: number, userId: number) => rankOf.get({ orgId, userId }) as number,
		/** Active members holding an organization role, with the rank it gives. */
		organizationRanks: (orgId: number) => holders.all({ orgId }) as Array<{ user_id: number; rank: number }>,
		roleUsers: (orgId: number, roleId: number, limit: number, offset: number) =>
			roleUsers.all({ orgId, roleId, limit, offset }) as RoleUserRow[],
		roleTeamIds: (orgId: number, roleId: number, limit: number, offset: number) =>
			roleTeams.pluck().all(orgId, roleId, limit, offset) as number[],
		/** @param now ISO timestamp */
		assignUser: (orgId: number, roleId: number, userId: number, now: string) => assignUser.run(orgId, roleId, userId, now).changes > 0,
		assignTeam: (orgId: number, roleId: number, teamId: number, now: string) => assignTeam.run(orgId, roleId, teamId, now).changes > 0,
		revokeUser: (orgId: number, roleId: number, userId: number) => revokeUser.run(orgId, roleId, userId).changes > 0,
		revokeTeam: (orgId: number, roleId: number, teamId: number) => revokeTeam.run(orgId, roleId, teamId).changes > 0,
		revokeAllOfUser: (orgId: number, userId: number) => revokeAllUser.run(orgId, userId).changes,
		revokeAllOfTeam: (orgId: number, teamId: number) => revokeAllTeam.run(orgId, teamId).changes,
		/** The repository fine-grained permissions the user's custom roles give on the repository. */
		customPermissions(repoId: number, userId: number): Set<string> {
			const out = new Set<string>();
			for (const json of customPermissions.all({ repoId, userId }) as string[])
				for (const name of JSON.parse(json) as string[]) out.add(name);
			return out;
		},
	};
}
