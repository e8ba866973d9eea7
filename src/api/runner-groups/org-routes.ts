/**
 * Organization self-hosted runner groups (GitHub's actions/self-hosted-runner-groups operations for
 * an organization) and the organization's runners (actions/self-hosted-runners: list, get,
 * delete). The same store and rules as the enterprise groups (service.ts), owned by the
 * organization ({ org }); the groups its enterprise shares with it are listed and readable here
 * with `inherited: true`, and changed only by the enterprise.
 *
 * Policy: the permission matrix for its rows (Self-hosted runners organization permission,
 * write); the other routes Self-hosted runners read (GET) or write. Classic tokens admin:org.
 * Owners and the organization's app only: members 403, outsiders 404.
 */
import * as v from 'valibot';
import { forbidden, notFound, unprocessable } from '../../model/errors';
import { noContent, ok } from '../../http/reply';
import { idParam, route, type Context, type RouteDeclaration } from '../../http/route';
import { events } from '../../events/catalog';
import { repository } from '../../model/render';
import { organizationRepositories, organizationRepository } from '../org-actions/service';
import type { AccountRow } from '../../model/rows';
import { type GroupScope, groupRoutes, groupSettings, ids, runnersReply } from './group-routes';
import { orgRunnerGroup, runner } from './render';
import type { RunnerGroupRow, RunnerRow } from './store';
const visibility = v.picklist(['selected', 'all', 'private'], 'visibility must be selected, all or private');

const createBody = v.object({
	name: v.pipe(v.string(), v.minLength(1, 'name is required')),
	visibility: v.optional(visibility),
	selected_repository_ids: v.optional(ids),
	runners: v.optional(ids),
	...groupSettings,
	network_configuration_id: v.optional(v.string()),
});
const updateBody = v.object({
	name: v.pipe(v.string(), v.minLength(1, 'name is required')),
	visibility: v.optional(visibility),
	...groupSettings,
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

/** The organization's runner {runner_id}. */
function loadRunner(ctx: Context): RunnerRow {
	const runnerId = idParam(ctx.params.runner_id);
	const found = runnerId === null ? undefined : ctx.app.stores.runnerGroups.runner({ org: ctx.org.org.id }, runnerId);
	if (!found) throw notFound();
	return found;
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

/**
 * An organization's runner groups: its own, and (read only) those its enterprise shares with it;
 * its repositories are the members a `selected` group chooses.
 */
const organizationGroups: GroupScope = {
	base: '/orgs/{org}/actions/runner-groups',
	docs: { page: 'actions/self-hosted-runner-groups', owner: 'organization' },
	policy: { read: READ, write: MATRIX, runners: WRITE },
	listQuery: v.object({ visible_to_repository: v.optional(v.string()) }),
	createBody,
	updateBody,
	owner: (ctx) => ({ org: ctx.org.org.id }),
	list(ctx) {
		const org = ctx.org.org;
		const name = ctx.query.visible_to_repository as string | undefined;
		if (name !== undefined) {
			// Groups the repository may use (the groups are few: filtered in memory).
			const repo = ctx.app.stores.repos.byOwnerAndName(org.id, name);
			const all = repo
				? ctx.app.stores.runnerGroups.ofOrganization({ orgId: org.id, enterpriseId: org.enterprise_id, limit: 10_000, offset: 0 })
						.rows
				: [];
			const usable = repo ? all.filter((g) => usableBy(ctx, g, repo)) : [];
			return { rows: usable.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage), total: usable.length };
		}
		return ctx.app.stores.runnerGroups.ofOrganization({
			orgId: org.id,
			enterpriseId: org.enterprise_id,
			limit: ctx.page.perPage,
			offset: ctx.page.offset,
		});
	},
	group(ctx, { inherited }) {
		const org = ctx.org.org;
		const groupId = idParam(ctx.params.runner_group_id);
		const group = groupId === null ? undefined : ctx.app.stores.runnerGroups.visibleToOrganization(org.id, org.enterprise_id, groupId);
		if (!group) throw notFound();
		if (group.org_id === null && !inherited) {
			throw forbidden('This runner group is inherited from the enterprise; its enterprise owners change it.');
		}
		return group;
	},
	render: (ctx, group) => orgRunnerGroup(ctx.app.urls, ctx.org.org.login, group),
	members: {
		name: 'repositories',
		noun: 'repository',
		field: 'selected_repository_ids',
		param: '{repository_id}',
		whileSelected: true,
		resolve: (ctx, ids) => organizationRepositories(ctx.app, ctx.org.org, ids, 'selected_repository_ids').map((repo) => repo.id),
		one: (ctx) => organizationRepository(ctx.app, ctx.org.org, idParam(ctx.params.repository_id)).id,
		page(ctx, groupId) {
			const org = ctx.org.org;
			const { rows, total } = ctx.app.stores.runnerGroups.repositories(groupId, ctx.page.perPage, ctx.page.offset);
			return { items: rows.map((r) => repository(ctx.app.urls, r, org as AccountRow, null)), total };
		},
		add: (ctx, groupId, id) => ctx.app.stores.runnerGroups.addRepository(groupId, id),
		remove: (ctx, groupId, id) => ctx.app.stores.runnerGroups.removeRepository(groupId, id),
		clear: (ctx, groupId) => ctx.app.stores.runnerGroups.clearRepositories(groupId),
	},
	audit: (ctx, action) => events.orgAudit(ctx.app, ctx.org.org, action, ctx.org.actorId),
};

/** Every organization runner group and runner route (registered in src/api/routes.ts). */
export const orgRunnerGroupRoutes: RouteDeclaration[] = [
	...groupRoutes(organizationGroups),
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
			organizationGroups.audit(ctx, 'remove_self_hosted_runner');
			return noContent();
		},
	}),
];
