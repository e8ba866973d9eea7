/**
 * The resolvers of the served schema. Access is the REST routes': a field served from the stores
 * states the route access of its REST resource (src/api/graphql/access.ts) and is admitted by the
 * HTTP layer's policy and guard (admitAs), then reads the stores and renders with the shared
 * renderers: `repository(owner, name)`, `viewer`, the issues and pullRequests connections (filters
 * and paging in SQL), issue and pull request by number, comments, labels; accounts, teams, gists,
 * node(id:) and search through src/api/graphql/accounts.ts; the other repository, pull request,
 * commit and release fields through repository-fields.ts. Sources are the REST representations the
 * shared renderers make (tagged with __typename), and fields map GitHub's GraphQL names onto them.
 * Refusals become GitHub's GraphQL errors (NOT_FOUND, FORBIDDEN, …) in errors.ts.
 */
import { GraphQLError } from 'graphql';
import type { Context } from '../../http/route';
import { translate, TypedError } from './errors';
import { codeOfConductKind, communityFiles, NO_COMMUNITY_FILES, type CommunityFiles } from '../community/service';
import type { GuardedContext } from '../../http/route';
import type { RepoAccess } from '../../auth/access/types';
import type { IssueFilter } from '../issues/store';
import { issueScope, loadIssue, renderIssues } from '../issues/service';
import { renderPulls } from '../pulls/service';
import { renderIssueComments } from '../issue-comments/service';
import { privateUser } from '../users/render';
import { fullRepository } from '../repos/render';
import { label as renderLabel, repositoryPaths } from '../../model/render';
import { admit, POLICIES, repositoryAccess } from './access';
import {
	ACCOUNT_POLICIES,
	accountNode,
	childTeams,
	fullAccount,
	gistOf,
	memberRole,
	organizationMembers,
	organizationOf,
	organizationRepositoryList,
	organizationTeams,
	searchResults,
	teamAddress,
	teamMembers,
	teamOf,
	teamRepositories,
	userGists,
	userOrganizations,
	userProfile,
	userRepositories,
} from './accounts';

/** What every resolver sees: the request's context and the cost worked out before execution. */
export interface GraphContext {
	ctx: Context;
	cost: number;
	nodeCount: number;
}

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;
type Resolver = (source: Source, args: Args, g: GraphContext) => unknown;

const seg = (s: string | number) => encodeURIComponent(String(s));

// ----- connections: offset cursors over the twin's pages

/** Opaque cursor of the item at `index` (0-based). */
const cursor = (index: number) => Buffer.from(`cursor:v2:${index}`).toString('base64');
function cursorIndex(value: unknown): number {
	if (typeof value !== 'string') throw new TypedError('INVALID_CURSOR_ARGUMENTS', 'Invalid cursor.');
	const m = /^cursor:v2:(\d{1,9})$/.exec(Buffer.from(value, 'base64').toString());
	if (!m) throw new TypedError('INVALID_CURSOR_ARGUMENTS', `\`${value}\` does not appear to be a valid cursor.`);
	return Number(m[1]);
}

/** One page of a REST list: items and the total. */
type Fetch = (page: number, perPage: number) => { items: Source[]; total: number };

/** `count` items from `offset` (0-based) of a list, and the list's total (SQL: LIMIT/OFFSET and a count). */
export type RangeFetch = (offset: number, count: number) => { items: Source[]; total: number };

/**
 * A Relay connection from a paged REST list: first/last/after/before over offsets, totalCount,
 * pageInfo, nodes and edges (items mapped by `wrap`).
 */
function connection(args: Args, fetch: Fetch, wrap: (item: Source) => Source = (item) => item): Source {
	return rangeConnection(
		args,
		(offset, count) => {
			if (count <= 0) return { items: [], total: fetch(1, 1).total };
			if (offset % count === 0) return fetch(offset / count + 1, count);
			const first = Math.floor(offset / 100);
			const out: Source[] = [];
			let total = 0;
			for (let p = first; p <= Math.floor((offset + count - 1) / 100); p++) {
				const page = fetch(p + 1, 100);
				total = page.total;
				out.push(
					...page.items
						.map((item, i) => ({ item, index: p * 100 + i }))
						.filter(({ index }) => index >= offset && index < offset + count)
						.map(({ item }) => item),
				);
			}
			return { items: out, total };
		},
		wrap,
	);
}

/**
 * A Relay connection over a list read by ranges (LIMIT/OFFSET in SQL): first/last/after/before
 * over offsets with the opaque `cursor:v2:{index}` cursors, totalCount, pageInfo, nodes and edges
 * (items mapped by `wrap`).
 * @throws TypedError INVALID_CURSOR_ARGUMENTS for a cursor this did not give
 */
export function rangeConnection(args: Args, fetch: RangeFetch, wrap: (item: Source) => Source = (item) => item): Source {
	// Only totalCount asked (no first/last: src/api/graphql/limits.ts allows it): the count alone.
	if (args.first == null && args.last == null)
		return {
			totalCount: fetch(0, 0).total,
			nodes: [],
			edges: [],
			pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: false },
		};
	const start = args.after != null ? cursorIndex(args.after) + 1 : 0;
	let end: number | null = args.before != null ? cursorIndex(args.before) : null;
	let total: number | null = null;
	const range = (offset: number, count: number): Source[] => {
		if (count <= 0) return [];
		const page = fetch(offset, count);
		total = page.total;
		return page.items;
	};
	let sliceStart: number;
	let items: Source[];
	if (args.first != null) {
		let count = args.first as number;
		if (end !== null) count = Math.max(0, Math.min(count, end - start));
		sliceStart = start;
		items = range(start, count);
	} else {
		if (end === null) {
			total = fetch(0, 0).total;
			end = total;
		}
		sliceStart = Math.max(start, end - (args.last as number));
		items = range(sliceStart, end - sliceStart);
	}
	if (total === null) total = fetch(0, 0).total;
	const totalCount = total as number;
	const nodes = items.map(wrap);
	const edges = nodes.map((node, i) => ({ cursor: cursor(sliceStart + i), node }));
	return {
		totalCount,
		nodes,
		edges,
		pageInfo: {
			startCursor: edges[0]?.cursor ?? null,
			endCursor: edges.at(-1)?.cursor ?? null,
			hasNextPage: sliceStart + items.length < (end ?? totalCount),
			hasPreviousPage: sliceStart > 0,
		},
	};
}

/** A connection over a list already in hand (an issue's labels and assignees). */
function arrayConnection(args: Args, list: Source[], wrap: (item: Source) => Source = (item) => item): Source {
	return connection(args, (page, perPage) => ({ items: list.slice((page - 1) * perPage, page * perPage), total: list.length }), wrap);
}

// ----- sources: REST representations tagged with their GraphQL type

const account = (json: Source): Source => ({ ...json, __typename: json.type === 'Organization' ? 'Organization' : 'User' });
const repository = (json: Source): Source => ({ ...json, __typename: 'Repository' });
const issueOrPull = (json: Source): Source => ({ ...json, __typename: json.pull_request || json.head ? 'PullRequest' : 'Issue' });
const label = (json: Source): Source => ({ ...json, __typename: 'Label' });
const tagged =
	(type: string) =>
	(json: Source): Source => ({ ...json, __typename: type });

/** {owner}/{repo} of a REST issue, pull request or label from its API URL. */
function repoPath(json: Source): string {
	const url = String(json.repository_url ?? json.base?.repo?.url ?? json.url ?? '');
	const m = /\/repos\/([^/]+)\/([^/]+)/.exec(url);
	return m ? `/repos/${m[1]}/${m[2]}` : '';
}

const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);
const PERMISSIONS = [
	['admin', 'ADMIN'],
	['maintain', 'MAINTAIN'],
	['push', 'WRITE'],
	['triage', 'TRIAGE'],
	['pull', 'READ'],
] as const;

/** Runs `fn`, turning a refusal into GitHub's GraphQL error (`notFound`: the NOT_FOUND message). */
function guarded<T>(notFound: string | undefined, fn: () => T): T {
	try {
		return fn();
	} catch (error) {
		throw translate(error, notFound);
	}
}

/** An admitted repository: the guard's context with its RepoAccess. */
type Admitted = GuardedContext & { repo: RepoAccess };

/** Rendered repositories by request: a repository named in several places is rendered once. */
const repositoryCache = new WeakMap<GraphContext, Map<string, Source>>();

/**
 * The Repository source of an admitted repository: GitHub's full repository as GET
 * /repos/{owner}/{repo} renders it (src/api/repos/render.ts), the caller's permissions omitted
 * for a public view.
 */
function repositorySource(g: GraphContext, admitted: Admitted): Source {
	let cache = repositoryCache.get(g);
	if (!cache) repositoryCache.set(g, (cache = new Map()));
	const { repo, owner, permission } = admitted.repo;
	const key = `${repo.id}:${admitted.publicView}`;
	let source = cache.get(key);
	if (!source) {
		source = repository(fullRepository(g.ctx.app, repo, owner, admitted.publicView ? null : permission));
		cache.set(key, source);
	}
	return source;
}

/** owner login and name of a source this module made (__owner, __name), else from its REST URL. */
function ownerAndName(s: Source): [string, string] {
	if (s.__owner !== undefined) return [s.__owner, s.__name];
	if (s.full_name !== undefined && s.owner?.login !== undefined) return [s.owner.login, s.name];
	const [, , owner, name] = repoPath(s).split('/');
	return [decodeURIComponent(owner ?? ''), decodeURIComponent(name ?? '')];
}

/** GraphQL's issue orderBy fields as the issue store's sorts. */
const ISSUE_SORT: Record<string, IssueFilter['sort']> = { CREATED_AT: 'created', UPDATED_AT: 'updated', COMMENTS: 'comments' };

/** The states both lists allow (either may be missing: no filter). */
function bothStates(a: string[] | undefined, b: string[] | undefined): IssueFilter['states'] {
	const lists = [a, b].filter((x): x is string[] => Array.isArray(x) && x.length > 0);
	if (lists.length === 0) return null;
	const all = lists.reduce((x, y) => x.filter((state) => y.includes(state)));
	return all as IssueFilter['states'];
}

/**
 * A repository's issues or pull requests (Repository.issues, Repository.pullRequests) read from
 * the issue store with the filters in SQL: states, labels (any of them), filterBy's assignee
 * (`*` any, null none), createdBy, mentioned, milestoneNumber (a number, `*` any, `none`/null
 * none), since; orderBy CREATED_AT, UPDATED_AT or COMMENTS. Issues of a repository with issues
 * turned off are none. Access: the REST issue (or pull request) list's.
 */
function issueConnection(g: GraphContext, repo: Source, args: Args, pulls: boolean): Source {
	const [ownerLogin, name] = ownerAndName(repo);
	const admitted = guarded(undefined, () => repositoryAccess(g.ctx, pulls ? POLICIES.pulls : POLICIES.issues, ownerLogin, name));
	const { app } = g.ctx;
	const { stores } = app;
	const scope = issueScope(app, admitted.repo);
	const by = (args.filterBy ?? {}) as Args;
	const accountId = (login: unknown) => (login == null ? null : (stores.accounts.byLogin(String(login))?.id ?? -1));
	let milestone: IssueFilter['milestone'] = null;
	let milestoneId: number | null = null;
	if (by.milestoneNumber === '*') milestone = 'any';
	else if (by.milestoneNumber === 'none' || (by.milestoneNumber === null && 'milestoneNumber' in by)) milestone = 'none';
	else if (by.milestoneNumber) {
		const text = String(by.milestoneNumber);
		const row = /^\d{1,9}$/.test(text) ? stores.milestones.byNumber(scope.repo.id, Number(text)) : undefined;
		// No such milestone: nothing is in it.
		if (!row) return arrayConnection(args, []);
		milestone = 'id';
		milestoneId = row.id;
	}
	let assignee: IssueFilter['assignee'] = null;
	if (by.assignee === '*') assignee = 'any';
	else if (by.assignee === null && 'assignee' in by) assignee = 'none';
	else if (by.assignee != null) assignee = 'user';
	const labels = [...new Set(((args.labels ?? by.labels ?? []) as string[]).map(String))];
	const filter: IssueFilter = {
		repoId: scope.repo.id,
		state: 'all',
		creatorId: accountId(by.createdBy),
		assignee,
		assigneeId: assignee === 'user' ? accountId(by.assignee) : null,
		mentioned: by.mentioned == null ? null : String(by.mentioned),
		labels,
		anyLabel: true,
		since: by.since == null ? null : String(by.since),
		milestone,
		milestoneId,
		none: !pulls && scope.repo.has_issues === 0,
		pullRequests: pulls,
		states: bothStates(args.states, by.states),
		// gh pr view BRANCH, gh pr create: pull requests of a head branch (from any repository) or into a base branch.
		headRef: pulls && args.headRefName ? String(args.headRefName) : null,
		baseRef: pulls && args.baseRefName ? String(args.baseRefName) : null,
		sort: ISSUE_SORT[String(args.orderBy?.field ?? 'CREATED_AT')] ?? 'created',
		direction: args.orderBy?.direction === 'DESC' ? 'desc' : 'asc',
		limit: 0,
		offset: 0,
	};
	const wrap = (item: Source) => ({ ...issueOrPull(item), __owner: scope.owner.login, __name: scope.repo.name });
	return rangeConnection(
		args,
		(offset, count) => {
			const { rows, total } = stores.issues.list({ ...filter, limit: count, offset });
			return { items: rows.length ? renderIssues(admitted, scope, rows) : [], total };
		},
		wrap,
	);
}

/**
 * The comments of an issue or pull request source, oldest first (GET …/issues/{issue_number}/comments
 * with LIMIT/OFFSET in SQL), under the REST comment list's access.
 */
function issueComments(g: GraphContext, s: Source, args: Args): Source {
	const [owner, name] = ownerAndName(s);
	const admitted = guarded(undefined, () => repositoryAccess(g.ctx, POLICIES.issues, owner, name));
	const scope = issueScope(g.ctx.app, admitted.repo);
	const issue = g.ctx.app.stores.issues.byNumber(scope.repo.id, Number(s.number));
	if (!issue) return arrayConnection(args, []);
	return rangeConnection(
		args,
		(offset, count) => {
			const { rows, total } = g.ctx.app.stores.issues.issueComments(issue.id, null, count, offset);
			return { items: rows.length ? renderIssueComments(admitted, scope, rows, [issue]) : [], total };
		},
		(comment) => ({ ...comment, __typename: 'IssueComment', __owner: scope.owner.login, __name: scope.repo.name }),
	);
}

/**
 * The pull request `number` of the repository `owner`/`name` as GET …/pulls/{pull_number} renders
 * it (head, base, counts), under the REST pull request read's access.
 * @throws TypedError NOT_FOUND worded `notFound` for a repository or pull request the caller cannot see
 */
function pullByNumber(g: GraphContext, owner: string, name: string, number: number, notFound?: string): Source {
	return guarded(notFound, () => {
		const admitted = repositoryAccess(g.ctx, POLICIES.pulls, owner, name);
		const scope = issueScope(g.ctx.app, admitted.repo);
		const row = Number.isSafeInteger(number) ? g.ctx.app.stores.pulls.byNumber(scope.repo.id, number) : undefined;
		if (!row) throw new TypedError('NOT_FOUND', notFound ?? 'Could not resolve to a node.');
		return {
			...renderPulls(admitted, scope, [row], true)[0],
			__typename: 'PullRequest',
			__owner: scope.owner.login,
			__name: scope.repo.name,
		};
	});
}

/**
 * The issue `number` (a pull request too) of the repository `owner`/`name` as GET
 * …/issues/{issue_number} renders it, under the REST issue read's access.
 * @throws TypedError NOT_FOUND worded `notFound`; UNPROCESSABLE for a plain issue where issues are turned off
 */
function issueByNumber(g: GraphContext, owner: string, name: string, number: number, notFound?: string): Source {
	return guarded(notFound, () => {
		const admitted = repositoryAccess(g.ctx, POLICIES.issues, owner, name);
		const scope = issueScope(g.ctx.app, admitted.repo);
		const row = loadIssue({ app: g.ctx.app, params: { issue_number: String(number) } }, scope);
		return { ...issueOrPull(renderIssues(admitted, scope, [row], true)[0]), __owner: scope.owner.login, __name: scope.repo.name };
	});
}

/**
 * The full REST pull request behind a search item or a pulls-list item (head, base, draft, merge
 * state, additions: list items lack the counts), fetched once.
 */
function pull(g: GraphContext, source: Source): Source {
	if (source.head && 'additions' in source) return source;
	if (!source.__pull) source.__pull = pullByNumber(g, ...ownerAndName(source), Number(source.number));
	return source.__pull;
}

const node = (type: string, id: number) => Buffer.from(`0${type.length}:${type}${id}`).toString('base64');

/** Resolvers by type and field; fields not named read the source's property of the same name. */
export const RESOLVERS: Record<string, Record<string, Resolver>> = {
	Query: {
		viewer: (_s, _a, g) =>
			guarded(undefined, () => {
				const { app, principal } = admit(g.ctx, POLICIES.viewer, {});
				const row = app.stores.accounts.byId(principal.user!.id)!;
				return account(privateUser(app.urls, row, app.stores.accounts.counts(row.id)));
			}),
		user: (_s, a, g) => {
			const notFound = `Could not resolve to a User with the login of '${a.login}'.`;
			const json = guarded(notFound, () => userProfile(g.ctx, String(a.login)));
			if (json.type === 'Organization') throw new TypedError('NOT_FOUND', notFound);
			return account(json);
		},
		repositoryOwner: (_s, a, g) =>
			account(
				guarded(`Could not resolve to a RepositoryOwner with the login of '${a.login}'.`, () =>
					userProfile(g.ctx, String(a.login)),
				),
			),
		organization: (_s, a, g) =>
			account(
				guarded(`Could not resolve to an Organization with the login of '${a.login}'.`, () =>
					organizationOf(g.ctx, String(a.login)),
				),
			),
		repository: (_s, a, g) =>
			guarded(`Could not resolve to a Repository with the name '${a.owner}/${a.name}'.`, () =>
				repositorySource(g, repositoryAccess(g.ctx, POLICIES.repository, String(a.owner), String(a.name))),
			),
		node: (_s, a, g) => byNodeId(g, a.id),
		nodes: (_s, a, g) => (a.ids as string[]).map((id) => byNodeId(g, id)),
		rateLimit: (_s, a, g) => rateLimit(g, a.dryRun === true),
		search: (_s, args, g) => {
			// gh asks search for `last: N` with no `before` and reads the first N results; GitHub
			// answers that way, so `last` without `before` counts from the start here too.
			const a =
				args.last != null && args.first == null && args.before == null ? { ...args, first: args.last, last: undefined } : args;
			if (a.type === 'REPOSITORY')
				return {
					...guarded(undefined, () => rangeConnection(a, searchResults(g.ctx, 'repositories', String(a.query)), repository)),
					__kind: 'repositories',
				};
			if (a.type === 'ISSUE')
				return {
					...guarded(undefined, () => rangeConnection(a, searchResults(g.ctx, 'issues', String(a.query)), issueOrPull)),
					__kind: 'issues',
				};
			throw new TypedError('UNPROCESSABLE', `Gitstead searches ISSUE and REPOSITORY, not ${a.type}.`);
		},
	},
	SearchResultItemConnection: {
		issueCount: (s) => (s.__kind === 'issues' ? s.totalCount : 0),
		repositoryCount: (s) => (s.__kind === 'repositories' ? s.totalCount : 0),
		userCount: () => 0,
	},
	RateLimit: {},
	User: {
		id: (s) => s.node_id,
		databaseId: (s) => s.id,
		avatarUrl: (s) => s.avatar_url,
		url: (s) => s.html_url,
		createdAt: (s, _a, g) => full(g, s).created_at,
		updatedAt: (s, _a, g) => full(g, s).updated_at,
		name: (s, _a, g) => full(g, s).name ?? null,
		email: (s, _a, g) => full(g, s).email ?? '',
		bio: (s, _a, g) => full(g, s).bio ?? null,
		company: (s, _a, g) => full(g, s).company ?? null,
		location: (s, _a, g) => full(g, s).location ?? null,
		// The viewer's as GET /user/orgs lists them (concealed memberships too), another user's public ones.
		organizations: (s, a, g) => guarded(undefined, () => rangeConnection(a, userOrganizations(g.ctx, s), account)),
		// The viewer's gists (secret ones too) or another user's public ones; privacy and orderBy in SQL.
		gists: (s, a, g) => guarded(undefined, () => rangeConnection(a, userGists(g.ctx, s, a), tagged('Gist'))),
		// GET /user/repos for the viewer (ownerAffiliations, privacy), GET /users/{username}/repos for others.
		repositories: (s, a, g) => guarded(undefined, () => rangeConnection(a, userRepositories(g.ctx, s, a), repository)),
	},
	Organization: {
		id: (s) => s.node_id,
		databaseId: (s) => s.id,
		avatarUrl: (s) => s.avatar_url,
		url: (s, _a, g) => full(g, s).html_url ?? g.ctx.app.urls.html(`/${s.login}`),
		name: (s, _a, g) => full(g, s).name ?? null,
		description: (s, _a, g) => full(g, s).description ?? null,
		createdAt: (s, _a, g) => full(g, s).created_at,
		updatedAt: (s, _a, g) => full(g, s).updated_at,
		// GET /orgs/{org}/teams as the caller sees it: secret teams only to their members and owners.
		teams: (s, a, g) => guarded(undefined, () => rangeConnection(a, organizationTeams(g.ctx, String(s.login)), tagged('Team'))),
		// A team the caller may not see (a secret team of which it is no member) is null, as on GitHub.
		team: (s, a, g) => {
			try {
				return tagged('Team')(guarded(undefined, () => teamOf(g.ctx, String(s.login), String(a.slug))));
			} catch (error) {
				if (error instanceof TypedError && error.type === 'NOT_FOUND') return null;
				throw error;
			}
		},
		repositories: (s, a, g) =>
			guarded(undefined, () => rangeConnection(a, organizationRepositoryList(g.ctx, String(s.login), a), repository)),
		// GET /orgs/{org}/members (every member to members, public ones to others); the role of each edge from its membership.
		membersWithRole: (s, a, g) => {
			const conn = guarded(undefined, () => rangeConnection(a, organizationMembers(g.ctx, String(s.login)), account));
			conn.edges = conn.edges.map((edge: Source) => ({
				...edge,
				role: () => memberRole(g.ctx, String(s.login), Number(edge.node.id)),
			}));
			return conn;
		},
	},
	Team: {
		organization: (s, _a, g) => account(guarded(undefined, () => organizationOf(g.ctx, teamAddress(g.ctx, s).org))),
		id: (s) => s.node_id,
		databaseId: (s) => s.id,
		url: (s) => s.html_url,
		privacy: (s) => (s.privacy === 'secret' ? 'SECRET' : 'VISIBLE'),
		parentTeam: (s, _a, g) =>
			s.parent ? tagged('Team')(guarded(undefined, () => teamOf(g.ctx, teamAddress(g.ctx, s).org, String(s.parent.slug)))) : null,
		childTeams: (s, a, g) => guarded(undefined, () => rangeConnection(a, childTeams(g.ctx, s), tagged('Team'))),
		/**
		 * GET …/teams/{team_slug}/members with GitHub's `membership`
		 * (https://docs.github.com/graphql/reference/enums#teammembershiptype): ALL (the default: with
		 * the child teams' members, as REST lists them), IMMEDIATE (members of the team itself) or
		 * CHILD_TEAM (members only through a child team), and `role`; in SQL. A member through a child
		 * team is a MEMBER of this one.
		 */
		members: (s, a, g) => {
			const membership = a.membership === 'IMMEDIATE' ? 'immediate' : a.membership === 'CHILD_TEAM' ? 'child' : 'all';
			const role = a.role ? (String(a.role).toLowerCase() as 'member' | 'maintainer') : 'all';
			const conn = guarded(undefined, () => rangeConnection(a, teamMembers(g.ctx, s, role, membership), account));
			conn.edges = conn.edges.map((edge: Source) => ({
				...edge,
				role: edge.node.role === 'maintainer' && (membership !== 'child' || !edge.node.inherited) ? 'MAINTAINER' : 'MEMBER',
			}));
			return conn;
		},
		repositories: (s, a, g) => {
			const conn = guarded(undefined, () => rangeConnection(a, teamRepositories(g.ctx, s), repository));
			conn.edges = conn.edges.map((edge: Source) => ({ ...edge, permission: TEAM_PERMISSION[edge.node.role_name] ?? 'READ' }));
			return conn;
		},
	},
	Repository: {
		id: (s) => s.node_id,
		databaseId: (s) => s.id,
		nameWithOwner: (s) => s.full_name,
		// Community files of the default branch (src/api/community/service.ts), read once per repository.
		codeOfConduct: (s, _a, g) => {
			const file = community(g, s).codeOfConduct;
			if (!file) return null;
			const kind = codeOfConductKind(file);
			return {
				id: Buffer.from(`014:CodeOfConduct${kind.key}`).toString('base64'),
				key: kind.key,
				name: kind.name,
				body: file.text,
				url: `${s.html_url}/blob/${s.default_branch}/${file.path}`,
			};
		},
		contactLinks: (s, _a, g) => community(g, s).contactLinks,
		isBlankIssuesEnabled: (s, _a, g) => community(g, s).blankIssuesEnabled,
		isSecurityPolicyEnabled: (s, _a, g) => community(g, s).security !== null,
		securityPolicyUrl: (s, _a, g) => (community(g, s).security ? `${s.html_url}/security/policy` : null),
		issueTemplates: (s, _a, g) => community(g, s).issueTemplates,
		pullRequestTemplates: (s, _a, g) => community(g, s).pullRequestTemplates.map(({ filename, body }) => ({ filename, body })),
		url: (s) => s.html_url,
		isPrivate: (s) => s.private,
		visibility: (s) => upper(s.visibility),
		isFork: (s) => s.fork,
		isArchived: (s) => s.archived,
		isTemplate: (s) => s.is_template ?? false,
		hasIssuesEnabled: (s) => s.has_issues,
		hasWikiEnabled: (s) => s.has_wiki,
		homepageUrl: (s) => s.homepage || null,
		sshUrl: (s) => s.ssh_url,
		createdAt: (s) => s.created_at,
		updatedAt: (s) => s.updated_at,
		pushedAt: (s) => s.pushed_at,
		stargazerCount: (s) => s.stargazers_count,
		forkCount: (s) => s.forks_count,
		owner: (s) => account(s.owner),
		viewerPermission: (s) => {
			const p = s.permissions as Record<string, boolean> | undefined;
			if (!p) return s.private ? null : 'READ';
			for (const [key, value] of PERMISSIONS) if (p[key]) return value;
			return null;
		},
		issue: (s, a, g) => {
			const notFound = `Could not resolve to an Issue with the number of ${a.number}.`;
			const json = issueByNumber(g, ...ownerAndName(s), a.number, notFound);
			if (json.pull_request) throw new TypedError('NOT_FOUND', notFound);
			return json;
		},
		issueOrPullRequest: (s, a, g) => {
			const notFound = `Could not resolve to an issue or pull request with the number of ${a.number}.`;
			const json = issueByNumber(g, ...ownerAndName(s), a.number, notFound);
			return json.pull_request ? pullByNumber(g, ...ownerAndName(s), a.number, notFound) : json;
		},
		parent: (s) => (s.parent ? repository(s.parent) : null),
		mergeCommitAllowed: (s) => s.allow_merge_commit ?? true,
		squashMergeAllowed: (s) => s.allow_squash_merge ?? true,
		rebaseMergeAllowed: (s) => s.allow_rebase_merge ?? true,
		deleteBranchOnMerge: (s) => s.delete_branch_on_merge ?? false,
		pullRequest: (s, a, g) =>
			pullByNumber(g, ...ownerAndName(s), a.number, `Could not resolve to a PullRequest with the number of ${a.number}.`),
		issues: (s, a, g) => issueConnection(g, s, a, false),
		pullRequests: (s, a, g) => issueConnection(g, s, a, true),
		// GET …/labels/{name} and GET …/labels: labels by name, `query` matching names and descriptions, in SQL.
		label: (s, a, g) => {
			let admitted: Admitted;
			try {
				admitted = guarded(undefined, () => repositoryAccess(g.ctx, POLICIES.labels, ...ownerAndName(s)));
			} catch (error) {
				if (error instanceof TypedError && error.type === 'NOT_FOUND') return null;
				throw error;
			}
			const { repo, owner } = admitted.repo;
			const row = g.ctx.app.stores.labels.byName(repo.id, String(a.name));
			return row ? label(renderLabel(repositoryPaths(g.ctx.app.urls, owner.login, repo.name).api, row)) : null;
		},
		labels: (s, a, g) => {
			const admitted = guarded(undefined, () => repositoryAccess(g.ctx, POLICIES.labels, ...ownerAndName(s)));
			const { repo, owner } = admitted.repo;
			const api = repositoryPaths(g.ctx.app.urls, owner.login, repo.name).api;
			const direction = a.orderBy?.direction === 'DESC' ? 'desc' : 'asc';
			const query = a.query ? String(a.query) : null;
			return rangeConnection(
				a,
				(offset, count) => {
					const { rows, total } = g.ctx.app.stores.labels.matching(repo.id, query, direction, count, offset);
					return { items: rows.map((row) => renderLabel(api, row)), total };
				},
				label,
			);
		},
		diskUsage: (s) => s.size ?? null,
		hasProjectsEnabled: (s) => s.has_projects === true,
		hasDiscussionsEnabled: (s) => s.has_discussions === true,
		isInOrganization: (s) => s.owner?.type === 'Organization',
		isMirror: (s) => s.mirror_url != null,
		// A user's profile repository: the one named as its owner.
		isUserConfigurationRepository: (s) =>
			s.owner?.type === 'User' && String(s.name).toLowerCase() === String(s.owner.login).toLowerCase(),
		mirrorUrl: (s) => s.mirror_url ?? null,
		templateRepository: (s) => (s.template_repository ? repository(s.template_repository) : null),
		// REST's license (Gitstead detects none today: null).
		licenseInfo: (s) =>
			s.license
				? {
						id: s.license.node_id,
						key: s.license.key,
						name: s.license.name,
						nickname: s.license.nickname ?? null,
						spdxId: s.license.spdx_id ?? null,
						url: s.license.html_url ?? s.license.url ?? null,
					}
				: null,
		viewerCanAdminister: (s) => s.permissions?.admin === true,
		// GitHub's default for a viewer who has merged nothing here: the first method the repository allows.
		viewerDefaultMergeMethod: (s) => (s.allow_merge_commit !== false ? 'MERGE' : s.allow_squash_merge !== false ? 'SQUASH' : 'REBASE'),
		// Gitstead has no projects (classic): none.
		projects: (_s, a) => arrayConnection(a, []),
	},
	Issue: issueFields(),
	PullRequest: {
		...issueFields(),
		state: (s, _a, g) => (s.state === 'open' ? 'OPEN' : pull(g, s).merged_at ? 'MERGED' : 'CLOSED'),
		headRefName: (s, _a, g) => pull(g, s).head.ref,
		baseRefName: (s, _a, g) => pull(g, s).base.ref,
		isDraft: (s, _a, g) => pull(g, s).draft === true,
		merged: (s, _a, g) => pull(g, s).merged_at != null,
		mergedAt: (s, _a, g) => pull(g, s).merged_at ?? null,
		headRepository: (s, _a, g) => (pull(g, s).head.repo ? repository(pull(g, s).head.repo) : null),
		headRepositoryOwner: (s, _a, g) => (pull(g, s).head.repo ? account(pull(g, s).head.repo.owner) : null),
		headRefOid: (s, _a, g) => pull(g, s).head.sha,
		// REST's mergeable_state in GitHub's GraphQL enum (clean → CLEAN, dirty → DIRTY, …).
		mergeStateStatus: (s, _a, g) => upper(pull(g, s).mergeable_state ?? 'unknown'),
		additions: (s, _a, g) => pull(g, s).additions ?? 0,
		deletions: (s, _a, g) => pull(g, s).deletions ?? 0,
		maintainerCanModify: (s, _a, g) => pull(g, s).maintainer_can_modify ?? false,
		mergeable: (s, _a, g) => {
			const mergeable = pull(g, s).mergeable;
			return mergeable === true ? 'MERGEABLE' : mergeable === false ? 'CONFLICTING' : 'UNKNOWN';
		},
		changedFiles: (s, _a, g) => pull(g, s).changed_files ?? 0,
		mergedBy: (s, _a, g) => (pull(g, s).merged_by ? account(pull(g, s).merged_by) : null),
		// The merge commit once merged; while open, REST's merge_commit_sha is the test merge commit.
		mergeCommit: (s, _a, g) =>
			pull(g, s).merged_at && pull(g, s).merge_commit_sha
				? { __typename: 'Commit', sha: pull(g, s).merge_commit_sha, __repo: repoPath(s) }
				: null,
		potentialMergeCommit: (s, _a, g) =>
			pull(g, s).state === 'open' && pull(g, s).merge_commit_sha
				? { __typename: 'Commit', sha: pull(g, s).merge_commit_sha, __repo: repoPath(s) }
				: null,
		isCrossRepository: (s, _a, g) => {
			const { head, base } = pull(g, s);
			return !head.repo || head.repo.id !== base.repo.id;
		},
	},
	Commit: {
		id: (s) => s.node_id ?? Buffer.from(`06:Commit${s.sha}`).toString('base64'),
		oid: (s) => s.sha,
	},
	StatusCheckRollup: {
		contexts: (s, a) => arrayConnection(a, s.contexts),
	},
	StatusContext: {
		id: (s) => s.node_id,
		state: (s) => upper(s.state),
		targetUrl: (s) => s.target_url || null,
		createdAt: (s) => s.created_at,
	},
	CheckRun: {
		id: (s) => s.node_id,
		status: (s) => upper(s.status),
		conclusion: (s) => upper(s.conclusion ?? null),
		startedAt: (s) => s.started_at ?? null,
		completedAt: (s) => s.completed_at ?? null,
		detailsUrl: (s) => s.details_url || null,
		// The check suite; Gitstead links no workflow run to it here.
		checkSuite: (s) =>
			s.check_suite ? { id: Buffer.from(`010:CheckSuite${s.check_suite.id}`).toString('base64'), workflowRun: null } : null,
	},
	IssueComment: {
		viewerDidAuthor: (s, _a, g) => s.user?.id !== undefined && s.user.id === g.ctx.principal.user?.id,
		authorAssociation: (s) => s.author_association,
		includesCreatedEdit: (s) => s.updated_at !== s.created_at,
		// Gitstead hides no comments: none is minimized.
		isMinimized: () => false,
		minimizedReason: () => null,
		reactionGroups: (s) => reactionGroups(s, `${repoPath(s)}/issues/comments/${s.id}/reactions`),
		id: (s) => s.node_id,
		databaseId: (s) => s.id,
		url: (s) => s.html_url,
		author: (s) => (s.user ? account(s.user) : null),
		createdAt: (s) => s.created_at,
		updatedAt: (s) => s.updated_at,
	},
	Label: {
		id: (s) => s.node_id,
		isDefault: (s) => s.default,
		description: (s) => s.description ?? null,
		url: (s, _a, g) => g.ctx.app.urls.html(`${repoPath(s).replace(/^\/repos/, '')}/labels/${seg(s.name)}`),
		createdAt: () => null,
	},
	Milestone: {
		id: (s) => s.node_id,
		state: (s) => upper(s.state),
		dueOn: (s) => s.due_on,
		url: (s) => s.html_url,
		closed: (s) => s.state === 'closed',
		closedAt: (s) => s.closed_at ?? null,
	},
	Gist: {
		id: (s) => s.node_id,
		name: (s) => s.id,
		isPublic: (s) => s.public === true,
		isFork: (s, _a, g) => 'fork_of' in fullGist(g, s),
		owner: (s) => (s.owner ? account(s.owner) : null),
		url: (s) => s.html_url,
		createdAt: (s) => s.created_at,
		updatedAt: (s) => s.updated_at,
		// Gitstead keeps a gist's history as its updates: the last push is the last update.
		pushedAt: (s) => s.updated_at,
		files: (s, a, g) => {
			// The list items carry no contents: a file's text comes from the whole gist (GET /gists/{gist_id}).
			const files = Object.values((fullGist(g, s).files ?? {}) as Record<string, Source>);
			return files.slice(0, Math.max(0, a.limit ?? 10));
		},
	},
	GistFile: {
		name: (s) => s.filename,
		encodedName: (s) => encodeURIComponent(String(s.filename)),
		extension: (s) => /\.[^.]+$/.exec(String(s.filename))?.[0] ?? null,
		// GitHub's text of a file (truncated files are cut): the REST content when the answer carries it.
		text: (s) => s.content ?? null,
	},
	Release: {
		description: (s) => s.body ?? null,
		author: (s) => (s.author ? account(s.author) : null),
		id: (s) => s.node_id,
		databaseId: (s) => s.id,
		tagName: (s) => s.tag_name,
		isDraft: (s) => s.draft,
		isPrerelease: (s) => s.prerelease,
		createdAt: (s) => s.created_at,
		publishedAt: (s) => s.published_at,
		url: (s) => s.html_url,
	},
	ReactingUserEdge: {
		reactedAt: (s) => s.node.__reactedAt,
	},
	PullRequestReview: {
		authorAssociation: (s) => s.author_association,
		// The commit reviewed, read from the review's repository (its API URL names it).
		commit: (s) => (s.commit_id ? { __typename: 'Commit', sha: s.commit_id, __repo: repoPath(s) } : null),
		// GitHub's REST API keeps no reactions to reviews here: every group is empty.
		reactionGroups: () => reactionGroups({}, ''),
		id: (s) => s.node_id,
		databaseId: (s) => s.id,
		author: (s) => (s.user ? account(s.user) : null),
		// REST keeps a review's submission time only: a pending review is dated now.
		createdAt: (s, _a, g) => s.submitted_at ?? new Date(g.ctx.now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
		submittedAt: (s) => s.submitted_at ?? null,
		url: (s) => s.html_url,
	},
	OrganizationMemberEdge: {
		role: (s) => (typeof s.role === 'function' ? s.role() : s.role),
	},
	Mutation: {},
};

/** The fields Issue and PullRequest share (REST issue or pull request representation). */
function issueFields(): Record<string, Resolver> {
	return {
		// REST's active_lock_reason ("too heated") as GitHub's LockReason (TOO_HEATED).
		activeLockReason: (s) => (s.active_lock_reason ? String(s.active_lock_reason).toUpperCase().replace(/[ -]/g, '_') : null),
		id: (s) => s.node_id,
		databaseId: (s) => s.id,
		url: (s) => s.html_url,
		body: (s) => s.body ?? '',
		state: (s) => upper(s.state),
		closed: (s) => s.state === 'closed',
		closedAt: (s) => s.closed_at,
		createdAt: (s) => s.created_at,
		updatedAt: (s) => s.updated_at,
		author: (s) => (s.user ? account(s.user) : null),
		locked: (s) => s.locked,
		milestone: (s) => (s.milestone ? tagged('Milestone')(s.milestone) : null),
		labels: (s, a) =>
			arrayConnection(a, (s.labels ?? []) as Source[], (l) => label({ ...l, repository_url: s.repository_url ?? s.base?.repo?.url })),
		assignees: (s, a) => arrayConnection(a, (s.assignees ?? []) as Source[], account),
		repository: (s, _a, g) =>
			guarded(undefined, () => repositorySource(g, repositoryAccess(g.ctx, POLICIES.repository, ...ownerAndName(s)))),
		stateReason: (s) => upper(s.state_reason ?? null),
		// Gitstead has no projects (classic): an issue is on no project board.
		projectCards: (_s, a) => arrayConnection(a, []),
		// Nor on a project (ProjectV2): no project items.
		projectItems: (_s, a) => arrayConnection(a, []),
		reactionGroups: (s) => reactionGroups(s, `${repoPath(s)}/issues/${s.number}/reactions`),
		comments: (s, a, g) => issueComments(g, s, a),
	};
}

/** GitHub's reaction contents and the REST names of their counts. */
const REACTIONS = [
	['THUMBS_UP', '+1'],
	['THUMBS_DOWN', '-1'],
	['LAUGH', 'laugh'],
	['HOORAY', 'hooray'],
	['CONFUSED', 'confused'],
	['HEART', 'heart'],
	['ROCKET', 'rocket'],
	['EYES', 'eyes'],
] as const;

/** The eight reaction groups of a REST issue or comment (its `reactions` rollup), users from `path`. */
function reactionGroups(s: Source, path: string): Source[] {
	const counts = (s.reactions ?? {}) as Record<string, number>;
	return REACTIONS.map(([content, rest]) => ({ content, rest, count: counts[rest] ?? 0, path }));
}

/** The community files of a REST repository's default branch, read once per query. */
function community(g: GraphContext, s: Source): CommunityFiles {
	if (!s.__community) {
		const row = g.ctx.app.stores.repos.byId(Number(s.id));
		s.__community = row ? communityFiles(g.ctx.app, row) : NO_COMMUNITY_FILES;
	}
	return s.__community;
}

/** REST role_name of a team's repository → GitHub's RepositoryPermission. */
const TEAM_PERMISSION: Record<string, string> = {
	admin: 'ADMIN',
	maintain: 'MAINTAIN',
	push: 'WRITE',
	write: 'WRITE',
	triage: 'TRIAGE',
	pull: 'READ',
	read: 'READ',
};

/** The whole gist (GET /gists/{gist_id}: contents, history, fork_of) behind a list item, fetched once. */
function fullGist(g: GraphContext, s: Source): Source {
	if ('history' in s) return s;
	if (!s.__full) s.__full = guarded(undefined, () => gistOf(g.ctx, String(s.id)));
	return s.__full;
}

/** The full public profile of an account source (list items carry the simple form). */
function full(g: GraphContext, s: Source): Source {
	return guarded(undefined, () => fullAccount(g.ctx, s));
}

/**
 * The object a global node id names, under the access of its REST read: Repository (GET
 * /repositories/{repository_id}), User, Organization, Team, Gist (src/api/graphql/accounts.ts),
 * Issue and PullRequest (by number in their repository).
 * @throws TypedError NOT_FOUND for an id that names nothing the caller may see
 */
function byNodeId(g: GraphContext, id: string): Source {
	const notFound = `Could not resolve to a node with the global id of '${id}'`;
	const m = /^0\d+:([A-Za-z]+)(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	if (!m) throw new TypedError('NOT_FOUND', notFound);
	const [, type, number] = m;
	const stores = g.ctx.app.stores;
	if (type === 'Repository')
		return guarded(notFound, () =>
			repositorySource(g, admit(g.ctx, ACCOUNT_POLICIES.repositoryById, { repository_id: number }) as Admitted),
		);
	if (type === 'Issue' || type === 'PullRequest') {
		const issue = stores.issues.byId(Number(number));
		const repo = issue && stores.repos.byId(issue.repo_id);
		const owner = repo && stores.accounts.byId(repo.owner_id);
		if (!issue || !repo || !owner) throw new TypedError('NOT_FOUND', notFound);
		return issue.pull_request
			? pullByNumber(g, owner.login, repo.name, issue.number, notFound)
			: issueByNumber(g, owner.login, repo.name, issue.number, notFound);
	}
	const node = guarded(notFound, () => accountNode(g.ctx, type, Number(number)));
	if (!node) throw new TypedError('NOT_FOUND', notFound);
	return type === 'Team' ? tagged('Team')(node) : type === 'Gist' ? tagged('Gist')(node) : account(node);
}

/** The `graphql` rate-limit window after this query (GitHub's rateLimit object). */
function rateLimit(g: GraphContext, dryRun: boolean): Source {
	const { app, principal, now } = g.ctx;
	const seconds = Math.floor(now / 1000);
	const window = app.rateLimiter.window(principal.rateKey, 'graphql', seconds);
	const used = window.used + (dryRun ? 0 : g.cost);
	return {
		limit: window.limit,
		cost: g.cost,
		remaining: Math.max(0, window.limit - used),
		resetAt: new Date(window.reset * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
		used,
		nodeCount: g.nodeCount,
	};
}

export { node as graphNodeId, GraphQLError, guarded, issueByNumber, pullByNumber };
// The helpers the fields served in repository-fields.ts share with these.
export { account, arrayConnection, ownerAndName, pull, repositorySource, tagged, type Admitted, type Resolver };
