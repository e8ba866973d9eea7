/**
 * SQLite errors turned into domain meaning; only the HTTP edge picks a status.
 */

/** True when `error` is a UNIQUE or PRIMARY KEY constraint violation. */
export function isDuplicateKey(error: unknown): boolean {
	const code = (error as { code?: unknown })?.code;
	return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when `error` means the database stayed locked past the busy timeout. */
export function isBusy(error: unknown): boolean {
	const code = (error as { code?: unknown })?.code;
	// Extended codes too: SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_RECOVERY, SQLITE_LOCKED_SHAREDCACHE, ...
	return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * True when `error` means the database file cannot take writes: read-only (SQLITE_READONLY and its
 * extended codes: a read-only file, folder or connection), full (SQLITE_FULL: no disk space), an
 * I/O error (SQLITE_IOERR_*), a file SQLite can no longer open (SQLITE_CANTOPEN_*) or a damaged
 * file (SQLITE_CORRUPT_*, SQLITE_NOTADB). Busy locks and constraint violations are not.
 */
export function isStorageFailure(error: unknown): boolean {
	const code = (error as { code?: unknown })?.code;
	return (
		typeof code === 'string' &&
		(code.startsWith('SQLITE_READONLY') ||
			code === 'SQLITE_FULL' ||
			code.startsWith('SQLITE_IOERR') ||
			code.startsWith('SQLITE_CANTOPEN') ||
			code.startsWith('SQLITE_CORRUPT') ||
			code === 'SQLITE_NOTADB')
	);
}
