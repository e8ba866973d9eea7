/**
 * Roles: the predefined organization roles (all_repo_*), assigned to members and teams and honoured
 * on every repository of the organization (single reads, lists, collaborators, assignees); custom
 * repository roles (CRUD, validation) and the repository fine-grained permissions; who may manage
 * them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('roles');
let s: TestServer;
let owner: string;
let mike: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nina', 'zed']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'nina');
	owner = s.fullToken('olivia');
	mike = s.fullToken('mike');
	for (const name of ['vault', 'docs']) {
		assert.is((await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, private: true } })).status, 201);
	}
	assert.is((await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Readers', privacy: 'closed' } })).status, 201);
	assert.is((await s.request('PUT', '/orgs/acme/teams/readers/memberships/nina', { token: owner, body: {} })).status, 200);
	// Members get nothing by default here: every access below comes from a role.
	assert.is((await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'none' } })).status, 200);
});
test.after(() => s.close());

test('the predefined organization roles', async () => {
	const res = await s.get('/orgs/acme/organization-roles', owner);
	assert.is(res.status, 200);
	assert.is(res.body.total_count, 5);
	assert.equal(
		res.body.roles.map((role: { name: string }) => role.name),
		['all_repo_read', 'all_repo_triage', 'all_repo_write', 'all_repo_maintain', 'all_repo_admin'],
	);
	const write = await s.get('/orgs/acme/organization-roles/8134', owner);
	assert.is(write.body.name, 'all_repo_write');
	assert.is(write.body.base_role, 'write');
	assert.is(write.body.source, 'Predefined');
	assert.is((await s.get('/orgs/acme/organization-roles/1', owner)).status, 404);
	assert.is((await s.get('/orgs/acme/organization-roles', mike)).status, 403, '~> members may not list them');
	assert.is((await s.get('/orgs/acme/organization-roles', s.fullToken('zed'))).status, 404, '~> outsiders do not see them');
});

test('all_repo_write given to a member: push on every repository, everywhere the server computes access', async () => {
	assert.is((await s.get('/repos/acme/vault', mike)).status, 404, '~> no access before');
	assert.is((await s.request('PUT', '/orgs/acme/organization-roles/users/mike/8134', { token: owner })).status, 204);
	const repo = await s.get('/repos/acme/vault', mike);
	assert.is(repo.status, 200);
	assert.equal(repo.body.permissions, { admin: false, maintain: false, push: true, triage: true, pull: true });
	assert.is(repo.body.role_name, 'write');
	const list = await s.get('/orgs/acme/repos', mike);
	assert.equal(list.body.map((r: { name: string }) => r.name).sort(), ['docs', 'vault'], '~> the organization’s list shows both');
	const mine = await s.get('/user/repos?affiliation=organization_member', mike);
	assert.ok(
		mine.body.some((r: { name: string }) => r.name === 'vault'),
		'~> GET /user/repos too',
	);
	const permission = await s.get('/repos/acme/vault/collaborators/mike/permission', owner);
	assert.is(permission.body.role_name, 'write', '~> the collaborator permission');
	assert.is((await s.get('/repos/acme/vault/collaborators/mike', owner)).status, 204);
	const assignees = await s.get('/repos/acme/vault/assignees', owner);
	assert.ok(
		assignees.body.some((u: { login: string }) => u.login === 'mike'),
		'~> assignable',
	);
	const issue = await s.request('POST', '/repos/acme/vault/issues', { token: mike, body: { title: 'By role' } });
	assert.is(issue.status, 201, '~> and writes');

	const users = await s.get('/orgs/acme/organization-roles/8134/users', owner);
	assert.equal(
		users.body.map((u: { login: string; assignment: string }) => [u.login, u.assignment]),
		[['mike', 'direct']],
	);

	assert.is((await s.request('DELETE', '/orgs/acme/organization-roles/users/mike/8134', { token: owner })).status, 204);
	assert.is((await s.get('/repos/acme/vault', mike)).status, 404, '~> gone with the role');
});

test('a role given to a team reaches its members; users list it as indirect or mixed', async () => {
	const nina = s.fullToken('nina');
	assert.is((await s.request('PUT', '/orgs/acme/organization-roles/teams/readers/8132', { token: owner })).status, 204);
	const repo = await s.get('/repos/acme/docs', nina);
	assert.is(repo.status, 200);
	assert.is(repo.body.role_name, 'read');
	const teams = await s.get('/orgs/acme/organization-roles/8132/teams', owner);
	assert.equal(
		teams.body.map((t: { slug: string; assignment: string }) => [t.slug, t.assignment]),
		[['readers', 'direct']],
	);
	let users = await s.get('/orgs/acme/organization-roles/8132/users', owner);
	// The team's creator (olivia) joined it as maintainer.
	assert.equal(
		users.body.map((u: { login: string; assignment: string }) => [u.login, u.assignment]),
		[
			['olivia', 'indirect'],
			['nina', 'indirect'],
		],
	);
	assert.is(users.body[1].inherited_from[0].slug, 'readers');
	await s.request('PUT', '/orgs/acme/organization-roles/users/nina/8132', { token: owner });
	users = await s.get('/orgs/acme/organization-roles/8132/users', owner);
	assert.equal(users.body[1].login, 'nina');
	assert.equal(users.body[1].assignment, 'mixed', '~> directly and through a team');
	assert.is((await s.request('DELETE', '/orgs/acme/organization-roles/users/nina', { token: owner })).status, 204);
	assert.is((await s.request('DELETE', '/orgs/acme/organization-roles/teams/readers', { token: owner })).status, 204);
	assert.is((await s.get('/repos/acme/docs', nina)).status, 404, '~> every role removed');
});

test('assignment rules: members only, known roles, owners only', async () => {
	const outsider = await s.request('PUT', '/orgs/acme/organization-roles/users/zed/8134', { token: owner });
	assert.is(outsider.status, 422, '~> zed is not a member');
	assert.is((await s.request('PUT', '/orgs/acme/organization-roles/users/mike/4242', { token: owner })).status, 404, '~> no such role');
	assert.is((await s.request('PUT', '/orgs/acme/organization-roles/users/nobody/8134', { token: owner })).status, 404);
	assert.is(
		(await s.request('PUT', '/orgs/acme/organization-roles/users/mike/8134', { token: mike })).status,
		403,
		'~> a member may not',
	);
	assert.is((await s.request('PUT', '/orgs/acme/organization-roles/teams/readers/8134', { token: mike })).status, 403);
	assert.is((await s.request('PUT', '/orgs/acme/organization-roles/teams/nope/8134', { token: owner })).status, 404);
	const fine = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } });
	assert.is(
		(await s.request('PUT', '/orgs/acme/organization-roles/users/mike/8136', { token: fine })).status,
		204,
		'~> members (write), as the matrix says',
	);
	// Leaving the organization ends the role.
	assert.is((await s.request('DELETE', '/orgs/acme/members/mike', { token: owner })).status, 204);
	s.member('acme', 'mike');
	assert.is((await s.get('/repos/acme/vault', mike)).status, 404, '~> a returning member has no old role');
});

test('custom repository roles: create, read, update, delete, with GitHub’s validation', async () => {
	const created = await s.request('POST', '/orgs/acme/custom-repository-roles', {
		token: owner,
		body: { name: 'Labeler', description: 'Labels issues', base_role: 'read', permissions: ['add_label', 'remove_label'] },
	});
	assert.is(created.status, 201);
	assert.is(created.body.name, 'Labeler');
	assert.is(created.body.base_role, 'read');
	assert.equal(created.body.permissions, ['add_label', 'remove_label']);
	assert.is(created.body.organization.login, 'acme');
	const id = created.body.id;
	const list = await s.get('/orgs/acme/custom-repository-roles', owner);
	assert.is(list.body.total_count, 1);
	const orgId = s.app.stores.accounts.byLogin('acme')!.id;
	const legacy = await s.get(`/organizations/${orgId}/custom_roles`, owner);
	assert.is(legacy.body.custom_roles[0].id, id, '~> the deprecated list by organization id');
	assert.is((await s.get('/organizations/999999/custom_roles', owner)).status, 404);

	const taken = await s.request('POST', '/orgs/acme/custom-repository-roles', {
		token: owner,
		body: { name: 'labeler', base_role: 'write', permissions: [] },
	});
	assert.is(taken.status, 422);
	assert.is(taken.body.errors[0].code, 'already_exists');
	const predefined = await s.request('POST', '/orgs/acme/custom-repository-roles', {
		token: owner,
		body: { name: 'Write', base_role: 'write', permissions: [] },
	});
	assert.is(predefined.status, 422);
	const unknown = await s.request('POST', '/orgs/acme/custom-repository-roles', {
		token: owner,
		body: { name: 'X', base_role: 'read', permissions: ['fly'] },
	});
	assert.is(unknown.status, 422);
	assert.is(unknown.body.errors[0].field, 'permissions');
	const admin = await s.request('POST', '/orgs/acme/custom-repository-roles', {
		token: owner,
		body: { name: 'X', base_role: 'admin', permissions: [] },
	});
	assert.is(admin.status, 422, '~> admin is no base role');
	const missing = await s.request('POST', '/orgs/acme/custom-repository-roles', { token: owner, body: { name: 'X' } });
	assert.is(missing.status, 422);

	const updated = await s.request('PATCH', `/orgs/acme/custom-repository-roles/${id}`, {
		token: owner,
		body: { base_role: 'triage', permissions: ['add_label'] },
	});
	assert.is(updated.status, 200);
	assert.is(updated.body.base_role, 'triage');
	assert.is(updated.body.description, 'Labels issues', '~> what is not given stays');
	assert.is((await s.get(`/orgs/acme/custom-repository-roles/${id}`, mike)).status, 403);
	assert.is((await s.get(`/orgs/acme/custom-repository-roles/${id}`, s.fullToken('zed'))).status, 404);
	assert.is((await s.request('DELETE', `/orgs/acme/custom-repository-roles/${id}`, { token: owner })).status, 204);
	assert.is((await s.get(`/orgs/acme/custom-repository-roles/${id}`, owner)).status, 404);
	assert.is(
		(await s.request('DELETE', `/orgs/acme/custom-repository-roles/${id}`, { token: owner })).status,
		204,
		'~> deleting twice is fine',
	);

	const permissions = await s.get('/orgs/acme/repository-fine-grained-permissions', owner);
	assert.is(permissions.status, 200);
	assert.ok(permissions.body.some((p: { name: string }) => p.name === 'manage_webhooks'));
	assert.ok(permissions.body.every((p: { name: string; description: string }) => p.name && p.description));
});

test('a custom repository role given to a collaborator or a team: its base role and its permissions', async () => {
	const nina = s.fullToken('nina');
	const make = async (name: string, permissions: string[]) =>
		(await s.request('POST', '/orgs/acme/custom-repository-roles', { token: owner, body: { name, base_role: 'read', permissions } }))
			.body.id;
	const hooker = await make('Hook keeper', ['manage_webhooks']);
	await make('Topical', ['manage_topics']);
	assert.is(
		(await s.request('PUT', '/repos/acme/vault/collaborators/nina', { token: owner, body: { permission: 'Hook keeper' } })).status,
		204,
	);
	const repo = await s.get('/repos/acme/vault', nina);
	assert.is(repo.status, 200, '~> the base role: read');
	assert.is(repo.body.permissions.push, false);
	assert.is((await s.get('/repos/acme/vault/hooks', nina)).status, 200, '~> manage_webhooks: the hooks, below admin');
	const hook = await s.request('POST', '/repos/acme/vault/hooks', {
		token: nina,
		body: { config: { url: 'https://hooks.example.com/x' } },
	});
	assert.is(hook.status, 201);
	assert.is(
		(await s.request('PUT', '/repos/acme/vault/topics', { token: nina, body: { names: ['x'] } })).status,
		403,
		'~> not manage_topics',
	);
	assert.is(
		(await s.request('PATCH', '/repos/acme/vault', { token: nina, body: { description: 'x' } })).status,
		403,
		'~> nor anything else of admin',
	);

	// Through a team.
	assert.is(
		(await s.request('PUT', '/orgs/acme/teams/readers/repos/acme/docs', { token: owner, body: { permission: 'Topical' } })).status,
		204,
	);
	assert.is(
		(await s.request('PUT', '/repos/acme/docs/topics', { token: nina, body: { names: ['docs'] } })).status,
		200,
		'~> manage_topics through the team',
	);
	const unknown = await s.request('PUT', '/orgs/acme/teams/readers/repos/acme/docs', { token: owner, body: { permission: 'Nope' } });
	assert.is(unknown.status, 422);
	assert.is(unknown.body.errors[0].field, 'permission');
	assert.is((await s.request('PUT', '/repos/acme/vault/collaborators/nina', { token: owner, body: { permission: 'Nope' } })).status, 422);

	// A role's base role moves its grants; deleting it leaves the base role and takes the rest.
	assert.is(
		(await s.request('PATCH', `/orgs/acme/custom-repository-roles/${hooker}`, { token: owner, body: { base_role: 'write' } })).status,
		200,
	);
	assert.is((await s.get('/repos/acme/vault', nina)).body.permissions.push, true, '~> write now');
	assert.is((await s.request('DELETE', `/orgs/acme/custom-repository-roles/${hooker}`, { token: owner })).status, 204);
	assert.is((await s.get('/repos/acme/vault', nina)).body.permissions.push, true, '~> the base role stays');
	assert.is((await s.get('/repos/acme/vault/hooks', nina)).status, 404, '~> manage_webhooks went with the role (hooks are concealed)');

	// An invitation carries the role to the invitee.
	await make('Hook keeper', ['manage_webhooks']);
	const invited = await s.request('PUT', '/repos/acme/docs/collaborators/zed', { token: owner, body: { permission: 'Hook keeper' } });
	assert.is(invited.status, 201);
	assert.is(invited.body.permissions, 'read', '~> the invitation shows the base role');
	assert.is((await s.request('PATCH', `/user/repository_invitations/${invited.body.id}`, { token: s.fullToken('zed') })).status, 204);
	assert.is((await s.get('/repos/acme/docs/hooks', s.fullToken('zed'))).status, 200, '~> accepted with its role');
});

test('the audit log names role changes', async () => {
	const log = await s.get('/orgs/acme/audit-log?phrase=action:role', s.token('olivia', { scopes: ['read:audit_log'] }));
	assert.equal(
		log.body.map((e: { action: string }) => e.action),
		['role.create', 'role.destroy', 'role.update', 'role.create', 'role.create', 'role.destroy', 'role.update', 'role.create'],
	);
	const assigned = await s.get('/orgs/acme/audit-log?phrase=action:org.assign_role', s.token('olivia', { scopes: ['read:audit_log'] }));
	assert.ok(assigned.body.length >= 3);
	assert.ok(assigned.body.some((e: { user?: string; role?: string }) => e.user === 'mike' && e.role === 'all_repo_write'));
});

test.run();
