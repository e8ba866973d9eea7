/**
 * better-sqlite3's native addon inside the single executable.
 *
 * A Node SEA's `require` loads only built-in modules, so build.sh embeds `better_sqlite3.node` as a
 * SEA asset. On first use it is written once to a cache folder keyed by its SHA-256 (so two
 * Gitstead versions never share a file; the bundle carries the hash, computed when it was built, so
 * a start that finds the file neither reads nor hashes the asset) and loaded with `process.dlopen`; the loaded module object
 * is handed to better-sqlite3 as `nativeBinding`. From a source checkout this returns undefined and
 * better-sqlite3 loads its addon from node_modules as usual.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

declare const GITSTEAD_SEA: boolean | undefined;
/** The first 16 hex digits of the embedded addon's SHA-256 (scripts/bundle.mjs --sea). */
declare const GITSTEAD_NATIVE_HASH: string | undefined;

const ASSET = 'better_sqlite3.node';
let loaded: object | undefined;

/** Folder for the extracted addon: $GITSTEAD_NATIVE_CACHE, else $XDG_CACHE_HOME/gitstead, else ~/.cache/gitstead. */
function cacheFolder(): string {
	if (process.env.GITSTEAD_NATIVE_CACHE) return process.env.GITSTEAD_NATIVE_CACHE;
	const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : tmpdir());
	return join(base, 'gitstead');
}

/**
 * The addon module object when running as a single executable, else undefined.
 * @throws Error naming the cache folder when the addon cannot be written or loaded.
 */
export function nativeBinding(): object | undefined {
	if (typeof GITSTEAD_SEA === 'undefined' || !GITSTEAD_SEA) return undefined;
	if (loaded) return loaded;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const sea = require('node:sea') as { isSea(): boolean; getAsset(key: string): ArrayBuffer };
	if (!sea.isSea()) return undefined;
	const known = typeof GITSTEAD_NATIVE_HASH === 'string' ? GITSTEAD_NATIVE_HASH : undefined;
	let bytes = known === undefined ? Buffer.from(sea.getAsset(ASSET)) : undefined;
	const hash = known ?? createHash('sha256').update(bytes!).digest('hex').slice(0, 16);
	const folder = join(cacheFolder(), `native-${hash}`);
	const file = join(folder, ASSET);
	try {
		if (!existsSync(file)) {
			bytes ??= Buffer.from(sea.getAsset(ASSET));
			mkdirSync(folder, { recursive: true });
			const partial = `${file}.${process.pid}.tmp`;
			writeFileSync(partial, bytes, { mode: 0o755 });
			renameSync(partial, file); // atomic: a concurrent start never loads a half-written file
		}
		const module = { exports: {} as object };
		process.dlopen(module, file);
		loaded = module.exports;
		return loaded;
	} catch (error) {
		throw new Error(
			`cannot load the SQLite engine from ${file}: ${(error as Error).message} (set GITSTEAD_NATIVE_CACHE to a writable folder)`,
		);
	}
}
