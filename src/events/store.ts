/**
 * Prepared statements of the domain-event log (the `events` table): one row per state change that
 * GitHub reports as an activity event, a notification or a webhook, written in the transaction of
 * the change (src/events/log.ts). Rows with a feed_type are the activity feeds' entries.
 */
import type { DB } from '../db/open';

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
	/** The feed payload as it was (JSON), for feed events. */
	payload: string | null;
	/** ISO timestamp. */
	created_at: string;
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
		INSERT INTO events (event, action, actor_id, repo_id, repo_name, org_id, public, feed_type, payload, created_at)
		VALUES (@event, @action, @actor_id, @repo_id, @repo_name, @org_id, @public, @feed_type, @payload, @created_at)`);
	const prune = db.prepare('DELETE FROM events WHERE created_at < ?');
	const hide = db.prepare('UPDATE events SET public = 0 WHERE repo_id = ? AND public = 1');
	const latest = db.prepare('SELECT max(id) FROM events').pluck();
	const privateRepos = db
		.prepare('SELECT DISTINCT repo_id FROM events WHERE actor_id = @actorId AND public = 0 AND feed_type IS NOT NULL AND repo_id IS NOT NULL AND created_at >= @since')
		.pluck();
	const privateOrgRepos = db
		.prepare('SELECT DISTINCT repo_id FROM events WHERE org_id = @orgId AND public = 0 AND feed_type IS NOT NULL AND repo_id IS NOT NULL AND created_at >= @since')
		.pluck();
	// One statement for every feed: each condition is off (NULL parameter) or on. The parameters are
	// JSON arrays where a feed names several repositories.
	const WHERE = `
		feed_type IS NOT NULL AND created_at >= @since
		AND (@repoIds IS NULL OR repo_id IN (SELECT value FROM json_each(@repoIds)))
		AND (@orgId IS NULL OR org_id = @orgId)
		AND (@actorId IS NULL OR actor_id = @actorId)
		AND (public = 1 OR (@publicOnly = 0 AND (@readable IS NULL OR repo_id IN (SELECT value FROM json_each(@readable)))))`;
	const page = db.prepare(`SELECT * FROM events WHERE ${WHERE} ORDER BY id DESC LIMIT @limit OFFSET @offset`);
	const count = db.prepare(`SELECT count(*) FROM (SELECT 1 FROM events WHERE ${WHERE} LIMIT @cap)`).pluck();
	const newest = db.prepare(`SELECT max(id) FROM (SELECT id FROM events WHERE ${WHERE} ORDER BY id DESC LIMIT 1)`).pluck();
	const params = (filter: FeedFilter) => ({
		since: filter.since,
		repoIds: filter.repoIds ? JSON.stringify(filter.repoIds) : null,
		orgId: filter.orgId ?? null,
		actorId: filter.actorId ?? null,
		publicOnly: filter.publicOnly ? 1 : 0,
		readable: filter.readableRepoIds ? JSON.stringify(filter.readableRepoIds) : null,
		cap: filter.cap,
	});

	return {
		/** @returns the new event's id */
		insert: (row: Omit<EventRow, 'id'>) => Number(insert.run(row).lastInsertRowid),
		/** A repository was made private: its past events leave the public feeds. */
		hideRepository: (repoId: number) => void hide.run(repoId),
		/** Deletes events older than `before` (ISO timestamp). @returns rows deleted */
		prune: (before: string) => prune.run(before).changes,
		/** The newest event id of the whole log (0 when empty). */
		latestId: () => (latest.get() as number | null) ?? 0,
		/** One page of a feed, newest first, within its cap; and how many events it holds. */
		feed(filter: FeedFilter, limit: number, offset: number): { rows: EventRow[]; total: number } {
			const p = params(filter);
			const within = Math.max(0, Math.min(limit, filter.cap - offset));
			const rows = within === 0 ? [] : (page.all({ ...p, limit: within, offset }) as EventRow[]);
			return { rows, total: count.get(p) as number };
		},
		/** Repositories of an actor's private feed events since `since` (candidates for what a reader may see). */
		privateReposOfActor: (actorId: number, since: string) => privateRepos.all({ actorId, since }) as number[],
		/** Repositories of an organization's private feed events since `since`. */
		privateReposOfOrg: (orgId: number, since: string) => privateOrgRepos.all({ orgId, since }) as number[],
		/** The newest event id a feed shows (0 when none): its version, for ETags. */
		newestId: (filter: FeedFilter) => (newest.get(params(filter)) as number | null) ?? 0,
	};
}
