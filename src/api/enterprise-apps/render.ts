/**
 * Shapes of GitHub's organization-installation routes: an installable organization, an accessible
 * repository, and an enterprise organization installation.
 */
import type { Urls } from '../../model/urls';
import type { AppRow, InstallationRow, EnterpriseRow, RepositoryRow, AccountRow } from '../../model/rows';

/** GitHub's "Installable Organization": {id, login, accessible_repositories_url}. */
export function installableOrganization(urls: Urls, enterprise: EnterpriseRow, org: AccountRow) {
	return {
		id: org.id,
		login: org.login,
		accessible_repositories_url: `${urls.apiBase}/enterprises/${enterprise.slug}/apps/installable_organizations/${org.login}/accessible_repositories`,
	};
}

/** GitHub's "Accessible Repository": {id, name, full_name}. */
export function accessibleRepository(repo: RepositoryRow, owner: AccountRow) {
	return { id: repo.id, name: repo.name, full_name: `${owner.login}/${repo.name}` };
}

/** GitHub's "Enterprise Organization Installation". */
export function enterpriseOrganizationInstallation(
	urls: Urls,
	enterprise: EnterpriseRow,
	org: AccountRow,
	row: InstallationRow,
	app: AppRow,
) {
	return {
		id: row.id,
		app_slug: app.slug,
		client_id: app.client_id,
		repository_selection: row.repository_selection,
		repositories_url: `${urls.apiBase}/enterprises/${enterprise.slug}/apps/organizations/${org.login}/installations/${row.id}/repositories`,
		permissions: JSON.parse(row.permissions) as Record<string, string>,
		events: JSON.parse(app.events) as string[],
		created_at: row.created_at,
		updated_at: row.updated_at,
	};
}
