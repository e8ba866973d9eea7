/**
 * Repository labels (GitHub's labels API): list, create, get, update, delete. Names are unique per
 * repository, case-insensitively; colors are six hex digits kept in the case sent, as GitHub does (a
 * leading '#' is accepted and dropped). Managing labels needs triage access to the repository.
 */
import * as v from 'valibot';
import { invalidField, notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import type { RepoAccess } from '../../auth/access/types';
import { record } from '../../events/log';
import { inOrganization, sender } from '../../events/payloads';
import { repository, repositoryPaths } from '../../model/render';
import { ISSUES_READ, ISSUES_WRITE } from '../issues/routes';
import { label } from '../../model/render';
import { IMPLICIT_LABEL_COLOR } from './store';
import type { LabelRow } from '../../model/rows';

const name = v.pipe(
	v.string(),
	v.transform((s) => s.trim()),
	v.minLength(1, "name can't be blank"),
	v.maxLength(50, 'name is longer than 50 characters'),
);
const color = v.pipe(
	v.string(),
	v.transform((s) => s.replace(/^#/, '')),
	v.regex(/^[0-9a-fA-F]{6}$/, 'color must be six hexadecimal digits, like f29513'),
);
const description = v.nullable(v.pipe(v.string(), v.maxLength(100, 'description is longer than 100 characters')));
const createBody = v.object({ name, color: v.optional(color), description: v.optional(description) });
const updateBody = v.object({ new_name: v.optional(name), color: v.optional(color), description: v.optional(description) });

const url = (ctx: Context, access: RepoAccess) => repositoryPaths(ctx.app.urls, access.owner.login, access.repo.name).api;

function loadLabel(ctx: Context, access: RepoAccess): LabelRow {
	const row = ctx.app.stores.labels.byName(access.repo.id, ctx.params.name);
	if (!row) throw notFound();
	return row;
}

/** The label webhook (created, edited with the previous values, deleted), through the event log. */
function recordLabel(
	ctx: Context,
	access: RepoAccess,
	action: 'created' | 'edited' | 'deleted',
	row: LabelRow,
	changes?: Record<string, { from: unknown }>,
): void {
	const object = label(url(ctx, access), row);
	record(ctx.app, {
		event: 'label',
		action,
		actorId: ctx.principal.actorId,
		repo: access.repo,
		webhook: () => ({
			label: object,
			...(changes && Object.keys(changes).length ? { changes } : {}),
			repository: repository(ctx.app.urls, access.repo, access.owner, null),
			...(access.owner.type === 'Organization' ? inOrganization(ctx.app, access.owner) : {}),
			...sender(ctx.app, ctx.principal.actorId),
		}),
	});
}

function unique(ctx: Context, access: RepoAccess, wanted: string, self: number | null): void {
	const existing = ctx.app.stores.labels.byName(access.repo.id, wanted);
	if (existing && existing.id !== self) throw invalidField('Label', 'name', `label "${wanted}" already exists`, 'already_exists');
}

export const labelRoutes = [
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/labels',
		resource: { repo: 'read' },
		docs: 'issues/labels#list-labels-for-a-repository',
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			const { rows, total } = ctx.app.stores.labels.list(access.repo.id, ctx.page.perPage, ctx.page.offset);
			const repositoryUrl = url(ctx, access);
			return paged(
				rows.map((row) => label(repositoryUrl, row)),
				total,
			);
		},
	}),
	route({
		...ISSUES_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/labels',
		resource: { repo: 'triage' },
		docs: 'issues/labels#create-a-label',
		errorResource: 'Label',
		body: createBody,
		handler(ctx) {
			const access = ctx.repo;
			unique(ctx, access, ctx.body.name, null);
			const row = ctx.app.stores.labels.insert({
				repo_id: access.repo.id,
				name: ctx.body.name,
				color: ctx.body.color ?? IMPLICIT_LABEL_COLOR,
				description: ctx.body.description ?? null,
				is_default: 0,
			});
			recordLabel(ctx, access, 'created', row);
			const body = label(url(ctx, access), row);
			return created(body, body.url);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/labels/{name}',
		resource: { repo: 'read' },
		docs: 'issues/labels#get-a-label',
		handler(ctx) {
			const access = ctx.repo;
			return ok(label(url(ctx, access), loadLabel(ctx, access)));
		},
	}),
	route({
		...ISSUES_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/labels/{name}',
		resource: { repo: 'triage' },
		docs: 'issues/labels#update-a-label',
		errorResource: 'Label',
		body: updateBody,
		handler(ctx) {
			const access = ctx.repo;
			const current = loadLabel(ctx, access);
			if (ctx.body.new_name !== undefined) unique(ctx, access, ctx.body.new_name, current.id);
			const row = ctx.app.stores.labels.update({
				id: current.id,
				name: ctx.body.new_name ?? current.name,
				color: ctx.body.color ?? current.color,
				description: ctx.body.description !== undefined ? ctx.body.description : current.description,
			});
			const changes: Record<string, { from: unknown }> = {};
			for (const key of ['name', 'color', 'description'] as const)
				if (row[key] !== current[key]) changes[key] = { from: current[key] };
			recordLabel(ctx, access, 'edited', row, changes);
			return ok(label(url(ctx, access), row));
		},
	}),
	route({
		...ISSUES_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/labels/{name}',
		resource: { repo: 'triage' },
		docs: 'issues/labels#delete-a-label',
		handler(ctx) {
			const access = ctx.repo;
			const row = loadLabel(ctx, access);
			ctx.app.stores.labels.remove(row.id);
			recordLabel(ctx, access, 'deleted', row);
			return noContent();
		},
	}),
];
