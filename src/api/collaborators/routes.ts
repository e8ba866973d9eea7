/**
 * Collaborators and repository invitations (GitHub's "Collaborators" and "Repository invitations"
 * REST docs): a repository's collaborators with their roles from every source, checking one, their
 * permission, adding (an invitation for a user who is not yet a collaborator), removing; a
 * repository's invitations (administrators) and the invitee's own (accept, decline).
 */
import * as v from 'valibot';
import { forbidden, notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { userRepoPermission } from '../../auth/access/repos';
import { REPO_PERMISSIONS, type RepoPermission } from '../../model/repo-permissions';
import { isoSeconds } from '../../time';
import type { AccountRow } from '../../model/rows';
import { collaborator, collaboratorPermission, invitation } from './render';
import {
	acceptInvitation,
	addCollaborator,
	assertPermissionFits,
	declineInvitation,
	grantedPermission,
	grantScope,
	removeCollaborator,
} from './service';
import { permissionRank, rankPermission, type InvitationRow } from './store';
import { repositoryRole } from '../roles/service';

/**
 * Reading collaborators: GitHub's fine-grained list puts them under Metadata, which every
 * fine-grained and app token holds; so no permission beyond it is asked (the repository role is).
 */
const METADATA_READ = { permissions: [], access: 'authenticated' as const };
/** Managing collaborators and invitations: the Administration repository permission. */
const ADMINISTRATION_READ = { permissions: [{ administration: 'read' as const }], access: 'authenticated' as const };
const ADMINISTRATION_WRITE = { permissions: [{ administration: 'write' as const }], access: 'authenticated' as const };
/**
 * The invitee's own invitations: classic and OAuth tokens with `repo` or `repo:invite` ("accept /
 * decline abilities for invitations to collaborate on a repository"); GitHub serves them to no app.
 */
const INVITEE = {
	permissions: [],
	access: 'authenticated' as const,
	tokens: ['classic', 'oauth'] as Array<'classic' | 'oauth'>,
	scopes: ['repo', 'repo:invite'],
	resource: { self: true } as const,
};

const permissionPick = v.picklist(REPO_PERMISSIONS as RepoPermission[], 'permission must be one of pull, triage, push, maintain, admin');
const listQuery = v.object({
	affiliation: v.optional(v.picklist(['outside', 'direct', 'all'], 'affiliation must be one of outside, direct, all'), 'all'),
	permission: v.optional(permissionPick),
});
/** `permission`: a repository role, or a custom repository role's name (src/api/roles/service.ts). */
const addBody = v.object({ permission: v.optional(v.pipe(v.string(), v.maxLength(100)), 'push') });
/** PATCH …/invitations/{invitation_id}: the role in the invitation's own spelling. */
const INVITATION_ROLES: Record<string, RepoPermission> = {
	read: 'pull',
	triage: 'triage',
	write: 'push',
	maintain: 'maintain',
	admin: 'admin',
};
const invitationBody = v.object({
	permissions: v.optional(v.picklist(Object.keys(INVITATION_ROLES), 'permissions must be one of read, write, maintain, triage, admin')),
});

/** The user {username} (an account that is a user). @throws DomainError 404 */
function userParam(ctx: Context): AccountRow {
	const user = ctx.app.stores.accounts.user(ctx.params.username);
	if (!user) throw notFound();
	return user;
}

/** An invitation rendered for any caller (its repository and people loaded). */
function renderInvitation(ctx: Context, row: InvitationRow) {
	const { stores } = ctx.app;
	const repo = stores.repos.byId(row.repo_id)!;
	const owner = stores.accounts.byId(repo.owner_id)!;
	const people = {
		invitee: stores.accounts.byId(row.invitee_id),
		inviter: row.inviter_id === null ? undefined : stores.accounts.byId(row.inviter_id),
	};
	return invitation(ctx.app.urls, row, repo, owner, people, isoSeconds(ctx.now));
}

/** The repository's invitation {invitation_id}. @throws DomainError 404 */
function repositoryInvitation(ctx: Context): InvitationRow {
	const id = idParam(ctx.params.invitation_id);
	const row = id === null ? undefined : ctx.app.stores.collaborators.invitation(id);
	if (!row || row.repo_id !== ctx.repo.repo.id) throw notFound();
	return row;
}

export const collaboratorRoutes = [
	route({
		...METADATA_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/collaborators',
		docs: 'collaborators/collaborators#list-repository-collaborators',
		resource: { repo: 'push' },
		errorResource: 'Collaborator',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			// "For organization-owned repositories, the authenticated user needs to be a member of the organization."
			const user = ctx.principal.user;
			if (owner.type === 'Organization' && user && ctx.app.stores.memberships.get(owner.id, user.id)?.state !== 'active') {
				throw forbidden(`You must be a member of ${owner.login} to list repository collaborators.`);
			}
			const { rows, total } = ctx.app.stores.collaborators.list(grantScope(repo, owner), {
				affiliation: ctx.query.affiliation,
				minRank: ctx.query.permission ? permissionRank(ctx.query.permission) : 1,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(
				rows.map((row) => collaborator(ctx.app.urls, row, rankPermission(row.rank))),
				total,
			);
		},
	}),
	route({
		...METADATA_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/collaborators/{username}',
		docs: 'collaborators/collaborators#check-if-a-user-is-a-repository-collaborator',
		resource: { repo: 'push' },
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			const user = userParam(ctx);
			if (!grantedPermission(ctx.app, repo, owner, user.id)) throw notFound();
			return noContent();
		},
	}),
	route({
		...ADMINISTRATION_WRITE,
		method: 'PUT',
		path: '/repos/{owner}/{repo}/collaborators/{username}',
		docs: 'collaborators/collaborators#add-a-repository-collaborator',
		// Collaborators are not the repository's content: an archived repository keeps managing them.
		resource: { repo: 'admin', writable: false },
		errorResource: 'Repository',
		body: addBody,
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			const role = repositoryRole(ctx.app, owner, ctx.body.permission, 'Repository');
			const result = addCollaborator(
				ctx.app,
				repo,
				owner,
				userParam(ctx),
				role.permission,
				ctx.principal.actorId,
				ctx.now,
				role.roleId,
			);
			if (!result.invitation) return noContent();
			return created(renderInvitation(ctx, result.invitation));
		},
	}),
	route({
		...ADMINISTRATION_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/collaborators/{username}',
		docs: 'collaborators/collaborators#remove-a-repository-collaborator',
		// Administrators remove anyone; a collaborator may remove themselves.
		resource: { repo: 'read', writable: false },
		handler(ctx) {
			const { repo, owner, permission } = ctx.repo;
			const user = userParam(ctx);
			if (permission !== 'admin' && ctx.principal.user?.id !== user.id) throw forbidden('Must have admin rights to Repository.');
			removeCollaborator(ctx.app, repo, owner, user, ctx.principal.actorId, ctx.now);
			return noContent();
		},
	}),
	route({
		...METADATA_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/collaborators/{username}/permission',
		docs: 'collaborators/collaborators#get-repository-permissions-for-a-user',
		resource: { repo: 'push' },
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			const user = userParam(ctx);
			// The role from every source, public and internal visibility included ("read" for anyone on a public repository).
			return ok(collaboratorPermission(ctx.app.urls, user, userRepoPermission(ctx.app, repo, owner, user.id)));
		},
	}),
	route({
		...ADMINISTRATION_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/invitations',
		docs: 'collaborators/invitations#list-repository-invitations',
		resource: { repo: 'admin' },
		pagination: true,
		handler(ctx) {
			const { rows, total } = ctx.app.stores.collaborators.forRepository(ctx.repo.repo.id, ctx.page.perPage, ctx.page.offset);
			return paged(
				rows.map((row) => renderInvitation(ctx, row)),
				total,
			);
		},
	}),
	route({
		...ADMINISTRATION_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/invitations/{invitation_id}',
		docs: 'collaborators/invitations#update-a-repository-invitation',
		resource: { repo: 'admin', writable: false },
		errorResource: 'RepositoryInvitation',
		body: invitationBody,
		handler(ctx) {
			const row = repositoryInvitation(ctx);
			if (ctx.body.permissions === undefined) return ok(renderInvitation(ctx, row));
			const permission = INVITATION_ROLES[ctx.body.permissions];
			assertPermissionFits(ctx.repo.owner, permission, 'permissions');
			ctx.app.stores.collaborators.setPermission(row.id, permission);
			return ok(renderInvitation(ctx, { ...row, permission }));
		},
	}),
	route({
		...ADMINISTRATION_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/invitations/{invitation_id}',
		docs: 'collaborators/invitations#delete-a-repository-invitation',
		resource: { repo: 'admin', writable: false },
		handler(ctx) {
			ctx.app.stores.collaborators.removeInvitation(repositoryInvitation(ctx).id);
			return noContent();
		},
	}),
	route({
		...INVITEE,
		method: 'GET',
		path: '/user/repository_invitations',
		docs: 'collaborators/invitations#list-repository-invitations-for-the-authenticated-user',
		pagination: true,
		handler(ctx) {
			const { rows, total } = ctx.app.stores.collaborators.forInvitee(
				ctx.principal.user!.id,
				isoSeconds(ctx.now),
				ctx.page.perPage,
				ctx.page.offset,
			);
			return paged(
				rows.map((row) => renderInvitation(ctx, row)),
				total,
			);
		},
	}),
	route({
		...INVITEE,
		method: 'PATCH',
		path: '/user/repository_invitations/{invitation_id}',
		docs: 'collaborators/invitations#accept-a-repository-invitation',
		handler(ctx) {
			const id = idParam(ctx.params.invitation_id);
			if (id === null) throw notFound();
			acceptInvitation(ctx.app, id, ctx.app.stores.accounts.byId(ctx.principal.user!.id)!, ctx.now);
			return noContent();
		},
	}),
	route({
		...INVITEE,
		method: 'DELETE',
		path: '/user/repository_invitations/{invitation_id}',
		docs: 'collaborators/invitations#decline-a-repository-invitation',
		handler(ctx) {
			const id = idParam(ctx.params.invitation_id);
			if (id === null) throw notFound();
			declineInvitation(ctx.app, id, ctx.app.stores.accounts.byId(ctx.principal.user!.id)!, ctx.now);
			return noContent();
		},
	}),
];
