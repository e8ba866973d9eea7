/**
 * Prepared statements for an organization's security settings outside code security
 * configurations: security manager teams and Dependabot's repository access.
 */
import type { DB } from '../../db/open';
import type { RepositoryRow, TeamRow } from '../../model/rows';

export type OrgSecurityStore = ReturnType<typeof createOrgSecurityStore>;

export function createOrgSecurityStore(db: DB) {
	const managerTeams = db.prepare(`
		SELECT t.* FROM security_manager_teams m JOIN teams t ON t.id = m.team_id WHERE m.org_id = ? ORDER BY t.name COLLATE NOCASE, t.id`);
	const addManager = db.prepare('INSERT OR IGNORE INTO security_manager_teams (team_id, org_id) VALUES (?, ?)');
	const removeManager = db.prepare('DELETE FROM security_manager_teams WHERE team_id = ?');
	const isManager = db
		.prepare(`
			SELECT 1 FROM security_manager_teams s JOIN team_memberships m ON m.team_id = s.team_id
			WHERE s.org_id = ? AND m.user_id = ? AND m.state = 'active' LIMIT 1`)
		.pluck();
	const accessible = db.prepare(`
		SELECT r.* FROM dependabot_repository_access a JOIN repositories r ON r.id = a.repo_id WHERE a.org_id = ? ORDER BY r.id`);
	const grant = db.prepare('INSERT OR IGNORE INTO dependabot_repository_access (org_id, repo_id) VALUES (?, ?)');
	const revoke = db.prepare('DELETE FROM dependabot_repository_access WHERE org_id = ? AND repo_id = ?');
	const level = db.prepare('SELECT default_level FROM dependabot_access_levels WHERE org_id = ?').pluck();
	const setLevel = db.prepare(`
		INSERT INTO dependabot_access_levels (org_id, default_level) VALUES (?, ?)
		ON CONFLICT (org_id) DO UPDATE SET default_level = excluded.default_level`);
	const patternConfig = db.prepare('SELECT version, provider_settings FROM secret_scanning_pattern_configs WHERE org_id = ?');
	const setPatternConfig = db.prepare(`
		INSERT INTO secret_scanning_pattern_configs (org_id, version, provider_settings) VALUES (?, ?, ?)
		ON CONFLICT (org_id) DO UPDATE SET version = excluded.version, provider_settings = excluded.provider_settings`);
	return {
		/** The organization's pattern configuration: its version (null: never changed) and provider settings (token_type → setting). */
		patternConfig(orgId: number): { version: string | null; provider: Record<string, 'enabled' | 'disabled'> } {
			const row = patternConfig.get(orgId) as { version: string; provider_settings: string } | undefined;
			return { version: row?.version ?? null, provider: JSON.parse(row?.provider_settings ?? '{}') };
		},
		setPatternConfig: (orgId: number, version: string, provider: Record<string, string>) =>
			void setPatternConfig.run(orgId, version, JSON.stringify(provider)),
		/** The organization's security manager teams, by name. */
		managerTeams: (orgId: number) => managerTeams.all(orgId) as TeamRow[],
		/** @returns false when the team already was one */
		addManagerTeam: (orgId: number, teamId: number) => addManager.run(teamId, orgId).changes > 0,
		/** @returns false when the team was none */
		removeManagerTeam: (teamId: number) => removeManager.run(teamId).changes > 0,
		/** The user is an active member of a security manager team of the organization. */
		isSecurityManager: (orgId: number, userId: number) => isManager.get(orgId, userId) === 1,
		/** Repositories Dependabot may reach in the organization, by id. */
		accessibleRepositories: (orgId: number) => accessible.all(orgId) as RepositoryRow[],
		grantAccess: (orgId: number, repoId: number) => void grant.run(orgId, repoId),
		revokeAccess: (orgId: number, repoId: number) => void revoke.run(orgId, repoId),
		/** Dependabot's default repository access level; null: not set. */
		defaultLevel: (orgId: number) => ((level.get(orgId) as string | null | undefined) ?? null) as 'public' | 'internal' | null,
		setDefaultLevel: (orgId: number, value: 'public' | 'internal') => void setLevel.run(orgId, value),
	};
}
