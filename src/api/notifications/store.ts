/**
 * Prepared statements of notifications: subjects (what a thread is about, one row per object) and
 * threads (one per user and subject). The notifications subscriber of the event log writes them
 * after the commit of each change (src/events/notifications.ts); the routes read them and mark
 * them read, done or (un)subscribed. A thread row exists as soon as the user takes part in its
 * subject (their participation is kept for later notifications) and shows in the lists from its
 * first notification on (updated_at set).
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from '../../db/open';
import type { RepositoryRow, ThreadRow } from '../../model/rows';
import type { NotificationSubject } from '../../model/notifications';

export interface SubjectRow {
	id: number;
	repository_id: number;
	type: NotificationSubject['type'];
	/** The object's own id within its type (issues.id). */
	subject_id: number;
	title: string;
	/** API path below the repository; null: none. */
	path: string | null;
	latest_comment_path: string | null;
}

/** A thread with its subject, as the lists and the thread routes render it. */
export type ThreadView = ThreadRow & {
	subject_type: SubjectRow['type'];
	/** The subject's own id within its type (an issue's id, an invitation's id). */
	subject_object_id: number;
	subject_title: string;
	subject_path: string | null;
	subject_latest_comment_path: string | null;
};

/** Filters of the thread lists (GET /notifications, GET /repos/{owner}/{repo}/notifications). */
export interface ThreadFilter {
	userId: number;
	/** Repositories whose threads may show (the user reads them). */
	repoIds: readonly number[];
	/**
	 * The user's open repository invitations (ids): their RepositoryInvitation threads show whatever
	 * the user reads (an invitee reads a private repository only once they accept).
	 */
	invitationIds: readonly number[];
	/** Include read threads. */
	all: boolean;
	/** Only threads whose reason is a direct involvement. */
	participating: boolean;
	/** ISO timestamps: updated at or after `since`, before `before`. */
	since: string | null;
	before: string | null;
}

/** Which threads PUT /notifications marks: a user's, optionally of one repository, updated at or before a time. */
export interface MarkFilter {
	userId: number;
	repoId: number | null;
	/** ISO timestamp. */
	lastReadAt: string;
	/** true: mark read; false: mark unread. */
	read: boolean;
}

export type NotificationStore = ReturnType<typeof createNotificationStore>;

export function createNotificationStore(db: DB) {
	// Looked up, then inserted or updated: an upsert with RETURNING runs through a temporary table.
	const subjectId = db.prepare('SELECT id FROM notification_subjects WHERE type = ? AND subject_id = ?').pluck();
	const insertSubject = db.prepare(`
		INSERT INTO notification_subjects (repository_id, type, subject_id, title, path, latest_comment_path)
		VALUES (?, ?, ?, ?, ?, ?)`);
	const updateSubject = db.prepare(`
		UPDATE notification_subjects SET repository_id = ?, title = ?, path = ?,
			latest_comment_path = CASE WHEN ? = 1 THEN latest_comment_path ELSE ? END
		WHERE id = ?`);
	const withdrawComment = db.prepare(
		'UPDATE notification_subjects SET latest_comment_path = path WHERE id = ? AND latest_comment_path = ?',
	);
	const threadsOfSubject = db.prepare('SELECT * FROM notification_threads WHERE subject_id = ?');
	const THREAD_COLUMNS = [
		'user_id',
		'subject_id',
		'repository_id',
		'reason',
		'standing',
		'subscribed',
		'ignored',
		'subscribed_at',
		'unread',
		'done',
		'updated_at',
		'last_read_at',
	] as const;
	/** Multi-row upserts of threads, by row count (at most SAVE_ROWS rows a statement). */
	const SAVE_ROWS = 64;
	const upserts = new Map<number, Statement>();
	const upsertRows = (count: number) => {
		let statement = upserts.get(count);
		if (!statement) {
			const row = `(${THREAD_COLUMNS.map(() => '?').join(', ')})`;
			statement = db.prepare(`
				INSERT INTO notification_threads (${THREAD_COLUMNS.join(', ')})
				VALUES ${Array.from({ length: count }, () => row).join(', ')}
				ON CONFLICT (user_id, subject_id) DO UPDATE SET
					repository_id = excluded.repository_id, reason = excluded.reason, standing = excluded.standing,
					subscribed = excluded.subscribed, ignored = excluded.ignored, subscribed_at = excluded.subscribed_at,
					unread = excluded.unread, done = excluded.done, updated_at = excluded.updated_at, last_read_at = excluded.last_read_at`);
			upserts.set(count, statement);
		}
		return statement;
	};
	const VIEW = `
		SELECT t.*, s.type AS subject_type, s.subject_id AS subject_object_id, s.title AS subject_title, s.path AS subject_path,
			s.latest_comment_path AS subject_latest_comment_path
		FROM notification_threads t JOIN notification_subjects s ON s.id = t.subject_id`;
	const byId = db.prepare(`${VIEW} WHERE t.id = ? AND t.user_id = ? AND t.updated_at IS NOT NULL`);
	// Lists: the user's notified threads, done ones left out, of the repositories they read.
	const WHERE = `
		t.user_id = @userId AND t.updated_at IS NOT NULL AND t.done = 0
		AND (t.repository_id IN (SELECT value FROM json_each(@repoIds))
			OR t.subject_id IN (SELECT id FROM notification_subjects
				WHERE type = 'RepositoryInvitation' AND subject_id IN (SELECT value FROM json_each(@invitationIds))))
		AND (@all = 1 OR t.unread = 1)
		AND (@participating = 0 OR t.reason NOT IN ('subscribed', 'manual'))
		AND (@since IS NULL OR t.updated_at >= @since)
		AND (@before IS NULL OR t.updated_at < @before)`;
	const page = db.prepare(`${VIEW} WHERE ${WHERE} ORDER BY t.updated_at DESC, t.id DESC LIMIT @limit OFFSET @offset`);
	const count = db.prepare(`SELECT count(*) FROM notification_threads t WHERE ${WHERE}`).pluck();
	const newest = db.prepare(`SELECT max(t.updated_at) FROM notification_threads t WHERE ${WHERE}`).pluck();
	const newestOfUser = db
		.prepare(`SELECT max(updated_at) FROM notification_threads
			WHERE user_id = @userId AND repository_id IN (SELECT value FROM json_each(@repoIds))`)
		.pluck();
	const repositories = db.prepare(`
		SELECT * FROM repositories WHERE id IN (
			SELECT DISTINCT repository_id FROM notification_threads WHERE user_id = ? AND updated_at IS NOT NULL)`);

	const MARK = `
		user_id = @userId AND (@repoId IS NULL OR repository_id = @repoId) AND updated_at IS NOT NULL
		AND updated_at <= @lastReadAt AND unread = @from`;
	const countMarkable = db.prepare(`SELECT count(*) FROM notification_threads WHERE ${MARK}`).pluck();
	const markBatch = db.prepare(`
		UPDATE notification_threads SET unread = 1 - @from, last_read_at = CASE WHEN @from = 1 THEN @lastReadAt ELSE last_read_at END
		WHERE id IN (SELECT id FROM notification_threads WHERE ${MARK} LIMIT @limit)`);
	const markRead = db.prepare('UPDATE notification_threads SET unread = 0, last_read_at = ? WHERE id = ?');
	const markDone = db.prepare(
		'UPDATE notification_threads SET done = 1, unread = 0, last_read_at = CASE WHEN unread = 1 THEN @now ELSE last_read_at END WHERE id = @id',
	);
	const setSubscription = db.prepare(`
		UPDATE notification_threads SET subscribed = @subscribed, ignored = @ignored, subscribed_at = @subscribed_at, standing = @standing
		WHERE id = @id`);

	const listParams = (filter: ThreadFilter) => ({
		userId: filter.userId,
		repoIds: JSON.stringify(filter.repoIds),
		invitationIds: JSON.stringify(filter.invitationIds),
		all: filter.all ? 1 : 0,
		participating: filter.participating ? 1 : 0,
		since: filter.since,
		before: filter.before,
	});
	const markParams = (filter: MarkFilter) => ({
		userId: filter.userId,
		repoId: filter.repoId,
		lastReadAt: filter.lastReadAt,
		from: filter.read ? 1 : 0,
	});

	return {
		/**
		 * Creates or refreshes a subject (title, path; the latest comment unless the subject leaves it
		 * out). @returns its notification_subjects id
		 */
		upsertSubject(repositoryId: number, subject: NotificationSubject): number {
			const keep = subject.latestCommentPath === undefined;
			const latest = keep ? subject.path : subject.latestCommentPath;
			const id = subjectId.get(subject.type, subject.id) as number | undefined;
			if (id === undefined)
				return Number(
					insertSubject.run(repositoryId, subject.type, subject.id, subject.title, subject.path, latest).lastInsertRowid,
				);
			updateSubject.run(repositoryId, subject.title, subject.path, keep ? 1 : 0, latest, id);
			return id;
		},
		/** Points latest_comment_url back at the subject when it named the comment at `path`. */
		withdrawComment: (subjectId: number, path: string) => void withdrawComment.run(subjectId, path),
		/** Every thread of a subject (followed or not). */
		threadsOfSubject: (subjectId: number) => threadsOfSubject.all(subjectId) as ThreadRow[],
		/** Writes whole thread rows (insert or update by user and subject), SAVE_ROWS to a statement. */
		saveThreads(rows: ReadonlyArray<Omit<ThreadRow, 'id'>>): void {
			for (let start = 0; start < rows.length; start += SAVE_ROWS) {
				const chunk = rows.slice(start, start + SAVE_ROWS);
				const values: unknown[] = [];
				for (const row of chunk) for (const column of THREAD_COLUMNS) values.push(row[column]);
				upsertRows(chunk.length).run(values);
			}
		},
		/** One of the user's notified threads with its subject (any repository: the caller checks access). */
		view: (id: number, userId: number) => byId.get(id, userId) as ThreadView | undefined,
		/** One page of a thread list, newest first, with the number of threads it holds. */
		list(filter: ThreadFilter, limit: number, offset: number): { rows: ThreadView[]; total: number } {
			const params = listParams(filter);
			return { rows: page.all({ ...params, limit, offset }) as ThreadView[], total: count.get(params) as number };
		},
		/**
		 * The list's Last-Modified (ISO timestamp): the newest updated_at among the threads the filter
		 * matches, else among all of the user's threads in those repositories; null when there are none.
		 */
		lastModified(filter: ThreadFilter): string | null {
			const params = listParams(filter);
			return (
				(newest.get(params) as string | null) ??
				(newestOfUser.get({ userId: params.userId, repoIds: params.repoIds }) as string | null)
			);
		},
		/** The repositories of the user's notified threads (to decide which the user still reads). */
		repositoriesOf: (userId: number) => repositories.all(userId) as RepositoryRow[],
		/** How many threads a mark would change. */
		countMarkable: (filter: MarkFilter) => countMarkable.get(markParams(filter)) as number,
		/** Marks at most `limit` of the threads the filter matches. @returns threads changed */
		markBatch: (filter: MarkFilter, limit: number) => markBatch.run({ ...markParams(filter), limit }).changes,
		/** @param now ISO timestamp */
		markRead: (id: number, now: string) => void markRead.run(now, id),
		/** Marks a thread done (and read). @param now ISO timestamp */
		markDone: (id: number, now: string) => void markDone.run({ id, now }),
		/** Sets a thread's subscription (and the standing a manual subscription raises). */
		setSubscription: (id: number, values: Pick<ThreadRow, 'subscribed' | 'ignored' | 'subscribed_at' | 'standing'>) =>
			void setSubscription.run({ id, ...values }),
	};
}
