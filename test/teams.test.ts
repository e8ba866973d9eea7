/**
 * Teams (https://docs.github.com/en/rest/teams/teams) over real HTTP.
 */
import { request as httpRequest } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('teams');
let s: TestServer;
/** owner of acme */
let owner: string;
/** plain member of acme */
let member: string;
/** another member */
let other: string;
/** not in acme */
let outsider: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nina', 'oscar', 'newbie']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'nina');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	other = s.fullToken('nina');
	outsider = s.fullToken('oscar');
	for (const name of ['app', 'docs']) await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name } });
});
test.after(() => s.close());

const LIST_KEYS = [
	'id',
	'node_id',
	'url',
	'html_url',
	'name',
	'slug',
	'description',
	'privacy',
	'notification_setting',
	'permission',
	'members_url',
	'repositories_url',
	'parent',
	'type',
];
/** The full form; ldap_dn (a string in GitHub's description) only for a team mapped to an LDAP entry. */
const FULL_KEYS = [...LIST_KEYS, 'members_count', 'repos_count', 'created_at', 'updated_at', 'organization'];

test('create – full form, slug, defaults, creator as maintainer', async () => {
	// repo_names need admin rights on each repository: mike administers acme/app as a collaborator.
	const acmeId = s.app.stores.accounts.organization('acme')!.id;
	const mikeId = s.app.stores.accounts.user('mike')!.id;
	const app = s.app.stores.repos.byOwnerAndName(acmeId, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, mikeId, 'admin', '2026-11-22T12:00:00Z');
	const res = await s.request('POST', '/orgs/acme/teams', {
		token: member,
		body: { name: 'Justice League', description: 'A great team', repo_names: ['acme/app'] },
	});
	assert.is(res.status, 201);
	assert.equal(Object.keys(res.body), FULL_KEYS);
	assert.is(res.body.slug, 'justice-league');
	assert.is(res.body.privacy, 'secret', '~> a top-level team defaults to secret');
	assert.is(res.body.notification_setting, 'notifications_enabled');
	assert.is(res.body.permission, 'pull');
	assert.is(res.body.parent, null);
	assert.is(res.body.members_count, 1, '~> the creator is a member');
	assert.is(res.body.repos_count, 1);
	assert.is(res.body.ldap_dn, undefined, '~> no LDAP mapping: no ldap_dn');
	assert.is(res.body.type, 'organization', '~> GitHub’s ownership type');
	assert.is(res.body.url, `${s.api}/organizations/${res.body.organization.id}/team/${res.body.id}`);
	assert.is(res.body.html_url, `${s.origin}/orgs/acme/teams/justice-league`);
	assert.is(res.body.members_url, `${res.body.url}/members{/member}`);
	assert.is(res.body.organization.login, 'acme');
	assert.is(res.body.organization.type, 'Organization');
	assert.is(res.body.organization.public_repos, 2);
	assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
	const membership = await s.get('/orgs/acme/teams/justice-league/memberships/mike', owner);
	assert.is(membership.body.role, 'maintainer');
	assert.is(membership.body.state, 'active');
	s.app.stores.repos.removeCollaborations(mikeId, acmeId);
});

test('create – slug generation replaces special characters', async () => {
	const res = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Ops & Infra (EU)!' } });
	assert.is(res.status, 201);
	assert.is(res.body.slug, 'ops-infra-eu');
	const accents = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Équipe Rédaction' } });
	assert.is(accents.body.slug, 'equipe-redaction');
});

test('create – maintainers, closed privacy, notifications disabled', async () => {
	const res = await s.request('POST', '/orgs/acme/teams', {
		token: owner,
		body: {
			name: 'Platform',
			maintainers: ['nina'],
			privacy: 'closed',
			notification_setting: 'notifications_disabled',
			permission: 'push',
		},
	});
	assert.is(res.status, 201);
	assert.is(res.body.privacy, 'closed');
	assert.is(res.body.notification_setting, 'notifications_disabled');
	assert.is(res.body.permission, 'push');
	assert.is(res.body.members_count, 2, '~> creator and the listed maintainer');
	const members = await s.get('/orgs/acme/teams/platform/members?role=maintainer', owner);
	assert.equal(members.body.map((m: any) => m.login).sort(), ['nina', 'olivia']);
});

test('create – child team defaults to closed; secret child or secret parent is 422', async () => {
	const parent = (await s.get('/orgs/acme/teams/platform', owner)).body;
	const child = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Platform Core', parent_team_id: parent.id } });
	assert.is(child.status, 201);
	assert.is(child.body.privacy, 'closed');
	assert.is(child.body.parent.id, parent.id);
	assert.is(child.body.parent.slug, 'platform');
	const secretChild = await s.request('POST', '/orgs/acme/teams', {
		token: owner,
		body: { name: 'Secret Child', parent_team_id: parent.id, privacy: 'secret' },
	});
	assert.is(secretChild.status, 422);
	assert.is(secretChild.body.errors[0].field, 'privacy');
	const secretParent = (await s.get('/orgs/acme/teams/justice-league', owner)).body;
	const underSecret = await s.request('POST', '/orgs/acme/teams', {
		token: owner,
		body: { name: 'Under Secret', parent_team_id: secretParent.id },
	});
	assert.is(underSecret.status, 422);
	assert.is(underSecret.body.errors[0].field, 'parent_team_id');
	const missing = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Orphan', parent_team_id: 999999 } });
	assert.is(missing.status, 422);
	assert.is(s.app.stores.teams.bySlug(s.app.stores.accounts.organization('acme')!.id, 'orphan'), undefined, '~> nothing written');
});

test('create – validation: duplicates, maintainers, repositories, ldap', async () => {
	const dup = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'justice league' } });
	assert.is(dup.status, 422);
	assert.is(dup.body.errors[0].code, 'already_exists');
	const dupSlug = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Justice-League' } });
	assert.is(dupSlug.status, 422, '~> same slug counts as the same name');
	const blank = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: '!!!' } });
	assert.is(blank.status, 422);
	const badMaintainer = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'T1', maintainers: ['oscar'] } });
	assert.is(badMaintainer.status, 422);
	assert.is(badMaintainer.body.errors[0].field, 'maintainers');
	const badRepo = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'T2', repo_names: ['other/app'] } });
	assert.is(badRepo.status, 422);
	assert.is(badRepo.body.errors[0].field, 'repo_names');
	const ldap = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'T3', ldap_dn: 'cn=t3,dc=acme' } });
	assert.is(ldap.status, 422);
	assert.match(ldap.body.errors[0].message, 'LDAP synchronization is not enabled');
	const types = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 5, maintainers: 'nina' } });
	assert.is(types.status, 422);
	assert.equal(types.body.errors.map((e: any) => e.field).sort(), ['maintainers', 'name']);
	const after = await s.get('/orgs/acme/teams?per_page=100', owner);
	assert.not.ok(
		after.body.some((t: any) => /^T\d$/.test(t.name)),
		'~> no partial writes',
	);
});

test('create – denials: anonymous 401, outsider 403, restricted members 403, fine-grained without permission 403', async () => {
	assert.is((await s.request('POST', '/orgs/acme/teams', { body: { name: 'Anon' } })).status, 401);
	const outside = await s.request('POST', '/orgs/acme/teams', { token: outsider, body: { name: 'Outside' } });
	assert.is(outside.status, 403);
	const noScope = s.token('mike', { scopes: ['read:org'] });
	const scoped = await s.request('POST', '/orgs/acme/teams', { token: noScope, body: { name: 'Scoped' } });
	assert.is(scoped.status, 403);
	assert.is(scoped.headers.get('x-accepted-oauth-scopes'), 'write:org, admin:org');
	const readOnly = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { members: 'read' } });
	const fg = await s.request('POST', '/orgs/acme/teams', { token: readOnly, body: { name: 'FG' } });
	assert.is(fg.status, 403);
	assert.is(fg.body.message, 'Resource not accessible by personal access token');
	assert.is(fg.headers.get('x-accepted-service-permissions'), 'members=write');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { members_can_create_teams: false } });
	const restricted = await s.request('POST', '/orgs/acme/teams', { token: member, body: { name: 'Restricted' } });
	assert.is(restricted.status, 403);
	assert.match(restricted.body.message, 'Only owners');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { members_can_create_teams: true } });
});

test('create – fine-grained and installation tokens with members:write', async () => {
	const fg = s.token('nina', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } });
	const res = await s.request('POST', '/orgs/acme/teams', { token: fg, body: { name: 'Fine Grained' } });
	assert.is(res.status, 201);
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { members: 'write' } });
	const byApp = await s.request('POST', '/orgs/acme/teams', { token: app, body: { name: 'By App' } });
	assert.is(byApp.status, 201);
	assert.is(byApp.body.members_count, 0, '~> an app is nobody: no creator membership');
	const otherOrg = s.token('nina', { kind: 'fine-grained', org: 'nina', permissions: { members: 'write' } });
	const wrongOwner = await s.request('POST', '/orgs/acme/teams', { token: otherOrg, body: { name: 'Wrong Owner' } });
	assert.is(wrongOwner.status, 403, '~> a fine-grained token reaches only its resource owner');
});

test('list – list form, visibility of secret teams, team_type', async () => {
	const asOwner = await s.get('/orgs/acme/teams?per_page=100', owner);
	assert.is(asOwner.status, 200);
	assert.equal(Object.keys(asOwner.body[0]), LIST_KEYS);
	const ownerSlugs = asOwner.body.map((t: any) => t.slug);
	assert.ok(ownerSlugs.includes('justice-league'), '~> owners see secret teams');
	const asOther = await s.get('/orgs/acme/teams?per_page=100', other);
	const otherSlugs = asOther.body.map((t: any) => t.slug);
	assert.not.ok(otherSlugs.includes('justice-league'), '~> a member outside a secret team does not see it');
	assert.ok(otherSlugs.includes('platform'), '~> closed teams are visible to members');
	assert.ok(otherSlugs.includes('fine-grained'), '~> secret teams are visible to their members');
	const asMember = await s.get('/orgs/acme/teams?per_page=100', member);
	assert.ok(asMember.body.some((t: any) => t.slug === 'justice-league'));
	const child = asOwner.body.find((t: any) => t.slug === 'platform-core');
	assert.is(child.parent.slug, 'platform');
	const enterprise = await s.get('/orgs/acme/teams?team_type=enterprise', owner);
	assert.equal(enterprise.body, []);
	const organization = await s.get('/orgs/acme/teams?team_type=organization&per_page=100', owner);
	assert.is(organization.body.length, asOwner.body.length);
	assert.is((await s.get('/orgs/acme/teams?team_type=bogus', owner)).status, 422);
});

test('list – denials', async () => {
	assert.is((await s.get('/orgs/acme/teams')).status, 401);
	assert.is((await s.get('/orgs/acme/teams', outsider)).status, 403);
	assert.is((await s.get('/orgs/nope/teams', owner)).status, 404);
	const fg = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'read' } });
	assert.is((await s.get('/orgs/acme/teams', fg)).status, 403);
});

test('get – by slug, by organization and team id, legacy id; org name case-insensitive', async () => {
	const bySlug = await s.get('/orgs/ACME/teams/platform', other);
	assert.is(bySlug.status, 200);
	assert.equal(Object.keys(bySlug.body), FULL_KEYS);
	const byUrl = await s.get(bySlug.body.url, other);
	assert.is(byUrl.status, 200);
	assert.equal(byUrl.body, bySlug.body);
	const legacy = await s.get(`/teams/${bySlug.body.id}`, other);
	assert.equal(legacy.body, bySlug.body);
	assert.is((await s.get(`/organizations/99999/team/${bySlug.body.id}`, other)).status, 404);
});

test('get – secret team is 404 to members outside it and to outsiders', async () => {
	assert.is((await s.get('/orgs/acme/teams/justice-league', other)).status, 404);
	assert.is((await s.get('/orgs/acme/teams/justice-league', outsider)).status, 404);
	assert.is((await s.get('/orgs/acme/teams/justice-league', member)).status, 200);
	assert.is((await s.get('/orgs/acme/teams/no-such-team', owner)).status, 404);
});

test('update – maintainer renames (new slug), member without role 403', async () => {
	const denied = await s.request('PATCH', '/orgs/acme/teams/platform', { token: member, body: { description: 'nope' } });
	assert.is(denied.status, 403);
	const res = await s.request('PATCH', '/orgs/acme/teams/platform', {
		token: other,
		body: { name: 'Platform Team', description: 'Runs things' },
	});
	assert.is(res.status, 200);
	assert.is(res.body.slug, 'platform-team');
	assert.is(res.body.description, 'Runs things');
	assert.is(res.body.privacy, 'closed', '~> omitted privacy stays');
	assert.is((await s.get('/orgs/acme/teams/platform', owner)).status, 404);
	assert.is((await s.get('/orgs/acme/teams/platform-team', owner)).status, 200);
});

test('update – privacy and nesting rules, alternate route', async () => {
	const parent = (await s.get('/orgs/acme/teams/platform-team', owner)).body;
	const child = (await s.get('/orgs/acme/teams/platform-core', owner)).body;
	const secretParent = await s.request('PATCH', '/orgs/acme/teams/platform-team', { token: owner, body: { privacy: 'secret' } });
	assert.is(secretParent.status, 422, '~> a parent team cannot be secret');
	const secretChild = await s.request('PATCH', '/orgs/acme/teams/platform-core', { token: owner, body: { privacy: 'secret' } });
	assert.is(secretChild.status, 422, '~> a child team cannot be secret');
	const cycle = await s.request('PATCH', '/orgs/acme/teams/platform-team', { token: owner, body: { parent_team_id: child.id } });
	assert.is(cycle.status, 422, '~> no cycles');
	const self = await s.request('PATCH', '/orgs/acme/teams/platform-team', { token: owner, body: { parent_team_id: parent.id } });
	assert.is(self.status, 422);
	const detach = await s.request('PATCH', child.url, { token: owner, body: { parent_team_id: null, privacy: 'secret' } });
	assert.is(detach.status, 200);
	assert.is(detach.body.parent, null);
	assert.is(detach.body.privacy, 'secret');
	const reattach = await s.request('PATCH', `/teams/${child.id}`, { token: owner, body: { parent_team_slug: 'platform-team' } });
	assert.is(reattach.status, 200);
	assert.is(reattach.body.parent.id, parent.id);
	assert.is(reattach.body.privacy, 'closed', '~> becoming a child makes a secret team closed');
	const badValue = await s.request('PATCH', '/orgs/acme/teams/platform-team', { token: owner, body: { notification_setting: 'loud' } });
	assert.is(badValue.status, 422);
});

test('child teams – by slug and legacy', async () => {
	const parent = (await s.get('/orgs/acme/teams/platform-team', owner)).body;
	const bySlug = await s.get('/orgs/acme/teams/platform-team/teams', other);
	assert.is(bySlug.status, 200);
	assert.equal(
		bySlug.body.map((t: any) => t.slug),
		['platform-core'],
	);
	assert.equal(Object.keys(bySlug.body[0]), LIST_KEYS);
	const legacy = await s.get(`/teams/${parent.id}/teams`, other);
	assert.equal(legacy.body, bySlug.body);
});

test('members – roles, inherited members of child teams, role filter', async () => {
	await s.request('PUT', '/orgs/acme/teams/platform-core/memberships/mike', { token: owner, body: { role: 'member' } });
	const all = await s.get('/orgs/acme/teams/platform-team/members', other);
	assert.is(all.status, 200);
	const mike = all.body.find((m: any) => m.login === 'mike');
	assert.ok(mike, '~> members of child teams are listed');
	assert.is(mike.inherited, true);
	assert.is(mike.type, 'User');
	const nina = all.body.find((m: any) => m.login === 'nina');
	assert.is(nina.role, 'maintainer');
	assert.is(nina.inherited, false);
	const members = await s.get('/orgs/acme/teams/platform-team/members?role=member', other);
	assert.ok(members.body.every((m: any) => m.role === 'member'));
	const inherited = await s.get('/orgs/acme/teams/platform-team/memberships/mike', other);
	assert.is(inherited.status, 200, '~> a child-team member has a membership in the parent');
	assert.is(inherited.body.role, 'member');
});

test('memberships – owners report maintainer, pending invitations, denials', async () => {
	const ownerMembership = await s.get('/orgs/acme/teams/platform-team/memberships/olivia', owner);
	assert.is(ownerMembership.body.role, 'maintainer');
	assert.is(ownerMembership.body.url, `${(await s.get('/orgs/acme/teams/platform-team', owner)).body.url}/memberships/olivia`);
	const byMaintainer = await s.request('PUT', '/orgs/acme/teams/platform-team/memberships/newbie', { token: other, body: {} });
	assert.is(byMaintainer.status, 403, '~> only owners may add non-members');
	const invited = await s.request('PUT', '/orgs/acme/teams/platform-team/memberships/newbie', {
		token: owner,
		body: { role: 'maintainer' },
	});
	assert.is(invited.status, 200);
	assert.is(invited.body.state, 'pending');
	assert.is(invited.body.role, 'maintainer');
	const orgMembership = await s.get('/orgs/acme/memberships/newbie', owner);
	assert.is(orgMembership.body.state, 'pending', '~> the user was invited to the organization');
	const newbie = s.fullToken('newbie');
	await s.request('PATCH', '/user/memberships/orgs/acme', { token: newbie, body: { state: 'active' } });
	const accepted = await s.get('/orgs/acme/teams/platform-team/memberships/newbie', owner);
	assert.is(accepted.body.state, 'active', '~> accepting the organization invitation activates the team membership');
	const byMember = await s.request('PUT', '/orgs/acme/teams/platform-team/memberships/oscar', { token: member, body: {} });
	assert.is(byMember.status, 403);
	const org = await s.request('PUT', '/orgs/acme/teams/platform-team/memberships/acme', { token: owner, body: {} });
	assert.is(org.status, 422, '~> an organization cannot be a team member');
	const badRole = await s.request('PUT', '/orgs/acme/teams/platform-team/memberships/mike', { token: owner, body: { role: 'boss' } });
	assert.is(badRole.status, 422);
	assert.is((await s.get('/orgs/acme/teams/platform-team/memberships/oscar', owner)).status, 404);
	assert.is((await s.get('/orgs/acme/teams/platform-team/memberships/ghost', owner)).status, 404);
	const removed = await s.request('DELETE', '/orgs/acme/teams/platform-team/memberships/newbie', { token: other });
	assert.is(removed.status, 204);
	assert.is((await s.get('/orgs/acme/teams/platform-team/memberships/newbie', owner)).status, 404);
});

test('legacy members – check, add, remove', async () => {
	const team = (await s.get('/orgs/acme/teams/platform-team', owner)).body;
	assert.is((await s.get(`/teams/${team.id}/members/nina`, other)).status, 204);
	assert.is((await s.get(`/teams/${team.id}/members/oscar`, other)).status, 404);
	const notMember = await s.request('PUT', `/teams/${team.id}/members/oscar`, { token: owner });
	assert.is(notMember.status, 422);
	const added = await s.request('PUT', `/teams/${team.id}/members/newbie`, { token: owner });
	assert.is(added.status, 204);
	assert.is((await s.get(`${team.url}/members/newbie`, owner)).status, 204, '~> also under the organization-id address');
	assert.is((await s.request('DELETE', `/teams/${team.id}/members/newbie`, { token: owner })).status, 204);
	assert.is((await s.get(`/teams/${team.id}/members/newbie`, owner)).status, 404);
});

/** PUT with no body and Content-Length: 0, as the spec requires for an empty body. */
function putEmpty(path: string, token: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(`${s.api}${path}`, {
			method: 'PUT',
			headers: { Authorization: `token ${token}`, 'Content-Length': '0' },
		});
		req.on('response', (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode!));
		});
		req.on('error', reject);
		req.end();
	});
}

test('team repositories – legacy PUT with pull/push/admin, empty body uses the team permission', async () => {
	const team = (await s.get('/orgs/acme/teams/platform-team', owner)).body; // permission push
	assert.is(await putEmpty(`/teams/${team.id}/repos/acme/docs`, owner), 204);
	const check = await s.get(`/teams/${team.id}/repos/acme/docs`, owner, { Accept: 'application/vnd.github.v3.repository+json' });
	assert.is(check.status, 200);
	assert.is(check.body.full_name, 'acme/docs');
	assert.is(check.body.role_name, 'write');
	assert.equal(check.body.permissions, { admin: false, maintain: false, push: true, triage: true, pull: true });
	const admin = await s.request('PUT', `/teams/${team.id}/repos/acme/docs`, { token: owner, body: { permission: 'admin' } });
	assert.is(admin.status, 204);
	assert.is(admin.text, '');
	const maintain = await s.request('PUT', `/teams/${team.id}/repos/acme/docs`, { token: owner, body: { permission: 'maintain' } });
	assert.is(maintain.status, 422, '~> the legacy route accepts pull, push, admin only');
	const bySlug = await s.request('PUT', '/orgs/acme/teams/platform-team/repos/acme/docs', {
		token: owner,
		body: { permission: 'maintain' },
	});
	assert.is(bySlug.status, 204, '~> the slug route accepts maintain');
	assert.is((await s.get('/orgs/acme/teams/platform-team/repos/acme/docs', owner)).status, 204);
});

test('team repositories – 422 for repositories the organization does not own; forks of its repositories are fine', async () => {
	const team = (await s.get('/orgs/acme/teams/platform-team', owner)).body;
	const own = await s.request('POST', '/user/repos', { token: owner, body: { name: 'personal' } });
	assert.is(own.status, 201);
	const foreign = await s.request('PUT', `/teams/${team.id}/repos/olivia/personal`, { token: owner, body: { permission: 'pull' } });
	assert.is(foreign.status, 422);
	assert.match(foreign.body.message, 'organization');
	const fork = await s.request('POST', '/repos/acme/docs/forks', { token: owner, body: { name: 'docs-fork' } });
	assert.is(fork.status, 202);
	assert.is(fork.body.fork, true);
	const forked = await s.request('PUT', `/teams/${team.id}/repos/olivia/docs-fork`, { token: owner, body: { permission: 'pull' } });
	assert.is(forked.status, 204, '~> a direct fork of an organization repository is accepted');
});

test('team repositories – list, inheritance by child teams, removal, denials', async () => {
	const list = await s.get('/orgs/acme/teams/platform-team/repos', other);
	assert.is(list.status, 200);
	const docs = list.body.find((r: any) => r.full_name === 'acme/docs');
	assert.is(docs.role_name, 'maintain');
	assert.is(docs.permissions.maintain, true);
	assert.is(docs.owner.login, 'acme');
	for (const key of ['archive_url', 'git_tags_url', 'clone_url', 'ssh_url', 'topics', 'visibility', 'license', 'temp_clone_token']) {
		assert.ok(key in docs, `~> repository has ${key}`);
	}
	const childCheck = await s.get('/orgs/acme/teams/platform-core/repos/acme/docs', owner);
	assert.is(childCheck.status, 204, '~> child teams inherit the parent team repositories');
	const childList = await s.get('/orgs/acme/teams/platform-core/repos', owner);
	assert.ok(childList.body.some((r: any) => r.full_name === 'acme/docs'));
	const memberPut = await s.request('PUT', '/orgs/acme/teams/platform-team/repos/acme/app', { token: member, body: {} });
	assert.is(memberPut.status, 403, '~> members without admin on the repository cannot add it');
	const memberDelete = await s.request('DELETE', '/orgs/acme/teams/platform-team/repos/acme/docs', { token: member });
	assert.is(memberDelete.status, 403);
	const removed = await s.request('DELETE', '/orgs/acme/teams/platform-team/repos/acme/docs', { token: other });
	assert.is(removed.status, 204, '~> a team maintainer may remove any repository');
	assert.is((await s.get('/orgs/acme/teams/platform-team/repos/acme/docs', owner)).status, 404);
	assert.is((await s.get('/repos/acme/docs', owner)).status, 200, '~> the repository itself stays');
	assert.is((await s.get('/orgs/acme/teams/platform-team/repos/acme/nope', owner)).status, 404);
});

test('delete – an owner deleting a parent deletes its child teams', async () => {
	const denied = await s.request('DELETE', '/orgs/acme/teams/platform-team', { token: member });
	assert.is(denied.status, 403);
	const res = await s.request('DELETE', '/orgs/acme/teams/platform-team', { token: owner });
	assert.is(res.status, 204);
	assert.is((await s.get('/orgs/acme/teams/platform-team', owner)).status, 404);
	assert.is((await s.get('/orgs/acme/teams/platform-core', owner)).status, 404);
	const list = await s.get('/orgs/acme/teams?per_page=100', owner);
	assert.not.ok(list.body.some((t: any) => t.slug.startsWith('platform')));
});

test('delete – a maintainer deleting a parent moves its children up', async () => {
	const parent = await s.request('POST', '/orgs/acme/teams', { token: member, body: { name: 'Mid', privacy: 'closed' } });
	const child = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Leaf', parent_team_id: parent.body.id } });
	assert.is(child.status, 201);
	assert.is((await s.request('DELETE', `/teams/${parent.body.id}`, { token: member })).status, 204);
	const leaf = await s.get('/orgs/acme/teams/leaf', owner);
	assert.is(leaf.status, 200);
	assert.is(leaf.body.parent, null);
});

// ---------------------------------------------------------------------------------------------
// Regressions: repository grants and parents need the caller's rights (code review).

/** A second organization for the regression tests: owner olivia, members mike and nina. */
async function mergers() {
	if (!s.app.stores.accounts.organization('mergers')) {
		s.org('mergers', 'olivia');
		s.member('mergers', 'mike');
		s.member('mergers', 'nina');
		await s.request('POST', '/orgs/mergers/repos', { token: owner, body: { name: 'vault', private: true } });
	}
	return s.app.stores.accounts.organization('mergers')!;
}

test('create – repo_names need admin on each repository (members cannot grant themselves push)', async () => {
	const org = await mergers();
	const escalate = await s.request('POST', '/orgs/mergers/teams', {
		token: member,
		body: { name: 'Escalate', repo_names: ['mergers/vault'], permission: 'push' },
	});
	assert.is(escalate.status, 403, '~> a member without admin on mergers/vault cannot add it to a new team');
	assert.match(escalate.body.message, 'admin rights to mergers/vault');
	assert.is(s.app.stores.teams.bySlug(org.id, 'escalate'), undefined, '~> nothing written');
	const repo = await s.get('/repos/mergers/vault', member);
	assert.is(repo.body.permissions.push, false, '~> mike still only reads the repository');
	// A private repository the caller cannot see is answered like one that does not exist.
	await s.request('PATCH', '/orgs/mergers', { token: owner, body: { default_repository_permission: 'none' } });
	const hidden = await s.request('POST', '/orgs/mergers/teams', {
		token: member,
		body: { name: 'Escalate', repo_names: ['mergers/vault'] },
	});
	const missing = await s.request('POST', '/orgs/mergers/teams', {
		token: member,
		body: { name: 'Escalate', repo_names: ['mergers/nope'] },
	});
	assert.is(hidden.status, 422);
	assert.is(hidden.body.errors[0].field, 'repo_names');
	assert.is(missing.status, 422);
	await s.request('PATCH', '/orgs/mergers', { token: owner, body: { default_repository_permission: 'read' } });
	const byOwner = await s.request('POST', '/orgs/mergers/teams', {
		token: owner,
		body: { name: 'Vault Keepers', repo_names: ['mergers/vault'], permission: 'push', privacy: 'closed' },
	});
	assert.is(byOwner.status, 201, '~> an owner administers every repository');
	assert.is(byOwner.body.repos_count, 1);
	const app = s.token('olivia', { kind: 'installation', org: 'mergers', permissions: { members: 'write' } });
	const byApp = await s.request('POST', '/orgs/mergers/teams', {
		token: app,
		body: { name: 'App Keepers', repo_names: ['mergers/vault'] },
	});
	assert.is(byApp.status, 201, '~> an installation token of the organization passes');
});

test('parent – a maintainer of the child only cannot attach it to another team and inherit its grants', async () => {
	const org = await mergers();
	const crown = await s.request('POST', '/orgs/mergers/teams', { token: owner, body: { name: 'Crown Jewels', privacy: 'closed' } });
	assert.is(crown.status, 201);
	assert.is(
		(await s.request('PUT', '/orgs/mergers/teams/crown-jewels/repos/mergers/vault', { token: owner, body: { permission: 'admin' } }))
			.status,
		204,
	);
	const sneaky = await s.request('POST', '/orgs/mergers/teams', { token: other, body: { name: 'Sneaky', privacy: 'closed' } });
	assert.is(sneaky.status, 201, '~> nina maintains her new team');
	for (const body of [{ parent_team_id: crown.body.id }, { parent_team_slug: 'crown-jewels' }]) {
		const patch = await s.request('PATCH', '/orgs/mergers/teams/sneaky', { token: other, body });
		assert.is(patch.status, 403, '~> nina does not maintain crown-jewels');
		assert.match(patch.body.message, 'maintainer of both teams');
	}
	assert.is((await s.get('/orgs/mergers/teams/sneaky', other)).body.parent, null, '~> the parent is unchanged');
	assert.is((await s.get('/repos/mergers/vault', other)).body.permissions.admin, false, '~> no inherited grant');
	const created = await s.request('POST', '/orgs/mergers/teams', {
		token: other,
		body: { name: 'Sneaky Two', parent_team_id: crown.body.id },
	});
	assert.is(created.status, 403, '~> nor create a child of it');
	assert.is(s.app.stores.teams.bySlug(org.id, 'sneaky-two'), undefined, '~> nothing written');
	// A maintainer of both teams may; an owner may set any parent.
	await s.request('PUT', '/orgs/mergers/teams/crown-jewels/memberships/nina', { token: owner, body: { role: 'maintainer' } });
	const allowed = await s.request('PATCH', '/orgs/mergers/teams/sneaky', { token: other, body: { parent_team_id: crown.body.id } });
	assert.is(allowed.status, 200);
	assert.is(allowed.body.parent.slug, 'crown-jewels');
	const again = await s.request('PATCH', '/orgs/mergers/teams/sneaky', {
		token: other,
		body: { parent_team_id: crown.body.id, description: 'same parent' },
	});
	assert.is(again.status, 200);
	await s.request('PUT', '/orgs/mergers/teams/crown-jewels/memberships/nina', { token: owner, body: { role: 'member' } });
	const keep = await s.request('PATCH', '/orgs/mergers/teams/sneaky', {
		token: other,
		body: { parent_team_id: crown.body.id, description: 'kept' },
	});
	assert.is(keep.status, 200, '~> keeping the current parent needs no right on it');
	const byOwner = await s.request('POST', '/orgs/mergers/teams', {
		token: owner,
		body: { name: 'Crown Child', parent_team_id: crown.body.id },
	});
	assert.is(byOwner.status, 201);
	// Apps: organization administration is needed to choose a parent.
	const membersOnly = s.token('olivia', { kind: 'installation', org: 'mergers', permissions: { members: 'write' } });
	const byApp = await s.request('POST', '/orgs/mergers/teams', {
		token: membersOnly,
		body: { name: 'App Child', parent_team_id: crown.body.id },
	});
	assert.is(byApp.status, 403);
	const orgAdmin = s.token('olivia', {
		kind: 'installation',
		org: 'mergers',
		permissions: { members: 'write', organization_administration: 'write' },
	});
	const byAdminApp = await s.request('POST', '/orgs/mergers/teams', {
		token: orgAdmin,
		body: { name: 'App Child', parent_team_id: crown.body.id },
	});
	assert.is(byAdminApp.status, 201);
});

test('parent – a secret team the caller cannot see is answered like a team that does not exist', async () => {
	await mergers();
	const secret = await s.request('POST', '/orgs/mergers/teams', { token: owner, body: { name: 'Mergers Secret Plan' } });
	assert.is(secret.body.privacy, 'secret');
	const hidden = await s.request('POST', '/orgs/mergers/teams', {
		token: other,
		body: { name: 'Probe', parent_team_id: secret.body.id },
	});
	const missing = await s.request('POST', '/orgs/mergers/teams', { token: other, body: { name: 'Probe', parent_team_id: 987654 } });
	assert.is(hidden.status, 422);
	assert.equal(hidden.body.errors, missing.body.errors, '~> the same answer as for an unknown id');
	assert.not.match(hidden.text, 'Mergers Secret Plan', '~> the secret team is not named');
	const bySlug = await s.request('POST', '/orgs/mergers/teams', {
		token: other,
		body: { name: 'Probe', parent_team_slug: 'mergers-secret-plan' },
	});
	assert.not.match(bySlug.text, 'Mergers Secret Plan');
	const patch = await s.request('PATCH', '/orgs/mergers/teams/sneaky', { token: other, body: { parent_team_id: secret.body.id } });
	assert.is(patch.status, 422);
	assert.not.match(patch.text, 'Mergers Secret Plan');
	const asOwner = await s.request('POST', '/orgs/mergers/teams', {
		token: owner,
		body: { name: 'Probe', parent_team_id: secret.body.id },
	});
	assert.is(asOwner.status, 422);
	assert.match(asOwner.body.errors[0].message, 'is secret', '~> those who see the team learn why');
});

test('team repositories – the list shows what GET /repos shows the caller, with a constant number of queries (code review)', async () => {
	await mergers();
	const { stores } = s.app;
	const team = await s.request('POST', '/orgs/mergers/teams', { token: owner, body: { name: 'Bulk', privacy: 'closed' } });
	assert.is(team.status, 201);
	const names: string[] = [];
	for (let i = 0; i < 12; i++) {
		const name = `bulk-${i}`;
		await s.request('POST', '/orgs/mergers/repos', { token: owner, body: { name, private: i % 3 === 0 } });
		await s.request('PUT', `/orgs/mergers/teams/bulk/repos/mergers/${name}`, { token: owner, body: { permission: 'push' } });
		names.push(name);
	}
	await s.request('PATCH', '/orgs/mergers', { token: owner, body: { default_repository_permission: 'none' } });
	const counts = { membership: 0, collaborator: 0, teams: 0 };
	const original = {
		get: stores.memberships.get,
		collaboratorPermission: stores.repos.collaboratorPermission,
		teamPermissions: stores.repos.teamPermissions,
	};
	stores.memberships.get = (...args) => {
		counts.membership++;
		return original.get(...args);
	};
	stores.repos.collaboratorPermission = (...args) => {
		counts.collaborator++;
		return original.collaboratorPermission(...args);
	};
	stores.repos.teamPermissions = (...args) => {
		counts.teams++;
		return original.teamPermissions(...args);
	};
	try {
		for (const token of [other, owner]) {
			Object.assign(counts, { membership: 0, collaborator: 0, teams: 0 });
			const list = await s.get('/orgs/mergers/teams/bulk/repos?per_page=100', token);
			assert.is(list.status, 200);
			assert.ok(counts.membership <= 2, `~> memberships read a fixed number of times (${counts.membership})`);
			assert.is(counts.collaborator + counts.teams, 0, '~> no per-repository grant queries');
			const visible = [];
			for (const name of names) if ((await s.get(`/repos/mergers/${name}`, token)).status === 200) visible.push(`mergers/${name}`);
			assert.equal(list.body.map((r: any) => r.full_name).sort(), visible.sort(), '~> exactly the repositories the caller sees');
		}
		assert.is(
			(await s.get('/orgs/mergers/teams/bulk/repos?per_page=100', other)).body.length,
			8,
			'~> a member without base permission misses the private ones',
		);
	} finally {
		Object.assign(stores.memberships, { get: original.get });
		Object.assign(stores.repos, { collaboratorPermission: original.collaboratorPermission, teamPermissions: original.teamPermissions });
		await s.request('PATCH', '/orgs/mergers', { token: owner, body: { default_repository_permission: 'read' } });
	}
});

test('list – ETag from what the caller sees: a matching If-None-Match is 304; a secret team a non-member cannot see leaves it unchanged; joining it changes it', async () => {
	const first = await s.get('/orgs/acme/teams', other);
	const etag = first.headers.get('etag')!;
	assert.ok(etag.startsWith('W/"'));
	const unchanged = await s.get('/orgs/acme/teams', other, { 'If-None-Match': etag });
	assert.is(unchanged.status, 304, '~> unchanged: 304');
	assert.is(unchanged.headers.get('etag'), etag);
	assert.is(
		(await s.get('/orgs/acme/teams?per_page=1', other, { 'If-None-Match': etag })).status,
		200,
		'~> another page size is another answer',
	);
	const hidden = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Hush', privacy: 'secret' } });
	assert.is(hidden.status, 201);
	const stillSame = await s.get('/orgs/acme/teams', other, { 'If-None-Match': etag });
	assert.is(stillSame.status, 304, '~> a secret team the caller cannot see leaves the ETag alone (no existence oracle)');
	assert.is(stillSame.headers.get('etag'), etag);
	const after = await s.get('/orgs/acme/teams', other);
	assert.is(after.headers.get('etag'), etag, '~> same body, same ETag');
	assert.ok(!after.body.some((t: any) => t.slug === 'hush'), '~> a secret team stays out of a non-member’s list');
	const ownerEtag = (await s.get('/orgs/acme/teams', owner)).headers.get('etag')!;
	assert.is((await s.get('/orgs/acme/teams', owner, { 'If-None-Match': ownerEtag })).status, 304, '~> owners: 304 from the version');
	const second = etag;
	await s.request('PUT', '/orgs/acme/teams/hush/memberships/nina', { token: owner });
	const joined = await s.get('/orgs/acme/teams', other, { 'If-None-Match': second });
	assert.is(joined.status, 200, '~> joining a secret team changes what nina sees: a new version');
	assert.ok(joined.body.some((t: any) => t.slug === 'hush'));
	await s.request('DELETE', '/orgs/acme/teams/hush', { token: owner });
});

test.run();
