/**
 * Instance-wide facts kept in the settings table (e.g. the secret that signs archive URLs).
 */
import { randomBytes } from 'node:crypto';
import type { DB } from './open';

export type Settings = ReturnType<typeof createSettings>;

export function createSettings(db: DB) {
	const get = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
	const insert = db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)');
	return {
		get: (key: string) => get.get(key) as string | undefined,
		/** The value of `key`, created with `make()` the first time (race-free across processes). */
		ensure(key: string, make: () => string): string {
			const existing = get.get(key) as string | undefined;
			if (existing !== undefined) return existing;
			insert.run(key, make());
			return get.get(key) as string;
		},
	};
}

/** A random secret of 32 bytes, hex (for Settings.ensure). */
export const randomSecret = () => randomBytes(32).toString('hex');
