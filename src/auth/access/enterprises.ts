/**
 * The caller's role in an enterprise. Enterprise owners administer it; billing managers see its
 * billing; members of its organizations are its members. Installation tokens act for no user and
 * reach no enterprise; fine-grained and user-to-server tokens reach it only when bound to one of its
 * organizations.
 */
import { boundAccountId } from '../principal';
import type { EnterpriseRow } from '../../model/rows';
import type { EnterpriseAccess, Viewer } from './types';

/** The caller's role in the enterprise (owner, billing manager, member through an organization). */
export function enterpriseAccess(viewer: Viewer, enterprise: EnterpriseRow): EnterpriseAccess {
	const userId = viewer.publicView ? null : (viewer.principal.user?.id ?? null);
	if (userId === null) return { enterprise, role: null, userId };
	const { enterprises } = viewer.app.stores;
	const role = enterprises.role(enterprise.id, userId) ?? (enterprises.isMember(enterprise.id, userId) ? 'member' : null);
	return { enterprise, role, userId };
}

/**
 * Whether the caller's token may be used on the enterprise: classic and OAuth tokens may; tokens
 * bound to one account (fine-grained, user-to-server) only when that account is an organization
 * of the enterprise; installation tokens and app JWTs never (they act for no user).
 */
export function tokenReachesEnterprise(viewer: Viewer, enterprise: EnterpriseRow): boolean {
	const bound = boundAccountId(viewer.principal);
	if (bound === null) return viewer.principal.user !== null;
	if (viewer.principal.kind === 'installation') return false;
	const owner = viewer.app.stores.accounts.byId(bound);
	return owner?.type === 'Organization' && owner.enterprise_id === enterprise.id;
}
