/**
 * GET /repos/{owner}/{repo}/contributors: the default branch's authors, most commits first, each an
 * account with its `contributions`; with `anon=1` authors whose email names no account too
 * (`type: "Anonymous"`); 204 for an empty repository; private repositories hidden from outsiders.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('contributors');
let s: TestServer;
let olivia: string;
let nora: string;

/** A commit on main through the contents API, authored by `author`. */
async function write(repo: string, path: string, author: { name: string; email: string }) {
	const res = await s.request('PUT', `/repos/${repo}/contents/${path}`, {
		token: olivia,
		body: { message: `Add ${path}`, content: Buffer.from(path).toString('base64'), author, committer: author },
	});
	assert.is(res.status, 201, JSON.stringify(res.body));
}

test.before(async () => {
	s = await startServer();
	s.user('olivia');
	s.user('nora');
	s.app.db.prepare("UPDATE accounts SET email = login || '@example.com' WHERE login IN ('olivia', 'nora')").run();
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	nora = s.fullToken('nora');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'rocket' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	const oliviaAuthor = { name: 'Olivia', email: 'olivia@example.com' };
	const noraAuthor = { name: 'Nora', email: 'NORA@example.com' };
	const stranger = { name: 'Stranger', email: 'stranger@example.org' };
	await write('acme/rocket', 'a.txt', oliviaAuthor);
	await write('acme/rocket', 'b.txt', noraAuthor);
	await write('acme/rocket', 'c.txt', noraAuthor);
	await write('acme/rocket', 'd.txt', stranger);
	await write('acme/rocket', 'e.txt', { ...stranger, email: 'Stranger@Example.org' });
	await write('acme/rocket', 'f.txt', stranger);
	await write('acme/vault', 'a.txt', oliviaAuthor);
	await s.app.tasks.runDue();
});
test.after(() => s.close());

test('accounts by commits, most first; anon=1 adds authors without an account, emails compared without case', async () => {
	const res = await s.get('/repos/acme/rocket/contributors', nora);
	assert.is(res.status, 200, JSON.stringify(res.body));
	assert.equal(
		res.body.map((c: { login: string; contributions: number }) => [c.login, c.contributions]),
		[
			['nora', 2],
			['olivia', 1],
		],
	);
	assert.is(res.body[0].type, 'User');
	assert.ok(res.body[0].url.endsWith('/users/nora'));
	const anon = await s.get('/repos/acme/rocket/contributors?anon=1');
	assert.is(anon.status, 200);
	assert.equal(anon.body[0], { email: 'stranger@example.org', name: 'Stranger', type: 'Anonymous', contributions: 3 });
	assert.equal(
		anon.body.slice(1).map((c: { login: string }) => c.login),
		['nora', 'olivia'],
	);
});

test('pages with a Link header; an empty repository answers 204; a private one is 404 to outsiders', async () => {
	const page = await s.get('/repos/acme/rocket/contributors?per_page=1&page=2', nora);
	assert.equal(
		page.body.map((c: { login: string }) => c.login),
		['olivia'],
	);
	assert.match(page.headers.get('link') ?? '', /rel="prev"/);
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'empty' } });
	const empty = await s.get('/repos/acme/empty/contributors', olivia);
	assert.is(empty.status, 204);
	assert.is((await s.get('/repos/acme/vault/contributors', nora)).status, 404);
	const own = await s.get('/repos/acme/vault/contributors', olivia);
	assert.equal(
		own.body.map((c: { login: string }) => c.login),
		['olivia'],
	);
});

test.run();
