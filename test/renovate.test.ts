/**
 * Renovate itself (npm renovate 39.x, the last line that runs on Node 20) against a real Gitstead
 * server, configured as Renovate documents for GitHub Enterprise Server (platform github, endpoint
 * <server>/api/v3/, a token), with the package registry a local stub serving one made-up package's
 * metadata, so nothing leaves the machine:
 * - onboarding on: a repository whose package.json names an outdated version gets the
 *   "Configure Renovate" pull request from branch renovate/configure; once merged, the next run
 *   opens the update pull request and the Dependency Dashboard;
 * - onboarding off (requireConfig optional): the dependency-update pull request with its labels,
 *   and the Dependency Dashboard issue; a second run (with a fine-grained token) changes nothing;
 *   a new release updates the branch, the pull request and the dashboard in place;
 * - platform automerge: auto-merge enabled through GraphQL, the merge once the required check passes;
 * - as a GitHub App: an installation token, commits made through the API (platformCommit).
 * Renovate (about 330 MB installed) is not a dependency of the project: test/helpers/renovate.ts
 * installs it once into node_modules/.cache/gitstead-renovate/<version> (reused while present);
 * this file skips, saying why, when that install fails (no npm registry) or git is missing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hasGit } from './helpers/git';
import { installRenovate } from './helpers/renovate';
import { startServer, TestClock, type TestServer } from './helpers/server';

/** The made-up package the repositories depend on: 1.0.0 is outdated, 1.1.0 the latest. */
const PACKAGE = 'gitstead-pad';

/** The real time: Renovate compares pull requests' and issues' times with its own clock. */
class LiveClock extends TestClock {
	override readonly read = () => Date.now();
}

/**
 * An npm registry that knows one package (its packument at /<name>), on an ephemeral port: versions
 * 1.0.0 and 1.1.0, and those `publish` adds (each dated a day after the one before).
 */
async function registryStub() {
	const hits: string[] = [];
	const versions = ['1.0.0', '1.1.0'];
	const server = createServer((req, res) => {
		hits.push(`${req.method} ${req.url}`);
		const url = new URL(req.url ?? '/', 'http://registry');
		if (decodeURIComponent(url.pathname) !== `/${PACKAGE}`) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end('{"error":"Not found"}');
			return;
		}
		const origin = `http://${req.headers.host}`;
		const released = (i: number) => new Date(Date.UTC(2025, 0, 1 + i)).toISOString();
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				name: PACKAGE,
				'dist-tags': { latest: versions.at(-1) },
				versions: Object.fromEntries(
					versions.map((v) => [
						v,
						{
							name: PACKAGE,
							version: v,
							description: 'Pads strings on the left',
							license: 'MIT',
							dist: { tarball: `${origin}/${PACKAGE}/-/${PACKAGE}-${v}.tgz`, shasum: '0'.repeat(40) },
						},
					]),
				),
				time: {
					created: released(0),
					modified: released(versions.length - 1),
					...Object.fromEntries(versions.map((v, i) => [v, released(i)])),
				},
			}),
		);
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	return {
		server,
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		hits,
		publish: (version: string) => void versions.push(version),
	};
}

const test = suite('renovate');
let renovate: { entry: string } | { skip: string };
let s: TestServer;
let registry: Awaited<ReturnType<typeof registryStub>>;
let dir: string;
let alice: string;
let bot: string;

test.before(async () => {
	renovate = hasGit ? installRenovate() : { skip: 'git is not installed' };
	if ('skip' in renovate) {
		console.log(`renovate: skipped: ${renovate.skip}`);
		return;
	}
	dir = mkdtempSync(join(tmpdir(), 'gitstead-renovate-'));
	// Started at the real time too: the installation tokens the helper makes expire an hour after it.
	s = await startServer({ clock: new LiveClock(Date.now()), dataDir: join(dir, 'data') });
	registry = await registryStub();
	s.user('alice');
	s.user('renovate-bot');
	alice = s.fullToken('alice');
	bot = s.fullToken('renovate-bot');
	s.org('acme', 'alice');
	// Renovate's account is one of the organization's owners (write access to every repository).
	s.member('acme', 'renovate-bot', 'admin');
	for (const name of ['onboard', 'app', 'auto', 'installed']) {
		const made = await s.request('POST', '/orgs/acme/repos', {
			token: alice,
			body: { name, auto_init: true, allow_auto_merge: name === 'auto' },
		});
		assert.is(made.status, 201, made.text);
		const manifest = { name, version: '0.0.0', private: true, dependencies: { [PACKAGE]: '1.0.0' } };
		const put = await s.request('PUT', `/repos/acme/${name}/contents/package.json`, {
			token: alice,
			body: { message: 'Add package.json', content: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`).toString('base64') },
		});
		assert.is(put.status, 201, put.text);
	}
});
test.after(async () => {
	registry?.server.close();
	await s?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

let runs = 0;

/** Runs Renovate once on a repository with `extra` configuration; resolves with its log. */
async function runRenovate(repository: string, extra: Record<string, unknown>): Promise<{ status: number | null; log: string }> {
	if ('skip' in renovate) throw new Error(renovate.skip);
	const base = join(dir, 'renovate');
	mkdirSync(join(base, 'home'), { recursive: true });
	const configFile = join(base, 'config.json');
	writeFileSync(
		configFile,
		JSON.stringify({
			platform: 'github',
			endpoint: `${s.api}/`,
			token: bot,
			repositories: [repository],
			gitAuthor: 'Renovate Bot <renovate-bot@example.com>',
			baseDir: join(base, 'work'),
			// A cache of its own per run: a version published since the last run is seen at once.
			cacheDir: join(base, `cache-${++runs}`),
			npmrc: `registry=${registry.url}\n`,
			enabledManagers: ['npm'],
			dependencyDashboard: true,
			labels: ['dependencies'],
			fetchChangeLogs: 'off',
			prHourlyLimit: 0,
			prConcurrentLimit: 0,
			...extra,
		}),
	);
	const child = spawn(process.execPath, [renovate.entry], {
		env: {
			PATH: process.env.PATH ?? '/usr/bin:/bin',
			HOME: join(base, 'home'),
			GIT_CONFIG_NOSYSTEM: '1',
			RENOVATE_CONFIG_FILE: configFile,
			LOG_LEVEL: process.env.RENOVATE_LOG_LEVEL ?? 'debug',
			LOG_FORMAT: 'json',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let log = '';
	child.stdout.on('data', (chunk) => (log += chunk));
	child.stderr.on('data', (chunk) => (log += chunk));
	const status = await new Promise<number | null>((done) => child.on('close', done));
	writeFileSync(join(base, `${repository.replace('/', '_')}-${Date.now()}.log`), log);
	if (process.env.RENOVATE_LOG_DIR)
		writeFileSync(join(process.env.RENOVATE_LOG_DIR, `${repository.replace('/', '_')}-${Date.now()}.log`), log);
	return { status, log };
}

test('onboarding: Renovate opens its "Configure Renovate" pull request', async () => {
	if ('skip' in renovate) return;
	const run = await runRenovate('acme/onboard', { onboarding: true, requireConfig: 'required' });
	assert.is(run.status, 0, run.log.slice(-4000));
	assert.match(run.log, /Repository result: [^"]*status: onboarding/, 'Renovate left the repository waiting for its onboarding');
	const pulls = (await s.get('/repos/acme/onboard/pulls?state=all', alice)).body;
	assert.is(pulls.length, 1, JSON.stringify(pulls));
	assert.is(pulls[0].title, 'Configure Renovate');
	assert.is(pulls[0].head.ref, 'renovate/configure');
	assert.is(pulls[0].user.login, 'renovate-bot');
});

/** What a second run must leave alone: pull requests, issues, comments and branch tips. */
async function snapshot(repo: string) {
	const pulls = (await s.get(`/repos/${repo}/pulls?state=all&per_page=100`, alice)).body;
	const issues = (await s.get(`/repos/${repo}/issues?state=all&per_page=100`, alice)).body;
	const comments = (await s.get(`/repos/${repo}/issues/comments?per_page=100`, alice)).body;
	const branches = (await s.get(`/repos/${repo}/branches?per_page=100`, alice)).body;
	return {
		pulls: pulls.map((p: Record<string, any>) => [p.number, p.state, p.title, p.head.sha, p.updated_at]),
		issues: issues.map((i: Record<string, any>) => [i.number, i.state, i.title, i.body, i.updated_at]),
		comments: comments.map((c: Record<string, any>) => [c.id, c.body, c.updated_at]),
		branches: branches.map((b: Record<string, any>) => [b.name, b.commit.sha]),
	};
}

let afterFirst: Awaited<ReturnType<typeof snapshot>>;

test('onboarding off: a dependency-update pull request with its labels, and the Dependency Dashboard issue', async () => {
	if ('skip' in renovate) return;
	const run = await runRenovate('acme/app', { onboarding: false, requireConfig: 'optional' });
	assert.is(run.status, 0, run.log.slice(-4000));
	assert.match(run.log, /Repository result: done/, 'Renovate finished the repository normally');
	assert.ok(
		registry.hits.some((hit) => hit === `GET /${PACKAGE}`),
		'Renovate read the package from the registry stub',
	);

	const pulls = (await s.get('/repos/acme/app/pulls?state=all', alice)).body;
	assert.is(pulls.length, 1, JSON.stringify(pulls.map((p: { title: string }) => p.title)));
	const [pull] = pulls;
	assert.is(pull.state, 'open');
	assert.is(pull.head.ref, `renovate/${PACKAGE}-1.x`);
	assert.is(pull.base.ref, 'main');
	assert.match(pull.title, new RegExp(`${PACKAGE}.*1\\.1\\.0`));
	assert.equal(
		pull.labels.map((l: { name: string }) => l.name),
		['dependencies'],
	);
	// The branch's package.json names the new version; the default branch's still the old one.
	const file = (await s.get(`/repos/acme/app/contents/package.json?ref=${encodeURIComponent(pull.head.ref)}`, alice)).body;
	assert.is(JSON.parse(Buffer.from(file.content, 'base64').toString()).dependencies[PACKAGE], '1.1.0');
	const commit = (await s.get(`/repos/acme/app/commits/${pull.head.sha}`, alice)).body;
	assert.is(commit.commit.author.email, 'renovate-bot@example.com');

	const issues = (await s.get('/repos/acme/app/issues?state=all', alice)).body.filter((i: { pull_request?: unknown }) => !i.pull_request);
	assert.is(issues.length, 1, JSON.stringify(issues.map((i: { title: string }) => i.title)));
	assert.is(issues[0].title, 'Dependency Dashboard');
	assert.is(issues[0].state, 'open');
	assert.is(issues[0].user.login, 'renovate-bot');
	assert.ok(issues[0].body.includes(PACKAGE), issues[0].body);
	afterFirst = await snapshot('acme/app');
});

test('a second run, with a fine-grained token, changes nothing: no new pull request, issue, comment or commit', async () => {
	if ('skip' in renovate) return;
	// The permissions Renovate's documentation lists for a fine-grained token, on the organization.
	const token = s.token('renovate-bot', {
		kind: 'fine-grained',
		org: 'acme',
		permissions: {
			contents: 'write',
			issues: 'write',
			pull_requests: 'write',
			statuses: 'write',
			workflows: 'write',
			vulnerability_alerts: 'read',
			metadata: 'read',
		},
	});
	const run = await runRenovate('acme/app', { onboarding: false, requireConfig: 'optional', token });
	assert.match(run.log, /Detected GitHub Enterprise Server, version: 3\.\d+/);
	assert.is(run.status, 0, run.log.slice(-4000));
	assert.match(run.log, /Repository result: done/, 'Renovate finished the repository normally');
	assert.equal(await snapshot('acme/app'), afterFirst);
});

test('a new release: Renovate updates its branch and its pull request in place, and the Dependency Dashboard', async () => {
	if ('skip' in renovate) return;
	registry.publish('1.2.0');
	const run = await runRenovate('acme/app', { onboarding: false, requireConfig: 'optional' });
	assert.is(run.status, 0, run.log.slice(-4000));
	assert.match(run.log, /Repository result: done/, 'Renovate finished the repository normally');
	const pulls = (await s.get('/repos/acme/app/pulls?state=all', alice)).body;
	assert.is(pulls.length, 1, 'the same pull request, no second one');
	const [pull] = pulls;
	assert.is(pull.number, afterFirst.pulls[0][0]);
	assert.is(pull.state, 'open');
	assert.match(pull.title, /1\.2\.0/);
	assert.ok(pull.body.includes('1.2.0'), pull.body);
	assert.is.not(pull.head.sha, afterFirst.pulls[0][3], 'the branch moved');
	const file = (await s.get(`/repos/acme/app/contents/package.json?ref=${encodeURIComponent(pull.head.ref)}`, alice)).body;
	assert.is(JSON.parse(Buffer.from(file.content, 'base64').toString()).dependencies[PACKAGE], '1.2.0');
	// Renovate rewrites its branch from the default branch: one commit ahead of main.
	const comparison = (await s.get(`/repos/acme/app/compare/main...${pull.head.ref}`, alice)).body;
	assert.is(comparison.ahead_by, 1);
	assert.is(comparison.behind_by, 0);
	const [dashboard] = (await s.get('/repos/acme/app/issues?state=all', alice)).body.filter(
		(i: { pull_request?: unknown }) => !i.pull_request,
	);
	assert.is(dashboard.number, afterFirst.issues.find((i: unknown[]) => i[2] === 'Dependency Dashboard')?.[0]);
});

test('platform automerge: Renovate enables auto-merge on its pull request, which merges once the required check passes', async () => {
	if ('skip' in renovate) return;
	const protection = await s.request('PUT', '/repos/acme/auto/branches/main/protection', {
		token: alice,
		body: {
			required_status_checks: { strict: false, contexts: ['ci'] },
			enforce_admins: false,
			required_pull_request_reviews: null,
			restrictions: null,
		},
	});
	assert.is(protection.status, 200, protection.text);
	const run = await runRenovate('acme/auto', {
		onboarding: false,
		requireConfig: 'optional',
		automerge: true,
		automergeType: 'pr',
		platformAutomerge: true,
	});
	assert.is(run.status, 0, run.log.slice(-4000));
	assert.match(run.log, /Repository result: done/, 'Renovate finished the repository normally');
	const [pull] = (await s.get('/repos/acme/auto/pulls?state=all', alice)).body;
	assert.ok(pull, 'Renovate opened its pull request');
	const shown = (await s.get(`/repos/acme/auto/pulls/${pull.number}`, alice)).body;
	assert.ok(shown.auto_merge, `auto-merge enabled (${run.log.match(/GitHub-native automerge[^"]*/g)?.join('; ')})`);
	assert.is(shown.auto_merge.enabled_by.login, 'renovate-bot');
	// Renovate's choice among the methods the repository allows (squash first).
	assert.is(shown.auto_merge.merge_method, 'squash');
	assert.is(shown.state, 'open');

	const status = await s.request('POST', `/repos/acme/auto/statuses/${shown.head.sha}`, {
		token: alice,
		body: { state: 'success', context: 'ci' },
	});
	assert.is(status.status, 201, status.text);
	await s.app.tasks.runDue();
	const merged = (await s.get(`/repos/acme/auto/pulls/${pull.number}`, alice)).body;
	assert.is(merged.merged, true);
	assert.is(merged.merged_by.login, 'renovate-bot');
	// The default branch now names the latest release (1.2.0, published by the test before).
	const manifest = (await s.get('/repos/acme/auto/contents/package.json', alice)).body;
	assert.is(JSON.parse(Buffer.from(manifest.content, 'base64').toString()).dependencies[PACKAGE], '1.2.0');
});

test("as a GitHub App: an installation token, commits made through the API (platformCommit), the app's bot as author", async () => {
	if ('skip' in renovate) return;
	const token = s.token('alice', { kind: 'installation', org: 'acme' });
	const run = await runRenovate('acme/installed', {
		onboarding: false,
		requireConfig: 'optional',
		token,
		platformCommit: 'enabled',
	});
	assert.is(run.status, 0, run.log.slice(-4000));
	assert.match(run.log, /Repository result: done/, 'Renovate finished the repository normally');
	const pulls = (await s.get('/repos/acme/installed/pulls?state=all', alice)).body;
	assert.is(pulls.length, 1, JSON.stringify(pulls.map((p: { title: string }) => p.title)));
	assert.is(pulls[0].user.login, 'test-app[bot]');
	assert.is(pulls[0].user.type, 'Bot');
	assert.equal(
		pulls[0].labels.map((l: { name: string }) => l.name),
		['dependencies'],
	);
	const file = (await s.get(`/repos/acme/installed/contents/package.json?ref=${encodeURIComponent(pulls[0].head.ref)}`, alice)).body;
	assert.is(JSON.parse(Buffer.from(file.content, 'base64').toString()).dependencies[PACKAGE], '1.2.0');
	const issues = (await s.get('/repos/acme/installed/issues?state=all', alice)).body.filter(
		(i: { pull_request?: unknown }) => !i.pull_request,
	);
	assert.equal(
		issues.map((i: { title: string; user: { login: string } }) => [i.title, i.user.login]),
		[['Dependency Dashboard', 'test-app[bot]']],
	);
});

test('onboarding merged: the next run reads renovate.json and opens the update pull request and the Dependency Dashboard', async () => {
	if ('skip' in renovate) return;
	const [onboarding] = (await s.get('/repos/acme/onboard/pulls', alice)).body;
	const merge = await s.request('PUT', `/repos/acme/onboard/pulls/${onboarding.number}/merge`, { token: alice, body: {} });
	assert.is(merge.status, 200, merge.text);
	const config = (await s.get('/repos/acme/onboard/contents/renovate.json', alice)).body;
	assert.is(
		JSON.parse(Buffer.from(config.content, 'base64').toString()).$schema,
		'https://docs.renovatebot.com/renovate-schema.json',
		'the onboarding config is on main',
	);

	const run = await runRenovate('acme/onboard', { onboarding: true, requireConfig: 'required' });
	assert.is(run.status, 0, run.log.slice(-4000));
	assert.match(run.log, /Repository result: done/, 'Renovate finished the repository normally');
	const open = (await s.get('/repos/acme/onboard/pulls', alice)).body;
	assert.is(open.length, 1, JSON.stringify(open.map((p: { title: string }) => p.title)));
	assert.is(open[0].head.ref, `renovate/${PACKAGE}-1.x`);
	assert.equal(
		open[0].labels.map((l: { name: string }) => l.name),
		['dependencies'],
	);
	const issues = (await s.get('/repos/acme/onboard/issues?state=all', alice)).body.filter(
		(i: { pull_request?: unknown }) => !i.pull_request,
	);
	assert.equal(
		issues.map((i: { title: string }) => i.title),
		['Dependency Dashboard'],
	);
});

test.run();
