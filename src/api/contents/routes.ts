/**
 * GitHub's repository contents API (repos/contents) on the stored git objects: a path's content
 * at a ref (file, folder, symbolic link, submodule), the README, files created, updated and
 * deleted as commits on a branch, and the tarball and zipball of a ref (a redirect to Gitstead's
 * own codeload, src/api/contents/codeload.ts). Reading needs Contents (read) — public repositories
 * anonymously too; writing needs Contents (write) and push access to a writable repository.
 * Paths contain slashes, so the routes end in a wildcard.
 */
import * as v from 'valibot';
import { DomainError, notFound, unprocessable } from '../../model/errors';
import { created, ok, redirect, type Reply } from '../../http/reply';
import { route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { parseCommit, type TreeEntry } from '../git/objects';
import * as gitRender from '../git/render';
import { signatureVerifier } from '../keys/verification';
import { ident, type PersonInput } from '../git/writes';
import { renderBody } from '../../model/markdown/render';
import { archiveUrl, rawUrl } from './codeload';
import { checkWritePath, lookupPath, normalizePath, resolveLink, treeEntries } from './paths';
import * as render from './render';
import { callerPerson, commitFile, findReadme, notSupplied, resolveRef, submoduleUrl, type ResolvedRef } from './service';
import { detectLicense, LICENSE_FILE } from '../../model/licenses';
import { license } from '../../model/render';

const BASE = '/repos/{owner}/{repo}';

const READ = {
	permissions: [{ contents: 'read' as const }],
	access: 'public' as const,
	resource: { repo: 'read' as const },
	errorResource: 'Content',
	query: v.object({ ref: v.optional(v.string()) }),
};
// A public_repo token may write to public repositories; private ones stay invisible to it (404).
const WRITE = {
	permissions: [{ contents: 'write' as const }],
	scopes: ['repo', 'public_repo'],
	access: 'authenticated' as const,
	resource: { repo: 'push' as const },
	errorResource: 'Content',
};

/** Entries a folder listing returns at most (GitHub's limit; the git trees API lists more). */
export const MAX_DIRECTORY_ENTRIES = 1000;

const person = v.object({ name: v.string(), email: v.string(), date: v.optional(v.string()) });
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The view git's renderers take. */
function view(ctx: Context): gitRender.RepoView {
	return { repo: ctx.repo.repo, owner: ctx.repo.owner };
}

/** The wildcard part of the path, without surrounding slashes. */
function pathParam(ctx: Context): string {
	return normalizePath(ctx.params['*'] ?? '');
}

/** Bytes of `content` given as base64 (line breaks allowed). @throws DomainError 422 otherwise */
function decodeContent(content: string): Buffer {
	const compact = content.replace(/\s+/g, '');
	if (!BASE64.test(compact) || compact.length % 4 === 1) throw unprocessable('content is not valid Base64');
	return Buffer.from(compact, 'base64');
}

/** What a reader learns of one tree entry: its kind for the contents API and its size. */
function itemOf(entry: TreeEntry, path: string, size: number): render.ContentItem {
	const type: render.ContentType =
		entry.mode === '040000' ? 'dir' : entry.mode === '160000' ? 'submodule' : entry.mode === '120000' ? 'symlink' : 'file';
	return { type, path, sha: entry.sha, size: type === 'dir' || type === 'submodule' ? 0 : size };
}

/** A folder's entries as a listing shows them (submodules as 'file', GitHub's backward-compatible form). */
function listing(ctx: Context, at: ResolvedRef, treeSha: string, dir: string) {
	const { app } = ctx;
	const repo = view(ctx);
	const entries = treeEntries(app, repo.repo.id, treeSha).slice(0, MAX_DIRECTORY_ENTRIES);
	const blobs = entries.filter((e) => e.mode !== '040000' && e.mode !== '160000').map((e) => e.sha);
	const sizes = new Map(app.stores.git.metas(repo.repo.id, blobs).map((m) => [m.sha, m.size]));
	return entries.map((entry) => {
		const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
		const item = itemOf(entry, path, sizes.get(entry.sha) ?? 0);
		const download =
			item.type === 'file' || item.type === 'symlink' ? rawUrl(app, repo.owner.login, repo.repo, at.ref, path, ctx.now) : null;
		const shown = render.contentEntry(
			app.urls,
			repo,
			at.ref,
			item,
			download,
			item.type === 'submodule' ? submoduleUrl(app, repo.repo.id, at.tree, path) : null,
		);
		return item.type === 'submodule' ? { ...shown, type: 'file' } : shown;
	});
}

/** GitHub's 403 for a blob over 1 MB asked for as JSON. */
function tooLarge(): DomainError {
	return new DomainError(
		'Forbidden',
		'This API returns blobs up to 1 MB in size. The requested blob is too large to fetch via the API, but you can use the Git Data API to request blobs up to 100 MB in size.',
		{ errors: [{ resource: 'Blob', field: 'data', code: 'too_large' }] },
	);
}

/** A file's answer in the media type asked for: raw bytes, rendered HTML, or content-file JSON. */
function fileReply(ctx: Context, at: ResolvedRef, item: render.ContentItem, htmlId: 'readme' | 'file' = 'file'): Reply {
	const repo = view(ctx);
	const content = ctx.app.stores.git.object(repo.repo.id, item.sha)?.content ?? Buffer.alloc(0);
	if (ctx.media === 'raw') return { status: 200, raw: { body: content, contentType: 'application/vnd.github.raw' } };
	if (ctx.media === 'html') {
		if (content.length > render.MAX_JSON_FILE) throw tooLarge();
		return {
			status: 200,
			raw: {
				body: markupHtml(htmlId, item.path, content.toString('utf8')),
				contentType: 'application/vnd.github.html; charset=utf-8',
			},
		};
	}
	if (content.length > render.MAX_JSON_FILE && ctx.media !== 'object') throw tooLarge();
	return ok(
		render.file(ctx.app.urls, repo, at.ref, item, content, rawUrl(ctx.app, repo.owner.login, repo.repo, at.ref, item.path, ctx.now)),
	);
}

/** The content at `path` of the resolved ref, as GET …/contents/{path} answers it. */
function contentReply(ctx: Context, at: ResolvedRef, path: string): Reply {
	const { app } = ctx;
	const repo = view(ctx);
	const found = lookupPath(app, repo.repo.id, at.tree, path);
	if (!found) throw notFound();
	if (found.root || found.entry.mode === '040000') {
		const sha = found.root ? found.sha : found.entry.sha;
		const entries = listing(ctx, at, sha, path);
		if (ctx.media !== 'object') return ok(entries);
		const self = render.contentEntry(app.urls, repo, at.ref, { type: 'dir', path, sha, size: 0 }, null);
		return ok({ ...self, entries });
	}
	const entry = found.entry;
	const size = entry.mode === '160000' ? 0 : (app.stores.git.meta(repo.repo.id, entry.sha)?.size ?? 0);
	const item = itemOf(entry, path, size);
	if (item.type === 'submodule')
		return ok(render.submodule(app.urls, repo, at.ref, item, submoduleUrl(app, repo.repo.id, at.tree, path)));
	if (item.type === 'symlink') {
		const target = app.stores.git.object(repo.repo.id, entry.sha)?.content.toString('utf8') ?? '';
		// A link to a file inside the repository answers with that file, as on GitHub.
		const resolved = resolveLink(path, target);
		const linked = resolved === null || resolved === '' ? null : lookupPath(app, repo.repo.id, at.tree, resolved);
		if (linked && !linked.root && (linked.entry.mode === '100644' || linked.entry.mode === '100755')) {
			const linkedSize = app.stores.git.meta(repo.repo.id, linked.entry.sha)?.size ?? 0;
			return fileReply(ctx, at, itemOf(linked.entry, resolved!, linkedSize));
		}
		if (ctx.media === 'raw') return { status: 200, raw: { body: target, contentType: 'application/vnd.github.raw' } };
		return ok(render.symlink(app.urls, repo, at.ref, item, target, rawUrl(app, repo.owner.login, repo.repo, at.ref, path, ctx.now)));
	}
	return fileReply(ctx, at, item);
}

/**
 * A file as HTML, wrapped as GitHub wraps it (`<div id="readme">` for a README, `<div id="file">`
 * otherwise): Markdown (and a README without extension) rendered by the bounded renderer, other
 * text escaped in a <pre>.
 */
function markupHtml(id: 'readme' | 'file', path: string, source: string): string {
	const name = path.slice(path.lastIndexOf('/') + 1);
	const markdown = /\.(md|markdown|mdown|mkdn|mkd)$/i.test(name) || (id === 'readme' && !name.includes('.'));
	const escape = (text: string) =>
		text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
	const body = markdown ? renderBody(source).html : `<pre>${escape(source)}</pre>`;
	return `<div id="${id}" class="${markdown ? 'md' : 'plain'}" data-path="${escape(path)}"><article class="markdown-body entry-content container-lg" itemprop="text">${body}</article></div>`;
}

/** GET …/readme and …/readme/{dir}. */
function readmeReply(ctx: Context<{ ref?: string }>, dir: string): Reply {
	const repo = view(ctx);
	const at = resolveRef(ctx.app, repo.repo, ctx.query.ref);
	const path = findReadme(ctx.app, repo.repo.id, at.tree, dir);
	if (!path) throw notFound();
	const found = lookupPath(ctx.app, repo.repo.id, at.tree, path);
	if (!found || found.root) throw notFound();
	const size = ctx.app.stores.git.meta(repo.repo.id, found.entry.sha)?.size ?? 0;
	const item = itemOf(found.entry, path, size);
	return fileReply(ctx as Context, at, { ...item, type: 'file' }, 'readme');
}

/**
 * GET …/license: the license file at the root of the ref (LICENSE first, then other names GitHub
 * looks at), as the contents API answers a file, with `license` naming what it is (the key GitHub
 * would detect, or 'other'). 404 when there is none.
 */
function licenseReply(ctx: Context<{ ref?: string }>): Reply {
	const repo = view(ctx);
	const at = resolveRef(ctx.app, repo.repo, ctx.query.ref);
	const candidates = treeEntries(ctx.app, repo.repo.id, at.tree)
		.filter((e) => e.mode !== '040000' && e.mode !== '160000' && LICENSE_FILE.test(e.name))
		.sort((a, b) => licenseRank(a.name) - licenseRank(b.name) || (a.name < b.name ? -1 : 1));
	const entry = candidates[0];
	if (!entry) throw notFound();
	const size = ctx.app.stores.git.meta(repo.repo.id, entry.sha)?.size ?? 0;
	const reply = fileReply(ctx as Context, at, itemOf(entry, entry.name, size));
	if (reply.body === undefined || reply.raw) return reply;
	const text = ctx.app.stores.git.object(repo.repo.id, entry.sha)?.content.toString('utf8') ?? '';
	return ok({ ...(reply.body as object), license: license(ctx.app.urls, detectLicense(text)) });
}

/** LICENSE, then LICENSE.md/.txt, then the other spellings and COPYING. */
function licenseRank(name: string): number {
	const lower = name.toLowerCase();
	return lower === 'license' ? 0 : /^license\.(md|txt|markdown)$/.test(lower) ? 1 : /^licen[cs]e/.test(lower) ? 2 : 3;
}

/** GET …/tarball/{ref} and …/zipball/{ref}: 302 to the archive of the ref's commit. */
function archiveReply(ctx: Context, format: 'tar' | 'zip'): Reply {
	const repo = view(ctx);
	const ref = ctx.params['*'] ?? '';
	const at = resolveRef(ctx.app, repo.repo, ref === '' ? undefined : ref);
	return redirect(archiveUrl(ctx.app, repo.owner.login, repo.repo, format, at.commit, ctx.now));
}

/** Body fields PUT and DELETE share. */
const changeFields = {
	// Required, but checked by the handler: GitHub names a missing field its own way (notSupplied).
	message: v.optional(v.string()),
	branch: v.optional(v.pipe(v.string(), v.minLength(1, "branch can't be blank"))),
	committer: v.optional(person),
	author: v.optional(person),
};

/**
 * A required body field, as GitHub's contents routes check it.
 * @throws DomainError 422 'Invalid request.\n\n"<field>" wasn\'t supplied.' (no errors[], as GitHub answers)
 */
function required<T>(value: T | undefined, field: string): T {
	if (value === undefined) throw notSupplied(field);
	return value;
}

/** The commit's people: committer the caller unless given, author the committer unless given. */
function people(ctx: Context, body: { committer?: PersonInput; author?: PersonInput }) {
	const committer = ident('Content', 'committer', body.committer ?? callerPerson(ctx.app, ctx.principal.actorId), ctx.now);
	const author = body.author ? ident('Content', 'author', body.author, ctx.now) : committer;
	return { author, committer };
}

/**
 * Commits one file's change (content null: delete) on the body's branch (default: the repository's
 * default branch) as the caller, with the body's committer and author (see people).
 * @throws DomainError 422 for a bad path or person, 404 for a missing branch (or file to delete), 409 "<path> does not match <sha>"
 */
function commitChange(
	ctx: Context,
	body: { branch?: string; committer?: PersonInput; author?: PersonInput },
	change: { path: string; message: string; content: Buffer | null; sha: string | undefined },
): ReturnType<typeof commitFile> {
	checkWritePath(change.path);
	const { author, committer } = people(ctx, body);
	return commitFile(
		ctx.app,
		ctx.repo.repo,
		{ ...change, branch: body.branch, author, committer },
		isoSeconds(ctx.now),
		ctx.principal.actorId,
		{ admin: ctx.repo.permission === 'admin' },
	);
}

/** The file-commit answer: the file (null once deleted) and the commit. */
function fileCommitBody(ctx: Context, path: string, result: ReturnType<typeof commitFile>) {
	const repo = view(ctx);
	const { app } = ctx;
	const commitData = parseCommit(app.stores.git.object(repo.repo.id, result.commit)!.content);
	let content: unknown = null;
	if (result.blob !== null) {
		const size = app.stores.git.meta(repo.repo.id, result.blob)?.size ?? 0;
		const item: render.ContentItem = { type: result.mode === '120000' ? 'symlink' : 'file', path, sha: result.blob, size };
		content = render.contentEntry(
			app.urls,
			repo,
			result.branch,
			item,
			rawUrl(app, repo.owner.login, repo.repo, result.branch, path, ctx.now),
		);
	}
	return { content, commit: gitRender.commit(app.urls, repo, result.commit, commitData, signatureVerifier(app)) };
}

/** The contents routes (GET/PUT/DELETE contents, readme, tarball, zipball), registered in src/api/routes.ts. */
export const contentRoutes = [
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/contents/*?`,
		docs: 'repos/contents#get-repository-content',
		handler(ctx) {
			const at = resolveRef(ctx.app, ctx.repo.repo, ctx.query.ref);
			return contentReply(ctx as Context, at, pathParam(ctx as Context));
		},
	}),
	route({
		...WRITE,
		method: 'PUT',
		path: `${BASE}/contents/*`,
		docs: 'repos/contents#create-or-update-file-contents',
		body: v.object({ ...changeFields, content: v.optional(v.string()), sha: v.optional(v.string()) }),
		handler(ctx) {
			const message = required(ctx.body.message, 'message');
			const content = decodeContent(required(ctx.body.content, 'content'));
			const path = pathParam(ctx as Context);
			const result = commitChange(ctx as Context, ctx.body, { path, message, content, sha: ctx.body.sha });
			const body = fileCommitBody(ctx as Context, path, result);
			return result.created ? created(body) : ok(body);
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: `${BASE}/contents/*`,
		docs: 'repos/contents#delete-a-file',
		body: v.object({ ...changeFields, sha: v.optional(v.string()) }),
		handler(ctx) {
			const message = required(ctx.body.message, 'message');
			const sha = required(ctx.body.sha, 'sha');
			const path = pathParam(ctx as Context);
			const result = commitChange(ctx as Context, ctx.body, { path, message, content: null, sha });
			return ok(fileCommitBody(ctx as Context, path, result));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/readme`,
		docs: 'repos/contents#get-a-repository-readme',
		handler: (ctx) => readmeReply(ctx as Context<{ ref?: string }>, ''),
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/readme/*`,
		docs: 'repos/contents#get-a-repository-readme-for-a-directory',
		handler: (ctx) => readmeReply(ctx as Context<{ ref?: string }>, pathParam(ctx as Context)),
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/license`,
		docs: 'licenses/licenses#get-the-license-for-a-repository',
		handler: (ctx) => licenseReply(ctx as Context<{ ref?: string }>),
	}),
	archiveRoute('tar'),
	archiveRoute('zip'),
];

/**
 * GET …/tarball/{ref} or …/zipball/{ref}: a redirect to the archive's codeload URL (the ref in
 * the path, default branch when absent), read access like the contents routes.
 */
function archiveRoute(format: 'tar' | 'zip'): RouteDeclaration {
	return route({
		permissions: READ.permissions,
		access: READ.access,
		resource: READ.resource,
		method: 'GET',
		path: `${BASE}/${format}ball/*?`,
		docs: `repos/contents#download-a-repository-archive-${format}`,
		handler: (ctx) => archiveReply(ctx as Context, format),
	});
}
