/**
 * Team shapes: the full form (the list form of src/model/render.ts plus members_count,
 * repos_count, created_at, updated_at, organization, ldap_dn) and GitHub's team membership record.
 */
import type { Urls } from '../../model/urls';
import type { AccountCounts } from '../users/store';
import type { AccountRow, TeamRow } from '../../model/rows';
import { orgSummary } from '../orgs/render';
import { teamListForm, teamUrl } from '../../model/render';

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
