/**
 * `gitstead serve`: takes the data folder's lock (one server per folder, src/db/lock.ts), opens the
 * data folder, bootstraps the first site administrator, starts the jobs and the HTTP server, and
 * shuts down cleanly on SIGINT/SIGTERM (counters written, database closed so the WAL folds back,
 * lock released).
 */
import { mkdirSync } from 'node:fs';
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
	stop(): Promise<void>;
}

/**
 * Starts Gitstead.
 * @throws DataDirLockedError (src/db/lock.ts) when another server holds the data folder
 * @throws Error with a one-line reason otherwise (folder, database, address)
 */
export async function serve(config: Resolved, print: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<Serving> {
	const started = process.hrtime.bigint();
	// Keep V8's young generation at its initial size instead of letting it double up to 16 MB
	// semi-spaces: measured under the write benchmark, resident memory stays near 100 MB instead
	// of 125 MB for about 8% more CPU per write (npm run bench; README, Performance).
	setFlagsFromString('--semi-space-growth-factor=1');
	const log = createLogger();
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
	const stopJobs = startJobs(app);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	log.info(`Gitstead ${version} serving ${app.urls.apiBase}`, {
		listen: server.address,
		database: config.databaseFile,
		schema: app.migration.created ? 'created' : app.migration.from !== app.migration.to ? `upgraded ${app.migration.from}→${app.migration.to}` : 'current',
		rate_limit: config.rate_limit.enabled ? 'on' : 'off',
		started_ms: ms.toFixed(0),
	});

	let stopping: Promise<void> | null = null;
	const stop = () =>
		(stopping ??= (async () => {
			stopJobs();
			await server.close();
			try {
				closeApp(app);
			} finally {
				lock.release();
			}
		})());
	return { app, server, stop };
}
