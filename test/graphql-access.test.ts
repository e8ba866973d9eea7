/**
 * GraphQL fields served from the stores decide access with the REST routes' rules: private
 * repositories are NOT_FOUND to outsiders, a read-only token cannot write, a token lacking the
 * Issues permission reads a public repository as anonymous; and the issues / pullRequests
 * connections filter and page in SQL with stable cursors.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('graphql-access');
let s: TestServer;
let olivia: string;
let eve: string;

const gql = (token: string | undefined, query: string, variables?: Record<string, unknown>) =>
	s.request('POST', `${s.origin}/api/graphql`, { token, body: { query, variables } });

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'eve']) s.user(login);
	olivia = s.fullToken('olivia');
	eve = s.fullToken('eve');
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'site' } });
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'secret', private: true } });
	for (let i = 1; i <= 7; i++) {
		await s.request('POST', '/repos/olivia/site/issues', {
			token: olivia,
			body: { title: `Issue ${i}`, labels: i % 2 ? ['bug'] : i % 3 === 0 ? ['ui'] : [] },
		});
	}
	await s.request('PATCH', '/repos/olivia/site/issues/2', { token: olivia, body: { state: 'closed' } });
	await s.request('POST', '/repos/olivia/secret/issues', { token: olivia, body: { title: 'Hidden' } });
});

test.after(() => s.close());

test('a private repository is NOT_FOUND to an outsider, with GitHub message', async () => {
	const res = await gql(eve, '{ repository(owner: "olivia", name: "secret") { name } }');
	assert.is(res.body.data.repository, null);
	assert.is(res.body.errors[0].type, 'NOT_FOUND');
	assert.is(res.body.errors[0].message, "Could not resolve to a Repository with the name 'olivia/secret'.");
	const own = await gql(olivia, '{ repository(owner: "olivia", name: "secret") { name issues(first: 5) { nodes { title } } } }');
	assert.equal(own.body.data.repository, { name: 'secret', issues: { nodes: [{ title: 'Hidden' }] } });
});

test('issues: states, labels (any of them), orderBy and cursors page through SQL', async () => {
	const q = `query($after: String) { repository(owner: "olivia", name: "site") {
		issues(first: 2, after: $after, states: [OPEN], labels: ["bug", "ui"], orderBy: {field: CREATED_AT, direction: DESC}) {
			totalCount nodes { number } pageInfo { hasNextPage endCursor }
		} } }`;
	const seen: number[] = [];
	let after: string | null = null;
	for (;;) {
		const res = await gql(olivia, q, { after });
		const conn = res.body.data.repository.issues;
		assert.is(conn.totalCount, 5);
		seen.push(...conn.nodes.map((n: { number: number }) => n.number));
		if (!conn.pageInfo.hasNextPage) break;
		after = conn.pageInfo.endCursor;
	}
	assert.equal(seen, [7, 6, 5, 3, 1]);
	const closed = await gql(olivia, '{ repository(owner: "olivia", name: "site") { issues(states: CLOSED) { totalCount } } }');
	assert.is(closed.body.data.repository.issues.totalCount, 1);
	const last = await gql(olivia, '{ repository(owner: "olivia", name: "site") { issues(last: 2) { nodes { number } } } }');
	assert.equal(
		last.body.data.repository.issues.nodes.map((n: { number: number }) => n.number),
		[6, 7],
	);
});

test('a read-only token cannot write; a token without Issues reads the public side only', async () => {
	const readOnly = s.token('olivia', { kind: 'fine-grained', permissions: { issues: 'read', metadata: 'read' } });
	const repo = await gql(readOnly, '{ repository(owner: "olivia", name: "site") { id } }');
	const repositoryId = repo.body.data.repository.id;
	const create = await gql(readOnly, 'mutation($id: ID!) { createIssue(input: {repositoryId: $id, title: "No"}) { issue { number } } }', {
		id: repositoryId,
	});
	assert.is(create.body.errors[0].type, 'FORBIDDEN');
	const count = await s.get('/repos/olivia/site/issues?state=all&per_page=100', olivia);
	assert.is(count.body.length, 7);
	const comment = await gql(readOnly, '{ repository(owner: "olivia", name: "site") { issue(number: 1) { id } } }');
	const subjectId = comment.body.data.repository.issue.id;
	const add = await gql(readOnly, 'mutation($id: ID!) { addComment(input: {subjectId: $id, body: "hi"}) { subject { id } } }', {
		id: subjectId,
	});
	assert.is(add.body.errors[0].type, 'FORBIDDEN');
	const metadataOnly = s.token('olivia', { kind: 'fine-grained', permissions: { metadata: 'read' } });
	const secret = await gql(metadataOnly, '{ repository(owner: "olivia", name: "secret") { issues(first: 1) { totalCount } } }');
	assert.is(secret.body.errors[0].type, 'NOT_FOUND');
	const full = await gql(olivia, 'mutation($id: ID!) { createIssue(input: {repositoryId: $id, title: "  "}) { issue { number } } }', {
		id: repositoryId,
	});
	assert.is(full.body.errors[0].type, 'UNPROCESSABLE');
	assert.match(full.body.errors[0].message, /title can't be blank/);
});

test.run();
