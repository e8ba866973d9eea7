/**
 * Prepared statements for global webhooks, their deliveries and the delivery log (attempts).
 */
import type { DB } from '../db/open';

export interface HookRow {
	id: number;
	active: number;
	events: string;
	url: string;
	content_type: 'json' | 'form';
	insecure_ssl: '0' | '1';
	secret: string | null;
	created_at: string;
	updated_at: string;
}

export type HookValues = Omit<HookRow, 'id' | 'created_at' | 'updated_at'>;

export interface DeliveryRow {
	id: number;
	hook_id: number;
	guid: string;
	event: string;
	action: string | null;
	payload: string;
	state: 'queued' | 'delivered' | 'failed';
	redelivery: number;
	attempts: number;
	next_attempt_at: number | null;
	status: string | null;
	status_code: number | null;
	duration: number | null;
	delivered_at: string | null;
	created_at: string;
}

export interface AttemptRow {
	id: number;
	delivery_id: number;
	attempted_at: string;
	duration: number;
	status: string;
	status_code: number | null;
	request_headers: string;
	response_headers: string | null;
	response_body: string | null;
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;

export function createWebhookStore(db: DB) {
	const all = db.prepare('SELECT * FROM global_webhooks ORDER BY id');
	const page = db.prepare('SELECT * FROM global_webhooks ORDER BY id LIMIT ? OFFSET ?');
	const count = db.prepare('SELECT count(*) FROM global_webhooks').pluck();
	const get = db.prepare('SELECT * FROM global_webhooks WHERE id = ?');
	const insert = db.prepare(`
		INSERT INTO global_webhooks (active, events, url, content_type, insecure_ssl, secret, created_at, updated_at)
		VALUES (@active, @events, @url, @content_type, @insecure_ssl, @secret, @now, @now)`);
	const update = db.prepare(`
		UPDATE global_webhooks SET active = @active, events = @events, url = @url, content_type = @content_type,
			insecure_ssl = @insecure_ssl, secret = @secret, updated_at = @now WHERE id = @id`);
	const remove = db.prepare('DELETE FROM global_webhooks WHERE id = ?');

	const insertDelivery = db.prepare(`
		INSERT INTO webhook_deliveries (hook_id, guid, event, action, payload, redelivery, next_attempt_at, created_at)
		VALUES (@hookId, @guid, @event, @action, @payload, @redelivery, @nextAttemptAt, @now)`);
	// The oldest due delivery of each hook not busy (index webhook_deliveries_queued: one seek per hook,
	// however long another hook's backlog), oldest first. json_each: the in-memory lists of busy hooks
	// and of deliveries to leave out, as JSON arrays.
	const due = db.prepare(`
		SELECT d.* FROM global_webhooks h
		JOIN webhook_deliveries d ON d.id = (
			SELECT q.id FROM webhook_deliveries q
			WHERE q.hook_id = h.id AND q.state = 'queued' AND q.next_attempt_at <= @now AND q.id NOT IN (SELECT value FROM json_each(@skip))
			ORDER BY q.next_attempt_at, q.id LIMIT 1)
		WHERE h.id NOT IN (SELECT value FROM json_each(@busyHooks))
		ORDER BY d.next_attempt_at, d.id LIMIT @limit`);
	const delivery = db.prepare('SELECT * FROM webhook_deliveries WHERE hook_id = ? AND id = ?');
	const deliveries = db.prepare(`
		SELECT * FROM webhook_deliveries WHERE hook_id = @hookId AND (@status IS NULL
			OR (@status = 'success' AND status_code BETWEEN 200 AND 399)
			OR (@status = 'failure' AND (status_code IS NULL OR status_code >= 400) AND attempts > 0))
		ORDER BY id DESC LIMIT @limit OFFSET @offset`);
	const deliveryCount = db
		.prepare(`
		SELECT count(*) FROM webhook_deliveries WHERE hook_id = @hookId AND (@status IS NULL
			OR (@status = 'success' AND status_code BETWEEN 200 AND 399)
			OR (@status = 'failure' AND (status_code IS NULL OR status_code >= 400) AND attempts > 0))`)
		.pluck();
	// Only while the delivery is still the one attempted: its hook may have been deleted (with its
	// deliveries) during the attempt, and SQLite may since have given its id to a new delivery.
	const attempted = `EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = @deliveryId AND hook_id = @hookId AND guid = @guid
		AND attempts = @attemptsBefore AND state = 'queued')`;
	const recordAttempt = db.prepare(`
		INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, duration, status, status_code, request_headers, response_headers, response_body)
		SELECT @deliveryId, @attemptedAt, @duration, @status, @statusCode, @requestHeaders, @responseHeaders, @responseBody
		WHERE ${attempted}`);
	const finishAttempt = db.prepare(`
		UPDATE webhook_deliveries SET attempts = attempts + 1, state = @state, next_attempt_at = @nextAttemptAt, status = @status,
			status_code = @statusCode, duration = @duration, delivered_at = @attemptedAt WHERE id = @deliveryId`);
	const pending = db.prepare(`SELECT ${attempted}`).pluck();
	// A delivery whose hook row is gone although foreign keys cascade (deleted with foreign keys off,
	// e.g. from the sqlite3 shell, whose default they are). The due query never returns one.
	const discardOrphan = db.prepare('DELETE FROM webhook_deliveries WHERE id = ? AND NOT EXISTS (SELECT 1 FROM global_webhooks h WHERE h.id = hook_id)');
	const attempts = db.prepare('SELECT * FROM webhook_delivery_attempts WHERE delivery_id = ? ORDER BY id');
	const recent = db.prepare(`
		SELECT d.* FROM webhook_deliveries d WHERE (@hookId IS NULL OR d.hook_id = @hookId) ORDER BY d.id DESC LIMIT @limit`);

	return {
		all: () => all.all() as HookRow[],
		page(limit: number, offset: number) {
			return { rows: page.all(limit, offset) as HookRow[], total: count.get() as number };
		},
		get: (id: number) => get.get(id) as HookRow | undefined,
		/** @param now ISO timestamp */
		insert: (values: HookValues, now: string) => get.get(Number(insert.run({ ...values, now }).lastInsertRowid)) as HookRow,
		/** @param now ISO timestamp */
		update: (id: number, values: HookValues, now: string) => {
			update.run({ ...values, id, now });
			return get.get(id) as HookRow;
		},
		remove: (id: number) => remove.run(id).changes > 0,
		/** @param nextAttemptAt epoch seconds; @param now ISO timestamp */
		insertDelivery: (input: { hookId: number; guid: string; event: string; action: string | null; payload: string; redelivery: boolean; nextAttemptAt: number; now: string }) =>
			Number(insertDelivery.run({ ...input, redelivery: input.redelivery ? 1 : 0 }).lastInsertRowid),
		/**
		 * Deliveries due at `now` (epoch seconds), at most one per hook — each hook's oldest due one —
		 * oldest due first, leaving out the hooks in `busyHooks` (ids) and the deliveries in `skip`
		 * (ids). A delivery whose hook row is gone (see discardOrphan) is never returned.
		 */
		due: (now: number, leaveOut: { busyHooks: number[]; skip: number[] }, limit: number) =>
			due.all({ now, busyHooks: JSON.stringify(leaveOut.busyHooks), skip: JSON.stringify(leaveOut.skip), limit }) as DeliveryRow[],
		/** Whether `delivery` is still queued exactly as it was read (not attempted since, nor deleted with its hook). */
		pending: (delivery: DeliveryRow) =>
			(pending.get({ deliveryId: delivery.id, hookId: delivery.hook_id, guid: delivery.guid, attemptsBefore: delivery.attempts }) as number) === 1,
		/** Deletes a delivery whose hook no longer exists (left behind by a delete without foreign keys). @returns whether it was one */
		discardOrphan: (id: number) => discardOrphan.run(id).changes > 0,
		delivery: (hookId: number, id: number) => delivery.get(hookId, id) as DeliveryRow | undefined,
		deliveries(filter: { hookId: number; status: 'success' | 'failure' | null; limit: number; offset: number }) {
			return { rows: deliveries.all(filter) as DeliveryRow[], total: deliveryCount.get(filter) as number };
		},
		/**
		 * Records an attempt of `delivery` (the row as read before the attempt) and the delivery's new
		 * state, in one transaction.
		 * @returns false (nothing written) when the delivery is no longer that row, still queued: its hook
		 *   was deleted meanwhile (or it was attempted by someone else)
		 */
		recordAttempt(delivery: DeliveryRow, input: {
			attemptedAt: string;
			duration: number;
			status: string;
			statusCode: number | null;
			requestHeaders: string;
			responseHeaders: string | null;
			responseBody: string | null;
			state: DeliveryRow['state'];
			nextAttemptAt: number | null;
		}): boolean {
			const values = { ...input, deliveryId: delivery.id, hookId: delivery.hook_id, guid: delivery.guid, attemptsBefore: delivery.attempts };
			return db.transaction(() => recordAttempt.run(values).changes > 0 && finishAttempt.run(values).changes > 0).immediate();
		},
		attempts: (deliveryId: number) => attempts.all(deliveryId) as AttemptRow[],
		/** The newest deliveries, of one hook or of all (gitstead admin list-deliveries). */
		recent: (hookId: number | null, limit: number) => recent.all({ hookId, limit }) as DeliveryRow[],
	};
}
