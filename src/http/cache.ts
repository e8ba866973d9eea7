/**
 * Serialized JSON of read-mostly resources (e.g. a team's list form), kept so hot list endpoints
 * join cached strings instead of building and stringifying objects on every request.
 *
 * Entries live in scopes (e.g. 'teams:ORG_ID'); a write invalidates the scope it changes, in the
 * handler that changes it. Writes by another process (`gitstead admin` while the server runs) are
 * noticed through SQLite's PRAGMA data_version, checked once per request, and clear everything.
 */
import type { DB } from '../db/open';

export class RepresentationCache {
	private readonly scopes = new Map<string, Map<string, string>>();
	private readonly generations = new Map<string, number>();
	private readonly dataVersion;
	private seenDataVersion: number;
	private epoch = 0;

	constructor(db: DB) {
		this.dataVersion = db.prepare('PRAGMA data_version').pluck();
		this.seenDataVersion = this.dataVersion.get() as number;
	}

	/** Clears everything when another connection committed since the last call. */
	sync(): void {
		const current = this.dataVersion.get() as number;
		if (current !== this.seenDataVersion) {
			this.seenDataVersion = current;
			this.clear();
		}
	}

	get(scope: string, key: string): string | undefined {
		return this.scopes.get(scope)?.get(key);
	}

	set(scope: string, key: string, json: string): void {
		let entries = this.scopes.get(scope);
		if (!entries) this.scopes.set(scope, (entries = new Map()));
		entries.set(key, json);
	}

	/** A string that changes whenever the scope is invalidated or the cache cleared (for ETag keys). */
	generation(scope: string): string {
		return `${this.epoch}:${this.generations.get(scope) ?? 0}`;
	}

	invalidate(scope: string): void {
		this.scopes.delete(scope);
		this.generations.set(scope, (this.generations.get(scope) ?? 0) + 1);
	}

	clear(): void {
		this.scopes.clear();
		this.epoch++;
	}
}
