/**
 * Response shapes of organization and repository webhooks (GitHub's org-hook, hook and
 * webhook-config) and of the delivery log shared with global hooks (hook-delivery-item,
 * hook-delivery). A hook's secret is never shown: it is "********" when set.
 */
import type { Urls } from '../../model/urls';
import type { AttemptRow, DeliveryRow, HookRow } from '../../webhooks/store';

/** What a secret looks like in every answer. */
export const MASKED_SECRET = '********';

/** webhook-config: content_type, insecure_ssl, the masked secret when set, url. */
export function hookConfig(hook: HookRow) {
	return {
		content_type: hook.content_type,
		insecure_ssl: hook.insecure_ssl,
		...(hook.secret ? { secret: MASKED_SECRET } : {}),
		url: hook.url,
	};
}

/** The fields a repository and a global hook start with, in GitHub's order. */
export function hookHead<T extends string>(type: T, hook: HookRow) {
	return { type, id: hook.id, name: 'web', active: hook.active === 1, events: JSON.parse(hook.events) as string[] };
}

/**
 * A repository hook (GitHub's `hook`): type "Repository", its URLs under
 * /repos/{owner}/{repo}/hooks/{id}, and last_response (`unused` before any delivery).
 * @param repoPath "/repos/{owner}/{repo}"
 */
export function repositoryHook(urls: Urls, repoPath: string, hook: HookRow) {
	const url = urls.api(`${repoPath}/hooks/${hook.id}`);
	return {
		...hookHead('Repository', hook),
		config: hookConfig(hook),
		updated_at: hook.updated_at,
		created_at: hook.created_at,
		url,
		test_url: `${url}/test`,
		ping_url: `${url}/pings`,
		deliveries_url: `${url}/deliveries`,
		last_response: { code: hook.last_response_code, status: hook.last_response_status, message: hook.last_response_message },
	};
}

/**
 * An organization hook (GitHub's `org-hook`): type "Organization", its URLs under
 * /orgs/{org}/hooks/{id}.
 */
export function organizationHook(urls: Urls, orgLogin: string, hook: HookRow) {
	const url = urls.api(`/orgs/${orgLogin}/hooks/${hook.id}`);
	return {
		id: hook.id,
		url,
		ping_url: `${url}/pings`,
		deliveries_url: `${url}/deliveries`,
		name: 'web',
		events: JSON.parse(hook.events) as string[],
		active: hook.active === 1,
		config: {
			url: hook.url,
			insecure_ssl: hook.insecure_ssl,
			content_type: hook.content_type,
			...(hook.secret ? { secret: MASKED_SECRET } : {}),
		},
		updated_at: hook.updated_at,
		created_at: hook.created_at,
		type: 'Organization',
	};
}

/** hook-delivery-item (plus Gitstead's `state` and `attempts`: it retries failed deliveries). */
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
		installation_id: row.installation_id ?? null,
		repository_id: row.repository_id ?? null,
		throttled_at: null,
		// Gitstead: the delivery's own state and its attempts so far.
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
