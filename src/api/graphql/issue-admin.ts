/**
 * GraphQL's issue administration (gh issue transfer, gh issue pin / unpin, gh issue delete), which
 * GitHub offers through GraphQL only: the mutations transferIssue, pinIssue, unpinIssue and
 * deleteIssue call the services of src/api/issues/admin.ts directly, and the fields Issue.isPinned
 * and Repository.pinnedIssues read the pins. What the caller may not see is NOT_FOUND (the issue
 * and repositories are read through their REST twins first); tokens need what REST's issue writes
 * need (classic: `repo`, or `public_repo` for a public repository; fine-grained and app tokens:
 * Issues write, on their own account).
 * https://docs.github.com/graphql/reference/mutations#transferissue
 */
import { callerRepoPermission } from '../../auth/access/repos';
import { permissionsSatisfy } from '../../auth/permissions';
import { notAccessible, reachesAccount } from '../../auth/principal';
import { nodeId } from '../../http/urls';
import type { AccountRow, IssueRow, RepositoryRow } from '../../model/rows';
import { deleteIssue, setIssuePinned, transferIssue } from '../issues/admin';
import { type IssueScope, issueScope } from '../issues/service';
import { TypedError, translate } from './errors';
import { get, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations
type Source = Record<string, any>;

const notFound = (id: unknown) => new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
const seg = (s: string) => encodeURIComponent(s);
const repoPath = (owner: AccountRow, repo: RepositoryRow) => `/repos/${seg(owner.login)}/${seg(repo.name)}`;

/** The type and database id a global node id names, or null. */
function decode(id: unknown): { type: string; id: number } | null {
	const m = /^0\d+:([A-Za-z]+)(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	return m ? { type: m[1], id: Number(m[2]) } : null;
}

/**
 * The caller's issue context of a repository it can see (read through GET /repos/{owner}/{repo}).
 * @throws TypedError NOT_FOUND; FORBIDDEN when the token may not write issues there
 */
function scopeOf(g: GraphContext, repo: RepositoryRow, owner: AccountRow, id: unknown): IssueScope {
	get(g, repoPath(owner, repo), undefined, `Could not resolve to a node with the global id of '${id}'`);
	const { principal } = g.ctx;
	if (principal.kind === 'classic' || principal.kind === 'oauth') {
		if (!principal.scopes.has('repo') && !(repo.visibility === 'public' && principal.scopes.has('public_repo')))
			throw new TypedError('FORBIDDEN', 'Your token has not been granted the required scopes to execute this query.');
	} else if (principal.kind !== 'session') {
		if (!reachesAccount(principal, owner.id) || !permissionsSatisfy(principal.permissions, [{ issues: 'write' }]))
			throw new TypedError('FORBIDDEN', notAccessible(principal).message);
	}
	return issueScope(g.ctx.app, { repo, owner, permission: callerRepoPermission(g.ctx, repo, owner) });
}

/** The issue a node id names, with its repository's scope. @throws TypedError NOT_FOUND */
function issueOf(g: GraphContext, id: unknown): { issue: IssueRow; scope: IssueScope; path: string } {
	const node = decode(id);
	const { stores } = g.ctx.app;
	const issue = node && (node.type === 'Issue' || node.type === 'PullRequest') ? stores.issues.byId(node.id) : undefined;
	const repo = issue && stores.repos.byId(issue.repo_id);
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!issue || !repo || !owner) throw notFound(id);
	const path = `${repoPath(owner, repo)}/issues/${issue.number}`;
	get(g, path, undefined, `Could not resolve to a node with the global id of '${id}'`);
	return { issue, scope: scopeOf(g, repo, owner, id), path };
}

/** Runs a service, its refusals as GraphQL errors. */
function run<T>(fn: () => T): T {
	try {
		return fn();
	} catch (error) {
		throw translate(error);
	}
}

/** An issue as GraphQL resolves it (its REST form as the caller now reads it). */
const asIssue = (g: GraphContext, path: string): Source => ({ ...get(g, path), __typename: 'Issue' });

export const ISSUE_ADMIN_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	transferIssue: (_s, { input }, g) => {
		const { issue, scope } = issueOf(g, input.issueId);
		const node = decode(input.repositoryId);
		const { stores } = g.ctx.app;
		const repo = node?.type === 'Repository' ? stores.repos.byId(node.id) : undefined;
		const owner = repo && stores.accounts.byId(repo.owner_id);
		if (!repo || !owner) throw notFound(input.repositoryId);
		const to = scopeOf(g, repo, owner, input.repositoryId);
		const moved = run(() => transferIssue(g.ctx, scope, issue, to));
		return { clientMutationId: input.clientMutationId ?? null, issue: asIssue(g, `${repoPath(owner, repo)}/issues/${moved.number}`) };
	},
	pinIssue: (_s, { input }, g) => {
		const { issue, scope, path } = issueOf(g, input.issueId);
		run(() => setIssuePinned(g.ctx, scope, issue, true));
		return { clientMutationId: input.clientMutationId ?? null, issue: asIssue(g, path) };
	},
	unpinIssue: (_s, { input }, g) => {
		const { issue, scope, path } = issueOf(g, input.issueId);
		run(() => setIssuePinned(g.ctx, scope, issue, false));
		return { clientMutationId: input.clientMutationId ?? null, id: nodeId('PinnedIssue', issue.id), issue: asIssue(g, path) };
	},
	deleteIssue: (_s, { input }, g) => {
		const { issue, scope } = issueOf(g, input.issueId);
		run(() => deleteIssue(g.ctx, scope, issue));
		return {
			clientMutationId: input.clientMutationId ?? null,
			repository: { ...get(g, repoPath(scope.owner, scope.repo)), __typename: 'Repository' },
		};
	},
};

/** Issue.isPinned and Repository.pinnedIssues (at most 3: one page whatever its arguments). */
export const ISSUE_ADMIN_FIELDS: Record<string, Record<string, (source: Source, args: Args, g: GraphContext) => unknown>> = {
	Issue: {
		isPinned: (s, _a, g) => g.ctx.app.stores.issueAdmin.isPinned(Number(s.id)),
	},
	Repository: {
		pinnedIssues: (s, _a, g) => {
			const { stores } = g.ctx.app;
			const repo = stores.repos.byId(Number(s.id));
			const owner = repo && stores.accounts.byId(repo.owner_id);
			const rows = repo ? stores.issueAdmin.pinned(repo.id) : [];
			const repository = { ...s, __typename: 'Repository' };
			const nodes = owner
				? rows.map((row) => ({
						__typename: 'PinnedIssue',
						id: nodeId('PinnedIssue', row.id),
						databaseId: row.id,
						fullDatabaseId: String(row.id),
						issue: asIssue(g, `${repoPath(owner, repo!)}/issues/${row.number}`),
						pinnedBy: () => {
							const by = row.pinned_by_id === null ? undefined : stores.accounts.byId(row.pinned_by_id);
							return by ? { ...get(g, `/users/${seg(by.login)}`), __typename: by.type === 'Bot' ? 'Bot' : 'User' } : null;
						},
						repository,
					}))
				: [];
			return {
				nodes,
				edges: nodes.map((node, i) => ({ cursor: Buffer.from(`cursor:${i + 1}`).toString('base64'), node })),
				totalCount: nodes.length,
				pageInfo: {
					hasNextPage: false,
					hasPreviousPage: false,
					startCursor: nodes.length ? Buffer.from('cursor:1').toString('base64') : null,
					endCursor: nodes.length ? Buffer.from(`cursor:${nodes.length}`).toString('base64') : null,
				},
			};
		},
	},
};
