/**
 * Organization members and memberships (reference §2.2), organizations and users over real HTTP.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('members');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nina', 'oscar', 'pat']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'nina');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('oscar');
});
test.after(() => s.close());

test('users – GET /user and /users/{username}', async () => {
	const me = await s.get('/user', member);
	assert.is(me.status, 200);
	assert.is(me.body.login, 'mike');
	assert.is(me.body.type, 'User');
	assert.is(me.body.site_admin, false);
	assert.is(me.body.two_factor_authentication, false);
	assert.is((await s.get('/user')).status, 401, '~> /user needs authentication');
	const other = await s.get('/users/NINA');
	assert.is(other.status, 200, '~> logins are case-insensitive');
	assert.is(other.body.login, 'nina');
	assert.is(other.body.total_private_repos, undefined, '~> private counts only on /user');
	const org = await s.get('/users/acme');
	assert.is(org.body.type, 'Organization');
	assert.is((await s.get('/users/ghost')).status, 404);
	const bad = await s.get('/user', 'ghp_notatokenatallnotatokenatallnotatoken');
	assert.is(bad.status, 401);
	assert.is(bad.body.message, 'Bad credentials');
});

test('organizations – GET /orgs/{org}: public view vs members vs owners', async () => {
	const anon = await s.get('/orgs/Acme');
	assert.is(anon.status, 200, '~> organization names are case-insensitive');
	assert.is(anon.body.login, 'acme');
	assert.is(anon.body.type, 'Organization');
	assert.is(anon.body.members_url, `${s.api}/orgs/acme/members{/member}`);
	assert.is(anon.body.default_repository_permission, undefined, '~> settings are not public');
	const asMember = await s.get('/orgs/acme', member);
	assert.is(asMember.body.default_repository_permission, 'read');
	assert.is(asMember.body.billing_email, undefined);
	const asOwner = await s.get('/orgs/acme', owner);
	assert.ok('billing_email' in asOwner.body);
	assert.is((await s.get('/orgs/nope')).status, 404);
});

test('organizations – PATCH by owners only, validated', async () => {
	const res = await s.request('PATCH', '/orgs/acme', { token: owner, body: { name: 'Acme Corp', description: 'Makers', billing_email: 'b@acme.test' } });
	assert.is(res.status, 200);
	assert.is(res.body.name, 'Acme Corp');
	assert.is(res.body.billing_email, 'b@acme.test');
	assert.is((await s.request('PATCH', '/orgs/acme', { token: member, body: { name: 'x' } })).status, 403);
	assert.is((await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'root' } })).status, 422);
	const fg = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } });
	const denied = await s.request('PATCH', '/orgs/acme', { token: fg, body: { name: 'x' } });
	assert.is(denied.status, 403);
	assert.is(denied.headers.get('x-accepted-github-permissions'), 'organization_administration=write');
});

test('organizations – lists for the user and for everyone', async () => {
	const mine = await s.get('/user/orgs', member);
	assert.equal(mine.body.map((o: any) => o.login), ['acme']);
	const pub = await s.get('/users/mike/orgs');
	assert.equal(pub.body, [], '~> concealed memberships are not public');
	const all = await s.get('/organizations');
	assert.ok(all.body.some((o: any) => o.login === 'acme'));
});

test('members – members see concealed members, others see public members only', async () => {
	const asMember = await s.get('/orgs/acme/members', member);
	assert.is(asMember.status, 200);
	assert.equal(asMember.body.map((m: any) => m.login).sort(), ['mike', 'nina', 'olivia']);
	assert.equal((await s.get('/orgs/acme/members')).body, []);
	assert.equal((await s.get('/orgs/acme/members', outsider)).body, []);
	const admins = await s.get('/orgs/acme/members?role=admin', member);
	assert.equal(admins.body.map((m: any) => m.login), ['olivia']);
	assert.equal((await s.get('/orgs/acme/members?filter=2fa_insecure', member)).body, []);
	assert.is((await s.get('/orgs/acme/members?role=boss', member)).status, 422);
});

test('public members – publicize and conceal your own membership only', async () => {
	assert.is((await s.request('PUT', '/orgs/acme/public_members/mike', { token: member })).status, 204);
	assert.is((await s.request('PUT', '/orgs/acme/public_members/nina', { token: member })).status, 403);
	assert.is((await s.request('PUT', '/orgs/acme/public_members/oscar', { token: outsider })).status, 403);
	assert.equal((await s.get('/orgs/acme/public_members')).body.map((m: any) => m.login), ['mike']);
	assert.equal((await s.get('/orgs/acme/members')).body.map((m: any) => m.login), ['mike']);
	assert.is((await s.get('/orgs/acme/public_members/mike')).status, 204);
	assert.is((await s.get('/orgs/acme/public_members/nina')).status, 404);
	assert.equal((await s.get('/users/mike/orgs')).body.map((o: any) => o.login), ['acme']);
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { members: 'write' } });
	assert.is((await s.request('PUT', '/orgs/acme/public_members/mike', { token: app })).status, 403, '~> not for installation tokens');
	assert.is((await s.request('DELETE', '/orgs/acme/public_members/mike', { token: member })).status, 204);
	assert.is((await s.get('/orgs/acme/public_members/mike')).status, 404);
});

test('members – membership check: 204, 404, 302 for non-members', async () => {
	assert.is((await s.get('/orgs/acme/members/nina', member)).status, 204);
	assert.is((await s.get('/orgs/acme/members/oscar', member)).status, 404);
	const redirect = await s.get('/orgs/acme/members/nina', outsider);
	assert.is(redirect.status, 302);
	assert.is(redirect.headers.get('location'), `${s.api}/orgs/acme/public_members/nina`);
});

test('memberships – owners invite; the user accepts', async () => {
	const invite = await s.request('PUT', '/orgs/acme/memberships/pat', { token: owner, body: { role: 'member' } });
	assert.is(invite.status, 200);
	assert.is(invite.body.state, 'pending');
	assert.is(invite.body.role, 'member');
	assert.is(invite.body.url, `${s.api}/orgs/acme/memberships/pat`);
	assert.is(invite.body.organization.login, 'acme');
	assert.is(invite.body.user.login, 'pat');
	assert.is((await s.get('/orgs/acme/members/pat', member)).status, 404, '~> pending is not a member yet');
	const pat = s.fullToken('pat');
	const pending = await s.get('/user/memberships/orgs?state=pending', pat);
	assert.equal(pending.body.map((m: any) => m.organization.login), ['acme']);
	const own = await s.get('/orgs/acme/memberships/pat', pat);
	assert.is(own.status, 200, '~> invitees may read their own membership');
	const badState = await s.request('PATCH', '/user/memberships/orgs/acme', { token: pat, body: { state: 'pending' } });
	assert.is(badState.status, 422);
	const accept = await s.request('PATCH', '/user/memberships/orgs/acme', { token: pat, body: { state: 'active' } });
	assert.is(accept.status, 200);
	assert.is(accept.body.state, 'active');
	assert.is((await s.get('/orgs/acme/members/pat', member)).status, 204);
	assert.is((await s.get('/user/memberships/orgs/acme', pat)).body.state, 'active');
	assert.is((await s.get('/user/memberships/orgs/nope', pat)).status, 404);
});

test('memberships – role changes, denials, last owner', async () => {
	assert.is((await s.request('PUT', '/orgs/acme/memberships/pat', { token: member, body: { role: 'admin' } })).status, 403);
	assert.is((await s.get('/orgs/acme/memberships/nina', outsider)).status, 403);
	assert.is((await s.get('/orgs/acme/memberships/oscar', owner)).status, 404);
	const demoteLast = await s.request('PUT', '/orgs/acme/memberships/olivia', { token: owner, body: { role: 'member' } });
	assert.is(demoteLast.status, 403);
	assert.match(demoteLast.body.message, 'last owner');
	const removeLast = await s.request('DELETE', '/orgs/acme/memberships/olivia', { token: owner });
	assert.is(removeLast.status, 403);
	const promote = await s.request('PUT', '/orgs/acme/memberships/nina', { token: owner, body: { role: 'admin' } });
	assert.is(promote.body.role, 'admin');
	const demote = await s.request('PUT', '/orgs/acme/memberships/olivia', { token: owner, body: { role: 'member' } });
	assert.is(demote.status, 200, '~> with a second owner, demotion is allowed');
	assert.is(demote.body.role, 'member');
	const restore = await s.request('PUT', '/orgs/acme/memberships/olivia', { token: s.fullToken('nina'), body: { role: 'admin' } });
	assert.is(restore.body.role, 'admin');
	assert.is((await s.request('PUT', '/orgs/acme/memberships/acme', { token: owner, body: {} })).status, 404);
});

test('members – removal takes teams and repository access away', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'secret-repo', private: true } });
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Crew', privacy: 'closed', maintainers: ['pat'], repo_names: ['acme/secret-repo'] } });
	const pat = s.fullToken('pat');
	assert.is((await s.get('/repos/acme/secret-repo', pat)).status, 200);
	assert.is((await s.request('DELETE', '/orgs/acme/members/pat', { token: member })).status, 403);
	assert.is((await s.request('DELETE', '/orgs/acme/members/pat', { token: owner })).status, 204);
	assert.is((await s.get('/orgs/acme/teams/crew/memberships/pat', owner)).status, 404);
	assert.is((await s.get('/repos/acme/secret-repo', pat)).status, 404, '~> private repositories are hidden again');
	assert.is((await s.request('DELETE', '/orgs/acme/members/pat', { token: owner })).status, 404);
	assert.is((await s.request('DELETE', '/orgs/acme/memberships/nina', { token: owner })).status, 204, '~> an owner can be removed when another remains');
});

test.run();
