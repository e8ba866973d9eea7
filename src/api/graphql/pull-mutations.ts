/**
 * GraphQL's pull request mutations (gh pr create / edit / merge / review / close / reopen, Renovate):
 * each admits the caller with its REST twin's route access (mutation-access.ts), validates with the
 * REST body's rules (src/api/pulls/inputs.ts) and calls the service the REST route calls
 * (pulls/workflows.ts, merge-service.ts, review-service.ts, review-edits.ts); payloads are rendered
 * from the stores (GET …/pulls/{pull_number}'s form, renderReview).
 * https://docs.github.com/graphql/reference/mutations#createpullrequest
 */
import { validate } from '../../http/validation';
import type { PullRow } from '../../model/rows';
import type { IssueScope } from '../issues/service';
import { updateBody } from '../issues/inputs';
import { updateIssue } from '../issues/workflows';
import {
	createPullBody,
	createReviewBody,
	dismissReviewBody,
	mergeBody,
	requestReviewersBody,
	submitReviewBody,
	updatePullBody,
} from '../pulls/inputs';
import { mergePullRequest } from '../pulls/merge-service';
import { dismissReview, removePullReviewers, visibleReview } from '../pulls/review-edits';
import { createReview, requestPullReviewers, submitReview } from '../pulls/review-service';
import { renderReview } from '../pulls/reviews';
import { pullScope } from '../pulls/service';
import { createPullRequest, updatePullRequest } from '../pulls/workflows';
import { POLICIES } from './access';
import { TypedError } from './errors';
import { MUTATION_POLICIES } from './mutation-access';
import { guarded, pullByNumber, type GraphContext } from './resolve';
import {
	type Admitted,
	decode,
	issueInput,
	issueTarget,
	logins,
	nodeMessage,
	notFound,
	pullTarget,
	repositoryTarget,
	teamSlugs,
} from './targets';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

const echo = (input: Args) => input.clientMutationId ?? null;

/** The pull request as GET …/pulls/{pull_number} renders it now (the payload's pullRequest). */
const pullPayload = (g: GraphContext, scope: IssueScope, number: number): Source =>
	pullByNumber(g, scope.owner.login, scope.repo.name, number);

/** A review as GET …/reviews/{review_id} renders it (the payload's pullRequestReview). */
function reviewPayload(g: GraphContext, admitted: Admitted, scope: IssueScope, pull: PullRow, id: number): Source {
	const { stores } = g.ctx.app;
	const review = stores.reviews.review(pull.id, id)!;
	return { ...renderReview(admitted, scope, pull, review, stores.accounts.byId(review.user_id)!), __typename: 'PullRequestReview' };
}

/** Opens or closes the pull request of node `id` as PATCH …/pulls/{pull_number} with `state` does. */
function setPullState(g: GraphContext, input: Args, state: 'open' | 'closed') {
	const { admitted, scope, pull } = pullTarget(g, MUTATION_POLICIES.updatePull, input.pullRequestId);
	guarded(undefined, () => updatePullRequest(admitted, scope, pull, { state }));
	return { clientMutationId: echo(input), pullRequest: pullPayload(g, scope, pull.number) };
}

/** A review comment of AddPullRequestReviewInput's comments (diff position) or threads (line, side) in REST's names. */
function draftComments(input: Args): Source[] | undefined {
	const comments = ((input.comments ?? []) as (Source | null)[]).flatMap((c) =>
		c ? [{ path: c.path, body: c.body, ...(c.position != null ? { position: c.position } : {}) }] : [],
	);
	const threads = ((input.threads ?? []) as (Source | null)[]).flatMap((t) =>
		t
			? [
					{
						path: t.path,
						body: t.body,
						line: t.line,
						...(t.side != null ? { side: t.side } : {}),
						...(t.startLine != null ? { start_line: t.startLine } : {}),
						...(t.startSide != null ? { start_side: t.startSide } : {}),
					},
				]
			: [],
	);
	const all = [...comments, ...threads];
	return all.length ? all : undefined;
}

export const PULL_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	/** createPullRequest: POST /repos/{owner}/{repo}/pulls; a head repository of the network names the head `owner:branch`. */
	createPullRequest: (_s, { input }, g) => {
		const admitted = repositoryTarget(g, MUTATION_POLICIES.createPull, input.repositoryId);
		let head = String(input.headRefName);
		if (input.headRepositoryId && !head.includes(':')) {
			const headRepo = repositoryTarget(g, POLICIES.repository, input.headRepositoryId);
			head = `${headRepo.repo.owner.login}:${head}`;
		}
		const body: Source = {
			title: input.title,
			head,
			base: input.baseRefName,
			draft: input.draft ?? false,
			maintainer_can_modify: input.maintainerCanModify ?? true,
		};
		if (input.body != null) body.body = input.body;
		const { scope, row } = guarded(undefined, () => {
			const scope = pullScope(admitted);
			return { scope, row: createPullRequest(admitted, scope, validate(createPullBody, body, 'PullRequest')) };
		});
		return { clientMutationId: echo(input), pullRequest: pullPayload(g, scope, row.number) };
	},
	/**
	 * updatePullRequest: title, body, base, state and maintainerCanModify as PATCH …/pulls/{pull_number}
	 * changes them; assignees, labels and milestone as PATCH …/issues/{issue_number} (the pull request's
	 * issue), as REST splits them. Gitstead has no projects: projectIds naming any project is NOT_FOUND.
	 */
	updatePullRequest: (_s, { input }, g) => {
		const { admitted, scope, pull } = pullTarget(g, MUTATION_POLICIES.updatePull, input.pullRequestId);
		if (input.projectIds?.length) throw notFound(input.projectIds[0]);
		const pullBody: Source = {};
		if (input.title != null) pullBody.title = input.title;
		if (input.body !== undefined) pullBody.body = input.body;
		if (input.baseRefName != null) pullBody.base = input.baseRefName;
		if (input.state != null) pullBody.state = String(input.state).toLowerCase();
		if (input.maintainerCanModify != null) pullBody.maintainer_can_modify = input.maintainerCanModify;
		const issueBody = issueInput(
			g,
			{ labelIds: input.labelIds, assigneeIds: input.assigneeIds, milestoneId: input.milestoneId },
			scope.repo.id,
		);
		const changePull = Object.keys(pullBody).length > 0;
		// Both admissions before any write; both writes or none.
		const target = Object.keys(issueBody).length ? issueTarget(g, POLICIES.updateIssue, input.pullRequestId, ['PullRequest']) : null;
		guarded(undefined, () =>
			g.ctx.app.transaction(() => {
				if (changePull) updatePullRequest(admitted, scope, pull, validate(updatePullBody, pullBody, 'PullRequest'));
				if (target) {
					const issue = g.ctx.app.stores.issues.byId(target.issue.id)!;
					updateIssue(target.admitted, target.scope, issue, validate(updateBody, issueBody, 'Issue'));
				}
			}),
		);
		return { clientMutationId: echo(input), pullRequest: pullPayload(g, scope, pull.number) };
	},
	closePullRequest: (_s, { input }, g) => setPullState(g, input, 'closed'),
	reopenPullRequest: (_s, { input }, g) => setPullState(g, input, 'open'),
	/** mergePullRequest: PUT …/pulls/{pull_number}/merge (push access, Contents write) and its service. */
	mergePullRequest: (_s, { input }, g) => {
		const { admitted, scope, pull } = pullTarget(g, MUTATION_POLICIES.mergePull, input.pullRequestId);
		const body: Source = { merge_method: String(input.mergeMethod ?? 'MERGE').toLowerCase() };
		if (input.commitHeadline != null) body.commit_title = input.commitHeadline;
		if (input.commitBody != null) body.commit_message = input.commitBody;
		if (input.expectedHeadOid != null) body.sha = input.expectedHeadOid;
		guarded(undefined, () => {
			const { merge_method: method, sha, commit_title: title, commit_message: message } = validate(mergeBody, body, 'PullRequest');
			mergePullRequest(admitted, scope, pull, { method, sha, title, message });
		});
		return { clientMutationId: echo(input), pullRequest: pullPayload(g, scope, pull.number) };
	},
	/** addPullRequestReview: POST …/pulls/{pull_number}/reviews (without an event the review is PENDING). */
	addPullRequestReview: (_s, { input }, g) => {
		const { admitted, scope, pull } = pullTarget(g, MUTATION_POLICIES.createReview, input.pullRequestId);
		const body: Source = {};
		if (input.body != null) body.body = input.body;
		if (input.event != null) body.event = input.event;
		if (input.commitOID != null) body.commit_id = input.commitOID;
		const comments = draftComments(input);
		if (comments) body.comments = comments;
		const id = guarded(undefined, () => createReview(admitted, scope, pull, validate(createReviewBody, body, 'PullRequestReview')));
		return { clientMutationId: echo(input), pullRequestReview: reviewPayload(g, admitted, scope, pull, id) };
	},
	/**
	 * submitPullRequestReview: POST …/reviews/{review_id}/events, for the review named, or the
	 * viewer's pending review of the pull request named.
	 */
	submitPullRequestReview: (_s, { input }, g) => {
		const { stores } = g.ctx.app;
		let pullId: unknown;
		let reviewId: number | null = null;
		if (input.pullRequestReviewId != null) {
			const node = decode(input.pullRequestReviewId);
			const review = node.type === 'PullRequestReview' ? stores.reviews.byId(node.id) : undefined;
			if (!review) throw notFound(input.pullRequestReviewId);
			reviewId = review.id;
			pullId = Buffer.from(`011:PullRequest${review.issue_id}`).toString('base64');
		} else if (input.pullRequestId != null) {
			pullId = input.pullRequestId;
		} else {
			throw new TypedError('UNPROCESSABLE', 'Either pullRequestReviewId or pullRequestId must be given.');
		}
		const { admitted, scope, pull } = pullTarget(g, MUTATION_POLICIES.submitReview, pullId, {
			review_id: String(reviewId ?? ''),
		});
		if (reviewId === null) {
			const actorId = admitted.principal.actorId;
			const pending = actorId === null ? undefined : stores.reviews.pending(pull.id, actorId);
			if (!pending) throw new TypedError('NOT_FOUND', 'Could not find a pending review for this pull request.');
			reviewId = pending.id;
		}
		const id = reviewId;
		guarded(nodeMessage(input.pullRequestReviewId ?? pullId), () => {
			const body = validate(
				submitReviewBody,
				{ event: input.event, ...(input.body != null ? { body: input.body } : {}) },
				'PullRequestReview',
			);
			submitReview(admitted, scope, pull, visibleReview(admitted, pull, id), body.event, body.body);
		});
		return { clientMutationId: echo(input), pullRequestReview: reviewPayload(g, admitted, scope, pull, id) };
	},
	/** dismissPullRequestReview: PUT …/reviews/{review_id}/dismissals (push access; APPROVED or CHANGES_REQUESTED reviews). */
	dismissPullRequestReview: (_s, { input }, g) => {
		const node = decode(input.pullRequestReviewId);
		const review = node.type === 'PullRequestReview' ? g.ctx.app.stores.reviews.byId(node.id) : undefined;
		if (!review) throw notFound(input.pullRequestReviewId);
		const pullId = Buffer.from(`011:PullRequest${review.issue_id}`).toString('base64');
		const { admitted, scope, pull } = guarded(nodeMessage(input.pullRequestReviewId), () =>
			pullTarget(g, MUTATION_POLICIES.dismissReview, pullId, { review_id: String(review.id) }),
		);
		guarded(nodeMessage(input.pullRequestReviewId), () => {
			const { message } = validate(dismissReviewBody, { message: input.message }, 'PullRequestReview');
			dismissReview(admitted, scope, pull, visibleReview(admitted, pull, review.id), message);
		});
		return { clientMutationId: echo(input), pullRequestReview: reviewPayload(g, admitted, scope, pull, review.id) };
	},
	/**
	 * requestReviews: POST …/requested_reviewers for the users and teams named; without `union`
	 * the requests become exactly these (the others are withdrawn as DELETE …/requested_reviewers does).
	 */
	requestReviews: (_s, { input }, g) => {
		const { admitted, scope, pull } = pullTarget(g, MUTATION_POLICIES.requestReviewers, input.pullRequestId);
		const body = guarded(undefined, () =>
			validate(
				requestReviewersBody,
				{ reviewers: logins(g, input.userIds ?? []), team_reviewers: teamSlugs(g, input.teamIds ?? []) },
				'PullRequest',
			),
		);
		const reviewers = body.reviewers ?? [];
		const teams = body.team_reviewers ?? [];
		let dropUsers: string[] = [];
		let dropTeams: string[] = [];
		if (!input.union) {
			const { stores } = g.ctx.app;
			const current = stores.reviews.requestsOf([pull.id]);
			const users = stores.accounts.mapByIds(current.flatMap((r) => (r.user_id === null ? [] : [r.user_id])));
			const requestedTeams = stores.teams.byIds(current.flatMap((r) => (r.team_id === null ? [] : [r.team_id])));
			dropUsers = [...users.values()].map((u) => u.login).filter((login) => !reviewers.includes(login));
			dropTeams = requestedTeams.map((t) => t.slug).filter((slug) => !teams.includes(slug));
		}
		const remover = dropUsers.length || dropTeams.length ? pullTarget(g, MUTATION_POLICIES.removeReviewers, input.pullRequestId) : null;
		// Withdrawn and requested together, or neither.
		guarded(undefined, () =>
			g.ctx.app.transaction(() => {
				if (remover) removePullReviewers(remover.admitted, remover.scope, remover.pull, dropUsers, dropTeams);
				if (reviewers.length || teams.length) requestPullReviewers(admitted, scope, pull, reviewers, teams);
			}),
		);
		return { clientMutationId: echo(input), pullRequest: pullPayload(g, scope, pull.number) };
	},
};
