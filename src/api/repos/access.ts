/**
 * Who may see and change a repository. A repository the caller cannot see answers 404, never 403
 * (reference §1.3).
 */
import type { App } from '../../app';
import { forbidden, notFound } from '../../http/errors';
import type { Context } from '../../http/route';
import type { AccountRow } from '../users/store';
import { atLeast, basePermission, strongest, type RepoPermission } from './permissions';
import type { RepositoryRow } from './store';

export interface RepoAccess {
	repo: RepositoryRow;
	owner: AccountRow;
	/** The caller's permission; null only for a public repository seen without any role. */
	permission: RepoPermission | null;
}

/** A user's own permission on a repository (roles, collaborator grants, teams, base permission). */
export function userRepoPermission(app: App, repo: RepositoryRow, owner: AccountRow, userId: number): RepoPermission | null {
	if (owner.type === 'User') {
		if (owner.id === userId) return 'admin';
		return strongest(app.stores.repos.collaboratorPermission(repo.id, userId), repo.visibility === 'public' ? 'pull' : null);
	}
	const membership = app.stores.memberships.get(owner.id, userId);
	const member = membership?.state === 'active';
	if (member && membership.role === 'admin') return 'admin';
	let permission = app.stores.repos.collaboratorPermission(repo.id, userId) ?? null;
	for (const granted of app.stores.repos.teamPermissions(repo.id, userId)) permission = strongest(permission, granted);
	if (member) {
		permission = strongest(permission, basePermission(owner.default_repository_permission));
		if (repo.visibility === 'internal') permission = strongest(permission, 'pull');
	}
	if (repo.visibility === 'public') permission = strongest(permission, 'pull');
	return permission;
}

/**
 * The caller's permission, or null when the caller cannot see the repository. Installation tokens
 * act as the app on their own account's repositories; fine-grained and user-to-server tokens reach
 * only their resource owner; classic tokens need the `repo` scope for private repositories.
 */
export function callerRepoPermission(ctx: Context, repo: RepositoryRow, owner: AccountRow): RepoPermission | null {
	const { principal } = ctx;
	const publicPermission: RepoPermission | null = repo.visibility === 'public' ? 'pull' : null;
	if (ctx.publicView) return publicPermission;
	if (principal.kind === 'installation') {
		const reaches = principal.resourceOwnerId === owner.id && (principal.repositoryIds === null || principal.repositoryIds.has(repo.id));
		return reaches ? 'admin' : publicPermission;
	}
	if (!principal.user) return publicPermission;
	if (principal.resourceOwnerId !== null && principal.resourceOwnerId !== owner.id) return publicPermission;
	if ((principal.kind === 'classic' || principal.kind === 'oauth') && repo.visibility !== 'public' && !principal.scopes.has('repo')) {
		return null;
	}
	return userRepoPermission(ctx.app, repo, owner, principal.user.id);
}

/**
 * Loads `owner/repo` (both case-insensitive) with the caller's permission.
 * @throws HttpError 404 when it does not exist or the caller cannot see it.
 */
export function loadRepository(ctx: Context, ownerLogin = ctx.params.owner, name = ctx.params.repo): RepoAccess {
	const owner = ctx.app.stores.accounts.byLogin(ownerLogin);
	const repo = owner && ctx.app.stores.repos.byOwnerAndName(owner.id, name.replace(/\.git$/, ''));
	if (!owner || !repo) throw notFound();
	const permission = callerRepoPermission(ctx, repo, owner);
	if (!permission) throw notFound();
	return { repo, owner, permission };
}

/**
 * Loads `owner/repo` and requires a permission of the caller.
 * @throws HttpError 404 when the caller cannot see the repository, 403 when it can but lacks `needed`.
 */
export function requireRepository(ctx: Context, needed: RepoPermission, action = 'do that'): RepoAccess {
	const access = loadRepository(ctx);
	if (!atLeast(access.permission, needed)) {
		throw forbidden(needed === 'admin' ? 'Must have admin rights to Repository.' : `Must have ${needed} access to the repository to ${action}.`);
	}
	return access;
}

/**
 * requireRepository for a change to the repository's content: also refused (403) while the
 * repository is archived or locked by an organization migration.
 */
export function requireWritableRepository(ctx: Context, needed: RepoPermission = 'push', action = 'change it'): RepoAccess {
	const access = requireRepository(ctx, needed, action);
	if (access.repo.archived === 1) throw forbidden('Repository was archived so is read-only.');
	if (ctx.app.stores.migrations.isLocked(access.repo.id)) throw forbidden('Repository is locked for migration; unlock it to change it.');
	return access;
}
