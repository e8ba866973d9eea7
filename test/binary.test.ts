/**
 * The single executable (slow: builds it with ./build.sh, about 10 s): copied alone into an empty
 * folder, with no node_modules beside it, it runs `version`, `admin` and `serve`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run, serve } from './helpers/cli';

const test = suite('binary (slow)');
const root = resolve(__dirname, '..');
let dir: string;
let binary: [string, string[]];
let env: NodeJS.ProcessEnv;

test.before(() => {
	execFileSync('bash', [join(root, 'build.sh')], { cwd: root, stdio: 'pipe', timeout: 180_000 });
	dir = mkdtempSync(join(tmpdir(), 'gitstead-binary-'));
	copyFileSync(join(root, 'dist', 'gitstead'), join(dir, 'gitstead'));
	execFileSync('chmod', ['+x', join(dir, 'gitstead')]);
	binary = [join(dir, 'gitstead'), []];
	// Where the embedded SQLite addon is extracted; no PATH to node, no NODE_PATH.
	env = { XDG_CACHE_HOME: join(dir, 'cache'), PATH: '/usr/bin:/bin', NODE_PATH: '' };
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('version and admin run from an empty folder', () => {
	const version = run(binary, ['version'], { cwd: dir, env });
	assert.is(version.code, 0, version.stderr);
	assert.match(version.stdout, /^gitstead \d+\.\d+\.\d+\n$/);
	const init = run(binary, ['admin', 'init'], { cwd: dir, env });
	assert.is(init.code, 0, init.stderr);
	const created = run(binary, ['admin', 'create-user', 'alice', '--json'], { cwd: dir, env });
	assert.is(created.code, 0, created.stderr);
	assert.is(JSON.parse(created.stdout).login, 'alice');
	const cached = readdirSync(join(dir, 'cache', 'gitstead'));
	assert.is(cached.length, 1, '~> the addon is extracted once, keyed by its hash');
	assert.match(cached[0], /^native-[0-9a-f]{16}$/);
});

test('serve answers the API on its own', async () => {
	const served = await serve(binary, [], { cwd: dir, env });
	try {
		const res = await fetch(`${served.address}/api/v3/users/alice`);
		assert.is(res.status, 200);
		assert.is(((await res.json()) as { login: string }).login, 'alice');
	} finally {
		assert.is(await served.stop(), 0);
	}
});

test.run();
