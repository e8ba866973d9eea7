/**
 * The application object: configuration, the database with every area's prepared statements
 * (created once, here), the clock, caches, the rate limiter and the background task queue.
 * `serve` and every `admin` command open one; tests open one per suite.
 */
import { mkdirSync } from 'node:fs';
import { Authenticator } from './auth/principal';
import { createTokenStore, type TokenStore } from './auth/token-store';
import type { Resolved } from './config';
import { ExternalChanges } from './db/external-changes';
import { migrate, type MigrationResult } from './db/migrate';
import { openDatabase, type DB } from './db/open';
import { RepresentationCache } from './http/cache';
import { RateLimiter } from './http/rate-limit';
import { Urls } from './http/urls';
import { TaskQueue } from './jobs/tasks';
import { createLogger, type Logger } from './log';
import { systemClock, epochSeconds, type Clock } from './time';
import { createBudgetStore } from './api/budgets/store';
import { createCustomPropertyStore } from './api/custom-properties/store';
import { createEnterpriseStore } from './api/enterprises/store';
import { createMembershipStore } from './api/members/store';
import { createOrgStore } from './api/orgs/store';
import { createRepositoryStore } from './api/repos/store';
import { createRunnerGroupStore } from './api/runner-groups/store';
import { createMigrationStore } from './api/migrations/store';
import { EXPORT_TASK, runExportTask } from './api/migrations/service';
import { createSettings, type Settings } from './db/settings';
import { createWebhookStore } from './webhooks/store';
import { createAppStore } from './api/apps/store';
import { createGitStore } from './api/git/store';
import { createDeploymentStore } from './api/deployments/store';
import { createActionsStore } from './api/actions/store';
import { createDependabotStore } from './api/dependabot/store';
import { createDependencyGraphStore } from './api/dependency-graph/store';
import { createGistStore } from './api/gists/store';
import { createIssueStore } from './api/issues/store';
import { createLabelStore } from './api/labels/store';
import { Webhooks } from './webhooks';
import { createTeamStore } from './api/teams/store';
import { createAccountStore } from './api/users/store';
import { CONVERT_TASK, runConversionTask } from './api/outside-collaborators/service';

function createStores(db: DB) {
	return {
		accounts: createAccountStore(db),
		orgs: createOrgStore(db),
		enterprises: createEnterpriseStore(db),
		memberships: createMembershipStore(db),
		teams: createTeamStore(db),
		repos: createRepositoryStore(db),
		customProperties: createCustomPropertyStore(db),
		budgets: createBudgetStore(db),
		runnerGroups: createRunnerGroupStore(db),
		migrations: createMigrationStore(db),
		webhooks: createWebhookStore(db),
		apps: createAppStore(db),
		git: createGitStore(db),
		deployments: createDeploymentStore(db),
		actions: createActionsStore(db),
		gists: createGistStore(db),
		dependabot: createDependabotStore(db),
		dependencyGraph: createDependencyGraphStore(db),
		issues: createIssueStore(db),
		labels: createLabelStore(db),
	};
}

export type Stores = ReturnType<typeof createStores>;

export interface App {
	config: Resolved;
	db: DB;
	/** Epoch milliseconds. */
	clock: Clock;
	log: Logger;
	urls: Urls;
	tokens: TokenStore;
	stores: Stores;
	/** Instance-wide facts (settings table). */
	settings: Settings;
	cache: RepresentationCache;
	rateLimiter: RateLimiter;
	tasks: TaskQueue;
	/** Global webhook events and deliveries. */
	webhooks: Webhooks;
	migration: MigrationResult;
	/** Token → principal, with its cache (last_used_at written at most once a minute per token). */
	authenticator: Authenticator;
	/** Notices commits by other processes and clears in-memory caches. */
	externalChanges: ExternalChanges;
	/**
	 * Runs `fn` in one transaction (nested calls become savepoints). When the outermost transaction
	 * rolls back, in-memory caches are cleared, since they may have seen uncommitted rows.
	 */
	transaction<T>(fn: () => T): T;
	/** Writes in-memory counters (rate-limit windows, token use). @returns rows written */
	flushCounters(): number;
}

export interface OpenOptions {
	clock?: Clock;
	log?: Logger;
}

/**
 * Opens the data folder: creates it, opens and upgrades the database, prepares every statement.
 * @throws Error with a one-line reason when the folder or database cannot be used.
 */
export function openApp(config: Resolved, options: OpenOptions = {}): App {
	try {
		mkdirSync(config.storage.data_dir, { recursive: true });
	} catch (error) {
		throw new Error(`cannot create the data folder ${config.storage.data_dir}: ${(error as Error).message}`);
	}
	let db: DB;
	try {
		db = openDatabase(config.databaseFile);
	} catch (error) {
		throw new Error(`cannot open the database ${config.databaseFile}: ${(error as Error).message}`);
	}
	if (config.storage.synchronous === 'full') db.pragma('synchronous = FULL');
	const migration = migrate(db);
	const clock = options.clock ?? systemClock;
	const tokens = createTokenStore(db, () => authenticator.clear());
	const stores = createStores(db);
	const authenticator = new Authenticator(tokens, stores.apps);
	const externalChanges = new ExternalChanges(db);
	const cache = new RepresentationCache();
	const totalChanges = db.prepare('SELECT total_changes()').pluck();
	const clearCaches = () => {
		stores.accounts.forget();
		cache.clear();
	};
	externalChanges.onChange(() => {
		authenticator.clear();
		clearCaches();
	});
	const app: App = {
		config,
		db,
		clock,
		log: options.log ?? createLogger(),
		urls: new Urls(config.origin, config.apiBase),
		tokens,
		settings: createSettings(db),
		authenticator,
		externalChanges,
		stores,
		cache,
		rateLimiter: new RateLimiter(db, config.rate_limit),
		tasks: undefined as unknown as TaskQueue,
		webhooks: undefined as unknown as Webhooks,
		migration,
		transaction<T>(fn: () => T): T {
			const changesBefore = totalChanges.get() as number;
			try {
				return db.transaction(fn)();
			} catch (error) {
				// Caches may hold rows written inside the rolled-back transaction; a transaction
				// that wrote nothing (most 4xx answers) leaves them valid.
				if (!db.inTransaction && (totalChanges.get() as number) !== changesBefore) clearCaches();
				throw error;
			}
		},
		flushCounters() {
			const windows = app.rateLimiter.flush();
			const tokensUsed = db.transaction(() => authenticator.flushUsage())();
			return windows + tokensUsed;
		},
	};
	app.tasks = new TaskQueue(app);
	app.webhooks = new Webhooks(app);
	externalChanges.onChange(() => app.webhooks.invalidate());
	app.tasks.register(CONVERT_TASK, runConversionTask);
	app.tasks.register(EXPORT_TASK, runExportTask);
	app.rateLimiter.load(epochSeconds(clock()));
	return app;
}

/** Writes pending counters and closes the database (folding the WAL back into the file). */
export function closeApp(app: App): void {
	if (!app.db.open) return;
	try {
		app.flushCounters();
	} finally {
		app.db.close();
	}
}
