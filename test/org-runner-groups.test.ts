/**
 * Organization self-hosted runner groups and runners: the Default group every
 * organization has; create, update, delete; repository access (visibility selected); runners
 * moving between groups; groups the enterprise shares with the organization (inherited); the
 * organization's runners (list, get, delete); who may call (owners and the app with
 * organization_self_hosted_runners; members 403; outsiders 404; organization_administration is not
 * the permission).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderBody } from '../src/model/markdown/render';
import { registerRunner } from '../src/api/runner-groups/service';
import { migrate } from '../src/db/migrate';
import { openDatabase } from '../src/db/open';
import { startServer, type TestServer } from './helpers/server';

const test = suite('org-runner-groups');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;
const BASE = '/orgs/acme/actions/runner-groups';
const runners: Record<string, number> = {};
const repos: Record<string, number> = {};
let defaultId: number;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora', 'erin']) s.user(login);
	s.enterprise('bigco', 'erin');
	const acme = s.org('acme', 'olivia', { enterprise: 'bigco' });
	s.org('globex', 'nora');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('nora');
	for (const [name, priv] of [
		['app', false],
		['vault', true],
		['docs', false],
	] as const) {
		repos[name] = (await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, private: priv } })).body.id;
	}
	const now = '2026-01-01T00:00:00Z';
	for (const [name, os] of [
		['linux-1', 'linux'],
		['mac-1', 'macos'],
	]) {
		runners[name] = registerRunner(s.app, { org: acme.id }, { name, os, labels: ['gpu'], status: 'online' }, now).id;
	}
	const bigco = s.app.stores.enterprises.bySlug('bigco')!.id;
	runners.enterprise = registerRunner(s.app, bigco, { name: 'big-1', os: 'linux', labels: [] }, now).id;
});
test.after(() => s.close());

test('every organization has its Default group, holding its new runners; the enterprise’s groups are inherited', async () => {
	const res = await s.get(BASE, owner);
	assert.is(res.status, 200);
	assert.is(res.body.total_count, 2, '~> its own Default and the enterprise’s Default');
	const [own, inherited] = res.body.runner_groups;
	defaultId = own.id;
	assert.equal(own, {
		id: own.id,
		name: 'Default',
		visibility: 'all',
		default: true,
		runners_url: `${s.api}/orgs/acme/actions/runner-groups/${own.id}/runners`,
		hosted_runners_url: `${s.api}/orgs/acme/actions/runner-groups/${own.id}/hosted-runners`,
		network_configuration_id: null,
		inherited: false,
		allows_public_repositories: false,
		workflow_restrictions_read_only: false,
		restricted_to_workflows: false,
		selected_workflows: [],
	});
	assert.is(inherited.inherited, true, '~> the enterprise’s default group is shared with every organization');
	assert.is(inherited.inherited_allows_public_repositories, false);
	const list = (await s.get(`${BASE}/${own.id}/runners`, owner)).body;
	assert.equal(
		list.runners.map((r: any) => r.name),
		['linux-1', 'mac-1'],
	);
	assert.is(list.runners[0].runner_group_id, own.id);
	assert.is((await s.get(`${BASE}/${inherited.id}`, owner)).body.inherited, true, '~> readable');
	const change = await s.request('PATCH', `${BASE}/${inherited.id}`, { token: owner, body: { name: 'Mine now' } });
	assert.is(change.status, 403, '~> only the enterprise changes it');
	assert.is((await s.get(`${BASE}/${inherited.id}/runners`, owner)).body.runners[0].name, 'big-1', '~> its runners are listed');
	const deleted = await s.request('DELETE', `${BASE}/${own.id}`, { token: owner });
	assert.is(deleted.status, 422, '~> the Default group cannot be deleted');
});

test('who may call: anonymous 401, outsider 404, member 403, organization_self_hosted_runners (not organization_administration)', async () => {
	assert.is((await s.get(BASE)).status, 401);
	assert.is((await s.get(BASE, outsider)).status, 404);
	assert.is((await s.get(BASE, member)).status, 403);
	const runnersWrite = s.token('olivia', {
		kind: 'fine-grained',
		org: 'acme',
		permissions: { organization_self_hosted_runners: 'write' },
	});
	const runnersRead = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_self_hosted_runners: 'read' } });
	const admin = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'write' } });
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_self_hosted_runners: 'write' } });
	assert.is((await s.get(BASE, runnersRead)).status, 200);
	const body = { name: 'Scratch' };
	const refused = await s.request('POST', BASE, { token: runnersRead, body });
	assert.is(refused.status, 403, '~> read may not create');
	assert.is(refused.headers.get('x-accepted-github-permissions'), 'organization_self_hosted_runners=write');
	assert.is((await s.request('POST', BASE, { token: admin, body })).status, 403, '~> organization_administration is not the permission');
	const made = await s.request('POST', BASE, { token: runnersWrite, body });
	assert.is(made.status, 201);
	assert.is((await s.request('DELETE', `${BASE}/${made.body.id}`, { token: app })).status, 204, '~> the app may');
});

test('create, update, delete; names unique; visibility selected with repository access', async () => {
	const create = await s.request('POST', BASE, {
		token: owner,
		body: {
			name: 'GPUs',
			visibility: 'selected',
			selected_repository_ids: [repos.app],
			runners: [runners['linux-1']],
			allows_public_repositories: true,
		},
	});
	assert.is(create.status, 201, create.text);
	const group = create.body;
	assert.is(group.selected_repositories_url, `${s.api}/orgs/acme/actions/runner-groups/${group.id}/repositories`);
	assert.is(group.allows_public_repositories, true);
	assert.is((await s.get(`${BASE}/${defaultId}/runners`, owner)).body.total_count, 1, '~> linux-1 moved');
	const dup = await s.request('POST', BASE, { token: owner, body: { name: 'gpus' } });
	assert.is(dup.status, 422, '~> names are unique (case-insensitively)');
	assert.is((await s.request('POST', BASE, { token: owner, body: { name: 'x', visibility: 'everyone' } })).status, 422);
	assert.is((await s.request('POST', BASE, { token: owner, body: { name: 'x', selected_repository_ids: [999999] } })).status, 422);

	let access = (await s.get(`${BASE}/${group.id}/repositories`, owner)).body;
	assert.equal(
		access.repositories.map((r: any) => r.name),
		['app'],
	);
	assert.is(
		(
			await s.request('PUT', `${BASE}/${group.id}/repositories`, {
				token: owner,
				body: { selected_repository_ids: [repos.docs, repos.vault] },
			})
		).status,
		204,
	);
	assert.is((await s.request('DELETE', `${BASE}/${group.id}/repositories/${repos.docs}`, { token: owner })).status, 204);
	assert.is((await s.request('PUT', `${BASE}/${group.id}/repositories/${repos.app}`, { token: owner })).status, 204);
	access = (await s.get(`${BASE}/${group.id}/repositories`, owner)).body;
	assert.equal(
		access.repositories.map((r: any) => r.name),
		['app', 'vault'],
	);

	// visible_to_repository: the groups a repository may use.
	const forDocs = (await s.get(`${BASE}?visible_to_repository=docs`, owner)).body.runner_groups.map((g: any) => g.name);
	assert.not.ok(forDocs.includes('GPUs'), '~> docs is not selected');
	const forApp = (await s.get(`${BASE}?visible_to_repository=app`, owner)).body.runner_groups.map((g: any) => g.name);
	assert.ok(forApp.includes('GPUs'), '~> app is');
	// The organization's self-hosted runners policy comes first.
	await s.request('PUT', '/orgs/acme/actions/permissions/self-hosted-runners', { token: owner, body: { enabled_repositories: 'none' } });
	assert.is(
		(await s.get(`${BASE}?visible_to_repository=app`, owner)).body.total_count,
		0,
		'~> no self-hosted runners for any repository',
	);
	await s.request('PUT', '/orgs/acme/actions/permissions/self-hosted-runners', { token: owner, body: { enabled_repositories: 'all' } });

	const patched = await s.request('PATCH', `${BASE}/${group.id}`, { token: owner, body: { name: 'Big GPUs', visibility: 'private' } });
	assert.is(patched.status, 200);
	assert.is(patched.body.visibility, 'private');
	assert.is(patched.body.selected_repositories_url, undefined);
	const notSelected = await s.request('PUT', `${BASE}/${group.id}/repositories/${repos.app}`, { token: owner });
	assert.is(notSelected.status, 422, '~> repositories are chosen only for a selected group');
	assert.is(
		(await s.request('PATCH', `${BASE}/${group.id}`, { token: owner, body: { visibility: 'all' } })).status,
		422,
		'~> name is required',
	);
	assert.is(
		(await s.request('PATCH', `${BASE}/${defaultId}`, { token: owner, body: { name: 'Default', visibility: 'selected' } })).status,
		422,
		'~> the Default group stays visible to all',
	);

	// Runners: set, add, remove.
	assert.is((await s.request('PUT', `${BASE}/${group.id}/runners`, { token: owner, body: { runners: [runners['mac-1']] } })).status, 204);
	let inGroup = (await s.get(`${BASE}/${group.id}/runners`, owner)).body.runners.map((r: any) => r.name);
	assert.equal(inGroup, ['mac-1'], '~> replaced: linux-1 back in Default');
	assert.is((await s.request('PUT', `${BASE}/${group.id}/runners/${runners['linux-1']}`, { token: owner })).status, 204);
	assert.is((await s.request('DELETE', `${BASE}/${group.id}/runners/${runners['mac-1']}`, { token: owner })).status, 204);
	inGroup = (await s.get(`${BASE}/${group.id}/runners`, owner)).body.runners.map((r: any) => r.name);
	assert.equal(inGroup, ['linux-1']);
	assert.is(
		(await s.request('PUT', `${BASE}/${group.id}/runners/${runners.enterprise}`, { token: owner })).status,
		404,
		'~> an enterprise runner is not the organization’s',
	);
	assert.is(
		(await s.request('PUT', `${BASE}/${group.id}/runners`, { token: owner, body: { runners: [runners.enterprise] } })).status,
		422,
	);

	// Deleting the group returns its runners to Default.
	assert.is((await s.request('DELETE', `${BASE}/${group.id}`, { token: owner })).status, 204);
	assert.is((await s.get(`${BASE}/${group.id}`, owner)).status, 404);
	assert.is((await s.get(`${BASE}/${defaultId}/runners`, owner)).body.total_count, 2);
});

test('the organization’s runners: list (by name), get, delete', async () => {
	const list = (await s.get('/orgs/acme/actions/runners', owner)).body;
	assert.equal(
		list.runners.map((r: any) => r.name),
		['linux-1', 'mac-1'],
	);
	assert.equal(
		list.runners[0].labels.map((l: any) => l.name),
		['self-hosted', 'Linux', 'X64', 'gpu'],
	);
	assert.is((await s.get('/orgs/acme/actions/runners?name=mac-1', owner)).body.total_count, 1);
	const one = await s.get(`/orgs/acme/actions/runners/${runners['mac-1']}`, owner);
	assert.is(one.body.os, 'macos');
	assert.is((await s.get(`/orgs/acme/actions/runners/${runners.enterprise}`, owner)).status, 404);
	assert.is((await s.get('/orgs/acme/actions/runners', member)).status, 403);
	assert.is((await s.request('DELETE', `/orgs/acme/actions/runners/${runners['mac-1']}`, { token: owner })).status, 204);
	assert.is((await s.get(`/orgs/acme/actions/runners/${runners['mac-1']}`, owner)).status, 404);
});

test('changes record audit-log events (org.runner_group_*), which no hook can subscribe to', async () => {
	const mark = s.app.stores.events.latestId();
	const made = await s.request('POST', BASE, { token: owner, body: { name: 'Audited' } });
	await s.request('DELETE', `${BASE}/${made.body.id}`, { token: owner });
	const rows = s.app.db.prepare('SELECT event, action FROM events WHERE id > ? ORDER BY id').all(mark) as any[];
	assert.equal(rows, [
		{ event: 'org', action: 'runner_group_created' },
		{ event: 'org', action: 'runner_group_removed' },
	]);
});

test('deleting the organization removes its groups and runners', async () => {
	s.org('temp', 'olivia');
	const temp = s.app.stores.accounts.organization('temp')!;
	registerRunner(s.app, { org: temp.id }, { name: 'tmp-1', os: 'linux', labels: [] }, '2026-01-01T00:00:00Z');
	assert.is((await s.request('DELETE', '/orgs/temp', { token: owner })).status, 202);
	assert.is(s.app.db.prepare('SELECT count(*) FROM runner_groups WHERE org_id = ?').pluck().get(temp.id), 0);
	assert.is(s.app.db.prepare('SELECT count(*) FROM runners WHERE org_id = ?').pluck().get(temp.id), 0);
});

test('upgrading a database with enterprise runner groups keeps them, their organizations, runners and labels; organizations get a Default group', () => {
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-runner-upgrade-'));
	try {
		const db = openDatabase(join(dir, 'old.db'));
		db.exec(readFileSync(join(__dirname, 'fixtures', 'schema-v1.sql'), 'utf8'));
		db.pragma('user_version = 1');
		migrate(db, { renderBody }, undefined, 21);
		const now = '2026-01-01T00:00:00Z';
		db.prepare("INSERT INTO enterprises (id, slug, name, created_at, updated_at) VALUES (1, 'bigco', 'Bigco', ?, ?)").run(now, now);
		db.prepare(
			"INSERT INTO accounts (id, login, type, enterprise_id, created_at, updated_at) VALUES (5, 'acme', 'Organization', 1, ?, ?)",
		).run(now, now);
		db.prepare(
			"INSERT INTO runner_groups (id, enterprise_id, name, visibility, is_default, created_at, updated_at) VALUES (7, 1, 'Default', 'all', 1, ?, ?), (8, 1, 'GPUs', 'selected', 0, ?, ?)",
		).run(now, now, now, now);
		db.prepare('INSERT INTO runner_group_organizations (group_id, org_id) VALUES (8, 5)').run();
		db.prepare("INSERT INTO runners (id, enterprise_id, group_id, name, os, created_at) VALUES (3, 1, 8, 'linux-1', 'linux', ?)").run(
			now,
		);
		db.prepare("INSERT INTO runner_labels (runner_id, name, type) VALUES (3, 'gpu', 'custom')").run();
		migrate(db, { renderBody });
		assert.equal(db.pragma('foreign_key_check'), [], '~> every reference holds');
		assert.equal(db.prepare('SELECT id, enterprise_id, org_id, name FROM runner_groups ORDER BY id').all(), [
			{ id: 7, enterprise_id: 1, org_id: null, name: 'Default' },
			{ id: 8, enterprise_id: 1, org_id: null, name: 'GPUs' },
			{ id: 9, enterprise_id: null, org_id: 5, name: 'Default' },
		]);
		assert.equal(db.prepare('SELECT group_id, org_id FROM runner_group_organizations').all(), [{ group_id: 8, org_id: 5 }]);
		assert.equal(db.prepare('SELECT id, group_id, enterprise_id FROM runners').all(), [{ id: 3, group_id: 8, enterprise_id: 1 }]);
		assert.equal(db.prepare('SELECT runner_id, name FROM runner_labels').all(), [{ runner_id: 3, name: 'gpu' }]);
		const references = db
			.prepare("SELECT sql FROM sqlite_master WHERE name IN ('runners', 'runner_labels', 'runner_group_organizations')")
			.pluck()
			.all() as string[];
		assert.ok(
			references.every((sql) => !sql.includes('_v22')),
			'~> the references name the renamed tables',
		);
		db.close();
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test.run();
