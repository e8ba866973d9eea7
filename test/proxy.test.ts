/**
 * Behind a reverse proxy: `[server] trusted_proxies` decides whose X-Forwarded-* and
 * Forwarded headers set each answer's external URL and the client address (src/http/proxy.ts).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../src/config';
import { startServer, type TestServer } from './helpers/server';

let trusting: TestServer;
let untrusting: TestServer;
let token: string;
let otherToken: string;

async function seed(s: TestServer): Promise<string> {
	s.user('ada');
	const token = s.fullToken('ada');
	const created = await s.request('POST', '/user/repos', { token, body: { name: 'app' } });
	assert.is(created.status, 201, 'the repository is created');
	for (let i = 0; i < 3; i++) {
		const issue = await s.request('POST', '/repos/ada/app/issues', { token, body: { title: `issue ${i}` } });
		assert.is(issue.status, 201, 'an issue is opened');
	}
	return token;
}
test.before(async () => {
	trusting = await startServer({
		configure: (c) => {
			c.server.trusted_proxies = ['10.0.0.0/8', '127.0.0.1'];
			c.rate_limit.limits.core_unauthenticated = 5;
		},
	});
	untrusting = await startServer({ configure: (c) => (c.rate_limit.limits.core_unauthenticated = 5) });
	token = await seed(trusting);
	otherToken = await seed(untrusting);
});

const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'git.example.com', 'X-Forwarded-For': '203.0.113.7' };

test('a trusted proxy sets the external URL of every url field and of the Link header', async () => {
	const repo = await trusting.get('/repos/ada/app', token, forwarded);
	assert.is(repo.status, 200);
	assert.is(repo.body.url, 'https://git.example.com/api/v3/repos/ada/app', 'url carries the forwarded origin and /api/v3');
	assert.is(repo.body.html_url, 'https://git.example.com/ada/app', 'html_url carries the forwarded origin');
	assert.is(repo.body.owner.url, 'https://git.example.com/api/v3/users/ada', 'nested objects carry it too');

	const page = await trusting.get('/repos/ada/app/issues?per_page=1', token, forwarded);
	assert.is(page.status, 200);
	assert.match(
		page.headers.get('link') ?? '',
		/^<https:\/\/git\.example\.com\/api\/v3\/repos\/ada\/app\/issues\?per_page=1&page=2>; rel="next"/,
		'Link points at the forwarded origin',
	);

	const direct = await trusting.get('/repos/ada/app', token);
	assert.is(direct.body.url, `${trusting.api}/repos/ada/app`, 'a request without forwarded headers keeps the configured URL');
});

test('RFC 7239 Forwarded is understood', async () => {
	const repo = await trusting.get('/repos/ada/app', token, { Forwarded: 'for=198.51.100.2;proto=https;host="code.example.org:8443"' });
	assert.is(repo.body.url, 'https://code.example.org:8443/api/v3/repos/ada/app', 'proto and host come from Forwarded');
});

test('list forms cached for one origin are not served to another', async () => {
	const first = await trusting.get('/repos/ada/app/issues', token, forwarded);
	const other = await trusting.get('/repos/ada/app/issues', token, { ...forwarded, 'X-Forwarded-Host': 'mirror.example.com' });
	const plain = await trusting.get('/repos/ada/app/issues', token);
	assert.ok(first.body[0].url.startsWith('https://git.example.com/'), 'the first origin');
	assert.ok(other.body[0].url.startsWith('https://mirror.example.com/'), 'the second origin gets its own URLs');
	assert.ok(plain.body[0].url.startsWith(trusting.api), 'the configured origin its own');
	assert.is.not(first.headers.get('etag'), other.headers.get('etag'), 'the ETags differ with the origin');
});

test('a malformed forwarded host is ignored', async () => {
	const repo = await trusting.get('/repos/ada/app', token, {
		'X-Forwarded-Host': 'evil.example.com/<script>',
		'X-Forwarded-Proto': 'https',
	});
	assert.ok(!repo.body.url.includes('evil'), 'the bad host never reaches a URL');
	assert.ok(repo.body.url.startsWith('https://'), 'the valid proto still applies');
});

test('the forwarded client address keys the anonymous rate limit', async () => {
	const a = await trusting.get('/repos/ada/app', undefined, { 'X-Forwarded-For': '198.51.100.10' });
	const again = await trusting.get('/repos/ada/app', undefined, { 'X-Forwarded-For': '198.51.100.10' });
	const b = await trusting.get('/repos/ada/app', undefined, { 'X-Forwarded-For': '198.51.100.11' });
	assert.is(a.headers.get('x-ratelimit-remaining'), '4', 'the first client spent one request');
	assert.is(again.headers.get('x-ratelimit-remaining'), '3', 'and then another');
	assert.is(b.headers.get('x-ratelimit-remaining'), '4', 'a second client behind the same proxy has its own window');
	// A client that sends its own X-Forwarded-For through the proxy: the proxy appends the real
	// peer on the right, and that right-most untrusted address is the one believed.
	const forged = await trusting.get('/repos/ada/app', undefined, { 'X-Forwarded-For': '198.51.100.11, 198.51.100.12' });
	assert.is(forged.headers.get('x-ratelimit-remaining'), '4', 'the address the proxy appended counts, not the forged one');
	const chained = await trusting.get('/repos/ada/app', undefined, { 'X-Forwarded-For': '198.51.100.10, 10.1.2.3' });
	assert.is(chained.headers.get('x-ratelimit-remaining'), '2', 'trusted hops are skipped from the right');
});

test('headers from a peer that is not trusted are ignored', async () => {
	const repo = await untrusting.get('/repos/ada/app', otherToken, forwarded);
	assert.is(repo.body.url, `${untrusting.api}/repos/ada/app`, 'the configured URL stays');
	const a = await untrusting.get('/repos/ada/app', undefined, { 'X-Forwarded-For': '198.51.100.20' });
	const b = await untrusting.get('/repos/ada/app', undefined, { 'X-Forwarded-For': '198.51.100.21' });
	assert.is(
		Number(a.headers.get('x-ratelimit-remaining')) - 1,
		Number(b.headers.get('x-ratelimit-remaining')),
		'both count against the peer address',
	);
});

test('a configured external URL wins over forwarded host and proto', async () => {
	const fixed = await startServer({
		configure: (c) => {
			c.server.trusted_proxies = ['127.0.0.1'];
			c.server.external_url = 'https://gitstead.internal';
		},
	});
	try {
		fixed.user('bob');
		const repo = await fixed.request('POST', '/user/repos', { token: fixed.fullToken('bob'), body: { name: 'x' }, headers: forwarded });
		assert.is(repo.body.url, 'https://gitstead.internal/api/v3/repos/bob/x', 'external_url is a fixed override');
	} finally {
		await fixed.close();
	}
});

test('trusted_proxies: flag and variable lists; a bad entry is refused at startup', () => {
	const config = loadConfig({ trustedProxies: ['10.0.0.0/8'] }, { GITSTEAD_TRUSTED_PROXIES: '127.0.0.1, ::1' }, '/tmp');
	assert.equal(config.server.trusted_proxies, ['10.0.0.0/8'], 'the flag wins over the variable');
	assert.equal(
		loadConfig({}, { GITSTEAD_TRUSTED_PROXIES: '127.0.0.1, ::1' }, '/tmp').server.trusted_proxies,
		['127.0.0.1', '::1'],
		'the variable is a comma list',
	);
});

test('a bad trusted_proxies entry is refused at startup, naming it', async () => {
	for (const entry of ['10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/1', '::1/129']) {
		let error: unknown = null;
		try {
			const s = await startServer({ configure: (c) => (c.server.trusted_proxies = [entry]) });
			await s.close();
		} catch (caught) {
			error = caught;
		}
		assert.instance(error, ConfigError, `${entry} is refused as a configuration error`);
		assert.ok((error as Error).message.includes(`"${entry}" is not an IP address or CIDR range`), `the message names ${entry}`);
	}
});

test.after(async () => {
	await trusting.close();
	await untrusting.close();
});

test.run();
