/**
 * Gists and gist comments (spec document 2, Gist comments; GitHub's gists API).
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
	assert.equal(md, { filename: 'hello.md', type: 'text/markdown', language: 'Markdown', raw_url: md.raw_url, size: 11, truncated: false, content: '# Hi\n\nthere' });
	const raw = await fetch(md.raw_url);
	assert.is(raw.status, 200);
	assert.is(await raw.text(), '# Hi\n\nthere');
	const pub = await s.request('POST', '/gists', { token: bob, body: { public: true, files: { 'a.txt': { content: 'a' } } } });
	assert.is(pub.body.public, true);
});

test('create – validation and denials', async () => {
	assert.is((await s.request('POST', '/gists', { body: { files: { 'a.txt': { content: 'a' } } } })).status, 401);
	for (const body of [{}, { files: {} }, { files: { 'a.txt': { content: '' } } }, { files: { 'a/b.txt': { content: 'x' } } }, { files: 'x' }]) {
		assert.is((await s.request('POST', '/gists', { token: alice, body })).status, 422, `~> ${JSON.stringify(body)}`);
	}
	const noScope = await s.request('POST', '/gists', { token: s.token('alice', { scopes: ['repo'] }), body: { files: { 'a.txt': { content: 'a' } } } });
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
	const created = await s.request('POST', `/gists/${gistId}/comments`, { token: bob, body: { body: 'Nice **gist**! <script>x</script>' } });
	assert.is(created.status, 201);
	assert.equal(Object.keys(created.body), ['url', 'id', 'node_id', 'body', 'user', 'author_association', 'created_at', 'updated_at']);
	assert.is(created.body.body, 'Nice **gist**! <script>x</script>', '~> raw is the default');
	assert.is(created.body.author_association, 'NONE');
	assert.is(created.headers.get('location'), created.body.url);
	const own = await s.request('POST', `/gists/${gistId}/comments`, { token: alice, body: { body: 'Thanks' } });
	assert.is(own.body.author_association, 'OWNER');
	const id = created.body.id;
	const html = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { Accept: 'application/vnd.github.html+json' });
	assert.equal(Object.keys(html.body).filter((k) => k.startsWith('body')), ['body_html']);
	assert.is(html.body.body_html, '<p dir="auto">Nice <strong>gist</strong>! </p>', '~> raw HTML is sanitized');
	const text = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { Accept: 'application/vnd.github.text+json' });
	assert.is(text.body.body_text, 'Nice gist!');
	const full = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { Accept: 'application/vnd.service.full+json' });
	assert.equal(Object.keys(full.body).filter((k) => k.startsWith('body')), ['body', 'body_text', 'body_html']);
	assert.is(full.headers.get('x-github-media-type'), 'github.v3; param=full; format=json');
	const etag = html.headers.get('etag')!;
	const again = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { Accept: 'application/vnd.github.html+json', 'If-None-Match': etag });
	assert.is(again.status, 304);
	const raw = await s.get(`/gists/${gistId}/comments/${id}`, undefined, { 'If-None-Match': etag });
	assert.is(raw.status, 200, '~> another media type is another representation');
	const list = await s.get(`/gists/${gistId}/comments`);
	assert.equal(list.body.map((c: any) => c.id), [id, own.body.id]);
	assert.is((await s.get(`/gists/${gistId}`)).body.comments, 2);
	assert.is((await s.request('PATCH', `/gists/${gistId}/comments/${id}`, { token: alice, body: { body: 'hijack' } })).status, 404, '~> only the author edits');
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
	assert.is((await s.request('DELETE', `/gists/${gistId}/comments/${own.body.id}`, { token: bob })).status, 403, '~> not the author, not the gist owner');
	assert.is((await s.request('DELETE', `/gists/${gistId}/comments/${id}`, { token: alice })).status, 204, '~> the gist owner may delete any comment');
	assert.is((await s.get(`/gists/${gistId}/comments/${id}`)).status, 404);
	assert.is((await s.get(`/gists/${gistId}/comments/abc`)).status, 404);
});

test('a gist blocked by a site administrator answers 403 Forbidden Gist with the block object', async () => {
	const res = await s.request('POST', '/gists', { token: bob, body: { public: true, files: { 'spam.txt': { content: 'buy now' } } } });
	const id = res.body.id;
	const printed: string[] = [];
	ADMIN_COMMANDS['block-gist'].run(s.app, { reason: 'spam' }, [id], createOutput(true, (text) => void printed.push(text)));
	assert.equal(JSON.parse(printed[0]), { id, blocked: true, reason: 'spam', blocked_at: '2026-11-22T12:00:00Z' });
	for (const path of [`/gists/${id}`, `/gists/${id}/comments`]) {
		const blocked = await s.get(path, alice);
		assert.is(blocked.status, 403);
		assert.equal(blocked.body.block, { reason: 'spam', created_at: '2026-11-22T12:00:00Z', html_url: `${s.origin}/gist/${id}` });
		assert.is(blocked.body.message, 'Gist blocked');
	}
	assert.ok(!(await s.get('/gists/public')).body.some((g: any) => g.id === id), '~> blocked gists leave the lists');
	ADMIN_COMMANDS['block-gist'].run(s.app, { unblock: true }, [id], createOutput(true, () => {}));
	assert.is((await s.get(`/gists/${id}/comments`, alice)).status, 200);
	assert.throws(() => ADMIN_COMMANDS['block-gist'].run(s.app, {}, ['ffff'], createOutput(true, () => {})), /unknown gist/);
});

test('delete – owner only; comments go with it', async () => {
	assert.is((await s.request('DELETE', `/gists/${gistId}`, { token: bob })).status, 404);
	assert.is((await s.request('DELETE', `/gists/${gistId}`, { token: alice })).status, 204);
	assert.is((await s.get(`/gists/${gistId}`)).status, 404);
	assert.is((await s.get(`/gists/${gistId}/comments`)).status, 404);
});

test.run();
