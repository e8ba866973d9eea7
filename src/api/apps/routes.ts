/**
 * GitHub Apps (https://docs.github.com/en/rest/apps/apps): the app's own routes
 * (authenticated with its JWT), the installation lookups, token exchange, and the routes an
 * installation token uses about itself.
 */
import * as v from 'valibot';
import { isLevel, isPermissionKey, type GrantedPermissions } from '../../auth/permissions';
import { forbidden, notFound } from '../../model/errors';
import { accepted, created, noContent, ok, paged } from '../../http/reply';
import { isoSeconds } from '../../time';
import type { DeliveryRow, HookRow } from '../../webhooks/store';
import { deliveriesPage, deliveriesQuery } from '../hooks/deliveries';
import { loadDelivery } from '../hooks/deliveries';
import { delivery, hookConfig } from '../hooks/render';
import { contentType, insecureSsl, secret } from '../hooks/service';
import { idParam, route, type Context } from '../../http/route';
import { repository } from '../../model/render';
import type { AccountRow, AppRow } from '../../model/rows';
import { installation, integration } from './render';
import { createInstallationToken, expiresAtIso, saveAppHook, suspendInstallation, uninstallApp } from './service';

/**
 * Routes an app calls with its JWT. They guard no repository, organization or user: what they
 * reach is the calling app's own installations, found by the handlers for that app alone.
 */
const AS_APP = { access: 'authenticated' as const, resource: 'none' as const, permissions: [], tokens: ['app'] as Array<'app'> };

function currentApp(ctx: Context): AppRow {
	return ctx.app.stores.apps.byId(ctx.principal.appId!)!;
}

function ownInstallation(ctx: Context) {
	const app = currentApp(ctx);
	const id = idParam(ctx.params.installation_id);
	const row = id === null ? undefined : ctx.app.stores.apps.installation(id);
	if (!row || row.app_id !== app.id) throw notFound();
	return { app, row, account: ctx.app.stores.accounts.byId(row.account_id)! };
}

/** The calling app's hook, if it has one. */
function appHook(ctx: Context): HookRow | undefined {
	return ctx.app.stores.webhooks.inScope({ kind: 'app', appId: ctx.principal.appId! })[0];
}

/** A delivery {delivery_id} of the calling app's hook, or 404. */
function appDelivery(ctx: Context): { hook: HookRow; row: DeliveryRow } {
	const hook = appHook(ctx);
	if (!hook) throw notFound();
	return { hook, row: loadDelivery(ctx, hook) };
}

/** The current app's installation on an account, or 404. */
function installationOn(ctx: Context, account: AccountRow | undefined) {
	const app = currentApp(ctx);
	const row = account && ctx.app.stores.apps.installationOn(app.id, account.id);
	if (!account || !row) throw notFound();
	return ok(installation(ctx.app.urls, row, app, account));
}

const permissionsBody = v.pipe(
	v.record(v.string(), v.string()),
	v.check(
		(value) => Object.entries(value).every(([key, level]) => isPermissionKey(key) && isLevel(level)),
		'permissions maps known permission keys to read, write or admin',
	),
);

export const appRoutes = [
	route({
		...AS_APP,
		method: 'GET',
		path: '/app',
		docs: 'apps/apps#get-the-authenticated-app',
		handler(ctx) {
			const app = currentApp(ctx);
			return ok(
				integration(ctx.app.urls, app, ctx.app.stores.accounts.byId(app.owner_id)!, ctx.app.stores.apps.installationCount(app.id)),
			);
		},
	}),
	route({
		...AS_APP,
		method: 'GET',
		path: '/app/installations',
		docs: 'apps/apps#list-installations-for-the-authenticated-app',
		pagination: true,
		handler(ctx) {
			const app = currentApp(ctx);
			const { rows, total } = ctx.app.stores.apps.installationsOf(app.id, ctx.page.perPage, ctx.page.offset);
			return paged(
				rows.map((row) => installation(ctx.app.urls, row, app, ctx.app.stores.accounts.byId(row.account_id)!)),
				total,
			);
		},
	}),
	route({
		...AS_APP,
		method: 'GET',
		path: '/app/installations/{installation_id}',
		docs: 'apps/apps#get-an-installation-for-the-authenticated-app',
		handler(ctx) {
			const { app, row, account } = ownInstallation(ctx);
			return ok(installation(ctx.app.urls, row, app, account));
		},
	}),
	route({
		...AS_APP,
		method: 'DELETE',
		path: '/app/installations/{installation_id}',
		docs: 'apps/apps#delete-an-installation-for-the-authenticated-app',
		handler(ctx) {
			const { row } = ownInstallation(ctx);
			uninstallApp(ctx.app, row, currentApp(ctx).bot_id);
			return noContent();
		},
	}),
	...(['PUT', 'DELETE'] as const).map((method) =>
		route({
			...AS_APP,
			method,
			path: '/app/installations/{installation_id}/suspended',
			docs: `apps/apps#${method === 'PUT' ? 'suspend' : 'unsuspend'}-an-app-installation`,
			handler(ctx) {
				const { row } = ownInstallation(ctx);
				suspendInstallation(ctx.app, row, method === 'PUT', currentApp(ctx).bot_id, isoSeconds(ctx.now));
				return noContent();
			},
		}),
	),

	// ---- The app's webhook (GitHub's apps/webhooks): its config and delivery log, with the app's JWT.
	route({
		...AS_APP,
		method: 'GET',
		path: '/app/hook/config',
		docs: 'apps/webhooks#get-a-webhook-configuration-for-an-app',
		handler(ctx) {
			const hook = appHook(ctx);
			return ok(hook ? hookConfig(hook) : { content_type: 'json', insecure_ssl: '0', url: '' });
		},
	}),
	route({
		...AS_APP,
		method: 'PATCH',
		path: '/app/hook/config',
		docs: 'apps/webhooks#update-a-webhook-configuration-for-an-app',
		errorResource: 'Hook',
		body: v.object({
			url: v.optional(v.string('url must be a string')),
			content_type: v.optional(contentType),
			secret: v.optional(secret),
			insecure_ssl: v.optional(insecureSsl),
		}),
		handler(ctx) {
			const hook = saveAppHook(ctx.app, currentApp(ctx), ctx.body, isoSeconds(ctx.now));
			return ok(hookConfig(hook));
		},
	}),
	route({
		...AS_APP,
		method: 'GET',
		path: '/app/hook/deliveries',
		docs: 'apps/webhooks#list-deliveries-for-an-app-webhook',
		query: deliveriesQuery,
		handler(ctx) {
			const hook = appHook(ctx);
			if (!hook) return ok([]);
			return deliveriesPage(ctx, '/app/hook/deliveries', hook);
		},
	}),
	route({
		...AS_APP,
		method: 'GET',
		path: '/app/hook/deliveries/{delivery_id}',
		docs: 'apps/webhooks#get-a-delivery-for-an-app-webhook',
		handler(ctx) {
			const { hook, row } = appDelivery(ctx);
			return ok(delivery(hook, row, ctx.app.stores.webhooks.attempts(row.id)));
		},
	}),
	route({
		...AS_APP,
		method: 'POST',
		path: '/app/hook/deliveries/{delivery_id}/attempts',
		docs: 'apps/webhooks#redeliver-a-delivery-for-an-app-webhook',
		handler(ctx) {
			ctx.app.webhooks.redeliver(appDelivery(ctx).row);
			return accepted();
		},
	}),
	route({
		...AS_APP,
		method: 'POST',
		path: '/app/installations/{installation_id}/access_tokens',
		docs: 'apps/apps#create-an-installation-access-token-for-an-app',
		errorResource: 'InstallationToken',
		body: v.object({
			repositories: v.optional(v.array(v.string())),
			repository_ids: v.optional(v.array(v.pipe(v.number(), v.integer()))),
			permissions: v.optional(permissionsBody),
		}),
		handler(ctx) {
			const { row, account } = ownInstallation(ctx);
			if (row.suspended_at) throw forbidden('This installation has been suspended');
			const result = createInstallationToken(ctx.app, row, {
				...ctx.body,
				permissions: ctx.body.permissions as GrantedPermissions | undefined,
			});
			return created({
				token: result.token,
				expires_at: expiresAtIso(result.expiresAt),
				permissions: result.permissions,
				repository_selection: result.repositories ? 'selected' : row.repository_selection,
				...(result.repositories
					? { repositories: result.repositories.map((repo) => repository(ctx.app.urls, repo, account, null)) }
					: {}),
			});
		},
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/installations',
		docs: 'orgs/orgs#list-app-installations-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		// GitHub: "The authenticated user must be an organization owner to use this endpoint."
		resource: { org: 'owner' },
		errorResource: 'Installation',
		pagination: true,
		handler(ctx) {
			const org = ctx.org.org;
			const { rows, total } = ctx.app.stores.apps.installationsOnPage(org.id, ctx.page.perPage, ctx.page.offset);
			const installations = rows.map((row) => installation(ctx.app.urls, row, ctx.app.stores.apps.byId(row.app_id)!, org));
			return { status: 200, body: { total_count: total, installations }, total };
		},
	}),
	route({
		...AS_APP,
		method: 'GET',
		path: '/orgs/{org}/installation',
		docs: 'apps/apps#get-an-organization-installation-for-the-authenticated-app',
		handler: (ctx) => installationOn(ctx, ctx.app.stores.accounts.organization(ctx.params.org)),
	}),
	route({
		...AS_APP,
		method: 'GET',
		path: '/users/{username}/installation',
		docs: 'apps/apps#get-a-user-installation-for-the-authenticated-app',
		handler: (ctx) => installationOn(ctx, ctx.app.stores.accounts.user(ctx.params.username)),
	}),
	route({
		...AS_APP,
		method: 'GET',
		path: '/repos/{owner}/{repo}/installation',
		docs: 'apps/apps#get-a-repository-installation-for-the-authenticated-app',
		handler(ctx) {
			const owner = ctx.app.stores.accounts.byLogin(ctx.params.owner);
			const repo = owner && ctx.app.stores.repos.byOwnerAndName(owner.id, ctx.params.repo);
			return installationOn(ctx, repo ? owner : undefined);
		},
	}),
	route({
		method: 'GET',
		path: '/installation/repositories',
		docs: 'apps/installations#list-repositories-accessible-to-the-app-installation',
		access: 'authenticated',
		// The installation token's own repositories and the token itself.
		resource: 'none',
		permissions: [],
		tokens: ['installation'],
		pagination: true,
		handler(ctx) {
			const owner = ctx.app.stores.accounts.byId(ctx.principal.resourceOwnerId!)!;
			const only = ctx.principal.repositoryIds;
			const repos = ctx.app.stores.repos.forOwner(owner.id).filter((repo) => only === null || only.has(repo.id));
			const page = repos.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			return {
				status: 200,
				body: {
					total_count: repos.length,
					repositories: page.map((repo) => repository(ctx.app.urls, repo, owner, 'admin')),
					repository_selection: only === null ? 'all' : 'selected',
				},
				total: repos.length,
			};
		},
	}),
	route({
		method: 'DELETE',
		path: '/installation/token',
		docs: 'apps/installations#revoke-an-installation-access-token',
		access: 'authenticated',
		// The installation token's own repositories and the token itself.
		resource: 'none',
		permissions: [],
		tokens: ['installation'],
		handler(ctx) {
			const tokenId = ctx.principal.tokenId!;
			ctx.app.tokens.revoke(tokenId, Math.floor(ctx.now / 1000));
			return noContent();
		},
	}),
];
