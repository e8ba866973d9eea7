/**
 * POST /api/graphql (and /graphql): GitHub's GraphQL endpoint over the REST twins — viewer, user,
 * repository with its connections, organization, node ids, errors, limits, rateLimit, mutations,
 * search; and the queries gh sends (test/fixtures/gh/*.graphql) answered field by field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { startServer, type TestServer } from './helpers/server';

const test = suite('graphql');
let s: TestServer;
let olivia: string; // owner of acme
let mia: string; // member of acme
let eve: string; // nobody to acme

const gql = (token: string | undefined, query: string, variables?: Record<string, unknown>, path = '/api/graphql') =>
	s.request('POST', `${s.origin}${path}`, { token, body: { query, variables } });

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mia', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mia');
	olivia = s.fullToken('olivia');
	mia = s.fullToken('mia');
	eve = s.fullToken('eve');
	await s.request('POST', '/orgs/acme/repos', {
		token: olivia,
		body: { name: 'web', description: 'The website', homepage: 'https://acme.test' },
	});
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	await s.request('POST', '/repos/acme/web/labels', {
		token: olivia,
		body: { name: 'bug', color: 'd73a4a', description: 'Something is broken' },
	});
	await s.request('POST', '/repos/acme/web/labels', { token: olivia, body: { name: 'docs', color: '0075ca' } });
	await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'First', labels: ['bug'] } });
	await s.request('POST', '/repos/acme/web/issues', { token: mia, body: { title: 'Second' } });
	const third = await s.request('POST', '/repos/acme/web/issues', { token: mia, body: { title: 'Third' } });
	await s.request('PATCH', `/repos/acme/web/issues/${third.body.number}`, { token: olivia, body: { state: 'closed' } });
});
test.after(() => s.close());

/** A query gh 2.23 sends, as captured by scripts/capture-gh-queries.ts (its comment line dropped). */
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', 'gh', `${name}.graphql`), 'utf8').replace(/^#.*\n/, '');

/** The repository the gh fixtures run against: olivia/site with an issue, a closed issue and a pull request. */
async function site(): Promise<void> {
	if ((await s.get('/repos/olivia/site', olivia)).status === 200) return;
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'site', auto_init: true, description: 'Home page' } });
	await s.request('POST', '/repos/olivia/site/issues', {
		token: olivia,
		body: { title: 'Broken link', body: 'On the front page', labels: ['bug'], assignees: ['olivia'] },
	});
	await s.request('POST', '/repos/olivia/site/issues', { token: olivia, body: { title: 'Old', body: 'done' } });
	await s.request('PATCH', '/repos/olivia/site/issues/2', { token: olivia, body: { state: 'closed', state_reason: 'completed' } });
	await s.request('POST', '/repos/olivia/site/issues/1/comments', { token: mia, body: { body: 'Seen it too' } });
	const main = (await s.get('/repos/olivia/site/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/site/git/refs', { token: olivia, body: { ref: 'refs/heads/feature', sha: main } });
	await s.request('PUT', '/repos/olivia/site/contents/feature.txt', {
		token: olivia,
		body: { message: 'Feature', content: Buffer.from('x').toString('base64'), branch: 'feature' },
	});
	const pr = await s.request('POST', '/repos/olivia/site/pulls', {
		token: olivia,
		body: { title: 'Add the feature', head: 'feature', base: 'main', draft: true },
	});
	assert.is(pr.status, 201, 'the pull request is made');
}

/** Runs a gh fixture and returns its data, asserting there are no errors. */
async function ghQuery(name: string, variables: Record<string, unknown>, token = olivia): Promise<any> {
	const res = await gql(token, fixture(name), variables);
	assert.is(res.status, 200, `${name} answers 200`);
	assert.is(res.body.errors, undefined, `${name} answers without errors: ${JSON.stringify(res.body.errors)}`);
	return res.body.data;
}

test('gh fixtures: UserCurrent (gh auth status) and the field probes (Issue_fields, Repository_fields)', async () => {
	const data = await ghQuery('UserCurrent', {});
	assert.equal(data, { viewer: { login: 'olivia' } }, 'the viewer gh reports as logged in');
	const issue = await ghQuery('Issue_fields', {});
	const names = issue.Issue.fields.map((f: { name: string }) => f.name);
	assert.ok(names.includes('stateReason'), 'gh sees stateReason on Issue (it then asks for it)');
	const repo = await ghQuery('Repository_fields', {});
	assert.ok(repo.Repository.fields.some((f: { name: string }) => f.name === 'viewerPermission'));
});

test('gh fixtures: RepositoryInfo (repo view, issue create) and RepositoryList (repo list)', async () => {
	await site();
	const view = await ghQuery('RepositoryInfo', { owner: 'olivia', name: 'site' });
	assert.is(view.repository.name, 'site');
	assert.is(view.repository.owner.login, 'olivia');
	assert.is(
		view.repository.owner.id,
		s.app.stores.accounts.byLogin('olivia') && Buffer.from(`04:User${s.app.stores.accounts.byLogin('olivia')!.id}`).toString('base64'),
	);
	assert.is(view.repository.description, 'Home page');
	const create = await ghQuery('RepositoryInfo-2', { owner: 'olivia', name: 'site' });
	const r = create.repository;
	assert.is(r.hasIssuesEnabled, true);
	assert.is(r.hasWikiEnabled, true);
	assert.is(r.viewerPermission, 'ADMIN', 'the owner administers');
	assert.equal(r.defaultBranchRef, { name: 'main' });
	assert.is(r.parent, null, 'not a fork');
	assert.is(r.mergeCommitAllowed, true);
	assert.is(r.squashMergeAllowed, true);
	assert.is(r.rebaseMergeAllowed, true);
	const asMia = await ghQuery('RepositoryInfo-2', { owner: 'olivia', name: 'site' }, mia);
	assert.is(asMia.repository.viewerPermission, 'READ', 'another user reads a public repository');
	const list = await ghQuery('RepositoryList', { owner: 'olivia', perPage: 30 });
	assert.is(list.repositoryOwner.login, 'olivia');
	const names = list.repositoryOwner.repositories.nodes.map((n: { nameWithOwner: string }) => n.nameWithOwner);
	assert.ok(names.includes('olivia/site'), "the owner's repositories");
	const node = list.repositoryOwner.repositories.nodes.find((n: { nameWithOwner: string }) => n.nameWithOwner === 'olivia/site');
	assert.equal(
		{ ...node, createdAt: undefined, pushedAt: undefined },
		{
			nameWithOwner: 'olivia/site',
			description: 'Home page',
			isPrivate: false,
			isFork: false,
			isArchived: false,
			visibility: 'PUBLIC',
			createdAt: undefined,
			pushedAt: undefined,
		},
	);
	assert.is(list.repositoryOwner.repositories.totalCount, names.length);
	assert.is(list.repositoryOwner.repositories.pageInfo.hasNextPage, false);
});

test('gh fixtures: IssueList (issue list), IssueSearch (issue list --label), IssueByNumber (issue view)', async () => {
	await site();
	const list = await ghQuery('IssueList', { owner: 'olivia', repo: 'site', limit: 30, states: ['OPEN'] });
	const issues = list.repository.issues;
	assert.is(list.repository.hasIssuesEnabled, true);
	assert.is(issues.totalCount, 1, 'open issues only, no pull requests');
	const [first] = issues.nodes;
	assert.is(first.number, 1);
	assert.is(first.title, 'Broken link');
	assert.is(first.state, 'OPEN');
	assert.is(first.url, `${s.origin}/olivia/site/issues/1`);
	assert.is(first.stateReason, null);
	assert.equal(
		first.labels.nodes.map((l: { name: string; color: string }) => [l.name, l.color]),
		[['bug', 'd73a4a']],
	);
	assert.is(first.labels.totalCount, 1);
	const all = await ghQuery('IssueList', { owner: 'olivia', repo: 'site', limit: 30, states: ['OPEN', 'CLOSED'] });
	assert.equal(
		all.repository.issues.nodes.map((i: { number: number }) => i.number),
		[2, 1],
		'newest first (orderBy CREATED_AT DESC)',
	);
	assert.is(all.repository.issues.nodes[0].stateReason, 'COMPLETED');
	const mine = await ghQuery('IssueList', { owner: 'olivia', repo: 'site', limit: 30, states: ['OPEN', 'CLOSED'], assignee: 'olivia' });
	assert.equal(
		mine.repository.issues.nodes.map((i: { number: number }) => i.number),
		[1],
		'filterBy assignee',
	);
	const search = await ghQuery('IssueSearch', {
		owner: 'olivia',
		repo: 'site',
		type: 'ISSUE',
		limit: 30,
		query: 'label:bug repo:olivia/site type:issue',
	});
	assert.is(search.search.issueCount, 1);
	assert.is(search.search.nodes[0].title, 'Broken link');
	const view = await ghQuery('IssueByNumber', { owner: 'olivia', repo: 'site', number: 1 });
	const issue = view.repository.issue;
	assert.is(issue.__typename, 'Issue');
	assert.is(issue.body, 'On the front page');
	assert.is(issue.author.login, 'olivia');
	assert.equal(
		issue.assignees.nodes.map((a: { login: string }) => a.login),
		['olivia'],
	);
	assert.equal(issue.projectCards, { nodes: [], totalCount: 0 }, 'Gitstead has no project boards');
	assert.is(issue.reactionGroups.length, 8, 'the eight reaction groups');
	assert.equal(issue.reactionGroups[0], { content: 'THUMBS_UP', users: { totalCount: 0 } });
	assert.is(issue.comments.totalCount, 1);
	assert.is(issue.comments.nodes[0].body, 'Seen it too');
	assert.is(issue.comments.nodes[0].author.login, 'mia');
	assert.is(issue.comments.nodes[0].authorAssociation, 'NONE');
	assert.is(issue.comments.nodes[0].isMinimized, false);
	const pr = await ghQuery('IssueByNumber-2', { owner: 'olivia', repo: 'site', number: 3 });
	assert.is(pr.repository.issue.__typename, 'PullRequest', 'issueOrPullRequest answers a pull request');
	const missing = await gql(olivia, fixture('IssueByNumber-2'), { owner: 'olivia', repo: 'site', number: 99 });
	assert.is(missing.body.errors[0].type, 'NOT_FOUND');
	assert.is(missing.body.errors[0].message, 'Could not resolve to an issue or pull request with the number of 99.');
});

test('gh fixtures: LabelList (label list) and PullRequestList (pr list)', async () => {
	await site();
	const labels = await ghQuery('LabelList', { owner: 'olivia', repo: 'site', limit: 30, orderBy: { field: 'NAME', direction: 'ASC' } });
	const names = labels.repository.labels.nodes.map((l: { name: string }) => l.name);
	assert.equal(
		names,
		[...names].sort((a: string, b: string) => a.localeCompare(b)),
		'ordered by name',
	);
	assert.equal(
		labels.repository.labels.nodes.find((l: { name: string }) => l.name === 'bug'),
		{ color: 'd73a4a', description: "Something isn't working", name: 'bug' },
	);
	const search = await ghQuery('LabelList', { owner: 'olivia', repo: 'site', limit: 30, query: 'bug' });
	assert.equal(
		search.repository.labels.nodes.map((l: { name: string }) => l.name),
		['bug'],
	);
	const pulls = await ghQuery('PullRequestList', { owner: 'olivia', repo: 'site', limit: 30, state: ['OPEN'] });
	const conn = pulls.repository.pullRequests;
	assert.is(conn.totalCount, 1);
	const [pr] = conn.nodes;
	assert.is(pr.number, 3);
	assert.is(pr.title, 'Add the feature');
	assert.is(pr.state, 'OPEN');
	assert.is(pr.headRefName, 'feature');
	assert.is(pr.headRepositoryOwner.login, 'olivia');
	assert.is(pr.isCrossRepository, false);
	assert.is(pr.isDraft, true);
	assert.is(pr.url, `${s.origin}/olivia/site/pull/3`);
	const merged = await ghQuery('PullRequestList', { owner: 'olivia', repo: 'site', limit: 30, state: ['MERGED'] });
	assert.is(merged.repository.pullRequests.totalCount, 0);
});

test('gh fixtures: PullRequestByNumber (pr view, pr merge), PullRequestForBranch (pr create) with statuses and check runs', async () => {
	await site();
	const head = (await s.get('/repos/olivia/site/pulls/3', olivia)).body.head.sha;
	await s.request('POST', `/repos/olivia/site/statuses/${head}`, {
		token: olivia,
		body: { state: 'success', context: 'ci/build', target_url: 'https://ci.test/1' },
	});
	const view = await ghQuery('PullRequestByNumber', { owner: 'olivia', repo: 'site', pr_number: 3 });
	const pr = view.repository.pullRequest;
	assert.is(pr.title, 'Add the feature');
	assert.is(pr.isDraft, true);
	assert.is(pr.baseRefName, 'main');
	assert.is(pr.headRefName, 'feature');
	assert.equal(pr.headRepository.name, 'site');
	assert.is(pr.commits.totalCount, 1, 'one commit on the branch');
	assert.is(pr.additions, 1);
	assert.is(pr.deletions, 0);
	assert.ok(['MERGEABLE', 'UNKNOWN'].includes(pr.mergeable), pr.mergeable);
	assert.equal(pr.reviewRequests.nodes, []);
	assert.is(pr.reviews.totalCount, 0);
	const rollup = pr.statusCheckRollup.nodes[0].commit.statusCheckRollup;
	assert.equal(rollup.contexts.nodes, [
		{
			__typename: 'StatusContext',
			context: 'ci/build',
			state: 'SUCCESS',
			targetUrl: 'https://ci.test/1',
			createdAt: rollup.contexts.nodes[0].createdAt,
		},
	]);
	const merge = await ghQuery('PullRequestByNumber-3', { owner: 'olivia', repo: 'site', pr_number: 3 });
	assert.is(merge.repository.pullRequest.headRefOid, head);
	assert.is(merge.repository.pullRequest.commits.nodes[0].commit.oid, head);
	assert.is(typeof merge.repository.pullRequest.mergeStateStatus, 'string');
	const branch = await ghQuery('PullRequestForBranch', { owner: 'olivia', repo: 'site', headRefName: 'feature', states: ['OPEN'] });
	assert.equal(
		branch.repository.pullRequests.nodes.map((n: { number: number }) => n.number),
		[3],
		'the open pull request of the branch',
	);
	const none = await ghQuery('PullRequestForBranch', { owner: 'olivia', repo: 'site', headRefName: 'nothing', states: ['OPEN'] });
	assert.equal(none.repository.pullRequests.nodes, []);
});

test('gh fixtures: IssueCreate, CommentCreate, IssueClose, IssueReopen run the REST twins', async () => {
	await site();
	const repo = await ghQuery('RepositoryInfo-2', { owner: 'olivia', name: 'site' });
	const created = await ghQuery('IssueCreate', { input: { repositoryId: repo.repository.id, title: 'From gh', body: 'Body' } }, mia);
	const { id, url } = created.createIssue.issue;
	assert.ok(url.startsWith(`${s.origin}/olivia/site/issues/`), 'the html URL gh prints');
	const number = Number(url.split('/').pop());
	const rest = await s.get(`/repos/olivia/site/issues/${number}`, olivia);
	assert.is(rest.body.user.login, 'mia', 'created by the caller');
	const comment = await ghQuery('CommentCreate', { input: { subjectId: id, body: 'More detail' } }, mia);
	assert.ok(comment.addComment.commentEdge.node.url.startsWith(`${s.origin}/olivia/site/issues/${number}#issuecomment-`));
	const closed = await ghQuery('IssueClose', { input: { issueId: id } }, mia);
	assert.is(closed.closeIssue.issue.id, id, 'the author closes their issue');
	assert.is((await s.get(`/repos/olivia/site/issues/${number}`, olivia)).body.state, 'closed');
	await ghQuery('IssueReopen', { input: { issueId: id } }, olivia);
	assert.is((await s.get(`/repos/olivia/site/issues/${number}`, olivia)).body.state, 'open');
	const eveClose = await gql(eve, fixture('IssueClose'), { input: { issueId: id } });
	assert.is(eveClose.body.errors[0].type, 'FORBIDDEN', "another user may not close it (the REST twin's 403)");
	assert.equal(eveClose.body.data, { closeIssue: null });
});

test('anonymous: 401 as GitHub answers; /graphql answers too', async () => {
	const res = await gql(undefined, '{ viewer { login } }');
	assert.is(res.status, 401, 'an anonymous request is refused');
	const other = await gql(olivia, '{ viewer { login } }', undefined, '/graphql');
	assert.is(other.status, 200, '/graphql serves the same endpoint');
	assert.is(other.body.data.viewer.login, 'olivia');
});

test('viewer and user: login and name; an organization is no User', async () => {
	const res = await gql(olivia, '{ viewer { login name } user(login: "mia") { login databaseId id } }');
	assert.is(res.status, 200);
	assert.is(res.body.data.viewer.login, 'olivia', 'viewer is the caller');
	assert.is(res.body.data.user.login, 'mia');
	assert.is(
		res.body.data.user.id,
		Buffer.from(`04:User${res.body.data.user.databaseId}`).toString('base64'),
		"global ids are GitHub's legacy node ids",
	);
	assert.is(res.headers.get('etag'), null, 'no ETag');
	assert.is(res.headers.get('x-ratelimit-resource'), 'graphql', 'counted in the graphql category');
	const org = await gql(olivia, '{ user(login: "acme") { login } }');
	assert.equal(org.body.data, { user: null });
	assert.is(org.body.errors[0].type, 'NOT_FOUND');
	assert.equal(org.body.errors[0].path, ['user']);
	assert.is(org.body.errors[0].message, "Could not resolve to a User with the login of 'acme'.");
});

test('repository: the fields gh repo view reads; hidden private repository NOT_FOUND', async () => {
	const res = await gql(
		mia,
		`{ repository(owner: "acme", name: "web") {
		id name nameWithOwner description url isPrivate visibility isFork isArchived defaultBranchRef { name }
		stargazerCount forkCount owner { login } createdAt updatedAt pushedAt homepageUrl viewerPermission
		issues(first: 10, states: [OPEN]) { totalCount nodes { number title labels(first: 5) { nodes { name } } } }
		labels(first: 10) { totalCount nodes { name color description } }
	} }`,
	);
	assert.is(res.status, 200);
	assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
	const repo = res.body.data.repository;
	assert.is(repo.nameWithOwner, 'acme/web');
	assert.is(repo.description, 'The website');
	assert.is(repo.homepageUrl, 'https://acme.test');
	assert.is(repo.isPrivate, false);
	assert.is(repo.visibility, 'PUBLIC');
	assert.is(repo.owner.login, 'acme');
	assert.is(repo.url, `${s.origin}/acme/web`);
	assert.is(repo.viewerPermission, 'READ', 'a member with the default base permission reads');
	assert.is(repo.issues.totalCount, 2, 'open issues only');
	assert.equal(
		repo.issues.nodes.map((i: { title: string }) => i.title),
		['First', 'Second'],
		'oldest first by default',
	);
	assert.equal(repo.issues.nodes[0].labels.nodes, [{ name: 'bug' }]);
	const labels = await s.get('/repos/acme/web/labels?per_page=100', mia);
	assert.is(repo.labels.totalCount, labels.body.length, 'the labels REST lists (the defaults and ours)');
	const hidden = await gql(eve, '{ repository(owner: "acme", name: "vault") { name } }');
	assert.equal(hidden.body.data, { repository: null });
	assert.is(hidden.body.errors[0].type, 'NOT_FOUND');
	assert.is(hidden.body.errors[0].message, "Could not resolve to a Repository with the name 'acme/vault'.");
	assert.equal(hidden.body.errors[0].locations, [{ line: 1, column: 3 }]);
});

test('connections: first/after/last/before, pageInfo, edges', async () => {
	const q = `query($after: String) { repository(owner: "acme", name: "web") { issues(first: 1, after: $after, states: [OPEN, CLOSED]) {
		totalCount pageInfo { hasNextPage hasPreviousPage endCursor startCursor } edges { cursor node { title } } } } }`;
	const one = await gql(olivia, q);
	const c1 = one.body.data.repository.issues;
	assert.is(c1.totalCount, 3);
	assert.is(c1.edges[0].node.title, 'First');
	assert.is(c1.pageInfo.hasNextPage, true);
	assert.is(c1.pageInfo.hasPreviousPage, false);
	const two = await gql(olivia, q, { after: c1.pageInfo.endCursor });
	assert.is(two.body.data.repository.issues.edges[0].node.title, 'Second');
	assert.is(two.body.data.repository.issues.pageInfo.hasPreviousPage, true);
	const last = await gql(
		olivia,
		'{ repository(owner: "acme", name: "web") { issues(last: 2) { nodes { title } pageInfo { hasNextPage } } } }',
	);
	assert.equal(
		last.body.data.repository.issues.nodes.map((i: { title: string }) => i.title),
		['Second', 'Third'],
	);
});

test('limits: first/last required and at most 100, before execution', async () => {
	const missing = await gql(olivia, '{ repository(owner: "acme", name: "web") { issues { nodes { title } } } }');
	assert.is(missing.body.data, undefined, 'nothing runs');
	assert.is(missing.body.errors[0].type, 'MISSING_PAGINATION_BOUNDARIES');
	assert.is(missing.body.errors[0].message, 'You must provide a `first` or `last` value to properly paginate the `issues` connection.');
	const excessive = await gql(olivia, '{ repository(owner: "acme", name: "web") { issues(first: 101) { totalCount } } }');
	assert.is(excessive.body.errors[0].type, 'EXCESSIVE_PAGINATION');
	assert.is(
		excessive.body.errors[0].message,
		'Requesting 101 records on the `issues` connection exceeds the `first` limit of 100 records.',
	);
	const huge = await gql(
		olivia,
		`{ viewer { organizations(first: 100) { nodes { repositories(first: 100) { nodes {
		issues(first: 100) { nodes { labels(first: 100) { nodes { name } } } } } } } } } }`,
	);
	assert.is(huge.body.errors[0].type, 'MAX_NODE_LIMIT_EXCEEDED');
	assert.is(
		huge.body.errors[0].message,
		'This query requests up to 101,010,100 possible nodes which exceeds the maximum limit of 500,000.',
	);
	const field = await gql(olivia, '{ viewer { nope } }');
	assert.is(field.body.errors[0].message, "Field 'nope' doesn't exist on type 'User'");
	const intro = await gql(olivia, '{ __schema { queryType { name } } }');
	assert.is(intro.body.data.__schema.queryType.name, 'Query', 'introspection is allowed');
});

test('rateLimit: cost 1 per 100 nodes, used and remaining after the query', async () => {
	s.user('rita');
	const rita = s.fullToken('rita');
	const res = await gql(rita, '{ rateLimit { limit cost remaining used nodeCount resetAt } }');
	const rate = res.body.data.rateLimit;
	assert.is(rate.limit, 5000);
	assert.is(rate.cost, 1);
	assert.is(rate.used, 1, 'this query counted');
	assert.is(rate.remaining, 4999);
	assert.is(rate.nodeCount, 0);
	assert.ok(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(rate.resetAt));
	assert.is(res.headers.get('x-ratelimit-used'), '1');
	const big = await gql(
		rita,
		'{ rateLimit { cost nodeCount } viewer { repositories(first: 100) { nodes { issues(first: 100) { nodes { number } } } } } }',
	);
	assert.is(big.body.data.rateLimit.nodeCount, 10100);
	assert.is(big.body.data.rateLimit.cost, 1, '101 requests / 100, rounded');
	const counted = await gql(rita, '{ viewer { repositories(first: 5) { totalCount } } }');
	assert.is(counted.body.errors, undefined, 'a connection asked only for its totalCount needs no first or last');
});

test('organization: teams, membersWithRole with roles, repositories', async () => {
	const res = await gql(
		mia,
		`{ organization(login: "acme") { login membersWithRole(first: 10) { totalCount edges { role node { login } } }
		repositories(first: 10) { totalCount nodes { name } } teams(first: 5) { totalCount } } }`,
	);
	assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
	const org = res.body.data.organization;
	assert.is(org.membersWithRole.totalCount, 2);
	const roles = Object.fromEntries(
		org.membersWithRole.edges.map((e: { role: string; node: { login: string } }) => [e.node.login, e.role]),
	);
	assert.equal(roles, { olivia: 'ADMIN', mia: 'MEMBER' });
	const repos = await s.get('/orgs/acme/repos', mia);
	assert.is(org.repositories.totalCount, repos.body.length, 'what the REST twin shows this member');
	const outsider = await gql(eve, '{ organization(login: "acme") { repositories(first: 10) { totalCount } } }');
	assert.is(outsider.body.data.organization.repositories.totalCount, 1, 'an outsider sees the public repository only');
	const missing = await gql(mia, '{ organization(login: "nope") { login } }');
	assert.is(missing.body.errors[0].message, "Could not resolve to an Organization with the login of 'nope'.");
});

test('node(id:) and nodes(ids:)', async () => {
	const res = await gql(olivia, '{ repository(owner: "acme", name: "web") { id issue(number: 1) { id } } }');
	const { id, issue } = res.body.data.repository;
	const nodes = await gql(
		olivia,
		`{ node(id: "${id}") { ... on Repository { nameWithOwner } } nodes(ids: ["${issue.id}"]) { ... on Issue { title } } }`,
	);
	assert.is(nodes.body.data.node.nameWithOwner, 'acme/web');
	assert.is(nodes.body.data.nodes[0].title, 'First');
	const hidden = await gql(olivia, '{ repository(owner: "acme", name: "vault") { id } }');
	const eveSees = await gql(eve, `{ node(id: "${hidden.body.data.repository.id}") { id } }`);
	assert.is(eveSees.body.errors[0].type, 'NOT_FOUND', 'a hidden repository is no node');
});

test('mutations run through the REST twin: createIssue, addComment, closeIssue, labels, stars; refusals', async () => {
	const ids = await gql(olivia, '{ repository(owner: "acme", name: "web") { id labels(first: 10) { nodes { id name } } } }');
	const repoId = ids.body.data.repository.id;
	const bug = ids.body.data.repository.labels.nodes.find((l: { name: string }) => l.name === 'bug').id;
	const created = await gql(
		mia,
		`mutation($input: CreateIssueInput!) { createIssue(input: $input) { clientMutationId issue { number title state author { login } } } }`,
		{
			input: { repositoryId: repoId, title: 'From GraphQL', body: 'hello', clientMutationId: 'x1' },
		},
	);
	assert.is(created.body.errors, undefined, JSON.stringify(created.body.errors));
	const issue = created.body.data.createIssue.issue;
	assert.is(created.body.data.createIssue.clientMutationId, 'x1');
	assert.is(issue.author.login, 'mia');
	const rest = await s.get(`/repos/acme/web/issues/${issue.number}`, olivia);
	assert.is(rest.body.title, 'From GraphQL', 'the REST twin sees it');
	const node = await gql(olivia, `{ repository(owner: "acme", name: "web") { issue(number: ${issue.number}) { id } } }`);
	const issueId = node.body.data.repository.issue.id;
	const comment = await gql(
		mia,
		`mutation { addComment(input: { subjectId: "${issueId}", body: "A comment" }) { commentEdge { node { body author { login } } } } }`,
	);
	assert.is(comment.body.data.addComment.commentEdge.node.body, 'A comment');
	const labeled = await gql(
		olivia,
		`mutation { addLabelsToLabelable(input: { labelableId: "${issueId}", labelIds: ["${bug}"] }) { labelable { ... on Issue { labels(first: 5) { nodes { name } } } } } }`,
	);
	assert.equal(labeled.body.data.addLabelsToLabelable.labelable.labels.nodes, [{ name: 'bug' }]);
	const forbidden = await gql(eve, `mutation { closeIssue(input: { issueId: "${issueId}" }) { issue { state } } }`);
	assert.is(forbidden.body.errors[0].type, 'FORBIDDEN', "eve may not close another user's issue");
	assert.equal(forbidden.body.errors[0].path, ['closeIssue']);
	const closed = await gql(
		olivia,
		`mutation { closeIssue(input: { issueId: "${issueId}", stateReason: NOT_PLANNED }) { issue { state closed } } }`,
	);
	assert.equal(closed.body.data.closeIssue.issue, { state: 'CLOSED', closed: true });
	const label = await gql(
		olivia,
		`mutation { createLabel(input: { repositoryId: "${repoId}", name: "ux", color: "ff00ff" }) { label { name color } } }`,
	);
	assert.equal(label.body.data.createLabel.label, { name: 'ux', color: 'ff00ff' });
	const invalid = await gql(
		olivia,
		`mutation { createLabel(input: { repositoryId: "${repoId}", name: "ux", color: "ff00ff" }) { label { name } } }`,
	);
	assert.is(invalid.body.errors[0].type, 'UNPROCESSABLE', "the twin's 422");
	const star = await gql(
		eve,
		`mutation { addStar(input: { starrableId: "${repoId}" }) { starrable { stargazerCount viewerHasStarred } } }`,
	);
	assert.equal(star.body.data.addStar.starrable, { stargazerCount: 1, viewerHasStarred: true });
});

test('pull-request mutations through the REST twins: createPullRequest, requestReviews, addPullRequestReview, submitPullRequestReview, mergePullRequest', async () => {
	await site();
	const main = (await s.get('/repos/olivia/site/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/site/git/refs', { token: olivia, body: { ref: 'refs/heads/second', sha: main } });
	await s.request('PUT', '/repos/olivia/site/contents/second.txt', {
		token: olivia,
		body: { message: 'Second', content: Buffer.from('y').toString('base64'), branch: 'second' },
	});
	const ids = await gql(olivia, '{ repository(owner: "olivia", name: "site") { id } user(login: "mia") { id } }');
	const repoId = ids.body.data.repository.id;
	const miaId = ids.body.data.user.id;
	const refused = await gql(
		olivia,
		`mutation { createPullRequest(input: { repositoryId: "${repoId}", baseRefName: "main", headRefName: "nope", title: "Nope" }) { pullRequest { number } } }`,
	);
	assert.is(refused.body.errors[0].type, 'UNPROCESSABLE', 'no branch "nope" (the REST twin\'s 422)');
	assert.equal(refused.body.errors[0].path, ['createPullRequest']);
	const created = await gql(
		olivia,
		`mutation { createPullRequest(input: { repositoryId: "${repoId}", baseRefName: "main", headRefName: "second", title: "Second", body: "Two" }) {
		pullRequest { id number state headRefName baseRefName isDraft author { login } } } }`,
	);
	assert.is(created.body.errors, undefined, JSON.stringify(created.body.errors));
	const pr = created.body.data.createPullRequest.pullRequest;
	assert.equal(
		{ ...pr, id: undefined, number: undefined },
		{
			id: undefined,
			number: undefined,
			state: 'OPEN',
			headRefName: 'second',
			baseRefName: 'main',
			isDraft: false,
			author: { login: 'olivia' },
		},
	);
	await s.request('PUT', '/repos/olivia/site/collaborators/mia', { token: olivia, body: { permission: 'push' } });
	const requested = await gql(
		olivia,
		`mutation { requestReviews(input: { pullRequestId: "${pr.id}", userIds: ["${miaId}"] }) { pullRequest { number } } }`,
	);
	assert.is(requested.body.errors, undefined, JSON.stringify(requested.body.errors));
	const rest = await s.get(`/repos/olivia/site/pulls/${pr.number}/requested_reviewers`, olivia);
	assert.equal(
		rest.body.users.map((u: { login: string }) => u.login),
		['mia'],
		'the REST twin sees the request',
	);
	const pending = await gql(
		mia,
		`mutation { addPullRequestReview(input: { pullRequestId: "${pr.id}", body: "Looks fine" }) { pullRequestReview { id state author { login } } } }`,
	);
	assert.is(pending.body.errors, undefined, JSON.stringify(pending.body.errors));
	assert.is(pending.body.data.addPullRequestReview.pullRequestReview.state, 'PENDING', 'no event: a pending review');
	const submitted = await gql(
		mia,
		`mutation { submitPullRequestReview(input: { pullRequestReviewId: "${pending.body.data.addPullRequestReview.pullRequestReview.id}", event: APPROVE }) { pullRequestReview { state submittedAt } } }`,
	);
	assert.is(submitted.body.errors, undefined, JSON.stringify(submitted.body.errors));
	assert.is(submitted.body.data.submitPullRequestReview.pullRequestReview.state, 'APPROVED');
	const eveMerge = await gql(eve, `mutation { mergePullRequest(input: { pullRequestId: "${pr.id}" }) { pullRequest { state } } }`);
	assert.is(eveMerge.body.errors[0].type, 'FORBIDDEN', "merging needs write access (the REST twin's 403)");
	const merged = await gql(
		olivia,
		`mutation { mergePullRequest(input: { pullRequestId: "${pr.id}", mergeMethod: SQUASH }) { pullRequest { state merged mergedAt } } }`,
	);
	assert.is(merged.body.errors, undefined, JSON.stringify(merged.body.errors));
	assert.is(merged.body.data.mergePullRequest.pullRequest.state, 'MERGED');
	assert.is(merged.body.data.mergePullRequest.pullRequest.merged, true);
	const again = await gql(olivia, `mutation { mergePullRequest(input: { pullRequestId: "${pr.id}" }) { pullRequest { state } } }`);
	assert.ok(again.body.errors[0].type, 'merging twice is refused by the twin');
});

test('createRepository: for the caller or an organization, through POST /user/repos and POST /orgs/{org}/repos', async () => {
	const ids = await gql(olivia, '{ organization(login: "acme") { id } viewer { id } }');
	const mine = await gql(
		mia,
		'mutation { createRepository(input: { name: "notes", visibility: PRIVATE, description: "Mine" }) { repository { nameWithOwner isPrivate description viewerPermission } } }',
	);
	assert.equal(mine.body.data.createRepository.repository, {
		nameWithOwner: 'mia/notes',
		isPrivate: true,
		description: 'Mine',
		viewerPermission: 'ADMIN',
	});
	const org = await gql(
		olivia,
		`mutation { createRepository(input: { name: "tools", visibility: PUBLIC, ownerId: "${ids.body.data.organization.id}" }) { repository { nameWithOwner visibility } } }`,
	);
	assert.equal(org.body.data.createRepository.repository, { nameWithOwner: 'acme/tools', visibility: 'PUBLIC' });
	const member = await gql(
		mia,
		`mutation { createRepository(input: { name: "x", visibility: PUBLIC, ownerId: "${ids.body.data.viewer.id}" }) { repository { name } } }`,
	);
	assert.is(member.body.errors[0].type, 'FORBIDDEN', 'not for another user');
});

test('a query runs as a read (no write transaction); a mutation as a write', async () => {
	const transaction = s.app.transaction;
	const grouped = transaction.grouped;
	let writes = 0;
	transaction.grouped = <T>(fn: () => T): T => {
		writes++;
		return grouped(fn);
	};
	try {
		await gql(olivia, 'query Q { viewer { login } }');
		assert.is(writes, 0, 'a query takes no write transaction');
		const repo = await gql(olivia, '{ repository(owner: "acme", name: "web") { id } }');
		writes = 0;
		await gql(
			olivia,
			`query Q { viewer { login } } mutation M { addStar(input: { starrableId: "${repo.body.data.repository.id}" }) { clientMutationId } }`,
		);
		assert.is(writes, 0, 'without an operationName the document is refused before anything runs');
		const res = await s.request('POST', `${s.origin}/api/graphql`, {
			token: olivia,
			body: {
				query: `query Q { viewer { login } } mutation M { addStar(input: { starrableId: "${repo.body.data.repository.id}" }) { clientMutationId } }`,
				operationName: 'M',
			},
		});
		assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
		assert.is(writes, 1, 'the mutation runs in the write transaction');
	} finally {
		transaction.grouped = grouped;
	}
});

test('search: ISSUE and REPOSITORY through the search stores', async () => {
	const res = await gql(
		olivia,
		`{ search(type: ISSUE, query: "repo:acme/web is:issue First", first: 5) { issueCount nodes { ... on Issue { title } } }
		repos: search(type: REPOSITORY, query: "web org:acme", first: 5) { repositoryCount nodes { ... on Repository { nameWithOwner } } } }`,
	);
	assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
	assert.is(res.body.data.search.issueCount, 1);
	assert.is(res.body.data.search.nodes[0].title, 'First');
	assert.is(res.body.data.repos.nodes[0].nameWithOwner, 'acme/web');
});

/**
 * olivia/checked: main protected (strict status checks requiring ci/build, one approving review),
 * a pull request #1 from `topic` whose head has ci/build and ci/other statuses and a workflow run
 * with a `build` job. Returns the pull request's node id and head sha.
 */
async function checked(): Promise<{ id: string; head: string }> {
	const existing = await s.get('/repos/olivia/checked/pulls/1', olivia);
	if (existing.status === 200) return { id: existing.body.node_id, head: existing.body.head.sha };
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'checked', auto_init: true } });
	const main = (await s.get('/repos/olivia/checked/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/checked/git/refs', { token: olivia, body: { ref: 'refs/heads/topic', sha: main } });
	const put = await s.request('PUT', '/repos/olivia/checked/contents/topic.txt', {
		token: olivia,
		body: { message: 'Topic', content: Buffer.from('t').toString('base64'), branch: 'topic' },
	});
	const head = put.body.commit.sha as string;
	const protection = await s.request('PUT', '/repos/olivia/checked/branches/main/protection', {
		token: olivia,
		body: {
			required_status_checks: { strict: true, contexts: ['ci/build'] },
			enforce_admins: false,
			required_pull_request_reviews: { required_approving_review_count: 1 },
			restrictions: null,
		},
	});
	assert.is(protection.status, 200, `~> main is protected: ${protection.text}`);
	for (const context of ['ci/build', 'ci/other'])
		await s.request('POST', `/repos/olivia/checked/statuses/${head}`, { token: olivia, body: { state: 'success', context } });
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('olivia')!.id, 'checked')!;
	importRuns(s.app, repo, {
		workflows: [{ name: 'CI', path: '.github/workflows/ci.yml', jobs: [{ name: 'build' }] }],
		runs: [
			{
				path: '.github/workflows/ci.yml',
				actor: 'olivia',
				head_sha: head,
				branch: 'topic',
				status: 'completed',
				conclusion: 'failure',
				jobs: [{ name: 'build', conclusion: 'failure' }],
			},
		],
	});
	const pr = await s.request('POST', '/repos/olivia/checked/pulls', {
		token: olivia,
		body: { title: 'Topic', head: 'topic', base: 'main' },
	});
	assert.is(pr.status, 201, '~> the pull request is made');
	return { id: pr.body.node_id, head };
}

test('gh fixtures: PullRequestStatus (pr status): baseRef protection, reviewDecision, latestReviews, rollups; the default $per_page', async () => {
	await checked();
	const vars = {
		owner: 'olivia',
		repo: 'checked',
		headRefName: 'topic',
		viewerQuery: 'repo:olivia/checked state:open is:pr author:olivia',
		reviewerQuery: 'repo:olivia/checked state:open review-requested:olivia',
	};
	let data = await ghQuery('PullRequestStatus', vars);
	assert.equal(data.repository.defaultBranchRef, { name: 'main' }, '~> the default branch');
	assert.is(data.repository.pullRequests.totalCount, 1, '~> the pull request of the current branch');
	let pr = data.repository.pullRequests.edges[0].node;
	assert.is(pr.number, 1, '~> its number');
	assert.equal(
		pr.baseRef,
		{ branchProtectionRule: { requiresStrictStatusChecks: true } },
		'~> the base branch requires strict status checks (the admin reads the protection)',
	);
	assert.is(pr.reviewDecision, 'REVIEW_REQUIRED', '~> one approving review required, none given');
	assert.equal(pr.latestReviews.nodes, [], '~> no reviews yet');
	const contexts = pr.statusCheckRollup.nodes[0].commit.statusCheckRollup.contexts.nodes;
	assert.equal(
		contexts.map((c: { __typename: string; context?: string; name?: string }) => [c.__typename, c.context ?? c.name]),
		[
			['StatusContext', 'ci/other'],
			['StatusContext', 'ci/build'],
			['CheckRun', 'build'],
		],
		'~> statuses and check runs of the head commit',
	);
	assert.is(data.viewerCreated.totalCount, 1, '~> created by the viewer (search)');
	assert.is(data.viewerCreated.edges[0].node.reviewDecision, 'REVIEW_REQUIRED', '~> the same decision through search');
	assert.is(data.reviewRequested.totalCount, 0, '~> no review requested');
	const approve = await s.request('POST', '/repos/olivia/checked/pulls/1/reviews', {
		token: mia,
		body: { event: 'APPROVE', body: 'Good' },
	});
	assert.is(approve.status, 200, `~> mia approves: ${approve.text}`);
	data = await ghQuery('PullRequestStatus', vars);
	pr = data.repository.pullRequests.edges[0].node;
	assert.is(pr.reviewDecision, 'APPROVED', '~> the required approval is given');
	assert.equal(
		pr.latestReviews.nodes.map((r: { author: { login: string }; state: string; body: string }) => [r.author.login, r.state, r.body]),
		[['mia', 'APPROVED', 'Good']],
		'~> latestReviews',
	);
	await s.request('POST', '/repos/olivia/checked/pulls/1/reviews', { token: mia, body: { event: 'REQUEST_CHANGES', body: 'Wait' } });
	await s.request('POST', '/repos/olivia/checked/pulls/1/reviews', { token: eve, body: { event: 'COMMENT', body: 'Hm' } });
	data = await ghQuery('PullRequestStatus', vars);
	pr = data.repository.pullRequests.edges[0].node;
	assert.is(pr.reviewDecision, 'CHANGES_REQUESTED', "~> mia's latest review asks for changes");
	assert.equal(
		pr.latestReviews.nodes.map((r: { author: { login: string }; state: string }) => [r.author.login, r.state]),
		[
			['mia', 'CHANGES_REQUESTED'],
			['eve', 'COMMENTED'],
		],
		'~> the newest review of each author',
	);
	const asMia = await ghQuery('PullRequestStatus', { ...vars, viewerQuery: 'repo:olivia/checked is:pr author:mia' }, mia);
	assert.equal(
		asMia.repository.pullRequests.edges[0].node.baseRef,
		{ branchProtectionRule: null },
		'~> a non-admin does not read the protection (its REST twin is admin-only)',
	);
	assert.is(asMia.viewerCreated.totalCount, 0, '~> mia created none');
});

test("gh fixtures: PullRequestByNumber-4 and PullRequestStatusChecks (pr checks): isRequired from the base branch's protection", async () => {
	const { id } = await checked();
	const byNumber = await ghQuery('PullRequestByNumber-4', { owner: 'olivia', repo: 'checked', pr_number: 1 });
	assert.equal(byNumber.repository.pullRequest, { number: 1, headRefName: 'topic', id }, '~> the id gh asks the checks by');
	for (const token of [olivia, mia]) {
		const data = await ghQuery('PullRequestStatusChecks', { id }, token);
		const nodes = data.node.statusCheckRollup.nodes[0].commit.statusCheckRollup.contexts.nodes;
		const required = Object.fromEntries(
			nodes.map((n: { context?: string; name?: string; isRequired: boolean }) => [n.context ?? n.name, n.isRequired]),
		);
		assert.equal(
			required,
			{ 'ci/build': true, 'ci/other': false, build: false },
			'~> ci/build is required, the rest not (for admins and readers alike)',
		);
		const build = nodes.find((n: { name?: string }) => n.name === 'build');
		assert.is(build.conclusion, 'FAILURE', "~> the check run's conclusion");
		assert.is(build.status, 'COMPLETED', '~> and status');
	}
	const hidden = await gql(eve, fixture('PullRequestStatusChecks'), { id: Buffer.from('07:Issue999999').toString('base64') });
	assert.is(hidden.body.data.node, null, '~> an unknown node is null');
	assert.is(hidden.body.errors[0].type, 'NOT_FOUND', '~> with NOT_FOUND');
});

test('gh fixtures: RepositoryReleaseList (release list) and RepositoryReleaseByTag (release view): isLatest, order, a missing tag is null', async () => {
	await site();
	if ((await s.get('/repos/olivia/site/releases/tags/v1.0', olivia)).status !== 200) {
		await s.request('POST', '/repos/olivia/site/releases', {
			token: olivia,
			body: { tag_name: 'v1.0', name: 'One', body: 'First release' },
		});
		await s.request('POST', '/repos/olivia/site/releases', {
			token: olivia,
			body: { tag_name: 'v2.0-rc', name: 'Two RC', prerelease: true },
		});
	}
	const list = await ghQuery('RepositoryReleaseList', { owner: 'olivia', name: 'site', perPage: 30 });
	const nodes = list.repository.releases.nodes;
	assert.equal(
		nodes.map((r: { tagName: string; isLatest: boolean; isPrerelease: boolean; isDraft: boolean }) => [
			r.tagName,
			r.isLatest,
			r.isPrerelease,
			r.isDraft,
		]),
		[
			['v2.0-rc', false, true, false],
			['v1.0', true, false, false],
		],
		'~> newest first; the latest release is the newest full release',
	);
	assert.is(nodes[1].name, 'One', '~> name');
	assert.ok(nodes[1].publishedAt && nodes[1].createdAt, '~> dates');
	assert.is(list.repository.releases.pageInfo.hasNextPage, false, '~> one page');
	const paged = await ghQuery('RepositoryReleaseList', { owner: 'olivia', name: 'site', perPage: 1 });
	assert.is(paged.repository.releases.pageInfo.hasNextPage, true, '~> a page of one has a next page');
	const rest = await ghQuery('RepositoryReleaseList', {
		owner: 'olivia',
		name: 'site',
		perPage: 1,
		endCursor: paged.repository.releases.pageInfo.endCursor,
	});
	assert.is(rest.repository.releases.nodes[0].tagName, 'v1.0', '~> after the cursor');
	const byTag = await ghQuery('RepositoryReleaseByTag', { owner: 'olivia', name: 'site', tagName: 'v1.0' });
	const id = (await s.get('/repos/olivia/site/releases/tags/v1.0', olivia)).body.id;
	assert.equal(byTag.repository.release, { databaseId: id, isDraft: false }, '~> the release of the tag');
	const missing = await ghQuery('RepositoryReleaseByTag', { owner: 'olivia', name: 'site', tagName: 'nope' });
	assert.is(missing.repository.release, null, '~> no release for the tag: null');
	const asc = await gql(
		olivia,
		'{ repository(owner: "olivia", name: "site") { releases(first: 5, orderBy: {field: NAME, direction: ASC}) { nodes { name } } } }',
	);
	assert.equal(
		asc.body.data.repository.releases.nodes.map((r: { name: string }) => r.name),
		['One', 'Two RC'],
		'~> orderBy NAME ASC',
	);
});

test('gh fixtures: IssueStatus (issue status), PullRequestSearch (pr list --search), CommentsForIssue and IssueByNumber-4 (--comments), PullRequestForRun (run view)', async () => {
	await site();
	const status = await ghQuery('IssueStatus', { owner: 'olivia', repo: 'site', viewer: 'olivia' });
	assert.equal(
		status.repository.assigned.nodes.map((i: { number: number }) => i.number),
		[1],
		'~> open issues assigned to the viewer',
	);
	assert.equal(
		status.repository.authored.nodes.map((i: { number: number }) => i.number),
		[1],
		'~> open issues the viewer opened (the closed one left out)',
	);
	assert.is(status.repository.mentioned.totalCount, 0, '~> none mentions the viewer');
	const search = await ghQuery('PullRequestSearch', { q: 'repo:olivia/site is:pr feature', limit: 30 });
	assert.is(search.search.issueCount, 1, '~> the pull request found');
	assert.equal(
		{ number: search.search.nodes[0].number, headRefName: search.search.nodes[0].headRefName, isDraft: search.search.nodes[0].isDraft },
		{ number: 3, headRefName: 'feature', isDraft: true },
	);
	const issue = await ghQuery('IssueByNumber-4', { owner: 'olivia', repo: 'site', number: 1 });
	const comments = await ghQuery('CommentsForIssue', { id: issue.repository.issue.id });
	assert.equal(
		comments.node.comments.nodes.map((c: { body: string; author: { login: string } }) => [c.author.login, c.body]),
		[['mia', 'Seen it too']],
		"~> the issue's comments by node id",
	);
	assert.is(comments.node.comments.nodes[0].viewerDidAuthor, false, "~> not the viewer's");
	const run = await ghQuery('PullRequestForRun', { owner: 'olivia', repo: 'site', headRefName: 'feature' });
	assert.equal(
		run.repository.pullRequests.nodes,
		[{ number: 3, headRepository: { owner: { login: 'olivia' }, name: 'site' } }],
		"~> the pull request of the run's branch",
	);
});

test('limits: a variable left out takes its declared default', async () => {
	const res = await gql(olivia, 'query($n: Int = 500) { viewer { repositories(first: $n) { totalCount } } }');
	assert.is(res.body.errors?.[0]?.type, 'EXCESSIVE_PAGINATION', `~> the default 500 is past the bound: ${JSON.stringify(res.body)}`);
	const ok = await gql(olivia, 'query($n: Int = 2) { viewer { repositories(first: $n) { nodes { name } } } }');
	assert.is(ok.body.errors, undefined, '~> the default 2 is within it');
	assert.ok(ok.body.data.viewer.repositories.nodes.length <= 2, '~> at most 2');
});

test("gh fixtures: GistList (gist list): the viewer's gists by privacy; another user sees the public ones", async () => {
	const made = await s.request('POST', '/gists', {
		token: olivia,
		body: { description: 'Snippets', public: true, files: { 'a.js': { content: 'let a' } } },
	});
	assert.is(made.status, 201, '~> a public gist');
	await s.request('POST', '/gists', {
		token: olivia,
		body: { description: 'Secret notes', public: false, files: { 'b.txt': { content: 'b' }, 'c.md': { content: '# c' } } },
	});
	const names = (data: any) => data.viewer.gists.nodes.map((n: { description: string }) => n.description).sort();
	assert.equal(names(await ghQuery('GistList', { per_page: 10, visibility: 'ALL' })), ['Secret notes', 'Snippets'], '~> ALL: both');
	assert.equal(names(await ghQuery('GistList', { per_page: 10, visibility: 'SECRET' })), ['Secret notes'], '~> SECRET');
	const pub = await ghQuery('GistList', { per_page: 10, visibility: 'PUBLIC' });
	assert.equal(
		pub.viewer.gists.nodes,
		[{ description: 'Snippets', files: [{ name: 'a.js' }], isPublic: true, name: made.body.id, updatedAt: made.body.updated_at }],
		'~> PUBLIC: the gist, its files, its id as name',
	);
	const other = await gql(
		mia,
		'{ user(login: "olivia") { gists(first: 10, privacy: ALL) { totalCount nodes { description isFork files { name text extension } } } } }',
	);
	assert.is(other.body.errors, undefined, JSON.stringify(other.body.errors));
	assert.equal(
		other.body.data.user.gists.nodes,
		[{ description: 'Snippets', isFork: false, files: [{ name: 'a.js', text: 'let a', extension: '.js' }] }],
		'~> another user: the public gist only (GET /users/{username}/gists)',
	);
});

test('gh fixtures: RepositoryInfo-3 (repo view --json latestRelease,languages,repositoryTopics,primaryLanguage)', async () => {
	await site();
	await s.request('PUT', '/repos/olivia/site/topics', { token: olivia, body: { names: ['web', 'docs'] } });
	if ((await s.get('/repos/olivia/site/releases/tags/v1.0', olivia)).status !== 200)
		await s.request('POST', '/repos/olivia/site/releases', { token: olivia, body: { tag_name: 'v1.0', name: 'One' } });
	const data = await ghQuery('RepositoryInfo-3', { owner: 'olivia', name: 'site' });
	const repo = data.repository;
	assert.is(repo.latestRelease.tagName, 'v1.0', '~> the latest release');
	assert.equal(
		repo.repositoryTopics.nodes.map((n: { topic: { name: string } }) => n.topic.name).sort(),
		['docs', 'web'],
		'~> the topics',
	);
	const languages = (await s.get('/repos/olivia/site/languages', olivia)).body as Record<string, number>;
	assert.equal(
		repo.languages.edges.map((e: { size: number; node: { name: string } }) => [e.node.name, e.size]),
		Object.entries(languages),
		'~> the languages and their bytes, as REST lists them',
	);
	const rest = (await s.get('/repos/olivia/site', olivia)).body;
	assert.equal(repo.primaryLanguage, rest.language ? { name: rest.language } : null, "~> the primary language is REST's language");
	const empty = await ghQuery('RepositoryInfo-3', { owner: 'acme', name: 'web' });
	assert.is(empty.repository.latestRelease, null, '~> no release: null');
	assert.equal(empty.repository.repositoryTopics.nodes, [], '~> no topics');
});

test('gh fixtures: PullRequestByNumber-5 (pr view --json files,changedFiles,reviewDecision,latestReviews,commits)', async () => {
	await site();
	const data = await ghQuery('PullRequestByNumber-5', { owner: 'olivia', repo: 'site', pr_number: 3 });
	const pr = data.repository.pullRequest;
	assert.equal(
		pr.files.nodes,
		[{ additions: 1, deletions: 0, path: 'feature.txt' }],
		'~> the changed files (GET …/pulls/{number}/files)',
	);
	assert.is(pr.changedFiles, 1, '~> changedFiles');
	assert.is(pr.reviewDecision, null, '~> no review required, none given: null');
	assert.equal(pr.latestReviews.nodes, [], '~> no reviews');
	const [c] = pr.commits.nodes;
	assert.is(c.commit.messageHeadline, 'Feature', '~> the headline');
	assert.is(c.commit.messageBody, '', '~> no body');
	assert.equal(
		c.commit.authors.nodes.map((a: { name: string; user: { login: string } | null }) => [a.name, a.user?.login]),
		[['olivia', 'olivia']],
		'~> the git author and its account',
	);
});

test('gh fixtures: PullRequestByNumber-6 and PullRequestProjectItems, PullRequestUpdate (pr edit), PullRequestClose / PullRequestReopen (pr close / reopen) through PATCH …/pulls and …/issues', async () => {
	await site();
	const main = (await s.get('/repos/olivia/site/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/site/git/refs', { token: olivia, body: { ref: 'refs/heads/edit', sha: main } });
	await s.request('PUT', '/repos/olivia/site/contents/edit.txt', {
		token: olivia,
		body: { message: 'Edit', content: Buffer.from('e').toString('base64'), branch: 'edit' },
	});
	const made = await s.request('POST', '/repos/olivia/site/pulls', {
		token: olivia,
		body: { title: 'To edit', head: 'edit', base: 'main' },
	});
	assert.is(made.status, 201, '~> the pull request to edit');
	const number = made.body.number as number;
	const view = await ghQuery('PullRequestByNumber-6', { owner: 'olivia', repo: 'site', pr_number: number });
	const id = view.repository.pullRequest.id;
	const items = await ghQuery('PullRequestProjectItems', { owner: 'olivia', name: 'site', number });
	assert.equal(
		items.repository.pullRequest.projectItems,
		{ nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
		'~> Gitstead has no projects: no project items',
	);
	const bug = (await s.get('/repos/olivia/site/labels/bug', olivia)).body.node_id;
	const oliviaId = (await s.get('/users/olivia', olivia)).body.node_id;
	await ghQuery('PullRequestUpdate', {
		input: { pullRequestId: id, title: 'Edited', body: 'New body', labelIds: [bug], assigneeIds: [oliviaId] },
	});
	const rest = (await s.get(`/repos/olivia/site/pulls/${number}`, olivia)).body;
	assert.equal(
		[rest.title, rest.body, rest.labels.map((l: { name: string }) => l.name), rest.assignees.map((a: { login: string }) => a.login)],
		['Edited', 'New body', ['bug'], ['olivia']],
		'~> title and body (the pulls twin), labels and assignees (the issues twin)',
	);
	const refused = await gql(eve, fixture('PullRequestUpdate'), { input: { pullRequestId: id, title: 'Hijacked' } });
	assert.is(refused.body.errors?.[0]?.type, 'FORBIDDEN', `~> eve may not edit it: ${JSON.stringify(refused.body)}`);
	assert.is((await s.get(`/repos/olivia/site/pulls/${number}`, olivia)).body.title, 'Edited', '~> unchanged');
	const projects = await gql(olivia, fixture('PullRequestUpdate'), {
		input: { pullRequestId: id, projectIds: [Buffer.from('09:ProjectV21').toString('base64')] },
	});
	assert.is(projects.body.errors?.[0]?.type, 'NOT_FOUND', '~> no project to name');
	const closed = await ghQuery('PullRequestClose', { input: { pullRequestId: id } });
	assert.equal(closed.closePullRequest.pullRequest, { id }, '~> the closed pull request');
	assert.is((await s.get(`/repos/olivia/site/pulls/${number}`, olivia)).body.state, 'closed', '~> closed through the REST twin');
	await ghQuery('PullRequestReopen', { input: { pullRequestId: id } });
	assert.is((await s.get(`/repos/olivia/site/pulls/${number}`, olivia)).body.state, 'open', '~> open again');
	const issueId = (await s.get('/repos/olivia/site/issues/1', olivia)).body.node_id;
	const notPull = await gql(olivia, fixture('PullRequestClose'), { input: { pullRequestId: issueId } });
	assert.is(notPull.body.errors?.[0]?.type, 'NOT_FOUND', '~> an issue is no pull request');
});

test('gh fixtures: RepositoryInfo-4 and ArchiveRepository (repo archive) through PATCH /repos/{owner}/{repo}; unarchiveRepository', async () => {
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'attic' } });
	const info = await ghQuery('RepositoryInfo-4', { owner: 'olivia', name: 'attic' });
	assert.is(info.repository.isArchived, false, '~> not archived yet');
	const refused = await gql(mia, fixture('ArchiveRepository'), { input: { repositoryId: info.repository.id } });
	assert.is(refused.body.errors?.[0]?.type, 'FORBIDDEN', `~> mia may not archive it: ${JSON.stringify(refused.body)}`);
	const data = await ghQuery('ArchiveRepository', { input: { repositoryId: info.repository.id } });
	assert.equal(data.archiveRepository.repository, { id: info.repository.id }, '~> the archived repository');
	assert.is((await s.get('/repos/olivia/attic', olivia)).body.archived, true, '~> archived through the REST twin');
	const back = await gql(olivia, 'mutation($id: ID!) { unarchiveRepository(input: {repositoryId: $id}) { repository { isArchived } } }', {
		id: info.repository.id,
	});
	assert.equal(back.body.data.unarchiveRepository.repository, { isArchived: false }, '~> unarchived');
});

test('gh fixtures: RepositoryInfo-5 (repo view --json with the viewer and settings fields): through the repository, subscription, subscribers, assignees and commits twins', async () => {
	await site();
	const data = await ghQuery('RepositoryInfo-5', { owner: 'olivia', name: 'site' });
	const r = data.repository;
	assert.equal(
		{ ...r, diskUsage: undefined },
		{
			hasProjectsEnabled: true,
			hasDiscussionsEnabled: false,
			isInOrganization: false,
			isMirror: false,
			mirrorUrl: null,
			viewerCanAdminister: true,
			viewerSubscription: 'SUBSCRIBED',
			watchers: { totalCount: 1 },
			licenseInfo: null,
			templateRepository: null,
			diskUsage: undefined,
			assignableUsers: {
				nodes: [
					{ id: (await s.get('/users/olivia', olivia)).body.node_id, login: 'olivia', name: r.assignableUsers.nodes[0].name },
				],
			},
			projects: { nodes: [] },
			viewerDefaultMergeMethod: 'MERGE',
			isEmpty: false,
			isUserConfigurationRepository: false,
		},
		'~> the owner watches it (auto-subscribed), administers it; no license, template, mirror or projects',
	);
	assert.is(typeof r.diskUsage, 'number', "~> diskUsage: REST's size");
	const asMia = (await ghQuery('RepositoryInfo-5', { owner: 'olivia', name: 'site' }, mia)).repository;
	assert.is(asMia.viewerCanAdminister, false, '~> mia does not administer it');
	assert.is(asMia.viewerSubscription, 'UNSUBSCRIBED', '~> nor watch it');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'bare' } });
	const bare = (await ghQuery('RepositoryInfo-5', { owner: 'acme', name: 'bare' })).repository;
	assert.is(bare.isEmpty, true, '~> no commits: empty (the commits twin answers 409)');
	assert.is(bare.isInOrganization, true, "~> an organization's repository");
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'olivia' } });
	assert.is(
		(await ghQuery('RepositoryInfo-5', { owner: 'olivia', name: 'olivia' })).repository.isUserConfigurationRepository,
		true,
		'~> the profile repository',
	);
});

test('gh fixtures: PullRequestByNumber-9 (pr view --json mergeCommit,mergedBy,potentialMergeCommit)', async () => {
	await site();
	const main = (await s.get('/repos/olivia/site/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/site/git/refs', { token: olivia, body: { ref: 'refs/heads/tomerge', sha: main } });
	await s.request('PUT', '/repos/olivia/site/contents/merge.txt', {
		token: olivia,
		body: { message: 'Merge me', content: Buffer.from('m').toString('base64'), branch: 'tomerge' },
	});
	const made = await s.request('POST', '/repos/olivia/site/pulls', {
		token: olivia,
		body: { title: 'To merge', head: 'tomerge', base: 'main' },
	});
	const number = made.body.number as number;
	const open = (await ghQuery('PullRequestByNumber-9', { owner: 'olivia', repo: 'site', pr_number: number })).repository.pullRequest;
	assert.is(open.mergeCommit, null, '~> not merged: no merge commit');
	assert.is(open.mergedBy, null, '~> nor merger');
	const rest = (await s.get(`/repos/olivia/site/pulls/${number}`, olivia)).body;
	assert.equal(
		open.potentialMergeCommit,
		rest.merge_commit_sha ? { oid: rest.merge_commit_sha } : null,
		'~> the test merge commit REST names',
	);
	const merged = await s.request('PUT', `/repos/olivia/site/pulls/${number}/merge`, { token: olivia, body: { merge_method: 'merge' } });
	assert.is(merged.status, 200, `~> merged: ${merged.text}`);
	const done = (await ghQuery('PullRequestByNumber-9', { owner: 'olivia', repo: 'site', pr_number: number })).repository.pullRequest;
	assert.equal(done.mergeCommit, { oid: merged.body.sha }, '~> the merge commit');
	assert.is(done.mergedBy.login, 'olivia', '~> merged by olivia');
	assert.is(done.potentialMergeCommit, null, '~> no potential merge commit once merged');
	const full = await gql(
		olivia,
		`{ repository(owner: "olivia", name: "site") { pullRequest(number: ${number}) { mergeCommit { oid messageHeadline authors(first: 1) { nodes { name } } } } } }`,
	);
	assert.is(full.body.errors, undefined, JSON.stringify(full.body.errors));
	assert.is(full.body.data.repository.pullRequest.mergeCommit.oid, merged.body.sha, '~> the merge commit through GET …/commits/{sha}');
	assert.ok(full.body.data.repository.pullRequest.mergeCommit.messageHeadline.length > 0, '~> with its message');
});

test('repositories: isFork and isArchived filter the REST list (gh repo list --fork / --source)', async () => {
	await site();
	const fork = await s.request('POST', '/repos/olivia/site/forks', { token: mia, body: {} });
	assert.ok(fork.status === 202 || fork.status === 200, `~> mia forks olivia/site: ${fork.status}`);
	await s.request('POST', '/user/repos', { token: mia, body: { name: 'own' } });
	const names = async (args: string, token = mia) => {
		const res = await gql(
			token,
			`{ viewer { repositories(first: 50, ownerAffiliations: OWNER, ${args}) { totalCount nodes { name } } } }`,
		);
		assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
		return res.body.data.viewer.repositories.nodes.map((n: { name: string }) => n.name).sort();
	};
	assert.equal(await names('isFork: true'), ['site'], '~> forks only');
	const sources = await names('isFork: false');
	assert.ok(sources.includes('own') && !sources.includes('site'), `~> sources only: ${sources}`);
	const other = await gql(
		olivia,
		'{ user(login: "mia") { repositories(first: 50, isFork: true) { totalCount nodes { nameWithOwner } } } }',
	);
	assert.equal(
		other.body.data.user.repositories,
		{ totalCount: 1, nodes: [{ nameWithOwner: 'mia/site' }] },
		"~> another user's forks, with their count",
	);
	const archived = await gql(olivia, '{ organization(login: "acme") { repositories(first: 50, isArchived: false) { nodes { name } } } }');
	assert.ok(archived.body.data.organization.repositories.nodes.length > 0, "~> the organization's unarchived repositories");
	const page = await gql(mia, '{ viewer { repositories(first: 1, isFork: false) { totalCount pageInfo { hasNextPage } } } }');
	assert.equal(
		page.body.data.viewer.repositories,
		{ totalCount: sources.length, pageInfo: { hasNextPage: sources.length > 1 } },
		'~> counts and pages after the filter',
	);
});

test('milestones: Repository.milestone(number:), issues filterBy milestoneNumber, and IssueSearch with milestone: (gh issue list --milestone) through GET /search/issues', async () => {
	await site();
	const made = await s.request('POST', '/repos/olivia/site/milestones', { token: olivia, body: { title: 'Launch Day' } });
	assert.is(made.status, 201, '~> a milestone');
	const number = made.body.number as number;
	await s.request('PATCH', '/repos/olivia/site/issues/1', { token: olivia, body: { milestone: number } });
	const one = await gql(
		olivia,
		`{ repository(owner: "olivia", name: "site") { milestone(number: ${number}) { title number state } none: milestone(number: 999) { title } } }`,
	);
	assert.equal(
		one.body.data.repository,
		{ milestone: { title: 'Launch Day', number, state: 'OPEN' }, none: null },
		'~> by number; an unknown number is null',
	);
	const numbers = async (milestoneNumber: string | null) => {
		const res = await gql(
			olivia,
			'query($m: String) { repository(owner: "olivia", name: "site") { issues(first: 10, filterBy: {milestoneNumber: $m}, states: [OPEN, CLOSED]) { nodes { number } } } }',
			{ m: milestoneNumber },
		);
		assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
		return res.body.data.repository.issues.nodes.map((n: { number: number }) => n.number).sort();
	};
	assert.equal(await numbers(String(number)), [1], '~> the issue in the milestone');
	assert.equal(await numbers('*'), [1], '~> "*": in any milestone');
	const without = await numbers('none');
	assert.ok(without.includes(2) && !without.includes(1), `~> "none": in none (${without})`);
	assert.equal(await numbers('999'), [], '~> an unknown milestone: nothing');
	const search = await ghQuery('IssueSearch', {
		owner: 'olivia',
		repo: 'site',
		type: 'ISSUE',
		limit: 30,
		query: 'milestone:"launch day" repo:olivia/site state:open type:issue',
	});
	assert.equal(
		search.search.nodes.map((n: { number: number }) => n.number),
		[1],
		'~> milestone: matches the title, in any case',
	);
	const none = await ghQuery('IssueSearch', {
		owner: 'olivia',
		repo: 'site',
		type: 'ISSUE',
		limit: 30,
		query: 'no:milestone repo:olivia/site type:issue',
	});
	assert.equal(none.search.nodes.map((n: { number: number }) => n.number).sort(), without, '~> no:milestone');
	const not = await ghQuery('IssueSearch', {
		owner: 'olivia',
		repo: 'site',
		type: 'ISSUE',
		limit: 30,
		query: '-milestone:"Launch Day" repo:olivia/site type:issue',
	});
	assert.equal(not.search.nodes.map((n: { number: number }) => n.number).sort(), without, '~> -milestone:');
});

test('gh fixtures: RepositoryResolveMetadataIDs and PullRequestCreateMetadata (pr create --label --assignee): ids by name, then updatePullRequest', async () => {
	await site();
	const query = fixture('RepositoryResolveMetadataIDs').replace('name:"web"', 'name:"site"');
	const res = await gql(olivia, query);
	assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
	const ids = res.body.data;
	assert.is(ids.u000.login, 'olivia', '~> the user by login');
	assert.is(ids.repository.l000.name, 'bug', '~> the label by name');
	const main = (await s.get('/repos/olivia/site/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/site/git/refs', { token: olivia, body: { ref: 'refs/heads/meta', sha: main } });
	await s.request('PUT', '/repos/olivia/site/contents/meta.txt', {
		token: olivia,
		body: { message: 'Meta', content: Buffer.from('m').toString('base64'), branch: 'meta' },
	});
	const made = (
		await s.request('POST', '/repos/olivia/site/pulls', { token: olivia, body: { title: 'Meta', head: 'meta', base: 'main' } })
	).body;
	const data = await ghQuery('PullRequestCreateMetadata', {
		input: { pullRequestId: made.node_id, labelIds: [ids.repository.l000.id], assigneeIds: [ids.u000.id], clientMutationId: 'm1' },
	});
	assert.equal(data, { updatePullRequest: { clientMutationId: 'm1' } }, '~> the clientMutationId back');
	const pr = (await s.get(`/repos/olivia/site/pulls/${made.number}`, olivia)).body;
	assert.equal(
		[pr.labels.map((l: { name: string }) => l.name), pr.assignees.map((a: { login: string }) => a.login)],
		[['bug'], ['olivia']],
		'~> labels and assignees through the issues twin',
	);
});

test('search: review-requested:, user-review-requested:, reviewed-by: (gh pr status "Requesting a code review from you")', async () => {
	await site();
	const main = (await s.get('/repos/olivia/site/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/site/git/refs', { token: olivia, body: { ref: 'refs/heads/askreview', sha: main } });
	await s.request('PUT', '/repos/olivia/site/contents/ask.txt', {
		token: olivia,
		body: { message: 'Ask', content: Buffer.from('a').toString('base64'), branch: 'askreview' },
	});
	const made = (
		await s.request('POST', '/repos/olivia/site/pulls', {
			token: olivia,
			body: { title: 'Please review', head: 'askreview', base: 'main' },
		})
	).body;
	const asked = await s.request('POST', `/repos/olivia/site/pulls/${made.number}/requested_reviewers`, {
		token: olivia,
		body: { reviewers: ['mia'] },
	});
	assert.is(asked.status, 201, `~> mia is asked: ${asked.text}`);
	const found = async (q: string, token = mia) => {
		const res = await gql(
			token,
			'query($q: String!) { search(type: ISSUE, query: $q, first: 20) { issueCount nodes { ... on PullRequest { number } } } }',
			{ q },
		);
		assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
		return res.body.data.search.nodes.map((n: { number: number }) => n.number);
	};
	assert.equal(await found('repo:olivia/site is:pr review-requested:mia'), [made.number], '~> review-requested:');
	assert.equal(await found('repo:olivia/site is:pr user-review-requested:mia'), [made.number], '~> user-review-requested:');
	assert.ok(!(await found('repo:olivia/site is:pr -review-requested:mia')).includes(made.number), '~> -review-requested:');
	const status = await ghQuery(
		'PullRequestStatus',
		{
			owner: 'olivia',
			repo: 'site',
			headRefName: 'nothing',
			viewerQuery: 'repo:olivia/site state:open is:pr author:mia',
			reviewerQuery: 'repo:olivia/site state:open review-requested:mia',
		},
		mia,
	);
	assert.equal(
		status.reviewRequested.edges.map((e: { node: { number: number } }) => e.node.number),
		[made.number],
		'~> gh pr status lists it for mia',
	);
	await s.request('POST', `/repos/olivia/site/pulls/${made.number}/reviews`, { token: mia, body: { event: 'COMMENT', body: 'Looked' } });
	assert.equal(await found('repo:olivia/site is:pr review-requested:mia'), [], '~> the review answered the request');
	assert.ok((await found('repo:olivia/site is:pr reviewed-by:mia')).includes(made.number), '~> reviewed-by:');
	assert.ok(!(await found('repo:olivia/site is:pr reviewed-by:eve')).includes(made.number), '~> not by eve');
});

test.run();
