/**
 * The command line (issue: "a contract: scripts depend on these names"): serve's first start,
 * every admin command with --json and readable output, errors as one line and a non-zero exit,
 * environment variables, config files, and admin commands while the server runs.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN_COMMANDS } from '../src/cli/admin';
import { COMMAND_HELP, describedFlags } from '../src/cli/help';
import { SCHEMA_VERSION } from '../src/db/migrations';
import { buildRoutes } from '../src/server';
import { BUNDLE, bundleCommand, run, serve, waitFor, type Served } from './helpers/cli';

const test = suite('cli');
const gitstead = bundleCommand();
let dir: string;
let served: Served | undefined;

const admin = (...args: string[]) => run(gitstead, ['admin', ...args, '--data-dir', join(dir, 'data')]);
const json = (...args: string[]) => {
	const result = admin(...args, '--json');
	assert.is(result.code, 0, `~> ${args.join(' ')}: ${result.stderr}`);
	return JSON.parse(result.stdout);
};

test.before(() => {
	dir = mkdtempSync(join(tmpdir(), 'gitstead-cli-'));
});
test.after(async () => {
	await served?.stop();
	rmSync(dir, { recursive: true, force: true });
});

test("the bundle's module wrappers all name their method init (one map transition, not one per module)", () => {
	const text = readFileSync(BUNDLE, 'latin1');
	const wrappers = text.match(/= __(esm|commonJS)\(\{\n\s*init\(/g) ?? [];
	assert.ok(wrappers.length > 0, `~> ${wrappers.length} wrappers named init`);
	assert.not.ok(/= __(esm|commonJS)\(\{\n\s*"/.test(text), '~> none named by its path');
});

test('version and help never open the database', () => {
	const version = run(gitstead, ['version'], { cwd: dir });
	assert.is(version.code, 0);
	assert.match(version.stdout, /^gitstead \d+\.\d+\.\d+\n$/);
	const help = run(gitstead, ['--help'], { cwd: dir });
	assert.is(help.code, 0);
	assert.match(help.stdout, 'gitstead serve');
	const adminHelp = run(gitstead, ['admin', '--help'], { cwd: dir });
	assert.match(adminHelp.stdout, 'create-token LOGIN');
	assert.not.ok(existsSync(join(dir, 'data')), '~> no data folder created');
});

test('admin init creates the data folder and database; again, it says so and changes nothing', () => {
	const data = join(dir, 'fresh', 'data');
	const first = run(gitstead, ['admin', 'init', '--data-dir', data]);
	assert.is(first.code, 0, first.stderr);
	assert.is(
		first.stdout,
		`created the data folder ${data} and the database ${join(data, 'gitstead.db')} (schema version ${SCHEMA_VERSION})\n`,
	);
	assert.ok(existsSync(join(data, 'gitstead.db')));
	const again = run(gitstead, ['admin', 'init', '--data-dir', data, '--json']);
	assert.is(again.code, 0, again.stderr);
	assert.equal(JSON.parse(again.stdout), {
		data_dir: data,
		database: join(data, 'gitstead.db'),
		created: false,
		created_folder: false,
		schema_version: SCHEMA_VERSION,
		upgraded_from: null,
	});
	assert.match(
		run(gitstead, ['admin', 'init', '--data-dir', data]).stdout,
		new RegExp(`already exists \\(schema version ${SCHEMA_VERSION}\\); nothing to do`),
	);
	const user = run(gitstead, ['admin', 'create-user', 'initial', '--data-dir', data]);
	assert.is(user.code, 0, `~> admin commands work on it: ${user.stderr}`);
	assert.match(run(gitstead, ['admin', '--help']).stdout, /^ {2}init {2,}create the data folder and its database/m);
});

test('admin commands refuse a missing data folder or database and create nothing', () => {
	const missing = join(dir, 'missing');
	for (const args of [['create-user', 'ghost'], ['list-tokens'], ['migrate']]) {
		const result = run(gitstead, ['admin', ...args, '--data-dir', missing]);
		assert.is(result.code, 1, `~> ${args[0]} exits 1`);
		assert.is(
			result.stderr,
			`gitstead: error: the data folder ${missing} does not exist (create it with: gitstead admin init, or start gitstead serve)\n`,
		);
		assert.not.ok(existsSync(missing), `~> ${args[0]} created nothing`);
	}
	const empty = join(dir, 'empty');
	mkdirSync(empty);
	const result = run(gitstead, ['admin', 'create-user', 'ghost'], { env: { GITSTEAD_DATA_DIR: empty } });
	assert.is(result.code, 1);
	assert.match(result.stderr, /^gitstead: error: the data folder \S+empty has no gitstead\.db \(create it with: gitstead admin init/);
	assert.equal(readdirSync(empty), [], '~> no database was created');
});

test('first start creates admin and prints its token once; the token works', async () => {
	served = await serve(gitstead, ['--data-dir', join(dir, 'data')]);
	await waitFor(() => served!.stdout().includes('Try it'));
	const token = /(ghp_[A-Za-z0-9]{36})/.exec(served.stdout())?.[1];
	assert.ok(token, '~> a classic token is printed');
	assert.match(served.stdout(), `curl -H "Authorization: Bearer ${token}" ${served.address}/api/v3/user`);
	const me = await fetch(`${served.address}/api/v3/user`, { headers: { Authorization: `Bearer ${token}` } });
	const body = (await me.json()) as { login: string; site_admin: boolean };
	assert.is(body.login, 'admin');
	assert.is(body.site_admin, true);
	assert.is(await served.stop(), 0, '~> SIGTERM stops cleanly');
	served = await serve(gitstead, ['--data-dir', join(dir, 'data')]);
	assert.not.match(served.stdout(), 'ghp_', '~> the second start prints no secret');
});

test('admin commands while the server runs; the server sees them at once', async () => {
	const user = json('create-user', 'alice', '--email', 'alice@example.test', '--name', 'Alice');
	assert.equal(user, { id: user.id, login: 'alice', site_admin: false, email: 'alice@example.test', email_public: false, name: 'Alice' });
	const line = admin('create-user', 'bob', '--site-admin');
	assert.is(line.code, 0);
	assert.match(line.stdout, /^created user bob \(id \d+, site administrator\)\n$/);
	const enterprise = json('create-enterprise', 'bigco', '--owner', 'alice', '--name', 'Big Co');
	assert.is(enterprise.slug, 'bigco');
	const org = json('create-org', 'acme', '--owner', 'alice', '--enterprise', 'bigco');
	assert.equal([org.login, org.owner, org.enterprise], ['acme', 'alice', 'bigco']);
	const member = json('add-member', 'acme', 'bob', '--role', 'admin');
	assert.equal(member, { organization: 'acme', login: 'bob', role: 'admin', state: 'active' });
	const token = json('create-token', 'alice', '--scopes', 'read:org,repo', '--expires-in', '30');
	assert.equal(Object.keys(token), ['id', 'token', 'kind', 'login', 'scopes', 'permissions', 'org', 'expires_at']);
	assert.is(token.kind, 'classic');
	assert.equal(token.scopes, ['read:org', 'repo']);
	const res = await fetch(`${served!.address}/api/v3/orgs/acme/members`, { headers: { Authorization: `token ${token.token}` } });
	assert.is(res.status, 200);
	assert.equal(((await res.json()) as any[]).map((m) => m.login).sort(), ['alice', 'bob']);
	assert.is(res.headers.get('x-oauth-scopes'), 'read:org, repo');
});

test('create-app and install-app; a private key shown once', () => {
	const app = json('create-app', 'Deployer', '--owner', 'acme', '--permissions', 'members:write,contents:read');
	assert.is(app.slug, 'deployer');
	assert.is(app.bot, 'deployer[bot]');
	assert.match(app.private_key, /^-----BEGIN RSA PRIVATE KEY-----/);
	assert.equal(app.permissions, { metadata: 'read', members: 'write', contents: 'read' });
	const installed = json('install-app', 'deployer', 'acme', '--permissions', 'members:read');
	assert.is(installed.account, 'acme');
	assert.equal(installed.permissions, { metadata: 'read', members: 'read' });
	const tooMuch = admin('install-app', 'deployer', 'acme', '--permissions', 'administration:write');
	assert.is(tooMuch.code, 1);
	assert.match(tooMuch.stderr, /does not ask for administration:write/);
	const keyFile = join(dir, 'other.pem');
	const line = admin('create-app', 'Other App', '--owner', 'alice', '--private-key-file', keyFile);
	assert.match(line.stdout, /^created app other-app \(id \d+, client ID Iv1\.[0-9a-f]{16}\); its private key is in /);
	assert.ok(existsSync(keyFile));
	// A webhook: its secret from a file; a loopback URL refused unless webhooks.allowed_hosts lists it.
	const secretFile = join(dir, 'hook-secret.txt');
	writeFileSync(secretFile, 'shh\n');
	const hooked = json(
		'create-app',
		'Hooked App',
		'--owner',
		'alice',
		'--webhook-url',
		'https://bot.example.com/hooks',
		'--webhook-secret-file',
		secretFile,
	);
	assert.equal(hooked.webhook, { url: 'https://bot.example.com/hooks', content_type: 'json', secret: '********', active: true });
	const refused = admin('create-app', 'Loopback App', '--owner', 'alice', '--webhook-url', 'http://127.0.0.1:9/hooks');
	assert.is(refused.code, 1);
	assert.match(refused.stderr, 'webhooks.allowed_hosts');
	assert.is(admin('create-app', 'Loose App', '--owner', 'alice', '--webhook-secret', 'x').code, 1, '~> --webhook-* need --webhook-url');
});

test('create-token – every kind', async () => {
	const fine = json('create-token', 'alice', '--kind', 'fine-grained', '--org', 'acme', '--permissions', 'members:read');
	assert.match(fine.token, /^github_pat_/);
	assert.equal(fine.permissions, { members: 'read' });
	// GitHub's Workflows permission (changing files under .github/workflows) is a permission like any other.
	const workflows = json('create-token', 'alice', '--kind', 'fine-grained', '--permissions', 'contents:write,workflows:write');
	assert.equal(workflows.permissions, { contents: 'write', workflows: 'write' });
	const oauth = json('create-token', 'alice', '--kind', 'oauth', '--scopes', 'admin:org');
	assert.match(oauth.token, /^gho_/);
	const uat = json('create-token', 'alice', '--kind', 'user-to-server', '--org', 'acme', '--permissions', 'members:read');
	assert.match(uat.token, /^ghu_/);
	const iat = json('create-token', 'alice', '--kind', 'installation', '--org', 'acme', '--permissions', 'members:read');
	assert.match(iat.token, /^ghs_/);
	assert.is(iat.org, 'acme');
	const minutes = (Date.parse(iat.expires_at) - Date.now()) / 60000;
	assert.ok(minutes > 58 && minutes <= 60, '~> installation tokens expire after 60 minutes');
	for (const token of [fine.token, oauth.token, uat.token, iat.token]) {
		const res = await fetch(`${served!.address}/api/v3/orgs/acme/teams`, { headers: { Authorization: `Bearer ${token}` } });
		assert.is(res.status, 200, `~> ${token.slice(0, 4)} token lists teams`);
	}
	const line = admin('create-token', 'alice');
	assert.match(line.stdout, /^ghp_[A-Za-z0-9]{36} {2}\(token \d+, classic, for alice, scopes: none, expires never\)\n$/);
});

test('list-tokens and revoke-token; a revoked token is refused by the running server', async () => {
	const token = json('create-token', 'bob', '--scopes', 'read:org');
	const listed = json('list-tokens', 'bob');
	const entry = listed.tokens.find((t: any) => t.id === token.id);
	assert.is(entry.state, 'active');
	assert.is(entry.ends_with, token.token.slice(-8));
	assert.not.ok(JSON.stringify(listed).includes(token.token), '~> secrets are never listed');
	const table = admin('list-tokens');
	assert.match(table.stdout, `${token.id}\tclassic\tbob`);
	const revoked = admin('revoke-token', String(token.id));
	assert.is(revoked.code, 0);
	assert.is(revoked.stdout, `revoked token ${token.id}\n`);
	const res = await fetch(`${served!.address}/api/v3/user`, { headers: { Authorization: `Bearer ${token.token}` } });
	assert.is(res.status, 401);
	assert.is(json('list-tokens', 'bob').tokens.find((t: any) => t.id === token.id).state, 'revoked');
});

test('suspend and site-admin: the site admin area’s rules; the running server refuses a suspended user’s token at once', async () => {
	const token = json('create-token', 'alice', '--scopes', 'repo').token;
	const user = () => fetch(`${served!.address}/api/v3/user`, { headers: { Authorization: `Bearer ${token}` } });
	assert.equal(json('suspend', 'alice', '--reason', 'audit'), { login: 'alice', suspended: true });
	assert.is((await user()).status, 403);
	assert.equal(json('suspend', 'alice', '--unsuspend'), { login: 'alice', suspended: false });
	assert.is((await user()).status, 200);
	const refused = admin('suspend', 'bob');
	assert.is(refused.code, 1);
	assert.match(refused.stderr, 'bob is a site administrator; remove the role before suspending');
	assert.equal(json('site-admin', 'alice'), { login: 'alice', site_admin: true });
	assert.is(((await (await user()).json()) as { site_admin: boolean }).site_admin, true);
	assert.is(admin('site-admin', 'alice').stdout, 'alice was already a site administrator\n');
	assert.equal(json('site-admin', 'alice', '--remove'), { login: 'alice', site_admin: false });
});

test('verify-email: an address alice added is verified for the running server; unknown ones refused', async () => {
	const token = json('create-token', 'alice', '--scopes', 'user').token;
	const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
	const added = await fetch(`${served!.address}/api/v3/user/emails`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ emails: ['alice@work.example'] }),
	});
	assert.is(added.status, 201);
	assert.equal(json('verify-email', 'alice', 'Alice@Work.example'), { login: 'alice', email: 'Alice@Work.example', verified: true });
	const listed = (await (await fetch(`${served!.address}/api/v3/user/emails`, { headers })).json()) as Array<{
		email: string;
		verified: boolean;
	}>;
	assert.is(listed.find((e) => e.email === 'alice@work.example')?.verified, true);
	const unknown = admin('verify-email', 'alice', 'nobody@example.test');
	assert.is(unknown.code, 1);
	assert.match(unknown.stderr, 'alice has no added email address nobody@example.test');
});

test('import-runs and advance-job: demo workflow data through the command line', async () => {
	const token = json('create-token', 'alice', '--scopes', 'repo');
	const created = await fetch(`${served!.address}/api/v3/orgs/acme/repos`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token.token}` },
		body: JSON.stringify({ name: 'demo' }),
	});
	assert.is(created.status, 201);
	const file = join(dir, 'runs.json');
	writeFileSync(
		file,
		JSON.stringify({
			workflows: [{ name: 'CI', path: '.github/workflows/ci.yml', jobs: [{ name: 'build' }, { name: 'test', needs: ['build'] }] }],
			runs: [
				{ path: '.github/workflows/ci.yml', actor: 'alice', branch: 'main', conclusion: 'failure' },
				{ path: '.github/workflows/ci.yml', actor: 'bob', branch: 'main', status: 'queued', conclusion: null },
			],
		}),
	);
	const imported = json('import-runs', 'acme/demo', file);
	assert.equal([imported.workflows, imported.runs, imported.jobs], [1, 2, 4]);
	const runs = await fetch(`${served!.address}/api/v3/repos/acme/demo/actions/runs?status=failure`, {
		headers: { Authorization: `Bearer ${token.token}` },
	});
	assert.is(((await runs.json()) as { total_count: number }).total_count, 1);
	const queued = imported.run_ids[1];
	const jobs = await fetch(`${served!.address}/api/v3/repos/acme/demo/actions/runs/${queued}/jobs`, {
		headers: { Authorization: `Bearer ${token.token}` },
	});
	const build = ((await jobs.json()) as { jobs: Array<{ id: number; name: string }> }).jobs.find((j) => j.name === 'build')!;
	const started = json('advance-job', 'acme/demo', String(build.id), 'in_progress');
	assert.equal([started.status, started.conclusion], ['in_progress', null]);
	const line = admin('advance-job', 'acme/demo', String(build.id), 'completed', 'success');
	assert.is(line.code, 0);
	assert.match(line.stdout, `job ${build.id} is completed (success); run ${queued} is`);
	const bad = admin('import-runs', 'acme/demo', join(dir, 'missing.json'));
	assert.is(bad.code, 1);
	assert.match(bad.stderr, /cannot read .*missing\.json: ENOENT/);
	writeFileSync(file, JSON.stringify({ runs: [{ path: '.github/workflows/ci.yml', actor: 'alice', conclusion: 'maybe' }] }));
	const invalid = admin('import-runs', 'acme/demo', file);
	assert.is(invalid.code, 1);
	assert.match(invalid.stderr, /runs\.0\.conclusion/);
	assert.match(admin('import-runs', 'acme/nope', file).stderr, /unknown repository "acme\/nope"/);
	assert.match(admin('advance-job', 'acme/demo', String(build.id), 'queued').stderr, /^gitstead: error: /);
});

test('register-runner --org: a runner of an organization, in its Default runner group', () => {
	const runner = json('register-runner', 'acme', 'org-linux-1', '--org', '--labels', 'gpu', '--status', 'online');
	assert.is(runner.org, 'acme', '~> the organization owns it');
	assert.is(runner.runner_group, 'Default', '~> in the organization’s Default group');
	const unknown = admin('register-runner', 'nobody', 'x', '--org');
	assert.is(unknown.code, 1);
	assert.match(unknown.stderr, /unknown organization "nobody"/);
	const taken = admin('register-runner', 'acme', 'org-linux-1', '--org');
	assert.is(taken.code, 1, '~> names are unique per organization');
});

test('import-advisories: GitHub advisory JSON; a bad advisory is named and nothing is written', () => {
	const file = join(dir, 'advisories.json');
	const advisory = (ghsa: string, severity: string) => ({
		ghsa_id: ghsa,
		summary: `about ${ghsa}`,
		description: 'details',
		type: 'reviewed',
		severity,
		identifiers: [{ type: 'GHSA', value: ghsa }],
		references: [],
		published_at: '2024-01-01T00:00:00Z',
		updated_at: '2024-01-01T00:00:00Z',
		withdrawn_at: null,
		vulnerabilities: [
			{ package: { ecosystem: 'npm', name: 'left-pad' }, vulnerable_version_range: '< 1.3.0', first_patched_version: '1.3.0' },
		],
	});
	writeFileSync(file, JSON.stringify([advisory('GHSA-aaaa-bbbb-cccc', 'high'), advisory('GHSA-dddd-eeee-ffff', 'low')]));
	assert.equal(json('import-advisories', file), { imported: 2, updated: 0, repositories: 0 });
	const again = admin('import-advisories', file);
	assert.is(again.stdout, 'imported 2 advisories (0 new, 2 updated); refreshed the alerts of 0 repositories\n');
	writeFileSync(file, JSON.stringify(advisory('GHSA-1111-2222-3333', 'severe')));
	const bad = admin('import-advisories', file);
	assert.is(bad.code, 1);
	assert.match(
		bad.stderr,
		/^gitstead: error: advisories\[0\] \(GHSA-1111-2222-3333\): severity: must be low, medium, high, critical or unknown\n$/,
	);
});

test('errors – one clear line on stderr and a non-zero exit', () => {
	const cases: Array<[string[], RegExp]> = [
		[['create-user', 'alice'], /already taken/],
		[['create-user', 'bad_name'], /not a valid name/],
		[['create-user'], /missing LOGIN/],
		[['create-org', 'acme2', '--owner', 'nobody'], /unknown user "nobody"/],
		[['create-org', 'acme2'], /--owner LOGIN is required/],
		[['add-member', 'nope', 'alice'], /unknown organization "nope"/],
		[['add-member', 'acme', 'alice', '--role', 'boss'], /--role must be member or admin/],
		[['create-token', 'alice', '--scopes', 'repo,fly'], /unknown scope "fly"/],
		[['create-token', 'alice', '--kind', 'robot'], /--kind must be one of/],
		[['create-token', 'alice', '--kind', 'fine-grained', '--permissions', 'members:godlike'], /needs a level read, write or admin/],
		[['create-token', 'alice', '--kind', 'installation'], /need --org ORG/],
		[
			['create-token', 'alice', '--kind', 'installation', '--org', 'acme', '--permissions', 'members:write'],
			/installation does not grant members:write/,
		],
		[['create-token', 'bob', '--kind', 'installation', '--org', 'bob'], /no app is installed on bob/],
		[['create-token', 'alice', '--kind', 'installation', '--org', 'acme', '--app', 'nope'], /unknown app "nope"/],
		[['create-token', 'alice', '--kind', 'installation', '--org', 'acme', '--expires-in', '2'], /always expire after 60 minutes/],
		[['create-token', 'alice', '--expires-in', 'soon'], /--expires-in must be a number of days/],
		[['create-token', 'alice', '--permissions', 'members:read'], /carry --scopes, not --permissions/],
		[['revoke-token', '99999'], /unknown token 99999/],
		[['launch-rockets'], /unknown admin command "launch-rockets"/],
		[['create-user', 'carol', '--colour', 'red'], /Unknown option '--colour'/],
	];
	for (const [args, message] of cases) {
		const result = admin(...args);
		assert.is(result.code, 1, `~> ${args.join(' ')} exits 1`);
		assert.is(result.stdout, '', `~> ${args.join(' ')} prints nothing on stdout`);
		assert.match(result.stderr, /^gitstead: error: [^\n]+\n$/, `~> ${args.join(' ')}: one line (${result.stderr})`);
		assert.match(result.stderr, message);
	}
	const unknown = run(gitstead, ['frobnicate']);
	assert.is(unknown.code, 1);
	assert.match(unknown.stderr, /unknown command "frobnicate"/);
});

test('environment variables mirror the flags', () => {
	const result = run(gitstead, ['admin', 'create-user', 'envy', '--json'], { env: { GITSTEAD_DATA_DIR: join(dir, 'data') } });
	assert.is(result.code, 0, result.stderr);
	assert.is(JSON.parse(result.stdout).login, 'envy');
	const badPort = run(gitstead, ['serve'], { env: { GITSTEAD_PORT: 'eighty', GITSTEAD_DATA_DIR: join(dir, 'data') } });
	assert.is(badPort.code, 1);
	assert.match(badPort.stderr, /GITSTEAD_PORT must be a port number/);
});

test('config files – read with --config; a bad key or value is named', async () => {
	const good = join(dir, 'good.toml');
	writeFileSync(good, `[storage]\ndata_dir = "${join(dir, 'other')}"\n[rate_limit]\nenabled = false\n`);
	assert.is(run(gitstead, ['admin', 'init', '--config', good]).code, 0);
	const created = run(gitstead, ['admin', 'create-user', 'tomlish', '--config', good]);
	assert.is(created.code, 0, created.stderr);
	assert.ok(existsSync(join(dir, 'other', 'gitstead.db')), '~> data_dir from the file');
	const bad = join(dir, 'bad.toml');
	writeFileSync(bad, '[server]\nprot = 80\n');
	const refused = run(gitstead, ['admin', 'list-tokens', '--config', bad]);
	assert.is(refused.code, 1);
	assert.match(refused.stderr, /config file .*bad\.toml: server\.prot/);
	const missing = run(gitstead, ['admin', 'list-tokens', '--config', join(dir, 'none.toml')]);
	assert.match(missing.stderr, /does not exist/);
	const off = await serve(gitstead, ['--config', good]);
	const status = await fetch(`${off.address}/api/v3/rate_limit`);
	assert.is(status.status, 404, '~> rate limiting off from the file');
	await off.stop();
});

test('durability – a killed server loses no answered write', async () => {
	const data = join(dir, 'killed');
	const env = { GITSTEAD_DATA_DIR: data };
	run(gitstead, ['admin', 'init'], { env });
	run(gitstead, ['admin', 'create-user', 'kim'], { env });
	run(gitstead, ['admin', 'create-org', 'kco', '--owner', 'kim'], { env });
	const token = JSON.parse(run(gitstead, ['admin', 'create-token', 'kim', '--scopes', 'admin:org', '--json'], { env }).stdout).token;
	const first = await serve(gitstead, [], { env });
	for (let i = 0; i < 20; i++) {
		const res = await fetch(`${first.address}/api/v3/orgs/kco/teams`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}` },
			body: JSON.stringify({ name: `Kept ${i}` }),
		});
		assert.is(res.status, 201);
	}
	first.child.kill('SIGKILL');
	await new Promise((done) => first.child.on('exit', done));
	const second = await serve(gitstead, [], { env });
	const res = await fetch(`${second.address}/api/v3/orgs/kco/teams?per_page=100`, { headers: { Authorization: `Bearer ${token}` } });
	assert.is(((await res.json()) as unknown[]).length, 20, '~> every answered write survived SIGKILL');
	await second.stop();
});

test('--help on every command and admin command: its own usage, exit 0, no database opened', () => {
	const commands = [
		['serve'],
		['openapi'],
		['routes'],
		['version'],
		['admin'],
		...Object.keys(ADMIN_COMMANDS).map((name) => ['admin', name]),
	];
	const cwd = mkdtempSync(join(tmpdir(), 'gitstead-help-'));
	try {
		for (const words of commands) {
			for (const flag of ['--help', '-h']) {
				const result = run(gitstead, [...words, flag], { cwd });
				const name = `gitstead ${words.join(' ')} ${flag}`;
				assert.is(result.code, 0, `~> ${name} exits 0 (${result.stderr})`);
				assert.is(result.stderr, '', `~> ${name} prints nothing on stderr`);
				assert.ok(
					result.stdout.startsWith(`Usage: gitstead ${words.join(' ')}`),
					`~> ${name} prints its own usage: ${result.stdout.split('\n')[0]}`,
				);
				if (words.length > 1 || words[0] !== 'admin')
					assert.match(result.stdout, /\nExamples?:\n {2}gitstead /, `~> ${name} shows an example`);
			}
		}
		assert.equal(readdirSync(cwd), [], '~> no data folder created');
	} finally {
		rmSync(cwd, { recursive: true, force: true });
	}
	// A missing LOGIN is no error when help is asked for.
	assert.is(run(gitstead, ['admin', 'revoke-token', '--help']).code, 0);
});

test('every admin command has a help entry describing each of its options', () => {
	for (const [name, command] of Object.entries(ADMIN_COMMANDS)) {
		assert.ok(COMMAND_HELP[`admin ${name}`], `~> admin ${name} has an entry in src/cli/help.ts`);
		const described = describedFlags(`admin ${name}`);
		for (const option of Object.keys(command.options))
			assert.ok(described.has(`--${option}`), `~> admin ${name} --help describes --${option}`);
	}
});

test('unknown options name the option and the command’s help', () => {
	const cases: Array<[string[], string]> = [
		[['serve', '--colour', 'red'], "Unknown option '--colour' (see gitstead serve --help)"],
		[['routes', '--yaml'], "Unknown option '--yaml' (see gitstead routes --help)"],
		[['openapi', '--pretty'], "Unknown option '--pretty' (see gitstead openapi --help)"],
		[
			['admin', 'create-user', 'carol', '--colour', 'red', '--data-dir', join(dir, 'data')],
			"Unknown option '--colour' (see gitstead admin create-user --help)",
		],
		[['admin', 'create-user', '--data-dir', join(dir, 'data')], 'missing LOGIN (see gitstead admin create-user --help)'],
	];
	for (const [args, message] of cases) {
		const result = run(gitstead, args);
		assert.is(result.code, 1, `~> ${args.join(' ')} exits 1`);
		assert.is(result.stdout, '');
		assert.is(result.stderr, `gitstead: error: ${message}\n`, `~> ${args.join(' ')}: ${result.stderr}`);
	}
});

test('routes: one line per route with its permissions; --json the same rows in full', () => {
	const routes = buildRoutes();
	const text = run(gitstead, ['routes'], { cwd: dir });
	assert.is(text.code, 0, text.stderr);
	const lines = text.stdout.trimEnd().split('\n');
	assert.is(lines.length, routes.length + 1, '~> a header and one line per route');
	assert.match(lines[0], /^METHOD\s+PATH\s+PERMISSIONS\s+TOKENS\s+RATE\s+ACCESS$/);
	const labels = lines.find((line) => /^POST\s+\/repos\/\{owner\}\/\{repo\}\/labels\s/.test(line));
	assert.ok(labels, '~> POST …/labels is listed');
	assert.match(labels!, /issues=write; pull_requests=write\s+all\s+core\s+authenticated$/);
	const json = run(gitstead, ['routes', '--json'], { cwd: dir });
	assert.is(json.code, 0, json.stderr);
	const rows = JSON.parse(json.stdout).routes;
	assert.is(rows.length, routes.length);
	const row = rows.find((item: any) => item.method === 'POST' && item.path === '/repos/{owner}/{repo}/labels');
	const route = routes.find((item) => item.method === 'POST' && item.path === '/repos/{owner}/{repo}/labels')!;
	assert.equal(row, {
		method: 'POST',
		path: '/repos/{owner}/{repo}/labels',
		documentation_url: route.documentationUrl,
		permissions: route.acceptedPermissionsHeader,
		permission_sets: route.policy,
		oauth_scopes: route.acceptedScopes,
		token_kinds: [...route.tokenKinds],
		rate_limit: 'core',
		access: route.access,
		resource: { repo: 'triage' },
	});
	const markdown = run(gitstead, ['routes', '--markdown'], { cwd: dir });
	assert.is(markdown.stdout.trimEnd().split('\n').length, routes.length + 2, '~> --markdown: the table of docs/ROUTES.md');
});

test('serve – a port in use is one clear line', async () => {
	const port = new URL(served!.address).port;
	const clash = run(gitstead, ['serve', '--port', port, '--data-dir', join(dir, 'elsewhere')]);
	assert.is(clash.code, 1);
	assert.match(clash.stderr, /gitstead: error: cannot listen: port \d+ on 127\.0\.0\.1 is already in use/);
});

test.run();
