/**
 * A browser-like client of the web interface for HTTP-level tests: pages asked for as HTML,
 * url-encoded form posts, sign-in through /login and forms sent with the page's CSRF token.
 * Redirects are not followed (tests check them).
 */
import * as assert from 'uvu/assert';
import { createUser } from '../../src/api/users/service';
import { setUserPassword } from '../../src/auth/sessions';
import { startServer, type TestServer } from './server';

const HTML = { Accept: 'text/html,application/xhtml+xml' };

/** A page or form answer: status, headers and the body as text. */
export interface WebAnswer {
	status: number;
	headers: Headers;
	text: string;
}

/** The hidden authenticity_token of a page's form ('' when there is none). */
export const tokenIn = (html: string) => /name="authenticity_token" value="([^"]+)"/.exec(html)?.[1] ?? '';

/**
 * The client of the server at `origin()` (read at each call: servers start in `before`), whose
 * users sign in with `password`.
 */
export function webClient(origin: () => string, password: string) {
	async function page(path: string, cookie?: string): Promise<WebAnswer> {
		const res = await fetch(`${origin()}${path}`, { headers: { ...HTML, ...(cookie ? { Cookie: cookie } : {}) }, redirect: 'manual' });
		return { status: res.status, headers: res.headers, text: await res.text() };
	}

	/** Posts `fields` url-encoded (an array sends the field once per value). */
	async function post(
		path: string,
		fields: Record<string, string | string[]>,
		cookie: string,
		headers: Record<string, string> = {},
	): Promise<WebAnswer> {
		const body = new URLSearchParams();
		for (const [name, value] of Object.entries(fields))
			for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
		const res = await fetch(`${origin()}${path}`, {
			method: 'POST',
			headers: { ...HTML, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, ...headers },
			body: body.toString(),
			redirect: 'manual',
		});
		return { status: res.status, headers: res.headers, text: await res.text() };
	}

	/** Signs `login` in through /login. @returns the session cookie (`gitstead_session=…`) */
	async function signIn(login: string): Promise<string> {
		const form = await page('/login');
		const csrfCookie = (form.headers.get('set-cookie') ?? '').split(';')[0];
		const res = await post('/login', { authenticity_token: tokenIn(form.text), login, password }, csrfCookie);
		const session = (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('gitstead_session=')) ?? '';
		return session.split(';')[0];
	}

	/** Sends a form of the signed-in user with the session's CSRF token (read from the page `from`). */
	async function submit(cookie: string, from: string, action: string, fields: Record<string, string | string[]>) {
		const source = await page(from, cookie);
		assert.is(source.status, 200, from);
		return post(action, { authenticity_token: tokenIn(source.text), ...fields }, cookie);
	}

	return { page, post, signIn, submit };
}

/**
 * The server of the web settings and write-flow tests: webhooks may reach the loopback receiver;
 * alice (with an email) owns the organization acme with the repositories widget and the private
 * vault (both initialised); `members` are members of acme, `outsiders` users without a role; all
 * sign in with `password`. @returns the server and alice's full token
 */
export async function startWebServer(options: { members: string[]; outsiders: string[]; password: string; orgBody?: unknown }) {
	const s: TestServer = await startServer({
		configure(c) {
			c.webhooks.allowed_hosts = ['127.0.0.1'];
		},
	});
	createUser(s.app, { login: 'alice', email: 'alice@example.com' });
	for (const login of [...options.members, ...options.outsiders]) s.user(login);
	s.org('acme', 'alice');
	for (const login of options.members) s.member('acme', login);
	for (const login of ['alice', ...options.members, ...options.outsiders])
		await setUserPassword(s.app, s.app.stores.accounts.user(login)!.id, options.password);
	const aliceToken = s.fullToken('alice');
	const api = (method: string, path: string, body?: unknown) => s.request(method, path, { token: aliceToken, body });
	if (options.orgBody) assert.is((await api('PATCH', '/orgs/acme', options.orgBody)).status, 200);
	for (const body of [
		{ name: 'widget', auto_init: true },
		{ name: 'vault', private: true, auto_init: true },
	])
		assert.is((await api('POST', '/orgs/acme/repos', body)).status, 201);
	return { s, aliceToken };
}
