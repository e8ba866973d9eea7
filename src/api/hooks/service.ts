/**
 * Rules shared by every kind of webhook (global, organization, repository): the hook URL check
 * (http or https, and the address rule of src/webhooks/targets.ts), the request schemas of a hook's
 * config, and for organization and repository hooks GitHub's limits — one hook per URL in a
 * repository or organization, at most 20 hooks per event.
 */
import * as v from 'valibot';
import type { App } from '../../app';
import { inOrganization, sender } from '../../events/payloads';
import { invalidField } from '../../model/errors';
import { repository } from '../../model/render';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import type { HookRow, HookScope, HookValues, WebhookStore } from '../../webhooks/store';
import { ALLOWED_HOSTS_KEY, urlRefusal } from '../../webhooks/targets';
import { repositoryHook } from './render';

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

/** A hook's config as a request gives it (every field optional). */
export interface HookConfigInput {
	url?: string;
	content_type?: 'json' | 'form';
	secret?: string | null;
	insecure_ssl?: '0' | '1' | 0 | 1;
}

/**
 * A hook's stored config after a request's `config`: given fields replace, omitted ones take their
 * default (content_type form, insecure_ssl "0", no secret: GitHub removes a secret not sent again)
 * unless `keep` (PATCH …/config), where omitted fields stay as they were. The URL stays when omitted.
 * @throws DomainError 422 when there is no URL at all, or the URL is refused (checkHookUrl)
 */
export function hookConfigValues(
	input: HookConfigInput | undefined,
	before: HookRow | undefined,
	keep: boolean,
	allowedHosts: readonly string[],
): Pick<HookValues, 'url' | 'content_type' | 'insecure_ssl' | 'secret'> {
	const url = input?.url ?? before?.url;
	if (url === undefined) throw invalidField('Hook', 'config.url', 'config.url is required', 'missing_field');
	const kept = keep && before;
	return {
		url: input?.url === undefined ? url : checkHookUrl(url, allowedHosts),
		content_type: input?.content_type ?? (kept ? before.content_type : 'form'),
		insecure_ssl: sslFlag(input?.insecure_ssl, kept ? before.insecure_ssl : '0'),
		// A secret given empty or null removes it.
		secret: input?.secret !== undefined ? input.secret || null : kept ? before.secret : null,
	};
}

/**
 * Creates (`hook` undefined) or changes an organization or repository hook after GitHub's limits
 * (checkHookLimits), and makes the delivery engine see it. Runs in the caller's transaction.
 * @param place "repository" or "organization", for the messages
 * @param now ISO timestamp
 * @throws DomainError 422 (a URL the scope has already, a 21st hook for an event)
 */
export function saveHook(app: App, scope: HookScope, place: string, hook: HookRow | undefined, values: HookValues, now: string): HookRow {
	const { webhooks } = app.stores;
	checkHookLimits(webhooks, scope, hook?.id ?? null, values, place);
	const saved = hook ? webhooks.update(hook.id, values, now) : webhooks.insert(scope, values, now);
	app.webhooks.invalidate();
	return saved;
}

/** Deletes a hook; its deliveries go with it (foreign keys) and an attempt in flight is cancelled. */
export function deleteHook(app: App, hook: HookRow): void {
	app.stores.webhooks.remove(hook.id);
	app.webhooks.invalidate();
}

/**
 * Sends a repository hook GitHub's `ping` event (as on POST …/pings and on creating an active
 * hook): the hook, the repository, its organization and the sender.
 */
export function pingRepositoryHook(app: App, repo: RepositoryRow, owner: AccountRow, hook: HookRow, actorId: number | null): void {
	app.webhooks.ping(hook, repositoryHook(app.urls, `/repos/${owner.login}/${repo.name}`, hook), {
		repository: repository(app.urls, repo, owner, null),
		...(owner.type === 'Organization' ? inOrganization(app, owner) : {}),
		...sender(app, actorId),
	});
}
