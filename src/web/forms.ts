/**
 * Forms: bodies read here (application/x-www-form-urlencoded, at most FORM_LIMIT bytes; the API's
 * JSON parser never sees them) and the CSRF rules every form that changes something passes: the
 * `authenticity_token` field equals the session's CSRF secret (signed out: the sign-in cookie's,
 * double submit), and a browser's Origin, when sent, is this site's.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Forbidden, type WebContext } from './context';

/** Largest form body read (bytes). */
export const FORM_LIMIT = 64 * 1024;

/** Reads a form body; `done(null, true)` when it is over FORM_LIMIT. */
export function readForm(req: IncomingMessage, done: (form: URLSearchParams | null, tooLarge: boolean) => void): void {
	const chunks: Buffer[] = [];
	let size = 0;
	let over = false;
	req.on('data', (chunk: Buffer) => {
		if (over) return;
		size += chunk.length;
		if (size > FORM_LIMIT) {
			over = true;
			done(null, true);
			return;
		}
		chunks.push(chunk);
	});
	req.on('end', () => {
		if (!over) done(new URLSearchParams(Buffer.concat(chunks).toString('utf8')), false);
	});
	req.on('error', () => undefined);
}

function sameText(a: string, b: string): boolean {
	const x = Buffer.from(a);
	const y = Buffer.from(b);
	return x.length === y.length && timingSafeEqual(x, y);
}

/** The origins this site answers at: the external URL's, and the request's own Host. */
function ownOrigins(ctx: WebContext): string[] {
	const host = ctx.req.headers.host;
	const origins = [ctx.app.urls.origin];
	if (host) origins.push(`http://${host}`, `https://${host}`);
	return origins;
}

/**
 * Refuses a cross-site form: a foreign Origin (or `Sec-Fetch-Site: cross-site`), or a missing or
 * wrong `authenticity_token`.
 * @throws Forbidden
 */
export function checkCsrf(ctx: WebContext): void {
	const origin = ctx.req.headers.origin;
	if (typeof origin === 'string' && origin !== 'null' && !ownOrigins(ctx).includes(origin)) {
		throw new Forbidden('This form was sent from another site and was refused.');
	}
	if (origin === 'null' || ctx.req.headers['sec-fetch-site'] === 'cross-site') {
		throw new Forbidden('This form was sent from another site and was refused.');
	}
	const token = ctx.form?.get('authenticity_token') ?? '';
	if (!ctx.csrf || !sameText(token, ctx.csrf)) {
		throw new Forbidden('The form has expired or was not sent from this site. Reload the page and try again.');
	}
}

/** A form field as text, trimmed ('' when absent), at most `max` characters. */
export function field(ctx: WebContext, name: string, max = 1000): string {
	return (ctx.form?.get(name) ?? '').trim().slice(0, max);
}
