/**
 * One server per data folder. `gitstead serve` holds a write transaction (BEGIN IMMEDIATE, rollback
 * journal) on a small SQLite database, `<data-dir>/gitstead.lock`, for its whole life. SQLite's
 * lock is a POSIX advisory lock on that file: the kernel drops it when the process ends however it
 * ends (SIGKILL, a crash, a power cut), so a restart right after a crash takes it at once; no
 * stale pid file is ever trusted. The transaction never writes, so no journal is left behind.
 *
 * The holder describes itself (pid, host, start time, listen address) in
 * `<data-dir>/gitstead.lock.json`, written after the lock is taken (atomically, by rename) and
 * removed before it is released. A server that finds the lock taken reads that file; a file left
 * by a holder that died (its pid gone on this host) or not yet written by a holder that has just
 * taken the lock is waited for briefly (LOCK_DESCRIPTION_WAIT_MS), then reported as unknown.
 *
 * `gitstead admin` commands do not take this lock: they run beside a serving server, safely, on
 * gitstead.db itself (WAL and a busy timeout). `gitstead admin restore` is the exception: it takes
 * it (refused, naming the server, while one runs) and holds it while it replaces the folder.
 *
 * Nothing in the process may open gitstead.lock other than through SQLite: closing any other file
 * descriptor on it would drop the process's POSIX locks on it (SQLite works around this only for
 * its own connections).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isBusy } from './errors';
import { nativeBinding } from './native';

/** The lock database, in the data folder. */
export const LOCK_FILE = 'gitstead.lock';
/** The holder's description (JSON, a LockHolder), in the data folder. */
export const LOCK_DESCRIPTION_FILE = 'gitstead.lock.json';
/** How long a loser waits for the holder's description to appear (milliseconds). */
export const LOCK_DESCRIPTION_WAIT_MS = 1000;

/** Who holds a data folder. */
export interface LockHolder {
	pid: number;
	host: string;
	/** ISO 8601 time the holder took the lock. */
	started_at: string;
	/** Bound address (http://host:port) once the holder listens, else null. */
	listen: string | null;
	version: string;
}

/** The data folder is held by another server; the message names it (one line). */
export class DataDirLockedError extends Error {
	constructor(
		readonly dataDir: string,
		readonly holder: LockHolder | null,
	) {
		super(
			`the data folder ${dataDir} is in use by another Gitstead server (${holder ? describeHolder(holder) : 'which has not described itself'}); ` +
				'stop it first, or choose another --data-dir',
		);
	}
}

/** "pid 123 on host h, started 2026-…Z, listening on http://…" */
export function describeHolder(holder: LockHolder): string {
	const parts = [`pid ${holder.pid} on host ${holder.host}`, `started ${holder.started_at}`];
	parts.push(holder.listen ? `listening on ${holder.listen}` : 'not listening yet');
	return parts.join(', ');
}

/** A held data-folder lock. */
export interface DataDirLock {
	readonly holder: LockHolder;
	/** Records the bound address in the description. */
	setListen(address: string): void;
	/** Removes the description and releases the lock (idempotent). */
	release(): void;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** True when the described process may still be alive (always true for another host). */
function mayBeAlive(holder: LockHolder, host: string): boolean {
	if (holder.host !== host) return true;
	if (holder.pid === process.pid) return false;
	try {
		process.kill(holder.pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The description file's contents, or null when missing or unreadable. */
export function readLockHolder(dataDir: string): LockHolder | null {
	try {
		const data = JSON.parse(readFileSync(join(dataDir, LOCK_DESCRIPTION_FILE), 'utf8')) as LockHolder;
		return typeof data.pid === 'number' && typeof data.host === 'string' ? data : null;
	} catch {
		return null;
	}
}

function writeDescription(dataDir: string, holder: LockHolder): void {
	const file = join(dataDir, LOCK_DESCRIPTION_FILE);
	const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	writeFileSync(partial, `${JSON.stringify(holder)}\n`);
	renameSync(partial, file);
}

/**
 * Takes the data folder's lock (the folder must exist).
 * @param dataDir absolute data folder
 * @param version Gitstead version, for the description
 * @throws DataDirLockedError when another process holds it (after at most about
 *   LOCK_DESCRIPTION_WAIT_MS when its description is missing or stale)
 * @throws Error when the lock database cannot be opened
 */
export async function acquireDataDirLock(dataDir: string, version: string): Promise<DataDirLock> {
	const file = join(dataDir, LOCK_FILE);
	let db: Database.Database;
	try {
		db = new Database(file, { nativeBinding: nativeBinding() as never, timeout: 2000 });
		// A table, so the file has a page: BEGIN IMMEDIATE on an empty file would leave a journal.
		// On an existing table this is a read, which another holder's write lock does not block;
		// the busy timeout covers two first starts racing to create it.
		db.exec('CREATE TABLE IF NOT EXISTS lock (purpose TEXT)');
		db.pragma('busy_timeout = 0');
	} catch (error) {
		throw new Error(`cannot open the lock ${file}: ${(error as Error).message}`);
	}
	const host = hostname();
	const deadline = Date.now() + LOCK_DESCRIPTION_WAIT_MS;
	for (;;) {
		try {
			db.exec('BEGIN IMMEDIATE');
			break;
		} catch (error) {
			if (!isBusy(error)) {
				db.close();
				throw new Error(`cannot take the lock ${file}: ${(error as Error).message}`);
			}
		}
		const holder = readLockHolder(dataDir);
		if (holder && mayBeAlive(holder, host)) {
			db.close();
			throw new DataDirLockedError(dataDir, holder);
		}
		// No description, or one left by a dead process: the holder has just taken the lock and
		// is about to write its own. Wait a little, trying the lock again meanwhile.
		if (Date.now() > deadline) {
			db.close();
			throw new DataDirLockedError(dataDir, null);
		}
		await sleep(20);
	}
	const holder: LockHolder = { pid: process.pid, host, started_at: new Date().toISOString(), listen: null, version };
	let released = false;
	const release = () => {
		if (released) return;
		released = true;
		// Still held here, so the description is ours: remove it first, then let go.
		rmSync(join(dataDir, LOCK_DESCRIPTION_FILE), { force: true });
		db.close(); // ends the transaction (nothing was written) and drops the lock
	};
	try {
		writeDescription(dataDir, holder);
	} catch (error) {
		release();
		throw new Error(`cannot write ${join(dataDir, LOCK_DESCRIPTION_FILE)}: ${(error as Error).message}`);
	}
	return {
		holder,
		setListen(address) {
			if (released) return;
			holder.listen = address;
			writeDescription(dataDir, holder);
		},
		release,
	};
}
