/**
 * Opens Gitstead's SQLite database: the one place pragmas are set.
 */
import Database from 'better-sqlite3';
import { nativeBinding } from './native';

export type DB = Database.Database;

/** The busy timeout when none is configured (storage.busy_timeout_ms), in milliseconds. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** How openDatabase opens a file. */
export interface OpenDatabaseOptions {
	/** Open read-only (no pragmas that write). */
	readonly?: boolean;
	/** Refuse (throw) instead of creating a missing file. */
	mustExist?: boolean;
	/** Milliseconds to wait for another connection's lock before SQLITE_BUSY; default 5000. */
	busyTimeoutMs?: number;
}

/**
 * Opens (creating if needed, unless `mustExist`) the database file with Gitstead's pragmas.
 * @param file path of the SQLite file, or ':memory:'
 * @throws SqliteError when the file cannot be opened (or is missing with `mustExist`)
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): DB {
	const busyTimeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
	// `timeout` is SQLite's busy timeout, set before anything else runs, so every later statement
	// (including the pragmas below) waits for a concurrent `gitstead admin` command or the server
	// instead of failing with SQLITE_BUSY.
	const db = new Database(file, {
		readonly: options.readonly ?? false,
		fileMustExist: options.mustExist ?? false,
		timeout: busyTimeout,
		nativeBinding: nativeBinding() as never,
	});
	if (!options.readonly) {
		// WAL: readers never block the writer, and a commit is one append (~20 µs with NORMAL).
		db.pragma('journal_mode = WAL');
		// NORMAL in WAL mode: a killed process loses no committed transaction; only a power cut
		// can lose the last commits. config `storage.synchronous = "full"` trades speed for that.
		db.pragma('synchronous = NORMAL');
		// A checkpoint copies every page the WAL holds back into the database file, once however
		// many commits wrote it. The hot pages of writes (the rightmost leaves of the issues' and
		// events' indexes, a repository's row) are in nearly every commit, so checkpointing every
		// 8,000 pages (32 MB) instead of SQLite's 1,000 copies each of them an eighth as often: about
		// a third of a commit's cost under a stream of writes. Opening a database a killed process
		// left reads its WAL once (tens of milliseconds at that size).
		db.pragma('wal_autocheckpoint = 8000');
	}
	db.pragma('foreign_keys = ON');
	db.pragma('temp_store = MEMORY');
	db.pragma('cache_size = -8000'); // 8 MB page cache
	return db;
}
