/**
 * The request pipeline every route runs through (docs/ARCHITECTURE.md, "One request"):
 * negotiation → body → authentication → route policy → rate limit → validation → handler →
 * response (JSON, ETag/304, Link, standard headers). Cross-cutting rules live here once.
 */
import { hash, randomUUID } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app';
import type { Principal } from '../auth/principal';
import { loadResources } from '../auth/guards';
import { permissionsSatisfy } from '../auth/permissions';
import { isBusy, isDuplicateKey } from '../db/errors';
import { epochSeconds } from '../time';
import { recordOf, type RequestRecord } from './access';
import { forbidden, HttpError, MESSAGES, notFound, unauthorized, validationFailed } from './errors';
import { DEFAULT_API_VERSION, mediaTypeHeader, negotiateMedia, negotiateVersion, type ApiVersion, type MediaParam } from './negotiation';
import type { RateWindow } from './rate-limit';
import { Urls } from './urls';
import type { Reply } from './reply';
import type { Context, PageRequest, Route, UploadedFile } from './route';
import { discardUpload, receiveFile } from './upload';
import { validate } from './validation';

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

/** Headers GitHub lets browsers read (reference §1.8). */
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
	/** The context as the checks left it (`handle` with `check`): a route's `prepare` step reads it. */
	checked: Context | null;
	/** What the route's `prepare` step produced, handed to the handler as ctx.prepared. */
	prepared: unknown;
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
			checked: null,
			prepared: undefined,
		};
		const fail = (error: unknown) => scoped(() => sendError(app, route, req, res, error, state));
		const answer = (reply: Reply) =>
			scoped(() => {
				try {
					send(app, route, req, res, reply, state);
				} catch (error) {
					sendError(app, route, req, res, error, state);
				}
			});
		if (route.upload) return receiveUpload(app, route, req, res, now, state, answer, scoped);
		if (route.prepare) return receivePrepared(app, route, req, now, state, answer, fail, scoped);
		let reply: Reply;
		try {
			reply = scoped(() => run(app, route, req, now, state));
		} catch (error) {
			// A refused write changed nothing (its savepoint rolled back): nothing to wait for.
			fail(error);
			return;
		}
		if (!writes(route, req)) return answer(reply);
		// A write is answered once it is committed (group commit: at the end of this turn).
		app.transaction.durable().then(() => answer(reply), fail);
	};
}

/**
 * A route whose body is a file (`route.upload`): everything before the handler runs first, without
 * the body, so nothing is streamed for a caller the route refuses; then the body is streamed to a
 * file (src/http/upload.ts) and the handler runs with it in the write transaction, as any write.
 * The file is deleted when the handler refuses it or the commit fails.
 */
function receiveUpload(
	app: App,
	route: Route,
	req: PolkaRequest,
	res: ServerResponse,
	now: number,
	state: State,
	answer: (reply: Reply) => void,
	scoped: <T>(fn: () => T) => T,
): void {
	const upload = route.upload!;
	let dir: string;
	let limit: number;
	try {
		state.version = negotiateVersion(req.headers);
		state.media = negotiateMedia(req.headers.accept);
		scoped(() => handle(app, route, req, now, state, undefined, null, true));
		dir = upload.dir(app);
		limit = upload.limit(app);
		if (Number(req.headers['content-length']) > limit)
			throw new HttpError(413, MESSAGES.bodyTooLarge, { headers: { Connection: 'close' } });
	} catch (error) {
		// The body is not read: the connection closes after the answer.
		res.setHeader('Connection', 'close');
		scoped(() => sendError(app, route, req, res, error, state));
		return;
	}
	receiveFile(req, dir, limit).then(
		(file) => {
			let reply: Reply;
			try {
				reply = scoped(() => app.transaction.grouped(() => handle(app, route, req, app.clock(), state, undefined, file, false)));
			} catch (error) {
				discardUpload(file);
				scoped(() => sendError(app, route, req, res, error, state));
				return;
			}
			app.transaction.durable().then(
				() => answer(reply),
				(error: unknown) => {
					discardUpload(file);
					scoped(() => sendError(app, route, req, res, error, state));
				},
			);
		},
		(error: unknown) => {
			res.setHeader('Connection', 'close');
			scoped(() => sendError(app, route, req, res, error, state));
		},
	);
}

/**
 * A route with a `prepare` step (asynchronous work its handler needs: parsing an OpenPGP key,
 * verifying a signature): the checks run first (authentication, policy, rate limit, guard,
 * validation) without a transaction, then `prepare` outside any transaction, then the whole request
 * again with its result (the state may have changed meanwhile), in the write transaction for a write.
 */
function receivePrepared(
	app: App,
	route: Route,
	req: PolkaRequest,
	now: number,
	state: State,
	answer: (reply: Reply) => void,
	fail: (error: unknown) => void,
	scoped: <T>(fn: () => T) => T,
): void {
	let checked: Context;
	try {
		checked = scoped(() => {
			state.version = negotiateVersion(req.headers);
			state.media = negotiateMedia(req.headers.accept);
			if (req.body === MALFORMED_BODY) throw new HttpError(400, MESSAGES.problemsParsingJson);
			handle(app, route, req, now, state, req.body, null, true);
			return state.checked!;
		});
	} catch (error) {
		fail(error);
		return;
	}
	// A synchronous throw of the step answers like a rejection.
	new Promise((resolve) => resolve(route.prepare!(checked))).then((prepared) => {
		state.prepared = prepared;
		let reply: Reply;
		try {
			// The request's own time again: what the step prepared was computed with it.
			reply = scoped(() => run(app, route, req, now, state));
		} catch (error) {
			fail(error);
			return;
		}
		if (!writes(route, req)) return answer(reply);
		app.transaction.durable().then(() => answer(reply), fail);
	}, fail);
}

function run(app: App, route: Route, req: PolkaRequest, now: number, state: State): Reply {
	state.version = negotiateVersion(req.headers);
	state.media = negotiateMedia(req.headers.accept);
	const rawBody = req.body;
	if (rawBody === MALFORMED_BODY) throw new HttpError(400, MESSAGES.problemsParsingJson);
	// A write request runs in one transaction from authentication to the handler's last read: one
	// commit, all-or-nothing, and its reads share one lock instead of taking one each. Reads run
	// without: measured, BEGIN/COMMIT costs a GET more than the per-statement locks (192 vs 164 µs).
	if (!writes(route, req)) return handle(app, route, req, now, state, rawBody);
	return app.transaction.grouped(() => handle(app, route, req, now, state, rawBody));
}

/** Whether the request runs as a write (in the write transaction): write methods, unless the route says this body only reads (route.writes). */
function writes(route: Route, req: PolkaRequest): boolean {
	if (req.method === 'GET' || req.method === 'HEAD') return false;
	return route.writes ? route.writes(req.body) : true;
}

/**
 * Runs one route for a principal already authenticated and counted (the internal dispatch of
 * src/http/dispatch.ts: a GraphQL field served by its REST twin): route policy, guard, validation
 * and handler, exactly as for a request to the route, without authentication, rate limit, ETag
 * or response. A write route must be run inside the caller's write transaction.
 * @param parent the context of the request that dispatches (principal, clock, request id, address)
 * @throws HttpError the route's refusal (401, 403, 404, 422 …), as the REST request would get it
 */
export function runRoute(
	parent: Context,
	route: Route,
	params: Record<string, string>,
	query: Record<string, string | string[]>,
	body: unknown,
): Reply {
	const { principal } = parent;
	// Its asynchronous step cannot run inside another request's synchronous dispatch.
	if (route.prepare) throw new Error(`${route.method} ${route.path} has a prepare step and cannot be dispatched`);
	const publicView = authorize(route, principal);
	const ctx: Context = {
		...parent,
		route,
		publicView,
		params,
		query,
		body: {},
		page: route.pagination ? pageRequest(query, route.pagination.perPage, route.pagination.maxPerPage) : FIRST_PAGE,
		upload: null,
		prepared: undefined,
		repo: undefined as never,
		org: undefined as never,
		team: undefined as never,
		enterprise: undefined as never,
		gist: undefined as never,
	};
	loadResources(ctx);
	if (route.body) {
		let input = body === undefined ? {} : body;
		if (route.arrayBody && (Array.isArray(input) || typeof input === 'string'))
			input = { [route.arrayBody]: Array.isArray(input) ? input : [input] };
		if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new HttpError(400, MESSAGES.bodyNotObject);
		ctx.body = validate(route.body, input, route.errorResource ?? 'Resource') as Record<string, unknown>;
	}
	if (route.query) ctx.query = validate(route.query, query, route.errorResource ?? 'Resource') as Record<string, unknown>;
	return route.handler(ctx);
}

/**
 * Authentication, route policy, rate limit, guard, validation, then the handler.
 * @param upload the streamed body of an upload route (null elsewhere)
 * @param check stop before the handler (an upload route's checks before its body is read)
 */
function handle(
	app: App,
	route: Route,
	req: PolkaRequest,
	now: number,
	state: State,
	rawBody: unknown,
	upload: UploadedFile | null = null,
	check = false,
): Reply {
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

	const ctx: Context = {
		app,
		req,
		route,
		now,
		requestId: state.requestId,
		ip,
		apiVersion: state.version,
		media: state.media,
		principal,
		publicView,
		params: req.params,
		query: req.query,
		body: {},
		page: route.pagination ? pageRequest(req.query, route.pagination.perPage, route.pagination.maxPerPage) : FIRST_PAGE,
		upload,
		prepared: state.prepared,
		// Set by loadResources for the resources the route declares.
		repo: undefined as never,
		org: undefined as never,
		team: undefined as never,
		enterprise: undefined as never,
		gist: undefined as never,
	};
	// The declared resource before the body: 404 and 403 come before 422, as on GitHub.
	loadResources(ctx);
	if (route.body) {
		let input = rawBody === undefined ? {} : rawBody;
		// A route may take its one list field bare (route.arrayBody): ["bug"] means {"labels":["bug"]}.
		if (route.arrayBody && (Array.isArray(input) || typeof input === 'string'))
			input = { [route.arrayBody]: Array.isArray(input) ? input : [input] };
		if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new HttpError(400, MESSAGES.bodyNotObject);
		ctx.body = validate(route.body, input, route.errorResource ?? 'Resource') as Record<string, unknown>;
	}
	if (route.query) ctx.query = validate(route.query, req.query, route.errorResource ?? 'Resource') as Record<string, unknown>;
	if (check) {
		route.upload?.before?.(ctx);
		state.checked = ctx;
		return CHECKED;
	}
	if (route.version && (req.method === 'GET' || req.method === 'HEAD')) {
		// The answer's version decides the ETag before anything is rendered: an unchanged resource
		// costs two index lookups, however large its answer.
		const { page, perPage } = ctx.page;
		state.etag = `W/"${hash('sha1', `${state.version};${state.media ?? ''};${page};${perPage};${app.cache.partition};${route.version(ctx)}`)}"`;
		const ifNoneMatch = req.headers['if-none-match'];
		if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, state.etag)) return { status: 304 };
	}
	if (req.method === 'GET' || req.method === 'HEAD') return route.handler(ctx);
	// A write's domain events name the request that made them (the audit log): who, which token,
	// from where. Handlers are synchronous, so the slot holds exactly this request's span.
	app.acting = { principal, ip, userAgent: req.headers['user-agent'] ?? null, requestId: state.requestId };
	try {
		return route.handler(ctx);
	} finally {
		app.acting = null;
	}
}

const FIRST_PAGE: PageRequest = { page: 1, perPage: 30, offset: 0 };
/** What `handle` returns when asked to check only. */
const CHECKED: Reply = { status: 0 };

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
 * @throws HttpError 401, 403, or 404 (site-administrator routes hide themselves).
 */
function authorize(route: Route, principal: Principal): boolean {
	if (principal.kind === 'anonymous') {
		if (route.access === 'public') return true;
		throw unauthorized();
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

/**
 * Runs the synchronous parts of one request with app.urls (and the representation cache's
 * partition) set to the origin a trusted proxy forwarded, when it differs from the configured one;
 * they are restored after each part, so the next request (or a background job) sees the
 * configured URL. Without a forwarded origin it runs `fn` as it is.
 */
export function requestScope(app: App, req: IncomingMessage): <T>(fn: () => T) => T {
	const { origin } = app.proxies.resolve(req);
	if (origin === null || origin === app.urls.origin) return (fn) => fn();
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

function commonHeaders(route: Route, state: State): Record<string, string> {
	const headers = baseHeaders(state.requestId);
	headers['X-GitHub-Media-Type'] = mediaTypeHeader(state.media);
	headers['X-GitHub-Api-Version-Selected'] = state.version;
	headers['X-Service-Api-Version-Selected'] = state.version;
	headers['X-Accepted-Service-Permissions'] = route.acceptedPermissionsHeader;
	headers['X-Accepted-GitHub-Permissions'] = route.acceptedPermissionsHeader;
	headers['X-Accepted-OAuth-Scopes'] = route.acceptedScopesHeader;
	const principal = state.principal;
	if (principal && (principal.kind === 'classic' || principal.kind === 'oauth')) {
		headers['X-OAuth-Scopes'] = principal.scopeList.join(', ');
	}
	headers.Vary = VARY;
	return headers;
}

function rateHeaders(headers: Record<string, string>, window: RateWindow): void {
	headers['X-RateLimit-Limit'] = String(window.limit);
	headers['X-RateLimit-Remaining'] = String(Math.max(0, window.limit - window.used));
	headers['X-RateLimit-Used'] = String(window.used);
	headers['X-RateLimit-Reset'] = String(window.reset);
	headers['X-RateLimit-Resource'] = window.resource;
}

function send(app: App, route: Route, req: PolkaRequest, res: ServerResponse, reply: Reply, state: State): void {
	const conditional = state.exhausted !== null;
	if (conditional && ((reply.status !== 200 && reply.status !== 304) || reply.file || reply.raw)) throw state.exhausted;
	const headers = commonHeaders(route, state);
	if (route.polled) headers['X-Poll-Interval'] = String(app.pollInterval());
	if (reply.headers) Object.assign(headers, reply.headers);
	if (reply.file) return sendFile(app, res, headers, reply.file, state);
	if (reply.raw) {
		if (state.window) {
			app.rateLimiter.consume(state.window);
			rateHeaders(headers, state.window);
		}
		headers['Content-Type'] = reply.raw.contentType;
		headers['Content-Length'] = String(Buffer.byteLength(reply.raw.body));
		res.writeHead(reply.status, headers);
		res.end(reply.raw.body);
		return;
	}
	let status = reply.status;
	let payload: string | Buffer | undefined;
	if (status !== 204 && (reply.json !== undefined || reply.body !== undefined)) {
		payload = reply.json ?? JSON.stringify(reply.body);
	}
	if (reply.total !== undefined && route.pagination) {
		const link = linkHeader(app, route, req, reply.total, route.pagination.perPage, route.pagination.maxPerPage);
		if (link) headers.Link = link;
	}
	if (status === 304 && state.etag) {
		headers.ETag = state.etag;
	} else if (status === 200 && (req.method === 'GET' || req.method === 'HEAD')) {
		// Everything that varies in the answer: version, media type, the Link header (it carries the
		// total) and the body; a cached Buffer's digest is computed once (digestOf). A route with a
		// version has its ETag already (computed before the handler, from the same inputs).
		const body = state.etag ? '' : payload === undefined ? '' : typeof payload === 'string' ? hash('sha1', payload) : digestOf(payload);
		const varies = state.version !== DEFAULT_API_VERSION || state.media !== null || headers.Link !== undefined;
		const etag =
			state.etag ?? `W/"${varies ? hash('sha1', `${state.version};${state.media ?? ''};${headers.Link ?? ''};${body}`) : body}"`;
		headers.ETag = etag;
		headers['Cache-Control'] =
			state.principal?.kind === 'anonymous' ? 'public, max-age=60, s-maxage=60' : 'private, max-age=60, s-maxage=60';
		if (notModified(req, etag, headers['Last-Modified'])) {
			status = 304;
			payload = undefined;
		}
	}
	// A spent rate limit: only "nothing changed" is still answered.
	if (conditional && status !== 304) throw state.exhausted;
	const window = state.window;
	if (window) {
		if (status !== 304) app.rateLimiter.consume(window, reply.rateCost); // a 304 is free (reference §1.7)
		rateHeaders(headers, window);
	}
	write(res, status, headers, payload);
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
function sendFile(app: App, res: ServerResponse, headers: Record<string, string>, file: NonNullable<Reply['file']>, state: State): void {
	if (state.window) {
		app.rateLimiter.consume(state.window);
		rateHeaders(headers, state.window);
	}
	headers['Content-Type'] = file.contentType;
	headers['Content-Length'] = String(statSync(file.path).size);
	headers['Content-Disposition'] = `attachment; filename="${file.name}"`;
	res.writeHead(200, headers);
	createReadStream(file.path)
		.on('error', () => res.destroy())
		.pipe(res);
}

function matchesEtag(header: string, etag: string): boolean {
	if (header.trim() === '*') return true;
	const weak = (tag: string) => tag.trim().replace(/^W\//, '');
	const wanted = weak(etag);
	return header.split(',').some((tag) => weak(tag) === wanted);
}

/** Writes a JSON answer; 204/304 carry no body. */
export function write(res: ServerResponse, status: number, headers: Record<string, string>, payload?: string | Buffer): void {
	if (res.headersSent) return;
	if (payload !== undefined && status !== 204 && status !== 304) {
		headers['Content-Type'] = 'application/json; charset=utf-8';
		headers['Content-Length'] = String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length);
		res.writeHead(status, headers);
		res.end(payload);
	} else {
		if (status !== 304) headers['Content-Length'] = '0';
		res.writeHead(status, headers);
		res.end();
	}
}

function sendError(app: App, route: Route, req: PolkaRequest, res: ServerResponse, error: unknown, state: State): void {
	const headers = commonHeaders(route, state);
	// A conditional request past its rate limit is answered 304 or with the rate-limit error.
	if (state.exhausted) error = state.exhausted;
	let httpError: HttpError;
	if (error instanceof HttpError) {
		httpError = error;
	} else if (isBusy(error)) {
		// Another process (a `gitstead admin` command) held the write lock past the busy timeout.
		httpError = new HttpError(503, 'Service Unavailable: the database stayed busy; try again.', { headers: { 'Retry-After': '1' } });
	} else if (isDuplicateKey(error)) {
		// A concurrent writer inserted the same unique key first (the checks before the insert saw none).
		const field = duplicateField(error);
		httpError = validationFailed([{ resource: route.errorResource ?? 'Resource', field, code: 'already_exists' }]);
	} else {
		// One line: the request id ties the client's answer to the stack in the log.
		app.log.error('request failed', { request_id: state.requestId, method: req.method, route: route.path, error });
		httpError = new HttpError(500, MESSAGES.serverError, { extra: { request_id: state.requestId } });
	}
	if (httpError.headers) Object.assign(headers, httpError.headers);
	const window = state.window;
	if (window) {
		const exceeded = window.used >= window.limit && httpError.status === 403;
		if (exceeded) app.metrics.rateLimitRejected(window.resource);
		else app.rateLimiter.consume(window);
		rateHeaders(headers, window);
	}
	write(res, httpError.status, headers, JSON.stringify(httpError.body(route.documentationUrl, route.errorShape)));
}

/** The column a UNIQUE violation names last ("UNIQUE constraint failed: teams.org_id, teams.slug" → slug). */
function duplicateField(error: unknown): string {
	const match = /constraint failed: (.+)$/.exec((error as Error).message ?? '');
	const column = match?.[1].split(',').pop()?.trim().split('.').pop();
	return column ?? 'id';
}

/**
 * Link header (reference §1.5): absolute URLs with the request's own query, per_page carried,
 * rels prev, next, last, first; absent when everything fits on one page. Only the query
 * parameters the route accepts are repeated (its query schema, page, per_page), so the header
 * stays bounded whatever a client appends.
 */
function linkHeader(app: App, route: Route, req: PolkaRequest, total: number, perPageDefault: number, max: number): string | null {
	const { page, perPage } = pageRequest(req.query, perPageDefault, max);
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
