/**
 * Outside collaborators (https://docs.github.com/en/rest/orgs/outside-collaborators).
 */
import * as v from 'valibot';
import { notFound, unprocessable } from '../../model/errors';
import { accepted, noContent, paged } from '../../http/reply';
import { route } from '../../http/route';
import { isoSeconds } from '../../time';
import { simpleUser } from '../../model/render';
import { events } from '../../events/catalog';
import { deleteForksWithoutAccess } from '../repos/service';
import { assertConvertible, convertToOutsideCollaborator, CONVERT_TASK } from './service';

export const outsideCollaboratorRoutes = [
	route({
		method: 'GET',
		path: '/orgs/{org}/outside_collaborators',
		docs: 'orgs/outside-collaborators#list-outside-collaborators-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'member' },
		errorResource: 'OutsideCollaborator',
		// Gitstead has no two-factor authentication: everyone counts as 2fa_disabled, no one as 2fa_insecure.
		query: v.object({ filter: v.optional(v.picklist(['all', '2fa_disabled', '2fa_insecure'])) }),
		pagination: true,
		handler(ctx) {
			const access = ctx.org;
			if (ctx.query.filter === '2fa_insecure') return paged([], 0);
			const { rows, total } = ctx.app.stores.repos.outsideCollaborators({
				orgId: access.org.id,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(
				rows.map((row) => simpleUser(ctx.app.urls, row)),
				total,
			);
		},
	}),
	route({
		method: 'PUT',
		path: '/orgs/{org}/outside_collaborators/{username}',
		docs: 'orgs/outside-collaborators#convert-an-organization-member-to-outside-collaborator',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'owner' },
		errorResource: 'OutsideCollaborator',
		body: v.object({ async: v.optional(v.boolean()) }),
		handler(ctx) {
			const access = ctx.org;
			const user = ctx.app.stores.accounts.user(ctx.params.username);
			if (!user) throw notFound();
			const now = isoSeconds(ctx.now);
			if (ctx.body.async) {
				assertConvertible(ctx.app, access.org, user);
				ctx.app.tasks.enqueue(CONVERT_TASK, { orgId: access.org.id, userId: user.id, now, actorId: access.actorId });
				return accepted({});
			}
			convertToOutsideCollaborator(ctx.app, access.org, user, now, access.actorId);
			return noContent();
		},
	}),
	route({
		method: 'DELETE',
		path: '/orgs/{org}/outside_collaborators/{username}',
		docs: 'orgs/outside-collaborators#remove-outside-collaborator-from-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'owner' },
		handler(ctx) {
			const access = ctx.org;
			const user = ctx.app.stores.accounts.user(ctx.params.username);
			if (!user) throw notFound();
			if (ctx.app.stores.memberships.get(access.org.id, user.id)?.state === 'active') {
				throw unprocessable('You cannot specify an organization member to remove as an outside collaborator.');
			}
			for (const repo of ctx.app.stores.repos.forOwner(access.org.id)) {
				if (ctx.app.stores.repos.collaboratorPermission(repo.id, user.id))
					events.member(ctx.app, 'removed', repo, user, {}, access.actorId);
			}
			ctx.app.stores.repos.removeCollaborations(user.id, access.org.id);
			// Their pending invitations to the organization's repositories go too.
			for (const invitation of ctx.app.stores.collaborators.invitationsInOwner(user.id, access.org.id)) {
				ctx.app.stores.collaborators.removeInvitation(invitation.id);
			}
			deleteForksWithoutAccess(ctx.app, access.org, access.actorId);
			return noContent();
		},
	}),
];
