/**
 * Gists (GitHub's gists API) and gist comments (spec document 2, Gist comments): create, get, list
 * (the user's, a user's, public), update, delete; comments list, create, get, update, delete with
 * the raw (default), text, html and full media types. A secret gist is unlisted, not private:
 * anyone with its id reads it, as on GitHub.
 */
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { forbidden, invalidField, notFound } from '../../http/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { timestampParam } from '../../http/validation';
import { isoSeconds } from '../../time';
import { commentBodyField } from '../markdown/body';
import type { AccountRow } from '../users/store';
import { gist, gistComment } from './render';
import type { GistFileRow, GistRow } from './store';

/** Writes need the Gists user permission (classic: the gist scope); apps act for no user. */
const WRITE = {
	access: 'authenticated' as const,
	permissions: [{ gists: 'write' as const }],
	scopes: ['gist'],
	tokens: ['classic', 'oauth', 'fine-grained', 'user-to-server'] as Array<'classic' | 'oauth' | 'fine-grained' | 'user-to-server'>,
};
const READ = { access: 'public' as const, permissions: [] };

const MAX_FILES = 300;
const filename = v.pipe(v.string(), v.minLength(1), v.maxLength(255), v.check((name) => !name.includes('/'), 'file names cannot contain "/"'));
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
			v.nullable(v.object({ content: v.optional(v.pipe(v.string(), v.minLength(1, "contents can't be blank"))), filename: v.optional(filename) })),
		),
	),
});
const listQuery = v.object({ since: v.optional(timestampParam('since')) });
const commentBody = v.object({ body: commentBodyField });

function render(ctx: Context, rows: GistRow[], withContent: boolean) {
	const { stores, urls } = ctx.app;
	const ids = rows.map((row) => row.id);
	const files = new Map<number, GistFileRow[]>();
	for (const file of stores.gists.files(ids)) {
		const list = files.get(file.gist_id);
		if (list) list.push(file);
		else files.set(file.gist_id, [file]);
	}
	const counts = stores.gists.commentCounts(ids);
	const owners = stores.accounts.mapByIds(rows.map((row) => row.owner_id));
	return rows.map((row) =>
		gist(urls, row, owners.get(row.owner_id)!, files.get(row.id) ?? [], counts.get(row.id) ?? 0, withContent),
	);
}

function list(ctx: Context<v.InferOutput<typeof listQuery>>, ownerId: number | null, publicOnly: boolean) {
	const { rows, total } = ctx.app.stores.gists.list({
		ownerId,
		publicOnly,
		since: ctx.query.since ?? null,
		limit: ctx.page.perPage,
		offset: ctx.page.offset,
	});
	return paged(render(ctx, rows, false), total);
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
			return created(render(ctx, [row], true)[0], ctx.app.urls.api(`/gists/${row.gist_id}`));
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
		handler: (ctx) => ok(render(ctx, [ctx.gist], true)[0]),
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
			const existing = new Map(stores.gists.files([row.id]).map((f) => [f.filename, f]));
			for (const [name, change] of Object.entries(ctx.body.files ?? {})) {
				const current = existing.get(name);
				if (change === null) {
					if (!stores.gists.removeFile(row.id, name)) throw invalidField('Gist', `files.${name}`, `there is no file named "${name}"`);
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
			stores.gists.touch(row.id, ctx.body.description !== undefined ? ctx.body.description : row.description, isoSeconds(ctx.now));
			return ok(render(ctx, [stores.gists.byGistId(row.gist_id)!], true)[0]);
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
			return paged(rows.map((c) => gistComment(ctx.app.urls, row, c, authors.get(c.user_id)!, ctx.media)), total);
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
			if (comment.user_id !== self && row.owner_id !== self) throw forbidden('Only the author of a comment or the owner of the gist can delete it.');
			ctx.app.stores.gists.removeComment(comment.id);
			return noContent();
		},
	}),
];
