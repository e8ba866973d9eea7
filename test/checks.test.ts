/**
 * Check suites and check runs (GitHub's "Check runs" and "Check suites" REST APIs), read from the
 * stored workflow runs and jobs: lists for a reference, single objects, a suite's runs; filters,
 * permissions, hidden repositories and validation.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { ACTIONS_APP_ID } from '../src/api/checks/render';
import { CHECK_ID_BASE } from '../src/api/checks/store';
import { startServer, type TestServer } from './helpers/server';
import { mustSucceed } from './helpers/setup';

const test = suite('checks');
let s: TestServer;
let owner: string;
let outsider: string;
let sha: string;
const OTHER = 'b'.repeat(40);
let suiteId: number;
let otherSuiteId: number;

const must = (method: string, path: string, body?: unknown) => mustSucceed(s, method, path, body, owner);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	owner = s.fullToken('olivia');
	outsider = s.fullToken('nora');
	await must('POST', '/orgs/acme/repos', { name: 'app' });
	await must('POST', '/orgs/acme/repos', { name: 'vault', private: true });
	const tree = await must('POST', '/repos/acme/app/git/trees', {
		tree: [{ path: 'README', mode: '100644', type: 'blob', content: 'x' }],
	});
	sha = (await must('POST', '/repos/acme/app/git/commits', { message: 'x', tree: tree.sha, parents: [] })).sha;
	await must('POST', '/repos/acme/app/git/refs', { ref: 'refs/heads/main', sha });
	const acme = s.app.stores.accounts.organization('acme')!;
	const app = s.app.stores.repos.byOwnerAndName(acme.id, 'app')!;
	const vault = s.app.stores.repos.byOwnerAndName(acme.id, 'vault')!;
	importRuns(s.app, app, {
		workflows: [{ name: 'CI', path: '.github/workflows/ci.yml', jobs: [{ name: 'build' }, { name: 'test', needs: ['build'] }] }],
		runs: [
			{
				path: '.github/workflows/ci.yml',
				actor: 'olivia',
				head_sha: sha,
				branch: 'main',
				status: 'completed',
				conclusion: 'failure',
				created_at: '2026-11-01T10:00:00Z',
				jobs: [
					{ name: 'build', conclusion: 'success' },
					{ name: 'test', conclusion: 'failure' },
				],
			},
			{
				path: '.github/workflows/lint.yml',
				actor: 'olivia',
				head_sha: sha,
				branch: 'main',
				status: 'in_progress',
				created_at: '2026-11-01T10:05:00Z',
			},
			{
				path: '.github/workflows/ci.yml',
				actor: 'olivia',
				head_sha: OTHER,
				branch: 'topic',
				status: 'completed',
				conclusion: 'success',
				created_at: '2026-11-01T11:00:00Z',
			},
		],
	});
	importRuns(s.app, vault, { runs: [{ path: 'ci.yml', actor: 'olivia', head_sha: sha, status: 'completed', conclusion: 'success' }] });
	const runs = await must('GET', `/repos/acme/app/actions/runs?head_sha=${sha}`);
	suiteId = runs.workflow_runs.find((r: any) => r.path === '.github/workflows/ci.yml').check_suite_id;
	otherSuiteId = (await must('GET', `/repos/acme/app/actions/runs?head_sha=${OTHER}`)).workflow_runs[0].check_suite_id;
});
test.after(() => s.close());

test("GET …/commits/{ref}/check-runs: the jobs of the commit's runs, in GitHub's CheckRun shape", async () => {
	const res = await s.get(`/repos/acme/app/commits/${sha}/check-runs`);
	assert.is(res.status, 200, `~> anonymous reads a public repository: ${res.text}`);
	assert.ok(res.body.total_count >= 3, `~> every job of the commit (${res.body.total_count})`);
	assert.is(res.body.check_runs.length, res.body.total_count, '~> all on one page');
	const test_ = res.body.check_runs.find((r: any) => r.name === 'test');
	for (const key of [
		'id',
		'name',
		'node_id',
		'head_sha',
		'external_id',
		'url',
		'html_url',
		'details_url',
		'status',
		'conclusion',
		'started_at',
		'completed_at',
		'output',
		'check_suite',
		'app',
		'pull_requests',
	]) {
		assert.ok(key in test_, `~> check run has ${key}`);
	}
	assert.is(test_.conclusion, 'failure', "~> the job's conclusion");
	assert.is(test_.status, 'completed', "~> the job's status");
	assert.is(test_.head_sha, sha, '~> head_sha');
	assert.is(test_.check_suite.id, suiteId, "~> its suite is the run's check suite");
	assert.is(test_.app.slug, 'github-actions', '~> owned by the GitHub Actions app');
	assert.is(test_.app.id, ACTIONS_APP_ID, "~> GitHub Actions' app id");
	assert.equal(Object.keys(test_.output), ['title', 'summary', 'text', 'annotations_count', 'annotations_url'], '~> output fields');
	assert.is(test_.url, `${s.api}/repos/acme/app/check-runs/${test_.id}`, '~> url');
	const job = await must('GET', `/repos/acme/app/actions/jobs/${test_.id}`);
	assert.is(job.check_run_url, test_.url, "~> the job's check_run_url is this check run");
	const byBranch = await s.get('/repos/acme/app/commits/main/check-runs');
	assert.is(byBranch.body.total_count, res.body.total_count, '~> a branch names its head commit');
});

test('check-runs filters: check_name, status, app_id, pagination; 422 for bad values; 404 for an unknown ref', async () => {
	const named = await s.get(`/repos/acme/app/commits/${sha}/check-runs?check_name=build`);
	assert.equal(
		named.body.check_runs.map((r: any) => r.name),
		['build'],
		'~> check_name',
	);
	const completed = await s.get(`/repos/acme/app/commits/${sha}/check-runs?status=completed`);
	assert.ok(
		completed.body.check_runs.every((r: any) => r.status === 'completed'),
		'~> status',
	);
	const queued = await s.get(`/repos/acme/app/commits/${sha}/check-runs?status=queued`);
	assert.ok(
		queued.body.check_runs.every((r: any) => r.status === 'queued'),
		'~> status queued',
	);
	assert.is((await s.get(`/repos/acme/app/commits/${sha}/check-runs?app_id=1`)).body.total_count, 0, '~> another app has none');
	assert.ok(
		(await s.get(`/repos/acme/app/commits/${sha}/check-runs?app_id=${ACTIONS_APP_ID}`)).body.total_count > 0,
		'~> GitHub Actions has them',
	);
	const page = await s.get(`/repos/acme/app/commits/${sha}/check-runs?per_page=1`);
	assert.is(page.body.check_runs.length, 1, '~> per_page');
	assert.match(page.headers.get('link') ?? '', /rel="next"/, '~> Link header');
	const bad = await s.get(`/repos/acme/app/commits/${sha}/check-runs?status=done`);
	assert.is(bad.status, 422, '~> a bad status is 422');
	assert.is((await s.get(`/repos/acme/app/commits/${sha}/check-runs?filter=some`)).status, 422, '~> a bad filter is 422');
	assert.is((await s.get(`/repos/acme/app/commits/${sha}/check-runs?app_id=x`)).status, 422, '~> a bad app_id is 422');
	const unknown = await s.get('/repos/acme/app/commits/nope/check-runs');
	assert.is(unknown.status, 404, '~> an unknown ref is 404');
	assert.is(unknown.body.message, 'No commit found for SHA: nope', "~> GitHub's message");
	assert.is(
		(await s.get(`/repos/acme/app/commits/${'c'.repeat(40)}/check-runs`)).body.total_count,
		0,
		'~> a full sha without runs: none',
	);
});

test("GET …/commits/{ref}/check-suites: one suite per workflow run, in GitHub's CheckSuite shape", async () => {
	const res = await s.get(`/repos/acme/app/commits/${sha}/check-suites`);
	assert.is(res.status, 200);
	assert.is(res.body.total_count, 2, "~> the commit's two runs");
	const ci = res.body.check_suites.find((x: any) => x.id === suiteId);
	for (const key of [
		'id',
		'node_id',
		'head_branch',
		'head_sha',
		'status',
		'conclusion',
		'url',
		'before',
		'after',
		'pull_requests',
		'app',
		'repository',
		'created_at',
		'updated_at',
		'latest_check_runs_count',
		'check_runs_url',
		'head_commit',
	]) {
		assert.ok(key in ci, `~> check suite has ${key}`);
	}
	assert.is(ci.conclusion, 'failure', "~> the run's conclusion");
	assert.is(ci.head_branch, 'main', '~> head_branch');
	assert.is(ci.latest_check_runs_count, 2, '~> its jobs');
	assert.is(ci.repository.full_name, 'acme/app', '~> repository');
	const named = await s.get(`/repos/acme/app/commits/${sha}/check-suites?check_name=test`);
	assert.equal(
		named.body.check_suites.map((x: any) => x.id),
		[suiteId],
		'~> check_name: the suites with such a check run',
	);
	assert.is((await s.get(`/repos/acme/app/commits/${sha}/check-suites?app_id=7`)).body.total_count, 0, '~> another app: none');
	assert.is((await s.get(`/repos/acme/app/commits/${sha}/check-suites?app_id=x`)).status, 422, '~> a bad app_id: 422');
});

test('GET …/check-runs/{id}, …/check-suites/{id}, …/check-suites/{id}/check-runs', async () => {
	const list = await s.get(`/repos/acme/app/commits/${sha}/check-runs?check_name=build`);
	const id = list.body.check_runs[0].id;
	const one = await s.get(`/repos/acme/app/check-runs/${id}`);
	assert.is(one.status, 200);
	assert.equal(one.body, list.body.check_runs[0], '~> the same check run');
	assert.is((await s.get('/repos/acme/app/check-runs/999999')).status, 404, '~> unknown check run: 404');
	assert.is((await s.get('/repos/acme/app/check-runs/abc')).status, 404, '~> not an id: 404');
	const suite_ = await s.get(`/repos/acme/app/check-suites/${suiteId}`);
	assert.is(suite_.status, 200);
	assert.is(suite_.body.id, suiteId, '~> the suite');
	assert.is(suite_.body.check_runs_url, `${s.api}/repos/acme/app/check-suites/${suiteId}/check-runs`, '~> check_runs_url');
	const runs = await s.get(suite_.body.check_runs_url);
	assert.equal(runs.body.check_runs.map((r: any) => r.name).sort(), ['build', 'test'], "~> the suite's check runs");
	assert.is(runs.body.total_count, 2, '~> total_count');
	const other = await s.get(`/repos/acme/app/check-suites/${otherSuiteId}/check-runs?check_name=test`);
	assert.equal(
		other.body.check_runs.map((r: any) => r.head_sha),
		[OTHER],
		"~> another commit's suite",
	);
	assert.is((await s.get('/repos/acme/app/check-suites/999999')).status, 404, '~> unknown suite: 404');
	assert.is((await s.get(`/repos/acme/app/check-suites/${suiteId}/check-runs?status=nope`)).status, 422, '~> bad status: 422');
});

test('permissions: a private repository is hidden (404) from outsiders and anonymous callers; a token without checks gets the public view', async () => {
	assert.is((await s.get(`/repos/acme/vault/commits/${sha}/check-runs`, outsider)).status, 404, '~> outsider: 404');
	assert.is((await s.get(`/repos/acme/vault/commits/${sha}/check-suites`)).status, 404, '~> anonymous: 404');
	const own = await s.get(`/repos/acme/vault/commits/${sha}/check-runs`, owner);
	assert.is(own.status, 200, '~> the owner reads it');
	assert.ok(own.body.total_count > 0, '~> its runs');
	const bare = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: {} });
	assert.is(
		(await s.get(`/repos/acme/vault/commits/${sha}/check-runs`, bare)).status,
		404,
		'~> without checks: the public view, which hides the private repository',
	);
	const granted = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { checks: 'read' } });
	assert.is((await s.get(`/repos/acme/vault/commits/${sha}/check-runs`, granted)).status, 200, '~> with checks read: 200');
});

test("apps create and update their own check runs (installation tokens): stored in the app's suite, listed with Actions' ones, check_run events", async () => {
	const hook = await must('POST', '/repos/acme/app/hooks', {
		name: 'web',
		config: { url: 'https://hooks.example.com/c', content_type: 'json' },
		events: ['check_run'],
	});
	const bot = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { checks: 'write' } });
	const res = await s.request('POST', '/repos/acme/app/check-runs', {
		token: bot,
		body: {
			name: 'lint',
			head_sha: sha,
			details_url: 'https://ci.example.com/7',
			external_id: 'ext-7',
			output: { title: 'Linting', summary: 'Running' },
		},
	});
	assert.is(res.status, 201, `~> created: ${res.text}`);
	assert.ok(res.body.id >= CHECK_ID_BASE, "~> ids apart from workflow jobs'");
	assert.is(res.body.status, 'queued', '~> queued by default');
	assert.is(res.body.conclusion, null);
	assert.is(res.body.app.slug, 'test-app', '~> the app that made it');
	assert.is(res.body.details_url, 'https://ci.example.com/7', '~> details_url');
	assert.is(res.body.external_id, 'ext-7', '~> external_id');
	assert.is(res.body.output.title, 'Linting', '~> output');
	assert.is(res.headers.get('location'), res.body.url, '~> Location');
	const appId = res.body.app.id;
	const listed = await s.get(`/repos/acme/app/commits/${sha}/check-runs?app_id=${appId}`);
	assert.equal(
		listed.body.check_runs.map((r: any) => r.id),
		[res.body.id],
		"~> app_id filters to the app's",
	);
	const all = await s.get(`/repos/acme/app/commits/${sha}/check-runs`);
	assert.ok(
		all.body.check_runs.some((r: any) => r.id === res.body.id) && all.body.check_runs.some((r: any) => r.app.slug === 'github-actions'),
		"~> listed with Actions' ones",
	);
	let suites = await s.get(`/repos/acme/app/commits/${sha}/check-suites?app_id=${appId}`);
	assert.is(suites.body.total_count, 1, "~> the app's suite");
	const suiteId = suites.body.check_suites[0].id;
	assert.is(suites.body.check_suites[0].status, 'queued', '~> queued while its run is');
	assert.equal(
		suites.body.check_suites[0].head_commit,
		{
			id: sha,
			tree_id: suites.body.check_suites[0].head_commit.tree_id,
			message: 'x',
			timestamp: suites.body.check_suites[0].head_commit.timestamp,
			author: suites.body.check_suites[0].head_commit.author,
			committer: suites.body.check_suites[0].head_commit.committer,
		},
		"~> an app's suite has GitHub's required head_commit, read from the commit",
	);
	assert.match(suites.body.check_suites[0].head_commit.tree_id, /^[0-9a-f]{40}$/, '~> its tree');
	assert.is(res.body.check_suite.id, suiteId, '~> the run names it');
	// Updating: a conclusion completes it.
	const done = await s.request('PATCH', res.body.url, {
		token: bot,
		body: { conclusion: 'failure', output: { title: 'Lint', summary: '3 problems' } },
	});
	assert.is(done.status, 200, `~> updated: ${done.text}`);
	assert.is(done.body.status, 'completed', '~> a conclusion completes it');
	assert.is(done.body.conclusion, 'failure');
	assert.ok(done.body.completed_at, '~> completed_at set');
	assert.is(done.body.output.summary, '3 problems', '~> output replaced');
	suites = await s.get(`/repos/acme/app/check-suites/${suiteId}`);
	assert.is(suites.body.status, 'completed', '~> the suite completed');
	assert.is(suites.body.conclusion, 'failure', "~> with its run's conclusion");
	const runs = await s.get(`/repos/acme/app/check-suites/${suiteId}/check-runs`);
	assert.equal(
		runs.body.check_runs.map((r: any) => r.id),
		[res.body.id],
		"~> the suite's runs",
	);
	assert.is((await s.get(res.body.url)).body.conclusion, 'failure', '~> GET by id');
	// Events: created, then completed.
	const { rows } = s.app.stores.webhooks.deliveries({ hookId: hook.id, status: null, limit: 10, offset: 0 });
	const events = rows
		.filter((row) => row.event === 'check_run')
		.reverse()
		.map((row) => ({ action: row.action, payload: JSON.parse(row.payload) }));
	assert.equal(
		events.map((e) => e.action),
		['created', 'completed'],
		'~> check_run created, completed',
	);
	assert.is(events[1].payload.check_run.check_suite.id, suiteId, '~> the payload carries the suite');
	assert.is(events[1].payload.repository.full_name, 'acme/app', '~> repository');
});

test('check run writes: installation tokens only, checks write, 422 for bad input, only the app that made it updates it, private repositories hidden', async () => {
	const body = { name: 'x', head_sha: sha };
	assert.is((await s.request('POST', '/repos/acme/app/check-runs', { body })).status, 401, '~> anonymous: 401');
	assert.is((await s.request('POST', '/repos/acme/app/check-runs', { token: owner, body })).status, 403, '~> a classic token: 403');
	const readOnly = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { checks: 'read' } });
	assert.is((await s.request('POST', '/repos/acme/app/check-runs', { token: readOnly, body })).status, 403, '~> checks read only: 403');
	const bot = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { checks: 'write' } });
	let res = await s.request('POST', '/repos/acme/app/check-runs', { token: bot, body: { name: 'x', head_sha: 'f'.repeat(40) } });
	assert.is(res.status, 422, '~> an unknown commit: 422');
	assert.match(res.body.message, /No commit found for SHA/, "~> GitHub's message");
	res = await s.request('POST', '/repos/acme/app/check-runs', { token: bot, body: { name: 'x', head_sha: sha, status: 'completed' } });
	assert.is(res.status, 422, '~> completed without a conclusion: 422');
	assert.is(res.body.errors[0].field, 'conclusion', '~> names conclusion');
	res = await s.request('POST', '/repos/acme/app/check-runs', { token: bot, body: { name: 'x', head_sha: sha, conclusion: 'great' } });
	assert.is(res.status, 422, '~> a bad conclusion: 422');
	assert.is(
		(await s.request('POST', '/repos/acme/app/check-runs', { token: bot, body: { head_sha: sha } })).status,
		422,
		'~> name required: 422',
	);
	const job = (await s.get(`/repos/acme/app/commits/${sha}/check-runs?app_id=${ACTIONS_APP_ID}`)).body.check_runs[0];
	assert.is(
		(await s.request('PATCH', job.url, { token: bot, body: { name: 'mine' } })).status,
		403,
		"~> GitHub Actions' check runs: 403",
	);
	assert.is(
		(await s.request('PATCH', `/repos/acme/app/check-runs/${CHECK_ID_BASE + 999}`, { token: bot, body: {} })).status,
		404,
		'~> unknown: 404',
	);
	s.org('other', 'nora');
	await s.request('POST', '/orgs/other/repos', { token: outsider, body: { name: 'hidden', private: true } });
	assert.is(
		(await s.request('POST', '/repos/other/hidden/check-runs', { token: bot, body })).status,
		404,
		"~> another account's private repository: 404",
	);
});

test.run();
