/**
 * The head of an API answer, written with as little work per request as Node allows.
 *
 * About twenty of an answer's headers are the pipeline's own (GitHub's set: CORS, security headers,
 * media type, API version, accepted permissions and scopes, Vary, the request id, rate-limit
 * counters, ETag, Cache-Control). Their names are constants and their values are either fixed per
 * route (computed and checked once, kept as one block of wire-format lines) or made by the
 * pipeline from numbers, ids and hashes, so they cannot hold a character HTTP forbids. They are
 * gathered as text ("Name: value\r\n" lines) and spliced after the status line of the head Node
 * builds for the few headers that stay with it: a route's own (Location, Last-Modified,
 * Retry-After …), Link, Content-Type and Content-Length, which Node validates and whose meaning
 * it needs (Content-Length, Connection), with Date and Connection/Keep-Alive it adds itself.
 * ServerResponse#writeHead checks every name and value it is given (two regular expressions
 * and a lower-casing per header); for the pipeline's own headers that is work done once instead
 * of on every request. The answer carries exactly the headers it did when each went through
 * writeHead (test/response-head.test.ts); only their order changes (the pipeline's first).
 */
import type { ServerResponse } from 'node:http';

/** HTTP's token (a header name), as Node checks it. */
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
/** A character a header value may not hold, as Node checks it. */
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Header lines in wire form ("Name: value\r\n" each) for fixed names and values, checked once.
 * @param headers names and values, in the order they are to be sent
 * @throws TypeError for a name that is not an HTTP token or a value with a forbidden character
 */
export function headerLines(headers: Record<string, string>): string {
	let lines = '';
	for (const name in headers) {
		const value = headers[name];
		if (!TOKEN.test(name)) throw new TypeError(`Header name must be a valid HTTP token ["${name}"]`);
		if (INVALID_VALUE.test(value)) throw new TypeError(`Invalid character in header content ["${name}"]`);
		lines += `${name}: ${value}\r\n`;
	}
	return lines;
}

/** Whether `value` can be sent as a header value as it is (no control character but tab). */
export function isHeaderValue(value: string): boolean {
	return !INVALID_VALUE.test(value);
}

/**
 * The headers of one answer: `lines`, the pipeline's own in wire form (valid by construction),
 * and `headers`, the rest, which go through ServerResponse#writeHead as ever.
 */
export class Head {
	/** Set once a reply's headers named one of the pipeline's own: everything is then an object, as before. */
	private merged = false;
	/** Headers that go through writeHead (validated by Node). */
	headers: Record<string, string> = {};

	/**
	 * @param lines the pipeline's fixed lines for this answer (headerLines, or lines made of ids and numbers)
	 * @param names the names `lines` may carry, for assign's override rule
	 */
	constructor(
		public lines: string,
		private readonly names: ReadonlySet<string>,
	) {}

	/** Appends wire-format lines ("Name: value\r\n" each) the pipeline made (valid by construction). */
	add(lines: string): void {
		if (this.merged) Object.assign(this.headers, parseLines(lines));
		else this.lines += lines;
	}

	/** Sets one of the pipeline's own headers (a value valid by construction); it replaces a reply's header of the same name. */
	set(name: string, value: string): void {
		if (this.merged) this.headers[name] = value;
		else this.lines += `${name}: ${value}\r\n`;
	}

	/**
	 * Adds a reply's or an error's headers (validated by Node). One named like a header the pipeline
	 * already set replaces it, as Object.assign did: the head becomes one object, the lines parsed into it.
	 */
	assign(extra: Record<string, string>): void {
		if (!this.merged) {
			for (const name in extra) {
				if (this.names.has(name)) {
					this.headers = { ...parseLines(this.lines), ...this.headers };
					this.lines = '';
					this.merged = true;
					break;
				}
			}
		}
		Object.assign(this.headers, extra);
	}

	/**
	 * Writes the status line and the head: `headers` through writeHead, then the lines spliced after
	 * the status line of what Node built (OutgoingMessage#_header, not yet sent: it goes out with the
	 * first body chunk or end()). Without that field (another Node) the lines go through writeHead too.
	 */
	writeTo(res: ServerResponse, status: number): void {
		const out = res as ServerResponse & { _header?: string | null };
		if (this.lines === '') {
			res.writeHead(status, this.headers);
			return;
		}
		if (!('_header' in out)) {
			res.writeHead(status, { ...parseLines(this.lines), ...this.headers });
			return;
		}
		res.writeHead(status, this.headers);
		const built = out._header;
		if (typeof built !== 'string') throw new Error('the response head was not built');
		const at = built.indexOf('\r\n') + 2;
		out._header = built.slice(0, at) + this.lines + built.slice(at);
	}
}

/** Lines back into an object (the rare path: a reply overriding one of the pipeline's headers). */
function parseLines(lines: string): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const line of lines.split('\r\n')) {
		const colon = line.indexOf(': ');
		if (colon > 0) headers[line.slice(0, colon)] = line.slice(colon + 2);
	}
	return headers;
}
