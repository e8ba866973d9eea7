/**
 * Deployments, deployment statuses, environments and deployment branch policies
 * (https://docs.github.com/en/rest/deployments/deployments).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchesBranchPolicy, refAllowed } from '../src/api/deployments/service';
import { isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';
import { captureWebhooks as captureWebhooksOf, eventMark as eventMarkOf, eventsSince as eventsSinceOf } from './helpers/setup';

const test = suite('deployments');
let s: TestServer;
/** olivia owns acme (admin on every repository). */
let owner: string;
/** mike: member of acme with push access to acme/app, acme/vault and acme/events. */
let pusher: string;
/** nora: no role in acme; reads public repositories only. */
let outsider: string;
let teamId: number;
let mikeId: number;

const APP = '/repos/acme/app';
const VAULT = '/repos/acme/vault';

const STATUS_KEYS = [
	'url',
	'id',
	'node_id',
	'state',
	'creator',
	'description',
	'environment',
	'target_url',
	'created_at',
	'updated_at',
	'deployment_url',
	'repository_url',
	'environment_url',
	'log_url',
];
/** STATUS_KEYS without the URLs a status was given none of (GitHub's description: URIs, left out when empty). */
const statusKeys = (...absent: string[]) => STATUS_KEYS.filter((key) => !absent.includes(key));

const DEPLOYMENT_KEYS = [
	'url',
	'id',
	'node_id',
	'sha',
	'ref',
	'task',
	'payload',
	'original_environment',
	'environment',
	'description',
	'creator',
	'created_at',
	'updated_at',
	'statuses_url',
	'repository_url',
	'transient_environment',
	'production_environment',
	'performed_via_github_app',
];

async function deploy(repo: string, body: Record<string, unknown>, token = owner) {
	const res = await s.request('POST', `${repo}/deployments`, { token, body });
	assert.is(res.status, 201, `~> deploy ${JSON.stringify(body)}: ${res.text}`);
	return res.body;
}

async function setState(repo: string, id: number, body: Record<string, unknown>, token = owner) {
	const res = await s.request('POST', `${repo}/deployments/${id}/statuses`, { token, body });
	assert.is(res.status, 201, `~> status ${JSON.stringify(body)}: ${res.text}`);
	return res.body;
}

async function latestState(repo: string, id: number): Promise<string | undefined> {
	const res = await s.get(`${repo}/deployments/${id}/statuses`, owner);
	return res.body[0]?.state;
}

const eventMark = () => eventMarkOf(s);
const eventsSince = (mark: number) => eventsSinceOf(s, mark);
const captureWebhooks = () => captureWebhooksOf(s);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora', 'rita']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'rita');
	owner = s.fullToken('olivia');
	for (const [name, visibility] of [
		['app', 'public'],
		['vault', 'private'],
		['history', 'public'],
		['atomic', 'public'],
		['cleanup', 'public'],
		['frozen', 'public'],
		['events', 'public'],
	]) {
		const res = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, visibility } });
		assert.is(res.status, 201);
	}
	mikeId = s.app.stores.accounts.user('mike')!.id;
	const now = isoSeconds(s.clock.now);
	for (const name of ['app', 'vault', 'events']) {
		const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, name)!;
		s.app.stores.repos.setCollaborator(repo.id, mikeId, 'push', now);
	}
	pusher = s.token('mike', { scopes: ['repo'] });
	outsider = s.fullToken('nora');
	const team = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Release managers', privacy: 'closed' } });
	teamId = team.body.id;
});
test.after(() => s.close());

// ---------------------------------------------------------------- deployments

test('create a deployment – GitHub defaults, shape, Location, environment created', async () => {
	const res = await s.request('POST', `${APP}/deployments`, {
		token: pusher,
		body: { ref: 'topic-branch', description: 'Deploy request from hubot' },
	});
	assert.is(res.status, 201);
	const d = res.body;
	assert.equal(Object.keys(d), DEPLOYMENT_KEYS);
	assert.is(res.headers.get('location'), `${s.api}${APP}/deployments/${d.id}`);
	assert.is(d.url, `${s.api}${APP}/deployments/${d.id}`);
	assert.is(d.statuses_url, `${s.api}${APP}/deployments/${d.id}/statuses`);
	assert.is(d.repository_url, `${s.api}${APP}`);
	assert.is(d.node_id, Buffer.from(`010:Deployment${d.id}`).toString('base64'));
	assert.is(d.ref, 'topic-branch');
	assert.is(d.sha, 'topic-branch', '~> refs are not resolved yet: sha is the ref');
	assert.is(d.task, 'deploy');
	assert.equal(d.payload, {});
	assert.is(d.environment, 'production');
	assert.is(d.original_environment, 'production');
	assert.is(d.description, 'Deploy request from hubot');
	assert.is(d.creator.login, 'mike');
	assert.is(d.transient_environment, false);
	assert.is(d.production_environment, true, '~> production_environment defaults to true for production');
	assert.is(d.performed_via_github_app, null);
	assert.is(d.created_at, isoSeconds(s.clock.now));
	const env = await s.get(`${APP}/environments/production`, owner);
	assert.is(env.status, 200, '~> creating a deployment creates its environment');
	assert.equal(env.body.protection_rules, []);
	assert.is(env.body.deployment_branch_policy, null);
});

test('create a deployment – other environments, explicit flags, payload, required_contexts', async () => {
	const staging = await deploy(APP, { ref: 'main', environment: 'staging', task: 'deploy:migrations', payload: { db: 'primary' } });
	assert.is(staging.production_environment, false, '~> false for every environment but production');
	assert.is(staging.transient_environment, false);
	assert.is(staging.task, 'deploy:migrations');
	assert.equal(staging.payload, { db: 'primary' });
	assert.is(staging.description, '');
	const flagged = await deploy(APP, {
		ref: 'main',
		environment: 'review-42',
		transient_environment: true,
		production_environment: true,
		payload: '{"raw":true}',
		required_contexts: [],
		auto_merge: false,
		description: null,
	});
	assert.is(flagged.transient_environment, true);
	assert.is(flagged.production_environment, true);
	assert.is(flagged.payload, '{"raw":true}', '~> a string payload comes back as given');
	assert.is(flagged.description, null);
	const unprod = await deploy(APP, { ref: 'main', production_environment: false });
	assert.is(unprod.environment, 'production');
	assert.is(unprod.production_environment, false);
	const sameEnv = await deploy(APP, { ref: 'main', environment: 'STAGING' });
	assert.is(sameEnv.environment, 'staging', '~> environment names are case-insensitive: the existing one is used');
	const envs = await s.get(`${APP}/environments`, owner);
	assert.equal(
		envs.body.environments.map((e: any) => e.name),
		['production', 'review-42', 'staging'],
	);
});

test('create a deployment – validation', async () => {
	const cases: Array<[unknown, string, string]> = [
		[{}, 'ref', 'missing_field'],
		[{ ref: '' }, 'ref', 'invalid'],
		[{ ref: 42 }, 'ref', 'invalid'],
		[{ ref: 'main', environment: '' }, 'environment', 'invalid'],
		[{ ref: 'main', environment: '   ' }, 'environment', 'invalid'],
		[{ ref: 'main', environment: 'x'.repeat(256) }, 'environment', 'invalid'],
		[{ ref: 'main', transient_environment: 'yes' }, 'transient_environment', 'invalid'],
		[{ ref: 'main', payload: 12 }, 'payload', 'invalid'],
		[{ ref: 'main', required_contexts: 'ci' }, 'required_contexts', 'invalid'],
		[{ ref: 'main', task: '' }, 'task', 'invalid'],
	];
	const before = (await s.get(`${APP}/deployments`, owner)).body.length;
	for (const [body, field, code] of cases) {
		const res = await s.request('POST', `${APP}/deployments`, { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.is(res.body.message, 'Validation Failed');
		const item = res.body.errors.find((e: any) => e.field === field);
		assert.ok(item, `~> names ${field}: ${JSON.stringify(res.body.errors)}`);
		assert.is(item.code, code);
		assert.is(item.resource, 'Deployment');
	}
	assert.is((await s.get(`${APP}/deployments`, owner)).body.length, before, '~> nothing written');
	assert.is((await s.request('POST', `${APP}/deployments`, { token: owner, raw: '{"ref":' })).status, 400);
	assert.is((await s.get(`${APP}/environments/${'x'.repeat(256)}`, owner)).status, 404, '~> no environment was created');
});

test('create a deployment – denial', async () => {
	assert.is((await s.request('POST', `${APP}/deployments`, { body: { ref: 'main' } })).status, 401);
	const reader = await s.request('POST', `${APP}/deployments`, { token: outsider, body: { ref: 'main' } });
	assert.is(reader.status, 403, '~> read access is not enough');
	assert.match(reader.body.message, 'push access');
	const member = await s.request('POST', `${APP}/deployments`, { token: s.fullToken('rita'), body: { ref: 'main' } });
	assert.is(member.status, 403, '~> a member with the base read permission cannot deploy');
	assert.is(
		(await s.request('POST', `${VAULT}/deployments`, { token: outsider, body: { ref: 'main' } })).status,
		404,
		'~> private and invisible: 404',
	);
	const scoped = await s.request('POST', `${APP}/deployments`, {
		token: s.token('mike', { scopes: ['public_repo'] }),
		body: { ref: 'main' },
	});
	assert.is(scoped.status, 403, '~> classic tokens need repo_deployment or repo');
	assert.is(scoped.headers.get('x-accepted-oauth-scopes'), 'repo_deployment, repo');
	assert.is(
		(await s.request('POST', `${APP}/deployments`, { token: s.token('mike', { scopes: ['repo_deployment'] }), body: { ref: 'main' } }))
			.status,
		201,
	);
	assert.is(
		(
			await s.request('POST', `${VAULT}/deployments`, {
				token: s.token('mike', { scopes: ['repo_deployment'] }),
				body: { ref: 'main' },
			})
		).status,
		201,
		'~> repo_deployment reaches the private repositories the user can push to',
	);
	const fineWithout = await s.request('POST', `${APP}/deployments`, {
		token: s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { deployments: 'read' } }),
		body: { ref: 'main' },
	});
	assert.is(fineWithout.status, 403);
	assert.is(fineWithout.headers.get('x-accepted-github-permissions'), 'deployments=write');
	const fine = await s.request('POST', `${VAULT}/deployments`, {
		token: s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { deployments: 'write' } }),
		body: { ref: 'main' },
	});
	assert.is(fine.status, 201);
	const app = await s.request('POST', `${VAULT}/deployments`, {
		token: s.token('olivia', { kind: 'installation', org: 'acme' }),
		body: { ref: 'main' },
	});
	assert.is(app.status, 201);
	assert.is(app.body.creator.login, 'test-app[bot]');
	assert.is(app.body.performed_via_github_app.slug, 'test-app');
	const frozen = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'frozen')!;
	s.app.db.prepare('UPDATE repositories SET archived = 1 WHERE id = ?').run(frozen.id);
	assert.is(
		(await s.request('POST', '/repos/acme/frozen/deployments', { token: owner, body: { ref: 'main' } })).status,
		403,
		'~> archived',
	);
});

test('get a deployment – 200, 404, public and private', async () => {
	const d = await deploy(VAULT, { ref: 'v1.0', environment: 'qa' });
	const res = await s.get(`${VAULT}/deployments/${d.id}`, pusher);
	assert.is(res.status, 200);
	assert.equal(res.body, d);
	assert.ok(res.headers.get('etag'));
	assert.is((await s.get(`${VAULT}/deployments/${d.id}`)).status, 404, '~> anonymous, private repository');
	assert.is((await s.get(`${VAULT}/deployments/${d.id}`, outsider)).status, 404);
	assert.is((await s.get(`${APP}/deployments/${d.id}`, owner)).status, 404, '~> a deployment of another repository');
	assert.is((await s.get(`${VAULT}/deployments/999999`, owner)).status, 404);
	assert.is((await s.get(`${VAULT}/deployments/abc`, owner)).status, 404);
	const pub = await deploy(APP, { ref: 'main', environment: 'staging' });
	const anonymous = await s.get(`${APP}/deployments/${pub.id}`);
	assert.is(anonymous.status, 200, '~> public repositories are readable without authentication');
	assert.is(anonymous.body.id, pub.id);
	const fine = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: {} });
	assert.is((await s.get(`${VAULT}/deployments/${d.id}`, fine)).status, 404, '~> without deployments:read: a public view');
	const fineRead = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { deployments: 'read' } });
	assert.is((await s.get(`${VAULT}/deployments/${d.id}`, fineRead)).status, 200);
});

test('list deployments – newest first, filters, pagination', async () => {
	const a = await deploy('/repos/acme/history', { ref: 'main', environment: 'staging', task: 'deploy' });
	s.clock.advance(1000);
	const b = await deploy('/repos/acme/history', { ref: 'release', environment: 'production', task: 'deploy:migrations' });
	s.clock.advance(1000);
	const c = await deploy('/repos/acme/history', { ref: 'main', environment: 'production' });
	const all = await s.get('/repos/acme/history/deployments', owner);
	assert.is(all.status, 200);
	assert.equal(
		all.body.map((d: any) => d.id),
		[c.id, b.id, a.id],
	);
	const ids = async (query: string) => (await s.get(`/repos/acme/history/deployments?${query}`, owner)).body.map((d: any) => d.id);
	assert.equal(await ids('ref=main'), [c.id, a.id]);
	assert.equal(await ids('sha=release'), [b.id]);
	assert.equal(await ids('task=deploy:migrations'), [b.id]);
	assert.equal(await ids('environment=production'), [c.id, b.id]);
	assert.equal(await ids('environment=Production'), [c.id, b.id], '~> environment names are case-insensitive');
	assert.equal(await ids('environment=production&ref=main'), [c.id]);
	assert.equal(await ids('environment=nowhere'), []);
	const page = await s.get('/repos/acme/history/deployments?per_page=2&page=1', owner);
	assert.is(page.body.length, 2);
	assert.match(page.headers.get('link')!, 'rel="next"');
	assert.is((await s.get('/repos/acme/history/deployments')).status, 200, '~> anonymous on a public repository');
	assert.is((await s.get(`${VAULT}/deployments`)).status, 404);
	assert.is((await s.get(`${VAULT}/deployments`, outsider)).status, 404);
	assert.is((await s.get('/repos/acme/nothing/deployments', owner)).status, 404);
	assert.is((await s.get('/repos/acme/history/deployments?ref=a&ref=b', owner)).status, 422, '~> a filter given twice');
});

test('delete a deployment – the only one, active ones refused, inactive ones deleted', async () => {
	const R = '/repos/acme/cleanup';
	const only = await deploy(R, { ref: 'main', environment: 'staging' });
	await setState(R, only.id, { state: 'success' });
	const first = await deploy(R, { ref: 'main', environment: 'qa' });
	const refused = await s.request('DELETE', `${R}/deployments/${first.id}`, { token: pusher });
	assert.is(refused.status, 403, '~> mike has no push access to acme/cleanup');
	assert.is((await s.request('DELETE', `${R}/deployments/${first.id}`)).status, 401);
	assert.is((await s.request('DELETE', `${R}/deployments/${first.id}`, { token: outsider })).status, 403);
	const noStatus = await s.request('DELETE', `${R}/deployments/${first.id}`, { token: owner });
	assert.is(noStatus.status, 422, '~> a new deployment (no status yet) is active');
	assert.match(noStatus.body.message, 'active deployment');
	const active = await s.request('DELETE', `${R}/deployments/${only.id}`, { token: owner });
	assert.is(active.status, 422, '~> success is active while other deployments exist');
	await setState(R, first.id, { state: 'failure' });
	assert.is(
		(await s.request('DELETE', `${R}/deployments/${first.id}`, { token: owner })).status,
		204,
		'~> a non-successful status makes it deletable',
	);
	assert.is((await s.get(`${R}/deployments/${first.id}`, owner)).status, 404);
	assert.is((await s.request('DELETE', `${R}/deployments/${first.id}`, { token: owner })).status, 404);
	assert.is(
		(await s.request('DELETE', `${R}/deployments/${only.id}`, { token: owner })).status,
		204,
		'~> the only deployment goes whatever its state',
	);
	assert.equal((await s.get(`${R}/deployments`, owner)).body, []);
	const fine = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { deployments: 'read' } });
	assert.is((await s.request('DELETE', `${R}/deployments/1`, { token: fine })).status, 403);
});

// ---------------------------------------------------------------- statuses

test('create a deployment status – spec shape, defaults, log_url sets target_url', async () => {
	const d = await deploy(APP, { ref: 'main', environment: 'statuses-env' });
	s.clock.advance(5000);
	const res = await s.request('POST', `${APP}/deployments/${d.id}/statuses`, {
		token: pusher,
		body: { state: 'in_progress', log_url: 'https://ci.example.com/run/1', description: 'Deploying' },
	});
	assert.is(res.status, 201);
	const st = res.body;
	assert.equal(Object.keys(st), statusKeys('environment_url'), '~> exactly the spec fields, in order (no environment_url given: none)');
	assert.is(res.headers.get('location'), st.url);
	assert.is(st.url, `${s.api}${APP}/deployments/${d.id}/statuses/${st.id}`);
	assert.is(st.node_id, Buffer.from(`016:DeploymentStatus${st.id}`).toString('base64'));
	assert.is(st.state, 'in_progress');
	assert.is(st.creator.login, 'mike');
	assert.is(st.description, 'Deploying');
	assert.is(st.environment, 'statuses-env', '~> no previous status: the deployment environment');
	assert.is(st.log_url, 'https://ci.example.com/run/1');
	assert.is(st.target_url, 'https://ci.example.com/run/1', '~> log_url also sets target_url');
	assert.is(st.environment_url, undefined, '~> no environment_url: left out (a URI in GitHub’s description, never empty)');
	assert.is(st.deployment_url, `${s.api}${APP}/deployments/${d.id}`);
	assert.is(st.repository_url, `${s.api}${APP}`);
	assert.is(st.created_at, isoSeconds(s.clock.now));
	const updated = (await s.get(`${APP}/deployments/${d.id}`, owner)).body;
	assert.is(updated.updated_at, isoSeconds(s.clock.now), '~> a status updates the deployment');

	const legacy = await setState(APP, d.id, { state: 'queued', target_url: 'https://ci.example.com/legacy' });
	assert.is(legacy.target_url, 'https://ci.example.com/legacy');
	assert.is(legacy.log_url, undefined);
	assert.is(legacy.description, '');
	const both = await setState(APP, d.id, { state: 'pending', target_url: 'https://old', log_url: 'https://new' });
	assert.is(both.target_url, 'https://new', '~> log_url supersedes target_url');

	const moved = await setState(APP, d.id, {
		state: 'success',
		environment: 'statuses-env-2',
		environment_url: 'https://app.example.com',
	});
	assert.is(moved.environment, 'statuses-env-2');
	assert.is(moved.environment_url, 'https://app.example.com');
	const after = await setState(APP, d.id, { state: 'success' });
	assert.is(after.environment, 'statuses-env-2', '~> no environment given: the previous status environment');
	const deployment = (await s.get(`${APP}/deployments/${d.id}`, owner)).body;
	assert.is(deployment.environment, 'statuses-env-2', '~> the deployment moved with its status');
	assert.is(deployment.original_environment, 'statuses-env');
	assert.is((await s.get(`${APP}/environments/statuses-env-2`, owner)).status, 200, '~> the new environment exists');
	assert.is((await setState(APP, d.id, { state: 'error', description: 'x'.repeat(140) })).description.length, 140);
});

test('create a deployment status – validation and denial', async () => {
	const d = await deploy(APP, { ref: 'main', environment: 'validation-env' });
	const cases: Array<[unknown, string, string]> = [
		[{}, 'state', 'missing_field'],
		[{ state: 'destroyed' }, 'state', 'invalid'],
		[{ state: 'success', description: 'x'.repeat(141) }, 'description', 'invalid'],
		[{ state: 'success', auto_inactive: 'no' }, 'auto_inactive', 'invalid'],
		[{ state: 'success', environment: '' }, 'environment', 'invalid'],
		[{ state: 'success', log_url: 5 }, 'log_url', 'invalid'],
	];
	for (const [body, field, code] of cases) {
		const res = await s.request('POST', `${APP}/deployments/${d.id}/statuses`, { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		const item = res.body.errors.find((e: any) => e.field === field);
		assert.ok(item, `~> names ${field}: ${JSON.stringify(res.body.errors)}`);
		assert.is(item.code, code);
		assert.is(item.resource, 'DeploymentStatus');
	}
	const long = await s.request('POST', `${APP}/deployments/${d.id}/statuses`, {
		token: owner,
		body: { state: 'success', description: 'x'.repeat(141) },
	});
	assert.match(long.body.errors[0].message, '140');
	assert.equal((await s.get(`${APP}/deployments/${d.id}/statuses`, owner)).body, [], '~> nothing written');
	assert.is((await s.request('POST', `${APP}/deployments/${d.id}/statuses`, { body: { state: 'success' } })).status, 401);
	assert.is(
		(await s.request('POST', `${APP}/deployments/${d.id}/statuses`, { token: outsider, body: { state: 'success' } })).status,
		403,
	);
	assert.is((await s.request('POST', `${APP}/deployments/999999/statuses`, { token: owner, body: { state: 'success' } })).status, 404);
	assert.is(
		(await s.request('POST', `${VAULT}/deployments/${d.id}/statuses`, { token: owner, body: { state: 'success' } })).status,
		404,
		'~> another repository',
	);
	const scoped = await s.request('POST', `${APP}/deployments/${d.id}/statuses`, {
		token: s.token('mike', { scopes: ['read:org'] }),
		body: { state: 'success' },
	});
	assert.is(scoped.status, 403);
	const deployToken = s.token('mike', { scopes: ['repo_deployment'] });
	assert.is(
		(await s.request('POST', `${APP}/deployments/${d.id}/statuses`, { token: deployToken, body: { state: 'success' } })).status,
		201,
	);
});

test('list and get deployment statuses – newest first, 404s, public and private', async () => {
	const d = await deploy(VAULT, { ref: 'main', environment: 'list-env' });
	const first = await setState(VAULT, d.id, { state: 'queued' });
	s.clock.advance(1000);
	const second = await setState(VAULT, d.id, { state: 'in_progress' });
	s.clock.advance(1000);
	const third = await setState(VAULT, d.id, { state: 'success' });
	const list = await s.get(`${VAULT}/deployments/${d.id}/statuses`, pusher);
	assert.is(list.status, 200);
	assert.equal(
		list.body.map((x: any) => x.id),
		[third.id, second.id, first.id],
		'~> newest first',
	);
	assert.equal(Object.keys(list.body[0]), statusKeys('environment_url', 'log_url'));
	const page = await s.get(`${VAULT}/deployments/${d.id}/statuses?per_page=1&page=2`, pusher);
	assert.equal(
		page.body.map((x: any) => x.id),
		[second.id],
	);
	assert.match(page.headers.get('link')!, 'rel="prev"');
	const one = await s.get(`${VAULT}/deployments/${d.id}/statuses/${second.id}`, pusher);
	assert.is(one.status, 200);
	assert.equal(one.body, second);
	const other = await deploy(VAULT, { ref: 'main', environment: 'list-env-2' });
	assert.is(
		(await s.get(`${VAULT}/deployments/${other.id}/statuses/${second.id}`, owner)).status,
		404,
		'~> a status of another deployment',
	);
	assert.is((await s.get(`${VAULT}/deployments/${d.id}/statuses/999999`, owner)).status, 404);
	assert.is((await s.get(`${VAULT}/deployments/${d.id}/statuses/x`, owner)).status, 404);
	assert.is((await s.get(`${VAULT}/deployments/999999/statuses`, owner)).status, 404);
	assert.is((await s.get(`${VAULT}/deployments/${d.id}/statuses`)).status, 404, '~> anonymous, private');
	assert.is((await s.get(`${VAULT}/deployments/${d.id}/statuses/${first.id}`, outsider)).status, 404);
	const pub = await deploy(APP, { ref: 'main', environment: 'list-env' });
	const st = await setState(APP, pub.id, { state: 'success' });
	assert.is((await s.get(`${APP}/deployments/${pub.id}/statuses`)).status, 200, '~> anonymous, public');
	assert.is((await s.get(`${APP}/deployments/${pub.id}/statuses/${st.id}`)).status, 200);
	const header = await s.get(`${APP}/deployments/${pub.id}/statuses`, owner);
	assert.is(header.headers.get('x-accepted-github-permissions'), 'deployments=read');
});

test('auto_inactive – earlier non-transient, non-production successes of the environment turn inactive, atomically', async () => {
	const R = '/repos/acme/history';
	const older = await deploy(R, { ref: 'a', environment: 'staging-ai' });
	await setState(R, older.id, { state: 'success' });
	const transient = await deploy(R, { ref: 'b', environment: 'staging-ai', transient_environment: true });
	await setState(R, transient.id, { state: 'success' });
	const production = await deploy(R, { ref: 'c', environment: 'staging-ai', production_environment: true });
	await setState(R, production.id, { state: 'success', auto_inactive: false });
	const failed = await deploy(R, { ref: 'd', environment: 'staging-ai' });
	await setState(R, failed.id, { state: 'failure', auto_inactive: false });
	const elsewhere = await deploy(R, { ref: 'e', environment: 'qa-ai' });
	await setState(R, elsewhere.id, { state: 'success' });
	assert.is(await latestState(R, older.id), 'inactive', '~> already turned inactive by the later successes of the same environment');

	// Start over: a successful earlier deployment, then a new one.
	const previous = await deploy(R, { ref: 'f', environment: 'staging-ai' });
	await setState(R, previous.id, { state: 'success', auto_inactive: false });
	const current = await deploy(R, { ref: 'g', environment: 'Staging-AI' });
	const kept = await setState(R, current.id, { state: 'success', auto_inactive: false });
	assert.is(kept.state, 'success');
	assert.is(await latestState(R, previous.id), 'success', '~> auto_inactive false leaves earlier deployments');

	// Same transaction: a failure while writing the inactive statuses leaves nothing behind.
	const store = s.app.stores.deployments;
	const insert = store.insertStatus;
	store.insertStatus = (values, now) => {
		if (values.state === 'inactive') throw new Error('disk full');
		return insert(values, now);
	};
	const failedRequest = await s.request('POST', `${R}/deployments/${current.id}/statuses`, { token: owner, body: { state: 'success' } });
	store.insertStatus = insert;
	assert.is(failedRequest.status, 500);
	assert.equal(
		(await s.get(`${R}/deployments/${current.id}/statuses`, owner)).body.map((x: any) => x.id),
		[kept.id],
		'~> the causing status was rolled back too',
	);
	assert.is(await latestState(R, previous.id), 'success');

	const now = await setState(R, current.id, { state: 'in_progress' });
	assert.is(now.state, 'in_progress');
	const inactive = (await s.get(`${R}/deployments/${previous.id}/statuses`, owner)).body[0];
	assert.is(inactive.state, 'inactive', '~> the earlier successful deployment got an inactive status');
	assert.is(inactive.created_at, now.created_at);
	assert.is(inactive.creator.login, 'olivia');
	assert.is(inactive.environment, 'staging-ai');
	assert.is(await latestState(R, transient.id), 'success', '~> transient deployments are left alone');
	assert.is(await latestState(R, production.id), 'success', '~> production deployments are left alone');
	assert.is(await latestState(R, failed.id), 'failure', '~> only deployments whose latest state is success');
	assert.is(await latestState(R, elsewhere.id), 'success', '~> another environment');
	assert.is(await latestState(R, current.id), 'in_progress', '~> the deployment itself keeps its new status');
	const later = await deploy(R, { ref: 'h', environment: 'qa-ai' });
	assert.ok(later.id > elsewhere.id);
	assert.is(await latestState(R, elsewhere.id), 'success', '~> only earlier deployments, and only when a status is created');
});

test('a transient deployment set to inactive stays inactive in the API (destroyed is only a web-view label)', async () => {
	const d = await deploy(APP, { ref: 'pr-7', environment: 'pr-7', transient_environment: true });
	const st = await setState(APP, d.id, { state: 'inactive' });
	assert.is(st.state, 'inactive');
	assert.is(await latestState(APP, d.id), 'inactive');
	const again = (await s.get(`${APP}/deployments/${d.id}`, owner)).body;
	assert.is(again.transient_environment, true);
});

test('events – deployment created, deployment_status created for each status (auto_inactive ones included), GitHub payloads', async () => {
	const R = '/repos/acme/events';
	const capture = captureWebhooks();
	try {
		const mark = eventMark();
		const first = await deploy(R, { ref: 'v1', environment: 'staging-ev', payload: { deploy: 'migrate' } }, pusher);
		const success = await setState(R, first.id, { state: 'success', environment_url: 'https://staging.example.com' }, pusher);
		const second = await deploy(R, { ref: 'v2', environment: 'staging-ev' });
		await setState(R, second.id, { state: 'success' });
		assert.is(await latestState(R, first.id), 'inactive');
		assert.is(
			(await s.request('POST', `${R}/deployments/${second.id}/statuses`, { token: owner, body: { state: 'bogus' } })).status,
			422,
		);
		assert.is((await s.request('POST', `${R}/deployments`, { token: outsider, body: { ref: 'x' } })).status, 403);
		assert.equal(
			eventsSince(mark),
			[
				'deployment.created by mike',
				'deployment_status.created by mike',
				'deployment.created by olivia',
				'deployment_status.created by olivia',
				'deployment_status.created by olivia',
			],
			'~> one event per change; the auto_inactive status of the earlier deployment is its own event; refused requests record nothing',
		);

		const created = capture.seen.filter((e) => e.event === 'deployment');
		assert.equal(
			created.map((e) => e.action),
			['created', 'created'],
		);
		const payload = created[0].payload;
		assert.equal(Object.keys(payload), ['deployment', 'workflow', 'workflow_run', 'repository', 'organization', 'sender']);
		assert.equal(
			payload.deployment,
			{ ...first, updated_at: payload.deployment.updated_at },
			'~> the deployment as the API renders it',
		);
		assert.equal(Object.keys(payload.deployment), DEPLOYMENT_KEYS);
		assert.equal(payload.deployment.payload, { deploy: 'migrate' });
		assert.is(payload.workflow, null, '~> not created by a workflow run');
		assert.is(payload.workflow_run, null);
		assert.is(payload.repository.full_name, 'acme/events');
		assert.is(payload.organization.login, 'acme');
		assert.is(payload.sender.login, 'mike');

		const statuses = capture.seen.filter((e) => e.event === 'deployment_status');
		assert.equal(
			statuses.map((e) => `${e.action} ${e.payload.deployment_status.state}`),
			['created success', 'created success'],
			'~> the inactive status fires no webhook ("A webhook event is not fired for deployment statuses with an inactive state")',
		);
		const status = statuses[0].payload;
		assert.equal(Object.keys(status), ['deployment_status', 'deployment', 'repository', 'organization', 'sender']);
		assert.equal(status.deployment_status, success, '~> the status as the API renders it');
		assert.equal(Object.keys(status.deployment_status), statusKeys('log_url'));
		assert.is(status.deployment.id, first.id);
		assert.is(status.deployment.environment, 'staging-ev');
		assert.is(status.sender.login, 'mike');
		assert.is(statuses[1].payload.deployment.id, second.id);
	} finally {
		capture.stop();
	}
});

// ---------------------------------------------------------------- environments

test('create or update an environment – URL-encoded name, protection rules, branch policy', async () => {
	const res = await s.request('PUT', `${APP}/environments/prod%2Feu`, {
		token: owner,
		body: {
			wait_timer: 30,
			prevent_self_review: true,
			reviewers: [
				{ type: 'User', id: mikeId },
				{ type: 'Team', id: teamId },
			],
			deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
		},
	});
	assert.is(res.status, 200);
	const env = res.body;
	assert.equal(Object.keys(env), [
		'id',
		'node_id',
		'name',
		'url',
		'html_url',
		'created_at',
		'updated_at',
		'can_admins_bypass',
		'protection_rules',
		'deployment_branch_policy',
	]);
	assert.is(env.name, 'prod/eu');
	assert.is(env.url, `${s.api}${APP}/environments/prod%2Feu`);
	assert.is(env.html_url, `${s.origin}/acme/app/deployments/activity_log?environments_filter=prod%2Feu`);
	assert.is(env.node_id, Buffer.from(`011:Environment${env.id}`).toString('base64'));
	assert.equal(env.deployment_branch_policy, { protected_branches: false, custom_branch_policies: true });
	assert.equal(
		env.protection_rules.map((r: any) => r.type),
		['wait_timer', 'required_reviewers', 'branch_policy'],
	);
	const [timer, reviewers, branch] = env.protection_rules;
	assert.is(timer.wait_timer, 30);
	assert.is(timer.node_id, Buffer.from(`04:Gate${timer.id}`).toString('base64'));
	assert.is(reviewers.prevent_self_review, true);
	assert.equal(
		reviewers.reviewers.map((r: any) => [r.type, r.reviewer.login ?? r.reviewer.slug]),
		[
			['User', 'mike'],
			['Team', 'release-managers'],
		],
	);
	assert.equal(Object.keys(branch), ['id', 'node_id', 'type']);

	const get = await s.get(`${APP}/environments/prod%2Feu`, owner);
	assert.is(get.status, 200);
	assert.equal(get.body, env);
	assert.is((await s.get(`${APP}/environments/PROD%2FEU`, owner)).body.id, env.id, '~> names are case-insensitive');
	assert.is((await s.get(`${APP}/environments/prod/eu`, owner)).status, 404, '~> a raw slash is another path');

	s.clock.advance(60_000);
	const kept = await s.request('PUT', `${APP}/environments/prod%2Feu`, { token: owner, body: { wait_timer: 0 } });
	assert.is(kept.status, 200);
	assert.is(kept.body.id, env.id);
	assert.is(kept.body.created_at, env.created_at);
	assert.is(kept.body.updated_at, isoSeconds(s.clock.now));
	assert.equal(
		kept.body.protection_rules.map((r: any) => [r.type, r.id]),
		[
			['required_reviewers', reviewers.id],
			['branch_policy', branch.id],
		],
		'~> omitted fields keep; a zero timer drops its rule',
	);
	const empty = await s.request('PUT', `${APP}/environments/prod%2Feu`, { token: owner });
	assert.is(empty.status, 200, '~> an empty body is accepted');
	assert.equal(empty.body.deployment_branch_policy, { protected_branches: false, custom_branch_policies: true });
	const cleared = await s.request('PUT', `${APP}/environments/prod%2Feu`, {
		token: owner,
		body: { reviewers: null, deployment_branch_policy: null },
	});
	assert.equal(cleared.body.protection_rules, []);
	assert.is(cleared.body.deployment_branch_policy, null);
	const protectedOnly = await s.request('PUT', `${APP}/environments/prod%2Feu`, {
		token: owner,
		body: { deployment_branch_policy: { protected_branches: true, custom_branch_policies: false } },
	});
	assert.equal(protectedOnly.body.deployment_branch_policy, { protected_branches: true, custom_branch_policies: false });
	assert.equal(
		protectedOnly.body.protection_rules.map((r: any) => r.type),
		['branch_policy'],
	);
	const fresh = await s.request('PUT', `${APP}/environments/canary`, { token: owner });
	assert.is(fresh.status, 200);
	assert.equal(fresh.body.protection_rules, []);
	assert.is(fresh.body.deployment_branch_policy, null);
});

test('create or update an environment – validation', async () => {
	const cases: Array<[string, unknown, string]> = [
		[
			'bad-policy',
			{ deployment_branch_policy: { protected_branches: true, custom_branch_policies: true } },
			'deployment_branch_policy',
		],
		[
			'bad-policy',
			{ deployment_branch_policy: { protected_branches: false, custom_branch_policies: false } },
			'deployment_branch_policy',
		],
		['bad-policy', { deployment_branch_policy: { protected_branches: true } }, 'deployment_branch_policy.custom_branch_policies'],
		['bad-timer', { wait_timer: 43_201 }, 'wait_timer'],
		['bad-timer', { wait_timer: -1 }, 'wait_timer'],
		['bad-timer', { wait_timer: 1.5 }, 'wait_timer'],
		['bad-reviewers', { reviewers: [{ type: 'User', id: 999999 }] }, 'reviewers'],
		['bad-reviewers', { reviewers: [{ type: 'Team', id: 999999 }] }, 'reviewers'],
		['bad-reviewers', { reviewers: [{ type: 'Robot', id: 1 }] }, 'reviewers.0.type'],
		['bad-reviewers', { reviewers: Array.from({ length: 7 }, () => ({ type: 'User', id: mikeId })) }, 'reviewers'],
		['x'.repeat(256), {}, 'environment_name'],
		['%20', {}, 'environment_name'],
	];
	for (const [name, body, field] of cases) {
		const res = await s.request('PUT', `${APP}/environments/${name}`, { token: owner, body });
		assert.is(res.status, 422, `~> ${name} ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field),
			`~> names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
	const nora = s.app.stores.accounts.user('nora')!.id;
	const noAccess = await s.request('PUT', `${VAULT}/environments/staging`, {
		token: owner,
		body: { reviewers: [{ type: 'User', id: nora }] },
	});
	assert.is(noAccess.status, 422, '~> reviewers need read access to the repository');
	const names = (await s.get(`${APP}/environments?per_page=100`, owner)).body.environments.map((e: any) => e.name);
	for (const name of ['bad-policy', 'bad-timer', 'bad-reviewers']) assert.not.ok(names.includes(name), `~> ${name} was not created`);
});

test('environments – denial and reads', async () => {
	const denied: Array<[string, string | undefined, number]> = [
		['PUT', undefined, 401],
		['PUT', pusher, 403],
		['PUT', outsider, 403],
		['DELETE', undefined, 401],
		['DELETE', pusher, 403],
	];
	for (const [method, token, status] of denied) {
		const res = await s.request(method, `${APP}/environments/production`, { token, body: method === 'PUT' ? {} : undefined });
		assert.is(res.status, status, `~> ${method} ${token ? 'token' : 'anonymous'}`);
	}
	const admin = await s.request('PUT', `${APP}/environments/production`, { token: pusher, body: {} });
	assert.is(admin.body.message, 'Must have admin rights to Repository.');
	assert.is(admin.headers.get('x-accepted-github-permissions'), 'administration=write');
	assert.is((await s.request('PUT', `${VAULT}/environments/production`, { token: outsider, body: {} })).status, 404);
	const fine = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'write' } });
	assert.is((await s.request('PUT', `${APP}/environments/production`, { token: fine, body: {} })).status, 403);
	const fineAdmin = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { administration: 'write' } });
	assert.is((await s.request('PUT', `${APP}/environments/fine-env`, { token: fineAdmin, body: {} })).status, 200);

	const list = await s.get(`${APP}/environments`);
	assert.is(list.status, 200, '~> anonymous, public repository');
	assert.equal(Object.keys(list.body), ['total_count', 'environments']);
	assert.is(list.body.total_count, list.body.environments.length);
	assert.is(list.headers.get('x-accepted-github-permissions'), 'actions=read');
	const names = list.body.environments.map((e: any) => e.name);
	assert.equal(names, [...names].sort(), '~> by name');
	const page = await s.get(`${APP}/environments?per_page=2`, owner);
	assert.is(page.body.environments.length, 2);
	assert.is(page.body.total_count, list.body.total_count);
	assert.match(page.headers.get('link')!, 'rel="last"');
	assert.is((await s.get(`${VAULT}/environments`)).status, 404);
	assert.is((await s.get(`${VAULT}/environments`, outsider)).status, 404);
	assert.is(
		(await s.get(`${VAULT}/environments`, s.token('mike', { scopes: ['public_repo'] }))).status,
		404,
		'~> classic tokens need repo for private repositories',
	);
	assert.is((await s.get(`${VAULT}/environments`, pusher)).status, 200);
	assert.is((await s.get(`${VAULT}/environments/qa`, pusher)).status, 200);
	assert.is((await s.get(`${VAULT}/environments/qa`, outsider)).status, 404);
	assert.is((await s.get(`${APP}/environments/nowhere`, owner)).status, 404);
	assert.is((await s.get(`${APP}/environments/production`)).status, 200);
});

test('delete an environment – 204, then 404; deployments stay', async () => {
	await s.request('PUT', `${APP}/environments/doomed%2Fone`, {
		token: owner,
		body: {
			reviewers: [{ type: 'User', id: mikeId }],
			deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
		},
	});
	await s.request('POST', `${APP}/environments/doomed%2Fone/deployment-branch-policies`, { token: owner, body: { name: 'main' } });
	const d = await deploy(APP, { ref: 'main', environment: 'doomed/one' });
	const res = await s.request('DELETE', `${APP}/environments/doomed%2Fone`, { token: owner });
	assert.is(res.status, 204);
	assert.is((await s.get(`${APP}/environments/doomed%2Fone`, owner)).status, 404);
	assert.is((await s.request('DELETE', `${APP}/environments/doomed%2Fone`, { token: owner })).status, 404);
	assert.is((await s.get(`${APP}/deployments/${d.id}`, owner)).status, 200, '~> deployments to it stay');
	const custom = { deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } };
	const again = await s.request('PUT', `${APP}/environments/doomed%2Fone`, { token: owner, body: custom });
	assert.is(
		(await s.get(`${APP}/environments/doomed%2Fone/deployment-branch-policies`, owner)).body.total_count,
		0,
		'~> its policies went with it',
	);
	assert.equal(
		again.body.protection_rules.map((r: any) => r.type),
		['branch_policy'],
	);
});

// ---------------------------------------------------------------- branch policies

test('deployment branch policies – create, 303 for a duplicate, list, get, update, delete', async () => {
	const E = `${APP}/environments/prod%2Feu`;
	const P = `${E}/deployment-branch-policies`;
	await s.request('PUT', E, {
		token: owner,
		body: { deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } },
	});
	const res = await s.request('POST', P, { token: owner, body: { name: 'release/*/*' } });
	assert.is(res.status, 200, '~> GitHub answers 200, not 201');
	assert.equal(Object.keys(res.body), ['id', 'node_id', 'name', 'type']);
	assert.is(res.body.name, 'release/*/*');
	assert.is(res.body.type, 'branch');
	assert.is(res.body.node_id, Buffer.from(`016:GateBranchPolicy${res.body.id}`).toString('base64'));
	const tag = await s.request('POST', P, { token: owner, body: { name: 'v*', type: 'tag' } });
	assert.is(tag.status, 200);
	assert.is(tag.body.type, 'tag');

	const duplicate = await s.request('POST', P, { token: owner, body: { name: 'release/*/*' } });
	assert.is(duplicate.status, 303, '~> the same pattern exists');
	assert.is(duplicate.headers.get('location'), `${s.api}${APP}/environments/prod%2Feu/deployment-branch-policies/${res.body.id}`);
	assert.is(
		(await s.request('POST', P, { token: owner, body: { name: 'v*', type: 'tag' } })).headers.get('location'),
		`${s.api}${P}/${tag.body.id}`,
	);
	const otherType = await s.request('POST', P, { token: owner, body: { name: 'v*' } });
	assert.is(otherType.status, 200, '~> a branch pattern and a tag pattern may be the same');

	const list = await s.get(P);
	assert.is(list.status, 200, '~> anonymous, public repository');
	assert.equal(list.body, { total_count: 3, branch_policies: [res.body, tag.body, otherType.body] });
	const page = await s.get(`${P}?per_page=1&page=3`, owner);
	assert.equal(page.body, { total_count: 3, branch_policies: [otherType.body] });
	assert.match(page.headers.get('link')!, 'rel="first"');

	const got = await s.get(`${P}/${res.body.id}`, owner);
	assert.is(got.status, 200);
	assert.equal(got.body, res.body);
	assert.is((await s.get(`${P}/999999`, owner)).status, 404);
	assert.is((await s.get(`${P}/abc`, owner)).status, 404);
	assert.is(
		(await s.get(`${APP}/environments/production/deployment-branch-policies/${res.body.id}`, owner)).status,
		404,
		'~> a policy of another environment',
	);

	const renamed = await s.request('PUT', `${P}/${otherType.body.id}`, { token: owner, body: { name: 'hotfix/*' } });
	assert.is(renamed.status, 200);
	assert.equal(renamed.body, { ...otherType.body, name: 'hotfix/*' });
	const clash = await s.request('PUT', `${P}/${otherType.body.id}`, { token: owner, body: { name: 'release/*/*' } });
	assert.is(clash.status, 422);
	assert.is(clash.body.errors[0].code, 'already_exists');
	assert.is((await s.request('PUT', `${P}/${otherType.body.id}`, { token: owner, body: {} })).status, 422);
	assert.is((await s.request('PUT', `${P}/999999`, { token: owner, body: { name: 'x' } })).status, 404);

	assert.is((await s.request('DELETE', `${P}/${otherType.body.id}`, { token: owner })).status, 204);
	assert.is((await s.get(`${P}/${otherType.body.id}`, owner)).status, 404);
	assert.is((await s.request('DELETE', `${P}/${otherType.body.id}`, { token: owner })).status, 404);
	assert.is((await s.get(P, owner)).body.total_count, 2);
});

test('deployment branch policies – 404 unless custom_branch_policies, validation, denial', async () => {
	await s.request('PUT', `${APP}/environments/locked`, {
		token: owner,
		body: { deployment_branch_policy: { protected_branches: true, custom_branch_policies: false } },
	});
	await s.request('PUT', `${APP}/environments/open`, { token: owner, body: {} });
	for (const name of ['locked', 'open', 'missing']) {
		const res = await s.request('POST', `${APP}/environments/${name}/deployment-branch-policies`, {
			token: owner,
			body: { name: 'main' },
		});
		assert.is(res.status, 404, `~> ${name}`);
	}
	assert.is((await s.get(`${APP}/environments/missing/deployment-branch-policies`, owner)).status, 404);
	assert.equal((await s.get(`${APP}/environments/locked/deployment-branch-policies`, owner)).body, {
		total_count: 0,
		branch_policies: [],
	});

	const P = `${APP}/environments/prod%2Feu/deployment-branch-policies`;
	const cases: Array<[unknown, string]> = [
		[{}, 'name'],
		[{ name: '' }, 'name'],
		[{ name: '   ' }, 'name'],
		[{ name: 'x'.repeat(256) }, 'name'],
		[{ name: 'main', type: 'commit' }, 'type'],
	];
	for (const [body, field] of cases) {
		const res = await s.request('POST', P, { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field && e.resource === 'DeploymentBranchPolicy'),
			JSON.stringify(res.body.errors),
		);
	}
	const id = (await s.get(P, owner)).body.branch_policies[0].id;
	for (const [method, path, body] of [
		['POST', P, { name: 'main' }],
		['PUT', `${P}/${id}`, { name: 'main' }],
		['DELETE', `${P}/${id}`, undefined],
	] as const) {
		assert.is((await s.request(method, path, { body })).status, 401, `~> ${method} anonymous`);
		assert.is((await s.request(method, path, { token: pusher, body })).status, 403, `~> ${method} push access`);
		assert.is((await s.request(method, path, { token: outsider, body })).status, 403, `~> ${method} read access`);
	}
	await s.request('PUT', `${VAULT}/environments/safe`, {
		token: owner,
		body: { deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } },
	});
	const created = await s.request('POST', `${VAULT}/environments/safe/deployment-branch-policies`, {
		token: owner,
		body: { name: 'main' },
	});
	assert.is(created.status, 200);
	assert.is((await s.get(`${VAULT}/environments/safe/deployment-branch-policies`)).status, 404, '~> anonymous, private');
	assert.is((await s.get(`${VAULT}/environments/safe/deployment-branch-policies/${created.body.id}`, outsider)).status, 404);
	assert.is(
		(await s.get(`${VAULT}/environments/safe/deployment-branch-policies/${created.body.id}`, pusher)).status,
		200,
		'~> read access',
	);
	const fineRead = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { actions: 'read' } });
	assert.is((await s.get(`${VAULT}/environments/safe/deployment-branch-policies`, fineRead)).status, 200);
	const fineNone = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { deployments: 'read' } });
	assert.is(
		(await s.get(`${VAULT}/environments/safe/deployment-branch-policies`, fineNone)).status,
		404,
		'~> without actions:read: a public view',
	);

	// Leaving custom branch policies deletes them.
	await s.request('PUT', `${VAULT}/environments/safe`, { token: owner, body: { deployment_branch_policy: null } });
	assert.is((await s.get(`${VAULT}/environments/safe/deployment-branch-policies/${created.body.id}`, owner)).status, 404);
});

test('branch policy patterns – shell-style globs where * does not match /', async () => {
	const cases: Array<[string, string, boolean]> = [
		['release/*/*', 'release/v1/hotfix', true],
		['release/*/*', 'release/2024/q3', true],
		['release/*/*', 'release/v1', false],
		['release/*/*', 'release/v1/hotfix/extra', false],
		['release/*/*', 'feature/v1/hotfix', false],
		['release/*', 'release/v1', true],
		['release/*', 'release/v1/hotfix', false],
		['*', 'main', true],
		['*', 'feature/x', false],
		['feature-?', 'feature-1', true],
		['feature-?', 'feature-12', false],
		['v[0-9]*', 'v1.2.3', true],
		['v[0-9]*', 'vx', false],
		['main', 'Main', false],
		['{main,dev}', 'main', false],
		['!main', 'dev', false],
	];
	for (const [pattern, name, expected] of cases) {
		assert.is(matchesBranchPolicy(pattern, name), expected, `~> ${pattern} ${expected ? 'matches' : 'does not match'} ${name}`);
	}
	// The same rule over the stored policies of an environment.
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	const env = s.app.stores.deployments.environment(repo.id, 'prod/eu')!;
	assert.is(env.branch_policy, 'custom');
	assert.ok(refAllowed(s.app, env, 'refs/heads/release/v1/hotfix'));
	assert.ok(refAllowed(s.app, env, 'release/v1/hotfix'));
	assert.not.ok(refAllowed(s.app, env, 'refs/heads/release/v1'));
	assert.ok(refAllowed(s.app, env, 'refs/tags/v2'), '~> the tag policy v*');
	assert.not.ok(refAllowed(s.app, env, 'refs/heads/v2'), '~> v* is a tag policy, not a branch policy');
	const open = s.app.stores.deployments.environment(repo.id, 'open')!;
	assert.ok(refAllowed(s.app, open, 'anything/at/all'), '~> no custom policies: every ref');
});

test.run();
