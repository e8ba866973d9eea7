/**
 * Keys (GitHub's users/keys, users/ssh-signing-keys, users/gpg-keys and deploy-keys operations):
 * the authenticated user's SSH authentication keys (/user/keys), SSH signing keys
 * (/user/ssh_signing_keys) and GPG keys (/user/gpg_keys), anyone's public ones (/users/{username}/…),
 * and a repository's deploy keys (/repos/{owner}/{repo}/keys).
 *
 * Permissions, as GitHub documents them: fine-grained Git SSH keys (git_ssh_keys), GPG keys
 * (gpg_keys) and SSH signing keys (ssh_signing_keys) user permissions, read to list, write to add
 * and delete; classic scopes read/write/admin:public_key, :gpg_key, :ssh_signing_key (deleting
 * takes admin:). Deploy keys: Administration (repository), classic repo, repository administrators
 * (or a custom role with manage_deploy_keys).
 */
import * as v from 'valibot';
import { invalidField, notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { repositoryPaths } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import { GpgKeyError, parseGpgKey, type ParsedGpgKey } from './gpg';
import { deployKey, gpgKey, signingKey, simpleKey, userKey } from './render';
import { addGpgKey, addPublicKey, removeGpgKey, removePublicKey, verifiedEmails } from './service';
import type { GpgKeyRow, PublicKeyRow } from './store';

/** The acting user (the `self` guard guarantees one). */
const self = (ctx: Context): AccountRow => ctx.app.stores.accounts.byId(ctx.principal.user!.id)!;

/** The user named by {username}, or 404. */
function namedUser(ctx: Context): AccountRow {
	const user = ctx.app.stores.accounts.user(ctx.params.username);
	if (!user) throw notFound();
	return user;
}

const keyBody = v.object({
	title: v.optional(v.string('title must be a string')),
	key: v.string('key must be a string'),
});

/** A user's SSH key of a kind named by a path parameter, or 404. */
function ownKey(ctx: Context, kind: 'authentication' | 'signing', param: string): PublicKeyRow {
	const id = idParam(ctx.params[param]);
	const row = id === null ? undefined : ctx.app.stores.keys.publicKey(id);
	if (!row || row.kind !== kind || row.user_id !== ctx.principal.user!.id) throw notFound();
	return row;
}

/** A user's GPG keys, rendered with their subkeys. */
function renderGpgKeys(ctx: Context, user: AccountRow, rows: GpgKeyRow[]) {
	const subkeys = ctx.app.stores.keys.subkeys(rows.map((row) => row.id));
	const emails = verifiedEmails(ctx.app, user);
	return rows.map((row) =>
		gpgKey(
			row,
			subkeys.filter((subkey) => subkey.primary_key_id === row.id),
			emails,
		),
	);
}

/** What differs between the two kinds of a user's SSH keys (authentication and signing). */
interface SshKeyKind {
	kind: 'authentication' | 'signing';
	/** The path segment after /user and /users/{username}. */
	segment: string;
	/** The key's id parameter. */
	param: string;
	/** The fine-grained user permission (read lists and gets, write adds and deletes). */
	permission: 'git_ssh_keys' | 'ssh_signing_keys';
	/** The classic scope that deleting takes. */
	deleteScope: string;
	/** GitHub's documentation anchors: list, create, get, delete (the authenticated user's), list (a user's). */
	docs: [string, string, string, string, string];
	/** The user's own key as the answers render it. */
	own: (ctx: Context, row: PublicKeyRow) => unknown;
	/** A key in anyone's public list. */
	listed: (row: PublicKeyRow) => unknown;
	/** The Location of a new key. */
	location: (ctx: Context, row: PublicKeyRow) => string;
}

/** The five routes of one kind of SSH key: the authenticated user's list, create, get, delete, and anyone's public list. */
function sshKeyRoutes(k: SshKeyKind): RouteDeclaration[] {
	const permissions = (level: 'read' | 'write') => [{ [k.permission]: level }];
	const base = `/user/${k.segment}`;
	return [
		route({
			method: 'GET',
			path: base,
			docs: k.docs[0],
			permissions: permissions('read'),
			access: 'authenticated',
			resource: { self: true, bound: true },
			pagination: true,
			handler(ctx) {
				const { rows, total } = ctx.app.stores.keys.ofUser(ctx.principal.user!.id, k.kind, ctx.page.perPage, ctx.page.offset);
				return paged(
					rows.map((row) => k.own(ctx, row)),
					total,
				);
			},
		}),
		route({
			method: 'POST',
			path: base,
			docs: k.docs[1],
			permissions: permissions('write'),
			access: 'authenticated',
			resource: { self: true, bound: true },
			errorResource: 'PublicKey',
			body: keyBody,
			handler(ctx) {
				const row = addPublicKey(
					ctx.app,
					{ kind: k.kind, owner: { user: self(ctx) }, title: ctx.body.title, key: ctx.body.key },
					ctx.principal.actorId,
					isoSeconds(ctx.now),
				);
				return created(k.own(ctx, row), k.location(ctx, row));
			},
		}),
		route({
			method: 'GET',
			path: `${base}/{${k.param}}`,
			docs: k.docs[2],
			permissions: permissions('read'),
			access: 'authenticated',
			resource: { self: true, bound: true },
			handler: (ctx) => ok(k.own(ctx, ownKey(ctx, k.kind, k.param))),
		}),
		route({
			method: 'DELETE',
			path: `${base}/{${k.param}}`,
			docs: k.docs[3],
			permissions: permissions('write'),
			scopes: [k.deleteScope],
			access: 'authenticated',
			resource: { self: true, bound: true },
			handler(ctx) {
				removePublicKey(ctx.app, ownKey(ctx, k.kind, k.param), ctx.principal.actorId);
				return noContent();
			},
		}),
		route({
			method: 'GET',
			path: `/users/{username}/${k.segment}`,
			docs: k.docs[4],
			permissions: [],
			access: 'public',
			resource: 'none',
			pagination: true,
			handler(ctx) {
				const { rows, total } = ctx.app.stores.keys.ofUser(namedUser(ctx).id, k.kind, ctx.page.perPage, ctx.page.offset);
				return paged(rows.map(k.listed), total);
			},
		}),
	];
}

/** The three kinds of user key routes, with their permission key and classic scope family. */
function userKeyRoutes(): RouteDeclaration[] {
	return [
		...sshKeyRoutes({
			kind: 'authentication',
			segment: 'keys',
			param: 'key_id',
			permission: 'git_ssh_keys',
			deleteScope: 'admin:public_key',
			docs: [
				'users/keys#list-public-ssh-keys-for-the-authenticated-user',
				'users/keys#create-a-public-ssh-key-for-the-authenticated-user',
				'users/keys#get-a-public-ssh-key-for-the-authenticated-user',
				'users/keys#delete-a-public-ssh-key-for-the-authenticated-user',
				'users/keys#list-public-keys-for-a-user',
			],
			own: (ctx, row) => userKey(ctx.app.urls, row),
			listed: simpleKey,
			location: (ctx, row) => userKey(ctx.app.urls, row).url,
		}),
		...sshKeyRoutes({
			kind: 'signing',
			segment: 'ssh_signing_keys',
			param: 'ssh_signing_key_id',
			permission: 'ssh_signing_keys',
			deleteScope: 'admin:ssh_signing_key',
			docs: [
				'users/ssh-signing-keys#list-ssh-signing-keys-for-the-authenticated-user',
				'users/ssh-signing-keys#create-a-ssh-signing-key-for-the-authenticated-user',
				'users/ssh-signing-keys#get-an-ssh-signing-key-for-the-authenticated-user',
				'users/ssh-signing-keys#delete-an-ssh-signing-key-for-the-authenticated-user',
				'users/ssh-signing-keys#list-ssh-signing-keys-for-a-user',
			],
			own: (_ctx, row) => signingKey(row),
			listed: signingKey,
			location: (ctx, row) => `${ctx.app.urls.apiBase}/user/ssh_signing_keys/${row.id}`,
		}),
		// ---- GPG keys
		route({
			method: 'GET',
			path: '/user/gpg_keys',
			docs: 'users/gpg-keys#list-gpg-keys-for-the-authenticated-user',
			permissions: [{ gpg_keys: 'read' }],
			access: 'authenticated',
			resource: { self: true, bound: true },
			pagination: true,
			handler(ctx) {
				const user = self(ctx);
				const { rows, total } = ctx.app.stores.keys.gpgOfUser(user.id, ctx.page.perPage, ctx.page.offset);
				return paged(renderGpgKeys(ctx, user, rows), total);
			},
		}),
		route({
			method: 'POST',
			path: '/user/gpg_keys',
			docs: 'users/gpg-keys#create-a-gpg-key-for-the-authenticated-user',
			permissions: [{ gpg_keys: 'write' }],
			access: 'authenticated',
			resource: { self: true, bound: true },
			errorResource: 'GpgKey',
			body: v.object({
				name: v.optional(v.string('name must be a string')),
				armored_public_key: v.string('armored_public_key must be a string'),
			}),
			// The armored key is read with OpenPGP.js (asynchronous) before the write.
			async prepare(ctx) {
				try {
					return await parseGpgKey(ctx.body.armored_public_key);
				} catch (error) {
					if (error instanceof GpgKeyError)
						throw invalidField('GpgKey', 'armored_public_key', `We got an error doing that: ${error.message}.`, 'custom');
					throw error;
				}
			},
			handler(ctx) {
				const user = self(ctx);
				const row = addGpgKey(ctx.app, user, ctx.body.name ?? null, ctx.prepared as ParsedGpgKey, isoSeconds(ctx.now));
				return created(renderGpgKeys(ctx, user, [row])[0], `${ctx.app.urls.apiBase}/user/gpg_keys/${row.id}`);
			},
		}),
		route({
			method: 'GET',
			path: '/user/gpg_keys/{gpg_key_id}',
			docs: 'users/gpg-keys#get-a-gpg-key-for-the-authenticated-user',
			permissions: [{ gpg_keys: 'read' }],
			access: 'authenticated',
			resource: { self: true, bound: true },
			handler(ctx) {
				const user = self(ctx);
				return ok(renderGpgKeys(ctx, user, [ownGpgKey(ctx, user)])[0]);
			},
		}),
		route({
			method: 'DELETE',
			path: '/user/gpg_keys/{gpg_key_id}',
			docs: 'users/gpg-keys#delete-a-gpg-key-for-the-authenticated-user',
			permissions: [{ gpg_keys: 'write' }],
			scopes: ['admin:gpg_key'],
			access: 'authenticated',
			resource: { self: true, bound: true },
			handler(ctx) {
				removeGpgKey(ctx.app, ownGpgKey(ctx, self(ctx)));
				return noContent();
			},
		}),
		route({
			method: 'GET',
			path: '/users/{username}/gpg_keys',
			docs: 'users/gpg-keys#list-gpg-keys-for-a-user',
			permissions: [],
			access: 'public',
			resource: 'none',
			pagination: true,
			handler(ctx) {
				const user = namedUser(ctx);
				const { rows, total } = ctx.app.stores.keys.gpgOfUser(user.id, ctx.page.perPage, ctx.page.offset);
				return paged(renderGpgKeys(ctx, user, rows), total);
			},
		}),
	];
}

/** The user's primary GPG key {gpg_key_id}, or 404. */
function ownGpgKey(ctx: Context, user: AccountRow): GpgKeyRow {
	const id = idParam(ctx.params.gpg_key_id);
	const row = id === null ? undefined : ctx.app.stores.keys.gpgKey(id);
	if (!row || row.user_id !== user.id || row.primary_key_id !== null) throw notFound();
	return row;
}

/** Deploy keys: repository administrators (or a custom role with manage_deploy_keys). */
const DEPLOY = { access: 'authenticated' as const, resource: { repo: 'admin' as const, grantedBy: 'manage_deploy_keys' } };
const KEYS = '/repos/{owner}/{repo}/keys';

/** The repository's deploy key {key_id}, or 404. */
function ownDeployKey(ctx: Context): PublicKeyRow {
	const id = idParam(ctx.params.key_id);
	const row = id === null ? undefined : ctx.app.stores.keys.publicKey(id);
	if (!row || row.kind !== 'deploy' || row.repo_id !== ctx.repo.repo.id) throw notFound();
	return row;
}

function renderDeployKeys(ctx: Context, rows: PublicKeyRow[]) {
	const api = repositoryPaths(ctx.app.urls, ctx.repo.owner.login, ctx.repo.repo.name).api;
	const adders = ctx.app.stores.accounts.mapByIds([
		...new Set(rows.flatMap((row) => (row.added_by_id === null ? [] : [row.added_by_id]))),
	]);
	return rows.map((row) => deployKey(api, row, row.added_by_id === null ? undefined : adders.get(row.added_by_id)));
}

const deployKeyRoutes: RouteDeclaration[] = [
	route({
		...DEPLOY,
		method: 'GET',
		path: KEYS,
		docs: 'deploy-keys/deploy-keys#list-deploy-keys',
		permissions: [{ administration: 'read' }],
		pagination: true,
		handler(ctx) {
			const { rows, total } = ctx.app.stores.keys.ofRepo(ctx.repo.repo.id, ctx.page.perPage, ctx.page.offset);
			return paged(renderDeployKeys(ctx, rows), total);
		},
	}),
	route({
		...DEPLOY,
		method: 'POST',
		path: KEYS,
		docs: 'deploy-keys/deploy-keys#create-a-deploy-key',
		permissions: [{ administration: 'write' }],
		errorResource: 'PublicKey',
		body: v.object({
			title: v.optional(v.string('title must be a string')),
			key: v.string('key must be a string'),
			read_only: v.optional(v.boolean('read_only must be a boolean')),
		}),
		handler(ctx) {
			const row = addPublicKey(
				ctx.app,
				{ kind: 'deploy', owner: { repo: ctx.repo.repo }, title: ctx.body.title, key: ctx.body.key, readOnly: ctx.body.read_only },
				ctx.principal.actorId,
				isoSeconds(ctx.now),
			);
			const [body] = renderDeployKeys(ctx, [row]);
			return created(body, body.url);
		},
	}),
	route({
		...DEPLOY,
		method: 'GET',
		path: `${KEYS}/{key_id}`,
		docs: 'deploy-keys/deploy-keys#get-a-deploy-key',
		permissions: [{ administration: 'read' }],
		handler: (ctx) => ok(renderDeployKeys(ctx, [ownDeployKey(ctx)])[0]),
	}),
	route({
		...DEPLOY,
		method: 'DELETE',
		path: `${KEYS}/{key_id}`,
		docs: 'deploy-keys/deploy-keys#delete-a-deploy-key',
		permissions: [{ administration: 'write' }],
		handler(ctx) {
			removePublicKey(ctx.app, ownDeployKey(ctx), ctx.principal.actorId);
			return noContent();
		},
	}),
];

export const keyRoutes: RouteDeclaration[] = [...userKeyRoutes(), ...deployKeyRoutes];
