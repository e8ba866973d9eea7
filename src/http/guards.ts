/**
 * Resource guards: the one place that loads the resource a route declares (ResourceGuard in
 * src/http/route.ts) and decides 404 or 403 for it. The pipeline calls loadResources after
 * authentication, the route policy and the rate limit; handlers receive ctx.repo, ctx.org,
 * ctx.team, ctx.enterprise and ctx.gist already checked.
 *
 * Rules, in GitHub's terms (its repository roles: https://docs.github.com/en/organizations/
 * managing-user-access-to-your-organizations-repositories/managing-repository-roles/repository-roles-for-an-organization):
 * - what the caller may not see answers 404, exactly like what does not exist;
 * - what the caller may see but not change answers 403 with a sentence naming the missing role;
 * - a token bound to one account (fine-grained, user-to-server, installation) acts only on that
 *   account's resources: elsewhere it reads what is public, and anything more is 403 "Resource not
 *   accessible by personal access token" / "… by integration".
 */
import { DomainError, forbidden, notFound } from '../model/errors';
import { HttpError } from './errors';
import { idParam, type GuardedContext, type RequestContext, type ResourceGuard } from './route';
import type { GistRow, RepositoryRow, TeamRow } from '../model/rows';
import { enterpriseAccess, tokenReachesEnterprise } from '../auth/access/enterprises';
import { orgAccess } from '../auth/access/orgs';
import { callerRepoPermission, tokenReachesRepository } from '../auth/access/repos';
import { teamAccess } from '../auth/access/teams';
import type { EnterpriseAccess, OrgAccess, RepoAccess, TeamAccess } from '../auth/access/types';
import { notAccessible, reachesAccount } from '../auth/principal';
import { atLeast, type RepoPermission } from '../model/repo-permissions';

/**
 * Loads and checks every resource the route's guard names, setting them on the context.
 * @throws DomainError 404 (not visible), 403 (visible but the caller lacks the role, or the token is
 *   bound to another account), 403 for archived or migration-locked repositories on writes.
 */
export function loadResources(ctx: GuardedContext): void {
	const guard = ctx.route.guard;
	if (!guard) return;
	// A write changes the guarded resource unless the route says it only reads it.
	const write = ctx.route.method !== 'GET' && !guard.readOnly;
	const mustReach = write || guard.bound === true;
	// The security manager standing applies to reads (GET) only.
	const securityManagers = guard.securityManagers === true && ctx.route.method === 'GET';
	// The user's own account: user permissions (gists) follow the user whatever account a token is
	// bound to; routes that act on the account itself (creating its repositories) say `bound`.
	if (guard.self) requireSelf(ctx, { mustReach: guard.bound === true && !guard.org && !guard.repo });
	if (guard.enterprise) ctx.enterprise = enterprise(ctx, guard.enterprise);
	if (guard.org) ctx.org = organization(ctx, guard.org, { mustReach, conceal: guard.conceal, securityManagers });
	if (guard.team) ctx.org = ctx.team = team(ctx, guard.team);
	if (guard.repo) {
		ctx.repo = repository(ctx, guard.repo, {
			mustReach,
			writable: write && guard.writable !== false,
			conceal: guard.conceal === true,
			grantedBy: guard.grantedBy,
			securityManagers,
		});
	}
	if (guard.gist) ctx.gist = gist(ctx, guard.gist);
}

/** True when the caller authenticated with a token bound to some account other than `accountId`. */
function foreignToken(ctx: RequestContext, accountId: number): boolean {
	return ctx.principal.kind !== 'anonymous' && !ctx.publicView && !reachesAccount(ctx.principal, accountId);
}

/** @param options.mustReach a token bound to one account must be bound to the user's own */
function requireSelf(ctx: RequestContext, options: { mustReach: boolean }): void {
	const user = ctx.principal.user;
	// Installation tokens and app JWTs act for no user: there is no authenticated user to answer for.
	if (!user) throw notFound();
	if (options.mustReach && foreignToken(ctx, user.id)) throw notAccessible(ctx.principal);
}

interface OrganizationRules {
	/** A token bound to one account must be bound to the organization, even to read it. */
	mustReach: boolean;
	/** ResourceGuard.conceal */
	conceal?: true | 'outsiders';
	/** Members of the organization's security manager teams pass an `owner` level. */
	securityManagers: boolean;
}

function organization(ctx: RequestContext, level: NonNullable<ResourceGuard['org']>, rules: OrganizationRules): OrgAccess {
	const { mustReach, conceal, securityManagers } = rules;
	// {org} names it by login; /organizations/{organization_id}/… by id.
	const org =
		ctx.params.org !== undefined
			? ctx.app.stores.accounts.organization(ctx.params.org)
			: organizationById(ctx, idParam(ctx.params.organization_id));
	if (!org) throw notFound();
	if ((mustReach || level !== 'read') && foreignToken(ctx, org.id)) throw notAccessible(ctx.principal);
	const access = orgAccess(ctx, org);
	if (conceal === 'outsiders' && !access.member) throw notFound();
	if (level === 'member' && !access.member) throw forbidden(`You must be a member of ${org.login} to ${ctx.route.action}.`);
	// A security manager reads the organization's security alerts as its owners do.
	if (level === 'owner' && !access.admin && securityManagers && isSecurityManager(ctx, org.id)) return access;
	if (level === 'owner' && !access.admin) {
		// What only owners manage is concealed from everyone outside the organization (members get
		// 403, non-members 404, as `conceal: 'outsiders'` says for every level), and from members too
		// where the route says `conceal: true`.
		if (conceal === true || !access.member) throw notFound();
		throw forbidden(`You must be an owner of ${org.login} to ${ctx.route.action}.`);
	}
	return access;
}

function organizationById(ctx: RequestContext, id: number | null) {
	const account = id === null ? undefined : ctx.app.stores.accounts.byId(id);
	return account?.type === 'Organization' ? account : undefined;
}

/** The team a path names: {org}/{team_slug}, {org_id}/{team_id} or the legacy {team_id}. */
function findTeam(ctx: RequestContext): TeamRow | undefined {
	const { stores } = ctx.app;
	const { params } = ctx;
	if (params.team_slug !== undefined) {
		const org = stores.accounts.organization(params.org);
		return org && stores.teams.bySlug(org.id, params.team_slug.toLowerCase());
	}
	const teamId = idParam(params.team_id);
	const row = teamId === null ? undefined : stores.teams.byId(teamId);
	if (row && params.org_id !== undefined && idParam(params.org_id) !== row.org_id) return undefined;
	return row;
}

function team(ctx: RequestContext, level: NonNullable<ResourceGuard['team']>): TeamAccess {
	const row = findTeam(ctx);
	// A token bound to another account stands outside the organization and sees no team: 404,
	// as for a team that does not exist (a secret team is never confirmed to an outsider).
	const access = row && teamAccess(ctx, row);
	if (!access) throw notFound();
	if (level === 'maintainer' && !access.manage) {
		throw forbidden(`You must be an organization owner or a maintainer of ${access.team.slug} to ${ctx.route.action}.`);
	}
	if (level === 'owner' && !access.admin) throw forbidden(`You must be an owner of ${access.org.login} to ${ctx.route.action}.`);
	return access;
}

/** The acting user belongs to a security manager team of the organization `orgId` (a token reaching it). */
function isSecurityManager(ctx: RequestContext, orgId: number): boolean {
	const user = ctx.principal.user;
	if (!user || ctx.publicView || !reachesAccount(ctx.principal, orgId)) return false;
	return ctx.app.stores.orgSecurity.isSecurityManager(orgId, user.id);
}

const REPO_LEVEL: Record<NonNullable<ResourceGuard['repo']>, RepoPermission> = {
	read: 'pull',
	triage: 'triage',
	push: 'push',
	maintain: 'maintain',
	admin: 'admin',
};

interface RepositoryRules {
	/** A token bound to one account must be bound to the repository's owner, even to read it. */
	mustReach: boolean;
	/** The route changes the repository's content: archived or migration-locked repositories answer 403. */
	writable: boolean;
	/** Callers below the level get 404, not 403. */
	conceal: boolean;
	/** ResourceGuard.grantedBy */
	grantedBy?: string;
	/** Members of the owning organization's security manager teams read as if with `pull`. */
	securityManagers: boolean;
}

function repository(ctx: RequestContext, level: NonNullable<ResourceGuard['repo']>, rules: RepositoryRules): RepoAccess {
	const { mustReach, writable, conceal, grantedBy, securityManagers } = rules;
	let owner;
	let repo;
	if (ctx.params.repository_id !== undefined) {
		// /repositories/{repository_id}: the repository by its id, whatever its name.
		const id = idParam(ctx.params.repository_id);
		repo = id === null ? undefined : ctx.app.stores.repos.byId(id);
		owner = repo && ctx.app.stores.accounts.byId(repo.owner_id);
		if (!repo || !owner) throw notFound();
	} else {
		owner = ctx.app.stores.accounts.byLogin(ctx.params.owner);
		const name = ctx.params.repo.replace(/\.git$/, '');
		repo = owner && ctx.app.stores.repos.byOwnerAndName(owner.id, name);
		if (!owner) throw notFound();
		if (!repo) throw movedOrNotFound(ctx, ctx.app.stores.repos.redirected(owner.id, name));
	}
	let permission = callerRepoPermission(ctx, repo, owner);
	let needed = REPO_LEVEL[level];
	// A security manager of the owning organization reads its security alerts everywhere.
	if (securityManagers && (!permission || !atLeast(permission, needed)) && isSecurityManager(ctx, owner.id)) {
		permission = permission ?? 'pull';
		needed = 'pull';
	}
	if (!permission) throw notFound();
	// A public repository of another account: the bound token may read it, nothing more.
	if ((mustReach || needed !== 'pull') && !ctx.publicView && !tokenReachesRepository(ctx.principal, repo, owner)) {
		throw notAccessible(ctx.principal);
	}
	// A custom repository role may add the route's fine-grained permission to a lower base role.
	const granted =
		grantedBy !== undefined &&
		ctx.principal.user !== null &&
		ctx.app.stores.roles.customPermissions(repo.id, ctx.principal.user.id).has(grantedBy);
	if (!atLeast(permission, needed) && !granted) {
		if (conceal) throw notFound();
		throw forbidden(
			needed === 'admin'
				? 'Must have admin rights to Repository.'
				: `Must have ${needed} access to the repository to ${ctx.route.action}.`,
		);
	}
	const access = { repo, owner, permission };
	if (writable) requireWritableRepository(ctx, access);
	return access;
}

/**
 * A request naming a repository by a name it had before a rename: GitHub's redirect to where it is
 * now (301 Moved Permanently for GET and HEAD, 307 Temporary Redirect for other methods, with
 * `Location` and the body's `url`), for callers who can read it; 404 for everyone else and for
 * names nothing had.
 */
function movedOrNotFound(ctx: RequestContext, moved: RepositoryRow | undefined): HttpError | DomainError {
	if (!moved) return notFound();
	const owner = ctx.app.stores.accounts.byId(moved.owner_id);
	if (!owner || !callerRepoPermission(ctx, moved, owner)) return notFound();
	// The path's {owner} and {repo} segments, where the route declares them, take the new names.
	const pattern = ctx.route.path.split('/');
	// The request as polka leaves it: its path below /api/v3 and its query string.
	const req = ctx.req as typeof ctx.req & { path: string; search?: string };
	const segments = req.path.split('/');
	pattern.forEach((part, index) => {
		if (part === '{owner}') segments[index] = encodeURIComponent(owner.login);
		if (part === '{repo}') segments[index] = encodeURIComponent(moved.name);
	});
	const url = ctx.app.urls.api(segments.join('/')) + (req.search ?? '');
	const read = ctx.req.method === 'GET' || ctx.req.method === 'HEAD';
	return new HttpError(read ? 301 : 307, read ? 'Moved Permanently' : 'Temporary Redirect', {
		headers: { Location: url },
		extra: { url },
		documentation: 'https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects',
	});
}

/**
 * Refuses a change to an archived repository or one locked by an organization migration. The
 * guard applies it to every write of a repository route; a route that declares `writable: false`
 * and decides from its body (PATCH /repos/{owner}/{repo}: unarchiving) calls it itself.
 * @throws DomainError 403
 */
export function requireWritableRepository(ctx: Pick<RequestContext, 'app'>, access: RepoAccess): void {
	if (access.repo.archived === 1) throw forbidden('Repository was archived so is read-only.');
	if (ctx.app.stores.migrations.isLocked(access.repo.id)) throw forbidden('Repository is locked for migration; unlock it to change it.');
}

function enterprise(ctx: RequestContext, level: NonNullable<ResourceGuard['enterprise']>): EnterpriseAccess {
	const row = ctx.app.stores.enterprises.bySlug(ctx.params.enterprise);
	const access = row && enterpriseAccess(ctx, row);
	const role = access?.role ?? null;
	const billing = role === 'owner' || role === 'billing_manager';
	const allowed =
		level === 'member'
			? role !== null
			: level === 'organization_admin'
				? billing || (role === 'member' && ctx.app.stores.enterprises.isOrganizationAdmin(access!.enterprise.id, access!.userId!))
				: level === 'billing'
					? billing
					: role === 'owner';
	// Everyone below the level gets the answer of an enterprise that does not exist.
	if (!access || !allowed) throw notFound();
	if (!tokenReachesEnterprise(ctx, access.enterprise)) throw notAccessible(ctx.principal);
	return access;
}

function gist(ctx: RequestContext, level: NonNullable<ResourceGuard['gist']>): GistRow {
	const id = ctx.params.gist_id;
	const row = /^[0-9a-f]{1,64}$/i.test(id) ? ctx.app.stores.gists.byGistId(id.toLowerCase()) : undefined;
	if (!row) throw notFound();
	if (row.blocked_at) {
		// A site administrator blocked it (`gitstead admin block-gist`): GitHub's 403 with its `block` object.
		throw new DomainError('Forbidden', 'Gist blocked', {
			extra: { block: { reason: row.block_reason, created_at: row.blocked_at, html_url: ctx.app.urls.html(`/gist/${row.gist_id}`) } },
		});
	}
	// Only its owner changes a gist; everyone else is told it does not exist, as on GitHub.
	if (level === 'owner' && ctx.principal.user?.id !== row.owner_id) throw notFound();
	return row;
}
