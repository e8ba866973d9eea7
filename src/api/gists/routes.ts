/**
 * Gists (GitHub's gists API) and gist comments: create, get, list
 * (the user's, a user's, public, starred), update, delete; stars, forks, and the revision history
 * (commits, a gist at a revision; a single gist carries `history` and `forks`); comments list,
 * create, get, update, delete with the raw (default), text, html and full media types. A secret
 * gist is unlisted, not private: anyone with its id reads it, as on GitHub.
 */
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { forbidden, invalidField, notFound, validationFailed } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { timestampParam } from '../../http/validation';
import { isoSeconds } from '../../time';
import { commentBodyField } from '../markdown/body';
import type { AccountRow, GistRow } from '../../model/rows';
import { recordRevision, revisionFiles } from './history';
import { gistComment, gistRevision } from './render';
import { GISTS_READ as READ } from './access';
import { gistDetail, listGists, renderGists } from './service';
import type { GistFileRow } from './store';

/** Writes need the Gists user permission (classic: the gist scope); apps act for no user. */
const WRITE = {
	access: 'authenticated' as const,
	permissions: [{ gists: 'write' as const }],
	scopes: ['gist'],
	tokens: ['classic', 'oauth', 'fine-grained', 'user-to-server'] as Array<'classic' | 'oauth' | 'fine-grained' | 'user-to-server'>,
};
/** The caller's own stars: a user must be acting (apps act for no user). */
const OWN = { access: 'authenticated' as const, permissions: [], tokens: WRITE.tokens };

const MAX_FILES = 300;
const filename = v.pipe(
	v.string(),
	v.minLength(1),
	v.maxLength(255),
	v.check((name) => !name.includes('/'), 'file names cannot contain "/"'),
);
const createBody = v.object({
	description: v.optional(v.nullable(v.string())),
	public: v.optional(v.union([v.boolean(), v.picklist(['true', 'false'])])),
	files: v.record(filename, v.object({ content: v.pipe(v.string(), v.minLength(1, "contents can't be blank")) })),
});
const updateBody = v.object({
	description: v.optional(v.nullable(v.string())),
	files: v.optional(
		v.record(
			v.string(),
			v.nullable(
				v.object({
					content: v.optional(v.pipe(v.string(), v.minLength(1, "contents can't be blank"))),
					filename: v.optional(filename),
				}),
			),
		),
	),
});
const listQuery = v.object({ since: v.optional(timestampParam('since')) });
const commentBody = v.object({ body: commentBodyField });

function render(ctx: Context, rows: GistRow[], withContent: boolean) {
	return renderGists(ctx.app, rows, withContent);
}

function detail(ctx: Context, row: GistRow, files?: GistFileRow[]) {
	return gistDetail(ctx.app, row, files);
}

function list(ctx: Context<v.InferOutput<typeof listQuery>>, ownerId: number | null, publicOnly: boolean) {
	const { items, total } = listGists(
		ctx.app,
		{ ownerId, visibility: publicOnly ? 'public' : 'all', since: ctx.query.since ?? null },
		{ limit: ctx.page.perPage, offset: ctx.page.offset },
	);
	return paged(items, total);
}

function loadComment(ctx: Context) {
	const row = ctx.gist;
	const id = idParam(ctx.params.comment_id);
	const comment = id === null ? undefined : ctx.app.stores.gists.comment(row.id, id);
	if (!comment) throw notFound();
	return { gist: row, comment, author: ctx.app.stores.accounts.byId(comment.user_id)! };
}

export const gistRoutes = [
	route({
		...WRITE,
		method: 'POST',
		path: '/gists',
		resource: { self: true },
		docs: 'gists/gists#create-a-gist',
		errorResource: 'Gist',
		body: createBody,
		handler(ctx) {
			const files = Object.entries(ctx.body.files);
			if (files.length === 0) throw invalidField('Gist', 'files', 'a gist needs at least one file', 'missing_field');
			if (files.length > MAX_FILES) throw invalidField('Gist', 'files', `at most ${MAX_FILES} files`);
			const now = isoSeconds(ctx.now);
			const row = ctx.app.stores.gists.insert(
				{
					gist_id: randomBytes(16).toString('hex'),
					owner_id: ctx.principal.user!.id,
					description: ctx.body.description ?? null,
					public: ctx.body.public === true || ctx.body.public === 'true',
				},
				now,
			);
			for (const [name, file] of files) ctx.app.stores.gists.putFile(row.id, name, file.content);
			recordRevision(ctx.app, row, ctx.principal.user!.id, [], ctx.app.stores.gists.files([row.id]), now);
			return created(detail(ctx, row), ctx.app.urls.api(`/gists/${row.gist_id}`));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists',
		resource: 'none',
		docs: 'gists/gists#list-gists-for-the-authenticated-user',
		errorResource: 'Gist',
		query: listQuery,
		pagination: true,
		// The authenticated user's gists; anonymous callers get every public gist.
		handler: (ctx) => (ctx.principal.user && !ctx.publicView ? list(ctx, ctx.principal.user.id, false) : list(ctx, null, true)),
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists/public',
		resource: 'none',
		docs: 'gists/gists#list-public-gists',
		errorResource: 'Gist',
		query: listQuery,
		pagination: true,
		handler: (ctx) => list(ctx, null, true),
	}),
	route({
		...READ,
		method: 'GET',
		path: '/users/{username}/gists',
		resource: 'none',
		docs: 'gists/gists#list-gists-for-a-user',
		errorResource: 'Gist',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const user: AccountRow | undefined = ctx.app.stores.accounts.user(ctx.params.username);
			if (!user) throw notFound();
			return list(ctx, user.id, ctx.principal.user?.id !== user.id || ctx.publicView);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists/{gist_id}',
		resource: { gist: 'read' },
		docs: 'gists/gists#get-a-gist',
		handler: (ctx) => ok(detail(ctx, ctx.gist)),
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists/{gist_id}/raw/{filename}',
		resource: { gist: 'read' },
		docs: 'gists/gists#get-a-gist',
		handler(ctx) {
			const row = ctx.gist;
			const file = ctx.app.stores.gists.files([row.id]).find((f) => f.filename === ctx.params.filename);
			if (!file) throw notFound();
			return { status: 200, raw: { body: file.content, contentType: 'text/plain; charset=utf-8' } };
		},
	}),
	route({
		...WRITE,
		method: 'PATCH',
		path: '/gists/{gist_id}',
		resource: { gist: 'owner' },
		docs: 'gists/gists#update-a-gist',
		errorResource: 'Gist',
		body: updateBody,
		handler(ctx) {
			const row = ctx.gist;
			const { stores } = ctx.app;
			const before = stores.gists.files([row.id]);
			const existing = new Map(before.map((f) => [f.filename, f]));
			for (const [name, change] of Object.entries(ctx.body.files ?? {})) {
				const current = existing.get(name);
				if (change === null) {
					if (!stores.gists.removeFile(row.id, name))
						throw invalidField('Gist', `files.${name}`, `there is no file named "${name}"`);
					continue;
				}
				const content = change.content ?? current?.content;
				if (content === undefined) throw invalidField('Gist', `files.${name}`, `a new file needs content`, 'missing_field');
				if (change.filename && change.filename !== name) {
					if (!current) throw invalidField('Gist', `files.${name}`, `there is no file named "${name}" to rename`);
					stores.gists.removeFile(row.id, name);
				}
				stores.gists.putFile(row.id, change.filename ?? name, content);
			}
			if (stores.gists.fileCount(row.id) === 0) throw invalidField('Gist', 'files', 'a gist needs at least one file');
			const now = isoSeconds(ctx.now);
			stores.gists.touch(row.id, ctx.body.description !== undefined ? ctx.body.description : row.description, now);
			recordRevision(ctx.app, row, ctx.principal.user!.id, before, stores.gists.files([row.id]), now);
			return ok(detail(ctx, stores.gists.byGistId(row.gist_id)!));
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: '/gists/{gist_id}',
		resource: { gist: 'owner' },
		docs: 'gists/gists#delete-a-gist',
		handler(ctx) {
			const row = ctx.gist;
			ctx.app.stores.gists.remove(row.id);
			return noContent();
		},
	}),
	route({
		...OWN,
		method: 'GET',
		path: '/gists/starred',
		resource: { self: true },
		docs: 'gists/gists#list-starred-gists',
		errorResource: 'Gist',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const { rows, total } = ctx.app.stores.gists.starredList({
				userId: ctx.principal.user!.id,
				since: ctx.query.since ?? null,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(render(ctx, rows, false), total);
		},
	}),
	route({
		...OWN,
		method: 'GET',
		path: '/gists/{gist_id}/star',
		resource: { gist: 'read' },
		docs: 'gists/gists#check-if-a-gist-is-starred',
		handler(ctx) {
			if (!ctx.principal.user || !ctx.app.stores.gists.starred(ctx.gist.id, ctx.principal.user.id)) throw notFound();
			return noContent();
		},
	}),
	route({
		...WRITE,
		method: 'PUT',
		path: '/gists/{gist_id}/star',
		resource: { gist: 'read' },
		docs: 'gists/gists#star-a-gist',
		handler(ctx) {
			ctx.app.stores.gists.star(ctx.gist.id, ctx.principal.user!.id, isoSeconds(ctx.now));
			return noContent();
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: '/gists/{gist_id}/star',
		resource: { gist: 'read' },
		docs: 'gists/gists#unstar-a-gist',
		handler(ctx) {
			ctx.app.stores.gists.unstar(ctx.gist.id, ctx.principal.user!.id);
			return noContent();
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists/{gist_id}/forks',
		resource: { gist: 'read' },
		docs: 'gists/gists#list-gist-forks',
		pagination: true,
		handler(ctx) {
			const { rows, total } = ctx.app.stores.gists.forks(ctx.gist.id, ctx.page.perPage, ctx.page.offset);
			return paged(render(ctx, rows, false), total);
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: '/gists/{gist_id}/forks',
		resource: { gist: 'read' },
		docs: 'gists/gists#fork-a-gist',
		errorResource: 'Gist',
		handler(ctx) {
			const source = ctx.gist;
			const userId = ctx.principal.user!.id;
			const { gists } = ctx.app.stores;
			if (source.owner_id === userId) {
				throw validationFailed([
					{ resource: 'Gist', field: 'forks', code: 'unprocessable', message: 'You cannot fork your own gist.' },
				]);
			}
			if (gists.forkBy(source.id, userId)) {
				throw validationFailed([
					{ resource: 'Gist', field: 'forks', code: 'already_exists', message: 'You have already forked this gist.' },
				]);
			}
			const now = isoSeconds(ctx.now);
			const row = gists.insert(
				{
					gist_id: randomBytes(16).toString('hex'),
					owner_id: userId,
					description: source.description,
					public: source.public === 1,
				},
				now,
			);
			gists.setForkOf(row.id, source.id);
			for (const file of gists.files([source.id])) gists.putFile(row.id, file.filename, file.content);
			// The fork keeps the source's history.
			gists.copyRevisions(row.id, source.id);
			const fork = gists.byId(row.id)!;
			return created(detail(ctx, fork), ctx.app.urls.api(`/gists/${fork.gist_id}`));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists/{gist_id}/commits',
		resource: { gist: 'read' },
		docs: 'gists/gists#list-gist-commits',
		pagination: true,
		handler(ctx) {
			const { rows, total } = ctx.app.stores.gists.revisions(ctx.gist.id, ctx.page.perPage, ctx.page.offset);
			const users = ctx.app.stores.accounts.mapByIds(rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id])));
			return paged(
				rows.map((r) => gistRevision(ctx.app.urls, ctx.gist, r, r.user_id === null ? undefined : users.get(r.user_id))),
				total,
			);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists/{gist_id}/{sha}',
		resource: { gist: 'read' },
		docs: 'gists/gists#get-a-gist-revision',
		errorResource: 'Gist',
		handler(ctx) {
			const sha = ctx.params.sha;
			if (!/^[0-9a-f]{40}$/i.test(sha))
				throw invalidField('Gist', 'sha', `"${sha.slice(0, 64)}" is not a revision: 40 hexadecimal characters`);
			const revision = ctx.app.stores.gists.revision(ctx.gist.id, sha.toLowerCase());
			if (!revision) throw notFound();
			return ok(detail(ctx, ctx.gist, revisionFiles(ctx.gist, revision.files)));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists/{gist_id}/comments',
		resource: { gist: 'read' },
		docs: 'gists/comments#list-gist-comments',
		pagination: true,
		handler(ctx) {
			const row = ctx.gist;
			const { rows, total } = ctx.app.stores.gists.comments(row.id, ctx.page.perPage, ctx.page.offset);
			const authors = ctx.app.stores.accounts.mapByIds(rows.map((c) => c.user_id));
			return paged(
				rows.map((c) => gistComment(ctx.app.urls, row, c, authors.get(c.user_id)!, ctx.media)),
				total,
			);
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: '/gists/{gist_id}/comments',
		resource: { gist: 'read' },
		docs: 'gists/comments#create-a-gist-comment',
		errorResource: 'GistComment',
		body: commentBody,
		handler(ctx) {
			const row = ctx.gist;
			const author = ctx.app.stores.accounts.byId(ctx.principal.user!.id)!;
			const comment = ctx.app.stores.gists.insertComment(row.id, author.id, ctx.body.body, isoSeconds(ctx.now));
			const body = gistComment(ctx.app.urls, row, comment, author, ctx.media);
			return created(body, body.url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/gists/{gist_id}/comments/{comment_id}',
		resource: { gist: 'read' },
		docs: 'gists/comments#get-a-gist-comment',
		handler(ctx) {
			const { gist: row, comment, author } = loadComment(ctx);
			return ok(gistComment(ctx.app.urls, row, comment, author, ctx.media));
		},
	}),
	route({
		...WRITE,
		method: 'PATCH',
		path: '/gists/{gist_id}/comments/{comment_id}',
		resource: { gist: 'read' },
		docs: 'gists/comments#update-a-gist-comment',
		errorResource: 'GistComment',
		body: commentBody,
		handler(ctx) {
			const { gist: row, comment, author } = loadComment(ctx);
			// Only the author edits a comment; to everyone else it is not there to edit.
			if (comment.user_id !== ctx.principal.user!.id) throw notFound();
			const updated = ctx.app.stores.gists.updateComment(comment, ctx.body.body, isoSeconds(ctx.now));
			return ok(gistComment(ctx.app.urls, row, updated, author, ctx.media));
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: '/gists/{gist_id}/comments/{comment_id}',
		resource: { gist: 'read' },
		docs: 'gists/comments#delete-a-gist-comment',
		handler(ctx) {
			const { gist: row, comment } = loadComment(ctx);
			const self = ctx.principal.user!.id;
			if (comment.user_id !== self && row.owner_id !== self)
				throw forbidden('Only the author of a comment or the owner of the gist can delete it.');
			ctx.app.stores.gists.removeComment(comment.id);
			return noContent();
		},
	}),
];
