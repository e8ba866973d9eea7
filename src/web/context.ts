/**
 * One web request as pages see it: who is signed in (the session cookie; never a token), the
 * viewer the access rules take, the CSRF token forms carry, and the parsed path, query and form.
 * Pages throw NotFound (the one 404 page, the same for what is missing and what the viewer may
 * not see), Redirect or Forbidden; src/web/index.ts turns them into answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app';
import type { Viewer } from '../auth/access/types';
import { anonymous, type Principal } from '../auth/principal';
import { type ActiveSession, sessionPrincipal, sessionStore } from '../auth/sessions';
import type { AccountRow } from '../model/rows';

/** The session cookie (HttpOnly, SameSite=Lax; Secure over https). */
export const SESSION_COOKIE = 'gitstead_session';
/** Before sign-in: the CSRF secret of the sign-in form (double submit). */
export const LOGIN_CSRF_COOKIE = 'gitstead_csrf';

export interface WebContext {
	app: App;
	req: IncomingMessage;
	res: ServerResponse;
	method: string;
	/** Decoded path parameters of the matched page. */
	params: Record<string, string>;
	/** The path as requested (no query). */
	path: string;
	query: URLSearchParams;
	/** A POST's form fields (application/x-www-form-urlencoded). */
	form: URLSearchParams | null;
	requestId: string;
	/** The client's address (trusted-proxy aware). */
	ip: string;
	session: ActiveSession | null;
	/** The signed-in user's account, or null. */
	user: AccountRow | null;
	/** What the access rules see: the session's user with the user's own rights, or an anonymous caller. */
	viewer: Viewer;
	principal: Principal;
	/** The value forms carry in `authenticity_token`. */
	csrf: string;
	/** Epoch milliseconds. */
	now: number;
	/** Whether cookies must be Secure (the request or the external URL is https). */
	secure: boolean;
	/** Set-Cookie values to send with the answer. */
	cookies: string[];
	/**
	 * CSS rules the page needs beyond the stylesheet (label colours: class → rule), written as one
	 * `<style>` element allowed by its hash (src/web/components/label.tsx).
	 */
	styles: Map<string, string>;
}

/** The 404 page: what does not exist and what the viewer may not see answer alike. */
export class NotFound extends Error {}

/** The positive whole number in the path parameter `name` (an id), or null for anything else (the page answers 404). */
export function pathId(ctx: WebContext, name = 'id'): number | null {
	const id = Number(ctx.params[name]);
	return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A redirect (303 after a form, 302 otherwise). */
export class Redirect extends Error {
	constructor(
		readonly location: string,
		readonly status: 301 | 302 | 303 = 302,
	) {
		super(location);
	}
}

/** A refused request (403 page with the reason). */
export class Forbidden extends Error {}

/** Too many requests (429 page with the reason). */
export class TooMany extends Error {
	constructor(
		message: string,
		readonly retryAfterSeconds: number,
	) {
		super(message);
	}
}

/** Cookies of a request: name → value (the first of each name). */
export function parseCookies(header: string | undefined): Map<string, string> {
	const out = new Map<string, string>();
	if (!header) return out;
	for (const part of header.split(';')) {
		const eq = part.indexOf('=');
		if (eq < 0) continue;
		const name = part.slice(0, eq).trim();
		if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
	}
	return out;
}

/** A Set-Cookie value: Path=/, HttpOnly, SameSite=Lax, Secure over https; maxAge seconds (0 deletes). */
export function cookie(name: string, value: string, options: { secure: boolean; maxAge?: number }): string {
	const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
	if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
	if (options.secure) parts.push('Secure');
	return parts.join('; ');
}

/**
 * The session of the request's cookie (live, its user not suspended); its last use is written at
 * most every few minutes.
 */
export function loadSession(app: App, cookies: Map<string, string>, now: number): ActiveSession | null {
	const secret = cookies.get(SESSION_COOKIE);
	if (!secret || secret.length > 128) return null;
	const store = sessionStore(app);
	const session = store.find(secret, Math.floor(now / 1000));
	if (!session) return null;
	const seconds = Math.floor(now / 1000);
	if (seconds - session.last_seen_at >= 300) app.transaction(() => store.touch(session, seconds));
	return session;
}

/** The viewer and principal of a session (or of an anonymous caller at `ip`). */
export function viewerOf(app: App, session: ActiveSession | null, ip: string): { principal: Principal; viewer: Viewer } {
	const principal = session ? sessionPrincipal(session) : anonymous(ip);
	return { principal, viewer: { app, principal, publicView: false } };
}
