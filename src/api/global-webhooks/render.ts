/**
 * GlobalWebhook (GitHub's global-hook / global-hook-2). The delivery
 * log's shapes, shared with organization and repository hooks, are in ../hooks/render.ts.
 */
import type { Urls } from '../../model/urls';
import type { HookRow } from '../../webhooks/store';
import { hookHead, MASKED_SECRET } from '../hooks/render';

/** @param withSecret false for the update answer, which names no secret at all */
export function globalHook(urls: Urls, hook: HookRow, withSecret: boolean) {
	const url = `${urls.apiBase}/admin/hooks/${hook.id}`;
	return {
		...hookHead('Global', hook),
		config: {
			url: hook.url,
			content_type: hook.content_type,
			insecure_ssl: hook.insecure_ssl,
			...(withSecret && hook.secret ? { secret: MASKED_SECRET } : {}),
		},
		updated_at: hook.updated_at,
		created_at: hook.created_at,
		url,
		ping_url: `${url}/pings`,
	};
}
