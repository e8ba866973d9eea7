/**
 * Prepared statements for repository subscriptions (GitHub's watching): whether a user watches a
 * repository (subscribed) or ignores its notifications (ignored). A subscription that is neither
 * still exists until it is deleted. repositories.subscribers_count follows the subscribed rows by
 * triggers (schema.sql).
 */
import type { DB } from '../../db/open';
import type { ListedRepository } from '../repos/store';
import type { AccountRow } from '../../model/rows';

export interface SubscriptionRow {
	user_id: number;
	repo_id: number;
	/** 1: watching (notified of all activity). */
	subscribed: number;
	/** 1: every notification of the repository is blocked; never together with subscribed. */
	ignored: number;
	/** ISO timestamp: when the subscription was first made. */
	created_at: string;
}

/** A watcher: the account and when it subscribed (`at`, ISO timestamp). */
export type Subscriber = AccountRow & { at: string };

export type SubscriptionStore = ReturnType<typeof createSubscriptionStore>;

/** Prepares the repository-subscription statements on `db` (once per open database, src/api/stores.ts). */
export function createSubscriptionStore(db: DB) {
	const get = db.prepare('SELECT * FROM repository_subscriptions WHERE user_id = ? AND repo_id = ?');
	// Setting keeps the first created_at: changing how one watches does not make a new subscription.
	const upsert = db.prepare(`
		INSERT INTO repository_subscriptions (user_id, repo_id, subscribed, ignored, created_at) VALUES (@userId, @repoId, @subscribed, @ignored, @now)
		ON CONFLICT (user_id, repo_id) DO UPDATE SET subscribed = excluded.subscribed, ignored = excluded.ignored`);
	const remove = db.prepare('DELETE FROM repository_subscriptions WHERE user_id = ? AND repo_id = ?');
	const watchedBy = db.prepare(`
		SELECT r.id AS repo_id, r.owner_id, r.visibility, w.created_at AS at FROM repository_subscriptions w JOIN repositories r ON r.id = w.repo_id
		WHERE w.user_id = ? AND w.subscribed = 1 ORDER BY w.created_at, r.id`);
	const subscriberPage = db.prepare(`
		SELECT a.*, w.created_at AS at FROM repository_subscriptions w JOIN accounts a ON a.id = w.user_id
		WHERE w.repo_id = ? AND w.subscribed = 1 ORDER BY w.created_at, w.user_id LIMIT ? OFFSET ?`);
	const subscriberCount = db.prepare('SELECT count(*) FROM repository_subscriptions WHERE repo_id = ? AND subscribed = 1').pluck();
	const subscriberIds = db.prepare(
		'SELECT user_id, created_at AS at FROM repository_subscriptions WHERE repo_id = ? AND subscribed = 1 ORDER BY created_at, user_id',
	);

	return {
		get: (userId: number, repoId: number) => get.get(userId, repoId) as SubscriptionRow | undefined,
		/**
		 * Creates or changes the user's subscription; ignoring wins over watching (GitHub answers
		 * `subscribed: false` for an ignored repository).
		 * @param now ISO timestamp (created_at of a new subscription)
		 * @returns the stored subscription
		 */
		set(userId: number, repoId: number, wanted: { subscribed: boolean; ignored: boolean }, now: string): SubscriptionRow {
			upsert.run({ userId, repoId, subscribed: wanted.subscribed && !wanted.ignored ? 1 : 0, ignored: wanted.ignored ? 1 : 0, now });
			return get.get(userId, repoId) as SubscriptionRow;
		},
		/** Deletes the user's subscription. @returns whether there was one */
		remove: (userId: number, repoId: number) => remove.run(userId, repoId).changes > 0,
		/** Every repository the user watches, oldest subscription first (ties by repository id). */
		watchedBy: (userId: number) => watchedBy.all(userId) as ListedRepository[],
		/** One page of the repository's watchers, oldest subscription first. */
		subscriberPage: (repoId: number, limit: number, offset: number) => subscriberPage.all(repoId, limit, offset) as Subscriber[],
		subscriberCount: (repoId: number) => subscriberCount.get(repoId) as number,
		/** Every watcher's id with when it subscribed, oldest first. */
		subscriberIds: (repoId: number) => subscriberIds.all(repoId) as Array<{ user_id: number; at: string }>,
	};
}
