/**
 * Organization Actions settings: GET/PUT /orgs/{org}/actions/permissions and its pages,
 * the OIDC subject claim template, the cache usage; who may call them (owners and the app with
 * organization_administration, read for GET and write for PUT; members 403; outsiders 404);
 * GitHub's 409 and 422 answers; and enforcement (a repository the policy leaves without Actions
 * can neither dispatch a workflow nor re-run a run).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { startServer, type TestServer } from './helpers/server';

const test = suite('actions-permissions');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;
const ids: Record<string, number> = {};
let runId: number;
const P = '/orgs/acme/actions/permissions';

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.org('globex', 'nora');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('nora');
	for (const name of ['app', 'docs', 'site'])
		ids[name] = (await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, auto_init: true } })).body.id;
	ids.foreign = (await s.request('POST', '/orgs/globex/repos', { token: outsider, body: { name: 'theirs' } })).body.id;
	const app = s.app.stores.repos.byId(ids.app)!;
	const result = importRuns(s.app, app, {
		workflows: [{ name: 'CI', path: 'ci.yml', jobs: [{ name: 'build' }] }],
		runs: [
			{
				path: 'ci.yml',
				branch: 'main',
				actor: 'olivia',
				status: 'completed',
				conclusion: 'failure',
				created_at: '2026-01-01T00:00:00Z',
			},
		],
	});
	runId = result.run_ids[0];
});
test.after(() => s.close());

test('GET /orgs/{org}/actions/permissions: GitHub’s defaults; anonymous 401, outsider 404, member 403', async () => {
	const res = await s.get(P, owner);
	assert.is(res.status, 200);
	assert.equal(res.body, { enabled_repositories: 'all', allowed_actions: 'all', sha_pinning_required: false });
	assert.is((await s.get(P)).status, 401);
	assert.is((await s.get(P, outsider)).status, 404, '~> outsiders see no policy');
	assert.is((await s.get(P, member)).status, 403, '~> members may not read it');
});

test('fine-grained tokens: organization_administration read reads, write writes; none is refused; the app passes', async () => {
	const read = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } });
	const write = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'write' } });
	const none = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: {} });
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'write' } });
	const got = await s.get(`${P}/workflow`, read);
	assert.is(got.status, 200);
	assert.is(got.headers.get('x-accepted-github-permissions'), 'organization_administration=read');
	assert.is(
		(await s.request('PUT', `${P}/workflow`, { token: read, body: { default_workflow_permissions: 'write' } })).status,
		403,
		'~> read may not write',
	);
	assert.is((await s.get(`${P}/workflow`, none)).status, 403, '~> no permission: 403');
	assert.is((await s.request('PUT', `${P}/workflow`, { token: write, body: { default_workflow_permissions: 'write' } })).status, 204);
	assert.is(
		(await s.request('PUT', `${P}/workflow`, { token: app, body: { can_approve_pull_request_reviews: true } })).status,
		204,
		'~> the app',
	);
	assert.equal((await s.get(`${P}/workflow`, owner)).body, {
		default_workflow_permissions: 'write',
		can_approve_pull_request_reviews: true,
	});
	const classic = s.token('olivia', { scopes: ['repo'] });
	assert.is((await s.get(P, classic)).status, 403, '~> classic tokens need admin:org');
});

test('selected repositories: 409 unless enabled_repositories is selected; list, replace, add, remove; 422 for foreign ids, 404 for unknown', async () => {
	assert.is((await s.request('PUT', `${P}/repositories/${ids.app}`, { token: owner })).status, 409, '~> not selected yet: 409');
	assert.is((await s.request('PUT', `${P}/repositories`, { token: owner, body: { selected_repository_ids: [ids.app] } })).status, 409);
	assert.is(
		(await s.request('PUT', P, { token: owner, body: { enabled_repositories: 'selected', allowed_actions: 'selected' } })).status,
		204,
	);
	const settings = (await s.get(P, owner)).body;
	assert.equal(settings, {
		enabled_repositories: 'selected',
		selected_repositories_url: `${s.api}/orgs/acme/actions/permissions/repositories`,
		allowed_actions: 'selected',
		selected_actions_url: `${s.api}/orgs/acme/actions/permissions/selected-actions`,
		sha_pinning_required: false,
	});
	assert.is(
		(await s.request('PUT', `${P}/repositories`, { token: owner, body: { selected_repository_ids: [ids.app, ids.docs] } })).status,
		204,
	);
	let list = (await s.get(`${P}/repositories`, owner)).body;
	assert.is(list.total_count, 2);
	assert.equal(
		list.repositories.map((r: any) => r.full_name),
		['acme/app', 'acme/docs'],
	);
	assert.is((await s.request('DELETE', `${P}/repositories/${ids.docs}`, { token: owner })).status, 204);
	assert.is((await s.request('PUT', `${P}/repositories/${ids.site}`, { token: owner })).status, 204);
	list = (await s.get(`${P}/repositories`, owner)).body;
	assert.equal(
		list.repositories.map((r: any) => r.name),
		['app', 'site'],
	);
	const foreign = await s.request('PUT', `${P}/repositories`, { token: owner, body: { selected_repository_ids: [ids.foreign] } });
	assert.is(foreign.status, 422, '~> a repository of another organization');
	assert.is((await s.request('PUT', `${P}/repositories/${ids.foreign}`, { token: owner })).status, 404);
	assert.is((await s.request('PUT', `${P}/repositories/99999999`, { token: owner })).status, 404);
	assert.is((await s.request('PUT', P, { token: owner, body: { enabled_repositories: 'sometimes' } })).status, 422);
	assert.is((await s.request('PUT', P, { token: owner, body: {} })).status, 422, '~> enabled_repositories is required');
});

test('enforcement: a repository the policy leaves without Actions can neither dispatch nor re-run', async () => {
	// Selected: app and site. docs is not selected.
	importRuns(s.app, s.app.stores.repos.byId(ids.docs)!, { workflows: [{ name: 'CI', path: 'ci.yml', jobs: [{ name: 'build' }] }] });
	const refused = await s.request('POST', '/repos/acme/docs/actions/workflows/ci.yml/dispatches', {
		token: owner,
		body: { ref: 'main' },
	});
	assert.is(refused.status, 422, '~> docs is not selected: dispatch refused');
	assert.match(refused.body.message, 'Actions are disabled');
	const allowed = await s.request('POST', '/repos/acme/app/actions/workflows/ci.yml/dispatches', { token: owner, body: { ref: 'main' } });
	assert.is(allowed.status, 204, `~> app is selected: ${allowed.text}`);
	await s.request('PUT', P, { token: owner, body: { enabled_repositories: 'none' } });
	assert.equal((await s.get(P, owner)).body, { enabled_repositories: 'none' }, '~> none shows no allowed_actions');
	const rerun = await s.request('POST', `/repos/acme/app/actions/runs/${runId}/rerun`, { token: owner, body: {} });
	assert.is(rerun.status, 422, '~> none: re-runs refused');
	const dispatch = await s.request('POST', '/repos/acme/app/actions/workflows/ci.yml/dispatches', {
		token: owner,
		body: { ref: 'main' },
	});
	assert.is(dispatch.status, 422, '~> none: dispatch refused');
	await s.request('PUT', P, { token: owner, body: { enabled_repositories: 'all' } });
	assert.is(
		(await s.request('POST', `/repos/acme/app/actions/runs/${runId}/rerun`, { token: owner, body: {} })).status,
		201,
		'~> all: re-run',
	);
});

test('selected-actions: 409 unless allowed_actions is selected; patterns kept', async () => {
	await s.request('PUT', P, { token: owner, body: { enabled_repositories: 'all', allowed_actions: 'local_only' } });
	assert.is((await s.request('PUT', `${P}/selected-actions`, { token: owner, body: { verified_allowed: true } })).status, 409);
	await s.request('PUT', P, {
		token: owner,
		body: { enabled_repositories: 'all', allowed_actions: 'selected', sha_pinning_required: true },
	});
	assert.is((await s.get(P, owner)).body.sha_pinning_required, true);
	const body = { github_owned_allowed: false, verified_allowed: true, patterns_allowed: ['monalisa/octocat@*', 'docker/*'] };
	assert.is((await s.request('PUT', `${P}/selected-actions`, { token: owner, body })).status, 204);
	assert.equal((await s.get(`${P}/selected-actions`, owner)).body, body);
	assert.is((await s.request('PUT', `${P}/selected-actions`, { token: owner, body: { patterns_allowed: 'docker/*' } })).status, 422);
});

test('artifact-and-log-retention, fork-pr-contributor-approval, fork-pr-workflows-private-repos', async () => {
	assert.equal((await s.get(`${P}/artifact-and-log-retention`, owner)).body, { days: 90, maximum_allowed_days: 90 });
	assert.is((await s.request('PUT', `${P}/artifact-and-log-retention`, { token: owner, body: { days: 30 } })).status, 204);
	assert.is((await s.get(`${P}/artifact-and-log-retention`, owner)).body.days, 30);
	for (const days of [0, 91, 1.5, '30']) {
		assert.is(
			(await s.request('PUT', `${P}/artifact-and-log-retention`, { token: owner, body: { days } })).status,
			422,
			`~> days ${days}`,
		);
	}
	assert.equal((await s.get(`${P}/fork-pr-contributor-approval`, owner)).body, { approval_policy: 'first_time_contributors' });
	assert.is(
		(
			await s.request('PUT', `${P}/fork-pr-contributor-approval`, {
				token: owner,
				body: { approval_policy: 'all_external_contributors' },
			})
		).status,
		204,
	);
	assert.is((await s.get(`${P}/fork-pr-contributor-approval`, owner)).body.approval_policy, 'all_external_contributors');
	assert.is(
		(await s.request('PUT', `${P}/fork-pr-contributor-approval`, { token: owner, body: { approval_policy: 'everyone' } })).status,
		422,
	);
	const fork = {
		run_workflows_from_fork_pull_requests: true,
		send_write_tokens_to_workflows: true,
		send_secrets_and_variables: false,
		require_approval_for_fork_pr_workflows: true,
	};
	assert.is((await s.request('PUT', `${P}/fork-pr-workflows-private-repos`, { token: owner, body: fork })).status, 204);
	assert.equal((await s.get(`${P}/fork-pr-workflows-private-repos`, owner)).body, fork);
	assert.is(
		(await s.request('PUT', `${P}/fork-pr-workflows-private-repos`, { token: owner, body: { send_write_tokens_to_workflows: true } }))
			.status,
		422,
		'~> run_workflows_from_fork_pull_requests is required',
	);
	await s.request('PUT', `${P}/fork-pr-workflows-private-repos`, {
		token: owner,
		body: { run_workflows_from_fork_pull_requests: false },
	});
	assert.is(
		(await s.get(`${P}/fork-pr-workflows-private-repos`, owner)).body.send_write_tokens_to_workflows,
		false,
		'~> no runs, no write tokens',
	);
});

test('self-hosted runners: policy and its repositories (409 unless selected)', async () => {
	assert.equal((await s.get(`${P}/self-hosted-runners`, owner)).body, { enabled_repositories: 'all' });
	assert.is((await s.request('PUT', `${P}/self-hosted-runners/repositories/${ids.app}`, { token: owner })).status, 409);
	assert.is(
		(await s.request('PUT', `${P}/self-hosted-runners`, { token: owner, body: { enabled_repositories: 'selected' } })).status,
		204,
	);
	assert.equal((await s.get(`${P}/self-hosted-runners`, owner)).body, {
		enabled_repositories: 'selected',
		selected_repositories_url: `${s.api}/orgs/acme/actions/permissions/self-hosted-runners/repositories`,
	});
	assert.is(
		(await s.request('PUT', `${P}/self-hosted-runners/repositories`, { token: owner, body: { selected_repository_ids: [ids.docs] } }))
			.status,
		204,
	);
	assert.is((await s.request('PUT', `${P}/self-hosted-runners/repositories/${ids.app}`, { token: owner })).status, 204);
	const list = (await s.get(`${P}/self-hosted-runners/repositories`, owner)).body;
	assert.equal(
		list.repositories.map((r: any) => r.name),
		['app', 'docs'],
	);
	assert.is((await s.request('DELETE', `${P}/self-hosted-runners/repositories/${ids.app}`, { token: owner })).status, 204);
	assert.is((await s.get(`${P}/self-hosted-runners/repositories`, owner)).body.total_count, 1);
	assert.is((await s.request('PUT', `${P}/self-hosted-runners`, { token: owner, body: { enabled_repositories: 'some' } })).status, 422);
});

test('OIDC subject claim template: GitHub’s default, set (201 {}), 422 for unknown claim keys', async () => {
	const path = '/orgs/acme/actions/oidc/customization/sub';
	assert.equal((await s.get(path, owner)).body, { include_claim_keys: ['repo', 'context'], use_immutable_subject: false });
	const set = await s.request('PUT', path, {
		token: owner,
		body: { include_claim_keys: ['repository_owner', 'context', 'job_workflow_ref'] },
	});
	assert.is(set.status, 201);
	assert.equal(set.body, {});
	assert.equal((await s.get(path, owner)).body.include_claim_keys, ['repository_owner', 'context', 'job_workflow_ref']);
	const bad = await s.request('PUT', path, { token: owner, body: { include_claim_keys: ['repo', 'favourite_colour'] } });
	assert.is(bad.status, 422);
	assert.match(bad.body.message, 'favourite_colour');
	assert.is((await s.request('PUT', path, { token: owner, body: {} })).status, 422);
	assert.is((await s.get(path, member)).status, 403);
});

test('cache usage: no caches are kept, so zero for the organization and for each repository with workflows', async () => {
	assert.equal((await s.get('/orgs/acme/actions/cache/usage', owner)).body, {
		total_active_caches_count: 0,
		total_active_caches_size_in_bytes: 0,
	});
	const byRepo = (await s.get('/orgs/acme/actions/cache/usage-by-repository', owner)).body;
	assert.equal(byRepo, {
		total_count: 2,
		repository_cache_usages: [
			{ full_name: 'acme/app', active_caches_size_in_bytes: 0, active_caches_count: 0 },
			{ full_name: 'acme/docs', active_caches_size_in_bytes: 0, active_caches_count: 0 },
		],
	});
});

test('every change records its audit-log event (org.*), which no hook can subscribe to', async () => {
	const mark = s.app.stores.events.latestId();
	await s.request('PUT', `${P}/workflow`, { token: owner, body: { default_workflow_permissions: 'read' } });
	await s.request('PUT', `${P}/artifact-and-log-retention`, { token: owner, body: { days: 10 } });
	const rows = s.app.db.prepare('SELECT event, action FROM events WHERE id > ? ORDER BY id').all(mark) as any[];
	assert.equal(rows, [
		{ event: 'org', action: 'set_default_workflow_permissions' },
		{ event: 'org', action: 'set_actions_retention_limit' },
	]);
});

test.run();
