/**
 * Lists of repositories across owners: the authenticated user's (GET /user/repos, with GitHub's
 * affiliation, visibility and type filters) and another account's (GET /users/{username}/repos).
 * Each decides what the caller may see with the access rules over all candidates at once
 * (repositoryPermissions, userRepositoryPermissions: a constant number of queries), then sorts and
 * pages in memory: a user's repositories are a bounded set.
 */
import type { OrgAccess, Viewer } from '../../auth/access/types';
import { repositoryPermissions, tokenReachesRepository, userRepositoryPermissions, type OwnedRepository } from '../../auth/access/repos';
import type { RepoPermission } from '../../model/repo-permissions';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import type { RepositoryFilter, RepositorySort } from './store';
import { organizationRepositoryScope } from '../../auth/access/repos';
import { repository } from '../../model/render';

/** A repository of a list with its owner and the caller's permission (null: a public view). */
export interface ListedRepositoryEntry extends OwnedRepository {
	permission: RepoPermission | null;
}

/** GET /user/repos affiliations. */
export type Affiliation = 'owner' | 'collaborator' | 'organization_member';

/** What GET /user/repos selects, after its `type` is turned into affiliations and visibility. */
export interface UserRepositoryFilter {
	affiliations: ReadonlySet<Affiliation>;
	/** 'private' covers every repository that is not public (private and internal). */
	visibility: 'all' | 'public' | 'private';
	/** ISO timestamps ('YYYY-MM-DDTHH:MM:SSZ'): updated after `since`, before `before`. */
	since?: string;
	before?: string;
}

/** The sort key GitHub's repository lists use (full_name: owner/name, case-insensitive). */
function sortKey(entry: OwnedRepository, sort: RepositorySort): string {
	const { repo, owner } = entry;
	if (sort === 'full_name') return `${owner.login}/${repo.name}`.toLowerCase();
	if (sort === 'updated') return repo.updated_at;
	if (sort === 'pushed') return repo.pushed_at ?? '';
	return repo.created_at;
}

/** Sorts in place by `sort` in `direction`, ties by id in the same direction; returns the array. */
export function sortRepositories<T extends OwnedRepository>(entries: T[], sort: RepositorySort, direction: 'asc' | 'desc'): T[] {
	const sign = direction === 'asc' ? 1 : -1;
	const keys = new Map(entries.map((entry) => [entry.repo.id, sortKey(entry, sort)]));
	return entries.sort((a, b) => {
		const ka = keys.get(a.repo.id)!;
		const kb = keys.get(b.repo.id)!;
		return (ka < kb ? -1 : ka > kb ? 1 : a.repo.id - b.repo.id) * sign;
	});
}

/** Repositories with their owners (rows whose owner is gone are left out). */
function withOwners(ctx: Viewer, rows: readonly RepositoryRow[]): OwnedRepository[] {
	const owners = ctx.app.stores.accounts.mapByIds(new Set(rows.map((repo) => repo.owner_id)));
	return rows.flatMap((repo) => {
		const owner = owners.get(repo.owner_id);
		return owner ? [{ repo, owner }] : [];
	});
}

/**
 * GET /user/repos: the repositories the authenticated user owns, collaborates on, or reaches as a
 * member of their organizations, as the token may see them (a token bound to one account lists
 * that account's; a classic token without `repo`, public ones), filtered and sorted.
 * @returns every matching repository in order (the caller pages)
 */
export function authenticatedUserRepositories(
	ctx: Viewer,
	filter: UserRepositoryFilter,
	sort: RepositorySort,
	direction: 'asc' | 'desc',
): ListedRepositoryEntry[] {
	const user = ctx.principal.user!;
	const { affiliations } = filter;
	const rows = ctx.app.stores.repos.affiliated(user.id).filter((repo) => {
		if (filter.visibility === 'public' && repo.visibility !== 'public') return false;
		if (filter.visibility === 'private' && repo.visibility === 'public') return false;
		if (filter.since !== undefined && !(repo.updated_at > filter.since)) return false;
		if (filter.before !== undefined && !(repo.updated_at < filter.before)) return false;
		return (
			(affiliations.has('owner') && repo.is_owner === 1) ||
			(affiliations.has('collaborator') && repo.is_collaborator === 1) ||
			(affiliations.has('organization_member') && repo.is_member === 1)
		);
	});
	const entries = withOwners(ctx, rows).filter(({ repo, owner }) => tokenReachesRepository(ctx.principal, repo, owner));
	const permissions = repositoryPermissions(ctx, entries);
	const visible = entries.flatMap((entry) => {
		const permission = permissions.get(entry.repo.id) ?? null;
		return permission ? [{ ...entry, permission }] : [];
	});
	return sortRepositories(visible, sort, direction);
}

/**
 * GET /users/{username}/repos: a user's repositories (`owner`), those they collaborate on or reach
 * as an organization member (`member`), or both (`all`); an organization's own repositories. Public
 * repositories, and private or internal ones both the caller and the listed user can read.
 * @returns every matching repository in order (the caller pages)
 */
export function accountRepositories(
	ctx: Viewer,
	account: AccountRow,
	type: 'all' | 'owner' | 'member',
	sort: RepositorySort,
	direction: 'asc' | 'desc',
): ListedRepositoryEntry[] {
	const { repos } = ctx.app.stores;
	let rows: RepositoryRow[];
	if (account.type !== 'User') rows = type === 'member' ? [] : repos.forOwner(account.id);
	else {
		rows = repos
			.affiliated(account.id)
			.filter((repo) => (type === 'owner' ? repo.is_owner === 1 : type === 'member' ? repo.is_owner === 0 : true));
	}
	const entries = withOwners(ctx, rows);
	const permissions = repositoryPermissions(ctx, entries);
	// What the listed user cannot read stays out, whoever asks (an organization's list needs no such check).
	const restricted = entries.filter(({ repo }) => repo.visibility !== 'public');
	const self = ctx.principal.user?.id === account.id;
	const subject =
		account.type === 'User' && !self && restricted.length ? userRepositoryPermissions(ctx.app, account.id, restricted) : null;
	const visible = entries.flatMap((entry) => {
		const permission = permissions.get(entry.repo.id) ?? null;
		if (!permission) return [];
		if (subject && entry.repo.visibility !== 'public' && !subject.get(entry.repo.id)) return [];
		return [{ ...entry, permission }];
	});
	return sortRepositories(visible, sort, direction);
}

/**
 * GET /orgs/{org}/repos: one page of an organization's repositories the caller sees (simple
 * repositories, with the caller's permissions unless a public view), filtered and sorted in SQL.
 * When the caller sees all of them or only the public ones, SQL pages too; otherwise (a token
 * limited to some repositories) the visible ones are picked from the filtered list.
 */
export function organizationRepositories(
	ctx: Viewer,
	access: OrgAccess,
	filter: RepositoryFilter,
	sort: RepositorySort,
	direction: 'asc' | 'desc',
	range: { limit: number; offset: number },
): { items: ReturnType<typeof repository>[]; total: number } {
	const { org } = access;
	const { repos } = ctx.app.stores;
	const render = (rows: RepositoryRow[], permissions: Map<number, RepoPermission | null>) =>
		rows.map((repo) => repository(ctx.app.urls, repo, org, ctx.publicView ? null : permissions.get(repo.id)!));
	// Permissions come from a constant number of queries (repositoryPermissions).
	const scope = organizationRepositoryScope(ctx, access);
	if (scope !== 'some') {
		if (scope === 'public') {
			if (filter.visibility === 'private') return { items: [], total: 0 };
			filter = { ...filter, visibility: 'public' };
		}
		const rows = range.limit > 0 ? repos.page(filter, sort, direction, range.limit, range.offset) : [];
		const permissions = repositoryPermissions(
			ctx,
			rows.map((repo) => ({ repo, owner: org })),
		);
		return { items: render(rows, permissions), total: repos.count(filter) };
	}
	const all = repos.page(filter, sort, direction, -1, 0);
	const permissions = repositoryPermissions(
		ctx,
		all.map((repo) => ({ repo, owner: org })),
	);
	const visible = all.filter((repo) => permissions.get(repo.id));
	return { items: render(visible.slice(range.offset, range.offset + range.limit), permissions), total: visible.length };
}

/** Simple repositories of list entries, each with the caller's permission unless a public view. */
export function renderListed(ctx: Viewer, entries: readonly ListedRepositoryEntry[]) {
	return entries.map(({ repo, owner, permission }) => repository(ctx.app.urls, repo, owner, ctx.publicView ? null : permission));
}
