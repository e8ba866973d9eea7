/**
 * Repositories, issue #10: the full forms (repository and organization), the repository lists
 * (GET /user/repos, /users/{username}/repos, /repositories, /repositories/{repository_id}),
 * deletion, topics, languages and transfer, over real HTTP and through Octokit.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' } }).Octokit;

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
		'members_can_create_repositories', 'members_can_create_public_repositories', 'members_can_create_private_repositories',
		'members_can_create_internal_repositories', 'members_can_create_pages', 'members_can_create_public_pages',
		'members_can_create_private_pages', 'members_can_delete_repositories', 'members_can_change_repo_visibility',
		'members_can_invite_outside_collaborators', 'members_can_delete_issues', 'members_can_create_teams',
		'members_can_view_dependency_insights', 'members_can_fork_private_repositories',
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
});

test.run();
