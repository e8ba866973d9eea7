/**
 * The response head, header by header: every answer of the pipeline carries exactly GitHub's set of
 * headers (names, values, no duplicates) for a 200, a 304, a 201, 4xx refusals, a paginated list
 * with Link, an anonymous read, a vendor media type with another API version, a polled list and a
 * HEAD request. The head is written as a precomputed block (src/http/pipeline.ts): these lists are
 * the answers as they were before it, header for header. Then the block itself: a reply's header
 * named like one of the pipeline's replaces it (no header twice), and fixed lines are checked as Node checks them.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Head, headerLines } from '../src/http/head';
import { startServer, type TestServer } from './helpers/server';

const test = suite('response-head');
let s: TestServer;
let olivia: string;
let fine: string;

test.before(async () => {
	s = await startServer();
	s.user('olivia');
	s.org('acme', 'olivia');
	olivia = s.token('olivia', { scopes: ['repo', 'admin:org', 'notifications'] });
	fine = s.token('olivia', { kind: 'fine-grained', permissions: { issues: 'write', metadata: 'read' } });
	assert.is((await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web' } })).status, 201);
	for (const title of ['One', 'Two', 'Three'])
		assert.is((await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title } })).status, 201);
});
test.after(() => s.close());

interface Answer {
	status: number;
	/** [lower-cased name, value] in the order sent. */
	lines: [string, string][];
}

/** One request with node:http, so repeated header lines are seen as they are sent (fetch joins them). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(`${s.api}${path}`, { method, headers }, (res) => {
			const lines: [string, string][] = [];
			for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
			res.resume();
			res.on('end', () => resolve({ status: res.statusCode!, lines }));
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** The header lines sorted by name, with the values that differ per request (request id, Date, ETag) reduced to their shape. */
function normalized(head: Answer): string[] {
	const names = head.lines.map(([name]) => name);
	assert.equal(names.length, new Set(names).size, `a header sent twice: ${names.join(', ')}`);
	return head.lines
		.map(([name, value]) => {
			if (name === 'x-github-request-id') {
				assert.match(value, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
				return `${name}: <uuid>`;
			}
			if (name === 'date') {
				assert.ok(!Number.isNaN(Date.parse(value)), value);
				return `${name}: <date>`;
			}
			if (name === 'etag') {
				assert.match(value, /^W\/"[0-9a-f]{40}"$/);
				return `${name}: <etag>`;
			}
			return `${name}: ${value.replaceAll(s.origin, '<origin>')}`;
		})
		.sort();
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const json = { 'Content-Type': 'application/json' };

/** On every answer of the pipeline. */
const EVERY = [
	'access-control-allow-origin: *',
	'access-control-expose-headers: ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, ' +
		'X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, ' +
		'X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset, X-Accepted-Service-Permissions, ' +
		'X-Accepted-GitHub-Permissions, X-Service-Api-Version-Selected, X-GitHub-Api-Version-Selected',
	'connection: keep-alive',
	'date: <date>',
	'keep-alive: timeout=65',
	'vary: Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, X-Requested-With',
	'x-content-type-options: nosniff',
	'x-github-enterprise-version: 3.19.0',
	'x-github-request-id: <uuid>',
];
/** What a route accepts (its permissions, its OAuth scopes), the version and media type served. */
const route = (permissions: string, scopes: string, version = '2022-11-28', media = 'github.v3; format=json') => [
	`x-accepted-github-permissions: ${permissions}`,
	`x-accepted-service-permissions: ${permissions}`,
	`x-accepted-oauth-scopes: ${scopes}`,
	`x-github-api-version-selected: ${version}`,
	`x-service-api-version-selected: ${version}`,
	`x-github-media-type: ${media}`,
];
const ISSUE_READ = route('issues=read; pull_requests=read', 'repo');
const ISSUE_WRITE = route('issues=write', 'repo, public_repo');
const SCOPES = 'x-oauth-scopes: repo, admin:org, notifications';
const rate = (used: number, limit = 5000) => [
	`x-ratelimit-limit: ${limit}`,
	`x-ratelimit-remaining: ${limit - used}`,
	`x-ratelimit-used: ${used}`,
	'x-ratelimit-reset: 1795352400',
	'x-ratelimit-resource: core',
];
const body = (bytes: number) => [`content-length: ${bytes}`, 'content-type: application/json; charset=utf-8'];
const PRIVATE = 'cache-control: private, max-age=60, s-maxage=60';

/** Asserts the answer's status and its exact header set. */
function expectHead(head: Answer, status: number, lines: string[]): void {
	assert.is(head.status, status);
	assert.equal(normalized(head), [...EVERY, ...lines].sort());
}

/** The ETag of an answer. */
const etagOf = (head: Answer) => head.lines.find(([name]) => name === 'etag')![1];

// Requests are sent one at a time: each counts against olivia's rate limit in turn.
test('a 200, its 304, a HEAD, a 201 and refusals carry the same head as ever', async () => {
	const issue = await raw('GET', '/repos/acme/web/issues/1', bearer(olivia));
	expectHead(issue, 200, [...ISSUE_READ, SCOPES, ...rate(5), 'etag: <etag>', PRIVATE, ...body(2010)]);
	const notModified = await raw('GET', '/repos/acme/web/issues/1', { ...bearer(olivia), 'If-None-Match': etagOf(issue) });
	expectHead(notModified, 304, [...ISSUE_READ, SCOPES, ...rate(5), 'etag: <etag>']);
	assert.is(etagOf(notModified), etagOf(issue));
	const head = await raw('HEAD', '/repos/acme/web/issues/1', bearer(olivia));
	expectHead(head, 200, [...ISSUE_READ, SCOPES, ...rate(6), 'etag: <etag>', PRIVATE, ...body(2010)]);
	const made = await raw('POST', '/repos/acme/web/issues', { ...bearer(olivia), ...json }, '{"title":"Four"}');
	expectHead(made, 201, [...ISSUE_WRITE, SCOPES, ...rate(7), ...body(2011), 'location: <origin>/api/v3/repos/acme/web/issues/4']);
	const missing = await raw('GET', '/repos/acme/missing', bearer(olivia));
	expectHead(missing, 404, [...route('metadata=read', ''), SCOPES, ...rate(8), ...body(141)]);
	const invalid = await raw('POST', '/repos/acme/web/issues', { ...bearer(olivia), ...json }, '{"title":""}');
	expectHead(invalid, 422, [...ISSUE_WRITE, SCOPES, ...rate(9), ...body(255)]);
	const unknown = await raw('GET', '/user', { Authorization: 'Bearer ghp_000000000000000000000000000000000000' });
	expectHead(unknown, 401, [...route('', ''), ...body(157)]);
	const version = await raw('GET', '/repos/acme/web/issues/1', { ...bearer(olivia), 'X-GitHub-Api-Version': '1999-01-01' });
	expectHead(version, 400, [...ISSUE_READ, ...body(309)]);
});

test('a page of a list: Link, and its 304', async () => {
	const page = await raw('GET', '/repos/acme/web/issues?per_page=1&page=2', bearer(olivia));
	const link = (n: number, rel: string) => `<<origin>/api/v3/repos/acme/web/issues?per_page=1&page=${n}>; rel="${rel}"`;
	const LINK = `link: ${link(1, 'prev')}, ${link(3, 'next')}, ${link(4, 'last')}, ${link(1, 'first')}`;
	expectHead(page, 200, [...ISSUE_READ, SCOPES, ...rate(10), 'etag: <etag>', PRIVATE, LINK, ...body(1997)]);
	const again = await raw('GET', '/repos/acme/web/issues?per_page=1&page=2', { ...bearer(olivia), 'If-None-Match': etagOf(page) });
	expectHead(again, 304, [...ISSUE_READ, SCOPES, ...rate(10), 'etag: <etag>', PRIVATE, LINK]);
});

test('anonymous, another media type and version, a fine-grained token, a polled list', async () => {
	const anonymous = await raw('GET', '/repos/acme/web/issues/2');
	expectHead(anonymous, 200, [
		...ISSUE_READ,
		...rate(1, 60),
		'etag: <etag>',
		'cache-control: public, max-age=60, s-maxage=60',
		...body(2010),
	]);
	const full = await raw('GET', '/repos/acme/web/issues/2', {
		...bearer(olivia),
		Accept: 'application/vnd.github.full+json',
		'X-GitHub-Api-Version': '2026-03-10',
	});
	const FULL = route('issues=read; pull_requests=read', 'repo', '2026-03-10', 'github.v3; param=full; format=json');
	expectHead(full, 200, [...FULL, SCOPES, ...rate(11), 'etag: <etag>', PRIVATE, ...body(2010)]);
	const fineGrained = await raw('GET', '/repos/acme/web/issues/3', bearer(fine));
	expectHead(fineGrained, 200, [...ISSUE_READ, ...rate(12), 'etag: <etag>', PRIVATE, ...body(2012)]);
	const notifications = await raw('GET', '/notifications', bearer(olivia));
	expectHead(notifications, 200, [
		...route('', 'notifications, repo'),
		SCOPES,
		'x-poll-interval: 60',
		...rate(13),
		'etag: <etag>',
		PRIVATE,
		...body(2),
	]);
});

test("a reply header named like one of the pipeline's replaces it, before and after; invalid fixed lines are refused", async () => {
	const names = new Set(['Vary', 'ETag', 'X-One']);
	const heads: Head[] = [];
	const server = createServer((_req, res) => {
		const head = heads.shift()!;
		head.headers['Content-Length'] = '0';
		head.writeTo(res, 200);
		res.end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const get = () =>
		new Promise<[string, string][]>((resolve, reject) => {
			httpRequest({ port, host: '127.0.0.1', path: '/' }, (res) => {
				const lines: [string, string][] = [];
				for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
				res.resume();
				res.on('end', () => resolve(lines));
			})
				.on('error', reject)
				.end();
		});
	try {
		const plain = new Head(headerLines({ 'X-One': '1', Vary: 'Accept' }), names);
		plain.set('ETag', 'W/"a"');
		plain.assign({ Location: 'http://example.com/' });
		heads.push(plain);
		const sent = (await get()).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name));
		assert.equal(sent, [
			['x-one', '1'],
			['vary', 'Accept'],
			['etag', 'W/"a"'],
			['location', 'http://example.com/'],
			['content-length', '0'],
		]);
		const merged = new Head(headerLines({ 'X-One': '1', Vary: 'Accept' }), names);
		merged.assign({ Vary: 'Cookie' });
		merged.set('ETag', 'W/"b"');
		merged.add('X-Two: 2\r\n');
		heads.push(merged);
		const after = (await get()).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name));
		assert.equal(after.sort(), [
			['content-length', '0'],
			['etag', 'W/"b"'],
			['vary', 'Cookie'],
			['x-one', '1'],
			['x-two', '2'],
		]);
	} finally {
		server.close();
	}
	assert.throws(() => headerLines({ 'Bad Name': 'x' }), /valid HTTP token/);
	assert.throws(() => headerLines({ 'X-Ok': 'line\r\nbreak' }), /Invalid character/);
});

test.run();
