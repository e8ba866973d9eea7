/**
 * Rules of the notification routes: which repositories' threads a user still sees (read at read
 * time, so losing access to a repository takes its threads out of every list at once), and
 * marking many threads read (PUT /notifications, PUT /repos/{owner}/{repo}/notifications): at
 * once when they are at most `notifications.mark_read_batch`, else in a background task that marks
 * them batch by batch (GitHub's 202 "…marked as read in the background").
 */
import type { App } from '../../app';
import { repositoryPermissions, type OwnedRepository } from '../../auth/access/repos';
import type { Principal } from '../../auth/principal';
import { PermanentTaskError } from '../../jobs/tasks';
import { userReads } from '../../events/recipients';
import { catchUpNotifications } from '../../events/notifications';
import type { MarkFilter, ThreadView } from './store';

/** Background task kind: marks a user's threads read (or unread) in batches; payload MarkFilter. */
export const MARK_READ_TASK = 'notifications-mark-read';

/** GitHub's 202 message when marking continues in the background. */
export const MARKING_IN_BACKGROUND =
	"Unread notifications couldn't be marked in a single request. Notifications are being marked as read in the background.";

/** Reaches private repositories: with it, the access rules answer with the user's own standing. */
const USER_STANDING_SCOPES: ReadonlySet<string> = new Set(['repo']);

/**
 * The repositories of the user's notified threads that the user still reads, by id. The user's own
 * standing decides, not the token's scopes: the routes take only classic tokens, which reach
 * every account, and the notifications scope lists the threads of private repositories the user
 * reads (as GitHub's does). Three queries whatever the number of repositories.
 */
export function readableRepositories(app: App, principal: Principal): Map<number, OwnedRepository> {
	catchUpNotifications(app);
	const repos = app.stores.notifications.repositoriesOf(principal.user!.id);
	if (repos.length === 0) return new Map();
	const owners = app.stores.accounts.mapByIds(repos.map((repo) => repo.owner_id));
	const owned = repos.flatMap((repo) => {
		const owner = owners.get(repo.owner_id);
		return owner ? [{ repo, owner }] : [];
	});
	const permissions = repositoryPermissions({ app, principal: { ...principal, scopes: USER_STANDING_SCOPES }, publicView: false }, owned);
	return new Map(owned.filter(({ repo }) => permissions.get(repo.id)).map((entry) => [entry.repo.id, entry]));
}

/**
 * The user's open repository invitations: their ids (whose RepositoryInvitation threads show
 * whatever the user reads) and their repositories by id (to render those threads).
 * @param now ISO timestamp: invitations expiring at or before it are closed
 */
export function invitationThreads(app: App, userId: number, now: string): { ids: number[]; repositories: Map<number, OwnedRepository> } {
	const invitations = app.stores.collaborators.openForInvitee(userId, now);
	const repositories = new Map<number, OwnedRepository>();
	for (const repo of app.stores.repos.byIds(invitations.map((row) => row.repo_id))) {
		const owner = app.stores.accounts.byId(repo.owner_id);
		if (owner) repositories.set(repo.id, { repo, owner });
	}
	return { ids: invitations.map((row) => row.id), repositories };
}

/**
 * The user's thread `threadId` in a repository the user reads, or of one of the user's open
 * repository invitations (GET/PATCH/DELETE /notifications/threads/{thread_id} and the web page's
 * buttons); undefined when it is not the user's or the user no longer reads its repository.
 * @param now ISO timestamp (invitations expiring at or before it are closed)
 */
export function userThread(
	app: App,
	userId: number,
	threadId: number,
	now: string,
): { view: ThreadView; repo: OwnedRepository } | undefined {
	catchUpNotifications(app);
	const view = app.stores.notifications.view(threadId, userId);
	if (!view) return undefined;
	const repo = app.stores.repos.byId(view.repository_id);
	const owner = repo && app.stores.accounts.byId(repo.owner_id);
	if (!repo || !owner) return undefined;
	const invited = () =>
		view.subject_type === 'RepositoryInvitation' && invitationThreads(app, userId, now).ids.includes(view.subject_object_id);
	if (!userReads(app, repo, owner, userId) && !invited()) return undefined;
	return { view, repo: { repo, owner } };
}

/**
 * Marks the threads the filter matches: at once (returns 'done') when they are at most
 * `notifications.mark_read_batch`, else queues MARK_READ_TASK (returns 'queued'). Call inside the
 * request's transaction, so the task exists exactly when the request succeeded.
 */
export function markThreads(app: App, filter: MarkFilter): 'done' | 'queued' {
	const batch = app.config.notifications.mark_read_batch;
	const { notifications } = app.stores;
	catchUpNotifications(app);
	if (notifications.countMarkable(filter) > batch) {
		app.tasks.enqueue(MARK_READ_TASK, filter);
		return 'queued';
	}
	notifications.markBatch(filter, -1);
	return 'done';
}

/** Handler of MARK_READ_TASK: marks `mark_read_batch` threads per transaction until none is left. */
export function runMarkReadTask(app: App, payload: unknown): void {
	const filter = payload as MarkFilter;
	if (typeof filter?.userId !== 'number' || typeof filter.lastReadAt !== 'string') throw new PermanentTaskError('malformed payload');
	const batch = Math.max(1, app.config.notifications.mark_read_batch);
	catchUpNotifications(app);
	for (;;) {
		const changed = app.transaction(() => app.stores.notifications.markBatch(filter, batch));
		if (changed < batch) return;
	}
}
