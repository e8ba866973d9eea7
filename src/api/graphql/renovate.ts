/**
 * The GraphQL fields and mutations Renovate uses beyond the common ones, read from the stores and
 * written through the domain services (not through the REST routes):
 * - its repoInfoQuery: Repository.hasVulnerabilityAlertsEnabled, autoMergeAllowed,
 *   defaultBranchRef.target.oid (Ref.target, with Repository.refs for the github-tags datasource,
 *   is src/api/graphql/refs.ts's);
 * - platform automerge: enablePullRequestAutoMerge, disablePullRequestAutoMerge and
 *   PullRequest.autoMergeRequest over src/api/pulls/auto-merge.ts.
 * The Repository, Ref and PullRequest sources are the ones src/api/graphql/resolve.ts made after
 * the caller's read access was checked, so nothing here widens what a caller sees; the mutations
 * check access themselves (a pull request the caller cannot see is NOT_FOUND).
 * https://docs.github.com/graphql/reference/mutations#enablepullrequestautomerge
 */
import { callerRepoPermission } from '../../auth/access/repos';
import { levelMeets } from '../../auth/permissions';
import { simpleUser } from '../../model/render';
import type { PullRow, RepositoryRow } from '../../model/rows';
import { switchesOf } from '../../model/security-switches';
import { issueScope, type IssueScope } from '../issues/service';
import { disableAutoMerge, enableAutoMerge } from '../pulls/auto-merge';
import type { MergeMethod } from '../pulls/merge-service';
import { renderPulls } from '../pulls/service';
import { TypedError, translate } from './errors';
import { RESOLVERS, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: sources are the REST-shaped objects resolve.ts makes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;
type Resolver = (source: Source, args: Args, g: GraphContext) => unknown;

/** The row of a Repository source (its REST `id`). */
function repositoryRow(g: GraphContext, s: Source): RepositoryRow | undefined {
	return typeof s.id === 'number' ? g.ctx.app.stores.repos.byId(s.id) : undefined;
}

/** Resolvers by type and field, merged over resolve.ts's RESOLVERS by src/api/graphql/execute.ts. */
export const RENOVATE_RESOLVERS: Record<string, Record<string, Resolver>> = {
	Query: {
		// An installation token's viewer is its app's bot (GitHub answers its login, "<slug>[bot]", and
		// id; Renovate running as a GitHub App reads them); every other caller's is GET /user's user.
		viewer: (s, a, g) => {
			const { app, principal } = g.ctx;
			const bot =
				principal.kind === 'installation' && principal.actorId !== null ? app.stores.accounts.byId(principal.actorId) : undefined;
			return bot ? { ...simpleUser(app.urls, bot), __typename: 'User' } : RESOLVERS.Query.viewer(s, a, g);
		},
	},
	Repository: {
		// The repository's Dependabot alerts switch (GET/PUT/DELETE /repos/{owner}/{repo}/vulnerability-alerts).
		hasVulnerabilityAlertsEnabled: (s, _a, g) => {
			const row = repositoryRow(g, s);
			return row ? switchesOf(row).dependabot_alerts === 1 : false;
		},
		// The repository's allow_auto_merge setting (PATCH /repos/{owner}/{repo}).
		autoMergeAllowed: (s, _a, g) => repositoryRow(g, s)?.allow_auto_merge === 1,
	},
	Commit: {
		abbreviatedOid: (s) => String(s.sha).slice(0, 7),
	},
	PullRequest: {
		// The auto-merge request of an open pull request (null when none is enabled).
		autoMergeRequest: (s, _a, g) => {
			const { stores } = g.ctx.app;
			const pull = typeof s.id === 'number' ? (stores.pulls.byIssue(s.id) as PullRow | undefined) : undefined;
			const row = pull && pull.state === 'open' && pull.pr.merged_at === null ? stores.autoMerges.byIssue(pull.id) : undefined;
			if (!row) return null;
			const by = row.enabled_by_id === null ? undefined : stores.accounts.byId(row.enabled_by_id);
			return {
				authorEmail: row.author_email,
				commitHeadline: row.commit_title,
				commitBody: row.commit_message,
				enabledAt: row.enabled_at,
				enabledBy: by ? { ...simpleUser(g.ctx.app.urls, by), __typename: 'User' } : null,
				mergeMethod: row.merge_method.toUpperCase(),
				pullRequest: s,
			};
		},
	},
};

/** A pull request node id's pull request, with the caller's scope on its repository, for a write. */
function writablePull(g: GraphContext, id: unknown): { pull: PullRow; scope: IssueScope } {
	const notFound = new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
	const m = /^0\d+:PullRequest(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	const { app, principal } = g.ctx;
	const pull = m ? (app.stores.pulls.byIssue(Number(m[1])) as PullRow | undefined) : undefined;
	const repo = pull && app.stores.repos.byId(pull.repo_id);
	const owner = repo && app.stores.accounts.byId(repo.owner_id);
	if (!pull || !repo || !owner) throw notFound;
	const permission = callerRepoPermission(g.ctx, repo, owner);
	if (permission === null) throw notFound;
	// Tokens: fine-grained and app tokens need pull_requests write, classic ones repo (public_repo on a public repository).
	const tokenAllows =
		principal.kind === 'classic' || principal.kind === 'oauth'
			? principal.scopes.has('repo') || (repo.visibility === 'public' && principal.scopes.has('public_repo'))
			: principal.kind === 'session' || levelMeets(principal.permissions.pull_requests, 'write');
	if (!tokenAllows) throw new TypedError('FORBIDDEN', 'Resource not accessible by integration');
	return { pull, scope: issueScope(app, { repo, owner, permission }) };
}

/** The payload of an auto-merge mutation: the pull request as REST's full form shows it. */
function payload(g: GraphContext, scope: IssueScope, pull: PullRow, clientMutationId: unknown) {
	const [json] = renderPulls(g.ctx, scope, [pull], true, null);
	const actor = g.ctx.principal.actorId === null ? undefined : g.ctx.app.stores.accounts.byId(g.ctx.principal.actorId);
	return {
		clientMutationId: clientMutationId ?? null,
		actor: actor ? { ...simpleUser(g.ctx.app.urls, actor), __typename: 'User' } : null,
		pullRequest: { ...json, __typename: 'PullRequest' },
	};
}

/** Runs a service, its DomainErrors as GitHub's GraphQL errors. */
function service<T>(run: () => T): T {
	try {
		return run();
	} catch (error) {
		throw translate(error);
	}
}

/** The auto-merge mutations, merged into the Mutation type by src/api/graphql/execute.ts. */
export const AUTO_MERGE_MUTATIONS: Record<string, Resolver> = {
	enablePullRequestAutoMerge: (_s, { input }, g) => {
		const { pull, scope } = writablePull(g, input.pullRequestId);
		const updated = service(() =>
			enableAutoMerge(g.ctx, scope, pull, {
				method: String(input.mergeMethod ?? 'MERGE').toLowerCase() as MergeMethod,
				title: input.commitHeadline ?? null,
				message: input.commitBody ?? null,
				authorEmail: input.authorEmail ?? null,
				expectedHeadSha: input.expectedHeadOid ?? null,
			}),
		);
		return payload(g, scope, updated, input.clientMutationId);
	},
	disablePullRequestAutoMerge: (_s, { input }, g) => {
		const { pull, scope } = writablePull(g, input.pullRequestId);
		return payload(
			g,
			scope,
			service(() => disableAutoMerge(g.ctx, scope, pull)),
			input.clientMutationId,
		);
	},
};
