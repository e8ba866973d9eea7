/**
 * The review use cases after a review exists, for every front end: edit a review's body, delete a
 * pending review, dismiss a review, withdraw review requests, and the review comments made one at
 * a time (a comment in a review of its own, a reply, an edit, a deletion). Creating, submitting
 * and requesting are review-service.ts's. Each checks GitHub's rule, writes in one transaction (a
 * savepoint inside a request's write transaction) and records its events itself (reviews.ts,
 * review-comments.ts, review-requests.ts). Refusals are DomainErrors (src/model/errors.ts).
 */
import type { Caller } from '../../auth/caller';
import { forbidden, notFound, unprocessable, validationFailed } from '../../model/errors';
import { atLeast } from '../../model/repo-permissions';
import type { PullRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { canTriage, type IssueScope } from '../issues/service';
import { type Anchor, assertUnlocked, locateComment, type PlaceInput, recordReviewComment } from './review-comments';
import { removeReviewRequests, resolveReviewers } from './review-requests';
import type { ReviewCommentRow } from './review-store';
import type { ReviewRow } from '../../model/rows';
import { recordReview } from './reviews';

/**
 * The review `id` of the pull request as the caller may see it: another user's pending review is
 * not there (GitHub answers 404).
 * @throws DomainError 404
 */
export function visibleReview(caller: Caller, pull: PullRow, id: number | null | undefined): ReviewRow {
	const review = id ? caller.app.stores.reviews.review(pull.id, id) : undefined;
	if (!review || (review.state === 'PENDING' && review.user_id !== caller.principal.actorId)) throw notFound();
	return review;
}

/**
 * Replaces a review's body (PUT …/reviews/{id}): its author alone; a CHANGES_REQUESTED or
 * COMMENTED review keeps a body. An unchanged body writes nothing; a submitted review's change
 * records pull_request_review `edited` with the previous body.
 * @throws DomainError 403 for anyone but the author, 422 for a blank body the state needs
 */
export function editReview(caller: Caller, scope: IssueScope, pull: PullRow, review: ReviewRow, body: string): void {
	if (review.user_id !== caller.principal.actorId) throw forbidden('Must be the author of the review to update it.');
	if (body.trim() === '' && (review.state === 'CHANGES_REQUESTED' || review.state === 'COMMENTED')) {
		throw validationFailed([{ resource: 'PullRequestReview', field: 'body', code: 'missing_field', message: "body can't be blank" }]);
	}
	if (body === review.body) return;
	const { app } = caller;
	app.transaction(() => {
		app.stores.reviews.updateReview(review, { state: review.state, body, submitted_at: review.submitted_at }, isoSeconds(caller.now));
		if (review.state !== 'PENDING')
			recordReview(caller, scope, pull, app.stores.reviews.review(pull.id, review.id)!, 'edited', review.body);
	});
}

/**
 * Deletes a pending review and its comments (DELETE …/reviews/{id}): its author alone. Nothing is
 * recorded (a pending review was never seen by anyone else).
 * @throws DomainError 403 for anyone but the author, 422 for a submitted review
 */
export function deletePendingReview(caller: Caller, review: ReviewRow): void {
	if (review.user_id !== caller.principal.actorId) throw forbidden('Must be the author of the review to delete it.');
	if (review.state !== 'PENDING') throw unprocessable('Can not delete a non-pending pull request review');
	caller.app.stores.reviews.deleteReview(review.id);
}

/**
 * Dismisses a review (PUT …/reviews/{id}/dismissals): push access, and only an APPROVED or
 * CHANGES_REQUESTED review (GitHub's wording for the others). Records pull_request_review
 * `dismissed` and the timeline's review_dismissed with the state it had and the message.
 * @throws DomainError 403 without push access, 422 for a pending, commented or dismissed review
 */
export function dismissReview(caller: Caller, scope: IssueScope, pull: PullRow, review: ReviewRow, message: string): void {
	if (!atLeast(scope.permission, 'push')) throw forbidden('Must have push access to the repository to dismiss a review.');
	if (review.state === 'PENDING') throw unprocessable('Can not dismiss a pending pull request review');
	if (review.state !== 'APPROVED' && review.state !== 'CHANGES_REQUESTED')
		throw unprocessable(`Can not dismiss a ${review.state === 'COMMENTED' ? 'commented' : 'dismissed'} pull request review`);
	const { app } = caller;
	app.transaction(() => {
		app.stores.reviews.updateReview(
			review,
			{ state: 'DISMISSED', body: review.body, submitted_at: review.submitted_at },
			isoSeconds(caller.now),
		);
		recordReview(caller, scope, pull, app.stores.reviews.review(pull.id, review.id)!, 'dismissed', undefined, {
			state: review.state,
			message,
		});
	});
}

/**
 * Withdraws review requests from users (logins) and teams (slugs): the pull request's author or
 * triage access. Names that were not requested are skipped; each withdrawn one records
 * pull_request `review_request_removed`.
 * @throws DomainError 403 for neither author nor triager, 422 for a name review-requests.ts refuses
 */
export function removePullReviewers(caller: Caller, scope: IssueScope, pull: PullRow, logins: string[], slugs: string[]): void {
	if (!canTriage(scope) && pull.user_id !== caller.principal.actorId) {
		throw forbidden('Must be the author of the pull request or have triage access to the repository to remove review requests.');
	}
	caller.app.transaction(() => {
		const { users, teams } = resolveReviewers(caller, scope, pull, logins, slugs);
		removeReviewRequests(caller, scope, pull, users, teams);
	});
}

/**
 * The review comment `id` of the repository as the caller may see it: a comment of another user's
 * pending review is not there (404).
 * @throws DomainError 404
 */
export function visibleReviewComment(caller: Caller, scope: IssueScope, id: number | null | undefined): ReviewCommentRow {
	const { reviews } = caller.app.stores;
	const comment = id ? reviews.comment(scope.repo.id, id) : undefined;
	if (!comment) throw notFound();
	const review = reviews.review(comment.issue_id, comment.review_id)!;
	if (review.state === 'PENDING' && review.user_id !== caller.principal.actorId) throw notFound();
	return comment;
}

/** A new single review comment: a place in the diff at `commit_id`, or `in_reply_to` a comment of the pull request. */
export interface NewReviewComment extends Partial<PlaceInput> {
	body: string;
	commit_id?: string;
	in_reply_to?: number;
}

/**
 * A comment in a review of its own (COMMENTED, submitted now, as GitHub makes for a single
 * comment), `created` recorded.
 */
function commentAlone(
	caller: Caller,
	scope: IssueScope,
	pull: PullRow,
	anchor: Anchor,
	commitId: string,
	body: string,
	inReplyTo: number | null,
): ReviewCommentRow {
	const { app } = caller;
	const actor = caller.principal.actorId;
	if (actor === null) throw forbidden('A user must act to comment on a pull request.');
	assertUnlocked(scope, pull);
	return app.transaction(() => {
		const { reviews } = app.stores;
		const now = isoSeconds(caller.now);
		const reviewId = reviews.insertReview(
			{ issue_id: pull.id, user_id: actor, state: 'COMMENTED', body: '', commit_id: commitId, submitted_at: now },
			now,
		);
		const id = reviews.insertComment(
			{
				repo_id: scope.repo.id,
				issue_id: pull.id,
				review_id: reviewId,
				user_id: actor,
				in_reply_to_id: inReplyTo,
				commit_id: commitId,
				...anchor,
				body,
			},
			now,
		);
		const comment = reviews.comment(scope.repo.id, id)!;
		recordReviewComment(caller, scope, pull, comment, 'created');
		return comment;
	});
}

/**
 * Replies to a review comment (POST …/comments/{id}/replies, or `in_reply_to`): the reply takes its
 * thread's place in the diff and answers the thread's first comment.
 * @returns the new comment
 * @throws DomainError 403 in a locked conversation without push access
 */
export function replyToReviewComment(
	caller: Caller,
	scope: IssueScope,
	pull: PullRow,
	parent: ReviewCommentRow,
	body: string,
): ReviewCommentRow {
	const anchor: Anchor = {
		path: parent.path,
		position: parent.position,
		line: parent.line,
		side: parent.side,
		start_line: parent.start_line,
		start_side: parent.start_side,
		diff_hunk: parent.diff_hunk,
	};
	return commentAlone(caller, scope, pull, anchor, parent.commit_id, body, parent.in_reply_to_id ?? parent.id);
}

/**
 * Creates a single review comment (POST …/pulls/{n}/comments): a reply when `in_reply_to` names a
 * comment of this pull request, else placed in the diff at `commit_id` (src/api/pulls/review-comments.ts).
 * @returns the new comment
 * @throws DomainError 422 for an unknown in_reply_to, a missing commit_id or path, a commit_id that
 *   is no commit, a place outside the diff; 403 in a locked conversation without push access
 */
export function createReviewComment(caller: Caller, scope: IssueScope, pull: PullRow, input: NewReviewComment): ReviewCommentRow {
	const { app } = caller;
	if (input.in_reply_to !== undefined) {
		const parent = app.stores.reviews.comment(scope.repo.id, input.in_reply_to);
		if (!parent || parent.issue_id !== pull.id)
			throw validationFailed([{ resource: 'PullRequestReviewComment', field: 'in_reply_to', code: 'invalid' }]);
		return replyToReviewComment(caller, scope, pull, parent, input.body);
	}
	const missing = (['commit_id', 'path'] as const).filter((field) => input[field] === undefined);
	if (missing.length)
		throw validationFailed(missing.map((field) => ({ resource: 'PullRequestReviewComment', field, code: 'missing_field' as const })));
	const commitId = input.commit_id!.toLowerCase();
	if (app.stores.git.meta(pull.repo_id, commitId)?.type !== 'commit') {
		throw validationFailed([{ resource: 'PullRequestReviewComment', field: 'commit_id', code: 'invalid' }]);
	}
	const anchor = locateComment(app, pull, commitId, { ...input, path: input.path! });
	return commentAlone(caller, scope, pull, anchor, commitId, input.body, null);
}

/**
 * Replaces a review comment's body (PATCH …/pulls/comments/{id}): its author or push access. A
 * change to a comment of a submitted review records `edited` with the previous body.
 * @returns the comment as stored
 * @throws DomainError 403 for others
 */
export function editReviewComment(caller: Caller, scope: IssueScope, comment: ReviewCommentRow, body: string): ReviewCommentRow {
	if (comment.user_id !== caller.principal.actorId && !atLeast(scope.permission, 'push')) {
		throw forbidden('Must be the author of the comment or have push access to the repository to update it.');
	}
	const { app } = caller;
	const { reviews } = app.stores;
	if (body === comment.body) return comment;
	return app.transaction(() => {
		reviews.updateComment(comment.id, body, isoSeconds(caller.now));
		const current = reviews.comment(scope.repo.id, comment.id)!;
		if (reviews.review(comment.issue_id, comment.review_id)!.state !== 'PENDING')
			recordReviewComment(caller, scope, app.stores.pulls.byIssue(comment.issue_id)!, current, 'edited', comment.body);
		return current;
	});
}

/**
 * Deletes a review comment (DELETE …/pulls/comments/{id}): its author or push access. A comment of
 * a submitted review records `deleted`.
 * @throws DomainError 403 for others
 */
export function deleteReviewComment(caller: Caller, scope: IssueScope, comment: ReviewCommentRow): void {
	if (comment.user_id !== caller.principal.actorId && !atLeast(scope.permission, 'push')) {
		throw forbidden('Must be the author of the comment or have push access to the repository to delete it.');
	}
	const { app } = caller;
	const { reviews } = app.stores;
	app.transaction(() => {
		const review = reviews.review(comment.issue_id, comment.review_id)!;
		reviews.deleteComment(comment.id);
		if (review.state !== 'PENDING') recordReviewComment(caller, scope, app.stores.pulls.byIssue(comment.issue_id)!, comment, 'deleted');
	});
}
