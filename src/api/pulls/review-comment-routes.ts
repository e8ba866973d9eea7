/**
 * Review comments (GitHub's "Review comments" REST API): GET …/pulls/comments (the
 * repository's), GET/POST …/pulls/{pull_number}/comments, GET/PATCH/DELETE
 * …/pulls/comments/{comment_id}, POST …/pulls/{pull_number}/comments/{comment_id}/replies.
 *
 * Lists (`sort` created (default)|updated, `direction` asc (default)|desc, `since`) leave out the
 * comments of others' pending reviews, as GET of one does (404). A new comment (`body`,
 * `commit_id`, `path`, `line`+`side` or `position`, `start_line`/`start_side`; or `in_reply_to`,
 * or the replies route with `body` alone) is placed in the diff (src/api/pulls/review-comments.ts,
 * 422 outside it) and comes in a review of its own, COMMENTED, as GitHub's; a reply takes its
 * thread's place and answers its first comment. Its author or push access edits or deletes it.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import type { IssueScope } from '../issues/service';
import { commentBodyField } from '../markdown/body';
import { renderReviewComment, renderReviewComments } from './review-comments';
import {
	createReviewComment,
	deleteReviewComment,
	editReviewComment,
	replyToReviewComment,
	visibleReview,
	visibleReviewComment,
} from './review-edits';
import type { ReviewCommentFilter, ReviewCommentRow } from './review-store';
import { loadPull, pullScope } from './service';
import type { PullRow } from '../../model/rows';
import { PULLS_READ, PULLS_WRITE } from './access';

const positive = (field: string) =>
	v.pipe(v.number(`${field} must be a number`), v.integer(`${field} must be an integer`), v.minValue(1, `${field} must be positive`));
const side = (field: string) => v.picklist(['LEFT', 'RIGHT'], `${field} must be LEFT or RIGHT`);
const sha = v.pipe(v.string('commit_id must be a string'), v.regex(/^[0-9a-f]{40}$/i, 'commit_id must be a commit sha'));
const createBody = v.object({
	body: commentBodyField,
	commit_id: v.optional(sha),
	path: v.optional(v.pipe(v.string('path must be a string'), v.minLength(1, "path can't be blank"))),
	position: v.optional(positive('position')),
	line: v.optional(positive('line')),
	side: v.optional(side('side')),
	start_line: v.optional(positive('start_line')),
	start_side: v.optional(side('start_side')),
	in_reply_to: v.optional(positive('in_reply_to')),
	subject_type: v.optional(v.picklist(['line'], 'subject_type must be line')),
});
const replyBody = v.object({ body: commentBodyField });
const updateBody = v.object({ body: commentBodyField });
const listQuery = v.object({
	sort: v.optional(v.picklist(['created', 'updated'], 'sort must be created or updated'), 'created'),
	direction: v.optional(v.picklist(['asc', 'desc'], 'direction must be asc or desc'), 'asc'),
	since: v.optional(v.pipe(v.string(), v.isoTimestamp('since must be an ISO 8601 timestamp'))),
});

/**
 * One page of review comments: the repository's, a pull request's or a review's (`which`), in the
 * order `order` asks (the list routes' `sort`, `direction`, `since`; GitHub's defaults otherwise);
 * other users' pending comments left out.
 */
function listComments(
	ctx: Context,
	scope: IssueScope,
	which: Pick<ReviewCommentFilter, 'repoId' | 'issueId' | 'reviewId'>,
	order: v.InferOutput<typeof listQuery> = ctx.query as v.InferOutput<typeof listQuery>,
) {
	const { rows, total } = ctx.app.stores.reviews.comments({
		...which,
		viewerId: ctx.principal.actorId,
		sort: order.sort,
		direction: order.direction,
		since: sinceParam(order.since),
		limit: ctx.page.perPage,
		offset: ctx.page.offset,
	});
	return paged(renderReviewComments(ctx, scope, rows), total);
}

/** The path's {comment_id} of the repository; a comment of another user's pending review is 404. */
function loadComment(ctx: Context, scope: IssueScope): ReviewCommentRow {
	return visibleReviewComment(ctx, scope, idParam(ctx.params.comment_id));
}

/** `since` as stored timestamps compare (ISO seconds, UTC). */
const sinceParam = (since: string | undefined) => (since === undefined ? null : isoSeconds(Date.parse(since)));

/** A new review comment's answer: 201 with its Location. */
function createdComment(ctx: Context, scope: IssueScope, pull: PullRow, comment: ReviewCommentRow) {
	const answer = renderReviewComment(ctx, scope, pull.number, comment, ctx.app.stores.accounts.byId(comment.user_id)!);
	return created(answer, answer.url);
}

/** The review-comment routes, registered in src/api/routes.ts. */
export const reviewCommentRoutes = [
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/comments',
		docs: 'pulls/comments#list-review-comments-in-a-repository',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const scope = pullScope(ctx);
			return listComments(ctx, scope, { repoId: scope.repo.id });
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
		docs: 'pulls/comments#list-review-comments-on-a-pull-request',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const scope = pullScope(ctx);
			return listComments(ctx, scope, { issueId: loadPull(ctx, scope).id });
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments',
		docs: 'pulls/reviews#list-comments-for-a-pull-request-review',
		pagination: true,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			const review = visibleReview(ctx, pull, idParam(ctx.params.review_id));
			return listComments(ctx, scope, { reviewId: review.id }, { sort: 'created', direction: 'asc', since: undefined });
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
		docs: 'pulls/comments#get-a-review-comment-for-a-pull-request',
		handler(ctx) {
			const scope = pullScope(ctx);
			return ok(renderReviewComments(ctx, scope, [loadComment(ctx, scope)])[0]);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
		docs: 'pulls/comments#update-a-review-comment-for-a-pull-request',
		errorResource: 'PullRequestReviewComment',
		body: updateBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const comment = editReviewComment(ctx, scope, loadComment(ctx, scope), ctx.body.body);
			return ok(renderReviewComments(ctx, scope, [comment])[0]);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
		docs: 'pulls/comments#delete-a-review-comment-for-a-pull-request',
		handler(ctx) {
			const scope = pullScope(ctx);
			deleteReviewComment(ctx, scope, loadComment(ctx, scope));
			return noContent();
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
		docs: 'pulls/comments#create-a-review-comment-for-a-pull-request',
		errorResource: 'PullRequestReviewComment',
		body: createBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			return createdComment(ctx, scope, pull, createReviewComment(ctx, scope, pull, ctx.body));
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
		docs: 'pulls/comments#create-a-reply-for-a-review-comment',
		errorResource: 'PullRequestReviewComment',
		body: replyBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			const parent = loadComment(ctx, scope);
			if (parent.issue_id !== pull.id) throw notFound();
			return createdComment(ctx, scope, pull, replyToReviewComment(ctx, scope, pull, parent, ctx.body.body));
		},
	}),
];
