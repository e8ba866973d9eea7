/**
 * Payload parts computed after commit. Events are recorded inside the writing transaction of their
 * change, and their payloads (webhook deliveries, feed entries) are stored there as JSON; a part
 * that is costly to compute (a pull request's comparison counts: a merge base, a commit walk and a
 * diff) would hold the write lock meanwhile. A recorder puts `deferred(app, key, compute)` in the
 * payload instead: a placeholder string. Once the transaction has committed (`durable()`; in the
 * server's group-commit mode before the request is answered, and before the delivery pass that
 * the deliveries queued), each placeholder's value is computed once, outside any transaction, and
 * the deliveries not yet attempted and the feed entries recorded since are rewritten with it in one
 * short transaction. A delivery therefore carries the same fields with the same values as if they
 * had been computed in place. A transaction that rolls back leaves nothing to rewrite. A key is
 * `<kind>:<arguments>`, enough to compute its value again: placeholders left by a process that
 * stopped between a commit and its after-commit step are filled when the app next opens
 * (completeLeftovers, with the resolvers src/compose.ts names).
 */
import type { App } from '../app';

/** The placeholder's prefix; NUL cannot come from a client's JSON text without this escape. */
const MARK = '\u0000deferred:';
/** The placeholder as JSON text holds it: a JSON string beginning with the escaped mark. */
const MARK_TEXT = JSON.stringify(MARK).slice(1, -1);
const PLACEHOLDER = /"\\u0000deferred:([^"\\]*)"/g;

interface Pending {
	compute: Map<string, () => unknown>;
	/** The newest delivery and event ids before the first placeholder: only later rows are searched. */
	deliveriesAfter: number;
	eventsAfter: number;
}

const pendingOf = new WeakMap<App, Pending>();

/** Placeholders computed after commit, per app (tests read it: nothing is pending once a write is answered). */
export function pendingDeferred(app: App): number {
	return pendingOf.get(app)?.compute.size ?? 0;
}

/**
 * A placeholder for a payload value computed after the current transaction commits. Call inside
 * the writing transaction that records the event. `key` names the value (the same key is computed
 * once); `compute` returns any JSON value and runs outside a transaction.
 */
export function deferred(app: App, key: string, compute: () => unknown): string {
	let pending = pendingOf.get(app);
	if (!pending) {
		pending = {
			compute: new Map(),
			deliveriesAfter: app.stores.webhooks.lastDeliveryId(),
			eventsAfter: app.stores.events.latestId(),
		};
		pendingOf.set(app, pending);
		const started = pending;
		app.transaction.durable().then(
			() => complete(app, started),
			() => pendingOf.get(app) === started && pendingOf.delete(app),
		);
	}
	pending.compute.set(key, compute);
	return MARK + key;
}

/** Computes the pending values and rewrites the rows that hold their placeholders. */
function complete(app: App, pending: Pending): void {
	if (pendingOf.get(app) === pending) pendingOf.delete(app);
	const values = new Map<string, string>();
	for (const [key, compute] of pending.compute) {
		try {
			values.set(key, JSON.stringify(compute() ?? null));
		} catch (error) {
			app.log.error('deferred payload part failed', { key, error });
			values.set(key, 'null');
		}
	}
	const fill = (text: string) => text.replace(PLACEHOLDER, (whole, key: string) => values.get(key) ?? whole);
	try {
		app.transaction(() => {
			const { webhooks, events } = app.stores;
			for (const row of webhooks.queuedWith(pending.deliveriesAfter, MARK_TEXT)) webhooks.setPayload(row.id, fill(row.payload));
			for (const row of events.payloadsWith(pending.eventsAfter, MARK_TEXT)) events.setPayload(row.id, fill(row.payload));
		});
	} catch (error) {
		app.log.error('deferred payload parts not written', { error });
	}
}

/** Computes a placeholder's value again from its key's arguments (the part after `<kind>:`). */
export type DeferredResolver = (app: App, args: string) => unknown;

/** How many of the newest feed entries completeLeftovers searches (older ones are left as they are). */
const LEFTOVER_EVENTS = 10_000;

/**
 * Fills the placeholders a stopped process left in deliveries not yet attempted and in the newest
 * feed entries, each by the resolver of its key's kind (a kind without one: null). Never throws.
 * @returns how many rows were rewritten
 */
export function completeLeftovers(app: App, resolvers: Record<string, DeferredResolver>): number {
	try {
		const { webhooks, events } = app.stores;
		const deliveries = webhooks.queuedWith(0, MARK_TEXT);
		const feed = events.payloadsWith(Math.max(0, events.latestId() - LEFTOVER_EVENTS), MARK_TEXT);
		if (deliveries.length === 0 && feed.length === 0) return 0;
		const values = new Map<string, string>();
		const value = (key: string): string => {
			let known = values.get(key);
			if (known === undefined) {
				const colon = key.indexOf(':');
				const resolver = colon === -1 ? undefined : resolvers[key.slice(0, colon)];
				try {
					known = JSON.stringify((resolver ? resolver(app, key.slice(colon + 1)) : null) ?? null);
				} catch (error) {
					app.log.error('deferred payload part failed', { key, error });
					known = 'null';
				}
				values.set(key, known);
			}
			return known;
		};
		const fill = (text: string) => text.replace(PLACEHOLDER, (_whole, key: string) => value(key));
		const filledDeliveries = deliveries.map((row) => ({ id: row.id, payload: fill(row.payload) }));
		const filledFeed = feed.map((row) => ({ id: row.id, payload: fill(row.payload) }));
		app.transaction(() => {
			for (const row of filledDeliveries) webhooks.setPayload(row.id, row.payload);
			for (const row of filledFeed) events.setPayload(row.id, row.payload);
		});
		return deliveries.length + feed.length;
	} catch (error) {
		app.log.error('deferred payload parts left over not written', { error });
		return 0;
	}
}
