/**
 * GitHub's key shapes (OpenAPI schemas key, key-simple, ssh-signing-key, gpg-key, deploy-key).
 */
import type { Urls } from '../../model/urls';
import type { AccountRow } from '../../model/rows';
import type { GpgKeyRow, PublicKeyRow } from './store';

/** Key: one of the authenticated user's SSH authentication keys. */
export function userKey(urls: Urls, row: PublicKeyRow) {
	return {
		key: row.key,
		id: row.id,
		url: `${urls.apiBase}/user/keys/${row.id}`,
		title: row.title,
		created_at: row.created_at,
		verified: true,
		read_only: false,
		last_used: row.last_used,
	};
}

/** KeySimple: a user's public SSH key as anyone sees it (GET /users/{username}/keys). */
export function simpleKey(row: PublicKeyRow) {
	return { id: row.id, key: row.key, created_at: row.created_at, last_used: row.last_used };
}

/** SshSigningKey. */
export function signingKey(row: PublicKeyRow) {
	return { key: row.key, id: row.id, title: row.title, created_at: row.created_at };
}

/** DeployKey. @param addedBy the login of the user who added it */
export function deployKey(repoApi: string, row: PublicKeyRow, addedBy: AccountRow | undefined) {
	return {
		id: row.id,
		key: row.key,
		url: `${repoApi}/keys/${row.id}`,
		title: row.title,
		verified: true,
		created_at: row.created_at,
		read_only: row.read_only === 1,
		added_by: addedBy?.login ?? null,
		last_used: row.last_used,
		enabled: true,
	};
}

/** GitHub's gpg-key shape (a subkey has the same fields, with no subkeys of its own). */
export interface GpgKeyShape {
	id: number;
	name: string | null;
	primary_key_id: number | null;
	key_id: string;
	public_key: string;
	emails: Array<{ email: string; verified: boolean }>;
	subkeys: GpgKeyShape[];
	can_sign: boolean;
	can_encrypt_comms: boolean;
	can_encrypt_storage: boolean;
	can_certify: boolean;
	created_at: string;
	expires_at: string | null;
	revoked: boolean;
	raw_key: string | null;
}

/** One GPG key or subkey. @param verifiedEmails the owner's verified emails, lower case */
function gpgKeyShape(row: GpgKeyRow, subkeys: GpgKeyRow[], verifiedEmails: ReadonlySet<string>): GpgKeyShape {
	const emails = JSON.parse(row.emails) as string[];
	return {
		id: row.id,
		name: row.primary_key_id === null ? row.name : null,
		primary_key_id: row.primary_key_id,
		key_id: row.key_id,
		public_key: row.public_key,
		emails: emails.map((email) => ({ email, verified: verifiedEmails.has(email) })),
		subkeys: subkeys.map((subkey) => gpgKeyShape(subkey, [], verifiedEmails)),
		can_sign: row.can_sign === 1,
		can_encrypt_comms: row.can_encrypt_comms === 1,
		can_encrypt_storage: row.can_encrypt_storage === 1,
		can_certify: row.can_certify === 1,
		created_at: row.created_at,
		expires_at: row.expires_at,
		revoked: row.revoked === 1,
		raw_key: row.raw_key,
	};
}

/** GpgKey with its subkeys. @param verifiedEmails the owner's verified emails, lower case */
export function gpgKey(row: GpgKeyRow, subkeys: GpgKeyRow[], verifiedEmails: ReadonlySet<string>): GpgKeyShape {
	return gpgKeyShape(row, subkeys, verifiedEmails);
}
