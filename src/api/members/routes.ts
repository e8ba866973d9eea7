/**
 * Organization members and memberships (https://docs.github.com/en/rest/orgs/members): members, memberships, public members,
 * and the authenticated user's own memberships.
 */
import * as v from 'valibot';
import { boundAccountId } from '../../auth/principal';
import { forbidden, notFound } from '../../model/errors';
import { noContent, ok, paged, redirect } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import type { AccountRow } from '../../model/rows';
import { orgMembership } from './render';
import { acceptInvitation, listOrganizationMembers, removeMember, setMembership } from './service';
import { MEMBERS_READ } from './access';

const membersQuery = v.object({
	// Gitstead has no two-factor authentication: every member counts as 2fa_disabled, none as 2fa_insecure.
	filter: v.optional(v.picklist(['all', '2fa_disabled', '2fa_insecure'])),
	role: v.optional(v.picklist(['all', 'admin', 'member'])),
});

function loadUser(ctx: Context): AccountRow {
	const user = ctx.app.stores.accounts.user(ctx.params.username);
	if (!user) throw notFound();
	return user;
}

function activeMember(ctx: Context, orgId: number, userId: number): boolean {
	return ctx.app.stores.memberships.get(orgId, userId)?.state === 'active';
}

function listMembers(ctx: Context<v.InferOutput<typeof membersQuery>>, publicOnly: boolean) {
	if (ctx.query.filter === '2fa_insecure') return paged([], 0);
	const { items, total } = listOrganizationMembers(
		ctx.app,
		ctx.org,
		{ role: ctx.query.role ?? 'all', publicOnly },
		{ limit: ctx.page.perPage, offset: ctx.page.offset },
	);
	return paged(items, total);
}

/** DELETE an organization membership: owners remove anyone, members themselves. */
function removeMembership(ctx: Context) {
	const { org, ...access } = ctx.org;
	const user = loadUser(ctx);
	if (!access.admin && access.userId !== user.id) throw forbidden(`You must be an owner of ${org.login} to remove members.`);
	if (!removeMember(ctx.app, org, user.id, access.actorId)) throw notFound();
	return noContent();
}

/**
 * DELETE …/members/{username} and …/memberships/{username}: the same removal. The guard admits
 * members (reading the organization); the handler lets owners remove anyone, members themselves.
 */
const REMOVE_MEMBERSHIP = {
	permissions: 'matrix',
	access: 'authenticated',
	resource: { org: 'read' },
	handler: removeMembership,
} as const;

export const memberRoutes = [
	route({
		method: 'GET',
		path: '/orgs/{org}/members',
		docs: 'orgs/members#list-organization-members',
		permissions: 'matrix',
		...MEMBERS_READ,
		errorResource: 'Member',
		query: membersQuery,
		pagination: true,
		handler: (ctx) => listMembers(ctx, false),
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/members/{username}',
		docs: 'orgs/members#check-organization-membership-for-a-user',
		permissions: 'matrix',
		access: 'public',
		resource: { org: 'read' },
		handler(ctx) {
			const { org, ...access } = ctx.org;
			if (!access.member) {
				// Non-members are sent to the public membership check (https://docs.github.com/en/rest/orgs/members).
				return redirect(ctx.app.urls.api(`/orgs/${org.login}/public_members/${encodeURIComponent(ctx.params.username)}`));
			}
			const user = loadUser(ctx);
			if (!activeMember(ctx, org.id, user.id)) throw notFound();
			return noContent();
		},
	}),
	route({
		method: 'DELETE',
		path: '/orgs/{org}/members/{username}',
		docs: 'orgs/members#remove-an-organization-member',
		...REMOVE_MEMBERSHIP,
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/memberships/{username}',
		docs: 'orgs/members#get-organization-membership-for-a-user',
		permissions: 'matrix',
		access: 'authenticated',
		// Members see every membership, a user their own: private to the caller either way.
		resource: { org: 'read', bound: true },
		handler(ctx) {
			const { org, ...access } = ctx.org;
			const user = loadUser(ctx);
			if (!access.member && access.userId !== user.id)
				throw forbidden(`You must be a member of ${org.login} to see its memberships.`);
			const membership = ctx.app.stores.memberships.get(org.id, user.id);
			if (!membership) throw notFound();
			return ok(orgMembership(ctx.app.urls, org, user, membership));
		},
	}),
	route({
		method: 'PUT',
		path: '/orgs/{org}/memberships/{username}',
		docs: 'orgs/members#set-organization-membership-for-a-user',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'owner' },
		errorResource: 'Membership',
		body: v.object({ role: v.optional(v.picklist(['admin', 'member'])) }),
		handler(ctx) {
			const access = ctx.org;
			const user = loadUser(ctx);
			const membership = setMembership(ctx.app, access.org, user, ctx.body.role ?? 'member', access.userId, isoSeconds(ctx.now));
			return ok(orgMembership(ctx.app.urls, access.org, user, membership));
		},
	}),
	route({
		method: 'DELETE',
		path: '/orgs/{org}/memberships/{username}',
		docs: 'orgs/members#remove-organization-membership-for-a-user',
		...REMOVE_MEMBERSHIP,
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/public_members',
		docs: 'orgs/members#list-public-organization-members',
		permissions: 'matrix',
		access: 'public',
		resource: { org: 'read' },
		errorResource: 'Member',
		query: membersQuery,
		pagination: true,
		handler: (ctx) => listMembers(ctx, true),
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/public_members/{username}',
		docs: 'orgs/members#check-public-organization-membership-for-a-user',
		permissions: 'matrix',
		access: 'public',
		resource: { org: 'read' },
		handler(ctx) {
			const { org } = ctx.org;
			const user = loadUser(ctx);
			const membership = ctx.app.stores.memberships.get(org.id, user.id);
			if (membership?.state !== 'active' || membership.public !== 1) throw notFound();
			return noContent();
		},
	}),
	...(['PUT', 'DELETE'] as const).map((method) =>
		route({
			method,
			path: '/orgs/{org}/public_members/{username}',
			docs:
				method === 'PUT'
					? 'orgs/members#set-public-organization-membership-for-the-authenticated-user'
					: 'orgs/members#remove-public-organization-membership-for-the-authenticated-user',
			permissions: 'matrix',
			access: 'authenticated',
			// A user publicizes or conceals their own membership, with a token that reaches the organization.
			resource: { org: 'read' },
			handler(ctx) {
				const { org, userId } = ctx.org;
				const user = loadUser(ctx);
				if (userId !== user.id) throw forbidden('You can only publicize or conceal your own membership.');
				if (!activeMember(ctx, org.id, user.id)) throw forbidden(`${user.login} is not a member of ${org.login}.`);
				ctx.app.stores.memberships.setPublic(org.id, user.id, method === 'PUT');
				return noContent();
			},
		}),
	),
	route({
		method: 'GET',
		path: '/user/memberships/orgs',
		docs: 'orgs/members#list-organization-memberships-for-the-authenticated-user',
		permissions: [],
		scopes: ['read:org', 'write:org', 'admin:org'],
		access: 'authenticated',
		resource: { self: true },
		errorResource: 'Membership',
		query: v.object({ state: v.optional(v.picklist(['active', 'pending'])) }),
		pagination: true,
		handler(ctx) {
			const self = ctx.principal.user!;
			const user = ctx.app.stores.accounts.byId(self.id)!;
			// A token bound to one account (fine-grained, user-to-server) lists only the membership it reaches.
			const { rows, total } = ctx.app.stores.memberships.forUser({
				userId: self.id,
				orgId: boundAccountId(ctx.principal),
				state: ctx.query.state ?? 'all',
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			const orgs = ctx.app.stores.accounts.mapByIds(rows.map((row) => row.org_id));
			return paged(
				rows.map((row) => orgMembership(ctx.app.urls, orgs.get(row.org_id)!, user, row)),
				total,
			);
		},
	}),
	route({
		method: 'GET',
		path: '/user/memberships/orgs/{org}',
		docs: 'orgs/members#get-an-organization-membership-for-the-authenticated-user',
		permissions: 'matrix',
		access: 'authenticated',
		// The caller's own membership: private, so only with a token that reaches the organization.
		resource: { self: true, org: 'read', bound: true },
		handler(ctx) {
			const self = ctx.principal.user!;
			const { org } = ctx.org;
			const membership = ctx.app.stores.memberships.get(org.id, self.id);
			if (!membership) throw notFound();
			return ok(orgMembership(ctx.app.urls, org, ctx.app.stores.accounts.byId(self.id)!, membership));
		},
	}),
	route({
		method: 'PATCH',
		path: '/user/memberships/orgs/{org}',
		docs: 'orgs/members#update-an-organization-membership-for-the-authenticated-user',
		permissions: 'matrix',
		access: 'authenticated',
		errorResource: 'Membership',
		resource: { self: true, org: 'read' },
		body: v.object({ state: v.picklist(['active'], 'state must be "active"') }),
		handler(ctx) {
			const self = ctx.principal.user!;
			const { org } = ctx.org;
			const membership = ctx.app.stores.memberships.get(org.id, self.id);
			if (!membership) throw notFound();
			if (membership.state === 'pending') acceptInvitation(ctx.app, org, self.id);
			return ok(
				orgMembership(ctx.app.urls, org, ctx.app.stores.accounts.byId(self.id)!, ctx.app.stores.memberships.get(org.id, self.id)!),
			);
		},
	}),
];
