/**
 * Rate limits (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api): headers, exhaustion,
 * GET /rate_limit, windows, persistence across restarts, the off switch.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RATE_RESOURCES } from '../src/config';
import { epochSeconds } from '../src/time';
import { startServer, TestClock, type TestServer } from './helpers/server';

const test = suite('rate-limit');
let s: TestServer;
let token: string;
const clock = new TestClock();

test.before(async () => {
	s = await startServer({
		clock,
		configure(c) {
			c.rate_limit.limits.core = 10;
			c.rate_limit.limits.core_unauthenticated = 3;
		},
	});
	s.user('olivia');
	s.org('acme', 'olivia');
	token = s.fullToken('olivia');
});
test.after(() => s.close());

test('headers – every counted response carries X-RateLimit-*', async () => {
	const res = await s.get('/orgs/acme', token);
	assert.is(res.headers.get('x-ratelimit-limit'), '10');
	assert.is(res.headers.get('x-ratelimit-used'), '1');
	assert.is(res.headers.get('x-ratelimit-remaining'), '9');
	assert.is(res.headers.get('x-ratelimit-resource'), 'core');
	const reset = Number(res.headers.get('x-ratelimit-reset'));
	assert.is(reset, epochSeconds(clock.now) + 3600, '~> epoch seconds, an hour after the first request');
	const error = await s.get('/orgs/nope', token);
	assert.is(error.status, 404);
	assert.is(error.headers.get('x-ratelimit-used'), '2', '~> errors count too');
});

test('GET /rate_limit – every resource plus rate, not counted', async () => {
	const res = await s.get('/rate_limit', token);
	assert.is(res.status, 200);
	assert.equal(Object.keys(res.body.resources), [...RATE_RESOURCES]);
	assert.equal(res.body.rate, res.body.resources.core);
	assert.is(res.body.resources.core.used, 2);
	assert.is(res.body.resources.core.remaining, 8);
	assert.is(res.body.resources.search.limit, 30);
	assert.is(res.body.resources.code_search.limit, 10);
	assert.is(res.body.resources.dependency_snapshots.limit, 100);
	assert.is(res.body.resources.actions_runner_registration.limit, 10000);
	assert.is(res.body.resources.scim.limit, 15000);
	assert.is(res.headers.get('x-ratelimit-used'), null, '~> not counted');
	const again = await s.get('/rate_limit', token);
	assert.is(again.body.resources.core.used, 2);
	const next = await s.get('/rate_limit', token, { 'X-GitHub-Api-Version': '2026-03-10' });
	assert.not.ok('source_import' in next.body.resources, '~> source_import is gone in the next version');
	const anon = await s.get('/rate_limit');
	assert.is(anon.body.resources.core.limit, 3, '~> anonymous callers get the lower limit');
});

let knownEtag = '';

test('exhausted – authenticated callers get 403 with remaining 0', async () => {
	knownEtag = (await s.get('/orgs/acme', token)).headers.get('etag')!;
	let last;
	for (let i = 0; i < 7; i++) last = await s.get('/orgs/acme', token);
	assert.is(last!.headers.get('x-ratelimit-remaining'), '0');
	const res = await s.get('/orgs/acme', token);
	assert.is(res.status, 403);
	assert.match(res.body.message, /^API rate limit exceeded for user ID \d+\.$/);
	assert.is(res.headers.get('x-ratelimit-remaining'), '0');
	assert.is(res.headers.get('x-ratelimit-used'), '10');
	assert.ok(Number(res.headers.get('retry-after')) > 0);
	assert.is((await s.get('/rate_limit', token)).status, 200, '~> /rate_limit still answers');
});

test('exhausted – a conditional request still learns that nothing changed: 304, not counted (regression)', async () => {
	// The budget is spent (previous test); the ETag of /orgs/acme was learnt before it was.
	const spent = await s.get('/orgs/acme', s.token('olivia'));
	assert.is(spent.status, 403, '~> the budget is spent');
	const unchanged = await s.get('/orgs/acme', token, { 'If-None-Match': knownEtag });
	assert.is(unchanged.status, 304, '~> a matching If-None-Match is answered before the rate limit');
	assert.is(unchanged.headers.get('x-ratelimit-used'), '10', '~> and not counted');
	const changed = await s.get('/orgs/acme', token, { 'If-None-Match': 'W/"something-else"' });
	assert.is(changed.status, 403, '~> an ETag that does not match: the rate-limit answer');
	assert.match(changed.body.message, 'API rate limit exceeded');
});

test('exhausted – anonymous callers are counted per IP', async () => {
	for (let i = 0; i < 3; i++) assert.is((await s.get('/orgs/acme')).status, 200);
	const res = await s.get('/orgs/acme');
	assert.is(res.status, 403);
	assert.match(res.body.message, 'API rate limit exceeded for 127.0.0.1');
	assert.match(res.body.message, 'Authenticated requests get a higher rate limit');
});

test('windows – a new window opens after reset', async () => {
	clock.advance(3601 * 1000);
	const res = await s.get('/orgs/acme', token);
	assert.is(res.status, 200);
	assert.is(res.headers.get('x-ratelimit-used'), '1');
	assert.is(s.app.rateLimiter.resetExpired(epochSeconds(clock.now)), 1, '~> the reset job drops the expired anonymous window');
});

test('persistence – counts survive a restart', async () => {
	await s.get('/orgs/acme', token);
	await s.get('/orgs/acme', token);
	const dataDir = s.dataDir;
	await s.close(true);
	s = await startServer({ clock, dataDir, configure: (c) => (c.rate_limit.limits.core = 10) });
	const res = await s.get('/orgs/acme', token);
	assert.is(res.headers.get('x-ratelimit-used'), '4', '~> 3 before the restart + this one');
});

test('disabled – no headers, GET /rate_limit is 404', async () => {
	const off = await startServer({ configure: (c) => (c.rate_limit.enabled = false) });
	off.user('olivia');
	off.org('acme', 'olivia');
	const res = await off.get('/orgs/acme');
	assert.is(res.status, 200);
	assert.is(res.headers.get('x-ratelimit-limit'), null);
	const status = await off.get('/rate_limit');
	assert.is(status.status, 404);
	assert.is(status.body.message, 'Rate limiting is not enabled.');
	await off.close();
});

test.run();
