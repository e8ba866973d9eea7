/**
 * HTTP conventions:
 * base paths, error bodies, bad bodies, unknown routes, versions, media types, ETag/304,
 * pagination links, standard headers, CORS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../src/log';
import { startServer, type TestServer } from './helpers/server';

const test = suite('http');
let s: TestServer;
let token: string;

test.before(async () => {
	s = await startServer({ configure: (c) => (c.server.body_limit = 4096) });
	s.user('octocat');
	s.org('acme', 'octocat');
	token = s.fullToken('octocat');
});
test.after(() => s.close());

test('base path – served at /api/v3 and at /', async () => {
	const a = await s.request('GET', `${s.origin}/api/v3/orgs/acme`);
	const b = await s.request('GET', `${s.origin}/orgs/acme`);
	assert.is(a.status, 200, '~> /api/v3 answers');
	assert.is(b.status, 200, '~> / answers');
	assert.is(a.body.login, 'acme');
	assert.is(a.body.url, `${s.api}/orgs/acme`, '~> url fields are absolute and include /api/v3');
	assert.is(a.headers.get('content-type'), 'application/json; charset=utf-8');
});

test('query – without parameters the schema gives its defaults every time; a required parameter is refused every time', async () => {
	for (let i = 0; i < 2; i++) {
		const teams = await s.get('/orgs/acme/teams', token);
		assert.is(teams.status, 200);
		const refused = await s.get('/search/issues', token);
		assert.is(refused.status, 422, `~> request ${i + 1}: q is required`);
		const listed = await s.get('/orgs/acme/teams?team_type=enterprise', token);
		assert.equal([listed.status, listed.body], [200, []], '~> a parameter is read when one is sent');
		const bad = await s.get('/orgs/acme/teams?team_type=nope', token);
		assert.is(bad.status, 422);
	}
});

test('errors – unknown route is 404 with GitHub error body', async () => {
	const res = await s.get('/no/such/thing', token);
	assert.is(res.status, 404);
	assert.is(res.body.message, 'Not Found');
	assert.is(res.body.status, '404', '~> status is a string');
	assert.type(res.body.documentation_url, 'string');
	assert.ok(res.headers.get('x-github-request-id'), '~> request id on errors too');
});

test('errors – wrong method on a known path is 404', async () => {
	const res = await s.request('DELETE', '/orgs/acme/members', { token });
	assert.is(res.status, 404);
	assert.is(res.body.message, 'Not Found');
});

test('errors – malformed JSON is 400 "Problems parsing JSON"', async () => {
	const res = await s.request('POST', '/orgs/acme/teams', { token, raw: '{"name": ', headers: { 'Content-Type': 'application/json' } });
	assert.is(res.status, 400);
	assert.is(res.body.message, 'Problems parsing JSON');
	assert.is(res.body.status, '400');
	assert.is(s.app.stores.teams.bySlug(s.app.stores.accounts.organization('acme')!.id, ''), undefined);
});

test('errors – a JSON body that is not an object is 400', async () => {
	const res = await s.request('POST', '/orgs/acme/teams', { token, body: ['a'] });
	assert.is(res.status, 400);
	assert.is(res.body.message, 'Body should be a JSON object');
});

test('errors – JSON is parsed whatever the Content-Type (curl -d)', async () => {
	const res = await s.request('POST', '/orgs/acme/teams', {
		token,
		raw: '{"name":"Form Encoded"}',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
	});
	assert.is(res.status, 201);
	assert.is(res.body.slug, 'form-encoded');
});

test('errors – body over the limit is 413', async () => {
	const res = await s.request('POST', '/orgs/acme/teams', { token, body: { name: 'big', description: 'x'.repeat(10_000) } });
	assert.is(res.status, 413);
	assert.is(res.body.status, '413');
});

test('errors – chunked body over the limit is 413', async () => {
	const status = await new Promise<number>((resolve, reject) => {
		const req = httpRequest(`${s.api}/orgs/acme/teams`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}`, 'Transfer-Encoding': 'chunked' },
		});
		req.on('response', (res) => {
			res.resume();
			resolve(res.statusCode!);
		});
		req.on('error', reject);
		for (let i = 0; i < 10; i++) req.write(`${'y'.repeat(1000)}`);
		req.end();
	});
	assert.is(status, 413);
});

test('errors – 422 names resource, field and code', async () => {
	const res = await s.request('POST', '/orgs/acme/teams', { token, body: { privacy: 'hidden' } });
	assert.is(res.status, 422);
	assert.is(res.body.message, 'Validation Failed');
	assert.is(res.body.status, '422');
	const fields = res.body.errors.map((e: any) => `${e.resource}.${e.field}:${e.code}`).sort();
	assert.equal(fields, ['Team.name:missing_field', 'Team.privacy:invalid']);
});

test('versions – default is 2022-11-28, both names accepted, others are 400', async () => {
	const plain = await s.get('/orgs/acme', token);
	assert.is(plain.headers.get('x-github-api-version-selected'), '2022-11-28');
	assert.is(plain.headers.get('x-service-api-version-selected'), '2022-11-28');
	const service = await s.get('/orgs/acme', token, { 'X-Service-Api-Version': '2026-03-10' });
	assert.is(service.status, 200);
	assert.is(service.headers.get('x-github-api-version-selected'), '2026-03-10');
	const github = await s.get('/orgs/acme', token, { 'X-GitHub-Api-Version': '2026-03-10' });
	assert.is(github.headers.get('x-service-api-version-selected'), '2026-03-10');
	const bad = await s.get('/orgs/acme', token, { 'X-GitHub-Api-Version': '2021-01-01' });
	assert.is(bad.status, 400);
	assert.match(bad.body.message, 'is not a supported version');
	assert.match(bad.body.message, '"2022-11-28"');
});

test('media types – vendor types accepted and echoed; unknown Accept served as JSON', async () => {
	const a = await s.get('/orgs/acme', token, { Accept: 'application/vnd.service+json' });
	assert.is(a.status, 200);
	assert.is(a.headers.get('x-github-media-type'), 'github.v3; format=json');
	const b = await s.get('/orgs/acme', token, { Accept: 'application/vnd.github.v3.full+json' });
	assert.is(b.headers.get('x-github-media-type'), 'github.v3; param=full; format=json');
	const c = await s.get('/orgs/acme', token, { Accept: 'text/html' });
	assert.is(c.status, 200);
	assert.is(c.headers.get('content-type'), 'application/json; charset=utf-8');
});

test('caching – ETag and If-None-Match → 304 that does not count', async () => {
	const first = await s.get('/orgs/acme/teams', token);
	const etag = first.headers.get('etag')!;
	assert.match(etag, /^W\/"[0-9a-f]{40}"$/);
	const used = Number(first.headers.get('x-ratelimit-used'));
	const second = await s.get('/orgs/acme/teams', token, { 'If-None-Match': etag });
	assert.is(second.status, 304);
	assert.is(second.text, '');
	assert.is(second.headers.get('etag'), etag);
	assert.is(Number(second.headers.get('x-ratelimit-used')), used, '~> 304 is not counted');
	const third = await s.get('/orgs/acme/teams', token);
	assert.is(Number(third.headers.get('x-ratelimit-used')), used + 1);
});

test('caching – a change gives a new ETag', async () => {
	const before = await s.get('/orgs/acme/teams', token);
	await s.request('POST', '/orgs/acme/teams', { token, body: { name: 'Etag Changer' } });
	const after = await s.get('/orgs/acme/teams', token, { 'If-None-Match': before.headers.get('etag')! });
	assert.is(after.status, 200);
	assert.is.not(after.headers.get('etag'), before.headers.get('etag'));
});

test('caching – an ETag from before a restart never matches different content after it (code review)', async () => {
	const dataDir = mkdtempSync(join(tmpdir(), 'gitstead-etag-'));
	try {
		const first = await startServer({ dataDir });
		first.user('octocat');
		first.org('acme', 'octocat');
		const t = first.fullToken('octocat');
		await first.request('POST', '/orgs/acme/teams', { token: t, body: { name: 'Alpha', privacy: 'closed' } });
		const before = await first.get('/orgs/acme/teams', t);
		assert.is(before.body[0].name, 'Alpha');
		await first.close(true);
		const second = await startServer({ dataDir });
		try {
			// The same number of changes as before the restart: the per-process generations are equal again.
			assert.is((await second.request('PATCH', '/orgs/acme/teams/alpha', { token: t, body: { name: 'Beta' } })).status, 200);
			const after = await second.get('/orgs/acme/teams', t, { 'If-None-Match': before.headers.get('etag')! });
			assert.is(after.status, 200, '~> not a stale 304');
			assert.is(after.body[0].name, 'Beta');
		} finally {
			await second.close();
		}
	} finally {
		rmSync(dataDir, { recursive: true, force: true });
	}
});

test('pagination – Link header with absolute next/last/first/prev', async () => {
	for (let i = 0; i < 5; i++) await s.request('POST', '/orgs/acme/teams', { token, body: { name: `Page Team ${i}` } });
	const total = (await s.get('/orgs/acme/teams?per_page=100', token)).body.length;
	const first = await s.get('/orgs/acme/teams?per_page=2', token);
	assert.is(first.body.length, 2);
	const link = first.headers.get('link')!;
	assert.match(link, `<${s.api}/orgs/acme/teams?per_page=2&page=2>; rel="next"`);
	assert.match(link, `<${s.api}/orgs/acme/teams?per_page=2&page=${Math.ceil(total / 2)}>; rel="last"`);
	assert.not.match(link, 'rel="prev"');
	const second = await s.get('/orgs/acme/teams?per_page=2&page=2', token);
	assert.match(second.headers.get('link')!, 'rel="prev"');
	assert.match(second.headers.get('link')!, 'rel="first"');
	assert.not.equal(second.body[0].id, first.body[0].id);
	const all = await s.get('/orgs/acme/teams?per_page=100', token);
	assert.is(all.headers.get('link'), null, '~> no Link when everything fits');
	const capped = await s.get('/orgs/acme/teams?per_page=1000', token);
	assert.is(capped.status, 200, '~> per_page above 100 is capped, not rejected');
	const junk = await s.get('/orgs/acme/teams?per_page=abc&page=-3', token);
	assert.is(junk.status, 200, '~> bad page values fall back to defaults');
});

test('headers – standard GitHub headers and CORS', async () => {
	const res = await s.get('/orgs/acme/teams', token);
	assert.ok(res.headers.get('x-github-request-id'));
	assert.is(res.headers.get('access-control-allow-origin'), '*');
	assert.match(res.headers.get('access-control-expose-headers')!, 'X-RateLimit-Remaining');
	assert.is(res.headers.get('x-accepted-service-permissions'), 'members=read');
	assert.is(res.headers.get('x-accepted-github-permissions'), 'members=read');
	assert.is(res.headers.get('x-accepted-oauth-scopes'), 'read:org, write:org, admin:org');
	assert.match(res.headers.get('x-oauth-scopes')!, 'admin:org');
	assert.is(res.headers.get('cache-control'), 'private, max-age=60, s-maxage=60');
	const preflight = await s.request('OPTIONS', '/orgs/acme/teams', { headers: { Origin: 'http://example.test' } });
	assert.is(preflight.status, 204);
	assert.match(preflight.headers.get('access-control-allow-headers')!, 'Authorization');
});

test('headers – Location and URLs follow the external URL', async () => {
	const res = await s.request('POST', '/orgs/acme/repos', { token, body: { name: 'located' } });
	assert.is(res.status, 201);
	assert.is(res.headers.get('location'), `${s.api}/repos/acme/located`);
	assert.is(res.body.url, `${s.api}/repos/acme/located`);
	assert.is(res.body.html_url, `${s.origin}/acme/located`);
});

test('avatars – avatar_url answers with a generated picture', async () => {
	const org = await s.get('/orgs/acme');
	const res = await fetch(org.body.avatar_url);
	assert.is(res.status, 200);
	assert.is(res.headers.get('content-type'), 'image/svg+xml');
	assert.match(await res.text(), '>A</text>');
	assert.is((await fetch(`${s.origin}/avatars/u/99999`)).status, 404);
});

test('discovery – GET /, /meta, /versions', async () => {
	const root = await s.get('/');
	assert.is(root.status, 200);
	assert.is(root.body.organization_url, `${s.api}/orgs/{org}`);
	// As GitHub Enterprise Server: the release on every API answer (Renovate reads it from HEAD /) and in /meta.
	assert.match(root.headers.get('x-github-enterprise-version') ?? '', /^3\.19\.\d+$/);
	const head = await fetch(`${s.api}/`, { method: 'HEAD' });
	assert.is(head.headers.get('x-github-enterprise-version'), root.headers.get('x-github-enterprise-version'));
	assert.ok((await s.get('/nope')).headers.get('x-github-enterprise-version'), '~> errors carry it too');
	const meta = await s.get('/meta');
	assert.is(meta.body.installed_version, root.headers.get('x-github-enterprise-version'));
	const versions = await s.get('/versions');
	assert.equal(versions.body, ['2026-03-10', '2022-11-28']);
});

// ----- findings 6, 8 and 11 of the hostile-input review (regressions)

test('pagination – Link repeats only the query parameters the route reads, so it stays bounded', async () => {
	for (const name of ['One', 'Two', 'Three']) await s.request('POST', '/orgs/acme/teams', { token, body: { name: `Link ${name}` } });
	const junk = 'x'.repeat(2000);
	const res = await s.get(`/orgs/acme/teams?per_page=1&team_type=all&junk=${junk}&more=${junk}`, token);
	const link = res.headers.get('link')!;
	assert.ok(link, '~> a Link header');
	assert.not.ok(link.includes('junk') || link.includes('more='), '~> parameters the route does not read are dropped');
	assert.ok(link.includes('team_type=all') && link.includes('per_page=1'), '~> its own are kept');
	assert.ok(link.length < 1000, `~> bounded (${link.length} characters)`);
});

test('errors – a unique key taken by a concurrent writer is 422 already_exists, not 500', async () => {
	// Stand-in for another writer: the name check sees no label, the insert then meets the one that exists.
	await s.request('POST', '/orgs/acme/repos', { token, body: { name: 'racy' } });
	assert.is((await s.request('POST', '/repos/acme/racy/labels', { token, body: { name: 'dup' } })).status, 201);
	const { labels } = s.app.stores;
	const byName = labels.byName;
	labels.byName = () => undefined;
	try {
		const res = await s.request('POST', '/repos/acme/racy/labels', { token, body: { name: 'dup' } });
		assert.is(res.status, 422);
		assert.is(res.body.message, 'Validation Failed');
		assert.equal(res.body.errors[0].code, 'already_exists');
		assert.is(res.body.errors[0].resource, 'Label');
	} finally {
		labels.byName = byName;
	}
});

test('errors – a 500 carries no stack, and its request id is in the body, the header and one log line', async () => {
	const lines: string[] = [];
	const log = s.app.log;
	const orgs = s.app.stores.accounts.organization;
	s.app.log = {
		...log,
		error: (message, fields) => lines.push(JSON.stringify({ message, ...fields, error: String((fields?.error as Error)?.stack) })),
	};
	s.app.stores.accounts.organization = () => {
		throw new Error('disk on fire');
	};
	try {
		const res = await s.get('/orgs/acme', token);
		assert.is(res.status, 500);
		assert.is(res.body.message, 'Server Error');
		assert.not.ok(res.text.includes('disk on fire') || /\bat \S+ \(/.test(res.text), '~> no error text or stack in the answer');
		const id = res.headers.get('x-github-request-id');
		assert.is(res.body.request_id, id, '~> the body names the request id of the header');
		assert.is(lines.length, 1, '~> one log entry');
		assert.ok(lines[0].includes(id!) && lines[0].includes('disk on fire'), '~> with the request id and the stack');
	} finally {
		s.app.log = log;
		s.app.stores.accounts.organization = orgs;
	}
});

test('logs – an error with its stack is written as one line', () => {
	const written: string[] = [];
	const log = createLogger('info', (line) => written.push(line));
	log.error('request failed', { request_id: 'abc', error: new Error('boom') });
	assert.is(written.length, 1);
	assert.is(written[0].indexOf('\n'), written[0].length - 1, '~> one line, ended by its newline');
	assert.match(written[0], 'request_id=abc');
	assert.match(written[0], 'Error: boom\\n    at ', '~> the stack, escaped');
});

test.run();
