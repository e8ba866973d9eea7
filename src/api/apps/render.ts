/**
 * GitHub's integration (app) and installation records (https://docs.github.com/en/rest/apps/apps).
 */
import { nodeId, type Urls } from '../../model/urls';
import { simpleUser } from '../../model/render';
import type { AccountRow, AppRow, InstallationRow } from '../../model/rows';

export function integration(urls: Urls, app: AppRow, owner: AccountRow, installationsCount: number) {
	return {
		id: app.id,
		slug: app.slug,
		client_id: app.client_id,
		node_id: nodeId('Integration', app.id),
		owner: simpleUser(urls, owner),
		name: app.name,
		description: app.description ?? '',
		external_url: app.external_url ?? `${urls.origin}/apps/${app.slug}`,
		html_url: `${urls.origin}/apps/${app.slug}`,
		created_at: app.created_at,
		updated_at: app.updated_at,
		permissions: JSON.parse(app.permissions) as Record<string, string>,
		events: JSON.parse(app.events) as string[],
		installations_count: installationsCount,
	};
}

export function installation(urls: Urls, row: InstallationRow, app: AppRow, account: AccountRow) {
	return {
		id: row.id,
		account: simpleUser(urls, account),
		repository_selection: row.repository_selection,
		access_tokens_url: `${urls.apiBase}/app/installations/${row.id}/access_tokens`,
		repositories_url: `${urls.apiBase}/installation/repositories`,
		html_url: `${urls.origin}/${account.type === 'Organization' ? `organizations/${account.login}/settings` : 'settings'}/installations/${row.id}`,
		app_id: app.id,
		app_slug: app.slug,
		client_id: app.client_id,
		target_id: account.id,
		target_type: account.type,
		permissions: JSON.parse(row.permissions) as Record<string, string>,
		events: JSON.parse(app.events) as string[],
		created_at: row.created_at,
		updated_at: row.updated_at,
		single_file_name: null,
		has_multiple_single_files: false,
		single_file_paths: [],
		suspended_by: null,
		suspended_at: row.suspended_at,
		contact_email: null,
	};
}
