/**
 * GraphQL's accounts, teams, gists and search served from the services the REST routes call: each
 * read is admitted with the access of its REST twin (the same declarations the routes spread, in
 * the features' access.ts), then calls the feature's service and renders with the shared renderers,
 * so a source is the REST representation (tagged with __typename by the resolvers). Lists are read
 * by ranges (LIMIT/OFFSET in SQL where the store pages) for resolve.ts's rangeConnection, and hold
 * exactly what the REST list shows the caller: concealed organization memberships and members,
 * secret teams and private repositories only to those who may see them.
 *
 * Refusals are the policy's and guards' DomainErrors (401, 403, 404) and HttpErrors (a moved
 * repository's 301/307): the resolvers turn them into GitHub's GraphQL errors (resolve.ts
 * `guarded`, errors.ts).
 */
import type { TeamAccess, OrgAccess } from '../../auth/access/types';
import type { Context, GuardedContext } from '../../http/route';
import type { AccountRow, GistRow } from '../../model/rows';
import { notFound } from '../../model/errors';
import { GISTS_READ } from '../gists/access';
import { gistDetail, listGists } from '../gists/service';
import { MEMBERS_READ } from '../members/access';
import { listOrganizationMembers } from '../members/service';
import { ORG_READ, OWN_ORGS_READ, USER_ORGS_READ } from '../orgs/access';
import { listOwnOrganizations, listUserOrganizations, organizationProfile } from '../orgs/service';
import { ACCOUNT_REPOSITORIES_READ, ORG_REPOSITORIES_READ, OWN_REPOSITORIES_READ, REPOSITORY_READ } from '../repos/access';
import {
	accountRepositories,
	authenticatedUserRepositories,
	organizationRepositories,
	renderListed,
	type Affiliation,
	type ListedRepositoryEntry,
} from '../repos/listing';
import type { RepositorySort } from '../repos/store';
import { SEARCH_READ } from '../search/access';
import { searchIssueItems, searchRepositoryItems } from '../search/service';
import { TEAM_READ, TEAMS_LIST } from '../teams/access';
import { listChildTeams, listTeamMembers, listTeamRepositories, teamFull, teamListJson, visibleTeams } from '../teams/service';
import { USER_READ } from '../users/access';
import { publicProfile } from '../users/service';
import { admit, policy } from './access';
import { TypedError } from './errors';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;

/** `count` items from `offset` (0-based) of a list, and the list's total (resolve.ts RangeFetch). */
type RangeFetch = (offset: number, count: number) => { items: Source[]; total: number };

/** The policies of the account fields (by the REST resource each reads). */
export const ACCOUNT_POLICIES = {
	user: policy({ ...USER_READ, method: 'GET', path: '/users/{username}', docs: 'users/users#get-a-user' }),
	organization: policy({ ...ORG_READ, method: 'GET', path: '/orgs/{org}', docs: 'orgs/orgs#get-an-organization' }),
	repositoryById: policy({
		...REPOSITORY_READ,
		method: 'GET',
		path: '/repositories/{repository_id}',
		docs: 'repos/repos#get-a-repository',
	}),
	ownOrganizations: policy({
		...OWN_ORGS_READ,
		method: 'GET',
		path: '/user/orgs',
		docs: 'orgs/orgs#list-organizations-for-the-authenticated-user',
	}),
	userOrganizations: policy({
		...USER_ORGS_READ,
		method: 'GET',
		path: '/users/{username}/orgs',
		docs: 'orgs/orgs#list-organizations-for-a-user',
	}),
	members: policy({
		...MEMBERS_READ,
		permissions: 'matrix',
		method: 'GET',
		path: '/orgs/{org}/members',
		docs: 'orgs/members#list-organization-members',
	}),
	teams: policy({ ...TEAMS_LIST, permissions: 'matrix', method: 'GET', path: '/orgs/{org}/teams', docs: 'teams/teams#list-teams' }),
	team: policy({
		...TEAM_READ,
		permissions: 'matrix',
		method: 'GET',
		path: '/orgs/{org}/teams/{team_slug}',
		docs: 'teams/teams#get-a-team-by-name',
	}),
	childTeams: policy({
		...TEAM_READ,
		permissions: 'matrix',
		method: 'GET',
		path: '/orgs/{org}/teams/{team_slug}/teams',
		docs: 'teams/teams#list-child-teams',
	}),
	teamMembers: policy({
		...TEAM_READ,
		permissions: 'matrix',
		method: 'GET',
		path: '/orgs/{org}/teams/{team_slug}/members',
		docs: 'teams/members#list-team-members',
	}),
	teamRepositories: policy({
		...TEAM_READ,
		permissions: 'matrix',
		method: 'GET',
		path: '/orgs/{org}/teams/{team_slug}/repos',
		docs: 'teams/teams#list-team-repositories',
	}),
	ownRepositories: policy({
		...OWN_REPOSITORIES_READ,
		method: 'GET',
		path: '/user/repos',
		docs: 'repos/repos#list-repositories-for-the-authenticated-user',
	}),
	accountRepositories: policy({
		...ACCOUNT_REPOSITORIES_READ,
		method: 'GET',
		path: '/users/{username}/repos',
		docs: 'repos/repos#list-repositories-for-a-user',
	}),
	organizationRepositories: policy({
		...ORG_REPOSITORIES_READ,
		method: 'GET',
		path: '/orgs/{org}/repos',
		docs: 'repos/repos#list-organization-repositories',
	}),
	ownGists: policy({
		...GISTS_READ,
		resource: 'none',
		method: 'GET',
		path: '/gists',
		docs: 'gists/gists#list-gists-for-the-authenticated-user',
	}),
	userGists: policy({
		...GISTS_READ,
		resource: 'none',
		method: 'GET',
		path: '/users/{username}/gists',
		docs: 'gists/gists#list-gists-for-a-user',
	}),
	gist: policy({ ...GISTS_READ, resource: { gist: 'read' }, method: 'GET', path: '/gists/{gist_id}', docs: 'gists/gists#get-a-gist' }),
	searchIssues: policy({
		...SEARCH_READ,
		method: 'GET',
		path: '/search/issues',
		docs: 'search/search#search-issues-and-pull-requests',
	}),
	searchRepositories: policy({
		...SEARCH_READ,
		method: 'GET',
		path: '/search/repositories',
		docs: 'search/search#search-repositories',
	}),
};

// ----- single accounts, teams, gists

/**
 * GET /users/{username}: the public profile of the account `login` (a user or an organization).
 * @throws DomainError 404 when no account has the login
 */
export function userProfile(ctx: Context, login: string): Source {
	const admitted = admit(ctx, ACCOUNT_POLICIES.user, { username: login });
	return publicProfile(admitted.app, login);
}

/**
 * GET /orgs/{org}: the organization `login` as the caller sees it (organization-full).
 * @throws DomainError 404 when it is no organization
 */
export function organizationOf(ctx: Context, login: string): Source {
	const admitted = admit(ctx, ACCOUNT_POLICIES.organization, { org: login });
	return organizationProfile(admitted.app, admitted.org as OrgAccess);
}

/**
 * The full profile behind an account source (a list item carries the simple form): GET /orgs/{org}
 * for an organization, GET /users/{username} for a user, read once per source.
 * @throws DomainError 404 when the account is gone
 */
export function fullAccount(ctx: Context, s: Source): Source {
	if ('created_at' in s) return s;
	if (!s.__full) s.__full = s.type === 'Organization' ? organizationOf(ctx, String(s.login)) : userProfile(ctx, String(s.login));
	return s.__full;
}

/** The team `slug` of the organization `org` as the caller may read it (TeamAccess), memoized per request. */
function teamAccess(ctx: Context, org: string, slug: string, route = ACCOUNT_POLICIES.team): GuardedContext & { team: TeamAccess } {
	return admit(ctx, route, { org, team_slug: slug }) as GuardedContext & { team: TeamAccess };
}

/**
 * GET /orgs/{org}/teams/{team_slug}: the team's full form, for members of the organization (a
 * secret team for its members and the organization's owners only).
 * @throws DomainError 404 for a team the caller may not see
 */
export function teamOf(ctx: Context, org: string, slug: string): Source {
	const admitted = teamAccess(ctx, org, slug);
	return teamFull(admitted.app, admitted.team.org, admitted.team.team);
}

/**
 * The organization login and slug of a team source (a list or full form), from the team row.
 * @throws DomainError 404 when the team is gone
 */
export function teamAddress(ctx: Context, s: Source): { org: string; slug: string } {
	const { stores } = ctx.app;
	const team = stores.teams.byId(Number(s.id));
	const org = team && stores.accounts.byId(team.org_id);
	if (!team || !org) throw notFound();
	return { org: org.login, slug: team.slug };
}

/**
 * GET /gists/{gist_id}: the whole gist (contents, history, fork_of); anyone with its id reads it.
 * @throws DomainError 404 for no such gist (or a blocked one)
 */
export function gistOf(ctx: Context, gistId: string): Source {
	const admitted = admit(ctx, ACCOUNT_POLICIES.gist, { gist_id: gistId }) as GuardedContext & { gist: GistRow };
	return gistDetail(admitted.app, admitted.gist);
}

/**
 * The object of a node id of the account kinds: User, Organization (as GET /users/{username} and
 * GET /orgs/{org} answer), Team (GET …/teams/{team_slug}: secret teams only to those who see
 * them), Gist. Null for another kind (resolve.ts resolves repositories, issues and pull requests).
 * @throws DomainError 404 for an object the caller may not see
 */
export function accountNode(ctx: Context, type: string, id: number): Source | null {
	const { stores } = ctx.app;
	if (type === 'User' || type === 'Organization') {
		const row = stores.accounts.byId(id);
		if (!row) throw notFound();
		return type === 'User' ? userProfile(ctx, row.login) : organizationOf(ctx, row.login);
	}
	if (type === 'Team') {
		const { org, slug } = teamAddress(ctx, { id });
		return teamOf(ctx, org, slug);
	}
	if (type === 'Gist') {
		const row = stores.gists.byId(id);
		if (!row) throw notFound();
		return gistOf(ctx, row.gist_id);
	}
	return null;
}

// ----- lists of accounts and teams

/**
 * A user's organizations (User.organizations): the caller's own as GET /user/orgs lists them
 * (concealed memberships too), another user's as GET /users/{username}/orgs (public memberships).
 */
export function userOrganizations(ctx: Context, user: Source): RangeFetch {
	const self = ctx.principal.user?.id === user.id;
	return (offset, count) => {
		if (self) return listOwnOrganizations(admit(ctx, ACCOUNT_POLICIES.ownOrganizations, {}), { limit: count, offset });
		const login = String(user.login);
		return listUserOrganizations(admit(ctx, ACCOUNT_POLICIES.userOrganizations, { username: login }), login, { limit: count, offset });
	};
}

/**
 * An organization's members (Organization.membersWithRole) as GET /orgs/{org}/members lists them:
 * every active member to members of the organization, the public members to anyone else.
 */
export function organizationMembers(ctx: Context, login: string): RangeFetch {
	return (offset, count) => {
		const admitted = admit(ctx, ACCOUNT_POLICIES.members, { org: login });
		return listOrganizationMembers(
			admitted.app,
			admitted.org as OrgAccess,
			{ role: 'all', publicOnly: false },
			{ limit: count, offset },
		);
	};
}

/** The role of a listed member of the organization `orgLogin`: ADMIN (an owner) or MEMBER. */
export function memberRole(ctx: Context, orgLogin: string, userId: number): 'ADMIN' | 'MEMBER' {
	const { stores } = ctx.app;
	const org = stores.accounts.byLogin(orgLogin);
	const membership = org ? stores.memberships.get(org.id, userId) : undefined;
	return membership?.role === 'admin' ? 'ADMIN' : 'MEMBER';
}

/** The list forms of teams by id, in order (the representation GET /orgs/{org}/teams answers). */
function teamList(access: GuardedContext, org: AccountRow, ids: number[]): Source[] {
	return ids.length ? (JSON.parse(teamListJson(access.app, org, ids).toString()) as Source[]) : [];
}

/**
 * An organization's teams (Organization.teams) as GET /orgs/{org}/teams lists them to the caller,
 * by name: owners every team, members the closed teams and the secret teams they belong to.
 */
export function organizationTeams(ctx: Context, login: string): RangeFetch {
	return (offset, count) => {
		const admitted = admit(ctx, ACCOUNT_POLICIES.teams, { org: login });
		const access = admitted.org as OrgAccess;
		const { ids, total } = visibleTeams(
			admitted.app,
			access.org.id,
			{ seeAll: access.admin, userId: access.userId },
			{ limit: count, offset },
		);
		return { items: teamList(admitted, access.org, ids), total };
	};
}

/** A team's child teams (Team.childTeams) as GET …/teams/{team_slug}/teams lists them to the caller. */
export function childTeams(ctx: Context, team: Source): RangeFetch {
	return (offset, count) => {
		const { org, slug } = teamAddress(ctx, team);
		const admitted = teamAccess(ctx, org, slug, ACCOUNT_POLICIES.childTeams);
		const { ids, total } = listChildTeams(admitted.app, admitted.team, { limit: count, offset });
		return { items: teamList(admitted, admitted.team.org, ids), total };
	};
}

/**
 * A team's members (Team.members) as GET …/teams/{team_slug}/members lists them (simple users with
 * `role` member or maintainer), `membership` all (with child teams' members), immediate or child.
 */
export function teamMembers(
	ctx: Context,
	team: Source,
	role: 'all' | 'member' | 'maintainer',
	membership: 'all' | 'immediate' | 'child',
): RangeFetch {
	return (offset, count) => {
		const { org, slug } = teamAddress(ctx, team);
		const admitted = teamAccess(ctx, org, slug, ACCOUNT_POLICIES.teamMembers);
		return listTeamMembers(admitted.app, admitted.team, { role, membership }, { limit: count, offset });
	};
}

/**
 * A team's repositories (Team.repositories) as GET …/teams/{team_slug}/repos lists them: those the
 * caller may see, each with the team's permission (`role_name`).
 */
export function teamRepositories(ctx: Context, team: Source): RangeFetch {
	return (offset, count) => {
		const { org, slug } = teamAddress(ctx, team);
		const admitted = teamAccess(ctx, org, slug, ACCOUNT_POLICIES.teamRepositories);
		return listTeamRepositories(admitted, admitted.team, { limit: count, offset });
	};
}

// ----- repositories and gists of an account

/** The repository list filters of GitHub's GraphQL (User.repositories, Organization.repositories). */
export interface RepositoryArgs {
	orderBy?: { field?: string; direction?: string } | null;
	privacy?: string | null;
	ownerAffiliations?: string[] | null;
	isFork?: boolean | null;
	isArchived?: boolean | null;
	hasIssuesEnabled?: boolean | null;
	isLocked?: boolean | null;
}

/** GitHub's RepositoryOrderField as REST's sort; STARGAZERS is not a sort the REST lists take. */
const REPOSITORY_SORT: Record<string, RepositorySort> = {
	CREATED_AT: 'created',
	UPDATED_AT: 'updated',
	PUSHED_AT: 'pushed',
	NAME: 'full_name',
};

/** The sort and direction of `orderBy` (default CREATED_AT ASC). @throws TypedError UNPROCESSABLE for STARGAZERS */
function repositoryOrder(orderBy: RepositoryArgs['orderBy']): { sort: RepositorySort; direction: 'asc' | 'desc' } {
	const field = String(orderBy?.field ?? 'CREATED_AT');
	const sort = REPOSITORY_SORT[field];
	if (!sort)
		throw new TypedError(
			'UNPROCESSABLE',
			`Gitstead orders repository lists by CREATED_AT, UPDATED_AT, PUSHED_AT or NAME, not ${field}.`,
		);
	return { sort, direction: orderBy?.direction === 'DESC' ? 'desc' : 'asc' };
}

/** Whether a repository passes the isFork, isArchived, hasIssuesEnabled and isLocked filters (Gitstead locks none). */
function passes(args: RepositoryArgs, repo: ListedRepositoryEntry['repo']): boolean {
	return (
		(args.isFork == null || (repo.fork_parent_id !== null) === args.isFork) &&
		(args.isArchived == null || (repo.archived === 1) === args.isArchived) &&
		(args.hasIssuesEnabled == null || (repo.has_issues === 1) === args.hasIssuesEnabled) &&
		args.isLocked !== true
	);
}

/**
 * A user's repositories (User.repositories): the caller's own as GET /user/repos lists them
 * (`ownerAffiliations`, default OWNER; `privacy`), another user's as GET /users/{username}/repos
 * (those the user owns that the caller may see; `privacy` applies). A user's repositories are a
 * bounded set, filtered and sorted in memory as the REST lists do.
 */
export function userRepositories(ctx: Context, user: Source, args: RepositoryArgs): RangeFetch {
	const { sort, direction } = repositoryOrder(args.orderBy);
	const self = ctx.principal.user?.id === user.id;
	const privacy = args.privacy ? String(args.privacy).toLowerCase() : null;
	let entries: ListedRepositoryEntry[] | null = null;
	let admitted: GuardedContext;
	const all = (): ListedRepositoryEntry[] => {
		if (entries) return entries;
		if (self) {
			admitted = admit(ctx, ACCOUNT_POLICIES.ownRepositories, {});
			const affiliations = new Set<Affiliation>(
				args.ownerAffiliations?.length ? (args.ownerAffiliations.map((x) => String(x).toLowerCase()) as Affiliation[]) : ['owner'],
			);
			const visibility = privacy === 'public' || privacy === 'private' ? privacy : 'all';
			entries = authenticatedUserRepositories(admitted, { affiliations, visibility }, sort, direction);
		} else {
			admitted = admit(ctx, ACCOUNT_POLICIES.accountRepositories, { username: String(user.login) });
			const account = admitted.app.stores.accounts.byLogin(String(user.login));
			if (!account || account.type === 'Bot') throw notFound();
			entries = accountRepositories(admitted, account, 'owner', sort, direction).filter(
				({ repo }) => privacy === null || (privacy === 'public') === (repo.visibility === 'public'),
			);
		}
		entries = entries.filter(({ repo }) => passes(args, repo));
		return entries;
	};
	return (offset, count) => {
		const list = all();
		return { items: renderListed(admitted, list.slice(offset, offset + count)), total: list.length };
	};
}

/**
 * An organization's repositories (Organization.repositories) as GET /orgs/{org}/repos lists them to
 * the caller; `privacy`, isFork, isArchived and hasIssuesEnabled filter in SQL.
 */
export function organizationRepositoryList(ctx: Context, login: string, args: RepositoryArgs): RangeFetch {
	const { sort, direction } = repositoryOrder(args.orderBy);
	const privacy = args.privacy ? String(args.privacy).toUpperCase() : null;
	if (privacy === 'INTERNAL') throw new TypedError('UNPROCESSABLE', 'Gitstead filters repositories by PUBLIC or PRIVATE privacy.');
	return (offset, count) => {
		if (args.isLocked === true) return { items: [], total: 0 };
		const admitted = admit(ctx, ACCOUNT_POLICIES.organizationRepositories, { org: login });
		const access = admitted.org as OrgAccess;
		return organizationRepositories(
			admitted,
			access,
			{
				ownerId: access.org.id,
				visibility: privacy === 'PUBLIC' ? 'public' : privacy === 'PRIVATE' ? 'private' : 'any',
				fork: args.isFork == null ? 'any' : args.isFork ? 'fork' : 'source',
				archived: args.isArchived ?? null,
				hasIssues: args.hasIssuesEnabled ?? null,
			},
			sort,
			direction,
			{ limit: count, offset },
		);
	};
}

/**
 * A user's gists (User.gists), in SQL: the caller's own as GET /gists lists them (secret ones too),
 * another user's as GET /users/{username}/gists (public ones only, so SECRET lists none).
 * `privacy` PUBLIC (GitHub's default), SECRET or ALL; `orderBy` CREATED_AT, UPDATED_AT or PUSHED_AT
 * (a gist's last push is its last update), default CREATED_AT ASC.
 */
export function userGists(
	ctx: Context,
	user: Source,
	args: { privacy?: string | null; orderBy?: { field?: string; direction?: string } | null },
): RangeFetch {
	const self = ctx.principal.user?.id === user.id;
	const privacy = String(args.privacy ?? 'PUBLIC');
	const sort = args.orderBy?.field === 'UPDATED_AT' || args.orderBy?.field === 'PUSHED_AT' ? 'updated' : 'created';
	const direction = args.orderBy?.direction === 'DESC' ? 'desc' : 'asc';
	return (offset, count) => {
		const admitted = self
			? admit(ctx, ACCOUNT_POLICIES.ownGists, {})
			: admit(ctx, ACCOUNT_POLICIES.userGists, { username: String(user.login) });
		const owner = admitted.app.stores.accounts.user(String(user.login));
		if (!owner) throw notFound();
		// Secret gists are listed to their owner only (GET /gists); others see the public ones.
		const own = self && !admitted.publicView;
		const visibility = privacy === 'ALL' ? (own ? 'all' : 'public') : privacy === 'SECRET' ? 'secret' : 'public';
		if (visibility === 'secret' && !own) return { items: [], total: 0 };
		return listGists(admitted.app, { ownerId: owner.id, visibility, since: null, sort, direction }, { limit: count, offset });
	};
}

// ----- search

/** GitHub answers only the first 1000 results of a search. */
const MAX_RESULTS = 1000;

/**
 * GraphQL's `search` of ISSUE or REPOSITORY as GET /search/issues and GET /search/repositories
 * find them (best match first), what the caller may not read left out; results past the first
 * 1000 are not reached, as on GitHub. The total is the whole count (issueCount, repositoryCount).
 * @throws DomainError 422 for a qualifier value GitHub refuses
 */
export function searchResults(ctx: Context, kind: 'issues' | 'repositories', q: string): RangeFetch {
	return (offset, count) => {
		const limit = Math.max(0, Math.min(count, MAX_RESULTS - offset));
		const page = { limit, offset: Math.min(offset, MAX_RESULTS) };
		if (kind === 'issues') return searchIssueItems(admit(ctx, ACCOUNT_POLICIES.searchIssues, {}), { q }, page, false);
		return searchRepositoryItems(admit(ctx, ACCOUNT_POLICIES.searchRepositories, {}), { q }, page, false);
	};
}
