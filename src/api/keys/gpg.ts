/**
 * OpenPGP keys and signatures through OpenPGP.js (npm openpgp), loaded on first use: what an armored
 * public key says of itself and its subkeys (key ids, fingerprints, capabilities from the self
 * signatures' key flags, expiry, revocation, the user ids' emails), and whether a detached
 * signature (what git writes in a commit's gpgsig header or at the end of a tag) verifies over the
 * signed bytes with a registered key. Those calls are asynchronous; `signatureIssuers` reads, without
 * the library and synchronously, only the issuer key ids and creation time of a signature packet
 * (RFC 4880 §5.2 / RFC 9580), so a read can tell an unknown key without verifying anything.
 */
import { isoSeconds } from '../../time';
import type { GpgKeyValues } from './store';

/** OpenPGP.js's module (an ECMAScript module's types, required as CommonJS). */
type OpenPGP = typeof import('openpgp', { with: { 'resolution-mode': 'import' }});
type Key = import('openpgp', { with: { 'resolution-mode': 'import' }}).Key;

let library: OpenPGP | null = null;

/** OpenPGP.js, required on first use (not when the program starts). */
function openpgp(): OpenPGP {
	library ??= require('openpgp') as OpenPGP;
	return library;
}

/** Key flags (RFC 4880 §5.2.3.21). */
const CERTIFY = 0x01;
const SIGN = 0x02;
const ENCRYPT_COMMS = 0x04;
const ENCRYPT_STORAGE = 0x08;

/** The key's packet with its new-format header (tag 6: public key, 14: public subkey), base64: GitHub's public_key. */
function packetBase64(tag: number, body: Uint8Array): string {
	const length = body.length;
	const header =
		length < 192
			? [0xc0 | tag, length]
			: length < 8384
				? [0xc0 | tag, ((length - 192) >> 8) + 192, (length - 192) & 0xff]
				: [0xc0 | tag, 0xff, (length >>> 24) & 0xff, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff];
	return Buffer.concat([Buffer.from(header), Buffer.from(body)]).toString('base64');
}

/** An expiration time as OpenPGP.js gives it (a Date, Infinity or null) → ISO timestamp or null. */
function expiry(value: Date | number | null): string | null {
	return value instanceof Date && Number.isFinite(value.getTime()) ? isoSeconds(value.getTime()) : null;
}

/** A key's capabilities from its flags; a key without flags may do what its algorithm allows. */
function capabilities(flags: number | undefined, algorithm: string, primary: boolean) {
	const canSignAlgorithm = !/^(ecdh|x25519|x448|elgamal)/i.test(algorithm);
	const canEncryptAlgorithm = !/^(dsa|eddsa|ed25519|ed448|ecdsa)/i.test(algorithm);
	const known = flags !== undefined;
	return {
		can_sign: Number(known ? (flags & SIGN) !== 0 : canSignAlgorithm),
		can_certify: Number(known ? (flags & CERTIFY) !== 0 : primary && canSignAlgorithm),
		can_encrypt_comms: Number(known ? (flags & ENCRYPT_COMMS) !== 0 : canEncryptAlgorithm),
		can_encrypt_storage: Number(known ? (flags & ENCRYPT_STORAGE) !== 0 : canEncryptAlgorithm),
	};
}

/** What an armored public key says. */
export interface ParsedGpgKey {
	primary: GpgKeyValues;
	subkeys: GpgKeyValues[];
}

/** Why a key was refused. */
export class GpgKeyError extends Error {}

/**
 * Reads an armored OpenPGP public key.
 * @throws GpgKeyError for text that is no public key (a private key is refused too)
 */
export async function parseGpgKey(armored: string): Promise<ParsedGpgKey> {
	const pgp = openpgp();
	let key: Key;
	try {
		key = await pgp.readKey({ armoredKey: armored });
	} catch {
		throw new GpgKeyError('not an ASCII-armored OpenPGP public key');
	}
	if (key.isPrivate()) throw new GpgKeyError('a private key; give the public key (gpg --armor --export KEY_ID)');
	const emails = [...new Set(key.users.flatMap((user) => (user.userID?.email ? [user.userID.email.toLowerCase()] : [])))];
	let primaryFlags: number | undefined;
	try {
		primaryFlags = (await key.getPrimaryUser()).selfCertification.keyFlags?.[0];
	} catch {
		primaryFlags = undefined;
	}
	const revoked = await key.isRevoked().catch(() => false);
	const keyExpiry = await key.getExpirationTime().catch(() => null);
	const primary: GpgKeyValues = {
		name: null,
		key_id: key.getKeyID().toHex().toUpperCase(),
		fingerprint: key.getFingerprint().toUpperCase(),
		public_key: packetBase64(6, key.keyPacket.write()),
		raw_key: armored,
		emails: JSON.stringify(emails),
		...capabilities(primaryFlags, key.getAlgorithmInfo().algorithm, true),
		revoked: Number(revoked),
		expires_at: expiry(keyExpiry),
	};
	const subkeys: GpgKeyValues[] = [];
	for (const subkey of key.getSubkeys()) {
		const binding = subkey.bindingSignatures[subkey.bindingSignatures.length - 1];
		subkeys.push({
			name: null,
			key_id: subkey.getKeyID().toHex().toUpperCase(),
			fingerprint: subkey.getFingerprint().toUpperCase(),
			public_key: packetBase64(14, subkey.keyPacket.write()),
			raw_key: null,
			emails: '[]',
			...capabilities(binding?.keyFlags?.[0], subkey.getAlgorithmInfo().algorithm, false),
			revoked: Number(subkey.revocationSignatures.length > 0),
			expires_at: expiry(await subkey.getExpirationTime().catch(() => null)),
		});
	}
	return { primary, subkeys };
}

/**
 * Whether a detached OpenPGP signature verifies over `payload` (the signed bytes) with the key
 * (its primary key or the subkey the signature names), at the time the signature says it was made.
 * Never throws: anything that cannot be read or does not verify is false.
 */
export async function checkPgpSignature(armoredSignature: string, payload: Buffer | string, armoredKey: string): Promise<boolean> {
	const pgp = openpgp();
	try {
		const [signature, key, message] = await Promise.all([
			pgp.readSignature({ armoredSignature }),
			pgp.readKey({ armoredKey }),
			pgp.createMessage({ binary: typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload }),
		]);
		const made = (signature.packets[0] as { created?: Date | null } | undefined)?.created ?? undefined;
		const result = await pgp.verify({ message, signature, verificationKeys: key, date: made ?? undefined });
		if (result.signatures.length === 0) return false;
		await result.signatures[0].verified;
		return true;
	} catch {
		return false;
	}
}

/** A signature packet's issuers: key ids (16 upper-case hex digits) and when it was made (epoch seconds, or null). */
export interface SignatureIssuers {
	keyIds: string[];
	created: number | null;
}

/** The bytes of an ASCII-armored block (headers and the CRC line left out), or null. */
function dearmor(armored: string): Buffer | null {
	const match = /-----BEGIN PGP (?:SIGNATURE|MESSAGE)-----\r?\n([\s\S]*?)-----END PGP (?:SIGNATURE|MESSAGE)-----/.exec(armored);
	if (!match) return null;
	const lines = match[1].split(/\r?\n/);
	// Armor headers end at the first empty line (when there are any).
	const blank = lines.findIndex((line) => line.trim() === '');
	const hasHeaders = blank > 0 && lines.slice(0, blank).every((line) => /^[A-Za-z-]+: /.test(line));
	const body = (hasHeaders ? lines.slice(blank + 1) : lines).filter((line) => line.trim() !== '' && !line.startsWith('='));
	const text = body.join('');
	if (!/^[A-Za-z0-9+/]+=*$/.test(text)) return null;
	return Buffer.from(text, 'base64');
}

/**
 * Reads the issuer key ids (subpackets 16 and 33) and creation time (subpacket 2) of the first
 * signature packet of an armored signature, without verifying anything.
 * @returns null for anything that is not a readable signature packet (GitHub's malformed_signature)
 */
export function signatureIssuers(armored: string): SignatureIssuers | null {
	const data = dearmor(armored);
	if (!data || data.length < 2 || !(data[0] & 0x80)) return null;
	let tag: number;
	let at = 1;
	let length: number;
	if (data[0] & 0x40) {
		tag = data[0] & 0x3f;
		const first = data[at++];
		if (first < 192) length = first;
		else if (first < 224) length = ((first - 192) << 8) + data[at++] + 192;
		else if (first === 255) {
			length = data.readUInt32BE(at);
			at += 4;
		} else return null; // partial lengths: not in signatures git writes
	} else {
		tag = (data[0] >> 2) & 0x0f;
		const type = data[0] & 0x03;
		if (type === 0) length = data[at++];
		else if (type === 1) {
			length = data.readUInt16BE(at);
			at += 2;
		} else if (type === 2) {
			length = data.readUInt32BE(at);
			at += 4;
		} else length = data.length - at;
	}
	if (tag !== 2 || at + length > data.length) return null;
	const body = data.subarray(at, at + length);
	try {
		const version = body[0];
		if (version === 3) return { keyIds: [body.subarray(7, 15).toString('hex').toUpperCase()], created: body.readUInt32BE(3) };
		if (version !== 4 && version !== 5 && version !== 6) return null;
		const wide = version === 6; // subpacket areas with 4-byte lengths
		let offset = 4;
		const areas: Buffer[] = [];
		for (let i = 0; i < 2; i++) {
			const size = wide ? body.readUInt32BE(offset) : body.readUInt16BE(offset);
			offset += wide ? 4 : 2;
			if (offset + size > body.length) return null;
			areas.push(body.subarray(offset, offset + size));
			offset += size;
		}
		const keyIds = new Set<string>();
		let created: number | null = null;
		for (const area of areas) {
			for (let p = 0; p < area.length; ) {
				let size = area[p++];
				if (size >= 192 && size < 255) size = ((size - 192) << 8) + area[p++] + 192;
				else if (size === 255) {
					size = area.readUInt32BE(p);
					p += 4;
				}
				if (size < 1 || p + size > area.length) return null;
				const type = area[p] & 0x7f;
				const value = area.subarray(p + 1, p + size);
				if (type === 2 && value.length === 4) created = value.readUInt32BE(0);
				if (type === 16 && value.length === 8) keyIds.add(value.toString('hex').toUpperCase());
				if (type === 33 && value.length >= 21) {
					// Version 4 fingerprints end with the key id; version 5 and 6 ones begin with it.
					const fingerprint = value.subarray(1);
					keyIds.add(
						(value[0] === 4 ? fingerprint.subarray(fingerprint.length - 8) : fingerprint.subarray(0, 8))
							.toString('hex')
							.toUpperCase(),
					);
				}
				p += size;
			}
		}
		return { keyIds: [...keyIds], created };
	} catch {
		return null;
	}
}
