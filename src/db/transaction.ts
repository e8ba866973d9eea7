/**
 * Transactions. Every writing transaction begins IMMEDIATE: it takes SQLite's write lock before its
 * first read, waiting up to the busy timeout for another connection (a `gitstead admin` command, a
 * second process) instead of failing halfway with SQLITE_BUSY_SNAPSHOT when that connection commits
 * between this transaction's first read and its first write (https://sqlite.org/wal.html#busy,
 * better-sqlite3's `transaction().immediate`). Nested calls become savepoints.
 */
import type { DB } from './open';

/** Runs `fn` inside one transaction on `db`; nested calls become savepoints. */
export type Transaction = <T>(fn: () => T) => T;

/**
 * The transaction function of a connection.
 * @param onRolledBackWrites called after an outermost transaction that wrote rows rolled back
 *   (in-memory caches may have seen those rows); one that wrote nothing, like most 4xx answers,
 *   does not call it.
 */
export function createTransaction(db: DB, onRolledBackWrites: () => void = () => undefined): Transaction {
	const totalChanges = db.prepare('SELECT total_changes()').pluck();
	return <T>(fn: () => T): T => {
		if (db.inTransaction) return db.transaction(fn)(); // a savepoint inside the caller's transaction
		const changesBefore = totalChanges.get() as number;
		try {
			return db.transaction(fn).immediate();
		} catch (error) {
			if (!db.inTransaction && (totalChanges.get() as number) !== changesBefore) onRolledBackWrites();
			throw error;
		}
	};
}

/** Runs `fn` in one IMMEDIATE transaction on `db` (for code that holds a connection, not an App). */
export function immediate<T>(db: DB, fn: () => T): T {
	return db.transaction(fn).immediate();
}
