/**
 * The composition root: opens the data folder and wires the application (src/app.ts describes its
 * shape). `serve`, every `admin` command and the tests open one with openApp; nothing else in src
 * imports this module.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from './app';
import { Authenticator } from './auth/principal';
import { createTokenStore } from './auth/token-store';
import { ConfigError, type Resolved } from './config';
import { ExternalChanges } from './db/external-changes';
import { completeLeftovers } from './events/deferred';
import { catchUpNotifications, forgetRecordedNotifications } from './events/notifications';
import { backupBeforeUpgrade, migrate } from './db/migrate';
import { openDatabase, type DB } from './db/open';
import { createSettings } from './db/settings';
import { createTransaction, immediate } from './db/transaction';
import { RepresentationCache } from './http/cache';
import { Health } from './http/health';
import { Metrics } from './http/metrics';
import { PollInterval } from './http/poll';
import { RateLimiter } from './http/rate-limit';
import { Urls } from './model/urls';
import { TrustedProxies } from './http/proxy';
import { TaskQueue } from './jobs/tasks';
import { createLogger, type Logger } from './log';
import { systemClock, epochSeconds, type Clock } from './time';
import { Webhooks } from './webhooks';
import { createStores } from './api/stores';
import { comparisonPart, reopenPull } from './api/pulls/service';
import { recordPullRequest } from './api/pulls/events';
import { renderBody } from './model/markdown/render';
import { catchUpIssueIndex, scheduleIssueIndexing } from './api/search/issue-index';
import { EXPORT_TASK, runExportTask } from './api/migrations/service';
import { CONVERT_TASK, runConversionTask } from './api/outside-collaborators/service';
import { MARK_READ_TASK, runMarkReadTask } from './api/notifications/service';
import { ORG_DELETION_TASK, runOrganizationDeletionTask } from './api/orgs/service';
import { MERGEABILITY_TASK } from './api/pulls/mergeable-state';
import { runCodeIndexTask } from './api/search/code-index';
import { CODE_INDEX_TASK } from './events/code-index';
import { STATS_TASK, runStatsTask } from './api/stats/service';
import { checkRulesets } from './api/rulesets/enforce';
import { checkRefUpdate } from './api/branches/enforce';
import { closeReferencedIssues } from './api/issues/push-references';
import { followRef, followRename } from './api/pulls/follow';
import { runMergeabilityTask } from './api/pulls/mergeability';
import { runAutoMergeTask } from './api/pulls/auto-merge';
import { AUTO_MERGE_TASK } from './events/auto-merge';

/** Each open application's poll-interval sampler, stopped when it closes. */
const samplers = new WeakMap<App, PollInterval>();

export interface OpenOptions {
	clock?: Clock;
	log?: Logger;
	/**
	 * Create the data folder and the database when missing (default true: `serve`, `admin init`,
	 * tests). With false a missing folder or database is refused (the other admin commands).
	 */
	create?: boolean;
	/**
	 * Group commit (src/db/transaction.ts): the writes of one event-loop turn share one commit, and
	 * answers wait for it. The server's mode; the command line commits each change as it makes it.
	 */
	groupCommit?: boolean;
}

/** The data folder or its database does not exist (and openApp was told not to create them). */
export class MissingDatabaseError extends Error {}

/**
 * Opens the data folder: creates it (unless `create: false`), opens and upgrades the database,
 * prepares every statement.
 * @throws MissingDatabaseError when `create` is false and the folder or database is missing
 * @throws Error with a one-line reason when the folder or database cannot be used.
 */
export function openApp(config: Resolved, options: OpenOptions = {}): App {
	const create = options.create ?? true;
	const dataDir = config.storage.data_dir;
	if (!create) {
		const hint = '(create it with: gitstead admin init, or start gitstead serve)';
		if (!existsSync(dataDir)) throw new MissingDatabaseError(`the data folder ${dataDir} does not exist ${hint}`);
		if (!existsSync(config.databaseFile)) throw new MissingDatabaseError(`the data folder ${dataDir} has no gitstead.db ${hint}`);
	}
	try {
		mkdirSync(dataDir, { recursive: true });
	} catch (error) {
		throw new Error(`cannot create the data folder ${dataDir}: ${(error as Error).message}`);
	}
	let db: DB;
	try {
		db = openDatabase(config.databaseFile, { mustExist: !create, busyTimeoutMs: config.storage.busy_timeout_ms });
	} catch (error) {
		throw new Error(`cannot open the database ${config.databaseFile}: ${(error as Error).message}`);
	}
	if (config.storage.synchronous === 'full') db.pragma('synchronous = FULL');
	const log = options.log ?? createLogger();
	// Upgrade steps run on a copy's safety net: refused (the database closed) when the copy fails.
	let backup: string | null;
	try {
		backup = backupBeforeUpgrade(db, join(dataDir, 'backups'));
	} catch (error) {
		db.close();
		throw error;
	}
	if (backup) log.info('copied the database before upgrading its schema', { backup });
	const migration = { ...migrate(db, { renderBody }), backup };
	const clock = options.clock ?? systemClock;
	const tokens = createTokenStore(db, () => authenticator.clear());
	const stores = createStores(db);
	const authenticator = new Authenticator(tokens, stores.apps);
	const externalChanges = new ExternalChanges(db);
	const cache = new RepresentationCache();
	const poll = new PollInterval(config.polling.interval_seconds);
	const metrics = new Metrics(config.metrics, {
		databaseFile: config.databaseFile,
		dataDir,
		pendingDeliveries: () => stores.webhooks.queuedCount(),
		taskBacklog: () => app.tasks.backlog(),
	});
	const webhooks = new Webhooks({
		store: stores.webhooks,
		clock,
		log,
		settings: config.webhooks,
		host: () => app.urls.host,
		observeAttempt: (seconds, ok, final) => metrics.deliveryAttempt(seconds, ok, final),
	});
	const clearCaches = () => {
		stores.accounts.forget();
		stores.memberships.forget();
		// Repository rows and the counters behind ETag validators (src/db/change-counters.ts).
		stores.changes.clear();
		// The newest epoch of stored git objects may have been rolled back or written elsewhere.
		stores.git.forgetEpoch();
		cache.clear();
		// The hooks (and the repositories and organizations with hooks) the delivery engine remembers.
		webhooks.invalidate();
		// The events the notification pass would take from memory: some may have been rolled back.
		forgetRecordedNotifications(app);
	};
	externalChanges.onChange(() => {
		authenticator.clear();
		clearCaches();
	});
	const app: App = {
		config,
		db,
		clock,
		log,
		urls: new Urls(config.origin, config.apiBase),
		acting: null,
		proxies: trustedProxies(config),
		tokens,
		settings: createSettings(db),
		authenticator,
		externalChanges,
		stores,
		cache,
		rateLimiter: new RateLimiter(db, config.rate_limit),
		tasks: new TaskQueue<App>({ db, clock, log, context: () => app }),
		webhooks,
		refRules: [checkRefUpdate, checkRulesets],
		refFollowers: [followRef],
		pushFollowers: [closeReferencedIssues],
		branchRenameFollowers: [followRename],
		pullRequestHooks: { recordChange: recordPullRequest, prepareReopen: reopenPull },
		migration,
		transaction: createTransaction(db, clearCaches, { batch: options.groupCommit === true, clock }),
		pollInterval: () => poll.seconds(),
		flushCounters() {
			const windows = app.rateLimiter.flush();
			const tokensUsed = immediate(db, () => authenticator.flushUsage());
			return windows + tokensUsed;
		},
		health: new Health({
			db,
			databaseFile: config.databaseFile,
			dataDir,
			settings: config.health,
			clock,
			storageFailure: () => app.transaction.storageFailure(),
			schemaVersion: migration.to,
		}),
		metrics,
	};
	samplers.set(app, poll);
	app.tasks.register(CONVERT_TASK, runConversionTask);
	app.tasks.register(EXPORT_TASK, runExportTask);
	app.tasks.register(MARK_READ_TASK, runMarkReadTask);
	app.tasks.register(MERGEABILITY_TASK, runMergeabilityTask);
	app.tasks.register(CODE_INDEX_TASK, runCodeIndexTask);
	app.tasks.register(STATS_TASK, runStatsTask);
	app.tasks.register(AUTO_MERGE_TASK, runAutoMergeTask);
	app.tasks.register(ORG_DELETION_TASK, runOrganizationDeletionTask);
	app.rateLimiter.load(epochSeconds(clock()));
	// Payload parts a stopped process had left for after its commit (src/events/deferred.ts).
	completeLeftovers(app, { comparison: comparisonPart });
	// Notification threads of events a stopped process recorded but had not derived yet.
	catchUpNotifications(app);
	// The search index follows issue writes after their commit, and catches up with a stopped process's.
	stores.issues.onTextWritten(() => scheduleIssueIndexing(app));
	catchUpIssueIndex(app);
	return app;
}

/**
 * Writes pending counters and closes the database (folding the WAL back into the file).
 * @param options.checkpoint first copy the whole WAL into the database and truncate it (PRAGMA
 *   wal_checkpoint(TRUNCATE): a stopping server; waits up to the busy timeout for readers of
 *   other processes)
 */
export function closeApp(app: App, options: { checkpoint?: boolean } = {}): void {
	if (!app.db.open) return;
	samplers.get(app)?.stop();
	try {
		app.transaction.flush();
		app.flushCounters();
		if (options.checkpoint) app.db.pragma('wal_checkpoint(TRUNCATE)');
	} finally {
		app.db.close();
	}
}

/**
 * `[server] trusted_proxies` as a TrustedProxies; a configured external_url fixes the origin.
 * @throws ConfigError naming an entry that is neither an address nor a CIDR range
 */
function trustedProxies(config: Resolved): TrustedProxies {
	try {
		return new TrustedProxies(config.server.trusted_proxies, config.server.external_url.trim() !== '');
	} catch (error) {
		throw new ConfigError((error as Error).message);
	}
}
