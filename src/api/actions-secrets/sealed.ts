/**
 * The cryptography of Actions secrets: each scope's X25519 key pair (made with Node's crypto; the
 * raw 32-byte keys are libsodium's crypto_box keys) and the check that a value a client sent is a
 * sealed box (libsodium's crypto_box_seal: an ephemeral public key, then the box) that opens with
 * the scope's private key, through libsodium itself (libsodium-wrappers). The opened value is
 * never kept nor returned.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type * as Sodium from 'libsodium-wrappers';

let loading: Promise<typeof Sodium> | null = null;

/**
 * libsodium, loaded on first use (its WebAssembly module is compiled then, not when the program
 * starts): resolves once it is ready.
 */
function sodium(): Promise<typeof Sodium> {
	loading ??= (async () => {
		const library = require('libsodium-wrappers') as typeof Sodium;
		await library.ready;
		return library;
	})();
	return loading;
}

/**
 * A new X25519 key pair for a scope and its key_id (GitHub's is a string of digits).
 * @returns base64 keys of 32 bytes each
 */
export function newKeyPair(): { keyId: string; publicKey: string; privateKey: string } {
	const { publicKey, privateKey } = generateKeyPairSync('x25519');
	const raw = (jwk: { x?: string; d?: string }, field: 'x' | 'd') => Buffer.from(jwk[field]!, 'base64url').toString('base64');
	return {
		keyId: randomBytes(8).readBigUInt64BE().toString().padStart(20, '0'),
		publicKey: raw(publicKey.export({ format: 'jwk' }), 'x'),
		privateKey: raw(privateKey.export({ format: 'jwk' }), 'd'),
	};
}

/** GitHub's pattern for encrypted_value: standard base64 with padding. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

/**
 * Whether `sealed` (base64) is a sealed box that opens with the key pair (base64 keys).
 * Asynchronous only for libsodium's first load.
 */
export async function opensSealedBox(sealed: string, publicKey: string, privateKey: string): Promise<boolean> {
	const library = await sodium();
	const box = Buffer.from(sealed, 'base64');
	if (box.length < library.crypto_box_SEALBYTES) return false;
	try {
		library.crypto_box_seal_open(box, Buffer.from(publicKey, 'base64'), Buffer.from(privateKey, 'base64'));
		return true;
	} catch {
		return false;
	}
}
