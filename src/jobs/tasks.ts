/**
 * Durable background work. `enqueue` writes a background_tasks row inside the caller's
 * transaction (so the work exists exactly when the change it belongs to does); the
 * `background-tasks` job runs due rows, each handler in turn, and a prompt run is scheduled right
 * after the request. A failed task is retried with exponential backoff up to `maxAttempts`, then
 * marked failed with its error. A crash between enqueue and run loses nothing: the row waits.
 */
import type { DB } from '../db/open';
import { PermanentTaskError } from '../model/errors';
import type { Logger } from '../log';
import { epochSeconds, type Clock } from '../time';

/**
 * Runs one task with the application it was registered on (`C`, the App); may be asynchronous
 * (file or network work). Throwing means "retry later".
 */
export type TaskHandler<C> = (context: C, payload: unknown, task: { id: number; attempts: number }) => void | Promise<void>;

/** What a queue needs: the connection, the clock (epoch ms), a log, and the context handlers receive. */
export interface TaskQueueDeps<C> {
	db: DB;
	clock: Clock;
	log: Logger;
	context(): C;
}

interface TaskRow {
	id: number;
	kind: string;
	payload: string;
	attempts: number;
}

export class TaskQueue<C> {
	private readonly handlers = new Map<string, TaskHandler<C>>();
	private running: Promise<number> | null = null;
	/** Set by stop(): no task starts any more. */
	private stopped = false;
	private readonly insert;
	private readonly due;
	private readonly done;
	private readonly retry;
	private readonly fail;
	private readonly queued;
	private readonly queuedDue;
	private readonly pruneFinished;
	/** Attempts before a task is marked failed. */
	maxAttempts = 5;
	/** Run a prompt pass after each enqueue (off for `gitstead admin`, which runs no jobs). */
	autoRun = false;

	constructor(private readonly deps: TaskQueueDeps<C>) {
		const { db } = deps;
		this.insert = db.prepare('INSERT INTO background_tasks (kind, payload, run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
		this.due = db.prepare(
			"SELECT id, kind, payload, attempts FROM background_tasks WHERE state = 'queued' AND run_at <= ? ORDER BY run_at, id LIMIT 50",
		);
		this.done = db.prepare(
			"UPDATE background_tasks SET state = 'done', attempts = attempts + 1, last_error = NULL, updated_at = ? WHERE id = ?",
		);
		this.retry = db.prepare(
			'UPDATE background_tasks SET attempts = attempts + 1, run_at = ?, last_error = ?, updated_at = ? WHERE id = ?',
		);
		this.fail = db.prepare(
			"UPDATE background_tasks SET state = 'failed', attempts = attempts + 1, last_error = ?, updated_at = ? WHERE id = ?",
		);
		// Both read the partial index background_tasks_due (queued rows only).
		this.queued = db.prepare("SELECT count(*) FROM background_tasks WHERE state = 'queued'").pluck();
		this.queuedDue = db.prepare("SELECT count(*) FROM background_tasks WHERE state = 'queued' AND run_at <= ?").pluck();
		this.pruneFinished = db.prepare('DELETE FROM background_tasks WHERE state = ? AND updated_at < ?');
	}

	/**
	 * Deletes finished tasks: those done before `doneBefore` and those failed before `failedBefore`
	 * (both epoch seconds; failed rows are kept longer, their last_error explains what went wrong).
	 * Queued tasks are never deleted. Every push to a default branch and every mergeability check
	 * adds a row, so without this the table grows without bound.
	 * @returns rows deleted
	 */
	prune(doneBefore: number, failedBefore: number): number {
		return this.pruneFinished.run('done', doneBefore).changes + this.pruneFinished.run('failed', failedBefore).changes;
	}

	/**
	 * The backlog (the metrics' gitstead_background_tasks gauge): tasks queued, and those of them due
	 * now (the others wait for a retry's backoff).
	 */
	backlog(): { queued: number; due: number } {
		return { queued: this.queued.get() as number, due: this.queuedDue.get(epochSeconds(this.deps.clock())) as number };
	}

	register(kind: string, handler: TaskHandler<C>): void {
		this.handlers.set(kind, handler);
	}

	/** Queues a task; call inside the transaction of the change it belongs to. @returns task id */
	enqueue(kind: string, payload: unknown): number {
		if (!this.handlers.has(kind)) throw new Error(`no handler for background task kind "${kind}"`);
		const now = epochSeconds(this.deps.clock());
		const id = Number(this.insert.run(kind, JSON.stringify(payload), now, now, now).lastInsertRowid);
		if (this.autoRun) setImmediate(() => void this.runDue().catch(() => undefined));
		return id;
	}

	/**
	 * Stops running tasks (the server is stopping): the pass in progress ends after its current task;
	 * tasks not started stay due for the next start.
	 * @returns resolves when no task is running
	 */
	stop(): Promise<void> {
		this.stopped = true;
		this.autoRun = false;
		return (this.running ?? Promise.resolve(0)).then(
			() => undefined,
			() => undefined,
		);
	}

	/** Runs every due task once; overlapping calls share one pass. @returns tasks attempted */
	runDue(): Promise<number> {
		this.running ??= this.pass().finally(() => (this.running = null));
		return this.running;
	}

	private async pass(): Promise<number> {
		let attempted = 0;
		for (;;) {
			if (this.stopped) return attempted;
			const rows = this.due.all(epochSeconds(this.deps.clock())) as TaskRow[];
			if (rows.length === 0) return attempted;
			for (const row of rows) {
				if (this.stopped) return attempted;
				attempted++;
				await this.runOne(row);
			}
		}
	}

	private async runOne(row: TaskRow): Promise<void> {
		const handler = this.handlers.get(row.kind);
		const now = epochSeconds(this.deps.clock());
		try {
			if (!handler) throw new Error(`no handler for background task kind "${row.kind}"`);
			await handler(this.deps.context(), JSON.parse(row.payload), { id: row.id, attempts: row.attempts });
			this.done.run(now, row.id);
		} catch (error) {
			const message = (error as Error).message ?? String(error);
			if (row.attempts + 1 >= this.maxAttempts || error instanceof PermanentTaskError) {
				this.fail.run(message, now, row.id);
				this.deps.log.warn('background task failed', { id: row.id, kind: row.kind, error: message });
			} else {
				const delay = 2 ** row.attempts * 5; // 5 s, 10 s, 20 s, ...
				this.retry.run(now + delay, message, now, row.id);
			}
		}
	}
}

/** Thrown by a handler when retrying cannot help (the task's preconditions no longer hold): src/model/errors.ts. */
export { PermanentTaskError };
