/**
 * Notices commits made by other connections (a `gitstead admin` command while the server runs)
 * through SQLite's PRAGMA data_version (about 3 µs), so in-memory caches can drop what may be stale.
 * Commits on this process's own connection do not change data_version; the code making them
 * invalidates what it changes.
 */
import type { DB } from './open';

export class ExternalChanges {
	private readonly dataVersion;
	private seen: number;
	private readonly listeners: Array<() => void> = [];
	/** performance.now() of the last check. */
	private checkedAt = -Infinity;

	constructor(db: DB) {
		this.dataVersion = db.prepare('PRAGMA data_version').pluck();
		this.seen = this.dataVersion.get() as number;
	}

	/** Registers a cache-clearing callback. */
	onChange(listener: () => void): void {
		this.listeners.push(listener);
	}

	/** Calls every listener when another connection committed since the last check. @returns true if so */
	check(): boolean {
		this.checkedAt = performance.now();
		const current = this.dataVersion.get() as number;
		if (current === this.seen) return false;
		this.seen = current;
		for (const listener of this.listeners) listener();
		return true;
	}

	/**
	 * check(), at most once per `intervalMs` milliseconds: for reads, which may see another
	 * process's commit that much later (writes call check(): they decide from what they read).
	 */
	checkAtMostEvery(intervalMs: number): boolean {
		return performance.now() - this.checkedAt < intervalMs ? false : this.check();
	}
}
