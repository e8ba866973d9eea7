// Bundles src/main.ts into build/gitstead.cjs (one CommonJS file, run by bin/gitstead and `npm start`).
// With --sea it bundles for the single executable instead (build/gitstead-sea.cjs): every dependency
// inlined, better-sqlite3's native addon loaded from an embedded SEA asset (see src/db/native.ts).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
	external: [...(sea ? [] : ['better-sqlite3']), 'highlight.js', 'highlight.js/*'],
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
// The single executable's main script reads it as latin1 text (scripts/sea-main.cjs).
asciiOnly(outfile);
