/**
 * Organization administration: PATCH /orgs/{org} with every setting of GitHub's "Update
 * an organization", who may call it (owners, the app, organization_administration write; members
 * 403, outsiders 404), validation, the member privileges the rest of the server obeys, and
 * DELETE /orgs/{org} (202, then 404 with its teams and repositories gone).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SYNC_DELETE_REPOSITORIES } from '../src/api/orgs/service';
import { startServer, type TestServer } from './helpers/server';

const test = suite('org-settings');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('nora');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'vault', private: true } });
});
test.after(() => s.close());

test('PATCH /orgs/{org}: anonymous 401, outsider 404, member 403, owner 200', async () => {
	const body = { description: 'Anvils' };
	assert.is((await s.request('PATCH', '/orgs/acme', { body })).status, 401, '~> anonymous callers are asked to authenticate');
	const hidden = await s.request('PATCH', '/orgs/acme', { token: outsider, body });
	assert.is(hidden.status, 404, '~> an outsider sees no settings to change');
	const refused = await s.request('PATCH', '/orgs/acme', { token: member, body });
	assert.is(refused.status, 403, '~> a member may not change the settings');
	const res = await s.request('PATCH', '/orgs/acme', { token: owner, body });
	assert.is(res.status, 200, '~> an owner may');
	assert.is(res.body.description, 'Anvils');
});

test('PATCH /orgs/{org} takes every setting of GitHub’s “Update an organization” and shows it to owners', async () => {
	const body = {
		billing_email: 'billing@acme.example',
		company: 'Acme Inc.',
		email: 'hello@acme.example',
		twitter_username: 'acme_corp',
		location: 'Desert',
		name: 'Acme',
		description: 'Anvils and more',
		blog: 'https://acme.example',
		has_organization_projects: false,
		has_repository_projects: false,
		default_repository_permission: 'write',
		members_can_create_repositories: true,
		members_can_create_public_repositories: false,
		members_can_create_private_repositories: true,
		members_can_create_internal_repositories: false,
		members_can_create_pages: true,
		members_can_create_public_pages: false,
		members_can_create_private_pages: true,
		members_can_fork_private_repositories: true,
		web_commit_signoff_required: true,
		advanced_security_enabled_for_new_repositories: true,
		dependabot_alerts_enabled_for_new_repositories: true,
		dependabot_security_updates_enabled_for_new_repositories: true,
		dependency_graph_enabled_for_new_repositories: true,
		secret_scanning_enabled_for_new_repositories: true,
		secret_scanning_push_protection_enabled_for_new_repositories: true,
		secret_scanning_push_protection_custom_link_enabled: true,
		secret_scanning_push_protection_custom_link: 'https://acme.example/secrets',
		deploy_keys_enabled_for_repositories: false,
	};
	const res = await s.request('PATCH', '/orgs/acme', { token: owner, body });
	assert.is(res.status, 200, res.text);
	const got = (await s.get('/orgs/acme', owner)).body;
	for (const [key, value] of Object.entries(body)) assert.equal(got[key], value, `~> ${key} is kept and shown to owners`);
	assert.is(got.members_allowed_repository_creation_type, 'private', '~> the older creation type follows the policies');
	const seen = (await s.get('/orgs/acme', member)).body;
	assert.is(seen.billing_email, undefined, '~> members do not see the billing email');
	assert.is(seen.members_can_fork_private_repositories, true, '~> members see the member privileges');
	// The deprecated creation type sets the policies.
	const typed = await s.request('PATCH', '/orgs/acme', { token: owner, body: { members_allowed_repository_creation_type: 'all' } });
	assert.is(typed.body.members_can_create_public_repositories, true);
	assert.is(typed.body.members_allowed_repository_creation_type, 'all');
});

test('PATCH /orgs/{org}: invalid values are 422 with GitHub’s validation errors', async () => {
	for (const body of [
		{ billing_email: 'not an address' },
		{ twitter_username: 'far too long for twitter handles' },
		{ default_repository_permission: 'owner' },
		{ members_can_create_repositories: 'yes' },
		{ secret_scanning_push_protection_custom_link: 'javascript:alert(1)' },
	]) {
		const res = await s.request('PATCH', '/orgs/acme', { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)} is refused`);
		assert.is(res.body.message, 'Validation Failed');
	}
});

test('PATCH /orgs/{org} with fine-grained tokens: organization_administration write passes, read or none 403; the app passes', async () => {
	const write = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'write' } });
	const read = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } });
	const none = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: {} });
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'write' } });
	const body = { location: 'Mesa' };
	const passed = await s.request('PATCH', '/orgs/acme', { token: write, body });
	assert.is(passed.status, 200, '~> organization_administration write suffices');
	assert.is(passed.headers.get('x-accepted-github-permissions'), 'organization_administration=write');
	assert.is((await s.request('PATCH', '/orgs/acme', { token: read, body })).status, 403, '~> read is not enough');
	assert.is((await s.request('PATCH', '/orgs/acme', { token: none, body })).status, 403, '~> without the permission: 403');
	assert.is((await s.request('PATCH', '/orgs/acme', { token: app, body })).status, 200, '~> the organization’s app with the permission');
	const uat = s.token('mike', { kind: 'user-to-server', org: 'acme', permissions: { organization_administration: 'write' } });
	assert.is(
		(await s.request('PATCH', '/orgs/acme', { token: uat, body })).status,
		403,
		'~> an app acting for a member is still a member',
	);
	const ownerUat = s.token('olivia', { kind: 'user-to-server', org: 'acme', permissions: { organization_administration: 'write' } });
	assert.is(
		(await s.request('PATCH', '/orgs/acme', { token: ownerUat, body })).status,
		200,
		'~> an app acting for an owner, with the permission',
	);
	const oauth = s.token('olivia', { kind: 'oauth', scopes: ['read:org'] });
	assert.is(
		(await s.request('PATCH', '/orgs/acme', { token: oauth, body })).status,
		403,
		'~> read:org is not enough for classic and OAuth tokens',
	);
	assert.is(
		(await s.request('PATCH', '/orgs/acme', { token: s.token('olivia', { kind: 'oauth', scopes: ['admin:org'] }), body })).status,
		200,
		'~> admin:org',
	);
});

test('the rest of the server obeys the member privileges', async () => {
	// Repository creation: none, then private only.
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { members_can_create_repositories: false } });
	const none = await s.request('POST', '/orgs/acme/repos', { token: member, body: { name: 'mine' } });
	assert.is(none.status, 403, '~> members may not create repositories when the organization says so');
	assert.is((await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'owned' } })).status, 201, '~> owners always may');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { members_allowed_repository_creation_type: 'private' } });
	assert.is((await s.request('POST', '/orgs/acme/repos', { token: member, body: { name: 'open' } })).status, 403, '~> no public ones');
	assert.is(
		(await s.request('POST', '/orgs/acme/repos', { token: member, body: { name: 'closed', private: true } })).status,
		201,
		'~> private ones',
	);

	// Forking private repositories.
	await s.request('PATCH', '/orgs/acme', {
		token: owner,
		body: { members_can_fork_private_repositories: false, default_repository_permission: 'read' },
	});
	const fork = await s.request('POST', '/repos/acme/vault/forks', { token: member, body: {} });
	assert.is(fork.status, 403, '~> members may not fork private repositories');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { members_can_fork_private_repositories: true } });
	assert.is((await s.request('POST', '/repos/acme/vault/forks', { token: member, body: {} })).status, 202, '~> once allowed, they may');

	// The base permission.
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'write' } });
	let seen = (await s.get('/repos/acme/vault', member)).body;
	assert.is(seen.permissions.push, true, '~> write base permission: members push to every repository');
	assert.is(seen.permissions.admin, false);
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'none' } });
	assert.is((await s.get('/repos/acme/vault', member)).status, 404, '~> none: a private repository is hidden from members');
	assert.is(
		(await s.get('/users/mike/repos', member)).body.some((r: any) => r.name === 'vault'),
		false,
		'~> and the fork of it is gone',
	);
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'read' } });
	seen = (await s.get('/repos/acme/vault', member)).body;
	assert.equal([seen.permissions.pull, seen.permissions.push], [true, false], '~> read: members read, not push');

	// Web commit sign-off shows on every repository.
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { web_commit_signoff_required: true } });
	assert.is(
		(await s.get('/repos/acme/app', owner)).body.web_commit_signoff_required,
		true,
		'~> the organization requires sign-off everywhere',
	);
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { web_commit_signoff_required: false } });
	assert.is((await s.get('/repos/acme/app', owner)).body.web_commit_signoff_required, false);

	// Deleting repositories: a member administering one may not when the organization says so.
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { members_can_delete_repositories: false } });
	assert.is((await s.request('DELETE', '/repos/acme/closed', { token: member })).status, 403, '~> repository admins may not delete');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { members_can_delete_repositories: true } });
	assert.is((await s.request('DELETE', '/repos/acme/closed', { token: member })).status, 204, '~> once allowed, they may');
});

test('PATCH records the audit-log event org.update, reaching no hook', async () => {
	const mark = s.app.stores.events.latestId();
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { company: 'Acme Ltd.' } });
	const rows = s.app.db.prepare('SELECT event, action FROM events WHERE id > ?').all(mark) as any[];
	assert.equal(rows, [{ event: 'org', action: 'update' }]);
});

test('DELETE /orgs/{org}: members 403, outsiders 404; owners get 202 {} and the organization is gone with its teams and repositories', async () => {
	s.org('doomed', 'olivia');
	s.member('doomed', 'mike');
	await s.request('POST', '/orgs/doomed/repos', { token: owner, body: { name: 'site' } });
	const team = await s.request('POST', '/orgs/doomed/teams', { token: owner, body: { name: 'Crew' } });
	assert.is((await s.request('DELETE', '/orgs/doomed', { token: member })).status, 403, '~> a member may not');
	assert.is((await s.request('DELETE', '/orgs/doomed', { token: outsider })).status, 404, '~> an outsider sees nothing');
	const read = s.token('olivia', { kind: 'fine-grained', org: 'doomed', permissions: { organization_administration: 'read' } });
	assert.is((await s.request('DELETE', '/orgs/doomed', { token: read })).status, 403, '~> read is not enough');
	const mark = s.app.stores.events.latestId();
	const res = await s.request('DELETE', '/orgs/doomed', { token: owner });
	assert.is(res.status, 202, '~> 202 Accepted');
	assert.equal(res.body, {}, '~> with an empty object');
	assert.is((await s.get('/orgs/doomed', owner)).status, 404, '~> the organization is gone');
	assert.is((await s.get('/repos/doomed/site', owner)).status, 404, '~> with its repositories');
	assert.is((await s.get(`/teams/${team.body.id}`, owner)).status, 404, '~> and its teams');
	assert.is(s.app.db.prepare('SELECT count(*) FROM repositories WHERE name = ?').pluck().get('site'), 0, '~> no repository row is left');
	const rows = s.app.db.prepare('SELECT event, action FROM events WHERE id > ?').all(mark) as any[];
	assert.equal(rows, [{ event: 'organization', action: 'deleted' }], '~> organization deleted is recorded');
	assert.ok(
		(await s.get('/user/orgs', member)).body.every((o: any) => o.login !== 'doomed'),
		'~> members lose it',
	);
	assert.is((await s.request('DELETE', '/orgs/doomed', { token: owner })).status, 404, '~> deleting it again: 404');
});

test('DELETE /orgs/{org} of a large organization: gone at once, its repositories deleted in bounded batches by a background task', async () => {
	const big = s.org('bigcorp', 'olivia');
	s.member('bigcorp', 'mike');
	const count = SYNC_DELETE_REPOSITORIES + 5;
	for (let i = 0; i < count; i++)
		await s.request('POST', '/orgs/bigcorp/repos', { token: owner, body: { name: `r${i}`, private: i % 2 === 0 } });
	await s.request('PUT', '/repos/bigcorp/r1/collaborators/nora', { token: owner, body: { permission: 'push' } });
	const res = await s.request('DELETE', '/orgs/bigcorp', { token: owner });
	assert.is(res.status, 202);
	assert.equal(res.body, {});
	assert.is((await s.get('/orgs/bigcorp', owner)).status, 404, '~> the organization is gone at once');
	assert.is((await s.get('/repos/bigcorp/r1', owner)).status, 404, '~> and its repositories with it');
	const holder = s.app.stores.accounts.byLogin(`deleted-organization-${big.id}`)!;
	assert.ok(holder, '~> the repositories wait with a holder');
	assert.is(s.app.stores.orgs.repositoryCount(holder.id), count);
	const parked = (await s.get(`/repos/${holder.login}/r1`, member)).status;
	assert.is(parked, 404, '~> nobody reads them meanwhile (private, no members, no collaborators)');
	assert.is((await s.get(`/repos/${holder.login}/r1`, s.fullToken('nora'))).status, 404);
	await s.app.tasks.runDue();
	assert.is(s.app.stores.orgs.repositoryCount(holder.id), 0, '~> the task deleted every repository');
	assert.is(s.app.stores.accounts.byId(holder.id), undefined, '~> then the holder');
	const task = s.app.db.prepare("SELECT state FROM background_tasks WHERE kind = 'organization-deletion'").pluck().get();
	assert.is(task, 'done');
});

test.run();
