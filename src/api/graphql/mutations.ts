/**
 * GraphQL mutations inside the request's write transaction. Each admits the caller with its REST
 * twin's route access (src/api/graphql/access.ts, mutation-access.ts), validates its input with the
 * REST body's rules, calls the same domain service the REST route calls, and renders its payload
 * with the shared renderers. Inputs name objects by global node id (an id the caller may not see
 * is NOT_FOUND; what it sees but may not change is FORBIDDEN with REST's 403 message).
 * Pull request mutations: pull-mutations.ts; repository mutations: repository-mutations.ts.
 */
import * as v from 'valibot';
import { validate } from '../../http/validation';
import { label as renderLabel } from '../../model/render';
import { commentBodyField } from '../markdown/body';
import { issueRepository } from '../issues/service';
import { createIssueComment, renderIssueComments } from '../issue-comments/service';
import { createBody, updateBody } from '../issues/inputs';
import { createIssue, removeIssueLabel, setIssueLabels, updateIssue } from '../issues/workflows';
import { createLabel, createLabelBody, labelsBase } from '../issues/labels';
import { starRepository, unstarRepository } from '../starring/service';
import { POLICIES } from './access';
import { MUTATION_POLICIES } from './mutation-access';
import { PULL_MUTATIONS } from './pull-mutations';
import { REPOSITORY_MUTATIONS } from './repository-mutations';
import { guarded, issueByNumber, type GraphContext } from './resolve';
import { issueInput, issueTarget, labelNames, nodeMessage, repositoryPayload, repositoryTarget } from './targets';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

/**
 * Edits the issue of node `id` as PATCH …/issues/{issue_number} does (its access, its body rules,
 * updateIssue) and returns the issue after the edit.
 * @param patch the edit in REST's names (title, body, state, state_reason, labels, assignees,
 *   milestone), from the issue's repository id (node ids resolve there)
 */
function editIssue(g: GraphContext, id: unknown, patch: (repoId: number) => Source): Source {
	const { scope, issue, admitted } = issueTarget(g, POLICIES.updateIssue, id, ['Issue']);
	const edit = patch(scope.repo.id);
	guarded(undefined, () => updateIssue(admitted, scope, issue, validate(updateBody, edit, 'Issue')));
	return issueByNumber(g, scope.owner.login, scope.repo.name, issue.number);
}

/** addComment's body: REST's comment body rules (not blank, bounded). */
const COMMENT_INPUT = v.object({ body: commentBodyField });

/** GraphQL's payload field clientMutationId, echoed. */
const echo = (input: Args) => input.clientMutationId ?? null;

/** Mutation resolvers: (input) → payload. */
export const MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	createIssue: (_s, { input }, g) => {
		const admitted = repositoryTarget(g, POLICIES.createIssue, input.repositoryId);
		const { repo, owner } = admitted.repo;
		const row = guarded(nodeMessage(input.repositoryId), () => {
			const scope = issueRepository(admitted);
			const body = validate(createBody, issueInput(g, input, repo.id), 'Issue');
			return createIssue(admitted, scope, body);
		});
		return { clientMutationId: echo(input), issue: issueByNumber(g, owner.login, repo.name, row.number) };
	},
	closeIssue: (_s, { input }, g) => {
		const body: Source = { state: 'closed' };
		if (input.stateReason) body.state_reason = String(input.stateReason).toLowerCase();
		return { clientMutationId: echo(input), issue: editIssue(g, input.issueId, () => body) };
	},
	reopenIssue: (_s, { input }, g) => ({
		clientMutationId: echo(input),
		issue: editIssue(g, input.issueId, () => ({ state: 'open' })),
	}),
	updateIssue: (_s, { input }, g) => ({
		clientMutationId: echo(input),
		issue: editIssue(g, input.id, (repoId) => issueInput(g, input, repoId)),
	}),
	addComment: (_s, { input }, g) => {
		const { admitted, scope, issue } = issueTarget(g, POLICIES.comment, input.subjectId);
		const row = guarded(undefined, () =>
			createIssueComment(admitted, scope, issue, validate(COMMENT_INPUT, { body: input.body }, 'IssueComment').body),
		);
		const comment = renderIssueComments(admitted, scope, [row], [issue])[0];
		return {
			clientMutationId: echo(input),
			commentEdge: {
				cursor: Buffer.from(`cursor:v2:${comment.id}`).toString('base64'),
				node: { ...comment, __typename: 'IssueComment', __owner: scope.owner.login, __name: scope.repo.name },
			},
			subject: issueByNumber(g, scope.owner.login, scope.repo.name, issue.number),
		};
	},
	/** createLabel: POST /repos/{owner}/{repo}/labels's access, body rules and service. */
	createLabel: (_s, { input }, g) => {
		const admitted = repositoryTarget(g, MUTATION_POLICIES.createLabel, input.repositoryId);
		const body: Source = { name: input.name, color: input.color };
		if (input.description != null) body.description = input.description;
		const row = guarded(undefined, () => {
			const valid = validate(createLabelBody, body, 'Label');
			return createLabel(admitted, admitted.repo, { ...valid, color: valid.color ?? body.color });
		});
		return { clientMutationId: echo(input), label: { ...renderLabel(labelsBase(admitted, admitted.repo), row), __typename: 'Label' } };
	},
	/** addLabelsToLabelable: POST …/issues/{issue_number}/labels (triage access); labels of the issue's repository. */
	addLabelsToLabelable: (_s, { input }, g) => {
		const { admitted, scope, issue } = issueTarget(g, MUTATION_POLICIES.addLabels, input.labelableId);
		const names = labelNames(g, input.labelIds, scope.repo.id);
		guarded(undefined, () => setIssueLabels(admitted, scope, issue, names, 'attach'));
		return { clientMutationId: echo(input), labelable: issueByNumber(g, scope.owner.login, scope.repo.name, issue.number) };
	},
	/**
	 * removeLabelsFromLabelable: DELETE …/issues/{issue_number}/labels/{name} for each label the
	 * issue has (triage access); a label it does not have changes nothing, as on GitHub.
	 */
	removeLabelsFromLabelable: (_s, { input }, g) => {
		const { admitted, scope, issue } = issueTarget(g, MUTATION_POLICIES.removeLabel, input.labelableId);
		const names = labelNames(g, input.labelIds, scope.repo.id);
		const { labels } = g.ctx.app.stores;
		const present = new Set((labels.forIssues([issue.id]).get(issue.id) ?? []).map((row) => row.name));
		guarded(undefined, () =>
			g.ctx.app.transaction(() => {
				for (const name of new Set(names))
					if (present.has(name)) removeIssueLabel(admitted, scope, g.ctx.app.stores.issues.byId(issue.id)!, name);
			}),
		);
		return { clientMutationId: echo(input), labelable: issueByNumber(g, scope.owner.login, scope.repo.name, issue.number) };
	},
	/** addStar: PUT /user/starred/{owner}/{repo}'s access and service; the repository as it now is. */
	addStar: (_s, { input }, g) => {
		const admitted = repositoryTarget(g, MUTATION_POLICIES.star, input.starrableId);
		guarded(undefined, () => starRepository(admitted, admitted.principal.user!.id, admitted.repo.repo));
		return { clientMutationId: echo(input), starrable: repositoryPayload(g, admitted) };
	},
	/** removeStar: DELETE /user/starred/{owner}/{repo}'s access and service. */
	removeStar: (_s, { input }, g) => {
		const admitted = repositoryTarget(g, MUTATION_POLICIES.unstar, input.starrableId);
		guarded(undefined, () => unstarRepository(admitted, admitted.principal.user!.id, admitted.repo.repo));
		return { clientMutationId: echo(input), starrable: repositoryPayload(g, admitted) };
	},
	...PULL_MUTATIONS,
	...REPOSITORY_MUTATIONS,
};
