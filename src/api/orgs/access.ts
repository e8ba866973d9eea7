/**
 * What the caller may do in an organization: loaded once per request by handlers that need it.
 * Installation tokens act as the app on the organization they were issued for; fine-grained and
 * user-to-server tokens reach only their resource owner; a public view (anonymous, or a token
 * without the route's permission on a public route) sees public things only.
 */
import { reachesAccount } from '../../auth/principal';
import { forbidden, notFound } from '../../http/errors';
import type { Context } from '../../http/route';
import type { AccountRow } from '../users/store';

export interface OrgAccess {
	org: AccountRow;
	/** The caller's active role; null for outsiders, pending invitees and public views. */
	role: 'owner' | 'member' | null;
	/** An installation token issued for this organization. */
	app: boolean;
	/** Owner, or app: may administer the organization. */
	admin: boolean;
	/** Member, owner or app: may see what members see. */
	member: boolean;
	/** The acting user's id, null for an app or anonymous caller. */
	userId: number | null;
	/** Who acts, for records and webhook senders: the user, or an app's bot account. */
	actorId: number | null;
}

/**
 * The organization named by the `org` path parameter (case-insensitive).
 * @throws HttpError 404 when there is none.
 */
export function loadOrganization(ctx: Context, login: string = ctx.params.org): AccountRow {
	const org = ctx.app.stores.accounts.organization(login);
	if (!org) throw notFound();
	return org;
}

/**
 * The caller's standing in `org`. A caller whose token does not reach the organization (a
 * fine-grained or app token of another account; reachesAccount) is an outsider acting for nobody:
 * userId and actorId are null, so self-service checks (`access.userId === user.id`) fail too.
 */
export function orgAccess(ctx: Context, org: AccountRow): OrgAccess {
	const { principal } = ctx;
	const reaches = !ctx.publicView && reachesAccount(principal, org.id);
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
	const membership = ctx.app.stores.memberships.get(org.id, principal.user.id);
	if (!membership || membership.state !== 'active') return outsider;
	const role = membership.role === 'admin' ? 'owner' : 'member';
	return { ...outsider, role, admin: role === 'owner', member: true };
}

/**
 * Loads the organization and the caller's standing, requiring membership (or the app).
 * @throws HttpError 404 for an unknown organization, 403 for a non-member.
 */
export function memberAccess(ctx: Context, action = 'do that'): OrgAccess {
	const access = orgAccess(ctx, loadOrganization(ctx));
	if (!access.member) throw forbidden(`You must be a member of ${access.org.login} to ${action}.`);
	return access;
}

/**
 * Loads the organization and the caller's standing, requiring an owner (or the app).
 * @throws HttpError 404 for an unknown organization, 403 for anyone else.
 */
export function ownerAccess(ctx: Context, action = 'do that'): OrgAccess {
	const access = orgAccess(ctx, loadOrganization(ctx));
	if (!access.admin) throw forbidden(`You must be an owner of ${access.org.login} to ${action}.`);
	return access;
}
