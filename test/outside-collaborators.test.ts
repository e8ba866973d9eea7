/**
 * Outside collaborators.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('outside-collaborators');
let s: TestServer;
let owner: string;
let member: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'carl', 'dora', 'eve', 'ted']) s.user(login);
	s.org('acme', 'olivia');
	for (const login of ['mike', 'carl', 'dora', 'eve']) s.member('acme', login);
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	for (const name of ['web', 'api', 'ops']) await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, private: true } });
	await s.request('POST', '/orgs/acme/teams', {
		token: owner,
		body: { name: 'Web', privacy: 'closed', maintainers: ['carl', 'dora'], repo_names: ['acme/web'], permission: 'push' },
	});
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Web Child', parent_team_slug: 'web' } });
	await s.request('PUT', '/orgs/acme/teams/web-child/memberships/eve', { token: owner, body: {} });
});
test.after(() => s.close());

test('convert – 204; the user keeps only team-granted access, as direct grants', async () => {
	const carl = s.fullToken('carl');
	assert.is((await s.get('/repos/acme/api', carl)).status, 200, '~> as a member, base permission shows every repository');
	const res = await s.request('PUT', '/orgs/acme/outside_collaborators/carl', { token: owner, body: {} });
	assert.is(res.status, 204);
	assert.is(res.text, '');
	assert.is((await s.get('/orgs/acme/members/carl', owner)).status, 404, '~> no longer a member');
	assert.is((await s.get('/orgs/acme/teams/web/memberships/carl', owner)).status, 404, '~> no longer on the team');
	const web = await s.get('/repos/acme/web', carl);
	assert.is(web.status, 200, '~> the team-granted repository stays');
	assert.is(web.body.role_name, 'write', '~> with the team permission');
	assert.is((await s.get('/repos/acme/api', carl)).status, 404, '~> base-permission access is gone');
	const list = await s.get('/orgs/acme/outside_collaborators', owner);
	assert.equal(
		list.body.map((u: any) => u.login),
		['carl'],
	);
	assert.is(list.body[0].type, 'User');
});

test('convert – access through a parent team counts', async () => {
	const res = await s.request('PUT', '/orgs/acme/outside_collaborators/eve', { token: owner, body: { async: false } });
	assert.is(res.status, 204);
	assert.is((await s.get('/repos/acme/web', s.fullToken('eve'))).status, 200);
});

test('convert – async answers 202 {} and a job converts', async () => {
	const res = await s.request('PUT', '/orgs/acme/outside_collaborators/dora', { token: owner, body: { async: true } });
	assert.is(res.status, 202);
	assert.equal(res.body, {});
	assert.is((await s.get('/orgs/acme/members/dora', owner)).status, 204, '~> not converted before the job runs');
	await s.app.tasks.runDue();
	assert.is((await s.get('/orgs/acme/members/dora', owner)).status, 404);
	assert.is((await s.get('/repos/acme/web', s.fullToken('dora'))).status, 200);
});

test('convert – 403 for the last owner, a non-member, or an enterprise policy; 404 for unknown users', async () => {
	const last = await s.request('PUT', '/orgs/acme/outside_collaborators/olivia', { token: owner, body: {} });
	assert.is(last.status, 403);
	assert.match(last.body.message, 'last owner');
	const nonMember = await s.request('PUT', '/orgs/acme/outside_collaborators/ted', { token: owner, body: {} });
	assert.is(nonMember.status, 403);
	assert.match(nonMember.body.message, 'not a member');
	assert.is((await s.request('PUT', '/orgs/acme/outside_collaborators/ghost', { token: owner, body: {} })).status, 404);
	assert.is((await s.request('PUT', '/orgs/acme/outside_collaborators/mike', { token: member, body: {} })).status, 403, '~> owners only');
	assert.is((await s.request('PUT', '/orgs/acme/outside_collaborators/mike', { token: owner, body: { async: 'yes' } })).status, 422);

	s.enterprise('strict', 'olivia', { allowOutsideCollaborators: false });
	s.org('locked', 'olivia', { enterprise: 'strict' });
	s.member('locked', 'ted');
	const policy = await s.request('PUT', '/orgs/locked/outside_collaborators/ted', { token: owner, body: {} });
	assert.is(policy.status, 403);
	assert.match(policy.body.message, 'enterprise');
	const policyAsync = await s.request('PUT', '/orgs/locked/outside_collaborators/ted', { token: owner, body: { async: true } });
	assert.is(policyAsync.status, 403, '~> conditions are checked before answering 202');
});

test('remove – 422 for a member, 204 removes every repository grant', async () => {
	const refused = await s.request('DELETE', '/orgs/acme/outside_collaborators/mike', { token: owner });
	assert.is(refused.status, 422);
	assert.is(refused.body.message, 'You cannot specify an organization member to remove as an outside collaborator.');
	const res = await s.request('DELETE', '/orgs/acme/outside_collaborators/carl', { token: owner });
	assert.is(res.status, 204);
	assert.is((await s.get('/repos/acme/web', s.fullToken('carl'))).status, 404);
	const list = await s.get('/orgs/acme/outside_collaborators', owner);
	assert.not.ok(list.body.some((u: any) => u.login === 'carl'));
});

test('list – filter values, members only', async () => {
	assert.is((await s.get('/orgs/acme/outside_collaborators?filter=all', member)).status, 200);
	assert.equal((await s.get('/orgs/acme/outside_collaborators?filter=2fa_insecure', member)).body, []);
	assert.is((await s.get('/orgs/acme/outside_collaborators?filter=bogus', member)).status, 422);
	assert.is((await s.get('/orgs/acme/outside_collaborators', s.fullToken('ted'))).status, 403);
	assert.is((await s.get('/orgs/acme/outside_collaborators')).status, 401);
});

test.run();
