/**
 * Global webhooks (https://docs.github.com/en/webhooks/webhook-events-and-payloads): management, and
 * real deliveries to a receiver on loopback — signatures, payloads, retries with backoff across a
 * restart, the delivery log; isolation of slow receivers (a tarpit holds only its own hook's slot,
 * within a total deadline), deleting hooks with deliveries in flight, and the address rule for
 * hook targets (loopback, link-local, unspecified refused unless webhooks.allowed_hosts lists them).
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../src/api/users/service';
import { loadConfig } from '../src/config';
import { startServer, TestClock, type TestServer } from './helpers/server';

interface Received {
	headers: IncomingHttpHeaders;
	body: string;
}

/** A webhook receiver on loopback; `answers` are status codes served in turn (then 200). */
class Receiver {
	readonly received: Received[] = [];
	answers: number[] = [];
	delayMs = 0;
	private server!: Server;
	url = '';

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			let body = '';
			req.setEncoding('utf8');
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				this.received.push({ headers: req.headers, body });
				const status = this.answers.shift() ?? 200;
				setTimeout(() => {
					res.writeHead(status, { 'Content-Type': 'text/plain' });
					res.end(status < 300 ? 'ok' : 'nope');
				}, this.delayMs);
			});
		});
		await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
	}

	stop(): Promise<void> {
		this.server.closeAllConnections();
		return new Promise((done) => this.server.close(() => done()));
	}

	take(): Received[] {
		return this.received.splice(0);
	}
}

/**
 * A receiver that accepts connections and never answers in full: it trickles one byte of an
 * unending header block every `everyMs` (so no idle timeout fires), or stays silent (`everyMs` 0).
 */
class Tarpit {
	connections = 0;
	readonly open = new Set<Socket>();
	private server!: TcpServer;
	private timers = new Set<NodeJS.Timeout>();
	url = '';

	constructor(private readonly everyMs: number) {}

	async start(): Promise<void> {
		this.server = createTcpServer((socket) => {
			this.connections++;
			this.open.add(socket);
			socket.resume(); // read (and drop) the request, so its end is seen
			socket.on('error', () => undefined);
			socket.on('close', () => {
				this.open.delete(socket);
				clearInterval(timer);
				this.timers.delete(timer);
			});
			const text = 'HTTP/1.1 200 OK\r\nX-Slow: ';
			let sent = 0;
			const timer = setInterval(() => {
				if (this.everyMs > 0 && !socket.destroyed) socket.write(sent < text.length ? text[sent++] : 'a');
			}, this.everyMs || 1000);
			this.timers.add(timer);
		});
		await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
	}

	stop(): Promise<void> {
		for (const timer of this.timers) clearInterval(timer);
		for (const socket of this.open) socket.destroy();
		return new Promise((done) => this.server.close(() => done()));
	}
}

/** Waits until `condition` holds, checking every 10 ms; false when `ms` pass first. */
async function until(condition: () => boolean, ms: number): Promise<boolean> {
	const end = performance.now() + ms;
	while (!condition()) {
		if (performance.now() > end) return false;
		await new Promise((done) => setTimeout(done, 10));
	}
	return true;
}

const test = suite('global-webhooks');
const clock = new TestClock();
let s: TestServer;
let admin: string;
const receiver = new Receiver();
const SECRET = 'shh-its-a-secret';

const configure = (c: import('../src/config').Config) => {
	c.webhooks.retry_base_seconds = 10;
	c.webhooks.max_attempts = 4;
	c.webhooks.timeout_seconds = 1;
	// The receivers listen on loopback, which hooks may reach only when allowed.
	c.webhooks.allowed_hosts = ['127.0.0.1'];
};

test.before(async () => {
	await receiver.start();
	s = await startServer({ clock, configure });
	s.user('root', { siteAdmin: true });
	s.user('olivia');
	s.user('mike');
	admin = s.fullToken('root');
});
test.after(async () => {
	await s.close();
	await receiver.stop();
});

const hmac = (algorithm: string, body: string) => createHmac(algorithm, SECRET).update(body).digest('hex');

test('create – defaults, the masked secret, validation', async () => {
	const res = await s.request('POST', '/admin/hooks', {
		token: admin,
		body: { name: 'web', config: { url: receiver.url, secret: SECRET } },
	});
	assert.is(res.status, 201);
	assert.equal(res.body, {
		type: 'Global',
		id: res.body.id,
		name: 'web',
		active: true,
		events: ['user', 'organization'],
		config: { url: receiver.url, content_type: 'form', insecure_ssl: '0', secret: '********' },
		updated_at: res.body.updated_at,
		created_at: res.body.created_at,
		url: `${s.api}/admin/hooks/${res.body.id}`,
		ping_url: `${s.api}/admin/hooks/${res.body.id}/pings`,
	});
	assert.not.match(JSON.stringify((await s.get('/admin/hooks', admin)).body), SECRET, '~> the secret is never shown');
	const cases: Array<[Record<string, unknown>, string]> = [
		[{ name: 'email', config: { url: receiver.url } }, 'name'],
		[{ name: 'web' }, 'config'],
		[{ name: 'web', config: { url: 'not a url' } }, 'config.url'],
		[{ name: 'web', config: { url: 'ftp://example.test' } }, 'config.url'],
		[{ name: 'web', config: { url: receiver.url, content_type: 'xml' } }, 'config.content_type'],
		[{ name: 'web', config: { url: receiver.url, insecure_ssl: '2' } }, 'config.insecure_ssl'],
		[{ name: 'web', config: { url: receiver.url }, events: ['push'] }, 'events.0'],
	];
	for (const [body, field] of cases) {
		const bad = await s.request('POST', '/admin/hooks', { token: admin, body });
		assert.is(bad.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			bad.body.errors.some((e: any) => e.field === field),
			`~> names ${field}: ${JSON.stringify(bad.body.errors)}`,
		);
	}
	await s.request('DELETE', `/admin/hooks/${res.body.id}`, { token: admin });
});

test('access – site administrators with classic tokens; everyone else 404', async () => {
	assert.is((await s.get('/admin/hooks')).status, 401);
	const user = await s.get('/admin/hooks', s.fullToken('olivia'));
	assert.is(user.status, 404, '~> non-administrators get 404');
	const fine = await s.get(
		'/admin/hooks',
		s.token('root', { kind: 'fine-grained', permissions: { organization_administration: 'admin' } }),
	);
	assert.is(fine.status, 403);
	const noScope = await s.get('/admin/hooks', s.token('root', { scopes: ['admin:org'] }));
	assert.is(noScope.status, 403);
	assert.is(noScope.headers.get('x-accepted-oauth-scopes'), 'site_admin');
});

let hookId: number;

test('ping – a signed ping reaches the receiver', async () => {
	const created = await s.request('POST', '/admin/hooks', {
		token: admin,
		body: {
			name: 'web',
			config: { url: receiver.url, content_type: 'json', secret: SECRET },
			events: ['organization', 'user', 'repository', 'team', 'member', 'membership', 'fork'],
		},
	});
	hookId = created.body.id;
	receiver.take();
	assert.is((await s.request('POST', `/admin/hooks/${hookId}/pings`, { token: admin })).status, 204);
	await s.app.webhooks.deliverDue();
	const [ping] = receiver.take();
	assert.ok(ping, '~> delivered');
	assert.is(ping.headers['x-github-event'], 'ping');
	assert.is(ping.headers['x-github-hook-id'], String(hookId));
	assert.is(ping.headers['x-service-hook-id'], String(hookId));
	assert.match(String(ping.headers['x-github-delivery']), /^[0-9a-f-]{36}$/);
	assert.match(String(ping.headers['user-agent']), /^GitHub-Hookshot\//);
	assert.is(ping.headers['content-type'], 'application/json');
	assert.is(ping.headers['x-hub-signature-256'], `sha256=${hmac('sha256', ping.body)}`);
	assert.is(ping.headers['x-hub-signature'], `sha1=${hmac('sha1', ping.body)}`);
	const payload = JSON.parse(ping.body);
	assert.is(payload.hook_id, hookId);
	assert.type(payload.zen, 'string');
	assert.is(payload.hook.type, 'Global');
	assert.not.ok('secret' in payload.hook.config);
});

test('events – user, organization, team, membership, repository, fork, member; in the same transaction', async () => {
	createUser(s.app, { login: 'newcomer' });
	s.org('acme', 'olivia');
	const owner = s.fullToken('olivia');
	await s.request('PUT', '/orgs/acme/memberships/mike', { token: owner, body: {} });
	await s.request('PATCH', '/user/memberships/orgs/acme', { token: s.fullToken('mike'), body: { state: 'active' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	await s.request('POST', '/orgs/acme/teams', {
		token: owner,
		body: { name: 'Crew', privacy: 'closed', maintainers: ['mike'], repo_names: ['acme/app'] },
	});
	await s.request('PATCH', '/orgs/acme/teams/crew', { token: owner, body: { description: 'The crew' } });
	await s.request('POST', '/repos/acme/app/forks', { token: s.fullToken('mike'), body: {} });
	await s.request('PUT', '/orgs/acme/outside_collaborators/mike', { token: owner, body: {} });
	const refused = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Broken', maintainers: ['ghost'] } });
	assert.is(refused.status, 422);
	await s.app.webhooks.deliverDue();
	const got = receiver
		.take()
		.map((r) => ({ event: r.headers['x-github-event'], payload: JSON.parse(r.body), raw: r.body, headers: r.headers }));
	const names = got.map((g) => `${g.event}.${g.payload.action ?? ''}`);
	for (const expected of [
		'user.created',
		'organization.member_added',
		'organization.member_invited',
		'repository.created',
		'team.created',
		'membership.added',
		'team.added_to_repository',
		'team.edited',
		'fork.',
		'member.added',
		'organization.member_removed',
	]) {
		assert.ok(names.includes(expected), `~> ${expected} delivered (got ${names.join(', ')})`);
	}
	assert.not.ok(
		got.some((g) => g.payload.team?.name === 'Broken'),
		'~> a refused change sends nothing',
	);
	for (const g of got) assert.is(g.headers['x-hub-signature-256'], `sha256=${hmac('sha256', g.raw)}`);
	const user = got.find((g) => g.event === 'user')!.payload;
	assert.is(user.user.login, 'newcomer');
	const added = got.find(
		(g) => g.event === 'organization' && g.payload.action === 'member_added' && g.payload.membership.user.login === 'mike',
	)!.payload;
	assert.equal(Object.keys(added.membership), ['url', 'state', 'role', 'organization_url', 'user']);
	assert.is(added.organization.login, 'acme');
	assert.is(added.sender.login, 'mike', '~> the user who accepted');
	const team = got.find((g) => g.event === 'team' && g.payload.action === 'created')!.payload;
	assert.is(team.team.slug, 'crew');
	assert.is(team.sender.login, 'olivia');
	const edited = got.find((g) => g.event === 'team' && g.payload.action === 'edited')!.payload;
	assert.equal(edited.changes, { description: { from: null } });
	const membership = got.find((g) => g.event === 'membership' && g.payload.member.login === 'mike')!.payload;
	assert.is(membership.scope, 'team');
	const fork = got.find((g) => g.event === 'fork')!.payload;
	assert.is(fork.forkee.full_name, 'mike/app');
	assert.is(fork.forkee.fork, true);
	assert.is(fork.repository.full_name, 'acme/app');
	const member = got.find((g) => g.event === 'member')!.payload;
	assert.is(member.member.login, 'mike');
	assert.is(member.changes.permission.to, 'read');
});

test('inactive hooks and unsubscribed events send nothing', async () => {
	await s.request('PATCH', `/admin/hooks/${hookId}`, {
		token: admin,
		body: { active: false, config: { url: receiver.url, content_type: 'json', secret: SECRET }, events: ['user'] },
	});
	createUser(s.app, { login: 'quiet' });
	await s.request('POST', '/orgs/acme/teams', { token: s.fullToken('olivia'), body: { name: 'Quiet Team' } });
	await s.app.webhooks.deliverDue();
	assert.equal(receiver.take(), []);
});

test('update – omitted fields reset to their defaults; the answer names no secret', async () => {
	const res = await s.request('PATCH', `/admin/hooks/${hookId}`, { token: admin, body: { config: { url: receiver.url } } });
	assert.is(res.status, 200);
	assert.is(res.body.active, true);
	assert.equal(res.body.events, ['user', 'organization']);
	assert.equal(res.body.config, { url: receiver.url, content_type: 'form', insecure_ssl: '0' });
	assert.not.ok('secret' in (await s.get(`/admin/hooks/${hookId}`, admin)).body.config, '~> the secret was removed');
	// A PATCH of `active` alone turns the hook off or on (regression: it answered 422 "config is required").
	const off = await s.request('PATCH', `/admin/hooks/${hookId}`, { token: admin, body: { active: false } });
	assert.is(off.status, 200, `~> active alone is a valid update: ${off.text}`);
	assert.is(off.body.active, false);
	assert.equal(
		off.body.config,
		{ url: receiver.url, content_type: 'form', insecure_ssl: '0' },
		'~> without config, the hook keeps its configuration',
	);
	assert.equal(off.body.events, ['user', 'organization'], '~> omitted events take their default');
	createUser(s.app, { login: 'unheard' });
	await s.app.webhooks.deliverDue();
	assert.equal(receiver.take(), [], '~> an inactive hook sends nothing');
	const on = await s.request('PATCH', `/admin/hooks/${hookId}`, { token: admin, body: { active: true } });
	assert.is(on.status, 200);
	assert.is(on.body.active, true);
	assert.is(on.body.config.url, receiver.url);
	createUser(s.app, { login: 'formal' });
	await s.app.webhooks.deliverDue();
	const [delivery] = receiver.take();
	assert.is(delivery.headers['content-type'], 'application/x-www-form-urlencoded');
	const payload = JSON.parse(new URLSearchParams(delivery.body).get('payload')!);
	assert.is(payload.user.login, 'formal');
	assert.is(delivery.headers['x-hub-signature'], undefined, '~> unsigned without a secret');
});

test('retries – fails twice, then succeeds, with a restart in between; the delivery log records each attempt', async () => {
	await s.request('PATCH', `/admin/hooks/${hookId}`, {
		token: admin,
		body: { config: { url: receiver.url, content_type: 'json', secret: SECRET } },
	});
	receiver.answers = [500, 502];
	createUser(s.app, { login: 'persistent' });
	await s.app.webhooks.deliverDue();
	assert.is(receiver.take().length, 1, '~> first attempt');
	await s.app.webhooks.deliverDue();
	assert.is(receiver.take().length, 0, '~> not before the backoff');
	const dataDir = s.dataDir;
	await s.close(true);
	s = await startServer({ dataDir, clock, configure });
	admin = s.fullToken('root');
	clock.advance(10_000);
	await s.app.webhooks.deliverDue();
	const second = receiver.take();
	assert.is(second.length, 1, '~> second attempt after restart and 10 s');
	clock.advance(10_000);
	await s.app.webhooks.deliverDue();
	assert.is(receiver.take().length, 0, '~> the next wait is twice as long');
	clock.advance(10_000);
	await s.app.webhooks.deliverDue();
	const third = receiver.take();
	assert.is(third.length, 1);
	assert.is(third[0].body, second[0].body, '~> the same payload');
	assert.is(third[0].headers['x-github-delivery'], second[0].headers['x-github-delivery'], '~> the same GUID');
	const list = await s.get(`/admin/hooks/${hookId}/deliveries`, admin);
	const item = list.body.find((d: any) => d.guid === third[0].headers['x-github-delivery']);
	assert.is(item.state, 'delivered');
	assert.is(item.attempts, 3);
	assert.is(item.status_code, 200);
	assert.is(item.status, 'OK');
	assert.is(item.event, 'user');
	assert.is(item.action, 'created');
	const one = await s.get(`/admin/hooks/${hookId}/deliveries/${item.id}`, admin);
	assert.equal(
		one.body.attempt_log.map((a: any) => a.status_code),
		[500, 502, 200],
	);
	assert.is(one.body.request.payload.user.login, 'persistent');
	assert.is(one.body.response.payload, 'ok');
	assert.type(one.body.attempt_log[0].duration, 'number');
	const failures = await s.get(`/admin/hooks/${hookId}/deliveries?status=failure`, admin);
	assert.not.ok(failures.body.some((d: any) => d.id === item.id));
});

test('retries – connection errors and timeouts count as failures; max_attempts ends in failed', async () => {
	await s.request('PATCH', `/admin/hooks/${hookId}`, {
		token: admin,
		body: { config: { url: 'http://127.0.0.1:9/closed', content_type: 'json' } },
	});
	createUser(s.app, { login: 'unreachable' });
	for (let i = 0; i < 4; i++) {
		await s.app.webhooks.deliverDue();
		clock.advance(100_000);
	}
	const [item] = (await s.get(`/admin/hooks/${hookId}/deliveries`, admin)).body;
	assert.is(item.state, 'failed');
	assert.is(item.attempts, 4);
	assert.match(item.status, 'failed to connect');
	await s.request('PATCH', `/admin/hooks/${hookId}`, { token: admin, body: { config: { url: receiver.url, content_type: 'json' } } });
	receiver.delayMs = 1500;
	createUser(s.app, { login: 'slowpoke' });
	await s.app.webhooks.deliverDue();
	receiver.delayMs = 0;
	const [slow] = (await s.get(`/admin/hooks/${hookId}/deliveries`, admin)).body;
	assert.match(slow.status, 'timed out');
	assert.is(slow.state, 'queued', '~> retried later');
	receiver.take();
});

test('redelivery – 202 {}; a new delivery with the same GUID', async () => {
	const [first] = (await s.get(`/admin/hooks/${hookId}/deliveries?status=success`, admin)).body;
	const res = await s.request('POST', `/admin/hooks/${hookId}/deliveries/${first.id}/attempts`, { token: admin });
	assert.is(res.status, 202);
	assert.equal(res.body, {});
	await s.app.webhooks.deliverDue();
	const got = receiver.take();
	assert.ok(got.some((r) => r.headers['x-github-delivery'] === first.guid));
	const [newest] = (await s.get(`/admin/hooks/${hookId}/deliveries`, admin)).body;
	assert.is(newest.guid, first.guid);
	assert.is(newest.redelivery, true);
	assert.is((await s.get(`/admin/hooks/${hookId}/deliveries/999999`, admin)).status, 404);
});

test('delete – the hook and its deliveries go', async () => {
	assert.is((await s.request('DELETE', `/admin/hooks/${hookId}`, { token: admin })).status, 204);
	assert.is((await s.get(`/admin/hooks/${hookId}`, admin)).status, 404);
	createUser(s.app, { login: 'after-delete' });
	await s.app.webhooks.deliverDue();
	assert.equal(receiver.take(), []);
});

/** Creates an active hook on the receiver for `events`; returns its id. */
async function hookFor(events: string[]): Promise<number> {
	const res = await s.request('POST', '/admin/hooks', {
		token: admin,
		body: { name: 'web', config: { url: receiver.url, content_type: 'json' }, events },
	});
	assert.is(res.status, 201);
	return res.body.id;
}

/** The delivery log entry of one delivery. */
async function logOf(hook: number, delivery: number) {
	return (await s.get(`/admin/hooks/${hook}/deliveries/${delivery}`, admin)).body;
}

test('inactive – a retry, ping or redelivery to a hook deactivated since is not sent; it fails as "hook inactive" (code review)', async () => {
	const id = await hookFor(['user']);
	receiver.take();
	receiver.answers = [500];
	createUser(s.app, { login: 'retry-me' });
	await s.app.webhooks.deliverDue();
	assert.is(receiver.take().length, 1, '~> the first attempt failed (500)');
	const [queued] = (await s.get(`/admin/hooks/${id}/deliveries`, admin)).body;
	assert.is(queued.state, 'queued');
	const off = await s.request('PATCH', `/admin/hooks/${id}`, {
		token: admin,
		body: { active: false, config: { url: receiver.url, content_type: 'json' }, events: ['user'] },
	});
	assert.is(off.body.active, false);
	clock.advance(60_000);
	await s.app.webhooks.deliverDue();
	assert.equal(receiver.take(), [], '~> the retry is not sent to an inactive hook');
	const failed = await logOf(id, queued.id);
	assert.is(failed.state, 'failed', '~> and not retried again');
	assert.is(failed.status, 'hook inactive');
	assert.equal(
		failed.attempt_log.map((a: any) => a.status),
		['Internal Server Error', 'hook inactive'],
	);
	assert.is((await s.request('POST', `/admin/hooks/${id}/pings`, { token: admin })).status, 204);
	assert.is((await s.request('POST', `/admin/hooks/${id}/deliveries/${queued.id}/attempts`, { token: admin })).status, 202);
	await s.app.webhooks.deliverDue();
	assert.equal(receiver.take(), [], '~> neither a ping nor a redelivery is sent');
	const [redelivered, ping] = (await s.get(`/admin/hooks/${id}/deliveries`, admin)).body;
	assert.is(ping.event, 'ping');
	for (const item of [ping, redelivered]) {
		assert.is(item.state, 'failed');
		assert.is(item.status, 'hook inactive');
	}
	await s.request('DELETE', `/admin/hooks/${id}`, { token: admin });
});

test('delete – a hook deleted while one of its deliveries is in flight stops nothing else (code review)', async () => {
	const doomed = await hookFor(['user']);
	const kept = await hookFor(['user']);
	receiver.take();
	receiver.delayMs = 400;
	createUser(s.app, { login: 'in-flight' });
	const pass = s.app.webhooks.deliverDue();
	for (let i = 0; i < 100 && receiver.received.length < 2; i++) await new Promise((done) => setTimeout(done, 10));
	assert.is(receiver.received.length, 2, '~> both deliveries are in flight');
	assert.is((await s.request('DELETE', `/admin/hooks/${doomed}`, { token: admin })).status, 204);
	const attempts = await pass; // rejected with "FOREIGN KEY constraint failed" before the fix
	assert.ok(attempts >= 2);
	receiver.delayMs = 0;
	const [item] = (await s.get(`/admin/hooks/${kept}/deliveries`, admin)).body;
	assert.is(item.state, 'delivered', "~> the other hook's delivery is recorded");
	assert.is(s.app.db.prepare('SELECT count(*) FROM webhook_deliveries WHERE hook_id = ?').pluck().get(doomed), 0);
	receiver.take();
	createUser(s.app, { login: 'after-flight' });
	await s.app.webhooks.deliverDue();
	assert.is(receiver.take().length, 1, '~> later passes deliver as usual');
	await s.request('DELETE', `/admin/hooks/${kept}`, { token: admin });
});

/** A server of its own (fresh data folder unless `dataDir`) with webhook settings for the tests below. */
async function serverWith(webhooks: Partial<import('../src/config').Config['webhooks']>, dataDir?: string): Promise<TestServer> {
	const server = await startServer({
		dataDir,
		clock: new TestClock(),
		configure: (c) =>
			Object.assign(
				c.webhooks,
				{ retry_base_seconds: 60, max_attempts: 3, timeout_seconds: 2, allowed_hosts: ['127.0.0.1'] },
				webhooks,
			),
	});
	if (!dataDir) server.user('root', { siteAdmin: true });
	return server;
}

/** POST /admin/hooks on `server` for `url` (JSON, events ['user']); the whole answer. */
function createHook(server: TestServer, url: string) {
	return server.request('POST', '/admin/hooks', {
		token: server.fullToken('root'),
		body: { name: 'web', config: { url, content_type: 'json' }, events: ['user'] },
	});
}

/** POST …/pings through HTTP. */
async function ping(server: TestServer, hook: number): Promise<void> {
	assert.is((await server.request('POST', `/admin/hooks/${hook}/pings`, { token: server.fullToken('root') })).status, 204);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

test('isolation – a tarpit holds only its own slot, until the total deadline; a healthy hook keeps getting its deliveries (finding 4)', async () => {
	const tarpit = new Tarpit(250); // a byte every 250 ms: an idle timeout never fires
	const healthy = new Receiver();
	await tarpit.start();
	await healthy.start();
	const iso = await serverWith({ timeout_seconds: 2, concurrency: 2 });
	iso.app.webhooks.autoRun = true; // as under `serve`: a pass right after each request that queues deliveries
	// Overlapping passes, as the every-second webhook-deliveries job makes them, only denser.
	const job = setInterval(() => void iso.app.webhooks.deliverDue().catch(() => undefined), 100);
	try {
		const slow = (await createHook(iso, tarpit.url)).body.id;
		const fast = (await createHook(iso, healthy.url)).body.id;
		await ping(iso, slow);
		await ping(iso, slow);
		assert.ok(await until(() => tarpit.connections === 1, 1000), '~> the tarpit holds an attempt');
		const held = performance.now();
		const latencies: number[] = [];
		for (let i = 1; i <= 4; i++) {
			const sent = performance.now();
			await ping(iso, fast);
			assert.ok(
				await until(() => healthy.received.length === i, 1500),
				`~> delivery ${i} to the healthy hook arrives while the tarpit holds its connection`,
			);
			latencies.push(Math.round(performance.now() - sent));
			await sleep(100);
		}
		assert.ok(performance.now() - held < 2000 && tarpit.open.size === 1, '~> all of that while the tarpit held its connection');
		assert.ok(Math.max(...latencies) < 1000, `~> each healthy delivery arrives within a second (ms: ${latencies.join(', ')})`);
		assert.is(
			tarpit.connections,
			1,
			'~> one attempt per hook: the second ping to the tarpit waits, and no overlapping pass picks the first again',
		);

		// The total deadline (2 s) ends the trickling attempt; it is recorded as timed out, to be retried.
		const [, first] = (await iso.get(`/admin/hooks/${slow}/deliveries`, iso.fullToken('root'))).body;
		assert.ok(
			await until(() => iso.app.stores.webhooks.delivery(slow, first.id)!.attempts === 1, 2500),
			'~> the attempt ends at its deadline',
		);
		const log = await iso.get(`/admin/hooks/${slow}/deliveries/${first.id}`, iso.fullToken('root'));
		assert.is(log.body.status, 'timed out after 2 s');
		assert.is(log.body.state, 'queued', '~> retried later with the backoff');
		assert.ok(log.body.duration >= 1.9 && log.body.duration < 2.5, `~> after 2 s (${log.body.duration} s)`);
		assert.ok(await until(() => tarpit.connections === 2, 1000), "~> the slot goes to the tarpit hook's next delivery");
		assert.equal(
			new Set(healthy.received.map((r) => r.headers['x-github-delivery'])).size,
			4,
			'~> each healthy delivery was sent once',
		);
		assert.is(healthy.received.length, 4);
		assert.ok(await until(() => tarpit.open.size === 1, 100), '~> the timed-out connection was closed');
	} finally {
		clearInterval(job);
		await tarpit.stop();
		await iso.app.webhooks.deliverDue().catch(() => undefined);
		await iso.close();
		await healthy.stop();
	}
});

test('delete – a hook deleted with deliveries queued and in flight: its attempt is cancelled, the pass ends, a later pass attempts nothing, other hooks deliver (finding 4)', async () => {
	const tarpit = new Tarpit(0); // accepts, never answers
	const healthy = new Receiver();
	await tarpit.start();
	await healthy.start();
	const iso = await serverWith({ timeout_seconds: 10 }); // long: what ends the attempt is the delete
	try {
		const doomed = (await createHook(iso, tarpit.url)).body.id;
		const kept = (await createHook(iso, healthy.url)).body.id;
		for (let i = 0; i < 3; i++) await ping(iso, doomed);
		const pass = iso.app.webhooks.deliverDue();
		assert.ok(await until(() => tarpit.connections === 1, 1000), '~> one delivery in flight, two queued behind it');
		const deleted = performance.now();
		assert.is((await iso.request('DELETE', `/admin/hooks/${doomed}`, { token: iso.fullToken('root') })).status, 204);
		assert.is(await pass, 1, '~> the pass ends, having attempted the one delivery in flight');
		const ended = performance.now() - deleted;
		assert.ok(ended < 500, `~> promptly (${Math.round(ended)} ms), not at the 10 s deadline`);
		assert.ok(await until(() => tarpit.open.size === 0, 500), '~> the connection in flight was dropped');
		const lagStart = performance.now();
		assert.is(await iso.app.webhooks.deliverDue(), 0, '~> a later pass attempts nothing');
		await sleep(20);
		assert.ok(performance.now() - lagStart < 200, '~> the event loop is free (nothing spins)');
		assert.is(iso.app.db.prepare('SELECT count(*) FROM webhook_deliveries WHERE hook_id = ?').pluck().get(doomed), 0);
		assert.is(tarpit.connections, 1, '~> the queued deliveries were never sent');
		await ping(iso, kept);
		assert.is(await iso.app.webhooks.deliverDue(), 1);
		assert.is(healthy.take().length, 1, '~> other hooks deliver as usual');
	} finally {
		await tarpit.stop();
		await iso.close();
		await healthy.stop();
	}
});

test('delete – a delivery left without its hook (deleted with foreign keys off, e.g. from the sqlite3 shell) is not fetched again for ever (finding 4)', async () => {
	const iso = await serverWith({});
	try {
		const orphaned = (await createHook(iso, 'http://127.0.0.1:9/gone')).body.id;
		await ping(iso, orphaned);
		iso.app.db.pragma('foreign_keys = OFF');
		iso.app.db.prepare('DELETE FROM global_webhooks WHERE id = ?').run(orphaned);
		iso.app.db.pragma('foreign_keys = ON');
		// Before the fix this pass never ended: the attempt returned without recording anything and the
		// row was fetched again at once, in microtasks, starving the event loop at 100 % CPU.
		assert.is(await iso.app.webhooks.deliverDue(), 0, '~> the pass ends: a delivery without its hook is not due');
		assert.is(await iso.app.webhooks.deliverDue(), 0);
	} finally {
		await iso.close();
	}
});

test('targets – loopback, link-local, metadata and unspecified URLs are refused with 422 at create and update; private ranges are accepted (finding 5)', async () => {
	const strict = await serverWith({ allowed_hosts: [] }); // the default configuration
	const token = strict.fullToken('root');
	try {
		const refused: Array<[string, RegExp]> = [
			['http://127.0.0.1:9/hook', /127\.0\.0\.1 is a loopback address/],
			['http://127.1.2.3/hook', /loopback address/],
			['http://2130706433/hook', /127\.0\.0\.1 is a loopback address/],
			['http://localhost:8080/hook', /localhost is a loopback host name/],
			['https://HOOKS.localhost/hook', /hooks\.localhost is a loopback host name/],
			['http://[::1]/hook', /::1 is a loopback address/],
			['http://[::ffff:127.0.0.1]/hook', /loopback address/],
			['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a cloud metadata address/],
			['http://169.254.10.1/hook', /link-local address/],
			['http://[fe80::1]/hook', /fe80::1 is a link-local address/],
			['http://[fd00:ec2::254]/hook', /cloud metadata address/],
			['http://[::ffff:169.254.169.254]/hook', /cloud metadata address/],
			['http://0.0.0.0:8080/hook', /0\.0\.0\.0 is an unspecified address/],
			['http://[::]/hook', /:: is an unspecified address/],
		];
		for (const [url, reason] of refused) {
			const res = await createHook(strict, url);
			assert.is(res.status, 422, `~> ${url} is refused`);
			assert.is(res.body.message, 'Validation Failed');
			const [error] = res.body.errors;
			assert.equal([error.resource, error.field, error.code], ['Hook', 'url', 'custom'], `~> GitHub's error item for ${url}`);
			assert.match(error.message, reason, `~> the message names the reason: ${error.message}`);
			assert.match(error.message, 'webhooks.allowed_hosts', '~> and the configuration key that allows it');
		}
		assert.is((await strict.get('/admin/hooks', token)).body.length, 0, '~> nothing was stored');
		const accepted = [
			'http://10.0.0.5:8080/hook',
			'https://192.168.1.20/hook',
			'http://172.16.0.1/hook',
			'http://[fd12:3456::1]/hook',
			'https://hooks.example.test/hook',
		];
		const ids: number[] = [];
		for (const url of accepted) {
			const res = await createHook(strict, url);
			assert.is(res.status, 201, `~> ${url} (private or public) is accepted`);
			ids.push(res.body.id);
		}
		for (const [url, reason] of [
			['http://127.0.0.1:9/hook', /loopback/],
			['http://[fe80::1]/hook', /link-local/],
		] as const) {
			const res = await strict.request('PATCH', `/admin/hooks/${ids[0]}`, { token, body: { config: { url } } });
			assert.is(res.status, 422, `~> an update to ${url} is refused`);
			assert.is(res.body.errors[0].field, 'url');
			assert.match(res.body.errors[0].message, reason);
		}
		assert.is((await strict.get(`/admin/hooks/${ids[0]}`, token)).body.config.url, accepted[0], '~> the hook is unchanged');
	} finally {
		await strict.close();
	}
	const lenient = await serverWith({ allowed_hosts: ['LocalHost', '[::1]'] });
	try {
		assert.is((await createHook(lenient, 'http://localhost:8080/hook')).status, 201, '~> a listed name is allowed (case-insensitive)');
		assert.is((await createHook(lenient, 'http://[0:0::1]:8080/hook')).status, 201, '~> a listed IPv6 address, however written');
		assert.is((await createHook(lenient, 'http://127.0.0.1:8080/hook')).status, 422, '~> only the listed hosts');
	} finally {
		await lenient.close();
	}
});

test('targets – a host name resolving to loopback that slipped past creation is refused when delivering, and not retried (finding 5)', async () => {
	const lenient = await serverWith({ allowed_hosts: ['localhost'] });
	const port = new URL(receiver.url).port;
	const hook = (await createHook(lenient, `http://localhost:${port}/hook`)).body.id;
	assert.ok(hook, '~> allowed by the configuration of the time');
	const dataDir = lenient.dataDir;
	await lenient.close(true);
	// Restarted without `localhost` in allowed_hosts: listing the address it resolves to is not enough.
	const strict = await serverWith({ allowed_hosts: ['127.0.0.1'] }, dataDir);
	try {
		receiver.take();
		await ping(strict, hook);
		assert.is(await strict.app.webhooks.deliverDue(), 1);
		assert.equal(receiver.take(), [], '~> nothing reaches the receiver on loopback');
		const [item] = (await strict.get(`/admin/hooks/${hook}/deliveries`, strict.fullToken('root'))).body;
		assert.match(
			item.status,
			/^refused: (127\.0\.0\.1|::1) is a loopback address \(webhooks\.allowed_hosts\)$/,
			`~> refused after resolving (${item.status})`,
		);
		assert.is(item.state, 'failed', '~> for good');
		assert.is(item.attempts, 1);
		strict.clock.advance(3600_000);
		assert.is(await strict.app.webhooks.deliverDue(), 0, '~> not retried');
	} finally {
		await strict.close();
		rmSync(dataDir, { recursive: true, force: true });
	}
});

test('delivery log – an answer is kept up to 64 KiB and reading stops there; oversized response headers fail the attempt (finding 5)', async () => {
	const endless = createServer((req, res) => {
		req.resume();
		res.writeHead(200, { 'Content-Type': 'text/plain' });
		const chunk = Buffer.alloc(16 * 1024, 'x');
		const more = () => {
			while (!res.destroyed && res.write(chunk));
			if (!res.destroyed) res.once('drain', more);
		};
		more();
	});
	const bigHeaders = createServer((req, res) => {
		req.resume();
		res.writeHead(200, { 'X-Big': 'a'.repeat(20 * 1024) });
		res.end('ok');
	});
	const listen = async (server: Server) => {
		await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
		return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
	};
	const iso = await serverWith({ timeout_seconds: 5 });
	try {
		const token = iso.fullToken('root');
		const streaming = (await createHook(iso, await listen(endless))).body.id;
		await ping(iso, streaming);
		const started = performance.now();
		await iso.app.webhooks.deliverDue();
		assert.ok(performance.now() - started < 2000, '~> an unending answer ends the attempt at 64 KiB, long before the deadline');
		const [item] = (await iso.get(`/admin/hooks/${streaming}/deliveries`, token)).body;
		const log = (await iso.get(`/admin/hooks/${streaming}/deliveries/${item.id}`, token)).body;
		assert.is(log.state, 'delivered', '~> the status code decides');
		assert.is(log.response.payload.length, 64 * 1024, '~> the first 64 KiB are kept');
		const headers = (await createHook(iso, await listen(bigHeaders))).body.id;
		await ping(iso, headers);
		await iso.app.webhooks.deliverDue();
		const [big] = (await iso.get(`/admin/hooks/${headers}/deliveries`, token)).body;
		assert.is(big.status, 'response headers larger than 16 KiB');
		assert.is(big.state, 'queued', '~> a failure like any other: retried');
	} finally {
		await iso.close();
		endless.closeAllConnections();
		bigHeaders.closeAllConnections();
		await new Promise((done) => endless.close(done));
		await new Promise((done) => bigHeaders.close(done));
	}
});

test('config – webhooks.allowed_hosts takes host names and IP addresses; anything else is refused by name (finding 5)', () => {
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-hosts-'));
	try {
		const file = join(dir, 'gitstead.toml');
		writeFileSync(file, '[webhooks]\nallowed_hosts = ["127.0.0.1", "LocalHost", "[::1]", "fe80::1", "hooks.internal.example"]\n');
		assert.equal(loadConfig({ config: file }, {}, dir).webhooks.allowed_hosts, [
			'127.0.0.1',
			'LocalHost',
			'[::1]',
			'fe80::1',
			'hooks.internal.example',
		]);
		assert.equal(loadConfig({}, {}, dir).webhooks.allowed_hosts, [], '~> none by default');
		for (const bad of ['"http://127.0.0.1"', '"127.0.0.1:8080"', '""', '"-bad-.example"', '42']) {
			writeFileSync(file, `[webhooks]\nallowed_hosts = [${bad}]\n`);
			assert.throws(
				() => loadConfig({ config: file }, {}, dir),
				/webhooks\.allowed_hosts\.0/,
				`~> ${bad} is refused, naming the key`,
			);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test.run();
