/**
 * Issue comments (creation, deletion and the per-issue list as
 * GitHub has them).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

/** GitHub's limit on comment bodies, in characters. */
const MAX = 65536;

const test = suite('issue-comments');
let s: TestServer;
let olivia: string; // owner of acme
let carl: string; // outside collaborator with push on acme/web
let eve: string; // nobody to acme
const ids: number[] = [];

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'carl', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	carl = s.fullToken('carl');
	eve = s.fullToken('eve');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	const web = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'web')!;
	s.app.stores.repos.setCollaborator(web.id, s.app.stores.accounts.user('carl')!.id, 'push', '2026-01-01T00:00:00Z');
	await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'One' } });
	await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'Two' } });
	await s.request('POST', '/repos/acme/vault/issues', { token: olivia, body: { title: 'Secret' } });
});
test.after(() => s.close());

test('create: 201 with Location and the spec Comment shape; counts on the issue', async () => {
	const res = await s.request('POST', '/repos/acme/web/issues/1/comments', {
		token: carl,
		body: { body: 'Looks **bad**: <script>alert(1)</script> see https://example.com' },
	});
	assert.is(res.status, 201);
	const c = res.body;
	ids.push(c.id);
	assert.is(res.headers.get('location'), `${s.api}/repos/acme/web/issues/comments/${c.id}`);
	assert.equal(Object.keys(c).sort(), [
		'author_association',
		'body',
		'created_at',
		'html_url',
		'id',
		'issue_url',
		'node_id',
		'performed_via_github_app',
		'pin',
		'reactions',
		'updated_at',
		'url',
		'user',
	]);
	assert.is(c.url, `${s.api}/repos/acme/web/issues/comments/${c.id}`);
	assert.is(c.html_url, `${s.origin}/acme/web/issues/1#issuecomment-${c.id}`);
	assert.is(c.issue_url, `${s.api}/repos/acme/web/issues/1`);
	assert.is(c.user.login, 'carl');
	assert.is(c.author_association, 'COLLABORATOR');
	assert.is(c.pin, null);
	assert.is(c.created_at, '2026-11-22T12:00:00Z');
	assert.is(c.node_id, Buffer.from(`012:IssueComment${c.id}`).toString('base64'));
	const issue = await s.get('/repos/acme/web/issues/1', olivia);
	assert.is(issue.body.comments, 1);

	s.clock.advance(60_000);
	ids.push((await s.request('POST', '/repos/acme/web/issues/2/comments', { token: olivia, body: { body: 'second' } })).body.id);
	s.clock.advance(60_000);
	const third = await s.request('POST', '/repos/acme/web/issues/1/comments', { token: eve, body: { body: 'me too' } });
	assert.is(third.body.author_association, 'NONE');
	ids.push(third.body.id);
	const own = await s.request('POST', '/repos/acme/web/issues/2/comments', { token: olivia, body: { body: 'owner here' } });
	assert.is(own.body.author_association, 'MEMBER');
	ids.push(own.body.id);
});

test('create: validation and denial', async () => {
	assert.is((await s.request('POST', '/repos/acme/web/issues/1/comments', { token: carl, body: {} })).status, 422);
	const blank = await s.request('POST', '/repos/acme/web/issues/1/comments', { token: carl, body: { body: '' } });
	assert.is(blank.status, 422);
	assert.is(blank.body.errors[0].field, 'body');
	assert.is((await s.request('POST', '/repos/acme/web/issues/9/comments', { token: carl, body: { body: 'x' } })).status, 404);
	assert.is((await s.request('POST', '/repos/acme/web/issues/1/comments', { body: { body: 'x' } })).status, 401);
	assert.is((await s.request('POST', '/repos/acme/vault/issues/1/comments', { token: eve, body: { body: 'x' } })).status, 404);
	const readOnly = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'read' } });
	const denied = await s.request('POST', '/repos/acme/web/issues/1/comments', { token: readOnly, body: { body: 'x' } });
	assert.is(denied.status, 403);
	assert.is(denied.headers.get('x-accepted-github-permissions'), 'issues=write; pull_requests=write');
	const prToken = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { pull_requests: 'write' } });
	assert.is(
		(await s.request('POST', '/repos/acme/web/issues/1/comments', { token: prToken, body: { body: 'via pulls' } })).status,
		201,
		'~> Pull requests (write) suffices too',
	);
	ids.push((await s.get('/repos/acme/web/issues/comments?sort=created&direction=desc&per_page=1', olivia)).body[0].id);
});

test('media types: raw (default), text, html (sanitized), full', async () => {
	const path = `/repos/acme/web/issues/comments/${ids[0]}`;
	const raw = await s.get(path, olivia);
	assert.is(raw.body.body, 'Looks **bad**: <script>alert(1)</script> see https://example.com');
	assert.is(raw.body.body_html, undefined);
	const html = await s.get(path, olivia, { Accept: 'application/vnd.github.html+json' });
	assert.is(html.body.body, undefined);
	assert.match(html.body.body_html, '<strong>bad</strong>');
	assert.match(html.body.body_html, '<a href="https://example.com">https://example.com</a>');
	assert.not.match(html.body.body_html, '<script');
	assert.is(html.headers.get('x-github-media-type'), 'github.v3; param=html; format=json');
	const text = await s.get(path, olivia, { Accept: 'application/vnd.github.v3.text+json' });
	assert.equal(
		Object.keys(text.body).filter((k) => k.startsWith('body')),
		['body_text'],
	);
	assert.match(text.body.body_text, 'Looks bad:');
	const full = await s.get(path, olivia, { Accept: 'application/vnd.service.full+json' });
	assert.ok(full.body.body && full.body.body_text && full.body.body_html);
});

test('get: public without a token, 304 on If-None-Match, 404 elsewhere', async () => {
	const res = await s.get(`/repos/acme/web/issues/comments/${ids[0]}`);
	assert.is(res.status, 200);
	const again = await s.get(`/repos/acme/web/issues/comments/${ids[0]}`, undefined, { 'If-None-Match': res.headers.get('etag')! });
	assert.is(again.status, 304);
	assert.is((await s.get('/repos/acme/web/issues/comments/999999', olivia)).status, 404);
	assert.is((await s.get('/repos/acme/web/issues/comments/nope', olivia)).status, 404);
	const secret = (await s.get('/repos/acme/vault/issues/1/comments', olivia)).status;
	assert.is(secret, 200);
	assert.is((await s.get('/repos/acme/vault/issues/comments', eve)).status, 404);
});

test('list for the repository: ascending id by default; sort with direction; since', async () => {
	const all = await s.get('/repos/acme/web/issues/comments', olivia);
	assert.is(all.status, 200);
	assert.equal(
		all.body.map((c: any) => c.id),
		[...ids].sort((a, b) => a - b),
	);
	assert.equal(
		(await s.get('/repos/acme/web/issues/comments?direction=desc', olivia)).body.map((c: any) => c.id),
		[...ids].sort((a, b) => a - b),
		'~> direction is ignored without sort',
	);
	// Edit the first comment later: sort=updated puts it last ascending, first descending.
	s.clock.advance(3_600_000);
	const edited = await s.request('PATCH', `/repos/acme/web/issues/comments/${ids[0]}`, { token: carl, body: { body: 'edited' } });
	assert.is(edited.status, 200);
	assert.is(edited.body.body, 'edited');
	assert.is(edited.body.updated_at, '2026-11-22T13:02:00Z');
	assert.is(edited.body.created_at, '2026-11-22T12:00:00Z');
	const byUpdated = await s.get('/repos/acme/web/issues/comments?sort=updated&direction=asc', olivia);
	assert.is(byUpdated.body.at(-1).id, ids[0]);
	assert.is(
		(await s.get('/repos/acme/web/issues/comments?sort=updated', olivia)).body[0].id,
		ids[0],
		'~> sort without direction: descending',
	);
	const createdDesc = await s.get('/repos/acme/web/issues/comments?sort=created&direction=desc', olivia);
	assert.is(createdDesc.body.at(-1).id, ids[0]);
	const since = await s.get('/repos/acme/web/issues/comments?since=2026-11-22T13:00:00Z', olivia);
	assert.equal(
		since.body.map((c: any) => c.id),
		[ids[0]],
	);
	// The seed: "only comments updated after it" — strictly after (regression: a comment updated at the instant itself was listed).
	assert.equal(
		(await s.get('/repos/acme/web/issues/comments?since=2026-11-22T13:02:00Z', olivia)).body,
		[],
		'~> updated at since itself: not after it',
	);
	assert.equal(
		(await s.get('/repos/acme/web/issues/comments?since=2026-11-22T13:01:59Z', olivia)).body.map((c: any) => c.id),
		[ids[0]],
	);
	const paged = await s.get('/repos/acme/web/issues/comments?per_page=2&page=2', olivia);
	assert.is(paged.body.length, 2);
	assert.match(paged.headers.get('link')!, 'rel="prev"');
	assert.is((await s.get('/repos/acme/web/issues/comments?sort=size', olivia)).status, 422);
	assert.is((await s.get('/repos/acme/web/issues/comments?since=noon', olivia)).status, 422);
});

test('list for one issue: ascending id, since', async () => {
	const res = await s.get('/repos/acme/web/issues/2/comments', eve);
	assert.is(res.status, 200);
	assert.ok(res.body.length >= 2);
	assert.ok(res.body.every((c: any) => c.issue_url.endsWith('/issues/2')));
	assert.equal(
		res.body.map((c: any) => c.id),
		[...res.body.map((c: any) => c.id)].sort((a: number, b: number) => a - b),
	);
	assert.equal((await s.get('/repos/acme/web/issues/2/comments?since=2030-01-01T00:00:00Z', eve)).body, []);
	const newest = res.body
		.map((c: any) => c.updated_at)
		.sort()
		.at(-1);
	const after = await s.get(`/repos/acme/web/issues/2/comments?since=${newest}`, eve);
	assert.equal(after.body, [], '~> a comment updated at the since instant itself is not listed: strictly after (regression)');
	assert.is((await s.get('/repos/acme/web/issues/77/comments', eve)).status, 404);
});

test('update and delete: the author or write access; others 403', async () => {
	const path = `/repos/acme/web/issues/comments/${ids[2]}`; // eve's
	assert.is(
		(await s.request('PATCH', `/repos/acme/web/issues/comments/${ids[1]}`, { token: eve, body: { body: 'hijack' } })).status,
		403,
	);
	assert.is((await s.request('PATCH', path, { token: eve, body: { body: 'me too (edited)' } })).status, 200);
	assert.is((await s.request('PATCH', path, { token: eve, body: { body: '' } })).status, 422);
	assert.is((await s.request('PATCH', path, { token: eve, body: { note: 'x' } })).status, 422);
	assert.is((await s.request('DELETE', `/repos/acme/web/issues/comments/${ids[1]}`, { token: eve })).status, 403);
	assert.is((await s.request('DELETE', path, { token: carl })).status, 204, "~> write access deletes anyone's comment");
	assert.is((await s.get(path, olivia)).status, 404);
	assert.is((await s.request('DELETE', path, { token: carl })).status, 404);
	const issue = await s.get('/repos/acme/web/issues/1', olivia);
	assert.is(issue.body.comments, 2, '~> the count follows deletions (three made, one deleted)');
});

test("bodies: GitHub's 422 beyond 65,536 characters, nothing written; an edited body is rendered again", async () => {
	const path = '/repos/acme/web/issues/1/comments';
	const before = (await s.get('/repos/acme/web/issues/1', olivia)).body.comments;
	const tooLong = await s.request('POST', path, { token: olivia, body: { body: 'x'.repeat(MAX + 1) } });
	assert.is(tooLong.status, 422);
	assert.equal(tooLong.body, {
		message: 'Validation Failed',
		errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
		documentation_url: 'https://docs.github.com/enterprise-server@3.19/rest/issues/comments#create-an-issue-comment',
		status: '422',
	});
	assert.is((await s.get('/repos/acme/web/issues/1', olivia)).body.comments, before, '~> nothing written');
	// Characters, as GitHub counts them: an emoji is one (two UTF-16 code units).
	const emoji = await s.request('POST', path, { token: olivia, body: { body: '😀'.repeat(MAX) } });
	assert.is(emoji.status, 201);
	const exact = await s.request('POST', path, { token: olivia, body: { body: 'x'.repeat(MAX) } });
	assert.is(exact.status, 201);
	const edit = `/repos/acme/web/issues/comments/${exact.body.id}`;
	const longer = await s.request('PATCH', edit, { token: olivia, body: { body: 'y'.repeat(MAX + 1) } });
	assert.is(longer.status, 422);
	assert.is(longer.body.errors[0].message, 'body is too long (maximum is 65536 characters)');
	assert.is((await s.get(edit, olivia)).body.body, 'x'.repeat(MAX), '~> nothing written');

	const edited = await s.request('PATCH', edit, {
		token: olivia,
		body: { body: 'Now **bold** and <http://example.com>' },
		headers: { Accept: 'application/vnd.github.full+json' },
	});
	assert.is(edited.status, 200);
	assert.is(edited.body.body_html, '<p dir="auto">Now <strong>bold</strong> and <a href="http://example.com">http://example.com</a></p>');
	assert.is(edited.body.body_text, 'Now bold and http://example.com');
	const read = await s.get(edit, undefined, { Accept: 'application/vnd.github.html+json' });
	assert.equal(read.body.body_html, edited.body.body_html, '~> reads give the stored rendering of the new body');
	for (const id of [emoji.body.id, exact.body.id]) {
		assert.is((await s.request('DELETE', `/repos/acme/web/issues/comments/${id}`, { token: olivia })).status, 204);
	}
});

test.run();
