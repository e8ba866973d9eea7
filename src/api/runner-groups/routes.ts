/**
 * Enterprise self-hosted runner groups (https://docs.github.com/en/enterprise-server@3.19/rest/actions/self-hosted-runner-groups): list, create, get,
 * update, delete, and the organization and runner membership routes GitHub has for enterprise
 * groups. Enterprise owners with classic or OAuth tokens holding manage_runners:enterprise only.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { idParam } from '../../http/route';
import { orgSimple } from '../../model/render';
import { type GroupPolicy, type GroupScope, groupRoutes, groupSettings, ids } from './group-routes';
import { runnerGroup } from './render';
import { enterpriseOrganizationIds } from './service';

const createBody = v.object({
	name: v.pipe(v.string(), v.minLength(1, 'name is required')),
	visibility: v.optional(v.picklist(['selected', 'all'])),
	selected_organization_ids: v.optional(ids),
	runners: v.optional(ids),
	...groupSettings,
	network_configuration_id: v.optional(v.string()),
});
const updateBody = v.object({
	name: v.optional(v.pipe(v.string(), v.minLength(1))),
	visibility: v.optional(v.picklist(['selected', 'all'])),
	...groupSettings,
	network_configuration_id: v.optional(v.nullable(v.string())),
});

/** Every route: enterprise owners, classic/OAuth tokens with manage_runners:enterprise (GitHub's enterprise runner-group documentation). */
const POLICY: GroupPolicy = {
	access: 'authenticated',
	permissions: [],
	scopes: ['manage_runners:enterprise'],
	tokens: ['classic', 'oauth'],
	resource: { enterprise: 'admin' },
	errorResource: 'RunnerGroup',
};

/** An enterprise's runner groups: its organizations are the members a `selected` group chooses. */
const enterpriseGroups: GroupScope = {
	base: '/enterprises/{enterprise}/actions/runner-groups',
	docs: { page: 'enterprise-admin/actions', owner: 'enterprise' },
	policy: { read: POLICY, write: POLICY, runners: POLICY },
	listQuery: v.object({ visible_to_organization: v.optional(v.string()) }),
	createBody,
	updateBody,
	owner: (ctx) => ({ enterprise: ctx.enterprise.enterprise.id }),
	list(ctx) {
		const ent = ctx.enterprise.enterprise;
		let visibleTo: number | null = null;
		const login = ctx.query.visible_to_organization as string | undefined;
		if (login !== undefined) {
			const org = ctx.app.stores.accounts.organization(login);
			// An organization outside the enterprise can use none of its groups.
			if (!org || org.enterprise_id !== ent.id) return { rows: [], total: 0 };
			visibleTo = org.id;
		}
		return ctx.app.stores.runnerGroups.list({ enterpriseId: ent.id, visibleTo, limit: ctx.page.perPage, offset: ctx.page.offset });
	},
	group(ctx) {
		const groupId = idParam(ctx.params.runner_group_id);
		const group = groupId === null ? undefined : ctx.app.stores.runnerGroups.get({ enterprise: ctx.enterprise.enterprise.id }, groupId);
		if (!group) throw notFound();
		return group;
	},
	render: (ctx, group) => runnerGroup(ctx.app.urls, ctx.enterprise.enterprise.slug, group),
	members: {
		name: 'organizations',
		noun: 'organization',
		field: 'selected_organization_ids',
		param: '{org_id}',
		whileSelected: false,
		resolve: (ctx, ids) => enterpriseOrganizationIds(ctx.app, ctx.enterprise.enterprise.id, ids, 'selected_organization_ids'),
		one(ctx) {
			const orgId = idParam(ctx.params.org_id);
			const org = orgId === null ? undefined : ctx.app.stores.accounts.byId(orgId);
			if (!org || org.type !== 'Organization' || org.enterprise_id !== ctx.enterprise.enterprise.id) throw notFound();
			return org.id;
		},
		page(ctx, groupId) {
			const { rows, total } = ctx.app.stores.runnerGroups.organizations(groupId, ctx.page.perPage, ctx.page.offset);
			return { items: rows.map((org) => orgSimple(ctx.app.urls, org)), total };
		},
		add: (ctx, groupId, id) => ctx.app.stores.runnerGroups.addOrganization(groupId, id),
		remove: (ctx, groupId, id) => ctx.app.stores.runnerGroups.removeOrganization(groupId, id),
		clear: (ctx, groupId) => ctx.app.stores.runnerGroups.clearOrganizations(groupId),
	},
	// Enterprise runner groups have no audit-log events here.
	audit: () => undefined,
};

export const runnerGroupRoutes = groupRoutes(enterpriseGroups);
