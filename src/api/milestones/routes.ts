/**
 * Repository milestones (GitHub's issues/milestones API): list (state open|closed|all, sort
 * due_on|completeness, direction), create, get, update, delete, and the labels of a milestone's
 * issues. Titles are unique per repository (422 already_exists). Reading follows the issues' read
 * rules; creating, changing and deleting milestones needs triage access (GitHub's triage role
 * "manages project milestones", as it manages labels). Issues join a milestone through POST/PATCH
 * issue `milestone`.
 */
import * as v from 'valibot';
import { notFound, validationFailed } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { timestampParam } from '../../http/validation';
import { isoSeconds } from '../../time';
import type { RepoAccess } from '../../auth/access/types';
import { label } from '../../model/render';
import { ISSUES_READ, ISSUES_WRITE } from '../issues/access';
import { repositoryPaths } from '../../model/render';
import { milestoneObject, recordMilestone } from './events';
import { milestonePage } from './service';
import type { MilestoneRow } from '../../model/rows';

/** Changing milestones: Issues or Pull requests (write), and triage access to the repository. */
const MILESTONES_WRITE = { ...ISSUES_WRITE, resource: { repo: 'triage' as const } };

const title = v.pipe(
	v.string('title must be a string'),
	v.transform((s) => s.trim()),
	v.minLength(1, "title can't be blank"),
	v.maxLength(255, 'title is longer than 255 characters'),
);
const state = v.picklist(['open', 'closed'], 'state must be open or closed');
const description = v.nullable(v.pipe(v.string('description must be a string'), v.maxLength(65536, 'description is too long')));
const dueOn = v.nullable(timestampParam('due_on'));
const createBody = v.object({ title, state: v.optional(state), description: v.optional(description), due_on: v.optional(dueOn) });
const updateBody = v.object({
	title: v.optional(title),
	state: v.optional(state),
	description: v.optional(description),
	due_on: v.optional(dueOn),
});
const listQuery = v.object({
	state: v.optional(v.picklist(['open', 'closed', 'all'], 'state must be open, closed or all'), 'open'),
	sort: v.optional(v.picklist(['due_on', 'completeness'], 'sort must be due_on or completeness'), 'due_on'),
	direction: v.optional(v.picklist(['asc', 'desc'], 'direction must be asc or desc'), 'asc'),
});

/** The milestone of the path's {milestone_number}. @throws DomainError 404 */
function loadMilestone(ctx: Context, access: RepoAccess): MilestoneRow {
	const number = idParam(ctx.params.milestone_number);
	const row = number ? ctx.app.stores.milestones.byNumber(access.repo.id, number) : undefined;
	if (!row) throw notFound();
	return row;
}

/** 422 already_exists when another milestone of the repository has the title. */
function uniqueTitle(ctx: Context, access: RepoAccess, wanted: string, self: number | null): void {
	const existing = ctx.app.stores.milestones.byTitle(access.repo.id, wanted);
	if (existing && existing.id !== self) throw validationFailed([{ resource: 'Milestone', field: 'title', code: 'already_exists' }]);
}

/** The milestone routes, registered in src/api/routes.ts. */
export const milestoneRoutes = [
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/milestones',
		docs: 'issues/milestones#list-milestones',
		errorResource: 'Milestone',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const { items, total } = milestonePage(ctx.app, ctx.repo, {
				state: ctx.query.state,
				sort: ctx.query.sort,
				direction: ctx.query.direction,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(items, total);
		},
	}),
	route({
		...MILESTONES_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/milestones',
		docs: 'issues/milestones#create-a-milestone',
		errorResource: 'Milestone',
		body: createBody,
		handler(ctx) {
			const access = ctx.repo;
			uniqueTitle(ctx, access, ctx.body.title, null);
			const row = ctx.app.stores.milestones.insert(
				{
					repo_id: access.repo.id,
					title: ctx.body.title,
					description: ctx.body.description ?? null,
					state: ctx.body.state ?? 'open',
					due_on: ctx.body.due_on ?? null,
					creator_id: ctx.principal.actorId,
				},
				isoSeconds(ctx.now),
			);
			recordMilestone(ctx, access, 'created', row);
			const body = milestoneObject(ctx, access, row);
			return created(body, body.url);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/milestones/{milestone_number}',
		docs: 'issues/milestones#get-a-milestone',
		handler(ctx) {
			return ok(milestoneObject(ctx, ctx.repo, loadMilestone(ctx, ctx.repo)));
		},
	}),
	route({
		...MILESTONES_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/milestones/{milestone_number}',
		docs: 'issues/milestones#update-a-milestone',
		errorResource: 'Milestone',
		body: updateBody,
		handler(ctx) {
			const access = ctx.repo;
			const current = loadMilestone(ctx, access);
			const input = ctx.body;
			if (input.title !== undefined) uniqueTitle(ctx, access, input.title, current.id);
			const now = isoSeconds(ctx.now);
			const next: MilestoneRow = { ...current };
			if (input.title !== undefined) next.title = input.title;
			if (input.description !== undefined) next.description = input.description;
			if (input.due_on !== undefined) next.due_on = input.due_on;
			if (input.state !== undefined && input.state !== current.state) {
				next.state = input.state;
				next.closed_at = input.state === 'closed' ? now : null;
			}
			const row = ctx.app.stores.milestones.update(next, now);
			const changes: Record<string, { from: unknown }> = {};
			for (const key of ['title', 'description', 'due_on'] as const)
				if (row[key] !== current[key]) changes[key] = { from: current[key] };
			if (Object.keys(changes).length) recordMilestone(ctx, access, 'edited', row, changes);
			if (row.state !== current.state) recordMilestone(ctx, access, row.state === 'closed' ? 'closed' : 'opened', row);
			return ok(milestoneObject(ctx, access, row));
		},
	}),
	route({
		...MILESTONES_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/milestones/{milestone_number}',
		docs: 'issues/milestones#delete-a-milestone',
		handler(ctx) {
			const access = ctx.repo;
			const row = loadMilestone(ctx, access);
			// The event first: its payload shows the milestone as it was, counts included.
			recordMilestone(ctx, access, 'deleted', row);
			ctx.app.stores.milestones.remove(row.id);
			return noContent();
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/milestones/{milestone_number}/labels',
		docs: 'issues/labels#list-labels-for-issues-in-a-milestone',
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			const row = loadMilestone(ctx, access);
			const { rows, total } = ctx.app.stores.milestones.labels(row.id, ctx.page.perPage, ctx.page.offset);
			const api = repositoryPaths(ctx.app.urls, access.owner.login, access.repo.name).api;
			return paged(
				rows.map((l) => label(api, l)),
				total,
			);
		},
	}),
];
