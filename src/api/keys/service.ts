/**
 * Keys (GitHub's users/keys, users/ssh-signing-keys, users/gpg-keys and deploy-keys operations):
 * adding a user's SSH authentication or signing key, a repository's deploy key, a user's GPG key
 * with its subkeys, and removing them, with GitHub's rules: a key in OpenSSH public key format of an
 * accepted type, an authentication or deploy key used once on the whole site (a signing key once
 * among signing keys), a GPG key registered once. A deploy key records `deploy_key` (webhook, audit
 * public_key.create / public_key.delete); users' own keys are reported by GitHub nowhere but in
 * their security log, so they record nothing.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import { invalidField, unprocessable } from '../../model/errors';
import { repositoryPaths } from '../../model/render';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import type { ParsedGpgKey } from './gpg';
import { deployKey } from './render';
import { parseSshPublicKey } from './ssh';
import type { GpgKeyRow, PublicKeyRow } from './store';

/** GitHub's 422 for text that is no public key it accepts. */
export const INVALID_KEY = 'key is invalid. You must supply a key in OpenSSH public key format';
/** GitHub's 422 for a key already registered. */
export const KEY_IN_USE = 'key is already in use';

/**
 * Adds an SSH key: a user's authentication or signing key, or a repository's deploy key.
 * @param now ISO timestamp
 * @throws HttpError 422 for an invalid key, one already in use, or deploy keys disabled by the organization
 */
export function addPublicKey(
	app: App,
	input: {
		kind: PublicKeyRow['kind'];
		owner: { user: AccountRow } | { repo: RepositoryRow };
		title: string | undefined;
		key: string;
		readOnly?: boolean;
	},
	actorId: number | null,
	now: string,
): PublicKeyRow {
	const parsed = parseSshPublicKey(input.key);
	if (!parsed) throw invalidField('PublicKey', 'key', INVALID_KEY, 'custom');
	if ('repo' in input.owner) {
		const owner = app.stores.accounts.byId(input.owner.repo.owner_id)!;
		if (owner.type === 'Organization' && owner.deploy_keys_enabled_for_repositories === 0)
			throw unprocessable(`Deploy keys are disabled for repositories of ${owner.login}.`);
	}
	// The key's comment is its title when none is given.
	const comment = input.key.trim().split(/\s+/).slice(2).join(' ');
	const title = input.title?.trim() || comment || '';
	return app.transaction(() => {
		if (app.stores.keys.byFingerprint(input.kind === 'signing', parsed.fingerprint)) {
			throw invalidField('PublicKey', 'key', KEY_IN_USE, 'custom');
		}
		const row = app.stores.keys.insertPublic(
			{
				kind: input.kind,
				user_id: 'user' in input.owner ? input.owner.user.id : null,
				repo_id: 'repo' in input.owner ? input.owner.repo.id : null,
				title,
				key: parsed.key,
				fingerprint: parsed.fingerprint,
				read_only: input.kind === 'deploy' && input.readOnly !== false ? 1 : 0,
				added_by_id: input.kind === 'deploy' ? actorId : null,
			},
			now,
		);
		if ('repo' in input.owner) recordDeployKey(app, input.owner.repo, row, 'created', actorId);
		return row;
	});
}

/** Records deploy_key created or deleted, with GitHub's payload (key, repository, organization, sender). */
function recordDeployKey(app: App, repo: RepositoryRow, row: PublicKeyRow, action: 'created' | 'deleted', actorId: number | null): void {
	record(app, {
		event: 'deploy_key',
		action,
		actorId,
		repo,
		webhook: () => {
			const owner = app.stores.accounts.byId(repo.owner_id)!;
			const addedBy = row.added_by_id === null ? undefined : app.stores.accounts.byId(row.added_by_id);
			return {
				key: deployKey(repositoryPaths(app.urls, owner.login, repo.name).api, row, addedBy),
				...inRepository(app, repo, actorId),
			};
		},
	});
}

/** Removes an SSH key (a deploy key records deploy_key deleted). */
export function removePublicKey(app: App, row: PublicKeyRow, actorId: number | null): void {
	app.transaction(() => {
		app.stores.keys.removePublic(row.id);
		if (row.repo_id !== null) recordDeployKey(app, app.stores.repos.byId(row.repo_id)!, row, 'deleted', actorId);
	});
}

/**
 * Registers a user's GPG key and its subkeys (parsed by the route's prepare step).
 * @param now ISO timestamp
 * @throws HttpError 422 when the key is already registered
 */
export function addGpgKey(app: App, user: AccountRow, name: string | null, parsed: ParsedGpgKey, now: string): GpgKeyRow {
	return app.transaction(() => {
		if (app.stores.keys.primaryByKeyId(parsed.primary.key_id))
			throw invalidField('GpgKey', 'key_id', 'key_id already exists', 'custom');
		const primary = app.stores.keys.insertGpg({ ...parsed.primary, name, user_id: user.id, primary_key_id: null }, now);
		for (const subkey of parsed.subkeys) app.stores.keys.insertGpg({ ...subkey, user_id: user.id, primary_key_id: primary.id }, now);
		return primary;
	});
}

/**
 * Removes a user's GPG key with its subkeys; the stored checks of signatures it made go with it,
 * so those signatures read unknown_key again. Recorded nowhere (the user's security log on GitHub).
 */
export function removeGpgKey(app: App, row: GpgKeyRow): void {
	app.transaction(() => app.stores.keys.removeGpg(row.id));
}

/** The emails of a user GitHub counts as verified (lower case): the account's email, its verified added ones and its noreply address. */
export function verifiedEmails(app: App, user: AccountRow): Set<string> {
	const host = app.urls.host.replace(/:\d+$/, '');
	const emails = new Set([`${user.id}+${user.login}@users.noreply.${host}`.toLowerCase()]);
	if (user.email) emails.add(user.email.toLowerCase());
	for (const row of app.stores.emails.ofUser(user.id)) if (row.verified === 1) emails.add(row.email.toLowerCase());
	return emails;
}
