/**
 * The request pipeline every route runs through (docs/ARCHITECTURE.md, "One request"):
 * negotiation → body → authentication → route policy → rate limit → validation → handler →
 * response (JSON, ETag/304, Link, standard headers). Cross-cutting rules live here once.
 */
import { hash, randomUUID } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { enterpriseVersion } from '../build-info';
import type { App } from '../app';
import type { Principal } from '../auth/principal';
import { loadResources } from './guards';
import { permissionsSatisfy } from '../auth/permissions';
import { isBusy, isDuplicateKey } from '../db/errors';
import { epochSeconds } from '../time';
import { recordOf, type RequestRecord } from './access';
import { forbidden, notFound, unauthenticated, validationFailed } from '../model/errors';
import { HttpError, httpErrorOf, MESSAGES } from './errors';
import { DEFAULT_API_VERSION, mediaTypeHeader, negotiateMedia, negotiateVersion, type ApiVersion, type MediaParam } from './negotiation';
import type { RateWindow } from './rate-limit';
import { Urls } from '../model/urls';
import type { Reply } from './reply';
import { Head, headerLines, isHeaderValue } from './head';
import type { GuardedContext, PageRequest, Pagination, RequestContext, Route, UploadedFile } from './route';
import { discardUpload, receiveFile } from './upload';
import { validate } from './validation';
import { toJson } from '../model/json';

/** A request after polka: path parameters, parsed query, parsed body. */
export interface PolkaRequest extends IncomingMessage {
	params: Record<string, string>;
	query: Record<string, string | string[]>;
	/** The path below /api/v3, e.g. /orgs/acme/teams */
	path: string;
	/** Query string including '?', or ''. */
	search: string;
	body?: unknown;
}

/** Marks a request body that is not valid JSON (set by the body parser in server.ts). */
export const MALFORMED_BODY: unique symbol = Symbol('malformed JSON body');

/** Headers GitHub lets browsers read (https://docs.github.com/en/rest/using-the-rest-api/using-cors-and-jsonp-to-make-cross-origin-requests). */
export const EXPOSED_HEADERS =
	'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, ' +
	'X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, ' +
	'X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset, X-Accepted-Service-Permissions, ' +
	'X-Accepted-GitHub-Permissions, X-Service-Api-Version-Selected, X-GitHub-Api-Version-Selected';

const VARY = 'Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, X-Requested-With';

/** Headers on every answer, routed or not. */
export function baseHeaders(requestId: string): Record<string, string> {
	return {
		'X-GitHub-Request-Id': requestId,
		'Access-Control-Allow-Origin': '*',
		'Access-Control-Expose-Headers': EXPOSED_HEADERS,
		'X-Content-Type-Options': 'nosniff',
		'X-GitHub-Enterprise-Version': enterpriseVersion,
	};
}

interface State {
	requestId: string;
	/** The request's record (src/http/access.ts): route and principal are noted there for the access log. */
	record: RequestRecord | null;
	headers: Record<string, string>;
	principal: Principal | null;
	window: RateWindow | null;
	/**
	 * The rate limit is spent, but the request is conditional (If-None-Match, If-Modified-Since):
	 * it is answered 304 if nothing changed, and with the rate-limit error otherwise.
	 */
	exhausted: HttpError | null;
	/** The ETag from the route's version (route.version), when it declares one. */
	etag: string | null;
	version: ApiVersion;
	media: MediaParam;
}

/** One request to one route, as the pipeline's steps share it. */
interface Exchange {
	app: App;
	route: Route;
	req: PolkaRequest;
	res: ServerResponse;
	/** What the request has learned so far (principal, rate window, …). */
	state: State;
	/** Runs synchronous work with the request's forwarded origin (requestScope). */
	scoped: <T>(fn: () => T) => T;
}

/** Builds the polka handler of one route. */
export function routeHandler(app: App, route: Route): (req: PolkaRequest, res: ServerResponse) => void {
	return (req, res) => {
		const now = app.clock();
		const scoped = requestScope(app, req);
		const record = recordOf(req) ?? null;
		if (record) record.route = route.path;
		const state: State = {
			requestId: record?.requestId ?? randomUUID(),
			record,
			headers: {},
			principal: null,
			window: null,
			exhausted: null,
			etag: null,
			version: DEFAULT_API_VERSION,
			media: null,
		};
		const x: Exchange = { app, route, req, res, state, scoped };
		const fail = (error: unknown) => scoped(() => sendError(x, error));
		const answer = (reply: Reply) =>
			scoped(() => {
				try {
					send(x, reply);
				} catch (error) {
					sendError(x, error);
				}
			});
		if (route.upload) return receiveUpload(x, now, answer);
		if (route.prepare) return receivePrepared(x, now, answer, fail);
		let reply: Reply;
		try {
			reply = scoped(() => run(x, now, undefined));
		} catch (error) {
			// A refused write changed nothing (its savepoint rolled back): nothing to wait for.
			fail(error);
			return;
		}
		if (!writes(route, req)) return answer(reply);
		// A write is answered once it is committed (group commit: at the end of this turn).
		const waiting = serialized(reply, scoped);
		app.transaction.durable().then(() => answer(waiting), fail);
	};
}

/**
 * The reply a write keeps while it waits for its group's commit: its JSON body serialized now, the
 * same text send() would make, so the objects it was rendered from are garbage before the next
 * young-generation collection instead of being copied by it (a group holds up to one waiting write
 * per connection; measured under the write benchmark, scavenges were a sixth of a POST's time).
 */
function serialized(reply: Reply, scoped: Exchange['scoped']): Reply {
	if (reply.body === undefined || reply.json !== undefined || reply.status === 204 || reply.file || reply.raw) return reply;
	const { status, headers, total, rateCost } = reply;
	return { status, json: scoped(() => toJson(reply.body)), headers, total, rateCost };
}

/**
 * A route whose body is a file (`route.upload`): everything before the handler runs first, without
 * the body, so nothing is streamed for a caller the route refuses; then the body is streamed to a
 * file (src/http/upload.ts) and the handler runs with it in the write transaction, as any write.
 * The file is deleted when the handler refuses it or the commit fails.
 */
function receiveUpload(x: Exchange, now: number, answer: (reply: Reply) => void): void {
	const { app, route, req, res, state, scoped } = x;
	const upload = route.upload!;
	let dir: string;
	let limit: number;
	try {
		state.version = negotiateVersion(req.headers);
		state.media = negotiateMedia(req.headers.accept);
		scoped(() => {
			const ctx = admit(x, { now, body: undefined, upload: null, prepared: undefined });
			upload.before?.(ctx);
		});
		dir = upload.dir(app);
		limit = upload.limit(app);
		if (Number(req.headers['content-length']) > limit)
			throw new HttpError(413, MESSAGES.bodyTooLarge, { headers: { Connection: 'close' } });
	} catch (error) {
		// The body is not read: the connection closes after the answer.
		res.setHeader('Connection', 'close');
		scoped(() => sendError(x, error));
		return;
	}
	receiveFile(req, dir, limit).then(
		(file) => {
			let reply: Reply;
			try {
				reply = scoped(() =>
					app.transaction.grouped(() =>
						invoke(admit(x, { now: app.clock(), body: undefined, upload: file, prepared: undefined }), state),
					),
				);
			} catch (error) {
				discardUpload(file);
				scoped(() => sendError(x, error));
				return;
			}
			app.transaction.durable().then(
				() => answer(reply),
				(error: unknown) => {
					discardUpload(file);
					scoped(() => sendError(x, error));
				},
			);
		},
		(error: unknown) => {
			res.setHeader('Connection', 'close');
			scoped(() => sendError(x, error));
		},
	);
}

/**
 * A route with a `prepare` step (asynchronous work its handler needs: parsing an OpenPGP key,
 * verifying a signature): everything before the handler runs first (authentication, policy, rate
 * limit, guard, validation) without a transaction, then `prepare` with that context outside any
 * transaction, then the whole request again with its result as ctx.prepared (the state may have
 * changed meanwhile), in the write transaction for a write. A refusal of either pass, or of the
 * step itself (thrown or rejected), answers the request.
 */
function receivePrepared(x: Exchange, now: number, answer: (reply: Reply) => void, fail: (error: unknown) => void): void {
	const { app, route, req, scoped } = x;
	let checked: GuardedContext;
	try {
		checked = scoped(() => {
			negotiate(x);
			return admit(x, { now, body: req.body, upload: null, prepared: undefined });
		});
	} catch (error) {
		fail(error);
		return;
	}
	// A synchronous throw of the step answers like a rejection.
	new Promise((resolve) => resolve(route.prepare!(checked))).then((prepared) => {
		let reply: Reply;
		try {
			// The request's own time again: what the step prepared was computed with it.
			reply = scoped(() => run(x, now, prepared));
		} catch (error) {
			fail(error);
			return;
		}
		if (!writes(route, req)) return answer(reply);
		const waiting = serialized(reply, scoped);
		app.transaction.durable().then(() => answer(waiting), fail);
	}, fail);
}

/** The API version and media type the request asks for (noted on the state); 400 for a body that is not JSON. */
function negotiate({ req, state }: Exchange): void {
	state.version = negotiateVersion(req.headers);
	state.media = negotiateMedia(req.headers.accept);
	if (req.body === MALFORMED_BODY) throw new HttpError(400, MESSAGES.problemsParsingJson);
}

/** @param prepared what the route's `prepare` step produced (undefined without one) */
function run(x: Exchange, now: number, prepared: unknown): Reply {
	const { app, route, req, state } = x;
	negotiate(x);
	const request = { now, body: req.body, upload: null, prepared };
	// A write request runs in one transaction from authentication to the handler's last read: one
	// commit, all-or-nothing, and its reads share one lock instead of taking one each. Reads run
	// without: measured, BEGIN/COMMIT costs a GET more than the per-statement locks (192 vs 164 µs).
	if (!writes(route, req)) return invoke(admit(x, request), state);
	// One savepoint per request: the service's own transaction runs inside it without another.
	return app.transaction.grouped(() => invoke(admit(x, request), state), { flat: route.nestedSavepoints !== true });
}

/** Whether the request runs as a write (in the write transaction): write methods, unless the route says this body only reads (route.writes). */
function writes(route: Route, req: PolkaRequest): boolean {
	if (req.method === 'GET' || req.method === 'HEAD') return false;
	return route.writes ? route.writes(req.body) : true;
}

/**
 * Admits a caller already authenticated and counted to the rules of `route` without running its
 * handler: the route policy (token kinds, classic scopes, fine-grained and app permissions; a token
 * lacking them on a public route reads as anonymous, publicView) and the route's guard over
 * `params` (404 for what the caller may not see, 403 below the role). GraphQL fields decide access
 * this way, with the rules a REST request to the same resource gets.
 * @param parent the context of the request at hand (principal, clock, request id, address)
 * @returns the context with the guarded resources loaded (ctx.repo, ctx.org, ctx.team, ctx.gist)
 * @throws DomainError or HttpError: the refusal a REST request would get (401, 403, 404, 301 for a renamed repository)
 */
export function admitAs(parent: RequestContext, route: Route, params: Record<string, string>): GuardedContext {
	const { app, req, now, requestId, ip, apiVersion, media, principal } = parent;
	const publicView = authorize(route, principal);
	const ctx = buildContext(route, {
		app,
		req,
		now,
		requestId,
		ip,
		apiVersion,
		media,
		principal,
		publicView,
		params,
		query: {},
		upload: null,
		prepared: undefined,
	});
	loadResources(ctx);
	return ctx;
}

/** What a request brings to a route besides its path and query: when, its body, its streamed file. */
interface Admission {
	/** Epoch milliseconds at the start of the request. */
	now: number;
	/** The parsed JSON body (undefined: none, or an upload route's). */
	body: unknown;
	/** The streamed body of an upload route once it is read; null before and elsewhere. */
	upload: UploadedFile | null;
	/** What the route's `prepare` step produced, for the pass after it; undefined before and elsewhere. */
	prepared: unknown;
}

/**
 * Everything before the handler: authentication, route policy, rate limit, then the route's guard
 * and schemas (enter). Notes the principal and rate window on `state` for the answer.
 * @throws DomainError 401 (Unauthenticated), HttpError 403 (rate limit) …; DomainError 403, 404, 422 of the guard and schemas
 */
function admit(x: Exchange, { now, body, upload, prepared }: Admission): GuardedContext {
	const { app, route, req, state } = x;
	const ip = clientIp(app, req);
	const seconds = epochSeconds(now);
	// Another process's commit (a `gitstead admin` command) clears the caches: writes look every
	// time, reads at most once a millisecond (a PRAGMA per request shows in the read benchmark).
	if (req.method === 'GET' || req.method === 'HEAD') app.externalChanges.checkAtMostEvery(1);
	else app.externalChanges.check();
	const principal = app.authenticator.authenticate(req.headers, ip, seconds);
	state.principal = principal;
	if (state.record) state.record.principal = principal;
	const publicView = authorize(route, principal);

	if (app.rateLimiter.enabled && route.rateResource) {
		const window = app.rateLimiter.window(principal.rateKey, route.rateResource, seconds);
		state.window = window;
		if (state.record) state.record.rate = route.rateResource;
		if (window.used >= window.limit) {
			const exceeded = rateLimitExceeded(principal, window, ip, seconds);
			// A conditional read still learns whether anything changed: a 304 costs nothing (reference
			// §1.7), so it is answered before the limit applies; anything else gets the 403.
			if (!isConditional(req)) throw exceeded;
			state.exhausted = exceeded;
		}
	}
	const fields = {
		app,
		req,
		now,
		requestId: state.requestId,
		ip,
		apiVersion: state.version,
		media: state.media,
		principal,
		publicView,
		params: req.params,
		query: req.query,
		upload,
		prepared,
	};
	return enter(route, fields, body);
}

/**
 * The route's own checks for a caller already admitted: the context (buildContext), the resources
 * the guard declares (404 and 403 come before 422, as on GitHub), then the body and query
 * (validateInput). The one way into a handler, for a request and for the internal dispatch alike.
 */
function enter(route: Route, fields: RequestFields, body: unknown): GuardedContext {
	const ctx = buildContext(route, fields);
	loadResources(ctx);
	validateInput(ctx, body);
	return ctx;
}

/** A request's own fields of the context: everything but the route, its page and its validated input. */
type RequestFields = Omit<RequestContext, 'route' | 'body' | 'page'>;

/** The context of `route` for a request, before its guard has loaded anything and its input is validated. */
function buildContext(route: Route, fields: RequestFields): GuardedContext {
	// Every field named, in one literal: an object spread here (`...fields`) measured 30–50 µs a
	// request in V8, more than the rest of a 304.
	return {
		app: fields.app,
		req: fields.req,
		now: fields.now,
		requestId: fields.requestId,
		ip: fields.ip,
		apiVersion: fields.apiVersion,
		media: fields.media,
		principal: fields.principal,
		publicView: fields.publicView,
		params: fields.params,
		query: fields.query,
		upload: fields.upload,
		prepared: fields.prepared,
		route,
		body: {},
		page: route.pagination ? pageRequest(fields.query, route.pagination.perPage, route.pagination.maxPerPage) : FIRST_PAGE,
		// Set by loadResources for the resources the route declares.
		repo: undefined,
		org: undefined,
		team: undefined,
		enterprise: undefined,
		gist: undefined,
	};
}

/**
 * The body and query as the route's schemas output them (ctx.body, ctx.query).
 * @param body the parsed JSON body; undefined is `{}`
 * @throws HttpError 400 for a body that is not a JSON object (unless the route takes a bare array); DomainError 422 listing every problem
 */
function validateInput(ctx: GuardedContext, body: unknown): void {
	const { route } = ctx;
	if (route.body) {
		let input = body === undefined || (body === null && route.nullBody) ? {} : body;
		// A route may take its one list field bare (route.arrayBody): ["bug"] means {"labels":["bug"]}.
		if (route.arrayBody && (Array.isArray(input) || typeof input === 'string'))
			input = { [route.arrayBody]: Array.isArray(input) ? input : [input] };
		if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new HttpError(400, MESSAGES.bodyNotObject);
		ctx.body = validate(route.body, input, route.errorResource ?? 'Resource') as Record<string, unknown>;
	}
	if (route.query) ctx.query = validQuery(route, ctx.query);
}

/** Each query schema's result for a request without query parameters, made once (validQuery). */
const noParameters = new WeakMap<object, Record<string, unknown>>();

/**
 * The route's query parameters as its schema gives them. Most reads send none: their result is the
 * schema's result for `{}`, validated at the route's first such request and copied afterwards
 * (a valibot run through a schema costs microseconds a request; the copy, well under one). A
 * query schema's defaults are constants, so that result never changes; a schema that refuses `{}`
 * (a required parameter) refuses it every time.
 * @throws DomainError 422 as validate does
 */
function validQuery(route: GuardedContext['route'], query: Record<string, unknown>): Record<string, unknown> {
	const schema = route.query!;
	for (const _ in query) return validate(schema, query, route.errorResource ?? 'Resource') as Record<string, unknown>;
	let result = noParameters.get(schema);
	if (result === undefined) {
		result = validate(schema, {}, route.errorResource ?? 'Resource') as Record<string, unknown>;
		noParameters.set(schema, result);
	}
	return { ...result };
}

/**
 * The handler of an admitted request; a GET of a route with a version is first answered 304 when
 * its ETag matches. A write's domain events name the request that made them (app.acting).
 */
function invoke(ctx: GuardedContext, state: State): Reply {
	const { app, route, req } = ctx;
	const version = route.version && (req.method === 'GET' || req.method === 'HEAD') ? route.version(ctx) : null;
	if (version !== null) {
		// The answer's version decides the ETag before anything is rendered: an unchanged resource
		// costs two index lookups, however large its answer.
		const { page, perPage } = ctx.page;
		state.etag = versionEtag(`${state.version};${state.media ?? ''};${page};${perPage};${app.cache.partition};${version}`);
		const ifNoneMatch = req.headers['if-none-match'];
		if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, state.etag)) return { status: 304 };
		// Render once: the ETag names the answer exactly (a client holding it gets a 304), so the
		// answer rendered for it is kept under it and sent again while it holds. The guard has run:
		// a caller who lost access is refused before this.
		const key = `${route.method} ${route.path}\n${state.etag}`;
		const kept = app.cache.answer(key);
		if (kept !== undefined) return kept;
		const reply = route.handler(ctx);
		// Answers already serialized (kept list pages, feed pages: a Buffer shared with their own
		// cache) are kept too: the next request skips the handler's queries as well.
		if (reply.status !== 200 || (reply.body === undefined && reply.json === undefined) || reply.file || reply.raw) return reply;
		const answer = {
			status: 200,
			json: reply.json ?? JSON.stringify(reply.body),
			headers: reply.headers,
			total: reply.total,
			rateCost: reply.rateCost,
		};
		app.cache.keepAnswer(key, answer);
		return answer;
	}
	if (req.method === 'GET' || req.method === 'HEAD') return route.handler(ctx);
	// A write's domain events name the request that made them (the audit log): who, which token,
	// from where. Handlers are synchronous, so the slot holds exactly this request's span.
	app.acting = { principal: ctx.principal, ip: ctx.ip, userAgent: req.headers['user-agent'] ?? null, requestId: state.requestId };
	try {
		return route.handler(ctx);
	} finally {
		app.acting = null;
	}
}

/** ETags of recent versions (SHA-1 of the version's key), so a repeated poll hashes nothing; emptied past 10,000. */
const etags = new Map<string, string>();
function versionEtag(key: string): string {
	let etag = etags.get(key);
	if (etag === undefined) {
		if (etags.size >= 10_000) etags.clear();
		etags.set(key, (etag = `W/"${hash('sha1', key)}"`));
	}
	return etag;
}

const FIRST_PAGE: PageRequest = { page: 1, perPage: 30, offset: 0 };

/**
 * page and per_page as GitHub reads them: non-numbers and values below 1 fall back to the
 * defaults, per_page above the maximum is capped.
 */
export function pageRequest(query: Record<string, unknown>, perPageDefault: number, max: number): PageRequest {
	const page = positiveInt(query.page) ?? 1;
	const perPage = Math.min(positiveInt(query.per_page) ?? perPageDefault, max);
	return { page, perPage, offset: (page - 1) * perPage };
}

function positiveInt(value: unknown): number | undefined {
	if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return undefined;
	const n = Number(value);
	return n >= 1 ? n : undefined;
}

/**
 * Route policy: access rule, token kind, then scopes (classic/OAuth) or permissions
 * (fine-grained, app). Returns true when the request must be answered as a public view.
 * @throws DomainError 401 (Unauthenticated), 403, or 404 (site-administrator routes hide themselves).
 */
function authorize(route: Route, principal: Principal): boolean {
	if (principal.kind === 'anonymous') {
		if (route.access === 'public') return true;
		throw unauthenticated();
	}
	if (route.access === 'site_admin' && !principal.user?.siteAdmin) throw notFound();
	const byApp = principal.kind === 'installation' || principal.kind === 'user-to-server' || principal.kind === 'app';
	if (!route.tokenKinds.has(principal.kind)) {
		throw forbidden(byApp ? MESSAGES.byIntegration : MESSAGES.byPersonalAccessToken);
	}
	if (principal.kind === 'classic' || principal.kind === 'oauth') {
		if (route.acceptedScopes.length === 0 || route.acceptedScopes.some((scope) => principal.scopes.has(scope))) return false;
		if (route.access === 'public') return true;
		throw forbidden(
			`Your token has not been granted the required scopes to execute this operation. ` +
				`It needs one of these scopes: ${route.acceptedScopes.join(', ')}.`,
		);
	}
	if (permissionsSatisfy(principal.permissions, route.policy)) return false;
	if (route.access === 'public') return true;
	throw forbidden(byApp ? MESSAGES.byIntegration : MESSAGES.byPersonalAccessToken);
}

function rateLimitExceeded(principal: Principal, window: RateWindow, ip: string, now: number): HttpError {
	const who = principal.user
		? `user ID ${principal.user.id}.`
		: principal.kind === 'installation'
			? `installation ID ${principal.tokenId}.`
			: `${ip}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)`;
	return new HttpError(403, `API rate limit exceeded for ${who}`, {
		documentation: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
		headers: { 'Retry-After': String(Math.max(0, window.reset - now)) },
	});
}

/**
 * The client's address: the socket's peer, or what a trusted proxy forwarded (src/http/proxy.ts).
 * Rate limits of anonymous callers and the request log use it.
 */
export function clientIp(app: App, req: IncomingMessage): string {
	return app.proxies.resolve(req).ip;
}

const originUrls = new Map<string, Urls>();

/** The scope of a request without a forwarded origin: `fn` as it is (one function for all of them). */
const unscoped = <T>(fn: () => T): T => fn();

/**
 * Runs the synchronous parts of one request with app.urls (and the representation cache's
 * partition) set to the origin a trusted proxy forwarded, when it differs from the configured one;
 * they are restored after each part, so the next request (or a background job) sees the
 * configured URL. Without a forwarded origin it runs `fn` as it is.
 */
export function requestScope(app: App, req: IncomingMessage): <T>(fn: () => T) => T {
	const { origin } = app.proxies.resolve(req);
	if (origin === null || origin === app.urls.origin) return unscoped;
	let urls = originUrls.get(origin);
	if (!urls) {
		// A hostile client behind the proxy can vary Host: keep a bounded set of origins.
		if (originUrls.size >= 64) originUrls.delete(originUrls.keys().next().value!);
		originUrls.set(origin, (urls = new Urls(origin, `${origin}/api/v3`)));
	}
	const scopedUrls = urls;
	return (fn) => {
		const base = app.urls;
		app.urls = scopedUrls;
		app.cache.partition = origin;
		try {
			return fn();
		} finally {
			app.urls = base;
			app.cache.partition = '';
		}
	};
}

/** Names of the headers the pipeline writes itself as lines (src/http/head.ts): a reply's header of one of these names replaces it. */
const PIPELINE_HEADERS: ReadonlySet<string> = new Set([
	'X-GitHub-Request-Id',
	'Access-Control-Allow-Origin',
	'Access-Control-Expose-Headers',
	'X-Content-Type-Options',
	'X-GitHub-Enterprise-Version',
	'X-GitHub-Media-Type',
	'X-GitHub-Api-Version-Selected',
	'X-Service-Api-Version-Selected',
	'X-Accepted-Service-Permissions',
	'X-Accepted-GitHub-Permissions',
	'X-Accepted-OAuth-Scopes',
	'X-OAuth-Scopes',
	'Vary',
	'X-Poll-Interval',
	'ETag',
	'Cache-Control',
	'X-RateLimit-Limit',
	'X-RateLimit-Remaining',
	'X-RateLimit-Used',
	'X-RateLimit-Reset',
	'X-RateLimit-Resource',
]);

/**
 * The lines of a route's answers that depend only on the route, the API version and the media type
 * (CORS, security headers, media type, versions, accepted permissions and scopes, Vary), built and
 * checked once per route and (version, media type), then reused. Media types are the client's
 * choice: a route keeps at most 16 such blocks.
 */
const fixedHeads = new WeakMap<Route, Map<string, string>>();
function fixedLines(route: Route, version: ApiVersion, media: MediaParam): string {
	let blocks = fixedHeads.get(route);
	if (blocks === undefined) fixedHeads.set(route, (blocks = new Map()));
	const key = media === null ? version : `${version};${media}`;
	let lines = blocks.get(key);
	if (lines === undefined) {
		const { 'X-GitHub-Request-Id': _id, ...base } = baseHeaders('');
		lines = headerLines({
			...base,
			'X-GitHub-Media-Type': mediaTypeHeader(media),
			'X-GitHub-Api-Version-Selected': version,
			'X-Service-Api-Version-Selected': version,
			'X-Accepted-Service-Permissions': route.acceptedPermissionsHeader,
			'X-Accepted-GitHub-Permissions': route.acceptedPermissionsHeader,
			'X-Accepted-OAuth-Scopes': route.acceptedScopesHeader,
			Vary: VARY,
		});
		if (blocks.size >= 16) blocks.clear();
		blocks.set(key, lines);
	}
	return lines;
}

/** The head every answer of `route` starts from: the request id, the fixed block, the token's OAuth scopes. */
function commonHead(route: Route, state: State): Head {
	// The request id is a UUID or a forwarded id of safe characters (src/http/access.ts).
	const head = new Head(`X-GitHub-Request-Id: ${state.requestId}\r\n${fixedLines(route, state.version, state.media)}`, PIPELINE_HEADERS);
	const principal = state.principal;
	if (principal && (principal.kind === 'classic' || principal.kind === 'oauth')) {
		let line = scopeLines.get(principal.scopeList);
		if (line === undefined) {
			const scopes = principal.scopeList.join(', ');
			// Scopes come from the token's row: a list that could not be a header value goes through Node's check ('').
			line = isHeaderValue(scopes) ? `X-OAuth-Scopes: ${scopes}\r\n` : '';
			scopeLines.set(principal.scopeList, line);
		}
		if (line !== '') head.add(line);
		else head.assign({ 'X-OAuth-Scopes': principal.scopeList.join(', ') });
	}
	return head;
}

/** The X-OAuth-Scopes line of a token's scope list (token principals, and their lists, are cached across requests). */
const scopeLines = new WeakMap<readonly string[], string>();

/** The X-RateLimit-* lines of a window (numbers, and a resource name from the route table). */
function rateLines(head: Head, window: RateWindow): void {
	head.add(
		`X-RateLimit-Limit: ${window.limit}\r\nX-RateLimit-Remaining: ${Math.max(0, window.limit - window.used)}\r\n` +
			`X-RateLimit-Used: ${window.used}\r\nX-RateLimit-Reset: ${window.reset}\r\nX-RateLimit-Resource: ${window.resource}\r\n`,
	);
}

const PRIVATE_CACHE = 'private, max-age=60, s-maxage=60';
const PUBLIC_CACHE = 'public, max-age=60, s-maxage=60';

function send(x: Exchange, reply: Reply): void {
	const { app, route, req, res, state } = x;
	const conditional = state.exhausted !== null;
	if (conditional && ((reply.status !== 200 && reply.status !== 304) || reply.file || reply.raw)) throw state.exhausted;
	const head = commonHead(route, state);
	if (route.polled) head.set('X-Poll-Interval', String(app.pollInterval()));
	if (reply.headers) head.assign(reply.headers);
	if (reply.file) return sendFile(x, head, reply.file);
	if (reply.raw) {
		if (state.window) {
			app.rateLimiter.consume(state.window);
			rateLines(head, state.window);
		}
		head.headers['Content-Type'] = reply.raw.contentType;
		head.headers['Content-Length'] = String(Buffer.byteLength(reply.raw.body));
		head.writeTo(res, reply.status);
		res.end(reply.raw.body);
		return;
	}
	let status = reply.status;
	let payload: string | Buffer | undefined;
	if (status !== 204 && (reply.json !== undefined || reply.body !== undefined)) {
		payload = reply.json ?? toJson(reply.body);
	}
	const { headers } = head;
	if (reply.total !== undefined && route.pagination) {
		const link = linkHeader(x, reply.total, route.pagination);
		if (link) headers.Link = link;
	}
	if (status === 304 && state.etag) {
		head.set('ETag', state.etag);
	} else if (status === 200 && (req.method === 'GET' || req.method === 'HEAD')) {
		// Everything that varies in the answer: version, media type, the Link header (it carries the
		// total) and the body; a cached Buffer's digest is computed once (digestOf). A route with a
		// version has its ETag already (computed before the handler, from the same inputs).
		const body = state.etag ? '' : payload === undefined ? '' : typeof payload === 'string' ? hash('sha1', payload) : digestOf(payload);
		const varies = state.version !== DEFAULT_API_VERSION || state.media !== null || headers.Link !== undefined;
		const etag =
			state.etag ?? `W/"${varies ? hash('sha1', `${state.version};${state.media ?? ''};${headers.Link ?? ''};${body}`) : body}"`;
		head.set('ETag', etag);
		head.set('Cache-Control', state.principal?.kind === 'anonymous' ? PUBLIC_CACHE : PRIVATE_CACHE);
		if (notModified(req, etag, headers['Last-Modified'])) {
			status = 304;
			payload = undefined;
		}
	}
	// A spent rate limit: only "nothing changed" is still answered.
	if (conditional && status !== 304) throw state.exhausted;
	const window = state.window;
	if (window) {
		if (status !== 304) app.rateLimiter.consume(window, reply.rateCost); // a 304 is free, as on GitHub
		rateLines(head, window);
	}
	writeAnswer(res, status, head, payload);
}

/** SHA-1 of cached response bodies (whole list pages kept as Buffers), computed once per Buffer. */
const digests = new WeakMap<Buffer, string>();
function digestOf(buffer: Buffer): string {
	let digest = digests.get(buffer);
	if (digest === undefined) digests.set(buffer, (digest = hash('sha1', buffer)));
	return digest;
}

/** If-None-Match or If-Modified-Since is present (a GET or HEAD). */
function isConditional(req: PolkaRequest): boolean {
	return (
		(req.method === 'GET' || req.method === 'HEAD') &&
		(req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined)
	);
}

/**
 * RFC 9110 §13.1: If-None-Match decides when present; otherwise If-Modified-Since, where the route
 * sends Last-Modified, when the resource has not changed since (second precision).
 */
function notModified(req: PolkaRequest, etag: string, lastModified: string | undefined): boolean {
	const ifNoneMatch = req.headers['if-none-match'];
	if (ifNoneMatch !== undefined) return matchesEtag(ifNoneMatch, etag);
	const since = req.headers['if-modified-since'];
	if (since === undefined || lastModified === undefined) return false;
	const at = Date.parse(since);
	return !Number.isNaN(at) && Date.parse(lastModified) <= at;
}

/** Streams a file (e.g. a migration archive); counted like any request. */
function sendFile({ app, res, state }: Exchange, head: Head, file: NonNullable<Reply['file']>): void {
	if (state.window) {
		app.rateLimiter.consume(state.window);
		rateLines(head, state.window);
	}
	head.headers['Content-Type'] = file.contentType;
	head.headers['Content-Length'] = String(statSync(file.path).size);
	head.headers['Content-Disposition'] = `attachment; filename="${file.name}"`;
	head.writeTo(res, 200);
	createReadStream(file.path)
		.on('error', () => res.destroy())
		.pipe(res);
}

function matchesEtag(header: string, etag: string): boolean {
	if (header === etag) return true; // what a client sends back most often: the ETag it was given
	if (header.trim() === '*') return true;
	const weak = (tag: string) => tag.trim().replace(/^W\//, '');
	const wanted = weak(etag);
	return header.split(',').some((tag) => weak(tag) === wanted);
}

/** Writes a JSON answer; 204/304 carry no body. */
export function write(res: ServerResponse, status: number, headers: Record<string, string>, payload?: string | Buffer): void {
	const head = new Head('', PIPELINE_HEADERS);
	head.headers = headers;
	writeAnswer(res, status, head, payload);
}

/** Writes a JSON answer with its head (src/http/head.ts); 204/304 carry no body. Nothing when an answer was already sent. */
function writeAnswer(res: ServerResponse, status: number, head: Head, payload?: string | Buffer): void {
	if (res.headersSent) return;
	const { headers } = head;
	if (payload !== undefined && status !== 204 && status !== 304) {
		headers['Content-Type'] = 'application/json; charset=utf-8';
		headers['Content-Length'] = String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length);
		head.writeTo(res, status);
		res.end(payload);
	} else {
		if (status !== 304) headers['Content-Length'] = '0';
		head.writeTo(res, status);
		res.end();
	}
}

/**
 * The error answer: a refusal (the domain's, src/model/errors.ts, or HTTP's own) with its status and
 * GitHub's body; a busy database 503; a concurrent duplicate 422; anything else 500, logged.
 */
function sendError(x: Exchange, error: unknown): void {
	const { app, route, res, state } = x;
	const head = commonHead(route, state);
	// A conditional request past its rate limit is answered 304 or with the rate-limit error.
	const httpError = httpErrorOf(state.exhausted ?? error) ?? faultAnswer(x, error);
	if (httpError.headers) head.assign(httpError.headers);
	const window = state.window;
	if (window) {
		const exceeded = window.used >= window.limit && httpError.status === 403;
		if (exceeded) app.metrics.rateLimitRejected(window.resource);
		else app.rateLimiter.consume(window);
		rateLines(head, window);
	}
	writeAnswer(res, httpError.status, head, JSON.stringify(httpError.body(route.documentationUrl, route.errorShape)));
}

/** The answer to an error that is no refusal. */
function faultAnswer({ app, route, req, state }: Exchange, error: unknown): HttpError {
	// Another process (a `gitstead admin` command) held the write lock past the busy timeout.
	if (isBusy(error))
		return new HttpError(503, 'Service Unavailable: the database stayed busy; try again.', { headers: { 'Retry-After': '1' } });
	if (isDuplicateKey(error)) {
		// A concurrent writer inserted the same unique key first (the checks before the insert saw none).
		const field = duplicateField(error);
		return HttpError.from(validationFailed([{ resource: route.errorResource ?? 'Resource', field, code: 'already_exists' }]));
	}
	// One line: the request id ties the client's answer to the stack in the log.
	app.log.error('request failed', { request_id: state.requestId, method: req.method, route: route.path, error });
	return new HttpError(500, MESSAGES.serverError, { extra: { request_id: state.requestId } });
}

/** The column a UNIQUE violation names last ("UNIQUE constraint failed: teams.org_id, teams.slug" → slug). */
function duplicateField(error: unknown): string {
	const match = /constraint failed: (.+)$/.exec((error as Error).message ?? '');
	const column = match?.[1].split(',').pop()?.trim().split('.').pop();
	return column ?? 'id';
}

/**
 * Link header (https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api):
 * absolute URLs with the request's own query, per_page carried,
 * rels prev, next, last, first; absent when everything fits on one page. Only the query
 * parameters the route accepts are repeated (its query schema, page, per_page), so the header
 * stays bounded whatever a client appends.
 */
function linkHeader({ app, route, req }: Exchange, total: number, pagination: Pagination): string | null {
	const { page, perPage } = pageRequest(req.query, pagination.perPage, pagination.maxPerPage);
	const last = Math.max(1, Math.ceil(total / perPage));
	if (last === 1 && page === 1) return null;
	const params = new URLSearchParams();
	for (const [key, value] of new URLSearchParams(req.search)) if (route.queryKeys.has(key)) params.append(key, value);
	const url = (n: number) => {
		params.set('page', String(n));
		return `<${app.urls.api(req.path)}?${params.toString()}>`;
	};
	const links: string[] = [];
	if (page > 1) links.push(`${url(Math.min(page - 1, last))}; rel="prev"`);
	if (page < last) links.push(`${url(page + 1)}; rel="next"`);
	if (page < last) links.push(`${url(last)}; rel="last"`);
	if (page > 1) links.push(`${url(1)}; rel="first"`);
	return links.length ? links.join(', ') : null;
}
