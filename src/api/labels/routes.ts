/**
 * Repository labels (GitHub's labels API): list, create, get, update, delete. Names are unique per
 * repository, case-insensitively; colors are six hex digits kept in the case sent, as GitHub does (a
 * leading '#' is accepted and dropped). Managing labels needs triage access to the repository.
 */
import { created, noContent, ok, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import type { RepoAccess } from '../../auth/access/types';
import { label } from '../../model/render';
import { ISSUES_READ } from '../issues/access';
import { LABELS_WRITE } from './access';
import { createLabel, createLabelBody, deleteLabel, labelsBase, loadLabel, updateLabel, updateLabelBody } from '../issues/labels';
import { IMPLICIT_LABEL_COLOR } from './store';

const url = (ctx: Context, access: RepoAccess) => labelsBase(ctx, access);

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
		...LABELS_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/labels',
		docs: 'issues/labels#create-a-label',
		errorResource: 'Label',
		body: createLabelBody,
		handler(ctx) {
			const access = ctx.repo;
			const row = createLabel(ctx, access, { ...ctx.body, color: ctx.body.color ?? IMPLICIT_LABEL_COLOR });
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
			return ok(label(url(ctx, access), loadLabel(ctx, access, ctx.params.name)));
		},
	}),
	route({
		...LABELS_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/labels/{name}',
		docs: 'issues/labels#update-a-label',
		errorResource: 'Label',
		body: updateLabelBody,
		handler(ctx) {
			const access = ctx.repo;
			const row = updateLabel(ctx, access, loadLabel(ctx, access, ctx.params.name), ctx.body);
			return ok(label(url(ctx, access), row));
		},
	}),
	route({
		...LABELS_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/labels/{name}',
		docs: 'issues/labels#delete-a-label',
		handler(ctx) {
			const access = ctx.repo;
			deleteLabel(ctx, access, loadLabel(ctx, access, ctx.params.name));
			return noContent();
		},
	}),
];
