/**
 * `gitstead serve`: opens the data folder, bootstraps the first site administrator, starts the
 * jobs and the HTTP server, and shuts down cleanly on SIGINT/SIGTERM (counters written, database
 * closed so the WAL folds back).
 */
import { setFlagsFromString } from 'node:v8';
import type { App } from '../app';
import { closeApp, openApp } from '../compose';
import { createUser } from '../api/users/service';
import { ALL_TOP_LEVEL_SCOPES } from '../auth/scopes';
import { version } from '../build-info';
import type { Resolved } from '../config';
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

/** Starts Gitstead. @throws Error with a one-line reason. */
export async function serve(config: Resolved, print: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<Serving> {
	const started = process.hrtime.bigint();
	// Keep V8's young generation at its initial size instead of letting it double up to 16 MB
	// semi-spaces: measured under the write benchmark, resident memory stays near 100 MB instead
	// of 125 MB for about 8% more CPU per write (npm run bench; README, Performance).
	setFlagsFromString('--semi-space-growth-factor=1');
	const log = createLogger();
	const app = openApp(config, { log });
	let server: RunningServer;
	try {
		server = await listen(app, config.server.host, config.server.port);
	} catch (error) {
		closeApp(app);
		throw error;
	}
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
			closeApp(app);
		})());
	return { app, server, stop };
}
