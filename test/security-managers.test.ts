/**
 * Security managers (GitHub's orgs/security-managers operations): owners name teams whose members
 * read the security alerts — Dependabot alerts and their dismissal requests — of every repository
 * of the organization, repositories they have no role in included; who may call the routes (the
 * matrix's organization_administration read / write).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('security-managers');
let s: TestServer;
let owner: string;
/** mike: member of acme, in the team Sec. */
let manager: string;
/** rita: member of acme, in no team. */
let member: string;
let outsider: string;
const M = '/orgs/acme/security-managers';

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'rita', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'rita');
	s.org('globex', 'nora');
	owner = s.fullToken('olivia');
	manager = s.fullToken('mike');
	member = s.fullToken('rita');
	outsider = s.fullToken('nora');
	// The base permission none: members see no private repository they have no role in.
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'none' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'vault', visibility: 'private' } });
	await s.request('POST', '/orgs/globex/repos', { token: outsider, body: { name: 'theirs', visibility: 'private' } });
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Sec', privacy: 'closed', maintainers: ['mike'] } });
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Ghosts', privacy: 'secret' } });
});
test.after(() => s.close());

test('before: a member reads no alerts of a private repository he has no role in', async () => {
	assert.is((await s.get('/repos/acme/vault/dependabot/alerts', manager)).status, 404, '~> the repository is invisible to him');
	assert.is((await s.get(M, owner)).body.length, 0, '~> no security managers yet');
});

test('PUT names a team; GET lists it as team-simple; who may call', async () => {
	assert.is((await s.request('PUT', `${M}/teams/sec`, { token: member })).status, 403, '~> a member may not');
	assert.is((await s.request('PUT', `${M}/teams/sec`, { token: outsider })).status, 404, '~> an outsider sees no team');
	assert.is(
		(await s.request('PUT', `${M}/teams/ghosts`, { token: member })).status,
		404,
		'~> a secret team is not confirmed to a member',
	);
	assert.is((await s.request('PUT', `${M}/teams/nobody`, { token: owner })).status, 404, '~> no such team');
	const read = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } });
	assert.is(
		(await s.request('PUT', `${M}/teams/sec`, { token: read })).status,
		403,
		'~> organization_administration read does not change',
	);
	const res = await s.request('PUT', `${M}/teams/sec`, { token: owner });
	assert.is(res.status, 204, '~> 204 No Content');
	assert.is((await s.request('PUT', `${M}/teams/sec`, { token: owner })).status, 204, '~> again: still 204');
	const list = await s.get(M, read);
	assert.is(list.status, 200, '~> organization_administration read lists');
	assert.is(list.headers.get('x-accepted-service-permissions'), 'organization_administration=read');
	assert.equal(
		list.body.map((t: any) => t.slug),
		['sec'],
	);
	for (const key of [
		'id',
		'node_id',
		'url',
		'members_url',
		'name',
		'description',
		'permission',
		'privacy',
		'html_url',
		'repositories_url',
		'slug',
	]) {
		assert.ok(key in list.body[0], `~> team-simple has ${key}`);
	}
	assert.is((await s.get(M, member)).status, 403, '~> members may not list');
	assert.is((await s.get(M, outsider)).status, 404, '~> outsiders see nothing');
	const iat = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'read' } });
	assert.is((await s.get(M, iat)).status, 200, '~> the organization’s app reads');
});

test('a security manager reads the alerts and dismissal requests of every repository, changes none', async () => {
	const alerts = await s.get('/repos/acme/vault/dependabot/alerts', manager);
	assert.is(alerts.status, 200, '~> the security manager reads alerts of a repository he has no role in');
	assert.is((await s.get('/repos/acme/vault/depbot/alerts', manager)).status, 200, '~> at the depbot spelling too');
	assert.is(
		(await s.get('/repos/acme/vault/dependabot/alerts/1', manager)).status,
		404,
		'~> an alert that does not exist is 404, not hidden',
	);
	const requests = await s.get('/repos/acme/vault/dismissal-requests/dependabot', manager);
	assert.is(requests.status, 403, '~> dismissal requests: past the guard (delegated dismissal is off)');
	assert.match(requests.body.message, 'elegated', '~> the repository’s rule, not the role');
	assert.is(
		(
			await s.request('PATCH', '/repos/acme/vault/dependabot/alerts/1', {
				token: manager,
				body: { state: 'dismissed', dismissed_reason: 'inaccurate' },
			})
		).status,
		404,
		'~> no writes',
	);
	assert.is((await s.get('/repos/acme/vault', manager)).status, 404, '~> nothing else of the repository');
	assert.is((await s.get('/orgs/acme/dependabot/alerts', manager)).status, 200, '~> the organization’s alert list, as owners read it');
	assert.is((await s.get('/orgs/acme/dependabot/alerts', member)).status, 403, '~> not for other members');
	assert.is((await s.get('/orgs/acme/code-security/configurations', manager)).status, 403, '~> no organization settings');
	assert.is((await s.get('/repos/acme/vault/dependabot/alerts', member)).status, 404, '~> other members still see nothing');
	assert.is((await s.get('/repos/globex/theirs/dependabot/alerts', manager)).status, 404, '~> other organizations stay hidden');
	const bound = s.token('mike', { kind: 'fine-grained', org: 'globex', permissions: { vulnerability_alerts: 'read' } });
	assert.is(
		(await s.get('/repos/acme/vault/dependabot/alerts', bound)).status,
		404,
		'~> a token bound elsewhere does not act as a security manager',
	);
});

test('DELETE removes the team: its members lose the reading', async () => {
	assert.is((await s.request('DELETE', `${M}/teams/sec`, { token: member })).status, 403);
	assert.is((await s.request('DELETE', `${M}/teams/sec`, { token: owner })).status, 204);
	assert.is((await s.get(M, owner)).body.length, 0);
	assert.is((await s.get('/repos/acme/vault/dependabot/alerts', manager)).status, 404, '~> back to hidden');
	assert.is((await s.get('/orgs/acme/dependabot/alerts', manager)).status, 403, '~> and the organization’s list');
});

test.run();
