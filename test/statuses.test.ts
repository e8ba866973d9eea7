/**
 * Commit statuses (GitHub's "Commit statuses" REST API): create, list for a reference, the combined
 * status; permissions, hidden repositories, validation, and the `status` webhook.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { latestStatusesByContext } from '../src/api/statuses/service';
import { isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';
import { mustSucceed } from './helpers/setup';

const test = suite('statuses');
let s: TestServer;
let owner: string;
let pusher: string;
let reader: string;
let hookId: number;
const commits: Record<string, string> = {};

const must = (method: string, path: string, body?: unknown) => mustSucceed(s, method, path, body, owner);

async function commit(repo: string, content: string, parents: string[]): Promise<string> {
	const tree = await must('POST', `/repos/acme/${repo}/git/trees`, { tree: [{ path: 'README', mode: '100644', type: 'blob', content }] });
	return (await must('POST', `/repos/acme/${repo}/git/commits`, { message: content, tree: tree.sha, parents })).sha;
}

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	await must('PATCH', '/orgs/acme', { default_repository_permission: 'read' });
	await must('POST', '/orgs/acme/repos', { name: 'app' });
	await must('POST', '/orgs/acme/repos', { name: 'vault', private: true });
	const app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('mike')!.id, 'push', isoSeconds(s.clock.now));
	pusher = s.token('mike', { scopes: ['repo:status'] });
	reader = s.fullToken('nora');
	commits.one = await commit('app', 'one', []);
	commits.two = await commit('app', 'two', [commits.one]);
	await must('POST', '/repos/acme/app/git/refs', { ref: 'refs/heads/main', sha: commits.two });
	await must('POST', '/repos/acme/app/git/refs', { ref: 'refs/tags/v1', sha: commits.one });
	commits.vault = await commit('vault', 'secret', []);
	hookId = (
		await must('POST', '/repos/acme/app/hooks', {
			name: 'web',
			config: { url: 'https://hooks.example.com/s', content_type: 'json' },
			events: ['status'],
		})
	).id;
});
test.after(() => s.close());

test('POST /statuses/{sha} creates a status: 201, Location, GitHub\'s shape, context "default"', async () => {
	const res = await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, {
		token: pusher,
		body: { state: 'pending', target_url: 'https://ci.example.com/1', description: 'Building' },
	});
	assert.is(res.status, 201, `~> created: ${res.text}`);
	assert.is(res.headers.get('location'), `${s.api}/repos/acme/app/statuses/${commits.two}`, '~> Location is the status URL');
	assert.equal(
		Object.keys(res.body),
		['url', 'avatar_url', 'id', 'node_id', 'state', 'description', 'target_url', 'context', 'created_at', 'updated_at', 'creator'],
		"~> GitHub's Status fields",
	);
	assert.is(res.body.context, 'default', '~> context defaults to "default"');
	assert.is(res.body.state, 'pending', '~> the state given');
	assert.is(res.body.creator.login, 'mike', '~> the creator is the caller');
	assert.is(res.body.target_url, 'https://ci.example.com/1', '~> target_url kept');
});

test('an abbreviated sha names its commit; the status is stored for the full sha', async () => {
	const res = await s.request('POST', `/repos/acme/app/statuses/${commits.one.slice(0, 10)}`, {
		token: pusher,
		body: { state: 'success', context: 'ci/lint' },
	});
	assert.is(res.status, 201, `~> created: ${res.text}`);
	assert.ok(res.body.url.endsWith(commits.one), '~> the URL names the full sha');
});

test('422 for an unknown sha or a bad state; nothing stored', async () => {
	const unknown = await s.request('POST', `/repos/acme/app/statuses/${'a'.repeat(40)}`, { token: pusher, body: { state: 'success' } });
	assert.is(unknown.status, 422, '~> an unknown sha is 422');
	assert.is(unknown.body.message, `No commit found for SHA: ${'a'.repeat(40)}`, "~> GitHub's message");
	const bad = await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: pusher, body: { state: 'done' } });
	assert.is(bad.status, 422, '~> a bad state is 422');
	assert.is(bad.body.errors[0].field, 'state', '~> the error names state');
	const missing = await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: pusher, body: {} });
	assert.is(missing.status, 422, '~> state is required');
	const list = await s.get(`/repos/acme/app/commits/${commits.two}/statuses`, owner);
	assert.is(list.body.length, 1, '~> nothing stored by refused requests');
});

test('who may create: anonymous 401, no push access 403, a token without repo:status 403, private repository hidden 404', async () => {
	const body = { state: 'success' };
	assert.is((await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { body })).status, 401, '~> anonymous: 401');
	assert.is(
		(await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: reader, body })).status,
		403,
		'~> a reader without push: 403',
	);
	const scopeless = s.token('mike', { scopes: ['read:org'] });
	const res = await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: scopeless, body });
	assert.is(res.status, 403, '~> a classic token without repo:status: 403');
	assert.match(res.body.message, /repo:status/, '~> the message names the scope');
	const fine = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'write' } });
	assert.is(
		(await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: fine, body })).status,
		403,
		'~> fine-grained without statuses: 403',
	);
	const granted = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions: { statuses: 'write' } });
	assert.is(
		(await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: granted, body: { state: 'success', context: 'fg' } }))
			.status,
		201,
		'~> fine-grained with statuses write: 201',
	);
	const hidden = await s.request('POST', `/repos/acme/vault/statuses/${commits.vault}`, { token: reader, body });
	assert.is(hidden.status, 404, '~> a private repository the caller cannot see: 404');
	assert.is((await s.get(`/repos/acme/vault/commits/${commits.vault}/status`, reader)).status, 404, '~> its combined status: 404');
	assert.is((await s.get(`/repos/acme/vault/commits/${commits.vault}/statuses`)).status, 404, '~> its statuses to anonymous: 404');
});

test('GET …/commits/{ref}/statuses lists newest first, by sha, branch or tag; 404 for an unknown ref', async () => {
	await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: pusher, body: { state: 'failure', context: 'ci/test' } });
	const bySha = await s.get(`/repos/acme/app/commits/${commits.two}/statuses`);
	assert.is(bySha.status, 200, '~> public repository: anonymous reads');
	const ids = bySha.body.map((x: any) => x.id);
	assert.equal(
		ids,
		[...ids].sort((a: number, b: number) => b - a),
		'~> newest first',
	);
	const byBranch = await s.get('/repos/acme/app/commits/main/statuses');
	assert.equal(
		byBranch.body.map((x: any) => x.id),
		ids,
		'~> a branch names its head commit',
	);
	const byTag = await s.get('/repos/acme/app/commits/v1/statuses');
	assert.equal(
		byTag.body.map((x: any) => x.context),
		['ci/lint'],
		'~> a tag names its commit',
	);
	const page = await s.get(`/repos/acme/app/commits/${commits.two}/statuses?per_page=1`);
	assert.is(page.body.length, 1, '~> paginated');
	assert.match(page.headers.get('link') ?? '', /rel="next"/, '~> with a Link header');
	const unknown = await s.get('/repos/acme/app/commits/nope/statuses');
	assert.is(unknown.status, 404, '~> an unknown ref is 404');
});

test('GET …/commits/{ref}/status combines the latest status per context', async () => {
	// main (two): default pending, fg success, ci/test failure → failure
	let res = await s.get('/repos/acme/app/commits/main/status', owner);
	assert.is(res.status, 200);
	assert.is(res.body.state, 'failure', '~> any failure makes it failure');
	assert.is(res.body.total_count, 3, '~> one per context');
	assert.is(res.body.sha, commits.two, '~> the commit');
	assert.is(res.body.repository.full_name, 'acme/app', '~> the repository');
	assert.is(res.body.url, `${s.api}/repos/acme/app/commits/${commits.two}/status`, '~> url');
	assert.is(res.body.commit_url, `${s.api}/repos/acme/app/commits/${commits.two}`, '~> commit_url');
	assert.not.ok('creator' in res.body.statuses[0], '~> combined statuses carry no creator');
	await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: pusher, body: { state: 'success', context: 'ci/test' } });
	res = await s.get('/repos/acme/app/commits/main/status', owner);
	assert.is(res.body.state, 'pending', '~> the failure replaced by a success; the pending default remains');
	assert.is(res.body.statuses.find((x: any) => x.context === 'ci/test').state, 'success', '~> the latest per context');
	await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: pusher, body: { state: 'success' } });
	res = await s.get('/repos/acme/app/commits/main/status', owner);
	assert.is(res.body.state, 'success', '~> all success: success');
	await s.request('POST', `/repos/acme/app/statuses/${commits.two}`, { token: pusher, body: { state: 'error', context: 'ci/deploy' } });
	assert.is((await s.get('/repos/acme/app/commits/main/status')).body.state, 'failure', '~> an error makes it failure');
	const none = await s.get(`/repos/acme/vault/commits/${commits.vault}/status`, owner);
	assert.is(none.body.state, 'pending', '~> no status: pending');
	assert.is(none.body.total_count, 0, '~> none');
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	assert.equal(
		latestStatusesByContext(s.app, repo.id, commits.two)
			.map((x) => x.context)
			.sort(),
		['ci/deploy', 'ci/test', 'default', 'fg'],
		'~> latestStatusesByContext serves branch protection',
	);
});

test('a commit takes at most 1,000 statuses per context: then 422', async () => {
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	const at = isoSeconds(s.clock.now);
	s.app.transaction(() => {
		for (let i = 0; i < 1000; i++) {
			s.app.stores.statuses.insert({
				repo_id: repo.id,
				sha: commits.one,
				state: 'success',
				context: 'busy',
				description: null,
				target_url: null,
				creator_id: null,
				created_at: at,
			});
		}
	});
	const res = await s.request('POST', `/repos/acme/app/statuses/${commits.one}`, {
		token: pusher,
		body: { state: 'success', context: 'busy' },
	});
	assert.is(res.status, 422, '~> the 1,001st status of a context');
	assert.is(res.body.message, 'This SHA and context has reached the maximum number of statuses.', "~> GitHub's message");
	const other = await s.request('POST', `/repos/acme/app/statuses/${commits.one}`, {
		token: pusher,
		body: { state: 'success', context: 'calm' },
	});
	assert.is(other.status, 201, '~> another context still takes statuses');
});

test("the status webhook carries GitHub's payload", async () => {
	const { rows } = s.app.stores.webhooks.deliveries({ hookId, status: null, limit: 100, offset: 0 });
	const payloads = rows.filter((row) => row.event === 'status').map((row) => JSON.parse(row.payload));
	assert.ok(payloads.length >= 5, `~> one delivery per status (${payloads.length})`);
	const first = payloads[payloads.length - 1];
	for (const key of [
		'id',
		'sha',
		'name',
		'target_url',
		'context',
		'description',
		'state',
		'commit',
		'branches',
		'created_at',
		'updated_at',
		'repository',
		'organization',
		'sender',
	]) {
		assert.ok(key in first, `~> payload has ${key}`);
	}
	assert.is(first.name, 'acme/app', '~> name is the full name');
	assert.is(first.commit.sha, commits.two, '~> the commit');
	assert.equal(
		first.branches.map((b: any) => b.name),
		['main'],
		'~> the branches at the commit',
	);
});

test.run();
