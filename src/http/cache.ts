/**
 * Representations of read-mostly resources kept in memory: serialized JSON fragments (a team's
 * list form) and small derived lists (an organization's team order), so hot list endpoints join
 * cached strings instead of building and stringifying objects on every request.
 *
 * Entries live in scopes (e.g. 'teams:ORG_ID'); a write invalidates the scope it changes, in the
 * code that changes it. Writes by another process clear everything (see ExternalChanges).
 */
import { randomBytes } from 'node:crypto';

export class RepresentationCache {
	private readonly scopes = new Map<string, Map<string, unknown>>();
	private readonly generations = new Map<string, number>();
	private epoch = 0;
	/**
	 * Random per process: generations restart at 0 with every process, so without it an ETag issued
	 * before a restart could match different content after it (a stale 304).
	 */
	private readonly instance = randomBytes(4).toString('hex');
	/**
	 * The external origin of the request being answered when it differs from the configured one
	 * (a trusted proxy's X-Forwarded-Host, src/http/proxy.ts), '' otherwise: representations carry
	 * absolute URLs, so each origin keeps its own entries. Set by the pipeline for one request.
	 */
	partition = '';

	get<T>(scope: string, key: string): T | undefined {
		return this.scopes.get(scope)?.get(this.partition === '' ? key : `${this.partition}\n${key}`) as T | undefined;
	}

	set(scope: string, key: string, value: unknown): void {
		let entries = this.scopes.get(scope);
		if (!entries) this.scopes.set(scope, (entries = new Map()));
		entries.set(this.partition === '' ? key : `${this.partition}\n${key}`, value);
	}

	/**
	 * A string that changes whenever the scope is invalidated, the cache cleared or the process
	 * restarted (for ETag keys): `INSTANCE:EPOCH:GENERATION`, INSTANCE 8 random hex characters.
	 */
	generation(scope: string): string {
		return `${this.instance}:${this.epoch}:${this.generations.get(scope) ?? 0}`;
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
