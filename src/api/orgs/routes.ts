/**
 * Organizations: GET, PATCH and DELETE /orgs/{org}, GET /organizations, GET /user/orgs,
 * GET /users/{username}/orgs (GitHub's orgs API).
 */
import * as v from 'valibot';
import { accepted, ok, paged } from '../../http/reply';
import { route } from '../../http/route';
import { isoSeconds } from '../../time';
import { ORG_READ, OWN_ORGS_READ, USER_ORGS_READ } from './access';
import { orgSimple } from '../../model/render';
import { deleteOrganization, listOwnOrganizations, listUserOrganizations, organizationProfile, updateOrganization } from './service';
import { orgFull } from './render';
import { MEMBER_POLICIES, ORG_FLAGS, type MemberPolicy, type OrgFlag } from '../users/store';

const nullableText = v.optional(v.nullable(v.string()));
const updateBody = v.object({
	name: nullableText,
	email: nullableText,
	company: nullableText,
	blog: nullableText,
	location: nullableText,
	description: nullableText,
	billing_email: nullableText,
	twitter_username: nullableText,
	default_repository_permission: v.optional(v.picklist(['read', 'write', 'admin', 'none'])),
	// Every members_can_* policy of organization-full (GitHub's PATCH takes most; Gitstead takes
	// members_can_create_teams, members_can_delete_repositories and the rest too).
	...(Object.fromEntries(MEMBER_POLICIES.map((key) => [key, v.optional(v.boolean(`${key} must be a boolean`))])) as Record<
		MemberPolicy,
		v.OptionalSchema<v.BooleanSchema<string>, undefined>
	>),
	members_allowed_repository_creation_type: v.optional(
		v.picklist(['all', 'private', 'none'], 'members_allowed_repository_creation_type must be all, private or none'),
	),
	has_organization_projects: v.optional(v.boolean()),
	has_repository_projects: v.optional(v.boolean()),
	// web_commit_signoff_required, the (deprecated) security defaults for new repositories, deploy keys.
	...(Object.fromEntries(ORG_FLAGS.map((key) => [key, v.optional(v.boolean(`${key} must be a boolean`))])) as Record<
		OrgFlag,
		v.OptionalSchema<v.BooleanSchema<string>, undefined>
	>),
	secret_scanning_push_protection_custom_link: nullableText,
});

const sinceQuery = v.object({
	since: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'since must be an organization id'))),
});

export const orgRoutes = [
	route({
		method: 'GET',
		path: '/orgs/{org}',
		docs: 'orgs/orgs#get-an-organization',
		...ORG_READ,
		handler: (ctx) => ok(organizationProfile(ctx.app, ctx.org)),
	}),
	route({
		method: 'PATCH',
		path: '/orgs/{org}',
		docs: 'orgs/orgs#update-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'owner', conceal: 'outsiders' },
		errorResource: 'Organization',
		body: updateBody,
		// Terraform's github_organization_settings first sends `null`: nothing changes, the organization answers.
		nullBody: true,
		handler(ctx) {
			const access = ctx.org;
			const updated = updateOrganization(ctx.app, access.org, ctx.body, access.actorId, isoSeconds(ctx.now));
			return ok(
				orgFull(
					ctx.app.urls,
					updated,
					ctx.app.stores.accounts.counts(updated.id),
					access,
					ctx.app.stores.accounts.seats(updated.id),
				),
			);
		},
	}),
	route({
		method: 'DELETE',
		path: '/orgs/{org}',
		docs: 'orgs/orgs#delete-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'owner', conceal: 'outsiders' },
		errorResource: 'Organization',
		handler(ctx) {
			deleteOrganization(ctx.app, ctx.org.org, ctx.org.actorId);
			// GitHub's 202 Accepted with an empty object; the organization answers 404 from now on.
			return accepted({});
		},
	}),
	route({
		method: 'GET',
		path: '/organizations',
		docs: 'orgs/orgs#list-organizations',
		permissions: [],
		access: 'public',
		resource: 'none',
		query: sinceQuery,
		pagination: true,
		handler(ctx) {
			const perPage = ctx.page.perPage; // paginated by `since`, not `page`
			const since = Number(ctx.query.since ?? 0);
			const rows = ctx.app.stores.orgs.list(since, perPage);
			const headers: Record<string, string> = {};
			if (rows.length === perPage) {
				headers.Link = `<${ctx.app.urls.api('/organizations')}?per_page=${perPage}&since=${rows[rows.length - 1].id}>; rel="next"`;
			}
			return { status: 200, body: rows.map((org) => orgSimple(ctx.app.urls, org)), headers };
		},
	}),
	route({
		method: 'GET',
		path: '/user/orgs',
		docs: 'orgs/orgs#list-organizations-for-the-authenticated-user',
		...OWN_ORGS_READ,
		pagination: true,
		handler(ctx) {
			const { items, total } = listOwnOrganizations(ctx, { limit: ctx.page.perPage, offset: ctx.page.offset });
			return paged(items, total);
		},
	}),
	route({
		method: 'GET',
		path: '/users/{username}/orgs',
		docs: 'orgs/orgs#list-organizations-for-a-user',
		...USER_ORGS_READ,
		pagination: true,
		handler(ctx) {
			const { items, total } = listUserOrganizations(ctx, ctx.params.username, { limit: ctx.page.perPage, offset: ctx.page.offset });
			return paged(items, total);
		},
	}),
];
