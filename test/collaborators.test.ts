/**
 * Collaborators and repository invitations (GitHub's "Collaborators" and "Repository invitations"
 * REST docs) over HTTP: listing with affiliation and permission filters, checking, adding (an
 * invitation for a user who is not yet a collaborator, at once for organization members), the
 * permission of a user, removing; the invitations of a repository and of the invitee (accept,
 * decline, expiry); the events (member webhook, MemberEvent, the invitee's notification); and a
 * stock Octokit client inviting a user who accepts and then pushes.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('collaborators');
let s: TestServer;
let owner: string;
let hookId: number;
const DAY = 24 * 3600 * 1000;
const token = (login: string) => s.fullToken(login);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'tess', 'ivy', 'hank', 'nora', 'paul', 'walt', 'dana']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'tess');
	owner = token('olivia');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app', private: true } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'site' } });
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Core', privacy: 'closed', repo_names: ['acme/app'] } });
	await s.request('PUT', '/orgs/acme/teams/core/repos/acme/app', { token: owner, body: { permission: 'push' } });
	await s.request('PUT', '/orgs/acme/teams/core/memberships/tess', { token: owner, body: {} });
	await s.request('POST', '/user/repos', { token: token('paul'), body: { name: 'notes', private: true } });
	const hook = await s.request('POST', '/repos/acme/app/hooks', {
		token: owner,
		body: { config: { url: 'https://hooks.example.com/app', content_type: 'json' }, events: ['member'] },
	});
	hookId = hook.body.id;
});
test.after(() => s.close());

/** The member payloads the acme/app hook received, oldest first. */
function memberPayloads(): any[] {
	const { rows } = s.app.stores.webhooks.deliveries({ hookId, status: null, limit: 100, offset: 0 });
	return rows
		.filter((row) => row.event === 'member')
		.reverse()
		.map((row) => ({ action: row.action, ...JSON.parse(row.payload) }));
}

test('list – every source of access, with permissions and role_name; affiliation and permission filters', async () => {
	const res = await s.get('/repos/acme/app/collaborators', owner);
	assert.is(res.status, 200, '~> the owner lists');
	const byLogin = Object.fromEntries(res.body.map((user: any) => [user.login, user]));
	assert.equal(Object.keys(byLogin).sort(), ['mike', 'olivia', 'tess'], '~> the owner, a member by base permission, a team member');
	assert.equal(
		byLogin.olivia.permissions,
		{ admin: true, maintain: true, push: true, triage: true, pull: true },
		'~> the owner administers',
	);
	assert.is(byLogin.olivia.role_name, 'admin');
	assert.is(byLogin.mike.role_name, 'read', '~> the base permission (read)');
	assert.is(byLogin.tess.role_name, 'write', '~> the team grant (push)');
	assert.equal(byLogin.tess.permissions, { admin: false, maintain: false, push: true, triage: true, pull: true });
	assert.is(byLogin.tess.type, 'User');
	assert.is(byLogin.tess.url, `${s.api}/users/tess`, '~> a simple user');
	const push = await s.get('/repos/acme/app/collaborators?permission=push', owner);
	assert.equal(push.body.map((u: any) => u.login).sort(), ['olivia', 'tess'], '~> permission=push keeps those holding push');
	const direct = await s.get('/repos/acme/app/collaborators?affiliation=direct', owner);
	assert.equal(direct.body, [], '~> no direct grant yet (owners hold admin as owners)');
	const outside = await s.get('/repos/acme/app/collaborators?affiliation=outside', owner);
	assert.equal(outside.body, [], '~> no outside collaborator yet');
	const paged = await s.get('/repos/acme/app/collaborators?per_page=2', owner);
	assert.is(paged.body.length, 2);
	assert.match(paged.headers.get('link') ?? '', 'rel="next"', '~> paginated with Link');
	const past = await s.get('/repos/acme/app/collaborators?per_page=2&page=9', owner);
	assert.equal([past.status, past.body], [200, []], '~> a page past the end is empty');
	assert.match(past.headers.get('link') ?? '', 'rel="first"', '~> and still links back');
	const personal = await s.get('/repos/paul/notes/collaborators', token('paul'));
	assert.equal(
		personal.body.map((u: any) => [u.login, u.role_name]),
		[['paul', 'admin']],
		'~> a personal repository: its owner',
	);
});

test('list – refusals: anonymous 401, hidden private repository 404, below push 403, not a member 403, bad filter 422', async () => {
	assert.is((await s.get('/repos/acme/app/collaborators')).status, 401, '~> anonymous');
	const hidden = await s.get('/repos/acme/app/collaborators', token('nora'));
	assert.is(hidden.status, 404, '~> an outsider does not see the private repository');
	assert.is(hidden.body.message, 'Not Found');
	assert.is(
		(await s.get('/repos/acme/app/collaborators', s.token('olivia', { scopes: ['read:org'] }))).status,
		404,
		'~> a classic token without repo',
	);
	const reader = await s.get('/repos/acme/app/collaborators', token('mike'));
	assert.is(reader.status, 403, '~> read access is not enough');
	assert.match(reader.body.message, 'push access');
	const bad = await s.get('/repos/acme/app/collaborators?affiliation=friends', owner);
	assert.is(bad.status, 422, '~> an unknown affiliation');
	assert.is(bad.body.errors[0].field, 'affiliation');
	const badPermission = await s.get('/repos/acme/app/collaborators?permission=write', owner);
	assert.is(badPermission.status, 422, '~> permission takes pull, triage, push, maintain, admin');
});

test('add – a member is added at once (204, member added with MemberEvent); a new permission edits (204, member edited)', async () => {
	const res = await s.request('PUT', '/repos/acme/app/collaborators/mike', { token: owner, body: { permission: 'maintain' } });
	assert.is(res.status, 204, '~> an organization member is added without an invitation');
	assert.is(res.text, '');
	const perm = await s.get('/repos/acme/app/collaborators/mike/permission', owner);
	assert.equal([perm.body.permission, perm.body.role_name], ['write', 'maintain'], '~> maintain reads as write in the legacy field');
	const again = await s.request('PUT', '/repos/acme/app/collaborators/mike', { token: owner, body: { permission: 'maintain' } });
	assert.is(again.status, 204, '~> the same permission again: 204, nothing changes');
	const edited = await s.request('PUT', '/repos/acme/app/collaborators/mike', { token: owner, body: { permission: 'triage' } });
	assert.is(edited.status, 204);
	const [added, change] = memberPayloads().filter((p) => p.member.login === 'mike');
	assert.is(added.action, 'added');
	assert.equal(
		added.changes,
		{ permission: { to: 'write' }, role_name: { to: 'maintain' } },
		'~> GitHub’s changes: legacy permission and role name',
	);
	assert.is(added.sender.login, 'olivia');
	assert.is(added.repository.full_name, 'acme/app');
	assert.is(change.action, 'edited');
	assert.equal(change.changes.permission, { from: 'write', to: 'read' });
	const feed = await s.get('/repos/acme/app/events', owner);
	const member = feed.body.find((e: any) => e.type === 'MemberEvent');
	assert.ok(member, '~> a MemberEvent in the repository feed');
	assert.is(member.payload.member.login, 'mike');
	assert.is(member.payload.action, 'added');
	const direct = await s.get('/repos/acme/app/collaborators?affiliation=direct', owner);
	assert.equal(
		direct.body.map((u: any) => u.login),
		['mike'],
	);
	assert.equal(
		(await s.get('/repos/acme/app/collaborators?affiliation=outside', owner)).body,
		[],
		'~> members are never outside collaborators',
	);
});

test('add – 422: an unknown permission, a role a personal repository lacks, the owner, less than the base permission; 404 an unknown user', async () => {
	const bad = await s.request('PUT', '/repos/acme/app/collaborators/ivy', { token: owner, body: { permission: 'write' } });
	assert.is(bad.status, 422, '~> write is not a permission name here');
	assert.is(bad.body.message, 'Validation Failed');
	assert.is(bad.body.errors[0].field, 'permission');
	const personal = await s.request('PUT', '/repos/paul/notes/collaborators/ivy', {
		token: token('paul'),
		body: { permission: 'triage' },
	});
	assert.is(personal.status, 422, '~> personal repositories have no triage');
	assert.is(personal.body.errors[0].code, 'custom');
	const self = await s.request('PUT', '/repos/paul/notes/collaborators/paul', { token: token('paul'), body: {} });
	assert.is(self.status, 422, '~> the owner');
	assert.is(self.body.errors[0].message, 'Repository owner cannot be a collaborator');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'write' } });
	const below = await s.request('PUT', '/repos/acme/app/collaborators/mike', { token: owner, body: { permission: 'pull' } });
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'read' } });
	assert.is(below.status, 422, '~> below the base permission');
	assert.is(below.body.message, 'Cannot assign mike permission of read');
	assert.is((await s.request('PUT', '/repos/acme/app/collaborators/nobody-here', { token: owner, body: {} })).status, 404);
	assert.is(
		(await s.request('PUT', '/repos/acme/app/collaborators/acme', { token: owner, body: {} })).status,
		404,
		'~> an organization is no user',
	);
	assert.equal((await s.get('/repos/acme/app/invitations', owner)).body, [], '~> nothing invited');
});

test('add – refusals: anonymous 401, hidden 404, not an administrator 403, a token without administration 403', async () => {
	assert.is((await s.request('PUT', '/repos/acme/app/collaborators/ivy', { body: {} })).status, 401);
	assert.is((await s.request('PUT', '/repos/acme/app/collaborators/ivy', { token: token('nora'), body: {} })).status, 404, '~> hidden');
	const writer = await s.request('PUT', '/repos/acme/app/collaborators/ivy', { token: token('tess'), body: {} });
	assert.is(writer.status, 403, '~> push is not admin');
	assert.is(writer.body.message, 'Must have admin rights to Repository.');
	const fine = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'write' } });
	assert.is(
		(await s.request('PUT', '/repos/acme/app/collaborators/ivy', { token: fine, body: {} })).status,
		403,
		'~> no administration permission',
	);
	const granted = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { administration: 'read' } });
	assert.is(
		(await s.request('PUT', '/repos/acme/app/collaborators/ivy', { token: granted, body: {} })).status,
		403,
		'~> administration read is not write',
	);
});

test('invite – an outsider gets an invitation (201), a notification, and accepts: a collaborator (204), an outside collaborator of the organization', async () => {
	const res = await s.request('PUT', '/repos/acme/app/collaborators/ivy', { token: owner, body: { permission: 'pull' } });
	assert.is(res.status, 201, '~> an invitation');
	const inv = res.body;
	assert.equal(
		Object.keys(inv),
		['id', 'node_id', 'repository', 'invitee', 'inviter', 'permissions', 'created_at', 'expired', 'url', 'html_url'],
		'~> GitHub’s repository-invitation',
	);
	assert.is(inv.permissions, 'read', '~> pull is read in an invitation');
	assert.is(inv.invitee.login, 'ivy');
	assert.is(inv.inviter.login, 'olivia');
	assert.is(inv.repository.full_name, 'acme/app');
	assert.is(inv.expired, false);
	assert.is(inv.created_at, '2026-11-22T12:00:00Z');
	assert.is(inv.url, `${s.api}/user/repository_invitations/${inv.id}`);
	assert.is(inv.html_url, `${s.origin}/acme/app/invitations`);
	const again = await s.request('PUT', '/repos/acme/app/collaborators/ivy', { token: owner, body: { permission: 'push' } });
	assert.is(again.status, 201, '~> inviting again');
	assert.is(again.body.id, inv.id, '~> the same invitation');
	assert.is(again.body.permissions, 'write', '~> with the new permission');
	assert.is((await s.get('/repos/acme/app/collaborators/ivy', owner)).status, 404, '~> not a collaborator before accepting');
	const ivy = token('ivy');
	assert.is((await s.get('/repos/acme/app', ivy)).status, 404, '~> nor can she read the private repository yet');
	const listed = await s.get('/repos/acme/app/invitations', owner);
	assert.equal(
		listed.body.map((i: any) => i.id),
		[inv.id],
		'~> the repository’s invitations',
	);

	// The invitee's notification, although she cannot read the repository yet.
	const notifications = await s.get('/notifications', ivy);
	assert.is(notifications.body.length, 1, '~> one thread');
	const [thread] = notifications.body;
	assert.is(thread.reason, 'invitation');
	assert.equal(thread.subject, {
		title: 'Invitation to join acme/app from olivia',
		url: null,
		latest_comment_url: null,
		type: 'RepositoryInvitation',
	});
	assert.is(thread.repository.full_name, 'acme/app');
	assert.is((await s.get(`/notifications/threads/${thread.id}`, ivy)).status, 200, '~> the thread itself');

	const mine = await s.get('/user/repository_invitations', ivy);
	assert.equal(
		mine.body.map((i: any) => i.id),
		[inv.id],
		'~> the invitee’s invitations',
	);
	assert.is(
		(await s.request('PATCH', `/user/repository_invitations/${inv.id}`, { token: token('hank') })).status,
		404,
		'~> not someone else’s',
	);
	const accepted = await s.request('PATCH', `/user/repository_invitations/${inv.id}`, { token: ivy });
	assert.is(accepted.status, 204);
	assert.is((await s.get('/repos/acme/app/collaborators/ivy', owner)).status, 204, '~> a collaborator now');
	const repo = await s.get('/repos/acme/app', ivy);
	assert.is(repo.body.role_name, 'write', '~> with the invitation’s permission');
	assert.equal((await s.get('/user/repository_invitations', ivy)).body, [], '~> the invitation is gone');
	assert.equal((await s.get('/repos/acme/app/invitations', owner)).body, []);
	assert.is((await s.request('PATCH', `/user/repository_invitations/${inv.id}`, { token: ivy })).status, 404, '~> accepting twice');
	const outside = await s.get('/repos/acme/app/collaborators?affiliation=outside', owner);
	assert.equal(
		outside.body.map((u: any) => [u.login, u.role_name]),
		[['ivy', 'write']],
		'~> an outside collaborator of the repository',
	);
	assert.equal(
		(await s.get('/orgs/acme/outside_collaborators', owner)).body.map((u: any) => u.login),
		['ivy'],
		'~> and of the organization',
	);
	const added = memberPayloads().find((p) => p.member.login === 'ivy' && p.action === 'added');
	assert.ok(added, '~> member added on acceptance');
	assert.is(added.sender.login, 'olivia', '~> reported as the inviter’s addition');
	assert.equal(added.changes.permission, { to: 'write' });
});

test('invitations – update (200), revoke (204), decline (204); 404 and 422 as GitHub', async () => {
	await s.request('PATCH', '/repos/acme/site', { token: owner, body: { archived: true } });
	const invited = await s.request('PUT', '/repos/acme/site/collaborators/hank', { token: owner });
	await s.request('PATCH', '/repos/acme/site', { token: owner, body: { archived: false } });
	assert.is(invited.status, 201, '~> no body at all (Content-Length 0), and an archived repository still invites');
	const inv = invited.body;
	assert.is(inv.permissions, 'write', '~> push by default');
	const updated = await s.request('PATCH', `/repos/acme/site/invitations/${inv.id}`, { token: owner, body: { permissions: 'maintain' } });
	assert.is(updated.status, 200);
	assert.is(updated.body.permissions, 'maintain');
	const bad = await s.request('PATCH', `/repos/acme/site/invitations/${inv.id}`, { token: owner, body: { permissions: 'push' } });
	assert.is(bad.status, 422, '~> invitations spell roles read, triage, write, maintain, admin');
	assert.is(bad.body.errors[0].field, 'permissions');
	assert.is(
		(await s.request('PATCH', `/repos/acme/app/invitations/${inv.id}`, { token: owner, body: {} })).status,
		404,
		'~> another repository’s invitation',
	);
	assert.is((await s.request('PATCH', '/repos/acme/site/invitations/abc', { token: owner, body: {} })).status, 404);
	assert.is(
		(await s.request('PATCH', `/repos/acme/site/invitations/${inv.id}`, { token: token('tess'), body: {} })).status,
		403,
		'~> administrators only',
	);
	assert.is((await s.get('/repos/acme/site/invitations', token('mike'))).status, 403, '~> listing too');
	assert.is((await s.request('DELETE', `/repos/acme/site/invitations/${inv.id}`, { token: owner })).status, 204, '~> revoked');
	assert.is(
		(await s.request('PATCH', `/user/repository_invitations/${inv.id}`, { token: token('hank') })).status,
		404,
		'~> a revoked invitation cannot be accepted',
	);

	const second = (await s.request('PUT', '/repos/acme/site/collaborators/hank', { token: owner, body: {} })).body;
	assert.is.not(second.id, inv.id, '~> a new invitation');
	assert.is(
		(await s.request('DELETE', `/user/repository_invitations/${second.id}`, { token: token('hank') })).status,
		204,
		'~> declined',
	);
	assert.equal((await s.get('/repos/acme/site/invitations', owner)).body, [], '~> gone');
	assert.is((await s.get('/repos/acme/site/collaborators/hank', owner)).status, 404, '~> not a collaborator');
	assert.is(
		(await s.request('DELETE', `/user/repository_invitations/${second.id}`, { token: token('hank') })).status,
		404,
		'~> declining twice',
	);
});

test('invitations – the invitee’s routes: classic and OAuth tokens with repo or repo:invite; no app or fine-grained token', async () => {
	assert.is((await s.get('/user/repository_invitations')).status, 401, '~> anonymous');
	assert.is((await s.get('/user/repository_invitations', s.token('hank', { scopes: ['repo:invite'] }))).status, 200, '~> repo:invite');
	const none = await s.get('/user/repository_invitations', s.token('hank', { scopes: ['read:org'] }));
	assert.is(none.status, 403, '~> another scope');
	assert.match(none.body.message, 'repo:invite');
	assert.is((await s.get('/user/repository_invitations', s.token('hank', { kind: 'oauth', scopes: ['repo'] }))).status, 200, '~> OAuth');
	assert.is((await s.get('/user/repository_invitations', s.token('hank', { kind: 'fine-grained' }))).status, 403, '~> fine-grained');
});

test('invitations – expire after 7 days: listed expired to administrators, gone for the invitee, renewed by inviting again', async () => {
	const inv = (await s.request('PUT', '/repos/paul/notes/collaborators/dana', { token: token('paul'), body: { permission: 'admin' } }))
		.body;
	assert.is(inv.permissions, 'admin', '~> personal repositories give read, write or admin');
	const triage = await s.request('PATCH', `/repos/paul/notes/invitations/${inv.id}`, {
		token: token('paul'),
		body: { permissions: 'triage' },
	});
	assert.is(triage.status, 422, '~> nor triage through an update');
	assert.is((await s.get('/repos/paul/notes/invitations', token('nora'))).status, 404, '~> a hidden repository’s invitations');
	assert.is((await s.get('/repos/paul/notes/invitations')).status, 401, '~> anonymous');
	const dana = token('dana');
	assert.equal(
		(await s.get('/notifications', dana)).body.map((t: any) => t.subject.title),
		['Invitation to join paul/notes from paul'],
	);
	s.clock.advance(8 * DAY);
	assert.equal(
		(await s.get('/notifications?all=true', dana)).body,
		[],
		'~> an expired invitation’s thread leaves a private repository’s outsider',
	);
	const listed = await s.get('/repos/paul/notes/invitations', token('paul'));
	assert.equal(
		listed.body.map((i: any) => [i.id, i.expired]),
		[[inv.id, true]],
		'~> expired',
	);
	assert.equal((await s.get('/user/repository_invitations', token('dana'))).body, [], '~> the invitee no longer sees it');
	assert.is(
		(await s.request('PATCH', `/user/repository_invitations/${inv.id}`, { token: token('dana') })).status,
		404,
		'~> nor accepts it',
	);
	const renewed = await s.request('PUT', '/repos/paul/notes/collaborators/dana', { token: token('paul'), body: { permission: 'pull' } });
	assert.is(renewed.status, 201);
	assert.is.not(renewed.body.id, inv.id, '~> a new invitation');
	assert.is(renewed.body.expired, false);
	assert.is(renewed.body.permissions, 'read');
	assert.is((await s.request('PATCH', `/user/repository_invitations/${renewed.body.id}`, { token: token('dana') })).status, 204);
	assert.is((await s.get('/repos/paul/notes', dana)).body.role_name, 'read', '~> read on a personal repository');
	assert.is(
		(await s.get('/notifications?all=true', dana)).body.length,
		2,
		'~> reading the repository, she sees both invitations’ threads',
	);
});

test('remove – a removed collaborator’s fork of a private repository is deleted with their access', async () => {
	const dana = token('dana');
	const fork = await s.request('POST', '/repos/paul/notes/forks', { token: dana, body: {} });
	assert.is(fork.status, 202, '~> dana (read) forks paul/notes');
	assert.is((await s.get('/repos/dana/notes', dana)).status, 200);
	assert.is((await s.request('DELETE', '/repos/paul/notes/collaborators/dana', { token: token('paul') })).status, 204);
	assert.is((await s.get('/repos/dana/notes', dana)).status, 404, '~> the fork went with her access');
	assert.is((await s.get('/repos/paul/notes/collaborators/dana', token('paul'))).status, 404);
});

test('invite – at most 50 invitations to a repository in 24 hours (422), whatever became of them; members do not count', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'busy' } });
	for (let i = 0; i < 50; i++) {
		s.user(`guest${i}`);
		const res = await s.request('PUT', `/repos/acme/busy/collaborators/guest${i}`, { token: owner, body: {} });
		assert.is(res.status, 201, `~> invitation ${i + 1}`);
		if (i === 0) assert.is((await s.request('DELETE', `/repos/acme/busy/invitations/${res.body.id}`, { token: owner })).status, 204);
	}
	s.user('guest50');
	const over = await s.request('PUT', '/repos/acme/busy/collaborators/guest50', { token: owner, body: {} });
	assert.is(over.status, 422, '~> the 51st, although one was revoked');
	assert.is(over.body.errors[0].code, 'custom');
	assert.is(
		(await s.request('PUT', '/repos/acme/busy/collaborators/mike', { token: owner, body: {} })).status,
		204,
		'~> a member is still added',
	);
	s.clock.advance(DAY + 1000);
	assert.is((await s.request('PUT', '/repos/acme/busy/collaborators/guest50', { token: owner, body: {} })).status, 201, '~> a day later');
});

test('permission – the role from every source; none without access; 404 for an unknown user', async () => {
	const tess = await s.get('/repos/acme/app/collaborators/tess/permission', owner);
	assert.is(tess.status, 200);
	assert.equal([tess.body.permission, tess.body.role_name], ['write', 'write']);
	assert.is(tess.body.user.login, 'tess');
	assert.is(tess.body.user.role_name, 'write');
	assert.equal(tess.body.user.permissions, { admin: false, maintain: false, push: true, triage: true, pull: true });
	const admin = await s.get('/repos/acme/app/collaborators/olivia/permission', owner);
	assert.equal([admin.body.permission, admin.body.role_name], ['admin', 'admin']);
	const nora = await s.get('/repos/acme/app/collaborators/nora/permission', owner);
	assert.equal([nora.body.permission, nora.body.role_name], ['none', 'none'], '~> no access to a private repository');
	const reader = await s.get('/repos/acme/site/collaborators/nora/permission', owner);
	assert.equal([reader.body.permission, reader.body.role_name], ['read', 'read'], '~> anyone reads a public repository');
	assert.is((await s.get('/repos/acme/app/collaborators/nobody-here/permission', owner)).status, 404);
	assert.is((await s.get('/repos/acme/app/collaborators/tess/permission')).status, 401);
	assert.is((await s.get('/repos/acme/app/collaborators/tess/permission', token('nora'))).status, 404, '~> hidden');
	assert.is((await s.get('/repos/acme/app/collaborators/tess', owner)).status, 204, '~> a team member is a collaborator');
	assert.is((await s.get('/repos/acme/app/collaborators/nora', owner)).status, 404, '~> an outsider is not');
	assert.is(
		(await s.get('/repos/acme/site/collaborators/nora', owner)).status,
		404,
		'~> reading a public repository makes no collaborator',
	);
});

test('remove – administrators remove anyone, a collaborator themselves; member removed; their invitations sent are cancelled', async () => {
	// ivy (write on acme/app) may not remove others, but may leave.
	const refused = await s.request('DELETE', '/repos/acme/app/collaborators/mike', { token: token('ivy') });
	assert.is(refused.status, 403);
	assert.is(refused.body.message, 'Must have admin rights to Repository.');
	assert.is((await s.request('DELETE', '/repos/acme/app/collaborators/mike')).status, 401);
	assert.is((await s.request('DELETE', '/repos/acme/app/collaborators/mike', { token: token('nora') })).status, 404, '~> hidden');
	assert.is((await s.request('DELETE', '/repos/acme/app/collaborators/nobody-here', { token: owner })).status, 404);
	const issue = await s.request('POST', '/repos/acme/app/issues', {
		token: owner,
		body: { title: 'For ivy', assignees: ['ivy', 'tess'] },
	});
	assert.equal(
		issue.body.assignees.map((u: any) => u.login),
		['ivy', 'tess'],
	);
	assert.is((await s.request('PUT', '/user/starred/acme/app', { token: token('ivy') })).status, 204, '~> ivy stars acme/app');
	const left = await s.request('DELETE', '/repos/acme/app/collaborators/ivy', { token: token('ivy') });
	assert.is(left.status, 204, '~> leaving');
	const after = await s.get(`/repos/acme/app/issues/${issue.body.number}`, owner);
	assert.equal(
		after.body.assignees.map((u: any) => u.login),
		['tess'],
		'~> unassigned from the repository’s issues, as GitHub does',
	);
	const feed = await s.get('/repos/acme/app/events', owner);
	assert.ok(
		feed.body.some((e: any) => e.type === 'IssuesEvent' && e.payload.action === 'unassigned' && e.payload.assignee?.login === 'ivy'),
		'~> with its IssuesEvent',
	);
	assert.is((await s.get('/repos/acme/app', token('ivy'))).status, 404, '~> no access left');
	assert.is(
		s.app.stores.stars.get(
			s.app.stores.accounts.user('ivy')!.id,
			s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!.id,
		) ?? null,
		null,
		'~> and no star',
	);
	assert.equal((await s.get('/orgs/acme/outside_collaborators', owner)).body, [], '~> no outside collaborator left');
	const removed = memberPayloads()
		.filter((p) => p.action === 'removed')
		.map((p) => [p.member.login, p.sender.login]);
	assert.equal(removed, [['ivy', 'ivy']], '~> member removed, sent by whoever removed');

	// mike (maintain, a direct grant) invites nora to acme/app? Only administrators invite: make him admin first.
	await s.request('PUT', '/repos/acme/app/collaborators/mike', { token: owner, body: { permission: 'admin' } });
	const sent = await s.request('PUT', '/repos/acme/app/collaborators/nora', { token: token('mike'), body: {} });
	assert.is(sent.status, 201);
	assert.is(sent.body.inviter.login, 'mike');
	assert.is((await s.request('DELETE', '/repos/acme/app/collaborators/mike', { token: owner })).status, 204);
	assert.equal((await s.get('/repos/acme/app/invitations', owner)).body, [], '~> the invitations mike sent are cancelled');
	assert.is((await s.get('/repos/acme/app', token('mike'))).body.role_name, 'read', '~> the base permission remains');
	assert.is(
		(await s.request('DELETE', '/repos/acme/app/collaborators/tess', { token: owner })).status,
		204,
		'~> no direct grant: nothing to remove',
	);
	assert.is((await s.get('/repos/acme/app/collaborators/tess', owner)).status, 204, '~> the team grant remains');
});

test('outside collaborators – removing one from the organization also cancels their pending invitations', async () => {
	const inv = (await s.request('PUT', '/repos/acme/app/collaborators/hank', { token: owner, body: {} })).body;
	await s.request('PUT', '/repos/acme/site/collaborators/ivy', { token: owner, body: {} });
	const ivyInvitation = (await s.get('/user/repository_invitations', token('ivy'))).body[0];
	await s.request('PATCH', `/user/repository_invitations/${ivyInvitation.id}`, { token: token('ivy') });
	assert.is((await s.request('DELETE', '/orgs/acme/outside_collaborators/hank', { token: owner })).status, 204);
	assert.is(
		(await s.request('PATCH', `/user/repository_invitations/${inv.id}`, { token: token('hank') })).status,
		404,
		'~> hank’s invitation went',
	);
	assert.is((await s.request('DELETE', '/orgs/acme/outside_collaborators/ivy', { token: owner })).status, 204);
	assert.is((await s.get('/repos/acme/site/collaborators/ivy', owner)).status, 404, '~> ivy’s grant went');
});

test('octokit – addCollaborator invites; the invitee lists and accepts; the collaborator can push', async () => {
	const { Octokit } = await import('@octokit/rest');
	const log = { debug() {}, info() {}, warn() {}, error() {} };
	const admin: Octokit = new Octokit({ auth: owner, baseUrl: s.api, log });
	const walt: Octokit = new Octokit({ auth: token('walt'), baseUrl: s.api, log });
	const tree = await admin.rest.git.createTree({
		owner: 'acme',
		repo: 'app',
		tree: [{ path: 'README', mode: '100644', type: 'blob', content: 'hello' }],
	});
	const commit = await admin.rest.git.createCommit({ owner: 'acme', repo: 'app', message: 'First', tree: tree.data.sha, parents: [] });

	const before = await walt.rest.git
		.createRef({ owner: 'acme', repo: 'app', ref: 'refs/heads/walt', sha: commit.data.sha })
		.catch((e) => e);
	assert.is(before.status, 404, '~> walt cannot see the private repository yet');
	const invited = await admin.rest.repos.addCollaborator({ owner: 'acme', repo: 'app', username: 'walt', permission: 'push' });
	assert.is(invited.status, 201);
	assert.is(invited.data.invitee?.login, 'walt');
	const pending = await admin.rest.repos.listInvitations({ owner: 'acme', repo: 'app' });
	assert.equal(
		pending.data.map((i) => i.id),
		[invited.data.id],
	);
	const mine = await walt.rest.repos.listInvitationsForAuthenticatedUser();
	assert.equal(
		mine.data.map((i) => [i.id, i.repository.full_name, i.permissions]),
		[[invited.data.id, 'acme/app', 'write']],
	);
	const accepted = await walt.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: mine.data[0].id });
	assert.is(accepted.status, 204);
	const check = await admin.rest.repos.checkCollaborator({ owner: 'acme', repo: 'app', username: 'walt' });
	assert.is(check.status, 204);
	const level = await admin.rest.repos.getCollaboratorPermissionLevel({ owner: 'acme', repo: 'app', username: 'walt' });
	assert.is(level.data.permission, 'write');
	const listed = await admin.rest.repos.listCollaborators({ owner: 'acme', repo: 'app', affiliation: 'outside' });
	assert.ok(
		listed.data.some((u) => u.login === 'walt' && u.role_name === 'write'),
		'~> an outside collaborator',
	);
	const ref = await walt.rest.git.createRef({ owner: 'acme', repo: 'app', ref: 'refs/heads/walt', sha: commit.data.sha });
	assert.is(ref.status, 201, '~> the collaborator pushes a branch');
	await admin.rest.repos.removeCollaborator({ owner: 'acme', repo: 'app', username: 'walt' });
	const gone = await walt.rest.repos.get({ owner: 'acme', repo: 'app' }).catch((e) => e);
	assert.is(gone.status, 404, '~> removed');
});

test.run();
