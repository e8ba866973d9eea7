/**
 * The issues' search index kept after commit (src/api/search/issue-index.ts): an issue is found by
 * GET /search/issues and GraphQL's search right after the write that created, edited or deleted it
 * (the search catches up first), a deleted issue's number reused by a new issue carries only the new
 * text, and a server stopped before its pass indexes the rest when it starts again.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('search-index');
let s: TestServer;
let token: string;

const found = async (words: string) => {
	const res = await s.get(`/search/issues?q=${encodeURIComponent(`${words} repo:acme/app`)}`, token);
	assert.is(res.status, 200, res.text);
	return (res.body.items as Array<{ number: number }>).map((item) => item.number).sort((a, b) => a - b);
};
const watermark = () => s.app.db.prepare('SELECT issue_id FROM issues_fts_watermark').pluck().get() as number;
const maxIssue = () => s.app.db.prepare('SELECT max(id) FROM issues').pluck().get() as number;

test.before(async () => {
	s = await startServer();
	s.user('olivia');
	s.org('acme', 'olivia');
	token = s.fullToken('olivia');
	const res = await s.request('POST', '/orgs/acme/repos', { token, body: { name: 'app' } });
	assert.is(res.status, 201);
});

test.after(async () => {
	await s?.close();
});

test('an issue is found right after its creation, edit and deletion', async () => {
	const created = await s.request('POST', '/repos/acme/app/issues', {
		token,
		body: { title: 'Turbine vibrates', body: 'at high altitude' },
	});
	assert.is(created.status, 201);
	assert.ok(watermark() < maxIssue(), '~> the write itself indexed nothing');
	assert.equal(await found('turbine'), [created.body.number], '~> found by its title at once');
	assert.equal(await found('altitude'), [created.body.number], '~> and by its body');
	assert.is(watermark(), maxIssue(), '~> the search caught the index up');

	const edited = await s.request('PATCH', `/repos/acme/app/issues/${created.body.number}`, {
		token,
		body: { title: 'Propeller wobbles', body: 'at low speed' },
	});
	assert.is(edited.status, 200);
	assert.equal(await found('turbine'), [], '~> the old title no longer matches');
	assert.equal(await found('altitude'), [], '~> nor the old body');
	assert.equal(await found('propeller speed'), [created.body.number], '~> the new text does');

	const graphql = await s.request('POST', '/graphql', {
		token,
		body: {
			query: '{ search(query: "wobbles repo:acme/app", type: ISSUE, first: 5) { issueCount nodes { ... on Issue { number } } } }',
		},
	});
	assert.equal(graphql.body.data.search, { issueCount: 1, nodes: [{ number: created.body.number }] }, '~> GraphQL search too');

	// Deleted (GraphQL deleteIssue): its words match nothing; a new issue that gets the same id
	// (the highest one was deleted) carries only its own text.
	const id = created.body.id;
	const deleted = await s.request('POST', '/graphql', {
		token,
		body: {
			query: 'mutation($id: ID!) { deleteIssue(input: {issueId: $id}) { clientMutationId } }',
			variables: { id: created.body.node_id },
		},
	});
	assert.is(deleted.status, 200, deleted.text);
	assert.not.ok(deleted.body.errors, deleted.text);
	assert.equal(await found('propeller'), [], '~> a deleted issue is not found');
	const again = await s.request('POST', '/repos/acme/app/issues', { token, body: { title: 'Rudder sticks', body: 'after rain' } });
	assert.is(again.status, 201);
	assert.is(again.body.id, id, '~> the id was given again');
	assert.equal(await found('propeller'), [], '~> the deleted text does not match the new issue');
	assert.equal(await found('rudder rain'), [again.body.number], '~> its own text does');
	assert.is(s.app.db.prepare('SELECT count(*) FROM issues_fts_pending').pluck().get(), 0, '~> nothing left pending');
});

test('the indexer runs after the write without a search', async () => {
	const created = await s.request('POST', '/repos/acme/app/issues', { token, body: { title: 'Aileron flutters' } });
	assert.is(created.status, 201);
	for (let i = 0; i < 100 && watermark() < created.body.id; i++) await new Promise((done) => setTimeout(done, 20));
	assert.is(watermark(), created.body.id, '~> indexed within its delay');
});

test('a server stopped before its pass indexes the rest when it starts again', async () => {
	const created = await s.request('POST', '/repos/acme/app/issues', { token, body: { title: 'Flaps jam', body: 'on approach' } });
	assert.is(created.status, 201);
	assert.ok(watermark() < created.body.id, '~> not indexed yet');
	const { dataDir } = s;
	await s.close(true);
	s = await startServer({ dataDir });
	token = s.fullToken('olivia');
	assert.is(watermark(), created.body.id, '~> indexed at start, before any search');
	assert.equal(await found('flaps approach'), [created.body.number]);
});

test.run();
