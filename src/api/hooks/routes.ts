/**
 * Repository webhooks (GitHub REST "Repository webhooks": /repos/{owner}/{repo}/hooks…) and
 * organization webhooks ("Organization webhooks": /orgs/{org}/hooks…): list, create, get, update,
 * delete, the config routes, ping, test (repositories), and the delivery log with redelivery.
 * Declared once (hookRoutes) and served at both places, like teams at their three addresses.
 *
 * Access: repository administrators (`{ repo: 'admin' }`; fine-grained permission
 * `repository_hooks`, classic scopes read:/write:/admin:repo_hook or repo) and organization owners
 * (`{ org: 'owner' }`; `organization_hooks`, admin:org_hook). Hooks are settings, not content, so
 * an archived repository's hooks stay manageable.
 *
 * Hooks deliver through the one engine of src/webhooks: every event recorded in the repository (or
 * in any repository of the organization, or about the organization) reaches the active hooks
 * subscribed to it. Creating an active hook sends it a ping, as GitHub does. config.secret is
 * "********" in every answer. GitHub's limits: one hook per URL per repository or organization,
 * at most 20 hooks per event.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { accepted, created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context, type RouteDeclaration } from '../../http/route';
import type { PermissionSet } from '../../auth/permissions';
import { sender } from '../../events/payloads';
import { isoSeconds } from '../../time';
import { DEFAULT_REPOSITORY_HOOK_EVENTS, REPOSITORY_HOOK_EVENTS } from '../../webhooks';
import type { HookRow, HookScope, HookValues } from '../../webhooks/store';
import { pushPayload } from '../git/events';
import { orgSimple } from '../../model/render';
import { deliveriesPage, deliveriesQuery, loadDelivery } from './deliveries';
import { delivery, hookConfig, organizationHook, repositoryHook } from './render';
import { contentType, deleteHook, hookConfigValues, insecureSsl, pingRepositoryHook, saveHook, secret, uniqueEvents } from './service';

type Kind = 'repository' | 'organization';

const eventName = v.picklist(REPOSITORY_HOOK_EVENTS, 'must be a GitHub webhook event name, or "*"');
const events = v.optional(v.array(eventName));
const configInput = v.object({
	url: v.optional(v.pipe(v.string(), v.minLength(1, 'config.url is required'))),
	content_type: v.optional(contentType),
	secret: v.optional(secret),
	insecure_ssl: v.optional(insecureSsl),
});

const repositoryCreateBody = v.object({
	name: v.optional(v.literal('web', 'name must be "web"')),
	config: v.optional(configInput),
	events,
	active: v.optional(v.boolean()),
});
const organizationCreateBody = v.object({
	name: v.literal('web', 'name must be "web"'),
	config: configInput,
	events,
	active: v.optional(v.boolean()),
});
const repositoryUpdateBody = v.object({
	config: v.optional(configInput),
	events,
	add_events: events,
	remove_events: events,
	active: v.optional(v.boolean()),
});
const organizationUpdateBody = v.object({
	config: v.optional(configInput),
	events,
	active: v.optional(v.boolean()),
	name: v.optional(v.literal('web', 'name must be "web"')),
});

/** Where a request's hooks live: the guarded repository or organization. */
interface Place {
	scope: HookScope;
	/** "repository" or "organization", for messages. */
	kind: Kind;
	/** API path of the hook collection, e.g. /repos/octo/app/hooks. */
	collection: string;
	render(hook: HookRow): Record<string, unknown>;
	/** Sends one of its hooks a ping (the hook, the repository or organization, and the sender). */
	ping(hook: HookRow): void;
	/** The repository id deliveries of a ping name (repository hooks). */
	repositoryId: number | null;
}

function placeOf(ctx: Context, kind: Kind): Place {
	const { app } = ctx;
	if (kind === 'repository') {
		const { repo, owner } = ctx.repo;
		const path = `/repos/${owner.login}/${repo.name}`;
		return {
			scope: { kind: 'repository', repoId: repo.id },
			kind,
			collection: `${path}/hooks`,
			render: (hook) => repositoryHook(app.urls, path, hook),
			ping: (hook) => pingRepositoryHook(app, repo, owner, hook, ctx.principal.actorId),
			repositoryId: repo.id,
		};
	}
	const { org } = ctx.org;
	return {
		scope: { kind: 'organization', orgId: org.id },
		kind,
		collection: `/orgs/${org.login}/hooks`,
		render: (hook) => organizationHook(app.urls, org.login, hook),
		ping: (hook) =>
			app.webhooks.ping(hook, organizationHook(app.urls, org.login, hook), {
				organization: orgSimple(app.urls, org),
				...sender(app, ctx.principal.actorId),
			}),
		repositoryId: null,
	};
}

/** The hook {hook_id} of the place; a hook elsewhere (another repository, a global hook) is 404. */
function loadHook(ctx: Context, place: Place): HookRow {
	const id = idParam(ctx.params.hook_id);
	const hook = id === null ? undefined : ctx.app.stores.webhooks.getInScope(place.scope, id);
	if (!hook) throw notFound();
	return hook;
}

/** Stores new or changed values (after GitHub's limits) and makes the delivery engine see them. */
function save(ctx: Context, place: Place, hook: HookRow | undefined, values: HookValues): HookRow {
	return saveHook(ctx.app, place.scope, place.kind, hook, values, isoSeconds(ctx.now));
}

/** Sends a ping to the hook, as GitHub does on POST …/pings and on creating an active hook. */
function ping(_ctx: Context, place: Place, hook: HookRow): void {
	place.ping(hook);
}

/**
 * POST …/tests: the push event of the repository's latest push (whatever branch or tag it went to,
 * as GitHub: "the latest push to the current repository"), to this hook only, when it subscribes to
 * push. A repository with no recorded push (or whose latest push's commits are gone) sends the
 * default branch's latest commit; a repository without commits sends nothing — 204 alike.
 */
function testPush(ctx: Context, place: Place, hook: HookRow): void {
	const subscribed = JSON.parse(hook.events) as string[];
	if (!subscribed.includes('push') && !subscribed.includes('*')) return;
	const { app } = ctx;
	const { repo } = ctx.repo;
	const isCommit = (sha: string | null) => sha !== null && app.stores.git.meta(repo.id, sha)?.type === 'commit';
	const latest = app.stores.git.latestPush(repo.id);
	if (latest && (latest.after === null || isCommit(latest.after)) && (latest.before === null || isCommit(latest.before))) {
		const payload = pushPayload(app, repo, latest.ref, latest.before, latest.after, ctx.principal.actorId);
		app.webhooks.deliverTo(hook, 'push', null, payload, place.repositoryId);
		return;
	}
	const ref = `refs/heads/${repo.default_branch}`;
	const head = app.stores.git.ref(repo.id, ref);
	if (!head || !isCommit(head.sha)) return;
	const before = app.stores.git.parents(repo.id, head.sha)[0] ?? null;
	app.webhooks.deliverTo(hook, 'push', null, pushPayload(app, repo, ref, before, head.sha, ctx.principal.actorId), place.repositoryId);
}

/** The route declarations of one kind of hook. */
function hookRoutes(kind: Kind): RouteDeclaration[] {
	const repo = kind === 'repository';
	const base = repo ? '/repos/{owner}/{repo}/hooks' : '/orgs/{org}/hooks';
	const page = repo ? 'repos/webhooks' : 'orgs/webhooks';
	const noun = repo ? 'repository' : 'organization';
	const need = (level: 'read' | 'write'): PermissionSet => (repo ? { repository_hooks: level } : { organization_hooks: level });
	const policy = (level: 'read' | 'write') => ({
		access: 'authenticated' as const,
		// A custom repository role with manage_webhooks manages them below admin.
		resource: repo
			? { repo: 'admin' as const, writable: false, conceal: true as const, grantedBy: 'manage_webhooks' }
			: { org: 'owner' as const, conceal: true as const },
		permissions: [need(level)],
		errorResource: 'Hook',
	});
	// Classic scopes: deleting a repository hook takes admin:repo_hook (or repo); org hooks take admin:org_hook throughout.
	const deleteScopes = repo ? ['admin:repo_hook', 'repo'] : undefined;

	const test = (path: string) =>
		route({
			...policy('read'),
			method: 'POST',
			path,
			docs: `${page}#test-the-push-repository-webhook`,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				testPush(ctx, place, loadHook(ctx, place));
				return noContent();
			},
		});

	return [
		route({
			...policy('read'),
			method: 'GET',
			path: base,
			docs: `${page}#list-${noun}-webhooks`,
			pagination: true,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				const { rows, total } = ctx.app.stores.webhooks.page(place.scope, ctx.page.perPage, ctx.page.offset);
				return paged(rows.map(place.render), total);
			},
		}),
		route({
			...policy('write'),
			method: 'POST',
			path: base,
			docs: `${page}#create-${repo ? 'a-repository' : 'an-organization'}-webhook`,
			body: repo ? repositoryCreateBody : organizationCreateBody,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				const body = ctx.body as v.InferOutput<typeof repositoryCreateBody>;
				const hook = save(ctx, place, undefined, {
					active: body.active === false ? 0 : 1,
					events: JSON.stringify(uniqueEvents(body.events ?? DEFAULT_REPOSITORY_HOOK_EVENTS)),
					...hookConfigValues(body.config, undefined, false, ctx.app.config.webhooks.allowed_hosts),
				});
				if (hook.active === 1) ping(ctx, place, hook);
				return created(place.render(hook), ctx.app.urls.api(`${place.collection}/${hook.id}`));
			},
		}),
		route({
			...policy('read'),
			method: 'GET',
			path: `${base}/{hook_id}`,
			docs: `${page}#get-${repo ? 'a-repository' : 'an-organization'}-webhook`,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				return ok(place.render(loadHook(ctx, place)));
			},
		}),
		route({
			...policy('write'),
			method: 'PATCH',
			path: `${base}/{hook_id}`,
			docs: `${page}#update-${repo ? 'a-repository' : 'an-organization'}-webhook`,
			body: repo ? repositoryUpdateBody : organizationUpdateBody,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				const hook = loadHook(ctx, place);
				const body = ctx.body as v.InferOutput<typeof repositoryUpdateBody>;
				// events replaces the list; then add_events adds and remove_events removes (repositories).
				let list: string[] = body.events ?? (JSON.parse(hook.events) as string[]);
				if (body.add_events) list = [...list, ...body.add_events];
				const removed = new Set<string>(body.remove_events ?? []);
				list = list.filter((event) => !removed.has(event));
				const saved = save(ctx, place, hook, {
					active: body.active === undefined ? hook.active : body.active ? 1 : 0,
					events: JSON.stringify(uniqueEvents(list)),
					// Omitted config stays; a config given replaces it (a secret not sent again is removed).
					...(body.config ? hookConfigValues(body.config, hook, false, ctx.app.config.webhooks.allowed_hosts) : pickConfig(hook)),
				});
				return ok(place.render(saved));
			},
		}),
		route({
			...policy('write'),
			scopes: deleteScopes,
			method: 'DELETE',
			path: `${base}/{hook_id}`,
			docs: `${page}#delete-${repo ? 'a-repository' : 'an-organization'}-webhook`,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				deleteHook(ctx.app, loadHook(ctx, place));
				return noContent();
			},
		}),
		route({
			...policy('read'),
			method: 'GET',
			path: `${base}/{hook_id}/config`,
			docs: `${page}#get-a-webhook-configuration-for-${repo ? 'a-repository' : 'an-organization'}`,
			handler(ctx) {
				return ok(hookConfig(loadHook(ctx, placeOf(ctx, kind))));
			},
		}),
		route({
			...policy('write'),
			method: 'PATCH',
			path: `${base}/{hook_id}/config`,
			docs: `${page}#update-a-webhook-configuration-for-${repo ? 'a-repository' : 'an-organization'}`,
			body: configInput,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				const hook = loadHook(ctx, place);
				// Only the fields given change.
				const saved = save(ctx, place, hook, {
					active: hook.active,
					events: hook.events,
					...hookConfigValues(ctx.body, hook, true, ctx.app.config.webhooks.allowed_hosts),
				});
				return ok(hookConfig(saved));
			},
		}),
		route({
			...policy(repo ? 'read' : 'write'),
			method: 'POST',
			path: `${base}/{hook_id}/pings`,
			docs: `${page}#ping-${repo ? 'a-repository' : 'an-organization'}-webhook`,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				ping(ctx, place, loadHook(ctx, place));
				return noContent();
			},
		}),
		...(repo ? [test(`${base}/{hook_id}/tests`), test(`${base}/{hook_id}/test`)] : []),
		route({
			...policy('read'),
			method: 'GET',
			path: `${base}/{hook_id}/deliveries`,
			docs: `${page}#list-deliveries-for-${repo ? 'a-repository' : 'an-organization'}-webhook`,
			query: deliveriesQuery,
			handler(ctx) {
				const place = placeOf(ctx, kind);
				const hook = loadHook(ctx, place);
				return deliveriesPage(ctx, `${place.collection}/${hook.id}/deliveries`, hook);
			},
		}),
		route({
			...policy('read'),
			method: 'GET',
			path: `${base}/{hook_id}/deliveries/{delivery_id}`,
			docs: `${page}#get-a-delivery-for-${repo ? 'a-repository' : 'an-organization'}-webhook`,
			handler(ctx) {
				const hook = loadHook(ctx, placeOf(ctx, kind));
				const row = loadDelivery(ctx, hook);
				return ok(delivery(hook, row, ctx.app.stores.webhooks.attempts(row.id)));
			},
		}),
		route({
			...policy('write'),
			method: 'POST',
			path: `${base}/{hook_id}/deliveries/{delivery_id}/attempts`,
			docs: `${page}#redeliver-a-delivery-for-${repo ? 'a-repository' : 'an-organization'}-webhook`,
			handler(ctx) {
				const hook = loadHook(ctx, placeOf(ctx, kind));
				ctx.app.webhooks.redeliver(loadDelivery(ctx, hook));
				return accepted({});
			},
		}),
	];
}

/** A hook's stored config, unchanged. */
const pickConfig = (hook: HookRow) => ({
	url: hook.url,
	content_type: hook.content_type,
	insecure_ssl: hook.insecure_ssl,
	secret: hook.secret,
});

/** /repos/{owner}/{repo}/hooks… */
export const repositoryWebhookRoutes = hookRoutes('repository');
/** /orgs/{org}/hooks… */
export const organizationWebhookRoutes = hookRoutes('organization');
