/**
 * Who a change notifies, in one rule (the recipient rule of GitHub's notifications, as Gitea keeps
 * it in one tested function): the users the change names (mentioned, assigned: `involved`), and
 * when the change reaches everyone following the thread, the repository's watchers (reason
 * subscribed) and the thread's participants (their own standing, or the change's participant
 * reason: state_change). Then never the actor, never an account that is not a user, never a user
 * who cannot read the repository (but the invitee of a repository invitation, reason invitation),
 * nobody who ignores the repository, and nobody who ignores the thread unless this change
 * mentions them.
 */
import type { App } from '../app';
import { userRepoPermission } from '../auth/access/repos';
import type { AccountRow, RepositoryRow, ThreadRow } from '../model/rows';
import type { NotificationActivity, NotificationReason } from '../model/notifications';

/**
 * The users watching a repository (GET/PUT /repos/{owner}/{repo}/subscription with `subscribed`),
 * who are notified of every new issue, comment and state change in it (reason subscribed).
 * Creating a repository subscribes its creator, as GitHub does.
 */
export function repositoryWatchers(app: App, repoId: number): number[] {
	return app.stores.subscriptions.subscriberIds(repoId).map((row) => row.user_id);
}

/** Whether a user reads a repository (whatever token they use later: the user's own standing). */
export function userReads(app: App, repo: RepositoryRow, owner: AccountRow, userId: number): boolean {
	return userRepoPermission(app, repo, owner, userId) !== null;
}

/** One user a change notifies: their thread so far (if any) and the reasons this change gives them. */
export interface Recipient {
	userId: number;
	thread: ThreadRow | undefined;
	/** Reasons from this change (may be empty for a participant: their standing decides). */
	reasons: NotificationReason[];
}

/**
 * The users a change notifies.
 * @param threads every thread of the subject so far, by user id (its participants follow it: subscribed = 1)
 * @param watchers the repository's watchers (repositoryWatchers), read when `activity.broadcast`
 * @param actorId who made the change: never notified (unless `activity.notifyActor`)
 */
export function recipients(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	threads: ReadonlyMap<number, ThreadRow>,
	watchers: readonly number[],
	activity: NotificationActivity,
	actorId: number | null,
): Recipient[] {
	const { accounts } = app.stores;
	const wanted = new Map<number, Set<NotificationReason>>();
	const want = (userId: number, reason: NotificationReason | null) => {
		let reasons = wanted.get(userId);
		if (!reasons) wanted.set(userId, (reasons = new Set()));
		if (reason) reasons.add(reason);
	};
	for (const { userId, reason } of activity.involved) want(userId, reason);
	if (activity.broadcast) {
		for (const userId of watchers) want(userId, 'subscribed');
		for (const thread of threads.values()) if (thread.subscribed) want(thread.user_id, activity.participantReason ?? null);
	}
	if (actorId !== null && !activity.notifyActor) wanted.delete(actorId);
	if (wanted.size === 0) return [];
	const users = accounts.mapByIds(wanted.keys());

	const out: Recipient[] = [];
	for (const [userId, reasons] of wanted) {
		if (users.get(userId)?.type !== 'User') continue;
		const thread = threads.get(userId);
		// Ignoring a thread mutes it until the user comments or is mentioned again.
		if (thread?.ignored && !reasons.has('mention')) continue;
		// Ignoring a repository (its subscription with `ignored`) mutes all of it: GitHub's "never be notified".
		if (app.stores.subscriptions.get(userId, repo.id)?.ignored) continue;
		// Everyone reads a public repository; a private one is asked per user. An invitation is
		// addressed to someone who cannot read the repository yet: it reaches its invitee regardless.
		if (repo.visibility !== 'public' && !reasons.has('invitation') && !userReads(app, repo, owner, userId)) continue;
		out.push({ userId, thread, reasons: [...reasons] });
	}
	return out;
}
