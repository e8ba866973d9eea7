/**
 * What the caller may do in an enterprise. Enterprise owners administer it; billing managers see
 * its billing; members of its organizations are its members. Installation tokens act for no user
 * and reach no enterprise. An enterprise the caller has no part in answers 404.
 */
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

/** The caller's role in the enterprise (owner, billing manager, member through an organization). */
export function enterpriseAccess(ctx: Context): EnterpriseAccess {
	const enterprise = loadEnterprise(ctx);
	const userId = ctx.publicView ? null : (ctx.principal.user?.id ?? null);
	if (userId === null) return { enterprise, role: null, userId };
	const role = ctx.app.stores.enterprises.role(enterprise.id, userId);
	if (role) return { enterprise, role, userId };
	return { enterprise, role: ctx.app.stores.enterprises.isMember(enterprise.id, userId) ? 'member' : null, userId };
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
