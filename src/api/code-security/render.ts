/**
 * GitHub's code-security-configuration object (and the entries of the defaults and repositories
 * lists) of a stored configuration.
 */
import type { Urls } from '../../model/urls';
import type { AccountRow } from '../../model/rows';
import { settingsOf } from './settings';
import type { ConfigurationRow } from './store';

/**
 * A configuration as GitHub shows it: id, name, target_type (global: GitHub-provided,
 * organization), description, every setting, url and html_url (seen from `org`), created_at and
 * updated_at (ISO 8601).
 */
export function configuration(urls: Urls, org: AccountRow, row: ConfigurationRow) {
	const settings = settingsOf(row);
	const { code_security, secret_protection, ...rest } = settings;
	return {
		id: row.id,
		name: row.name,
		target_type: row.org_id === null ? 'global' : 'organization',
		description: row.description,
		...rest,
		...(code_security !== null ? { code_security } : {}),
		...(secret_protection !== null ? { secret_protection } : {}),
		url: urls.api(`/orgs/${org.login}/code-security/configurations/${row.id}`),
		html_url: urls.html(
			row.org_id === null
				? `/organizations/${org.login}/settings/security_products/configurations/view`
				: `/organizations/${org.login}/settings/security_products/configurations/edit/${row.id}`,
		),
		created_at: row.created_at,
		updated_at: row.updated_at,
	};
}
