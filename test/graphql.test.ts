/**
 * POST /api/graphql (and /graphql): GitHub's GraphQL endpoint over the REST twins — viewer, user,
 * repository with its connections, organization, node ids, errors, limits, rateLimit, mutations,
 * search; and the queries gh sends (test/fixtures/gh/*.graphql) answered field by field.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
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
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web', description: 'The website', homepage: 'https://acme.test' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	await s.request('POST', '/repos/acme/web/labels', { token: olivia, body: { name: 'bug', color: 'd73a4a', description: 'Something is broken' } });
	await s.request('POST', '/repos/acme/web/labels', { token: olivia, body: { name: 'docs', color: '0075ca' } });
	await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'First', labels: ['bug'] } });
	await s.request('POST', '/repos/acme/web/issues', { token: mia, body: { title: 'Second' } });
	const third = await s.request('POST', '/repos/acme/web/issues', { token: mia, body: { title: 'Third' } });
	await s.request('PATCH', `/repos/acme/web/issues/${third.body.number}`, { token: olivia, body: { state: 'closed' } });
});
test.after(() => s.close());

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
	assert.is(res.body.data.user.id, Buffer.from(`04:User${res.body.data.user.databaseId}`).toString('base64'), 'global ids are GitHub\'s legacy node ids');
	assert.is(res.headers.get('etag'), null, 'no ETag');
	assert.is(res.headers.get('x-ratelimit-resource'), 'graphql', 'counted in the graphql category');
	const org = await gql(olivia, '{ user(login: "acme") { login } }');
	assert.equal(org.body.data, { user: null });
	assert.is(org.body.errors[0].type, 'NOT_FOUND');
	assert.equal(org.body.errors[0].path, ['user']);
	assert.is(org.body.errors[0].message, "Could not resolve to a User with the login of 'acme'.");
});

test('repository: the fields gh repo view reads; hidden private repository NOT_FOUND', async () => {
	const res = await gql(mia, `{ repository(owner: "acme", name: "web") {
		id name nameWithOwner description url isPrivate visibility isFork isArchived defaultBranchRef { name }
		stargazerCount forkCount owner { login } createdAt updatedAt pushedAt homepageUrl viewerPermission
		issues(first: 10, states: [OPEN]) { totalCount nodes { number title labels(first: 5) { nodes { name } } } }
		labels(first: 10) { totalCount nodes { name color description } }
	} }`);
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
	assert.equal(repo.issues.nodes.map((i: { title: string }) => i.title), ['First', 'Second'], 'oldest first by default');
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
	const last = await gql(olivia, '{ repository(owner: "acme", name: "web") { issues(last: 2) { nodes { title } pageInfo { hasNextPage } } } }');
	assert.equal(last.body.data.repository.issues.nodes.map((i: { title: string }) => i.title), ['Second', 'Third']);
});

test('limits: first/last required and at most 100, before execution', async () => {
	const missing = await gql(olivia, '{ repository(owner: "acme", name: "web") { issues { totalCount } } }');
	assert.is(missing.body.data, undefined, 'nothing runs');
	assert.is(missing.body.errors[0].type, 'MISSING_PAGINATION_BOUNDARIES');
	assert.is(missing.body.errors[0].message, 'You must provide a `first` or `last` value to properly paginate the `issues` connection.');
	const excessive = await gql(olivia, '{ repository(owner: "acme", name: "web") { issues(first: 101) { totalCount } } }');
	assert.is(excessive.body.errors[0].type, 'EXCESSIVE_PAGINATION');
	assert.is(excessive.body.errors[0].message, 'Requesting 101 records on the `issues` connection exceeds the `first` limit of 100 records.');
	const huge = await gql(olivia, `{ viewer { organizations(first: 100) { nodes { repositories(first: 100) { nodes {
		issues(first: 100) { nodes { labels(first: 100) { totalCount } } } } } } } } }`);
	assert.is(huge.body.errors[0].type, 'MAX_NODE_LIMIT_EXCEEDED');
	assert.is(huge.body.errors[0].message, 'This query requests up to 101,010,100 possible nodes which exceeds the maximum limit of 500,000.');
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
	const big = await gql(rita, '{ rateLimit { cost nodeCount } viewer { repositories(first: 100) { nodes { issues(first: 100) { totalCount } } } } }');
	assert.is(big.body.data.rateLimit.nodeCount, 10100);
	assert.is(big.body.data.rateLimit.cost, 1, '101 requests / 100, rounded');
});

test('organization: teams, membersWithRole with roles, repositories', async () => {
	const res = await gql(mia, `{ organization(login: "acme") { login membersWithRole(first: 10) { totalCount edges { role node { login } } }
		repositories(first: 10) { totalCount nodes { name } } teams(first: 5) { totalCount } } }`);
	assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
	const org = res.body.data.organization;
	assert.is(org.membersWithRole.totalCount, 2);
	const roles = Object.fromEntries(org.membersWithRole.edges.map((e: { role: string; node: { login: string } }) => [e.node.login, e.role]));
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
	const nodes = await gql(olivia, `{ node(id: "${id}") { ... on Repository { nameWithOwner } } nodes(ids: ["${issue.id}"]) { ... on Issue { title } } }`);
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
	const created = await gql(mia, `mutation($input: CreateIssueInput!) { createIssue(input: $input) { clientMutationId issue { number title state author { login } } } }`, {
		input: { repositoryId: repoId, title: 'From GraphQL', body: 'hello', clientMutationId: 'x1' },
	});
	assert.is(created.body.errors, undefined, JSON.stringify(created.body.errors));
	const issue = created.body.data.createIssue.issue;
	assert.is(created.body.data.createIssue.clientMutationId, 'x1');
	assert.is(issue.author.login, 'mia');
	const rest = await s.get(`/repos/acme/web/issues/${issue.number}`, olivia);
	assert.is(rest.body.title, 'From GraphQL', 'the REST twin sees it');
	const node = await gql(olivia, `{ repository(owner: "acme", name: "web") { issue(number: ${issue.number}) { id } } }`);
	const issueId = node.body.data.repository.issue.id;
	const comment = await gql(mia, `mutation { addComment(input: { subjectId: "${issueId}", body: "A comment" }) { commentEdge { node { body author { login } } } } }`);
	assert.is(comment.body.data.addComment.commentEdge.node.body, 'A comment');
	const labeled = await gql(olivia, `mutation { addLabelsToLabelable(input: { labelableId: "${issueId}", labelIds: ["${bug}"] }) { labelable { ... on Issue { labels(first: 5) { nodes { name } } } } } }`);
	assert.equal(labeled.body.data.addLabelsToLabelable.labelable.labels.nodes, [{ name: 'bug' }]);
	const forbidden = await gql(eve, `mutation { closeIssue(input: { issueId: "${issueId}" }) { issue { state } } }`);
	assert.is(forbidden.body.errors[0].type, 'FORBIDDEN', 'eve may not close another user\'s issue');
	assert.equal(forbidden.body.errors[0].path, ['closeIssue']);
	const closed = await gql(olivia, `mutation { closeIssue(input: { issueId: "${issueId}", stateReason: NOT_PLANNED }) { issue { state closed } } }`);
	assert.equal(closed.body.data.closeIssue.issue, { state: 'CLOSED', closed: true });
	const label = await gql(olivia, `mutation { createLabel(input: { repositoryId: "${repoId}", name: "ux", color: "ff00ff" }) { label { name color } } }`);
	assert.equal(label.body.data.createLabel.label, { name: 'ux', color: 'ff00ff' });
	const invalid = await gql(olivia, `mutation { createLabel(input: { repositoryId: "${repoId}", name: "ux", color: "ff00ff" }) { label { name } } }`);
	assert.is(invalid.body.errors[0].type, 'UNPROCESSABLE', 'the twin\'s 422');
	const star = await gql(eve, `mutation { addStar(input: { starrableId: "${repoId}" }) { starrable { stargazerCount viewerHasStarred } } }`);
	assert.equal(star.body.data.addStar.starrable, { stargazerCount: 1, viewerHasStarred: true });
});

test('search: ISSUE and REPOSITORY through the search stores', async () => {
	const res = await gql(olivia, `{ search(type: ISSUE, query: "repo:acme/web is:issue First", first: 5) { issueCount nodes { ... on Issue { title } } }
		repos: search(type: REPOSITORY, query: "web org:acme", first: 5) { repositoryCount nodes { ... on Repository { nameWithOwner } } } }`);
	assert.is(res.body.errors, undefined, JSON.stringify(res.body.errors));
	assert.is(res.body.data.search.issueCount, 1);
	assert.is(res.body.data.search.nodes[0].title, 'First');
	assert.is(res.body.data.repos.nodes[0].nameWithOwner, 'acme/web');
});

test.run();
