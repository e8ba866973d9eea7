/**
 * GitHub's org-membership record (https://docs.github.com/en/rest/orgs/members).
 */
import type { Urls } from '../../http/urls';
import { orgSimple } from '../orgs/render';
import { simpleUser } from '../users/render';
import type { AccountRow } from '../users/store';
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
