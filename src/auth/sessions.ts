/**
 * Signing in to the web interface: users' passwords (scrypt), browser sessions and suspended users.
 *
 * - A password is stored as `scrypt$<N>$<r>$<p>$<salt>$<key>` (base64), checked in constant time.
 *   Hashing runs on libuv's thread pool (crypto.scrypt), so a sign-in never blocks other requests.
 * - A session is a random 32-byte secret in the `gitstead_session` cookie; only its SHA-256 is
 *   stored, with the session's own CSRF secret, the client's address and user agent, and epoch
 *   seconds. A session ends when it expires (SESSION_SECONDS after sign-in), when its user signs
 *   out or revokes it from the settings page, when the user's password changes, and when the user
 *   is suspended.
 * - The REST and GraphQL APIs never read the cookie: they take tokens only (no CSRF exposure).
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { App } from '../app';
import type { DB } from '../db/open';
import type { Principal } from './principal';

/** Sessions last 14 days from sign-in (epoch seconds are stored). */
export const SESSION_SECONDS = 14 * 24 * 3600;
/** last_seen_at is written at most this often per session (seconds). */
const TOUCH_SECONDS = 300;
/** Passwords shorter than this are refused (GitHub: 8 characters with a number and a lowercase letter, or 15). */
export const MIN_PASSWORD = 8;
/** Longer input is refused before hashing (bounded cost). */
export const MAX_PASSWORD = 1024;

const SCRYPT = { N: 1 << 15, r: 8, p: 1, keylen: 32 };

function scryptAsync(password: string, salt: Buffer, params: { N: number; r: number; p: number; keylen: number }): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		scrypt(
			password,
			salt,
			params.keylen,
			{ N: params.N, r: params.r, p: params.p, maxmem: 128 * params.N * params.r * 2 },
			(error, key) => (error ? reject(error) : resolve(key)),
		);
	});
}

/**
 * Hashes a password with scrypt and a random salt.
 * @returns `scrypt$N$r$p$salt$key` (base64 parts)
 */
export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16);
	const key = await scryptAsync(password, salt, SCRYPT);
	return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Whether `password` matches a stored hash (constant-time comparison; false for a malformed hash). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const parts = stored.split('$');
	if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
	const [N, r, p] = parts.slice(1, 4).map(Number);
	const salt = Buffer.from(parts[4], 'base64');
	const expected = Buffer.from(parts[5], 'base64');
	if (!(N > 1 && N <= 1 << 20 && r > 0 && r <= 32 && p > 0 && p <= 16) || expected.length === 0) return false;
	const key = await scryptAsync(password, salt, { N, r, p, keylen: expected.length });
	return timingSafeEqual(key, expected);
}

/**
 * Why a password is refused, or null when it is acceptable: at least MIN_PASSWORD characters, at
 * most MAX_PASSWORD, not only whitespace.
 */
export function passwordProblem(password: string): string | null {
	if (password.length < MIN_PASSWORD) return `the password must have at least ${MIN_PASSWORD} characters`;
	if (password.length > MAX_PASSWORD) return `the password must have at most ${MAX_PASSWORD} characters`;
	if (password.trim() === '') return 'the password must not be only spaces';
	return null;
}

export interface SessionRow {
	id: number;
	user_id: number;
	csrf_secret: string;
	/** Epoch seconds. */
	created_at: number;
	last_seen_at: number;
	expires_at: number;
	ip: string | null;
	user_agent: string | null;
}

/** A session found by its cookie, with its user. */
export interface ActiveSession extends SessionRow {
	login: string;
	site_admin: number;
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** Prepared statements for passwords, sessions and suspensions. */
export function createSessionStore(db: DB) {
	const password = db.prepare('SELECT hash FROM user_passwords WHERE user_id = ?').pluck();
	const setPassword = db.prepare(
		'INSERT INTO user_passwords (user_id, hash, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at',
	);
	const insert = db.prepare(`
		INSERT INTO web_sessions (user_id, token_hash, csrf_secret, created_at, last_seen_at, expires_at, ip, user_agent)
		VALUES (@userId, @hash, @csrf, @now, @now, @expiresAt, @ip, @userAgent)`);
	const byHash = db.prepare(`
		SELECT s.*, a.login, a.site_admin FROM web_sessions s JOIN accounts a ON a.id = s.user_id
		WHERE s.token_hash = ? AND s.expires_at > ? AND NOT EXISTS (SELECT 1 FROM user_suspensions u WHERE u.user_id = s.user_id)`);
	const forUser = db.prepare('SELECT * FROM web_sessions WHERE user_id = ? AND expires_at > ? ORDER BY last_seen_at DESC, id DESC');
	const remove = db.prepare('DELETE FROM web_sessions WHERE id = ? AND user_id = ?');
	const removeByHash = db.prepare('DELETE FROM web_sessions WHERE token_hash = ?');
	const removeAll = db.prepare('DELETE FROM web_sessions WHERE user_id = ?');
	const removeExpired = db.prepare('DELETE FROM web_sessions WHERE expires_at <= ?');
	const touch = db.prepare('UPDATE web_sessions SET last_seen_at = ? WHERE id = ?');
	const suspended = db.prepare('SELECT suspended_at FROM user_suspensions WHERE user_id = ?').pluck();
	const suspend = db.prepare('INSERT OR IGNORE INTO user_suspensions (user_id, suspended_at, reason) VALUES (?, ?, ?)');
	const unsuspend = db.prepare('DELETE FROM user_suspensions WHERE user_id = ?');
	const suspension = db.prepare('SELECT suspended_at, reason FROM user_suspensions WHERE user_id = ?');
	const suspendedAmong = db.prepare('SELECT user_id FROM user_suspensions WHERE user_id IN (SELECT value FROM json_each(?))').pluck();
	const passwordsAmong = db.prepare('SELECT user_id FROM user_passwords WHERE user_id IN (SELECT value FROM json_each(?))').pluck();
	const sessionCount = db.prepare('SELECT count(*) FROM web_sessions WHERE user_id = ? AND expires_at > ?').pluck();
	return {
		/** The stored password hash of a user, or undefined when none was set. */
		passwordHash: (userId: number) => password.get(userId) as string | undefined,
		/** Stores a password hash and ends the user's sessions. @param now epoch seconds */
		setPassword(userId: number, hash: string, now: number): void {
			setPassword.run(userId, hash, now);
			removeAll.run(userId);
		},
		/**
		 * Opens a session. @param now epoch seconds
		 * @returns the cookie's secret (shown once, never stored) and the session row
		 */
		create(input: { userId: number; now: number; ip: string | null; userAgent: string | null }): { secret: string; id: number } {
			const secret = randomBytes(32).toString('base64url');
			const result = insert.run({
				userId: input.userId,
				hash: sessionHash(secret),
				csrf: randomBytes(32).toString('base64url'),
				now: input.now,
				expiresAt: input.now + SESSION_SECONDS,
				ip: input.ip?.slice(0, 64) ?? null,
				userAgent: input.userAgent?.slice(0, 512) ?? null,
			});
			return { secret, id: Number(result.lastInsertRowid) };
		},
		/** The live session of a cookie secret (not expired, its user not suspended). @param now epoch seconds */
		find: (secret: string, now: number) => byHash.get(sessionHash(secret), now) as ActiveSession | undefined,
		/** The user's live sessions, most recently used first. @param now epoch seconds */
		list: (userId: number, now: number) => forUser.all(userId, now) as SessionRow[],
		/** Ends one of the user's sessions. @returns false when it was not the user's or is gone */
		revoke: (userId: number, id: number) => remove.run(id, userId).changes > 0,
		/** Ends the session of a cookie secret (sign-out). */
		end: (secret: string) => void removeByHash.run(sessionHash(secret)),
		/** Ends every session of the user. @returns sessions ended */
		revokeAll: (userId: number) => removeAll.run(userId).changes,
		/** Deletes expired sessions. @param now epoch seconds @returns rows deleted */
		prune: (now: number) => removeExpired.run(now).changes,
		/** Records use, at most every few minutes per session. @param now epoch seconds */
		touch(session: SessionRow, now: number): boolean {
			if (now - session.last_seen_at < TOUCH_SECONDS) return false;
			touch.run(now, session.id);
			return true;
		},
		/** When the user was suspended (ISO timestamp), or undefined. */
		suspendedAt: (userId: number) => suspended.get(userId) as string | undefined,
		/** Suspends a user (sessions end; tokens stop working). @param now ISO timestamp */
		suspend(userId: number, now: string, reason: string | null): void {
			suspend.run(userId, now, reason);
			removeAll.run(userId);
		},
		unsuspend: (userId: number) => unsuspend.run(userId).changes > 0,
		/** The user's suspension (ISO time and reason), or undefined. */
		suspension: (userId: number) => suspension.get(userId) as { suspended_at: string; reason: string | null } | undefined,
		/** Which of these users are suspended, in one query. */
		suspendedAmong: (userIds: number[]) => new Set(suspendedAmong.all(JSON.stringify(userIds)) as number[]),
		/** Which of these users have a password (can sign in to the web interface), in one query. */
		withPasswordAmong: (userIds: number[]) => new Set(passwordsAmong.all(JSON.stringify(userIds)) as number[]),
		/** How many live sessions the user has. @param now epoch seconds */
		sessionCount: (userId: number, now: number) => sessionCount.get(userId, now) as number,
	};
}

/** SHA-256 of a session secret, the only form stored. */
function sessionHash(secret: string): Buffer {
	return createHash('sha256').update(secret).digest();
}

const stores = new WeakMap<App, SessionStore>();

/** The application's session store (statements prepared on first use). */
export function sessionStore(app: App): SessionStore {
	let store = stores.get(app);
	if (!store) stores.set(app, (store = createSessionStore(app.db)));
	return store;
}

/**
 * The principal a browser session acts as: its user with the user's own rights everywhere (as on
 * GitHub's web interface), bound to no account, through no token.
 */
export function sessionPrincipal(session: ActiveSession): Principal {
	return {
		kind: 'session',
		tokenId: null,
		user: { id: session.user_id, login: session.login, siteAdmin: session.site_admin === 1 },
		actorId: session.user_id,
		installationId: null,
		appId: null,
		repositoryIds: null,
		scopeList: [],
		scopes: new Set(),
		permissions: {},
		resourceOwnerId: null,
		rateKey: `user:${session.user_id}`,
	};
}

/** Sets a user's password (hashed) and ends the user's sessions. @throws Error with the reason a password is refused */
export async function setUserPassword(app: App, userId: number, password: string): Promise<void> {
	const problem = passwordProblem(password);
	if (problem) throw new Error(problem);
	const hash = await hashPassword(password);
	app.transaction(() => sessionStore(app).setPassword(userId, hash, Math.floor(app.clock() / 1000)));
}
