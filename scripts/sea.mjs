// Makes the single executable with @yao-pkg/pkg's SEA mode: the local node binary (no download),
// the bundle as the main script, better_sqlite3.node as the asset src/db/native.ts loads.
// Usage: node scripts/sea.mjs BUNDLE ADDON OUTPUT   (absolute paths)
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const [bundle, addon, output] = process.argv.slice(2);
for (const path of [bundle, addon, output]) {
	if (!path || !isAbsolute(path)) throw new Error('usage: node scripts/sea.mjs BUNDLE ADDON OUTPUT (absolute paths)');
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// pkg works in os.tmpdir() and injects the blob with `npx postject`, which resolves packages from
// the project around its working folder: keep that folder inside this checkout so the
// devDependency is found instead of asked for from the registry.
process.env.TMPDIR = join(root, 'build', 'sea-work');
mkdirSync(process.env.TMPDIR, { recursive: true });
const sea = require('@yao-pkg/pkg/lib-es5/sea.js').default;
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
const platform = process.platform === 'darwin' ? 'macos' : process.platform === 'win32' ? 'win' : 'linux';
await sea(bundle, {
	targets: [{ nodeRange: `node${process.versions.node.split('.')[0]}`, platform, arch, output }],
	useLocalNode: true,
	seaConfig: {
		assets: { 'better_sqlite3.node': addon },
		useCodeCache: true,
	},
});
// pkg settles the injection step without reporting its failure; check the result ourselves:
// the executable must carry the SEA blob (the fuse postject flips is set to ':1').
const fuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1';
if (!existsSync(output) || statSync(output).size < 1_000_000 || !readFileSync(output).includes(fuse)) {
	throw new Error(`pkg did not inject the application into ${output} (is postject installed? run npm ci)`);
}
