/**
 * Repositories: get and update (GitHub's repos API; creation is covered with teams, members and
 * auth).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('repos');
let s: TestServer;
let olivia: string; // owner of acme
let mia: string; // member of acme (read)

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mia', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mia');
	olivia = s.fullToken('olivia');
	mia = s.fullToken('mia');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web', description: 'Web site' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'api' } });
});
test.after(() => s.close());

test('update: fields, rename, visibility; the answer is the updated repository', async () => {
	const res = await s.request('PATCH', '/repos/acme/web', {
		token: olivia,
		body: {
			name: 'site',
			description: 'The site',
			homepage: 'https://example.com',
			private: true,
			has_wiki: false,
			default_branch: 'trunk',
		},
	});
	assert.is(res.status, 200);
	assert.is(res.body.full_name, 'acme/site');
	assert.is(res.body.url, `${s.api}/repos/acme/site`);
	assert.is(res.body.description, 'The site');
	assert.is(res.body.homepage, 'https://example.com');
	assert.is(res.body.private, true);
	assert.is(res.body.visibility, 'private');
	assert.is(res.body.has_wiki, false);
	assert.is(res.body.default_branch, 'trunk');
	const old = await s.get('/repos/acme/web', olivia);
	assert.is(old.status, 301, '~> the old name redirects to the new one');
	assert.match(old.headers.get('location')!, /\/repos\/acme\/[^/]+$/);
	assert.is((await s.get('/repos/acme/site', mia)).status, 200, '~> members still see it (base permission)');
	assert.is((await s.get('/repos/acme/site', s.fullToken('eve'))).status, 404, '~> private now');
	const internal = await s.request('PATCH', '/repos/acme/site', { token: olivia, body: { visibility: 'internal' } });
	assert.is(internal.body.visibility, 'internal');
});

test('security_and_analysis: shown to administrators, switched by PATCH', async () => {
	const before = await s.get('/repos/acme/api', olivia);
	assert.equal(before.body.security_and_analysis, {
		advanced_security: { status: 'disabled' },
		dependabot_delegated_alert_dismissal: { status: 'disabled' },
		dependabot_security_updates: { status: 'disabled' },
		secret_scanning: { status: 'disabled' },
		secret_scanning_push_protection: { status: 'disabled' },
		secret_scanning_non_provider_patterns: { status: 'disabled' },
		secret_scanning_validity_checks: { status: 'disabled' },
	});
	assert.is((await s.get('/repos/acme/api', mia)).body.security_and_analysis, undefined, '~> not to readers');
	const res = await s.request('PATCH', '/repos/acme/api', {
		token: olivia,
		body: {
			security_and_analysis: {
				advanced_security: { status: 'enabled' },
				dependabot_delegated_alert_dismissal: { status: 'enabled' },
			},
		},
	});
	assert.equal(res.body.security_and_analysis.advanced_security, { status: 'enabled' });
	assert.equal(res.body.security_and_analysis.dependabot_delegated_alert_dismissal, { status: 'enabled' });
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'api')!;
	assert.equal([repo.advanced_security, repo.delegated_alert_dismissal], [1, 1]);
});

test('archived repositories are read-only until unarchived; has_issues turns issues off', async () => {
	assert.is((await s.request('PATCH', '/repos/acme/api', { token: olivia, body: { archived: true } })).body.archived, true);
	const edit = await s.request('PATCH', '/repos/acme/api', { token: olivia, body: { description: 'x' } });
	assert.is(edit.status, 403);
	assert.is(edit.body.message, 'Repository was archived so is read-only.');
	assert.is((await s.request('POST', '/repos/acme/api/issues', { token: olivia, body: { title: 't' } })).status, 403);
	assert.is((await s.request('PATCH', '/repos/acme/api', { token: olivia, body: { archived: false } })).body.archived, false);
	await s.request('PATCH', '/repos/acme/api', { token: olivia, body: { has_issues: false } });
	assert.is((await s.request('POST', '/repos/acme/api/issues', { token: olivia, body: { title: 't' } })).status, 410);
});

test('update: validation and denial', async () => {
	assert.is((await s.request('PATCH', '/repos/acme/api', { token: olivia, body: { name: 'site' } })).status, 422, '~> taken');
	assert.is((await s.request('PATCH', '/repos/acme/api', { token: olivia, body: { name: 'x.git' } })).status, 422);
	assert.is((await s.request('PATCH', '/repos/acme/api', { token: olivia, body: { visibility: 'secret' } })).status, 422);
	assert.is(
		(
			await s.request('PATCH', '/repos/acme/api', {
				token: olivia,
				body: { security_and_analysis: { advanced_security: { status: 'on' } } },
			})
		).status,
		422,
	);
	assert.is((await s.request('PATCH', '/repos/acme/api', { token: mia, body: { description: 'x' } })).status, 403, '~> readers cannot');
	assert.is(
		(await s.request('PATCH', '/repos/acme/api', { token: s.fullToken('eve'), body: { description: 'x' } })).status,
		403,
		'~> public, not theirs: 403',
	);
	assert.is(
		(await s.request('PATCH', '/repos/acme/site', { token: s.fullToken('eve'), body: { description: 'x' } })).status,
		404,
		'~> hidden: 404',
	);
	assert.is((await s.request('PATCH', '/repos/acme/api', { body: { description: 'x' } })).status, 401);
	const publicOnly = s.token('olivia', { scopes: ['public_repo'] });
	assert.is((await s.request('PATCH', '/repos/acme/api', { token: publicOnly, body: { private: true } })).status, 403);
	const user = await s.request('POST', '/user/repos', { token: s.fullToken('eve'), body: { name: 'mine' } });
	assert.is(user.status, 201);
	assert.is((await s.request('PATCH', '/repos/eve/mine', { token: s.fullToken('eve'), body: { visibility: 'internal' } })).status, 422);
});

// ----- finding 2 of the hostile-input review: private forks (regressions)

test('private forks – members_can_fork_private_repositories (off by default) decides who forks a private repository', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'secret', private: true } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'open' } });
	const org = await s.get('/orgs/acme', olivia);
	assert.is(org.body.members_can_fork_private_repositories, false, '~> off by default, shown to owners');
	const refused = await s.request('POST', '/repos/acme/secret/forks', { token: mia, body: {} });
	assert.is(refused.status, 403, '~> forking a private organization repository needs the setting');
	assert.match(refused.body.message, 'private repository forking');
	assert.is(
		(await s.request('POST', '/repos/acme/open/forks', { token: mia, body: { name: 'open-fork' } })).status,
		202,
		'~> public repositories fork freely',
	);
	const patched = await s.request('PATCH', '/orgs/acme', { token: olivia, body: { members_can_fork_private_repositories: true } });
	assert.is(patched.body.members_can_fork_private_repositories, true);
	const fork = await s.request('POST', '/repos/acme/secret/forks', { token: mia, body: {} });
	assert.is(fork.status, 202);
	assert.is(fork.body.full_name, 'mia/secret');
	assert.is(fork.body.private, true, '~> the fork stays private');
});

test('private forks – a user who loses read access loses their forks of private repositories, in the same change', async () => {
	assert.is((await s.get('/repos/mia/secret', mia)).status, 200, '~> the fork of the previous test');
	// Base permission lowered: mia reads nothing private any more.
	await s.request('PATCH', '/orgs/acme', { token: olivia, body: { default_repository_permission: 'none' } });
	assert.is((await s.get('/repos/mia/secret', mia)).status, 404, '~> the private fork went with the access');
	assert.is((await s.get('/repos/mia/open-fork', mia)).status, 200, '~> a fork of a public repository stays');
	// Through a team: access given, fork made, team membership removed.
	await s.request('PATCH', '/orgs/acme', { token: olivia, body: { default_repository_permission: 'read' } });
	const fork = await s.request('POST', '/repos/acme/secret/forks', { token: mia, body: { name: 'secret-2' } });
	assert.is(fork.status, 202);
	await s.request('PATCH', '/orgs/acme', { token: olivia, body: { default_repository_permission: 'none' } });
	assert.is((await s.get('/repos/mia/secret-2', mia)).status, 404);
	await s.request('POST', '/orgs/acme/teams', {
		token: olivia,
		body: { name: 'Readers', repo_names: ['acme/secret'], privacy: 'closed' },
	});
	await s.request('PUT', '/orgs/acme/teams/readers/memberships/mia', { token: olivia, body: {} });
	assert.is((await s.request('POST', '/repos/acme/secret/forks', { token: mia, body: { name: 'secret-3' } })).status, 202);
	assert.is((await s.request('DELETE', '/orgs/acme/teams/readers/memberships/mia', { token: olivia })).status, 204);
	assert.is((await s.get('/repos/mia/secret-3', mia)).status, 404, '~> leaving the team took the fork');
	// Removed from the organization.
	await s.request('PUT', '/orgs/acme/teams/readers/memberships/mia', { token: olivia, body: {} });
	assert.is((await s.request('POST', '/repos/acme/secret/forks', { token: mia, body: { name: 'secret-4' } })).status, 202);
	assert.is((await s.request('DELETE', '/orgs/acme/members/mia', { token: olivia })).status, 204);
	assert.is((await s.get('/repos/mia/secret-4', mia)).status, 404, '~> leaving the organization took the fork');
	assert.is((await s.get('/repos/mia/open-fork', mia)).status, 200);
	const owners = await s.get('/repos/acme/secret', olivia);
	assert.is(owners.status, 200, '~> the source is untouched');
	s.member('acme', 'mia');
	await s.request('PATCH', '/orgs/acme', { token: olivia, body: { default_repository_permission: 'read' } });
});

test('renamed: the old name redirects (301 for reads, 307 for writes, Location and url) for callers who can read it; 404 otherwise; a new repository takes the name back', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'old-name' } });
	await s.request('POST', '/repos/acme/old-name/issues', { token: olivia, body: { title: 'Before the rename' } });
	const renamed = await s.request('PATCH', '/repos/acme/old-name', { token: olivia, body: { name: 'new-name' } });
	assert.is(renamed.status, 200);

	const read = await s.get('/repos/acme/old-name/issues?state=all&per_page=5', mia);
	assert.is(read.status, 301, '~> a read of the old name: 301');
	assert.is(
		read.headers.get('location'),
		`${s.api}/repos/acme/new-name/issues?state=all&per_page=5`,
		'~> to the same path and query under the new name',
	);
	assert.is(read.body.message, 'Moved Permanently');
	assert.is(read.body.url, read.headers.get('location'));
	const followed = await fetch(read.headers.get('location')!, { headers: { Authorization: `Bearer ${mia}` } });
	assert.is(followed.status, 200, '~> which answers');
	const network = await s.get('/networks/acme/old-name/events', mia);
	assert.is(network.status, 301, '~> the network feed too, as GitHub does');
	assert.is(network.headers.get('location'), `${s.api}/networks/acme/new-name/events`);

	const write = await s.request('POST', '/repos/acme/old-name/issues', { token: olivia, body: { title: 'After' } });
	assert.is(write.status, 307, '~> a write: 307 (the client repeats the method and body)');
	assert.is(write.body.message, 'Temporary Redirect');

	await s.request('PATCH', '/repos/acme/new-name', { token: olivia, body: { private: true } });
	assert.is(
		(await s.get('/repos/acme/old-name', s.fullToken('eve'))).status,
		404,
		'~> a private repository stays hidden from who cannot read it',
	);
	assert.is((await s.get('/repos/acme/old-name', olivia)).status, 301);
	assert.is((await s.get('/repos/acme/never-was', olivia)).status, 404, '~> a name nothing had: 404');

	const taken = await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'old-name' } });
	assert.is(taken.status, 201);
	const again = await s.get('/repos/acme/old-name', olivia);
	assert.is(again.status, 200, '~> the name belongs to the new repository now');
	assert.is(again.body.id, taken.body.id);
	const { octokitFor } = {
		octokitFor: async (token: string) =>
			new (await import('@octokit/rest')).Octokit({
				auth: token,
				baseUrl: s.api,
				log: { debug() {}, info() {}, warn() {}, error() {} },
			}),
	};
	await s.request('PATCH', '/repos/acme/new-name', { token: olivia, body: { name: 'newest-name', private: false } });
	const octokit = await octokitFor(mia);
	const viaOldName = await octokit.rest.repos.get({ owner: 'acme', repo: 'new-name' });
	assert.is(viaOldName.data.name, 'newest-name', '~> Octokit follows the redirect');
});

test.run();
