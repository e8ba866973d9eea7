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
 * had been computed in place. A transaction that rolls back leaves nothing to rewrite.
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
