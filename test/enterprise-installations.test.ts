/**
 * Organization installations of an enterprise (GitHub's enterprise-admin/organization-installations):
 * who may call them (enterprise owners, tokens with enterprise_organization_installations; everyone
 * else 404 as for no enterprise; tokens without the permission 403), the lists, installing with a
 * repository selection that installation tokens honour (selected, none, all), granting and removing
 * repositories (50 at a time; never the last), toggling, uninstalling, and the events recorded.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, createInstallationToken } from '../src/api/apps/service';
import { isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';

const test = suite('enterprise organization installations');
let s: TestServer;
let erin: string;
let clientId: string;
let otherClientId: string;
let installationId: number;
let iat: string;
const BASE = '/enterprises/bigco/apps';
const INSTALLATIONS = `${BASE}/organizations/acme/installations`;

/** An installation token of the installation (all it may have). */
const tokenOf = (id: number) => createInstallationToken(s.app, s.app.stores.apps.installation(id)!, {}).token;
const status = async (path: string, token: string) => (await s.request('GET', path, { token })).status;
const audit = () =>
	s.app.db.prepare("SELECT action FROM audit_log WHERE action LIKE 'integration_installation.%' ORDER BY id").pluck().all() as string[];

test.before(async () => {
	s = await startServer();
	for (const login of ['erin', 'olivia', 'mike', 'zed']) s.user(login);
	s.enterprise('bigco', 'erin');
	s.org('acme', 'olivia', { enterprise: 'bigco' });
	s.org('solo', 'olivia');
	s.member('acme', 'mike');
	erin = s.fullToken('erin');
	const owner = s.fullToken('olivia');
	for (const name of ['app', 'lib', 'docs']) {
		const repo = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, private: true } });
		assert.is(repo.status, 201, `~> fixture repository ${name}`);
	}
	const now = isoSeconds(s.clock.now);
	const acme = s.app.stores.accounts.organization('acme')!;
	clientId = createApp(s.app, { name: 'Deployer', owner: acme, permissions: { contents: 'read' } }, now).app.client_id;
	otherClientId = createApp(s.app, { name: 'Notifier', owner: acme, permissions: { issues: 'read' } }, now).app.client_id;
});
test.after(() => s.close());

test('who may call: enterprise owners and tokens with the permission; others 404 as for no enterprise; tokens without it 403', async () => {
	assert.is(await status(`${BASE}/installable_organizations`, erin), 200, '~> the enterprise owner lists the organizations');
	assert.is(
		await status(`${BASE}/installable_organizations`, s.fullToken('olivia')),
		404,
		'~> an organization owner who does not own the enterprise sees none',
	);
	assert.is(await status(`${BASE}/installable_organizations`, s.fullToken('mike')), 404, '~> a member sees none');
	assert.is(await status(`${BASE}/installable_organizations`, s.fullToken('zed')), 404, '~> an outsider sees none');
	assert.is(await status(`${BASE}/installable_organizations`, ''), 401, '~> anonymous callers must authenticate');
	const without = s.token('erin', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } });
	const refused = await s.request('GET', `${BASE}/installable_organizations`, { token: without });
	assert.is(refused.status, 403, '~> a fine-grained token without enterprise_organization_installations is refused');
	assert.is(refused.headers.get('x-accepted-github-permissions'), 'enterprise_organization_installations=read', '~> the header names it');
	const holder = s.token('erin', { kind: 'fine-grained', org: 'acme', permissions: { enterprise_organization_installations: 'write' } });
	assert.is(await status(`${BASE}/installable_organizations`, holder), 200, '~> with it the owner’s token succeeds');
	const readOnly = s.token('erin', { kind: 'fine-grained', org: 'acme', permissions: { enterprise_organization_installations: 'read' } });
	const write = await s.request('POST', INSTALLATIONS, { token: readOnly, body: { client_id: clientId, repository_selection: 'all' } });
	assert.is(write.status, 403, '~> read does not install');
});

test('installable organizations and their repositories: the enterprise’s organizations only', async () => {
	const orgs = await s.request('GET', `${BASE}/installable_organizations`, { token: erin });
	assert.equal(
		orgs.body.map((o: { login: string }) => o.login),
		['acme'],
		'~> acme, not solo (outside the enterprise)',
	);
	assert.match(
		orgs.body[0].accessible_repositories_url,
		/\/enterprises\/bigco\/apps\/installable_organizations\/acme\/accessible_repositories$/,
		'~> its repositories’ URL',
	);
	const repos = await s.request('GET', `${BASE}/installable_organizations/acme/accessible_repositories?per_page=2`, { token: erin });
	assert.equal(
		repos.body.map((r: { full_name: string }) => r.full_name),
		['acme/app', 'acme/lib'],
		'~> a page of {id, name, full_name}',
	);
	assert.match(repos.headers.get('link') ?? '', /rel="next"/, '~> with Link');
	assert.is(
		await status(`${BASE}/installable_organizations/solo/accessible_repositories`, erin),
		404,
		'~> an organization outside the enterprise is 404',
	);
});

test('POST …/installations: validation 422; selected installs on the repositories named, and its tokens reach only those', async () => {
	const cases: Array<[unknown, string]> = [
		[{ repository_selection: 'all' }, 'client_id missing'],
		[{ client_id: clientId, repository_selection: 'some' }, 'an unknown repository_selection'],
		[{ client_id: 'Iv1.nope', repository_selection: 'all' }, 'an unknown client_id'],
		[{ client_id: clientId, repository_selection: 'selected' }, 'selected without repositories'],
		[{ client_id: clientId, repository_selection: 'all', repositories: ['app'] }, 'repositories with all'],
		[{ client_id: clientId, repository_selection: 'selected', repositories: ['nope'] }, 'a repository acme does not have'],
		[
			{ client_id: clientId, repository_selection: 'selected', repositories: Array.from({ length: 51 }, (_, i) => `r${i}`) },
			'more than 50 repositories',
		],
	];
	for (const [body, what] of cases) {
		const res = await s.request('POST', INSTALLATIONS, { token: erin, body });
		assert.is(res.status, 422, `~> ${what} is refused`);
	}
	assert.is(
		(
			await s.request('POST', INSTALLATIONS, {
				token: s.fullToken('olivia'),
				body: { client_id: clientId, repository_selection: 'all' },
			})
		).status,
		404,
		'~> an organization owner cannot use the enterprise route',
	);
	const res = await s.request('POST', INSTALLATIONS, {
		token: erin,
		body: { client_id: clientId, repository_selection: 'selected', repositories: ['app'] },
	});
	assert.is(res.status, 201, '~> installed');
	assert.is(res.body.repository_selection, 'selected', '~> on selected repositories');
	assert.is(res.body.account.login, 'acme', '~> on acme');
	installationId = res.body.id;
	iat = tokenOf(installationId);
	assert.is(await status('/repos/acme/app', iat), 200, '~> its token reaches acme/app');
	assert.is(await status('/repos/acme/lib', iat), 404, '~> and not acme/lib');
	const own = await s.request('GET', '/installation/repositories', { token: iat });
	assert.equal(
		own.body.repositories.map((r: { name: string }) => r.name),
		['app'],
		'~> GET /installation/repositories lists the selection',
	);
	assert.is(own.body.repository_selection, 'selected', '~> and says selected');
	assert.throws(
		() => createInstallationToken(s.app, s.app.stores.apps.installation(installationId)!, { repositories: ['lib'] }),
		/not accessible to the parent installation/,
		'~> a token cannot ask for a repository outside the selection',
	);
	const again = await s.request('POST', INSTALLATIONS, {
		token: erin,
		body: { client_id: clientId, repository_selection: 'selected', repositories: ['app'] },
	});
	assert.is(again.status, 200, '~> installing again answers 200 with the installation');
	assert.is(again.body.id, installationId, '~> the same one');
	assert.ok(audit().includes('integration_installation.create'), '~> the audit log has integration_installation.create');
});

test('GET …/installations and …/{installation_id}/repositories', async () => {
	const list = await s.request('GET', INSTALLATIONS, { token: erin });
	assert.is(list.status, 200, '~> listed');
	const mine = list.body.find((i: { id: number }) => i.id === installationId);
	assert.is(mine.app_slug, 'deployer', '~> with its app');
	assert.is(mine.client_id, clientId, '~> and client_id');
	assert.match(
		mine.repositories_url,
		new RegExp(`/enterprises/bigco/apps/organizations/acme/installations/${installationId}/repositories$`),
		'~> and repositories_url',
	);
	const repos = await s.request('GET', `${INSTALLATIONS}/${installationId}/repositories`, { token: erin });
	assert.equal(
		repos.body.map((r: { name: string }) => r.name),
		['app'],
		'~> the selected repositories',
	);
	assert.is(await status(`${INSTALLATIONS}/999999/repositories`, erin), 404, '~> an unknown installation is 404');
	assert.is(await status(`${BASE}/organizations/solo/installations`, erin), 404, '~> an organization outside the enterprise is 404');
});

test('PATCH …/repositories/add and …/remove: the same token gains and loses access at once', async () => {
	const added = await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories/add`, {
		token: erin,
		body: { repositories: ['lib'] },
	});
	assert.is(added.status, 200, '~> lib added');
	assert.equal(
		added.body.map((r: { name: string }) => r.name),
		['app', 'lib'],
		'~> the repositories it reaches now',
	);
	assert.is(await status('/repos/acme/lib', iat), 200, '~> the token reaches lib');
	const removed = await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories/remove`, {
		token: erin,
		body: { repositories: ['app'] },
	});
	assert.is(removed.status, 200, '~> app removed');
	assert.equal(
		removed.body.map((r: { name: string }) => r.name),
		['lib'],
		'~> lib is left',
	);
	assert.is(await status('/repos/acme/app', iat), 404, '~> the token lost acme/app');
	const last = await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories/remove`, {
		token: erin,
		body: { repositories: ['lib'] },
	});
	assert.is(last.status, 422, '~> the last repository cannot be removed');
	const many = await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories/add`, {
		token: erin,
		body: { repositories: Array.from({ length: 51 }, (_, i) => `r${i}`) },
	});
	assert.is(many.status, 422, '~> at most 50 at a time');
	assert.is(
		(await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories/add`, { token: erin, body: {} })).status,
		422,
		'~> repositories is required',
	);
	assert.is(
		(
			await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories/add`, {
				token: s.fullToken('mike'),
				body: { repositories: ['app'] },
			})
		).status,
		404,
		'~> a member is told nothing',
	);
	const actions = audit();
	assert.ok(
		actions.includes('integration_installation.repositories_added') &&
			actions.includes('integration_installation.repositories_removed'),
		'~> the audit log has both',
	);
});

test('PATCH …/repositories toggles between all and selected', async () => {
	const bad = await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories`, {
		token: erin,
		body: { repository_selection: 'selected' },
	});
	assert.is(bad.status, 422, '~> selected needs repositories');
	const all = await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories`, {
		token: erin,
		body: { repository_selection: 'all' },
	});
	assert.is(all.status, 200, '~> now on all repositories');
	assert.is(all.body.repository_selection, 'all', '~> says all');
	assert.is(await status('/repos/acme/docs', iat), 200, '~> the token reaches docs');
	const addToAll = await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories/add`, {
		token: erin,
		body: { repositories: ['app'] },
	});
	assert.is(addToAll.status, 422, '~> an installation on all repositories takes no additions');
	const back = await s.request('PATCH', `${INSTALLATIONS}/${installationId}/repositories`, {
		token: erin,
		body: { repository_selection: 'selected', repositories: ['docs'] },
	});
	assert.is(back.status, 200, '~> back to selected');
	assert.is(await status('/repos/acme/app', iat), 404, '~> app is out again');
	assert.is(await status('/repos/acme/docs', iat), 200, '~> docs is in');
});

test("'none' reaches no repository; DELETE uninstalls and its tokens stop working", async () => {
	const none = await s.request('POST', INSTALLATIONS, { token: erin, body: { client_id: otherClientId, repository_selection: 'none' } });
	assert.is(none.status, 201, '~> installed without repositories');
	const token = tokenOf(none.body.id);
	assert.is(await status('/repos/acme/app', token), 404, '~> its token reaches no repository');
	assert.is((await s.request('GET', '/installation/repositories', { token })).body.total_count, 0, '~> and lists none');
	assert.is((await s.request('DELETE', `${INSTALLATIONS}/999999`, { token: erin })).status, 404, '~> an unknown installation is 404');
	const gone = await s.request('DELETE', `${INSTALLATIONS}/${installationId}`, { token: erin });
	assert.is(gone.status, 204, '~> uninstalled');
	assert.is(await status('/repos/acme/docs', iat), 401, '~> its token is gone with it');
	assert.ok(audit().includes('integration_installation.destroy'), '~> the audit log has integration_installation.destroy');
});

test.run();
