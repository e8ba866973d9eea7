/**
 * Primary rate limits (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api): per principal and
 * resource, a budget of requests per window (an hour by default) that starts with the first
 * request and resets at `reset` (epoch seconds).
 *
 * Counting happens in memory on the request path (no write per request); dirty windows are written
 * to the rate_limit_windows table every second by the `rate-limit-flush` job and on shutdown, and
 * loaded back at start, so a restart keeps the counts. A hard kill loses at most the last second of
 * counting, never data. The `rate-limit-reset` job drops expired windows.
 */
import type { Config, RateResource } from '../config';
import { RATE_RESOURCES } from '../config';
import type { DB } from '../db/open';

/** Resources GitHub counts per minute. */
const PER_MINUTE: ReadonlySet<RateResource> = new Set(['search', 'code_search']);

export interface RateWindow {
	principal: string;
	resource: RateResource;
	limit: number;
	used: number;
	/** Epoch seconds. */
	reset: number;
	dirty: boolean;
}

export class RateLimiter {
	private readonly windows = new Map<string, RateWindow>();
	private readonly upsert;
	private readonly remove;
	readonly enabled: boolean;

	constructor(
		private readonly db: DB,
		private readonly config: Config['rate_limit'],
	) {
		this.enabled = config.enabled;
		this.upsert = db.prepare(`
			INSERT INTO rate_limit_windows (principal, resource, used, reset_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (principal, resource) DO UPDATE SET used = excluded.used, reset_at = excluded.reset_at`);
		this.remove = db.prepare('DELETE FROM rate_limit_windows WHERE reset_at <= ?');
	}

	/** Loads the stored windows that have not expired. @param now epoch seconds */
	load(now: number): void {
		const rows = this.db
			.prepare('SELECT principal, resource, used, reset_at FROM rate_limit_windows WHERE reset_at > ?')
			.all(now) as Array<{ principal: string; resource: RateResource; used: number; reset_at: number }>;
		for (const row of rows) {
			if (!RATE_RESOURCES.includes(row.resource)) continue;
			this.windows.set(`${row.resource} ${row.principal}`, {
				principal: row.principal,
				resource: row.resource,
				limit: this.limitFor(row.resource, row.principal),
				used: row.used,
				reset: row.reset_at,
				dirty: false,
			});
		}
	}

	/**
	 * Requests per window for a resource; unauthenticated (ip:) principals get core_unauthenticated
	 * for core and search_unauthenticated for search (GitHub: 60 an hour, 10 a minute).
	 */
	limitFor(resource: RateResource, principal: string): number {
		if (principal.startsWith('ip:')) {
			if (resource === 'core') return this.config.limits.core_unauthenticated;
			if (resource === 'search') return this.config.limits.search_unauthenticated;
		}
		return this.config.limits[resource];
	}

	/** Seconds a window lasts: a minute for search and code_search (GitHub's), window_seconds otherwise. */
	windowSeconds(resource: RateResource): number {
		return PER_MINUTE.has(resource) ? 60 : this.config.window_seconds;
	}

	/** The current window (a fresh one when none is open). @param now epoch seconds */
	window(principal: string, resource: RateResource, now: number): RateWindow {
		const key = `${resource} ${principal}`;
		let window = this.windows.get(key);
		if (!window || window.reset <= now) {
			window = {
				principal,
				resource,
				limit: this.limitFor(resource, principal),
				used: 0,
				reset: now + this.windowSeconds(resource),
				dirty: true,
			};
			this.windows.set(key, window);
		}
		return window;
	}

	/** The window as it stands, without opening one (GET /rate_limit). @param now epoch seconds */
	peek(principal: string, resource: RateResource, now: number): Pick<RateWindow, 'limit' | 'used' | 'reset'> {
		const window = this.windows.get(`${resource} ${principal}`);
		if (window && window.reset > now) return window;
		return { limit: this.limitFor(resource, principal), used: 0, reset: now + this.windowSeconds(resource) };
	}

	/** Counts a request against the window: `points` (default 1; a GraphQL query costs more). */
	consume(window: RateWindow, points = 1): void {
		window.used += points;
		window.dirty = true;
	}

	/** Writes dirty windows in one transaction. @returns number of windows written */
	flush(): number {
		let written = 0;
		const dirty = [...this.windows.values()].filter((w) => w.dirty);
		if (dirty.length === 0) return 0;
		this.db
			.transaction(() => {
				for (const window of dirty) {
					this.upsert.run(window.principal, window.resource, window.used, window.reset);
					window.dirty = false;
					written++;
				}
			})
			.immediate();
		return written;
	}

	/** Drops expired windows from memory and storage. @param now epoch seconds */
	resetExpired(now: number): number {
		let dropped = 0;
		for (const [key, window] of this.windows) {
			if (window.reset <= now) {
				this.windows.delete(key);
				dropped++;
			}
		}
		this.remove.run(now);
		return dropped;
	}
}
