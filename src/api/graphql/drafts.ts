/**
 * GraphQL's markPullRequestReadyForReview and convertPullRequestToDraft (gh pr ready, gh pr ready
 * --undo): the pull request is first read through its REST twin (what the caller may not see is
 * NOT_FOUND), then changed by src/api/pulls/draft.ts in the request's write transaction.
 * https://docs.github.com/graphql/reference/mutations#convertpullrequesttodraft
 */
import { setPullDraft } from '../pulls/draft';
import type { PullRow } from '../../model/rows';
import { TypedError, translate } from './errors';
import { get, type GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

/** The pull request a node id names, if the caller may read it. @throws TypedError NOT_FOUND */
function visiblePull(g: GraphContext, id: unknown): { pull: PullRow; path: string } {
	const m = /^0\d+:PullRequest(\d{1,15})$/.exec(Buffer.from(String(id), 'base64').toString());
	const { stores } = g.ctx.app;
	const issue = m ? stores.issues.byId(Number(m[1])) : undefined;
	const pull = issue && (stores.pulls.byIssue(issue.id) as PullRow | undefined);
	const repo = pull && stores.repos.byId(pull.repo_id);
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!pull || !repo || !owner) throw new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
	const path = `/repos/${encodeURIComponent(owner.login)}/${encodeURIComponent(repo.name)}/pulls/${pull.number}`;
	get(g, path);
	return { pull, path };
}

function change(g: GraphContext, input: Args, draft: boolean) {
	const { pull, path } = visiblePull(g, input.pullRequestId);
	try {
		setPullDraft(g.ctx, pull, draft);
	} catch (error) {
		throw translate(error);
	}
	return { clientMutationId: input.clientMutationId ?? null, pullRequest: { ...get(g, path), __typename: 'PullRequest' } };
}

export const DRAFT_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	markPullRequestReadyForReview: (_s, { input }, g) => change(g, input, false),
	convertPullRequestToDraft: (_s, { input }, g) => change(g, input, true),
};
