/**
 * The GitHub CLI (gh, when installed) on Actions secrets and variables and on keys, against
 * Gitstead behind a TLS front (test/helpers/tls.ts): gh secret set/list/delete for a repository,
 * an environment and an organization (gh seals the value itself with the scope's public key),
 * gh variable set/list where this gh has the command (it came with gh 2.31), gh ssh-key add/list,
 * gh gpg-key add/list, gh repo deploy-key add/list/delete.
 * Skipped, with a message, when `which gh` finds no gh.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sodium from 'libsodium-wrappers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';
import { findGh, runGh, tlsFront, type TlsFront } from './helpers/tls';

const test = suite('gh-secrets-keys');
const gh = findGh();
let s: TestServer;
let front: TlsFront;
let olivia: string;
let dir: string;

/** Opens a stored secret with its scope's private key (what a runner would do). */
function opened(scope: { repoId: number } | { orgId: number } | { environmentId: number }, name: string): string {
	const row = s.app.stores.secrets.byName('secret', scope, name)!;
	const key = s.app.stores.secrets.key(scope)!;
	return Buffer.from(
		sodium.crypto_box_seal_open(
			Buffer.from(row.value, 'base64'),
			Buffer.from(key.public_key, 'base64'),
			Buffer.from(key.private_key, 'base64'),
		),
	).toString();
}

if (!gh) {
	console.log('test/gh-secrets-keys.test.ts: skipped — the gh CLI is not installed (`which gh` found nothing)');
} else {
	test.before(async () => {
		await sodium.ready;
		s = await startServer();
		s.user('olivia');
		olivia = s.fullToken('olivia');
		s.org('acme', 'olivia');
		await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'app', private: true } });
		await s.request('POST', '/user/repos', { token: olivia, body: { name: 'web', auto_init: true } });
		await s.request('PUT', '/repos/acme/app/environments/production', { token: olivia, body: {} });
		front = await tlsFront(Number(new URL(s.origin).port));
		dir = mkdtempSync(join(tmpdir(), 'gitstead-gh-keys-'));
	});
	test.after(async () => {
		await front?.close();
		await s?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	test('gh secret set / list / delete on a repository: gh seals the value, Gitstead opens it with the repository key', async () => {
		const set = await runGh(front, olivia, ['secret', 'set', 'DEPLOY_TOKEN', '-R', 'acme/app', '--body', 'hunter2']);
		assert.is(set.code, 0, set.stderr);
		const repoId = (await s.get('/repos/acme/app', olivia)).body.id;
		assert.is(opened({ repoId }, 'DEPLOY_TOKEN'), 'hunter2');
		const fromStdin = await runGh(front, olivia, ['secret', 'set', 'api_key', '-R', 'acme/app'], { input: 'from standard input' });
		assert.is(fromStdin.code, 0, fromStdin.stderr);
		assert.is(opened({ repoId }, 'API_KEY'), 'from standard input');
		const list = await runGh(front, olivia, ['secret', 'list', '-R', 'acme/app']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, /^API_KEY\t/m);
		assert.match(list.stdout, /^DEPLOY_TOKEN\t/m);
		const removed = await runGh(front, olivia, ['secret', 'delete', 'API_KEY', '-R', 'acme/app']);
		assert.is(removed.code, 0, removed.stderr);
		const after = await runGh(front, olivia, ['secret', 'list', '-R', 'acme/app']);
		assert.not.match(after.stdout, 'API_KEY');
	});

	test('gh secret set / list for an environment and for an organization (visibility selected, --repos)', async () => {
		const env = await runGh(front, olivia, ['secret', 'set', 'DB_PASSWORD', '-R', 'acme/app', '--env', 'production', '--body', 'pw']);
		assert.is(env.code, 0, env.stderr);
		const environmentId = s.app.stores.deployments.environment((await s.get('/repos/acme/app', olivia)).body.id, 'production')!.id;
		assert.is(opened({ environmentId }, 'DB_PASSWORD'), 'pw');
		const envList = await runGh(front, olivia, ['secret', 'list', '-R', 'acme/app', '--env', 'production']);
		assert.is(envList.code, 0, envList.stderr);
		assert.match(envList.stdout, /^DB_PASSWORD\t/m);
		const org = await runGh(front, olivia, ['secret', 'set', 'NPM_TOKEN', '--org', 'acme', '--visibility', 'all', '--body', 'npm']);
		assert.is(org.code, 0, org.stderr);
		const selected = await runGh(front, olivia, ['secret', 'set', 'ONLY_APP', '--org', 'acme', '--repos', 'app', '--body', 'x']);
		assert.is(selected.code, 0, selected.stderr);
		const orgId = s.app.stores.accounts.byLogin('acme')!.id;
		assert.is(opened({ orgId }, 'NPM_TOKEN'), 'npm');
		assert.equal(
			(await s.get('/orgs/acme/actions/secrets/ONLY_APP/repositories', olivia)).body.repositories.map(
				(r: { name: string }) => r.name,
			),
			['app'],
		);
		const orgList = await runGh(front, olivia, ['secret', 'list', '--org', 'acme']);
		assert.is(orgList.code, 0, orgList.stderr);
		assert.match(orgList.stdout, /^NPM_TOKEN\t.*\tALL$/im);
		// Without a terminal gh prints the visibility; with one it counts the selected repositories.
		assert.match(orgList.stdout, /^ONLY_APP\t.*\tSELECTED$/im);
		const deleted = await runGh(front, olivia, ['secret', 'delete', 'NPM_TOKEN', '--org', 'acme']);
		assert.is(deleted.code, 0, deleted.stderr);
	});

	test('gh variable set / list (gh 2.31 and later; the same requests over REST otherwise)', async () => {
		const probe = await runGh(front, olivia, ['variable', '--help']);
		if (probe.code !== 0) {
			console.log(
				`test/gh-secrets-keys.test.ts: gh ${ghVersion()} has no variable command (added in gh 2.31); checked over REST instead`,
			);
			assert.is(
				(await s.request('POST', '/repos/acme/app/actions/variables', { token: olivia, body: { name: 'REGION', value: 'eu' } }))
					.status,
				201,
			);
			assert.is((await s.get('/repos/acme/app/actions/variables?per_page=30', olivia)).body.variables[0].value, 'eu');
			return;
		}
		const set = await runGh(front, olivia, ['variable', 'set', 'REGION', '-R', 'acme/app', '--body', 'eu']);
		assert.is(set.code, 0, set.stderr);
		const list = await runGh(front, olivia, ['variable', 'list', '-R', 'acme/app']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, /^REGION\teu\t/m);
	});

	test('gh ssh-key add / list (authentication and signing keys)', async () => {
		const file = join(dir, 'id_ed25519.pub');
		writeFileSync(file, sshKey('olivia@laptop'));
		const add = await runGh(front, olivia, ['ssh-key', 'add', file, '--title', 'Laptop']);
		assert.is(add.code, 0, add.stderr);
		const keys = (await s.get('/user/keys', olivia)).body;
		assert.is(keys.length, 1);
		assert.is(keys[0].title, 'Laptop');
		assert.is(`${keys[0].key} olivia@laptop\n`, readFileSync(file, 'utf8'));
		const again = await runGh(front, olivia, ['ssh-key', 'add', file, '--title', 'Again']);
		assert.ok(again.code !== 0 || /already/i.test(again.stderr + again.stdout), `${again.code} ${again.stderr}`);
		const signing = join(dir, 'id_signing.pub');
		writeFileSync(signing, sshKey('signing'));
		const addSigning = await runGh(front, olivia, ['ssh-key', 'add', signing, '--title', 'Signing', '--type', 'signing']);
		if (addSigning.code !== 0 && /unknown flag: --type/.test(addSigning.stderr)) {
			console.log(
				`test/gh-secrets-keys.test.ts: gh ${ghVersion()} has no ssh-key add --type (signing keys came with gh 2.30); added over REST`,
			);
			await s.request('POST', '/user/ssh_signing_keys', {
				token: olivia,
				body: { title: 'Signing', key: readFileSync(signing, 'utf8') },
			});
		} else assert.is(addSigning.code, 0, addSigning.stderr);
		const list = await runGh(front, olivia, ['ssh-key', 'list']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, /^Laptop\tssh-ed25519 AAAA\S+\t/m);
	});

	test('gh gpg-key add / list', async () => {
		const openpgp = require('openpgp') as typeof import('openpgp', { with: { 'resolution-mode': 'import' }});
		const { publicKey } = await openpgp.generateKey({
			type: 'ecc',
			curve: 'curve25519Legacy',
			userIDs: [{ name: 'Olivia', email: 'olivia@example.com' }],
			format: 'armored',
		});
		const keyId = (await openpgp.readKey({ armoredKey: publicKey })).getKeyID().toHex().toUpperCase();
		const file = join(dir, 'key.asc');
		writeFileSync(file, publicKey);
		const add = await runGh(front, olivia, ['gpg-key', 'add', file]);
		assert.is(add.code, 0, add.stderr);
		assert.is((await s.get('/user/gpg_keys', olivia)).body[0].key_id, keyId);
		const list = await runGh(front, olivia, ['gpg-key', 'list']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, keyId);
		assert.match(list.stdout, 'olivia@example.com');
	});

	test('gh repo deploy-key add / list / delete', async () => {
		const file = join(dir, 'deploy.pub');
		writeFileSync(file, sshKey('ci'));
		const add = await runGh(front, olivia, ['repo', 'deploy-key', 'add', file, '-R', 'olivia/web', '--title', 'CI', '--allow-write']);
		assert.is(add.code, 0, add.stderr);
		const [key] = (await s.get('/repos/olivia/web/keys', olivia)).body;
		assert.is(key.title, 'CI');
		assert.is(key.read_only, false);
		const list = await runGh(front, olivia, ['repo', 'deploy-key', 'list', '-R', 'olivia/web']);
		assert.is(list.code, 0, list.stderr);
		assert.match(list.stdout, new RegExp(`^${key.id}\\tCI\\tread-write\\tssh-ed25519 AAAA`, 'm'));
		const removed = await runGh(front, olivia, ['repo', 'deploy-key', 'delete', String(key.id), '-R', 'olivia/web']);
		assert.is(removed.code, 0, removed.stderr);
		assert.is((await s.get('/repos/olivia/web/keys', olivia)).body.length, 0);
	});
}

/** An OpenSSH public key line of a new Ed25519 key, with a comment. */
function sshKey(comment: string): string {
	const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
	const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
	return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')} ${comment}\n`;
}

/** gh's version, for messages. */
function ghVersion(): string {
	return /gh version (\S+)/.exec(execFileSync('gh', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
}

test.run();
