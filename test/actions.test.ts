/**
 * Workflows, workflow runs and jobs (GitHub's actions/* operations):
 * every route with success, validation and denial cases, each filter of the run list (and its
 * 1,000-result cap), the transitions of re-runs and cancellation, and importRuns.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { advanceJob, parseCreated } from '../src/api/actions/service';
import type { RepositoryRow } from '../src/model/rows';
import { DomainError } from '../src/model/errors';
import { nodeId } from '../src/model/urls';
import { startServer, type TestServer } from './helpers/server';
import { captureWebhooks as captureWebhooksOf, eventMark as eventMarkOf, eventsSince as eventsSinceOf } from './helpers/setup';

const test = suite('actions');
let s: TestServer;
let owner: string; // olivia: organization owner (admin)
let member: string; // mike: member, read access
let writer: string; // wendy: outside collaborator with push access
let outsider: string; // oscar: no access
const repos: Record<string, RepositoryRow> = {};
/** Run ids of the fixture runs of acme/app, by label. */
const run: Record<string, number> = {};

const RUN_KEYS = [
	'id',
	'name',
	'node_id',
	'check_suite_id',
	'check_suite_node_id',
	'head_branch',
	'head_sha',
	'path',
	'run_number',
	'event',
	'display_title',
	'status',
	'conclusion',
	'workflow_id',
	'url',
	'html_url',
	'pull_requests',
	'created_at',
	'updated_at',
	'actor',
	'run_attempt',
	'referenced_workflows',
	'run_started_at',
	'triggering_actor',
	'jobs_url',
	'logs_url',
	'check_suite_url',
	'artifacts_url',
	'cancel_url',
	'rerun_url',
	'previous_attempt_url',
	'workflow_url',
	'head_commit',
	'head_repository_id',
	'repository',
	'head_repository',
];
const JOB_KEYS = [
	'id',
	'run_id',
	'workflow_name',
	'head_branch',
	'run_url',
	'run_attempt',
	'node_id',
	'head_sha',
	'url',
	'html_url',
	'status',
	'conclusion',
	'created_at',
	'started_at',
	'completed_at',
	'name',
	'steps',
	'check_run_url',
	'labels',
	'runner_id',
	'runner_name',
	'runner_group_id',
	'runner_group_name',
];
const WORKFLOW_KEYS = ['id', 'node_id', 'name', 'path', 'state', 'created_at', 'updated_at', 'url', 'html_url', 'badge_url'];
const SHA = (c: string) => c.repeat(40);
const CI_JOBS = [{ name: 'build' }, { name: 'lint' }, { name: 'test', needs: ['build'] }, { name: 'deploy', needs: ['test', 'lint'] }];

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'wendy', 'oscar']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	writer = s.fullToken('wendy');
	outsider = s.fullToken('oscar');
	const acme = s.app.stores.accounts.byLogin('acme')!;
	for (const [name, priv] of [
		['app', false],
		['secret', true],
		['jobs', false],
		['dispatch', false],
		['big', false],
		['events', false],
	] as const) {
		const res = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, private: priv } });
		assert.is(res.status, 201);
		repos[name] = s.app.stores.repos.byOwnerAndName(acme.id, name)!;
		s.app.stores.repos.setCollaborator(repos[name].id, s.app.stores.accounts.user('wendy')!.id, 'push', '2026-01-01T00:00:00Z');
	}
	const fixtures: Array<[string, Record<string, unknown>]> = [
		[
			'main-success',
			{
				path: 'ci.yml',
				event: 'push',
				branch: 'main',
				actor: 'olivia',
				status: 'completed',
				conclusion: 'success',
				created_at: '2026-01-10T10:00:00Z',
				head_sha: SHA('a'),
				head_commit: { message: 'Fix the build\n\nLonger text', author: { name: 'Olivia', email: 'olivia@example.com' } },
			},
		],
		[
			'pr-failure',
			{
				path: 'ci.yml',
				event: 'pull_request',
				branch: 'feature-x',
				actor: 'mike',
				triggering_actor: 'wendy',
				status: 'completed',
				conclusion: 'failure',
				created_at: '2026-01-15T12:30:00Z',
				head_sha: SHA('b'),
				check_suite_id: 9001,
				pull_requests: [{ number: 7, base: { sha: SHA('c') } }],
			},
		],
		[
			'main-running',
			{
				path: 'ci.yml',
				event: 'push',
				branch: 'main',
				actor: 'wendy',
				status: 'in_progress',
				created_at: '2026-02-01T08:00:00Z',
				head_sha: SHA('d'),
			},
		],
		[
			'release-queued',
			{
				path: 'release.yml',
				event: 'workflow_dispatch',
				branch: 'main',
				actor: 'olivia',
				status: 'queued',
				created_at: '2026-02-02T00:00:00Z',
				head_sha: SHA('d'),
			},
		],
		[
			'schedule-cancelled',
			{
				path: 'ci.yml',
				event: 'schedule',
				branch: 'main',
				actor: 'olivia',
				status: 'completed',
				conclusion: 'cancelled',
				created_at: '2026-02-03T23:59:59Z',
				head_sha: SHA('e'),
			},
		],
		[
			'tag-skipped',
			{
				path: 'release.yml',
				event: 'push',
				branch: 'v1.0',
				actor: 'wendy',
				status: 'completed',
				conclusion: 'skipped',
				created_at: '2026-01-31T23:59:59Z',
				head_sha: SHA('f'),
			},
		],
		[
			'dev-waiting',
			{
				path: 'ci.yml',
				event: 'push',
				branch: 'dev',
				actor: 'mike',
				status: 'waiting',
				created_at: '2026-01-20T00:00:00Z',
				head_sha: SHA('b'),
			},
		],
		[
			'main-timed-out',
			{
				path: 'ci.yml',
				event: 'push',
				branch: 'main',
				actor: 'olivia',
				status: 'completed',
				conclusion: 'timed_out',
				created_at: '2026-01-01T00:00:00Z',
				head_sha: SHA('a'),
			},
		],
	];
	const result = importRuns(s.app, repos.app, {
		workflows: [
			{ name: 'CI', path: '.github/workflows/ci.yml', jobs: CI_JOBS, created_at: '2025-12-01T00:00:00Z' },
			{ name: 'Release', path: 'release.yml', created_at: '2025-12-02T00:00:00Z' },
			{ name: 'Old', path: 'old.yaml', state: 'disabled_manually', created_at: '2025-12-03T00:00:00Z' },
		],
		runs: fixtures.map(([, description]) => description),
	});
	fixtures.forEach(([label], i) => {
		run[label] = result.run_ids[i];
	});
	importRuns(s.app, repos.secret, { runs: [{ path: 'ci.yml', actor: 'olivia', created_at: '2026-01-01T00:00:00Z' }] });
});
test.after(() => s.close());

const listIds = (body: any) => body.workflow_runs.map((r: any) => r.id);

const eventMark = () => eventMarkOf(s);
const eventsSince = (mark: number) => eventsSinceOf(s, mark, { bareEvents: true });
const captureWebhooks = () => captureWebhooksOf(s);

// ------------------------------------------------------------------------------------------------
// Workflows

test('workflows – list, get by id, file name or path', async () => {
	const list = await s.get('/repos/acme/app/actions/workflows', member);
	assert.is(list.status, 200);
	assert.equal(Object.keys(list.body), ['total_count', 'workflows']);
	assert.is(list.body.total_count, 3);
	const ci = list.body.workflows[0];
	assert.equal(Object.keys(ci), WORKFLOW_KEYS);
	assert.equal(ci, {
		id: ci.id,
		node_id: nodeId('Workflow', ci.id),
		name: 'CI',
		path: '.github/workflows/ci.yml',
		state: 'active',
		created_at: '2025-12-01T00:00:00Z',
		updated_at: '2025-12-01T00:00:00Z',
		url: `${s.api}/repos/acme/app/actions/workflows/${ci.id}`,
		html_url: `${s.origin}/acme/app/blob/main/.github/workflows/ci.yml`,
		badge_url: `${s.origin}/acme/app/workflows/CI/badge.svg`,
	});
	assert.equal(
		list.body.workflows.map((w: any) => [w.name, w.state]),
		[
			['CI', 'active'],
			['Release', 'active'],
			['Old', 'disabled_manually'],
		],
	);
	const paged = await s.get('/repos/acme/app/actions/workflows?per_page=2&page=2', member);
	assert.equal(
		paged.body.workflows.map((w: any) => w.name),
		['Old'],
	);
	assert.is(paged.body.total_count, 3);
	assert.match(paged.headers.get('link')!, 'rel="prev"');

	for (const ref of [String(ci.id), 'ci.yml', '.github%2Fworkflows%2Fci.yml']) {
		const one = await s.get(`/repos/acme/app/actions/workflows/${ref}`, member);
		assert.is(one.status, 200, `~> ${ref}`);
		assert.equal(one.body, ci);
	}
	assert.is((await s.get('/repos/acme/app/actions/workflows/nope.yml', member)).status, 404);
	assert.is((await s.get('/repos/acme/app/actions/workflows/999999', member)).status, 404);
	const other = (await s.get('/repos/acme/secret/actions/workflows', owner)).body.workflows[0];
	assert.is((await s.get(`/repos/acme/app/actions/workflows/${other.id}`, owner)).status, 404, '~> a workflow of another repository');
	assert.is((await s.get('/repos/acme/app/actions/workflows')).status, 200, '~> public: anonymous reads');
	assert.is((await s.get('/repos/acme/nope/actions/workflows', owner)).status, 404);
});

test('workflows – private repositories: hidden from outsiders and tokens without access', async () => {
	assert.is((await s.get('/repos/acme/secret/actions/workflows', owner)).status, 200);
	assert.is((await s.get('/repos/acme/secret/actions/workflows')).status, 404);
	assert.is((await s.get('/repos/acme/secret/actions/workflows', outsider)).status, 404);
	assert.is(
		(await s.get('/repos/acme/secret/actions/workflows', s.token('olivia', { scopes: ['read:org'] }))).status,
		404,
		'~> classic without repo',
	);
	const without = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'read' } });
	const refused = await s.get('/repos/acme/secret/actions/workflows', without);
	assert.is(refused.status, 404, '~> fine-grained without actions: a public view');
	assert.is(refused.headers.get('x-accepted-github-permissions'), 'actions=read');
	const reader = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'read' } });
	assert.is((await s.get('/repos/acme/secret/actions/workflows', reader)).status, 200);
});

// ------------------------------------------------------------------------------------------------
// Runs: shape

test('runs – list answers {total_count, workflow_runs} with every WorkflowRun field', async () => {
	const list = await s.get('/repos/acme/app/actions/runs', member);
	assert.is(list.status, 200);
	assert.equal(Object.keys(list.body), ['total_count', 'workflow_runs']);
	assert.is(list.body.total_count, 8);
	assert.equal(
		listIds(list.body),
		[
			run['schedule-cancelled'],
			run['release-queued'],
			run['main-running'],
			run['tag-skipped'],
			run['dev-waiting'],
			run['pr-failure'],
			run['main-success'],
			run['main-timed-out'],
		],
		'~> newest first',
	);
	assert.ok(list.headers.get('etag'));
	const item = list.body.workflow_runs.find((r: any) => r.id === run['main-success']);
	assert.equal(Object.keys(item), RUN_KEYS);
	const api = `${s.api}/repos/acme/app`;
	const id = run['main-success'];
	const ci = (await s.get('/repos/acme/app/actions/workflows/ci.yml', member)).body;
	assert.equal(
		{ ...item, actor: undefined, triggering_actor: undefined, repository: undefined, head_repository: undefined },
		{
			id,
			name: 'CI',
			node_id: nodeId('WorkflowRun', id),
			check_suite_id: id,
			check_suite_node_id: nodeId('CheckSuite', id),
			head_branch: 'main',
			head_sha: SHA('a'),
			path: '.github/workflows/ci.yml',
			run_number: 1,
			event: 'push',
			display_title: 'Fix the build',
			status: 'completed',
			conclusion: 'success',
			workflow_id: ci.id,
			url: `${api}/actions/runs/${id}`,
			html_url: `${s.origin}/acme/app/actions/runs/${id}`,
			pull_requests: [],
			created_at: '2026-01-10T10:00:00Z',
			updated_at: '2026-01-10T10:00:00Z',
			actor: undefined,
			run_attempt: 1,
			referenced_workflows: [],
			run_started_at: '2026-01-10T10:00:00Z',
			triggering_actor: undefined,
			jobs_url: `${api}/actions/runs/${id}/jobs`,
			logs_url: `${api}/actions/runs/${id}/logs`,
			check_suite_url: `${api}/check-suites/${id}`,
			artifacts_url: `${api}/actions/runs/${id}/artifacts`,
			cancel_url: `${api}/actions/runs/${id}/cancel`,
			rerun_url: `${api}/actions/runs/${id}/rerun`,
			previous_attempt_url: null,
			workflow_url: `${api}/actions/workflows/${ci.id}`,
			head_commit: {
				id: SHA('a'),
				tree_id: item.head_commit.tree_id,
				message: 'Fix the build\n\nLonger text',
				timestamp: '2026-01-10T10:00:00Z',
				author: { name: 'Olivia', email: 'olivia@example.com' },
				committer: item.head_commit.committer,
			},
			head_repository_id: repos.app.id,
			repository: undefined,
			head_repository: undefined,
		},
	);
	assert.match(item.head_commit.tree_id, /^[0-9a-f]{40}$/);
	assert.equal(Object.keys(item.head_commit.committer), ['name', 'email']);
	const olivia = (await s.get('/users/olivia')).body;
	assert.equal(item.actor, Object.fromEntries(Object.keys(item.actor).map((k) => [k, olivia[k]])), '~> actor is olivia as a SimpleUser');
	assert.is(item.actor.login, 'olivia');
	assert.is(item.triggering_actor.login, 'olivia');
	// The list form: GET's full form adds organization, parent, source, network_count and a string temp_clone_token.
	const {
		organization: _o,
		parent: _p,
		source: _s,
		network_count: _n,
		temp_clone_token: _t,
		...record
	} = (await s.get('/repos/acme/app')).body;
	const { network_count: _rn, temp_clone_token: _rt, ...listed } = item.repository;
	assert.equal(listed, record, '~> the repository record');
	const { network_count: _hn, temp_clone_token: _ht, ...head } = item.head_repository;
	assert.equal(head, record);

	const pr = list.body.workflow_runs.find((r: any) => r.id === run['pr-failure']);
	assert.is(pr.triggering_actor.login, 'wendy');
	assert.is(pr.actor.login, 'mike');
	assert.is(pr.check_suite_id, 9001);
	assert.equal(pr.pull_requests, [
		{
			id: 7,
			number: 7,
			url: `${api}/pulls/7`,
			head: { ref: 'feature-x', sha: SHA('b'), repo: { id: repos.app.id, url: api, name: 'app' } },
			base: { ref: 'main', sha: SHA('c'), repo: { id: repos.app.id, url: api, name: 'app' } },
		},
	]);
});

test('runs – get one: the list item; exclude_pull_requests; 404s', async () => {
	const list = await s.get('/repos/acme/app/actions/runs', member);
	for (const item of list.body.workflow_runs) {
		const one = await s.get(`/repos/acme/app/actions/runs/${item.id}`, member);
		assert.is(one.status, 200);
		assert.equal(one.body, item, `~> run ${item.id} as listed`);
	}
	const pr = run['pr-failure'];
	assert.is((await s.get(`/repos/acme/app/actions/runs/${pr}`)).body.pull_requests.length, 1, '~> anonymous on a public repository');
	assert.equal((await s.get(`/repos/acme/app/actions/runs/${pr}?exclude_pull_requests=true`)).body.pull_requests, []);
	assert.is((await s.get(`/repos/acme/app/actions/runs/${pr}?exclude_pull_requests=false`)).body.pull_requests.length, 1);
	assert.is((await s.get(`/repos/acme/app/actions/runs/${pr}?exclude_pull_requests=yes`)).status, 422);
	assert.is((await s.get('/repos/acme/app/actions/runs/999999', member)).status, 404);
	assert.is((await s.get('/repos/acme/app/actions/runs/abc', member)).status, 404);
	const secretRun = (await s.get('/repos/acme/secret/actions/runs', owner)).body.workflow_runs[0];
	assert.is((await s.get(`/repos/acme/app/actions/runs/${secretRun.id}`, owner)).status, 404, '~> a run of another repository');
	assert.is((await s.get(`/repos/acme/secret/actions/runs/${secretRun.id}`, owner)).status, 200);
	assert.is((await s.get(`/repos/acme/secret/actions/runs/${secretRun.id}`)).status, 404, '~> private: anonymous');
	assert.is((await s.get(`/repos/acme/secret/actions/runs/${secretRun.id}`, outsider)).status, 404);
	assert.is((await s.get('/repos/acme/secret/actions/runs', outsider)).status, 404);
	const reader = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'read' } });
	assert.is((await s.get('/repos/acme/secret/actions/runs', reader)).body.total_count, 1);
});

// ------------------------------------------------------------------------------------------------
// Runs: filters

async function ids(query: string, repo = 'app'): Promise<number[]> {
	const res = await s.get(`/repos/acme/${repo}/actions/runs?${query}`, member);
	assert.is(res.status, 200, `~> ${query}: ${res.text}`);
	assert.is(res.body.total_count, res.body.workflow_runs.length, `~> ${query}: total_count`);
	return listIds(res.body).sort((a: number, b: number) => a - b);
}
const labels = (...names: string[]) => names.map((name) => run[name]).sort((a, b) => a - b);

test('runs – filters: actor, branch, event, head_sha, check_suite_id', async () => {
	assert.equal(await ids('actor=olivia'), labels('main-success', 'release-queued', 'schedule-cancelled', 'main-timed-out'));
	assert.equal(
		await ids('actor=OLIVIA'),
		labels('main-success', 'release-queued', 'schedule-cancelled', 'main-timed-out'),
		'~> logins are case-insensitive',
	);
	assert.equal(await ids('actor=mike'), labels('pr-failure', 'dev-waiting'), '~> the actor, not the triggering actor');
	assert.equal(await ids('actor=nobody'), []);
	assert.equal(
		await ids('branch=main'),
		labels('main-success', 'main-running', 'release-queued', 'schedule-cancelled', 'main-timed-out'),
	);
	assert.equal(await ids('branch=v1.0'), labels('tag-skipped'));
	assert.equal(await ids('branch=nope'), []);
	assert.equal(await ids('event=push'), labels('main-success', 'main-running', 'tag-skipped', 'dev-waiting', 'main-timed-out'));
	assert.equal(await ids('event=pull_request'), labels('pr-failure'));
	assert.equal(await ids('event=workflow_dispatch'), labels('release-queued'));
	assert.equal(await ids(`head_sha=${SHA('b')}`), labels('pr-failure', 'dev-waiting'));
	assert.equal(await ids(`head_sha=${SHA('B')}`), labels('pr-failure', 'dev-waiting'), '~> hex case does not matter');
	assert.equal(await ids('check_suite_id=9001'), labels('pr-failure'));
	assert.equal(await ids(`check_suite_id=${run['main-success']}`), labels('main-success'), '~> defaults to the run id');
	assert.equal(await ids('branch=main&actor=olivia&event=push'), labels('main-success', 'main-timed-out'), '~> filters combine');
	assert.equal(await ids('branch='), await ids(''), '~> an empty value is no filter');
});

test('runs – filter status: status values and conclusion values', async () => {
	assert.equal(
		await ids('status=completed'),
		labels('main-success', 'pr-failure', 'schedule-cancelled', 'tag-skipped', 'main-timed-out'),
	);
	assert.equal(await ids('status=in_progress'), labels('main-running'));
	assert.equal(await ids('status=queued'), labels('release-queued'));
	assert.equal(await ids('status=waiting'), labels('dev-waiting'));
	assert.equal(await ids('status=pending'), []);
	assert.equal(await ids('status=requested'), []);
	assert.equal(await ids('status=success'), labels('main-success'));
	assert.equal(await ids('status=failure'), labels('pr-failure'));
	assert.equal(await ids('status=cancelled'), labels('schedule-cancelled'));
	assert.equal(await ids('status=skipped'), labels('tag-skipped'));
	assert.equal(await ids('status=timed_out'), labels('main-timed-out'));
	for (const none of ['neutral', 'action_required', 'stale']) assert.equal(await ids(`status=${none}`), []);
	assert.equal(await ids('status=success&branch=main'), labels('main-success'));
	const bad = await s.get('/repos/acme/app/actions/runs?status=done', member);
	assert.is(bad.status, 422);
	assert.is(bad.body.message, 'Validation Failed');
	assert.equal(bad.body.errors[0].resource, 'WorkflowRun');
	assert.is(bad.body.errors[0].field, 'status');
	assert.match(bad.body.errors[0].message, 'completed, action_required');
});

test('runs – filter created: search syntax', async () => {
	const q = (value: string) => ids(`created=${encodeURIComponent(value)}`);
	assert.equal(await q('2026-01-10'), labels('main-success'));
	assert.equal(await q('2026-02-03'), labels('schedule-cancelled'), '~> a day includes its last second');
	assert.equal(await q('>=2026-02-01'), labels('main-running', 'release-queued', 'schedule-cancelled'));
	assert.equal(await q('>2026-02-01'), labels('release-queued', 'schedule-cancelled'), '~> after the day');
	assert.equal(await q('<2026-01-15'), labels('main-success', 'main-timed-out'));
	assert.equal(await q('<=2026-01-15'), labels('main-success', 'main-timed-out', 'pr-failure'));
	assert.equal(await q('2026-01-15..2026-01-31'), labels('pr-failure', 'dev-waiting', 'tag-skipped'), '~> both ends included');
	assert.equal(await q('2026-02-01..*'), labels('main-running', 'release-queued', 'schedule-cancelled'));
	assert.equal(await q('*..2026-01-01'), labels('main-timed-out'));
	assert.equal(await q('2026-01-15T12:30:00Z'), labels('pr-failure'), '~> a date-time is that second');
	assert.equal(
		await q('>2026-01-15T12:30:00Z'),
		labels('dev-waiting', 'tag-skipped', 'main-running', 'release-queued', 'schedule-cancelled'),
	);
	assert.equal(
		await q('>=2026-01-15T14:30:00+02:00'),
		labels('pr-failure', 'dev-waiting', 'tag-skipped', 'main-running', 'release-queued', 'schedule-cancelled'),
		'~> offsets',
	);
	assert.equal(
		await ids('created=>=2026-01-15T14:30:00+02:00'),
		await q('>=2026-01-15T14:30:00+02:00'),
		'~> an unencoded + (a space) is read as +',
	);
	assert.equal(await q('2026-01-15T12:30'), labels('pr-failure'), '~> a minute');
	assert.equal(await q('2026-01-10..2026-01-10T10:00:00Z'), labels('main-success'));
	assert.equal(await q('2026-03-01..2026-02-01'), [], '~> an empty range');
	assert.equal(
		await ids(`created=${encodeURIComponent('>=2026-01-15')}&branch=main`),
		labels('main-running', 'release-queued', 'schedule-cancelled'),
	);
	for (const bad of [
		'yesterday',
		'2026-13-01',
		'2026-02-30',
		'2026-1-1',
		'>=',
		'2026-01-01..',
		'..2026-01-01',
		'2026-01-01T25:00:00Z',
		'2026-01-01...2026-02-01',
		'>>2026-01-01',
	]) {
		const res = await s.get(`/repos/acme/app/actions/runs?created=${encodeURIComponent(bad)}`, member);
		assert.is(res.status, 422, `~> ${bad}`);
		assert.is(res.body.errors[0].field, 'created');
		assert.is(res.body.errors[0].resource, 'WorkflowRun');
	}
});

test('runs – created parser', () => {
	const day = Date.UTC(2026, 0, 1);
	assert.equal(parseCreated('2026-01-01'), { from: day, to: day + 86_400_000 });
	assert.equal(parseCreated('>2026-01-01'), { from: day + 86_400_000, to: null });
	assert.equal(parseCreated('<2026-01-01'), { from: null, to: day });
	assert.equal(parseCreated('*..*'), { from: null, to: null });
	assert.equal(parseCreated('2026-01-01T00:00:00-01:30'), { from: day + 5_400_000, to: day + 5_401_000 });
	assert.throws(
		() => parseCreated('2026-01-01T00:00:00+25:00'),
		(e: unknown) => e instanceof DomainError && e.status === 422,
	);
});

test('runs – exclude_pull_requests, check_suite_id validation, pagination', async () => {
	const all = await s.get('/repos/acme/app/actions/runs?exclude_pull_requests=true', member);
	assert.ok(all.body.workflow_runs.every((r: any) => r.pull_requests.length === 0));
	assert.is(all.body.total_count, 8, '~> not a filter');
	const bad = await s.get('/repos/acme/app/actions/runs?check_suite_id=x1', member);
	assert.is(bad.status, 422);
	assert.is(bad.body.errors[0].field, 'check_suite_id');
	const page = await s.get('/repos/acme/app/actions/runs?per_page=3&page=2', member);
	assert.is(page.body.total_count, 8);
	assert.equal(listIds(page.body), [run['tag-skipped'], run['dev-waiting'], run['pr-failure']]);
	const link = page.headers.get('link')!;
	assert.match(link, `<${s.api}/repos/acme/app/actions/runs?per_page=3&page=3>; rel="next"`);
	assert.match(link, 'page=3>; rel="last"');
	assert.equal((await s.get('/repos/acme/app/actions/runs?per_page=3&page=9', member)).body.workflow_runs, []);
	const filtered = await s.get('/repos/acme/app/actions/runs?branch=main&per_page=2&page=3', member);
	assert.is(filtered.body.total_count, 5);
	assert.equal(listIds(filtered.body), [run['main-timed-out']]);
});

test('runs – per workflow, by id or file name, with filters', async () => {
	const release = await s.get('/repos/acme/app/actions/workflows/release.yml/runs', member);
	assert.is(release.status, 200);
	assert.equal(Object.keys(release.body), ['total_count', 'workflow_runs']);
	assert.equal(listIds(release.body), [run['release-queued'], run['tag-skipped']]);
	assert.ok(release.body.workflow_runs.every((r: any) => r.name === 'Release' && r.path === '.github/workflows/release.yml'));
	assert.equal(
		release.body.workflow_runs.map((r: any) => r.run_number),
		[1, 2],
		'~> numbered per workflow, in import order',
	);
	const ciId = (await s.get('/repos/acme/app/actions/workflows/ci.yml', member)).body.id;
	const ci = await s.get(`/repos/acme/app/actions/workflows/${ciId}/runs`, member);
	assert.is(ci.body.total_count, 6);
	const filtered = await s.get(`/repos/acme/app/actions/workflows/${ciId}/runs?branch=main&status=completed`, member);
	assert.equal(listIds(filtered.body), [run['schedule-cancelled'], run['main-success'], run['main-timed-out']]);
	assert.equal(listIds((await s.get('/repos/acme/app/actions/workflows/release.yml/runs?actor=olivia', member)).body), [
		run['release-queued'],
	]);
	assert.is((await s.get('/repos/acme/app/actions/workflows/old.yaml/runs', member)).body.total_count, 0);
	assert.is((await s.get('/repos/acme/app/actions/workflows/nope.yml/runs', member)).status, 404);
	assert.is((await s.get('/repos/acme/app/actions/workflows/ci.yml/runs?created=soon', member)).status, 422);
	assert.is((await s.get('/repos/acme/secret/actions/workflows/ci.yml/runs')).status, 404);
	assert.is((await s.get('/repos/acme/app/actions/workflows/ci.yml/runs')).status, 200);
});

test('runs – filtered lists return at most 1,000 results', async () => {
	const runs = Array.from({ length: 1100 }, (_, i) => ({
		path: 'ci.yml',
		branch: i % 2 ? 'main' : 'dev',
		event: 'push',
		actor: 'wendy',
		status: 'completed',
		conclusion: i % 3 ? 'success' : 'failure',
		head_sha: SHA('c'),
		created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
	}));
	const result = importRuns(s.app, repos.big, { runs });
	assert.is(result.runs, 1100);
	const all = await s.get('/repos/acme/big/actions/runs?per_page=100', member);
	assert.is(all.body.total_count, 1100, '~> without a filter: every run');
	assert.match(all.headers.get('link')!, 'page=11>; rel="last"');
	assert.is((await s.get('/repos/acme/big/actions/runs?per_page=100&page=11', member)).body.workflow_runs.length, 100);
	const searches = [
		'actor=wendy',
		'event=push',
		`head_sha=${SHA('c')}`,
		'status=completed',
		`created=${encodeURIComponent('>=2026-01-01')}`,
		'check_suite_id=&event=push', // an empty check_suite_id is no filter
		'status=completed&event=push&actor=wendy&created=2026-01-01..*',
	];
	for (const query of searches) {
		const first = await s.get(`/repos/acme/big/actions/runs?${query}&per_page=100`, member);
		assert.is(first.body.total_count, 1000, `~> ${query}: capped`);
		assert.match(first.headers.get('link')!, 'page=10>; rel="last"');
		const last = await s.get(`/repos/acme/big/actions/runs?${query}&per_page=100&page=10`, member);
		assert.is(last.body.workflow_runs.length, 100, `~> ${query}: the 1,000th result is there`);
		assert.equal(
			(await s.get(`/repos/acme/big/actions/runs?${query}&per_page=100&page=11`, member)).body.workflow_runs,
			[],
			`~> ${query}: nothing beyond`,
		);
		const odd = await s.get(`/repos/acme/big/actions/runs?${query}&per_page=30&page=34`, member);
		assert.is(odd.body.workflow_runs.length, 10, `~> ${query}: a page across the cap is cut at 1,000`);
	}
	const ciRuns = await s.get('/repos/acme/big/actions/workflows/ci.yml/runs?per_page=1', member);
	assert.is(ciRuns.body.total_count, 1100, '~> the workflow is not a search filter');
	const main = await s.get('/repos/acme/big/actions/runs?branch=main&per_page=1', member);
	assert.is(main.body.total_count, 550, '~> below the cap: the count');
	const mainFailures = await s.get('/repos/acme/big/actions/runs?branch=main&status=failure&per_page=100&page=2', member);
	assert.is(mainFailures.body.total_count, 183);
	assert.ok(mainFailures.body.workflow_runs.every((r: any) => r.head_branch === 'main' && r.conclusion === 'failure'));
	const newest = (await s.get('/repos/acme/big/actions/runs?per_page=1', member)).body.workflow_runs[0];
	assert.is(newest.created_at, '2026-01-01T18:19:00Z');
	assert.is(newest.run_number, 1100);
});

// ------------------------------------------------------------------------------------------------
// Dispatch

test('dispatch – creates a queued run with one job per workflow job', async () => {
	const defined = importRuns(s.app, repos.dispatch, {
		workflows: [{ name: 'Deploy', path: 'deploy.yml', jobs: [{ name: 'build' }, { name: 'ship', needs: ['build'] }] }],
		runs: [
			{
				path: 'deploy.yml',
				branch: 'main',
				actor: 'olivia',
				head_sha: SHA('9'),
				head_commit: { message: 'Ship it' },
				created_at: '2026-01-01T00:00:00Z',
			},
		],
	});
	assert.is(defined.runs, 1);
	s.clock.advance(60_000);
	const res = await s.request('POST', '/repos/acme/dispatch/actions/workflows/deploy.yml/dispatches', {
		token: writer,
		body: { ref: 'refs/heads/main', inputs: { environment: 'prod', dry_run: false, count: 3 } },
	});
	assert.is(res.status, 204);
	assert.is(res.text, '');
	const [created] = (await s.get('/repos/acme/dispatch/actions/runs?per_page=1', member)).body.workflow_runs;
	assert.is(created.event, 'workflow_dispatch');
	assert.is(created.status, 'queued');
	assert.is(created.conclusion, null);
	assert.is(created.run_number, 2);
	assert.is(created.run_attempt, 1);
	assert.is(created.head_branch, 'main');
	assert.is(created.head_sha, SHA('9'), '~> the branch head as the newest run on it saw it');
	assert.is(created.head_commit.message, 'Ship it');
	assert.is(created.display_title, 'Deploy');
	assert.is(created.actor.login, 'wendy');
	assert.is(created.triggering_actor.login, 'wendy');
	assert.is(created.created_at, '2026-11-22T12:01:00Z');
	assert.is(created.run_started_at, created.created_at);
	const jobs = await s.get(created.jobs_url, member);
	assert.equal(
		jobs.body.jobs.map((j: any) => [j.name, j.status, j.conclusion, j.run_attempt]),
		[
			['build', 'queued', null, 1],
			['ship', 'queued', null, 1],
		],
	);

	const byId = await s.request('POST', `/repos/acme/dispatch/actions/workflows/${created.workflow_id}/dispatches`, {
		token: owner,
		body: { ref: 'feature/new', return_run_details: true },
	});
	assert.is(byId.status, 200, '~> return_run_details');
	assert.equal(Object.keys(byId.body), ['workflow_run_id', 'run_url', 'html_url']);
	const other = (await s.get(`/repos/acme/dispatch/actions/runs/${byId.body.workflow_run_id}`, owner)).body;
	assert.is(byId.body.run_url, other.url);
	assert.is(byId.body.html_url, other.html_url);
	assert.is(other.run_number, 3);
	assert.is(other.head_branch, 'feature/new');
	assert.match(other.head_sha, /^[0-9a-f]{40}$/);
	assert.is(other.head_commit, null, '~> an unknown branch: no commit is known');
	assert.is(other.actor.login, 'olivia');
});

test('dispatch – a new file name registers the workflow; ids and bad names do not', async () => {
	const res = await s.request('POST', '/repos/acme/dispatch/actions/workflows/nightly.yaml/dispatches', {
		token: owner,
		body: { ref: 'main' },
	});
	assert.is(res.status, 204);
	const workflow = await s.get('/repos/acme/dispatch/actions/workflows/nightly.yaml', owner);
	assert.is(workflow.status, 200);
	assert.is(workflow.body.name, 'nightly');
	assert.is(workflow.body.path, '.github/workflows/nightly.yaml');
	const runs = (await s.get('/repos/acme/dispatch/actions/workflows/nightly.yaml/runs', owner)).body;
	assert.is(runs.total_count, 1);
	const jobs = (await s.get(runs.workflow_runs[0].jobs_url, owner)).body.jobs;
	assert.equal(
		jobs.map((j: any) => j.name),
		['nightly'],
		'~> one job named after the workflow',
	);
	assert.is(
		(await s.request('POST', '/repos/acme/dispatch/actions/workflows/999999/dispatches', { token: owner, body: { ref: 'main' } }))
			.status,
		404,
	);
	assert.is(
		(await s.request('POST', '/repos/acme/dispatch/actions/workflows/notes.txt/dispatches', { token: owner, body: { ref: 'main' } }))
			.status,
		404,
	);
	assert.is((await s.get('/repos/acme/dispatch/actions/workflows/notes.txt', owner)).status, 404);
});

test('dispatch – validation', async () => {
	const path = '/repos/acme/dispatch/actions/workflows/deploy.yml/dispatches';
	const before = (await s.get('/repos/acme/dispatch/actions/runs', owner)).body.total_count;
	const tooMany = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v']));
	const cases: Array<[unknown, string]> = [
		[{}, 'ref'],
		[{ ref: '' }, 'ref'],
		[{ ref: 7 }, 'ref'],
		[{ ref: 'bad ref' }, 'ref'],
		[{ ref: 'a..b' }, 'ref'],
		[{ ref: 'main', inputs: tooMany }, 'inputs'],
		[{ ref: 'main', inputs: { nested: { a: 1 } } }, 'inputs.nested'],
		[{ ref: 'main', inputs: ['a'] }, 'inputs'],
		[{ ref: 'main', return_run_details: 'yes' }, 'return_run_details'],
	];
	for (const [body, field] of cases) {
		const res = await s.request('POST', path, { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field && e.resource === 'Workflow'),
			`~> ${JSON.stringify(body)} names ${field}: ${res.text}`,
		);
	}
	assert.is((await s.request('POST', path, { token: owner, raw: '[1]' })).status, 400);
	assert.is((await s.request('POST', path, { token: owner, raw: '{"ref":' })).status, 400);
	importRuns(s.app, repos.dispatch, { workflows: [{ name: 'Off', path: 'off.yml', state: 'disabled_manually' }] });
	const disabled = await s.request('POST', '/repos/acme/dispatch/actions/workflows/off.yml/dispatches', {
		token: owner,
		body: { ref: 'main' },
	});
	assert.is(disabled.status, 422);
	assert.match(disabled.body.message, 'disabled manually');
	assert.is((await s.get('/repos/acme/dispatch/actions/runs', owner)).body.total_count, before, '~> nothing was created');
});

test('dispatch – in a repository with git data: the ref must exist; the run is on its commit', async () => {
	const created = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'gitted' } });
	assert.is(created.status, 201);
	const tree = (
		await s.request('POST', '/repos/acme/gitted/git/trees', {
			token: owner,
			body: { tree: [{ path: 'a', mode: '100644', type: 'blob', content: 'a' }] },
		})
	).body.sha;
	const commit = await s.request('POST', '/repos/acme/gitted/git/commits', {
		token: owner,
		body: {
			message: 'Ship it',
			tree,
			parents: [],
			author: { name: 'Olivia', email: 'olivia@example.com', date: '2026-11-01T10:00:00Z' },
		},
	});
	await s.request('POST', '/repos/acme/gitted/git/refs', { token: owner, body: { ref: 'refs/heads/main', sha: commit.body.sha } });
	const path = '/repos/acme/gitted/actions/workflows/ci.yml/dispatches';
	const missing = await s.request('POST', path, { token: owner, body: { ref: 'nope' } });
	assert.is(missing.status, 422);
	assert.is(missing.body.message, 'No ref found for: nope');
	const res = await s.request('POST', path, { token: owner, body: { ref: 'main', return_run_details: true } });
	assert.is(res.status, 200);
	const run = (await s.get(`/repos/acme/gitted/actions/runs/${res.body.workflow_run_id}`, owner)).body;
	assert.is(run.head_sha, commit.body.sha);
	assert.equal(run.head_commit, {
		id: commit.body.sha,
		tree_id: tree,
		message: 'Ship it',
		timestamp: '2026-11-01T10:00:00Z',
		author: { name: 'Olivia', email: 'olivia@example.com' },
		committer: { name: 'Olivia', email: 'olivia@example.com' },
	});
});

test('dispatch – denial', async () => {
	const path = '/repos/acme/dispatch/actions/workflows/deploy.yml/dispatches';
	const body = { ref: 'main' };
	assert.is((await s.request('POST', path, { body })).status, 401);
	const reader = await s.request('POST', path, { token: member, body });
	assert.is(reader.status, 403, '~> read access is not enough');
	assert.is(reader.body.message, 'Must have push access to the repository to create a workflow dispatch event.');
	const noScope = await s.request('POST', path, { token: s.token('olivia', { scopes: ['read:org'] }), body });
	assert.is(noScope.status, 403);
	assert.is(noScope.headers.get('x-accepted-oauth-scopes'), 'repo');
	const readOnly = await s.request('POST', path, {
		token: s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'read' } }),
		body,
	});
	assert.is(readOnly.status, 403);
	assert.is(readOnly.body.message, 'Resource not accessible by personal access token');
	assert.is(readOnly.headers.get('x-accepted-github-permissions'), 'actions=write');
	const fine = await s.request('POST', path, {
		token: s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'write' } }),
		body,
	});
	assert.is(fine.status, 204, '~> actions:write');
	const app = await s.request('POST', path, {
		token: s.token('olivia', { kind: 'installation', org: 'acme', permissions: { actions: 'write' } }),
		body,
	});
	assert.is(app.status, 204, '~> an installation');
	const [latest] = (await s.get('/repos/acme/dispatch/actions/runs?per_page=1', owner)).body.workflow_runs;
	assert.is(latest.actor.login, 'test-app[bot]', '~> the app bot acts');
	assert.is((await s.request('POST', '/repos/acme/secret/actions/workflows/ci.yml/dispatches', { token: outsider, body })).status, 404);
	assert.is((await s.request('POST', '/repos/acme/nope/actions/workflows/ci.yml/dispatches', { token: owner, body })).status, 404);
});

// ------------------------------------------------------------------------------------------------
// Jobs, re-runs, cancellation

/** A completed CI run in acme/jobs: build ✓, lint ✓, test ✗ (needs build), deploy skipped (needs test, lint). */
function ciRun(overrides: Record<string, unknown> = {}): number {
	return importRuns(s.app, repos.jobs, {
		workflows: s.app.stores.actions.workflowByPath(repos.jobs.id, '.github/workflows/ci.yml')
			? []
			: [{ name: 'CI', path: 'ci.yml', jobs: CI_JOBS }],
		runs: [
			{
				path: 'ci.yml',
				branch: 'main',
				actor: 'olivia',
				status: 'completed',
				conclusion: 'failure',
				created_at: '2026-03-01T10:00:00Z',
				updated_at: '2026-03-01T10:20:00Z',
				jobs: [
					{
						name: 'build',
						status: 'completed',
						conclusion: 'success',
						started_at: '2026-03-01T10:00:00Z',
						completed_at: '2026-03-01T10:05:00Z',
						labels: ['ubuntu-latest', 'x64'],
						steps: [{ name: 'Checkout', status: 'completed', conclusion: 'success' }],
						runner_name: 'runner-1',
						runner_id: 4,
					},
					{ name: 'lint', status: 'completed', conclusion: 'success', completed_at: '2026-03-01T10:02:00Z' },
					{ name: 'test', needs: ['build'], status: 'completed', conclusion: 'failure', completed_at: '2026-03-01T10:15:00Z' },
					{
						name: 'deploy',
						needs: ['test', 'lint'],
						status: 'completed',
						conclusion: 'skipped',
						completed_at: '2026-03-01T10:15:00Z',
					},
				],
				...overrides,
			},
		],
	}).run_ids[0];
}

const jobsOf = async (runId: number, query = '') =>
	(await s.get(`/repos/acme/jobs/actions/runs/${runId}/jobs${query}`, member)).body.jobs as any[];

test('jobs – list (latest, all) and get', async () => {
	const runId = ciRun();
	const list = await s.get(`/repos/acme/jobs/actions/runs/${runId}/jobs`, member);
	assert.is(list.status, 200);
	assert.equal(Object.keys(list.body), ['total_count', 'jobs']);
	assert.is(list.body.total_count, 4);
	const build = list.body.jobs[0];
	assert.equal(Object.keys(build), JOB_KEYS);
	const api = `${s.api}/repos/acme/jobs`;
	assert.equal(build, {
		id: build.id,
		run_id: runId,
		workflow_name: 'CI',
		head_branch: 'main',
		run_url: `${api}/actions/runs/${runId}`,
		run_attempt: 1,
		node_id: nodeId('WorkflowJob', build.id),
		head_sha: build.head_sha,
		url: `${api}/actions/jobs/${build.id}`,
		html_url: `${s.origin}/acme/jobs/actions/runs/${runId}/job/${build.id}`,
		status: 'completed',
		conclusion: 'success',
		created_at: '2026-03-01T10:00:00Z',
		started_at: '2026-03-01T10:00:00Z',
		completed_at: '2026-03-01T10:05:00Z',
		name: 'build',
		steps: [{ name: 'Checkout', status: 'completed', conclusion: 'success', number: 1, started_at: null, completed_at: null }],
		check_run_url: `${api}/check-runs/${build.id}`,
		labels: ['ubuntu-latest', 'x64'],
		runner_id: 4,
		runner_name: 'runner-1',
		runner_group_id: null,
		runner_group_name: null,
	});
	const page = await s.get(`/repos/acme/jobs/actions/runs/${runId}/jobs?per_page=3&page=2`, member);
	assert.equal(
		page.body.jobs.map((j: any) => j.name),
		['deploy'],
	);
	assert.is(page.body.total_count, 4);
	assert.match(page.headers.get('link')!, 'rel="first"');
	assert.is((await s.get(`/repos/acme/jobs/actions/runs/${runId}/jobs?filter=all`, member)).body.total_count, 4);
	const bad = await s.get(`/repos/acme/jobs/actions/runs/${runId}/jobs?filter=some`, member);
	assert.is(bad.status, 422);
	assert.is(bad.body.errors[0].field, 'filter');
	assert.is((await s.get('/repos/acme/jobs/actions/runs/999999/jobs', member)).status, 404);

	const one = await s.get(`/repos/acme/jobs/actions/jobs/${build.id}`);
	assert.is(one.status, 200, '~> anonymous on a public repository');
	assert.equal(one.body, build);
	assert.is((await s.get(`/repos/acme/app/actions/jobs/${build.id}`, member)).status, 404, '~> a job of another repository');
	assert.is((await s.get('/repos/acme/jobs/actions/jobs/999999', member)).status, 404);
	assert.is((await s.get('/repos/acme/jobs/actions/jobs/x', member)).status, 404);
	const secretRun = (await s.get('/repos/acme/secret/actions/runs', owner)).body.workflow_runs[0];
	const secretJob = (await s.get(`/repos/acme/secret/actions/runs/${secretRun.id}/jobs`, owner)).body.jobs[0];
	assert.is((await s.get(`/repos/acme/secret/actions/jobs/${secretJob.id}`, owner)).status, 200);
	assert.is((await s.get(`/repos/acme/secret/actions/jobs/${secretJob.id}`)).status, 404);
	assert.is((await s.get(`/repos/acme/secret/actions/runs/${secretRun.id}/jobs`, outsider)).status, 404);
});

test('re-run a job – re-queues it and every job that needs it; run_attempt + 1', async () => {
	const runId = ciRun();
	const [build, lint, testJob, deploy] = await jobsOf(runId);
	s.clock.advance(3_600_000);
	const res = await s.request('POST', `/repos/acme/jobs/actions/jobs/${build.id}/rerun`, {
		token: writer,
		body: { enable_debug_logging: true },
	});
	assert.is(res.status, 201);
	assert.equal(res.body, {});
	const after = (await s.get(`/repos/acme/jobs/actions/runs/${runId}`, member)).body;
	assert.is(after.status, 'queued');
	assert.is(after.conclusion, null);
	assert.is(after.run_attempt, 2);
	assert.is(after.previous_attempt_url, `${s.api}/repos/acme/jobs/actions/runs/${runId}/attempts/1`);
	assert.is(after.run_started_at, '2026-11-22T13:01:00Z');
	assert.is(after.updated_at, after.run_started_at);
	assert.is(after.triggering_actor.login, 'wendy');
	assert.is(after.actor.login, 'olivia', '~> the actor stays');
	const latest = await jobsOf(runId);
	assert.equal(
		latest.map((j: any) => [j.name, j.status, j.conclusion, j.run_attempt]),
		[
			['build', 'queued', null, 2],
			['lint', 'completed', 'success', 2],
			['test', 'queued', null, 2],
			['deploy', 'queued', null, 2],
		],
		'~> build, test (needs build) and deploy (needs test) again; lint carried over',
	);
	assert.ok(
		latest.every((j: any) => ![build.id, lint.id, testJob.id, deploy.id].includes(j.id)),
		'~> the new attempt has its own job ids',
	);
	assert.is(latest[1].completed_at, lint.completed_at);
	assert.is(latest[0].started_at, '2026-11-22T13:01:00Z');
	assert.equal(latest[0].steps, []);
	const all = await jobsOf(runId, '?filter=all');
	assert.is(all.length, 8, '~> both attempts');
	const old = (await s.get(`/repos/acme/jobs/actions/jobs/${build.id}`, member)).body;
	assert.equal([old.status, old.conclusion, old.run_attempt], ['completed', 'success', 1], '~> the first attempt stays as it ended');

	const again = await s.request('POST', `/repos/acme/jobs/actions/jobs/${latest[0].id}/rerun`, { token: writer });
	assert.is(again.status, 403, '~> the run is not completed');
	assert.is(again.body.message, 'This workflow run is not completed');
});

test("re-run a job – only the dependents of the chosen job; an old attempt's job is refused", async () => {
	const runId = ciRun();
	const [build, , testJob] = await jobsOf(runId);
	assert.is((await s.request('POST', `/repos/acme/jobs/actions/jobs/${testJob.id}/rerun`, { token: owner })).status, 201);
	assert.equal(
		(await jobsOf(runId)).map((j: any) => [j.name, j.status]),
		[
			['build', 'completed'],
			['lint', 'completed'],
			['test', 'queued'],
			['deploy', 'queued'],
		],
	);
	// Finish the attempt through the runner's transitions, then try the first attempt's job.
	const repo = repos.jobs;
	const current = await jobsOf(runId);
	assert.is(advanceJob(s.app, repo, current[2].id, { status: 'in_progress' }, '2026-11-22T14:00:00Z').status, 'in_progress');
	advanceJob(s.app, repo, current[2].id, { status: 'completed', conclusion: 'success' }, '2026-11-22T14:05:00Z');
	advanceJob(s.app, repo, current[3].id, { status: 'in_progress' }, '2026-11-22T14:06:00Z');
	const done = advanceJob(s.app, repo, current[3].id, { status: 'completed', conclusion: 'success' }, '2026-11-22T14:07:00Z');
	assert.equal([done.status, done.conclusion], ['completed', 'success']);
	const stale = await s.request('POST', `/repos/acme/jobs/actions/jobs/${build.id}/rerun`, { token: owner });
	assert.is(stale.status, 403);
	assert.match(stale.body.message, 'latest attempt');
	assert.is(
		(await s.request('POST', `/repos/acme/jobs/actions/jobs/${current[0].id}/rerun`, { token: owner })).status,
		201,
		'~> a job of the latest attempt',
	);
	assert.is((await s.get(`/repos/acme/jobs/actions/runs/${runId}`, owner)).body.run_attempt, 3);
});

test('re-run a job – validation and denial', async () => {
	const runId = ciRun();
	const [build] = await jobsOf(runId);
	const path = `/repos/acme/jobs/actions/jobs/${build.id}/rerun`;
	for (const body of [{ enable_debug_logging: 'yes' }, { enable_debugger: 1 }]) {
		const res = await s.request('POST', path, { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.is(res.body.errors[0].resource, 'WorkflowJob');
	}
	assert.is((await s.request('POST', path, { body: {} })).status, 401);
	const reader = await s.request('POST', path, { token: member });
	assert.is(reader.status, 403);
	assert.is(reader.body.message, 'Must have push access to the repository to re run a job from a workflow run.');
	assert.is(
		(
			await s.request('POST', path, {
				token: s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'read' } }),
			})
		).status,
		403,
	);
	assert.is((await s.request('POST', path, { token: s.token('olivia', { scopes: ['public_repo'] }) })).status, 403);
	assert.is(
		(await s.request('POST', `/repos/acme/app/actions/jobs/${build.id}/rerun`, { token: owner })).status,
		404,
		'~> a job of another repository',
	);
	assert.is((await s.request('POST', '/repos/acme/jobs/actions/jobs/999999/rerun', { token: owner })).status, 404);
	assert.is((await s.get(`/repos/acme/jobs/actions/runs/${runId}`, owner)).body.run_attempt, 1, '~> nothing changed');
	const limit = ciRun({ run_attempt: 51 });
	const [limited] = await jobsOf(limit);
	const refused = await s.request('POST', `/repos/acme/jobs/actions/jobs/${limited.id}/rerun`, { token: owner });
	assert.is(refused.status, 403);
	assert.match(refused.body.message, 'maximum');
	assert.is(
		(
			await s.request('POST', path, {
				token: s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'write' } }),
			})
		).status,
		201,
	);
});

test('re-run a workflow – every job queued again', async () => {
	const runId = ciRun();
	const path = `/repos/acme/jobs/actions/runs/${runId}/rerun`;
	assert.is((await s.request('POST', path, { token: owner, body: { enable_debug_logging: 'x' } })).status, 422);
	assert.is((await s.request('POST', path, { token: member })).status, 403);
	assert.is((await s.request('POST', path)).status, 401);
	assert.is((await s.request('POST', `/repos/acme/app/actions/runs/${runId}/rerun`, { token: owner })).status, 404);
	const res = await s.request('POST', path, { token: owner, body: { enable_debug_logging: false } });
	assert.is(res.status, 201);
	assert.equal(res.body, {});
	const after = (await s.get(`/repos/acme/jobs/actions/runs/${runId}`, owner)).body;
	assert.equal([after.status, after.conclusion, after.run_attempt], ['queued', null, 2]);
	assert.ok((await jobsOf(runId)).every((j: any) => j.status === 'queued' && j.run_attempt === 2));
	const again = await s.request('POST', path, { token: owner });
	assert.is(again.status, 403);
	assert.is(again.body.message, 'This workflow run is not completed');
});

test('cancel – completes the run and its unfinished jobs as cancelled; 409 when completed', async () => {
	const runId = importRuns(s.app, repos.jobs, {
		runs: [
			{
				path: 'ci.yml',
				actor: 'wendy',
				status: 'in_progress',
				created_at: '2026-03-02T00:00:00Z',
				jobs: [
					{ name: 'build', status: 'completed', conclusion: 'success' },
					{ name: 'lint', status: 'in_progress' },
					{ name: 'test', needs: ['build'], status: 'queued' },
					{ name: 'deploy', needs: ['test', 'lint'], status: 'queued' },
				],
			},
		],
	}).run_ids[0];
	const path = `/repos/acme/jobs/actions/runs/${runId}/cancel`;
	assert.is((await s.request('POST', path)).status, 401);
	assert.is((await s.request('POST', path, { token: member })).status, 403);
	assert.is(
		(
			await s.request('POST', path, {
				token: s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'read' } }),
			})
		).status,
		403,
	);
	assert.is((await s.request('POST', `/repos/acme/app/actions/runs/${runId}/cancel`, { token: owner })).status, 404);
	assert.is((await s.request('POST', '/repos/acme/jobs/actions/runs/999999/cancel', { token: owner })).status, 404);
	const res = await s.request('POST', path, { token: writer });
	assert.is(res.status, 202);
	assert.equal(res.body, {});
	const after = (await s.get(`/repos/acme/jobs/actions/runs/${runId}`, owner)).body;
	assert.equal([after.status, after.conclusion], ['completed', 'cancelled']);
	assert.equal(
		(await jobsOf(runId)).map((j: any) => [j.name, j.status, j.conclusion]),
		[
			['build', 'completed', 'success'],
			['lint', 'completed', 'cancelled'],
			['test', 'completed', 'cancelled'],
			['deploy', 'completed', 'cancelled'],
		],
	);
	const twice = await s.request('POST', path, { token: writer });
	assert.is(twice.status, 409);
	assert.is(twice.body.message, 'Cannot cancel a workflow run that is completed.');
	assert.is(
		(await s.request('POST', `/repos/acme/jobs/actions/runs/${runId}/rerun`, { token: writer })).status,
		201,
		'~> a cancelled run can be re-run',
	);
	assert.is((await s.request('POST', path, { token: writer })).status, 202, '~> and the re-run cancelled');
});

test('transitions – only the ones GitHub makes', async () => {
	const runId = importRuns(s.app, repos.jobs, {
		runs: [{ path: 'ci.yml', actor: 'mike', status: 'queued', created_at: '2026-03-03T00:00:00Z' }],
	}).run_ids[0];
	const [build, lint, testJob, deploy] = await jobsOf(runId);
	assert.equal(
		[build, lint, testJob, deploy].map((j) => j.status),
		['queued', 'queued', 'queued', 'queued'],
		'~> generated jobs follow the run',
	);
	const refuse = (jobId: number, change: any, text: string) =>
		assert.throws(
			() => advanceJob(s.app, repos.jobs, jobId, change, '2026-03-03T00:01:00Z'),
			(e: unknown) => e instanceof DomainError && e.status === 422 && e.message.includes(text),
		);
	refuse(testJob.id, { status: 'in_progress' }, 'cannot start before "build"');
	refuse(build.id, { status: 'completed' }, 'conclusion exactly when it is completed');
	refuse(build.id, { status: 'in_progress', conclusion: 'success' }, 'conclusion exactly when it is completed');
	refuse(build.id, { status: 'completed', conclusion: 'stale' }, 'not a job conclusion');
	assert.is(
		advanceJob(s.app, repos.jobs, build.id, { status: 'waiting' }, '2026-03-03T00:01:00Z').status,
		'waiting',
		'~> waiting before in_progress',
	);
	assert.is(advanceJob(s.app, repos.jobs, build.id, { status: 'in_progress' }, '2026-03-03T00:02:00Z').status, 'in_progress');
	refuse(build.id, { status: 'queued' }, 'from in_progress to queued');
	refuse(build.id, { status: 'waiting' }, 'from in_progress to waiting');
	advanceJob(s.app, repos.jobs, build.id, { status: 'completed', conclusion: 'success' }, '2026-03-03T00:03:00Z');
	refuse(build.id, { status: 'in_progress' }, 'from completed to in_progress');
	refuse(build.id, { status: 'completed', conclusion: 'failure' }, 'from completed to completed');
	advanceJob(s.app, repos.jobs, testJob.id, { status: 'in_progress' }, '2026-03-03T00:04:00Z');
	advanceJob(s.app, repos.jobs, testJob.id, { status: 'completed', conclusion: 'failure' }, '2026-03-03T00:05:00Z');
	advanceJob(s.app, repos.jobs, lint.id, { status: 'completed', conclusion: 'success' }, '2026-03-03T00:05:00Z');
	let now = (await s.get(`/repos/acme/jobs/actions/runs/${runId}`, owner)).body;
	assert.equal([now.status, now.conclusion], ['in_progress', null], '~> a job still queued');
	const done = advanceJob(s.app, repos.jobs, deploy.id, { status: 'completed', conclusion: 'skipped' }, '2026-03-03T00:06:00Z');
	assert.equal(
		[done.status, done.conclusion, done.updated_at],
		['completed', 'failure', '2026-03-03T00:06:00Z'],
		'~> a failed job fails the run',
	);
	now = (await s.get(`/repos/acme/jobs/actions/runs/${runId}`, owner)).body;
	assert.is(now.status, 'completed');
	assert.equal(
		(await jobsOf(runId)).map((j: any) => [j.status, j.completed_at]),
		[
			['completed', '2026-03-03T00:03:00Z'],
			['completed', '2026-03-03T00:05:00Z'],
			['completed', '2026-03-03T00:05:00Z'],
			['completed', '2026-03-03T00:06:00Z'],
		],
	);
	assert.throws(
		() => advanceJob(s.app, repos.jobs, 999999, { status: 'in_progress' }, '2026-03-03T00:07:00Z'),
		(e: unknown) => e instanceof DomainError && e.status === 404,
	);
});

// ------------------------------------------------------------------------------------------------
// Events (workflow_dispatch, workflow_run, workflow_job)

test('events – dispatch: workflow_dispatch, workflow_run requested, workflow_job queued per job; GitHub payloads', async () => {
	const mark = eventMark();
	importRuns(s.app, repos.events, {
		workflows: [{ name: 'Deploy', path: 'deploy.yml', jobs: [{ name: 'build' }, { name: 'ship', needs: ['build'] }] }],
	});
	assert.equal(eventsSince(mark), [], '~> registering workflows records nothing');
	const capture = captureWebhooks();
	try {
		const res = await s.request('POST', '/repos/acme/events/actions/workflows/deploy.yml/dispatches', {
			token: writer,
			body: { ref: 'main', inputs: { environment: 'prod', dry_run: false }, return_run_details: true },
		});
		assert.is(res.status, 200);
		assert.is(
			(
				await s.request('POST', '/repos/acme/events/actions/workflows/deploy.yml/dispatches', {
					token: member,
					body: { ref: 'main' },
				})
			).status,
			403,
		);
		assert.equal(
			eventsSince(mark),
			[
				'workflow_dispatch by wendy',
				'workflow_run.requested by wendy',
				'workflow_job.queued by wendy',
				'workflow_job.queued by wendy',
			],
			'~> a refused dispatch records nothing',
		);
		const [dispatch, requested, ...queued] = capture.seen;
		assert.equal([dispatch.event, dispatch.action], ['workflow_dispatch', null]);
		assert.equal(dispatch.payload, {
			inputs: { environment: 'prod', dry_run: false },
			ref: 'refs/heads/main',
			workflow: '.github/workflows/deploy.yml',
			repository: dispatch.payload.repository,
			organization: dispatch.payload.organization,
			sender: dispatch.payload.sender,
		});
		assert.is(dispatch.payload.repository.full_name, 'acme/events');
		assert.is(dispatch.payload.organization.login, 'acme');
		assert.is(dispatch.payload.sender.login, 'wendy');

		assert.equal([requested.event, requested.action], ['workflow_run', 'requested']);
		assert.equal(Object.keys(requested.payload), ['workflow_run', 'workflow', 'repository', 'organization', 'sender']);
		const run = (await s.get(`/repos/acme/events/actions/runs/${res.body.workflow_run_id}`, member)).body;
		assert.equal(requested.payload.workflow_run, run, '~> the run as the API renders it');
		assert.equal(Object.keys(requested.payload.workflow_run), RUN_KEYS);
		assert.is(requested.payload.workflow_run.status, 'queued');
		assert.is(
			requested.payload.workflow_run.actor.login,
			'wendy',
			'~> actor and triggering_actor: who a notification of the finished run is for',
		);
		assert.is(requested.payload.workflow_run.triggering_actor.login, 'wendy');
		assert.equal(Object.keys(requested.payload.workflow), WORKFLOW_KEYS);
		assert.is(requested.payload.workflow.path, '.github/workflows/deploy.yml');
		assert.is(requested.payload.sender.login, 'wendy');

		const jobs = (await s.get(`/repos/acme/events/actions/runs/${run.id}/jobs`, member)).body.jobs;
		assert.equal(
			queued.map((e) => [e.event, e.action]),
			[
				['workflow_job', 'queued'],
				['workflow_job', 'queued'],
			],
		);
		assert.equal(
			queued.map((e) => e.payload.workflow_job),
			jobs,
			'~> each job as the API renders it',
		);
		assert.equal(Object.keys(queued[0].payload), ['workflow_job', 'repository', 'organization', 'sender']);
		assert.equal(Object.keys(queued[0].payload.workflow_job), JOB_KEYS);
	} finally {
		capture.stop();
	}
});

test('events – advance-job, cancel and re-run: workflow_job per job change, workflow_run in_progress and completed', async () => {
	const mark = eventMark();
	const runId = importRuns(s.app, repos.events, {
		runs: [{ path: 'deploy.yml', actor: 'mike', triggering_actor: 'wendy', status: 'queued', created_at: '2026-05-01T00:00:00Z' }],
	}).run_ids[0];
	const [build, ship] = s.app.stores.actions.jobs(runId, 1).rows;
	const step = (label: string, action: () => unknown, expected: string[]) => {
		const before = eventMark();
		action();
		assert.equal(eventsSince(before), expected, `~> ${label}`);
	};
	assert.equal(
		eventsSince(mark),
		['workflow_run.requested by wendy', 'workflow_job.queued by wendy', 'workflow_job.queued by wendy'],
		'~> an imported queued run is announced',
	);
	const capture = captureWebhooks();
	try {
		// A runner's changes are sent for the run's triggering actor.
		step(
			'build starts: the run starts',
			() => advanceJob(s.app, repos.events, build.id, { status: 'in_progress' }, '2026-05-01T00:01:00Z'),
			['workflow_job.in_progress by wendy', 'workflow_run.in_progress by wendy'],
		);
		step(
			'build completes: the run goes on',
			() => advanceJob(s.app, repos.events, build.id, { status: 'completed', conclusion: 'success' }, '2026-05-01T00:02:00Z'),
			['workflow_job.completed by wendy'],
		);
		step('ship waits for approval', () => advanceJob(s.app, repos.events, ship.id, { status: 'waiting' }, '2026-05-01T00:03:00Z'), [
			'workflow_job.waiting by wendy',
		]);
		const waiting = capture.seen.at(-1)!;
		assert.equal(
			[waiting.action, waiting.payload.workflow_job.status, waiting.payload.workflow_job.name],
			['waiting', 'waiting', 'ship'],
		);
		const completedJob = capture.seen.find((e) => e.event === 'workflow_job' && e.action === 'completed')!;
		assert.equal(
			[completedJob.payload.workflow_job.conclusion, completedJob.payload.workflow_job.completed_at],
			['success', '2026-05-01T00:02:00Z'],
		);

		const before = eventMark();
		assert.is((await s.request('POST', `/repos/acme/events/actions/runs/${runId}/cancel`, { token: owner })).status, 202);
		assert.equal(
			eventsSince(before),
			['workflow_job.completed by olivia', 'workflow_run.completed by olivia'],
			'~> cancel: the unfinished job, then the run',
		);
		const completed = capture.seen.at(-1)!;
		assert.equal([completed.event, completed.action], ['workflow_run', 'completed']);
		const run = completed.payload.workflow_run;
		assert.equal(
			[run.status, run.conclusion, run.actor.login, run.triggering_actor.login],
			['completed', 'cancelled', 'mike', 'wendy'],
			'~> the actor and the triggering user of the finished run',
		);
		assert.is(completed.payload.sender.login, 'olivia');
		assert.is((await s.request('POST', `/repos/acme/events/actions/runs/${runId}/cancel`, { token: owner })).status, 409);
		assert.equal(eventsSince(before).length, 2, '~> a refused cancel records nothing');

		const rerun = eventMark();
		assert.is((await s.request('POST', `/repos/acme/events/actions/jobs/${ship.id}/rerun`, { token: owner })).status, 201);
		assert.equal(
			eventsSince(rerun),
			['workflow_run.requested by olivia', 'workflow_job.queued by olivia'],
			'~> the new attempt; only the job run again is queued',
		);
		const again = capture.seen.at(-2)!.payload.workflow_run;
		assert.equal([again.run_attempt, again.status, again.actor.login, again.triggering_actor.login], [2, 'queued', 'mike', 'olivia']);
		const [, ship2] = s.app.stores.actions.jobs(runId, 2).rows;
		step(
			'the new attempt starts: triggered by olivia now',
			() => advanceJob(s.app, repos.events, ship2.id, { status: 'in_progress' }, '2026-05-01T00:05:00Z'),
			['workflow_job.in_progress by olivia', 'workflow_run.in_progress by olivia'],
		);
		step(
			'and completes',
			() => advanceJob(s.app, repos.events, ship2.id, { status: 'completed', conclusion: 'success' }, '2026-05-01T00:06:00Z'),
			['workflow_job.completed by olivia', 'workflow_run.completed by olivia'],
		);
		assert.equal(
			[capture.seen.at(-1)!.payload.workflow_run.conclusion, capture.seen.at(-1)!.payload.workflow_run.run_attempt],
			['success', 2],
		);
		step(
			'a refused transition records nothing',
			() => assert.throws(() => advanceJob(s.app, repos.events, ship2.id, { status: 'in_progress' }, '2026-05-01T00:07:00Z')),
			[],
		);
	} finally {
		capture.stop();
	}
});

test('events – import: completed runs are history (nothing recorded); unfinished runs are announced as they stand', async () => {
	const mark = eventMark();
	importRuns(s.app, repos.events, {
		runs: [
			{ path: 'deploy.yml', actor: 'mike', status: 'completed', conclusion: 'failure', created_at: '2026-04-01T00:00:00Z' },
			{
				path: 'ci.yml',
				actor: 'mike',
				status: 'in_progress',
				created_at: '2026-04-02T00:00:00Z',
				jobs: [
					{ name: 'build', status: 'completed', conclusion: 'success' },
					{ name: 'lint', status: 'in_progress' },
					{ name: 'test', needs: ['build'], status: 'queued' },
					{ name: 'gate', status: 'pending' },
				],
			},
		],
	});
	assert.equal(
		eventsSince(mark),
		['workflow_run.requested by mike', 'workflow_job.in_progress by mike', 'workflow_job.queued by mike'],
		'~> no job action for pending; completed jobs are history',
	);
});

// ------------------------------------------------------------------------------------------------
// importRuns

test('importRuns – defaults, and every problem named, nothing written', async () => {
	const before = s.app.stores.actions.repoRunsCount(repos.dispatch.id);
	const bad = (input: unknown, ...fields: string[]) => {
		try {
			importRuns(s.app, repos.dispatch, input);
			assert.unreachable(`~> ${JSON.stringify(input)} is refused`);
		} catch (error) {
			assert.instance(error, DomainError);
			const found = (error as DomainError).errors!.map((e) => e.field);
			for (const field of fields)
				assert.ok(found.includes(field), `~> names ${field}: ${JSON.stringify((error as DomainError).errors)}`);
		}
	};
	bad({ runs: [{}] }, 'runs.0.path');
	bad({ runs: [{ path: 'ci.yml', status: 'done' }] }, 'runs.0.status');
	bad({ runs: [{ path: 'ci.yml', created_at: 'yesterday' }] }, 'runs.0.created_at');
	bad({ runs: [{ path: 'ci.yml', head_sha: 'abc' }] }, 'runs.0.head_sha');
	bad({ runs: [{ path: 'ci.yml', status: 'completed', conclusion: null }] }, 'runs[0].conclusion');
	bad({ runs: [{ path: 'ci.yml', status: 'queued', conclusion: 'success' }] }, 'runs[0].conclusion');
	bad({ runs: [{ path: 'ci.yml' }, { path: 'ci.yml', actor: 'nobody' }] }, 'runs[1].actor');
	bad({ runs: [{ path: 'ci.yml', actor: 'acme' }] }, 'runs[0].actor');
	bad({ runs: [{ path: 'src/ci.yml' }] }, 'runs[0].path');
	bad({ runs: [{ path: 'ci.yml', status: 'completed', jobs: [{ name: 'a', status: 'queued' }] }] }, 'runs[0].jobs[0].status');
	bad(
		{
			runs: [
				{
					path: 'ci.yml',
					status: 'in_progress',
					jobs: [
						{ name: 'a', status: 'queued' },
						{ name: 'b', needs: ['a'], status: 'in_progress' },
					],
				},
			],
		},
		'runs[0].jobs[1].status',
	);
	bad(
		{
			runs: [
				{
					path: 'ci.yml',
					jobs: [
						{ name: 'a', needs: ['b'] },
						{ name: 'b', needs: ['a'] },
					],
				},
			],
		},
		'runs[0].jobs',
	);
	bad({ runs: [{ path: 'ci.yml', jobs: [{ name: 'a', needs: ['zz'] }] }] }, 'runs[0].jobs');
	bad(
		{
			workflows: [
				{ name: 'X', path: 'x.yml' },
				{ name: 'Y', path: '.github/workflows/x.yml' },
			],
		},
		'workflows[1].path',
	);
	bad({ workflows: [{ name: 'X', path: 'x.yml', jobs: [{ name: 'a' }, { name: 'a' }] }] }, 'workflows[0].jobs');
	bad('nonsense');
	assert.is(s.app.stores.actions.repoRunsCount(repos.dispatch.id), before);
	assert.throws(
		() => importRuns(s.app, 'acme/nope', []),
		(e: unknown) => e instanceof DomainError && e.errors![0].message === 'unknown repository "acme/nope"',
	);

	bad([{ path: 'lint.yml' }], 'runs[0].actor');
	const result = importRuns(s.app, 'acme/dispatch', [
		{ path: 'lint.yml', name: 'Lint', actor: 'mike', status: 'in_progress', created_at: '2026-04-01T00:00:00+02:00' },
	]);
	assert.equal([result.workflows, result.runs, result.jobs], [1, 1, 1]);
	const row = s.app.stores.actions.run(repos.dispatch.id, result.run_ids[0])!;
	assert.equal(
		[
			row.name,
			row.event,
			row.head_branch,
			row.status,
			row.conclusion,
			row.created_at,
			row.run_number,
			row.check_suite_id,
			row.display_title,
		],
		['Lint', 'push', 'main', 'in_progress', null, '2026-03-31T22:00:00Z', 1, row.id, 'Lint'],
	);
	assert.equal(
		[row.actor_id, row.triggering_actor_id],
		[s.app.stores.accounts.user('mike')!.id, s.app.stores.accounts.user('mike')!.id],
		'~> triggering_actor defaults to actor',
	);
	s.user('uma');
	const own = await s.request('POST', '/user/repos', { token: s.fullToken('uma'), body: { name: 'mine' } });
	assert.is(own.status, 201);
	const mine = importRuns(s.app, 'uma/mine', [{ path: 'ci.yml' }]);
	assert.is(
		s.app.stores.actions.run(own.body.id, mine.run_ids[0])!.actor_id,
		own.body.owner.id,
		"~> a user's repository: its owner by default",
	);
	const jobs = s.app.stores.actions.jobs(row.id, 1).rows;
	assert.equal(
		jobs.map((j) => [j.name, j.status]),
		[['Lint', 'in_progress']],
	);
});

test("artifacts – a run's list is empty (Gitstead stores no artifacts); 404s; hidden private runs", async () => {
	const id = run['main-success'];
	const list = await s.get(`/repos/acme/app/actions/runs/${id}/artifacts`, member);
	assert.is(list.status, 200, `~> a reader lists the run's artifacts: ${list.text}`);
	assert.equal(list.body, { total_count: 0, artifacts: [] }, '~> none: runs are imported, their artifacts are not');
	assert.is(
		(await s.get(`/repos/acme/app/actions/runs/${id}/artifacts?per_page=100`)).status,
		200,
		'~> public: anonymous reads (gh run view asks per_page=100)',
	);
	assert.is((await s.get('/repos/acme/app/actions/runs/999999/artifacts', member)).status, 404, '~> an unknown run');
	const secret = (await s.get('/repos/acme/secret/actions/runs', owner)).body.workflow_runs[0].id;
	assert.is(
		(await s.get(`/repos/acme/secret/actions/runs/${secret}/artifacts`, owner)).status,
		200,
		"~> the owner reads a private run's list",
	);
	assert.is((await s.get(`/repos/acme/secret/actions/runs/${secret}/artifacts`, outsider)).status, 404, '~> hidden from outsiders');
	assert.is((await s.get(`/repos/acme/secret/actions/runs/${secret}/artifacts`)).status, 404, '~> and from anonymous callers');
	assert.is(
		(await s.get(`/repos/acme/secret/actions/runs/${secret}/artifacts`, s.token('olivia', { scopes: ['read:org'] }))).status,
		404,
		'~> a classic token without repo',
	);
	// GitHub validates nothing else here (name is any string): a run id that is no number is not found.
	assert.is((await s.get('/repos/acme/app/actions/runs/abc/artifacts', member)).status, 404, '~> a run id that is no number: 404');
	assert.equal(
		(await s.get(`/repos/acme/app/actions/runs/${id}/artifacts?name=dist`, member)).body,
		{ total_count: 0, artifacts: [] },
		'~> filtered by name: none either',
	);
});

test('workflows – disable and enable: 204, the state, dispatches refused while disabled; denial and 404s', async () => {
	const path = '/repos/acme/dispatch/actions/workflows';
	await s.request('POST', `${path}/toggle.yml/dispatches`, { token: writer, body: { ref: 'main' } });
	const id = (await s.get(`${path}/toggle.yml`, member)).body.id;
	const off = await s.request('PUT', `${path}/${id}/disable`, { token: writer });
	assert.is(off.status, 204, `~> a writer disables it: ${off.text}`);
	assert.is((await s.get(`${path}/toggle.yml`, member)).body.state, 'disabled_manually', '~> disabled by hand');
	const refused = await s.request('POST', `${path}/toggle.yml/dispatches`, { token: writer, body: { ref: 'main' } });
	assert.is(refused.status, 422, '~> a disabled workflow is not dispatched');
	assert.is((await s.request('PUT', `${path}/toggle.yml/disable`, { token: writer })).status, 204, '~> by file name too; twice is fine');
	const on = await s.request('PUT', `${path}/toggle.yml/enable`, { token: owner });
	assert.is(on.status, 204, '~> the owner enables it');
	assert.is((await s.get(`${path}/toggle.yml`, member)).body.state, 'active', '~> active again');
	assert.is(
		(await s.request('POST', `${path}/toggle.yml/dispatches`, { token: writer, body: { ref: 'main' } })).status,
		204,
		'~> dispatched again',
	);
	assert.is((await s.request('PUT', `${path}/${id}/disable`)).status, 401, '~> anonymous: 401');
	assert.is((await s.request('PUT', `${path}/${id}/disable`, { token: member })).status, 403, '~> a reader may not');
	assert.is(
		(await s.request('PUT', `${path}/${id}/disable`, { token: outsider })).status,
		403,
		'~> nor an outsider (a public repository)',
	);
	assert.is((await s.request('PUT', `${path}/nope.yml/disable`, { token: owner })).status, 404, '~> an unknown workflow');
	const secret = (await s.get('/repos/acme/secret/actions/workflows', owner)).body.workflows[0].id;
	assert.is(
		(await s.request('PUT', `/repos/acme/secret/actions/workflows/${secret}/disable`, { token: outsider })).status,
		404,
		'~> a hidden private repository',
	);
	assert.is(
		(await s.request('PUT', `${path}/${id}/enable`, { token: s.token('olivia', { scopes: ['read:org'] }) })).status,
		403,
		'~> a classic token without repo',
	);
	assert.is((await s.get(`${path}/toggle.yml`, member)).body.state, 'active', '~> refusals change nothing');
});

test.run();
