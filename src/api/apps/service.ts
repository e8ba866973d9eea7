/**
 * GitHub Apps (https://docs.github.com/en/rest/apps/apps): registering an app
 * (an RSA key pair whose private half is shown once, a bot account), installing it on an account
 * with permissions, and issuing installation tokens (60 minutes) bounded by those permissions.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { App } from '../../app';
import { levelMeets, type GrantedPermissions, type Level, type PermissionKey } from '../../auth/permissions';
import { INSTALLATION_TOKEN_SECONDS } from '../../auth/tokens';
import { invalidField, unprocessable } from '../../model/errors';
import { epochSeconds, isoSeconds } from '../../time';
import type { RepositoryRow, AccountRow, AppRow, InstallationRow } from '../../model/rows';
import type { HookRow } from '../../webhooks/store';
import { checkHookUrl, sslFlag } from '../hooks/service';
import { recordInstallation } from './events';

/** GitHub's slug of an app name: lower case, runs of other characters become '-'. */
export function appSlug(name: string): string {
	return name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
}

/** The permissions of `wanted` that exceed `allowed` (missing, or at a higher level). */
export function exceeding(wanted: GrantedPermissions, allowed: GrantedPermissions): string[] {
	return (Object.entries(wanted) as Array<[PermissionKey, Level]>)
		.filter(([key, level]) => !levelMeets(allowed[key], level))
		.map(([key, level]) => `${key}:${level}`);
}

/**
 * Registers an app owned by `owner`, with its bot account `<slug>[bot]`.
 * @param now ISO timestamp
 * @returns the app and its private key (PEM, PKCS#1): shown once, never stored
 * @throws DomainError 422 for a name without letters or digits, or a taken slug.
 */
export function createApp(
	app: App,
	input: {
		name: string;
		owner: AccountRow;
		permissions: GrantedPermissions;
		events?: string[];
		description?: string | null;
		externalUrl?: string | null;
	},
	now: string,
): { app: AppRow; privateKey: string } {
	const slug = appSlug(input.name);
	if (!slug) throw invalidField('Integration', 'name', `"${input.name}" needs at least one letter or digit`);
	const { publicKey, privateKey } = generateKeyPairSync('rsa', {
		modulusLength: 2048,
		publicKeyEncoding: { type: 'spki', format: 'pem' },
		privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
	});
	const row = app.transaction(() => {
		if (app.stores.apps.bySlug(slug) || app.stores.accounts.byLogin(`${slug}[bot]`)) {
			throw invalidField('Integration', 'name', `an app named "${slug}" already exists`, 'already_exists');
		}
		const botId = app.stores.accounts.insert({ login: `${slug}[bot]`, type: 'Bot', now });
		return app.stores.apps.insert(
			{
				slug,
				name: input.name,
				description: input.description ?? null,
				owner_id: input.owner.id,
				bot_id: botId,
				client_id: `Iv1.${randomBytes(8).toString('hex')}`,
				public_key: publicKey,
				permissions: JSON.stringify({ metadata: 'read', ...input.permissions }),
				events: JSON.stringify(input.events ?? []),
				external_url: input.externalUrl ?? null,
			},
			now,
		);
	});
	return { app: row, privateKey };
}

/**
 * Installs an app on an account (or changes an installation's permissions).
 * @param permissions granted; default the app's own; never more than the app asks for
 * @param now ISO timestamp
 * @throws DomainError 422 naming permissions the app does not ask for.
 */
export function installApp(
	app: App,
	target: AppRow,
	account: AccountRow,
	permissions: GrantedPermissions | null,
	now: string,
): InstallationRow {
	const asked = JSON.parse(target.permissions) as GrantedPermissions;
	const granted = permissions ? { metadata: 'read' as const, ...permissions } : asked;
	const extra = exceeding(granted, asked);
	if (extra.length) throw invalidField('Installation', 'permissions', `${target.slug} does not ask for ${extra.join(', ')}`);
	return app.transaction(() => {
		const before = app.stores.apps.installationOn(target.id, account.id);
		const row = app.stores.apps.install(target.id, account.id, JSON.stringify(granted), now);
		// A new installation is `created`; new permissions granted to one are `new_permissions_accepted`.
		if (!before) recordInstallation(app, row, 'created', null);
		else if (before.permissions !== row.permissions) recordInstallation(app, row, 'new_permissions_accepted', null);
		app.authenticator.clear();
		return row;
	});
}

/**
 * Creates an installation access token: 60 minutes, at most the installation's permissions, all
 * of the account's repositories the installation reaches (all, or its selected ones) or the ones
 * named among those.
 * @throws DomainError 422 for permissions the installation lacks or repositories not of its account.
 */
export function createInstallationToken(
	app: App,
	installation: InstallationRow,
	request: { permissions?: GrantedPermissions; repositories?: string[]; repository_ids?: number[] },
): { token: string; expiresAt: number; permissions: GrantedPermissions; repositories: RepositoryRow[] | null } {
	const granted = JSON.parse(installation.permissions) as GrantedPermissions;
	const wanted = request.permissions && Object.keys(request.permissions).length ? request.permissions : null;
	if (wanted) {
		const extra = exceeding(wanted, granted);
		if (extra.length) throw unprocessable(`The permissions requested are not granted to this installation: ${extra.join(', ')}.`);
	}
	let repositories: RepositoryRow[] | null = null;
	if (request.repositories?.length || request.repository_ids?.length) {
		const byName = (request.repositories ?? []).map((name) => app.stores.repos.byOwnerAndName(installation.account_id, name));
		const byId = (request.repository_ids ?? []).map((id) => app.stores.repos.byId(id));
		const found = [...byName, ...byId];
		// An installation on selected repositories gives tokens for those only.
		const selected =
			installation.repository_selection === 'selected' ? new Set(app.stores.apps.selectedRepositoryIds(installation.id)) : null;
		if (found.some((repo) => !repo || repo.owner_id !== installation.account_id || (selected !== null && !selected.has(repo.id)))) {
			throw unprocessable('There is at least one repository that does not exist or is not accessible to the parent installation.');
		}
		if (found.length > 500) throw unprocessable('At most 500 repositories can be named.');
		repositories = [...new Map((found as RepositoryRow[]).map((repo) => [repo.id, repo])).values()];
	}
	const now = epochSeconds(app.clock());
	const target = app.stores.apps.byId(installation.app_id)!;
	const { token } = app.transaction(() =>
		app.tokens.create({
			kind: 'installation',
			userId: null,
			createdById: target.bot_id,
			permissions: wanted ?? {},
			resourceOwnerId: installation.account_id,
			installationId: installation.id,
			repositoryIds: repositories ? repositories.map((repo) => repo.id) : null,
			now,
			expiresAt: now + INSTALLATION_TOKEN_SECONDS,
		}),
	);
	return { token, expiresAt: now + INSTALLATION_TOKEN_SECONDS, permissions: wanted ?? granted, repositories };
}

/**
 * Uninstalls an app (DELETE /app/installations/{installation_id}, or an enterprise owner's
 * uninstall): records `installation` deleted first (its payload describes the installation), then
 * deletes it; its tokens go with it (ON DELETE CASCADE) and are forgotten in memory.
 */
export function uninstallApp(app: App, installation: InstallationRow, actorId: number | null): void {
	app.transaction(() => {
		recordInstallation(app, installation, 'deleted', actorId);
		app.stores.apps.uninstall(installation.id);
		app.authenticator.clear();
	});
}

/**
 * Suspends or unsuspends an installation (PUT and DELETE /app/installations/{installation_id}/suspended):
 * a suspended installation gets no token and no event but `installation` suspend/unsuspend.
 * Changing nothing records nothing.
 * @param now ISO timestamp
 */
export function suspendInstallation(app: App, installation: InstallationRow, suspend: boolean, actorId: number | null, now: string): void {
	if (Boolean(installation.suspended_at) === suspend) return;
	app.transaction(() => {
		app.stores.apps.setSuspended(installation.id, suspend ? now : null, now);
		recordInstallation(app, app.stores.apps.installation(installation.id)!, suspend ? 'suspend' : 'unsuspend', actorId);
		app.authenticator.clear();
	});
}

/**
 * Creates or changes a GitHub App's webhook (PATCH /app/hook/config, `gitstead admin create-app
 * --webhook-url`): given fields replace, omitted ones stay (a new hook: JSON, insecure_ssl "0", no
 * secret, active); a secret given empty or null removes it. The app's events and its
 * installations' permissions decide what it receives, not the hook.
 * @param now ISO timestamp
 * @throws DomainError 422 for a new hook without url, or a url the address rule refuses
 */
export function saveAppHook(
	app: App,
	target: AppRow,
	input: { url?: string; content_type?: 'json' | 'form'; secret?: string | null; insecure_ssl?: '0' | '1' | 0 | 1; active?: boolean },
	now: string,
): HookRow {
	const { webhooks } = app.stores;
	const scope = { kind: 'app' as const, appId: target.id };
	const before = webhooks.inScope(scope)[0];
	const url = input.url ?? before?.url;
	if (url === undefined || url === '') throw invalidField('Hook', 'url', 'url is required', 'missing_field');
	const values = {
		active: input.active === undefined ? (before?.active ?? 1) : input.active ? 1 : 0,
		events: '[]',
		url: input.url === undefined ? url : checkHookUrl(url, app.config.webhooks.allowed_hosts),
		content_type: input.content_type ?? before?.content_type ?? 'json',
		insecure_ssl: sslFlag(input.insecure_ssl, before?.insecure_ssl ?? '0'),
		secret: input.secret !== undefined ? input.secret || null : (before?.secret ?? null),
	};
	const hook = app.transaction(() => (before ? webhooks.update(before.id, values, now) : webhooks.insert(scope, values, now)));
	app.webhooks.invalidate();
	return hook;
}

/** The timestamp format of expires_at. */
export const expiresAtIso = (seconds: number) => isoSeconds(seconds * 1000);
