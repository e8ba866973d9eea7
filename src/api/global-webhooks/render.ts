/**
 * GlobalWebhook (spec document 1, Resources; GitHub's global-hook / global-hook-2) and the delivery
 * log in GitHub's hook-delivery-item / hook-delivery shapes.
 */
import type { Urls } from '../../http/urls';
import type { AttemptRow, DeliveryRow, HookRow } from '../../webhooks/store';

/** @param withSecret false for the update answer, which names no secret at all */
export function globalHook(urls: Urls, hook: HookRow, withSecret: boolean) {
	const url = `${urls.apiBase}/admin/hooks/${hook.id}`;
	return {
		type: 'Global',
		id: hook.id,
		name: 'web',
		active: hook.active === 1,
		events: JSON.parse(hook.events) as string[],
		config: {
			url: hook.url,
			content_type: hook.content_type,
			insecure_ssl: hook.insecure_ssl,
			...(withSecret && hook.secret ? { secret: '********' } : {}),
		},
		updated_at: hook.updated_at,
		created_at: hook.created_at,
		url,
		ping_url: `${url}/pings`,
	};
}

/** hook-delivery-item. */
export function deliveryItem(row: DeliveryRow) {
	return {
		id: row.id,
		guid: row.guid,
		delivered_at: row.delivered_at ?? row.created_at,
		redelivery: row.redelivery === 1,
		duration: row.duration ?? 0,
		status: row.status ?? (row.state === 'queued' ? 'pending' : 'unknown'),
		status_code: row.status_code ?? 0,
		event: row.event,
		action: row.action,
		installation_id: null,
		repository_id: null,
		throttled_at: null,
		// Gitstead: the delivery's own state and its attempts so far (it retries failed deliveries).
		state: row.state,
		attempts: row.attempts,
	};
}

/** hook-delivery: the item plus the last request and response, and every attempt (Gitstead). */
export function delivery(hook: HookRow, row: DeliveryRow, attempts: AttemptRow[]) {
	const last = attempts.at(-1);
	return {
		...deliveryItem(row),
		url: hook.url,
		request: {
			headers: last ? (JSON.parse(last.request_headers) as Record<string, string>) : null,
			payload: JSON.parse(row.payload) as Record<string, unknown>,
		},
		response: {
			headers: last?.response_headers ? (JSON.parse(last.response_headers) as Record<string, string>) : null,
			payload: last?.response_body ?? null,
		},
		attempt_log: attempts.map((attempt) => ({
			attempted_at: attempt.attempted_at,
			duration: attempt.duration,
			status: attempt.status,
			status_code: attempt.status_code,
		})),
	};
}
