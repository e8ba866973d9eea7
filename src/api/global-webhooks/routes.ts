/**
 * Global webhooks (https://docs.github.com/en/webhooks/webhook-events-and-payloads): list, create, get, update
 * (omitted fields reset to their defaults), delete, ping — site administrators with classic tokens
 * only; everyone else gets 404. config.secret is masked in every answer.
 *
 * GitHub has no delivery log for global hooks; Gitstead exposes one in the shape GitHub uses for
 * organization hooks (hook-delivery-item, hook-delivery, redelivery), at
 * /admin/hooks/{hook_id}/deliveries, and through `gitstead admin list-deliveries`.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { accepted, created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { DEFAULT_EVENTS, HOOK_EVENTS } from '../../webhooks';
import type { HookRow, HookScope, HookValues } from '../../webhooks/store';
import { loadDelivery } from '../hooks/deliveries';
import { delivery, deliveryItem } from '../hooks/render';
import { checkHookUrl, contentType, insecureSsl, secret, sslFlag, uniqueEvents } from '../hooks/service';
import { globalHook } from './render';

const POLICY = {
	access: 'site_admin' as const,
	// The site itself: `access: 'site_admin'` is the guard.
	resource: 'none' as const,
	permissions: [],
	scopes: ['site_admin'],
	// The spec: only personal access tokens (classic).
	tokens: ['classic'] as Array<'classic'>,
	errorResource: 'Hook',
};

const config = v.object({
	url: v.pipe(v.string(), v.minLength(1, 'config.url is required')),
	content_type: v.optional(contentType),
	secret: v.optional(secret),
	insecure_ssl: v.optional(insecureSsl),
});
const events = v.optional(v.array(v.picklist(HOOK_EVENTS)));
const createBody = v.object({
	name: v.literal('web', 'name must be "web"'),
	config,
	events,
	active: v.optional(v.boolean()),
});
const updateBody = v.object({ config: v.optional(config), events, active: v.optional(v.boolean()) });

/**
 * Hook values from a request: what it omits takes its default (create and update alike).
 * @param allowedHosts config webhooks.allowed_hosts
 * @throws DomainError 422 for a URL that is not http(s), or whose host is refused by the address rule
 *   (src/webhooks/targets.ts: loopback, link-local, unspecified) and not in allowedHosts
 */
function hookValues(
	input: { config: v.InferOutput<typeof config>; events?: string[]; active?: boolean },
	allowedHosts: readonly string[],
): HookValues {
	return {
		...subscription(input),
		url: checkHookUrl(input.config.url, allowedHosts),
		content_type: input.config.content_type ?? 'form',
		insecure_ssl: sslFlag(input.config.insecure_ssl),
		secret: input.config.secret || null,
	};
}

/** active and events from a request: what it omits takes its default. */
function subscription(input: { events?: string[]; active?: boolean }): Pick<HookValues, 'active' | 'events'> {
	return { active: input.active === false ? 0 : 1, events: JSON.stringify(uniqueEvents(input.events ?? DEFAULT_EVENTS)) };
}

/** A hook's stored configuration, kept by an update that sends no config. */
function keptConfig(hook: HookRow): Pick<HookValues, 'url' | 'content_type' | 'insecure_ssl' | 'secret'> {
	return { url: hook.url, content_type: hook.content_type, insecure_ssl: hook.insecure_ssl, secret: hook.secret };
}

const GLOBAL: HookScope = { kind: 'global' };

function loadHook(ctx: Context): HookRow {
	const id = idParam(ctx.params.hook_id);
	const hook = id === null ? undefined : ctx.app.stores.webhooks.getInScope(GLOBAL, id);
	if (!hook) throw notFound();
	return hook;
}

export const globalWebhookRoutes = [
	route({
		...POLICY,
		method: 'GET',
		path: '/admin/hooks',
		docs: 'enterprise-admin/global-webhooks#list-global-webhooks',
		pagination: true,
		handler(ctx) {
			const { rows, total } = ctx.app.stores.webhooks.page(GLOBAL, ctx.page.perPage, ctx.page.offset);
			return paged(
				rows.map((hook) => globalHook(ctx.app.urls, hook, true)),
				total,
			);
		},
	}),
	route({
		...POLICY,
		method: 'POST',
		path: '/admin/hooks',
		docs: 'enterprise-admin/global-webhooks#create-a-global-webhook',
		body: createBody,
		handler(ctx) {
			const values = hookValues(ctx.body, ctx.app.config.webhooks.allowed_hosts);
			const hook = ctx.app.stores.webhooks.insert(GLOBAL, values, isoSeconds(ctx.now));
			ctx.app.webhooks.invalidate();
			return created(globalHook(ctx.app.urls, hook, true), ctx.app.urls.api(`/admin/hooks/${hook.id}`));
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: '/admin/hooks/{hook_id}',
		docs: 'enterprise-admin/global-webhooks#get-a-global-webhook',
		handler: (ctx) => ok(globalHook(ctx.app.urls, loadHook(ctx), true)),
	}),
	route({
		...POLICY,
		method: 'PATCH',
		path: '/admin/hooks/{hook_id}',
		docs: 'enterprise-admin/global-webhooks#update-a-global-webhook',
		body: updateBody,
		handler(ctx) {
			const hook = loadHook(ctx);
			// "Parameters omitted are reset to their default or removed when no default exists" — and
			// a hook is turned off or on with a PATCH of `active` alone. A hook's URL
			// has no default and cannot be removed: without config, the hook keeps its configuration
			// (URL, content type, TLS check, secret); events and active follow the reset rule.
			const values = ctx.body.config
				? hookValues({ ...ctx.body, config: ctx.body.config }, ctx.app.config.webhooks.allowed_hosts)
				: { ...subscription(ctx.body), ...keptConfig(hook) };
			const updated = ctx.app.stores.webhooks.update(hook.id, values, isoSeconds(ctx.now));
			ctx.app.webhooks.invalidate();
			// The update answer (global-hook-2) carries no secret at all.
			return ok(globalHook(ctx.app.urls, updated, false));
		},
	}),
	route({
		...POLICY,
		method: 'DELETE',
		path: '/admin/hooks/{hook_id}',
		docs: 'enterprise-admin/global-webhooks#delete-a-global-webhook',
		handler(ctx) {
			const hook = loadHook(ctx);
			ctx.app.stores.webhooks.remove(hook.id);
			ctx.app.webhooks.invalidate();
			return noContent();
		},
	}),
	route({
		...POLICY,
		method: 'POST',
		path: '/admin/hooks/{hook_id}/pings',
		docs: 'enterprise-admin/global-webhooks#ping-a-global-webhook',
		handler(ctx) {
			const hook = loadHook(ctx);
			const { config: hookConfig, ...rest } = globalHook(ctx.app.urls, hook, false);
			ctx.app.webhooks.ping(hook, { ...rest, config: hookConfig });
			return noContent();
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: '/admin/hooks/{hook_id}/deliveries',
		docs: 'orgs/webhooks#list-deliveries-for-an-organization-webhook',
		query: v.object({ status: v.optional(v.picklist(['success', 'failure'])) }),
		pagination: true,
		handler(ctx) {
			const hook = loadHook(ctx);
			const { rows, total } = ctx.app.stores.webhooks.deliveries({
				hookId: hook.id,
				status: ctx.query.status ?? null,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(rows.map(deliveryItem), total);
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: '/admin/hooks/{hook_id}/deliveries/{delivery_id}',
		docs: 'orgs/webhooks#get-a-webhook-delivery-for-an-organization-webhook',
		handler(ctx) {
			const hook = loadHook(ctx);
			const row = loadDelivery(ctx, hook);
			return ok(delivery(hook, row, ctx.app.stores.webhooks.attempts(row.id)));
		},
	}),
	route({
		...POLICY,
		method: 'POST',
		path: '/admin/hooks/{hook_id}/deliveries/{delivery_id}/attempts',
		docs: 'orgs/webhooks#redeliver-a-delivery-for-an-organization-webhook',
		handler(ctx) {
			ctx.app.webhooks.redeliver(loadDelivery(ctx, loadHook(ctx)));
			return accepted({});
		},
	}),
];
