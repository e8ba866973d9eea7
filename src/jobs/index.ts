/**
 * In-process jobs, scheduled with node-cron by `serve` only (admin commands run none). Each has a
 * stable id; a failing run is logged as a warning and never stops the server.
 */
// require(): the bundler must take node-cron's CommonJS build (its ESM build locates a daemon file by
// import.meta.url); required when the jobs start, after the server's first answer.
type Cron = typeof import('node-cron');
import type { App } from '../app';
import { expireDismissalRequests } from '../api/dependabot/service';
import { expireArchives } from '../api/migrations/service';
import { gc } from '../api/git/gc';
import { sweepAssetFiles } from '../api/releases/service';
import { sweepLogFiles } from '../api/actions/logs';
import { epochSeconds, isoSeconds } from '../time';

export interface Job {
	id: string;
	/** node-cron expression (six fields: seconds first). */
	schedule: string;
	// biome-ignore lint/suspicious/noConfusingVoidType: a job is synchronous (void) or asynchronous (a promise)
	run(app: App): void | Promise<unknown>;
}

export const JOBS: Job[] = [
	{
		// Rate-limit windows and token last_used_at are counted in memory and written here.
		id: 'usage-flush',
		schedule: '* * * * * *',
		run: (app) => void app.flushCounters(),
	},
	{
		id: 'rate-limit-reset',
		schedule: '0 * * * * *',
		run: (app) => void app.rateLimiter.resetExpired(epochSeconds(app.clock())),
	},
	{
		id: 'background-tasks',
		schedule: '* * * * * *',
		run: (app) => app.tasks.runDue(),
	},
	{
		// Global webhook deliveries, and their retries with backoff.
		id: 'webhook-deliveries',
		schedule: '* * * * * *',
		run: (app) => app.webhooks.deliverDue(),
	},
	{
		// Migration archives are deleted automatically after seven days.
		id: 'migration-archive-expiry',
		schedule: '0 7 * * * *',
		run: (app) => void expireArchives(app),
	},
	{
		// Release asset files no row names (a crash mid-upload, a deleted repository's assets).
		id: 'release-asset-sweep',
		schedule: '0 37 * * * *',
		run: (app) => void sweepAssetFiles(app, app.clock()),
	},
	{
		// Workflow log files no row names (a failed import, a deleted repository's runs).
		id: 'job-log-sweep',
		schedule: '0 39 * * * *',
		run: (app) => void sweepLogFiles(app, app.clock()),
	},
	{
		// Finished background tasks: done ones kept a day, failed ones (with their last error) 30 days.
		id: 'background-tasks-prune',
		schedule: '0 29 * * * *',
		run(app) {
			const now = epochSeconds(app.clock());
			app.transaction(() => app.tasks.prune(now - 86_400, now - 30 * 86_400));
		},
	},
	{
		// Activity feeds keep events.retention_days (30) of events.
		id: 'events-prune',
		schedule: '0 23 * * * *',
		run(app) {
			const before = isoSeconds(app.clock() - app.config.events.retention_days * 86_400_000);
			app.transaction(() => app.stores.events.prune(before));
		},
	},
	{
		// The organization audit log keeps events.audit_retention_days (180) of entries.
		id: 'audit-log-prune',
		schedule: '30 23 * * * *',
		run(app) {
			const before = app.clock() - app.config.events.audit_retention_days * 86_400_000;
			app.transaction(() => app.stores.auditLog.prune(before));
		},
	},
	{
		id: 'dismissal-request-expiry',
		schedule: '0 * * * * *',
		run: (app) => void expireDismissalRequests(app, app.clock()),
	},
	{
		// Git maintenance: unreachable objects past the grace period, deltas for objects stored whole.
		id: 'git-gc',
		schedule: '0 41 4 * * 0',
		run: (app) => gc(app, { now: epochSeconds(app.clock()) }),
	},
	{
		id: 'database-maintenance',
		schedule: '0 17 3 * * *',
		run(app) {
			app.transaction.flush(); // a checkpoint cannot pass an open write transaction
			app.db.pragma('wal_checkpoint(TRUNCATE)');
			app.db.pragma('optimize');
		},
	},
];

/**
 * Starts every job; returns a function that stops them: no job runs any more, background tasks
 * and webhook deliveries start no new work (src/jobs/tasks.ts stop, src/webhooks Webhooks.stop),
 * and the returned promise resolves when the runs in progress have ended. A stopping server does
 * not wait for it past its deadline (Webhooks.abandon leaves the attempts in flight due).
 */
export function startJobs(app: App, jobs: Job[] = JOBS): () => Promise<void> {
	const running = new Set<Promise<void>>();
	const cron = require('node-cron') as Cron;
	const tasks = jobs.map((job) =>
		cron.schedule(
			job.schedule,
			async () => {
				const run = (async () => {
					try {
						await job.run(app);
					} catch (error) {
						app.log.warn('job failed', { job: job.id, error: (error as Error).message });
					}
				})();
				running.add(run);
				await run;
				running.delete(run);
			},
			{ name: job.id, noOverlap: true },
		),
	);
	app.tasks.autoRun = true;
	app.webhooks.autoRun = true;
	return async () => {
		for (const task of tasks) void task.stop();
		await Promise.all([app.tasks.stop(), app.webhooks.stop(), ...running]);
	};
}
