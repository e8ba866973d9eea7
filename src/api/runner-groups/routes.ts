/**
 * Enterprise self-hosted runner groups (spec document 1; reference §2.7): list, create, get,
 * update, delete, and the organization and runner membership routes GitHub has for enterprise
 * groups. Enterprise owners with classic or OAuth tokens holding manage_runners:enterprise only.
 */
import * as v from 'valibot';
import { notFound, unprocessable } from '../../model/errors';
import { created, noContent, ok } from '../../http/reply';
import { idParam, route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { orgSimple } from '../orgs/render';
import { runner, runnerGroup } from './render';
import {
	deleteGroup,
	enterpriseOrganizationIds,
	groupValues,
	ownerRunners,
	removeGroupRunner,
	setGroupRunners,
	type GroupInput,
} from './service';
import type { RunnerGroupRow } from './store';

const BASE = '/enterprises/{enterprise}/actions/runner-groups';
const id = v.pipe(v.number(), v.integer());

const createBody = v.object({
	name: v.pipe(v.string(), v.minLength(1, 'name is required')),
	visibility: v.optional(v.picklist(['selected', 'all'])),
	selected_organization_ids: v.optional(v.array(id)),
	runners: v.optional(v.array(id)),
	allows_public_repositories: v.optional(v.boolean()),
	restricted_to_workflows: v.optional(v.boolean()),
	selected_workflows: v.optional(v.array(v.string())),
	network_configuration_id: v.optional(v.string()),
});
const updateBody = v.object({
	name: v.optional(v.pipe(v.string(), v.minLength(1))),
	visibility: v.optional(v.picklist(['selected', 'all'])),
	allows_public_repositories: v.optional(v.boolean()),
	restricted_to_workflows: v.optional(v.boolean()),
	selected_workflows: v.optional(v.array(v.string())),
	network_configuration_id: v.optional(v.nullable(v.string())),
});

/** Every route: enterprise owners, classic/OAuth tokens with manage_runners:enterprise (the spec). */
const POLICY = {
	access: 'authenticated' as const,
	permissions: [],
	scopes: ['manage_runners:enterprise'],
	tokens: ['classic', 'oauth'] as RouteDeclaration['tokens'],
	resource: { enterprise: 'admin' as const },
	errorResource: 'RunnerGroup',
};

function loadGroup(ctx: Context): { slug: string; group: RunnerGroupRow; enterpriseId: number; owner: { enterprise: number } } {
	const ent = ctx.enterprise.enterprise;
	const groupId = idParam(ctx.params.runner_group_id);
	const group = groupId === null ? undefined : ctx.app.stores.runnerGroups.get({ enterprise: ent.id }, groupId);
	if (!group) throw notFound();
	return { slug: ent.slug, group, enterpriseId: ent.id, owner: { enterprise: ent.id } };
}

function loadOrgId(ctx: Context, enterpriseId: number): number {
	const orgId = idParam(ctx.params.org_id);
	const org = orgId === null ? undefined : ctx.app.stores.accounts.byId(orgId);
	if (!org || org.type !== 'Organization' || org.enterprise_id !== enterpriseId) throw notFound();
	return org.id;
}

function requireSelected(group: RunnerGroupRow): void {
	if (group.visibility !== 'selected') {
		throw unprocessable('The runner group must have visibility set to selected to choose its organizations.');
	}
}

export const runnerGroupRoutes = [
	route({
		...POLICY,
		method: 'GET',
		path: BASE,
		docs: 'enterprise-admin/actions#list-self-hosted-runner-groups-for-an-enterprise',
		query: v.object({ visible_to_organization: v.optional(v.string()) }),
		pagination: true,
		handler(ctx) {
			const ent = ctx.enterprise.enterprise;
			let visibleTo: number | null = null;
			if (ctx.query.visible_to_organization !== undefined) {
				const org = ctx.app.stores.accounts.organization(ctx.query.visible_to_organization);
				// An organization outside the enterprise can use none of its groups.
				if (!org || org.enterprise_id !== ent.id) return { status: 200, body: { total_count: 0, runner_groups: [] }, total: 0 };
				visibleTo = org.id;
			}
			const { rows, total } = ctx.app.stores.runnerGroups.list({
				enterpriseId: ent.id,
				visibleTo,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return {
				status: 200,
				body: { total_count: total, runner_groups: rows.map((g) => runnerGroup(ctx.app.urls, ent.slug, g)) },
				total,
			};
		},
	}),
	route({
		...POLICY,
		method: 'POST',
		path: BASE,
		docs: 'enterprise-admin/actions#create-a-self-hosted-runner-group-for-an-enterprise',
		body: createBody,
		handler(ctx) {
			const ent = ctx.enterprise.enterprise;
			const { stores } = ctx.app;
			const values = groupValues(ctx.app, { enterprise: ent.id }, ctx.body as GroupInput);
			const orgIds = enterpriseOrganizationIds(
				ctx.app,
				ent.id,
				ctx.body.selected_organization_ids ?? [],
				'selected_organization_ids',
			);
			const runners = ownerRunners(ctx.app, { enterprise: ent.id }, ctx.body.runners ?? [], 'runners');
			const group = stores.runnerGroups.insert({ enterprise: ent.id }, values, false, isoSeconds(ctx.now));
			for (const orgId of orgIds) stores.runnerGroups.addOrganization(group.id, orgId);
			for (const r of runners) stores.runnerGroups.moveRunner(r.id, group.id);
			return created(runnerGroup(ctx.app.urls, ent.slug, group));
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${BASE}/{runner_group_id}`,
		docs: 'enterprise-admin/actions#get-a-self-hosted-runner-group-for-an-enterprise',
		handler(ctx) {
			const { slug, group } = loadGroup(ctx);
			return ok(runnerGroup(ctx.app.urls, slug, group));
		},
	}),
	route({
		...POLICY,
		method: 'PATCH',
		path: `${BASE}/{runner_group_id}`,
		docs: 'enterprise-admin/actions#update-a-self-hosted-runner-group-for-an-enterprise',
		body: updateBody,
		handler(ctx) {
			const { slug, group, owner } = loadGroup(ctx);
			const values = groupValues(ctx.app, owner, ctx.body as GroupInput, group);
			const updated = ctx.app.stores.runnerGroups.update(group, values, isoSeconds(ctx.now));
			return ok(runnerGroup(ctx.app.urls, slug, updated));
		},
	}),
	route({
		...POLICY,
		method: 'DELETE',
		path: `${BASE}/{runner_group_id}`,
		docs: 'enterprise-admin/actions#delete-a-self-hosted-runner-group-from-an-enterprise',
		handler(ctx) {
			const { group, owner } = loadGroup(ctx);
			deleteGroup(ctx.app, owner, group);
			return noContent();
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${BASE}/{runner_group_id}/organizations`,
		docs: 'enterprise-admin/actions#list-organization-access-to-a-self-hosted-runner-group-in-an-enterprise',
		pagination: true,
		handler(ctx) {
			const { group } = loadGroup(ctx);
			const { rows, total } = ctx.app.stores.runnerGroups.organizations(group.id, ctx.page.perPage, ctx.page.offset);
			return { status: 200, body: { total_count: total, organizations: rows.map((org) => orgSimple(ctx.app.urls, org)) }, total };
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${BASE}/{runner_group_id}/organizations`,
		docs: 'enterprise-admin/actions#set-organization-access-for-a-self-hosted-runner-group-in-an-enterprise',
		body: v.object({ selected_organization_ids: v.array(id) }),
		handler(ctx) {
			const { group, enterpriseId } = loadGroup(ctx);
			requireSelected(group);
			const ids = enterpriseOrganizationIds(ctx.app, enterpriseId, ctx.body.selected_organization_ids, 'selected_organization_ids');
			ctx.app.stores.runnerGroups.clearOrganizations(group.id);
			for (const orgId of ids) ctx.app.stores.runnerGroups.addOrganization(group.id, orgId);
			return noContent();
		},
	}),
	...(['PUT', 'DELETE'] as const).map((method) =>
		route({
			...POLICY,
			method,
			path: `${BASE}/{runner_group_id}/organizations/{org_id}`,
			docs:
				method === 'PUT'
					? 'enterprise-admin/actions#add-organization-access-to-a-self-hosted-runner-group-in-an-enterprise'
					: 'enterprise-admin/actions#remove-organization-access-to-a-self-hosted-runner-group-in-an-enterprise',
			handler(ctx) {
				const { group, enterpriseId } = loadGroup(ctx);
				const orgId = loadOrgId(ctx, enterpriseId);
				requireSelected(group);
				if (method === 'PUT') ctx.app.stores.runnerGroups.addOrganization(group.id, orgId);
				else ctx.app.stores.runnerGroups.removeOrganization(group.id, orgId);
				return noContent();
			},
		}),
	),
	route({
		...POLICY,
		method: 'GET',
		path: `${BASE}/{runner_group_id}/runners`,
		docs: 'enterprise-admin/actions#list-self-hosted-runners-in-a-group-for-an-enterprise',
		pagination: true,
		handler(ctx) {
			const { group } = loadGroup(ctx);
			const { rows, total } = ctx.app.stores.runnerGroups.runners(group.id, ctx.page.perPage, ctx.page.offset);
			const labels = ctx.app.stores.runnerGroups.labels(rows.map((r) => r.id));
			return { status: 200, body: { total_count: total, runners: rows.map((r) => runner(r, labels)) }, total };
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${BASE}/{runner_group_id}/runners`,
		docs: 'enterprise-admin/actions#set-self-hosted-runners-in-a-group-for-an-enterprise',
		body: v.object({ runners: v.array(id) }),
		handler(ctx) {
			const { group, owner } = loadGroup(ctx);
			setGroupRunners(ctx.app, owner, group, ctx.body.runners);
			return noContent();
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${BASE}/{runner_group_id}/runners/{runner_id}`,
		docs: 'enterprise-admin/actions#add-a-self-hosted-runner-to-a-group-for-an-enterprise',
		handler(ctx) {
			const { group, owner } = loadGroup(ctx);
			const runnerId = idParam(ctx.params.runner_id);
			const found = runnerId === null ? undefined : ctx.app.stores.runnerGroups.runner(owner, runnerId);
			if (!found) throw notFound();
			ctx.app.stores.runnerGroups.moveRunner(found.id, group.id);
			return noContent();
		},
	}),
	route({
		...POLICY,
		method: 'DELETE',
		path: `${BASE}/{runner_group_id}/runners/{runner_id}`,
		docs: 'enterprise-admin/actions#remove-a-self-hosted-runner-from-a-group-for-an-enterprise',
		handler(ctx) {
			const { group, owner } = loadGroup(ctx);
			const runnerId = idParam(ctx.params.runner_id);
			const found = runnerId === null ? undefined : ctx.app.stores.runnerGroups.runner(owner, runnerId);
			if (!found) throw notFound();
			removeGroupRunner(ctx.app, owner, group, found);
			return noContent();
		},
	}),
];
