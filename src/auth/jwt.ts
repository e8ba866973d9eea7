/**
 * GitHub App JSON Web Tokens (https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/
 * generating-a-json-web-token-jwt-for-a-github-app): RS256, signed with the app's private key, `iss` the
 * app id or client id, `iat` at most 60 s in the future, `exp` after now and at most 10 minutes
 * after `iat`. Verified with node:crypto against the public key kept for the app.
 */
import { createPublicKey, verify } from 'node:crypto';
import type { AppRow } from '../model/rows';
import { unauthenticated } from '../model/errors';

/** What verifying an app's JWT reads: its app by id or by client id (the apps store has both). */
export interface AppKeys {
	byId(id: number): AppRow | undefined;
	byClientId(clientId: string): AppRow | undefined;
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** True for something shaped like a JWT (three base64url parts). */
export function looksLikeJwt(token: string): boolean {
	return JWT.test(token);
}

function part(text: string): Record<string, unknown> {
	try {
		const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
		if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
	} catch {
		// fall through
	}
	throw unauthenticated('A JSON web token could not be decoded');
}

/**
 * The app a JWT authenticates, with the token's expiry.
 * @param now epoch seconds
 * @throws DomainError Unauthenticated (401) with GitHub's messages for undecodable, unknown, badly signed or expired tokens.
 */
export function verifyAppJwt(token: string, apps: AppKeys, now: number): { app: AppRow; expiresAt: number } {
	const [headerText, payloadText, signatureText] = token.split('.');
	const header = part(headerText);
	const payload = part(payloadText);
	if (header.alg !== 'RS256') throw unauthenticated('A JSON web token could not be decoded');
	const iss = payload.iss;
	const app =
		typeof iss === 'number' || (typeof iss === 'string' && /^\d+$/.test(iss))
			? apps.byId(Number(iss))
			: typeof iss === 'string'
				? apps.byClientId(iss)
				: undefined;
	if (!app) throw unauthenticated("Integration not found: 'iss' names no app");
	const signed = verify(
		'RSA-SHA256',
		Buffer.from(`${headerText}.${payloadText}`),
		createPublicKey(app.public_key),
		Buffer.from(signatureText, 'base64url'),
	);
	if (!signed) throw unauthenticated('A JSON web token could not be decoded');
	const { iat, exp } = payload;
	if (typeof iat !== 'number' || !Number.isInteger(iat)) {
		throw unauthenticated("'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued");
	}
	if (typeof exp !== 'number' || !Number.isInteger(exp)) {
		throw unauthenticated(
			"'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
		);
	}
	if (iat > now + 60)
		throw unauthenticated("'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued");
	if (exp - iat > 600) throw unauthenticated("'Expiration time' claim ('exp') is too far in the future");
	if (exp <= now)
		throw unauthenticated(
			"'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
		);
	return { app, expiresAt: exp };
}
