/**
 * GitHub's org-membership record (https://docs.github.com/en/rest/orgs/members).
 */
import type { Urls } from '../../model/urls';
import { orgSimple } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import type { OrgMembershipRow } from './store';

export function orgMembership(urls: Urls, org: AccountRow, user: AccountRow, membership: OrgMembershipRow) {
	return {
		url: `${urls.apiBase}/orgs/${org.login}/memberships/${user.login}`,
		state: membership.state,
		role: membership.role,
		organization_url: `${urls.apiBase}/orgs/${org.login}`,
		organization: orgSimple(urls, org),
		user: simpleUser(urls, user),
		permissions: { can_create_repository: membership.role === 'admin' || org.members_can_create_repositories === 1 },
	};
}
