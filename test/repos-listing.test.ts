/**
 * Repositories: the full forms (repository and organization), the repository lists
 * (GET /user/repos, /users/{username}/repos, /repositories, /repositories/{repository_id}),
 * deletion, topics, languages and transfer, over real HTTP and through Octokit.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('repos-listing');
let s: TestServer;
let olivia: string; // owner of acme
let mia: string; // member of acme
let eve: string; // outsider

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mia', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mia');
	olivia = s.fullToken('olivia');
	mia = s.fullToken('mia');
	eve = s.fullToken('eve');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web', description: 'Web site' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
});
test.after(() => s.close());

test('full form: settings, organization, temp_clone_token, counts, permissions', async () => {
	const res = await s.get('/repos/acme/web', olivia);
	assert.is(res.status, 200);
	const repo = res.body;
	assert.is(repo.allow_forking, true, '~> forking allowed by default');
	assert.is(repo.web_commit_signoff_required, false);
	assert.is(repo.allow_update_branch, false);
	assert.is(repo.use_squash_pr_title_as_default, false);
	assert.is(repo.squash_merge_commit_title, 'COMMIT_OR_PR_TITLE');
	assert.is(repo.squash_merge_commit_message, 'COMMIT_MESSAGES');
	assert.is(repo.merge_commit_title, 'MERGE_MESSAGE');
	assert.is(repo.merge_commit_message, 'PR_TITLE');
	assert.is(repo.allow_auto_merge, false);
	assert.is(repo.delete_branch_on_merge, false);
	assert.is(repo.organization.login, 'acme', '~> an organization repository names its organization');
	assert.is(repo.organization.type, 'Organization');
	assert.is(repo.temp_clone_token, '', '~> temp_clone_token is a string in the full form');
	assert.is(repo.network_count, 0);
	assert.is(repo.subscribers_count, 1, '~> the creator watches it');
	assert.equal(repo.topics, []);
	assert.equal(repo.permissions, { admin: true, maintain: true, push: true, triage: true, pull: true });
	assert.ok(repo.security_and_analysis, '~> administrators see security_and_analysis');
	const member = await s.get('/repos/acme/web', mia);
	assert.is(member.body.permissions.admin, false, "~> the caller's own permissions");
	assert.is(member.body.security_and_analysis, undefined, '~> not shown to readers');
	const anonymous = await s.get('/repos/acme/web');
	assert.is(anonymous.body.permissions, undefined, '~> no permissions for an anonymous caller');
	const own = await s.request('POST', '/user/repos', { token: eve, body: { name: 'notes' } });
	assert.is(own.status, 201);
	assert.is(own.body.organization, undefined, "~> a user's repository has no organization");
	assert.is(own.body.temp_clone_token, '');
});

test('full form: a fork carries parent and source; a second fork request answers the same fork', async () => {
	const first = await s.request('POST', '/repos/acme/web/forks', { token: eve, body: {} });
	assert.is(first.status, 202);
	assert.is(first.body.fork, true);
	assert.is(first.body.parent.full_name, 'acme/web');
	assert.is(first.body.source.full_name, 'acme/web');
	const again = await s.request('POST', '/repos/acme/web/forks', { token: eve, body: {} });
	assert.is(again.status, 202, '~> 202 again');
	assert.is(again.body.id, first.body.id, '~> the fork that exists');
	s.user('finn');
	const deeper = await s.request('POST', '/repos/eve/web/forks', { token: s.fullToken('finn'), body: {} });
	assert.is(deeper.body.parent.full_name, 'eve/web', '~> parent: the repository forked');
	assert.is(deeper.body.source.full_name, 'acme/web', '~> source: the root of the network');
	const source = await s.get('/repos/acme/web', olivia);
	assert.is(source.body.forks_count, 1, '~> direct forks');
	assert.is(source.body.forks, 1);
	assert.is(source.body.network_count, 2, '~> every fork of the network');
});

test('allow_forking governs forks of private repositories', async () => {
	await s.request('PATCH', '/orgs/acme', { token: olivia, body: { members_can_fork_private_repositories: true } });
	await s.request('PATCH', '/repos/acme/vault', { token: olivia, body: { allow_forking: false } });
	const refused = await s.request('POST', '/repos/acme/vault/forks', { token: mia, body: { name: 'vault-fork' } });
	assert.is(refused.status, 403, '~> forking turned off');
	assert.is(refused.body.message, 'This repository does not allow forking.');
	await s.request('PATCH', '/repos/acme/vault', { token: olivia, body: { allow_forking: true } });
	const fork = await s.request('POST', '/repos/acme/vault/forks', { token: mia, body: { name: 'vault-fork' } });
	assert.is(fork.status, 202, '~> allowed again');
	assert.is(fork.body.private, true);
	assert.is((await s.request('DELETE', '/repos/mia/vault-fork', { token: mia })).status, 204);
	await s.request('PATCH', '/orgs/acme', { token: olivia, body: { members_can_fork_private_repositories: false } });
});

test('PATCH: merge and fork settings; 422 for values GitHub refuses', async () => {
	const res = await s.request('PATCH', '/repos/acme/web', {
		token: olivia,
		body: {
			allow_forking: false,
			web_commit_signoff_required: true,
			allow_update_branch: true,
			allow_auto_merge: true,
			delete_branch_on_merge: true,
			squash_merge_commit_title: 'PR_TITLE',
			squash_merge_commit_message: 'PR_BODY',
			merge_commit_title: 'PR_TITLE',
			merge_commit_message: 'BLANK',
		},
	});
	assert.is(res.status, 200);
	for (const key of ['web_commit_signoff_required', 'allow_update_branch', 'allow_auto_merge', 'delete_branch_on_merge']) {
		assert.is(res.body[key], true, `~> ${key} set`);
	}
	assert.is(res.body.allow_forking, false);
	assert.is(res.body.squash_merge_commit_title, 'PR_TITLE');
	assert.is(res.body.squash_merge_commit_message, 'PR_BODY');
	assert.is(res.body.use_squash_pr_title_as_default, true, '~> the deprecated switch follows the title');
	assert.is(res.body.merge_commit_title, 'PR_TITLE');
	assert.is(res.body.merge_commit_message, 'BLANK');
	const stored = await s.get('/repos/acme/web', olivia);
	assert.is(stored.body.merge_commit_message, 'BLANK', '~> stored');

	const bad = [
		{ squash_merge_commit_title: 'TITLE' },
		{ merge_commit_message: 'PR_BODY' },
		{ squash_merge_commit_title: 'COMMIT_OR_PR_TITLE', squash_merge_commit_message: 'PR_BODY' },
		{ merge_commit_title: 'MERGE_MESSAGE', merge_commit_message: 'BLANK' },
		{ allow_forking: 'yes' },
	];
	for (const body of bad) {
		const answer = await s.request('PATCH', '/repos/acme/web', { token: olivia, body });
		assert.is(answer.status, 422, `~> ${JSON.stringify(body)} refused`);
		assert.is(answer.body.message, 'Validation Failed');
		assert.is(answer.body.errors[0].resource, 'Repository');
	}
	const denied = await s.request('PATCH', '/repos/acme/web', { token: mia, body: { allow_forking: true } });
	assert.is(denied.status, 403, '~> admins only');
	assert.is(denied.body.message, 'Must have admin rights to Repository.');
	assert.is((await s.request('PATCH', '/repos/acme/vault', { token: eve, body: { allow_forking: true } })).status, 404, '~> hidden');
	assert.is((await s.request('PATCH', '/repos/acme/web', { body: { allow_forking: true } })).status, 401, '~> anonymous');
});

test('organization full form: members_can_* and plan for owners; PATCH takes the policies', async () => {
	const owner = await s.get('/orgs/acme', olivia);
	assert.is(owner.status, 200);
	for (const key of [
		'members_can_create_repositories',
		'members_can_create_public_repositories',
		'members_can_create_private_repositories',
		'members_can_create_internal_repositories',
		'members_can_create_pages',
		'members_can_create_public_pages',
		'members_can_create_private_pages',
		'members_can_delete_repositories',
		'members_can_change_repo_visibility',
		'members_can_invite_outside_collaborators',
		'members_can_delete_issues',
		'members_can_create_teams',
		'members_can_view_dependency_insights',
		'members_can_fork_private_repositories',
	]) {
		assert.type(owner.body[key], 'boolean', `~> ${key} shown`);
	}
	assert.equal(owner.body.plan, { name: 'free', space: 976562499, private_repos: 999999, filled_seats: 2, seats: 2 });
	assert.is((await s.get('/orgs/acme', mia)).body.plan, undefined, '~> plan: owners only');
	assert.is((await s.get('/orgs/acme', eve)).body.members_can_delete_repositories, undefined, '~> policies: members only');
	const res = await s.request('PATCH', '/orgs/acme', {
		token: olivia,
		body: { members_can_delete_repositories: false, members_can_delete_issues: true, members_can_create_public_repositories: false },
	});
	assert.is(res.status, 200);
	assert.is(res.body.members_can_delete_repositories, false);
	assert.is(res.body.members_can_delete_issues, true);
	assert.is(res.body.members_allowed_repository_creation_type, 'private', '~> the older summary follows');
	const invalid = await s.request('PATCH', '/orgs/acme', { token: olivia, body: { members_can_delete_repositories: 'no' } });
	assert.is(invalid.status, 422);
	const back = await s.request('PATCH', '/orgs/acme', { token: olivia, body: { members_allowed_repository_creation_type: 'all' } });
	assert.is(back.body.members_can_create_public_repositories, true);
	assert.is((await s.request('PATCH', '/orgs/acme', { token: mia, body: { members_can_delete_issues: false } })).status, 403);

	// The policies hold: creation by visibility, and changing visibility.
	await s.request('PATCH', '/orgs/acme', {
		token: olivia,
		body: { members_can_create_private_repositories: false, members_can_change_repo_visibility: false },
	});
	const privateByMember = await s.request('POST', '/orgs/acme/repos', { token: mia, body: { name: 'secret-plans', private: true } });
	assert.is(privateByMember.status, 403, '~> members may not create private repositories');
	assert.is(privateByMember.body.message, 'Members of acme may not create private repositories; ask an owner.');
	const mine = await s.request('POST', '/orgs/acme/repos', { token: mia, body: { name: 'mia-tools' } });
	assert.is(mine.status, 201, '~> public ones still');
	const hide = await s.request('PATCH', '/repos/acme/mia-tools', { token: mia, body: { private: true } });
	assert.is(hide.status, 403, '~> a repository administrator who is not an owner may not change visibility');
	assert.is(
		(await s.request('PATCH', '/repos/acme/mia-tools', { token: mia, body: { description: 'Tools' } })).status,
		200,
		'~> other changes still',
	);
	assert.is((await s.request('PATCH', '/repos/acme/mia-tools', { token: olivia, body: { private: true } })).status, 200, '~> owners may');
	await s.request('PATCH', '/orgs/acme', {
		token: olivia,
		body: { members_can_create_private_repositories: true, members_can_change_repo_visibility: true },
	});
	assert.is(
		(await s.request('PATCH', '/repos/acme/mia-tools', { token: mia, body: { private: false } })).status,
		200,
		'~> allowed again',
	);
});

test('GET /user/repos: affiliation, visibility, type, sort, since; 422 when type meets visibility or affiliation', async () => {
	s.user('lena');
	s.org('lab', 'olivia');
	s.member('lab', 'lena');
	const lena = s.fullToken('lena');
	await s.request('POST', '/user/repos', { token: lena, body: { name: 'zeta' } });
	await s.request('POST', '/user/repos', { token: lena, body: { name: 'Alpha', private: true } });
	await s.request('POST', '/orgs/lab/repos', { token: olivia, body: { name: 'shared', private: true } });
	await s.request('PATCH', '/orgs/lab', { token: olivia, body: { default_repository_permission: 'none' } });
	await s.request('POST', '/orgs/lab/repos', { token: olivia, body: { name: 'closed', private: true } });
	await s.request('POST', '/user/repos', { token: eve, body: { name: 'guest', private: true } });
	// lena collaborates on eve's private repository.
	s.app.stores.repos.setCollaborator(
		s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('eve')!.id, 'guest')!.id,
		s.app.stores.accounts.byLogin('lena')!.id,
		'push',
		'2026-01-01T00:00:00Z',
	);
	const names = async (query: string, token = lena) => {
		const res = await s.get(`/user/repos${query}`, token);
		assert.is(res.status, 200, `~> ${query} answers`);
		return res.body.map((repo: any) => repo.full_name);
	};
	assert.equal(
		await names(''),
		['eve/guest', 'lena/Alpha', 'lena/zeta'],
		'~> everything lena reads, by full_name (no base permission: not lab/closed)',
	);
	assert.equal(await names('?affiliation=owner'), ['lena/Alpha', 'lena/zeta']);
	assert.equal(await names('?affiliation=collaborator'), ['eve/guest']);
	assert.equal(await names('?visibility=public'), ['lena/zeta']);
	assert.equal(await names('?visibility=private&affiliation=owner,collaborator'), ['eve/guest', 'lena/Alpha']);
	assert.equal(await names('?type=owner'), ['lena/Alpha', 'lena/zeta']);
	assert.equal(await names('?type=member'), ['eve/guest']);
	assert.equal(await names('?type=private'), ['eve/guest', 'lena/Alpha']);
	assert.equal(await names('?sort=full_name&direction=desc'), ['lena/zeta', 'lena/Alpha', 'eve/guest']);
	assert.equal(await names('?sort=created&direction=asc'), ['lena/zeta', 'lena/Alpha', 'eve/guest'], '~> creation order');
	assert.equal(await names('?since=2999-01-01T00:00:00Z'), [], '~> since: updated after');
	assert.equal(await names('?before=2999-01-01T00:00:00Z&affiliation=owner'), ['lena/Alpha', 'lena/zeta'], '~> before: updated before');
	await s.request('PATCH', '/orgs/lab', { token: olivia, body: { default_repository_permission: 'read' } });
	assert.equal(
		await names('?affiliation=organization_member'),
		['lab/closed', 'lab/shared'],
		'~> organization repositories through the base permission',
	);
	const page = await s.get('/user/repos?per_page=2', lena);
	assert.is(page.body.length, 2);
	assert.match(page.headers.get('link') ?? '', /page=3>; rel="last"/, '~> paged with Link');
	assert.ok(page.body[0].permissions, '~> records carry the caller permissions');
	const publicOnly = await s.get('/user/repos', s.token('lena', { scopes: [] }));
	assert.equal(
		publicOnly.body.map((repo: any) => repo.full_name),
		['lena/zeta'],
		'~> a token without repo: public repositories only',
	);
	const bound = await s.get('/user/repos', s.token('lena', { kind: 'fine-grained', org: 'lab', permissions: { metadata: 'read' } }));
	assert.equal(
		bound.body.map((repo: any) => repo.full_name),
		['lab/closed', 'lab/shared'],
		"~> a token bound to lab: lab's repositories",
	);

	const conflict = await s.get('/user/repos?type=owner&visibility=public', lena);
	assert.is(conflict.status, 422, '~> type with visibility');
	assert.is(conflict.body.message, 'If you specify visibility or affiliation, you cannot specify type.');
	assert.is((await s.get('/user/repos?type=all&affiliation=owner', lena)).status, 422, '~> type with affiliation');
	for (const query of ['?visibility=secret', '?affiliation=friend', '?type=forks', '?sort=stars', '?since=yesterday']) {
		const bad = await s.get(`/user/repos${query}`, lena);
		assert.is(bad.status, 422, `~> ${query} refused`);
		assert.is(bad.body.message, 'Validation Failed');
	}
	assert.is((await s.get('/user/repos')).status, 401, '~> anonymous');
});

test('GET /users/{username}/repos: public ones, private ones only to who can read them; type, sort', async () => {
	const names = async (path: string, token?: string) => (await s.get(path, token)).body.map((repo: any) => repo.full_name);
	assert.equal(await names('/users/lena/repos'), ['lena/zeta'], '~> anonymous: public only');
	assert.equal(await names('/users/lena/repos', eve), ['lena/zeta'], '~> another user: public only');
	assert.equal(await names('/users/lena/repos', s.fullToken('lena')), ['lena/Alpha', 'lena/zeta'], '~> the user: private too');
	assert.equal(await names('/users/lena/repos?type=member', eve), ['eve/guest'], '~> eve reads her own repository lena collaborates on');
	assert.equal(await names('/users/lena/repos?type=member'), [], '~> hidden from anonymous');
	assert.equal(await names('/users/lena/repos?sort=full_name&direction=desc', s.fullToken('lena')), ['lena/zeta', 'lena/Alpha']);
	assert.equal(
		await names('/users/acme/repos', mia),
		['acme/mia-tools', 'acme/vault', 'acme/web'],
		"~> an organization's repositories as the caller reads them",
	);
	assert.equal(await names('/users/acme/repos'), ['acme/mia-tools', 'acme/web']);
	assert.is((await s.get('/users/nobody/repos')).status, 404);
	assert.is((await s.get('/users/lena/repos?type=forks')).status, 422);
});

test('GET /repositories: public repositories in id order, Link with since and no page numbers', async () => {
	const first = await s.get('/repositories?per_page=2');
	assert.is(first.status, 200);
	assert.is(first.body.length, 2);
	assert.ok(
		first.body.every((repo: any) => repo.private === false),
		'~> public only',
	);
	assert.ok(first.body[0].id < first.body[1].id, '~> id order');
	const link = first.headers.get('link') ?? '';
	assert.match(link, `since=${first.body[1].id}>; rel="next"`, '~> next by since');
	assert.not.match(link, /[?&]page=/, '~> no page numbers');
	const next = await s.get(link.slice(link.indexOf('<') + 1 + s.api.length, link.indexOf('>')));
	assert.ok(next.body[0].id > first.body[1].id, '~> the next page starts after since');
	const all = await s.get('/repositories?per_page=100', olivia);
	assert.not.ok(
		all.body.some((repo: any) => repo.name === 'vault'),
		'~> never a private one, whoever asks',
	);
	assert.is((await s.get('/repositories?since=abc')).status, 422);
});

test('GET /repositories/{repository_id}: guarded like the repository', async () => {
	const vault = (await s.get('/repos/acme/vault', olivia)).body;
	const res = await s.get(`/repositories/${vault.id}`, olivia);
	assert.is(res.status, 200);
	assert.is(res.body.full_name, 'acme/vault');
	assert.is(res.body.temp_clone_token, '', '~> the full form');
	assert.is((await s.get(`/repositories/${vault.id}`, eve)).status, 404, '~> hidden private repository');
	assert.is((await s.get(`/repositories/${vault.id}`)).status, 404, '~> anonymous: hidden');
	assert.is((await s.get('/repositories/999999')).status, 404);
	assert.is((await s.get('/repositories/abc')).status, 404);
	const web = (await s.get('/repos/acme/web')).body;
	assert.is((await s.get(`/repositories/${web.id}`)).body.full_name, 'acme/web', '~> public to anyone');
});

test('DELETE /repos/{owner}/{repo}: admins, the organization policy, everything deleted, the deleted webhook', async () => {
	s.user('ada');
	s.org('works', 'olivia');
	s.member('works', 'ada');
	const ada = s.fullToken('ada');
	const made = await s.request('POST', '/orgs/works/repos', { token: ada, body: { name: 'gone' } });
	assert.is(made.status, 201);
	// Things inside it, to see them go.
	const issue = await s.request('POST', '/repos/works/gone/issues', { token: ada, body: { title: 'Bug' } });
	assert.is(issue.status, 201);
	await s.request('PUT', '/user/starred/works/gone', { token: eve });
	const repoId = made.body.id;
	const hook = await s.request('POST', '/orgs/works/hooks', {
		token: olivia,
		body: { name: 'web', config: { url: 'https://hooks.example.com/works', content_type: 'json' }, events: ['repository'] },
	});
	assert.is(hook.status, 201);

	assert.is((await s.request('DELETE', '/repos/works/gone')).status, 401, '~> anonymous');
	assert.is((await s.request('DELETE', '/repos/works/gone', { token: eve })).status, 403, '~> a reader of a public repository: 403');
	const noScope = await s.request('DELETE', '/repos/works/gone', { token: s.token('ada', { scopes: ['repo'] }) });
	assert.is(noScope.status, 403, '~> classic tokens need delete_repo');
	assert.match(noScope.body.message, 'delete_repo');
	assert.is((await s.request('DELETE', '/repos/acme/vault', { token: eve })).status, 404, '~> hidden private repository');

	await s.request('PATCH', '/orgs/works', { token: olivia, body: { members_can_delete_repositories: false } });
	const refused = await s.request('DELETE', '/repos/works/gone', { token: ada });
	assert.is(refused.status, 403, '~> an administrator who is not an owner, when the policy forbids');
	assert.is(refused.body.message, 'Must have admin rights to Repository.');
	await s.request('PATCH', '/orgs/works', { token: olivia, body: { members_can_delete_repositories: true } });

	const res = await s.request('DELETE', '/repos/works/gone', { token: ada });
	assert.is(res.status, 204, '~> allowed again: deleted');
	assert.is(res.text, '');
	assert.is((await s.get('/repos/works/gone', ada)).status, 404, '~> gone');
	const db = s.app.db;
	for (const table of ['issues', 'labels', 'stars', 'repository_subscriptions', 'repository_collaborators']) {
		assert.is(db.prepare(`SELECT count(*) FROM ${table} WHERE repo_id = ?`).pluck().get(repoId), 0, `~> ${table} rows deleted`);
	}
	const deliveries = s.app.stores.webhooks.deliveries({ hookId: hook.body.id, status: null, limit: 10, offset: 0 });
	const deleted = deliveries.rows.find((row: any) => row.action === 'deleted');
	assert.ok(deleted, '~> the organization hook got repository deleted');
	assert.is(deleted!.event, 'repository');
	assert.is(JSON.parse(deleted!.payload).repository.full_name, 'works/gone', '~> the repository as it was');

	// Owners delete whatever the policy.
	await s.request('POST', '/orgs/works/repos', { token: ada, body: { name: 'second' } });
	await s.request('PATCH', '/orgs/works', { token: olivia, body: { members_can_delete_repositories: false } });
	assert.is((await s.request('DELETE', '/repos/works/second', { token: olivia })).status, 204, '~> an owner always may');
	const own = await s.request('POST', '/user/repos', { token: ada, body: { name: 'mine' } });
	assert.is(own.status, 201);
	assert.is((await s.request('DELETE', '/repos/ada/mine', { token: ada })).status, 204, "~> a user's own repository");
});

test('topics: GET and PUT, lowercase, in the repository forms; 422 for names GitHub refuses', async () => {
	const empty = await s.get('/repos/acme/web/topics');
	assert.is(empty.status, 200);
	assert.equal(empty.body, { names: [] });
	const res = await s.request('PUT', '/repos/acme/web/topics', { token: olivia, body: { names: ['Web', 'static-site', 'web', 'go2'] } });
	assert.is(res.status, 200);
	assert.equal(res.body, { names: ['web', 'static-site', 'go2'] }, '~> lowercase, each once, in order');
	assert.equal((await s.get('/repos/acme/web/topics', eve)).body.names, ['web', 'static-site', 'go2']);
	assert.equal((await s.get('/repos/acme/web')).body.topics, ['web', 'static-site', 'go2'], '~> the full form');
	const listed = (await s.get('/orgs/acme/repos?sort=full_name', olivia)).body.find((repo: any) => repo.name === 'web');
	assert.equal(listed.topics, ['web', 'static-site', 'go2'], '~> the list form');

	for (const names of [['-web'], ['has space'], ['a'.repeat(51)], ['ünï'], Array.from({ length: 21 }, (_, i) => `t${i}`)]) {
		const bad = await s.request('PUT', '/repos/acme/web/topics', { token: olivia, body: { names } });
		assert.is(bad.status, 422, `~> ${names.slice(0, 2).join(',')} refused`);
		assert.is(bad.body.message, 'Validation Failed');
		// GitHub's validation-error-simple: each error a sentence.
		assert.type(bad.body.errors[0], 'string', '~> errors are sentences, as GitHub documents this route');
		assert.ok(bad.body.errors[0].length > 0);
	}
	assert.is(
		(await s.request('PUT', '/repos/acme/web/topics', { token: olivia, body: { names: 'web' } })).status,
		422,
		'~> names must be an array',
	);
	assert.is((await s.request('PUT', '/repos/acme/web/topics', { token: olivia, body: {} })).status, 422, '~> names required');
	assert.is((await s.request('PUT', '/repos/acme/web/topics', { token: mia, body: { names: [] } })).status, 403, '~> a reader may not');
	assert.is((await s.request('PUT', '/repos/acme/web/topics', { body: { names: [] } })).status, 401, '~> anonymous');
	assert.is((await s.request('PUT', '/repos/acme/vault/topics', { token: eve, body: { names: [] } })).status, 404, '~> hidden');
	assert.is((await s.get('/repos/acme/vault/topics', eve)).status, 404, '~> hidden');
	const webId = (await s.get('/repos/acme/web')).body.id;
	const editedCount = () =>
		s.app.db
			.prepare("SELECT count(*) FROM events WHERE event = 'repository' AND action = 'edited' AND repo_id = ?")
			.pluck()
			.get(webId) as number;
	const editedBefore = editedCount();
	assert.ok(editedBefore >= 1, '~> repository edited recorded');
	const unchanged = await s.request('PUT', '/repos/acme/web/topics', { token: olivia, body: { names: ['web', 'static-site', 'go2'] } });
	assert.is(unchanged.status, 200, '~> the same topics again: nothing to change');
	assert.is(editedCount(), editedBefore, '~> and no event');
	const max = Array.from({ length: 20 }, (_, i) => `topic-${i}`);
	assert.equal(
		(await s.request('PUT', '/repos/acme/web/topics', { token: olivia, body: { names: max } })).body.names,
		max,
		'~> 20 topics',
	);
	assert.equal((await s.request('PUT', '/repos/acme/web/topics', { token: olivia, body: { names: [] } })).body.names, [], '~> cleared');
});

test('languages: bytes per language from the default branch blobs, largest first, programming and markup only', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'polyglot' } });
	const git = async (path: string, body: unknown) => {
		const res = await s.request('POST', `/repos/acme/polyglot/git/${path}`, { token: olivia, body });
		assert.is(res.status, 201, `~> ${path} created: ${res.text}`);
		return res.body.sha as string;
	};
	assert.equal((await s.get('/repos/acme/polyglot/languages')).body, {}, '~> no default branch: {}');
	const blob = (text: string) => git('blobs', { content: text, encoding: 'utf-8' });
	const ts = await blob('x'.repeat(300));
	const py = await blob('y'.repeat(120));
	const html = await blob('<p>hi</p>');
	const md = await blob('# Read me, a long document '.repeat(20));
	const json = await blob('{"a":1}'.repeat(50));
	const vendored = await blob('z'.repeat(5000));
	const make = await blob('all:\n\ttrue\n');
	const src = await git('trees', {
		tree: [
			{ path: 'app.ts', mode: '100644', type: 'blob', sha: ts },
			{ path: 'util.ts', mode: '100644', type: 'blob', sha: ts },
			{ path: 'tool.py', mode: '100755', type: 'blob', sha: py },
			{ path: 'node_modules/lib.js', mode: '100644', type: 'blob', sha: vendored },
		],
	});
	const root = await git('trees', {
		tree: [
			{ path: 'src', mode: '040000', type: 'tree', sha: src },
			{ path: 'index.html', mode: '100644', type: 'blob', sha: html },
			{ path: 'README.md', mode: '100644', type: 'blob', sha: md },
			{ path: 'package.json', mode: '100644', type: 'blob', sha: json },
			{ path: 'Makefile', mode: '100644', type: 'blob', sha: make },
			{ path: 'link.ts', mode: '120000', type: 'blob', sha: ts },
		],
	});
	const commit = await git('commits', { message: 'Start', tree: root, parents: [] });
	const ref = await s.request('POST', '/repos/acme/polyglot/git/refs', { token: olivia, body: { ref: 'refs/heads/main', sha: commit } });
	assert.is(ref.status, 201);
	const res = await s.get('/repos/acme/polyglot/languages');
	assert.is(res.status, 200);
	assert.equal(
		res.body,
		{ TypeScript: 600, Python: 120, Makefile: 11, HTML: 9 },
		'~> code only: no Markdown (prose), JSON (data), vendored files or links',
	);
	assert.equal(Object.keys(res.body), ['TypeScript', 'Python', 'Makefile', 'HTML'], '~> largest first');
	const again = await s.get('/repos/acme/polyglot/languages');
	assert.equal(again.body, res.body, '~> the same from the cache');
	assert.is((await s.get('/repos/acme/vault/languages', eve)).status, 404, '~> hidden');
	assert.is((await s.get('/repos/acme/vault/languages', olivia)).status, 200);
});

test('transfer: to an organization the caller may create in, to the caller; 422 otherwise; the old name redirects', async () => {
	s.user('tom');
	s.org('studio', 'olivia');
	s.member('studio', 'tom');
	const tom = s.fullToken('tom');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'app', private: true } });
	const crew = await s.request('POST', '/orgs/studio/teams', { token: olivia, body: { name: 'Crew', permission: 'push' } });
	assert.is(crew.status, 201);
	const hook = await s.request('POST', '/orgs/studio/hooks', {
		token: olivia,
		body: { name: 'web', config: { url: 'https://hooks.example.com/studio', content_type: 'json' }, events: ['repository'] },
	});

	const path = '/repos/acme/app/transfer';
	assert.is((await s.request('POST', path, { body: { new_owner: 'studio' } })).status, 401, '~> anonymous');
	assert.is((await s.request('POST', path, { token: mia, body: { new_owner: 'studio' } })).status, 403, '~> a reader');
	assert.is((await s.request('POST', path, { token: eve, body: { new_owner: 'eve' } })).status, 404, '~> hidden');
	for (const body of [{}, { new_owner: 5 }, { new_owner: 'studio', team_ids: ['x'] }]) {
		const bad = await s.request('POST', path, { token: olivia, body });
		assert.is(bad.status, 422, `~> ${JSON.stringify(body)} invalid`);
		assert.is(bad.body.message, 'Validation Failed');
	}
	const toStranger = await s.request('POST', path, { token: olivia, body: { new_owner: 'eve' } });
	assert.is(toStranger.status, 422, '~> another user: GitHub would invite; refused here');
	assert.is(toStranger.body.errors[0].field, 'new_owner');
	assert.is((await s.request('POST', path, { token: olivia, body: { new_owner: 'nobody' } })).status, 422, '~> unknown owner');
	assert.is(
		(await s.request('POST', path, { token: olivia, body: { new_owner: 'studio', team_ids: [999999] } })).status,
		422,
		'~> a team elsewhere',
	);
	await s.request('POST', '/orgs/studio/repos', { token: olivia, body: { name: 'taken' } });
	assert.is(
		(await s.request('POST', path, { token: olivia, body: { new_owner: 'studio', new_name: 'taken' } })).status,
		422,
		'~> name taken',
	);

	const res = await s.request('POST', path, {
		token: olivia,
		body: { new_owner: 'studio', new_name: 'studio-app', team_ids: [crew.body.id] },
	});
	assert.is(res.status, 202);
	assert.is(res.body.full_name, 'studio/studio-app');
	assert.is(res.body.owner.login, 'studio');
	assert.is(res.body.private, true);
	const teamRepo = await s.get(`/orgs/studio/teams/crew/repos/studio/studio-app`, olivia);
	assert.is(teamRepo.status, 204, '~> the team named was granted the repository (GitHub answers 204)');
	const old = await s.get('/repos/acme/app', olivia);
	assert.is(old.status, 301, '~> the old name redirects');
	assert.is(old.headers.get('location'), `${s.api}/repos/studio/studio-app`);
	const write = await s.request('PATCH', '/repos/acme/app', { token: olivia, body: { description: 'x' } });
	assert.is(write.status, 307, '~> writes too, with 307');
	assert.is((await s.get('/repos/acme/app', eve)).status, 404, '~> not to who cannot read it');
	const deliveries = s.app.stores.webhooks.deliveries({ hookId: hook.body.id, status: null, limit: 10, offset: 0 });
	const transferred = deliveries.rows.find((row) => row.action === 'transferred');
	assert.ok(transferred, "~> the new organization's hook got repository transferred");
	const payload = JSON.parse(transferred!.payload);
	assert.is(payload.changes.owner.from.organization.login, 'acme', '~> changes.owner.from names the former owner');
	assert.is(payload.repository.full_name, 'studio/studio-app');
	assert.is(payload.organization.login, 'studio');
	assert.is(payload.sender.login, 'olivia');

	// A member moves their own repository into the organization, which lets members create repositories.
	await s.request('POST', '/user/repos', { token: tom, body: { name: 'sketch' } });
	const intoOrg = await s.request('POST', '/repos/tom/sketch/transfer', { token: tom, body: { new_owner: 'studio' } });
	assert.is(intoOrg.status, 202, '~> a member may');
	assert.is(intoOrg.body.full_name, 'studio/sketch');
	await s.request('PATCH', '/orgs/studio', { token: olivia, body: { members_can_create_repositories: false } });
	await s.request('POST', '/user/repos', { token: tom, body: { name: 'draft' } });
	assert.is(
		(await s.request('POST', '/repos/tom/draft/transfer', { token: tom, body: { new_owner: 'studio' } })).status,
		422,
		'~> not when members may not create',
	);
	// An owner takes a repository back to their own account.
	const back = await s.request('POST', '/repos/studio/sketch/transfer', { token: olivia, body: { new_owner: 'olivia' } });
	assert.is(back.status, 202);
	assert.is(back.body.full_name, 'olivia/sketch');
	assert.is(back.body.organization, undefined);
});

test('Octokit: repos.listForAuthenticatedUser and repos.get', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit: Octokit = new Octokit({
		auth: s.fullToken('lena'),
		baseUrl: s.api,
		log: { debug() {}, info() {}, warn() {}, error() {} },
	});
	const all = await octokit.paginate(octokit.rest.repos.listForAuthenticatedUser, { per_page: 1 });
	assert.ok(all.length >= 3, '~> paginated through Link');
	assert.ok(all.some((repo) => repo.full_name === 'lena/Alpha'));
	const got = await octokit.rest.repos.get({ owner: 'lena', repo: 'Alpha' });
	assert.is(got.data.private, true);
	assert.is(got.data.temp_clone_token, '');
	try {
		await octokit.rest.repos.listForAuthenticatedUser({ type: 'owner', visibility: 'all' });
		assert.unreachable('~> 422 thrown');
	} catch (error: any) {
		assert.is(error.status, 422);
	}
});

test.run();
