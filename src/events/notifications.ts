/**
 * The notifications subscriber of the domain-event log: record() (src/events/log.ts) hands it every
 * event that carries a `notification` part, inside the transaction of the change, and it derives
 * the notification threads from it. Routes never write notifications; a crash after the commit
 * loses none.
 *
 * For one event: the subject is created or refreshed (title, latest comment); the actor's part in
 * it (author, commenter, assignee, state change) is kept on the actor's thread, without a
 * notification; every recipient (src/events/recipients.ts) gets the thread marked
 * unread and updated, with the reason rule applied: the new reason is the strongest of what the
 * user already is to the thread and what this change makes them (REASONS in
 * src/model/notifications.ts), so it changes only when a later notification has a different,
 * stronger reason, and never falls back.
 */
import type { App } from '../app';
import type { RepositoryRow } from '../model/rows';
import type { NotificationActivity, NotificationReason } from '../model/notifications';
import { strongest } from '../model/notifications';
import { recipients } from './recipients';
import type { ThreadRow } from '../model/rows';
import { isoSeconds } from '../time';

/** Reasons that make the user follow the thread (watching the repository does not). */
const follows = (reason: NotificationReason) => reason !== 'subscribed';
/** Reasons that end ignoring a thread: the user commented or was mentioned (GitHub's rule). */
const unmutes = (reasons: readonly NotificationReason[]) => reasons.includes('comment') || reasons.includes('mention');

/**
 * Derives the notification threads of one event in `repo` by `actorId` (null: the command line).
 * Call inside the transaction of the change (record() does).
 */
export function deriveNotifications(app: App, repo: RepositoryRow, actorId: number | null, activity: NotificationActivity): void {
	const { notifications, accounts } = app.stores;
	const owner = accounts.byId(repo.owner_id);
	if (!owner) return;
	const now = isoSeconds(app.clock());
	const subjectId = notifications.upsertSubject(repo.id, activity.subject);
	if (activity.subject.withdrawnCommentPath) notifications.withdrawComment(subjectId, activity.subject.withdrawnCommentPath);

	// The actor's own part: kept for their later notifications, never notified.
	if (actorId !== null && !activity.notifyActor && accounts.byId(actorId)?.type === 'User') {
		const part = [activity.actorReason, ...activity.involved.filter((i) => i.userId === actorId).map((i) => i.reason)].filter(
			(reason): reason is NotificationReason => reason !== undefined,
		);
		if (part.length) {
			const thread = notifications.thread(actorId, subjectId);
			notifications.saveThread({
				...(thread ?? fresh(actorId, subjectId, repo.id)),
				standing: strongest(thread?.standing, ...part),
				subscribed: 1,
				ignored: thread?.ignored && !unmutes(part) ? 1 : 0,
				subscribed_at: thread?.subscribed ? thread.subscribed_at : now,
			});
		}
	}

	for (const { userId, thread, reasons } of recipients(app, repo, owner, subjectId, activity, actorId)) {
		const reason = strongest(thread?.standing, ...reasons);
		if (!reason) continue;
		const follow = reasons.some(follows);
		const base = thread ?? fresh(userId, subjectId, repo.id);
		notifications.saveThread({
			...base,
			reason,
			standing: reason,
			subscribed: base.subscribed || follow ? 1 : 0,
			ignored: base.ignored && !unmutes(reasons) ? 1 : 0,
			subscribed_at: base.subscribed ? base.subscribed_at : follow ? now : null,
			unread: 1,
			done: 0,
			updated_at: now,
		});
	}
}

function fresh(userId: number, subjectId: number, repositoryId: number): Omit<ThreadRow, 'id'> {
	return {
		user_id: userId,
		subject_id: subjectId,
		repository_id: repositoryId,
		reason: null,
		standing: null,
		subscribed: 0,
		ignored: 0,
		subscribed_at: null,
		unread: 0,
		done: 0,
		updated_at: null,
		last_read_at: null,
	};
}
