/**
 * The HTTP server: polka with the route table, JSON bodies through @polka/parse, the API served at
 * /api/v3 and at / (hosted-cloud style clients), the Atom feeds at the web origin (/timeline, …),
 * and GitHub-shaped answers for unknown routes,
 * oversized bodies (413), URLs (414) and header blocks (431), unparsable requests and CORS
 * preflight.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createHash, randomUUID } from 'node:crypto';
import { beginRequest, logAccess, requestIdOf, recordOf, RequestRecord, WEB_ROUTES, type FinishHook } from './http/access';
import { parse } from '@polka/parse';
import polka from 'polka';
import type { App } from './app';
import { ROUTE_AREAS, routeDeclarations } from './api/routes';
import { ROUTE_MANIFEST } from './api/route-manifest';
import { serveAtom } from './api/feeds/web';
import { serveCodeload } from './api/contents/codeload';
import { serveLogs } from './api/actions/logs';
import { serveUserKeys } from './api/keys/web';
import { isGitPath, serveGitHttp } from './api/git/transport';
import { DOCS_BASE, MESSAGES } from './http/errors';
import { baseHeaders, MALFORMED_BODY, requestScope, routeHandler, write, type PolkaRequest } from './http/pipeline';
import { RouteTable } from './http/router';
import { resolveRoute, type Route, type RouteDeclaration } from './http/route';
import { documentText, openApiDocument } from './http/openapi/document';
import { Urls } from './model/urls';
import { redactUrl } from './log';
import { createWeb } from './web';

const API_PREFIX = '/api/v3';
/** GET /healthz (src/http/health.ts) and GET /metrics (src/http/metrics.ts), at the root only. */
const HEALTHZ = '/healthz';
const METRICS = '/metrics';

/** Whether a request target is `path`, with or without a query. */
function isPath(url: string, path: string): boolean {
	return url.length === path.length ? url === path : url.startsWith(path) && url.charCodeAt(path.length) === 63; // '?'
}

/**
 * The routes of `declarations`, by default every area's (src/api/routes.ts: loads every area's
 * module); resolveRoute: each route's policy is derived at its first read.
 * @throws Error when a method and path are declared twice
 */
export function buildRoutes(declarations: RouteDeclaration[] = routeDeclarations()): Route[] {
	const seen = new Set<string>();
	return declarations.map((declaration) => {
		const id = `${declaration.method} ${declaration.path}`;
		if (seen.has(id)) throw new Error(`route declared twice: ${id}`);
		seen.add(id);
		return resolveRoute(declaration, DOCS_BASE);
	});
}

/**
 * The OpenAPI 3.1 description of `routes` as JSON text (src/http/openapi/document.ts): what
 * `gitstead openapi` prints and GET /openapi.json serves, byte for byte.
 */
export function openApiText(routes: Route[] = buildRoutes()): string {
	return documentText(openApiDocument(routes));
}

/** Whether an If-None-Match header names `etag` (weak or strong, in a list, or `*`). */
function etagMatches(header: string | string[] | undefined, etag: string): boolean {
	if (typeof header !== 'string') return false;
	return header.split(',').some((item) => {
		const tag = item.trim();
		return tag === '*' || tag.replace(/^W\//, '') === etag;
	});
}

function errorBody(status: number, message: string, extra: Record<string, string> = {}): string {
	return JSON.stringify({ message, documentation_url: `${DOCS_BASE}`, status: String(status), ...extra });
}

/**
 * The requests a server is answering, and whether it is stopping (src/cli/serve.ts drains it:
 * RunningServer.shutdown).
 */
export class Traffic {
	/** Responses not yet closed. */
	readonly active = new Set<ServerResponse>();
	/** Set once the server stops accepting: every answer from then on carries Connection: close. */
	draining = false;
	/** The request listener's finish hook (also called for requests Node's parser refused). */
	finished: FinishHook = () => undefined;
	/** While draining: called after each response closes (its connection may have become idle). */
	settled: (() => void) | null = null;
}

/**
 * The request listener: (req, res) → answer. Every request gets a RequestRecord first
 * (src/http/access.ts: its request id, sent as X-GitHub-Request-Id on whatever answers it);
 * `finished` below runs once per request when its response closes.
 */
export function createRequestListener(app: App, traffic: Traffic = new Traffic()): (req: IncomingMessage, res: ServerResponse) => void {
	const limit = app.config.server.body_limit;
	// The web interface at GitHub's paths (src/web): pages for browsers, beside the API, made at the
	// first request that is not the API's (a start answers its first API or health request without it).
	let webHooks: ReturnType<typeof createWeb> | undefined;
	const web = () => (webHooks ??= createWeb(app));
	const router = polka({
		onError(error: unknown, req: IncomingMessage, res: ServerResponse) {
			const status = (error as { status?: number }).status;
			// A client gone before its body was read (the body parser's "aborted"): nothing to answer or log.
			if (res.headersSent || res.destroyed) return;
			const requestId = requestIdOf(req);
			if (status === 413) {
				res.setHeader('Connection', 'close');
				write(res, 413, baseHeaders(requestId), errorBody(413, MESSAGES.bodyTooLarge));
				req.resume();
				return;
			}
			// One line with the request id and the stack; the path with secret query parameters redacted.
			app.log.error('unhandled error', { request_id: requestId, method: req.method, path: redactUrl(req.url ?? ''), error });
			write(res, 500, baseHeaders(requestId), errorBody(500, MESSAGES.serverError, { request_id: requestId }));
		},
		onNoMatch(req: IncomingMessage, res: ServerResponse) {
			// A browser gets the web interface's 404 page (never below /api/v3); other clients GitHub's JSON.
			if (!viaApiPrefix.has(req) && web().notFound(req, res)) return;
			write(res, 404, baseHeaders(requestIdOf(req)), errorBody(404, MESSAGES.notFound));
		},
	});
	// The API routes: one walk of the route table's trie per request (src/http/router.ts); what it
	// does not know goes on to onNoMatch. HEAD is answered as GET. The table comes from the route
	// manifest; an area's module is loaded at the first request matching one of its routes.
	const { table, hasTextRoutes } = routeTable(app);
	/**
	 * A write's route, found by the listener (is it an upload?) before its body is read and kept for
	 * the body parser and the dispatch (one lookup a request).
	 */
	const found = new WeakMap<object, ReturnType<typeof table.find>>();
	const lookup = (method: string, path: string) =>
		table.find(method === 'HEAD' ? 'GET' : method, path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
	const find = (req: PolkaRequest) => {
		const known = found.get(req);
		return known !== undefined ? known : lookup(req.method ?? '', req.path);
	};
	/** The route of a write that has not reached polka yet (req.path is not set): found and kept. */
	const findWrite = (req: IncomingMessage) => {
		let match = found.get(req);
		if (match === undefined) found.set(req, (match = lookup(req.method ?? '', polkaPath(req.url ?? '/'))));
		return match;
	};
	// JSON bodies whatever their Content-Type (curl -d sends form encoding; GitHub parses JSON anyway),
	// except the files of upload routes, which the pipeline streams to disk (src/http/upload.ts).
	const json = parse({
		type: '',
		limit,
		parser: (bits: string | Buffer) => {
			const text = String(bits);
			if (text.trim() === '') return {};
			try {
				return JSON.parse(text) as unknown;
			} catch {
				return MALFORMED_BODY;
			}
		},
	});
	// Text bodies of the routes that declare them (textBody: POST /markdown/raw), as they are.
	const text = parse({ type: '', limit, parser: (bits: string | Buffer) => ({ text: String(bits) }) });
	const body: typeof json = (req, res, next) => {
		if (uploads.has(req)) return next();
		if (req.method !== 'GET' && req.method !== 'HEAD' && hasTextRoutes) {
			const match = findWrite(req);
			if (match) {
				// Known before the body is read: a request cut while sending it is logged with its route.
				const record = recordOf(req);
				if (record) record.route = match.value.path;
				if (match.value.textBody) return text(req, res, next);
			}
		}
		return json(req, res, next);
	};
	router.use(body);
	// avatar_url of every account: a generated picture (Gitstead stores no uploaded avatars).
	router.get('/avatars/u/:id', (req: IncomingMessage & { params: Record<string, string> }, res: ServerResponse) => {
		const record = recordOf(req);
		if (record) record.route = WEB_ROUTES.avatar;
		const account = /^\d{1,15}$/.test(req.params.id) ? app.stores.accounts.byId(Number(req.params.id)) : undefined;
		if (!account) return write(res, 404, baseHeaders(requestIdOf(req)), errorBody(404, MESSAGES.notFound));
		res.writeHead(200, { ...baseHeaders(requestIdOf(req)), 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' });
		res.end(avatarSvg(account.id, account.login));
	});
	// The OpenAPI description of this route table, at /openapi.json and /api/v3/openapi.json: public,
	// generated on the first request and kept (the route table does not change while serving).
	let openapi: { body: Buffer; etag: string } | undefined;
	const serveOpenApi = (req: IncomingMessage, res: ServerResponse) => {
		if (!openapi) {
			const body = Buffer.from(openApiText());
			openapi = { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
		}
		const record = recordOf(req);
		if (record) record.route = WEB_ROUTES.openapi;
		const headers = { ...baseHeaders(requestIdOf(req)), ETag: openapi.etag, 'Cache-Control': 'public, max-age=60' };
		if (etagMatches(req.headers['if-none-match'], openapi.etag)) {
			res.writeHead(304, headers);
			res.end();
			return;
		}
		// HEAD: Node sends the headers only.
		res.writeHead(200, {
			...headers,
			'Content-Type': 'application/json; charset=utf-8',
			'Content-Length': String(openapi.body.length),
		});
		res.end(openapi.body);
	};
	router.get('/openapi.json', serveOpenApi);
	router.head('/openapi.json', serveOpenApi);
	router.use((req: PolkaRequest, res: ServerResponse, next: () => void) => {
		const match = find(req);
		if (!match) return next();
		req.params = match.params;
		match.value.run(req, res);
	});
	// Archives and raw files at the web origin (Gitstead's codeload: src/api/contents/codeload.ts),
	// reached through the URLs the API hands out.
	router.use((req: PolkaRequest, res: ServerResponse, next: () => void) => {
		if (
			(req.method !== 'GET' && req.method !== 'HEAD') ||
			viaApiPrefix.has(req) ||
			!(req.path.startsWith('/_codeload/') || req.path.startsWith('/_raw/'))
		)
			return next();
		app.externalChanges.checkAtMostEvery(1);
		const token = typeof req.query.token === 'string' ? req.query.token : null;
		const record = recordOf(req);
		if (record) record.route = req.path.startsWith('/_raw/') ? WEB_ROUTES.raw : WEB_ROUTES.codeload;
		if (!serveCodeload(app, req, res, req.path, token, baseHeaders(requestIdOf(req)))) {
			if (record) record.route = WEB_ROUTES.unmatched;
			next();
		}
	});
	// Workflow log downloads at the web origin, reached through the URLs the API redirects to
	// (src/api/actions/logs.ts).
	router.use((req: PolkaRequest, res: ServerResponse, next: () => void) => {
		if ((req.method !== 'GET' && req.method !== 'HEAD') || viaApiPrefix.has(req) || !req.path.startsWith('/_logs/')) return next();
		app.externalChanges.checkAtMostEvery(1);
		const token = typeof req.query.token === 'string' ? req.query.token : null;
		const record = recordOf(req);
		if (record) record.route = WEB_ROUTES.codeload;
		if (!serveLogs(app, req, res, req.path, token, baseHeaders(requestIdOf(req)))) {
			if (record) record.route = WEB_ROUTES.unmatched;
			next();
		}
	});
	// A user's public keys at the web origin only: /{login}.keys, /{login}.gpg (src/api/keys/web.ts).
	router.use((req: PolkaRequest, res: ServerResponse, next: () => void) => {
		if ((req.method !== 'GET' && req.method !== 'HEAD') || viaApiPrefix.has(req)) return next();
		app.externalChanges.checkAtMostEvery(1);
		const answer = serveUserKeys(app, req.path);
		if (!answer) return next();
		const record = recordOf(req);
		if (record) record.route = WEB_ROUTES.keys;
		res.writeHead(answer.status, { ...baseHeaders(requestIdOf(req)), ...answer.headers });
		res.end(req.method === 'HEAD' ? undefined : answer.body);
	});
	// The Atom feeds GET /feeds lists, at the web origin only (not below /api/v3): /timeline,
	// /{login}, /{login}.private, … (src/api/feeds/web.ts). API routes win where both could answer.
	router.use((req: PolkaRequest, res: ServerResponse, next: () => void) => {
		if ((req.method !== 'GET' && req.method !== 'HEAD') || viaApiPrefix.has(req)) return next();
		app.externalChanges.checkAtMostEvery(1);
		const token = typeof req.query.token === 'string' ? req.query.token : null;
		const header = req.headers['if-none-match'];
		const request = { method: req.method, path: req.path, token, ifNoneMatch: typeof header === 'string' ? header : undefined };
		const answer = requestScope(app, req)(() => serveAtom(app, request, app.clock()));
		if (!answer) return next();
		const record = recordOf(req);
		if (record) record.route = WEB_ROUTES.feed;
		res.writeHead(answer.status, { ...baseHeaders(requestIdOf(req)), ...answer.headers });
		res.end(answer.body);
	});
	// The web pages for clients that are not browsers (curl of a raw file), after everything above.
	router.use((req: PolkaRequest, res: ServerResponse, next: () => void) => {
		if (viaApiPrefix.has(req) || !web().late(req, res, req.path)) next();
	});

	const accessLog = app.config.log.access;
	const { metrics } = app;
	const { active } = traffic;
	/**
	 * The end of every request (its response sent, or its connection closed first): called once
	 * with the request's record (request id, method, route template, status, ms, bytes, ip,
	 * principal). The access log and request metrics hang here.
	 */
	const finished: FinishHook = (record) => {
		active.delete(record.response!);
		if (accessLog) logAccess(app.log, record);
		// Answers sent in full are counted (GET /metrics); cut ones only logged.
		if (metrics.enabled && record.completed && record.response)
			metrics.observeRequest(record.method, record.route, record.status, record.ms / 1000);
		traffic.settled?.();
	};
	traffic.finished = finished;
	const { max_url_bytes: maxUrl, max_header_bytes: maxHeaders } = app.config.server;
	return (req, res) => {
		beginRequest(req, res, app.proxies.resolve(req).ip, app.proxies.trusts(req.socket.remoteAddress), finished);
		active.add(res);
		// A stopping server answers what it has been asked and closes each connection after it.
		if (traffic.draining) res.shouldKeepAlive = false;
		const url = req.url ?? '/';
		// Node's own limit (maxHeaderSize, set in listen) counts the URL and the headers together
		// and is their sum; each is held to its own, smaller limit here, with GitHub's body.
		if (url.length > maxUrl) return refuse(req, res, 414, 'URI Too Long');
		if (headerBytes(req.rawHeaders) > maxHeaders) return refuse(req, res, 431, 'Request Header Fields Too Large');
		// Health and metrics at the server root, outside the API: no authentication, no rate limit.
		if ((req.method === 'GET' || req.method === 'HEAD') && (url.startsWith(HEALTHZ) || url.startsWith(METRICS))) {
			const path = isPath(url, HEALTHZ) ? HEALTHZ : isPath(url, METRICS) && app.metrics.enabled ? METRICS : null;
			if (path !== null) {
				const record = recordOf(req);
				if (record) record.route = path;
				res.setHeader('X-GitHub-Request-Id', requestIdOf(req));
				return path === HEALTHZ ? app.health.serve(req, res) : app.metrics.serve(req, res);
			}
		}
		if (url.startsWith(API_PREFIX)) {
			const rest = url.slice(API_PREFIX.length);
			if (rest === '' || rest[0] === '/' || rest[0] === '?') {
				req.url = rest[0] === '/' ? rest : `/${rest}`;
				viaApiPrefix.add(req);
			}
		}
		if (req.method === 'OPTIONS') {
			recordOf(req)!.route = WEB_ROUTES.preflight;
			return preflight(res, requestIdOf(req));
		}
		// Git's smart HTTP protocol (clone, fetch) at the web origin: its POST bodies are pkt-lines,
		// read (and gunzipped) by src/api/git/transport.ts, never by the JSON body parser.
		if (!viaApiPrefix.has(req)) {
			const [gitPath, gitQuery = ''] = (req.url ?? '/').split('?', 2);
			if (isGitPath(gitPath)) {
				recordOf(req)!.route = WEB_ROUTES.git;
				app.externalChanges.checkAtMostEvery(1);
				const query = Object.fromEntries(new URLSearchParams(gitQuery));
				if (serveGitHttp(app, req, res, gitPath, query, recordOf(req)!.ip, baseHeaders(requestIdOf(req)))) return;
			}
		}
		// The web interface: browsers' pages, its forms (read by src/web, never by the JSON parser) and assets.
		if (!viaApiPrefix.has(req) && web().early(req, res, (req.url ?? '/').split('?', 1)[0])) return;
		// Upload routes (route.upload): their bodies are files, with their own size limit, never parsed.
		if (req.method === 'POST' && findWrite(req)?.value.upload) {
			uploads.add(req);
			return router.handler(req as never, res, undefined as never);
		}
		const length = Number(req.headers['content-length']);
		if (length > limit) {
			res.setHeader('Connection', 'close');
			write(res, 413, baseHeaders(requestIdOf(req)), errorBody(413, MESSAGES.bodyTooLarge));
			req.resume();
			return;
		}
		router.handler(req as never, res, undefined as never);
	};
}

/** A route of the request listener's table: what the listener reads before the handler, and the handler. */
interface TableRoute {
	/** The path template (GitHub's syntax), the access log's route. */
	readonly path: string;
	/** The body is text, not JSON (RouteDeclaration.textBody). */
	readonly textBody: boolean;
	/** The body is a file the pipeline streams to disk (RouteDeclaration.upload). */
	readonly upload: boolean;
	/** Answers a request matched to the route (the first call loads the route's area and makes its handler). */
	run(req: PolkaRequest, res: ServerResponse): void;
}

/**
 * The request listener's route table, built from the route manifest (src/api/route-manifest.ts)
 * without loading any area: a route's area module (src/api/routes.ts) is required at the first
 * request matching one of the area's routes, and the route's handler (src/http/pipeline.ts) made then.
 * @throws Error when the manifest names a method and path twice; a route the manifest names and its
 *   area does not declare (the manifest out of date) throws at its first request (answered 500).
 */
function routeTable(app: App): { table: RouteTable<TableRoute>; hasTextRoutes: boolean } {
	const areas = new Map(ROUTE_AREAS.map((area) => [area.name, area]));
	/** Each loaded area's declarations by "METHOD path". */
	const loaded = new Map<string, Map<string, RouteDeclaration>>();
	const declaration = (area: string, method: string, path: string): RouteDeclaration => {
		let declarations = loaded.get(area);
		if (!declarations) {
			const routes = areas.get(area)?.load();
			if (!routes) throw new Error(`the route manifest names an unknown area ${area} (npm run routes:manifest)`);
			declarations = new Map(routes.map((route) => [`${route.method} ${route.path}`, route]));
			loaded.set(area, declarations);
		}
		const found = declarations.get(`${method} ${path}`);
		if (!found) throw new Error(`the route manifest's ${method} ${path} is not declared by area ${area} (npm run routes:manifest)`);
		return found;
	};
	const table = new RouteTable<TableRoute>();
	let hasTextRoutes = false;
	for (const [method, path, area, reads] of ROUTE_MANIFEST) {
		const route: { path: string; textBody: boolean; upload: boolean; run: TableRoute['run'] } = {
			path,
			textBody: reads === 'textBody',
			upload: reads === 'upload',
			run(req, res) {
				route.run = routeHandler(app, resolveRoute(declaration(area, method, path), DOCS_BASE));
				route.run(req, res);
			},
		};
		if (route.textBody) hasTextRoutes = true;
		table.add(method, path, route);
	}
	return { table, hasTextRoutes };
}

/**
 * The path polka's handler reads from a request target (@polka/url): up to its fragment or query,
 * either of which starts after the first character.
 */
function polkaPath(url: string): string {
	let end = url.length;
	const hash = url.indexOf('#', 1);
	if (hash !== -1) end = hash;
	const query = url.indexOf('?', 1);
	if (query !== -1 && query < end) end = query;
	return end === url.length ? url : url.slice(0, end);
}

/** Requests to upload routes: their bodies are streamed by the pipeline, not parsed as JSON. */
const uploads = new WeakSet<IncomingMessage>();

/** Requests that came in below /api/v3 (their URL was rewritten): the web paths do not answer them. */
const viaApiPrefix = new WeakSet<IncomingMessage>();

/** Bytes of header names and values, as Node counts them against maxHeaderSize. */
function headerBytes(raw: string[]): number {
	let total = 0;
	for (let i = 0; i < raw.length; i++) total += raw[i].length;
	return total;
}

/** Answers an oversized request line or header block; the body, if any, is drained. */
function refuse(req: IncomingMessage, res: ServerResponse, status: 414 | 431, message: string): void {
	write(res, status, baseHeaders(requestIdOf(req)), errorBody(status, message));
	req.resume();
}

/**
 * Length of the request target in the packet Node failed on, when that packet starts with the
 * request line (`METHOD target HTTP/1.1`, possibly cut short); else 0.
 */
function targetLength(packet: Buffer | undefined): number {
	if (!packet) return 0;
	const space = packet.indexOf(32);
	if (space < 1 || space > 16 || !/^[A-Z]+$/.test(packet.toString('latin1', 0, space))) return 0;
	const lineEnd = packet.indexOf('\r\n');
	const targetEnd = lineEnd === -1 ? packet.length : packet.lastIndexOf(32, lineEnd);
	return Math.max(0, targetEnd - space - 1);
}

/** Sockets already answered by answerClientError (Node reports each later chunk again). */
const answered = new WeakSet<Duplex>();

/**
 * Node's answer to a request it could not parse (clientError), with GitHub's error body: when the
 * request line and headers together exceed maxHeaderSize, 414 if the URL alone is over its limit
 * and 431 otherwise; 408 on a request timeout; 400 otherwise. Nothing is written once a response
 * has started on the socket; the connection is closed.
 */
function answerClientError(
	maxUrl: number,
	error: NodeJS.ErrnoException & { rawPacket?: Buffer },
	socket: Duplex,
	finished: FinishHook,
): void {
	if (answered.has(socket)) return;
	answered.add(socket);
	const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
	if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
		socket.destroy();
		return;
	}
	const [status, reason, message] =
		error.code === 'HPE_HEADER_OVERFLOW'
			? targetLength(error.rawPacket) > maxUrl
				? [414, 'URI Too Long', 'URI Too Long']
				: [431, 'Request Header Fields Too Large', 'Request Header Fields Too Large']
			: error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
				? [408, 'Request Timeout', 'Request Timeout']
				: [400, 'Bad Request', 'Problems parsing the request'];
	const body = errorBody(status, message);
	const record = new RequestRecord(
		randomUUID(),
		'-',
		(socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown',
		null,
		null,
		finished,
	);
	record.route = WEB_ROUTES.unparsed;
	const headers = {
		...baseHeaders(record.requestId),
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(Buffer.byteLength(body)),
		Connection: 'close',
	};
	const head = Object.entries(headers)
		.map(([name, value]) => `${name}: ${value}\r\n`)
		.join('');
	const answer = `HTTP/1.1 ${status} ${reason}\r\n${head}\r\n${body}`;
	socket.end(answer);
	record.bytes = Buffer.byteLength(answer);
	record.finish(status, true);
	// The client may still be sending (the rest of an oversized header block): whatever arrives is
	// read and dropped, so closing does not reset the connection before the answer is read; the
	// socket is closed for good after a second at most.
	setTimeout(() => socket.destroy(), 1000).unref();
}

/** A 96×96 SVG: the login's first letter on a colour derived from the account id. */
export function avatarSvg(id: number, login: string): string {
	const hue = (id * 137) % 360;
	const letter = (login[0] ?? '?').toUpperCase().replace(/[^A-Z0-9]/, '?');
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
		`<rect width="96" height="96" fill="hsl(${hue},55%,45%)"/>` +
		`<text x="48" y="64" font-family="sans-serif" font-size="48" fill="#fff" text-anchor="middle">${letter}</text></svg>`
	);
}

/** CORS preflight, as GitHub answers it. */
function preflight(res: ServerResponse, requestId: string): void {
	const headers = baseHeaders(requestId);
	headers['Access-Control-Allow-Methods'] = 'GET, POST, PATCH, PUT, DELETE';
	headers['Access-Control-Allow-Headers'] =
		'Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, X-GitHub-OTP, ' +
		'X-Requested-With, X-GitHub-Api-Version, X-Service-Api-Version';
	headers['Access-Control-Max-Age'] = '86400';
	write(res, 204, headers);
}

export interface RunningServer {
	server: Server;
	/** e.g. http://127.0.0.1:43123 (the bound address, not the external URL) */
	address: string;
	port: number;
	/** Stops at once: every connection is closed, answered or not. */
	close(): Promise<void>;
	/**
	 * Graceful stop: stops accepting connections, closes idle keep-alive connections at once and
	 * every other connection after its current answer (sent with Connection: close), and waits for
	 * the requests in flight; those still running after `timeoutMs` have their connections closed.
	 * @param onDraining called at once with the number of requests in flight
	 * @returns requests in flight when it began (`draining`), and those cut at the deadline (`cut`)
	 */
	shutdown(timeoutMs: number, onDraining?: (requests: number) => void): Promise<{ draining: number; cut: number }>;
}

/**
 * Listens on host:port (port 0 picks a free one).
 * @throws Error with a one-line reason (address in use, permission denied).
 */
export function listen(app: App, host: string, port: number): Promise<RunningServer> {
	const { max_url_bytes: maxUrl, max_header_bytes: maxHeaders } = app.config.server;
	// Node counts the URL and the header names and values against one limit: their sum here, so
	// each of the request listener's own limits (414, 431) is reached first.
	const traffic = new Traffic();
	const server = createServer({ keepAliveTimeout: 65_000, maxHeaderSize: maxUrl + maxHeaders }, createRequestListener(app, traffic));
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(maxUrl, error, socket, traffic.finished));
	return new Promise((resolve, reject) => {
		server.once('error', (error: NodeJS.ErrnoException) => {
			const reason =
				error.code === 'EADDRINUSE'
					? `port ${port} on ${host} is already in use (choose another with --port)`
					: error.code === 'EACCES'
						? `no permission to listen on ${host}:${port} (ports below 1024 need privileges)`
						: error.message;
			reject(new Error(`cannot listen: ${reason}`));
		});
		server.listen(port, host, () => {
			const bound = server.address() as AddressInfo;
			const shownHost = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
			// Without a configured external URL, response URLs use the address actually bound
			// (it differs from the configuration when port 0 asked for any free port).
			if (!app.config.server.external_url) {
				const origin = `http://${shownHost === '0.0.0.0' || shownHost === '[::]' ? '127.0.0.1' : shownHost}:${bound.port}`;
				app.urls = new Urls(origin, `${origin}/api/v3`);
			}
			resolve({
				server,
				port: bound.port,
				address: `http://${shownHost}:${bound.port}`,
				close: () =>
					new Promise<void>((done) => {
						server.close(() => done());
						server.closeAllConnections();
					}),
				shutdown: (timeoutMs, onDraining) =>
					new Promise((done) => {
						traffic.draining = true;
						const draining = traffic.active.size;
						onDraining?.(draining);
						// Answers not started yet close their connection after them (Connection: close).
						for (const res of traffic.active) if (!res.headersSent) res.shouldKeepAlive = false;
						let cut = 0;
						let sweep: NodeJS.Immediate | null = null;
						// A connection whose answer began before draining stays open after it: closed once idle.
						traffic.settled = () => {
							if (sweep !== null) return;
							sweep = setImmediate(() => {
								sweep = null;
								server.closeIdleConnections();
							});
						};
						const deadline = setTimeout(() => {
							cut = traffic.active.size;
							server.closeAllConnections();
						}, timeoutMs);
						server.close(() => {
							clearTimeout(deadline);
							// Resolved once the responses of the connections just closed have closed too (their
							// records finished, access lines written), or after a second at most.
							const end = () => {
								traffic.settled = null;
								clearTimeout(grace);
								done({ draining, cut });
							};
							const grace = setTimeout(end, 1000);
							if (traffic.active.size === 0) return end();
							traffic.settled = () => traffic.active.size === 0 && end();
						});
						server.closeIdleConnections();
					}),
			});
		});
	});
}
