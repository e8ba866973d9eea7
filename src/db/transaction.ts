/**
 * Transactions. Every writing transaction begins IMMEDIATE: it takes SQLite's write lock before its
 * first read, waiting up to the busy timeout for another connection (a `gitstead admin` command, a
 * second process) instead of failing halfway with SQLITE_BUSY_SNAPSHOT when that connection commits
 * between this transaction's first read and its first write (https://sqlite.org/wal.html#busy,
 * better-sqlite3's `transaction().immediate`). Nested calls become savepoints.
 *
 * Group commit (the server's mode, `batch: true`): the requests' writes (`grouped`) that arrive in
 * one turn of the event loop share one SQLite transaction, committed once at the end of the turn
 * (setImmediate); other writes (jobs, the services tests call) commit at once unless they run while
 * a group is open, which they then join. Each
 * caller's `fn` still runs all-or-nothing, inside its own savepoint: a failing one rolls back only
 * its own changes. What a commit costs (the WAL frames of every page it touched: the rightmost
 * leaves of the same indexes, the same watchers' notification pages) is paid once per turn instead
 * of once per write. A caller that answers someone (an HTTP response) first waits for `durable()`,
 * so nothing is acknowledged before it is committed; reads in the same turn on this connection see
 * the writes before their commit, as they would a moment later.
 */
import { isStorageFailure } from './errors';
import type { DB } from './open';

/** A write that failed because the database could not take it (errors.ts isStorageFailure). */
export interface StorageFailure {
	/** SQLite's error code, e.g. SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR_WRITE. */
	code: string;
	message: string;
	/** Epoch milliseconds (the clock given to createTransaction). */
	at: number;
}

/** Runs `fn` inside one transaction on `db`; nested calls become savepoints. */
export interface Transaction {
	/** Commits when `fn` returns, unless a group is open: then `fn` joins it (its own savepoint). */
	<T>(fn: () => T): T;
	/**
	 * Runs `fn` in the group of this turn (opening it when none is), in its own savepoint; without
	 * group commit, as a transaction of its own. For callers that wait for `durable()` before they
	 * tell anyone (the HTTP pipeline).
	 * `flat`: the transactions `fn` opens inside run without savepoints of their own (one savepoint
	 * per request instead of two), for callers whose errors end the whole request (REST); should one
	 * of them throw and `fn` still return, `fn` is rolled back and run again with those savepoints,
	 * so a caught failure never leaves half its writes.
	 */
	grouped<T>(fn: () => T, options?: { flat?: boolean }): T;
	/**
	 * Resolves when every change made through this function so far is committed: at once when
	 * nothing waits for a commit, at the end of the turn in group-commit mode.
	 * @throws (rejects with) the commit's error; the changes are then rolled back
	 */
	durable(): Promise<void>;
	/** Commits the open group now (closing the database, before a WAL checkpoint). */
	flush(): void;
	/**
	 * Runs `fn` once at the end of the open group, inside it, just before its commit (its writes
	 * commit with the group; it runs in a savepoint of its own): a pass that
	 * derives rows from the group's writes then costs no transaction and no commit of its own.
	 * `fn` handles its own errors; one it throws anyway is dropped, and the group still commits.
	 * Should SQLite have rolled the group back already, `fn` runs after that, outside it.
	 * @returns false, registering nothing, when no group is open (no group commit, or none this turn)
	 */
	beforeCommit(fn: () => void): boolean;
	/**
	 * The last storage failure (read-only, full, I/O error, …: errors.ts isStorageFailure) of a write
	 * through this function since the last commit that wrote rows; null when there was none (GET
	 * /healthz reports it: src/http/health.ts).
	 */
	storageFailure(): StorageFailure | null;
}

/** Where a transaction function reports its outcomes. */
interface Outcomes {
	failed(error: unknown): void;
	committed(): void;
}

interface Waiter {
	resolve(): void;
	reject(error: unknown): void;
}

/**
 * The transaction function of a connection.
 * @param onRolledBackWrites called after a transaction (or, grouped, one caller's savepoint) that
 *   wrote rows rolled back (in-memory caches may have seen those rows); one that wrote nothing,
 *   like most 4xx answers, does not call it.
 * @param options.batch group commit: the writes of one event-loop turn share one commit
 * @param options.clock epoch milliseconds, for the time of a storage failure (default Date.now)
 */
export function createTransaction(
	db: DB,
	onRolledBackWrites: () => void = () => undefined,
	options: { batch?: boolean; clock?: () => number } = {},
): Transaction {
	const clock = options.clock ?? Date.now;
	let failure: StorageFailure | null = null;
	const outcomes: Outcomes = {
		failed(error) {
			if (isStorageFailure(error))
				failure = { code: String((error as { code: string }).code), message: (error as Error).message, at: clock() };
		},
		committed() {
			failure = null;
		},
	};
	const storageFailure = () => failure;
	const alone = ownTransaction(db, onRolledBackWrites, outcomes);
	const resolved = Promise.resolve();

	if (!options.batch) {
		const transaction = alone as Transaction;
		transaction.grouped = transaction;
		transaction.durable = () => resolved;
		transaction.flush = () => undefined;
		transaction.storageFailure = storageFailure;
		transaction.beforeCommit = () => false;
		return transaction;
	}

	const totalChanges = db.prepare('SELECT total_changes()').pluck();
	const begin = db.prepare('BEGIN IMMEDIATE');
	const commitStatement = db.prepare('COMMIT');
	/** True while this function's group transaction is open. */
	let open = false;
	/** Callers waiting for the open group's commit. */
	let waiters: Waiter[] = [];
	/** Depth of callers' `fn`s running (nested calls are savepoints of the outermost one). */
	let depth = 0;
	/** total_changes() when the open group began: a commit that wrote rows clears a storage failure. */
	let changesAtBegin = 0;
	/** A flat caller's `fn` runs: nested transactions run without savepoints. */
	let flat = false;
	/** A nested transaction of the flat caller threw (its writes so far were not rolled back on their own). */
	let nestedFailed = false;
	/** Thrown to roll a flat caller's savepoint back before running it again with nested savepoints. */
	const again = new Error('run again with savepoints');

	/** What runs at the end of the open group, before its commit (beforeCommit). */
	let hooks: Array<() => void> = [];
	const runHooks = () => {
		while (hooks.length > 0) {
			const now = hooks;
			hooks = [];
			for (const hook of now) {
				try {
					if (db.inTransaction) inGroup(hook);
					else hook();
				} catch {
					// beforeCommit: a hook handles its own errors; its savepoint is rolled back already.
				}
			}
		}
	};

	/** Ends the open group: commits it (or learns SQLite already rolled it back) and answers the waiters. */
	const commit = () => {
		if (!open) return;
		if (db.inTransaction) runHooks();
		open = false;
		const waiting = waiters;
		waiters = [];
		let error: unknown = null;
		if (!db.inTransaction) {
			// SQLite rolled the whole transaction back itself (an I/O error, a full disk): every write of the group is gone.
			error = new Error('the transaction was rolled back by SQLite before its commit');
		} else {
			try {
				commitStatement.run();
			} catch (thrown) {
				error = thrown;
				outcomes.failed(thrown);
				if (db.inTransaction) db.exec('ROLLBACK');
			}
		}
		if (error === null) {
			if ((totalChanges.get() as number) !== changesAtBegin) outcomes.committed();
			for (const waiter of waiting) waiter.resolve();
			return;
		}
		onRolledBackWrites();
		runHooks(); // the group was gone before they could run in it
		for (const waiter of waiting) waiter.reject(error);
	};

	const savepoint = db.prepare('SAVEPOINT gitstead_group');
	const release = db.prepare('RELEASE gitstead_group');
	const rollbackTo = db.prepare('ROLLBACK TO gitstead_group');
	/**
	 * `fn` in a savepoint (the group's transaction is open): better-sqlite3's db.transaction(fn)()
	 * does the same, but builds four wrapper functions for every call.
	 */
	const inSavepoint = <T>(fn: () => T): T => {
		savepoint.run();
		try {
			const result = fn();
			release.run();
			return result;
		} catch (error) {
			// SQLite may have rolled the whole transaction back itself (a full disk, an I/O error).
			if (db.inTransaction) {
				rollbackTo.run();
				release.run();
			}
			throw error;
		}
	};

	/** `fn` in its own savepoint of the open group. */
	const inGroup = <T>(fn: () => T): T => {
		const changesBefore = totalChanges.get() as number;
		depth++;
		try {
			return inSavepoint(fn);
		} catch (error) {
			outcomes.failed(error);
			if ((totalChanges.get() as number) !== changesBefore) onRolledBackWrites();
			throw error;
		} finally {
			depth--;
		}
	};

	const transaction = (<T>(fn: () => T): T => {
		if (flat && depth > 0) {
			try {
				return fn();
			} catch (error) {
				nestedFailed = true;
				throw error;
			}
		}
		if (depth > 0 || !open) return alone(fn); // a savepoint of the caller's own, or a transaction of its own
		return inGroup(fn);
	}) as Transaction;
	/** `fn` in its own savepoint of the open group, its nested transactions without savepoints (see grouped). */
	const inGroupFlat = <T>(fn: () => T): T => {
		flat = true;
		nestedFailed = false;
		try {
			return inGroup(() => {
				const result = fn();
				if (nestedFailed) throw again;
				return result;
			});
		} catch (error) {
			if (error !== again) throw error;
		} finally {
			flat = false;
		}
		return inGroup(fn);
	};

	transaction.grouped = <T>(fn: () => T, options?: { flat?: boolean }): T => {
		if (depth > 0) return db.transaction(fn)(); // a savepoint inside the caller's own
		if (!open) {
			if (db.inTransaction) return db.transaction(fn)(); // inside a transaction someone else opened
			try {
				changesAtBegin = totalChanges.get() as number;
				begin.run();
			} catch (error) {
				outcomes.failed(error);
				throw error;
			}
			open = true;
			setImmediate(commit);
		}
		return options?.flat ? inGroupFlat(fn) : inGroup(fn);
	};
	transaction.durable = () => (open ? new Promise<void>((resolve, reject) => waiters.push({ resolve, reject })) : resolved);
	transaction.flush = commit;
	transaction.storageFailure = storageFailure;
	transaction.beforeCommit = (fn) => {
		if (!open) return false;
		hooks.push(fn);
		return true;
	};
	return transaction;
}

/**
 * A transaction of its own (BEGIN IMMEDIATE … COMMIT), or a savepoint inside one already open on
 * the connection; reports storage failures and commits to `outcomes`.
 */
function ownTransaction(db: DB, onRolledBackWrites: () => void, outcomes: Outcomes): <T>(fn: () => T) => T {
	const totalChanges = db.prepare('SELECT total_changes()').pluck();
	return <T>(fn: () => T): T => {
		if (db.inTransaction) return db.transaction(fn)(); // a savepoint inside the caller's transaction
		const changesBefore = totalChanges.get() as number;
		try {
			const result = db.transaction(fn).immediate();
			if ((totalChanges.get() as number) !== changesBefore) outcomes.committed(); // it wrote rows, and they are on disk
			return result;
		} catch (error) {
			outcomes.failed(error);
			if (!db.inTransaction && (totalChanges.get() as number) !== changesBefore) onRolledBackWrites();
			throw error;
		}
	};
}

/** Runs `fn` in one IMMEDIATE transaction on `db` (for code that holds a connection, not an App). */
export function immediate<T>(db: DB, fn: () => T): T {
	return db.transaction(fn).immediate();
}
