// Makes the single executable with @yao-pkg/pkg's SEA mode: the local node binary (no download),
// scripts/sea-main.cjs as the main script, and as assets the bundle, its V8 code cache (made here by
// running the bundle through a start: scripts/sea-main.cjs --train) and better_sqlite3.node, which
// src/db/native.ts loads.
// Usage: node scripts/sea.mjs BUNDLE ADDON OUTPUT   (absolute paths)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const [bundle, addon, output] = process.argv.slice(2);
for (const path of [bundle, addon, output]) {
	if (!path || !isAbsolute(path)) throw new Error('usage: node scripts/sea.mjs BUNDLE ADDON OUTPUT (absolute paths)');
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'scripts', 'sea-main.cjs');
// pkg works in os.tmpdir() and injects the blob with `npx postject`, which resolves packages from
// the project around its working folder: keep that folder inside this checkout so the
// devDependency is found instead of asked for from the registry.
const work = join(root, 'build', 'sea-work');
mkdirSync(work, { recursive: true });

/**
 * The bundle's code cache: the bundle run as the executable runs it (scripts/sea-main.cjs) through
 * `admin init`, then a `serve` that answers a health check, a web page and API requests and stops
 * on SIGTERM; the cache holds every function compiled on the way.
 */
async function trainCodeCache(cache) {
	const dir = mkdtempSync(join(work, 'train-'));
	// A clean environment: no GITSTEAD_* setting of the machine building it takes part.
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GITSTEAD_')));
	env.GITSTEAD_NATIVE_CACHE = join(dir, 'native');
	const data = join(dir, 'data');
	const gitstead = (cacheOut, args) => [main, '--train', bundle, addon, cacheOut, ...args];
	try {
		execFileSync(process.execPath, gitstead('-', ['admin', 'init', '--data-dir', data]), { env, stdio: 'pipe' });
		const port = await new Promise((done) => {
			const server = createServer().listen(0, '127.0.0.1', () => {
				const { port } = server.address();
				server.close(() => done(port));
			});
		});
		const child = spawn(process.execPath, gitstead(cache, ['serve', '--port', String(port), '--data-dir', data]), {
			env,
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		let stderr = '';
		child.stderr.on('data', (chunk) => (stderr += chunk));
		const exited = new Promise((done) => child.on('exit', (code) => done(code)));
		const get = (path, headers = {}) =>
			new Promise((done) => {
				const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
					res.resume();
					res.on('end', () => done(res.statusCode));
				});
				req.on('error', () => done(null));
				req.end();
			});
		const deadline = Date.now() + 60_000;
		while ((await get('/healthz')) !== 200) {
			if (child.exitCode !== null || Date.now() > deadline) throw new Error(`training start failed:\n${stderr}`);
			await new Promise((done) => setTimeout(done, 20));
		}
		await get('/', { Accept: 'text/html' });
		await get('/api/v3', { Accept: 'application/vnd.github+json' });
		await get('/api/v3/users/admin', { Accept: 'application/vnd.github+json' });
		await get('/api/v3/repos/admin/none', { Accept: 'application/vnd.github+json' });
		child.kill('SIGTERM');
		const code = await exited;
		if (code !== 0 || !existsSync(cache)) throw new Error(`training serve exited ${code} without a code cache:\n${stderr}`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

// src/db/native.ts names the addon's extracted copy by the hash the bundle carries: it must be this addon's.
const addonHash = createHash('sha256').update(readFileSync(addon)).digest('hex').slice(0, 16);
if (!readFileSync(bundle, 'latin1').includes(`"${addonHash}"`)) throw new Error(`${bundle} was not bundled (--sea) for ${addon}`);

// The packages bundled apart (scripts/bundle.mjs SEA_CHUNKS), beside the bundle: `chunks.json` lists
// their ids, `chunk:<id>` holds each one's source (scripts/sea-main.cjs loads them).
const chunkDir = join(dirname(bundle), 'sea-chunks');
const chunkFiles = JSON.parse(readFileSync(join(chunkDir, 'chunks.json'), 'utf8'));
const chunkList = join(work, 'chunks.json');
writeFileSync(chunkList, JSON.stringify(Object.keys(chunkFiles)));
const chunkAssets = { 'chunks.json': chunkList };
for (const [id, file] of Object.entries(chunkFiles)) chunkAssets[`chunk:${id}`] = join(chunkDir, file);

const cache = join(work, 'gitstead.cache');
rmSync(cache, { force: true });
await trainCodeCache(cache);

process.env.TMPDIR = work;
const sea = require('@yao-pkg/pkg/lib-es5/sea.js').default;
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
const platform = process.platform === 'darwin' ? 'macos' : process.platform === 'win32' ? 'win' : 'linux';
await sea(main, {
	targets: [{ nodeRange: `node${process.versions.node.split('.')[0]}`, platform, arch, output }],
	useLocalNode: true,
	seaConfig: {
		assets: { 'better_sqlite3.node': addon, 'gitstead.cjs': bundle, 'gitstead.cache': cache, ...chunkAssets },
		useCodeCache: true,
	},
});
// pkg settles the injection step without reporting its failure; check the result ourselves:
// the executable must carry the SEA blob (the fuse postject flips is set to ':1').
const fuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1';
if (!existsSync(output) || statSync(output).size < 1_000_000 || !readFileSync(output).includes(fuse)) {
	throw new Error(`pkg did not inject the application into ${output} (is postject installed? run npm ci)`);
}
// V8 takes the code cache only when the executable's V8 version and flags match the ones that made it.
const check = spawnSync(output, ['version'], { env: { ...process.env, GITSTEAD_CODE_CACHE_CHECK: '1' }, encoding: 'utf8' });
if (check.status !== 0 || !check.stderr.includes('code cache used')) {
	throw new Error(`${output} does not use its code cache: ${check.stderr.trim() || `exit ${check.status}`}`);
}
