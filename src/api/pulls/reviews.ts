/**
 * Reviews of pull requests (GitHub's "Reviews" REST API): the pull-request-review shape, and the
 * domain events of a review — the pull_request_review webhook (submitted, edited, dismissed),
 * PullRequestReviewEvent in the feeds (a submitted review, action `created` as GitHub's), and
 * notifications to the pull request's participants as for a comment (reason comment for the
 * reviewer, mentions in the body).
 *
 * Shape: { id, node_id, user, body ('' when none), state (PENDING, COMMENTED, APPROVED,
 * CHANGES_REQUESTED, DISMISSED), html_url (…/pull/N#pullrequestreview-ID), pull_request_url,
 * author_association, _links {html, pull_request}, submitted_at (left out while pending),
 * commit_id } and body_html / body_text by the media type.
 */
import { record } from '../../events/log';
import { inOrganization, sender } from '../../events/payloads';
import { nodeId } from '../../model/urls';
import type { Caller } from '../../auth/caller';
import { bodyFields } from '../../model/markdown/render';
import { issueSubject, mentionedIn } from '../issues/events';
import type { IssueScope } from '../issues/service';
import { repository } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { AccountRow, PullRow } from '../../model/rows';
import { enqueueMergeability } from './mergeable-state';
import type { ReviewRow } from '../../model/rows';
import { renderPulls } from './service';

/** A review as GitHub renders it (pull-request-review). @param media body media type (null: raw) */
export function renderReview(
	ctx: Caller,
	scope: IssueScope,
	pull: PullRow,
	review: ReviewRow,
	author: AccountRow,
	media: string | null = ctx.media,
) {
	const pullUrl = `${scope.paths.api}/pulls/${pull.number}`;
	const html = `${scope.paths.html}/pull/${pull.number}#pullrequestreview-${review.id}`;
	return {
		id: review.id,
		node_id: nodeId('PullRequestReview', review.id),
		user: simpleUser(ctx.app.urls, author),
		...bodyFields(review, media),
		state: review.state,
		html_url: html,
		pull_request_url: pullUrl,
		author_association: scope.associations.of(author),
		_links: { html: { href: html }, pull_request: { href: pullUrl } },
		...(review.submitted_at === null ? {} : { submitted_at: review.submitted_at }),
		commit_id: review.commit_id,
	};
}

/** Renders many reviews, loading their authors once. */
export function renderReviews(ctx: Caller, scope: IssueScope, pull: PullRow, reviews: ReviewRow[]) {
	const authors = ctx.app.stores.accounts.mapByIds([...new Set(reviews.map((r) => r.user_id))]);
	return reviews.map((review) => renderReview(ctx, scope, pull, review, authors.get(review.user_id)!));
}

/**
 * Records a review's event: `submitted` (webhook, feed, notification), `edited` (with the previous
 * body) or `dismissed`. A decision changing (submitted, dismissed) queues the pull request's
 * mergeability again, so its mergeable_state is recomputed with the reviews of the moment.
 */
export function recordReview(
	ctx: Caller,
	scope: IssueScope,
	pull: PullRow,
	review: ReviewRow,
	action: 'submitted' | 'edited' | 'dismissed',
	previousBody?: string,
	dismissal?: { state: string; message: string },
): void {
	const { app } = ctx;
	const actorId = ctx.principal.actorId;
	const author = app.stores.accounts.byId(review.user_id)!;
	const object = renderReview(ctx, scope, pull, review, author, null);
	// Webhook payloads name the state in lower case (approved, changes_requested, commented, dismissed).
	const hooked = { ...object, state: review.state.toLowerCase() };
	let pullObject: unknown;
	const pullRequest = () => (pullObject ??= renderPulls(ctx, scope, [app.stores.pulls.byIssue(pull.id)!], 'event', null)[0]);
	if (action !== 'edited' && pull.state === 'open') enqueueMergeability(app, pull.id);
	record(app, {
		event: 'pull_request_review',
		action,
		actorId,
		repo: scope.repo,
		feed:
			action === 'submitted'
				? { type: 'PullRequestReviewEvent', payload: { action: 'created', review: object, pull_request: pullRequest() } }
				: undefined,
		webhook: () => ({
			review: hooked,
			pull_request: pullRequest(),
			...(action === 'edited' ? { changes: { body: { from: previousBody ?? '' } } } : {}),
			repository: repository(app.urls, scope.repo, scope.owner, null),
			...(scope.owner.type === 'Organization' ? inOrganization(app, scope.owner) : {}),
			...sender(app, actorId),
		}),
		notification:
			action === 'submitted'
				? {
						subject: issueSubject(pull, null),
						broadcast: true,
						actorReason: 'comment',
						involved: mentionedIn(ctx, scope, review.body),
					}
				: action === 'edited'
					? { subject: issueSubject(pull), broadcast: false, involved: mentionedIn(ctx, scope, review.body, previousBody) }
					: undefined,
		// The timeline's review_dismissed (GitHub's dismissed_review: the state it had, the message).
		timeline:
			action === 'dismissed'
				? [
						{
							issueId: pull.id,
							event: 'review_dismissed',
							details: {
								dismissed_review: {
									state: (dismissal?.state ?? 'dismissed').toLowerCase(),
									review_id: review.id,
									dismissal_message: dismissal?.message ?? null,
									dismissal_commit_id: null,
								},
								reviewer_id: review.user_id,
							},
						},
					]
				: undefined,
	});
}
