/**
 * The small endpoints every client touches: GET /emojis (built once, with an ETag), GET /zen,
 * GET /octocat, POST /markdown (markdown and gfm modes, references in a repository context that
 * the caller can read), POST /markdown/raw (a text body that is never parsed as JSON), GET /meta
 * and the API root's URL templates.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ZEN } from '../src/api/misc/routes';
import { startServer, type TestServer } from './helpers/server';

const test = suite('misc');
let s: TestServer;
let olivia: string;
let nora: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	nora = s.fullToken('nora');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'app' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	await s.request('POST', '/repos/acme/app/issues', { token: olivia, body: { title: 'First' } });
	await s.request('POST', '/repos/acme/vault/issues', { token: olivia, body: { title: 'Hidden' } });
});
test.after(() => s.close());

test('GET /emojis – every GitHub name → its image URL, with an ETag; anonymous too', async () => {
	const res = await s.get('/emojis');
	assert.is(res.status, 200);
	assert.is(res.body['+1'], 'https://github.githubassets.com/images/icons/emoji/unicode/1f44d.png?v8', '~> GitHub’s URL, lower-case hex');
	assert.is(res.body.thumbsup, res.body['+1'], '~> every name of an emoji');
	assert.is(
		res.body.afghanistan,
		'https://github.githubassets.com/images/icons/emoji/unicode/1f1e6-1f1eb.png?v8',
		'~> sequences joined by -',
	);
	assert.ok(Object.keys(res.body).length > 1800, '~> all of them');
	const keys = [...res.text.matchAll(/"([^"]+)":"https/g)].map((m) => m[1]);
	assert.equal(keys.slice(0, 4), ['+1', '-1', '100', '1234'], '~> sorted by name, as GitHub’s');
	assert.equal(
		keys,
		[...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
		'~> sorted by name',
	);
	const etag = res.headers.get('etag');
	assert.ok(etag, '~> an ETag');
	assert.is((await s.get('/emojis', olivia, { 'If-None-Match': etag! })).status, 304, '~> a matching If-None-Match: 304');
});

test('GET /zen – one design principle as text/plain', async () => {
	const res = await s.get('/zen');
	assert.is(res.status, 200);
	assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
	assert.ok((ZEN as readonly string[]).includes(res.text), `~> one of GitHub’s principles: ${res.text}`);
});

test('GET /octocat – the Octocat saying ?s=, as application/octocat-stream', async () => {
	const res = await s.get(`/octocat?s=${encodeURIComponent('Hello there')}`);
	assert.is(res.status, 200);
	assert.is(res.headers.get('content-type'), 'application/octocat-stream');
	const lines = res.text.split('\n');
	assert.is(lines[2].slice(40), '_'.repeat(13), '~> the bubble’s top fits the text');
	assert.is(lines[4].slice(39), '| Hello there |', '~> the speech');
	assert.is(lines[6].slice(41), '|/', '~> the tail');
	assert.ok(lines[0].includes('MMM.'), '~> the art');
	const random = await s.get('/octocat');
	assert.ok(
		ZEN.some((principle) => random.text.includes(`| ${principle} |`)),
		'~> without s: a design principle',
	);
	assert.is((await s.get('/octocat?s=a&s=b')).status, 422, '~> s given twice: 422');
});

test('POST /markdown – markdown mode renders a document (newlines are spaces)', async () => {
	const res = await s.request('POST', '/markdown', { body: { text: 'Hello **world**\nagain #1' } });
	assert.is(res.status, 200, '~> anonymous callers may render');
	assert.is(res.headers.get('content-type'), 'text/html;charset=utf-8');
	assert.is(res.text, '<p dir="auto">Hello <strong>world</strong>\nagain #1</p>', '~> no line break, no reference');
	const script = await s.request('POST', '/markdown', { token: nora, body: { text: '<script>alert(1)</script>*ok*' } });
	assert.not.match(script.text, /<script/, '~> sanitized');
});

test('POST /markdown – gfm mode: line breaks, @mentions, #references in the context repository', async () => {
	const res = await s.request('POST', '/markdown', {
		token: nora,
		body: { text: 'Hi @olivia and @nobody-here\nsee #1, acme/app#1, #99 and `#1`', mode: 'gfm', context: 'acme/app' },
	});
	assert.is(res.status, 200);
	assert.match(res.text, /<br \/>\nsee/, '~> a newline is a line break');
	assert.match(res.text, new RegExp(`<a href="${s.origin}/olivia" class="user-mention">@olivia</a>`), '~> an existing user is linked');
	assert.match(res.text, /@nobody-here/, '~> an unknown login stays text');
	assert.not.match(res.text, /nobody-here<\/a>/);
	assert.match(res.text, new RegExp(`<a href="${s.origin}/acme/app/issues/1" class="issue-link">#1</a>,`), '~> #1 in the context');
	assert.match(res.text, new RegExp(`<a href="${s.origin}/acme/app/issues/1" class="issue-link">acme/app#1</a>`), '~> owner/repo#1');
	assert.match(res.text, / #99 /, '~> a missing issue stays text');
	assert.match(res.text, /<code>#1<\/code>/, '~> code is left alone');
	const hidden = await s.request('POST', '/markdown', { token: nora, body: { text: 'acme/vault#1', mode: 'gfm' } });
	assert.is(hidden.text, '<p dir="auto">acme/vault#1</p>', '~> a repository the caller cannot read is not linked');
	const owner = await s.request('POST', '/markdown', { token: olivia, body: { text: 'acme/vault#1', mode: 'gfm' } });
	assert.match(owner.text, /\/acme\/vault\/issues\/1"/, '~> its owner gets the link');
});

test('POST /markdown – validation: text required, mode and context checked, invalid JSON is 400', async () => {
	const missing = await s.request('POST', '/markdown', { token: nora, body: {} });
	assert.is(missing.status, 422);
	assert.is(missing.body.errors[0].field, 'text');
	assert.is((await s.request('POST', '/markdown', { token: nora, body: { text: 'x', mode: 'html' } })).status, 422, '~> unknown mode');
	assert.is(
		(await s.request('POST', '/markdown', { token: nora, body: { text: 'x', context: 'not a repo' } })).status,
		422,
		'~> context is owner/repo',
	);
	assert.is(
		(await s.request('POST', '/markdown', { token: nora, body: { text: 'x'.repeat(4 * 65536 + 1) } })).status,
		422,
		'~> too long',
	);
	assert.is(
		(await s.request('POST', '/markdown', { token: nora, raw: '{nope', headers: { 'Content-Type': 'application/json' } })).status,
		400,
	);
});

test('POST /markdown/raw – the body is the Markdown (text/plain, text/x-markdown), never parsed as JSON', async () => {
	const res = await s.request('POST', '/markdown/raw', { raw: 'Hello **world**', headers: { 'Content-Type': 'text/plain' } });
	assert.is(res.status, 200);
	assert.is(res.headers.get('content-type'), 'text/html;charset=utf-8');
	assert.is(res.text, '<p dir="auto">Hello <strong>world</strong></p>');
	const json = await s.request('POST', '/markdown/raw', {
		token: nora,
		raw: '{"text": "# not json"}',
		headers: { 'Content-Type': 'text/x-markdown' },
	});
	assert.is(
		json.text,
		'<p dir="auto">{&quot;text&quot;: &quot;# not json&quot;}</p>'.replace(/&quot;/g, '"'),
		'~> JSON-looking text is rendered as text',
	);
	const broken = await s.request('POST', '/markdown/raw', { token: nora, raw: '{broken', headers: { 'Content-Type': 'text/plain' } });
	assert.is(broken.status, 200, '~> text that is not JSON is fine');
	const empty = await s.request('POST', '/markdown/raw', { token: nora, headers: { 'Content-Length': '0' } });
	assert.is(empty.status, 200);
	assert.is(empty.text, '', '~> no body: empty HTML');
	const long = await s.request('POST', '/markdown/raw', {
		token: nora,
		raw: 'x'.repeat(4 * 65536 + 1),
		headers: { 'Content-Type': 'text/plain' },
	});
	assert.is(long.status, 422, '~> too long');
});

test('GET /meta and GET / – GitHub Enterprise Server’s fields and URL templates', async () => {
	const meta = await s.get('/meta');
	assert.is(meta.status, 200);
	assert.is(meta.body.verifiable_password_authentication, false, '~> the one required field');
	assert.type(meta.body.installed_version, 'string');
	const root = await s.get('/');
	assert.is(root.body.repository_search_url, `${s.api}/search/repositories?q={query}{&page,per_page,sort,order}`);
	assert.is(root.body.issue_search_url, `${s.api}/search/issues?q={query}{&page,per_page,sort,order}`);
	assert.is(root.body.user_search_url, `${s.api}/search/users?q={query}{&page,per_page,sort,order}`);
	assert.is(root.body.emojis_url, `${s.api}/emojis`);
	for (const key of [
		'authorizations_url',
		'code_search_url',
		'commit_search_url',
		'keys_url',
		'label_search_url',
		'starred_url',
		'starred_gists_url',
	]) {
		assert.type(root.body[key], 'string', `~> ${key}`);
	}
});

test('a stock GitHub client (@octokit/rest): markdown, raw markdown, emojis, zen, search, gist stars and forks', async () => {
	const { Octokit } = await import('@octokit/rest');
	const quiet = { debug() {}, info() {}, warn() {}, error() {} };
	const octokit = new Octokit({ auth: nora, baseUrl: s.api, log: quiet });
	const rendered = await octokit.rest.markdown.render({ text: 'Hi @olivia', mode: 'gfm', context: 'acme/app' });
	assert.match(String(rendered.data), /class="user-mention">@olivia<\/a>/);
	const raw = await octokit.rest.markdown.renderRaw({ data: '**raw**' });
	assert.is(String(raw.data), '<p dir="auto"><strong>raw</strong></p>', '~> renderRaw sends text/plain');
	const emojis = await octokit.rest.emojis.get();
	assert.is(emojis.data['+1'], 'https://github.githubassets.com/images/icons/emoji/unicode/1f44d.png?v8');
	assert.ok((ZEN as readonly string[]).includes(String((await octokit.rest.meta.getZen()).data)));
	const repos = await octokit.rest.search.repos({ q: 'app org:acme' });
	assert.equal(
		repos.data.items.map((r) => r.full_name),
		['acme/app'],
	);
	const issues = await octokit.rest.search.issuesAndPullRequests({ q: 'first repo:acme/app' });
	assert.is(issues.data.total_count, 1);
	const users = await octokit.rest.search.users({ q: 'olivia' });
	assert.is(users.data.items[0].login, 'olivia');
	const { data: gist } = await new Octokit({ auth: olivia, baseUrl: s.api, log: quiet }).rest.gists.create({
		files: { 'a.txt': { content: 'a' } },
		public: true,
	});
	await octokit.rest.gists.star({ gist_id: gist.id! });
	assert.is((await octokit.rest.gists.checkIsStarred({ gist_id: gist.id! })).status, 204);
	const fork = await octokit.rest.gists.fork({ gist_id: gist.id! });
	assert.is(fork.status, 201);
	const commits = await octokit.rest.gists.listCommits({ gist_id: fork.data.id! });
	assert.is(commits.data.length, 1);
	const revision = await octokit.rest.gists.getRevision({ gist_id: gist.id!, sha: commits.data[0].version });
	assert.is(revision.data.files!['a.txt']!.content, 'a');
});

test.run();
