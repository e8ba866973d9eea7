/**
 * Enterprise self-hosted runner groups (https://docs.github.com/en/enterprise-server@3.19/rest/actions/self-hosted-runner-groups).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registerRunner } from '../src/api/runner-groups/service';
import { startServer, type TestServer } from './helpers/server';

const test = suite('runner-groups');
let s: TestServer;
let token: string;
let acmeId: number;
let globexId: number;
const BASE = '/enterprises/bigco/actions/runner-groups';
const runnerIds: number[] = [];

test.before(async () => {
	s = await startServer();
	for (const login of ['erin', 'olivia']) s.user(login);
	s.enterprise('bigco', 'erin');
	acmeId = s.org('acme', 'olivia', { enterprise: 'bigco' }).id;
	globexId = s.org('globex', 'olivia', { enterprise: 'bigco' }).id;
	s.org('outside', 'olivia');
	token = s.token('erin', { scopes: ['manage_runners:enterprise'] });
	const enterpriseId = s.app.stores.enterprises.bySlug('bigco')!.id;
	for (const [name, os] of [
		['linux-1', 'linux'],
		['mac-1', 'macos'],
		['win-1', 'windows'],
	]) {
		runnerIds.push(registerRunner(s.app, enterpriseId, { name, os, labels: ['gpu'], status: 'online' }, '2026-01-01T00:00:00Z').id);
	}
});
test.after(() => s.close());

test('the default group exists from the start and holds new runners', async () => {
	const res = await s.get(BASE, token);
	assert.is(res.status, 200);
	assert.equal(Object.keys(res.body), ['total_count', 'runner_groups']);
	assert.is(res.body.total_count, 1);
	const group = res.body.runner_groups[0];
	assert.equal(group, {
		id: group.id,
		name: 'Default',
		visibility: 'all',
		default: true,
		runners_url: `${s.api}/enterprises/bigco/actions/runner-groups/${group.id}/runners`,
		hosted_runners_url: `${s.api}/enterprises/bigco/actions/runner-groups/${group.id}/hosted-runners`,
		network_configuration_id: null,
		allows_public_repositories: false,
		restricted_to_workflows: false,
		selected_workflows: [],
		workflow_restrictions_read_only: false,
	});
	const runners = await s.get(`${BASE}/${group.id}/runners`, token);
	assert.is(runners.body.total_count, 3);
	const linux = runners.body.runners[0];
	assert.is(linux.name, 'linux-1');
	assert.is(linux.status, 'online');
	assert.equal(
		linux.labels.map((l: any) => [l.name, l.type]),
		[
			['self-hosted', 'read-only'],
			['Linux', 'read-only'],
			['X64', 'read-only'],
			['gpu', 'custom'],
		],
	);
	const deleted = await s.request('DELETE', `${BASE}/${group.id}`, { token });
	assert.is(deleted.status, 422);
	assert.match(deleted.body.message, 'default runner group cannot be deleted');
});

test('create – selected organizations, runners, workflows kept only when restricted', async () => {
	const res = await s.request('POST', BASE, {
		token,
		body: {
			name: 'Expensive hardware runners',
			visibility: 'selected',
			selected_organization_ids: [acmeId],
			runners: [runnerIds[0], runnerIds[1]],
			allows_public_repositories: true,
			restricted_to_workflows: true,
			selected_workflows: ['acme/app/.github/workflows/deploy.yaml@main'],
			network_configuration_id: 'EC486D5D793175D7E3B29C27318D5C1AAE49A7833FC85F2E82C3D2C54AC7D3BA',
		},
	});
	assert.is(res.status, 201);
	assert.is(res.body.default, false);
	assert.is(res.body.visibility, 'selected');
	assert.is(res.body.selected_organizations_url, `${s.api}/enterprises/bigco/actions/runner-groups/${res.body.id}/organizations`);
	assert.equal(res.body.selected_workflows, ['acme/app/.github/workflows/deploy.yaml@main']);
	assert.is(res.body.network_configuration_id, 'EC486D5D793175D7E3B29C27318D5C1AAE49A7833FC85F2E82C3D2C54AC7D3BA');
	const ignored = await s.request('POST', BASE, {
		token,
		body: { name: 'Unrestricted', selected_workflows: ['acme/app/.github/workflows/ci.yml@main'] },
	});
	assert.is(ignored.status, 201);
	assert.equal(ignored.body.selected_workflows, [], '~> ignored unless restricted_to_workflows is true');
	assert.is(ignored.body.visibility, 'all');
	assert.not.ok('selected_organizations_url' in ignored.body, '~> only for selected visibility');
	const runners = await s.get(`${BASE}/${res.body.id}/runners`, token);
	assert.equal(
		runners.body.runners.map((r: any) => r.name),
		['linux-1', 'mac-1'],
	);
	assert.is(runners.body.runners[0].runner_group_id, res.body.id);
});

test('create – validation', async () => {
	const cases: Array<[Record<string, unknown>, string]> = [
		[{}, 'name'],
		[{ name: 'Default' }, 'name'],
		[{ name: 'x', visibility: 'private' }, 'visibility'],
		[{ name: 'x', selected_organization_ids: [999999] }, 'selected_organization_ids'],
		[{ name: 'x', selected_organization_ids: [0] }, 'selected_organization_ids'],
		[{ name: 'x', runners: [424242] }, 'runners'],
		[{ name: 'x', restricted_to_workflows: true, selected_workflows: ['not-a-workflow'] }, 'selected_workflows'],
	];
	for (const [body, field] of cases) {
		const res = await s.request('POST', BASE, { token, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field),
			`~> names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
	const outsider = s.app.stores.accounts.organization('outside')!.id;
	assert.is(
		(await s.request('POST', BASE, { token, body: { name: 'x', selected_organization_ids: [outsider] } })).status,
		422,
		'~> only organizations of the enterprise',
	);
});

test('list – visible_to_organization', async () => {
	const acme = await s.get(`${BASE}?visible_to_organization=acme`, token);
	assert.equal(
		acme.body.runner_groups.map((g: any) => g.name),
		['Default', 'Expensive hardware runners', 'Unrestricted'],
	);
	const globex = await s.get(`${BASE}?visible_to_organization=globex`, token);
	assert.equal(
		globex.body.runner_groups.map((g: any) => g.name),
		['Default', 'Unrestricted'],
	);
	const outside = await s.get(`${BASE}?visible_to_organization=outside`, token);
	assert.is(outside.body.total_count, 0);
	const paged = await s.get(`${BASE}?per_page=1&page=2`, token);
	assert.is(paged.body.runner_groups.length, 1);
	assert.is(paged.body.total_count, 3);
	assert.match(paged.headers.get('link')!, 'rel="next"');
});

test('update – omitted fields stay; network_configuration_id can be cleared; workflows drop when unrestricted', async () => {
	const group = (await s.get(BASE, token)).body.runner_groups.find((g: any) => g.name === 'Expensive hardware runners');
	const renamed = await s.request('PATCH', `${BASE}/${group.id}`, { token, body: { name: 'Big iron' } });
	assert.is(renamed.status, 200);
	assert.is(renamed.body.name, 'Big iron');
	assert.is(renamed.body.visibility, 'selected');
	assert.is(renamed.body.restricted_to_workflows, true);
	const cleared = await s.request('PATCH', `${BASE}/${group.id}`, {
		token,
		body: { network_configuration_id: null, restricted_to_workflows: false },
	});
	assert.is(cleared.body.network_configuration_id, null);
	assert.equal(cleared.body.selected_workflows, []);
	const clash = await s.request('PATCH', `${BASE}/${group.id}`, { token, body: { name: 'unrestricted' } });
	assert.is(clash.status, 422);
	const defaultGroup = (await s.get(BASE, token)).body.runner_groups[0];
	assert.is((await s.request('PATCH', `${BASE}/${defaultGroup.id}`, { token, body: { visibility: 'selected' } })).status, 422);
	assert.is((await s.request('PATCH', `${BASE}/999999`, { token, body: {} })).status, 404);
});

test('organizations – list, set, add, remove; only for selected groups', async () => {
	const group = (await s.get(BASE, token)).body.runner_groups.find((g: any) => g.name === 'Big iron');
	const list = await s.get(`${BASE}/${group.id}/organizations`, token);
	assert.equal(Object.keys(list.body), ['total_count', 'organizations']);
	assert.equal(
		list.body.organizations.map((o: any) => o.login),
		['acme'],
	);
	assert.equal(Object.keys(list.body.organizations[0]), [
		'login',
		'id',
		'node_id',
		'url',
		'repos_url',
		'events_url',
		'hooks_url',
		'issues_url',
		'members_url',
		'public_members_url',
		'avatar_url',
		'description',
	]);
	assert.is(
		(await s.request('PUT', `${BASE}/${group.id}/organizations`, { token, body: { selected_organization_ids: [globexId] } })).status,
		204,
	);
	assert.equal(
		(await s.get(`${BASE}/${group.id}/organizations`, token)).body.organizations.map((o: any) => o.login),
		['globex'],
	);
	assert.is((await s.request('PUT', `${BASE}/${group.id}/organizations/${acmeId}`, { token })).status, 204);
	assert.is((await s.get(`${BASE}/${group.id}/organizations`, token)).body.total_count, 2);
	assert.is((await s.request('DELETE', `${BASE}/${group.id}/organizations/${globexId}`, { token })).status, 204);
	assert.equal(
		(await s.get(`${BASE}/${group.id}/organizations`, token)).body.organizations.map((o: any) => o.login),
		['acme'],
	);
	const open = (await s.get(BASE, token)).body.runner_groups.find((g: any) => g.name === 'Unrestricted');
	const refused = await s.request('PUT', `${BASE}/${open.id}/organizations/${acmeId}`, { token });
	assert.is(refused.status, 422);
	assert.match(refused.body.message, 'visibility set to selected');
	assert.is((await s.request('PUT', `${BASE}/${group.id}/organizations/424242`, { token })).status, 404);
	assert.is(
		(await s.request('PUT', `${BASE}/${group.id}/organizations`, { token, body: { selected_organization_ids: 'acme' } })).status,
		422,
	);
});

test('runners – set, add, remove (back to the default group); delete a group returns its runners', async () => {
	const groups = (await s.get(BASE, token)).body.runner_groups;
	const [defaultGroup, big] = [groups[0], groups.find((g: any) => g.name === 'Big iron')];
	assert.is((await s.request('PUT', `${BASE}/${big.id}/runners`, { token, body: { runners: [runnerIds[2]] } })).status, 204);
	assert.equal(
		(await s.get(`${BASE}/${big.id}/runners`, token)).body.runners.map((r: any) => r.name),
		['win-1'],
	);
	assert.equal(
		(await s.get(`${BASE}/${defaultGroup.id}/runners`, token)).body.runners.map((r: any) => r.name),
		['linux-1', 'mac-1'],
		'~> replaced runners went back to the default group',
	);
	assert.is((await s.request('PUT', `${BASE}/${big.id}/runners/${runnerIds[0]}`, { token })).status, 204);
	assert.is((await s.request('DELETE', `${BASE}/${big.id}/runners/${runnerIds[2]}`, { token })).status, 204);
	assert.equal(
		(await s.get(`${BASE}/${big.id}/runners`, token)).body.runners.map((r: any) => r.name),
		['linux-1'],
	);
	assert.is((await s.request('DELETE', `${BASE}/${big.id}/runners/${runnerIds[2]}`, { token })).status, 404, '~> not in this group');
	assert.is((await s.request('DELETE', `${BASE}/${big.id}`, { token })).status, 204);
	assert.is((await s.get(`${BASE}/${big.id}`, token)).status, 404);
	assert.is(
		(await s.get(`${BASE}/${defaultGroup.id}/runners`, token)).body.total_count,
		3,
		'~> every runner is back in the default group',
	);
});

test('access – manage_runners:enterprise on classic or OAuth tokens of enterprise owners only', async () => {
	assert.is((await s.get(BASE)).status, 401);
	const wrongScope = await s.get(BASE, s.token('erin', { scopes: ['admin:org'] }));
	assert.is(wrongScope.status, 403);
	assert.is(wrongScope.headers.get('x-accepted-oauth-scopes'), 'manage_runners:enterprise');
	assert.is(
		(await s.get(BASE, s.token('erin', { scopes: ['admin:enterprise'] }))).status,
		200,
		'~> admin:enterprise implies manage_runners:enterprise',
	);
	assert.is((await s.get(BASE, s.token('erin', { kind: 'oauth', scopes: ['manage_runners:enterprise'] }))).status, 200);
	const fine = await s.get(BASE, s.token('erin', { kind: 'fine-grained', permissions: { organization_self_hosted_runners: 'admin' } }));
	assert.is(fine.status, 403);
	assert.is(fine.body.message, 'Resource not accessible by personal access token');
	const app = await s.get(
		BASE,
		s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_self_hosted_runners: 'admin' } }),
	);
	assert.is(app.status, 403);
	assert.is(
		(await s.get(BASE, s.token('olivia', { scopes: ['manage_runners:enterprise'] }))).status,
		404,
		'~> organization owners are enterprise members, not owners: no enterprise to them',
	);
	assert.is((await s.get('/enterprises/nope/actions/runner-groups', token)).status, 404);
});

test.run();
