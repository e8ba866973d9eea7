/**
 * A stock GitHub client (@octokit/rest, baseUrl pointed at Gitstead) drives the teams and
 * outside-collaborator routes: methods, pagination through Link headers, and thrown errors.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('octokit');
let s: TestServer;
let octokit: Octokit;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'carl']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'carl');
	const { Octokit } = await import('@octokit/rest');
	octokit = new Octokit({ auth: s.fullToken('olivia'), baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	await octokit.request('POST /orgs/{org}/repos', { org: 'acme', name: 'widgets', private: true });
});
test.after(() => s.close());

test('teams – create, get, update, list, delete with rest methods', async () => {
	const created = await octokit.rest.teams.create({ org: 'acme', name: 'Core Team', privacy: 'closed', maintainers: ['mike'] });
	assert.is(created.status, 201);
	assert.is(created.data.slug, 'core-team');
	const got = await octokit.rest.teams.getByName({ org: 'acme', team_slug: 'core-team' });
	assert.is(got.data.id, created.data.id);
	assert.is(got.data.members_count, 2);
	const updated = await octokit.rest.teams.updateInOrg({ org: 'acme', team_slug: 'core-team', description: 'The core' });
	assert.is(updated.data.description, 'The core');
	const child = await octokit.rest.teams.create({ org: 'acme', name: 'Core Child', parent_team_id: created.data.id });
	const children = await octokit.rest.teams.listChildInOrg({ org: 'acme', team_slug: 'core-team' });
	assert.equal(
		children.data.map((t) => t.id),
		[child.data.id],
	);
	const list = await octokit.rest.teams.list({ org: 'acme' });
	assert.ok(list.data.some((t) => t.slug === 'core-child'));
	await octokit.rest.teams.deleteInOrg({ org: 'acme', team_slug: 'core-child' });
	const error = await octokit.rest.teams.getByName({ org: 'acme', team_slug: 'core-child' }).catch((e) => e);
	assert.is(error.status, 404);
	assert.is(error.response.data.message, 'Not Found');
});

test('teams – memberships and members', async () => {
	const added = await octokit.rest.teams.addOrUpdateMembershipForUserInOrg({
		org: 'acme',
		team_slug: 'core-team',
		username: 'carl',
		role: 'member',
	});
	assert.is(added.data.state, 'active');
	const membership = await octokit.rest.teams.getMembershipForUserInOrg({ org: 'acme', team_slug: 'core-team', username: 'carl' });
	assert.is(membership.data.role, 'member');
	const members = await octokit.rest.teams.listMembersInOrg({ org: 'acme', team_slug: 'core-team' });
	assert.equal(members.data.map((m) => m.login).sort(), ['carl', 'mike', 'olivia']);
	const removed = await octokit.rest.teams.removeMembershipForUserInOrg({ org: 'acme', team_slug: 'core-team', username: 'carl' });
	assert.is(removed.status, 204);
});

test('teams – repositories by slug and by the legacy routes', async () => {
	await octokit.rest.teams.addOrUpdateRepoPermissionsInOrg({
		org: 'acme',
		team_slug: 'core-team',
		owner: 'acme',
		repo: 'widgets',
		permission: 'push',
	});
	const check = await octokit.rest.teams.checkPermissionsForRepoInOrg({
		org: 'acme',
		team_slug: 'core-team',
		owner: 'acme',
		repo: 'widgets',
		mediaType: { format: 'repository' },
	});
	assert.is(check.status, 200);
	assert.is((check.data as { role_name?: string }).role_name, 'write');
	const repos = await octokit.rest.teams.listReposInOrg({ org: 'acme', team_slug: 'core-team' });
	assert.equal(
		repos.data.map((r) => r.full_name),
		['acme/widgets'],
	);
	const team = await octokit.rest.teams.getByName({ org: 'acme', team_slug: 'core-team' });
	const legacy = await octokit.request('PUT /teams/{team_id}/repos/{owner}/{repo}', {
		team_id: team.data.id,
		owner: 'acme',
		repo: 'widgets',
		permission: 'admin',
	});
	assert.is(legacy.status, 204);
	const bad = await octokit
		.request('PUT /teams/{team_id}/repos/{owner}/{repo}', {
			team_id: team.data.id,
			owner: 'acme',
			repo: 'widgets',
			permission: 'maintain' as 'admin',
		})
		.catch((e) => e);
	assert.is(bad.status, 422);
	assert.match(bad.message, 'Validation Failed');
	const childTeams = await octokit.request('GET /teams/{team_id}/teams', { team_id: team.data.id });
	assert.equal(childTeams.data, []);
	await octokit.rest.teams.removeRepoInOrg({ org: 'acme', team_slug: 'core-team', owner: 'acme', repo: 'widgets' });
	const gone = await octokit.rest.teams.listReposInOrg({ org: 'acme', team_slug: 'core-team' });
	assert.equal(gone.data, []);
	const alternate = await octokit.request(`GET ${team.data.url}`);
	assert.is(alternate.data.id, team.data.id, '~> the team url field is followable');
});

test('pagination – octokit.paginate follows Link headers across pages', async () => {
	for (let i = 0; i < 7; i++) await octokit.rest.teams.create({ org: 'acme', name: `Paged ${i}`, privacy: 'closed' });
	const all = await octokit.paginate(octokit.rest.teams.list, { org: 'acme', per_page: 3 });
	const direct = await octokit.rest.teams.list({ org: 'acme', per_page: 100 });
	assert.is(all.length, direct.data.length);
	assert.equal(
		all.map((t) => t.id),
		direct.data.map((t) => t.id),
	);
});

test('outside collaborators – convert, list, remove', async () => {
	await octokit.rest.teams.addOrUpdateMembershipForUserInOrg({ org: 'acme', team_slug: 'core-team', username: 'carl' });
	await octokit.rest.teams.addOrUpdateRepoPermissionsInOrg({
		org: 'acme',
		team_slug: 'core-team',
		owner: 'acme',
		repo: 'widgets',
		permission: 'pull',
	});
	const converted = await octokit.rest.orgs.convertMemberToOutsideCollaborator({ org: 'acme', username: 'carl' });
	assert.is(converted.status, 204);
	const list = await octokit.rest.orgs.listOutsideCollaborators({ org: 'acme', filter: 'all' });
	assert.equal(
		list.data.map((u) => u.login),
		['carl'],
	);
	const refused = await octokit.rest.orgs.removeOutsideCollaborator({ org: 'acme', username: 'mike' }).catch((e) => e);
	assert.is(refused.status, 422);
	const removed = await octokit.rest.orgs.removeOutsideCollaborator({ org: 'acme', username: 'carl' });
	assert.is(removed.status, 204);
	assert.equal((await octokit.rest.orgs.listOutsideCollaborators({ org: 'acme' })).data, []);
	const lastOwner = await octokit.rest.orgs.convertMemberToOutsideCollaborator({ org: 'acme', username: 'olivia' }).catch((e) => e);
	assert.is(lastOwner.status, 403);
});

test('rate limit and conditional requests through octokit', async () => {
	const status = await octokit.rest.rateLimit.get();
	assert.is(status.data.resources.core.limit, 5000);
	const first = await octokit.rest.teams.list({ org: 'acme' });
	const notModified = await octokit.rest.teams.list({ org: 'acme', headers: { 'if-none-match': first.headers.etag! } }).catch((e) => e);
	assert.is(notModified.status, 304);
});

test.run();
