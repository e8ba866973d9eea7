/**
 * GraphQL's markPullRequestReadyForReview and convertPullRequestToDraft (gh pr ready, gh pr ready
 * --undo), which no REST route does: the caller is admitted to the pull request with the access of
 * updating it (PATCH …/pulls/{pull_number}: what the caller may not see is NOT_FOUND), then
 * src/api/pulls/draft.ts decides (the author or write access) and changes it.
 * https://docs.github.com/graphql/reference/mutations#convertpullrequesttodraft
 */
import { setPullDraft } from '../pulls/draft';
import { MUTATION_POLICIES } from './mutation-access';
import { guarded, pullByNumber, type GraphContext } from './resolve';
import { pullTarget } from './targets';

// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

function change(g: GraphContext, input: Args, draft: boolean) {
	const { admitted, scope, pull } = pullTarget(g, MUTATION_POLICIES.updatePull, input.pullRequestId);
	guarded(undefined, () => setPullDraft(admitted, pull, draft));
	return {
		clientMutationId: input.clientMutationId ?? null,
		pullRequest: pullByNumber(g, scope.owner.login, scope.repo.name, pull.number),
	};
}

export const DRAFT_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	markPullRequestReadyForReview: (_s, { input }, g) => change(g, input, false),
	convertPullRequestToDraft: (_s, { input }, g) => change(g, input, true),
};
