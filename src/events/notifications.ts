/**
 * The notifications subscriber of the domain-event log. record() (src/events/log.ts) stores an
 * event's `notification` part with the event row, inside the transaction of the change, and
 * nothing more; the threads are derived by a pass over the events of a whole commit, not by each
 * change: a pass (deriveNotificationsPending, once per commit: in the server's group-commit mode at
 * the end of the turn's group, inside it, just before its commit, for all the turn's writes;
 * otherwise after the commit, in a transaction of its own) reads the events above a persisted
 * watermark (notification_watermark) in id order, writes their threads and moves the watermark,
 * all or nothing. A process stopped between a commit and its pass loses nothing:
 * the next pass (at start, or before any read of notifications) resumes from the watermark, and
 * a second process's events are derived the same way. Reads of notifications first catch up
 * (catchUpNotifications), so a thread shows right after the write that made it. Routes never write
 * notifications.
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
import type { AccountRow, RepositoryRow } from '../model/rows';
import type { NotificationActivity, NotificationReason } from '../model/notifications';
import { strongest } from '../model/notifications';
import { recipients, repositoryWatchers } from './recipients';
import type { ThreadRow } from '../model/rows';

/** Reasons that make the user follow the thread (watching the repository does not). */
const follows = (reason: NotificationReason) => reason !== 'subscribed';
/** Reasons that end ignoring a thread: the user commented or was mentioned (GitHub's rule). */
const unmutes = (reasons: readonly NotificationReason[]) => reasons.includes('comment') || reasons.includes('mention');

/** How many events one pass reads at most (a longer backlog is taken over several turns). */
const PASS_EVENTS = 500;

/** An event of the log with a notification part, as the pass derives from it. */
export interface NotificationEvent {
	id: number;
	actor_id: number | null;
	repo_id: number | null;
	/** When it was recorded (ISO timestamp): the threads' updated_at. */
	created_at: string;
	activity: NotificationActivity;
}

interface PassState {
	/** A pass is scheduled (setImmediate) and has not run yet. */
	scheduled: boolean;
	/** The newest event id this process knows derived from (the watermark it last read or wrote). */
	derived: number;
	/** A pass is running (a read inside it must not start another). */
	running: boolean;
	/**
	 * The events with a notification part this process recorded since its last pass, in id order.
	 * The pass derives from them instead of reading the rows back when they are exactly the log's
	 * events above the watermark (no other process's, none rolled back); otherwise it reads the log.
	 */
	recorded: NotificationEvent[];
}

const passes = new WeakMap<App, PassState>();

function stateOf(app: App): PassState {
	let state = passes.get(app);
	if (!state) passes.set(app, (state = { scheduled: false, derived: -1, running: false, recorded: [] }));
	return state;
}

/**
 * Schedules the pass (record() calls it with an event it stored with a notification part, inside
 * the event's transaction): once per commit however many events the commit holds. In the server's
 * group-commit mode it runs at the end of the turn's group, inside it (Transaction.beforeCommit),
 * so the threads commit with their events in the group's one commit, before the answers waiting
 * for that commit are sent: a thread exists when its write is answered, and the recipient rule
 * sees the access rights of that moment.
 * Otherwise it runs when the current transaction has committed. A longer backlog continues on the
 * next turns (setImmediate).
 */
export function scheduleNotifications(app: App, event: NotificationEvent): void {
	const state = stateOf(app);
	// Bounded: past one pass's worth the pass reads the log instead (the list no longer matches it).
	if (state.recorded.length < PASS_EVENTS) state.recorded.push(event);
	schedulePass(app, state);
}

function schedulePass(app: App, state: PassState): void {
	if (state.scheduled) return;
	state.scheduled = true;
	const run = () => {
		state.scheduled = false;
		if (!app.db.open) return;
		if (deriveNotificationsPending(app) === PASS_EVENTS) setImmediate(() => schedulePass(app, state));
	};
	// In a group, at its end: the threads commit with the events they derive from, in its commit.
	if (!app.transaction.beforeCommit(run)) app.transaction.durable().then(run, run);
}

/**
 * Forgets the events recorded since the last pass (a rolled-back write may have stored some of
 * them): the next pass reads the log. The transaction layer's rollback hook calls it.
 */
export function forgetRecordedNotifications(app: App): void {
	const state = passes.get(app);
	if (state) state.recorded = [];
}

/**
 * One pass: derives the notification threads of at most PASS_EVENTS events above the watermark, in
 * id order, and moves the watermark past them, in one transaction. Never throws (a failure is
 * logged; the watermark stays, so the next pass tries those events again).
 * @returns how many events it read (PASS_EVENTS: more may wait)
 */
export function deriveNotificationsPending(app: App): number {
	const state = stateOf(app);
	if (state.running) return 0;
	state.running = true;
	try {
		return app.transaction(() => derivePass(app, state));
	} catch (error) {
		app.log.error('notification threads not derived', { error });
		return 0;
	} finally {
		state.running = false;
		state.recorded = [];
	}
}

/** The pass's work, inside its transaction; throws what a store throws. @returns events read */
function derivePass(app: App, state: PassState): number {
	const { events, repos, accounts } = app.stores;
	const after = events.notificationWatermark();
	const { last, read, derived } = pendingEvents(app, state.recorded, after);
	if (read === 0) {
		state.derived = after;
		return 0;
	}
	// One read of each repository and owner per pass.
	const repositories = new Map<number, { repo: RepositoryRow; owner: AccountRow } | null>();
	const pass = newPass(app);
	for (const event of derived) {
		if (event.repo_id === null) continue;
		let found = repositories.get(event.repo_id);
		if (found === undefined) {
			const repo = repos.byId(event.repo_id);
			const owner = repo && accounts.byId(repo.owner_id);
			repositories.set(event.repo_id, (found = repo && owner ? { repo, owner } : null));
		}
		if (found) deriveNotifications(app, pass, found.repo, found.owner, event.actor_id, event.activity, event.created_at);
	}
	app.stores.notifications.saveThreads([...pass.dirty.values()]);
	events.setNotificationWatermark(last);
	state.derived = last;
	return read;
}

/**
 * The events above the watermark `after` a pass derives from (at most PASS_EVENTS of the log's
 * events, those with a notification part): the ones this process recorded since its last pass when
 * they are exactly those (checked against the log's ids: no other process's event among them, none
 * rolled back), else read back from the log.
 * @returns the newest event id read (the next watermark), how many were read, and the events
 */
function pendingEvents(
	app: App,
	recorded: readonly NotificationEvent[],
	after: number,
): { last: number; read: number; derived: readonly NotificationEvent[] } {
	const { events } = app.stores;
	const ids = events.notificationIdsAfter(after, PASS_EVENTS);
	if (ids.length === 0) return { last: after, read: 0, derived: [] };
	let first = 0;
	while (first < recorded.length && recorded[first].id <= after) first++;
	let next = first;
	for (const [id, notified] of ids) {
		if (notified === 0) continue;
		if (next === recorded.length || recorded[next].id !== id) {
			next = -1;
			break;
		}
		next++;
	}
	const last = ids[ids.length - 1][0];
	if (next === recorded.length) return { last, read: ids.length, derived: first === 0 ? recorded : recorded.slice(first) };
	const rows = events.notificationsAfter(after, PASS_EVENTS);
	const derived: NotificationEvent[] = [];
	for (const row of rows)
		if (row.notification !== null) derived.push({ ...row, activity: JSON.parse(row.notification) as NotificationActivity });
	return { last: rows.length ? rows[rows.length - 1].id : after, read: rows.length, derived };
}

/**
 * Derives what is still pending before notifications are read or marked (the REST lists and
 * threads, the web page, the mark-read task), so a thread shows right after the write that made
 * it, whichever process wrote. Costs one index lookup when nothing is pending.
 */
export function catchUpNotifications(app: App): void {
	const state = stateOf(app);
	if (state.running) return;
	const latest = app.stores.events.latestId();
	if (latest === state.derived) return;
	while (deriveNotificationsPending(app) === PASS_EVENTS);
	// Nothing derived but the log's newest id moved below what was known (newest events deleted).
	if (state.derived !== latest) state.derived = app.stores.events.notificationWatermark();
}

/**
 * What one pass reads once and writes once: each repository's watchers and each subject's threads
 * are read on first use and kept in memory for the pass (the pass's own changes applied), and the
 * threads it changes are written together at its end (multi-row upserts).
 */
interface Pass {
	watchers(repoId: number): readonly number[];
	/** Every thread of the subject, by user id, as the pass has left it so far. */
	threads(subjectId: number): Map<number, ThreadRow>;
	save(row: Omit<ThreadRow, 'id'> & { id?: number }): void;
	/** The threads to write, by `user_id:subject_id`. */
	dirty: Map<string, Omit<ThreadRow, 'id'>>;
}

function newPass(app: App): Pass {
	const watchers = new Map<number, readonly number[]>();
	const threads = new Map<number, Map<number, ThreadRow>>();
	const dirty = new Map<string, Omit<ThreadRow, 'id'>>();
	const threadsOf = (subjectId: number) => {
		let known = threads.get(subjectId);
		if (!known) {
			known = new Map();
			for (const row of app.stores.notifications.threadsOfSubject(subjectId)) known.set(row.user_id, row);
			threads.set(subjectId, known);
		}
		return known;
	};
	return {
		watchers(repoId) {
			let ids = watchers.get(repoId);
			if (!ids) watchers.set(repoId, (ids = repositoryWatchers(app, repoId)));
			return ids;
		},
		threads: threadsOf,
		save(row) {
			// Named field by field (an object spread or rest makes a new map each time in V8 here);
			// the saved row carries its id, which saveThreads does not write.
			const thread: ThreadRow = {
				id: row.id ?? 0,
				user_id: row.user_id,
				subject_id: row.subject_id,
				repository_id: row.repository_id,
				reason: row.reason,
				standing: row.standing,
				subscribed: row.subscribed,
				ignored: row.ignored,
				subscribed_at: row.subscribed_at,
				unread: row.unread,
				done: row.done,
				updated_at: row.updated_at,
				last_read_at: row.last_read_at,
			};
			threadsOf(row.subject_id).set(row.user_id, thread);
			dirty.set(`${row.user_id}:${row.subject_id}`, thread);
		},
		dirty,
	};
}

/**
 * Derives the notification threads of one event in `repo` (owned by `owner`) by `actorId` (null:
 * the command line), recorded at `at` (ISO timestamp: the threads' updated_at). The pass calls it,
 * inside its transaction, in event order.
 */
function deriveNotifications(
	app: App,
	pass: Pass,
	repo: RepositoryRow,
	owner: AccountRow,
	actorId: number | null,
	activity: NotificationActivity,
	at: string,
): void {
	const { notifications, accounts } = app.stores;
	const now = at;
	const subjectId = notifications.upsertSubject(repo.id, activity.subject);
	if (activity.subject.withdrawnCommentPath) notifications.withdrawComment(subjectId, activity.subject.withdrawnCommentPath);

	// The actor's own part: kept for their later notifications, never notified.
	if (actorId !== null && !activity.notifyActor && accounts.byId(actorId)?.type === 'User') {
		const part = [activity.actorReason, ...activity.involved.filter((i) => i.userId === actorId).map((i) => i.reason)].filter(
			(reason): reason is NotificationReason => reason !== undefined,
		);
		if (part.length) {
			const thread = pass.threads(subjectId).get(actorId);
			pass.save({
				...(thread ?? fresh(actorId, subjectId, repo.id)),
				standing: strongest(thread?.standing, ...part),
				subscribed: 1,
				ignored: thread?.ignored && !unmutes(part) ? 1 : 0,
				subscribed_at: thread?.subscribed ? thread.subscribed_at : now,
			});
		}
	}

	const threads = pass.threads(subjectId);
	const watchers = activity.broadcast ? pass.watchers(repo.id) : [];
	for (const { userId, thread, reasons } of recipients(app, repo, owner, threads, watchers, activity, actorId)) {
		const reason = strongest(thread?.standing, ...reasons);
		if (!reason) continue;
		const follow = reasons.some(follows);
		const base = thread ?? fresh(userId, subjectId, repo.id);
		pass.save({
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
