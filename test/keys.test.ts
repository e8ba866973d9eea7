/**
 * Keys: users' SSH authentication keys, SSH signing keys and GPG keys, repositories' deploy keys,
 * /{login}.keys and /{login}.gpg at the web origin; GitHub's 422 answers (invalid key, key already
 * in use); the deploy_key event; and the `verification` of signed commits and tags read against the
 * signer's registered keys, with GitHub's reasons (valid, unknown_key, invalid, bad_email,
 * unverified_email, no_user, not_signing_key, expired_key, malformed_signature, unsigned,
 * unknown_signature_type, gpgverify_unavailable until a check is done). Signatures come from
 * OpenPGP.js and from real `git commit -S` with gpg and with ssh-keygen (gpg.format=ssh) when those
 * are installed (skipped with a message otherwise).
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../src/api/users/service';
import { startServer, type TestServer } from './helpers/server';

const openpgp = require('openpgp') as typeof import('openpgp', { with: { 'resolution-mode': 'import' }});

const test = suite('keys');
let s: TestServer;
let olivia: string;
let mike: string;
let dir: string;
let tree: string;

/** An OpenSSH public key line of a new Ed25519 key pair, and its private key (KeyObject). */
function sshKey(comment = 'me@laptop') {
	const { publicKey, privateKey } = generateKeyPairSync('ed25519');
	const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
	const str = (b: Buffer) => {
		const length = Buffer.alloc(4);
		length.writeUInt32BE(b.length);
		return Buffer.concat([length, b]);
	};
	const blob = Buffer.concat([str(Buffer.from('ssh-ed25519')), str(raw)]);
	return { line: `ssh-ed25519 ${blob.toString('base64')} ${comment}`, bare: `ssh-ed25519 ${blob.toString('base64')}`, privateKey };
}

/** A new OpenPGP key pair (Ed25519 primary that signs, Curve25519 encryption subkey). */
async function gpgKey(email: string, options: { keyExpirationTime?: number; date?: Date } = {}) {
	return openpgp.generateKey({
		type: 'ecc',
		curve: 'curve25519Legacy',
		userIDs: [{ name: 'Someone', email }],
		format: 'armored',
		...options,
	});
}

/** A detached armored signature of `payload` with an armored private key. */
async function pgpSign(payload: string, armoredPrivate: string, date?: Date): Promise<string> {
	const key = await openpgp.readPrivateKey({ armoredKey: armoredPrivate });
	return (await openpgp.sign({
		message: await openpgp.createMessage({ binary: Buffer.from(payload) }),
		signingKeys: key,
		detached: true,
		format: 'armored',
		date,
	})) as string;
}

const AUTHOR_DATE = '2026-11-22T12:00:00Z';
const SECONDS = Date.parse(AUTHOR_DATE) / 1000;

/** The text a commit's signature signs: git's commit object without the gpgsig header. */
function payloadOf(message: string, email: string, name = 'Olivia'): string {
	const who = `${name} <${email}> ${SECONDS} +0000`;
	return `tree ${tree}\nauthor ${who}\ncommitter ${who}\n\n${message}`;
}

/** Creates a commit through the git database API with `signature` over it. @returns the answer's body */
async function signedCommit(message: string, email: string, signature: string, token = olivia): Promise<any> {
	const person = { name: 'Olivia', email, date: AUTHOR_DATE };
	const res = await s.request('POST', '/repos/olivia/signed/git/commits', {
		token,
		body: { message, tree, parents: [], author: person, committer: person, signature },
	});
	assert.is(res.status, 201, res.text);
	return res.body;
}

function has(command: string): boolean {
	try {
		execFileSync('which', [command], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

test.before(async () => {
	s = await startServer();
	createUser(s.app, { login: 'olivia', email: 'olivia@example.com' });
	createUser(s.app, { login: 'mike', email: 'mike@example.com' });
	olivia = s.fullToken('olivia');
	mike = s.fullToken('mike');
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'signed' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'app' } });
	tree = (
		await s.request('POST', '/repos/olivia/signed/git/trees', {
			token: olivia,
			body: { tree: [{ path: 'README', mode: '100644', type: 'blob', content: 'hello\n' }] },
		})
	).body.sha;
	dir = mkdtempSync(join(tmpdir(), 'gitstead-keys-'));
});
test.after(async () => {
	await s.close();
	rmSync(dir, { recursive: true, force: true });
});

test('SSH keys: added (comment dropped, title kept), listed, read, deleted; public at /users/{username}/keys and /{login}.keys', async () => {
	const key = sshKey('olivia@laptop');
	const added = await s.request('POST', '/user/keys', { token: olivia, body: { title: 'Laptop', key: key.line } });
	assert.is(added.status, 201, added.text);
	assert.is(added.body.key, key.bare);
	assert.is(added.body.title, 'Laptop');
	assert.is(added.body.url, `${s.api}/user/keys/${added.body.id}`);
	assert.is(added.headers.get('location'), added.body.url);
	const untitled = await s.request('POST', '/user/keys', { token: olivia, body: { key: sshKey('desktop').line } });
	assert.is(untitled.body.title, 'desktop', 'the comment is the title when none is given');
	const list = await s.get('/user/keys', olivia);
	assert.equal(
		list.body.map((k: { id: number }) => k.id),
		[added.body.id, untitled.body.id],
	);
	assert.is((await s.get(`/user/keys/${added.body.id}`, olivia)).body.key, key.bare);
	assert.is((await s.get(`/user/keys/${added.body.id}`, mike)).status, 404, "another user's key");
	const publicList = await s.get('/users/olivia/keys');
	assert.equal(publicList.body[0], { id: added.body.id, key: key.bare, created_at: added.body.created_at, last_used: null });
	const text = await fetch(`${s.origin}/olivia.keys`);
	assert.is(text.status, 200);
	assert.match(text.headers.get('content-type')!, 'text/plain');
	assert.is(await text.text(), `${key.bare}\n${untitled.body.key}\n`);
	assert.is((await fetch(`${s.origin}/nobody-here.keys`)).status, 404);
	const onlyWrite = s.token('olivia', { scopes: ['write:public_key'] });
	assert.is(
		(await s.request('DELETE', `/user/keys/${untitled.body.id}`, { token: onlyWrite })).status,
		403,
		'deleting needs admin:public_key',
	);
	assert.is((await s.request('DELETE', `/user/keys/${untitled.body.id}`, { token: olivia })).status, 204);
	assert.is((await s.get('/user/keys', olivia)).body.length, 1);
	const fine = s.token('olivia', { kind: 'fine-grained', permissions: { git_ssh_keys: 'read' } });
	assert.is((await s.get('/user/keys', fine)).status, 200);
	assert.is((await s.request('POST', '/user/keys', { token: fine, body: { key: sshKey().line } })).status, 403);
});

test('invalid and duplicate keys: GitHub’s 422 answers; the same key may be a signing key too', async () => {
	for (const bad of ['not a key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== x', 'ssh-dss AAAAB3NzaC1kc3MAAACBAP']) {
		const res = await s.request('POST', '/user/keys', { token: olivia, body: { title: 'x', key: bad } });
		assert.is(res.status, 422, bad);
		assert.equal(res.body.errors, [
			{
				resource: 'PublicKey',
				code: 'custom',
				field: 'key',
				message: 'key is invalid. You must supply a key in OpenSSH public key format',
			},
		]);
	}
	const key = sshKey();
	assert.is((await s.request('POST', '/user/keys', { token: olivia, body: { key: key.line } })).status, 201);
	for (const [token, path] of [
		[olivia, '/user/keys'],
		[mike, '/user/keys'],
		[olivia, '/repos/olivia/signed/keys'],
	]) {
		const again = await s.request('POST', path, { token, body: { key: key.line } });
		assert.is(again.status, 422, path);
		assert.is(again.body.errors[0].message, 'key is already in use');
	}
	const signing = await s.request('POST', '/user/ssh_signing_keys', { token: olivia, body: { title: 'Signing', key: key.line } });
	assert.is(signing.status, 201, signing.text);
	assert.equal(Object.keys(signing.body).sort(), ['created_at', 'id', 'key', 'title']);
	assert.is((await s.request('POST', '/user/ssh_signing_keys', { token: mike, body: { key: key.line } })).status, 422);
	assert.is((await s.get('/users/olivia/ssh_signing_keys')).body.length, 1);
	assert.is((await s.get(`/user/ssh_signing_keys/${signing.body.id}`, olivia)).body.title, 'Signing');
	assert.is((await s.request('DELETE', `/user/ssh_signing_keys/${signing.body.id}`, { token: olivia })).status, 204);
});

test('GPG keys: key id, subkeys, capabilities, emails (verified when the account’s); one registration; public at /{login}.gpg', async () => {
	const { publicKey, privateKey } = await gpgKey('olivia@example.com');
	const added = await s.request('POST', '/user/gpg_keys', { token: olivia, body: { name: 'Laptop', armored_public_key: publicKey } });
	assert.is(added.status, 201, added.text);
	const expected = (await openpgp.readKey({ armoredKey: publicKey })).getKeyID().toHex().toUpperCase();
	assert.is(added.body.key_id, expected);
	assert.is(added.body.name, 'Laptop');
	assert.is(added.body.primary_key_id, null);
	assert.equal(added.body.emails, [{ email: 'olivia@example.com', verified: true }]);
	assert.is(added.body.can_sign, true);
	assert.is(added.body.can_certify, true);
	assert.is(added.body.can_encrypt_comms, false);
	assert.is(added.body.subkeys.length, 1);
	assert.is(added.body.subkeys[0].primary_key_id, added.body.id);
	assert.is(added.body.subkeys[0].can_encrypt_comms, true);
	assert.is(added.body.subkeys[0].can_sign, false);
	assert.is(added.body.raw_key, publicKey);
	assert.is(Buffer.from(added.body.public_key, 'base64')[0], 0xc6, 'the public-key packet, with its header');
	const again = await s.request('POST', '/user/gpg_keys', { token: mike, body: { armored_public_key: publicKey } });
	assert.is(again.status, 422);
	for (const bad of ['garbage', privateKey]) {
		const res = await s.request('POST', '/user/gpg_keys', { token: olivia, body: { armored_public_key: bad } });
		assert.is(res.status, 422, res.text);
		assert.is(res.body.errors[0].field, 'armored_public_key');
	}
	const other = await gpgKey('someone@elsewhere.test');
	const unverified = await s.request('POST', '/user/gpg_keys', { token: mike, body: { armored_public_key: other.publicKey } });
	assert.equal(unverified.body.emails, [{ email: 'someone@elsewhere.test', verified: false }]);
	assert.is((await s.get('/users/olivia/gpg_keys')).body[0].key_id, expected);
	assert.is((await s.get(`/user/gpg_keys/${added.body.id}`, mike)).status, 404);
	assert.is(await (await fetch(`${s.origin}/olivia.gpg`)).text(), publicKey.endsWith('\n') ? publicKey : `${publicKey}\n`);
	assert.is((await s.request('DELETE', `/user/gpg_keys/${unverified.body.id}`, { token: mike })).status, 204);
	assert.is((await s.get('/users/mike/gpg_keys')).body.length, 0);
});

test('deploy keys: read-only by default, listed with who added them, deleted; administrators only; the deploy_key event', async () => {
	await s.request('POST', '/repos/acme/app/hooks', {
		token: olivia,
		body: { name: 'web', config: { url: 'https://hooks.example.com/x', content_type: 'json' }, events: ['deploy_key'] },
	});
	const key = sshKey('ci');
	const added = await s.request('POST', '/repos/acme/app/keys', { token: olivia, body: { title: 'CI', key: key.line } });
	assert.is(added.status, 201, added.text);
	assert.is(added.body.read_only, true);
	assert.is(added.body.added_by, 'olivia');
	assert.is(added.body.url, `${s.api}/repos/acme/app/keys/${added.body.id}`);
	const writable = await s.request('POST', '/repos/acme/app/keys', { token: olivia, body: { key: sshKey().line, read_only: false } });
	assert.is(writable.body.read_only, false);
	assert.is((await s.get('/repos/acme/app/keys', olivia)).body.length, 2);
	assert.is((await s.get('/repos/acme/app/keys', mike)).status, 403, 'a member without admin');
	assert.is((await s.request('DELETE', `/repos/acme/app/keys/${writable.body.id}`, { token: olivia })).status, 204);
	assert.is((await s.get(`/repos/acme/app/keys/${writable.body.id}`, olivia)).status, 404);
	const events = s.app.stores.webhooks
		.recent(null, 10)
		.filter((d) => d.event === 'deploy_key')
		.reverse();
	assert.equal(
		events.map((d) => d.action),
		['created', 'created', 'deleted'],
	);
	const payload = JSON.parse(events[0].payload);
	assert.is(payload.key.title, 'CI');
	assert.is(payload.repository.full_name, 'acme/app');
	assert.is(payload.sender.login, 'olivia');
	// An organization that disables deploy keys refuses new ones.
	s.app.db.prepare("UPDATE accounts SET deploy_keys_enabled_for_repositories = 0 WHERE login = 'acme'").run();
	s.app.stores.accounts.forget();
	assert.is((await s.request('POST', '/repos/acme/app/keys', { token: olivia, body: { key: sshKey().line } })).status, 422);
	s.app.db.prepare("UPDATE accounts SET deploy_keys_enabled_for_repositories = 1 WHERE login = 'acme'").run();
	s.app.stores.accounts.forget();
});

test('verification of OpenPGP signatures: valid, unknown_key, invalid, bad_email, unverified_email, no_user, unsigned, malformed_signature', async () => {
	const registered = await gpgKey('olivia@example.com');
	await s.request('POST', '/user/gpg_keys', { token: olivia, body: { armored_public_key: registered.publicKey } });

	const good = await signedCommit(
		'Signed',
		'olivia@example.com',
		await pgpSign(payloadOf('Signed', 'olivia@example.com'), registered.privateKey),
	);
	assert.is(good.verification.verified, true, JSON.stringify(good.verification));
	assert.is(good.verification.reason, 'valid');
	assert.is(good.verification.payload, payloadOf('Signed', 'olivia@example.com'));
	assert.type(good.verification.verified_at, 'string');
	const read = await s.get(`/repos/olivia/signed/commits/${good.sha}`, olivia);
	assert.is(read.body.commit.verification.reason, 'valid', 'the commits API reads the same');
	assert.is((await s.get(`/repos/olivia/signed/git/commits/${good.sha}`, olivia)).body.verification.verified, true);

	const stranger = await gpgKey('olivia@example.com');
	const unknown = await signedCommit(
		'Unknown',
		'olivia@example.com',
		await pgpSign(payloadOf('Unknown', 'olivia@example.com'), stranger.privateKey),
	);
	assert.is(unknown.verification.reason, 'unknown_key');

	const tampered = await signedCommit(
		'Tampered',
		'olivia@example.com',
		await pgpSign(payloadOf('Original', 'olivia@example.com'), registered.privateKey),
	);
	assert.is(tampered.verification.reason, 'invalid');

	const mikes = await signedCommit(
		'As mike',
		'mike@example.com',
		await pgpSign(payloadOf('As mike', 'mike@example.com'), registered.privateKey),
	);
	assert.is(mikes.verification.reason, 'bad_email', "another user's email");

	const multi = await openpgp.generateKey({
		type: 'ecc',
		curve: 'curve25519Legacy',
		userIDs: [{ email: 'olivia@example.com' }, { email: 'olivia@old-job.test' }],
		format: 'armored',
	});
	await s.request('POST', '/user/gpg_keys', { token: olivia, body: { armored_public_key: multi.publicKey } });
	const oldJob = await signedCommit(
		'Old job',
		'olivia@old-job.test',
		await pgpSign(payloadOf('Old job', 'olivia@old-job.test'), multi.privateKey),
	);
	assert.is(oldJob.verification.reason, 'unverified_email', 'the key names the email; no account has it verified');
	const nobody = await signedCommit(
		'Nobody',
		'nobody@nowhere.test',
		await pgpSign(payloadOf('Nobody', 'nobody@nowhere.test'), multi.privateKey),
	);
	assert.is(nobody.verification.reason, 'no_user');

	const unsigned = await s.request('POST', '/repos/olivia/signed/git/commits', {
		token: olivia,
		body: { message: 'Plain', tree, parents: [] },
	});
	assert.equal(unsigned.body.verification, { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null });
	const malformed = await signedCommit(
		'Broken',
		'olivia@example.com',
		'-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n',
	);
	assert.is(malformed.verification.reason, 'malformed_signature');
	const x509 = await signedCommit('X509', 'olivia@example.com', '-----BEGIN SIGNED MESSAGE-----\nMIIB\n-----END SIGNED MESSAGE-----\n');
	assert.is(x509.verification.reason, 'unknown_signature_type');
});

test('a key without the sign flag (not_signing_key) and an expired key (expired_key)', async () => {
	const expiring = await gpgKey('olivia@example.com', { keyExpirationTime: 3600, date: new Date(Date.parse(AUTHOR_DATE) - 7200_000) });
	await s.request('POST', '/user/gpg_keys', { token: olivia, body: { armored_public_key: expiring.publicKey } });
	const old = await signedCommit(
		'Late',
		'olivia@example.com',
		await pgpSign(payloadOf('Late', 'olivia@example.com'), expiring.privateKey, new Date(Date.parse(AUTHOR_DATE) - 5400_000)),
	);
	assert.is(old.verification.reason, 'expired_key', 'signed while the key was valid, by a commit dated after it expired');
	// A key whose subkey signs but is flagged for encryption only: the library refuses to sign with
	// it, so the case is made by registering the key with its signing capability cleared.
	const plain = await gpgKey('olivia@example.com');
	const added = await s.request('POST', '/user/gpg_keys', { token: olivia, body: { armored_public_key: plain.publicKey } });
	s.app.db.prepare('UPDATE gpg_keys SET can_sign = 0 WHERE id = ?').run(added.body.id);
	const notSigning = await signedCommit(
		'Flags',
		'olivia@example.com',
		await pgpSign(payloadOf('Flags', 'olivia@example.com'), plain.privateKey),
	);
	assert.is(notSigning.verification.reason, 'not_signing_key');
});

test('a key registered after the commit: gpgverify_unavailable on the first read, then valid once the check has run', async () => {
	const later = await gpgKey('olivia@example.com');
	const before = await signedCommit(
		'Before the key',
		'olivia@example.com',
		await pgpSign(payloadOf('Before the key', 'olivia@example.com'), later.privateKey),
	);
	assert.is(before.verification.reason, 'unknown_key');
	await s.request('POST', '/user/gpg_keys', { token: olivia, body: { armored_public_key: later.publicKey } });
	const first = await s.get(`/repos/olivia/signed/git/commits/${before.sha}`, olivia);
	assert.is(first.body.verification.reason, 'gpgverify_unavailable');
	let reason = '';
	for (let i = 0; i < 50 && reason !== 'valid'; i++) {
		await new Promise((resolve) => setTimeout(resolve, 20));
		reason = (await s.get(`/repos/olivia/signed/git/commits/${before.sha}`, olivia)).body.verification.reason;
	}
	assert.is(reason, 'valid');
});

test('SSH signatures (git’s gpg.format=ssh): a registered signing key is valid, an authentication key alone is unknown_key', async () => {
	if (!has('ssh-keygen')) {
		console.log('test/keys.test.ts: SSH signatures skipped — ssh-keygen is not installed');
		return;
	}
	const keyFile = join(dir, 'id_signing');
	execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'olivia', '-f', keyFile]);
	const sign = (payload: string) => {
		writeFileSync(join(dir, 'payload'), payload);
		execFileSync('ssh-keygen', ['-Y', 'sign', '-f', keyFile, '-n', 'git', join(dir, 'payload')], { stdio: 'ignore' });
		const signature = execFileSync('cat', [join(dir, 'payload.sig')], { encoding: 'utf8' });
		rmSync(join(dir, 'payload.sig'));
		return signature;
	};
	const publicKey = execFileSync('cat', [`${keyFile}.pub`], { encoding: 'utf8' });
	await s.request('POST', '/user/keys', { token: olivia, body: { key: publicKey } });
	const asAuthentication = await signedCommit('SSH one', 'olivia@example.com', sign(payloadOf('SSH one', 'olivia@example.com')));
	assert.is(asAuthentication.verification.reason, 'unknown_key');
	await s.request('POST', '/user/ssh_signing_keys', { token: olivia, body: { key: publicKey } });
	const signed = await signedCommit('SSH two', 'olivia@example.com', sign(payloadOf('SSH two', 'olivia@example.com')));
	assert.is(signed.verification.reason, 'valid', JSON.stringify(signed.verification));
	assert.is(signed.verification.verified, true);
	const wrongEmail = await signedCommit('SSH three', 'mike@example.com', sign(payloadOf('SSH three', 'mike@example.com')));
	assert.is(wrongEmail.verification.reason, 'bad_email');
	const tampered = await signedCommit('SSH four', 'olivia@example.com', sign(payloadOf('SSH five', 'olivia@example.com')));
	assert.is(tampered.verification.reason, 'invalid');
});

test('real git: commits signed by `git commit -S` with gpg and with ssh keep their sha through the API and verify', async () => {
	if (!has('git') || !has('gpg') || !has('ssh-keygen')) {
		console.log('test/keys.test.ts: real git signing skipped — git, gpg or ssh-keygen is not installed');
		return;
	}
	const home = join(dir, 'gnupg');
	execFileSync('mkdir', ['-m', '700', '-p', home]);
	const env = { ...process.env, GNUPGHOME: home, TZ: 'UTC', GIT_AUTHOR_DATE: AUTHOR_DATE, GIT_COMMITTER_DATE: AUTHOR_DATE };
	execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', 'Olivia <olivia@example.com>', 'ed25519', 'sign', 'never'], {
		env,
		stdio: 'ignore',
	});
	const armored = execFileSync('gpg', ['--armor', '--export', 'olivia@example.com'], { env, encoding: 'utf8' });
	const res = await s.request('POST', '/user/gpg_keys', { token: olivia, body: { armored_public_key: armored } });
	assert.is(res.status, 201, res.text);
	const repo = join(dir, 'repo');
	const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { env, encoding: 'utf8' });
	execFileSync('git', ['init', '-q', repo], { env });
	writeFileSync(join(repo, 'README'), 'hello\n');
	git('config', 'user.name', 'Olivia');
	git('config', 'user.email', 'olivia@example.com');
	git('config', 'user.signingkey', res.body.key_id);
	git('add', 'README');
	git('commit', '-q', '-S', '-m', 'Signed by gpg');
	const ssh = join(dir, 'id_git');
	execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'olivia', '-f', ssh]);
	await s.request('POST', '/user/ssh_signing_keys', {
		token: olivia,
		body: { key: execFileSync('cat', [`${ssh}.pub`], { encoding: 'utf8' }) },
	});
	git('config', 'gpg.format', 'ssh');
	git('config', 'user.signingkey', `${ssh}.pub`);
	git('commit', '-q', '--allow-empty', '-S', '-m', 'Signed by ssh');
	for (const ref of ['HEAD~1', 'HEAD']) {
		const local = git('rev-parse', ref).trim();
		const text = git('cat-file', 'commit', ref);
		const signature = /\ngpgsig ([\s\S]*?\n)(?! )/.exec(text)![1].replace(/\n /g, '\n');
		const message = text.slice(text.indexOf('\n\n') + 2);
		const parents = [...text.matchAll(/^parent (\w+)$/gm)].map((m) => m[1]);
		const person = { name: 'Olivia', email: 'olivia@example.com', date: AUTHOR_DATE };
		const made = await s.request('POST', '/repos/olivia/signed/git/commits', {
			token: olivia,
			body: { message, tree, parents, author: person, committer: person, signature },
		});
		assert.is(made.status, 201, made.text);
		assert.is(made.body.sha, local, `${ref}: the same object as git's`);
		assert.is(made.body.verification.reason, 'valid', `${ref}: ${JSON.stringify(made.body.verification)}`);
	}
});

test('signed tags: the signature closing the message is verified with the tagger’s keys', async () => {
	const { publicKey, privateKey } = await gpgKey('olivia@example.com');
	await s.request('POST', '/user/gpg_keys', { token: olivia, body: { armored_public_key: publicKey } });
	const commit = (
		await s.request('POST', '/repos/olivia/signed/git/commits', { token: olivia, body: { message: 'Tagged', tree, parents: [] } })
	).body.sha;
	await s.request('POST', '/repos/olivia/signed/git/refs', { token: olivia, body: { ref: 'refs/heads/main', sha: commit } });
	const tagger = `Olivia <olivia@example.com> ${SECONDS} +0000`;
	const head = `object ${commit}\ntype commit\ntag v1\ntagger ${tagger}\n\nRelease one\n`;
	const signature = await pgpSign(head, privateKey);
	const res = await s.request('POST', '/repos/olivia/signed/git/tags', {
		token: olivia,
		body: {
			tag: 'v1',
			message: `Release one\n${signature}`,
			object: commit,
			type: 'commit',
			tagger: { name: 'Olivia', email: 'olivia@example.com', date: AUTHOR_DATE },
		},
	});
	assert.is(res.status, 201, res.text);
	assert.is(res.body.verification.reason, 'valid', JSON.stringify(res.body.verification));
});

test.run();
