/**
 * GitHub's signature verification of commits and tags (the `verification` object: verified, reason,
 * signature, payload, verified_at), read against the registered keys of Gitstead's users:
 *
 * - SSH signatures (git's gpg.format=ssh): the envelope's key must be some user's SSH signing key;
 *   the signature is checked at each read (Node's crypto, synchronous).
 * - OpenPGP signatures: the issuer key id (read without the library) must be a registered GPG key or
 *   subkey; the check itself is OpenPGP.js's, asynchronous, so its outcome is stored per object and
 *   key (`gpg_signature_checks`): made before a signed object created through the API is stored
 *   (`checkSignatures`, a route's prepare step), or, for an object read before any check (signed
 *   elsewhere, or the key registered after), started by that read, which answers
 *   `gpgverify_unavailable` (GitHub's "the verification service is unavailable") until it is done.
 *
 * Then GitHub's rules for the key and the committer's (a tag's tagger's) email, in this order:
 * unknown_key, invalid, expired_key, not_signing_key, then the email: it must be a verified email of
 * the key's owner (Gitstead's users have one, their account email, or their noreply address) and, for
 * a GPG key, one of the key's user ids — else unverified_email (the key names it, no account has it
 * verified), no_user (no account has it) or bad_email.
 */
import type { App } from '../../app';
import { isoSeconds } from '../../time';
import type { AccountRow } from '../../model/rows';
import { checkPgpSignature, signatureIssuers } from './gpg';
import { parseSshSignature, verifySshSignature } from './ssh';
import type { GpgKeyRow } from './store';

/** GitHub's verification object. */
export interface Verification {
	verified: boolean;
	reason: string;
	signature: string | null;
	payload: string | null;
	/** ISO timestamp of the verification, or null when not verified. */
	verified_at: string | null;
}

/** A signed commit or tag. */
export interface SignedObject {
	/** The object's id. */
	sha: string;
	/** The armored signature. */
	signature: string;
	/** What it signs: the object's text without the signature. */
	payload: string;
	/** The committer's (tagger's) email. */
	email: string;
	/** The committer's (tagger's) date, epoch seconds. */
	seconds: number;
}

/** The armor label of a signature given on its own ('-----BEGIN PGP SIGNATURE-----' → 'PGP SIGNATURE'), or null. */
function armorKind(signature: string): string | null {
	const match = /^\s*-----BEGIN ([A-Z0-9][A-Z0-9 ]*)-----/.exec(signature);
	return match ? match[1] : null;
}

/** Verifies signed objects for one answer. */
export type Verifier = (signed: SignedObject) => Verification;

/** GitHub's answer for an object without a signature. */
export const UNSIGNED: Verification = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };

const PGP_KINDS = new Set(['PGP SIGNATURE', 'PGP MESSAGE']);

/** The account a verified email belongs to: its account email, or its noreply address <id>+<login>@users.noreply.<host>. */
function emailOwner(app: App, email: string): AccountRow | null {
	const host = app.urls.host.replace(/:\d+$/, '').toLowerCase();
	const noreply = /^(\d+)\+([^@]+)@users\.noreply\.(.+)$/i.exec(email);
	if (noreply && noreply[3].toLowerCase() === host) {
		const account = app.stores.accounts.byId(Number(noreply[1]));
		if (account && account.login.toLowerCase() === noreply[2].toLowerCase()) return account;
	}
	return app.stores.branches.userByEmail(email) ?? null;
}

/** The email rules for a key owned by `ownerId` (its user ids' emails for a GPG key, null for SSH). */
function emailReason(app: App, ownerId: number, email: string, keyEmails: string[] | null): string {
	const owner = emailOwner(app, email);
	const claimed = keyEmails?.includes(email.toLowerCase()) ?? false;
	if (owner && owner.id === ownerId) return keyEmails === null || claimed ? 'valid' : 'bad_email';
	if (claimed && !owner) return 'unverified_email';
	if (!owner) return 'no_user';
	return 'bad_email';
}

const result = (signed: SignedObject, reason: string, verifiedAt: string | null = null): Verification => ({
	verified: reason === 'valid',
	reason,
	signature: signed.signature,
	payload: signed.payload,
	verified_at: reason === 'valid' ? verifiedAt : null,
});

/** The later of two ISO timestamps. */
const later = (a: string, b: string) => (a > b ? a : b);

/** OpenPGP checks in flight, per application: `sha:keyId`. */
const inFlight = new WeakMap<App, Set<string>>();

/**
 * Checks the signature of `signed` with each registered key it names and stores the outcomes.
 * Never throws (a key deleted meanwhile, or a closed database, stores nothing).
 */
async function checkAndStore(app: App, signed: SignedObject, keys: GpgKeyRow[]): Promise<void> {
	for (const key of keys) {
		const primary = key.primary_key_id === null ? key : app.stores.keys.gpgKey(key.primary_key_id);
		if (!primary?.raw_key) continue;
		const valid = await checkPgpSignature(signed.signature, signed.payload, primary.raw_key);
		try {
			app.transaction(() => app.stores.keys.insertCheck(signed.sha, key.id, valid, isoSeconds(app.clock())));
		} catch {
			// The key went (foreign key) or the database closed: the next read checks again.
		}
	}
}

/** Starts the OpenPGP checks of an object a read found unchecked; each key once at a time. */
function checkLater(app: App, signed: SignedObject, keys: GpgKeyRow[]): void {
	let running = inFlight.get(app);
	if (!running) inFlight.set(app, (running = new Set()));
	const todo = keys.filter((key) => !running.has(`${signed.sha}:${key.id}`));
	if (todo.length === 0) return;
	for (const key of todo) running.add(`${signed.sha}:${key.id}`);
	void checkAndStore(app, signed, todo).finally(() => {
		for (const key of todo) running.delete(`${signed.sha}:${key.id}`);
	});
}

/** The registered GPG keys (and subkeys) an OpenPGP signature names. */
function namedKeys(app: App, signature: string): { keys: GpgKeyRow[]; created: number | null } | null {
	const issuers = signatureIssuers(signature);
	if (!issuers) return null;
	return { keys: issuers.keyIds.flatMap((id) => app.stores.keys.gpgByKeyId(id)), created: issuers.created };
}

/**
 * Checks the OpenPGP signature of an object about to be stored (a route's prepare step), so its
 * first answer carries the outcome. SSH signatures need no preparation. Never throws.
 */
export async function checkSignatures(app: App, signed: SignedObject): Promise<void> {
	if (!PGP_KINDS.has(armorKind(signed.signature) ?? '')) return;
	const named = namedKeys(app, signed.signature);
	if (!named) return;
	const unchecked = named.keys.filter((key) => !app.stores.keys.check(signed.sha, key.id));
	if (unchecked.length) await checkAndStore(app, signed, unchecked);
}

/** The verification of SSH and OpenPGP signatures with the registered keys (see the module's comment). */
export function signatureVerifier(app: App): Verifier {
	return (signed) => {
		const kind = armorKind(signed.signature);
		if (kind === 'SSH SIGNATURE') {
			const envelope = parseSshSignature(signed.signature);
			if (!envelope) return result(signed, 'malformed_signature');
			const key = app.stores.keys.byFingerprint(true, envelope.fingerprint);
			if (!key || key.user_id === null) return result(signed, 'unknown_key');
			if (!verifySshSignature(envelope, signed.payload)) return result(signed, 'invalid');
			return result(
				signed,
				emailReason(app, key.user_id, signed.email, null),
				later(key.created_at, isoSeconds(signed.seconds * 1000)),
			);
		}
		if (kind === null || !PGP_KINDS.has(kind)) return result(signed, 'unknown_signature_type');
		const named = namedKeys(app, signed.signature);
		if (!named) return result(signed, 'malformed_signature');
		if (named.keys.length === 0) return result(signed, 'unknown_key');
		const checks = named.keys.map((key) => ({ key, check: app.stores.keys.check(signed.sha, key.id) }));
		const unchecked = checks.filter((c) => !c.check).map((c) => c.key);
		const good = checks.find((c) => c.check?.valid === 1);
		if (!good) {
			if (unchecked.length) {
				checkLater(app, signed, unchecked);
				return result(signed, 'gpgverify_unavailable');
			}
			return result(signed, 'invalid');
		}
		const { key } = good;
		const primary = key.primary_key_id === null ? key : app.stores.keys.gpgKey(key.primary_key_id)!;
		// Expired when the key had expired by the time the object says it was made (or signed, if later).
		const made = Math.max(named.created ?? 0, signed.seconds);
		if (key.expires_at !== null && key.expires_at < isoSeconds(made * 1000)) return result(signed, 'expired_key');
		if (!key.can_sign) return result(signed, 'not_signing_key');
		const reason = emailReason(app, key.user_id, signed.email, JSON.parse(primary.emails) as string[]);
		return result(signed, reason, good.check!.checked_at);
	};
}
