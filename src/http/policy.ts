/**
 * Access policies: a route declaration that only states who may reach a resource (token kinds,
 * scopes, fine-grained and app permissions, the resource guard), for front ends that are not REST
 * routes but must admit callers with the same rules (GraphQL fields, the git transport). Admitted
 * with admitAs (src/http/pipeline.ts); a policy has no handler to run.
 */
import type { PermissionPolicy } from '../auth/permissions';
import { DOCS_BASE } from './errors';
import { resolveRoute, route, type Method, type ResourceGuard, type Route } from './route';

/** What a policy states: the route access of the REST resource it stands for. */
export interface PolicyDeclaration {
	method: Method;
	/** The path whose parameters the guard reads ({owner}, {repo}, {org}, …). */
	path: string;
	/** GitHub's documentation anchor of the REST twin (403 messages name its action). */
	docs: string;
	access: 'public' | 'authenticated' | 'site_admin';
	resource: ResourceGuard | 'none';
	permissions: PermissionPolicy | 'matrix';
	scopes?: string[];
}

/** A resolved route that only states access: it has no handler (admitAs never runs one). */
export function policy(declaration: PolicyDeclaration): Route {
	return resolveRoute(
		route({
			...declaration,
			handler() {
				throw new Error(`${declaration.method} ${declaration.path}: an access policy has no handler`);
			},
		}),
		DOCS_BASE,
	);
}
