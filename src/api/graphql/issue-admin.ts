/**
 * GraphQL's issue administration (gh issue transfer, gh issue pin / unpin, gh issue delete), which
 * GitHub offers through GraphQL only: the mutations transferIssue, pinIssue, unpinIssue and
 * deleteIssue admit the caller to the issue (and the destination repository) with the access of
 * REST's issue writes for Issues (write) — classic `repo`, or `public_repo` for a public
 * repository; fine-grained and app tokens: Issues write, on their own account; what the caller may
 * not see is NOT_FOUND — and call the services of src/api/issues/admin.ts, which decide who may
 * (write access; admin to delete). The fields Issue.isPinned and Repository.pinnedIssues read the pins.
 * https://docs.github.com/graphql/reference/mutations#transferissue
 */
import { nodeId } from '../../model/urls';
import { deleteIssue, setIssuePinned, transferIssue } from '../issues/admin';
import { issueScope } from '../issues/service';
import { publicUser } from '../users/render';
import { MUTATION_POLICIES } from './mutation-access';
import { guarded, issueByNumber, type GraphContext } from './resolve';
import { issueTarget, repositoryPayload, repositoryTarget } from './targets';

// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations
type Source = Record<string, any>;

/** The plain issue of node `id` (a pull request id is refused by the services) under the issue-administration access. */
const adminTarget = (g: GraphContext, id: unknown) => issueTarget(g, MUTATION_POLICIES.issueAdmin, id);

export const ISSUE_ADMIN_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	/** transferIssue; with createLabelsIfMissing the issue's labels the destination lacks are created there. */
	transferIssue: (_s, { input }, g) => {
		const { admitted, scope, issue } = adminTarget(g, input.issueId);
		const destination = repositoryTarget(g, MUTATION_POLICIES.issueAdmin, input.repositoryId);
		const to = issueScope(g.ctx.app, destination.repo);
		const moved = guarded(undefined, () =>
			transferIssue(admitted, scope, issue, to, { createLabelsIfMissing: input.createLabelsIfMissing === true }),
		);
		return { clientMutationId: input.clientMutationId ?? null, issue: issueByNumber(g, to.owner.login, to.repo.name, moved.number) };
	},
	pinIssue: (_s, { input }, g) => {
		const { admitted, scope, issue } = adminTarget(g, input.issueId);
		guarded(undefined, () => setIssuePinned(admitted, scope, issue, true));
		return {
			clientMutationId: input.clientMutationId ?? null,
			issue: issueByNumber(g, scope.owner.login, scope.repo.name, issue.number),
		};
	},
	unpinIssue: (_s, { input }, g) => {
		const { admitted, scope, issue } = adminTarget(g, input.issueId);
		guarded(undefined, () => setIssuePinned(admitted, scope, issue, false));
		return {
			clientMutationId: input.clientMutationId ?? null,
			id: nodeId('PinnedIssue', issue.id),
			issue: issueByNumber(g, scope.owner.login, scope.repo.name, issue.number),
		};
	},
	deleteIssue: (_s, { input }, g) => {
		const { admitted, scope, issue } = adminTarget(g, input.issueId);
		guarded(undefined, () => deleteIssue(admitted, scope, issue));
		return { clientMutationId: input.clientMutationId ?? null, repository: repositoryPayload(g, admitted) };
	},
};

/** Issue.isPinned and Repository.pinnedIssues (at most 3: one page whatever its arguments). */
export const ISSUE_ADMIN_FIELDS: Record<string, Record<string, (source: Source, args: Args, g: GraphContext) => unknown>> = {
	Issue: {
		isPinned: (s, _a, g) => g.ctx.app.stores.issueAdmin.isPinned(Number(s.id)),
	},
	Repository: {
		pinnedIssues: (s, _a, g) => {
			const { app } = g.ctx;
			const { stores } = app;
			const repo = stores.repos.byId(Number(s.id));
			const owner = repo && stores.accounts.byId(repo.owner_id);
			const rows = repo ? stores.issueAdmin.pinned(repo.id) : [];
			const repository = { ...s, __typename: 'Repository' };
			const nodes =
				repo && owner
					? rows.map((row) => ({
							__typename: 'PinnedIssue',
							id: nodeId('PinnedIssue', row.id),
							databaseId: row.id,
							fullDatabaseId: String(row.id),
							// Under the issue read's access, as GET …/issues/{issue_number} answers it.
							issue: issueByNumber(g, owner.login, repo.name, row.number),
							pinnedBy: () => {
								const by = row.pinned_by_id === null ? undefined : stores.accounts.byId(row.pinned_by_id);
								return by ? { ...publicUser(app.urls, by, stores.accounts.counts(by.id)), __typename: 'User' } : null;
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
