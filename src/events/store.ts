/**
 * Prepared statements of the domain-event log (the `events` table): one row per state change that
 * GitHub reports as an activity event, a notification or a webhook, written in the transaction of
 * the change (src/events/log.ts). Rows with a feed_type are the activity feeds' entries.
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from '../db/open';
import { expandOrigin } from '../model/json';

export interface EventRow {
	id: number;
	/** GitHub's webhook event name: issues, issue_comment, push, create, repository, member, ... */
	event: string;
	action: string | null;
	actor_id: number | null;
	repo_id: number | null;
	/** owner/name of the repository when the event happened (feeds show it). */
	repo_name: string | null;
	org_id: number | null;
	/** 1 when the event is public (a public repository's); private events reach readers only. */
	public: number;
	/** GitHub's activity Event type (IssuesEvent, PushEvent, ...); null for events feeds do not show. */
	feed_type: string | null;
	/**
	 * The feed payload as it was (JSON), for feed events. Stored with its origin written once
	 * (compactOrigin in src/model/json.ts); this store's reads give it back whole.
	 */
	payload: string | null;
	/** ISO timestamp. */
	created_at: string;
	/**
	 * What notification threads derive from it (a NotificationActivity as JSON), derived after the
	 * commit (src/events/notifications.ts); null: none.
	 */
	notification: string | null;
}

/** Which events a feed shows: all by constraint, newest first. */
export interface FeedFilter {
	/** Only public events (else: public ones and private ones of `readableRepoIds`, or all when null). */
	publicOnly: boolean;
	repoIds?: readonly number[];
	orgId?: number;
	actorId?: number;
	/** Private events of these repositories are shown too (the caller reads them). */
	readableRepoIds?: readonly number[] | null;
	/** ISO timestamp: nothing older is shown. */
	since: string;
	/** At most this many events in the whole timeline. */
	cap: number;
}

export type EventStore = ReturnType<typeof createEventStore>;

export function createEventStore(db: DB) {
	const insert = db.prepare(`
		INSERT INTO events (event, action, actor_id, repo_id, repo_name, org_id, public, feed_type, payload, created_at, notification)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
	const notificationsAfter = db.prepare(
		'SELECT id, actor_id, repo_id, notification, created_at FROM events WHERE id > ? ORDER BY id LIMIT ?',
	);
	const idsAfter = db.prepare('SELECT id, notification IS NOT NULL FROM events WHERE id > ? ORDER BY id LIMIT ?').raw();
	const watermark = db.prepare('SELECT event_id FROM notification_watermark WHERE id = 1').pluck();
	const setWatermark = db.prepare('UPDATE notification_watermark SET event_id = ? WHERE id = 1');
	const prune = db.prepare('DELETE FROM events WHERE created_at < ?');
	const hide = db.prepare('UPDATE events SET public = 0 WHERE repo_id = ? AND public = 1');
	const latest = db.prepare('SELECT max(id) FROM events').pluck();
	const privateRepos = db
		.prepare(
			'SELECT DISTINCT repo_id FROM events WHERE actor_id = @actorId AND public = 0 AND feed_type IS NOT NULL AND repo_id IS NOT NULL AND created_at >= @since',
		)
		.pluck();
	const privateOrgRepos = db
		.prepare(
			'SELECT DISTINCT repo_id FROM events WHERE org_id = @orgId AND public = 0 AND feed_type IS NOT NULL AND repo_id IS NOT NULL AND created_at >= @since',
		)
		.pluck();
	// Feeds: statements prepared per shape of filter (which conditions it has), so each plan uses
	// the index of its leading condition (events_repo, events_org, events_actor, events_public).
	const shapes = new Map<string, { page: Statement; count: Statement; newest: Statement }>();
	const statementsOf = (filter: FeedFilter) => {
		const conditions = ['feed_type IS NOT NULL', 'created_at >= @since'];
		let key = '';
		if (filter.repoIds?.length === 1) {
			conditions.push('repo_id = @repoId');
			key += 'r';
		} else if (filter.repoIds) {
			conditions.push('repo_id IN (SELECT value FROM json_each(@repoIds))');
			key += 'R';
		}
		if (filter.orgId !== undefined) {
			conditions.push('org_id = @orgId');
			key += 'o';
		}
		if (filter.actorId !== undefined) {
			conditions.push('actor_id = @actorId');
			key += 'a';
		}
		if (filter.publicOnly) {
			conditions.push('public = 1');
			key += 'p';
		} else if (filter.readableRepoIds) {
			conditions.push('(public = 1 OR repo_id IN (SELECT value FROM json_each(@readable)))');
			key += 'v';
		}
		let statements = shapes.get(key);
		if (!statements) {
			const where = conditions.join(' AND ');
			statements = {
				page: db.prepare(`SELECT * FROM events WHERE ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`),
				count: db.prepare(`SELECT count(*) FROM (SELECT 1 FROM events WHERE ${where} LIMIT @cap)`).pluck(),
				newest: db.prepare(`SELECT id FROM events WHERE ${where} ORDER BY id DESC LIMIT 1`).pluck(),
			};
			shapes.set(key, statements);
		}
		return statements;
	};
	const params = (filter: FeedFilter) => ({
		since: filter.since,
		repoId: filter.repoIds?.length === 1 ? filter.repoIds[0] : null,
		repoIds: filter.repoIds ? JSON.stringify(filter.repoIds) : null,
		orgId: filter.orgId ?? null,
		actorId: filter.actorId ?? null,
		readable: filter.readableRepoIds ? JSON.stringify(filter.readableRepoIds) : null,
		cap: filter.cap,
	});
	// What can take an event out of a feed without a newer one: deletions and hidings (counted by
	// triggers, whoever makes them), and time (the first event at or after the feed's horizon).
	const removed = db.prepare('SELECT removed FROM events_version WHERE id = 1').pluck();
	const horizon = db.prepare('SELECT id FROM events WHERE created_at >= ? ORDER BY created_at, id LIMIT 1').pluck();
	const payloadsWith = db.prepare('SELECT id, payload FROM events WHERE id > ? AND instr(payload, ?) > 0');
	const setPayload = db.prepare('UPDATE events SET payload = ? WHERE id = ?');

	return {
		/** @returns the new event's id */
		insert: (row: Omit<EventRow, 'id' | 'notification'> & { notification?: string | null }) =>
			// Positional parameters: binding by name costs a property lookup per column, on every write.
			Number(
				insert.run(
					row.event,
					row.action,
					row.actor_id,
					row.repo_id,
					row.repo_name,
					row.org_id,
					row.public,
					row.feed_type,
					row.payload,
					row.created_at,
					row.notification ?? null,
				).lastInsertRowid,
			),
		/** A repository was made private: its past events leave the public feeds. */
		hideRepository: (repoId: number) => void hide.run(repoId),
		/** Deletes events older than `before` (ISO timestamp). @returns rows deleted */
		prune: (before: string) => prune.run(before).changes,
		/** The feed payloads of the events after `afterId` whose text holds `text` (deferred parts: src/events/deferred.ts). */
		payloadsWith: (afterId: number, text: string) =>
			(payloadsWith.all(afterId, text) as Array<{ id: number; payload: string }>).map((row) => ({
				id: row.id,
				payload: expandOrigin(row.payload),
			})),
		/** Replaces an event's feed payload (JSON text). */
		setPayload: (id: number, payload: string) => void setPayload.run(payload, id),
		/**
		 * The events after `afterId`, oldest first, at most `limit`, with what notification threads
		 * derive from them (null for most).
		 */
		notificationsAfter: (afterId: number, limit: number) =>
			notificationsAfter.all(afterId, limit) as Array<Pick<EventRow, 'id' | 'actor_id' | 'repo_id' | 'notification' | 'created_at'>>,
		/**
		 * The same events as notificationsAfter, as `[id, 1 | 0]` pairs (1: it has a notification
		 * part), without reading their parts: what the notification pass checks its in-memory copy of
		 * the turn's events against.
		 */
		notificationIdsAfter: (afterId: number, limit: number) => idsAfter.all(afterId, limit) as Array<[number, 0 | 1]>,
		/** The newest event id whose notification threads are written (the watermark). */
		notificationWatermark: () => watermark.get() as number,
		/** Moves the notification watermark to event `id`. */
		setNotificationWatermark: (id: number) => void setWatermark.run(id),
		/** The newest event id of the whole log (0 when empty). */
		latestId: () => (latest.get() as number | null) ?? 0,
		/** One page of a feed, newest first, within its cap; and how many events it holds. */
		feed(filter: FeedFilter, limit: number, offset: number): { rows: EventRow[]; total: number } {
			const statements = statementsOf(filter);
			const p = params(filter);
			const within = Math.max(0, Math.min(limit, filter.cap - offset));
			const rows = within === 0 ? [] : (statements.page.all({ ...p, limit: within, offset }) as EventRow[]);
			for (const row of rows) if (row.payload !== null) row.payload = expandOrigin(row.payload);
			return { rows, total: statements.count.get(p) as number };
		},
		/** Repositories of an actor's private feed events since `since` (candidates for what a reader may see). */
		privateReposOfActor: (actorId: number, since: string) => privateRepos.all({ actorId, since }) as number[],
		/** Repositories of an organization's private feed events since `since`. */
		privateReposOfOrg: (orgId: number, since: string) => privateOrgRepos.all({ orgId, since }) as number[],
		/**
		 * A feed's version, for ETags: its newest event, the count of events ever deleted or hidden
		 * (pruned, their repository deleted or made private), and the first event inside the time
		 * horizon. A feed changes only by a newer event, a removal or the horizon passing an event, so
		 * equal versions of one filter mean equal feeds; three index lookups, no scan.
		 */
		version: (filter: FeedFilter) =>
			`${(statementsOf(filter).newest.get(params(filter)) as number | undefined) ?? 0}:${removed.get() as number}:${(horizon.get(filter.since) as number | undefined) ?? 0}`,
	};
}
