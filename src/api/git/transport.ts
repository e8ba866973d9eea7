/**
 * Git's smart HTTP protocol, read side (git-upload-pack, protocol v0/v1: what git speaks over HTTP
 * when the server does not offer v2), at the web origin outside /api/v3:
 *
 *   GET  /{owner}/{repo}[.git]/info/refs?service=git-upload-pack   the ref advertisement
 *   POST /{owner}/{repo}[.git]/git-upload-pack                     negotiation and the packfile
 *   …/info/refs?service=git-receive-pack, POST …/git-receive-pack   403: pushing is not served
 *
 * Advertised: HEAD (symref to the default branch), refs/heads/*, refs/tags/* (with peeled `^{}`
 * lines for annotated tags) and refs/pull/{number}/head of every pull request. Capabilities:
 * multi_ack_detailed, side-band-64k, side-band, ofs-delta, thin-pack, no-progress, symref, agent.
 * Not served: shallow clones (deepen), protocol v2, filters, the dumb protocol, push.
 *
 * Access follows GET /repos/{owner}/{repo}: public repositories are read anonymously; others need
 * a token as the password of HTTP Basic auth (any user name; `x-access-token` as gh and Actions
 * send it), checked by callerRepoPermission. No access: 401 with `WWW-Authenticate: Basic` when the
 * request carried no credentials (so git asks for them), 404 otherwise.
 *
 * The pack holds every object reachable from the wants and not from the common haves (the trees
 * of common commits are walked so their objects are left out), undeltified, each zlib-deflated;
 * it is written object by object with the connection's backpressure, never built in memory.
 * A pack over storage.max_pack_bytes (uncompressed) is refused with a git error line.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGunzip, deflateSync } from 'node:zlib';
import type { App } from '../../app';
import { callerRepoPermission } from '../../auth/access/repos';
import type { Principal } from '../../auth/principal';
import { version } from '../../build-info';
import { recordOf } from '../../http/access';
import { HttpError } from '../../http/errors';
import { epochSeconds } from '../../time';
import type { RepositoryRow } from '../repos/store';
import type { AccountRow } from '../users/store';
import { FULL_SHA, parseCommit, parseTag, parseTree, type ObjectType } from './objects';

/** The paths served here: owner, repository (with or without .git) and the service path. */
const GIT_PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/** Largest negotiation request body (wants and haves), bytes after gunzip. */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** Most objects one pack may hold. */
export const MAX_PACK_OBJECTS = 2_000_000;
/** Largest side-band-64k packet payload: 65520 bytes minus the length and the band byte. */
const BAND_DATA = 65515;
/** side-band (not 64k): 1000-byte packets. */
const SMALL_BAND_DATA = 995;

const ZERO_ID = '0'.repeat(40);
const CAPABILITIES = ['multi_ack_detailed', 'side-band-64k', 'side-band', 'ofs-delta', 'thin-pack', 'no-progress'];
const PACK_TYPES: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };

/** True when `path` (without its query) is one of git's HTTP paths. */
export function isGitPath(path: string): boolean {
	return GIT_PATH.test(path);
}

/** One pkt-line: 4 hex digits of length (itself included), then the data. */
export function pktLine(data: string | Buffer): Buffer {
	const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
	return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0'), 'ascii'), body]);
}
const FLUSH = Buffer.from('0000', 'ascii');

/**
 * Parses pkt-lines. @returns the lines' text (newline removed), null for each flush
 * @throws Error on a malformed length
 */
export function parsePktLines(buffer: Buffer): Array<string | null> {
	const lines: Array<string | null> = [];
	let at = 0;
	while (at < buffer.length) {
		if (at + 4 > buffer.length) throw new Error('truncated pkt-line');
		const hex = buffer.toString('ascii', at, at + 4);
		if (!/^[0-9a-f]{4}$/i.test(hex)) throw new Error('bad pkt-line length');
		const length = parseInt(hex, 16);
		if (length === 0) {
			lines.push(null);
			at += 4;
			continue;
		}
		if (length < 4 || at + length > buffer.length) throw new Error('bad pkt-line length');
		lines.push(buffer.toString('utf8', at + 4, at + length).replace(/\n$/, ''));
		at += length;
	}
	return lines;
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
	res.writeHead(status, {
		...headers,
		'Content-Type': 'text/plain; charset=utf-8',
		'Content-Length': String(Buffer.byteLength(text)),
		'Cache-Control': 'no-cache',
	});
	res.end(text);
}

function decode(segment: string): string | null {
	try {
		return decodeURIComponent(segment);
	} catch {
		return null;
	}
}

/** Whether a token may read the repository's contents (fine-grained and app tokens need `contents`). */
function readsContents(principal: Principal): boolean {
	if (principal.kind === 'fine-grained' || principal.kind === 'installation' || principal.kind === 'user-to-server')
		return principal.permissions.contents !== undefined;
	return true;
}

/**
 * Finds the repository and checks the caller may read it; answers the refusal itself.
 * @returns the repository, or null when an answer was sent
 */
function authorize(
	app: App,
	req: IncomingMessage,
	res: ServerResponse,
	owner: string,
	name: string,
	ip: string,
	headers: Record<string, string>,
): { repo: RepositoryRow; owner: AccountRow; principal: Principal } | null {
	const challenge = { ...headers, 'WWW-Authenticate': 'Basic realm="Gitstead"' };
	let principal: Principal;
	try {
		principal = app.authenticator.authenticate(req.headers, ip, epochSeconds(app.clock()));
	} catch (error) {
		if (!(error instanceof HttpError)) throw error;
		plain(
			res,
			401,
			'Invalid username or token. Password authentication is not supported for Git operations; use a token.\n',
			challenge,
		);
		return null;
	}
	const record = recordOf(req);
	if (record) record.principal = principal;
	const account = app.stores.accounts.byLogin(owner);
	const repo = account ? app.stores.repos.byOwnerAndName(account.id, name) : undefined;
	let permission = null;
	if (account && repo) {
		const viewer = { app, principal, publicView: !readsContents(principal), route: { acceptedScopes: [] } };
		permission = callerRepoPermission(viewer, repo, account);
	}
	if (!account || !repo || permission === null) {
		if (principal.kind === 'anonymous') plain(res, 401, 'Authentication required.\n', challenge);
		else plain(res, 404, 'Repository not found.\n', headers);
		return null;
	}
	return { repo, owner: account, principal };
}

/**
 * Answers git's HTTP paths (GET info/refs, POST git-upload-pack, and the refused receive-pack).
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
	const owner = decode(match[1]);
	const name = decode(match[2]);
	const service = match[3] === 'info/refs' ? query.service : match[3];
	const get = req.method === 'GET' || req.method === 'HEAD';
	if (owner === null || name === null || (match[3] === 'info/refs') !== get || (!get && req.method !== 'POST')) {
		req.resume();
		plain(res, 404, 'Not Found\n', headers);
		return true;
	}
	if (service === 'git-receive-pack') {
		req.resume();
		plain(
			res,
			403,
			'Gitstead does not accept pushes over git; change repositories through the REST API (contents, git data).\n',
			headers,
		);
		return true;
	}
	if (service !== 'git-upload-pack') {
		req.resume();
		plain(res, 403, "Gitstead serves git's smart HTTP protocol only (git 1.6.6 or later).\n", headers);
		return true;
	}
	const access = authorize(app, req, res, owner, name, ip, headers);
	if (!access) {
		req.resume();
		return true;
	}
	if (get) {
		const body = advertisement(app, access.repo);
		res.writeHead(200, {
			...headers,
			'Content-Type': 'application/x-git-upload-pack-advertisement',
			'Cache-Control': 'no-cache',
			'Content-Length': String(body.length),
		});
		res.end(req.method === 'HEAD' ? undefined : body);
		return true;
	}
	if (req.headers['content-type'] !== 'application/x-git-upload-pack-request') {
		req.resume();
		plain(res, 415, 'Expected Content-Type application/x-git-upload-pack-request.\n', headers);
		return true;
	}
	readBody(req, (error, body) => {
		if (error || !body)
			return plain(
				res,
				error === 'too-large' ? 413 : 400,
				error === 'too-large' ? 'Negotiation request too large.\n' : 'Unreadable request body.\n',
				headers,
			);
		let lines: Array<string | null>;
		try {
			lines = parsePktLines(body);
		} catch {
			return plain(res, 400, 'Malformed pkt-line.\n', headers);
		}
		uploadPack(app, access.repo.id, lines, res, headers);
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

/** The ref advertisement of info/refs?service=git-upload-pack. */
export function advertisement(app: App, repo: RepositoryRow): Buffer {
	const store = app.stores.git;
	const refs: Array<{ name: string; sha: string }> = [];
	const rows = store.advertisedRefs(repo.id);
	const head = rows.find((row) => row.name === `refs/heads/${repo.default_branch}`);
	if (head) refs.push({ name: 'HEAD', sha: head.sha });
	for (const row of rows) {
		refs.push({ name: row.name, sha: row.sha });
		if (row.type === 'tag') {
			const peeled = peelTag(app, repo.id, row.sha);
			if (peeled) refs.push({ name: `${row.name}^{}`, sha: peeled });
		}
	}
	for (const pull of store.pullHeads(repo.id)) refs.push({ name: `refs/pull/${pull.number}/head`, sha: pull.sha });
	const capabilities = [
		...CAPABILITIES,
		...(head ? [`symref=HEAD:refs/heads/${repo.default_branch}`] : []),
		`agent=gitstead/${version}`,
	].join(' ');
	const parts = [pktLine('# service=git-upload-pack\n'), FLUSH];
	if (refs.length === 0) parts.push(pktLine(`${ZERO_ID} capabilities^{}\0${capabilities}\n`));
	refs.forEach((ref, index) => {
		parts.push(pktLine(index === 0 ? `${ref.sha} ${ref.name}\0${capabilities}\n` : `${ref.sha} ${ref.name}\n`));
	});
	parts.push(FLUSH);
	return Buffer.concat(parts);
}

/** The object an annotated tag finally points to (through tags of tags), or null. */
function peelTag(app: App, repoId: number, sha: string): string | null {
	for (let depth = 0; depth < 16; depth++) {
		const row = app.stores.git.object(repoId, sha);
		if (!row) return null;
		if (row.type !== 'tag') return sha;
		sha = parseTag(row.content).object;
	}
	return null;
}

/** What the client asked for in one upload-pack request. */
interface Negotiation {
	wants: string[];
	haves: string[];
	capabilities: Set<string>;
	done: boolean;
	error: string | null;
}

function readNegotiation(lines: Array<string | null>): Negotiation {
	const request: Negotiation = { wants: [], haves: [], capabilities: new Set(), done: false, error: null };
	for (const line of lines) {
		if (line === null) continue;
		const [verb, id, ...rest] = line.split(' ');
		if (verb === 'want') {
			if (!FULL_SHA.test(id ?? '')) return { ...request, error: `protocol error: bad want '${line}'` };
			if (request.wants.length === 0) for (const capability of rest) request.capabilities.add(capability);
			request.wants.push(id);
		} else if (verb === 'have') {
			if (!FULL_SHA.test(id ?? '')) return { ...request, error: `protocol error: bad have '${line}'` };
			request.haves.push(id);
		} else if (line === 'done') {
			request.done = true;
		} else if (verb === 'shallow' || verb === 'deepen' || verb === 'deepen-since' || verb === 'deepen-not' || verb === 'filter') {
			return { ...request, error: 'Gitstead does not serve shallow or partial clones; clone without --depth or --filter.' };
		} else {
			return { ...request, error: `protocol error: unexpected '${line.slice(0, 80)}'` };
		}
	}
	return request;
}

/** Answers one upload-pack request (stateless: each request carries the wants and the common haves again). */
function uploadPack(app: App, repoId: number, lines: Array<string | null>, res: ServerResponse, headers: Record<string, string>): void {
	const request = readNegotiation(lines);
	const send = (body: Buffer) => {
		res.writeHead(200, { ...headers, 'Content-Type': 'application/x-git-upload-pack-result', 'Cache-Control': 'no-cache' });
		res.end(body);
	};
	if (request.error) return send(pktLine(`ERR ${request.error}\n`));
	if (request.wants.length === 0) return send(Buffer.alloc(0));
	const store = app.stores.git;
	const known = new Set(store.metas(repoId, request.wants).map((meta) => meta.sha));
	const missing = request.wants.find((want) => !known.has(want));
	if (missing) return send(pktLine(`ERR upload-pack: not our ref ${missing}\n`));
	// Haves the repository holds (as commits) are common: the client has them and all they reach.
	const commitHaves = request.haves.length
		? new Set(
				store
					.metas(repoId, request.haves)
					.filter((meta) => meta.type === 'commit')
					.map((meta) => meta.sha),
			)
		: new Set<string>();
	const common = request.haves.filter((have) => commitHaves.has(have));
	const out: Buffer[] = [];
	if (!request.done) {
		for (const sha of common) out.push(pktLine(`ACK ${sha} common\n`));
		out.push(pktLine('NAK\n'));
		return send(Buffer.concat(out));
	}
	out.push(pktLine(common.length ? `ACK ${common[common.length - 1]}\n` : 'NAK\n'));
	const band = request.capabilities.has('side-band-64k') ? BAND_DATA : request.capabilities.has('side-band') ? SMALL_BAND_DATA : 0;
	// A refusal once the pack is due: on band 3 (git prints "remote error: …"), or as an ERR line.
	const fatal = (message: string) =>
		send(
			Buffer.concat([
				...out,
				band ? pktLine(Buffer.concat([Buffer.from([3]), Buffer.from(`${message}\n`)])) : pktLine(`ERR ${message}\n`),
			]),
		);
	let objects: Array<{ sha: string; type: ObjectType }>;
	try {
		objects = enumerate(app, repoId, request.wants, common);
	} catch (error) {
		if (!(error instanceof PackTooLarge)) throw error;
		return fatal(error.message);
	}
	let total = 0;
	for (let at = 0; at < objects.length; at += 10_000) {
		for (const meta of store.metas(
			repoId,
			objects.slice(at, at + 10_000).map((object) => object.sha),
		))
			total += meta.size;
	}
	if (total > app.config.storage.max_pack_bytes) {
		return fatal(
			`The pack would hold ${total} bytes of objects, more than this server sends at once (storage.max_pack_bytes = ${app.config.storage.max_pack_bytes}).`,
		);
	}
	res.writeHead(200, { ...headers, 'Content-Type': 'application/x-git-upload-pack-result', 'Cache-Control': 'no-cache' });
	res.write(Buffer.concat(out));
	streamPack(app, repoId, objects, res, band, !request.capabilities.has('no-progress'));
}

class PackTooLarge extends Error {}

/**
 * The objects to send: everything reachable from `wants` and not from `common` (commits through
 * the commit graph, trees and blobs of common commits walked and left out). Gitlinks are skipped.
 * @throws PackTooLarge over MAX_PACK_OBJECTS
 */
function enumerate(app: App, repoId: number, wants: string[], common: string[]): Array<{ sha: string; type: ObjectType }> {
	const store = app.stores.git;
	const excludedCommits = new Set<string>();
	for (const sha of common) for (const ancestor of store.ancestors(repoId, sha)) excludedCommits.add(ancestor);
	// Trees and blobs of the common commits: the client has them.
	const seen = new Set<string>();
	const walkTree = (root: string, collect: Array<{ sha: string; type: ObjectType }> | null) => {
		const stack = [root];
		if (seen.has(root)) return;
		seen.add(root);
		collect?.push({ sha: root, type: 'tree' });
		while (stack.length) {
			const row = store.object(repoId, stack.pop()!);
			if (!row || row.type !== 'tree') continue;
			for (const entry of parseTree(row.content)) {
				if (entry.mode === '160000' || seen.has(entry.sha)) continue;
				seen.add(entry.sha);
				if (entry.mode === '040000') {
					stack.push(entry.sha);
					collect?.push({ sha: entry.sha, type: 'tree' });
				} else collect?.push({ sha: entry.sha, type: 'blob' });
			}
			if (collect && collect.length > MAX_PACK_OBJECTS)
				throw new PackTooLarge(`The pack would hold more than ${MAX_PACK_OBJECTS} objects.`);
		}
	};
	for (const sha of common) {
		const row = store.object(repoId, sha);
		if (row?.type === 'commit') walkTree(parseCommit(row.content).tree, null);
	}
	const objects: Array<{ sha: string; type: ObjectType }> = [];
	const commits: string[] = [];
	const taken = new Set<string>();
	for (const want of wants) {
		let sha: string | null = want;
		// Tags (of tags) down to what they point at.
		for (let depth = 0; sha && depth < 16; depth++) {
			if (taken.has(sha) || excludedCommits.has(sha) || seen.has(sha)) break;
			const row = store.object(repoId, sha);
			if (!row) break;
			taken.add(sha);
			if (row.type === 'tag') {
				objects.push({ sha, type: 'tag' });
				sha = parseTag(row.content).object;
				continue;
			}
			if (row.type === 'commit') commits.push(sha);
			else if (row.type === 'tree') {
				taken.delete(sha);
				walkTree(sha, objects);
			} else {
				seen.add(sha);
				objects.push({ sha, type: 'blob' });
			}
			break;
		}
	}
	const included = new Set<string>();
	for (const tip of commits) {
		for (const sha of store.ancestors(repoId, tip)) {
			if (excludedCommits.has(sha) || included.has(sha)) continue;
			included.add(sha);
			if (included.size > MAX_PACK_OBJECTS) throw new PackTooLarge(`The pack would hold more than ${MAX_PACK_OBJECTS} objects.`);
		}
	}
	for (const sha of included) {
		const row = store.object(repoId, sha);
		if (!row) continue;
		objects.push({ sha, type: 'commit' });
		walkTree(parseCommit(row.content).tree, objects);
	}
	return objects;
}

/** Packfile object header: type and size, 4 bits then 7 bits a byte, least significant first. */
function objectHeader(type: ObjectType, size: number): Buffer {
	const bytes: number[] = [];
	let byte = (PACK_TYPES[type] << 4) | (size & 0x0f);
	let rest = Math.floor(size / 16);
	while (rest > 0) {
		bytes.push(byte | 0x80);
		byte = rest & 0x7f;
		rest = Math.floor(rest / 128);
	}
	bytes.push(byte);
	return Buffer.from(bytes);
}

/**
 * Writes the packfile (version 2, undeltified objects, SHA-1 trailer), in side-band packets of
 * `band` bytes (0: raw), waiting for 'drain' when the connection's buffer is full. A repository
 * changed under the stream (an object gone) cuts the connection: git sees a truncated pack.
 */
function streamPack(
	app: App,
	repoId: number,
	objects: Array<{ sha: string; type: ObjectType }>,
	res: ServerResponse,
	band: number,
	progress: boolean,
): void {
	const hash = createHash('sha1');
	const emit = (data: Buffer): boolean => {
		if (band === 0) return res.write(data);
		let ok = true;
		for (let at = 0; at < data.length; at += band)
			ok = res.write(pktLine(Buffer.concat([Buffer.from([1]), data.subarray(at, at + band)]))) && ok;
		return ok;
	};
	const header = Buffer.alloc(12);
	header.write('PACK', 0, 'ascii');
	header.writeUInt32BE(2, 4);
	header.writeUInt32BE(objects.length, 8);
	hash.update(header);
	emit(header);
	if (band && progress)
		res.write(pktLine(Buffer.concat([Buffer.from([2]), Buffer.from(`Gitstead: sending ${objects.length} objects\n`)])));
	let index = 0;
	const pump = () => {
		while (index < objects.length) {
			if (res.destroyed) return;
			const { sha, type } = objects[index++];
			const row = app.stores.git.object(repoId, sha);
			if (!row) {
				res.destroy();
				return;
			}
			const entry = Buffer.concat([objectHeader(type, row.content.length), deflateSync(row.content)]);
			hash.update(entry);
			if (!emit(entry)) {
				res.once('drain', pump);
				return;
			}
		}
		emit(hash.digest());
		if (band) res.write(FLUSH);
		res.end();
	};
	pump();
}
