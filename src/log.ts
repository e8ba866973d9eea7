/**
 * Logs to standard error, one line per entry, in one of two formats (config `[log] format`,
 * `--log-format`, GITSTEAD_LOG_FORMAT):
 *
 * - `logfmt` (the default): `time=2026-11-24T06:40:00.123Z level=info msg="request" key=value …`;
 *   values with spaces, quotes, `=` or control characters are JSON-quoted, so an entry (an error's
 *   stack included) stays on one line.
 * - `json`: one JSON object per line, written by pino: `{"level":"info","time":"…","msg":"…",…}`.
 *
 * Both go to file descriptor 2 through one line buffer (StandardError below, no worker thread):
 * warnings and errors are written at once, with whatever is buffered before them; debug and info
 * lines (the access log: one per request) are written together, when 8 KiB have gathered or 25 ms
 * after the first, and when the process exits. One write(2) per request cost more CPU than the
 * request itself on a busy server; a kill -9 can lose the last 25 ms of info lines, never a warning.
 *
 * Secrets never reach a line: fields named like credentials (authorization, cookie, access_token,
 * token, client_secret, password, secret …, at any depth of an object) are replaced by
 * `[REDACTED]`; in every text written (the message, string fields, an error's message and stack)
 * GitHub-style token strings (ghp_…, github_pat_…), `Bearer …`/`Basic …` credentials and the
 * values of secret query parameters (`?access_token=`, `client_secret=`, `token=`, `code=`,
 * `state=` …) are replaced too. An Error field is written as its stack (logfmt) or
 * { type, message, stack } (json): never its other properties, which may carry request data.
 */
import { writeSync } from 'node:fs';
import type Pino from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
export type LogFormat = 'logfmt' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['logfmt', 'json'];
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
	debug(message: string, fields?: Record<string, unknown>): void;
	info(message: string, fields?: Record<string, unknown>): void;
	warn(message: string, fields?: Record<string, unknown>): void;
	error(message: string, fields?: Record<string, unknown>): void;
	/**
	 * logfmt loggers only: an info entry whose fields are already written as logfmt, each made by
	 * logfmtField (the access log keeps the parts that repeat, such as the caller's, made once).
	 * Writes what `info(message, fields)` would.
	 */
	infoLogfmt?(message: string, fields: string): void;
}

/** Field names whose values are never written, at any depth (compared lower-cased). */
const SECRET_FIELDS = new Set([
	'authorization',
	'proxy-authorization',
	'cookie',
	'set-cookie',
	'access_token',
	'refresh_token',
	'token',
	'client_secret',
	'password',
	'secret',
	'private_key',
	'x-hub-signature',
	'x-hub-signature-256',
]);
/** Query parameters that carry credentials (GitHub's deprecated query authentication, OAuth's code and state). */
export const SECRET_QUERY_PARAMETERS = [
	'access_token',
	'refresh_token',
	'client_secret',
	'client_id_secret',
	'token',
	'code',
	'state',
	'password',
	'jwt',
	'private_token',
	'signature',
	'sig',
];
const QUERY_SECRET = new RegExp(`([?&;](?:${SECRET_QUERY_PARAMETERS.join('|')})=)[^&;#\\s"']*`, 'gi');
const TOKEN_TEXT = /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})|\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;
export const REDACTED = '[REDACTED]';

/** `text` with token strings, Authorization-style credentials and secret query parameter values replaced. */
export function scrub(text: string): string {
	// Cheap tests first: most values (ids, routes, addresses) contain none of these.
	if (text.length < 20) return text.includes('=') ? text.replace(QUERY_SECRET, `$1${REDACTED}`) : text;
	if (text.includes('=')) text = text.replace(QUERY_SECRET, `$1${REDACTED}`);
	if (text.includes('_') || text.includes('Bearer') || text.includes('Basic')) {
		text = text.replace(TOKEN_TEXT, (_match, scheme: string | undefined) => (scheme ? `${scheme} ${REDACTED}` : REDACTED));
	}
	return text;
}

/** A URL (absolute or a request target) with the values of secret query parameters replaced. */
export function redactUrl(url: string): string {
	return url.includes('?') ? url.replace(QUERY_SECRET, `$1${REDACTED}`) : url;
}

/** A copy of an object or array with secret fields replaced (JSON.stringify's replacer). */
function replacer(key: string, value: unknown): unknown {
	if (key !== '' && SECRET_FIELDS.has(key.toLowerCase())) return REDACTED;
	if (typeof value === 'string') return scrub(value);
	if (value instanceof Error) return errorObject(value);
	return value;
}

function errorObject(error: Error): { type: string; message: string; stack?: string } {
	return { type: error.name, message: scrub(error.message), stack: error.stack === undefined ? undefined : scrub(error.stack) };
}

/** Field names seen, and whether each is a secret's (the names come from code: a bounded set, kept up to 1,000). */
const secretFieldNames = new Map<string, boolean>();
function isSecretField(key: string): boolean {
	let secret = secretFieldNames.get(key);
	if (secret === undefined) {
		secret = SECRET_FIELDS.has(key.toLowerCase());
		if (secretFieldNames.size < 1000) secretFieldNames.set(key, secret);
	}
	return secret;
}

/** One field value made safe: a string, number or boolean, or (json) a plain object. */
function safeValue(key: string, value: unknown, json: boolean): unknown {
	if (isSecretField(key)) return REDACTED;
	switch (typeof value) {
		case 'number':
		case 'boolean':
			return value;
		case 'string':
			return scrub(value);
		case 'bigint':
			return String(value);
	}
	if (value instanceof Error) return json ? errorObject(value) : scrub(value.stack ?? `${value.name}: ${value.message}`);
	if (value === null) return null;
	const text = JSON.stringify(value, replacer);
	return json ? (JSON.parse(text) as unknown) : text;
}

function logfmtValue(value: unknown): string {
	if (typeof value === 'number') return String(value);
	const text = typeof value === 'string' ? value : String(value);
	if (text === '') return '""';
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		// Space and control characters, '"', '=', '\\', and DEL or beyond ASCII (line separators): quoted.
		if (c <= 32 || c === 34 || c === 61 || c === 92 || c >= 127) return JSON.stringify(text);
	}
	return text;
}

/** The line of one logfmt entry, newline included. */
export function logfmtLine(time: string, level: LogLevel, message: string, fields: Record<string, unknown> | undefined): string {
	let out = `time=${time} level=${level} msg=${logfmtValue(scrub(message))}`;
	if (fields) for (const key in fields) out += logfmtField(key, fields[key]);
	return `${out}\n`;
}

/**
 * One field of a logfmt entry as it is written: ` key=value` (secret fields redacted, token
 * strings scrubbed, quoted where needed), or '' for undefined.
 */
export function logfmtField(key: string, value: unknown): string {
	if (value === undefined) return '';
	// Numbers (most of an access-log line) need neither scrubbing nor quoting.
	if (typeof value === 'number' && !isSecretField(key)) return ` ${key}=${value}`;
	return ` ${key}=${logfmtValue(safeValue(key, value, false))}`;
}

let lastMs = 0;
let lastIso = '';
/** The current time as ISO 8601 with milliseconds; formatted once per millisecond (the access log writes many lines in one). */
export function isoNow(): string {
	const now = Date.now();
	if (now !== lastMs) {
		lastMs = now;
		lastIso = new Date(now).toISOString();
	}
	return lastIso;
}

/**
 * File descriptor 2 behind one buffer shared by every logger: `write` gathers lines (written when
 * FLUSH_BYTES have gathered, FLUSH_MS after the first, or at exit), `writeNow` writes what is
 * gathered and its line at once. Writes are synchronous (fs.writeSync), retried on EAGAIN and
 * partial writes, so lines are never interleaved or reordered.
 */
class StandardError {
	private pending = '';
	private timer: NodeJS.Timeout | null = null;
	constructor() {
		process.on('exit', () => this.flush());
	}
	write(line: string): boolean {
		this.pending += line;
		if (this.pending.length >= FLUSH_BYTES) this.flush();
		else if (this.timer === null) (this.timer = setTimeout(() => this.flush(), FLUSH_MS)).unref();
		return true;
	}
	writeNow(line: string): void {
		this.pending += line;
		this.flush();
	}
	flush(): void {
		if (this.timer !== null) {
			clearTimeout(this.timer);
			this.timer = null;
		}
		if (this.pending === '') return;
		const text = this.pending;
		this.pending = '';
		// Most writes take the whole text: it goes as a string (no Buffer made for it); what a
		// partial write or a full pipe leaves is written from bytes below.
		let bytes: Buffer;
		try {
			const written = writeSync(2, text);
			if (written === Buffer.byteLength(text)) return;
			bytes = Buffer.from(text).subarray(written);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
			bytes = Buffer.from(text);
		}
		for (let tries = 0; bytes.length > 0 && tries < 1000; tries++) {
			try {
				bytes = bytes.subarray(writeSync(2, bytes));
			} catch (error) {
				// A non-blocking pipe that is full: wait a millisecond and try again; anything else
				// (stderr closed) drops the lines, as a log must never stop the server.
				if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
				Atomics.wait(SLEEP, 0, 0, 1);
			}
		}
	}
}
const FLUSH_BYTES = 8192;
const FLUSH_MS = 25;
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

let stderr: StandardError | null = null;
function standardError(): StandardError {
	return (stderr ??= new StandardError());
}

/**
 * A logger writing entries at or above `level` in `format` to `write` (standard error by default).
 * @param write receives whole lines, each ending in a newline
 */
export function createLogger(level: LogLevel = 'info', write?: (line: string) => void, format: LogFormat = 'logfmt'): Logger {
	const out = write ? { write, writeNow: write, flush() {} } : standardError();
	const threshold = ORDER[level];
	if (format === 'json') {
		// Loaded only for the json format: most servers never parse it.
		const pino = require('pino') as typeof Pino;
		const json = pino(
			{
				level,
				base: null,
				messageKey: 'msg',
				timestamp: () => `,"time":"${isoNow()}"`,
				formatters: { level: (label) => ({ level: label }) },
			},
			out as Pino.DestinationStream,
		);
		const emit = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
			if (ORDER[at] < threshold) return;
			const safe: Record<string, unknown> = {};
			if (fields) {
				for (const key in fields) {
					const value = fields[key];
					if (value !== undefined) safe[key] = safeValue(key, value, true);
				}
			}
			json[at](safe, scrub(message));
			// Warnings and errors are out at once (with what was gathered before them).
			if (ORDER[at] >= ORDER.warn) out.flush();
		};
		return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
	}
	const emit = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
		if (ORDER[at] < threshold) return;
		const line = logfmtLine(isoNow(), at, message, fields);
		if (ORDER[at] >= ORDER.warn) out.writeNow(line);
		else out.write(line);
	};
	const infoLogfmt = (message: string, fields: string) => {
		if (ORDER.info < threshold) return;
		out.write(`time=${isoNow()} level=info msg=${logfmtValue(scrub(message))}${fields}\n`);
	};
	return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error'), infoLogfmt };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
