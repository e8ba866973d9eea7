/**
 * GraphQL's Repository, PullRequest and Commit fields and the branch protection rule mutations are
 * served from the stores and services with the REST routes' access: a private repository's
 * fields are NOT_FOUND to an outsider, a read-only member cannot create or see protection rules
 * (REST answers it 403), and the fields answer what their REST twins answer.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('graphql-repository');
let s: TestServer;
let olivia: string;
let rita: string;
let eve: string;
let repositoryId: string;
let headSha: string;

const gql = (token: string | undefined, query: string, variables?: Record<string, unknown>) =>
	s.request('POST', `${s.origin}/api/graphql`, { token, body: { query, variables } });

const APP = 'repository(owner: "acme", name: "app")';

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'rita', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'rita');
	olivia = s.fullToken('olivia');
	rita = s.fullToken('rita');
	eve = s.fullToken('eve');
	await s.request('PATCH', '/orgs/acme', { token: olivia, body: { default_repository_permission: 'read' } });
	const repo = await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'app', private: true, auto_init: true } });
	assert.is(repo.status, 201);
	repositoryId = repo.body.node_id;
	const main = await s.get('/repos/acme/app/git/ref/heads/main', olivia);
	await s.request('POST', '/repos/acme/app/git/refs', { token: olivia, body: { ref: 'refs/heads/feature', sha: main.body.object.sha } });
	const file = await s.request('PUT', '/repos/acme/app/contents/src/app.ts', {
		token: olivia,
		body: {
			message: 'Add the app\n\nWith a body.',
			content: Buffer.from('export const x = 1;\n').toString('base64'),
			branch: 'feature',
		},
	});
	assert.is(file.status, 201);
	headSha = file.body.commit.sha;
	const pull = await s.request('POST', '/repos/acme/app/pulls', {
		token: olivia,
		body: { title: 'Feature', head: 'feature', base: 'main' },
	});
	assert.is(pull.status, 201);
	await s.request('POST', `/repos/acme/app/statuses/${headSha}`, { token: olivia, body: { state: 'success', context: 'ci/build' } });
	await s.request('POST', `/repos/acme/app/statuses/${headSha}`, { token: olivia, body: { state: 'pending', context: 'ci/lint' } });
	await s.request('POST', '/repos/acme/app/pulls/1/reviews', { token: rita, body: { event: 'COMMENT', body: 'Looks fine' } });
	await s.request('POST', '/repos/acme/app/pulls/1/requested_reviewers', { token: olivia, body: { reviewers: ['rita'] } });
	for (const title of ['Beta', 'Alpha']) await s.request('POST', '/repos/acme/app/milestones', { token: olivia, body: { title } });
	for (const tag of ['v1', 'v2'])
		await s.request('POST', '/repos/acme/app/releases', { token: olivia, body: { tag_name: tag, name: `Release ${tag}` } });
	await s.request('PUT', '/repos/acme/app/topics', { token: olivia, body: { names: ['gitstead', 'demo'] } });
	for (const token of [rita, olivia])
		await s.request('POST', '/repos/acme/app/issues/1/reactions', { token, body: { content: 'heart' } });
	await s.request('PUT', '/user/starred/acme/app', { token: rita });
	await s.request('PUT', '/repos/acme/app/subscription', { token: rita, body: { ignored: true } });
});

test.after(() => s.close());

test("a private repository's fields and protection rules are NOT_FOUND to an outsider", async () => {
	const read = await gql(eve, `{ ${APP} { milestones(first: 5) { totalCount } releases(first: 5) { totalCount } } }`);
	assert.is(read.body.data.repository, null);
	assert.is(read.body.errors[0].type, 'NOT_FOUND');
	const create = await gql(
		eve,
		'mutation($id: ID!) { createBranchProtectionRule(input: {repositoryId: $id, pattern: "main"}) { branchProtectionRule { id } } }',
		{ id: repositoryId },
	);
	assert.is(create.body.errors[0].type, 'NOT_FOUND');
	assert.is(create.body.errors[0].message, `Could not resolve to a node with the global id of '${repositoryId}'`);
	assert.is((await s.request('PUT', '/repos/acme/app/branches/main/protection', { token: eve, body: {} })).status, 404);
});

test('a read-only member cannot create a protection rule (FORBIDDEN, REST 403) nor read rules', async () => {
	const create = await gql(
		rita,
		'mutation($id: ID!) { createBranchProtectionRule(input: {repositoryId: $id, pattern: "main", requiresApprovingReviews: true}) { branchProtectionRule { id } } }',
		{ id: repositoryId },
	);
	assert.is(create.body.errors[0].type, 'FORBIDDEN');
	const rest = await s.request('PUT', '/repos/acme/app/branches/main/protection', {
		token: rita,
		body: { required_status_checks: null, enforce_admins: null, required_pull_request_reviews: null, restrictions: null },
	});
	assert.is(rest.status, 403);
	assert.is((await s.get('/repos/acme/app/branches/main/protection', olivia)).status, 404);
});

test('protection rules: created, read (admins only, as REST), moved and deleted through the REST service', async () => {
	const create = await gql(
		olivia,
		`mutation($id: ID!) { createBranchProtectionRule(input: {repositoryId: $id, pattern: "main", requiresApprovingReviews: true,
			requiredApprovingReviewCount: 2, requiresStatusChecks: true, requiredStatusCheckContexts: ["ci/build"], requiresCommitSignatures: true}) {
			branchProtectionRule { id pattern requiredApprovingReviewCount requiredStatusCheckContexts requiresCommitSignatures } } }`,
		{ id: repositoryId },
	);
	const rule = create.body.data.createBranchProtectionRule.branchProtectionRule;
	assert.equal(
		{ ...rule, id: undefined },
		{
			id: undefined,
			pattern: 'main',
			requiredApprovingReviewCount: 2,
			requiredStatusCheckContexts: ['ci/build'],
			requiresCommitSignatures: true,
		},
	);
	const rest = await s.get('/repos/acme/app/branches/main/protection', olivia);
	assert.is(rest.status, 200);
	assert.is(rest.body.required_pull_request_reviews.required_approving_review_count, 2);
	assert.equal(rest.body.required_status_checks.contexts, ['ci/build']);
	assert.is(rest.body.required_signatures.enabled, true);
	// One branch_protection_rule event for the one change (the rule and its signatures together).
	const events = s.app.db.prepare("SELECT count(*) FROM events WHERE event = 'branch_protection_rule'").pluck().get();
	assert.is(events, 1);

	const q = `{ ${APP} { branchProtectionRules(first: 5) { totalCount nodes { pattern } } defaultBranchRef { branchProtectionRule { pattern } } } }`;
	const admin = await gql(olivia, q);
	assert.equal(admin.body.data.repository, {
		branchProtectionRules: { totalCount: 1, nodes: [{ pattern: 'main' }] },
		defaultBranchRef: { branchProtectionRule: { pattern: 'main' } },
	});
	assert.is((await s.get('/repos/acme/app/branches/main/protection', rita)).status, 403);
	const member = await gql(rita, q);
	assert.equal(member.body.data.repository, {
		branchProtectionRules: { totalCount: 0, nodes: [] },
		defaultBranchRef: { branchProtectionRule: null },
	});

	const readOnlyUpdate = await gql(
		rita,
		'mutation($id: ID!) { deleteBranchProtectionRule(input: {branchProtectionRuleId: $id}) { clientMutationId } }',
		{
			id: rule.id,
		},
	);
	assert.is(readOnlyUpdate.body.errors[0].type, 'FORBIDDEN');
	const moved = await gql(
		olivia,
		'mutation($id: ID!) { updateBranchProtectionRule(input: {branchProtectionRuleId: $id, pattern: "feature"}) { branchProtectionRule { id pattern requiredApprovingReviewCount } } }',
		{ id: rule.id },
	);
	const next = moved.body.data.updateBranchProtectionRule.branchProtectionRule;
	assert.equal({ pattern: next.pattern, count: next.requiredApprovingReviewCount }, { pattern: 'feature', count: 2 });
	assert.is((await s.get('/repos/acme/app/branches/main/protection', olivia)).status, 404);
	assert.is((await s.get('/repos/acme/app/branches/feature/protection', olivia)).status, 200);
	const removed = await gql(
		olivia,
		'mutation($id: ID!) { deleteBranchProtectionRule(input: {branchProtectionRuleId: $id}) { clientMutationId } }',
		{
			id: next.id,
		},
	);
	assert.is(removed.body.errors, undefined);
	assert.is((await s.get('/repos/acme/app/branches/feature/protection', olivia)).status, 404);
});

test('repository fields answer what their REST twins answer', async () => {
	const res = await gql(
		rita,
		`{ ${APP} {
			milestones(first: 5, orderBy: {field: NUMBER, direction: DESC}) { totalCount nodes { number title state } }
			milestone(number: 1) { title }
			releases(first: 5) { totalCount nodes { tagName name isLatest } }
			release(tagName: "v1") { name }
			latestRelease { tagName }
			assignableUsers(first: 10) { totalCount nodes { login } }
			olivia: assignableUsers(first: 10, query: "OLI") { nodes { login } }
			repositoryTopics(first: 5) { nodes { topic { name } } }
			languages(first: 5) { totalSize }
			viewerHasStarred viewerSubscription isEmpty
		} }`,
	);
	assert.is(res.body.errors, undefined);
	const r = res.body.data.repository;
	const milestones = await s.get('/repos/acme/app/milestones?state=all', rita);
	assert.equal(
		r.milestones.nodes,
		milestones.body
			.map((m: { number: number; title: string; state: string }) => ({ number: m.number, title: m.title, state: 'OPEN' }))
			.reverse(),
	);
	assert.is(r.milestone.title, 'Beta');
	const releases = await s.get('/repos/acme/app/releases', rita);
	assert.equal(
		r.releases.nodes.map((n: { tagName: string; name: string }) => [n.tagName, n.name]),
		releases.body.map((x: { tag_name: string; name: string }) => [x.tag_name, x.name]),
	);
	assert.equal(
		r.releases.nodes.map((n: { isLatest: boolean }) => n.isLatest),
		[true, false],
	);
	assert.is(r.release.name, 'Release v1');
	assert.is(r.latestRelease.tagName, (await s.get('/repos/acme/app/releases/latest', rita)).body.tag_name);
	const assignees = await s.get('/repos/acme/app/assignees', rita);
	assert.equal(
		r.assignableUsers.nodes.map((u: { login: string }) => u.login),
		assignees.body.map((u: { login: string }) => u.login),
	);
	assert.equal(r.olivia.nodes, [{ login: 'olivia' }]);
	assert.equal(
		r.repositoryTopics.nodes.map((t: { topic: { name: string } }) => t.topic.name),
		(await s.get('/repos/acme/app/topics', rita)).body.names,
	);
	assert.is(r.viewerHasStarred, (await s.get('/user/starred/acme/app', rita)).status === 204);
	assert.is(r.viewerSubscription, 'IGNORED');
	assert.is(r.isEmpty, false);
});

test('pull request and commit fields answer what their REST twins answer', async () => {
	const res = await gql(
		olivia,
		`{ ${APP} {
			pullRequests(first: 5, headRefName: "feature", states: [OPEN]) { totalCount nodes { number
				commits(first: 5) { totalCount nodes { commit { oid messageHeadline messageBody statusCheckRollup { state contexts(first: 5) { nodes { ... on StatusContext { context state } } } } } } }
				files(first: 5) { nodes { path additions deletions changeType } }
				reviews(first: 5) { nodes { state author { login } } }
				latestReviews(first: 5) { nodes { state } }
				reviewRequests(first: 5) { nodes { requestedReviewer { ... on User { login } } } }
				reviewDecision
				reactionGroups { content users(first: 1) { totalCount nodes { login } } }
			} }
			merged: pullRequests(first: 5, headRefName: "feature", states: [MERGED]) { totalCount }
		} }`,
	);
	assert.is(res.body.errors, undefined);
	const { pullRequests, merged } = res.body.data.repository;
	assert.is(pullRequests.totalCount, 1);
	assert.is(merged.totalCount, 0);
	const pr = pullRequests.nodes[0];
	const commits = await s.get('/repos/acme/app/pulls/1/commits', olivia);
	assert.equal(
		pr.commits.nodes.map((n: { commit: { oid: string } }) => n.commit.oid),
		commits.body.map((c: { sha: string }) => c.sha),
	);
	const commit = pr.commits.nodes[0].commit;
	assert.is(commit.messageHeadline, 'Add the app');
	assert.is(commit.messageBody, 'With a body.');
	const status = await s.get(`/repos/acme/app/commits/${headSha}/status`, olivia);
	assert.is(commit.statusCheckRollup.state, 'PENDING');
	assert.equal(
		commit.statusCheckRollup.contexts.nodes.map((n: { context: string }) => n.context).sort(),
		status.body.statuses.map((x: { context: string }) => x.context).sort(),
	);
	const files = await s.get('/repos/acme/app/pulls/1/files', olivia);
	assert.equal(
		pr.files.nodes,
		files.body.map((f: { filename: string; additions: number; deletions: number }) => ({
			path: f.filename,
			additions: f.additions,
			deletions: f.deletions,
			changeType: 'ADDED',
		})),
	);
	const reviews = await s.get('/repos/acme/app/pulls/1/reviews', olivia);
	assert.equal(
		pr.reviews.nodes,
		reviews.body.map((x: { state: string; user: { login: string } }) => ({ state: x.state, author: { login: x.user.login } })),
	);
	assert.equal(pr.latestReviews.nodes, [{ state: 'COMMENTED' }]);
	const requested = await s.get('/repos/acme/app/pulls/1/requested_reviewers', olivia);
	assert.equal(
		pr.reviewRequests.nodes.map((n: { requestedReviewer: { login: string } }) => n.requestedReviewer.login),
		requested.body.users.map((u: { login: string }) => u.login),
	);
	assert.is(pr.reviewDecision, null);
	const heart = pr.reactionGroups.find((group: { content: string }) => group.content === 'HEART');
	const reactions = await s.get('/repos/acme/app/issues/1/reactions?content=heart&per_page=1', olivia);
	assert.equal(heart.users, { totalCount: 2, nodes: [{ login: reactions.body[0].user.login }] });
});

test.run();
