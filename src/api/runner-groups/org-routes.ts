/**
 * Organization self-hosted runner groups (GitHub's actions/self-hosted-runner-groups operations for
 * an organization) and the organization's runners (actions/self-hosted-runners: list, get,
 * delete). The same store and rules as the enterprise groups (service.ts), owned by the
 * organization ({ org }); the groups its enterprise shares with it are listed and readable here
 * with `inherited: true`, and changed only by the enterprise.
 *
 * Policy: the spec's permission matrix for its rows (Self-hosted runners organization permission,
 * write); the other routes Self-hosted runners read (GET) or write. Classic tokens admin:org.
 * Owners and the organization's app only: members 403, outsiders 404.
 */
import * as v from 'valibot';
import { forbidden, notFound, unprocessable } from '../../model/errors';
import { created, noContent, ok, type Reply } from '../../http/reply';
import { idParam, route, type Context, type RouteDeclaration } from '../../http/route';
import { events } from '../../events/catalog';
import { isoSeconds } from '../../time';
import { repository } from '../repos/render';
import { organizationRepositories, organizationRepository } from '../org-actions/service';
import type { AccountRow } from '../users/store';
import { orgRunnerGroup, runner } from './render';
import { deleteGroup, groupValues, ownerRunners, removeGroupRunner, setGroupRunners, type GroupInput } from './service';
import type { RunnerGroupRow, RunnerRow } from './store';

const BASE = '/orgs/{org}/actions/runner-groups';
const id = v.pipe(v.number(), v.integer());
const visibility = v.picklist(['selected', 'all', 'private'], 'visibility must be selected, all or private');

const createBody = v.object({
	name: v.pipe(v.string(), v.minLength(1, 'name is required')),
	visibility: v.optional(visibility),
	selected_repository_ids: v.optional(v.array(id)),
	runners: v.optional(v.array(id)),
	allows_public_repositories: v.optional(v.boolean()),
	restricted_to_workflows: v.optional(v.boolean()),
	selected_workflows: v.optional(v.array(v.string())),
	network_configuration_id: v.optional(v.string()),
});
const updateBody = v.object({
	name: v.pipe(v.string(), v.minLength(1, 'name is required')),
	visibility: v.optional(visibility),
	allows_public_repositories: v.optional(v.boolean()),
	restricted_to_workflows: v.optional(v.boolean()),
	selected_workflows: v.optional(v.array(v.string())),
	network_configuration_id: v.optional(v.nullable(v.string())),
});

const GUARD = {
	access: 'authenticated' as const,
	resource: { org: 'owner' as const, conceal: 'outsiders' as const },
	errorResource: 'RunnerGroup',
};
/** Matrix rows (organization_self_hosted_runners write). */
const MATRIX = { ...GUARD, permissions: 'matrix' as const };
const READ = { ...GUARD, permissions: [{ organization_self_hosted_runners: 'read' as const }] };
const WRITE = { ...GUARD, permissions: [{ organization_self_hosted_runners: 'write' as const }] };

/** The group {runner_group_id}: the organization's own, or (`inherited` allowed) one its enterprise shares with it. */
function loadGroup(ctx: Context, inherited = false): RunnerGroupRow {
	const org = ctx.org.org;
	const groupId = idParam(ctx.params.runner_group_id);
	const group = groupId === null ? undefined : ctx.app.stores.runnerGroups.visibleToOrganization(org.id, org.enterprise_id, groupId);
	if (!group) throw notFound();
	if (group.org_id === null && !inherited) {
		throw forbidden('This runner group is inherited from the enterprise; its enterprise owners change it.');
	}
	return group;
}

/** The organization's runner {runner_id}. */
function loadRunner(ctx: Context): RunnerRow {
	const runnerId = idParam(ctx.params.runner_id);
	const found = runnerId === null ? undefined : ctx.app.stores.runnerGroups.runner({ org: ctx.org.org.id }, runnerId);
	if (!found) throw notFound();
	return found;
}

function requireSelected(group: RunnerGroupRow): void {
	if (group.visibility !== 'selected')
		throw unprocessable('The runner group must have visibility set to selected to choose its repositories.');
}

/** Records the audit-log event of a runner group change. */
function audit(ctx: Context, action: string): void {
	events.orgAudit(ctx.app, ctx.org.org, action, ctx.org.actorId);
}

/** `{total_count, runners}` of a page of runners. */
function runnersReply(ctx: Context, page: { rows: RunnerRow[]; total: number }): Reply {
	const labels = ctx.app.stores.runnerGroups.labels(page.rows.map((r) => r.id));
	return { status: 200, body: { total_count: page.total, runners: page.rows.map((r) => runner(r, labels)) }, total: page.total };
}

/**
 * Whether a group may run jobs of `repo`: the organization's self-hosted runners policy (none, or
 * selected without the repository: no group), the group's visibility (all, private repositories,
 * selected ones) and public repositories.
 */
function usableBy(ctx: Context, group: RunnerGroupRow, repo: { id: number; visibility: string }): boolean {
	const policy = ctx.app.stores.orgActions.get(ctx.org.org.id).self_hosted_enabled_repositories;
	if (policy === 'none' || (policy === 'selected' && !ctx.app.stores.orgActions.selected(ctx.org.org.id, 'self_hosted', repo.id)))
		return false;
	if (repo.visibility === 'public' && group.allows_public_repositories !== 1) return false;
	if (group.org_id === null || group.visibility === 'all') return true;
	if (group.visibility === 'private') return repo.visibility !== 'public';
	return ctx.app.stores.runnerGroups.repositories(group.id, 1_000_000, 0).rows.some((r) => r.id === repo.id);
}

/** Every organization runner group and runner route (registered in src/api/routes.ts). */
export const orgRunnerGroupRoutes: RouteDeclaration[] = [
	route({
		...READ,
		method: 'GET',
		path: BASE,
		docs: 'actions/self-hosted-runner-groups#list-self-hosted-runner-groups-for-an-organization',
		query: v.object({ visible_to_repository: v.optional(v.string()) }),
		pagination: true,
		handler(ctx) {
			const org = ctx.org.org;
			const name = ctx.query.visible_to_repository;
			if (name !== undefined) {
				// Groups the repository may use (the groups are few: filtered in memory).
				const repo = ctx.app.stores.repos.byOwnerAndName(org.id, name);
				const all = repo
					? ctx.app.stores.runnerGroups.ofOrganization({
							orgId: org.id,
							enterpriseId: org.enterprise_id,
							limit: 10_000,
							offset: 0,
						}).rows
					: [];
				const usable = repo ? all.filter((g) => usableBy(ctx, g, repo)) : [];
				const rows = usable.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
				return {
					status: 200,
					body: { total_count: usable.length, runner_groups: rows.map((g) => orgRunnerGroup(ctx.app.urls, org.login, g)) },
					total: usable.length,
				};
			}
			const { rows, total } = ctx.app.stores.runnerGroups.ofOrganization({
				orgId: org.id,
				enterpriseId: org.enterprise_id,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return {
				status: 200,
				body: { total_count: total, runner_groups: rows.map((g) => orgRunnerGroup(ctx.app.urls, org.login, g)) },
				total,
			};
		},
	}),
	route({
		...MATRIX,
		method: 'POST',
		path: BASE,
		docs: 'actions/self-hosted-runner-groups#create-a-self-hosted-runner-group-for-an-organization',
		body: createBody,
		handler(ctx) {
			const org = ctx.org.org;
			const owner = { org: org.id };
			const { stores } = ctx.app;
			const values = groupValues(ctx.app, owner, ctx.body as GroupInput);
			const repos = organizationRepositories(ctx.app, org, ctx.body.selected_repository_ids ?? [], 'selected_repository_ids');
			const runners = ownerRunners(ctx.app, owner, ctx.body.runners ?? [], 'runners');
			const group = stores.runnerGroups.insert(owner, values, false, isoSeconds(ctx.now));
			if (group.visibility === 'selected') for (const repo of repos) stores.runnerGroups.addRepository(group.id, repo.id);
			for (const r of runners) stores.runnerGroups.moveRunner(r.id, group.id);
			audit(ctx, 'runner_group_created');
			return created(orgRunnerGroup(ctx.app.urls, org.login, group));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/{runner_group_id}`,
		docs: 'actions/self-hosted-runner-groups#get-a-self-hosted-runner-group-for-an-organization',
		handler: (ctx) => ok(orgRunnerGroup(ctx.app.urls, ctx.org.org.login, loadGroup(ctx, true))),
	}),
	route({
		...MATRIX,
		method: 'PATCH',
		path: `${BASE}/{runner_group_id}`,
		docs: 'actions/self-hosted-runner-groups#update-a-self-hosted-runner-group-for-an-organization',
		body: updateBody,
		handler(ctx) {
			const group = loadGroup(ctx);
			const values = groupValues(ctx.app, { org: ctx.org.org.id }, ctx.body as GroupInput, group);
			const updated = ctx.app.stores.runnerGroups.update(group, values, isoSeconds(ctx.now));
			// Repositories are chosen only while the visibility is selected.
			if (updated.visibility !== 'selected') ctx.app.stores.runnerGroups.clearRepositories(group.id);
			audit(ctx, 'runner_group_updated');
			return ok(orgRunnerGroup(ctx.app.urls, ctx.org.org.login, updated));
		},
	}),
	route({
		...MATRIX,
		method: 'DELETE',
		path: `${BASE}/{runner_group_id}`,
		docs: 'actions/self-hosted-runner-groups#delete-a-self-hosted-runner-group-from-an-organization',
		handler(ctx) {
			deleteGroup(ctx.app, { org: ctx.org.org.id }, loadGroup(ctx));
			audit(ctx, 'runner_group_removed');
			return noContent();
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/{runner_group_id}/repositories`,
		docs: 'actions/self-hosted-runner-groups#list-repository-access-to-a-self-hosted-runner-group-in-an-organization',
		pagination: true,
		handler(ctx) {
			const group = loadGroup(ctx);
			const org = ctx.org.org;
			const { rows, total } = ctx.app.stores.runnerGroups.repositories(group.id, ctx.page.perPage, ctx.page.offset);
			return {
				status: 200,
				body: { total_count: total, repositories: rows.map((r) => repository(ctx.app.urls, r, org as AccountRow, null)) },
				total,
			};
		},
	}),
	route({
		...MATRIX,
		method: 'PUT',
		path: `${BASE}/{runner_group_id}/repositories`,
		docs: 'actions/self-hosted-runner-groups#set-repository-access-for-a-self-hosted-runner-group-in-an-organization',
		body: v.object({ selected_repository_ids: v.array(id) }),
		handler(ctx) {
			const group = loadGroup(ctx);
			requireSelected(group);
			const repos = organizationRepositories(ctx.app, ctx.org.org, ctx.body.selected_repository_ids, 'selected_repository_ids');
			ctx.app.stores.runnerGroups.clearRepositories(group.id);
			for (const repo of repos) ctx.app.stores.runnerGroups.addRepository(group.id, repo.id);
			audit(ctx, 'runner_group_repositories_updated');
			return noContent();
		},
	}),
	...(['PUT', 'DELETE'] as const).map((method) =>
		route({
			...MATRIX,
			method,
			path: `${BASE}/{runner_group_id}/repositories/{repository_id}`,
			docs:
				method === 'PUT'
					? 'actions/self-hosted-runner-groups#add-repository-access-to-a-self-hosted-runner-group-in-an-organization'
					: 'actions/self-hosted-runner-groups#remove-repository-access-to-a-self-hosted-runner-group-in-an-organization',
			handler(ctx) {
				const group = loadGroup(ctx);
				const repo = organizationRepository(ctx.app, ctx.org.org, idParam(ctx.params.repository_id));
				requireSelected(group);
				if (method === 'PUT') ctx.app.stores.runnerGroups.addRepository(group.id, repo.id);
				else ctx.app.stores.runnerGroups.removeRepository(group.id, repo.id);
				audit(ctx, 'runner_group_repositories_updated');
				return noContent();
			},
		}),
	),
	route({
		...READ,
		method: 'GET',
		path: `${BASE}/{runner_group_id}/runners`,
		docs: 'actions/self-hosted-runner-groups#list-self-hosted-runners-in-a-group-for-an-organization',
		pagination: true,
		handler(ctx) {
			const group = loadGroup(ctx, true);
			return runnersReply(ctx, ctx.app.stores.runnerGroups.runners(group.id, ctx.page.perPage, ctx.page.offset));
		},
	}),
	route({
		...WRITE,
		method: 'PUT',
		path: `${BASE}/{runner_group_id}/runners`,
		docs: 'actions/self-hosted-runner-groups#set-self-hosted-runners-in-a-group-for-an-organization',
		body: v.object({ runners: v.array(id) }),
		handler(ctx) {
			const group = loadGroup(ctx);
			setGroupRunners(ctx.app, { org: ctx.org.org.id }, group, ctx.body.runners);
			audit(ctx, 'runner_group_runners_updated');
			return noContent();
		},
	}),
	route({
		...WRITE,
		method: 'PUT',
		path: `${BASE}/{runner_group_id}/runners/{runner_id}`,
		docs: 'actions/self-hosted-runner-groups#add-a-self-hosted-runner-to-a-group-for-an-organization',
		handler(ctx) {
			const group = loadGroup(ctx);
			const found = loadRunner(ctx);
			ctx.app.stores.runnerGroups.moveRunner(found.id, group.id);
			audit(ctx, 'runner_group_runners_added');
			return noContent();
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: `${BASE}/{runner_group_id}/runners/{runner_id}`,
		docs: 'actions/self-hosted-runner-groups#remove-a-self-hosted-runner-from-a-group-for-an-organization',
		handler(ctx) {
			const group = loadGroup(ctx);
			removeGroupRunner(ctx.app, { org: ctx.org.org.id }, group, loadRunner(ctx));
			audit(ctx, 'runner_group_runner_removed');
			return noContent();
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/orgs/{org}/actions/runners',
		docs: 'actions/self-hosted-runners#list-self-hosted-runners-for-an-organization',
		query: v.object({ name: v.optional(v.string()) }),
		pagination: true,
		handler(ctx) {
			const owner = { org: ctx.org.org.id };
			if (ctx.query.name !== undefined) {
				const all = ctx.app.stores.runnerGroups.ownerRunners(owner, 1_000_000, 0).rows.filter((r) => r.name === ctx.query.name);
				return runnersReply(ctx, { rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage), total: all.length });
			}
			return runnersReply(ctx, ctx.app.stores.runnerGroups.ownerRunners(owner, ctx.page.perPage, ctx.page.offset));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/orgs/{org}/actions/runners/{runner_id}',
		docs: 'actions/self-hosted-runners#get-a-self-hosted-runner-for-an-organization',
		handler(ctx) {
			const found = loadRunner(ctx);
			return ok(runner(found, ctx.app.stores.runnerGroups.labels([found.id])));
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: '/orgs/{org}/actions/runners/{runner_id}',
		docs: 'actions/self-hosted-runners#delete-a-self-hosted-runner-from-an-organization',
		handler(ctx) {
			const found = loadRunner(ctx);
			// GitHub refuses to remove a runner while it runs a job.
			if (found.busy === 1) throw unprocessable('The runner is running a job; remove it when it is idle.');
			ctx.app.stores.runnerGroups.removeRunner(found.id);
			audit(ctx, 'remove_self_hosted_runner');
			return noContent();
		},
	}),
];
