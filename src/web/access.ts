/**
 * What a page may show, decided by the access rules of src/auth/access/ (the same as the API's for
 * the signed-in user, or for an anonymous caller): a repository, an organization or a team the
 * viewer may not see throws NotFound, exactly like one that does not exist.
 */
import { orgAccess } from '../auth/access/orgs';
import { requireWritableRepository } from '../http/guards';
import { callerRepoPermission } from '../auth/access/repos';
import { teamAccess } from '../auth/access/teams';
import type { OrgAccess, RepoAccess, TeamAccess } from '../auth/access/types';
import { atLeast, type RepoPermission } from '../model/repo-permissions';
import type { AccountRow } from '../model/rows';
import { Forbidden, NotFound, Redirect, type WebContext } from './context';

/** The signed-in user, or a redirect to the sign-in page that comes back here. */
export function requireUser(ctx: WebContext): AccountRow {
	if (!ctx.user) {
		const search = ctx.query.toString();
		throw new Redirect(`/login?return_to=${encodeURIComponent(ctx.path + (search ? `?${search}` : ''))}`);
	}
	return ctx.user;
}

/** The account `login` names (a user or an organization; bots have no page). */
export function accountNamed(ctx: WebContext, login: string): AccountRow {
	const account = /^[A-Za-z0-9-]{1,39}$/.test(login) ? ctx.app.stores.accounts.byLogin(login) : undefined;
	if (!account || account.type === 'Bot') throw new NotFound();
	return account;
}

/**
 * The repository of the path's {owner}/{repo} (a `.git` suffix allowed) the viewer may read, with
 * the viewer's permission; a former name (rename, transfer) redirects to the current one.
 * @param level the permission the page needs (pull by default); below it, NotFound
 */
export function repoFor(ctx: WebContext, level: RepoPermission = 'pull'): RepoAccess & { permission: RepoPermission } {
	const { app, params } = ctx;
	const owner = /^[A-Za-z0-9-]{1,39}$/.test(params.owner) ? app.stores.accounts.byLogin(params.owner) : undefined;
	const name = params.repo.replace(/\.git$/, '');
	if (!owner || name.length > 100) throw new NotFound();
	const repo = app.stores.repos.byOwnerAndName(owner.id, name);
	if (!repo) {
		const moved = app.stores.repos.redirected(owner.id, name);
		const movedOwner = moved && app.stores.accounts.byId(moved.owner_id);
		if (moved && movedOwner && callerRepoPermission(ctx.viewer, moved, movedOwner)) {
			const rest = ctx.path.split('/').slice(3).join('/');
			throw new Redirect(`/${movedOwner.login}/${moved.name}${rest ? `/${rest}` : ''}`, 301);
		}
		throw new NotFound();
	}
	const permission = callerRepoPermission(ctx.viewer, repo, owner);
	if (!permission || !atLeast(permission, level)) throw new NotFound();
	return { repo, owner, permission };
}

/** The viewer's standing in an organization. */
export function orgStanding(ctx: WebContext, org: AccountRow): OrgAccess {
	return orgAccess(ctx.viewer, org);
}

/** The team of the path's {org}/{team} the viewer may see (secret teams: owners and members only). */
export function teamFor(ctx: WebContext): TeamAccess {
	const org = ctx.app.stores.accounts.organization(ctx.params.org);
	const team =
		org && /^[a-z0-9-_]{1,255}$/i.test(ctx.params.team)
			? ctx.app.stores.teams.bySlug(org.id, ctx.params.team.toLowerCase())
			: undefined;
	const access = team && teamAccess(ctx.viewer, team);
	if (!access) throw new NotFound();
	return access;
}

/**
 * The repository of a form that changes something: the viewer must see it (else NotFound, the
 * same 404 page), be signed in (else the sign-in page), hold `level` (else Forbidden) and the
 * repository must take changes (archived or migration-locked: the API's 403 refusal).
 * @throws NotFound, Redirect, Forbidden, DomainError 403
 */
export function repoForChange(ctx: WebContext, level: RepoPermission = 'pull'): RepoAccess & { permission: RepoPermission } {
	const access = repoFor(ctx);
	requireUser(ctx);
	if (!atLeast(access.permission, level)) throw new Forbidden(`You need ${LEVEL_NAMES[level]} access to this repository to do that.`);
	requireWritableRepository(ctx, access);
	return access;
}

/** GitHub's names of the repository roles in sentences. */
const LEVEL_NAMES: Record<RepoPermission, string> = { pull: 'read', triage: 'triage', push: 'write', maintain: 'maintain', admin: 'admin' };
