/**
 * Representations of read-mostly resources kept in memory: serialized JSON fragments (a team's
 * list form) and small derived lists (an organization's team order), so hot list endpoints join
 * cached strings instead of building and stringifying objects on every request.
 *
 * Entries live in scopes (e.g. 'teams:ORG_ID'); a write invalidates the scope it changes, in the
 * code that changes it. Writes by another process clear everything (see ExternalChanges).
 */
import { randomBytes } from 'node:crypto';
import type { Reply } from './reply';

/** Size (UTF-16 code units of the JSON, or a Buffer's bytes) of rendered answers kept at most, and of one answer. */
const ANSWERS_BUDGET = 8 << 20;
const ANSWER_MAX = 256 << 10;

export class RepresentationCache {
	private readonly scopes = new Map<string, Map<string, unknown>>();
	private readonly generations = new Map<string, number>();
	private epoch = 0;
	/** Rendered answers by validator key, least recently used first (answer/keepAnswer). */
	private readonly answers = new Map<string, Reply>();
	private answerBytes = 0;
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
		this.answers.clear();
		this.answerBytes = 0;
		this.epoch++;
	}

	/**
	 * The answer kept for `key` by keepAnswer, if any (it becomes the most recently used). Keys
	 * are validators (a route's ETag from its version): an answer is kept under the validator that
	 * names it exactly, so a write makes it unreachable instead of stale.
	 */
	answer(key: string): Reply | undefined {
		const kept = this.answers.get(key);
		if (kept !== undefined) {
			this.answers.delete(key);
			this.answers.set(key, kept);
		}
		return kept;
	}

	/**
	 * Keeps a rendered answer (its `json` a string, or a Buffer) under `key`; the least recently
	 * used go first past 8 MiB in all, and an answer above 256 KiB is not kept. Kept answers are
	 * shared: never mutated.
	 */
	keepAnswer(key: string, reply: Reply & { json: string | Buffer }): void {
		const size = reply.json.length + key.length;
		if (size > ANSWER_MAX) return;
		const previous = this.answers.get(key);
		if (previous !== undefined) {
			this.answers.delete(key);
			this.answerBytes -= (previous.json as string | Buffer).length + key.length;
		}
		this.answers.set(key, reply);
		this.answerBytes += size;
		for (const [oldest, old] of this.answers) {
			if (this.answerBytes <= ANSWERS_BUDGET) break;
			this.answers.delete(oldest);
			this.answerBytes -= (old.json as string | Buffer).length + oldest.length;
		}
	}
}
