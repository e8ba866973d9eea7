/**
 * Route declarations: one object per route, naming its method, path, who may call it (the
 * permission matrix, accepted token kinds, site-admin rule), its rate-limit resource, its query
 * and body schemas, and its handler. The pipeline (src/http/pipeline.ts) enforces all of it, so
 * handlers hold only the resource logic.
 */
import type * as v from 'valibot';
import type { IncomingMessage } from 'node:http';
import { matrixRow } from '../auth/permission-matrix';
import { formatAcceptedPermissions, scopesForPolicy, type PermissionPolicy } from '../auth/permissions';
import type { Principal, PrincipalKind } from '../auth/principal';
import { TOKEN_KINDS, type TokenKind } from '../auth/tokens';
import type { App } from '../app';
import type { EnterpriseAccess, OrgAccess, RepoAccess, TeamAccess } from '../auth/access/types';
import type { GistRow } from '../model/rows';
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

/**
 * The resource a route guards and the caller's standing it requires. The pipeline resolves it once
 * per request (src/http/guards.ts), answering 404 for what the caller may not see and 403 for what
 * it may see but not change, and hands the loaded resource to the handler (ctx.repo, ctx.org,
 * ctx.team, ctx.enterprise, ctx.gist). Handlers never load or check these themselves.
 *
 * Tokens bound to one account (fine-grained, user-to-server, installation) act only on resources of
 * that account: elsewhere they read what is public and nothing more (403 "Resource not accessible
 * by …" for anything else).
 */
export interface ResourceGuard {
	/**
	 * The repository {owner}/{repo}, or {repository_id} (GET /repositories/{repository_id}), with GitHub's repository roles (read = pull, push = write): a
	 * repository the caller cannot see is 404; below the role, 403.
	 */
	repo?: 'read' | 'triage' | 'push' | 'maintain' | 'admin';
	/**
	 * The organization {org}: `read` any caller (non-members see its public side), `member` its
	 * active members and its app, `owner` its owners and its app; below the level, 403.
	 */
	org?: 'read' | 'member' | 'owner';
	/**
	 * The team of {org}/{team_slug}, {org_id}/{team_id} or {team_id} (also sets ctx.org): `member`
	 * any caller who may see it (others, 404: a secret team looks like no team), `maintainer`
	 * organization owners, the app and the team's maintainers (others who see it, 403), `owner`
	 * organization owners and the app only (others who see it, 403).
	 */
	team?: 'member' | 'maintainer' | 'owner';
	/**
	 * The enterprise {enterprise}: `member` anyone with a part in it, `organization_admin` owners,
	 * billing managers and the admins of its organizations, `billing` owners and billing managers,
	 * `admin` owners. Everyone below the level gets 404, the answer for an enterprise that does not
	 * exist, so the route is no existence oracle.
	 */
	enterprise?: 'member' | 'organization_admin' | 'billing' | 'admin';
	/** The gist {gist_id}: `read` anyone with its id (a secret gist is unlisted, not private), `owner` its owner (others 404). */
	gist?: 'read' | 'owner';
	/**
	 * The authenticated user (/user/…): a user must be acting (installation tokens and app JWTs act
	 * for no user: 404). With `bound` and no other resource, a token bound to one account must be bound to the
	 * user's own (with an organization, to that organization).
	 */
	self?: true;
	/**
	 * Write methods on a repository: the route changes the repository's content, so an archived or
	 * migration-locked repository answers 403 (default true for POST, PUT, PATCH, DELETE).
	 */
	writable?: boolean;
	/** The route only reads the guarded resource although its method writes (the source of a fork): it gets the read rules. */
	readOnly?: true;
	/** A token bound to one account must be bound to this resource's account even to read it (the answer is private to the caller). */
	bound?: true;
	/**
	 * Callers who see the repository or organization but stand below the level get 404, not 403:
	 * GitHub conceals what only administrators may manage (a repository's or organization's webhooks).
	 * `'outsiders'` (organizations): callers who are not members of the organization (nor its app)
	 * get 404 whatever the level, its members below the level 403 — organization settings GitHub
	 * shows to no outsider (rulesets, Actions and security settings).
	 */
	conceal?: true | 'outsiders';
	/**
	 * A repository fine-grained permission (GitHub's custom repository roles: manage_webhooks,
	 * manage_topics, …) that stands in for the `repo` level on this route: a user whose custom
	 * repository role on the repository includes it passes the guard below the level.
	 */
	grantedBy?: string;
	/**
	 * Reads of security alerts: members of the organization's security manager teams read them in
	 * every repository of the organization, whatever their own role, and the organization's lists
	 * as its owners do (GitHub's security manager role). Applies to GET only.
	 */
	securityManagers?: true;
}

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

/** Everything a handler receives but the guarded resources (Context adds them). */
export interface RequestContext<Query = Record<string, unknown>, Body = Record<string, unknown>> {
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
	/** The streamed body of an `upload` route (null elsewhere). */
	upload: UploadedFile | null;
	/** What the route's `prepare` step produced (undefined for routes without one). */
	prepared: unknown;
}

/** The resources a guard may load (src/http/guards.ts), by the ResourceGuard key that loads them. */
export interface Resources {
	/** `resource.repo`: the repository with the caller's permission. */
	repo: RepoAccess;
	/** `resource.org` (and `resource.team`): the organization with the caller's standing. */
	org: OrgAccess;
	/** `resource.team`: the team with the caller's standing. */
	team: TeamAccess;
	/** `resource.enterprise`: the enterprise with the caller's role. */
	enterprise: EnterpriseAccess;
	/** `resource.gist`: the gist. */
	gist: GistRow;
}

/**
 * The resources the guard `G` loads, typed present; the others typed `never`, so a handler that
 * reads a resource its route does not declare does not compile. A guard typed only as
 * ResourceGuard (chosen at run time by a route factory) may load any of them: all are typed
 * present, as for helpers. For the pipeline's view of any route (`ResourceGuard | 'none'`), each
 * may be there or not (GuardedContext).
 */
export type Loaded<G> = [ResourceGuard | 'none'] extends [G]
	? Partial<Resources>
	: [ResourceGuard] extends [G]
		? Resources
		: {
				repo: G extends { repo: string } ? RepoAccess : never;
				org: G extends { org: string } | { team: string } ? OrgAccess : never;
				team: G extends { team: string } ? TeamAccess : never;
				enterprise: G extends { enterprise: string } ? EnterpriseAccess : never;
				gist: G extends { gist: string } ? GistRow : never;
			};

/**
 * Everything a handler receives: the request and the resources its route's guard `G` loaded
 * (Loaded). Without `G`, every resource is typed present: the type of helpers that handlers of
 * differently guarded routes share, each reading what its callers' guards load.
 */
export type Context<Query = Record<string, unknown>, Body = Record<string, unknown>, G = ResourceGuard> = RequestContext<Query, Body> &
	Loaded<G>;

/** The context the pipeline builds for any route: the resources its guard declared, and no others. */
export type GuardedContext = Context<Record<string, unknown>, Record<string, unknown>, ResourceGuard | 'none'>;

/** A request body streamed to a file (routes with `upload`). */
export interface UploadedFile {
	/** Absolute path of the file written. */
	path: string;
	/** Bytes. */
	size: number;
	/** SHA-256 of the bytes, lower-case hex. */
	sha256: string;
}

export interface RouteDeclaration<
	QS extends v.GenericSchema | undefined = v.GenericSchema | undefined,
	BS extends v.GenericSchema | undefined = v.GenericSchema | undefined,
	G extends ResourceGuard | 'none' = ResourceGuard | 'none',
> {
	method: Method;
	/** GitHub path syntax: /orgs/{org}/teams */
	path: string;
	/** documentation_url of errors: a path below docs.github.com/.../rest, e.g. 'teams/teams#list-teams' */
	docs: string;
	/**
	 * Fine-grained/app permissions: 'matrix' takes the row of the permission matrix for
	 * this method and path; otherwise alternatives of permission sets ([] = none needed).
	 */
	permissions: 'matrix' | PermissionPolicy;
	access: Access;
	/**
	 * The resource the route guards (ResourceGuard), or 'none' for routes about no one resource:
	 * discovery (/meta, /rate_limit), public user profiles, site-administrator routes, app routes.
	 */
	resource: G;
	/** Accepted token kinds; default every stored kind the matrix row does not reject ('app' = an app JWT). */
	tokens?: readonly PrincipalKind[];
	/** Classic/OAuth scopes accepted (any one); default derived from the permissions. */
	scopes?: string[];
	/** Rate-limit resource counted; null: not counted (GET /rate_limit). Default 'core'. */
	rateLimit?: RateResource | null;
	/** `resource` of 422 errors[] items, e.g. 'Team'. */
	errorResource?: string;
	/**
	 * The shape of this route's 422 answers: 'simple' for GitHub's validation-error-simple, whose
	 * errors[] are sentences (strings), where GitHub documents it (Dependabot alerts); default
	 * GitHub's validation-error, errors[] of {resource, field, code, message}.
	 */
	errorShape?: 'simple';
	query?: QS;
	body?: BS;
	/**
	 * The body field a bare JSON array stands for: GitHub accepts `["bug"]` for `{"labels":["bug"]}`
	 * on the issue-label routes. The pipeline wraps an array body (and a bare string, as one item)
	 * into `{ [arrayBody]: … }` before validation; without it, a body that is not an object is 400.
	 */
	arrayBody?: string;
	/** A JSON `null` body reads as `{}` (nothing to change), as GitHub's PATCH /orgs/{org} takes it. */
	nullBody?: boolean;
	/**
	 * The request body is text, not JSON (POST /markdown/raw: `text/plain`, `text/x-markdown`):
	 * src/server.ts reads it as is, whatever its Content-Type, and hands it to validation as
	 * `{ text }` (no body: `{}`), so `body` describes that object.
	 */
	textBody?: boolean;
	/** Paginated list: default 30 per page, maximum 100 unless given. */
	pagination?: boolean | Pagination;
	/**
	 * The version of what a GET answers, computed cheaply before the handler (e.g. a feed's newest
	 * event id and size): the ETag comes from it (with the API version, media type and page), so a
	 * matching If-None-Match is answered 304 before anything is rendered. It must change whenever
	 * the answer to this caller would, and must not change when that answer does not (an ETag that
	 * moves on an unseen write is an existence oracle). `null`: no cheap version for this caller;
	 * the ETag is then the digest of the rendered answer.
	 */
	// biome-ignore lint/suspicious/noExplicitAny: called with the route's own context, whatever its schemas
	version?(ctx: Context<any, any, NoInfer<G>>): string | null;
	/**
	 * A write-method route whose request may only read (POST /graphql with a query and no
	 * mutation): given the parsed body, true when the request must run as a write (in the write
	 * transaction, answered after the commit); false runs it as a read. Default: every request of a
	 * write method writes.
	 */
	writes?(body: unknown): boolean;
	/**
	 * The handler catches failures of the services it calls and goes on (GraphQL: a failing
	 * mutation field answers its error while the others commit), so each service transaction keeps
	 * its own savepoint. Default: a request runs in one savepoint, the services' transactions inside
	 * it without their own (a failure ends the request and rolls it all back).
	 */
	nestedSavepoints?: boolean;
	/** Send X-Poll-Interval (polled resources: feeds, notifications). */
	polled?: boolean;
	/**
	 * The body is a file (release asset uploads), not JSON: once authentication, the route policy,
	 * the rate limit, the guard and the query have passed, the pipeline streams it to a new file in
	 * `dir(app)` (never held in memory, never parsed), refusing more than `limit(app)` bytes with
	 * 413, and then runs the handler with `ctx.upload` in the write transaction. The pipeline
	 * deletes the file when the request fails (the handler threw, or the commit failed).
	 */
	upload?: {
		/** Absolute folder for the file. @throws DomainError when uploads cannot be stored (no blob storage) */
		dir(app: App): string;
		/** Most bytes accepted. */
		limit(app: App): number;
		/**
		 * Checks that need no body (the target exists, a name is free), run before the body is read
		 * (and again by the handler, which sees the state as it is when the file has arrived).
		 */
		// biome-ignore lint/suspicious/noExplicitAny: called with the route's own context, whatever its schemas
		before?(ctx: Context<any, any, NoInfer<G>>): void;
	};
	/**
	 * Asynchronous work the handler needs and cannot do itself, handlers being synchronous (parsing
	 * an OpenPGP key, verifying a signature with a library whose API is asynchronous). The pipeline
	 * runs it once authentication, the policy, the rate limit, the guard and validation have passed,
	 * outside any transaction, then runs the request again (checks, then the handler, in the write
	 * transaction for a write) with its result as ctx.prepared. An error it throws (DomainError, HttpError) answers the
	 * request. Such a route cannot be reached through the internal dispatch (GraphQL).
	 */
	// biome-ignore lint/suspicious/noExplicitAny: called with the route's own context, whatever its schemas
	prepare?(ctx: Context<any, any, NoInfer<G>>): Promise<unknown>;
	handler(
		ctx: Context<
			QS extends v.GenericSchema ? v.InferOutput<QS> : Record<string, unknown>,
			BS extends v.GenericSchema ? v.InferOutput<BS> : Record<string, unknown>,
			NoInfer<G>
		>,
	): Reply;
}

/** A declaration with its policy resolved once, at startup. */
export interface Route extends RouteDeclaration {
	policy: PermissionPolicy;
	tokenKinds: ReadonlySet<Principal['kind']>;
	acceptedScopes: string[];
	/** X-Accepted-Service-Permissions value. */
	acceptedPermissionsHeader: string;
	/** X-Accepted-OAuth-Scopes value. */
	acceptedScopesHeader: string;
	pagination: Pagination | false;
	rateResource: RateResource | null;
	/** The declared guard; null for 'none'. */
	guard: ResourceGuard | null;
	/** Query parameters the route reads (its query schema's keys, page, per_page): Link repeats only these. */
	queryKeys: ReadonlySet<string>;
	/** What the route does, in words from its documentation anchor ("list teams"), for 403 messages. */
	action: string;
	documentationUrl: string;
}

/**
 * Declares a route with its schemas' and its guard's types checked against the handler: `ctx.body`
 * and `ctx.query` are the schemas' output, and only the resources the guard loads can be read.
 */
export function route<
	QS extends v.GenericSchema | undefined = undefined,
	BS extends v.GenericSchema | undefined = undefined,
	const G extends ResourceGuard | 'none' = 'none',
>(declaration: RouteDeclaration<QS, BS, G>): RouteDeclaration {
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
	const guard = declaration.resource === 'none' ? null : declaration.resource;
	const pagination = declaration.pagination === true ? DEFAULT_PAGINATION : declaration.pagination ? declaration.pagination : false;
	return {
		...declaration,
		policy,
		tokenKinds: new Set(kinds),
		acceptedScopes,
		acceptedPermissionsHeader: formatAcceptedPermissions(policy),
		acceptedScopesHeader: acceptedScopes.join(', '),
		pagination,
		rateResource: declaration.rateLimit === undefined ? 'core' : declaration.rateLimit,
		guard,
		queryKeys: new Set(['page', 'per_page', ...Object.keys((declaration.query as { entries?: object } | undefined)?.entries ?? {})]),
		action: (declaration.docs.split('#')[1] ?? declaration.docs).replace(/-/g, ' '),
		documentationUrl: `${docsBase}/${declaration.docs}`,
	};
}
