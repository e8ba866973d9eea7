/**
 * Team shapes: the list form (id … repositories_url, parent)
 * and the full form (plus members_count, repos_count, created_at, updated_at, organization,
 * ldap_dn), and GitHub's team membership record.
 */
import { nodeId, type Urls } from '../../http/urls';
import type { AccountCounts, AccountRow } from '../users/store';
import { orgSummary } from '../orgs/render';
import type { TeamRow } from './store';

/** Canonical API URL of a team: /organizations/{org_id}/team/{team_id} (GitHub's own form). */
export function teamUrl(urls: Urls, team: Pick<TeamRow, 'org_id' | 'id'>): string {
	return `${urls.apiBase}/organizations/${team.org_id}/team/${team.id}`;
}

/** GitHub's ownership type of a team: every team here belongs to an organization (enterprise teams are not served). */
const TEAM_TYPE = 'organization';

/** The parent summary embedded in a team (GitHub's nullable-team-simple). */
function parentSummary(urls: Urls, orgLogin: string, parent: TeamRow) {
	const url = teamUrl(urls, parent);
	return {
		id: parent.id,
		node_id: nodeId('Team', parent.id),
		url,
		members_url: `${url}/members{/member}`,
		name: parent.name,
		description: parent.description,
		permission: parent.permission,
		privacy: parent.privacy,
		notification_setting: parent.notification_setting,
		html_url: `${urls.origin}/orgs/${orgLogin}/teams/${parent.slug}`,
		repositories_url: `${url}/repos`,
		slug: parent.slug,
		type: TEAM_TYPE,
	};
}

/** The list form. */
export function teamListForm(urls: Urls, orgLogin: string, team: TeamRow, parent: TeamRow | undefined) {
	const url = teamUrl(urls, team);
	return {
		id: team.id,
		node_id: nodeId('Team', team.id),
		url,
		html_url: `${urls.origin}/orgs/${orgLogin}/teams/${team.slug}`,
		name: team.name,
		slug: team.slug,
		description: team.description,
		privacy: team.privacy,
		notification_setting: team.notification_setting,
		permission: team.permission,
		members_url: `${url}/members{/member}`,
		repositories_url: `${url}/repos`,
		parent: parent ? parentSummary(urls, orgLogin, parent) : null,
		type: TEAM_TYPE,
	};
}

/** The full form (create, get, update). */
export function teamFullForm(
	urls: Urls,
	org: AccountRow,
	orgCounts: AccountCounts,
	team: TeamRow,
	parent: TeamRow | undefined,
	counts: { members: number; repos: number },
) {
	return {
		...teamListForm(urls, org.login, team, parent),
		members_count: counts.members,
		repos_count: counts.repos,
		created_at: team.created_at,
		updated_at: team.updated_at,
		organization: orgSummary(urls, org, orgCounts),
		// A string in GitHub's description: present only when the team maps to an LDAP entry.
		...(team.ldap_dn === null ? {} : { ldap_dn: team.ldap_dn }),
	};
}

/** A team membership record: {url, role, state}. */
export function teamMembership(urls: Urls, team: TeamRow, login: string, role: 'member' | 'maintainer', state: 'active' | 'pending') {
	return { url: `${teamUrl(urls, team)}/memberships/${login}`, role, state };
}
