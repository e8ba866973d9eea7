// Bundles src/main.ts into build/gitstead.cjs (one CommonJS file, run by bin/gitstead and `npm start`).
// With --sea it bundles for the single executable instead (build/gitstead-sea.cjs): every dependency
// inlined, better-sqlite3's native addon loaded from an embedded SEA asset (see src/db/native.ts).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sea = process.argv.includes('--sea');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));

/** A build-time script of scripts/ (TypeScript), bundled to build/NAME.cjs and loaded: its exports. */
async function loadScript(name) {
	const outfile = resolve(root, `build/${name}.cjs`);
	await build({
		entryPoints: [resolve(root, `scripts/${name}.ts`)],
		outfile,
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		packages: 'external',
		logLevel: 'warning',
	});
	const exports = createRequire(import.meta.url)(outfile);
	rmSync(outfile);
	return exports;
}

// The route table's GitHub operations (response schemas for `gitstead openapi` and GET /openapi.json),
// extracted from @octokit/openapi (a devDependency) now, so the bundle embeds only what it needs.
const githubOperations = (await loadScript('github-operations')).githubOperationsJson(root);

// The server builds its route table from src/api/route-manifest.ts and loads each area's module at
// its first request: a manifest that differs from the declared routes would leave routes unreachable.
const { manifestSource } = await loadScript('route-manifest');
const manifestStale = manifestSource() !== readFileSync(resolve(root, 'src/api/route-manifest.ts'), 'utf8');
if (manifestStale) throw new Error('src/api/route-manifest.ts differs from the declared routes: run npm run routes:manifest');

// The web interface's CSS, script and icons (src/web/asset-sources.ts), assembled from their packages now.
const webAssets = (await loadScript('web-assets')).webAssetsJson(root);

// highlight.js (its common languages, ~370 KB of code) is embedded as text and compiled on the first
// highlighted file (src/web/highlight.ts), so starting the server never parses it.
const highlighter = await build({
	entryPoints: [resolve(root, 'node_modules/highlight.js/lib/common.js')],
	bundle: true,
	write: false,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	legalComments: 'none',
	logLevel: 'warning',
});

/** The first 16 hex digits of the SHA-256 of better_sqlite3.node, the file build.sh embeds. */
function nativeHash() {
	const addon = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
	return createHash('sha256').update(readFileSync(addon)).digest('hex').slice(0, 16);
}

/**
 * Packages the single executable carries as separate assets (build/sea-chunks/, loaded by
 * scripts/sea-main.cjs at their first require): large, and required only at their first use (a
 * secret sealed, a GPG key read, a GraphQL query, markdown sanitized, a workflow or citation file
 * parsed, an archive, a repository's languages, a license). Out of the bundle, a start neither
 * copies their source nor deserializes their part of the bundle's code cache (half of its
 * functions' records): V8 compiles a chunk at its first require instead.
 */
const SEA_CHUNKS = [
	'libsodium-wrappers',
	'openpgp',
	'graphql',
	'sanitize-html',
	'markdown-it',
	'yaml',
	'tar',
	'linguist-languages',
	'@rexxars/choosealicense-list/licenses.json',
];

const outfile = resolve(root, sea ? 'build/gitstead-sea.cjs' : 'build/gitstead.cjs');
await build({
	entryPoints: [resolve(root, 'src/main.ts')],
	outfile,
	bundle: true,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	sourcemap: sea ? false : 'linked',
	legalComments: 'none',
	logLevel: 'warning',
	// ASCII only (see asciiOnly below).
	charset: 'ascii',
	// From a checkout, better-sqlite3 finds its compiled addon in node_modules itself.
	external: [...(sea ? SEA_CHUNKS : ['better-sqlite3']), 'highlight.js', 'highlight.js/*'],
	define: {
		GITSTEAD_VERSION: JSON.stringify(pkg.version),
		GITSTEAD_SCHEMA_SQL: JSON.stringify(readFileSync(resolve(root, 'schema.sql'), 'utf8')),
		GITSTEAD_CONFIG_TEMPLATE: JSON.stringify(readFileSync(resolve(root, 'config/gitstead.toml'), 'utf8')),
		GITSTEAD_GITHUB_OPERATIONS: JSON.stringify(githubOperations),
		GITSTEAD_WEB_ASSETS: JSON.stringify(webAssets),
		GITSTEAD_HIGHLIGHT_JS: JSON.stringify(highlighter.outputFiles[0].text),
		GITSTEAD_SEA: JSON.stringify(sea),
		// The embedded SQLite addon's hash, which names its extracted copy (src/db/native.ts).
		...(sea ? { GITSTEAD_NATIVE_HASH: JSON.stringify(nativeHash()) } : {}),
	},
});

// V8 keeps the bundle's source in memory for as long as the process runs (functions compile lazily
// from it). One character outside Latin-1 makes all of it a two-byte string, ~19 MB instead of
// ~9.5 MB resident. esbuild's ascii charset escapes strings and identifiers; what it leaves (a few
// dozen characters in comments and regular-expression literals) is escaped here: \uXXXX means the
// same character in a regular expression and is inert in a comment.
function asciiOnly(file) {
	const text = readFileSync(file, 'utf8');
	if (!/[^\x00-\x7f]/.test(text)) return;
	writeFileSync(
		file,
		text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`),
	);
}

// esbuild wraps each lazily evaluated module as `__esm({ "src/x.ts"() {…} })` or
// `__commonJS({ "node_modules/x.js"(exports, module) {…} })`: an object literal with one method
// named by the module's path. V8 gives every one-property object literal the same starting map and
// records a transition from it for each property name it sees, up to 1,536 names; past that (the
// bundle has ~1,600 such wrappers), a new one-property literal anywhere in the process no longer
// finds a shared map, so every `{ value: … }` valibot makes (and every other one-property literal)
// gets a map of its own and each property access on it misses its inline cache: validating an
// issue's body took 7–11 µs instead of ~0.7. Naming every wrapper's method `init` (the helpers
// call whatever method the object has) keeps that to one transition.
function sameWrapperKeys(file) {
	const text = readFileSync(file, 'utf8');
	const wrappers = (text.match(/= __(esm|commonJS)\(\{\n/g) ?? []).length;
	let renamed = 0;
	const out = text.replace(/(= __(?:esm|commonJS)\(\{\n\s*)"(?:[^"\\\n]|\\.)*"\(/g, (_, head) => {
		renamed++;
		return `${head}init(`;
	});
	if (renamed !== wrappers) throw new Error(`${file}: renamed ${renamed} of ${wrappers} module wrappers (esbuild's output changed?)`);
	writeFileSync(file, out);
}
sameWrapperKeys(outfile);
// The single executable's main script reads it as latin1 text (scripts/sea-main.cjs).
asciiOnly(outfile);

// The chunks: each package bundled alone (the other chunks left to their own assets), ASCII like
// the bundle, listed by package id in build/sea-chunks/chunks.json (scripts/sea.mjs embeds them).
if (sea) {
	const dir = resolve(root, 'build/sea-chunks');
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const files = {};
	for (const id of SEA_CHUNKS) {
		const file = `${id.replace(/[^a-z0-9.-]+/gi, '_')}.cjs`;
		const entry = createRequire(import.meta.url).resolve(id);
		if (id.endsWith('.json')) {
			// A JSON file is its value, parsed (esbuild's JSON module would export its keys one by one).
			writeFileSync(resolve(dir, file), `module.exports = JSON.parse(${JSON.stringify(readFileSync(entry, 'utf8'))});\n`);
			asciiOnly(resolve(dir, file));
			files[id] = file;
			continue;
		}
		await build({
			entryPoints: [entry],
			outfile: resolve(dir, file),
			bundle: true,
			platform: 'node',
			target: 'node20',
			format: 'cjs',
			legalComments: 'none',
			logLevel: 'warning',
			charset: 'ascii',
			external: SEA_CHUNKS.filter((other) => other !== id),
		});
		sameWrapperKeys(resolve(dir, file));
		asciiOnly(resolve(dir, file));
		files[id] = file;
	}
	writeFileSync(resolve(dir, 'chunks.json'), `${JSON.stringify(files, null, '\t')}\n`);
}
