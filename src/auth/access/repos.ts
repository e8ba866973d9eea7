/**
 * Who may see and change a repository (GitHub's repository roles: owner, organization owners and
 * base permission, teams, collaborators). A repository the caller cannot see answers 404, never 403.
 * Roles: https://docs.github.com/en/organizations/managing-user-access-to-your-organizations-repositories/
 * managing-repository-roles/repository-roles-for-an-organization
 */
import { reachesAccount, type Principal } from '../principal';
import { basePermission, REPO_PERMISSIONS, strongest, type RepoPermission } from '../../model/repo-permissions';
import type { App } from '../../app';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import type { OrgAccess, Viewer } from './types';

/**
 * Classic scopes that stand in for `repo` on the routes that accept them (GitHub's scope docs):
 * `repo_deployment` for deployments and their statuses, `security_events` for Dependabot alerts
 * and dismissal requests, `repo:status` for commit statuses, `repo:invite` for invitations,
 * `read:repo_hook` / `write:repo_hook` / `admin:repo_hook` for repository webhooks ("in public or
 * private repositories").
 */
const REPO_SUBSTITUTES: readonly string[] = [
	'repo_deployment',
	'security_events',
	'repo:status',
	'repo:invite',
	'read:repo_hook',
	'write:repo_hook',
	'admin:repo_hook',
];

/**
 * Whether a classic or OAuth token reaches private and internal repositories on a route: with
 * `repo`, or with a substitute scope the route accepts. `public_repo` reaches public ones only.
 */
export function scopesReachPrivate(principal: Principal, acceptedScopes: readonly string[] = []): boolean {
	if (principal.scopes.has('repo')) return true;
	return acceptedScopes.some((scope) => REPO_SUBSTITUTES.includes(scope) && principal.scopes.has(scope));
}

/**
 * Whether the token may act on the repository (not only read it where it is public): installation
 * tokens on their account's repositories (all, or the selected ones); fine-grained and
 * user-to-server tokens on their resource owner's; classic and OAuth tokens of a user everywhere.
 */
export function tokenReachesRepository(principal: Principal, repo: RepositoryRow, owner: AccountRow): boolean {
	if (principal.kind === 'installation') {
		return principal.resourceOwnerId === owner.id && (principal.repositoryIds === null || principal.repositoryIds.has(repo.id));
	}
	return principal.user !== null && reachesAccount(principal, owner.id);
}

/** A rank 1 (pull) … 5 (admin) as a permission; 0 → null. */
const rankPermission = (rank: number): RepoPermission | null => (rank > 0 ? REPO_PERMISSIONS[rank - 1] : null);

/**
 * A user's own permission on a repository (roles, collaborator grants, teams, base permission, the
 * organization roles all_repo_* held directly or through a team).
 */
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
		permission = strongest(permission, rankPermission(app.stores.roles.organizationRank(owner.id, userId)));
		if (repo.visibility === 'internal') permission = strongest(permission, 'pull');
	}
	if (repo.visibility === 'public') permission = strongest(permission, 'pull');
	return permission;
}

/**
 * The caller's permission, or null when the caller cannot see the repository. Installation tokens
 * act as the app (admin, narrowed by the route's fine-grained permission) on their own account's
 * repositories; fine-grained and user-to-server tokens reach only their resource owner's; classic
 * tokens need `repo` (or a substitute the route accepts, scopesReachPrivate) for private ones.
 * Elsewhere the caller has the public view: read on public repositories.
 */
export function callerRepoPermission(viewer: Viewer, repo: RepositoryRow, owner: AccountRow): RepoPermission | null {
	const { principal } = viewer;
	const publicPermission: RepoPermission | null = repo.visibility === 'public' ? 'pull' : null;
	if (viewer.publicView || !tokenReachesRepository(principal, repo, owner)) return publicPermission;
	if (principal.kind === 'installation') return 'admin';
	if ((principal.kind === 'classic' || principal.kind === 'oauth') && repo.visibility !== 'public') {
		if (!scopesReachPrivate(principal, viewer.route?.acceptedScopes)) return null;
	}
	return userRepoPermission(viewer.app, repo, owner, principal.user!.id);
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
 * @param access the caller's standing in the organization (the route's org guard loaded it)
 */
export function organizationRepositoryScope(viewer: Viewer, access: OrgAccess): 'all' | 'public' | 'some' {
	const { principal } = viewer;
	const { org } = access;
	if (viewer.publicView) return 'public';
	if (principal.kind === 'installation') {
		if (principal.resourceOwnerId !== org.id) return 'public';
		return principal.repositoryIds === null ? 'all' : 'some';
	}
	if (!principal.user) return 'public';
	if (!reachesAccount(principal, org.id)) return 'public';
	if ((principal.kind === 'classic' || principal.kind === 'oauth') && !scopesReachPrivate(principal, viewer.route?.acceptedScopes))
		return 'public';
	if (access.role === null) return 'some';
	if (access.role === 'owner' || basePermission(org.default_repository_permission) !== null) return 'all';
	return viewer.app.stores.roles.organizationRank(org.id, principal.user.id) > 0 ? 'all' : 'some';
}

/**
 * callerRepoPermission for every repository given: repository id → the caller's permission, or null
 * when the caller cannot see it. At most three queries, whatever the number of repositories.
 */
export function repositoryPermissions(viewer: Viewer, repos: readonly OwnedRepository[]): Map<number, RepoPermission | null> {
	const { principal } = viewer;
	const out = new Map<number, RepoPermission | null>();
	const publicPermission = (repo: RepositoryRow): RepoPermission | null => (repo.visibility === 'public' ? 'pull' : null);
	const user = principal.user;
	const classic = principal.kind === 'classic' || principal.kind === 'oauth';
	const privateReach = !classic || scopesReachPrivate(principal, viewer.route?.acceptedScopes);
	// Repositories whose permission depends on the user's own roles and grants.
	const personal: OwnedRepository[] = [];
	for (const entry of repos) {
		const { repo, owner } = entry;
		if (viewer.publicView || !tokenReachesRepository(principal, repo, owner)) out.set(repo.id, publicPermission(repo));
		else if (principal.kind === 'installation') out.set(repo.id, 'admin');
		else if (!privateReach && repo.visibility !== 'public') out.set(repo.id, null);
		else personal.push(entry);
	}
	if (personal.length === 0 || !user) return out;
	for (const [id, permission] of userRepositoryPermissions(viewer.app, user.id, personal)) out.set(id, permission);
	return out;
}

/**
 * userRepoPermission for every repository given: repository id → the user's own permission (roles,
 * collaborator grants, teams, base permission), or null when the user cannot read it, whoever asks.
 * At most three queries, whatever the number of repositories.
 */
export function userRepositoryPermissions(app: App, userId: number, repos: readonly OwnedRepository[]): Map<number, RepoPermission | null> {
	const out = new Map<number, RepoPermission | null>();
	if (repos.length === 0) return out;
	const publicPermission = (repo: RepositoryRow): RepoPermission | null => (repo.visibility === 'public' ? 'pull' : null);
	const { stores } = app;
	const orgIds = [...new Set(repos.filter(({ owner }) => owner.type !== 'User').map(({ owner }) => owner.id))];
	const memberships = new Map(orgIds.length ? stores.memberships.ofUserIn(userId, orgIds).map((row) => [row.org_id, row]) : []);
	const ids = repos.map(({ repo }) => repo.id);
	const collaborator = new Map(stores.repos.collaboratorGrants(userId, ids).map((row) => [row.repo_id, row.permission]));
	const teams = new Map<number, RepoPermission | null>();
	// Team grants count for organization repositories only (userRepoPermission).
	if (orgIds.length) {
		for (const row of stores.teams.userGrantsOn(userId, ids)) teams.set(row.repo_id, strongest(teams.get(row.repo_id), row.permission));
	}

	// Organization roles (all_repo_*): one query per organization the user is a member of.
	const roleRanks = new Map<number, RepoPermission | null>();
	for (const [orgId, membership] of memberships) {
		if (membership.state === 'active') roleRanks.set(orgId, rankPermission(stores.roles.organizationRank(orgId, userId)));
	}
	for (const { repo, owner } of repos) {
		if (owner.type === 'User') {
			out.set(repo.id, owner.id === userId ? 'admin' : strongest(collaborator.get(repo.id), publicPermission(repo)));
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
			permission = strongest(permission, roleRanks.get(owner.id) ?? null);
			if (repo.visibility === 'internal') permission = strongest(permission, 'pull');
		}
		if (repo.visibility === 'public') permission = strongest(permission, 'pull');
		out.set(repo.id, permission);
	}
	return out;
}

/**
 * Which of the users can read the repository themselves (userRepoPermission is not null), in at
 * most three queries whatever their number: the lists of a repository's stargazers and watchers
 * hide users who lost access to a private repository (GitHub keeps their stars and subscriptions).
 */
export function repositoryReaders(app: App, repo: RepositoryRow, owner: AccountRow, userIds: readonly number[]): Set<number> {
	if (repo.visibility === 'public') return new Set(userIds);
	const readers = new Set<number>();
	if (userIds.length === 0) return readers;
	const { stores } = app;
	const wanted = new Set(userIds);
	for (const collaborator of stores.repos.collaborators(repo.id)) if (wanted.has(collaborator.id)) readers.add(collaborator.id);
	if (owner.type === 'User') {
		if (wanted.has(owner.id)) readers.add(owner.id);
		return readers;
	}
	const base = basePermission(owner.default_repository_permission) !== null || repo.visibility === 'internal';
	const roleHolders = new Set(stores.roles.organizationRanks(owner.id).map((row) => row.user_id));
	for (const membership of stores.memberships.ofUsersIn(owner.id, [...wanted])) {
		if (membership.state === 'active' && (membership.role === 'admin' || base || roleHolders.has(membership.user_id)))
			readers.add(membership.user_id);
	}
	for (const userId of stores.teams.usersGrantedOn(repo.id, [...wanted])) readers.add(userId);
	return readers;
}
