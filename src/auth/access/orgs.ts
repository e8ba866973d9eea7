/**
 * The caller's standing in an organization. Installation tokens act as the app on the organization
 * they were issued for; fine-grained and user-to-server tokens reach only their resource owner; a
 * public view (anonymous, or a token without the route's permission on a public route) sees public
 * things only.
 */
import { reachesAccount } from '../principal';
import type { AccountRow } from '../../model/rows';
import type { OrgAccess, Viewer } from './types';

/**
 * The caller's standing in `org`. A caller whose token does not reach the organization (a
 * fine-grained or app token of another account; reachesAccount) is an outsider acting for nobody:
 * userId and actorId are null, so self-service checks (`access.userId === user.id`) fail too.
 */
export function orgAccess(viewer: Viewer, org: AccountRow): OrgAccess {
	const { principal } = viewer;
	const reaches = !viewer.publicView && reachesAccount(principal, org.id);
	const outsider: OrgAccess = {
		org,
		role: null,
		app: false,
		admin: false,
		member: false,
		userId: reaches ? (principal.user?.id ?? null) : null,
		actorId: reaches ? principal.actorId : null,
	};
	if (!reaches) return outsider;
	if (principal.kind === 'installation') return { ...outsider, app: true, admin: true, member: true };
	if (!principal.user) return outsider;
	const membership = viewer.app.stores.memberships.get(org.id, principal.user.id);
	if (!membership || membership.state !== 'active') return outsider;
	const role = membership.role === 'admin' ? 'owner' : 'member';
	return { ...outsider, role, admin: role === 'owner', member: true };
}
