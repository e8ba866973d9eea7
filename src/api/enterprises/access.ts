/**
 * What the caller may do in an enterprise. Enterprise owners administer it; billing managers see
 * its billing; members of its organizations are its members. Installation tokens act for no user
 * and reach no enterprise; fine-grained and user-to-server tokens reach it only when bound to one
 * of its organizations. An enterprise the caller has no part in answers 404.
 */
import { boundAccountId, notAccessible } from '../../auth/principal';
import { forbidden, notFound } from '../../http/errors';
import type { Context } from '../../http/route';
import type { EnterpriseRow } from './store';

export interface EnterpriseAccess {
	enterprise: EnterpriseRow;
	role: 'owner' | 'billing_manager' | 'member' | null;
	userId: number | null;
}

/** @throws HttpError 404 for an unknown enterprise. */
export function loadEnterprise(ctx: Context, slug: string = ctx.params.enterprise): EnterpriseRow {
	const enterprise = ctx.app.stores.enterprises.bySlug(slug);
	if (!enterprise) throw notFound();
	return enterprise;
}

/**
 * Whether the caller's token may be used on the enterprise: classic and OAuth tokens may; tokens
 * bound to one account (fine-grained, user-to-server) only when that account is an organization
 * of the enterprise; installation tokens and app JWTs never (they act for no user).
 */
function tokenReachesEnterprise(ctx: Context, enterprise: EnterpriseRow): boolean {
	const bound = boundAccountId(ctx.principal);
	if (bound === null) return ctx.principal.user !== null;
	if (ctx.principal.kind === 'installation') return false;
	const owner = ctx.app.stores.accounts.byId(bound);
	return owner?.type === 'Organization' && owner.enterprise_id === enterprise.id;
}

/**
 * The caller's role in the enterprise (owner, billing manager, member through an organization).
 * @throws HttpError 403 "Resource not accessible by personal access token" / "… by integration"
 *   when a caller with a role uses a token bound to an account outside the enterprise (an
 *   enterprise the caller has no part in stays hidden: role null, which callers answer with 404).
 */
export function enterpriseAccess(ctx: Context): EnterpriseAccess {
	const enterprise = loadEnterprise(ctx);
	const userId = ctx.publicView ? null : (ctx.principal.user?.id ?? null);
	if (userId === null) return { enterprise, role: null, userId };
	const role =
		ctx.app.stores.enterprises.role(enterprise.id, userId) ?? (ctx.app.stores.enterprises.isMember(enterprise.id, userId) ? 'member' : null);
	if (role !== null && !tokenReachesEnterprise(ctx, enterprise)) throw notAccessible(ctx.principal);
	return { enterprise, role, userId };
}

/**
 * The caller's access, requiring one of `roles`.
 * @throws HttpError 404 for outsiders (the enterprise stays hidden), 403 for members without the role.
 */
export function requireEnterpriseRole(ctx: Context, roles: Array<'owner' | 'billing_manager'>, action: string): EnterpriseAccess {
	const access = enterpriseAccess(ctx);
	if (access.role === null) throw notFound();
	if (access.role === 'member' || !roles.includes(access.role)) {
		throw forbidden(`You must be an enterprise ${roles.map((r) => (r === 'owner' ? 'owner' : 'billing manager')).join(' or ')} of ${access.enterprise.slug} to ${action}.`);
	}
	return access;
}
