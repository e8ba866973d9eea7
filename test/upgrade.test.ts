/**
 * Upgrades in place (README, Storage and durability): a database written by schema version 20
 * (test/fixtures/gitstead-v20.db, its blobs and its sidecar, made by make-upgrade-fixture.ts) is
 * served by this build — upgraded through every step added since — and every object, asset and
 * token it held answers as it did; a copy of the database is taken before any step runs, and an
 * upgrade whose copy fails is refused.
 */
import { createHash, createSign } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { backupBeforeUpgrade, migrate } from '../src/db/migrate';
import { SCHEMA_VERSION } from '../src/db/migrations';
import { openDatabase } from '../src/db/open';
import { renderBody } from '../src/model/markdown/render';
import { hashObject } from '../src/api/git/objects';
import { createGitStore } from '../src/api/git/store';
import type { UpgradeFixture } from './fixtures/make-upgrade-fixture';
import { bundleCommand, run, serve, type Served } from './helpers/cli';

const test = suite('upgrade');
const FIXTURES = join(__dirname, 'fixtures');
const fixture = JSON.parse(readFileSync(join(FIXTURES, 'gitstead-v20.json'), 'utf8')) as UpgradeFixture;
const gitstead = bundleCommand();

let work: string;
let dataDir: string;
let server: Served;

/** Copies the fixture into a fresh data folder. */
function copyFixture(folder: string): void {
	cpSync(join(FIXTURES, 'gitstead-v20.db'), join(folder, 'gitstead.db'));
	cpSync(join(FIXTURES, 'gitstead-v20-blobs'), join(folder, 'blobs'), { recursive: true });
}

async function request(method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) {
	const res = await fetch(`${server.address}/api/v3${path}`, {
		method,
		headers: {
			...(token ? { Authorization: `Bearer ${token}` } : {}),
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
			...headers,
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return res;
}

/** Signed download URLs carry a time-limited signature: compared without it. */
const unsigned = (text: string) => text.replace(/([?&]token=)[\w.]+/g, '$1{signature}');

/**
 * Fields that may differ between two reads of the same unchanged object: mergeability is computed
 * in the background, and a hook's last_response moves as the server started on the fixture delivers
 * what the fixture left queued (its receiver does not exist, so the attempt fails).
 */
const VOLATILE = new Set(['mergeable', 'mergeable_state', 'rebaseable', 'last_response']);

/**
 * Every field of `expected` is in `actual` with the same value (objects compared field by field,
 * arrays item by item); fields added by later schema versions are allowed. Returns the differences.
 */
function missing(expected: unknown, actual: unknown, at = ''): string[] {
	if (expected === null || typeof expected !== 'object')
		return Object.is(expected, actual) ? [] : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
	if (Array.isArray(expected)) {
		if (!Array.isArray(actual) || actual.length !== expected.length)
			return [`${at}: expected ${expected.length} items, got ${Array.isArray(actual) ? actual.length : typeof actual}`];
		return expected.flatMap((item, i) => missing(item, actual[i], `${at}[${i}]`));
	}
	if (actual === null || typeof actual !== 'object') return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
	return Object.entries(expected as Record<string, unknown>).flatMap(([key, value]) =>
		VOLATILE.has(key) ? [] : missing(value, (actual as Record<string, unknown>)[key], `${at}.${key}`),
	);
}

function jwt(appId: number, key: string): string {
	const now = Math.floor(Date.now() / 1000);
	const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const body = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: now - 60, exp: now + 540, iss: appId })}`;
	return `${body}.${createSign('RSA-SHA256').update(body).sign(key).toString('base64url')}`;
}

test.before(async () => {
	work = mkdtempSync(join(tmpdir(), 'gitstead-upgrade-'));
	dataDir = join(work, 'data');
	copyFixture(dataDir);
	server = await serve(gitstead, ['--data-dir', dataDir]);
});

test.after(async () => {
	await server?.stop();
	rmSync(work, { recursive: true, force: true });
});

test('the server starts on the old database and upgrades it; a copy is taken when (and only when) a step ran', () => {
	const db = new Database(join(dataDir, 'gitstead.db'), { readonly: true });
	assert.is(db.pragma('user_version', { simple: true }), SCHEMA_VERSION, '~> the database is at this build schema version');
	db.close();
	const backups = join(dataDir, 'backups');
	if (fixture.schema_version < SCHEMA_VERSION) {
		const copies = readdirSync(backups).filter(
			(name) => name.startsWith(`gitstead-v${fixture.schema_version}-`) && name.endsWith('.db'),
		);
		assert.is(copies.length, 1, '~> one copy of the database was taken before the upgrade');
		const copy = new Database(join(backups, copies[0]), { readonly: true });
		assert.is(copy.pragma('user_version', { simple: true }), fixture.schema_version, '~> the copy is the database before its upgrade');
		copy.close();
		assert.match(server.stderr(), /copied the database before upgrading/, '~> the log says where the copy went');
	} else {
		assert.not.ok(existsSync(backups), '~> no copy is taken when no step runs');
	}
});

test('every object reads back with every field it had', async () => {
	for (const object of fixture.objects) {
		const res = await request('GET', object.path, fixture.readers[object.token]);
		assert.is(res.status, 200, `~> GET ${object.path} answers 200`);
		const body = JSON.parse(unsigned((await res.text()).split(new URL(server.address).host).join('{host}')));
		assert.equal(missing(JSON.parse(unsigned(JSON.stringify(object.body))), body), [], `~> GET ${object.path} answers the same fields`);
	}
});

test('every git object keeps its id and content, every reference its target, in the network store', () => {
	const before = new Database(join(FIXTURES, 'gitstead-v20.db'), { readonly: true });
	const objects = before.prepare('SELECT repo_id, sha, type, content FROM git_objects ORDER BY id').all() as Array<{
		repo_id: number;
		sha: string;
		type: string;
		content: Buffer;
	}>;
	const refs = before.prepare('SELECT repo_id, name, sha FROM git_refs ORDER BY repo_id, name').all();
	before.close();
	assert.ok(objects.length > 0, '~> the fixture has git objects');
	const after = openDatabase(join(dataDir, 'gitstead.db'));
	try {
		const git = createGitStore(after);
		for (const object of objects) {
			const read = git.object(object.repo_id, object.sha);
			assert.ok(read, `~> ${object.type} ${object.sha} of repository ${object.repo_id} is there`);
			assert.is(read!.type, object.type);
			assert.ok(read!.content.equals(object.content), `~> ${object.sha} reads back byte for byte`);
			assert.is(hashObject(read!.type, read!.content), object.sha);
		}
		assert.equal(after.prepare('SELECT repo_id, name, sha FROM git_refs ORDER BY repo_id, name').all(), refs, '~> every reference');
	} finally {
		after.close();
	}
});

test('release assets download with their bytes', async () => {
	for (const asset of fixture.assets) {
		const res = await request('GET', asset.path, fixture.readers[asset.token], undefined, { Accept: 'application/octet-stream' });
		assert.is(res.status, 200, `~> ${asset.path} downloads`);
		const bytes = Buffer.from(await res.arrayBuffer());
		assert.is(bytes.length, asset.size, '~> of its size');
		assert.is(createHash('sha256').update(bytes).digest('hex'), asset.sha256, '~> with its bytes');
	}
});

test('every token authenticates as its user with its scopes or permissions', async () => {
	for (const token of fixture.tokens) {
		if (token.expires_at) continue;
		if (token.login) {
			const user = await request('GET', '/user', token.token);
			if (token.name.includes('revoked')) {
				assert.is(user.status, 401, `~> the revoked token ${token.name} stays refused`);
				continue;
			}
			assert.is(user.status, 200, `~> ${token.name} authenticates`);
			assert.is(((await user.json()) as { login: string }).login, token.login, `~> ${token.name} acts as ${token.login}`);
			if (token.scopes) assert.is(user.headers.get('x-oauth-scopes'), token.scopes.join(', '), `~> ${token.name} keeps its scopes`);
		}
		for (const probe of token.probes) {
			const res = await request(probe.method, probe.path, token.token, probe.body);
			assert.is(res.status, probe.status, `~> ${token.name}: ${probe.method} ${probe.path} answers ${probe.status} as before`);
		}
	}
});

test('an installation token expires as it did; the app mints a new one with the same reach', async () => {
	const expired = fixture.tokens.find((token) => token.kind === 'installation')!;
	// (Right after the fixture is regenerated, the hour has not passed yet.)
	const status = Date.parse(expired.expires_at!) <= Date.now() ? 401 : 200;
	assert.is(
		(await request('GET', '/repos/acme/widget', expired.token)).status,
		status,
		'~> the hour-long installation token expires as it did',
	);
	const minted = await request(
		'POST',
		`/app/installations/${fixture.app.installation_id}/access_tokens`,
		jwt(fixture.app.id, fixture.app.private_key),
		{
			permissions: expired.permissions,
		},
	);
	assert.is(minted.status, 201, '~> the app (its key, its installation) survived and mints a token');
	const fresh = ((await minted.json()) as { token: string }).token;
	for (const probe of expired.probes) {
		const res = await request(probe.method, probe.path, fresh, probe.body);
		assert.is(res.status, probe.status, `~> the new installation token: ${probe.method} ${probe.path} answers ${probe.status}`);
	}
});

test('the upgraded folder passes gitstead admin check', async () => {
	await server.stop();
	const result = run(gitstead, ['admin', 'check', '--json', '--data-dir', dataDir]);
	const report = JSON.parse(result.stdout) as { ok: boolean; findings: { severity: string; message: string }[] };
	assert.equal(
		report.findings.filter((finding) => finding.severity === 'error'),
		[],
		'~> no errors',
	);
	assert.is(result.code, 0, '~> exit code 0');
});

test('backupBeforeUpgrade: a copy before steps run, none otherwise; a failed copy refuses the upgrade', () => {
	const folder = mkdtempSync(join(work, 'steps-'));
	copyFixture(folder);
	const db = openDatabase(join(folder, 'gitstead.db'));
	const from = db.pragma('user_version', { simple: true }) as number;
	assert.is(backupBeforeUpgrade(db, join(folder, 'backups'), from), null, '~> no copy when no step will run');
	assert.not.ok(existsSync(join(folder, 'backups')), '~> nor its folder');
	const copy = backupBeforeUpgrade(db, join(folder, 'backups'), from + 1, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
	assert.is(copy, join(folder, 'backups', `gitstead-v${from}-20260102T030405Z.db`), '~> the copy is named by the version and the time');
	const copied = new Database(copy!, { readonly: true });
	assert.is(copied.pragma('user_version', { simple: true }), from, '~> holding the database before its upgrade');
	assert.is(copied.pragma('integrity_check', { simple: true }), 'ok', '~> intact');
	copied.close();

	// The copy's folder cannot be made (a file is in the way): the upgrade is refused, nothing changed.
	writeFileSync(join(folder, 'blocked'), '');
	assert.throws(
		() => backupBeforeUpgrade(db, join(folder, 'blocked', 'backups'), from + 1),
		/cannot back up the database .* the upgrade was not started/,
	);
	assert.is(db.pragma('user_version', { simple: true }), from, '~> the database is unchanged');
	// And the steps themselves still run after a successful copy.
	const step = { version: from + 1, description: 'a probe table', up: (d: typeof db) => d.exec('CREATE TABLE upgrade_probe (x)') };
	assert.equal(migrate(db, { renderBody }, [step], from + 1), { from, to: from + 1, created: false }, '~> the step runs');
	db.close();
});

test.run();
