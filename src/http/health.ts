/**
 * GET /healthz (and HEAD), served at the server root outside /api/v3: no authentication, no rate
 * limit. The answer follows the IETF draft "Health Check Response Format for HTTP APIs"
 * (draft-inadarei-api-health-check): `Content-Type: application/health+json`, a top-level `status`
 * ("pass", "warn" or "fail"), `version`, `releaseId`, `serviceId`, `description`, `output` (why,
 * when not "pass") and `checks`, each an array of observations ({componentType, observedValue,
 * observedUnit, status, time, output}). 200 for "pass" and "warn", 503 for "fail";
 * `Cache-Control: no-store`.
 *
 * Checks:
 * - `sqlite:writable` (datastore): can the database take a write right now? See probeWrites.
 * - `disk:free` (system): bytes available on the disk holding storage.data_dir (statfs); "fail"
 *   below `[health] min_free_bytes` (100 MiB by default; 0 switches it off), "warn" below twice that.
 * - `uptime` (system): seconds since the application opened; always "pass".
 */
import { statfsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { version } from '../build-info';
import type { Config } from '../config';
import { isBusy } from '../db/errors';
import type { DB } from '../db/open';
import type { StorageFailure } from '../db/transaction';
import type { Clock } from '../time';

export type HealthStatus = 'pass' | 'warn' | 'fail';

/** One observation of a check (the draft's "checks" object members). */
export interface HealthObservation {
	componentType: 'datastore' | 'system' | 'component';
	observedValue?: number;
	observedUnit?: string;
	status: HealthStatus;
	/** ISO 8601: when it was observed (the application clock). */
	time: string;
	/** Why it is not "pass", or what was observed instead of probing. */
	output?: string;
}

/** The body of GET /healthz. */
export interface HealthReport {
	status: HealthStatus;
	version: string;
	releaseId: string;
	serviceId: string;
	description: string;
	/** The outputs of the checks that do not pass, for a person. */
	output?: string;
	checks: Record<string, HealthObservation[]>;
}

/** What the checks read. */
export interface HealthDeps {
	db: DB;
	databaseFile: string;
	dataDir: string;
	settings: Config['health'];
	/** Epoch milliseconds. */
	clock: Clock;
	/** The transaction function's last storage failure since a commit wrote (src/db/transaction.ts). */
	storageFailure(): StorageFailure | null;
	/** The database's schema version (releaseId). */
	schemaVersion: number;
}

/**
 * How long (ms) a recorded storage failure fails the check when no commit has written since; after
 * that it only warns (it may have been passing, e.g. a disk full for a moment), until the next
 * commit that writes clears it.
 */
export const FAILURE_HOLD_MS = 60_000;

const severity: Record<HealthStatus, number> = { pass: 0, warn: 1, fail: 2 };

export class Health {
	/**
	 * Reads the free space of a folder's disk (fs.statfsSync): bytes = bavail × bsize. Replaceable,
	 * so a test can stand in for a full disk.
	 */
	statfs: (path: string) => { bavail: number; bsize: number } = (path) => statfsSync(path);
	/** The database file as opened (device and inode): a file deleted or replaced since is noticed. */
	private readonly identity: { dev: bigint; ino: bigint } | null;
	private readonly opened = performance.now();

	constructor(private readonly deps: HealthDeps) {
		this.identity = identify(deps.databaseFile);
	}

	/** Runs every check (cheap: a few stat calls and at most one lock attempt that never waits). */
	check(): HealthReport {
		const time = new Date(this.deps.clock()).toISOString();
		const checks: Record<string, HealthObservation[]> = {
			'sqlite:writable': [{ componentType: 'datastore', time, ...this.probeWrites() }],
			'disk:free': [{ componentType: 'system', time, ...this.diskFree() }],
			uptime: [
				{
					componentType: 'system',
					observedValue: Math.round(performance.now() - this.opened) / 1000,
					observedUnit: 's',
					status: 'pass',
					time,
				},
			],
		};
		let status: HealthStatus = 'pass';
		const outputs: string[] = [];
		for (const [name, observations] of Object.entries(checks)) {
			for (const observation of observations) {
				if (severity[observation.status] > severity[status]) status = observation.status;
				if (observation.status !== 'pass' && observation.output) outputs.push(`${name}: ${observation.output}`);
			}
		}
		return {
			status,
			version,
			releaseId: `${version}+schema.${this.deps.schemaVersion}`,
			serviceId: 'gitstead',
			description: "Gitstead, a self-hosted server of GitHub's REST API",
			...(outputs.length > 0 ? { output: outputs.join('; ') } : {}),
			checks,
		};
	}

	/**
	 * Whether the database can take a write now, without ever waiting for one:
	 * 1. the connection must be open and not read-only;
	 * 2. the file must still be the one opened (a deleted or replaced gitstead.db keeps taking
	 *    writes through the open descriptor, into a file nobody will open again);
	 * 3. unless this connection is inside a transaction (then its own commit decides, and SQLite is
	 *    not asked), `BEGIN IMMEDIATE` + `ROLLBACK` with the busy timeout set to 0 for that
	 *    statement: SQLite takes and releases the write lock, touching no page and writing nothing.
	 *    It fails at once with SQLITE_READONLY (read-only file or folder, `PRAGMA query_only`),
	 *    SQLITE_CANTOPEN or an I/O error; SQLITE_BUSY — another connection (an admin command, a
	 *    long write) holds the lock — counts as "pass": the database is writable, just in use, and
	 *    the check answers at once instead of waiting storage.busy_timeout_ms behind that writer;
	 * 4. the last write through app.transaction must not have failed with a storage error (full
	 *    disk, I/O error, read-only) since the last commit that wrote: "fail" for FAILURE_HOLD_MS,
	 *    "warn" after that until a commit writes again. A full disk, which BEGIN does not notice,
	 *    shows here and in disk:free.
	 * `observedValue` is the probe's duration in milliseconds.
	 */
	probeWrites(): Omit<HealthObservation, 'componentType' | 'time'> {
		const started = performance.now();
		const verdict = this.writeVerdict();
		const observedValue = Math.round((performance.now() - started) * 1000) / 1000;
		return { observedValue, observedUnit: 'ms', ...verdict };
	}

	private writeVerdict(): { status: HealthStatus; output?: string } {
		const { db, databaseFile } = this.deps;
		if (!db.open) return { status: 'fail', output: 'the database connection is closed (the server is stopping)' };
		if (db.readonly) return { status: 'fail', output: 'the database was opened read-only' };
		let current: { dev: bigint; ino: bigint } | null;
		try {
			current = identify(databaseFile);
		} catch (error) {
			return { status: 'fail', output: `cannot examine gitstead.db in the data folder: ${(error as Error).message}` };
		}
		if (current === null) {
			return {
				status: 'fail',
				output: 'gitstead.db is gone from the data folder (deleted or moved while the server runs): writes would go to a file nobody opens again; restore it and restart',
			};
		}
		if (this.identity && (current.dev !== this.identity.dev || current.ino !== this.identity.ino)) {
			return {
				status: 'fail',
				output: 'gitstead.db was replaced by another file while the server runs: writes go to the old file; restart the server',
			};
		}
		let probe: { status: HealthStatus; output?: string } = { status: 'pass' };
		if (db.inTransaction) {
			probe = { status: 'pass', output: 'a write transaction of this server is open: its commit decides (not probed)' };
		} else {
			const timeout = db.pragma('busy_timeout', { simple: true }) as number;
			db.pragma('busy_timeout = 0');
			try {
				db.exec('BEGIN IMMEDIATE');
				db.exec('ROLLBACK');
			} catch (error) {
				if (isBusy(error))
					probe = {
						status: 'pass',
						output: 'another connection holds the write lock (the database is writable and in use; not waited for)',
					};
				else probe = { status: 'fail', output: `the database refuses writes: ${describe(error)}` };
			} finally {
				if (db.inTransaction) db.exec('ROLLBACK');
				db.pragma(`busy_timeout = ${timeout}`);
			}
		}
		if (probe.status === 'fail') return probe;
		const failure = this.deps.storageFailure();
		if (failure) {
			const age = this.deps.clock() - failure.at;
			const what = `the last write failed ${Math.max(0, Math.round(age / 1000))} s ago with ${failure.code} (${failure.message}) and none has succeeded since`;
			return { status: age < FAILURE_HOLD_MS ? 'fail' : 'warn', output: what };
		}
		return probe;
	}

	/** disk:free: bytes available on the data folder's disk against `[health] min_free_bytes`. */
	diskFree(): Omit<HealthObservation, 'componentType' | 'time'> {
		const min = this.deps.settings.min_free_bytes;
		let free: number;
		try {
			const stats = this.statfs(this.deps.dataDir);
			free = stats.bavail * stats.bsize;
		} catch (error) {
			return { status: 'fail', output: `cannot read the free space of the data folder's disk: ${(error as Error).message}` };
		}
		const observed = { observedValue: free, observedUnit: 'bytes' };
		if (free < min) {
			return {
				...observed,
				status: 'fail',
				output: `only ${bytes(free)} free on the disk holding the data folder, below health.min_free_bytes (${bytes(min)}): writes will soon fail with "database or disk is full"; free some space or move the data folder`,
			};
		}
		if (free < 2 * min) {
			return {
				...observed,
				status: 'warn',
				output: `${bytes(free)} free on the disk holding the data folder, less than twice health.min_free_bytes (${bytes(min)})`,
			};
		}
		return { ...observed, status: 'pass' };
	}

	/** Answers GET or HEAD /healthz (HEAD: the same status and headers, no body). */
	serve(req: IncomingMessage, res: ServerResponse): void {
		const report = this.check();
		const body = JSON.stringify(report);
		res.writeHead(report.status === 'fail' ? 503 : 200, {
			'Content-Type': 'application/health+json',
			'Content-Length': String(Buffer.byteLength(body)),
			'Cache-Control': 'no-store',
			'X-Content-Type-Options': 'nosniff',
		});
		res.end(req.method === 'HEAD' ? undefined : body);
	}
}

/** Device and inode of a file, or null when it does not exist. @throws for other stat errors */
function identify(path: string): { dev: bigint; ino: bigint } | null {
	try {
		const stats = statSync(path, { bigint: true });
		return { dev: stats.dev, ino: stats.ino };
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw error;
	}
}

/** SQLite's code and message, e.g. "SQLITE_READONLY: attempt to write a readonly database". */
function describe(error: unknown): string {
	const code = (error as { code?: unknown }).code;
	const message = (error as Error).message ?? String(error);
	return typeof code === 'string' ? `${code}: ${message}` : message;
}

/** Bytes for a person: 104857600 → "100.0 MiB". */
function bytes(n: number): string {
	const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
	let value = n;
	let unit = 0;
	for (; value >= 1024 && unit < units.length - 1; unit++) value /= 1024;
	return unit === 0 ? `${n} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
