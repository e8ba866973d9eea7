/**
 * Opens Gitstead's SQLite database: the one place pragmas are set.
 */
import Database from 'better-sqlite3';
import { nativeBinding } from './native';

export type DB = Database.Database;

/**
 * Opens (creating if needed) the database file with Gitstead's pragmas.
 * @param file path of the SQLite file, or ':memory:'
 * @param options.readonly open read-only (no pragmas that write)
 */
export function openDatabase(file: string, options: { readonly?: boolean } = {}): DB {
	const db = new Database(file, { readonly: options.readonly ?? false, nativeBinding: nativeBinding() as never });
	// First, so every later statement (including the pragmas below) waits for a concurrent
	// `gitstead admin` command instead of failing with SQLITE_BUSY.
	db.pragma('busy_timeout = 5000');
	if (!options.readonly) {
		// WAL: readers never block the writer, and a commit is one append (~20 µs with NORMAL).
		db.pragma('journal_mode = WAL');
		// NORMAL in WAL mode: a killed process loses no committed transaction; only a power cut
		// can lose the last commits. config `storage.synchronous = "full"` trades speed for that.
		db.pragma('synchronous = NORMAL');
	}
	db.pragma('foreign_keys = ON');
	db.pragma('temp_store = MEMORY');
	db.pragma('cache_size = -8000'); // 8 MB page cache
	return db;
}
