/**
 * The application's shape: configuration, the database with every area's prepared statements, the
 * clock, caches, the rate limiter and the background queues. Handlers reach it as `ctx.app`,
 * services take it as their first argument. It is built and wired by src/compose.ts (openApp);
 * this module holds only types, so every layer may depend on it without a cycle.
 */
import type { Acting, Authenticator } from './auth/principal';
import type { TokenStore } from './auth/token-store';
import type { Resolved } from './config';
import type { ExternalChanges } from './db/external-changes';
import type { MigrationResult } from './db/migrate';
import type { DB } from './db/open';
import type { Settings } from './db/settings';
import type { Transaction } from './db/transaction';
import type { RepresentationCache } from './http/cache';
import type { Health } from './http/health';
import type { Metrics } from './http/metrics';
import type { RateLimiter } from './http/rate-limit';
import type { Urls } from './model/urls';
import type { TrustedProxies } from './http/proxy';
import type { TaskQueue } from './jobs/tasks';
import type { Logger } from './log';
import type { Clock } from './time';
import type { Webhooks } from './webhooks';
import type { Stores } from './api/stores';
import type { RefUpdate, RefWriter } from './model/ref-rules';
import type { IssueRow, PullRequestRow, RepositoryRow } from './model/rows';
import type { NotificationActivity } from './model/notifications';
import type { TimelineEntry } from './model/timeline';

export type { Stores };

/**
 * A rule every reference write passes before the reference moves (src/api/git/writes.ts moveRef):
 * branch protection, rulesets. `before` null: the reference is created; `after` null: it is deleted.
 * @throws DomainError (422, GitHub's message) to refuse the write
 */
export type RefRule = (app: App, repo: RepositoryRow, ref: string, before: string | null, after: string | null, writer: RefWriter) => void;

/**
 * What a feature derives from a git push, run after its reference updates were applied (each in its
 * own transaction; src/api/git/push.ts applyPush) with the updates that went through.
 */
export type PushFollower = (app: App, repo: RepositoryRow, updates: RefUpdate[], actorId: number | null) => void;

/**
 * What a feature does when a reference moved to `after` (created or updated, not deleted), inside
 * the write's transaction after its events (src/api/git/writes.ts moveRef).
 */
export type RefFollower = (app: App, repo: RepositoryRow, ref: string, after: string, actorId: number | null) => void;

/**
 * What a feature does when a branch is renamed from `from` to `to`, inside the rename's transaction
 * (src/api/branches/service.ts renameBranch). `now` is an ISO timestamp.
 */
export type BranchRenameFollower = (app: App, repo: RepositoryRow, from: string, to: string, now: string, actorId: number | null) => void;

/**
 * What the issue use cases hand to pull requests (wired by src/compose.ts from src/api/pulls): a pull
 * request is an issue, so an issue service changes one, and these add its pull-request part.
 */
export interface PullRequestHooks {
	/**
	 * Records a change of a pull request's issue part as GitHub's `pull_request` event (never
	 * `issues`), inside the change's transaction (src/api/pulls/events.ts recordPullRequest).
	 * `caller` is a Caller (src/auth/caller.ts) and `scope` the repository's IssueScope
	 * (src/api/issues/service.ts): unknown here, since this module imports neither (both import it).
	 * @param extra payload fields after pull_request (changes, label, assignee, milestone)
	 * @param timeline its issue events, when not the ones its action and extra tell
	 */
	recordChange(
		caller: unknown,
		scope: unknown,
		row: IssueRow,
		action: string,
		extra?: Record<string, unknown>,
		notification?: NotificationActivity,
		timeline?: TimelineEntry[],
	): void;
	/**
	 * Before a pull request's issue reopens (src/api/pulls/service.ts reopenPull): refuses a merged
	 * pull request or one whose head or base branch (`baseRef`) is gone, and takes the head branch's
	 * current commit. `now` is an ISO timestamp.
	 * @throws DomainError 422 (GitHub's message) when it cannot reopen
	 */
	prepareReopen(app: App, pr: PullRequestRow, baseRef: string, now: string): void;
}

export interface App {
	config: Resolved;
	db: DB;
	/** Epoch milliseconds. */
	clock: Clock;
	log: Logger;
	/**
	 * Absolute URLs of answers: the configured external URL, or, for the span of one request from a
	 * trusted proxy, the origin that proxy forwarded (set by the pipeline; src/http/proxy.ts).
	 */
	urls: Urls;
	/**
	 * The request whose handler is running (who, through which token, from where), for the audit
	 * log; set by the pipeline around each handler, null otherwise (src/auth/principal.ts Acting).
	 */
	acting: Acting | null;
	/** `[server] trusted_proxies`: whose X-Forwarded-* / Forwarded headers are believed. */
	proxies: TrustedProxies;
	tokens: TokenStore;
	stores: Stores;
	/** Instance-wide facts (settings table). */
	settings: Settings;
	cache: RepresentationCache;
	rateLimiter: RateLimiter;
	tasks: TaskQueue<App>;
	/** Webhook events and their deliveries: global, organization and repository hooks. */
	webhooks: Webhooks;
	/** The rules reference writes pass, in order (wired by src/compose.ts: branch protection, then rulesets). */
	refRules: readonly RefRule[];
	/** What follows a reference write (wired by src/compose.ts: the pull requests of the branch). */
	refFollowers: readonly RefFollower[];
	/** What follows a git push (wired by src/compose.ts: the issues its commits name). */
	pushFollowers: readonly PushFollower[];
	/** What follows a branch rename (wired by src/compose.ts: the pull requests into and from it). */
	branchRenameFollowers: readonly BranchRenameFollower[];
	/** The pull-request part of the issue use cases (wired by src/compose.ts from src/api/pulls). */
	pullRequestHooks: PullRequestHooks;
	migration: MigrationResult;
	/** Token → principal, with its cache (last_used_at written at most once a minute per token). */
	authenticator: Authenticator;
	/** Notices commits by other processes and clears in-memory caches. */
	externalChanges: ExternalChanges;
	/**
	 * Runs `fn` in one IMMEDIATE transaction (nested calls become savepoints; src/db/transaction.ts).
	 * When a transaction rolls back after writing, in-memory caches are cleared, since they may have
	 * seen uncommitted rows. In the server (group commit) the writes of one event-loop turn share one
	 * commit: `durable()` resolves once it is done, and answers wait for it.
	 */
	transaction: Transaction;
	/** Writes in-memory counters (rate-limit windows, token use). @returns rows written */
	flushCounters(): number;
	/** X-Poll-Interval, in seconds (grows while the server is busy). */
	pollInterval(): number;
	/** GET /healthz: the checks (src/http/health.ts). */
	health: Health;
	/** GET /metrics: this application's Prometheus registry and request counters (src/http/metrics.ts). */
	metrics: Metrics;
}
