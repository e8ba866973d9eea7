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
