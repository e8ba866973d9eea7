/**
 * Files of the blob folder that rows name by their bytes' digest (release assets, job logs): a
 * file is written before the transaction that names it commits, so a crash between the two, or
 * rows deleted with their repository, leave files no row names; a periodic sweep deletes those.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Files younger than this are never swept: a write may still be waiting for its row's commit. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/**
 * Deletes the files of `dir` that `named` does not list, if older than an hour (SWEEP_GRACE_MS).
 * A file that vanishes meanwhile is skipped.
 * @param dir the folder, or null when blob storage is off (nothing to do)
 * @param named the file names rows still hold (asked only when the folder exists)
 * @param nowMs epoch milliseconds
 * @returns how many files were deleted
 */
export function sweepUnnamedFiles(dir: string | null, named: () => Iterable<string>, nowMs: number): number {
	if (dir === null || !existsSync(dir)) return 0;
	const keep = new Set(named());
	let removed = 0;
	for (const file of readdirSync(dir)) {
		if (keep.has(file)) continue;
		const path = join(dir, file);
		try {
			if (nowMs - statSync(path).mtimeMs < SWEEP_GRACE_MS) continue;
			rmSync(path, { force: true });
			removed++;
		} catch {
			// Gone meanwhile.
		}
	}
	return removed;
}
