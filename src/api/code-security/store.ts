/**
 * Prepared statements for code security configurations (GitHub's code-security/configurations):
 * the configurations of an organization and the GitHub-provided one (org_id NULL), which
 * configuration is an organization's default for new repositories, the configuration each
 * repository is attached to, and the repository security switches a configuration drives
 * (repositories.security_settings).
 */
import type { DB } from '../../db/open';
import type { RepositoryRow } from '../../model/rows';

export interface ConfigurationRow {
	id: number;
	/** null: GitHub-provided (target_type global). */
	org_id: number | null;
	name: string;
	description: string;
	/** JSON object: the settings, GitHub's field names (see src/api/code-security/service.ts). */
	settings: string;
	created_at: string;
	updated_at: string;
}

export type DefaultForNewRepos = 'all' | 'private_and_internal' | 'public';

export type CodeSecurityStore = ReturnType<typeof createCodeSecurityStore>;

export function createCodeSecurityStore(db: DB) {
	const byId = db.prepare('SELECT * FROM code_security_configurations WHERE id = ?');
	const byName = db.prepare('SELECT * FROM code_security_configurations WHERE ifnull(org_id, 0) = ? AND name = ? COLLATE NOCASE');
	const list = db.prepare(`
		SELECT * FROM code_security_configurations
		WHERE (org_id IS NULL OR (@global = 0 AND org_id = @orgId)) AND id > @after AND id < @before
		ORDER BY id LIMIT @limit`);
	const listDesc = db.prepare(`
		SELECT * FROM code_security_configurations
		WHERE (org_id IS NULL OR (@global = 0 AND org_id = @orgId)) AND id > @after AND id < @before
		ORDER BY id DESC LIMIT @limit`);
	const insert = db.prepare(`
		INSERT INTO code_security_configurations (org_id, name, description, settings, created_at, updated_at)
		VALUES (@org_id, @name, @description, @settings, @now, @now)`);
	const update = db.prepare(
		'UPDATE code_security_configurations SET name = @name, description = @description, settings = @settings, updated_at = @now WHERE id = @id',
	);
	const remove = db.prepare('DELETE FROM code_security_configurations WHERE id = ?');
	const defaults = db.prepare(`
		SELECT d.default_for_new_repos, c.* FROM code_security_defaults d JOIN code_security_configurations c ON c.id = d.configuration_id
		WHERE d.org_id = ? ORDER BY c.id`);
	const setDefault = db.prepare(`
		INSERT INTO code_security_defaults (org_id, configuration_id, default_for_new_repos) VALUES (?, ?, ?)
		ON CONFLICT (org_id, configuration_id) DO UPDATE SET default_for_new_repos = excluded.default_for_new_repos`);
	const clearDefault = db.prepare('DELETE FROM code_security_defaults WHERE org_id = ? AND configuration_id = ?');
	const attachment = db.prepare('SELECT configuration_id FROM code_security_attachments WHERE repo_id = ?').pluck();
	const attach = db.prepare(`
		INSERT INTO code_security_attachments (repo_id, configuration_id, attached_at) VALUES (?, ?, ?)
		ON CONFLICT (repo_id) DO UPDATE SET configuration_id = excluded.configuration_id, attached_at = excluded.attached_at`);
	const detach = db.prepare('DELETE FROM code_security_attachments WHERE repo_id = ?');
	const attachedRepos = db.prepare(`
		SELECT r.* FROM code_security_attachments a JOIN repositories r ON r.id = a.repo_id
		WHERE a.configuration_id = @configurationId AND r.owner_id = @orgId AND r.id > @after AND r.id < @before
		ORDER BY r.id LIMIT @limit`);
	const switches = db.prepare('SELECT security_settings FROM repositories WHERE id = ?').pluck();
	const setSwitches = db.prepare('UPDATE repositories SET security_settings = ? WHERE id = ?');
	const MAX = Number.MAX_SAFE_INTEGER;
	return {
		byId: (id: number) => byId.get(id) as ConfigurationRow | undefined,
		/** The configuration of that name (case-insensitive) of the organization; orgId 0: GitHub-provided. */
		byName: (orgId: number, name: string) => byName.get(orgId, name) as ConfigurationRow | undefined,
		/**
		 * The GitHub-provided configurations and (unless `global`) the organization's, by id, between the
		 * cursors (exclusive); with `before` only, the last `limit` before it (returned in ascending order).
		 */
		list(orgId: number, global: boolean, cursor: { after: number | null; before: number | null }, limit: number): ConfigurationRow[] {
			const params = { orgId, global: global ? 1 : 0, after: cursor.after ?? 0, before: cursor.before ?? MAX, limit };
			if (cursor.before !== null && cursor.after === null) return (listDesc.all(params) as ConfigurationRow[]).reverse();
			return list.all(params) as ConfigurationRow[];
		},
		insert: (row: Pick<ConfigurationRow, 'org_id' | 'name' | 'description' | 'settings'>, now: string) =>
			Number(insert.run({ ...row, now }).lastInsertRowid),
		update: (row: Pick<ConfigurationRow, 'id' | 'name' | 'description' | 'settings'>, now: string) => void update.run({ ...row, now }),
		remove: (id: number) => void remove.run(id),
		/** The organization's default configurations, with what each is the default for. */
		defaults: (orgId: number) => defaults.all(orgId) as Array<ConfigurationRow & { default_for_new_repos: DefaultForNewRepos }>,
		setDefault: (orgId: number, configurationId: number, value: DefaultForNewRepos | 'none') =>
			void (value === 'none' ? clearDefault.run(orgId, configurationId) : setDefault.run(orgId, configurationId, value)),
		/** The id of the configuration the repository is attached to, or undefined. */
		attachment: (repoId: number) => attachment.get(repoId) as number | undefined,
		attach: (repoId: number, configurationId: number, now: string) => void attach.run(repoId, configurationId, now),
		detach: (repoId: number) => detach.run(repoId).changes > 0,
		/** The organization's repositories attached to a configuration, by id, after the cursor. */
		attachedRepositories: (
			orgId: number,
			configurationId: number,
			cursor: { after: number | null; before: number | null },
			limit: number,
		) =>
			attachedRepos.all({ orgId, configurationId, after: cursor.after ?? 0, before: cursor.before ?? MAX, limit }) as RepositoryRow[],
		/** The repository's stored switches (setting name → 1 enabled / 0 disabled); unset ones are absent. */
		switches: (repoId: number) => JSON.parse((switches.get(repoId) as string | undefined) ?? '{}') as Record<string, number>,
		setSwitches: (repoId: number, values: Record<string, number>) => void setSwitches.run(JSON.stringify(values), repoId),
	};
}
