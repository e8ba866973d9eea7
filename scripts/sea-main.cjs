// The single executable's main script: compiles the bundle (the SEA asset gitstead.cjs) with a V8
// code cache (the asset gitstead.cache) made by running the same bundle at build time through a
// start, its first answers and a stop, so the functions a start runs are deserialized instead of
// parsed and compiled. (Node's own `useCodeCache` caches only what compiling the main script
// produces before it runs: the bundle's top level, not the functions it calls.) V8 checks the cache
// against the source's length, its own version and its flags, and compiles from source when the
// cache does not fit; GITSTEAD_CODE_CACHE_CHECK=1 prints to stderr whether it was used.
//
// At build time (scripts/sea.mjs) plain node runs this file in training mode instead:
//   node scripts/sea-main.cjs --train BUNDLE ADDON CACHE|- gitstead arguments...
// runs BUNDLE as the executable would (node:sea answered from ADDON), and as the process exits
// writes the code cache of everything that ran to CACHE (- writes none).
'use strict';
const { Script } = require('node:vm');

// The bundle runs as a CommonJS module body; the cache belongs to exactly this text.
const HEAD = '(function (exports, require, module, __filename, __dirname) {';
const TAIL = '\n})';

/** Compiles the bundle's source (with cachedData when given) and runs it; returns the Script. */
function run(source, cachedData, requireFn) {
	const script = new Script(HEAD + source + TAIL, { filename: 'gitstead.cjs', cachedData });
	if (process.env.GITSTEAD_CODE_CACHE_CHECK === '1')
		process.stderr.write(
			`gitstead: code cache ${cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used'}\n`,
		);
	const body = script.runInThisContext();
	const bundleModule = { exports: {} };
	body.call(bundleModule.exports, bundleModule.exports, requireFn, bundleModule, __filename, __dirname);
	return script;
}

/**
 * The bundle's require: the packages carried as chunks (scripts/bundle.mjs SEA_CHUNKS: `read(id)`
 * gives a chunk's source, or undefined for any other id) are compiled and run at their first
 * require, once; everything else is `base`'s.
 */
function chunkedRequire(base, read) {
	const modules = new Map();
	const chunkRequire = (id) => {
		let module = modules.get(id);
		if (module === undefined) {
			const source = read(id);
			if (source === undefined) return base(id);
			module = { exports: {} };
			modules.set(id, module); // before it runs, as Node does (a cycle sees the exports so far)
			const filename = `gitstead-chunk:${id}`;
			new Script(HEAD + source + TAIL, { filename })
				.runInThisContext()
				.call(module.exports, module.exports, chunkRequire, module, filename, __dirname);
		}
		return module.exports;
	};
	return chunkRequire;
}

const sea = require('node:sea');
if (sea.isSea()) {
	// Buffer views over the assets in the executable's own mapped section (getRawAsset: no copy;
	// both are only read). The bundle is ASCII (scripts/bundle.mjs --sea), so latin1 decoding is one
	// plain copy into a one-byte string; getAsset would copy its 10 MB once more first.
	const source = Buffer.from(sea.getRawAsset('gitstead.cjs')).toString('latin1');
	let cachedData;
	try {
		cachedData = Buffer.from(sea.getRawAsset('gitstead.cache'));
	} catch {
		cachedData = undefined; // built without a cache: compile from source
	}
	const chunks = new Set(JSON.parse(Buffer.from(sea.getRawAsset('chunks.json')).toString('latin1')));
	const read = (id) => (chunks.has(id) ? Buffer.from(sea.getRawAsset(`chunk:${id}`)).toString('latin1') : undefined);
	run(source, cachedData, chunkedRequire(require, read));
} else {
	const [flag, bundle, addon, output, ...args] = process.argv.slice(2);
	if (flag !== '--train' || !bundle || !addon || !output)
		throw new Error('usage: node scripts/sea-main.cjs --train BUNDLE ADDON CACHE|- gitstead arguments...');
	const { readFileSync, writeFileSync } = require('node:fs');
	const { dirname, join } = require('node:path');
	const v8 = require('node:v8');
	// What the bundle asks of node:sea (src/db/native.ts), answered from the files.
	const fakeSea = {
		isSea: () => true,
		getAsset(key) {
			if (key !== 'better_sqlite3.node') throw new Error(`no asset ${key}`);
			const bytes = readFileSync(addon);
			return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
		},
	};
	// V8 stamps a code cache with a hash of its flags; `serve` changes one (the young generation's
	// growth) after the bundle is compiled. Ignore flag changes here so the cache carries the flags
	// the executable has when it compiles the bundle.
	const fakeV8 = { ...v8, setFlagsFromString() {} };
	// The chunks scripts/bundle.mjs wrote beside the bundle.
	const chunkDir = join(dirname(bundle), 'sea-chunks');
	const chunkFiles = JSON.parse(readFileSync(join(chunkDir, 'chunks.json'), 'utf8'));
	const read = (id) => (Object.hasOwn(chunkFiles, id) ? readFileSync(join(chunkDir, chunkFiles[id]), 'latin1') : undefined);
	const trainingRequire = chunkedRequire(
		(id) => (id === 'node:sea' ? fakeSea : id === 'node:v8' || id === 'v8' ? fakeV8 : require(id)),
		read,
	);
	process.argv = [process.argv[0], process.argv[1], ...args];
	const script = run(readFileSync(bundle, 'latin1'), undefined, trainingRequire);
	if (output !== '-') process.on('exit', () => writeFileSync(output, script.createCachedData()));
}
