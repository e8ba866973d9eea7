/**
 * Access tokens: the five kinds, their prefixes, generation and hashing.
 *
 * Format (GitHub's, so clients and secret scanners recognize them): prefix + 30 random base62
 * characters + a 6-character base62 CRC32 of the prefix and random part. Fine-grained tokens
 * use `github_pat_` + 22 + '_' + 59 characters, the last 6 again the checksum. The checksum lets
 * the server reject a mistyped token without touching the database. Only SHA-256 hashes are stored.
 */
import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type TokenKind = 'classic' | 'fine-grained' | 'oauth' | 'user-to-server' | 'installation';
export const TOKEN_KINDS: readonly TokenKind[] = ['classic', 'fine-grained', 'oauth', 'user-to-server', 'installation'];

export const TOKEN_PREFIX: Record<TokenKind, string> = {
	classic: 'ghp_',
	'fine-grained': 'github_pat_',
	oauth: 'gho_',
	'user-to-server': 'ghu_',
	installation: 'ghs_',
};

/** Human name of each kind, as GitHub's documentation writes them. */
export const TOKEN_KIND_NAMES: Record<TokenKind, string> = {
	classic: 'personal access token (classic)',
	'fine-grained': 'fine-grained personal access token',
	oauth: 'OAuth app token',
	'user-to-server': 'app user access token',
	installation: 'app installation access token',
};

/** Installation access tokens expire after 60 minutes. */
export const INSTALLATION_TOKEN_SECONDS = 60 * 60;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomBase62(length: number): string {
	let out = '';
	for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
	return out;
}

function base62(value: number, width: number): string {
	let out = '';
	for (let n = value >>> 0; n > 0; n = Math.floor(n / 62)) out = BASE62[n % 62] + out;
	return out.padStart(width, '0');
}

/** A new random token of the kind. */
export function generateToken(kind: TokenKind): string {
	const prefix = TOKEN_PREFIX[kind];
	const body = kind === 'fine-grained' ? `${randomBase62(22)}_${randomBase62(53)}` : randomBase62(30);
	return prefix + body + base62(crc32(prefix + body), 6);
}

/** The kind a well-formed token string belongs to (prefix and checksum checked), else null. */
export function tokenKindOf(token: string): TokenKind | null {
	for (const kind of TOKEN_KINDS) {
		const prefix = TOKEN_PREFIX[kind];
		if (!token.startsWith(prefix)) continue;
		const expected = kind === 'fine-grained' ? 11 + 22 + 1 + 59 : 4 + 36;
		if (token.length !== expected) return null;
		const payload = token.slice(0, -6);
		return base62(crc32(payload), 6) === token.slice(-6) ? kind : null;
	}
	return null;
}

/** SHA-256 of the token, the only form stored. */
export function hashToken(token: string): Buffer {
	return createHash('sha256').update(token).digest();
}
