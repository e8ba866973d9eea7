/**
 * The Repository, PullRequest, Commit, Release, Ref and BranchProtectionRule fields served from
 * the stores: branch protection, milestones, the viewer's star and subscription, watchers,
 * assignable users, languages, topics, releases, a pull request's commits, files, review requests
 * and reviews, a commit's statuses and check runs. Each field is admitted with its REST twin's
 * access (repository-policies.ts) and renders with the renderer that twin uses, so both interfaces
 * answer the same; lists page in SQL (rangeConnection). Sources stay the REST representations
 * (tagged with __typename) that the field resolvers of resolve.ts read.
 */
import type { App } from '../../app';
import type { RepoView } from '../git/render';
import { CommitReader } from '../git/graph';
import { filePatch } from '../git/diff';
import { isHidden, translate, TypedError } from './errors';
import * as branchRender from '../branches/render';
import { requireCommit } from '../commits/service';
import { AuthorLookup, diffEntry, fullCommit } from '../commits/render';
import { ACTIONS_APP_ID, appObject, checkRun, type AppObject } from '../checks/render';
import { latestStatusesByContext } from '../statuses/service';
import { status as renderStatus } from '../statuses/render';
import { assignableScope } from '../issues/service';
import { milestonePage, renderMilestones } from '../milestones/service';
import type { MilestoneSort } from '../milestones/store';
import { releasePage, renderReleases } from '../releases/service';
import { repositoryLanguages } from '../repos/languages';
import { repositoryPeoplePage } from '../repos/lists';
import { loadPull, MAX_PULL_COMMITS, MAX_PULL_FILES, pullComparison, pullScope, type PullComparison } from '../pulls/service';
import { requestedReviewers } from '../pulls/requested';
import { renderReviews } from '../pulls/reviews';
import { repositoryPaths, simpleUser } from '../../model/render';
import type { PullRow } from '../../model/rows';
import { reaction } from '../reactions/render';
import type { ReactionContent, ReactionSubject } from '../reactions/store';
import { POLICIES, repositoryAccess } from './access';
import { REPO_POLICIES } from './repository-policies';
import {
	account,
	arrayConnection,
	guarded,
	ownerAndName,
	pull,
	pullByNumber,
	rangeConnection,
	repositorySource,
	tagged,
	type Admitted,
	type GraphContext,
	type Resolver,
} from './resolve';
import type { Route } from '../../http/route';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

/**
 * The repository of source `s` (a repository, pull request, release, or `owner/name`) admitted
 * under `route`.
 * @throws TypedError NOT_FOUND or FORBIDDEN: the refusal the REST twin would give
 */
function admitted(g: GraphContext, route: Route, s: Source | [string, string]): Admitted {
	const [owner, name] = Array.isArray(s) ? s : ownerAndName(s);
	return guarded(undefined, () => repositoryAccess(g.ctx, route, owner, name));
}

/** The repository admitted under `route`, or null when the caller may not read (or see) what `route` guards. */
function admittedOrNull(g: GraphContext, route: Route, s: Source | [string, string]): Admitted | null {
	const [owner, name] = Array.isArray(s) ? s : ownerAndName(s);
	try {
		return repositoryAccess(g.ctx, route, owner, name);
	} catch (error) {
		if (isHidden(error)) return null;
		throw translate(error);
	}
}

/** owner and name of an `owner/name` full name. */
const split = (fullName: string): [string, string] => {
	const at = fullName.indexOf('/');
	return [fullName.slice(0, at), fullName.slice(at + 1)];
};

const view = (a: Admitted): RepoView => ({ repo: a.repo.repo, owner: a.repo.owner });

// ----- branch protection

/** A Ref source for branch `name` of the repository source `repo` (its full_name kept for the protection lookups). */
export function branchRef(repo: Source, name: string): Source {
	return {
		id: Buffer.from(`03:Ref${repo.id}:refs/heads/${name}`).toString('base64'),
		name,
		prefix: 'refs/heads/',
		__repo: repo.full_name,
	};
}

/** The node id of the branch protection rule of `branch` in owner/name (pattern = the branch name). */
export const protectionRuleId = (repoFullName: string, branch: string) =>
	Buffer.from(`020:BranchProtectionRule${repoFullName}:${branch}`).toString('base64');

/** GitHub's BranchProtectionRule of a REST branch protection (GET …/branches/{branch}/protection). */
function protectionRuleOf(repoFullName: string, branch: string, body: Source): Source {
	const checks = body.required_status_checks as Source | undefined;
	const reviews = body.required_pull_request_reviews as Source | undefined;
	const enabled = (key: string) => (body[key] as Source | undefined)?.enabled === true;
	return {
		__typename: 'BranchProtectionRule',
		__repo: repoFullName,
		id: protectionRuleId(repoFullName, branch),
		databaseId: null,
		pattern: branch,
		requiresStatusChecks: checks !== undefined,
		requiresStrictStatusChecks: checks?.strict === true,
		requiredStatusCheckContexts: (checks?.contexts ?? []) as string[],
		requiresApprovingReviews: reviews !== undefined,
		requiredApprovingReviewCount: reviews ? (reviews.required_approving_review_count as number) : null,
		requiresCodeOwnerReviews: reviews?.require_code_owner_reviews === true,
		dismissesStaleReviews: reviews?.dismiss_stale_reviews === true,
		requireLastPushApproval: reviews?.require_last_push_approval === true,
		restrictsReviewDismissals: reviews?.dismissal_restrictions !== undefined,
		restrictsPushes: body.restrictions !== undefined && body.restrictions !== null,
		isAdminEnforced: enabled('enforce_admins'),
		requiresLinearHistory: enabled('required_linear_history'),
		allowsForcePushes: enabled('allow_force_pushes'),
		allowsDeletions: enabled('allow_deletions'),
		blocksCreations: enabled('block_creations'),
		requiresConversationResolution: enabled('required_conversation_resolution'),
		requiresCommitSignatures: enabled('required_signatures'),
		lockBranch: enabled('lock_branch'),
	};
}

/**
 * The BranchProtectionRule of an existing `branch` of an admitted repository as GET
 * …/branches/{branch}/protection renders it, or null when the branch or its protection does not exist.
 */
export function ruleOf(app: App, repo: Admitted, branch: string): Source | null {
	const { repo: row, owner } = repo.repo;
	if (!app.stores.git.ref(row.id, `refs/heads/${branch}`)) return null;
	const protection = app.stores.branches.protection(row.id, branch);
	if (!protection) return null;
	return protectionRuleOf(`${owner.login}/${row.name}`, branch, branchRender.protection(app, view(repo), branch, protection.settings));
}

/**
 * The BranchProtectionRule of `branch` in `repoFullName` (owner/name), or null when the branch is
 * not protected or the caller may not read its protection (admins only, as GET
 * …/branches/{branch}/protection: GitHub answers others with null too).
 */
export function readProtectionRule(g: GraphContext, repoFullName: string, branch: string): Source | null {
	const repo = admittedOrNull(g, REPO_POLICIES.protection, split(repoFullName));
	return repo && ruleOf(g.ctx.app, repo, branch);
}

/** The protection rule of a Ref source, read once. */
function protectionRule(g: GraphContext, ref: Source): Source | null {
	if (!ref.__repo) return null;
	if (ref.__protection === undefined) ref.__protection = readProtectionRule(g, String(ref.__repo), String(ref.name));
	return ref.__protection;
}

// ----- reviews and required checks of pull requests

/** The stored pull request behind a PullRequest source, under the REST pull request read's access. */
function pullRow(g: GraphContext, s: Source): { repo: Admitted; row: PullRow } {
	if (!s.__row) {
		const repo = admitted(g, POLICIES.pulls, s);
		const scope = pullScope(repo);
		s.__row = { repo, row: loadPull({ app: g.ctx.app, params: { pull_number: String(s.number) } }, scope) };
	}
	return s.__row;
}

/** The comparison of a pull request's head with its base (commits, changed files), worked out once per source. */
function comparison(g: GraphContext, s: Source): PullComparison | null {
	if (s.__comparison === undefined) s.__comparison = pullComparison(g.ctx.app, pullRow(g, s).row.pr, MAX_PULL_FILES);
	return s.__comparison;
}

/**
 * latestReviews: the newest submitted review of each author (pending ones left out), in the order
 * they were submitted, rendered as GET …/pulls/{pull_number}/reviews renders them.
 */
function latestReviews(g: GraphContext, s: Source): Source[] {
	const { repo, row } = pullRow(g, s);
	const latest = g.ctx.app.stores.reviews.latestByAuthor(row.id);
	return renderReviews(repo, pullScope(repo), row, latest).map(tagged('PullRequestReview'));
}

/**
 * reviewDecision: CHANGES_REQUESTED when an author's latest approving-or-blocking review asks for
 * changes; APPROVED when approvals reach what the base branch's protection requires (at least one);
 * REVIEW_REQUIRED when the protection requires approvals not given yet; null when nothing requires
 * a review and none approved. https://docs.github.com/graphql/reference/enums#pullrequestreviewdecision
 */
function reviewDecision(g: GraphContext, s: Source): string | null {
	const { row } = pullRow(g, s);
	const { stores } = g.ctx.app;
	const states = stores.reviews
		.latestDecisive(row.id)
		.map((review) => review.state)
		.filter((state) => state !== 'DISMISSED');
	if (states.includes('CHANGES_REQUESTED')) return 'CHANGES_REQUESTED';
	const approvals = states.filter((x) => x === 'APPROVED').length;
	const required = stores.branches.protection(row.pr.repo_id, row.pr.base_ref)?.settings.required_pull_request_reviews;
	if (required) return approvals >= Math.max(1, required.required_approving_review_count) ? 'APPROVED' : 'REVIEW_REQUIRED';
	return approvals > 0 ? 'APPROVED' : null;
}

/** Required status checks by pull-request node id, worked out once per query. */
const requiredCache = new WeakMap<GraphContext, Map<string, Set<string>>>();

/**
 * The status-check contexts the base branch of the pull request `id` requires (isRequired of a
 * StatusContext or CheckRun), as the `protection` summary of GET /repos/{owner}/{repo}/branches/{branch}
 * gives them (readable by everyone who reads the branch).
 * @throws TypedError NOT_FOUND for an id that names no pull request the caller sees
 */
function requiredChecks(g: GraphContext, id: string): Set<string> {
	let cache = requiredCache.get(g);
	if (!cache) requiredCache.set(g, (cache = new Map()));
	const known = cache.get(id);
	if (known) return known;
	const notFound = `Could not resolve to a PullRequest with the global id of '${id}'`;
	const m = /^0\d+:PullRequest(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	const { stores } = g.ctx.app;
	const issue = m ? stores.issues.byId(Number(m[1])) : undefined;
	const repoRow = issue?.pull_request ? stores.repos.byId(issue.repo_id) : undefined;
	const owner = repoRow && stores.accounts.byId(repoRow.owner_id);
	if (!issue || !repoRow || !owner) throw new TypedError('NOT_FOUND', notFound);
	const base = pullByNumber(g, owner.login, repoRow.name, issue.number, notFound).base;
	const repo = admitted(g, REPO_POLICIES.branch, [base.repo.owner.login, base.repo.name]);
	const settings = stores.branches.protection(repo.repo.repo.id, String(base.ref))?.settings ?? null;
	const checks = (branchRender.protectionSummary(settings).required_status_checks ?? {}) as Source;
	const set = new Set<string>([
		...((checks.contexts ?? []) as string[]),
		...((checks.checks ?? []) as Source[]).map((c) => String(c.context)),
	]);
	cache.set(id, set);
	return set;
}

// ----- commits

/** {owner, name} of a source's /repos/{owner}/{repo} API path or URL. */
function repoOfPath(path: string): [string, string] {
	const m = /\/repos\/([^/]+)\/([^/]+)/.exec(path);
	if (!m) throw new TypedError('NOT_FOUND', 'Could not resolve to a Repository.');
	return [decodeURIComponent(m[1]), decodeURIComponent(m[2])];
}

/**
 * The commit behind a Commit source as GET /repos/{owner}/{repo}/commits/{sha} renders it (without
 * files): a pull request's commit list carries it whole; a merge commit names its sha and
 * repository path (__repo), read once; a review names only its sha.
 * @throws TypedError NOT_FOUND for a commit the repository does not hold or the caller cannot see
 */
function commit(g: GraphContext, s: Source): Source {
	if (s.commit) return s;
	const notFound = `Could not resolve to a Commit with the oid of '${s.sha}'.`;
	if (!s.__repo) throw new TypedError('NOT_FOUND', notFound);
	if (!s.__full)
		s.__full = guarded(notFound, () => {
			const repo = repositoryAccess(g.ctx, REPO_POLICIES.commits, ...repoOfPath(String(s.__repo)));
			const { app } = g.ctx;
			const sha = requireCommit(app, view(repo), String(s.sha));
			const data = new CommitReader(app, repo.repo.repo.id).read(sha);
			if (!data) throw new TypedError('NOT_FOUND', notFound);
			return fullCommit(app, view(repo), sha, data, new AuthorLookup(app));
		});
	return s.__full;
}

/** The check runs GET …/commits/{ref}/check-runs lists first (its latest ones, up to 100). */
const ROLLUP_RUNS = 100;

/**
 * statusCheckRollup: the commit's latest status of each context (GET …/commits/{ref}/status) and
 * its check runs (GET …/commits/{ref}/check-runs), each under its REST twin's access; null when it
 * has neither. The state is FAILURE when any failed, PENDING while any runs, else SUCCESS.
 */
function statusCheckRollup(g: GraphContext, s: Source): Source | null {
	const full = commit(g, s);
	const repoName = repoOfPath(String(full.url));
	const sha = String(s.sha);
	const { app } = g.ctx;
	const statusRepo = admitted(g, REPO_POLICIES.status, repoName);
	const { repo, owner } = statusRepo.repo;
	const base = repositoryPaths(app.urls, owner.login, repo.name);
	const latest = latestStatusesByContext(app, repo.id, sha);
	const creators = app.stores.accounts.mapByIds(latest.flatMap((row) => (row.creator_id === null ? [] : [row.creator_id])));
	const statuses = latest.map((row) =>
		renderStatus(app.urls, base.api, row, row.creator_id === null ? undefined : creators.get(row.creator_id), false),
	);
	admitted(g, REPO_POLICIES.checkRuns, repoName);
	const filter = { name: null, status: null, all: false, appId: null, actionsAppId: ACTIONS_APP_ID };
	const { rows } = app.stores.checks.forCommit(repo.id, sha, filter, ROLLUP_RUNS, 0);
	const apps = new Map<number | null, AppObject | null>();
	const appOf = (id: number | null) => {
		if (!apps.has(id)) apps.set(id, appObject(app, id));
		return apps.get(id)!;
	};
	const runs = rows.map((row) => checkRun(base, repo.id, repo.name, appOf(row.app_id), row) as Source);
	if (statuses.length === 0 && runs.length === 0) return null;
	const failed =
		statuses.some((x) => x.state === 'failure' || x.state === 'error') ||
		runs.some((r) => ['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure'].includes(r.conclusion));
	const pending = statuses.some((x) => x.state === 'pending') || runs.some((r) => r.status !== 'completed');
	return {
		id: Buffer.from(`017:StatusCheckRollup${sha}`).toString('base64'),
		state: failed ? 'FAILURE' : pending ? 'PENDING' : 'SUCCESS',
		contexts: [...statuses.map(tagged('StatusContext')), ...runs.map(tagged('CheckRun'))],
	};
}

// ----- releases

/** Release sources: the REST release with the repository it belongs to. */
const releaseOf = (repo: Admitted) => (json: Source) => ({
	...json,
	__typename: 'Release',
	__owner: repo.repo.owner.login,
	__name: repo.repo.repo.name,
});

/** The id of each repository's latest release, once per query. */
const latestCache = new WeakMap<GraphContext, Map<number, number | null>>();

/** The id of the latest release of an admitted repository (GET …/releases/latest), null when it has none. */
function latestReleaseId(g: GraphContext, repo: Admitted): number | null {
	let cache = latestCache.get(g);
	if (!cache) latestCache.set(g, (cache = new Map()));
	const id = repo.repo.repo.id;
	if (!cache.has(id)) cache.set(id, g.ctx.app.stores.releases.latest(id)?.id ?? null);
	return cache.get(id) ?? null;
}

/** GraphQL's milestone orders as the milestone store's sorts (GitHub's MilestoneOrderField). */
const MILESTONE_SORT: Record<string, MilestoneSort> = {
	NUMBER: 'number',
	DUE_DATE: 'due_on',
	CREATED_AT: 'created',
	UPDATED_AT: 'updated',
};

/** linguist's languages (their colours), loaded on first use rather than at start. */
let linguist: Record<string, { color?: string }> | null = null;

/** A Language source: its name and linguist's color (null when linguist has none). */
export function language(name: string): Source {
	return {
		id: Buffer.from(`08:Language${name}`).toString('base64'),
		name,
		color: (linguist ??= require('linguist-languages') as Record<string, { color?: string }>)[name]?.color ?? null,
	};
}

const seg = (s: string | number) => encodeURIComponent(String(s));

/** REST's file statuses as GitHub's PatchStatus. */
const CHANGE_TYPES: Record<string, string> = {
	added: 'ADDED',
	removed: 'DELETED',
	modified: 'MODIFIED',
	renamed: 'RENAMED',
	copied: 'COPIED',
	changed: 'CHANGED',
	unchanged: 'MODIFIED',
};

/**
 * The users who reacted with one content to an issue or comment (a ReactionGroup: its `path` is the
 * REST reactions list, …/issues/{issue_number}/reactions or …/issues/comments/{comment_id}/reactions),
 * oldest first, as GET …/reactions?content= lists them, paged in SQL.
 */
function reactingUsers(g: GraphContext, group: Source, args: Args): Source {
	if (group.count === 0 || (args.first == null && args.last == null))
		return { ...arrayConnection({ first: 0 }, []), totalCount: group.count };
	const m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(?:(\d{1,15})|comments\/(\d{1,15}))\/reactions$/.exec(String(group.path));
	if (!m) return arrayConnection(args, []);
	const repo = admitted(g, POLICIES.issues, [decodeURIComponent(m[1]), decodeURIComponent(m[2])]);
	const { stores, urls } = g.ctx.app;
	let subject: ReactionSubject | null = null;
	if (m[3]) {
		const issue = stores.issues.byNumber(repo.repo.repo.id, Number(m[3]));
		if (issue) subject = { issueId: issue.id, commentId: null };
	} else {
		const comment = stores.issues.comment(repo.repo.repo.id, Number(m[4]));
		if (comment) subject = { issueId: comment.issue_id, commentId: comment.id };
	}
	if (!subject) return arrayConnection(args, []);
	const found = subject;
	return rangeConnection(
		args,
		(offset, count) => {
			const { rows, total } = stores.reactions.list(found, group.rest as ReactionContent, count, offset);
			const users = stores.accounts.mapByIds(rows.map((row) => row.user_id));
			return { items: rows.map((row) => reaction(urls, row, users.get(row.user_id))), total };
		},
		(r) => ({ ...account(r.user), __reactedAt: r.created_at }),
	);
}

/** The fields served here, by type (merged over resolve.ts's RESOLVERS by execute.ts). */
export const REPOSITORY_FIELDS: Record<string, Record<string, Resolver>> = {
	Repository: {
		defaultBranchRef: (s) => (s.default_branch ? branchRef(s, s.default_branch) : null),
		// One rule per protected branch (Gitstead protects branch names), in the branches' order;
		// none for callers who may not read protection (admins only, as REST).
		branchProtectionRules: (s, a, g) => {
			const repo = admittedOrNull(g, REPO_POLICIES.protection, s);
			if (!repo) return arrayConnection(a, []);
			const { app } = g.ctx;
			return rangeConnection(a, (offset, count) => {
				const { rows, total } = app.stores.branches.list(repo.repo.repo.id, true, count, offset);
				return { items: rows.flatMap((row) => ruleOf(app, repo, row.name) ?? []), total };
			});
		},
		// GET …/milestones/{milestone_number}: null when there is none or the caller may not read them.
		milestone: (s, a, g) => {
			const repo = admittedOrNull(g, REPO_POLICIES.milestones, s);
			const row = repo && g.ctx.app.stores.milestones.byNumber(repo.repo.repo.id, Number(a.number));
			return repo && row ? tagged('Milestone')(renderMilestones(g.ctx.app, repo.repo, [row])[0]) : null;
		},
		// GET …/milestones: states (one of them, or all) and order in SQL; due date ascending by default.
		milestones: (s, a, g) => {
			const repo = admitted(g, REPO_POLICIES.milestones, s);
			const states = a.states as string[] | undefined;
			const state = !states || states.length !== 1 ? 'all' : (states[0].toLowerCase() as 'open' | 'closed');
			const sort = MILESTONE_SORT[String(a.orderBy?.field)] ?? 'due_on';
			const direction = a.orderBy?.direction === 'DESC' ? 'desc' : 'asc';
			return rangeConnection(
				a,
				(offset, count) => milestonePage(g.ctx.app, repo.repo, { state, sort, direction, limit: count, offset }),
				tagged('Milestone'),
			);
		},
		// GET /repos/{owner}/{repo}/subscription: watching, ignoring, or (404) neither.
		viewerSubscription: (s, _a, g) => {
			const user = g.ctx.principal.user;
			if (user === null) return null;
			let repo: Admitted;
			try {
				repo = repositoryAccess(g.ctx, REPO_POLICIES.subscription, ...ownerAndName(s));
			} catch (error) {
				// As REST's 404 (a repository the caller cannot see): neither watching nor ignoring.
				const refusal = translate(error);
				if (refusal instanceof TypedError && refusal.type === 'NOT_FOUND') return 'UNSUBSCRIBED';
				throw refusal;
			}
			const row = g.ctx.app.stores.subscriptions.get(user.id, repo.repo.repo.id);
			return row?.ignored ? 'IGNORED' : row?.subscribed ? 'SUBSCRIBED' : 'UNSUBSCRIBED';
		},
		// GET …/subscribers: the watchers who may still read the repository.
		watchers: (s, a, g) => {
			const repo = admitted(g, REPO_POLICIES.watchers, s);
			const { subscriptions } = g.ctx.app.stores;
			const id = repo.repo.repo.id;
			return rangeConnection(
				a,
				(offset, count) => {
					const { rows, total } = repositoryPeoplePage({ app: g.ctx.app, page: { page: 1, perPage: count, offset } }, repo.repo, {
						page: (limit, from) => (limit > 0 ? subscriptions.subscriberPage(id, limit, from) : []),
						count: () => subscriptions.subscriberCount(id),
						all: () => subscriptions.subscriberIds(id),
					});
					return { items: rows.map((row) => simpleUser(g.ctx.app.urls, row)), total };
				},
				account,
			);
		},
		// GET /user/starred/{owner}/{repo}: false for anonymous callers and where the caller may not check.
		viewerHasStarred: (s, _a, g) => {
			const user = g.ctx.principal.user;
			const repo = user && admittedOrNull(g, REPO_POLICIES.starred, s);
			return repo ? g.ctx.app.stores.stars.get(user!.id, repo.repo.repo.id) !== undefined : false;
		},
		// GET …/assignees; `query` matches logins and names, in SQL.
		assignableUsers: (s, a, g) => {
			const repo = admitted(g, REPO_POLICIES.assignees, s);
			const scope = assignableScope(repo.repo);
			const query = a.query ? String(a.query) : null;
			return rangeConnection(
				a,
				(offset, count) => {
					const { rows, total } = g.ctx.app.stores.issues.assignable(scope, count, offset, query);
					return { items: rows.map((row) => simpleUser(g.ctx.app.urls, row)), total };
				},
				account,
			);
		},
		// A repository without commits (its commit list answers 409 "Git Repository is empty.").
		isEmpty: (s, _a, g) => !g.ctx.app.stores.git.hasCommits(admitted(g, REPO_POLICIES.commits, s).repo.repo.id),
		latestRelease: (s, _a, g) => {
			const repo = admitted(g, REPO_POLICIES.releases, s);
			const id = latestReleaseId(g, repo);
			const row = id === null ? undefined : g.ctx.app.stores.releases.byId(repo.repo.repo.id, id);
			return row ? releaseOf(repo)(renderReleases(g.ctx.app, repo.repo, [row], g.ctx.media)[0]) : null;
		},
		// GET …/languages: bytes by language, largest first.
		languages: (s, a, g) => {
			const repo = admitted(g, REPO_POLICIES.languages, s);
			const bytes = repositoryLanguages(g.ctx.app, repo.repo.repo);
			let list = Object.entries(bytes).map(([name, size]) => ({ size, node: language(name) }));
			if (a.orderBy?.direction === 'ASC') list = list.reverse();
			const conn = arrayConnection(a, list);
			conn.edges = conn.edges.map((edge: Source) => ({ cursor: edge.cursor, size: edge.node.size, node: edge.node.node }));
			conn.nodes = conn.nodes.map((item: Source) => item.node);
			return { ...conn, totalSize: list.reduce((sum, item) => sum + item.size, 0) };
		},
		// GET …/topics: the names, in the repository's order.
		repositoryTopics: (s, a, g) => {
			const repo = admitted(g, REPO_POLICIES.topics, s);
			const names = JSON.parse(repo.repo.repo.topics) as string[];
			return arrayConnection(
				a,
				names.map((name) => ({
					id: Buffer.from(`015:RepositoryTopic${repo.repo.repo.id}:${name}`).toString('base64'),
					url: g.ctx.app.urls.html(`/topics/${seg(name)}`),
					topic: { id: Buffer.from(`05:Topic${name}`).toString('base64'), name },
				})),
			);
		},
		// GET …/releases/tags/{tag}: a published release, else null.
		release: (s, a, g) => {
			const repo = admittedOrNull(g, REPO_POLICIES.releases, s);
			const row = repo && g.ctx.app.stores.releases.byTag(repo.repo.repo.id, String(a.tagName));
			if (!repo || !row || row.draft === 1) return null;
			return releaseOf(repo)(renderReleases(g.ctx.app, repo.repo, [row], g.ctx.media)[0]);
		},
		// GET …/releases: newest first (gh release list's order) or by name, drafts for callers with push access.
		releases: (s, a, g) => {
			const repo = admitted(g, REPO_POLICIES.releases, s);
			const order = {
				by: a.orderBy?.field === 'NAME' ? ('name' as const) : ('created' as const),
				direction: (a.orderBy?.direction ?? 'DESC') === 'DESC' ? ('desc' as const) : ('asc' as const),
			};
			return rangeConnection(
				a,
				(offset, count) => releasePage(g.ctx.app, repo.repo, { limit: count, offset, order }, g.ctx.media),
				releaseOf(repo),
			);
		},
	},
	PullRequest: {
		// GET …/pulls/{pull_number}/commits: up to 250, oldest first.
		commits: (s, a, g) => {
			const { repo } = pullRow(g, s);
			const commits = (comparison(g, s)?.commits ?? []).slice(0, MAX_PULL_COMMITS);
			const authors = new AuthorLookup(g.ctx.app);
			return rangeConnection(
				a,
				(offset, count) => ({
					items: commits.slice(offset, offset + count).map((c) => fullCommit(g.ctx.app, view(repo), c.sha, c.data, authors)),
					total: commits.length,
				}),
				(c) => ({
					__typename: 'PullRequestCommit',
					id: Buffer.from(`017:PullRequestCommit${s.id}:${c.sha}`).toString('base64'),
					url: `${s.html_url}/commits/${c.sha}`,
					commit: { ...c, __typename: 'Commit' },
				}),
			);
		},
		// GET …/pulls/{pull_number}/files: up to 3,000 changed files.
		files: (s, a, g) => {
			const { repo, row } = pullRow(g, s);
			const compared = comparison(g, s);
			const changes = compared?.changes ?? [];
			return rangeConnection(
				a,
				(offset, count) => ({
					items: changes
						.slice(offset, offset + count)
						.map((change) =>
							diffEntry(g.ctx.app.urls, view(repo), row.pr.head_sha, change, filePatch(g.ctx.app, compared!.repoId, change)),
						),
					total: changes.length,
				}),
				(f) => ({
					path: f.filename,
					additions: f.additions,
					deletions: f.deletions,
					changeType: CHANGE_TYPES[f.status as string] ?? 'MODIFIED',
					// Gitstead keeps no per-viewer viewed marks: every file is as GitHub shows one never marked.
					viewerViewedState: 'UNVIEWED',
				}),
			);
		},
		// GET …/pulls/{pull_number}/requested_reviewers: users, then teams.
		reviewRequests: (s, a, g) => {
			const { repo, row } = pullRow(g, s);
			const requested = requestedReviewers(g.ctx.app, repo.repo.owner, [row.id]).get(row.id)!;
			const list = [
				...(requested.users as Source[]).map((u) => ({
					id: Buffer.from(`013:ReviewRequest${s.id}:User${u.id}`).toString('base64'),
					requestedReviewer: account(u),
				})),
				...(requested.teams as Source[]).map((t) => ({
					id: Buffer.from(`013:ReviewRequest${s.id}:Team${t.id}`).toString('base64'),
					requestedReviewer: tagged('Team')(t),
				})),
			];
			return arrayConnection(a, list);
		},
		// GET …/pulls/{pull_number}/reviews: oldest first, others' pending reviews left out.
		reviews: (s, a, g) => {
			const { repo, row } = pullRow(g, s);
			const scope = pullScope(repo);
			return rangeConnection(
				a,
				(offset, count) => {
					const { rows, total } = g.ctx.app.stores.reviews.reviews(row.id, g.ctx.principal.actorId, count, offset);
					return { items: rows.length ? renderReviews(repo, scope, row, rows) : [], total };
				},
				tagged('PullRequestReview'),
			);
		},
		latestReviews: (s, a, g) => arrayConnection(a, latestReviews(g, s)),
		reviewDecision: (s, _a, g) => reviewDecision(g, s),
		baseRef: (s, _a, g) => branchRef(pull(g, s).base.repo, pull(g, s).base.ref),
	},
	Commit: {
		message: (s, _a, g) => commit(g, s).commit.message,
		messageHeadline: (s, _a, g) => String(commit(g, s).commit.message).split('\n')[0],
		// The body: what follows the headline and the blank line after it.
		messageBody: (s, _a, g) => String(commit(g, s).commit.message).split('\n').slice(1).join('\n').replace(/^\n+/, ''),
		// The author (Gitstead records no Co-authored-by trailers as authors): the git author, with the account REST matched to it.
		authors: (s, a, g) => {
			const c = commit(g, s);
			return arrayConnection(a, [
				{
					__typename: 'GitActor',
					name: c.commit.author?.name ?? null,
					email: c.commit.author?.email ?? null,
					date: c.commit.author?.date ?? null,
					user: c.author?.login ? account(c.author) : null,
				},
			]);
		},
		authoredDate: (s, _a, g) => commit(g, s).commit.author?.date,
		committedDate: (s, _a, g) => commit(g, s).commit.committer?.date,
		url: (s, _a, g) => commit(g, s).html_url,
		statusCheckRollup: (s, _a, g) => statusCheckRollup(g, s),
	},
	Ref: {
		branchProtectionRule: (s, _a, g) => protectionRule(g, s),
	},
	BranchProtectionRule: {
		repository: (s, _a, g) =>
			guarded(undefined, () => repositorySource(g, repositoryAccess(g.ctx, POLICIES.repository, ...split(String(s.__repo))))),
	},
	StatusContext: {
		isRequired: (s, a, g) => requiredChecks(g, a.pullRequestId).has(s.context),
	},
	CheckRun: {
		isRequired: (s, a, g) => requiredChecks(g, a.pullRequestId).has(s.name),
	},
	ReactionGroup: {
		users: (s, a, g) => reactingUsers(g, s, a),
	},
	Release: {
		isLatest: (s, _a, g) => {
			const repo = admittedOrNull(g, REPO_POLICIES.releases, s);
			return repo !== null && latestReleaseId(g, repo) === s.id;
		},
	},
};
