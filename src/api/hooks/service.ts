/**
 * Rules shared by every kind of webhook (global, organization, repository): the hook URL check
 * (http or https, and the address rule of src/webhooks/targets.ts), the request schemas of a hook's
 * config, and for organization and repository hooks GitHub's limits — one hook per URL in a
 * repository or organization, at most 20 hooks per event.
 */
import * as v from 'valibot';
import { invalidField } from '../../model/errors';
import type { HookScope, HookValues, WebhookStore } from '../../webhooks/store';
import { ALLOWED_HOSTS_KEY, urlRefusal } from '../../webhooks/targets';

/** GitHub's limit: hooks subscribed to one event on one repository or organization. */
export const MAX_HOOKS_PER_EVENT = 20;

/** content_type: json or form. */
export const contentType = v.picklist(['json', 'form']);
/** insecure_ssl: "0" (verify the receiver's certificate) or "1"; numbers are accepted as GitHub does. */
export const insecureSsl = v.union([v.picklist(['0', '1']), v.picklist([0, 1])]);
/** secret: a string; empty or null removes it. */
export const secret = v.nullable(v.string());

/**
 * Checks a hook URL.
 * @param allowedHosts config webhooks.allowed_hosts
 * @returns the URL as given
 * @throws DomainError 422 for a URL that is not http(s) (field config.url), or whose host the address
 *   rule refuses (loopback, link-local, unspecified) and allowedHosts does not list (field url, code custom)
 */
export function checkHookUrl(text: string, allowedHosts: readonly string[]): string {
	let url: URL | null = null;
	try {
		url = new URL(text);
	} catch {
		// reported below
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw invalidField('Hook', 'config.url', `"${text}" is not an http(s) URL`);
	}
	const refusal = urlRefusal(url, allowedHosts);
	if (refusal) {
		throw invalidField(
			'Hook',
			'url',
			`Url is not supported: ${refusal}; hooks may deliver there only if ${ALLOWED_HOSTS_KEY} lists "${url.hostname}"`,
			'custom',
		);
	}
	return text;
}

/** insecure_ssl as stored: "0" or "1". */
export const sslFlag = (value: '0' | '1' | 0 | 1 | undefined, fallback: '0' | '1' = '0'): '0' | '1' =>
	value === undefined ? fallback : (String(value) as '0' | '1');

/** A list of event names without repeats, in the order given. */
export const uniqueEvents = (events: readonly string[]): string[] => [...new Set(events)];

/**
 * GitHub's limits for an organization or repository hook being created or updated (`id` null when
 * new): no other hook of the scope with the same URL, at most MAX_HOOKS_PER_EVENT hooks per event
 * ("*" counts for every event).
 * @param place "repository" or "organization", for the message
 * @throws DomainError 422 (resource Hook, code custom)
 */
export function checkHookLimits(store: WebhookStore, scope: HookScope, id: number | null, values: HookValues, place: string): void {
	const others = store.inScope(scope).filter((hook) => hook.id !== id);
	if (others.some((hook) => hook.url === values.url)) throw invalidField('Hook', 'url', `Hook already exists on this ${place}`, 'custom');
	const lists = others.map((hook) => JSON.parse(hook.events) as string[]);
	const wildcards = lists.filter((list) => list.includes('*')).length;
	const count = (event: string) => wildcards + lists.filter((list) => !list.includes('*') && list.includes(event)).length;
	const wanted = JSON.parse(values.events) as string[];
	// "*" subscribes to every event: each event another hook names counts.
	const events = wanted.includes('*') ? [...new Set(['*', ...lists.flat()])] : wanted;
	for (const event of events) {
		if (count(event) >= MAX_HOOKS_PER_EVENT) {
			throw invalidField('Hook', 'events', `The "${event}" event cannot have more than ${MAX_HOOKS_PER_EVENT} hooks`, 'custom');
		}
	}
}
