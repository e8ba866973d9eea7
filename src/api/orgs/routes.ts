/**
 * Organizations: GET, PATCH and DELETE /orgs/{org}, GET /organizations, GET /user/orgs,
 * GET /users/{username}/orgs (GitHub's orgs API).
 */
import * as v from 'valibot';
import { boundAccountId, reachesAccount } from '../../auth/principal';
import { events } from '../../events/catalog';
import { notFound, validationFailed, type ValidationItem } from '../../model/errors';
import { accepted, ok, paged } from '../../http/reply';
import { route } from '../../http/route';
import { isoSeconds } from '../../time';
import { deleteForksWithoutAccess } from '../repos/service';
import { orgFull, orgSimple } from './render';
import { deleteOrganization } from './service';
import { MEMBER_POLICIES, ORG_FLAGS, type AccountRow, type MemberPolicy, type OrgFlag, type OrgSettings } from '../users/store';

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

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const TWITTER = /^[A-Za-z0-9_]{1,15}$/;

/**
 * GitHub's validation of the profile fields of an update: email addresses, a Twitter username, an
 * http(s) custom link for push protection.
 * @throws DomainError 422 listing every invalid field
 */
function checkProfile(body: v.InferOutput<typeof updateBody>): void {
	const problems: ValidationItem[] = [];
	const invalid = (field: string, message: string) => problems.push({ resource: 'Organization', field, code: 'invalid', message });
	for (const field of ['email', 'billing_email'] as const) {
		const value = body[field];
		if (value && !EMAIL.test(value)) invalid(field, `${field} is not a valid email address`);
	}
	if (body.twitter_username && !TWITTER.test(body.twitter_username))
		invalid('twitter_username', 'twitter_username is not a valid Twitter username');
	const link = body.secret_scanning_push_protection_custom_link;
	if (link && !/^https?:\/\/[^\s]+$/.test(link))
		invalid('secret_scanning_push_protection_custom_link', 'secret_scanning_push_protection_custom_link must be an http(s) URL');
	for (const field of ['name', 'company', 'location', 'description', 'blog'] as const) {
		const value = body[field];
		if (value && value.length > (field === 'description' ? 160 : 255)) invalid(field, `${field} is too long`);
	}
	if (problems.length) throw validationFailed(problems);
}

/**
 * The members_can_* policies after an update: each given one, the others as they are. The older
 * members_allowed_repository_creation_type (all | private | none) sets the creation policies
 * unless they are given themselves.
 */
function policies(
	body: Partial<Record<MemberPolicy, boolean>> & { members_allowed_repository_creation_type?: 'all' | 'private' | 'none' },
	org: AccountRow,
) {
	const settings = Object.fromEntries(MEMBER_POLICIES.map((key) => [key, org[key]])) as Record<MemberPolicy, number>;
	const type = body.members_allowed_repository_creation_type;
	if (type !== undefined) {
		settings.members_can_create_repositories = type === 'none' ? 0 : 1;
		settings.members_can_create_public_repositories = type === 'all' ? 1 : 0;
		settings.members_can_create_private_repositories = type === 'none' ? 0 : 1;
	}
	for (const key of MEMBER_POLICIES) if (body[key] !== undefined) settings[key] = body[key] ? 1 : 0;
	return settings;
}

const sinceQuery = v.object({
	since: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'since must be an organization id'))),
});

export const orgRoutes = [
	route({
		method: 'GET',
		path: '/orgs/{org}',
		docs: 'orgs/orgs#get-an-organization',
		permissions: [],
		access: 'public',
		resource: { org: 'read' },
		handler(ctx) {
			const access = ctx.org;
			return ok(
				orgFull(
					ctx.app.urls,
					access.org,
					ctx.app.stores.accounts.counts(access.org.id),
					access,
					ctx.app.stores.accounts.seats(access.org.id),
				),
			);
		},
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
			const org = access.org;
			const body = ctx.body;
			checkProfile(body);
			const flag = (value: boolean | undefined, current: number) => (value === undefined ? current : value ? 1 : 0);
			type TextField =
				| 'name'
				| 'email'
				| 'company'
				| 'blog'
				| 'location'
				| 'description'
				| 'billing_email'
				| 'twitter_username'
				| 'secret_scanning_push_protection_custom_link';
			const text = (key: TextField): string | null => (body[key] !== undefined ? (body[key] ?? null) : org[key]);
			const settings: OrgSettings = {
				name: text('name'),
				email: text('email'),
				company: text('company'),
				blog: text('blog'),
				location: text('location'),
				description: text('description'),
				billing_email: text('billing_email'),
				twitter_username: text('twitter_username'),
				secret_scanning_push_protection_custom_link: text('secret_scanning_push_protection_custom_link'),
				default_repository_permission: body.default_repository_permission ?? org.default_repository_permission,
				...policies(body, org),
				...(Object.fromEntries(ORG_FLAGS.map((key) => [key, flag(body[key], org[key])])) as Record<OrgFlag, number>),
				has_organization_projects: flag(body.has_organization_projects, org.has_organization_projects),
				has_repository_projects: flag(body.has_repository_projects, org.has_repository_projects),
			};
			ctx.app.stores.accounts.updateOrgSettings(org.id, settings, isoSeconds(ctx.now));
			// GitHub reports settings to its audit log only (the organization webhook has no action for them).
			events.orgAudit(ctx.app, org, 'update', access.actorId);
			// A lower base permission may take members' read access to private repositories.
			if (settings.default_repository_permission !== org.default_repository_permission) {
				deleteForksWithoutAccess(ctx.app, ctx.app.stores.accounts.byId(org.id)!, access.actorId);
			}
			const updated = ctx.app.stores.accounts.byId(org.id)!;
			return ok(
				orgFull(ctx.app.urls, updated, ctx.app.stores.accounts.counts(org.id), access, ctx.app.stores.accounts.seats(org.id)),
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
		permissions: [],
		scopes: ['user', 'read:org', 'write:org', 'admin:org'],
		access: 'authenticated',
		resource: { self: true },
		pagination: true,
		handler(ctx) {
			const user = ctx.principal.user!;
			// A token bound to one account (fine-grained, user-to-server) lists only the organization it reaches.
			const { rows, total } = ctx.app.stores.orgs.ofUser({
				userId: user.id,
				orgId: boundAccountId(ctx.principal),
				publicOnly: false,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(
				rows.map((org) => orgSimple(ctx.app.urls, org)),
				total,
			);
		},
	}),
	route({
		method: 'GET',
		path: '/users/{username}/orgs',
		docs: 'orgs/orgs#list-organizations-for-a-user',
		permissions: [],
		access: 'public',
		resource: 'none',
		pagination: true,
		handler(ctx) {
			const user = ctx.app.stores.accounts.user(ctx.params.username);
			if (!user) throw notFound();
			// Concealed memberships only to the user, with a token that reaches the user's own account.
			const self = !ctx.publicView && ctx.principal.user?.id === user.id && reachesAccount(ctx.principal, user.id);
			const { rows, total } = ctx.app.stores.orgs.ofUser({
				userId: user.id,
				publicOnly: !self,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(
				rows.map((org) => orgSimple(ctx.app.urls, org)),
				total,
			);
		},
	}),
];
