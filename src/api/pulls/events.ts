/**
 * Domain events of pull requests (GitHub's pull_request webhook; PullRequestEvent in the activity
 * feeds), recorded through the event log inside the transaction of the change. Every change to a
 * pull request's issue part goes through recordIssueChanges (src/api/issues/events.ts), which
 * hands the events of a pull request here (App.pullRequestHooks.recordChange, wired by
 * compose.ts): GitHub reports opened, edited, closed, reopened, labeled, unlabeled, assigned,
 * unassigned, milestoned, demilestoned, locked and unlocked of a pull request as `pull_request`
 * (never `issues`), whichever route made the change (the pulls routes or the issue routes). The
 * feeds show PullRequestEvent for opened, closed and reopened. Head moves record `synchronize`
 * (with `before` and `after`; src/api/pulls/follow.ts), and notify no one.
 *
 * Payload: { action, number, pull_request (the full form, raw body), …extra, repository,
 * organization, sender }.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inOrganization, sender } from '../../events/payloads';
import type { Caller } from '../../auth/caller';
import type { NotificationActivity } from '../../model/notifications';
import { repository } from '../../model/render';
import type { IssueScope } from '../issues/service';
import type { IssueRow, PullRow } from '../../model/rows';
import { renderPulls } from './service';
import { timelineOf, type TimelineEntry } from '../issues/timeline';

/** Actions GitHub shows in the feeds as PullRequestEvent. */
const FEED_ACTIONS = new Set(['opened', 'closed', 'reopened']);

function where(app: App, scope: IssueScope, actorId: number | null) {
	return {
		repository: repository(app.urls, scope.repo, scope.owner, null),
		...(scope.owner.type === 'Organization' ? inOrganization(app, scope.owner) : {}),
		...sender(app, actorId),
	};
}

/**
 * One pull_request event about the pull request of `row` (read again, as it is now).
 * @param extra payload fields after pull_request (changes, label, assignee, milestone, before/after)
 * @param timeline its issue events, when they are not the ones its action and extra tell
 *   (src/api/issues/timeline.ts timelineOf): a synchronize's force push
 */
export function recordPullRequest(
	ctx: Caller,
	scope: IssueScope,
	row: IssueRow,
	action: string,
	extra: Record<string, unknown> = {},
	notification?: NotificationActivity,
	timeline?: TimelineEntry[],
): void {
	const { app } = ctx;
	const actorId = ctx.principal.actorId;
	let rendered: unknown;
	const current = app.stores.pulls.byIssue(row.id) as PullRow;
	const pull = () => {
		rendered ??= renderPulls(ctx, scope, [current], 'event', null)[0];
		return rendered;
	};
	record(app, {
		event: 'pull_request',
		action,
		actorId,
		repo: scope.repo,
		feed: FEED_ACTIONS.has(action)
			? { type: 'PullRequestEvent', payload: { action, number: row.number, pull_request: pull() } }
			: undefined,
		webhook: () => ({ number: row.number, pull_request: pull(), ...extra, ...where(app, scope, actorId) }),
		notification,
		timeline: timeline ?? timelineOf(current, action, extra, current.pr),
	});
}
