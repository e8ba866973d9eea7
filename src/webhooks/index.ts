/**
 * Global webhook events and their durable delivery (spec document 1, Global webhooks and Events;
 * reference §2.8).
 *
 * emit() runs inside the transaction of the change that causes the event: for every active global
 * hook subscribed to the event it writes a webhook_deliveries row, so a delivery exists exactly when
 * the change does. The `webhook-deliveries` job (and a prompt pass after each request that queued
 * deliveries) POSTs the payload, signed with the hook's secret, and records each attempt. A failed
 * attempt (connection error, timeout, non-2xx answer) is retried with exponential backoff until
 * config webhooks.max_attempts; queued deliveries survive restarts (delivery is at least once).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { version } from '../build-info';
import type { Config } from '../config';
import type { Logger } from '../log';
import { epochSeconds, isoSeconds, type Clock } from '../time';
import type { DeliveryRow, HookRow, WebhookStore } from './store';

/** What delivery needs from the application. */
export interface WebhookDeps {
	store: WebhookStore;
	/** Epoch milliseconds. */
	clock: Clock;
	log: Logger;
	settings: Config['webhooks'];
	/** Host name of this server (X-GitHub-Enterprise-Host); read per delivery, as it is known only once listening. */
	host(): string;
}

/** Event types a global webhook may subscribe to (spec document 1). */
export const HOOK_EVENTS = ['organization', 'user', 'repository', 'team', 'member', 'membership', 'fork', 'ping'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
/** Subscription of a hook created without `events`. */
export const DEFAULT_EVENTS: HookEvent[] = ['user', 'organization'];
/** Largest response body kept in the delivery log. */
const LOGGED_BODY_BYTES = 64 * 1024;

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

export class Webhooks {
	private hooks: HookRow[] | null = null;
	private running: Promise<number> | null = null;
	/** Run a delivery pass right after a request queues deliveries (off in `gitstead admin`). */
	autoRun = false;

	constructor(private readonly deps: WebhookDeps) {}

	/** Forget the cached hook list (after hooks change, here or in another process). */
	invalidate(): void {
		this.hooks = null;
	}

	private subscribers(event: HookEvent): HookRow[] {
		this.hooks ??= this.deps.store.all();
		return this.hooks.filter((hook) => hook.active === 1 && (JSON.parse(hook.events) as string[]).includes(event));
	}

	/**
	 * Queues `event` for every active hook subscribed to it. Call inside the transaction of the change.
	 * @param build makes the payload; called only when some hook listens
	 */
	emit(event: HookEvent, action: string | null, build: () => Record<string, unknown>): void {
		const hooks = this.subscribers(event);
		if (hooks.length === 0) return;
		const payload = JSON.stringify(action === null ? build() : { action, ...build() });
		this.queue(hooks, event, action, payload, randomUUID(), false);
	}

	/**
	 * Queues a ping to one hook (POST /admin/hooks/{hook_id}/pings). An inactive hook sends nothing
	 * (spec document 1, States: "inactive (no notifications sent)"): its ping is logged as failed,
	 * "hook inactive", without a request (see attempt()).
	 */
	ping(hook: HookRow, body: Record<string, unknown>): void {
		const payload = JSON.stringify({ zen: ZEN[Math.floor(Math.random() * ZEN.length)], hook_id: hook.id, hook: body });
		this.queue([hook], 'ping', null, payload, randomUUID(), false);
	}

	/** Queues the payload of an earlier delivery again, with its GUID (redelivery; to an inactive hook it fails as a ping does). */
	redeliver(delivery: DeliveryRow): number {
		const hook = this.deps.store.get(delivery.hook_id)!;
		return this.queue([hook], delivery.event, delivery.action, delivery.payload, delivery.guid, true)[0];
	}

	private queue(hooks: HookRow[], event: string, action: string | null, payload: string, guid: string, redelivery: boolean): number[] {
		const now = this.deps.clock();
		const ids = hooks.map((hook) =>
			this.deps.store.insertDelivery({ hookId: hook.id, guid, event, action, payload, redelivery, nextAttemptAt: epochSeconds(now), now: isoSeconds(now) }),
		);
		if (this.autoRun) setImmediate(() => void this.deliverDue().catch(() => undefined));
		return ids;
	}

	/** Sends every due delivery (a few at a time); overlapping calls share one pass. @returns attempts made */
	deliverDue(): Promise<number> {
		this.running ??= this.pass().finally(() => (this.running = null));
		return this.running;
	}

	/**
	 * One delivery pass. One attempt failing unexpectedly (it is logged) never stops the others; a
	 * delivery whose attempt failed so is not tried again in the same pass, so the pass ends.
	 */
	private async pass(): Promise<number> {
		const { concurrency } = this.deps.settings;
		let attempted = 0;
		const broken = new Set<number>();
		for (;;) {
			const due = this.deps.store
				.due(epochSeconds(this.deps.clock()), concurrency * 4 + broken.size)
				.filter((delivery) => !broken.has(delivery.id));
			if (due.length === 0) return attempted;
			for (let i = 0; i < due.length; i += concurrency) {
				const batch = due.slice(i, i + concurrency);
				const results = await Promise.allSettled(batch.map((delivery) => this.attempt(delivery)));
				results.forEach((result, j) => {
					if (result.status === 'fulfilled') return;
					broken.add(batch[j].id);
					this.deps.log.error('webhook delivery attempt failed', { delivery: batch[j].id, error: String(result.reason) });
				});
				attempted += batch.length;
			}
		}
	}

	/**
	 * One attempt: POST, record it, schedule a retry or settle the delivery. A hook deactivated since
	 * the delivery was queued gets no request: the delivery fails at once, logged as "hook inactive".
	 * A hook deleted during the attempt took its deliveries along: nothing is recorded then.
	 */
	private async attempt(delivery: DeliveryRow): Promise<void> {
		const hook = this.deps.store.get(delivery.hook_id);
		if (!hook) return; // deleted meanwhile: its deliveries went with it
		if (hook.active !== 1) {
			this.deps.store.recordAttempt({
				deliveryId: delivery.id,
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
		const result = await post(hook, body, headers, this.deps.settings.timeout_seconds * 1000);
		const duration = (performance.now() - timer) / 1000;
		const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
		const attempts = delivery.attempts + 1;
		const { max_attempts: maxAttempts, retry_base_seconds: base } = this.deps.settings;
		const retry = !ok && attempts < maxAttempts;
		const recorded = this.deps.store.recordAttempt({
			deliveryId: delivery.id,
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
		});
		if (recorded && !ok && !retry) {
			this.deps.log.warn('webhook delivery failed for good', { hook: hook.id, delivery: delivery.id, status: result.status });
		}
	}
}

/** The exact body and headers of a delivery: JSON or form encoding, signatures over the body. */
export function signedRequest(host: string, hook: HookRow, delivery: DeliveryRow): { body: string; headers: Record<string, string> } {
	const body = hook.content_type === 'json' ? delivery.payload : `payload=${encodeURIComponent(delivery.payload)}`;
	const headers: Record<string, string> = {
		Accept: '*/*',
		'Content-Type': hook.content_type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
		'User-Agent': `GitHub-Hookshot/gitstead-${version}`,
		'X-GitHub-Event': delivery.event,
		'X-GitHub-Delivery': delivery.guid,
		'X-GitHub-Hook-ID': String(hook.id),
		'X-Service-Hook-ID': String(hook.id),
		'X-GitHub-Hook-Installation-Target-Type': 'business',
		'X-GitHub-Hook-Installation-Target-ID': String(hook.id),
		'X-GitHub-Enterprise-Version': version,
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
}

/** POSTs a delivery; never throws. */
function post(hook: HookRow, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
	return new Promise((resolve) => {
		let url: URL;
		try {
			url = new URL(hook.url);
		} catch {
			return resolve({ statusCode: null, status: 'invalid URL', headers: null, body: null });
		}
		const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
		const req = send(url, {
			method: 'POST',
			headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
			timeout: timeoutMs,
			// insecure_ssl '0' verifies the receiver's certificate (the default); '1' does not.
			rejectUnauthorized: hook.insecure_ssl !== '1',
		});
		req.on('response', (res) => {
			const chunks: Buffer[] = [];
			let size = 0;
			res.on('data', (chunk: Buffer) => {
				if (size < LOGGED_BODY_BYTES) chunks.push(chunk);
				size += chunk.length;
			});
			res.on('end', () =>
				resolve({
					statusCode: res.statusCode ?? null,
					status: res.statusCode && res.statusCode < 300 ? 'OK' : (res.statusMessage ?? `HTTP ${res.statusCode}`),
					headers: res.headers,
					body: Buffer.concat(chunks).subarray(0, LOGGED_BODY_BYTES).toString('utf8'),
				}),
			);
			res.on('error', () => resolve({ statusCode: res.statusCode ?? null, status: 'response interrupted', headers: res.headers, body: null }));
		});
		req.on('timeout', () => req.destroy(new Error('timed out')));
		req.on('error', (error: NodeJS.ErrnoException) =>
			resolve({
				statusCode: null,
				status: error.message === 'timed out' ? `timed out after ${timeoutMs / 1000} s` : `failed to connect: ${error.code ?? error.message}`,
				headers: null,
				body: null,
			}),
		);
		req.end(body);
	});
}
