/**
 * The web interface: server-rendered HTML at GitHub's own paths (src/web/pages/), beside the API.
 *
 * Who answers what (src/server.ts calls the three hooks):
 * - `early`, before the API: the assets (`/_assets/…`), the forms' POSTs (`/login`, `/logout`,
 *   `/settings/…`; the API has no POST there), and every GET or HEAD whose Accept names
 *   `text/html` (a browser's navigation). A page whose path is generic (`/{owner}`,
 *   `/{owner}/{repo}`, marked `weak`) and finds nothing lets the request go on, so `/meta`,
 *   `/user`, the Atom feeds and the API answer as before; other pages answer their own 404 page.
 * - `late`, after the API, codeload and the feeds: other clients' GETs of raw files (curl).
 * - `notFound`: a browser's request nothing answered gets the HTML 404 page; everyone else GitHub's
 *   JSON 404 as before. Nothing below /api/v3 ever reaches the web pages.
 *
 * Every answer carries a Content-Security-Policy without inline script, `frame-ancestors 'none'`
 * and `X-Content-Type-Options: nosniff`. The session cookie is read here and only here: the API
 * never accepts it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { App } from '../app';
import { recordOf } from '../http/access';
import { httpErrorOf } from '../http/errors';
import { requestScope } from '../http/pipeline';
import { RouteTable } from '../http/router';
import { ASSETS_PREFIX, serveAsset } from './assets';
import { ErrorPage } from './components/error-page';
import {
	Forbidden,
	LOGIN_CSRF_COOKIE,
	loadSession,
	NotFound,
	parseCookies,
	Redirect,
	TooMany,
	viewerOf,
	type WebContext,
	cookie,
} from './context';
import { checkCsrf, readForm } from './forms';
import { PAGES } from './pages';
import type { Answer, FileAnswer, PageAnswer, PageRoute } from './page';
import { createReadStream, statSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { styleBlock } from './components/label';

/**
 * The policy of every page: no inline script, no framing, forms to this origin only. Styles come
 * from the stylesheet, plus at most one `<style>` element of the page's own (label colours),
 * allowed by its hash: inline `style` attributes stay refused.
 * @param styleHash base64 SHA-256 of the page's style element, if it has one
 */
export function contentSecurityPolicy(styleHash?: string): string {
	const styles = styleHash ? `'self' 'sha256-${styleHash}'` : "'self'";
	return (
		`default-src 'none'; style-src ${styles}; img-src 'self' data:; script-src 'self'; connect-src 'self'; ` +
		"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
	);
}

/** The policy of a page without a style element of its own. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** Headers of every web answer. */
export function pageHeaders(requestId: string): Record<string, string> {
	return {
		'X-GitHub-Request-Id': requestId,
		'Content-Security-Policy': CONTENT_SECURITY_POLICY,
		'X-Content-Type-Options': 'nosniff',
		'X-Frame-Options': 'DENY',
		'Referrer-Policy': 'same-origin',
	};
}

/**
 * Raw file paths (/{owner}/{repo}/raw/{ref}/{path}, /gist/{user}/{gist_id}/raw/{filename}): served
 * to every client, as GitHub serves them.
 */
const RAW_PATH = /^\/(?:gist\/[^/]+\/[^/]+|[^/]+\/[^/]+)\/raw\//;

/** Whether a request is a browser's navigation: its Accept names text/html. */
export function wantsHtml(req: IncomingMessage): boolean {
	const accept = req.headers.accept;
	return typeof accept === 'string' && accept.includes('text/html');
}

interface Hooks {
	/** Browser GETs, web POSTs and assets. @returns false when the request goes on to the API */
	early(req: IncomingMessage, res: ServerResponse, path: string): boolean;
	/** Other clients' GETs the API, codeload and feeds did not answer. @returns false when nothing answered */
	late(req: IncomingMessage, res: ServerResponse, path: string): boolean;
	/** The 404 of an unanswered request: HTML for browsers. @returns false for other clients (JSON 404) */
	notFound(req: IncomingMessage, res: ServerResponse): boolean;
}

/** The web interface of an application. */
export function createWeb(app: App): Hooks {
	const table = new RouteTable<PageRoute>();
	for (const page of PAGES) table.add(page.method === 'GET' ? 'GET' : 'POST', page.path, page);
	const find = (method: string, path: string) => {
		const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
		return table.find(method === 'HEAD' ? 'GET' : method, trimmed);
	};
	/** Requests a weak page passed on: their 404 is still the HTML page for browsers. */
	const passed = new WeakSet<IncomingMessage>();

	const run = (req: IncomingMessage, res: ServerResponse, path: string, browser: boolean): boolean => {
		const match = find(req.method ?? 'GET', path);
		if (!match) return false;
		const page = match.value;
		const record = recordOf(req);
		const requestId = record?.requestId ?? '-';
		const ctx = context(app, req, res, path, match.params, requestId);
		if (record) {
			record.route = `web:${page.path}`;
			record.principal = ctx.principal;
		}
		const finish = (answer: Answer) => send(ctx, answer);
		const fail = (caught: unknown): boolean => {
			// A service's GitHub error: its 404 is the 404 page, other statuses a page with its message.
			let error = caught;
			const refusal = httpErrorOf(caught);
			if (refusal) {
				if (refusal.status === 404) error = new NotFound();
				else if (refusal.status < 500) {
					finish(errorAnswer(ctx, refusal.status === 403 ? 403 : 422, refusal.message));
					return true;
				}
			}
			if (error instanceof NotFound) {
				// A generic path that is not a page here may be the API's or a feed's (a browser at /meta).
				if ((page.weak ?? page.path.startsWith('/{owner}')) && req.method !== 'POST') {
					passed.add(req);
					if (record) record.route = 'unmatched';
					return false;
				}
				if (!browser && req.method !== 'POST') return false;
				finish(errorAnswer(ctx, 404));
				return true;
			}
			if (error instanceof Redirect) {
				finish({ status: error.status, headers: { Location: error.location }, body: '' });
				return true;
			}
			if (error instanceof Forbidden) {
				finish(errorAnswer(ctx, 403, error.message));
				return true;
			}
			if (error instanceof TooMany) {
				const answer = errorAnswer(ctx, 429, error.message);
				if ('headers' in answer) answer.headers['Retry-After'] = String(error.retryAfterSeconds);
				finish(answer);
				return true;
			}
			app.log.error('web page failed', { request_id: requestId, path: ctx.path, error });
			finish(errorAnswer(ctx, 500));
			return true;
		};
		const scope = requestScope(app, req);
		try {
			app.externalChanges.checkAtMostEvery(1);
			if (req.method === 'POST') {
				readForm(req, (form, tooLarge) => {
					if (tooLarge) return finish(errorAnswer(ctx, 413, 'The form is too large.'));
					ctx.form = form;
					try {
						checkCsrf(ctx);
						Promise.resolve(scope(() => page.handler(ctx))).then(
							(answer) => scope(() => finish(answer)),
							(error) => scope(() => fail(error)),
						);
					} catch (error) {
						scope(() => fail(error));
					}
				});
				return true;
			}
			const answer = scope(() => page.handler(ctx));
			if (answer instanceof Promise) {
				answer.then(
					(a) => scope(() => finish(a)),
					(error) => scope(() => fail(error)),
				);
				return true;
			}
			scope(() => finish(answer));
			return true;
		} catch (error) {
			return scope(() => fail(error));
		}
	};

	return {
		early(req, res, path) {
			if (path.startsWith(ASSETS_PREFIX) && (req.method === 'GET' || req.method === 'HEAD')) {
				const record = recordOf(req);
				if (record) record.route = 'web:asset';
				return serveAsset(req, res, path, pageHeaders(record?.requestId ?? '-'));
			}
			if (req.method === 'POST') return find('POST', path) !== null && run(req, res, path, true);
			if ((req.method === 'GET' || req.method === 'HEAD') && wantsHtml(req)) return run(req, res, path, true);
			return false;
		},
		late(req, res, path) {
			if ((req.method !== 'GET' && req.method !== 'HEAD') || passed.has(req)) return false;
			// Other clients get pages only where a page is what they want: raw files (curl, scripts).
			// Elsewhere they keep the API's JSON answers (an organization at /{org} is no Atom feed).
			if (!RAW_PATH.test(path)) return false;
			return run(req, res, path, false);
		},
		notFound(req, res) {
			if ((req.method !== 'GET' && req.method !== 'HEAD') || !wantsHtml(req)) return false;
			const record = recordOf(req);
			const ctx = context(app, req, res, (req.url ?? '/').split('?')[0], {}, record?.requestId ?? '-');
			send(ctx, errorAnswer(ctx, 404));
			return true;
		},
	};
}

function context(
	app: App,
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	params: Record<string, string>,
	requestId: string,
): WebContext {
	const now = app.clock();
	const cookies = parseCookies(req.headers.cookie);
	const session = loadSession(app, cookies, now);
	const ip = recordOf(req)?.ip ?? req.socket.remoteAddress ?? 'unknown';
	const { principal, viewer } = viewerOf(app, session, ip);
	const { origin } = app.proxies.resolve(req);
	const secure = (origin ?? app.urls.origin).startsWith('https:') || app.urls.origin.startsWith('https:');
	const ctx: WebContext = {
		app,
		req,
		res,
		method: req.method ?? 'GET',
		params,
		path,
		query: new URLSearchParams((req.url ?? '').split('?')[1] ?? ''),
		form: null,
		requestId,
		ip,
		session,
		user: session ? (app.stores.accounts.byId(session.user_id) ?? null) : null,
		viewer,
		principal,
		csrf: '',
		now,
		secure,
		cookies: [],
		styles: new Map(),
	};
	if (session) ctx.csrf = session.csrf_secret;
	else {
		// Signed out: the sign-in form's double-submit secret (a cookie and the same value in the form).
		const existing = cookies.get(LOGIN_CSRF_COOKIE);
		ctx.csrf = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomBytes(32).toString('base64url');
		if (existing !== ctx.csrf) ctx.cookies.push(cookie(LOGIN_CSRF_COOKIE, ctx.csrf, { secure }));
	}
	return ctx;
}

function errorAnswer(ctx: WebContext, status: number, message?: string): PageAnswer & { headers: Record<string, string> } {
	return { status, headers: {}, vnode: ErrorPage({ ctx, status, message }) };
}

/** Streams a download: 200 with its length, or a 404 page when the file went away meanwhile. */
function sendFile(ctx: WebContext, headers: Record<string, string | string[]>, answer: FileAnswer): void {
	const { res, req } = ctx;
	let size: number;
	try {
		size = statSync(answer.file).size;
	} catch {
		send(ctx, errorAnswer(ctx, 404));
		return;
	}
	res.writeHead(200, {
		...headers,
		...answer.headers,
		'Content-Type': 'application/octet-stream',
		'Content-Length': String(size),
		// Asset names hold letters, digits and -_.+@ only (src/api/releases/service.ts: assetName).
		'Content-Disposition': `attachment; filename="${answer.name.replace(/["\\\r\n]/g, '_')}"`,
		'Cache-Control': 'private, no-cache',
	});
	if (req.method === 'HEAD') {
		res.end();
		return;
	}
	createReadStream(answer.file)
		.on('error', () => res.destroy())
		.pipe(res);
}

/** Writes an answer: a page (HTML document) or raw bytes, with the page headers and cookies. */
function send(ctx: WebContext, answer: Answer): void {
	const { res, req } = ctx;
	if (res.headersSent || res.destroyed) return;
	const headers: Record<string, string | string[]> = pageHeaders(ctx.requestId);
	if (ctx.cookies.length) headers['Set-Cookie'] = ctx.cookies;
	let status = 200;
	let body: string | Buffer;
	if ('file' in answer) {
		sendFile(ctx, headers, answer);
		return;
	}
	if ('body' in answer) {
		status = answer.status;
		Object.assign(headers, answer.headers);
		body = answer.body;
	} else {
		let vnode: VNode;
		if ('vnode' in answer) {
			vnode = answer.vnode;
			status = answer.status ?? 200;
			Object.assign(headers, answer.headers ?? {});
		} else vnode = answer;
		body = `<!DOCTYPE html>${renderToString(vnode)}`;
		// Components registered the colours they use while rendering: one hashed <style> in the head.
		const css = styleBlock(ctx.styles);
		if (css) {
			const at = body.indexOf('</head>');
			if (at > 0) {
				body = `${body.slice(0, at)}<style>${css}</style>${body.slice(at)}`;
				headers['Content-Security-Policy'] = contentSecurityPolicy(createHash('sha256').update(css).digest('base64'));
			}
		}
		headers['Content-Type'] = 'text/html; charset=utf-8';
		headers['Cache-Control'] = ctx.session ? 'private, no-cache' : 'no-cache';
		headers.Vary = 'Cookie, Accept';
	}
	const bytes = typeof body === 'string' ? Buffer.from(body) : body;
	headers['Content-Length'] = String(bytes.length);
	res.writeHead(status, headers);
	res.end(req.method === 'HEAD' ? undefined : bytes);
}
