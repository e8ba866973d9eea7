/**
 * RunnerGroup of an enterprise and of an organization, and GitHub's
 * runner and runner-label records.
 */
import type { Urls } from '../../model/urls';
import type { RunnerGroupRow, RunnerLabelRow, RunnerRow } from './store';

export function runnerGroup(urls: Urls, enterpriseSlug: string, group: RunnerGroupRow) {
	const base = `${urls.apiBase}/enterprises/${enterpriseSlug}/actions/runner-groups/${group.id}`;
	return {
		id: group.id,
		name: group.name,
		visibility: group.visibility,
		default: group.is_default === 1,
		...(group.visibility === 'selected' ? { selected_organizations_url: `${base}/organizations` } : {}),
		runners_url: `${base}/runners`,
		hosted_runners_url: `${base}/hosted-runners`,
		network_configuration_id: group.network_configuration_id,
		allows_public_repositories: group.allows_public_repositories === 1,
		restricted_to_workflows: group.restricted_to_workflows === 1,
		selected_workflows: JSON.parse(group.selected_workflows) as string[],
		workflow_restrictions_read_only: group.workflow_restrictions_read_only === 1,
	};
}

export function runner(row: RunnerRow, labels: RunnerLabelRow[]) {
	return {
		id: row.id,
		runner_group_id: row.group_id,
		name: row.name,
		os: row.os,
		status: row.status,
		busy: row.busy === 1,
		ephemeral: row.ephemeral === 1,
		version: row.version,
		labels: labels.filter((label) => label.runner_id === row.id).map((label) => ({ id: label.id, name: label.name, type: label.type })),
	};
}

/**
 * GitHub's runner-groups-org: a group as an organization sees it — its own (URLs under
 * /orgs/{org}/actions/runner-groups), or one its enterprise shares with it (`inherited`, with the
 * enterprise's allows_public_repositories as inherited_allows_public_repositories).
 */
export function orgRunnerGroup(urls: Urls, orgLogin: string, group: RunnerGroupRow) {
	const base = `${urls.apiBase}/orgs/${orgLogin}/actions/runner-groups/${group.id}`;
	const inherited = group.org_id === null;
	return {
		id: group.id,
		name: group.name,
		visibility: group.visibility,
		default: group.is_default === 1,
		...(!inherited && group.visibility === 'selected' ? { selected_repositories_url: `${base}/repositories` } : {}),
		runners_url: `${base}/runners`,
		hosted_runners_url: `${base}/hosted-runners`,
		network_configuration_id: group.network_configuration_id,
		inherited,
		...(inherited ? { inherited_allows_public_repositories: group.allows_public_repositories === 1 } : {}),
		allows_public_repositories: group.allows_public_repositories === 1,
		workflow_restrictions_read_only: inherited || group.workflow_restrictions_read_only === 1,
		restricted_to_workflows: group.restricted_to_workflows === 1,
		selected_workflows: JSON.parse(group.selected_workflows) as string[],
	};
}
