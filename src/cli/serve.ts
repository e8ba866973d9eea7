/**
 * `gitstead serve`: takes the data folder's lock (one server per folder, src/db/lock.ts), opens the
 * data folder, bootstraps the first site administrator, starts the jobs and the HTTP server, and
 * shuts down gracefully on SIGINT/SIGTERM (Serving.stop: requests in flight answered up to
 * server.shutdown_timeout_seconds, jobs stopped, webhook attempts finished or left due, counters
 * written, WAL checkpointed, database closed, lock released).
 */
import { mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import type { App } from '../app';
import { closeApp, openApp } from '../compose';
import { createUser } from '../api/users/service';
import { ALL_TOP_LEVEL_SCOPES } from '../auth/scopes';
import { version } from '../build-info';
import type { Resolved } from '../config';
import { acquireDataDirLock, type DataDirLock } from '../db/lock';
import { startJobs } from '../jobs';
import { createLogger } from '../log';
import { listen, type RunningServer } from '../server';
import { epochSeconds } from '../time';

/** How long after the first answer the jobs start (milliseconds). */
const JOBS_AFTER_FIRST_ANSWER_MS = 250;

/**
 * On a database without any site administrator, creates `admin` with a classic token holding every
 * scope and returns the lines to print (once: the token is never shown again).
 */
export function bootstrapAdmin(app: App): string[] {
	if (app.stores.accounts.siteAdminCount() > 0) return [];
	if (app.stores.accounts.byLogin('admin')) {
		return ['No site administrator exists. Create one with: gitstead admin create-user LOGIN --site-admin'];
	}
	const { token } = app.transaction(() => {
		const admin = createUser(app, { login: 'admin', siteAdmin: true, name: 'Site administrator' });
		return app.tokens.create({
			kind: 'classic',
			userId: admin.id,
			createdById: admin.id,
			scopes: [...ALL_TOP_LEVEL_SCOPES],
			now: epochSeconds(app.clock()),
			note: 'created at first start',
		});
	});
	return [
		'Created the site administrator "admin" with a classic token holding every scope.',
		'The token is shown only this once; store it now:',
		`  ${token}`,
		`Try it: curl -H "Authorization: Bearer ${token}" ${app.urls.api('/user')}`,
	];
}

export interface Serving {
	app: App;
	server: RunningServer;
	/**
	 * Graceful stop, once (later calls share it), within server.shutdown_timeout_seconds:
	 * 1. the server stops accepting; idle keep-alive connections close at once, the others after
	 *    their current answer (Connection: close); the jobs stop (no new run, no new background
	 *    task, no new webhook attempt);
	 * 2. requests in flight are answered; at the deadline, the connections still busy are closed;
	 * 3. webhook attempts and background tasks in flight finish within what is left of the
	 *    deadline; webhook attempts still in flight then are dropped unrecorded (due again at the
	 *    next start);
	 * 4. counters written, WAL checkpointed (TRUNCATE), database closed, lock released.
	 * Each phase logs one info line.
	 * @param reason what asked for it (the signal's name), for the log
	 */
	stop(reason?: string): Promise<void>;
}

/**
 * Starts Gitstead.
 * @throws DataDirLockedError (src/db/lock.ts) when another server holds the data folder
 * @throws Error with a one-line reason otherwise (folder, database, address)
 */
export async function serve(
	config: Resolved,
	print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<Serving> {
	const started = process.hrtime.bigint();
	// Keep V8's young generation at its initial size instead of letting it double up to 16 MB
	// semi-spaces: measured under the write benchmark, resident memory stays near 100 MB instead
	// of 125 MB for about 8% more CPU per write (npm run bench; docs/PERFORMANCE.md).
	setFlagsFromString('--semi-space-growth-factor=1');
	// Let the old generation grow by 15 % of what survived the last full collection before the next
	// one, not by V8's default factor (up to 4× on a fast machine): under the write benchmark the
	// requests' promoted garbage otherwise pushed the heap from ~35 MB live to ~85 MB and resident
	// memory to 150–190 MB. Measured with the benchmark: peak resident ~120 MB, with no CPU cost per
	// request above the run-to-run noise (docs/PERFORMANCE.md).
	setFlagsFromString('--heap-growing-percent=15');
	const log = createLogger(config.log.level, undefined, config.log.format);
	try {
		mkdirSync(config.storage.data_dir, { recursive: true });
	} catch (error) {
		throw new Error(`cannot create the data folder ${config.storage.data_dir}: ${(error as Error).message}`);
	}
	// Before the database is opened: a second server must neither upgrade nor bootstrap it.
	const lock: DataDirLock = await acquireDataDirLock(config.storage.data_dir, version);
	let app: App;
	let server: RunningServer;
	try {
		app = openApp(config, { log, groupCommit: true });
	} catch (error) {
		lock.release();
		throw error;
	}
	try {
		server = await listen(app, config.server.host, config.server.port);
	} catch (error) {
		closeApp(app);
		lock.release();
		throw error;
	}
	lock.setListen(server.address);
	for (const line of bootstrapAdmin(app)) print(line);
	// The jobs start a quarter of a second after the first answer (or a second after listening
	// without one): scheduling them costs 20-30 ms of CPU (node-cron computes each schedule's next
	// run through Intl.DateTimeFormat, whose first use loads ICU's date data), which neither the
	// first answer nor the requests a client sends right after it (a health check, then the API)
	// need wait for. Until then a queued webhook delivery or background task waits for them.
	let stopJobs: (() => Promise<void>) | null = null;
	let stopping: Promise<void> | null = null;
	const beginJobs = () => {
		clearTimeout(jobsTimer);
		if (stopJobs === null && stopping === null) stopJobs = startJobs(app);
	};
	let jobsTimer = setTimeout(beginJobs, 1000);
	server.server.once('request', (_req: IncomingMessage, res: ServerResponse) =>
		res.once('close', () => {
			clearTimeout(jobsTimer);
			jobsTimer = setTimeout(beginJobs, JOBS_AFTER_FIRST_ANSWER_MS);
		}),
	);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	log.info(`Gitstead ${version} serving ${app.urls.apiBase}`, {
		listen: server.address,
		database: config.databaseFile,
		schema: app.migration.created
			? 'created'
			: app.migration.from !== app.migration.to
				? `upgraded ${app.migration.from}→${app.migration.to}`
				: 'current',
		rate_limit: config.rate_limit.enabled ? 'on' : 'off',
		started_ms: Math.round(ms),
	});

	const stop = (reason = 'stop') =>
		(stopping ??= (async () => {
			const began = performance.now();
			const elapsed = () => Math.round(performance.now() - began);
			const timeoutMs = config.server.shutdown_timeout_seconds * 1000;
			const attempts = app.webhooks.attemptsInFlight;
			clearTimeout(jobsTimer);
			const background = stopJobs === null ? Promise.all([app.tasks.stop(), app.webhooks.stop()]) : stopJobs();
			const { draining, cut } = await server.shutdown(timeoutMs, (requests) =>
				log.info(`stopping (${reason}): draining ${requests} requests`, {
					requests,
					webhook_attempts: attempts,
					timeout_s: config.server.shutdown_timeout_seconds,
				}),
			);
			if (cut > 0)
				log.warn(`shutdown deadline passed: closed ${cut} of ${draining} requests unanswered`, {
					requests: draining,
					cut,
					ms: elapsed(),
				});
			else log.info(`answered ${draining} requests, server closed`, { requests: draining, ms: elapsed() });
			// Webhook attempts and background tasks in flight: what is left of the deadline.
			let timer: NodeJS.Timeout | undefined;
			const inTime = await Promise.race([
				background.then(() => true),
				new Promise<boolean>((done) => (timer = setTimeout(() => done(false), Math.max(0, timeoutMs - elapsed())))),
			]);
			clearTimeout(timer);
			if (inTime) log.info('jobs stopped', { webhook_attempts: attempts, ms: elapsed() });
			else {
				const dropped = app.webhooks.abandon();
				log.warn(`shutdown deadline passed: jobs stopped, ${dropped} webhook attempts left due for the next start`, {
					webhook_attempts: dropped,
					ms: elapsed(),
				});
			}
			try {
				closeApp(app, { checkpoint: true });
				log.info('database closed', { wal: 'checkpointed', ms: elapsed() });
			} finally {
				lock.release();
			}
			log.info(`stopped in ${elapsed()} ms`, { ms: elapsed() });
		})());
	return { app, server, stop };
}
