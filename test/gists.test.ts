/**
 * Gists and gist comments (GitHub's gists API).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN_COMMANDS } from '../src/cli/admin';
import { createOutput } from '../src/cli/output';
import { startServer, type TestServer } from './helpers/server';

const test = suite('gists');
let s: TestServer;
let alice: string;
let bob: string;
let gistId: string;

test.before(async () => {
	s = await startServer();
	s.user('alice');
	s.user('bob');
	alice = s.fullToken('alice');
	bob = s.fullToken('bob');
});
test.after(() => s.close());

test('create – 201 with files and content; secret by default', async () => {
	const res = await s.request('POST', '/gists', {
		token: alice,
		body: { description: 'Hello', files: { 'hello.md': { content: '# Hi\n\nthere' }, 'run.sh': { content: 'echo hi' } } },
	});
	assert.is(res.status, 201);
	gistId = res.body.id;
	assert.match(gistId, /^[0-9a-f]{32}$/);
	assert.is(res.headers.get('location'), `${s.api}/gists/${gistId}`);
	assert.is(res.body.public, false);
	assert.is(res.body.owner.login, 'alice');
	assert.is(res.body.comments, 0);
	assert.equal(Object.keys(res.body.files), ['hello.md', 'run.sh']);
	const md = res.body.files['hello.md'];
	assert.equal(md, {
		filename: 'hello.md',
		type: 'text/markdown',
		language: 'Markdown',
		raw_url: md.raw_url,
		size: 11,
		truncated: false,
		content: '# Hi\n\nthere',
	});
	const raw = await fetch(md.raw_url);
	assert.is(raw.status, 200);
	assert.is(await raw.text(), '# Hi\n\nthere');
	const pub = await s.request('POST', '/gists', { token: bob, body: { public: true, files: { 'a.txt': { content: 'a' } } } });
	assert.is(pub.body.public, true);
});

test('create – validation and denials', async () => {
	assert.is((await s.request('POST', '/gists', { body: { files: { 'a.txt': { content: 'a' } } } })).status, 401);
	for (const body of [
		{},
		{ files: {} },
		{ files: { 'a.txt': { content: '' } } },
		{ files: { 'a/b.txt': { content: 'x' } } },
		{ files: 'x' },
	]) {
		assert.is((await s.request('POST', '/gists', { token: alice, body })).status, 422, `~> ${JSON.stringify(body)}`);
	}
	const noScope = await s.request('POST', '/gists', {
		token: s.token('alice', { scopes: ['repo'] }),
		body: { files: { 'a.txt': { content: 'a' } } },
	});
	assert.is(noScope.status, 403);
	assert.is(noScope.headers.get('x-accepted-oauth-scopes'), 'gist');
	const fine = s.token('alice', { kind: 'fine-grained', permissions: { gists: 'write' } });
	assert.is((await s.request('POST', '/gists', { token: fine, body: { files: { 'f.txt': { content: 'f' } } } })).status, 201);
});

test('read – anyone with the id reads a secret gist; lists show public ones and one’s own', async () => {
	const anon = await s.get(`/gists/${gistId}`);
	assert.is(anon.status, 200);
	assert.is(anon.body.files['run.sh'].content, 'echo hi');
	assert.is((await s.get('/gists/0123456789abcdef0123456789abcdef')).status, 404);
	const mine = await s.get('/gists', alice);
	assert.equal(mine.body.length, 2);
	assert.not.ok('content' in mine.body[0].files[Object.keys(mine.body[0].files)[0]], '~> lists leave content out');
	const publicOnes = await s.get('/gists/public');
	assert.ok(publicOnes.body.every((g: any) => g.public));
	assert.equal((await s.get('/users/alice/gists')).body, [], '~> secret gists are unlisted');
	assert.is((await s.get('/users/alice/gists', alice)).body.length, 2, '~> but listed to their owner');
	assert.is((await s.get('/users/alice')).body.public_gists, 0);
	assert.is((await s.get('/users/bob')).body.public_gists, 1);
	assert.is((await s.get('/gists?since=yesterday', alice)).status, 422);
});

test('update – owner only; rename, delete and add files; description', async () => {
	assert.is((await s.request('PATCH', `/gists/${gistId}`, { token: bob, body: { description: 'mine now' } })).status, 404);
	const res = await s.request('PATCH', `/gists/${gistId}`, {
		token: alice,
		body: { description: 'Renamed', files: { 'run.sh': { filename: 'go.sh' }, 'hello.md': null, 'new.py': { content: 'print(1)' } } },
	});
	assert.is(res.status, 200);
	assert.is(res.body.description, 'Renamed');
	assert.equal(Object.keys(res.body.files).sort(), ['go.sh', 'new.py']);
	assert.is(res.body.files['go.sh'].content, 'echo hi');
	assert.is(res.body.files['new.py'].language, 'Python');
	const empty = await s.request('PATCH', `/gists/${gistId}`, { token: alice, body: { files: { 'go.sh': null, 'new.py': null } } });
	assert.is(empty.status, 422, '~> a gist keeps at least one file');
	assert.is((await s.get(`/gists/${gistId}`)).body.files['go.sh'].content, 'echo hi', '~> nothing changed');
	const missing = await s.request('PATCH', `/gists/${gistId}`, { token: alice, body: { files: { 'ghost.txt': null } } });
	assert.is(missing.status, 422);
});

test('comments – create, list, get with media types, 304, update, delete', async () => {
	const created = await s.request('POST', `/gists/${gistId}/comments`, {
		token: bob,
		body: { body: 'Nice **gist**! <script>x</script>' },
	});
	assert.is(created.status, 201);
	assert.equal(Object.keys(created.body), ['url', 'id', 'node_id', 'body', 'user', 'author_association', 'created_at', 'updated_at']);
	assert.is(created.body.body, 'Nice **gist**! <script>x</script>', '~> raw is the default');
	assert.is(created.body.author_association, 'NONE');
	assert.is(created.headers.get('location'), created.body.url);
	const own = await s.request('POST', `/gists/${gistId}/comments`, { token: alice, body: { body: 'Thanks' } });
	assert.is(own.body.author_association, 'OWNER');
	const id = created.body.id;
	const html = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { Accept: 'application/vnd.github.html+json' });
	assert.equal(
		Object.keys(html.body).filter((k) => k.startsWith('body')),
		['body_html'],
	);
	assert.is(html.body.body_html, '<p dir="auto">Nice <strong>gist</strong>! </p>', '~> raw HTML is sanitized');
	const text = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { Accept: 'application/vnd.github.text+json' });
	assert.is(text.body.body_text, 'Nice gist!');
	const full = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { Accept: 'application/vnd.service.full+json' });
	assert.equal(
		Object.keys(full.body).filter((k) => k.startsWith('body')),
		['body', 'body_text', 'body_html'],
	);
	assert.is(full.headers.get('x-github-media-type'), 'github.v3; param=full; format=json');
	const etag = html.headers.get('etag')!;
	const again = await s.get(`/gists/${gistId}/comments/${id}`, undefined, {
		Accept: 'application/vnd.github.html+json',
		'If-None-Match': etag,
	});
	assert.is(again.status, 304);
	const raw = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { 'If-None-Match': etag });
	assert.is(raw.status, 200, '~> another media type is another representation');
	const list = await s.get(`/gists/${gistId}/comments`);
	assert.equal(
		list.body.map((c: any) => c.id),
		[id, own.body.id],
	);
	assert.is((await s.get(`/gists/${gistId}`)).body.comments, 2);
	assert.is(
		(await s.request('PATCH', `/gists/${gistId}/comments/${id}`, { token: alice, body: { body: 'hijack' } })).status,
		404,
		'~> only the author edits',
	);
	const edited = await s.request('PATCH', `/gists/${gistId}/comments/${id}`, {
		token: bob,
		body: { body: 'Edited *again*' },
		headers: { Accept: 'application/vnd.github.full+json' },
	});
	assert.is(edited.body.body, 'Edited *again*');
	assert.is(edited.body.body_html, '<p dir="auto">Edited <em>again</em></p>', '~> the new body is rendered');
	const tooLong = await s.request('PATCH', `/gists/${gistId}/comments/${id}`, { token: bob, body: { body: 'x'.repeat(65537) } });
	assert.is(tooLong.status, 422);
	assert.equal(tooLong.body.errors, [
		{ resource: 'GistComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' },
	]);
	assert.is((await s.request('POST', `/gists/${gistId}/comments`, { token: bob, body: { body: 'x'.repeat(65537) } })).status, 422);
	assert.is((await s.get(`/gists/${gistId}/comments/${id}`)).body.body, 'Edited *again*', '~> nothing written');
	assert.is((await s.get(`/gists/${gistId}`)).body.comments, 2);
	assert.is((await s.request('PATCH', `/gists/${gistId}/comments/${id}`, { token: bob, body: { body: '' } })).status, 422);
	assert.is((await s.request('POST', `/gists/${gistId}/comments`, { body: { body: 'anon' } })).status, 401);
	assert.is(
		(await s.request('DELETE', `/gists/${gistId}/comments/${own.body.id}`, { token: bob })).status,
		403,
		'~> not the author, not the gist owner',
	);
	assert.is(
		(await s.request('DELETE', `/gists/${gistId}/comments/${id}`, { token: alice })).status,
		204,
		'~> the gist owner may delete any comment',
	);
	assert.is((await s.get(`/gists/${gistId}/comments/${id}`)).status, 404);
	assert.is((await s.get(`/gists/${gistId}/comments/abc`)).status, 404);
});

test('stars – PUT and DELETE answer 204, the check 204 or 404; starred list; denials', async () => {
	const { body: gist } = await s.request('POST', '/gists', {
		token: bob,
		body: { files: { 'star.txt': { content: 'shine' } }, public: true },
	});
	const path = `/gists/${gist.id}/star`;
	assert.is((await s.get(path, alice)).status, 404, '~> not starred yet: 404');
	const put = await s.request('PUT', path, { token: alice, headers: { 'Content-Length': '0' } });
	assert.is(put.status, 204, '~> starred');
	assert.is(put.text, '');
	assert.is((await s.request('PUT', path, { token: alice })).status, 204, '~> starring again changes nothing');
	assert.is((await s.get(path, alice)).status, 204, '~> starred: 204');
	assert.is((await s.get(path, bob)).status, 404, '~> another user’s star is not the caller’s');
	const starred = await s.get('/gists/starred', alice);
	assert.equal(
		starred.body.map((g: any) => g.id),
		[gist.id],
		'~> GET /gists/starred lists it',
	);
	assert.is((await s.get(path)).status, 401, '~> anonymous: 401');
	assert.is((await s.request('PUT', path)).status, 401, '~> anonymous star: 401');
	const noGist = s.token('alice', { scopes: ['repo'] });
	assert.is((await s.request('PUT', path, { token: noGist })).status, 403, '~> a token without the gist scope: 403');
	assert.is(
		(await s.request('PUT', '/gists/0123456789abcdef0123456789abcdef/star', { token: alice })).status,
		404,
		'~> no such gist: 404',
	);
	assert.is((await s.request('DELETE', path, { token: alice })).status, 204, '~> unstarred');
	assert.is((await s.get(path, alice)).status, 404, '~> 404 again');
	assert.equal((await s.get('/gists/starred', alice)).body, []);
});

test('history – every change of files records a revision with change_status; description changes do not', async () => {
	const created = await s.request('POST', '/gists', { token: alice, body: { files: { 'a.txt': { content: 'one\ntwo\nthree\n' } } } });
	const id = created.body.id;
	assert.is(created.body.history.length, 1, '~> the created gist has one revision');
	const first = created.body.history[0];
	assert.match(first.version, /^[0-9a-f]{40}$/);
	assert.equal(first.change_status, { total: 3, additions: 3, deletions: 0 }, '~> three lines added');
	assert.is(first.user.login, 'alice');
	assert.is(first.url, `${s.api}/gists/${id}/${first.version}`);
	assert.equal(created.body.forks, [], '~> no forks yet');
	await s.request('PATCH', `/gists/${id}`, {
		token: alice,
		body: { files: { 'a.txt': { content: 'one\n2\nthree\nfour\n' }, 'b.txt': { content: 'bee' } } },
	});
	const described = await s.request('PATCH', `/gists/${id}`, { token: alice, body: { description: 'Counting' } });
	assert.is(described.body.history.length, 2, '~> a description change is no revision');
	const commits = await s.get(`/gists/${id}/commits`);
	assert.is(commits.status, 200);
	assert.is(commits.body.length, 2, '~> anyone with the id lists them');
	assert.equal(
		commits.body[0].change_status,
		{ total: 4, additions: 3, deletions: 1 },
		'~> newest first: two lines changed, one added, a new one-line file',
	);
	assert.equal(Object.keys(commits.body[0]), ['url', 'version', 'user', 'change_status', 'committed_at']);
	assert.is(commits.body[1].version, first.version);
	const paged = await s.get(`/gists/${id}/commits?per_page=1`);
	assert.match(paged.headers.get('link') ?? '', /rel="next"/, '~> paginated');
	const old = await s.get(`/gists/${id}/${first.version}`, bob);
	assert.is(old.status, 200, '~> the gist at a revision');
	assert.equal(Object.keys(old.body.files), ['a.txt'], '~> its files then');
	assert.is(old.body.files['a.txt'].content, 'one\ntwo\nthree\n');
	assert.is(old.body.description, 'Counting', '~> the description is not versioned');
	assert.is((await s.get(`/gists/${id}/${'0'.repeat(40)}`)).status, 404, '~> an unknown revision: 404');
	assert.is((await s.get(`/gists/${id}/not-a-sha`)).status, 422, '~> not a revision: 422');
	assert.is((await s.get(`/gists/0123456789abcdef0123456789abcdef/commits`)).status, 404, '~> no such gist: 404');
});

test('forks – POST 201 with the new gist (history kept); 422 for one’s own gist and a second fork; lists and fields', async () => {
	const { body: source } = await s.request('POST', '/gists', {
		token: alice,
		body: { description: 'Forkable', files: { 'f.txt': { content: 'x\n' } }, public: true },
	});
	const own = await s.request('POST', `/gists/${source.id}/forks`, { token: alice });
	assert.is(own.status, 422, '~> forking one’s own gist: 422');
	assert.is(own.body.message, 'Validation Failed');
	assert.is(own.body.errors[0].resource, 'Gist');
	const fork = await s.request('POST', `/gists/${source.id}/forks`, { token: bob });
	assert.is(fork.status, 201);
	assert.is(fork.headers.get('location'), `${s.api}/gists/${fork.body.id}`);
	assert.is(fork.body.owner.login, 'bob', '~> the caller’s gist');
	assert.is(fork.body.description, 'Forkable');
	assert.is(fork.body.files['f.txt'].content, 'x\n');
	assert.is(fork.body.fork_of.id, source.id, '~> fork_of names the source');
	assert.equal(
		fork.body.history.map((h: any) => h.version),
		source.history.map((h: any) => h.version),
		'~> the source’s history',
	);
	assert.is((await s.request('POST', `/gists/${source.id}/forks`, { token: bob })).status, 422, '~> a second fork: 422');
	const forks = await s.get(`/gists/${source.id}/forks`);
	assert.equal(
		forks.body.map((g: any) => g.id),
		[fork.body.id],
		'~> GET …/forks lists it',
	);
	const full = await s.get(`/gists/${source.id}`);
	assert.is(full.body.forks.length, 1, '~> the source’s forks field');
	assert.is(full.body.forks[0].id, fork.body.id);
	assert.is(full.body.forks[0].user.login, 'bob');
	assert.is((await s.request('POST', `/gists/${source.id}/forks`)).status, 401, '~> anonymous: 401');
	assert.is(
		(await s.request('POST', `/gists/${source.id}/forks`, { token: s.token('bob', { scopes: ['repo'] }) })).status,
		403,
		'~> without gist: 403',
	);
	assert.is(
		(await s.request('POST', '/gists/0123456789abcdef0123456789abcdef/forks', { token: bob })).status,
		404,
		'~> no such gist: 404',
	);
	// Bob's fork changes on its own.
	await s.request('PATCH', `/gists/${fork.body.id}`, { token: bob, body: { files: { 'f.txt': { content: 'y\n' } } } });
	assert.is((await s.get(`/gists/${fork.body.id}/commits`)).body.length, 2);
	assert.is((await s.get(`/gists/${source.id}/commits`)).body.length, 1, '~> the source’s history is its own');
});

test('a gist blocked by a site administrator answers 403 Forbidden Gist with the block object', async () => {
	const res = await s.request('POST', '/gists', { token: bob, body: { public: true, files: { 'spam.txt': { content: 'buy now' } } } });
	const id = res.body.id;
	const printed: string[] = [];
	ADMIN_COMMANDS['block-gist'].run(
		s.app,
		{ reason: 'spam' },
		[id],
		createOutput(true, (text) => void printed.push(text)),
	);
	assert.equal(JSON.parse(printed[0]), { id, blocked: true, reason: 'spam', blocked_at: '2026-11-22T12:00:00Z' });
	for (const path of [`/gists/${id}`, `/gists/${id}/comments`]) {
		const blocked = await s.get(path, alice);
		assert.is(blocked.status, 403);
		assert.equal(blocked.body.block, { reason: 'spam', created_at: '2026-11-22T12:00:00Z', html_url: `${s.origin}/gist/${id}` });
		assert.is(blocked.body.message, 'Gist blocked');
	}
	assert.ok(!(await s.get('/gists/public')).body.some((g: any) => g.id === id), '~> blocked gists leave the lists');
	ADMIN_COMMANDS['block-gist'].run(
		s.app,
		{ unblock: true },
		[id],
		createOutput(true, () => {}),
	);
	assert.is((await s.get(`/gists/${id}/comments`, alice)).status, 200);
	assert.throws(
		() =>
			ADMIN_COMMANDS['block-gist'].run(
				s.app,
				{},
				['ffff'],
				createOutput(true, () => {}),
			),
		/unknown gist/,
	);
});

test('delete – owner only; comments go with it', async () => {
	assert.is((await s.request('DELETE', `/gists/${gistId}`, { token: bob })).status, 404);
	assert.is((await s.request('DELETE', `/gists/${gistId}`, { token: alice })).status, 204);
	assert.is((await s.get(`/gists/${gistId}`)).status, 404);
	assert.is((await s.get(`/gists/${gistId}/comments`)).status, 404);
});

test.run();
