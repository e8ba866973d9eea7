/**
 * Gitstead's own codeload and raw host, served at the web origin outside /api/v3 (as GitHub serves
 * archives at codeload.github.com and files at raw.githubusercontent.com):
 *
 *   /_codeload/{owner}/{repo}/legacy.tar.gz/{sha}?token=T   tarball of a commit (gzip)
 *   /_codeload/{owner}/{repo}/legacy.zip/{sha}?token=T      zipball of a commit
 *   /_raw/{owner}/{repo}/{ref}/{path}?token=T               a file's bytes at a ref (ref percent-encoded as one segment)
 *
 * The API hands these URLs out (…/tarball/{ref} redirects to one; a file's download_url is one)
 * after its own access checks. A repository that is not public needs `token`:
 * `<expiry epoch seconds>.<HMAC-SHA256(installation secret, "<kind>:<repository id>:<subject>:<expiry>")>`,
 * valid for TOKEN_SECONDS and for that one archive or file only, so a leaked URL neither outlives
 * its minutes nor opens anything else. Public repositories need none. A wrong, expired or missing
 * token answers 404, as for a repository that does not exist.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeSegment, plainText } from '../../http/plain';
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { App } from '../../app';
import { randomSecret } from '../../db/settings';
import { epochSeconds } from '../../time';
import { parseCommit } from '../git/objects';
import { resolveCommit } from '../git/service';
import type { RepositoryRow } from '../../model/rows';
import { tarStream, TooManyEntries, zipStream } from './archive';
import { lookupPath } from './paths';
import { encodePath } from './render';

/** Settings key of the secret that signs codeload and raw URLs. */
const SECRET = 'codeload_signing_secret';
/** Lifetime of a signed URL, in seconds (GitHub's codeload tokens last minutes). */
export const TOKEN_SECONDS = 300;

/** What a signed URL opens: an archive, a raw file, or a workflow log (src/api/actions/logs.ts). */
export type Kind = 'tar' | 'zip' | 'raw' | 'log';

/** The signing secret per application (it never changes once made): one settings read per process, not per URL. */
const secrets = new WeakMap<App, string>();

function mac(app: App, kind: Kind, repoId: number, subject: string, expires: number): string {
	let secret = secrets.get(app);
	if (secret === undefined) secrets.set(app, (secret = app.settings.ensure(SECRET, randomSecret)));
	return createHmac('sha256', secret).update(`${kind}:${repoId}:${subject}:${expires}`).digest('hex');
}

/** `?token=…` for a repository that is not public, '' for a public one. @param nowMs epoch milliseconds */
export function tokenQuery(app: App, repo: RepositoryRow, kind: Kind, subject: string, nowMs: number): string {
	if (repo.visibility === 'public') return '';
	const expires = epochSeconds(nowMs) + TOKEN_SECONDS;
	return `?token=${expires}.${mac(app, kind, repo.id, subject, expires)}`;
}

/** True when the repository is public, or `token` signs this archive or file and has not expired. */
export function allowed(app: App, repo: RepositoryRow, kind: Kind, subject: string, token: string | null, nowMs: number): boolean {
	if (repo.visibility === 'public') return true;
	const match = token === null ? null : /^(\d{1,12})\.([0-9a-f]{64})$/.exec(token);
	if (!match) return false;
	const expires = Number(match[1]);
	if (expires < epochSeconds(nowMs)) return false;
	return timingSafeEqual(Buffer.from(match[2]), Buffer.from(mac(app, kind, repo.id, subject, expires)));
}

/**
 * The address of a commit's archive (what …/tarball/{ref} and …/zipball/{ref} redirect to).
 * @param nowMs epoch milliseconds (the token's clock)
 */
export function archiveUrl(app: App, owner: string, repo: RepositoryRow, format: 'tar' | 'zip', sha: string, nowMs: number): string {
	const file = format === 'tar' ? 'legacy.tar.gz' : 'legacy.zip';
	return app.urls.html(
		`/_codeload/${encodeURIComponent(owner)}/${encodeURIComponent(repo.name)}/${file}/${sha}${tokenQuery(app, repo, format, sha, nowMs)}`,
	);
}

/** A file's download_url: its bytes at `ref`. @param nowMs epoch milliseconds (the token's clock) */
export function rawUrl(app: App, owner: string, repo: RepositoryRow, ref: string, path: string, nowMs: number): string {
	const subject = `${ref}\0${path}`;
	return app.urls.html(
		`/_raw/${encodeURIComponent(owner)}/${encodeURIComponent(repo.name)}/${encodeURIComponent(ref)}/${encodePath(path)}${tokenQuery(app, repo, 'raw', subject, nowMs)}`,
	);
}

/**
 * Answers a GET or HEAD of the codeload and raw paths.
 * @param path the request path without its query
 * @param headers headers every answer carries (request id, CORS)
 * @returns false when the path is not one of these (the caller goes on)
 */
export function serveCodeload(
	app: App,
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	token: string | null,
	headers: Record<string, string>,
): boolean {
	const archive = /^\/_codeload\/([^/]+)\/([^/]+)\/legacy\.(tar\.gz|zip)\/([0-9a-f]{40})$/.exec(path);
	const raw = archive ? null : /^\/_raw\/([^/]+)\/([^/]+)\/([^/]+)\/(.+)$/.exec(path);
	if (!archive && !raw) return false;
	const match = (archive ?? raw)!;
	const notFound = () => plainText(res, 404, '404: Not Found', headers);
	const ownerLogin = decodeSegment(match[1]);
	const name = decodeSegment(match[2]);
	const owner = ownerLogin === null ? undefined : app.stores.accounts.byLogin(ownerLogin);
	const repo = owner && name !== null ? app.stores.repos.byOwnerAndName(owner.id, name) : undefined;
	if (!owner || !repo) {
		notFound();
		return true;
	}
	const now = app.clock();
	if (archive) {
		const format = archive[3] === 'zip' ? 'zip' : 'tar';
		const sha = archive[4];
		const meta = app.stores.git.meta(repo.id, sha);
		if (!allowed(app, repo, format, sha, token, now) || meta?.type !== 'commit') {
			notFound();
			return true;
		}
		const commit = parseCommit(app.stores.git.object(repo.id, sha)!.content);
		const top = `${owner.login}-${repo.name}-${sha.slice(0, 7)}`;
		const mtime = new Date(commit.committer.seconds * 1000);
		let body;
		try {
			body =
				format === 'zip'
					? zipStream(app, repo.id, commit.tree, top, mtime)
					: tarStream(app, repo.id, sha, commit.tree, top, mtime).pipe(createGzip());
		} catch (error) {
			if (!(error instanceof TooManyEntries)) throw error;
			plainText(res, 413, 'The repository is too large to archive as a zip; download its tarball instead.', headers);
			return true;
		}
		res.writeHead(200, {
			...headers,
			'Content-Type': format === 'zip' ? 'application/zip' : 'application/x-gzip',
			'Content-Disposition': `attachment; filename=${top}.${format === 'zip' ? 'zip' : 'tar.gz'}`,
			ETag: `"${sha}"`,
		});
		if (req.method === 'HEAD') {
			body.destroy();
			res.end();
			return true;
		}
		// A failure halfway (the repository deleted while streaming) cuts the connection: the client sees a truncated archive, never a wrong one.
		pipeline(body, res, () => undefined);
		return true;
	}
	const ref = decodeSegment(raw![3]);
	const filePath = raw![4].split('/').map(decodeSegment);
	if (ref === null || filePath.some((part) => part === null)) {
		notFound();
		return true;
	}
	const pathText = filePath.join('/');
	const commit = resolveCommit(app, repo, ref);
	const found =
		commit && allowed(app, repo, 'raw', `${ref}\0${pathText}`, token, now)
			? lookupPath(app, repo.id, parseCommit(app.stores.git.object(repo.id, commit)!.content).tree, pathText)
			: null;
	const entry = found && !found.root ? found.entry : null;
	const row = entry && entry.mode !== '040000' && entry.mode !== '160000' ? app.stores.git.object(repo.id, entry.sha) : undefined;
	if (!row || row.type !== 'blob') {
		notFound();
		return true;
	}
	res.writeHead(200, {
		...headers,
		'Content-Type': 'text/plain; charset=utf-8',
		'Content-Length': String(row.content.length),
		ETag: `"${row.sha}"`,
	});
	res.end(req.method === 'HEAD' ? undefined : row.content);
	return true;
}
