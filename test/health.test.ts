/**
 * GET /healthz (src/http/health.ts): the IETF health-check draft's shape and media type at the
 * server root only, no authentication, no rate limit; 503 with a reason a person understands when
 * the database refuses writes (a read-only connection, the file gone, a failed write) or the data
 * folder's disk is nearly full; "warn" below twice the threshold; a write lock held by another
 * connection answers at once, without waiting for the busy timeout.
 */
import { renameSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { version } from '../src/build-info';
import { openDatabase } from '../src/db/open';
import { FAILURE_HOLD_MS } from '../src/http/health';
import { startServer, type TestServer } from './helpers/server';

const test = suite('health');
let s: TestServer;

test.before(async () => {
	s = await startServer({
		configure(c) {
			c.rate_limit.limits.core_unauthenticated = 3;
		},
	});
	s.user('hana');
});
test.after(async () => {
	await s.close();
});

const health = (server: TestServer = s, method = 'GET', headers: Record<string, string> = {}) =>
	server.request(method, `${server.origin}/healthz`, { headers });

test('pass – the draft-inadarei-api-health-check shape, application/health+json, no-store, HEAD alike', async () => {
	const res = await health();
	assert.is(res.status, 200, '~> a healthy server answers 200');
	assert.is(res.headers.get('content-type'), 'application/health+json', '~> the draft media type');
	assert.is(res.headers.get('cache-control'), 'no-store', '~> never cached');
	const body = res.body;
	assert.is(body.status, 'pass', '~> status pass');
	assert.is(body.version, version, '~> the Gitstead version');
	assert.is(body.releaseId, `${version}+schema.${s.app.migration.to}`, '~> releaseId names the schema version');
	assert.is(body.serviceId, 'gitstead', '~> serviceId');
	assert.type(body.description, 'string', '~> a description');
	assert.not.ok('output' in body, '~> no output when everything passes');
	assert.equal(Object.keys(body.checks).sort(), ['disk:free', 'sqlite:writable', 'uptime'], '~> the checks');
	const [sqlite] = body.checks['sqlite:writable'];
	assert.is(sqlite.componentType, 'datastore', '~> the database is a datastore');
	assert.is(sqlite.status, 'pass', '~> writable');
	assert.is(sqlite.observedUnit, 'ms', '~> the probe is timed in ms');
	assert.ok(sqlite.observedValue >= 0, '~> its duration');
	assert.is(sqlite.time, new Date(s.clock.now).toISOString(), '~> time: when it was observed (the app clock), ISO 8601');
	const [disk] = body.checks['disk:free'];
	assert.is(disk.componentType, 'system', '~> the disk is a system component');
	assert.is(disk.observedUnit, 'bytes', '~> free space in bytes');
	assert.ok(Number.isInteger(disk.observedValue) && disk.observedValue > 0, '~> bytes free');
	assert.is(disk.status, 'pass', '~> plenty');
	const [uptime] = body.checks.uptime;
	assert.equal([uptime.componentType, uptime.observedUnit, uptime.status], ['system', 's', 'pass'], '~> uptime in seconds, always pass');
	assert.ok(uptime.observedValue >= 0, '~> seconds since the app opened');

	const head = await health(s, 'HEAD');
	assert.is(head.status, 200, '~> HEAD answers too');
	assert.is(head.headers.get('content-type'), 'application/health+json', '~> with the same media type');
	assert.is(head.text, '', '~> and no body');
});

test('served at the root only, without authentication or rate limit: anonymous callers keep their API budget', async () => {
	const first = await s.get('/users/hana');
	assert.is(first.status, 200, '~> an anonymous API request');
	const used = Number(first.headers.get('x-ratelimit-used'));
	for (let i = 0; i < 5; i++) {
		const res = await health(s, 'GET', { Authorization: 'Bearer not-a-token' });
		assert.is(res.status, 200, '~> /healthz ignores Authorization, even a bad one (more calls than the anonymous limit of 3)');
		assert.is(res.headers.get('x-ratelimit-limit'), null, '~> no X-RateLimit headers');
	}
	const second = await s.get('/users/hana');
	assert.is(second.status, 200, '~> the anonymous API limit is not spent by health checks');
	assert.is(Number(second.headers.get('x-ratelimit-used')), used + 1, '~> only the API request counted');
	const below = await s.get('/healthz');
	assert.is(below.status, 404, '~> not served below /api/v3');
	const query = await s.request('GET', `${s.origin}/healthz?verbose=1`);
	assert.is(query.status, 200, '~> a query string is ignored');
	const post = await s.request('POST', `${s.origin}/healthz`);
	assert.is(post.status, 404, '~> only GET and HEAD');
});

test('fail – a connection that refuses writes (SQLITE_READONLY) answers 503 with the reason', async () => {
	s.app.db.pragma('query_only = 1');
	try {
		const res = await health();
		assert.is(res.status, 503, '~> 503 Service Unavailable');
		assert.is(res.headers.get('content-type'), 'application/health+json', '~> still the health format');
		assert.is(res.body.status, 'fail', '~> status fail');
		const [sqlite] = res.body.checks['sqlite:writable'];
		assert.is(sqlite.status, 'fail', '~> the datastore check fails');
		assert.match(sqlite.output, /the database refuses writes: SQLITE_READONLY/, '~> the check says why');
		assert.match(
			res.body.output,
			/^sqlite:writable: the database refuses writes/,
			'~> the top-level output names the check and the reason',
		);
		assert.is(res.body.checks['disk:free'][0].status, 'pass', '~> other checks keep their own status');
	} finally {
		s.app.db.pragma('query_only = 0');
	}
	assert.is((await health()).status, 200, '~> writable again: pass');
});

test('a write lock held by another connection answers at once (pass), without waiting storage.busy_timeout_ms', async () => {
	const other = openDatabase(s.app.config.databaseFile);
	other.exec('BEGIN IMMEDIATE');
	try {
		const started = performance.now();
		const res = await health();
		const ms = performance.now() - started;
		assert.is(res.status, 200, '~> a busy database is writable, just in use');
		assert.ok(
			ms < s.app.config.storage.busy_timeout_ms / 5,
			`~> answered in ${ms.toFixed(0)} ms, not after the ${s.app.config.storage.busy_timeout_ms} ms busy timeout`,
		);
		const [sqlite] = res.body.checks['sqlite:writable'];
		assert.is(sqlite.status, 'pass', '~> pass');
		assert.match(sqlite.output, /another connection holds the write lock/, '~> and it says so');
		assert.is(
			s.app.db.pragma('busy_timeout', { simple: true }),
			s.app.config.storage.busy_timeout_ms,
			'~> the busy timeout is restored after the probe',
		);
	} finally {
		other.exec('ROLLBACK');
		other.close();
	}
});

test('fail – a write that failed with a storage error fails the check until a commit writes again (warn after a minute)', async () => {
	const token = s.fullToken('hana');
	s.app.db.pragma('query_only = 1');
	let refused;
	try {
		refused = await s.request('POST', '/user/repos', { token, body: { name: 'refused' } });
	} finally {
		s.app.db.pragma('query_only = 0');
	}
	assert.is(refused.status, 500, '~> the write itself failed');
	const res = await health();
	assert.is(res.status, 503, '~> the probe passes now, but the last write failed: 503');
	assert.match(
		res.body.checks['sqlite:writable'][0].output,
		/the last write failed 0 s ago with SQLITE_READONLY/,
		'~> which write error, and when',
	);
	s.clock.advance(FAILURE_HOLD_MS + 1000);
	const later = await health();
	assert.is(later.status, 200, '~> after a minute without another failure: no longer fail');
	assert.is(later.body.status, 'warn', '~> but warn');
	assert.match(later.body.output, /sqlite:writable: the last write failed 61 s ago/, '~> with the reason');
	const created = await s.request('POST', '/user/repos', { token, body: { name: 'accepted' } });
	assert.is(created.status, 201, '~> a write succeeds');
	const healed = await health();
	assert.is(healed.body.status, 'pass', '~> a commit that wrote clears it');
});

test('disk:free – fail below health.min_free_bytes (503), warn below twice it', async () => {
	const full = await startServer({
		configure(c) {
			c.health.min_free_bytes = Number.MAX_SAFE_INTEGER;
		},
	});
	try {
		const res = await health(full);
		assert.is(res.status, 503, '~> a threshold above the real free space: 503');
		const [disk] = res.body.checks['disk:free'];
		assert.is(disk.status, 'fail', '~> disk:free fails');
		assert.match(
			disk.output,
			/free on the disk holding the data folder, below health\.min_free_bytes/,
			'~> the reason names the setting',
		);
		assert.match(res.body.output, /^disk:free: only /, '~> in the top-level output too');
		assert.is(res.body.checks['sqlite:writable'][0].status, 'pass', '~> the database itself is fine');
	} finally {
		await full.close();
	}
	const min = s.app.config.health.min_free_bytes;
	assert.is(min, 100 * 1024 * 1024, '~> the default threshold is 100 MiB');
	const real = s.app.health.statfs;
	try {
		s.app.health.statfs = () => ({ bavail: 150, bsize: 1024 * 1024 });
		const warn = await health();
		assert.is(warn.status, 200, '~> 150 MiB free: still 200');
		assert.is(warn.body.status, 'warn', '~> but warn (below twice 100 MiB)');
		assert.is(warn.body.checks['disk:free'][0].observedValue, 150 * 1024 * 1024, '~> the observed bytes');
		assert.match(warn.body.output, /disk:free: 150\.0 MiB free .* less than twice health\.min_free_bytes \(100\.0 MiB\)/, '~> why');
		s.app.health.statfs = () => ({ bavail: 10, bsize: 1024 * 1024 });
		const fail = await health();
		assert.is(fail.status, 503, '~> 10 MiB free: 503');
		assert.match(fail.body.output, /only 10\.0 MiB free/, '~> in MiB for a person');
		s.app.health.statfs = () => {
			throw Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
		};
		const gone = await health();
		assert.is(gone.status, 503, '~> a data folder whose disk cannot be read: 503');
		assert.match(gone.body.output, /cannot read the free space/, '~> why');
	} finally {
		s.app.health.statfs = real;
	}
});

test('fail – gitstead.db removed from the data folder while the server runs', async () => {
	const server = await startServer();
	const file = server.app.config.databaseFile;
	try {
		renameSync(file, `${file}.moved`);
		const res = await health(server);
		assert.is(res.status, 503, '~> 503');
		assert.match(res.body.checks['sqlite:writable'][0].output, /gitstead\.db is gone from the data folder/, '~> the reason');
		renameSync(`${file}.moved`, file);
		assert.is((await health(server)).status, 200, '~> back in place: pass');
	} finally {
		await server.close();
	}
});

test.run();
