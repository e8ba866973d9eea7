/**
 * Prepared statements for keys: users' SSH authentication and signing keys and repositories' deploy
 * keys (`public_keys`), users' GPG keys with their subkeys (`gpg_keys`), and the outcomes of
 * OpenPGP signature checks (`gpg_signature_checks`).
 */
import type { DB } from '../../db/open';

export type PublicKeyKind = 'authentication' | 'signing' | 'deploy';

export interface PublicKeyRow {
	id: number;
	kind: PublicKeyKind;
	user_id: number | null;
	repo_id: number | null;
	title: string;
	/** "<type> <base64>" */
	key: string;
	/** SHA256:<base64> of the key blob. */
	fingerprint: string;
	read_only: number;
	added_by_id: number | null;
	last_used: string | null;
	created_at: string;
}

export interface GpgKeyRow {
	id: number;
	user_id: number;
	primary_key_id: number | null;
	name: string | null;
	key_id: string;
	fingerprint: string;
	public_key: string;
	raw_key: string | null;
	/** JSON array of emails. */
	emails: string;
	can_sign: number;
	can_encrypt_comms: number;
	can_encrypt_storage: number;
	can_certify: number;
	revoked: number;
	expires_at: string | null;
	created_at: string;
}

/** What one GPG key (primary or subkey) is, read from the armored key. */
export type GpgKeyValues = Omit<GpgKeyRow, 'id' | 'user_id' | 'primary_key_id' | 'created_at'>;

export type KeyStore = ReturnType<typeof createKeyStore>;

export function createKeyStore(db: DB) {
	const publicKey = db.prepare('SELECT * FROM public_keys WHERE id = ?');
	const ofUser = db.prepare('SELECT * FROM public_keys WHERE user_id = ? AND kind = ? ORDER BY id LIMIT ? OFFSET ?');
	const countOfUser = db.prepare('SELECT count(*) FROM public_keys WHERE user_id = ? AND kind = ?').pluck();
	const ofRepo = db.prepare("SELECT * FROM public_keys WHERE repo_id = ? AND kind = 'deploy' ORDER BY id LIMIT ? OFFSET ?");
	const countOfRepo = db.prepare("SELECT count(*) FROM public_keys WHERE repo_id = ? AND kind = 'deploy'").pluck();
	// Index public_keys_fingerprint: signing keys apart from authentication and deploy keys.
	const byFingerprint = db.prepare("SELECT * FROM public_keys WHERE (kind = 'signing') = ? AND fingerprint = ?");
	const insertPublic = db.prepare(`
		INSERT INTO public_keys (kind, user_id, repo_id, title, key, fingerprint, read_only, added_by_id, created_at)
		VALUES (@kind, @user_id, @repo_id, @title, @key, @fingerprint, @read_only, @added_by_id, @now)`);
	const removePublic = db.prepare('DELETE FROM public_keys WHERE id = ?');

	const gpgKey = db.prepare('SELECT * FROM gpg_keys WHERE id = ?');
	const gpgOfUser = db.prepare('SELECT * FROM gpg_keys WHERE user_id = ? AND primary_key_id IS NULL ORDER BY id LIMIT ? OFFSET ?');
	const gpgCountOfUser = db.prepare('SELECT count(*) FROM gpg_keys WHERE user_id = ? AND primary_key_id IS NULL').pluck();
	const subkeys = db.prepare(
		'SELECT * FROM gpg_keys WHERE primary_key_id IN (SELECT value FROM json_each(?)) ORDER BY primary_key_id, id',
	);
	const gpgByKeyId = db.prepare('SELECT * FROM gpg_keys WHERE key_id = ? ORDER BY id');
	const primaryByKeyId = db.prepare('SELECT * FROM gpg_keys WHERE key_id = ? AND primary_key_id IS NULL');
	const insertGpg = db.prepare(`
		INSERT INTO gpg_keys (user_id, primary_key_id, name, key_id, fingerprint, public_key, raw_key, emails, can_sign, can_encrypt_comms,
			can_encrypt_storage, can_certify, revoked, expires_at, created_at)
		VALUES (@user_id, @primary_key_id, @name, @key_id, @fingerprint, @public_key, @raw_key, @emails, @can_sign, @can_encrypt_comms,
			@can_encrypt_storage, @can_certify, @revoked, @expires_at, @now)`);
	const removeGpg = db.prepare('DELETE FROM gpg_keys WHERE id = ?');
	const check = db.prepare('SELECT valid, checked_at FROM gpg_signature_checks WHERE sha = ? AND gpg_key_id = ?');
	const insertCheck = db.prepare(`
		INSERT INTO gpg_signature_checks (sha, gpg_key_id, valid, checked_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (sha, gpg_key_id) DO UPDATE SET valid = excluded.valid, checked_at = excluded.checked_at`);

	return {
		publicKey: (id: number) => publicKey.get(id) as PublicKeyRow | undefined,
		/** One page of a user's keys of a kind, oldest first, and how many there are. */
		ofUser(userId: number, kind: 'authentication' | 'signing', limit: number, offset: number) {
			return { rows: ofUser.all(userId, kind, limit, offset) as PublicKeyRow[], total: countOfUser.get(userId, kind) as number };
		},
		/** One page of a repository's deploy keys, oldest first, and how many there are. */
		ofRepo(repoId: number, limit: number, offset: number) {
			return { rows: ofRepo.all(repoId, limit, offset) as PublicKeyRow[], total: countOfRepo.get(repoId) as number };
		},
		/** The key with this fingerprint among signing keys (`signing`), or among authentication and deploy keys. */
		byFingerprint: (signing: boolean, fingerprint: string) =>
			byFingerprint.get(signing ? 1 : 0, fingerprint) as PublicKeyRow | undefined,
		/** @param now ISO timestamp */
		insertPublic(
			values: Pick<PublicKeyRow, 'kind' | 'user_id' | 'repo_id' | 'title' | 'key' | 'fingerprint' | 'read_only' | 'added_by_id'>,
			now: string,
		): PublicKeyRow {
			return publicKey.get(insertPublic.run({ ...values, now }).lastInsertRowid) as PublicKeyRow;
		},
		removePublic: (id: number) => removePublic.run(id).changes > 0,

		gpgKey: (id: number) => gpgKey.get(id) as GpgKeyRow | undefined,
		/** One page of a user's primary GPG keys, oldest first, and how many there are. */
		gpgOfUser(userId: number, limit: number, offset: number) {
			return { rows: gpgOfUser.all(userId, limit, offset) as GpgKeyRow[], total: gpgCountOfUser.get(userId) as number };
		},
		/** The subkeys of these primary keys. */
		subkeys: (primaryIds: number[]) => (primaryIds.length ? (subkeys.all(JSON.stringify(primaryIds)) as GpgKeyRow[]) : []),
		/** Keys and subkeys with this key id (16 upper-case hex digits). */
		gpgByKeyId: (keyId: string) => gpgByKeyId.all(keyId) as GpgKeyRow[],
		/** The primary key with this key id, whoever registered it. */
		primaryByKeyId: (keyId: string) => primaryByKeyId.get(keyId) as GpgKeyRow | undefined,
		/** @param now ISO timestamp */
		insertGpg(values: GpgKeyValues & { user_id: number; primary_key_id: number | null }, now: string): GpgKeyRow {
			return gpgKey.get(insertGpg.run({ ...values, now }).lastInsertRowid) as GpgKeyRow;
		},
		/** Deletes a primary key (its subkeys and checks go with it). */
		removeGpg: (id: number) => removeGpg.run(id).changes > 0,
		/** The outcome of checking the OpenPGP signature of object `sha` with a key, if checked. */
		check: (sha: string, gpgKeyId: number) => check.get(sha, gpgKeyId) as { valid: number; checked_at: string } | undefined,
		/** @param checkedAt ISO timestamp */
		insertCheck: (sha: string, gpgKeyId: number, valid: boolean, checkedAt: string) =>
			void insertCheck.run(sha, gpgKeyId, valid ? 1 : 0, checkedAt),
	};
}
