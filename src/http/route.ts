/**
 * Route declarations: one object per route, naming its method, path, who may call it (the spec's
 * permission matrix, accepted token kinds, site-admin rule), its rate-limit resource, its query
 * and body schemas, and its handler. The pipeline (src/http/pipeline.ts) enforces all of it, so
 * handlers hold only the resource logic.
 */
import type * as v from 'valibot';
import type { IncomingMessage } from 'node:http';
import { matrixRow } from '../auth/permission-matrix';
import {
	formatAcceptedPermissions,
	scopesForPolicy,
	type PermissionPolicy,
} from '../auth/permissions';
import type { Principal, PrincipalKind } from '../auth/principal';
import { TOKEN_KINDS, type TokenKind } from '../auth/tokens';
import type { App } from '../app';
import type { RateResource } from '../config';
import type { ApiVersion, MediaParam } from './negotiation';
import type { Reply } from './reply';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route at all:
 * - public: anonymous requests too (they see public resources only);
 * - authenticated: any valid token;
 * - site_admin: a site administrator's token; everyone else gets 404, as on GitHub Enterprise Server.
 */
export type Access = 'public' | 'authenticated' | 'site_admin';

export interface Pagination {
	/** Default per_page. */
	perPage: number;
	/** Largest per_page honoured; larger values are capped. */
	maxPerPage: number;
}

export interface PageRequest {
	page: number;
	perPage: number;
	offset: number;
}

/** Everything a handler receives. */
export interface Context<Query = Record<string, unknown>, Body = Record<string, unknown>> {
	app: App;
	req: IncomingMessage;
	route: Route;
	/** Epoch milliseconds at the start of the request (from the app clock). */
	now: number;
	requestId: string;
	/** Client IP address. */
	ip: string;
	apiVersion: ApiVersion;
	media: MediaParam;
	principal: Principal;
	/**
	 * True when the caller's token lacks the route's permission on a public route: the request is
	 * answered as for an anonymous caller (public resources only), as GitHub does.
	 */
	publicView: boolean;
	/** Path parameters, URL-decoded. */
	params: Record<string, string>;
	query: Query;
	body: Body;
	page: PageRequest;
}

export interface RouteDeclaration<QS extends v.GenericSchema | undefined = v.GenericSchema | undefined, BS extends v.GenericSchema | undefined = v.GenericSchema | undefined> {
	method: Method;
	/** GitHub path syntax: /orgs/{org}/teams */
	path: string;
	/** documentation_url of errors: a path below docs.github.com/.../rest, e.g. 'teams/teams#list-teams' */
	docs: string;
	/**
	 * Fine-grained/app permissions: 'matrix' takes the row of the spec's permission matrix for
	 * this method and path; otherwise alternatives of permission sets ([] = none needed).
	 */
	permissions: 'matrix' | PermissionPolicy;
	access: Access;
	/** Accepted token kinds; default every stored kind the matrix row does not reject ('app' = an app JWT). */
	tokens?: readonly PrincipalKind[];
	/** Classic/OAuth scopes accepted (any one); default derived from the permissions. */
	scopes?: string[];
	/** Rate-limit resource counted; null: not counted (GET /rate_limit). Default 'core'. */
	rateLimit?: RateResource | null;
	/** Resource name in 422 errors[] items, e.g. 'Team'. */
	resource?: string;
	query?: QS;
	body?: BS;
	/** Paginated list: default 30 per page, maximum 100 unless given. */
	pagination?: boolean | Pagination;
	handler(
		ctx: Context<
			QS extends v.GenericSchema ? v.InferOutput<QS> : Record<string, unknown>,
			BS extends v.GenericSchema ? v.InferOutput<BS> : Record<string, unknown>
		>,
	): Reply;
}

/** A declaration with its policy resolved once, at startup. */
export interface Route extends RouteDeclaration {
	policy: PermissionPolicy;
	tokenKinds: ReadonlySet<PrincipalKind>;
	acceptedScopes: string[];
	/** X-Accepted-Service-Permissions value. */
	acceptedPermissionsHeader: string;
	/** X-Accepted-OAuth-Scopes value. */
	acceptedScopesHeader: string;
	pagination: Pagination | false;
	rateResource: RateResource | null;
	documentationUrl: string;
	/** Polka pattern: /orgs/:org/teams */
	pattern: string;
}

/** Declares a route with its schemas' types checked against the handler. */
export function route<QS extends v.GenericSchema | undefined = undefined, BS extends v.GenericSchema | undefined = undefined>(
	declaration: RouteDeclaration<QS, BS>,
): RouteDeclaration {
	return declaration as unknown as RouteDeclaration;
}

/** A numeric path parameter (an id or number): the number, or null for anything else (answer 404). */
export function idParam(text: string | undefined): number | null {
	return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : null;
}

const DEFAULT_PAGINATION: Pagination = { perPage: 30, maxPerPage: 100 };

/**
 * Resolves a declaration's policy from the permission matrix and defaults.
 * @throws Error when a 'matrix' route has no matrix row.
 */
export function resolveRoute(declaration: RouteDeclaration, docsBase: string): Route {
	let policy: PermissionPolicy;
	let rejects: TokenKind[] = [];
	if (declaration.permissions === 'matrix') {
		const row = matrixRow(`${declaration.method} ${declaration.path}`);
		policy = row.policy;
		rejects = row.rejects;
	} else {
		policy = declaration.permissions;
	}
	const kinds = (declaration.tokens ?? TOKEN_KINDS).filter((kind) => !rejects.includes(kind as TokenKind));
	const acceptedScopes = declaration.scopes ?? scopesForPolicy(policy);
	const pagination =
		declaration.pagination === true ? DEFAULT_PAGINATION : declaration.pagination ? declaration.pagination : false;
	return {
		...declaration,
		policy,
		tokenKinds: new Set(kinds),
		acceptedScopes,
		acceptedPermissionsHeader: formatAcceptedPermissions(policy),
		acceptedScopesHeader: acceptedScopes.join(', '),
		pagination,
		rateResource: declaration.rateLimit === undefined ? 'core' : declaration.rateLimit,
		documentationUrl: `${docsBase}/${declaration.docs}`,
		pattern: declaration.path.replace(/\{([a-z_]+)\}/g, ':$1'),
	};
}
