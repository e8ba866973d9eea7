/**
 * The bodies of the pull-request writes (GitHub's "Pulls", "Review requests" and "Reviews" REST
 * APIs), shared by the REST routes and the GraphQL mutations that make the same changes, so both
 * refuse the same input with the same 422.
 */
import * as v from 'valibot';
import { issueBodyField, commentBodyField, MAX_BODY } from '../markdown/body';
import { issueTitle as title } from '../issues/inputs';

const branchName = (field: string) =>
	v.pipe(v.string(`${field} must be a string`), v.minLength(1, `${field} can't be blank`), v.maxLength(1024, `${field} is too long`));

/** A new pull request (POST …/pulls). */
export const createPullBody = v.object({
	title: v.optional(title),
	head: branchName('head'),
	head_repo: v.optional(v.string('head_repo must be a string')),
	base: branchName('base'),
	body: v.optional(issueBodyField),
	maintainer_can_modify: v.optional(v.boolean('maintainer_can_modify must be a boolean')),
	draft: v.optional(v.boolean('draft must be a boolean')),
	issue: v.optional(
		v.pipe(v.number('issue must be a number'), v.integer('issue must be an integer'), v.minValue(1, 'issue must be positive')),
	),
});
/** A pull request edit (PATCH …/pulls/{pull_number}): absent fields stay. */
export const updatePullBody = v.object({
	title: v.optional(title),
	body: v.optional(issueBodyField),
	state: v.optional(v.picklist(['open', 'closed'], 'state must be open or closed')),
	base: v.optional(branchName('base')),
	maintainer_can_modify: v.optional(v.boolean('maintainer_can_modify must be a boolean')),
});
/** A merge (PUT …/pulls/{pull_number}/merge): merge_method defaults to merge. */
export const mergeBody = v.object({
	commit_title: v.optional(v.pipe(v.string('commit_title must be a string'), v.maxLength(1024, 'commit_title is too long'))),
	commit_message: v.optional(v.pipe(v.string('commit_message must be a string'), v.maxLength(65536, 'commit_message is too long'))),
	sha: v.optional(v.string('sha must be a string')),
	merge_method: v.optional(v.picklist(['merge', 'squash', 'rebase'], 'merge_method must be merge, squash or rebase'), 'merge'),
});
/** GitHub takes at most 100 reviewers in one request (and 100 teams). */
export const names = (field: string) =>
	v.pipe(
		v.array(
			v.pipe(v.string(`${field} must be an array of strings`), v.minLength(1, `${field} must not hold blanks`), v.maxLength(256)),
			`${field} must be an array`,
		),
		v.maxLength(100, `${field} holds more than 100 names`),
	);
/** Reviewers asked for (POST …/requested_reviewers). */
export const requestReviewersBody = v.object({
	reviewers: v.optional(names('reviewers')),
	team_reviewers: v.optional(names('team_reviewers')),
});
/** Review requests withdrawn (DELETE …/requested_reviewers). */
export const removeReviewersBody = v.object({
	reviewers: names('reviewers'),
	team_reviewers: v.optional(names('team_reviewers')),
});

export const reviewBodyText = v.pipe(
	v.string('body must be a string'),
	v.maxLength(MAX_BODY, `body is longer than ${MAX_BODY} characters`),
);
export const reviewEvent = v.picklist(['APPROVE', 'REQUEST_CHANGES', 'COMMENT'], 'event must be APPROVE, REQUEST_CHANGES or COMMENT');
const positive = (field: string) =>
	v.pipe(v.number(`${field} must be a number`), v.integer(`${field} must be an integer`), v.minValue(1, `${field} must be positive`));
const side = (field: string) => v.picklist(['LEFT', 'RIGHT'], `${field} must be LEFT or RIGHT`);
/** A draft review comment of POST …/reviews (GitHub's comments[]). */
const draftComment = v.object({
	path: v.pipe(v.string('path must be a string'), v.minLength(1, "path can't be blank")),
	position: v.optional(positive('position')),
	line: v.optional(positive('line')),
	side: v.optional(side('side')),
	start_line: v.optional(positive('start_line')),
	start_side: v.optional(side('start_side')),
	body: commentBodyField,
});
/** A new review (POST …/reviews): without `event` it is PENDING. */
export const createReviewBody = v.object({
	commit_id: v.optional(v.pipe(v.string('commit_id must be a string'), v.regex(/^[0-9a-f]{40}$/i, 'commit_id must be a commit sha'))),
	body: v.optional(reviewBodyText),
	event: v.optional(reviewEvent),
	comments: v.optional(
		v.pipe(v.array(draftComment, 'comments must be an array'), v.maxLength(100, 'comments holds more than 100 comments')),
	),
});
/** Submitting a pending review (POST …/reviews/{review_id}/events). */
export const submitReviewBody = v.object({ body: v.optional(reviewBodyText), event: reviewEvent });
/** Dismissing a review (PUT …/reviews/{review_id}/dismissals). */
export const dismissReviewBody = v.object({
	message: v.pipe(v.string('message must be a string'), v.minLength(1, "message can't be blank"), v.maxLength(MAX_BODY)),
	event: v.optional(v.picklist(['DISMISS'], 'event must be DISMISS')),
});
