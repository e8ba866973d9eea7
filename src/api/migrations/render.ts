/**
 * Migration (https://docs.github.com/en/rest/migrations/orgs). Timestamps carry a numeric
 * offset (2026-11-22T12:00:00+00:00), as GitHub's migration records do.
 */
import { nodeId, type Urls } from '../../model/urls';
import { repository } from '../../model/render';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { simpleUser } from '../../model/render';
import type { MigrationRow } from './store';

const withOffset = (iso: string) => iso.replace(/Z$/, '+00:00');

/**
 * @param repositories the migration's repositories, or null to leave them out (exclude=repositories)
 */
export function migration(urls: Urls, row: MigrationRow, org: AccountRow, repositories: RepositoryRow[] | null) {
	const url = `${urls.apiBase}/orgs/${org.login}/migrations/${row.id}`;
	return {
		id: row.id,
		node_id: nodeId('Migration', row.id),
		owner: simpleUser(urls, org),
		guid: row.guid,
		state: row.state,
		lock_repositories: row.lock_repositories === 1,
		exclude_metadata: row.exclude_metadata === 1,
		exclude_git_data: row.exclude_git_data === 1,
		exclude_attachments: row.exclude_attachments === 1,
		exclude_releases: row.exclude_releases === 1,
		exclude_owner_projects: row.exclude_owner_projects === 1,
		org_metadata_only: row.org_metadata_only === 1,
		...(repositories ? { repositories: repositories.map((repo) => repository(urls, repo, org, null)) } : {}),
		url,
		created_at: withOffset(row.created_at),
		updated_at: withOffset(row.updated_at),
		...(row.state === 'exported' && row.archive_path ? { archive_url: `${url}/archive` } : {}),
		exclude: JSON.parse(row.exclude) as string[],
	};
}
