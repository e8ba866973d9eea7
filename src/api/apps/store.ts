/**
 * Prepared statements for GitHub Apps and their installations.
 */
import type { DB } from '../../db/open';
import { repositorySelection } from '../../model/repository-selection';
import type { AppRow, InstallationRow } from '../../model/rows';

export type AppStore = ReturnType<typeof createAppStore>;

export function createAppStore(db: DB) {
	const byId = db.prepare('SELECT * FROM apps WHERE id = ?');
	const bySlug = db.prepare('SELECT * FROM apps WHERE slug = ?');
	const byClientId = db.prepare('SELECT * FROM apps WHERE client_id = ?');
	const insert = db.prepare(`
		INSERT INTO apps (slug, name, description, owner_id, bot_id, client_id, public_key, permissions, events, external_url, created_at, updated_at)
		VALUES (@slug, @name, @description, @owner_id, @bot_id, @client_id, @public_key, @permissions, @events, @external_url, @now, @now)`);
	const installation = db.prepare('SELECT * FROM installations WHERE id = ?');
	const installationOn = db.prepare('SELECT * FROM installations WHERE app_id = ? AND account_id = ?');
	const installationsOfApp = db.prepare('SELECT * FROM installations WHERE app_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const countOfApp = db.prepare('SELECT count(*) FROM installations WHERE app_id = ?').pluck();
	const installationsOn = db.prepare('SELECT * FROM installations WHERE account_id = ? ORDER BY id');
	const installationsOnPage = db.prepare('SELECT * FROM installations WHERE account_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const countOn = db.prepare('SELECT count(*) FROM installations WHERE account_id = ?').pluck();
	const install = db.prepare(`
		INSERT INTO installations (app_id, account_id, permissions, repository_selection, created_at, updated_at)
		VALUES (@app_id, @account_id, @permissions, 'all', @now, @now)
		ON CONFLICT (app_id, account_id) DO UPDATE SET permissions = excluded.permissions, updated_at = excluded.updated_at`);
	const uninstall = db.prepare('DELETE FROM installations WHERE id = ?');
	const setSuspended = db.prepare('UPDATE installations SET suspended_at = ?, updated_at = ? WHERE id = ?');
	const touch = db.prepare('UPDATE installations SET updated_at = ? WHERE id = ?');
	const setSelection = db.prepare('UPDATE installations SET repository_selection = ?, updated_at = ? WHERE id = ?');
	const repositories = repositorySelection(db, 'installation_repositories', 'installation_id', 'repository_id', 'r.id');

	return {
		byId: (id: number) => byId.get(id) as AppRow | undefined,
		bySlug: (slug: string) => bySlug.get(slug) as AppRow | undefined,
		byClientId: (clientId: string) => byClientId.get(clientId) as AppRow | undefined,
		/** @param now ISO timestamp */
		insert: (app: Omit<AppRow, 'id' | 'created_at' | 'updated_at'>, now: string) =>
			byId.get(Number(insert.run({ ...app, now }).lastInsertRowid)) as AppRow,
		installation: (id: number) => installation.get(id) as InstallationRow | undefined,
		installationOn: (appId: number, accountId: number) => installationOn.get(appId, accountId) as InstallationRow | undefined,
		installationsOf(appId: number, limit: number, offset: number) {
			return { rows: installationsOfApp.all(appId, limit, offset) as InstallationRow[], total: countOfApp.get(appId) as number };
		},
		installationCount: (appId: number) => countOfApp.get(appId) as number,
		/** Installations on an account (every app). */
		installationsOn: (accountId: number) => installationsOn.all(accountId) as InstallationRow[],
		/** One page of the installations on an account, oldest first, and how many there are. */
		installationsOnPage(accountId: number, limit: number, offset: number) {
			return {
				rows: installationsOnPage.all(accountId, limit, offset) as InstallationRow[],
				total: countOn.get(accountId) as number,
			};
		},
		/** Installs (or re-grants) an app on an account. @param now ISO timestamp */
		install(appId: number, accountId: number, permissions: string, now: string): InstallationRow {
			install.run({ app_id: appId, account_id: accountId, permissions, now });
			return installationOn.get(appId, accountId) as InstallationRow;
		},
		uninstall: (id: number) => uninstall.run(id).changes > 0,
		/**
		 * Sets an installation's repository selection: 'all' forgets its listed repositories;
		 * 'selected' reaches only those listed in installation_repositories (none listed: none).
		 * @param now ISO timestamp
		 */
		setSelection(id: number, selection: 'all' | 'selected', now: string): void {
			setSelection.run(selection, now, id);
			if (selection === 'all') repositories.clear(id);
		},
		/** Suspends (an ISO timestamp) or unsuspends (null) an installation. @param now ISO timestamp */
		setSuspended: (id: number, at: string | null, now: string) => void setSuspended.run(at, now, id),
		/** @param now ISO timestamp */
		touch: (id: number, now: string) => void touch.run(now, id),
		/** Ids of the repositories a 'selected' installation reaches. */
		selectedRepositoryIds: repositories.ids,
		/** One page of them (oldest first) and how many there are. */
		selectedRepositories: repositories.page,
		/** @returns how many were not listed before */
		addRepositories: (id: number, repositoryIds: number[]) =>
			repositoryIds.reduce((n, repoId) => n + Number(repositories.add(id, repoId)), 0),
		/** @returns how many were listed */
		removeRepositories: (id: number, repositoryIds: number[]) =>
			repositoryIds.reduce((n, repoId) => n + Number(repositories.remove(id, repoId)), 0),
	};
}
