/**
 * Renovate (npm renovate 39.x, the last line that runs on Node 20) for test/renovate.test.ts: not a
 * dependency of the project (about 330 MB installed), installed once into
 * node_modules/.cache/gitstead-renovate/<version> and reused while present. CI installs it before
 * the slow set (`node -r tsx/cjs test/helpers/renovate.ts`, see .ci/run) so the download is not
 * counted against the test file's timeout.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The Renovate release the tests run: the newest 39.x. */
export const RENOVATE_VERSION = '39.264.1';
const CACHE = resolve(__dirname, '..', '..', 'node_modules', '.cache', 'gitstead-renovate', RENOVATE_VERSION);
const ENTRY = join(CACHE, 'node_modules', 'renovate', 'dist', 'renovate.js');

/**
 * Renovate's entry script, installed into the cache folder when missing (`npm install --prefix`,
 * install scripts off: its native add-ons re2 and better-sqlite3 are optional, Renovate falls back
 * to RegExp and uses no SQLite cache here). `skip` says why when the install fails (no registry).
 */
export function installRenovate(): { entry: string } | { skip: string } {
	if (existsSync(ENTRY)) return { entry: ENTRY };
	mkdirSync(CACHE, { recursive: true });
	const started = Date.now();
	const result = spawnSync(
		'npm',
		['install', '--prefix', CACHE, `renovate@${RENOVATE_VERSION}`, '--no-audit', '--no-fund', '--no-save', '--ignore-scripts'],
		{ encoding: 'utf8', timeout: 15 * 60_000, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	if (result.status !== 0 || !existsSync(ENTRY)) {
		// npm's first error lines name the cause (code ECONNREFUSED, E404, …); the last ones point at its log.
		const lines = (result.stderr ?? '').split('\n').filter((line) => /^npm (error|ERR!) \S/.test(line));
		const why = result.error?.message ?? lines.slice(0, 2).join(' / ');
		return { skip: `npm install renovate@${RENOVATE_VERSION} failed (${why || `exit ${result.status}`})` };
	}
	console.log(`renovate: installed ${RENOVATE_VERSION} into ${CACHE} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	return { entry: ENTRY };
}

// Run directly: install (or find) it, and say which.
if (require.main === module) {
	const found = installRenovate();
	if ('skip' in found) {
		console.error(`renovate: ${found.skip}; test/renovate.test.ts will be skipped`);
		process.exit(1);
	}
	console.log(`renovate: ${found.entry}`);
}
