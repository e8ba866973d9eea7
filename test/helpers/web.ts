/**
 * A browser-like client of the web interface for HTTP-level tests: pages asked for as HTML,
 * url-encoded form posts, sign-in through /login and forms sent with the page's CSRF token.
 * Redirects are not followed (tests check them).
 */
import * as assert from 'uvu/assert';

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
