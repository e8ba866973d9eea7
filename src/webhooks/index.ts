/**
 * Webhook events and their durable delivery, one engine for global hooks (GitHub Enterprise Server's
 * global webhooks), organization hooks and repository hooks (GitHub's REST
 * "Organization webhooks" and "Repository webhooks").
 *
 * emit() runs inside the transaction of the change that causes the event: for every active hook
 * subscribed to the event — the global hooks, the hooks of the event's organization and those of
 * its repository — it writes a webhook_deliveries row, so a delivery exists exactly when the change
 * does. A hook subscribes by GitHub's event names, or "*" for every event. The `webhook-deliveries` job (and a prompt pass after each request that queued
 * deliveries) POSTs the payload, signed with the hook's secret, and records each attempt. A failed
 * attempt (connection error, timeout, non-2xx answer) is retried with exponential backoff until
 * config webhooks.max_attempts; queued deliveries survive restarts (delivery is at least once).
 *
 * Isolation: attempts run in a pool of config webhooks.concurrency worker slots, refilled as soon
 * as an attempt ends, with at most one attempt in flight per hook (a hook's deliveries go out one
 * after another; the due query takes the oldest of each hook that has none in flight), and each
 * attempt has a total deadline of webhooks.timeout_seconds (connecting, sending, reading the whole
 * answer). A slow or dead receiver therefore holds one slot for at most that long while the others
 * keep delivering to other hooks. A delivery in flight is never picked up again by an overlapping
 * call, and a hook deleted meanwhile has its attempts in flight cancelled.
 *
 * Targets: a hook may not deliver to loopback, link-local or unspecified addresses unless config
 * webhooks.allowed_hosts lists its host (./targets.ts); checked on the URL and again on the
 * addresses its host resolves to. Such an attempt fails for good (no retry), "refused: …".
 */
import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { enterpriseVersion, version } from '../build-info';
import type { Config } from '../config';
import type { Logger } from '../log';
import { nodeId as nodeIdOf } from '../model/urls';
import { epochSeconds, isoSeconds, type Clock } from '../time';
import { scopeOf, type DeliveryRow, type HookRow, type LastResponse, type WebhookStore } from './store';
import { ALLOWED_HOSTS_KEY, deliveryTarget, TargetRefused } from './targets';

/** What delivery needs from the application. */
export interface WebhookDeps {
	store: WebhookStore;
	/** Epoch milliseconds. */
	clock: Clock;
	log: Logger;
	settings: Config['webhooks'];
	/** Host name of this server (X-GitHub-Enterprise-Host); read per delivery, as it is known only once listening. */
	host(): string;
	/**
	 * Told of every attempt made (not of an inactive hook's, which sends nothing): its duration in
	 * seconds, whether the receiver answered 2xx, and whether a failure is final (no retry follows).
	 * The metrics (src/http/metrics.ts) count them.
	 */
	observeAttempt?(seconds: number, ok: boolean, final: boolean): void;
}

/** Event types a global webhook may subscribe to. */
export const HOOK_EVENTS = ['organization', 'user', 'repository', 'team', 'member', 'membership', 'fork', 'ping'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
/** Subscription of a global hook created without `events`. */
export const DEFAULT_EVENTS: HookEvent[] = ['user', 'organization'];

/**
 * Event names an organization or repository hook may subscribe to: GitHub's webhook events
 * (docs.github.com, "Webhook events and payloads"), and "*" for all of them. Gitstead sends those it
 * records (src/events): the others are accepted, as GitHub does, and simply never fire yet.
 */
export const REPOSITORY_HOOK_EVENTS = [
	'*',
	'branch_protection_configuration',
	'branch_protection_rule',
	'check_run',
	'check_suite',
	'code_scanning_alert',
	'commit_comment',
	'create',
	'custom_property',
	'custom_property_values',
	'delete',
	'dependabot_alert',
	'deploy_key',
	'deployment',
	'deployment_protection_rule',
	'deployment_review',
	'deployment_status',
	'discussion',
	'discussion_comment',
	'fork',
	'gollum',
	'issue_comment',
	'issue_dependencies',
	'issues',
	'label',
	'member',
	'membership',
	'merge_group',
	'meta',
	'milestone',
	'org_block',
	'organization',
	'package',
	'page_build',
	'personal_access_token_request',
	'ping',
	'project',
	'project_card',
	'project_column',
	'projects_v2',
	'projects_v2_item',
	'projects_v2_status_update',
	'public',
	'pull_request',
	'pull_request_review',
	'pull_request_review_comment',
	'pull_request_review_thread',
	'push',
	'registry_package',
	'release',
	'repository',
	'repository_advisory',
	'repository_dispatch',
	'repository_import',
	'repository_ruleset',
	'repository_vulnerability_alert',
	'secret_scanning_alert',
	'secret_scanning_alert_location',
	'secret_scanning_scan',
	'security_advisory',
	'security_and_analysis',
	'star',
	'status',
	'sub_issues',
	'team',
	'team_add',
	'watch',
	'workflow_dispatch',
	'workflow_job',
	'workflow_run',
] as const;
/** Subscription of an organization or repository hook created without `events` (GitHub's). */
export const DEFAULT_REPOSITORY_HOOK_EVENTS = ['push'];

/**
 * Where an event happened: its repository and organization, whose hooks receive it too, and the
 * account it belongs to (the repository's owner, or the organization), whose apps' installations
 * receive it.
 */
export interface EventPlace {
	repoId?: number | null;
	orgId?: number | null;
	accountId?: number | null;
}

/**
 * The permissions a GitHub App's installation needs to receive an event (any one of them, at read
 * or more), after GitHub's "Webhook events and payloads" (availability for GitHub Apps). Events not
 * listed need only metadata, which every installation has.
 */
export const APP_EVENT_PERMISSIONS: Record<string, readonly string[]> = {
	branch_protection_configuration: ['administration'],
	branch_protection_rule: ['administration'],
	check_run: ['checks'],
	check_suite: ['checks'],
	commit_comment: ['contents'],
	create: ['contents'],
	custom_property: ['organization_custom_properties'],
	custom_property_values: ['organization_custom_properties'],
	delete: ['contents'],
	dependabot_alert: ['vulnerability_alerts'],
	deploy_key: ['administration'],
	deployment: ['deployments'],
	deployment_status: ['deployments'],
	fork: ['contents'],
	gollum: ['contents'],
	issue_comment: ['issues', 'pull_requests'],
	issues: ['issues'],
	member: ['members', 'administration'],
	membership: ['members'],
	milestone: ['issues', 'pull_requests'],
	organization: ['members'],
	pull_request: ['pull_requests'],
	pull_request_review: ['pull_requests'],
	pull_request_review_comment: ['pull_requests'],
	pull_request_review_thread: ['pull_requests'],
	push: ['contents'],
	release: ['contents'],
	repository_ruleset: ['administration'],
	security_and_analysis: ['administration'],
	status: ['statuses'],
	team: ['members'],
	team_add: ['members'],
	workflow_dispatch: ['actions'],
	workflow_job: ['actions'],
	workflow_run: ['actions'],
};

/** Whether an installation with these permissions (JSON) may receive `event`. */
function permitsEvent(event: string, permissionsJson: string): boolean {
	const needed = APP_EVENT_PERMISSIONS[event];
	if (!needed) return true;
	const granted = JSON.parse(permissionsJson) as Record<string, string>;
	return needed.some((key) => granted[key] !== undefined);
}

/** A hook as kept in memory: its row and its events, parsed once. */
interface Subscriber {
	hook: HookRow;
	events: ReadonlySet<string>;
}

const subscriber = (hook: HookRow): Subscriber => ({ hook, events: new Set(JSON.parse(hook.events) as string[]) });
const listens = (entry: Subscriber, event: string) => entry.events.has(event) || entry.events.has('*');
/** Largest response body kept in the delivery log (bytes); reading stops once an answer exceeds it. */
export const LOGGED_BODY_BYTES = 64 * 1024;
/** Largest response header block read (bytes, Node's maxHeaderSize); a larger one fails the attempt. */
export const RESPONSE_HEADER_BYTES = 16 * 1024;
/** While a pass runs, due deliveries are looked for at least this often (ms): retries falling due start on time. */
const REFILL_MS = 1000;
/** A delivery whose attempt failed unexpectedly (it is logged) waits this long (ms) before it is picked again. */
const QUARANTINE_MS = 1000;

const ZEN = [
	'Keep it logically awesome.',
	'Design for failure.',
	'Speak like a human.',
	'Approachable is better than simple.',
	'Mind your words, they are important.',
	'Avoid administrative distraction.',
	'Half measures are as bad as nothing at all.',
	'Encourage flow.',
	'Anything added dilutes everything else.',
	'Practicality beats purity.',
];

/** An attempt in flight: the delivery row as read when it started, and how to cancel it. */
interface InFlight {
	delivery: DeliveryRow;
	cancel: AbortController;
}

/** One delivery pass: it lasts while attempts are in flight or deliveries are due. */
interface Pass {
	/** Attempts started in this pass. */
	attempted: number;
	/** The first unexpected failure to read due deliveries; the pass ends with it. */
	error: unknown;
	done: Promise<number>;
	resolve(attempted: number): void;
	reject(error: unknown): void;
	ticker: NodeJS.Timeout;
}

export class Webhooks {
	/** The active global hooks. */
	private globals: Subscriber[] | null = null;
	/** The repositories and organizations with active hooks: only their events query the hooks table. */
	private scoped: { repoIds: ReadonlySet<number>; orgIds: ReadonlySet<number> } | null = null;
	/** How many apps have an active hook: with none, no event looks for installations. */
	private appHooks: number | null = null;
	private pass: Pass | null = null;
	/** Attempts in flight, by delivery id; at most one per hook. */
	private readonly inFlight = new Map<number, InFlight>();
	/** Deliveries whose attempt failed unexpectedly → performance.now() (ms) before which they are not picked again. */
	private readonly quarantine = new Map<number, number>();
	/** Run a delivery pass right after a request queues deliveries (off in `gitstead admin`). */
	autoRun = false;
	/** Set by stop(): no attempt starts any more. */
	private stopped = false;
	/** Set by abandon(): attempts ending now record nothing. */
	private abandoned = false;

	constructor(private readonly deps: WebhookDeps) {}

	/**
	 * Forget the cached hook list (after hooks change, here or in another process). Attempts in
	 * flight whose delivery has gone since (its hook was deleted) are cancelled right after the
	 * current transaction.
	 */
	invalidate(): void {
		this.globals = null;
		this.scoped = null;
		this.appHooks = null;
		if (this.inFlight.size > 0) setImmediate(() => this.cancelGone());
	}

	/**
	 * The active hooks subscribed to `event` where it happened: global hooks from memory; the hooks
	 * of its organization and repository from the table, only when the in-memory list of scopes
	 * with hooks names them (one Set lookup each otherwise).
	 */
	private subscribers(event: string, place: EventPlace): HookRow[] {
		this.globals ??= this.deps.store
			.globals()
			.filter((hook) => hook.active === 1)
			.map(subscriber);
		this.scoped ??= this.deps.store.scopesWithHooks();
		const hooks = this.globals.filter((entry) => listens(entry, event)).map((entry) => entry.hook);
		const { repoId, orgId } = place;
		const scoped: HookRow[] = [];
		if (orgId != null && this.scoped.orgIds.has(orgId)) scoped.push(...this.deps.store.activeOfOrg(orgId));
		if (repoId != null && this.scoped.repoIds.has(repoId)) scoped.push(...this.deps.store.activeOfRepo(repoId));
		for (const hook of scoped) if (listens(subscriber(hook), event)) hooks.push(hook);
		return hooks;
	}

	/**
	 * The hooks of the apps installed where the event happened that receive it: the app subscribes
	 * to the event, its installation reaches the repository and holds a permission the event needs
	 * (APP_EVENT_PERMISSIONS). One query when some app has an active hook, none otherwise.
	 */
	private appSubscribers(event: string, place: EventPlace) {
		this.appHooks ??= this.deps.store.activeAppHooks();
		const accountId = place.accountId ?? place.orgId ?? null;
		if (this.appHooks === 0 || accountId === null) return [];
		return this.deps.store
			.appSubscribers(accountId, place.repoId ?? null)
			.filter((entry) => (JSON.parse(entry.events) as string[]).includes(event) && permitsEvent(event, entry.permissions));
	}

	/**
	 * Queues `event` for every active hook subscribed to it: the global hooks, those of the
	 * organization and repository it happened in, and the hooks of the apps installed there that
	 * receive it — one delivery per installation, its payload naming it (`installation` {id,
	 * node_id}), as GitHub sends to GitHub Apps. Call inside the transaction of the change.
	 * @param build makes the payload (without `action`); called only when some hook listens
	 * @param place the event's repository, organization and account
	 */
	emit(event: string, action: string | null, build: () => Record<string, unknown>, place: EventPlace = {}): void {
		const hooks = this.subscribers(event, place);
		const apps = this.appSubscribers(event, place);
		if (hooks.length === 0 && apps.length === 0) return;
		const body = action === null ? build() : { action, ...build() };
		const repositoryId = place.repoId ?? null;
		if (hooks.length) this.queue(hooks, event, action, JSON.stringify(body), randomUUID(), false, repositoryId);
		for (const entry of apps) {
			const installation = { id: entry.installationId, node_id: nodeIdOf('Installation', entry.installationId) };
			this.queue(
				[entry.hook],
				event,
				action,
				JSON.stringify({ ...body, installation }),
				randomUUID(),
				false,
				repositoryId,
				entry.installationId,
			);
		}
	}

	/**
	 * Queues an event about an installation itself (installation, installation_repositories) to its
	 * app's active hook only, whatever the app subscribes to, as GitHub sends them.
	 * @param payload the complete payload (with `action`)
	 */
	emitToApp(appId: number, installationId: number, event: string, action: string | null, payload: () => Record<string, unknown>): void {
		const hooks = this.deps.store.inScope({ kind: 'app', appId }).filter((hook) => hook.active === 1);
		if (hooks.length === 0) return;
		this.queue(hooks, event, action, JSON.stringify(payload()), randomUUID(), false, null, installationId);
	}

	/**
	 * Queues a ping to one hook (POST …/hooks/{hook_id}/pings, and on creating an organization or
	 * repository hook). An inactive hook sends nothing (GitHub's
	 * `active: false`: no deliveries): its ping is logged as failed, "hook inactive", without a request (see
	 * attempt()).
	 * @param body the hook object of the payload
	 * @param context what the payload carries besides (repository, organization, sender)
	 */
	ping(hook: HookRow, body: Record<string, unknown>, context: Record<string, unknown> = {}): void {
		const payload = JSON.stringify({ zen: ZEN[Math.floor(Math.random() * ZEN.length)], hook_id: hook.id, hook: body, ...context });
		this.queue([hook], 'ping', null, payload, randomUUID(), false, hook.repo_id);
	}

	/**
	 * Queues one event to one hook only, whatever it subscribes to (POST
	 * /repos/{owner}/{repo}/hooks/{hook_id}/tests). To an inactive hook it fails as a ping does.
	 * @param payload the complete payload (with `action` when the event has one)
	 */
	deliverTo(hook: HookRow, event: string, action: string | null, payload: Record<string, unknown>, repositoryId: number | null): void {
		this.queue([hook], event, action, JSON.stringify(payload), randomUUID(), false, repositoryId);
	}

	/** Queues the payload of an earlier delivery again, with its GUID (redelivery; to an inactive hook it fails as a ping does). */
	redeliver(delivery: DeliveryRow): number {
		const hook = this.deps.store.get(delivery.hook_id)!;
		return this.queue(
			[hook],
			delivery.event,
			delivery.action,
			delivery.payload,
			delivery.guid,
			true,
			delivery.repository_id,
			delivery.installation_id,
		)[0];
	}

	private queue(
		hooks: HookRow[],
		event: string,
		action: string | null,
		payload: string,
		guid: string,
		redelivery: boolean,
		repositoryId: number | null,
		installationId: number | null = null,
	): number[] {
		const now = this.deps.clock();
		const ids = hooks.map((hook) =>
			this.deps.store.insertDelivery({
				hookId: hook.id,
				guid,
				event,
				action,
				payload,
				redelivery,
				nextAttemptAt: epochSeconds(now),
				now: isoSeconds(now),
				repositoryId,
				installationId,
			}),
		);
		if (this.autoRun) setImmediate(() => void this.deliverDue().catch(() => undefined));
		return ids;
	}

	/**
	 * Starts due deliveries in the free worker slots (config webhooks.concurrency, at most one per
	 * hook). Overlapping calls share one pass, which refills a slot as soon as an attempt ends, looks
	 * for newly due deliveries every second, and ends when no attempt is in flight and nothing else
	 * is due.
	 * @returns the number of attempts started in the pass
	 * @throws (rejects with) an error reading the due deliveries, e.g. the database was closed
	 */
	deliverDue(): Promise<number> {
		if (!this.pass) {
			let resolve!: (attempted: number) => void;
			let reject!: (error: unknown) => void;
			const done = new Promise<number>((ok, fail) => {
				resolve = ok;
				reject = fail;
			});
			const ticker = setInterval(() => this.fill(), REFILL_MS);
			ticker.unref();
			this.pass = { attempted: 0, error: undefined, done, resolve, reject, ticker };
		}
		const pass = this.pass;
		this.fill();
		return pass.done;
	}

	/** Attempts in flight now. */
	get attemptsInFlight(): number {
		return this.inFlight.size;
	}

	/**
	 * Stops delivering (the server is stopping): no attempt starts any more, in this process.
	 * @returns resolves when the attempts in flight have ended and been recorded (or abandoned)
	 */
	stop(): Promise<void> {
		this.stopped = true;
		this.autoRun = false;
		const pass = this.pass;
		if (!pass) return Promise.resolve();
		this.fill();
		return pass.done.then(
			() => undefined,
			() => undefined,
		);
	}

	/**
	 * Drops the attempts still in flight after stop() (the shutdown deadline passed): their
	 * requests are closed and nothing is recorded, so each delivery stays due as it was and the next
	 * start sends it again (at least once; never marked delivered without an answer).
	 * @returns the number of attempts dropped
	 */
	abandon(): number {
		this.abandoned = true;
		for (const { cancel } of this.inFlight.values()) cancel.abort();
		return this.inFlight.size;
	}

	/** Fills free worker slots with due deliveries; ends the pass when nothing is in flight. */
	private fill(): void {
		const pass = this.pass;
		if (!pass) return;
		try {
			const { concurrency } = this.deps.settings;
			const now = performance.now();
			for (const [id, until] of this.quarantine) if (until <= now) this.quarantine.delete(id);
			if (pass.error === undefined && !this.stopped && this.inFlight.size < concurrency) {
				const flying = [...this.inFlight.values()];
				// One row per hook, none of a hook with an attempt in flight, none in flight or quarantined.
				const busyHooks = flying.map(({ delivery }) => delivery.hook_id);
				const skip = [...flying.map(({ delivery }) => delivery.id), ...this.quarantine.keys()];
				const due = this.deps.store.due(epochSeconds(this.deps.clock()), { busyHooks, skip }, concurrency - this.inFlight.size);
				for (const delivery of due) this.start(pass, delivery);
			}
		} catch (error) {
			pass.error ??= error;
		}
		if (this.inFlight.size > 0) return;
		clearInterval(pass.ticker);
		this.pass = null;
		if (pass.error === undefined) pass.resolve(pass.attempted);
		else pass.reject(pass.error);
	}

	/** Starts one attempt in a worker slot; when it ends, the slot is refilled (on the next turn of the event loop). */
	private start(pass: Pass, delivery: DeliveryRow): void {
		const cancel = new AbortController();
		this.inFlight.set(delivery.id, { delivery, cancel });
		pass.attempted++;
		this.attempt(delivery, cancel.signal)
			.catch((error: unknown) => {
				// Not tried again for a moment, so a delivery that cannot be recorded never spins.
				this.quarantine.set(delivery.id, performance.now() + QUARANTINE_MS);
				this.deps.log.error('webhook delivery attempt failed', { delivery: delivery.id, error: String(error) });
			})
			.finally(() => {
				this.inFlight.delete(delivery.id);
				// Not in this microtask: attempts that end without I/O never starve the event loop.
				setImmediate(() => this.fill());
			});
	}

	/** Cancels the attempts in flight whose delivery is gone (its hook was deleted). */
	private cancelGone(): void {
		try {
			for (const { delivery, cancel } of this.inFlight.values()) {
				if (!cancel.signal.aborted && !this.deps.store.pending(delivery)) cancel.abort();
			}
		} catch (error) {
			this.deps.log.warn('webhook delivery check failed', { error: String(error) });
		}
	}

	/**
	 * One attempt: POST, record it, schedule a retry or settle the delivery. A hook deactivated since
	 * the delivery was queued gets no request: the delivery fails at once, logged as "hook inactive".
	 * A hook deleted before or during the attempt took its deliveries along: nothing is recorded then.
	 * A target refused by the address rule fails for good, without retries.
	 */
	private async attempt(delivery: DeliveryRow, cancelled: AbortSignal): Promise<void> {
		const hook = this.deps.store.get(delivery.hook_id);
		if (!hook) {
			// Deleted (in another process) since the due query: gone with its deliveries, unless foreign
			// keys were off; then the row would stay behind, so it goes now.
			this.deps.store.discardOrphan(delivery.id);
			return;
		}
		if (hook.active !== 1) {
			this.deps.store.recordAttempt(delivery, {
				attemptedAt: isoSeconds(this.deps.clock()),
				duration: 0,
				status: 'hook inactive',
				statusCode: null,
				requestHeaders: '{}', // no request was sent
				responseHeaders: null,
				responseBody: null,
				state: 'failed',
				nextAttemptAt: null,
			});
			return;
		}
		const { body, headers } = signedRequest(this.deps.host(), hook, delivery);
		const started = this.deps.clock();
		const timer = performance.now();
		const { timeout_seconds: timeoutSeconds, allowed_hosts: allowedHosts } = this.deps.settings;
		const result = await post(hook, body, headers, { timeoutSeconds, allowedHosts, cancelled });
		// Dropped by a stopping server: the delivery stays due, unrecorded, for the next start.
		if (this.abandoned) return;
		const duration = (performance.now() - timer) / 1000;
		const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
		const attempts = delivery.attempts + 1;
		const { max_attempts: maxAttempts, retry_base_seconds: base } = this.deps.settings;
		const retry = !ok && !result.refused && attempts < maxAttempts;
		this.deps.observeAttempt?.(duration, ok, !ok && !retry);
		const recorded = this.deps.store.recordAttempt(
			delivery,
			{
				attemptedAt: isoSeconds(started),
				duration: Math.round(duration * 1000) / 1000,
				status: result.status,
				statusCode: result.statusCode,
				requestHeaders: JSON.stringify(headers),
				responseHeaders: result.headers ? JSON.stringify(result.headers) : null,
				responseBody: result.body,
				state: ok ? 'delivered' : retry ? 'queued' : 'failed',
				// Exponential backoff: base, 2×base, 4×base, … seconds after this attempt.
				nextAttemptAt: retry ? epochSeconds(this.deps.clock()) + base * 2 ** (attempts - 1) : null,
			},
			lastResponse(result),
		);
		if (recorded && !ok && !retry) {
			this.deps.log.warn('webhook delivery failed for good', { hook: hook.id, delivery: delivery.id, status: result.status });
		}
	}
}

/**
 * A hook's last_response after an attempt, in GitHub's terms: `active` with the status code after a
 * 2xx answer; otherwise the code (when there was an answer) and what went wrong.
 */
function lastResponse(result: PostResult): LastResponse {
	const code = result.statusCode;
	if (code !== null && code >= 200 && code < 300) return { code, status: 'active', message: 'OK' };
	if (code !== null) return { code, status: 'failed', message: `Invalid HTTP Response: ${code}` };
	if (result.status.startsWith('timed out')) return { code: null, status: 'timeout', message: 'Service Timeout' };
	return { code: null, status: 'failed', message: result.status };
}

/**
 * X-GitHub-Hook-Installation-Target-Type and -ID: the repository or organization a hook is
 * installed on, the app (`integration`, its id) of an app's hook; a global hook is the business's
 * (Gitstead names the hook itself).
 */
function installationTarget(hook: HookRow): { type: string; id: number } {
	const scope = scopeOf(hook);
	if (scope.kind === 'app') return { type: 'integration', id: scope.appId };
	if (scope.kind === 'repository') return { type: 'repository', id: scope.repoId };
	if (scope.kind === 'organization') return { type: 'organization', id: scope.orgId };
	return { type: 'business', id: hook.id };
}

/** The exact body and headers of a delivery: JSON or form encoding, signatures over the body. */
export function signedRequest(host: string, hook: HookRow, delivery: DeliveryRow): { body: string; headers: Record<string, string> } {
	const target = installationTarget(hook);
	const body = hook.content_type === 'json' ? delivery.payload : `payload=${encodeURIComponent(delivery.payload)}`;
	const headers: Record<string, string> = {
		Accept: '*/*',
		'Content-Type': hook.content_type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
		'User-Agent': `GitHub-Hookshot/gitstead-${version}`,
		'X-GitHub-Event': delivery.event,
		'X-GitHub-Delivery': delivery.guid,
		'X-GitHub-Hook-ID': String(hook.id),
		'X-Service-Hook-ID': String(hook.id),
		'X-GitHub-Hook-Installation-Target-Type': target.type,
		'X-GitHub-Hook-Installation-Target-ID': String(target.id),
		'X-GitHub-Enterprise-Version': enterpriseVersion,
		'X-GitHub-Enterprise-Host': host,
	};
	if (hook.secret) {
		headers['X-Hub-Signature'] = `sha1=${createHmac('sha1', hook.secret).update(body).digest('hex')}`;
		headers['X-Hub-Signature-256'] = `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`;
	}
	return { body, headers };
}

interface PostResult {
	statusCode: number | null;
	status: string;
	headers: IncomingHttpHeaders | null;
	body: string | null;
	/** Refused by the address rule (./targets.ts): not retried. */
	refused: boolean;
}

interface PostOptions {
	/** Total deadline of the attempt, seconds: connecting, sending and reading the whole answer. */
	timeoutSeconds: number;
	/** Config webhooks.allowed_hosts. */
	allowedHosts: readonly string[];
	/** Aborted when the delivery is gone (its hook was deleted): the request is dropped. */
	cancelled: AbortSignal;
}

const failure = (status: string, refused = false): PostResult => ({ statusCode: null, status, headers: null, body: null, refused });

/**
 * POSTs a delivery; never throws. The request is destroyed when the total deadline passes ("timed
 * out after N s"), when the attempt is cancelled, or once the answer's body exceeds
 * LOGGED_BODY_BYTES (the first LOGGED_BODY_BYTES are kept; the status code decides). A target
 * refused by the address rule, before or after resolving its host, gets no request at all.
 */
function post(hook: HookRow, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
	return new Promise((resolve) => {
		let url: URL;
		try {
			url = new URL(hook.url);
		} catch {
			return resolve(failure('invalid URL'));
		}
		const target = deliveryTarget(url, options.allowedHosts);
		if (target.refusal) return resolve(failure(`refused: ${target.refusal} (${ALLOWED_HOSTS_KEY})`, true));
		if (options.cancelled.aborted) return resolve(failure('cancelled: hook deleted'));

		let responded = false;
		let settled = false;
		/** Resolves once; `drop` destroys the request (and its connection) when it is not over. */
		const finish = (result: PostResult, drop: boolean) => {
			if (settled) return;
			settled = true;
			clearTimeout(deadline);
			options.cancelled.removeEventListener('abort', onCancel);
			if (drop) req.destroy();
			resolve(result);
		};
		const onCancel = () => finish(failure('cancelled: hook deleted'), true);

		// node:https (and TLS) is loaded at the first https delivery, not while the server starts.
		const send = url.protocol === 'https:' ? (require('node:https') as typeof import('node:https')).request : httpRequest;
		let req: ClientRequest;
		try {
			req = send(url, {
				method: 'POST',
				headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
				// Host names not listed in webhooks.allowed_hosts: every address they resolve to is checked.
				lookup: target.lookup,
				maxHeaderSize: RESPONSE_HEADER_BYTES,
				// insecure_ssl '0' verifies the receiver's certificate (the default); '1' does not.
				rejectUnauthorized: hook.insecure_ssl !== '1',
			});
		} catch (error) {
			return resolve(failure(`invalid request: ${(error as Error).message}`));
		}
		const deadline = setTimeout(
			() => finish(failure(`timed out after ${options.timeoutSeconds} s`), true),
			options.timeoutSeconds * 1000,
		);
		options.cancelled.addEventListener('abort', onCancel);
		req.on('response', (res) => {
			responded = true;
			const chunks: Buffer[] = [];
			let size = 0;
			const answer = (): PostResult => ({
				statusCode: res.statusCode ?? null,
				status: res.statusCode && res.statusCode < 300 ? 'OK' : (res.statusMessage ?? `HTTP ${res.statusCode}`),
				headers: res.headers,
				body: Buffer.concat(chunks).subarray(0, LOGGED_BODY_BYTES).toString('utf8'),
				refused: false,
			});
			res.on('data', (chunk: Buffer) => {
				chunks.push(chunk);
				size += chunk.length;
				// Enough for the log: stop reading rather than buffer the rest.
				if (size > LOGGED_BODY_BYTES) finish(answer(), true);
			});
			res.on('end', () => finish(answer(), false));
			res.on('error', () => undefined); // reported by 'close'
			res.on('close', () => {
				if (!res.complete)
					finish(
						{
							statusCode: res.statusCode ?? null,
							status: 'response interrupted',
							headers: res.headers,
							body: null,
							refused: false,
						},
						false,
					);
			});
		});
		req.on('error', (error: NodeJS.ErrnoException) => {
			if (error instanceof TargetRefused) return finish(failure(`refused: ${error.message} (${ALLOWED_HOSTS_KEY})`, true), false);
			if (error.code === 'HPE_HEADER_OVERFLOW')
				return finish(failure(`response headers larger than ${RESPONSE_HEADER_BYTES / 1024} KiB`), false);
			finish(failure(responded ? 'response interrupted' : `failed to connect: ${error.code ?? error.message}`), false);
		});
		req.end(body);
	});
}
