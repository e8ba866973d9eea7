/**
 * The single executable (slow: builds it with ./build.sh, about 10 s): copied alone into an empty
 * folder, with no node_modules beside it, it runs `version`, `admin` and `serve`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sodium from 'libsodium-wrappers';
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
	// V8 takes the bundle's code cache (made at build time) instead of compiling the bundle again.
	const checked = run(binary, ['version'], { cwd: dir, env: { ...env, GITSTEAD_CODE_CACHE_CHECK: '1' } });
	assert.is(checked.stderr, 'gitstead: code cache used\n');
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

test('the libraries bundled in: a secret sealed with libsodium opens, an OpenPGP key is read', async () => {
	const token = JSON.parse(
		run(binary, ['admin', 'create-token', 'alice', '--scopes', 'repo,admin:gpg_key', '--json'], { cwd: dir, env }).stdout,
	).token;
	const served = await serve(binary, [], { cwd: dir, env });
	const call = (method: string, path: string, body?: unknown) =>
		fetch(`${served.address}/api/v3${path}`, {
			method,
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	try {
		assert.is((await call('POST', '/user/repos', { name: 'vault' })).status, 201);
		const key = (await (await call('GET', '/repos/alice/vault/actions/secrets/public-key')).json()) as { key: string; key_id: string };
		await sodium.ready;
		const sealed = Buffer.from(sodium.crypto_box_seal(Buffer.from('s3cret'), Buffer.from(key.key, 'base64'))).toString('base64');
		const put = await call('PUT', '/repos/alice/vault/actions/secrets/TOKEN', { encrypted_value: sealed, key_id: key.key_id });
		assert.is(put.status, 201, await put.text());
		const bad = await call('PUT', '/repos/alice/vault/actions/secrets/TOKEN', { encrypted_value: 'AAAA', key_id: key.key_id });
		assert.is(bad.status, 422);
		const openpgp = require('openpgp') as typeof import('openpgp', { with: { 'resolution-mode': 'import' }});
		const { publicKey } = await openpgp.generateKey({
			type: 'ecc',
			curve: 'curve25519Legacy',
			userIDs: [{ email: 'alice@example.com' }],
		});
		const gpg = await call('POST', '/user/gpg_keys', { armored_public_key: publicKey });
		assert.is(gpg.status, 201, await gpg.text());
	} finally {
		assert.is(await served.stop(), 0);
	}
});

test.run();
