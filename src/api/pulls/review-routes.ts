/**
 * Review requests and reviews of a pull request (GitHub's "Review requests" and "Reviews" REST
 * APIs): GET/POST/DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers;
 * (review comments, GET …/reviews/{review_id}/comments among them: review-comment-routes.ts);
 * GET/POST …/reviews, GET/PUT/DELETE …/reviews/{review_id}, POST …/reviews/{review_id}/events,
 * PUT …/reviews/{review_id}/dismissals.
 *
 * Reviews: anyone who reads the repository reviews (Pull requests write). A review without
 * `event` is PENDING, seen by its author alone (others get 404; one per user and pull request);
 * APPROVE, REQUEST_CHANGES, COMMENT submit it. GitHub's rules: the author cannot approve or
 * request changes on their own pull request (422 "Can not approve your own pull request" / "Can
 * not request changes on your own pull request"); REQUEST_CHANGES and COMMENT need a body (422
 * "body can't be blank", GitHub's validation-error-simple as every 422 of the review routes; a COMMENT with inline comments may have none); `comments[]` ({path,
 * position | line+side, start_line/start_side, body}) become the review's comments, placed in the
 * diff at `commit_id` (422 outside it); `commit_id` defaults to the head and must be a commit of the repository.
 * A submitted review withdraws its author's review request. Only its author edits a review's body
 * (PUT) or deletes it (pending only, else 422); dismissing (APPROVED or CHANGES_REQUESTED only)
 * needs push access. Events: src/api/pulls/reviews.ts.
 *
 * Reading needs Pull requests (read) — public repositories anonymously too — and answers
 * pull-request-review-request `{users, teams}`. Requesting and withdrawing need Pull requests
 * (write) and the pull request's author or triage access; both answer the pull-request-simple
 * form (201 and 200). The rules of who may be asked: src/api/pulls/review-requests.ts.
 */
import * as v from 'valibot';
import { created, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import type { IssueScope } from '../issues/service';
import { requestedReviewers } from './requested';
import { deletePendingReview, dismissReview, editReview, removePullReviewers, visibleReview } from './review-edits';
import { createReview, requestPullReviewers, submitReview } from './review-service';
import type { ReviewRow } from '../../model/rows';
import { renderReview, renderReviews } from './reviews';
import { loadPull, pullScope, renderPulls } from './service';
import type { PullRow } from '../../model/rows';
import { PULLS_READ, PULLS_WRITE } from './access';
import { createReviewBody, dismissReviewBody, removeReviewersBody, requestReviewersBody, reviewBodyText, submitReviewBody } from './inputs';

const updateReviewBody = v.object({ body: reviewBodyText });

/** The path's {review_id} of the pull request; another user's pending review is 404 as GitHub's. */
function loadReview(ctx: Context, pull: PullRow): ReviewRow {
	return visibleReview(ctx, pull, idParam(ctx.params.review_id));
}

/** A review as the answer renders it. */
function one(ctx: Context, scope: IssueScope, pull: PullRow, id: number) {
	const review = ctx.app.stores.reviews.review(pull.id, id)!;
	return renderReview(ctx, scope, pull, review, ctx.app.stores.accounts.byId(review.user_id)!);
}

/** The review-request and review routes, registered in src/api/routes.ts. */
export const reviewRequestRoutes = [
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
		docs: 'pulls/review-requests#get-all-requested-reviewers-for-a-pull-request',
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			return ok(requestedReviewers(ctx.app, scope.owner, [pull.id]).get(pull.id)!);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
		docs: 'pulls/review-requests#request-reviewers-for-a-pull-request',
		errorResource: 'PullRequest',
		body: requestReviewersBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			requestPullReviewers(ctx, scope, pull, ctx.body.reviewers, ctx.body.team_reviewers);
			const body = renderPulls(ctx, scope, [ctx.app.stores.pulls.byIssue(pull.id)!], false)[0];
			return created(body, body.url);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
		docs: 'pulls/review-requests#remove-requested-reviewers-from-a-pull-request',
		errorResource: 'PullRequest',
		body: removeReviewersBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			removePullReviewers(ctx, scope, pull, ctx.body.reviewers, ctx.body.team_reviewers ?? []);
			return ok(renderPulls(ctx, scope, [ctx.app.stores.pulls.byIssue(pull.id)!], false)[0]);
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
		docs: 'pulls/reviews#list-reviews-for-a-pull-request',
		pagination: true,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			const { rows, total } = ctx.app.stores.reviews.reviews(pull.id, ctx.principal.actorId, ctx.page.perPage, ctx.page.offset);
			return paged(renderReviews(ctx, scope, pull, rows), total);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
		docs: 'pulls/reviews#create-a-review-for-a-pull-request',
		errorResource: 'PullRequestReview',
		errorShape: 'simple',
		body: createReviewBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			const id = createReview(ctx, scope, pull, ctx.body);
			return ok(one(ctx, scope, pull, id));
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
		docs: 'pulls/reviews#get-a-review-for-a-pull-request',
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			return ok(one(ctx, scope, pull, loadReview(ctx, pull).id));
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'PUT',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
		docs: 'pulls/reviews#update-a-review-for-a-pull-request',
		errorResource: 'PullRequestReview',
		errorShape: 'simple',
		body: updateReviewBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			const review = loadReview(ctx, pull);
			editReview(ctx, scope, pull, review, ctx.body.body);
			return ok(one(ctx, scope, pull, review.id));
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
		docs: 'pulls/reviews#delete-a-pending-review-for-a-pull-request',
		errorResource: 'PullRequestReview',
		errorShape: 'simple',
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			const review = loadReview(ctx, pull);
			const body = one(ctx, scope, pull, review.id);
			deletePendingReview(ctx, review);
			return ok(body);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events',
		docs: 'pulls/reviews#submit-a-review-for-a-pull-request',
		errorResource: 'PullRequestReview',
		errorShape: 'simple',
		body: submitReviewBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			const review = loadReview(ctx, pull);
			submitReview(ctx, scope, pull, review, ctx.body.event, ctx.body.body);
			return ok(one(ctx, scope, pull, review.id));
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'PUT',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals',
		docs: 'pulls/reviews#dismiss-a-review-for-a-pull-request',
		errorResource: 'PullRequestReview',
		errorShape: 'simple',
		body: dismissReviewBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			const review = loadReview(ctx, pull);
			dismissReview(ctx, scope, pull, review, ctx.body.message);
			return ok(one(ctx, scope, pull, review.id));
		},
	}),
];
