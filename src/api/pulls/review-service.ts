/**
 * The review use cases of a pull request, for every front end (REST, the web pages): create a
 * review (pending, or submitted with APPROVE / REQUEST_CHANGES / COMMENT and inline comments),
 * submit a pending one, and request reviewers. Each checks GitHub's rules, writes in one
 * transaction (a savepoint inside a request's write transaction) and records its events itself
 * (reviews.ts, review-comments.ts, review-requests.ts). Refusals are DomainErrors.
 */
import type { Caller } from '../../auth/caller';
import { forbidden, unprocessable, validationFailed } from '../../model/errors';
import type { PullRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { canTriage, type IssueScope } from '../issues/service';
import { assertUnlocked, locateComment, type PlaceInput, recordReviewComment } from './review-comments';
import { requestReviews, resolveReviewers } from './review-requests';
import type { ReviewRow, ReviewState } from '../../model/rows';
import { recordReview } from './reviews';

/** GitHub's review events (what submitting a review does). */
export type ReviewEvent = 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT';

/** The submitted state of a review event. */
export const SUBMITTED: Record<ReviewEvent, ReviewState> = {
	APPROVE: 'APPROVED',
	REQUEST_CHANGES: 'CHANGES_REQUESTED',
	COMMENT: 'COMMENTED',
};

/**
 * GitHub's rules of submitting: not approving or requesting changes on one's own pull request,
 * and a body for REQUEST_CHANGES and COMMENT (a COMMENT with inline comments may have none).
 * @throws DomainError 422
 */
export function checkSubmission(caller: Caller, pull: PullRow, event: ReviewEvent, body: string, comments = 0): void {
	const actor = caller.principal.actorId;
	if (event === 'APPROVE' && pull.user_id === actor) throw unprocessable('Can not approve your own pull request');
	if (event === 'REQUEST_CHANGES' && pull.user_id === actor) throw unprocessable('Can not request changes on your own pull request');
	if ((event === 'REQUEST_CHANGES' || comments === 0) && event !== 'APPROVE' && body.trim() === '')
		throw validationFailed([{ resource: 'PullRequestReview', field: 'body', code: 'missing_field', message: "body can't be blank" }]);
}

/** Submits a review: its state, the request of its author withdrawn, `submitted` recorded, then `created` for each of its comments. */
export function recordSubmission(caller: Caller, scope: IssueScope, pull: PullRow, review: ReviewRow): void {
	caller.app.stores.reviews.removeUser(pull.id, review.user_id);
	recordReview(caller, scope, pull, review, 'submitted');
	for (const comment of caller.app.stores.reviews.commentsOfReview(review.id))
		recordReviewComment(caller, scope, pull, comment, 'created');
}

/** A review as POST …/pulls/{n}/reviews takes it; without `event` it stays PENDING. */
export interface NewReview {
	/** The commit the comments are placed at (default: the head). */
	commit_id?: string;
	body?: string;
	event?: ReviewEvent;
	/** Inline comments: a place in the diff (path with position, or line and side) and a body. */
	comments?: Array<PlaceInput & { body: string }>;
}

/**
 * Creates a review of a pull request by the acting user (anyone who reads the repository; a locked
 * conversation takes reviews from push access only). A pending review is the author's alone, one
 * per user and pull request.
 * @returns the review's id
 * @throws DomainError 403 (locked, no acting user), 422 (GitHub's submission rules, a second
 *   pending review, a commit_id that is no commit, a comment outside the diff)
 */
export function createReview(caller: Caller, scope: IssueScope, pull: PullRow, input: NewReview): number {
	const { app } = caller;
	const actor = caller.principal.actorId;
	if (actor === null) throw forbidden('A user must act to review a pull request.');
	return app.transaction(() => {
		assertUnlocked(scope, pull);
		const body = input.body ?? '';
		if (input.event !== undefined) checkSubmission(caller, pull, input.event, body, input.comments?.length ?? 0);
		else if (app.stores.reviews.pending(pull.id, actor)) throw unprocessable('User can only have one pending review per pull request');
		const commitId = (input.commit_id ?? pull.pr.head_sha).toLowerCase();
		if (app.stores.git.meta(pull.repo_id, commitId)?.type !== 'commit') {
			throw validationFailed([{ resource: 'PullRequestReview', field: 'commit_id', code: 'invalid' }]);
		}
		const now = isoSeconds(caller.now);
		const state = input.event === undefined ? 'PENDING' : SUBMITTED[input.event];
		// Every comment is placed first: one outside the diff refuses the whole review.
		const anchors = (input.comments ?? []).map((comment) => ({
			anchor: locateComment(app, pull, commitId, comment),
			body: comment.body,
		}));
		const id = app.stores.reviews.insertReview(
			{ issue_id: pull.id, user_id: actor, state, body, commit_id: commitId, submitted_at: state === 'PENDING' ? null : now },
			now,
		);
		for (const { anchor, body: text } of anchors) {
			app.stores.reviews.insertComment(
				{
					repo_id: scope.repo.id,
					issue_id: pull.id,
					review_id: id,
					user_id: actor,
					in_reply_to_id: null,
					commit_id: commitId,
					...anchor,
					body: text,
				},
				now,
			);
		}
		if (state !== 'PENDING') recordSubmission(caller, scope, pull, app.stores.reviews.review(pull.id, id)!);
		return id;
	});
}

/**
 * Requests reviews from users (logins) and teams (slugs): the pull request's author or triage
 * access; the rules of who may be asked are review-requests.ts's. Already requested ones are skipped.
 * @throws DomainError 403 for neither author nor triager, 422 when both lists are absent or a
 *   reviewer cannot be asked
 */
export function requestPullReviewers(
	caller: Caller,
	scope: IssueScope,
	pull: PullRow,
	logins: string[] | undefined,
	slugs: string[] | undefined,
): void {
	if (!canTriage(scope) && pull.user_id !== caller.principal.actorId) {
		throw forbidden('Must be the author of the pull request or have triage access to the repository to request reviews.');
	}
	if (logins === undefined && slugs === undefined) {
		throw validationFailed([{ resource: 'PullRequest', field: 'reviewers', code: 'missing_field' }]);
	}
	caller.app.transaction(() => {
		const { users, teams } = resolveReviewers(caller, scope, pull, logins ?? [], slugs ?? []);
		requestReviews(caller, scope, pull, users, teams);
	});
}

/**
 * Submits the acting user's pending review with an event (POST …/reviews/{id}/events); `body`
 * absent keeps the pending review's own.
 * @throws DomainError 422 for a review that is not pending, or GitHub's submission rules
 */
export function submitReview(
	caller: Caller,
	scope: IssueScope,
	pull: PullRow,
	review: ReviewRow,
	event: ReviewEvent,
	body: string | undefined,
): void {
	const { app } = caller;
	if (review.state !== 'PENDING') throw unprocessable('Can not submit a non-pending pull request review');
	const text = body ?? review.body;
	app.transaction(() => {
		checkSubmission(caller, pull, event, text, app.stores.reviews.commentsOfReview(review.id).length);
		const now = isoSeconds(caller.now);
		app.stores.reviews.updateReview(review, { state: SUBMITTED[event], body: text, submitted_at: now }, now);
		recordSubmission(caller, scope, pull, app.stores.reviews.review(pull.id, review.id)!);
	});
}

/**
 * Adds an inline comment to the acting user's pending review (GitHub's GraphQL
 * addPullRequestReviewThread), placed in the diff at the review's commit. Nothing is recorded
 * until the review is submitted.
 * @throws DomainError 403 for another user's review or a locked conversation, 422 for a review
 *   that is not pending or a place outside the diff
 */
export function addReviewComment(
	caller: Caller,
	scope: IssueScope,
	pull: PullRow,
	review: ReviewRow,
	place: PlaceInput,
	body: string,
): void {
	const { app } = caller;
	const actor = caller.principal.actorId;
	if (actor === null || review.user_id !== actor) throw forbidden('Must be the author of the review to add comments to it.');
	if (review.state !== 'PENDING') throw unprocessable('Can not add comments to a non-pending pull request review');
	app.transaction(() => {
		assertUnlocked(scope, pull);
		const anchor = locateComment(app, pull, review.commit_id, place);
		app.stores.reviews.insertComment(
			{
				repo_id: scope.repo.id,
				issue_id: pull.id,
				review_id: review.id,
				user_id: actor,
				in_reply_to_id: null,
				commit_id: review.commit_id,
				...anchor,
				body,
			},
			isoSeconds(caller.now),
		);
	});
}
