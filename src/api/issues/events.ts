/**
 * Domain events of issues and issue comments (GitHub's issues and issue_comment webhooks;
 * IssuesEvent and IssueCommentEvent in the activity feeds), recorded through the event log inside
 * the transaction of the change. A change is recorded from what differs between the issue before
 * and after it (issueSnapshot → recordIssueChanges), so every route that changes an issue reports
 * exactly what it changed: opened, edited, closed, reopened, locked, unlocked, labeled, unlabeled,
 * assigned, unassigned.
 */
import type { Context } from '../../http/route';
import { record } from '../../events/log';
import { inOrganization, sender } from '../../events/payloads';
import { label as renderLabel } from '../labels/render';
import type { LabelRow } from '../labels/store';
import { repository } from '../repos/render';
import { simpleUser } from '../users/render';
import { issueComment } from './render';
import { renderIssues, type IssueScope } from './service';
import type { IssueCommentRow, IssueRow } from './store';

/** Actions GitHub shows in the feeds as IssuesEvent. */
const FEED_ACTIONS = new Set(['opened', 'edited', 'closed', 'reopened', 'assigned', 'unassigned', 'labeled', 'unlabeled']);

/** An issue's state that events are computed from. */
export interface IssueSnapshot {
	row: IssueRow;
	labels: LabelRow[];
	assigneeIds: number[];
}

/** The issue as events see it (before or after a change). */
export function issueSnapshot(ctx: Context, row: IssueRow): IssueSnapshot {
	const { stores } = ctx.app;
	return {
		row,
		labels: stores.labels.forIssues([row.id]).get(row.id) ?? [],
		assigneeIds: stores.issues.assignees([row.id]).get(row.id) ?? [],
	};
}

function where(ctx: Context, scope: IssueScope) {
	return {
		repository: repository(ctx.app.urls, scope.repo, scope.owner, null),
		...(scope.owner.type === 'Organization' ? inOrganization(ctx.app, scope.owner) : {}),
		...sender(ctx.app, ctx.principal.actorId),
	};
}

/** One issues event; `issue` is the issue object as GitHub renders it (raw body). */
function recordIssue(ctx: Context, scope: IssueScope, action: string, issue: unknown, extra: Record<string, unknown> = {}): void {
	record(ctx.app, {
		event: 'issues',
		action,
		actorId: ctx.principal.actorId,
		repo: scope.repo,
		feed: FEED_ACTIONS.has(action) ? { type: 'IssuesEvent', payload: { action, issue, ...extra } } : undefined,
		webhook: () => ({ issue, ...extra, ...where(ctx, scope) }),
	});
}

/**
 * Records what changed between `before` (null: the issue was just opened) and the issue now.
 * @param rendered the issue as the answer renders it, reused when it has the raw body
 */
export function recordIssueChanges(ctx: Context, scope: IssueScope, before: IssueSnapshot | null, row: IssueRow, rendered?: unknown): void {
	const after = issueSnapshot(ctx, row);
	const issue = rendered !== undefined && ctx.media === null ? rendered : renderIssues(ctx, scope, [row], true, null)[0];
	if (!before) {
		recordIssue(ctx, scope, 'opened', issue);
		return;
	}
	const was = before.row;
	const changes: Record<string, { from: unknown }> = {};
	if (was.title !== row.title) changes.title = { from: was.title };
	if (was.body !== row.body) changes.body = { from: was.body };
	if (Object.keys(changes).length) recordIssue(ctx, scope, 'edited', issue, { changes });
	if (was.state !== row.state) recordIssue(ctx, scope, row.state === 'closed' ? 'closed' : 'reopened', issue);
	if (was.locked !== row.locked) recordIssue(ctx, scope, row.locked ? 'locked' : 'unlocked', issue);
	const labelIds = new Set(after.labels.map((l) => l.id));
	const beforeIds = new Set(before.labels.map((l) => l.id));
	const labelObject = (l: LabelRow) => renderLabel(scope.paths.api, l);
	for (const l of after.labels) if (!beforeIds.has(l.id)) recordIssue(ctx, scope, 'labeled', issue, { label: labelObject(l) });
	for (const l of before.labels) if (!labelIds.has(l.id)) recordIssue(ctx, scope, 'unlabeled', issue, { label: labelObject(l) });
	const accounts = ctx.app.stores.accounts.mapByIds([...before.assigneeIds, ...after.assigneeIds]);
	const assignee = (id: number) => simpleUser(ctx.app.urls, accounts.get(id)!);
	for (const id of after.assigneeIds) if (!before.assigneeIds.includes(id)) recordIssue(ctx, scope, 'assigned', issue, { assignee: assignee(id) });
	for (const id of before.assigneeIds) if (!after.assigneeIds.includes(id)) recordIssue(ctx, scope, 'unassigned', issue, { assignee: assignee(id) });
}

/**
 * An issue comment created, edited (with the previous body) or deleted: the issue_comment webhook,
 * and IssueCommentEvent in the feeds for a new comment.
 */
export function recordIssueComment(
	ctx: Context,
	scope: IssueScope,
	issueRow: IssueRow,
	comment: IssueCommentRow,
	action: 'created' | 'edited' | 'deleted',
	previousBody?: string,
): void {
	const issue = renderIssues(ctx, scope, [issueRow], true, null)[0];
	const author = ctx.app.stores.accounts.byId(comment.user_id)!;
	const object = issueComment(ctx.app.urls, scope.paths, issueRow.number, issueRow.pull_request === 1, comment, author, scope.associations.of(author), null);
	const changes = action === 'edited' ? { changes: { body: { from: previousBody } } } : {};
	record(ctx.app, {
		event: 'issue_comment',
		action,
		actorId: ctx.principal.actorId,
		repo: scope.repo,
		feed: action === 'created' ? { type: 'IssueCommentEvent', payload: { action, issue, comment: object } } : undefined,
		webhook: () => ({ ...changes, issue, comment: object, ...where(ctx, scope) }),
	});
}
