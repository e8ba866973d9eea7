/**
 * Git's smart HTTP protocol (https://git-scm.com/docs/http-protocol) at the web origin, outside
 * /api/v3, both directions:
 *
 *   GET  /{owner}/{repo}[.git]/info/refs?service=git-upload-pack    clone/fetch: v0 refs, or v2 capabilities
 *   POST /{owner}/{repo}[.git]/git-upload-pack                      negotiation and the pack (src/api/git/upload-pack.ts)
 *   GET  /{owner}/{repo}[.git]/info/refs?service=git-receive-pack   push: refs and capabilities
 *   POST /{owner}/{repo}[.git]/git-receive-pack                     commands and pack (src/api/git/receive-pack.ts)
 *
 * Protocol v2 is answered when the request says `Git-Protocol: version=2` (git 2.26+ by default).
 *
 * Credentials: a token as the password of HTTP Basic auth (any user name; `x-access-token` as gh
 * and Actions send it), or as the user name with an empty password. Access goes through the same
 * route policy and guard as the REST API (src/http/pipeline.ts admitAs): fetching is reading the
 * repository's contents (GET /repos/{owner}/{repo}/contents: public repositories anonymously), pushing
 * is writing them (push access to a repository that is not archived; a classic token with `repo`
 * or `public_repo`, a fine-grained or app token with contents: write). Refusals are what git shows:
 * 401 with `WWW-Authenticate: Basic` when credentials are missing (git asks for them), 404 for a
 * repository the caller may not see, 403 with a readable line (git prints it as `remote:`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeSegment, plainText } from '../../http/plain';
import { createGunzip } from 'node:zlib';
import type { App } from '../../app';
import type { RepoAccess } from '../../auth/access/types';
import type { Principal } from '../../auth/principal';
import { recordOf } from '../../http/access';
import { httpErrorOf } from '../../http/errors';
import { DEFAULT_API_VERSION } from '../../http/negotiation';
import { admitAs } from '../../http/pipeline';
import { policy } from '../../http/policy';
import type { Context, Route } from '../../http/route';
import { DomainError } from '../../model/errors';
import { epochSeconds } from '../../time';
import { parsePktLines } from './pktline';
import { advertiseReceivePack, type Pusher, receivePack } from './receive-pack';
import { advertiseV0, advertiseV2, uploadPackV0, uploadPackV2 } from './upload-pack';

/** The paths served here: owner, repository (with or without .git) and the service path. */
const GIT_PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/** Largest upload-pack request body (wants and haves), bytes after gunzip. */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/** The route policy and guard of fetching: reading a repository's contents. */
const FETCH: Route = policy({
	method: 'GET',
	path: '/{owner}/{repo}/git-upload-pack',
	docs: 'repos/contents#get-repository-content',
	permissions: [{ contents: 'read' }],
	access: 'public',
	resource: { repo: 'read' },
});

/** The route policy and guard of pushing: writing a repository's contents. */
const PUSH: Route = policy({
	method: 'POST',
	path: '/{owner}/{repo}/git-receive-pack',
	docs: 'repos/contents#create-or-update-file-contents',
	permissions: [{ contents: 'write' }],
	scopes: ['repo', 'public_repo'],
	access: 'authenticated',
	resource: { repo: 'push' },
});

/** True when `path` (without its query) is one of git's HTTP paths. */
export function isGitPath(path: string): boolean {
	return GIT_PATH.test(path);
}

/** git's plain-text refusals, never cached (git prints them to the person running it). */
function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
	plainText(res, status, text, { ...headers, 'Cache-Control': 'no-cache' });
}

/** True when the request asks for protocol v2 (`Git-Protocol: version=2`, parameters separated by ':'). */
function wantsV2(req: IncomingMessage): boolean {
	const header = req.headers['git-protocol'];
	const value = Array.isArray(header) ? header.join(':') : (header ?? '');
	return value.split(':').includes('version=2');
}

/** Why a token may not change workflow files (GitHub's sentence), or null when it may. */
function workflowRefusal(principal: Principal): ((path: string) => string) | null {
	if (principal.kind === 'classic' || principal.kind === 'oauth') {
		if (principal.scopes.has('workflow')) return null;
		const who = principal.kind === 'oauth' ? 'an OAuth App' : 'a Personal Access Token';
		return (path) => `refusing to allow ${who} to create or update workflow \`${path}\` without \`workflow\` scope`;
	}
	if (principal.kind === 'fine-grained' || principal.kind === 'installation' || principal.kind === 'user-to-server') {
		if (principal.permissions.workflows === 'write') return null;
		const who = principal.kind === 'fine-grained' ? 'a Personal Access Token' : 'a GitHub App';
		return (path) => `refusing to allow ${who} to create or update workflow \`${path}\` without \`workflows\` permission`;
	}
	return null;
}

/**
 * Authenticates the request and checks the route policy and guard of `route` for the repository.
 * Answers the refusal itself.
 * @returns the repository with the caller's permission and the principal, or null when an answer was sent
 */
function authorize(
	app: App,
	req: IncomingMessage,
	res: ServerResponse,
	route: Route,
	params: { owner: string; repo: string; rest: string; search: string },
	ip: string,
	headers: Record<string, string>,
): { access: RepoAccess; principal: Principal } | null {
	const challenge = { ...headers, 'WWW-Authenticate': 'Basic realm="Gitstead"' };
	const now = app.clock();
	let principal: Principal;
	try {
		app.externalChanges.checkAtMostEvery(1);
		principal = app.authenticator.authenticate(req.headers, ip, epochSeconds(now));
	} catch (error) {
		// Bad credentials (a token that authenticates no one): the challenge, so git asks again.
		if (!(error instanceof DomainError && error.code === 'Unauthenticated')) throw error;
		plain(res, 401, 'Invalid username or token. Password authentication is not supported for Git operations.\n', challenge);
		return null;
	}
	const record = recordOf(req);
	if (record) record.principal = principal;
	const parent = {
		app,
		req,
		now,
		requestId: headers['X-GitHub-Request-Id'] ?? '',
		ip,
		apiVersion: DEFAULT_API_VERSION,
		media: null,
		principal,
	} as unknown as Context;
	try {
		const admitted = admitAs(parent, route, { owner: params.owner, repo: params.repo });
		return { access: admitted.repo as RepoAccess, principal };
	} catch (caught) {
		// The policy's or guard's refusal: the domain's (401, 404, 403) or HTTP's (a rename's 301/307).
		const error = httpErrorOf(caught);
		if (!error) throw caught;
		const anonymous = principal.kind === 'anonymous';
		if (error.status === 401 || (error.status === 404 && anonymous)) {
			plain(res, 401, 'Authentication required.\n', challenge);
		} else if (error.status === 301 || error.status === 307) {
			// A renamed or transferred repository: git follows the redirect to its new address.
			const moved = /\/repos\/([^/]+)\/([^/?]+)/.exec(String(error.extra?.url ?? ''));
			const location = moved ? app.urls.html(`/${moved[1]}/${moved[2]}.git/${params.rest}${params.search}`) : null;
			if (location) {
				res.writeHead(error.status, { ...headers, Location: location, 'Content-Length': '0' });
				res.end();
			} else plain(res, 404, 'Repository not found.\n', headers);
		} else if (error.status === 404) {
			plain(res, 404, 'Repository not found.\n', headers);
		} else if (route === PUSH && /archived/i.test(error.message)) {
			plain(res, 403, 'This repository was archived so it is read-only.\n', headers);
		} else if (route === PUSH && principal.kind !== 'classic' && principal.kind !== 'oauth') {
			plain(res, 403, 'Write access to repository not granted.\n', headers);
		} else if (route === PUSH) {
			const who = principal.user?.login ?? 'this token';
			plain(res, 403, `Permission to ${params.owner}/${params.repo}.git denied to ${who}.\n`, headers);
		} else {
			plain(res, 403, `${error.message}\n`, headers);
		}
		return null;
	}
}

/**
 * Answers git's HTTP paths.
 * @param path the request path without its query
 * @param query the parsed query (service)
 * @param ip the client's address (for the anonymous principal)
 * @param headers headers every answer carries (request id)
 * @returns false when the path is not one of git's (the caller goes on)
 */
export function serveGitHttp(
	app: App,
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	query: Record<string, unknown>,
	ip: string,
	headers: Record<string, string>,
): boolean {
	const match = GIT_PATH.exec(path);
	if (!match) return false;
	const owner = decodeSegment(match[1]);
	const name = decodeSegment(match[2]);
	const service = match[3] === 'info/refs' ? query.service : match[3];
	const get = req.method === 'GET' || req.method === 'HEAD';
	if (owner === null || name === null || (match[3] === 'info/refs') !== get || (!get && req.method !== 'POST')) {
		req.resume();
		plain(res, 404, 'Not Found\n', headers);
		return true;
	}
	if (service !== 'git-upload-pack' && service !== 'git-receive-pack') {
		req.resume();
		plain(res, 403, "Gitstead serves git's smart HTTP protocol only (git 1.6.6 or later).\n", headers);
		return true;
	}
	const search = typeof query.service === 'string' ? `?service=${query.service}` : '';
	const params = { owner, repo: name, rest: match[3], search };
	const pushing = service === 'git-receive-pack';
	const granted = authorize(app, req, res, pushing ? PUSH : FETCH, params, ip, headers);
	if (!granted) {
		req.resume();
		return true;
	}
	const repo = granted.access.repo;
	if (get) {
		const v2 = !pushing && wantsV2(req);
		const body = pushing ? advertiseReceivePack(app, repo) : v2 ? advertiseV2() : advertiseV0(app, repo);
		res.writeHead(200, {
			...headers,
			'Content-Type': `application/x-${service}-advertisement`,
			'Cache-Control': 'no-cache',
			'Content-Length': String(body.length),
		});
		res.end(req.method === 'HEAD' ? undefined : body);
		return true;
	}
	if (req.headers['content-type'] !== `application/x-${service}-request`) {
		req.resume();
		plain(res, 415, `Expected Content-Type application/x-${service}-request.\n`, headers);
		return true;
	}
	const failed = (error: unknown) => {
		app.log.error('git request failed', { error });
		if (!res.headersSent) plain(res, 500, 'Internal error.\n', headers);
		else res.destroy();
	};
	if (pushing) {
		const pusher: Pusher = {
			actorId: granted.principal.actorId,
			admin: granted.access.permission === 'admin',
			workflowRefusal: workflowRefusal(granted.principal),
		};
		receivePack(app, repo, pusher, req, res, headers).catch(failed);
		return true;
	}
	const v2 = wantsV2(req);
	readBody(req, (error, body) => {
		if (error || !body) {
			const tooLarge = error === 'too-large';
			return plain(res, tooLarge ? 413 : 400, tooLarge ? 'Negotiation request too large.\n' : 'Unreadable request body.\n', headers);
		}
		let lines: Array<string | null>;
		try {
			lines = parsePktLines(body);
		} catch {
			return plain(res, 400, 'Malformed pkt-line.\n', headers);
		}
		(v2 ? uploadPackV2 : uploadPackV0)(app, repo, lines, res, headers).catch(failed);
	});
	return true;
}

/** Reads the POST body (gunzipped when Content-Encoding: gzip), at most MAX_REQUEST_BYTES. */
function readBody(req: IncomingMessage, done: (error: string | null, body?: Buffer) => void): void {
	const encoding = req.headers['content-encoding'];
	const source = encoding === 'gzip' || encoding === 'x-gzip' ? req.pipe(createGunzip()) : req;
	const chunks: Buffer[] = [];
	let size = 0;
	let finished = false;
	const finish = (error: string | null, body?: Buffer) => {
		if (finished) return;
		finished = true;
		done(error, body);
	};
	source.on('data', (chunk: Buffer) => {
		size += chunk.length;
		if (size > MAX_REQUEST_BYTES) {
			source.destroy();
			req.resume();
			return finish('too-large');
		}
		chunks.push(chunk);
	});
	source.on('end', () => finish(null, Buffer.concat(chunks)));
	source.on('error', () => finish('unreadable'));
}
