/**
 * Prepared statements for webhooks — global, organization and repository hooks, one table
 * (`global_webhooks`, named for its first use) — their deliveries and the delivery log (attempts).
 */
import type { DB } from '../db/open';

export interface HookRow {
	id: number;
	active: number;
	/** JSON array of event names; "*" stands for every event. */
	events: string;
	url: string;
	content_type: 'json' | 'form';
	insecure_ssl: '0' | '1';
	secret: string | null;
	created_at: string;
	updated_at: string;
	/** The repository of a repository hook, else null. */
	repo_id: number | null;
	/** The organization of an organization hook, else null (both null: a global hook). */
	org_id: number | null;
	/** The last attempt's answer (GitHub's last_response): HTTP status, or null without one. */
	last_response_code: number | null;
	/** unused (never attempted), active (2xx), or the failure's kind. */
	last_response_status: string;
	last_response_message: string | null;
	/** The GitHub App of an app's hook, else null. */
	app_id: number | null;
}

/** What a request sets on a hook. */
export type HookValues = Pick<HookRow, 'active' | 'events' | 'url' | 'content_type' | 'insecure_ssl' | 'secret'>;

/** Where a hook is installed: the whole site (global), one organization, one repository, or a GitHub App. */
export type HookScope =
	| { kind: 'global' }
	| { kind: 'organization'; orgId: number }
	| { kind: 'repository'; repoId: number }
	| { kind: 'app'; appId: number };

/** The scope of a stored hook. */
export function scopeOf(hook: HookRow): HookScope {
	if (hook.app_id !== null) return { kind: 'app', appId: hook.app_id };
	if (hook.repo_id !== null) return { kind: 'repository', repoId: hook.repo_id };
	if (hook.org_id !== null) return { kind: 'organization', orgId: hook.org_id };
	return { kind: 'global' };
}

/** The last_response of an attempt's outcome, as GitHub reports a hook's. */
export interface LastResponse {
	code: number | null;
	status: string;
	message: string | null;
}

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
	/** The event's repository, if any. */
	repository_id: number | null;
	/** An app hook's delivery: the installation it is for. */
	installation_id: number | null;
}

/** An app's active hook where an installation of it receives an event, with what decides whether it listens. */
export interface AppSubscriber {
	hook: HookRow;
	installationId: number;
	/** JSON {permission: level} of the installation. */
	permissions: string;
	/** JSON array of the events the app subscribes to. */
	events: string;
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
	const GLOBAL = 'repo_id IS NULL AND org_id IS NULL AND app_id IS NULL';
	// One statement for every scope: @repoId, @orgId or @appId set (the others NULL), or all NULL (global).
	const IN_SCOPE = `repo_id IS @repoId AND org_id IS @orgId AND app_id IS @appId`;
	const globals = db.prepare(`SELECT * FROM global_webhooks WHERE ${GLOBAL} ORDER BY id`);
	const page = db.prepare(`SELECT * FROM global_webhooks WHERE ${IN_SCOPE} ORDER BY id LIMIT @limit OFFSET @offset`);
	const count = db.prepare(`SELECT count(*) FROM global_webhooks WHERE ${IN_SCOPE}`).pluck();
	const inScope = db.prepare(`SELECT * FROM global_webhooks WHERE ${IN_SCOPE} ORDER BY id`);
	const get = db.prepare('SELECT * FROM global_webhooks WHERE id = ?');
	const getInScope = db.prepare(`SELECT * FROM global_webhooks WHERE id = @id AND ${IN_SCOPE}`);
	// Index global_webhooks_repo / _org: the active hooks of one repository or organization.
	const activeOfRepo = db.prepare('SELECT * FROM global_webhooks WHERE repo_id = ? AND active = 1 ORDER BY id');
	const activeOfOrg = db.prepare('SELECT * FROM global_webhooks WHERE org_id = ? AND active = 1 ORDER BY id');
	const scopesWithHooks = db.prepare(
		'SELECT DISTINCT repo_id, org_id FROM global_webhooks WHERE active = 1 AND (repo_id IS NOT NULL OR org_id IS NOT NULL)',
	);
	const insert = db.prepare(`
		INSERT INTO global_webhooks (active, events, url, content_type, insecure_ssl, secret, repo_id, org_id, app_id, created_at, updated_at)
		VALUES (@active, @events, @url, @content_type, @insecure_ssl, @secret, @repoId, @orgId, @appId, @now, @now)`);
	const activeAppHooks = db.prepare('SELECT count(*) FROM global_webhooks WHERE app_id IS NOT NULL AND active = 1').pluck();
	// The active app hooks whose app is installed, unsuspended, on the account where an event happened
	// and reaches its repository (all repositories, or the repository among those selected).
	const appSubscribers = db.prepare(`
		SELECT h.*, i.id AS installation_id_, i.permissions AS installation_permissions_, a.events AS app_events_
		FROM global_webhooks h JOIN apps a ON a.id = h.app_id
		JOIN installations i ON i.app_id = h.app_id AND i.account_id = @accountId AND i.suspended_at IS NULL
		WHERE h.app_id IS NOT NULL AND h.active = 1
		  AND (@repoId IS NULL OR i.repository_selection = 'all'
		       OR EXISTS (SELECT 1 FROM installation_repositories r WHERE r.installation_id = i.id AND r.repository_id = @repoId))
		ORDER BY h.id`);
	const update = db.prepare(`
		UPDATE global_webhooks SET active = @active, events = @events, url = @url, content_type = @content_type,
			insecure_ssl = @insecure_ssl, secret = @secret, updated_at = @now WHERE id = @id`);
	const remove = db.prepare('DELETE FROM global_webhooks WHERE id = ?');
	const scopeParams = (scope: HookScope) => ({
		repoId: scope.kind === 'repository' ? scope.repoId : null,
		orgId: scope.kind === 'organization' ? scope.orgId : null,
		appId: scope.kind === 'app' ? scope.appId : null,
	});

	const insertDelivery = db.prepare(`
		INSERT INTO webhook_deliveries (hook_id, guid, event, action, payload, redelivery, next_attempt_at, created_at, repository_id, installation_id)
		VALUES (@hookId, @guid, @event, @action, @payload, @redelivery, @nextAttemptAt, @now, @repositoryId, @installationId)`);
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
	const STATUS = `(@status IS NULL
			OR (@status = 'success' AND status_code BETWEEN 200 AND 399)
			OR (@status = 'failure' AND (status_code IS NULL OR status_code >= 400) AND attempts > 0))`;
	const deliveries = db.prepare(
		`SELECT * FROM webhook_deliveries WHERE hook_id = @hookId AND ${STATUS} ORDER BY id DESC LIMIT @limit OFFSET @offset`,
	);
	const deliveryCount = db.prepare(`SELECT count(*) FROM webhook_deliveries WHERE hook_id = @hookId AND ${STATUS}`).pluck();
	// Cursor pagination (index webhook_deliveries_hook): newest first, ids below @before.
	const deliveriesBefore = db.prepare(`
		SELECT * FROM webhook_deliveries WHERE hook_id = @hookId AND id < @before AND ${STATUS} ORDER BY id DESC LIMIT @limit`);
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
	const lastResponse = db.prepare(`
		UPDATE global_webhooks SET last_response_code = @code, last_response_status = @lastStatus, last_response_message = @message WHERE id = @hookId`);
	const pending = db.prepare(`SELECT ${attempted}`).pluck();
	// A delivery whose hook row is gone although foreign keys cascade (deleted with foreign keys off,
	// e.g. from the sqlite3 shell, whose default they are). The due query never returns one.
	const discardOrphan = db.prepare(
		'DELETE FROM webhook_deliveries WHERE id = ? AND NOT EXISTS (SELECT 1 FROM global_webhooks h WHERE h.id = hook_id)',
	);
	const attempts = db.prepare('SELECT * FROM webhook_delivery_attempts WHERE delivery_id = ? ORDER BY id');
	const queuedCount = db.prepare("SELECT count(*) FROM webhook_deliveries WHERE state = 'queued'").pluck();
	const lastDelivery = db.prepare('SELECT max(id) FROM webhook_deliveries').pluck();
	const queuedWith = db.prepare(
		"SELECT id, payload FROM webhook_deliveries WHERE id > ? AND state = 'queued' AND attempts = 0 AND instr(payload, ?) > 0",
	);
	const setPayload = db.prepare('UPDATE webhook_deliveries SET payload = ? WHERE id = ?');
	const recent = db.prepare(`
		SELECT d.* FROM webhook_deliveries d WHERE (@hookId IS NULL OR d.hook_id = @hookId) ORDER BY d.id DESC LIMIT @limit`);

	return {
		/** Every global hook, in id order (the delivery engine keeps them in memory). */
		globals: () => globals.all() as HookRow[],
		/** One page of the hooks of a scope, in id order, and their number. */
		page(scope: HookScope, limit: number, offset: number) {
			const where = scopeParams(scope);
			return { rows: page.all({ ...where, limit, offset }) as HookRow[], total: count.get(where) as number };
		},
		/** Every hook of a scope, active or not, in id order. */
		inScope: (scope: HookScope) => inScope.all(scopeParams(scope)) as HookRow[],
		/** A hook of any scope. */
		get: (id: number) => get.get(id) as HookRow | undefined,
		/** The hook `id` if it belongs to `scope` (a hook of another scope is not found). */
		getInScope: (scope: HookScope, id: number) => getInScope.get({ ...scopeParams(scope), id }) as HookRow | undefined,
		/** The active hooks of a repository. */
		activeOfRepo: (repoId: number) => activeOfRepo.all(repoId) as HookRow[],
		/** The active hooks of an organization. */
		activeOfOrg: (orgId: number) => activeOfOrg.all(orgId) as HookRow[],
		/** How many apps have an active hook (none: no event looks for app subscribers). */
		activeAppHooks: () => activeAppHooks.get() as number,
		/**
		 * The active hooks of apps installed (not suspended) on `accountId` whose installation reaches
		 * `repoId` (null: an event of the account, outside any repository).
		 */
		appSubscribers(accountId: number, repoId: number | null): AppSubscriber[] {
			const rows = appSubscribers.all({ accountId, repoId }) as Array<
				HookRow & { installation_id_: number; installation_permissions_: string; app_events_: string }
			>;
			return rows.map(({ installation_id_, installation_permissions_, app_events_, ...hook }) => ({
				hook,
				installationId: installation_id_,
				permissions: installation_permissions_,
				events: app_events_,
			}));
		},
		/** The repositories and organizations with at least one active hook. */
		scopesWithHooks() {
			const rows = scopesWithHooks.all() as Array<{ repo_id: number | null; org_id: number | null }>;
			return {
				repoIds: new Set(rows.flatMap((row) => (row.repo_id === null ? [] : [row.repo_id]))),
				orgIds: new Set(rows.flatMap((row) => (row.org_id === null ? [] : [row.org_id]))),
			};
		},
		/** @param now ISO timestamp */
		insert: (scope: HookScope, values: HookValues, now: string) =>
			get.get(Number(insert.run({ ...values, ...scopeParams(scope), now }).lastInsertRowid)) as HookRow,
		/** @param now ISO timestamp */
		update: (id: number, values: HookValues, now: string) => {
			update.run({ ...values, id, now });
			return get.get(id) as HookRow;
		},
		remove: (id: number) => remove.run(id).changes > 0,
		/**
		 * @param nextAttemptAt epoch seconds; @param now ISO timestamp; @param repositoryId the event's repository;
		 * @param installationId an app hook's delivery: its installation
		 */
		insertDelivery: (input: {
			hookId: number;
			guid: string;
			event: string;
			action: string | null;
			payload: string;
			redelivery: boolean;
			nextAttemptAt: number;
			now: string;
			repositoryId: number | null;
			installationId?: number | null;
		}) =>
			Number(
				insertDelivery.run({ ...input, installationId: input.installationId ?? null, redelivery: input.redelivery ? 1 : 0 })
					.lastInsertRowid,
			),
		/**
		 * Deliveries due at `now` (epoch seconds), at most one per hook — each hook's oldest due one —
		 * oldest due first, leaving out the hooks in `busyHooks` (ids) and the deliveries in `skip`
		 * (ids). A delivery whose hook row is gone (see discardOrphan) is never returned.
		 */
		due: (now: number, leaveOut: { busyHooks: number[]; skip: number[] }, limit: number) =>
			due.all({ now, busyHooks: JSON.stringify(leaveOut.busyHooks), skip: JSON.stringify(leaveOut.skip), limit }) as DeliveryRow[],
		/** Whether `delivery` is still queued exactly as it was read (not attempted since, nor deleted with its hook). */
		pending: (delivery: DeliveryRow) =>
			(pending.get({
				deliveryId: delivery.id,
				hookId: delivery.hook_id,
				guid: delivery.guid,
				attemptsBefore: delivery.attempts,
			}) as number) === 1,
		/** Deletes a delivery whose hook no longer exists (left behind by a delete without foreign keys). @returns whether it was one */
		discardOrphan: (id: number) => discardOrphan.run(id).changes > 0,
		delivery: (hookId: number, id: number) => delivery.get(hookId, id) as DeliveryRow | undefined,
		deliveries(filter: { hookId: number; status: 'success' | 'failure' | null; limit: number; offset: number }) {
			return { rows: deliveries.all(filter) as DeliveryRow[], total: deliveryCount.get(filter) as number };
		},
		/**
		 * Up to `limit` deliveries of a hook with ids below `before` (cursor pagination), newest first.
		 * @param before a delivery id (Number.MAX_SAFE_INTEGER for the first page)
		 */
		deliveriesBefore: (filter: { hookId: number; status: 'success' | 'failure' | null; before: number; limit: number }) =>
			deliveriesBefore.all(filter) as DeliveryRow[],
		/**
		 * Records an attempt of `delivery` (the row as read before the attempt), the delivery's new
		 * state and, with `response`, the hook's last_response, in one transaction.
		 * @returns false (nothing written) when the delivery is no longer that row, still queued: its hook
		 *   was deleted meanwhile (or it was attempted by someone else)
		 */
		recordAttempt(
			delivery: DeliveryRow,
			input: {
				attemptedAt: string;
				duration: number;
				status: string;
				statusCode: number | null;
				requestHeaders: string;
				responseHeaders: string | null;
				responseBody: string | null;
				state: DeliveryRow['state'];
				nextAttemptAt: number | null;
			},
			response?: LastResponse,
		): boolean {
			const values = {
				...input,
				deliveryId: delivery.id,
				hookId: delivery.hook_id,
				guid: delivery.guid,
				attemptsBefore: delivery.attempts,
			};
			return db
				.transaction(() => {
					const recorded = recordAttempt.run(values).changes > 0 && finishAttempt.run(values).changes > 0;
					if (recorded && response)
						lastResponse.run({
							hookId: delivery.hook_id,
							code: response.code,
							lastStatus: response.status,
							message: response.message,
						});
					return recorded;
				})
				.immediate();
		},
		attempts: (deliveryId: number) => attempts.all(deliveryId) as AttemptRow[],
		/** Deliveries waiting for an attempt (queued: new ones and retries not yet due), over all hooks; partial index webhook_deliveries_queued. */
		queuedCount: () => queuedCount.get() as number,
		/** The newest delivery id (0 when none). */
		lastDeliveryId: () => (lastDelivery.get() as number | null) ?? 0,
		/** Deliveries after `afterId` not attempted yet whose payload holds `text` (deferred parts: src/events/deferred.ts). */
		queuedWith: (afterId: number, text: string) => queuedWith.all(afterId, text) as Array<{ id: number; payload: string }>,
		/** Replaces a delivery's payload (JSON text) before its first attempt. */
		setPayload: (id: number, payload: string) => void setPayload.run(payload, id),
		/** The newest deliveries, of one hook or of all (gitstead admin list-deliveries). */
		recent: (hookId: number | null, limit: number) => recent.all({ hookId, limit }) as DeliveryRow[],
	};
}
