/**
 * Who may see and change a repository. A repository the caller cannot see answers 404, never 403
 * (reference §1.3).
 */
import type { App } from '../../app';
import { reachesAccount } from '../../auth/principal';
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
	if (!reachesAccount(principal, owner.id)) return publicPermission;
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
	requirePermission(access, needed, action);
	return access;
}

/**
 * Requires a permission on a repository already loaded (checks that come after finding the object
 * inside it, so a missing object is 404 first).
 * @throws HttpError 403 when the caller lacks `needed`
 */
export function requirePermission(access: RepoAccess, needed: RepoPermission, action: string): void {
	if (!atLeast(access.permission, needed)) {
		throw forbidden(needed === 'admin' ? 'Must have admin rights to Repository.' : `Must have ${needed} access to the repository to ${action}.`);
	}
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

// ----- many repositories at once (lists: GET /orgs/{org}/repos, a team's repositories). The rules
// of callerRepoPermission and userRepoPermission above with a constant number of queries (the
// memberships of the owning organizations, the collaborator rows and the team grants each read
// once) instead of three per repository. Keep them in step: a list must show exactly what
// GET /repos/{owner}/{repo} answers (test/members.test.ts walks every kind of caller).

/** A repository with its owner. */
export interface OwnedRepository {
	repo: RepositoryRow;
	owner: AccountRow;
}

/**
 * Which of an organization's repositories the caller sees without asking for each: 'all' (owners,
 * the organization's app with every repository, members given a base permission), 'public' (public
 * views, tokens that do not reach the organization, classic tokens without `repo`, callers acting
 * for nobody), or 'some' (it depends on the caller's grants: repositoryPermissions tells).
 */
export function organizationRepositoryScope(ctx: Context, org: AccountRow): 'all' | 'public' | 'some' {
	const { principal } = ctx;
	if (ctx.publicView) return 'public';
	if (principal.kind === 'installation') {
		if (principal.resourceOwnerId !== org.id) return 'public';
		return principal.repositoryIds === null ? 'all' : 'some';
	}
	if (!principal.user) return 'public';
	if (!reachesAccount(principal, org.id)) return 'public';
	if ((principal.kind === 'classic' || principal.kind === 'oauth') && !principal.scopes.has('repo')) return 'public';
	const membership = ctx.app.stores.memberships.get(org.id, principal.user.id);
	if (membership?.state !== 'active') return 'some';
	return membership.role === 'admin' || basePermission(org.default_repository_permission) !== null ? 'all' : 'some';
}

/**
 * callerRepoPermission for every repository given: repository id → the caller's permission, or null
 * when the caller cannot see it. At most three queries, whatever the number of repositories.
 */
export function repositoryPermissions(ctx: Context, repos: readonly OwnedRepository[]): Map<number, RepoPermission | null> {
	const { principal } = ctx;
	const out = new Map<number, RepoPermission | null>();
	const publicPermission = (repo: RepositoryRow): RepoPermission | null => (repo.visibility === 'public' ? 'pull' : null);
	const user = principal.user;
	// Repositories whose permission depends on the user's own roles and grants.
	const personal: OwnedRepository[] = [];
	for (const entry of repos) {
		const { repo, owner } = entry;
		if (ctx.publicView) out.set(repo.id, publicPermission(repo));
		else if (principal.kind === 'installation') {
			const reaches = principal.resourceOwnerId === owner.id && (principal.repositoryIds === null || principal.repositoryIds.has(repo.id));
			out.set(repo.id, reaches ? 'admin' : publicPermission(repo));
		} else if (!user) out.set(repo.id, publicPermission(repo));
		else if (!reachesAccount(principal, owner.id)) out.set(repo.id, publicPermission(repo));
		else if ((principal.kind === 'classic' || principal.kind === 'oauth') && repo.visibility !== 'public' && !principal.scopes.has('repo')) {
			out.set(repo.id, null);
		} else personal.push(entry);
	}
	if (personal.length === 0 || !user) return out;

	const { stores } = ctx.app;
	const orgIds = [...new Set(personal.filter(({ owner }) => owner.type !== 'User').map(({ owner }) => owner.id))];
	const memberships = new Map(orgIds.length ? stores.memberships.ofUserIn(user.id, orgIds).map((row) => [row.org_id, row]) : []);
	const ids = personal.map(({ repo }) => repo.id);
	const collaborator = new Map(stores.repos.collaboratorGrants(user.id, ids).map((row) => [row.repo_id, row.permission]));
	const teams = new Map<number, RepoPermission | null>();
	// Team grants count for organization repositories only (userRepoPermission).
	if (orgIds.length) {
		for (const row of stores.teams.userGrantsOn(user.id, ids)) teams.set(row.repo_id, strongest(teams.get(row.repo_id), row.permission));
	}

	for (const { repo, owner } of personal) {
		if (owner.type === 'User') {
			out.set(repo.id, owner.id === user.id ? 'admin' : strongest(collaborator.get(repo.id), publicPermission(repo)));
			continue;
		}
		const membership = memberships.get(owner.id);
		const member = membership?.state === 'active';
		if (member && membership.role === 'admin') {
			out.set(repo.id, 'admin');
			continue;
		}
		let permission = strongest(collaborator.get(repo.id), teams.get(repo.id));
		if (member) {
			permission = strongest(permission, basePermission(owner.default_repository_permission));
			if (repo.visibility === 'internal') permission = strongest(permission, 'pull');
		}
		if (repo.visibility === 'public') permission = strongest(permission, 'pull');
		out.set(repo.id, permission);
	}
	return out;
}
