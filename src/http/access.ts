/**
 * One record per request, from its headers to the end of its response: the request id (the
 * X-GitHub-Request-Id of the answer), the client address, the route template the pipeline
 * matched, the principal it authenticated, and, once the response is over, status, duration and
 * bytes. The server creates it first thing (src/server.ts) and hands it, once, to one function
 * when the response closes (the access log; metrics): no closure is made per request, the record
 * is the only object.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Principal } from '../auth/principal';
import { logfmtField, type Logger } from '../log';

const RECORD = Symbol('gitstead.request');

/** Route names of answers that are not API routes (RequestRecord.route). */
export const WEB_ROUTES = {
	/** No route answered: 404, and requests refused before routing (413, 414, 431). */
	unmatched: 'unmatched',
	/** A request Node's parser refused (400, 408, 414, 431 from clientError): no method or path known. */
	unparsed: 'unparsed',
	preflight: 'preflight',
	avatar: 'web:avatar',
	codeload: 'web:codeload',
	raw: 'web:raw',
	/** Git's smart HTTP protocol (clone and fetch): src/api/git/transport.ts. */
	git: 'web:git',
	feed: 'web:feed',
	/** A user's public keys, /{login}.keys and /{login}.gpg: src/api/keys/web.ts. */
	keys: 'web:keys',
	openapi: '/openapi.json',
} as const;

export type FinishHook = (record: RequestRecord) => void;

/** What is known of one request; filled in as it goes through the server and the pipeline. */
export class RequestRecord {
	/** Route template (`/repos/{owner}/{repo}/issues/{issue_number}`) or a WEB_ROUTES name. */
	route: string = WEB_ROUTES.unmatched;
	/** Set by the pipeline once the request is authenticated. */
	principal: Principal | null = null;
	/** The rate-limit resource the request counted against (core, search, …), when counted. */
	rate: string | null = null;
	/** The answer's status; 499 when the connection closed before any answer was sent. */
	status = 0;
	/** Milliseconds from the request's headers to the end of the response. */
	ms = 0;
	/** Bytes written to the connection for this answer: status line, headers and body. */
	bytes = 0;
	/** False when the connection closed before the whole answer was written. */
	completed = true;
	/** performance.now() at the request's start. */
	readonly started = performance.now();
	private readonly startBytes: number;

	constructor(
		/** The X-GitHub-Request-Id of the answer. */
		readonly requestId: string,
		readonly method: string,
		/** The client's address (trusted-proxy aware: src/http/proxy.ts). */
		readonly ip: string,
		/** The response (null for a request Node's parser refused: it has none). */
		readonly response: ServerResponse | null,
		private readonly socket: Socket | null,
		private readonly done: FinishHook,
	) {
		this.startBytes = socket?.bytesWritten ?? 0;
	}

	/** Records the end of the response and calls the finish hook (once). */
	finish(status: number, completed: boolean): void {
		this.ms = performance.now() - this.started;
		this.status = status;
		this.completed = completed;
		if (this.socket) this.bytes = Math.max(0, this.socket.bytesWritten - this.startBytes);
		this.done(this);
	}
}

/** The 'close' listener of every response (one function, `this` is the response). */
function onClose(this: ServerResponse): void {
	const record = (this as ServerResponse & { [RECORD]?: RequestRecord })[RECORD];
	record?.finish(this.headersSent ? this.statusCode : 499, this.writableFinished);
}

/** An incoming X-Request-Id worth adopting: 1 to 128 letters, digits and `.-_:`. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Starts the record of a request and attaches it to `req`; `done` is called with it when the
 * response closes. The request id is an X-Request-Id sent by a trusted proxy (`fromTrustedProxy`)
 * when it is well formed, else a fresh UUID.
 */
export function beginRequest(
	req: IncomingMessage,
	res: ServerResponse,
	ip: string,
	fromTrustedProxy: boolean,
	done: FinishHook,
): RequestRecord {
	const forwarded = fromTrustedProxy ? req.headers['x-request-id'] : undefined;
	const requestId = typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
	const record = new RequestRecord(requestId, req.method ?? '-', ip, res, req.socket, done);
	(req as IncomingMessage & { [RECORD]?: RequestRecord })[RECORD] = record;
	(res as ServerResponse & { [RECORD]?: RequestRecord })[RECORD] = record;
	res.on('close', onClose);
	return record;
}

/** The record of a request started by beginRequest, if any. */
export function recordOf(req: IncomingMessage): RequestRecord | undefined {
	return (req as IncomingMessage & { [RECORD]?: RequestRecord })[RECORD];
}

/** The request id of a request (its record's), or a fresh one for a request without a record. */
export function requestIdOf(req: IncomingMessage): string {
	return recordOf(req)?.requestId ?? randomUUID();
}

/**
 * Writes the access-log line of a finished request: `request` with request_id, ip, method, route
 * (the template, never the raw path or its query), status, ms, bytes, and who asked (auth: the
 * principal's kind, user_id, login, token_id, installation_id; never a credential), rate (the
 * rate-limit resource counted) and aborted=true when the connection closed early.
 */
export function logAccess(log: Logger, record: RequestRecord): void {
	if (log.infoLogfmt) {
		log.infoLogfmt('request', accessFields(record));
		return;
	}
	const principal = record.principal;
	log.info('request', {
		request_id: record.requestId,
		ip: record.ip,
		method: record.method,
		route: record.route,
		status: record.status,
		ms: Math.round(record.ms * 10) / 10,
		bytes: record.bytes,
		auth: principal?.kind,
		user_id: principal?.user?.id,
		login: principal?.user?.login,
		token_id: principal?.tokenId ?? undefined,
		installation_id: principal?.installationId ?? undefined,
		app_id: principal?.appId ?? undefined,
		rate: record.rate ?? undefined,
		aborted: record.completed ? undefined : true,
	});
}

/**
 * The logfmt fields of a caller (auth … app_id), made once per principal (token principals are
 * cached across requests), with the login they were made with (a rename makes them again).
 */
const callerFields = new WeakMap<Principal, { login: string | undefined; fields: string }>();
/** An anonymous caller's fields (anonymous principals are made per request). */
const ANONYMOUS = logfmtField('auth', 'anonymous');
/** The route field of each route template (a bounded set: the route table and WEB_ROUTES). */
const routeFields = new Map<string, string>();

/** The fields of an access-log line in logfmt, in logAccess's order; what repeats from request to request is formatted once. */
function accessFields(record: RequestRecord): string {
	const { principal, route } = record;
	let caller = '';
	if (principal?.kind === 'anonymous') caller = ANONYMOUS;
	else if (principal) {
		const login = principal.user?.login;
		const known = callerFields.get(principal);
		if (known !== undefined && known.login === login) caller = known.fields;
		else {
			caller =
				logfmtField('auth', principal.kind) +
				logfmtField('user_id', principal.user?.id) +
				logfmtField('login', login) +
				logfmtField('token_id', principal.tokenId ?? undefined) +
				logfmtField('installation_id', principal.installationId ?? undefined) +
				logfmtField('app_id', principal.appId ?? undefined);
			callerFields.set(principal, { login, fields: caller });
		}
	}
	let routeField = routeFields.get(route);
	if (routeField === undefined) {
		routeField = logfmtField('route', route);
		if (routeFields.size >= 10_000) routeFields.clear();
		routeFields.set(route, routeField);
	}
	return (
		logfmtField('request_id', record.requestId) +
		logfmtField('ip', record.ip) +
		logfmtField('method', record.method) +
		routeField +
		` status=${record.status} ms=${Math.round(record.ms * 10) / 10} bytes=${record.bytes}` +
		caller +
		(record.rate === null ? '' : logfmtField('rate', record.rate)) +
		(record.completed ? '' : ' aborted=true')
	);
}
