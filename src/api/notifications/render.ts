/**
 * Notification shapes: GitHub's notification `thread` and GitHub's
 * thread-subscription object. URLs are built at read time from the repository's current name and
 * the configured external URL (subjects keep paths below the repository).
 */
import type { Urls } from '../../model/urls';
import { repository } from '../../model/render';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import type { ThreadView } from './store';
import type { ThreadRow } from '../../model/rows';

/** {base}/notifications/threads/<id> */
export const threadUrl = (urls: Urls, id: number) => urls.api(`/notifications/threads/${id}`);

/**
 * A NotificationThread: id (a string), repository (the repository record with every link
 * template), subject {title, url, latest_comment_url, type}, reason, unread, updated_at,
 * last_read_at, url, subscription_url.
 */
export function notificationThread(urls: Urls, view: ThreadView, repo: RepositoryRow, owner: AccountRow) {
	const repositoryApi = urls.api(`/repos/${owner.login}/${repo.name}`);
	const url = threadUrl(urls, view.id);
	return {
		id: String(view.id),
		repository: repository(urls, repo, owner, null),
		subject: {
			title: view.subject_title,
			url: view.subject_path === null ? null : repositoryApi + view.subject_path,
			latest_comment_url: view.subject_latest_comment_path === null ? null : repositoryApi + view.subject_latest_comment_path,
			type: view.subject_type,
		},
		reason: view.reason,
		unread: view.unread === 1,
		updated_at: view.updated_at,
		last_read_at: view.last_read_at,
		url,
		subscription_url: `${url}/subscription`,
	};
}

/**
 * GitHub's thread subscription: {subscribed, ignored, reason, created_at, url, thread_url}.
 * `reason` is what the user follows the thread as (author, comment, mention, manual, ...) while
 * subscribed, null while ignoring it; created_at is when the subscription began.
 */
export function threadSubscription(urls: Urls, thread: ThreadRow) {
	const url = threadUrl(urls, thread.id);
	const subscribed = thread.subscribed === 1 && thread.ignored === 0;
	return {
		subscribed,
		ignored: thread.ignored === 1,
		reason: subscribed ? thread.standing : null,
		created_at: thread.subscribed_at,
		url: `${url}/subscription`,
		thread_url: url,
	};
}
