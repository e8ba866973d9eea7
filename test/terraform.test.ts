/**
 * The Terraform GitHub provider (integrations/github 6.x) replayed over HTTP: each test sends the
 * requests a resource's Create/Update makes, in the provider's order and with its bodies (empty
 * template names, `null` organization settings, …), then reads the resource back as its Read does
 * with the ETag of the first read, and checks that a second read (what `terraform plan` compares)
 * equals what was written: nothing would be planned.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('terraform');
let s: TestServer;
let owner: string;
let member: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
});
test.after(() => s.close());

/** GET twice, the second time with the first answer's ETag (the provider's conditional reads): 304, same body. */
async function readBack(path: string, token = owner) {
	const first = await s.get(path, token);
	const etag = first.headers.get('etag');
	if (etag) {
		const again = await s.get(path, token, { 'If-None-Match': etag });
		assert.is(again.status, 304, `~> ${path}: unchanged, 304 to its ETag`);
	}
	const second = await s.get(path, token);
	assert.equal(second.body, first.body, `~> ${path}: a second read equals the first`);
	return first;
}

test('github_repository: empty templates ignored, vulnerability alerts and security fixes set, read back unchanged', async () => {
	const body = {
		name: 'infra',
		description: 'Managed by Terraform',
		homepage: '',
		private: false,
		visibility: 'public',
		has_issues: true,
		has_discussions: false,
		has_projects: false,
		has_downloads: true,
		has_wiki: false,
		is_template: false,
		allow_merge_commit: true,
		allow_squash_merge: true,
		allow_rebase_merge: true,
		allow_auto_merge: false,
		delete_branch_on_merge: false,
		auto_init: true,
		license_template: '',
		gitignore_template: '',
	};
	const created = await s.request('POST', '/orgs/acme/repos', { token: owner, body });
	assert.is(created.status, 201, JSON.stringify(created.body));
	assert.is(created.body.license, null, '~> "" is no license template');
	const tree = await s.get('/repos/acme/infra/contents/', owner);
	assert.equal(
		tree.body.map((f: any) => f.name),
		['README.md'],
		'~> no LICENSE, no .gitignore',
	);
	const mine = await s.request('POST', '/user/repos', {
		token: member,
		body: { name: 'dots', license_template: '', gitignore_template: '' },
	});
	assert.is(mine.status, 201, '~> /user/repos too');
	assert.is((await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'x', license_template: 'nope' } })).status, 422);

	// vulnerability_alerts = false is the provider's default: DELETE after every create.
	assert.is((await s.request('DELETE', '/repos/acme/infra/vulnerability-alerts', { token: owner })).status, 204);
	assert.is((await s.get('/repos/acme/infra/vulnerability-alerts', owner)).status, 404, '~> disabled: 404');
	assert.is((await s.request('PUT', '/repos/acme/infra/vulnerability-alerts', { token: owner })).status, 204);
	assert.is((await s.get('/repos/acme/infra/vulnerability-alerts', owner)).status, 204, '~> enabled: 204');
	assert.equal((await s.get('/repos/acme/infra/automated-security-fixes', owner)).body, { enabled: false, paused: false });
	assert.is((await s.request('PUT', '/repos/acme/infra/automated-security-fixes', { token: owner })).status, 204);
	assert.equal((await s.get('/repos/acme/infra/automated-security-fixes', owner)).body, { enabled: true, paused: false });
	assert.is((await s.request('DELETE', '/repos/acme/infra/automated-security-fixes', { token: owner })).status, 204);
	assert.equal((await s.get('/repos/acme/infra/automated-security-fixes', owner)).body.enabled, false);
	assert.is((await s.get('/repos/acme/infra/vulnerability-alerts', owner)).status, 204, '~> alerts stay on');
	assert.is((await s.get('/repos/acme/infra/vulnerability-alerts', member)).status, 403, '~> administrators only');
	assert.is((await s.request('PUT', '/repos/acme/infra/vulnerability-alerts', { token: member })).status, 403);

	const repo = await readBack('/repos/acme/infra');
	assert.is(repo.body.description, 'Managed by Terraform');
	assert.is(repo.body.has_wiki, false);
	await readBack('/repos/acme/infra/topics');
});

test('github_organization_settings: PATCH with the body null changes nothing and answers the organization', async () => {
	const before = await s.get('/orgs/acme', owner);
	const nulled = await s.request('PATCH', '/orgs/acme', { token: owner, raw: 'null', headers: { 'Content-Type': 'application/json' } });
	assert.is(nulled.status, 200, JSON.stringify(nulled.body));
	assert.is(nulled.body.login, 'acme');
	assert.equal((await s.get('/orgs/acme', owner)).body, before.body, '~> nothing changed');
	const patched = await s.request('PATCH', '/orgs/acme', { token: owner, body: { description: 'Infra', blog: 'https://acme.test' } });
	assert.is(patched.status, 200);
	const read = await readBack('/orgs/acme');
	assert.is(read.body.description, 'Infra');
	assert.is(
		(await s.request('PATCH', '/repos/acme/infra', { token: owner, raw: 'null', headers: { 'Content-Type': 'application/json' } }))
			.status,
		400,
		'~> other routes still refuse a body that is not an object',
	);
});

test('github_repository_environment: can_admins_bypass defaults to true, is accepted and read back', async () => {
	const plain = await s.request('PUT', '/repos/acme/infra/environments/staging', { token: owner, body: {} });
	assert.is(plain.status, 200, JSON.stringify(plain.body));
	assert.is(plain.body.can_admins_bypass, true, "~> GitHub's default");
	const set = await s.request('PUT', '/repos/acme/infra/environments/production', {
		token: owner,
		body: { wait_timer: 5, can_admins_bypass: false, prevent_self_review: false, reviewers: null, deployment_branch_policy: null },
	});
	assert.is(set.body.can_admins_bypass, false);
	const read = await readBack('/repos/acme/infra/environments/production');
	assert.is(read.body.can_admins_bypass, false);
	const again = await s.request('PUT', '/repos/acme/infra/environments/production', { token: owner, body: { wait_timer: 5 } });
	assert.is(again.body.can_admins_bypass, false, '~> omitted keeps the value');
	const list = await readBack('/repos/acme/infra/environments');
	assert.equal(
		list.body.environments.map((e: any) => [e.name, e.can_admins_bypass]),
		[
			['production', false],
			['staging', true],
		],
	);
});

test('github_issue_label: the colour keeps the case sent; names compare without case', async () => {
	const made = await s.request('POST', '/repos/acme/infra/labels', {
		token: owner,
		body: { name: 'Ops', color: 'A1B2C3', description: 'ops' },
	});
	assert.is(made.status, 201);
	assert.is(made.body.color, 'A1B2C3');
	const read = await readBack('/repos/acme/infra/labels/ops');
	assert.is(read.body.color, 'A1B2C3', '~> read back as sent');
	const edited = await s.request('PATCH', '/repos/acme/infra/labels/Ops', { token: owner, body: { color: '#ffEE00' } });
	assert.is(edited.body.color, 'ffEE00');
	assert.is((await s.request('POST', '/repos/acme/infra/labels', { token: owner, body: { name: 'x', color: 'GGGGGG' } })).status, 422);
});

test('github_repository_ruleset: created, read, updated and deleted at repository level; REST ref writes honour it', async () => {
	const main = (await s.get('/repos/acme/infra/git/ref/heads/main', owner)).body.object.sha;
	assert.is(
		(await s.request('POST', '/repos/acme/infra/git/refs', { token: owner, body: { ref: 'refs/heads/keep', sha: main } })).status,
		201,
	);
	const body = {
		name: 'protect-keep',
		target: 'branch',
		enforcement: 'active',
		bypass_actors: [],
		conditions: { ref_name: { include: ['refs/heads/keep'], exclude: [] } },
		rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }],
	};
	const made = await s.request('POST', '/repos/acme/infra/rulesets', { token: owner, body });
	assert.is(made.status, 201, JSON.stringify(made.body));
	assert.is(made.body.source_type, 'Repository');
	assert.is(made.body.source, 'acme/infra');
	assert.match(made.body._links.self.href, `/repos/acme/infra/rulesets/${made.body.id}`);
	const id = made.body.id;
	const read = await readBack(`/repos/acme/infra/rulesets/${id}`);
	assert.equal(read.body.rules, body.rules);
	assert.equal(read.body.conditions, body.conditions);
	assert.equal(
		(await s.get('/repos/acme/infra/rulesets', owner)).body.map((r: any) => [r.name, r.source_type]),
		[['protect-keep', 'Repository']],
	);
	assert.equal(
		(await s.get('/repos/acme/infra/rules/branches/keep', owner)).body.map((r: any) => [
			r.type,
			r.ruleset_source_type,
			r.ruleset_source,
		]),
		[
			['deletion', 'Repository', 'acme/infra'],
			['non_fast_forward', 'Repository', 'acme/infra'],
		],
	);
	assert.equal((await s.get('/repos/acme/infra/rules/branches/main', owner)).body, [], '~> other branches: none');
	assert.is(
		(await s.request('POST', '/repos/acme/infra/rulesets', { token: owner, body })).status,
		422,
		'~> the name is taken in this repository',
	);
	assert.is((await s.request('POST', '/repos/acme/site-less/rulesets', { token: owner, body })).status, 404, '~> no such repository');
	assert.is((await s.request('POST', '/repos/acme/infra/rulesets', { token: member, body: { ...body, name: 'm' } })).status, 403);
	const orgBody = { ...body, conditions: { ...body.conditions, repository_name: { include: ['other-*'], exclude: [] } } };
	assert.is(
		(await s.request('POST', '/orgs/acme/rulesets', { token: owner, body: orgBody })).status,
		201,
		'~> the organization may use the name',
	);
	assert.is((await s.get('/orgs/acme/rulesets', owner)).body.length, 1, "~> the organization's list has only its own");

	const refused = await s.request('DELETE', '/repos/acme/infra/git/refs/heads/keep', { token: owner });
	assert.is(refused.status, 422, '~> the deletion rule refuses the REST ref delete');
	assert.match(refused.body.message, 'Repository rule violations found');

	const updated = await s.request('PUT', `/repos/acme/infra/rulesets/${id}`, { token: owner, body: { enforcement: 'disabled' } });
	assert.is(updated.status, 200);
	assert.is(updated.body.enforcement, 'disabled');
	assert.is((await readBack(`/repos/acme/infra/rulesets/${id}`)).body.enforcement, 'disabled');
	assert.equal((await s.get('/repos/acme/infra/rules/branches/keep', owner)).body, [], '~> disabled: no rules for the branch');
	assert.is((await s.request('DELETE', `/repos/acme/infra/rulesets/${id}`, { token: owner })).status, 204);
	assert.is((await s.get(`/repos/acme/infra/rulesets/${id}`, owner)).status, 404);
	assert.is(
		(await s.request('DELETE', '/repos/acme/infra/git/refs/heads/keep', { token: owner })).status,
		204,
		'~> deleted: writes pass',
	);

	const personal = await s.request('POST', '/repos/mike/dots/rulesets', {
		token: member,
		body: { ...body, name: 'mine', conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } } },
	});
	assert.is(personal.status, 201, "~> a user's repository takes rulesets too");
	assert.is(personal.body.source, 'mike/dots');
});

const gql = async (query: string, variables: Record<string, unknown> = {}, token = owner) => {
	const res = await s.request('POST', '/api/graphql', { token, body: { query, variables } });
	assert.is(res.status, 200);
	return res.body as { data: any; errors?: Array<{ type?: string; message: string }> };
};

test('github_team and the teams data source: Organization.team(slug:), Team.members/parentTeam/childTeams/repositories', async () => {
	const parent = (await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Platform', privacy: 'closed' } })).body;
	const child = await s.request('POST', '/orgs/acme/teams', {
		token: owner,
		body: { name: 'SRE', privacy: 'closed', parent_team_id: parent.id, maintainers: ['mike'] },
	});
	assert.is(child.status, 201, JSON.stringify(child.body));
	await s.request('PUT', '/orgs/acme/teams/sre/repos/acme/infra', { token: owner, body: { permission: 'push' } });
	const query = `query($owner: String!, $slug: String!, $first: Int!) {
		organization(login: $owner) {
			team(slug: $slug) {
				id databaseId name slug description privacy
				parentTeam { slug }
				childTeams(first: $first) { nodes { slug } }
				members(first: $first) { edges { role node { login } } totalCount }
				repositories(first: $first) { edges { permission node { name } } }
			}
		}
	}`;
	const sre = await gql(query, { owner: 'acme', slug: 'sre', first: 100 });
	assert.is(sre.errors, undefined, JSON.stringify(sre.errors));
	const team = sre.data.organization.team;
	assert.is(team.slug, 'sre');
	assert.is(team.databaseId, child.body.id);
	assert.equal(team.parentTeam, { slug: 'platform' });
	assert.equal(
		team.members.edges.map((e: any) => [e.node.login, e.role]).sort(),
		[
			['mike', 'MAINTAINER'],
			['olivia', 'MAINTAINER'],
		],
		'~> the creator and the maintainer named',
	);
	assert.equal(team.repositories.edges, [{ permission: 'WRITE', node: { name: 'infra' } }]);
	const platform = await gql(query, { owner: 'acme', slug: 'platform', first: 100 });
	assert.is(platform.data.organization.team.parentTeam, null);
	assert.equal(platform.data.organization.team.childTeams.nodes, [{ slug: 'sre' }]);
	const none = await gql(query, { owner: 'acme', slug: 'nope', first: 10 });
	assert.is(none.data.organization.team, null, '~> no such team: null');
	assert.equal((await gql(query, { owner: 'acme', slug: 'sre', first: 100 })).data, sre.data, '~> a second read is the same');
});

test('github_branch_protection: create/update/deleteBranchProtectionRule over the REST protection', async () => {
	const repoId = (await s.get('/repos/acme/infra', owner)).body.node_id;
	const fields = `id pattern requiresApprovingReviews requiredApprovingReviewCount dismissesStaleReviews requiresStatusChecks
		requiresStrictStatusChecks requiredStatusCheckContexts isAdminEnforced allowsDeletions allowsForcePushes requiresLinearHistory
		requiresConversationResolution requiresCommitSignatures lockBranch restrictsPushes repository { name }`;
	const created = await gql(
		`mutation($input: CreateBranchProtectionRuleInput!) { createBranchProtectionRule(input: $input) { branchProtectionRule { ${fields} } } }`,
		{
			input: {
				repositoryId: repoId,
				pattern: 'main',
				requiresApprovingReviews: true,
				requiredApprovingReviewCount: 2,
				dismissesStaleReviews: true,
				requiresStatusChecks: true,
				requiresStrictStatusChecks: true,
				requiredStatusCheckContexts: ['ci/build'],
				isAdminEnforced: true,
				requiresLinearHistory: true,
				requiresCommitSignatures: true,
			},
		},
	);
	assert.is(created.errors, undefined, JSON.stringify(created.errors));
	const rule = created.data.createBranchProtectionRule.branchProtectionRule;
	assert.is(rule.pattern, 'main');
	assert.is(rule.requiredApprovingReviewCount, 2);
	assert.is(rule.requiresCommitSignatures, true);
	assert.is(rule.repository.name, 'infra');
	const rest = await s.get('/repos/acme/infra/branches/main/protection', owner);
	assert.is(rest.body.required_pull_request_reviews.required_approving_review_count, 2, '~> the REST twin shows it');
	assert.equal(rest.body.required_status_checks.contexts, ['ci/build']);
	assert.is(rest.body.enforce_admins.enabled, true);
	assert.is(rest.body.required_signatures.enabled, true);

	const readQuery = `query { repository(owner: "acme", name: "infra") { branchProtectionRules(first: 100) { nodes { ${fields} } } } }`;
	const read = await gql(readQuery);
	assert.equal(read.data.repository.branchProtectionRules.nodes, [rule], '~> read back as written');
	assert.equal((await gql(readQuery)).data, read.data, '~> a second read is the same');
	const again = await gql(
		`mutation($input: CreateBranchProtectionRuleInput!) { createBranchProtectionRule(input: $input) { branchProtectionRule { id } } }`,
		{ input: { repositoryId: repoId, pattern: 'main' } },
	);
	assert.match(again.errors?.[0]?.message ?? '', 'already protected');

	const updated = await gql(
		`mutation($input: UpdateBranchProtectionRuleInput!) { updateBranchProtectionRule(input: $input) { branchProtectionRule { ${fields} } } }`,
		{
			input: {
				branchProtectionRuleId: rule.id,
				requiredApprovingReviewCount: 1,
				requiresCommitSignatures: false,
				allowsDeletions: true,
			},
		},
	);
	assert.is(updated.errors, undefined, JSON.stringify(updated.errors));
	const after = updated.data.updateBranchProtectionRule.branchProtectionRule;
	assert.equal(
		after,
		{ ...rule, requiredApprovingReviewCount: 1, requiresCommitSignatures: false, allowsDeletions: true },
		'~> the rest kept',
	);
	assert.is((await s.get('/repos/acme/infra/branches/main/protection/required_signatures', owner)).body.enabled, false);
	// REST writes show through GraphQL: the same store.
	await s.request('PATCH', '/repos/acme/infra/branches/main/protection/required_pull_request_reviews', {
		token: owner,
		body: { required_approving_review_count: 3 },
	});
	assert.is((await gql(readQuery)).data.repository.branchProtectionRules.nodes[0].requiredApprovingReviewCount, 3);

	const wildcard = await gql(
		`mutation($input: CreateBranchProtectionRuleInput!) { createBranchProtectionRule(input: $input) { branchProtectionRule { id } } }`,
		{ input: { repositoryId: repoId, pattern: 'release/*' } },
	);
	assert.match(wildcard.errors?.[0]?.message ?? '', 'wildcards');
	const deleted = await gql(
		`mutation($input: DeleteBranchProtectionRuleInput!) { deleteBranchProtectionRule(input: $input) { clientMutationId } }`,
		{ input: { branchProtectionRuleId: rule.id, clientMutationId: 'tf' } },
	);
	assert.equal(deleted.data.deleteBranchProtectionRule, { clientMutationId: 'tf' });
	assert.is((await s.get('/repos/acme/infra/branches/main/protection', owner)).status, 404);
	assert.equal((await gql(readQuery)).data.repository.branchProtectionRules.nodes, []);
	const member_ = await gql(
		`mutation($input: CreateBranchProtectionRuleInput!) { createBranchProtectionRule(input: $input) { branchProtectionRule { id } } }`,
		{ input: { repositoryId: repoId, pattern: 'main' } },
		member,
	);
	assert.ok(member_.errors?.length, '~> a member without admin cannot protect');
});

test.run();
