/**
 * Domain events of issues and issue comments (GitHub's issues and issue_comment webhooks;
 * IssuesEvent and IssueCommentEvent in the activity feeds), recorded through the event log inside
 * the transaction of the change. A change is recorded from what differs between the issue before
 * and after it (issueSnapshot → recordIssueChanges), so every route that changes an issue reports
 * exactly what it changed: opened, edited, closed, reopened, locked, unlocked, labeled, unlabeled,
 * assigned, unassigned, milestoned, demilestoned (the latter two with the `milestone` object, in no
 * feed, as on GitHub).
 *
 * The events that notify carry their `notification` part (src/model/notifications.ts): the
 * issue or pull request as the subject, and who the change names. Opening an issue and commenting
 * reach the repository's watchers and the thread's participants and name the users mentioned
 * (and, on opening, the assignees); closing and reopening reach them with reason state_change;
 * an assignment names the assignee; an edit names only the users its new text mentions for the
 * first time. The actor is the issue's author, a commenter or the one who changed its state.
 */
import type { Caller } from '../../auth/caller';
import { record } from '../../events/log';
import type { Involvement, NotificationActivity, NotificationReason, NotificationSubject } from '../../model/notifications';
import { newlyMentioned, newlyMentionedTeamMembers } from '../notifications/mentions';
import { inOrganization, sender } from '../../events/payloads';
import { label as renderLabel } from '../../model/render';
import { milestone as renderMilestone } from '../../model/render';
import type { LabelRow, IssueCommentRow, IssueRow } from '../../model/rows';
import { repository } from '../../model/render';
import { simpleUser } from '../../model/render';
import { issueComment } from './render';
import { rememberRendered, renderIssues, type IssueScope } from './service';
import { serializeOnce } from '../../model/json';
import { timelineOf, type TimelineEntry } from './timeline';

/** Actions GitHub shows in the feeds as IssuesEvent. */
const FEED_ACTIONS = new Set(['opened', 'edited', 'closed', 'reopened', 'assigned', 'unassigned', 'labeled', 'unlabeled']);

/** An issue's state that events are computed from. */
export interface IssueSnapshot {
	row: IssueRow;
	labels: LabelRow[];
	assigneeIds: number[];
}

/** The issue as events see it (before or after a change). */
export function issueSnapshot(ctx: Caller, row: IssueRow): IssueSnapshot {
	const { stores } = ctx.app;
	return {
		row,
		labels: stores.labels.forIssues([row.id]).get(row.id) ?? [],
		assigneeIds: stores.issues.assignees([row.id]).get(row.id) ?? [],
	};
}

function where(ctx: Caller, scope: IssueScope) {
	return {
		repository: repository(ctx.app.urls, scope.repo, scope.owner, null),
		...(scope.owner.type === 'Organization' ? inOrganization(ctx.app, scope.owner) : {}),
		...sender(ctx.app, ctx.principal.actorId),
	};
}

/**
 * An issue or pull request as a notification subject: subject.url is its API address (/pulls/N for
 * a pull request, as GitHub's threads give it).
 * @param latestCommentPath the latest comment's path, or the subject's own path when the latest
 *   activity was not a comment; undefined leaves it as it was
 */
export function issueSubject(row: IssueRow, latestCommentPath?: string | null): NotificationSubject {
	const path = row.pull_request ? `/pulls/${row.number}` : `/issues/${row.number}`;
	return {
		type: row.pull_request ? 'PullRequest' : 'Issue',
		id: row.id,
		title: row.title,
		path,
		latestCommentPath: latestCommentPath === null ? path : latestCommentPath,
	};
}

/**
 * The users a text newly mentions, as involvements: `@login` (mention) and the members of an
 * `@org/team` of the repository's organization (team_mention). Not the actor: mentioning oneself
 * notifies no one. Exported as mentionedIn for the review events (src/api/pulls/reviews.ts).
 */
export function mentionedIn(ctx: Caller, scope: IssueScope, text: string | null, previous?: string | null): Involvement[] {
	return mentioned(ctx, scope, text, previous);
}

function mentioned(ctx: Caller, scope: IssueScope, text: string | null, previous?: string | null): Involvement[] {
	const actorId = ctx.principal.actorId;
	const org = scope.owner.type === 'Organization' ? scope.owner : null;
	return [
		...newlyMentioned(ctx.app, text, previous).map((user) => ({ userId: user.id, reason: 'mention' as const })),
		...newlyMentionedTeamMembers(ctx.app, org, actorId, text, previous).map((userId) => ({ userId, reason: 'team_mention' as const })),
	].filter((involved) => involved.userId !== actorId);
}

const named = (userIds: number[], reason: NotificationReason): Involvement[] => userIds.map((userId) => ({ userId, reason }));

/**
 * One issues event; `issue` is the issue object as GitHub renders it (raw body). A pull request's
 * change is GitHub's pull_request event instead (App.pullRequestHooks.recordChange:
 * src/api/pulls/events.ts), whatever route made it.
 */
function recordIssue(
	ctx: Caller,
	scope: IssueScope,
	row: IssueRow,
	action: string,
	issue: unknown,
	extra: Record<string, unknown> = {},
	notification?: NotificationActivity,
	closingCommit?: string | null,
	timeline?: TimelineEntry[],
): void {
	if (row.pull_request) {
		ctx.app.pullRequestHooks.recordChange(ctx, scope, row, action, extra, notification, timeline);
		return;
	}
	record(ctx.app, {
		event: 'issues',
		action,
		actorId: ctx.principal.actorId,
		repo: scope.repo,
		feed: FEED_ACTIONS.has(action) ? { type: 'IssuesEvent', payload: { action, issue, ...extra } } : undefined,
		webhook: () => ({ issue, ...extra, ...where(ctx, scope) }),
		notification,
		timeline: timeline ?? timelineOf(row, action, extra, undefined, closingCommit),
	});
}

/**
 * Records what changed between `before` (null: the issue was just opened) and the issue now.
 * @param rendered the issue as the answer renders it, reused when it has the raw body
 * @param moreChanges further `changes` of an edit (a pull request's base: {base: {ref: {from}, sha: {from}}})
 * @param closingCommit the commit whose closing keyword closed the issue (its timeline's closed event names it)
 * @param known the issue's labels and assignees after the change, when the caller knows them (an
 *   issue just opened without either); otherwise they are read
 */
export function recordIssueChanges(
	ctx: Caller,
	scope: IssueScope,
	before: IssueSnapshot | null,
	row: IssueRow,
	rendered?: unknown,
	moreChanges: Record<string, unknown> = {},
	closingCommit?: string | null,
	known?: IssueSnapshot,
): void {
	const after = known ?? issueSnapshot(ctx, row);
	// A pull request's events carry the pull request, rendered by its own recorder; the issue is
	// rendered with the labels and assignees just read.
	const issue = row.pull_request
		? null
		: rendered !== undefined && ctx.media === null
			? rendered
			: renderIssues(ctx, scope, [row], true, null, {
					labels: new Map([[row.id, after.labels]]),
					assignees: new Map([[row.id, after.assigneeIds]]),
				})[0];
	if (issue !== null) {
		rememberRendered(row, issue);
		// Serialized once: for the event's feed payload, then, the same text, for the answer.
		if (ctx.media === null) serializeOnce(issue as object);
	}
	if (!before) {
		// What it was opened with shows in its timeline as GitHub shows it: labeled, assigned, milestoned.
		const initial: TimelineEntry[] = [
			...after.labels.map((l) => ({ issueId: row.id, event: 'labeled', details: { label: { name: l.name, color: l.color } } })),
			...after.assigneeIds.map((id) => ({ issueId: row.id, event: 'assigned', details: { assignee_id: id } })),
		];
		if (row.milestone_id !== null) {
			const milestone = ctx.app.stores.milestones.mapByIds([row.milestone_id]).get(row.milestone_id);
			if (milestone) initial.push({ issueId: row.id, event: 'milestoned', details: { milestone: { title: milestone.title } } });
		}
		recordIssue(
			ctx,
			scope,
			row,
			'opened',
			issue,
			{},
			{
				subject: issueSubject(row, null),
				broadcast: true,
				actorReason: 'author',
				involved: [...mentioned(ctx, scope, row.body), ...named(after.assigneeIds, 'assign')],
			},
			null,
			initial,
		);
		return;
	}
	const was = before.row;
	const changes: Record<string, unknown> = {};
	if (was.title !== row.title) changes.title = { from: was.title };
	if (was.body !== row.body) changes.body = { from: was.body };
	Object.assign(changes, moreChanges);
	if (Object.keys(changes).length) {
		recordIssue(
			ctx,
			scope,
			row,
			'edited',
			issue,
			{ changes },
			{
				subject: issueSubject(row),
				broadcast: false,
				involved: was.body !== row.body ? mentioned(ctx, scope, row.body, was.body) : [],
			},
		);
	}
	if (was.state !== row.state) {
		recordIssue(
			ctx,
			scope,
			row,
			row.state === 'closed' ? 'closed' : 'reopened',
			issue,
			{},
			{
				subject: issueSubject(row, null),
				broadcast: true,
				participantReason: 'state_change',
				actorReason: 'state_change',
				involved: [],
			},
			closingCommit,
		);
	}
	if (was.locked !== row.locked) recordIssue(ctx, scope, row, row.locked ? 'locked' : 'unlocked', issue);
	if (was.milestone_id !== row.milestone_id) {
		const milestones = ctx.app.stores.milestones.mapByIds(
			[was.milestone_id, row.milestone_id].filter((id): id is number => id !== null),
		);
		const milestoneObject = (id: number) => {
			const m = milestones.get(id)!;
			return renderMilestone(ctx.app.urls, scope.paths, m, m.creator_id === null ? null : ctx.app.stores.accounts.byId(m.creator_id));
		};
		if (was.milestone_id !== null && milestones.has(was.milestone_id))
			recordIssue(ctx, scope, row, 'demilestoned', issue, { milestone: milestoneObject(was.milestone_id) });
		if (row.milestone_id !== null) recordIssue(ctx, scope, row, 'milestoned', issue, { milestone: milestoneObject(row.milestone_id) });
	}
	const labelIds = new Set(after.labels.map((l) => l.id));
	const beforeIds = new Set(before.labels.map((l) => l.id));
	const labelObject = (l: LabelRow) => renderLabel(scope.paths.api, l);
	for (const l of after.labels) if (!beforeIds.has(l.id)) recordIssue(ctx, scope, row, 'labeled', issue, { label: labelObject(l) });
	for (const l of before.labels) if (!labelIds.has(l.id)) recordIssue(ctx, scope, row, 'unlabeled', issue, { label: labelObject(l) });
	const accounts = ctx.app.stores.accounts.mapByIds([...before.assigneeIds, ...after.assigneeIds]);
	const assignee = (id: number) => simpleUser(ctx.app.urls, accounts.get(id)!);
	for (const id of after.assigneeIds) {
		if (before.assigneeIds.includes(id)) continue;
		recordIssue(
			ctx,
			scope,
			row,
			'assigned',
			issue,
			{ assignee: assignee(id) },
			{
				subject: issueSubject(row),
				broadcast: false,
				involved: named([id], 'assign'),
			},
		);
	}
	for (const id of before.assigneeIds)
		if (!after.assigneeIds.includes(id)) recordIssue(ctx, scope, row, 'unassigned', issue, { assignee: assignee(id) });
}

/**
 * An issue comment created, edited (with the previous body) or deleted: the issue_comment webhook,
 * and IssueCommentEvent in the feeds for a new comment.
 */
export function recordIssueComment(
	ctx: Caller,
	scope: IssueScope,
	issueRow: IssueRow,
	comment: IssueCommentRow,
	action: 'created' | 'edited' | 'deleted',
	previousBody?: string,
): void {
	const issue = renderIssues(ctx, scope, [issueRow], true, null)[0];
	const author = ctx.app.stores.accounts.byId(comment.user_id)!;
	const object = issueComment(
		ctx.app.urls,
		scope.paths,
		issueRow.number,
		issueRow.pull_request === 1,
		comment,
		author,
		scope.associations.of(author),
		null,
	);
	const changes = action === 'edited' ? { changes: { body: { from: previousBody } } } : {};
	const commentPath = `/issues/comments/${comment.id}`;
	const notification: NotificationActivity =
		action === 'created'
			? {
					subject: issueSubject(issueRow, commentPath),
					broadcast: true,
					actorReason: 'comment',
					involved: mentioned(ctx, scope, comment.body),
				}
			: action === 'edited'
				? { subject: issueSubject(issueRow), broadcast: false, involved: mentioned(ctx, scope, comment.body, previousBody) }
				: { subject: { ...issueSubject(issueRow), withdrawnCommentPath: commentPath }, broadcast: false, involved: [] };
	record(ctx.app, {
		event: 'issue_comment',
		action,
		actorId: ctx.principal.actorId,
		repo: scope.repo,
		feed: action === 'created' ? { type: 'IssueCommentEvent', payload: { action, issue, comment: object } } : undefined,
		webhook: () => ({ ...changes, issue, comment: object, ...where(ctx, scope) }),
		notification,
	});
}
