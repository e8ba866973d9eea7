/**
 * GET /metrics (src/http/metrics.ts): Prometheus' text format 0.0.4, checked line by line by a
 * strict parser of the exposition grammar below; request counters by route template (never a raw
 * path), duration histograms, rate-limit rejections, webhook attempts and queue, background task
 * backlog, database sizes, prom-client's process metrics; a registry per application; `[metrics]
 * token` (401 without it) and `[metrics] enabled = false` (404).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MARK_READ_TASK } from '../src/api/notifications/service';
import { startServer, type TestServer } from './helpers/server';

// ---------------------------------------------------------------------------------------------
// A strict parser of the text exposition format (https://prometheus.io/docs/instrumenting/exposition_formats/):
// every line is a HELP, a TYPE, another comment, blank, or a sample; names and label names follow
// the grammar; label values are quoted with \\, \" and \n escapes only; values are what Go's
// ParseFloat reads (prom-client writes NaN as "Nan", which it accepts); a family's TYPE comes
// before its samples and at most once; no series twice; histogram series are complete and
// cumulative. Any deviation throws, naming the line.

interface Sample {
	name: string;
	labels: Record<string, string>;
	value: number;
}
interface Family {
	name: string;
	type: string;
	help: string | null;
	samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** A value as Go's strconv.ParseFloat reads it (decimal forms; Inf, Infinity and NaN in any case, infinities signed). */
function parseValue(text: string, line: number): number {
	if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
	if (/^-inf(inity)?$/i.test(text)) return -Infinity;
	if (/^nan$/i.test(text)) return NaN;
	if (!FLOAT.test(text)) throw new Error(`line ${line}: bad value ${JSON.stringify(text)}`);
	return Number(text);
}

/** The family a sample name belongs to: itself, or the histogram/summary whose suffix it carries. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
	if (families.has(name)) return families.get(name);
	for (const suffix of ['_bucket', '_sum', '_count']) {
		if (!name.endsWith(suffix)) continue;
		const family = families.get(name.slice(0, -suffix.length));
		if (family && (family.type === 'histogram' || (family.type === 'summary' && suffix !== '_bucket'))) return family;
	}
	return undefined;
}

function parseExposition(text: string): Map<string, Family> {
	assert.ok(text.endsWith('\n'), '~> the exposition ends with a line feed');
	const families = new Map<string, Family>();
	const seen = new Set<string>();
	const lines = text.slice(0, -1).split('\n');
	lines.forEach((raw, index) => {
		const line = index + 1;
		if (raw === '') return;
		if (raw.startsWith('#')) {
			const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw);
			if (!match) return; // another comment
			const [, kind, name, rest] = match;
			if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`);
			let family = families.get(name);
			if (kind === 'TYPE') {
				if (!TYPES.has(rest)) throw new Error(`line ${line}: bad type ${rest}`);
				if (family?.type) throw new Error(`line ${line}: second TYPE for ${name}`);
				if (family && family.samples.length > 0) throw new Error(`line ${line}: TYPE after samples of ${name}`);
				if (family) family.type = rest;
				else families.set(name, { name, type: rest, help: null, samples: [] });
			} else {
				if (/\\(?![\\n])/.test(rest)) throw new Error(`line ${line}: bad escape in HELP`);
				if (family?.help != null) throw new Error(`line ${line}: second HELP for ${name}`);
				if (family) family.help = rest;
				else families.set(name, (family = { name, type: '', help: rest, samples: [] }));
			}
			return;
		}
		// A sample: name, optional {labels}, value, optional timestamp.
		let i = 0;
		while (i < raw.length && raw[i] !== '{' && raw[i] !== ' ') i++;
		const name = raw.slice(0, i);
		if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name ${JSON.stringify(name)}`);
		const labels: Record<string, string> = {};
		if (raw[i] === '{') {
			i++;
			while (raw[i] !== '}') {
				const eq = raw.indexOf('=', i);
				if (eq === -1) throw new Error(`line ${line}: label without =`);
				const label = raw.slice(i, eq);
				if (!LABEL_NAME.test(label)) throw new Error(`line ${line}: bad label name ${JSON.stringify(label)}`);
				if (label in labels) throw new Error(`line ${line}: label ${label} twice`);
				if (raw[eq + 1] !== '"') throw new Error(`line ${line}: unquoted label value`);
				let value = '';
				let j = eq + 2;
				for (;;) {
					const c = raw[j];
					if (c === undefined) throw new Error(`line ${line}: unterminated label value`);
					if (c === '"') break;
					if (c === '\\') {
						const next = raw[j + 1];
						if (next === '\\') value += '\\';
						else if (next === '"') value += '"';
						else if (next === 'n') value += '\n';
						else throw new Error(`line ${line}: bad escape \\${next}`);
						j += 2;
						continue;
					}
					value += c;
					j++;
				}
				labels[label] = value;
				i = j + 1;
				if (raw[i] === ',') i++;
				else if (raw[i] !== '}') throw new Error(`line ${line}: expected , or } after a label`);
			}
			i++;
		}
		if (raw[i] !== ' ') throw new Error(`line ${line}: expected a space before the value`);
		const parts = raw.slice(i + 1).split(' ');
		if (parts.length > 2) throw new Error(`line ${line}: trailing text`);
		const value = parseValue(parts[0], line);
		if (parts.length === 2 && !/^-?\d+$/.test(parts[1])) throw new Error(`line ${line}: bad timestamp`);
		const family = familyOf(name, families);
		if (!family || !family.type) throw new Error(`line ${line}: sample ${name} before its TYPE`);
		const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
		if (seen.has(key)) throw new Error(`line ${line}: duplicate series ${key}`);
		seen.add(key);
		family.samples.push({ name, labels, value });
	});
	for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
	return families;
}

/** Each series of a histogram: buckets with increasing `le` ending at +Inf, cumulative counts, +Inf = _count, a _sum. */
function checkHistogram(family: Family): void {
	const series = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
	for (const sample of family.samples) {
		const { le, ...rest } = sample.labels;
		const key = JSON.stringify(Object.entries(rest).sort());
		const entry = series.get(key) ?? { buckets: [] };
		series.set(key, entry);
		if (sample.name === `${family.name}_bucket`) {
			if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
			entry.buckets.push([parseValue(le, 0), sample.value]);
		} else if (sample.name === `${family.name}_sum`) entry.sum = sample.value;
		else if (sample.name === `${family.name}_count`) entry.count = sample.value;
		else throw new Error(`${family.name}: unexpected sample ${sample.name}`);
	}
	for (const [key, entry] of series) {
		if (entry.sum === undefined || entry.count === undefined) throw new Error(`${family.name}${key}: _sum or _count missing`);
		const bounds = entry.buckets.map(([le]) => le);
		if (bounds.at(-1) !== Infinity) throw new Error(`${family.name}${key}: no +Inf bucket`);
		for (let i = 1; i < entry.buckets.length; i++) {
			if (!(bounds[i] > bounds[i - 1])) throw new Error(`${family.name}${key}: le not increasing`);
			if (entry.buckets[i][1] < entry.buckets[i - 1][1]) throw new Error(`${family.name}${key}: buckets not cumulative`);
		}
		if (entry.buckets.at(-1)![1] !== entry.count) throw new Error(`${family.name}${key}: +Inf bucket ≠ _count`);
	}
}

/** The value of the one sample of `name` whose labels include `labels` (0 when there is none). */
function value(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
	const family = familyOf(name, families);
	const matches = (family?.samples ?? []).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
	assert.ok(matches.length <= 1, `~> at most one ${name} series with ${JSON.stringify(labels)}`);
	return matches[0]?.value ?? 0;
}

// ---------------------------------------------------------------------------------------------

const test = suite('metrics');
let s: TestServer;
let receiver: Server;
let receiverUrl: string;

test.before(async () => {
	// A webhook receiver answering 200 on /ok and 500 elsewhere.
	receiver = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(req.url === '/ok' ? 200 : 500);
			res.end();
		});
	});
	await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
	s = await startServer({
		configure(c) {
			c.rate_limit.limits.core_unauthenticated = 2;
			c.webhooks.allowed_hosts = ['127.0.0.1'];
			c.webhooks.max_attempts = 1;
		},
	});
	s.user('mira');
	await s.request('POST', '/user/repos', { token: s.fullToken('mira'), body: { name: 'orbit' } });
});
test.after(async () => {
	await s.close();
	receiver.closeAllConnections();
	await new Promise((done) => receiver.close(done));
});

async function scrape(server: TestServer = s, headers: Record<string, string> = {}) {
	const res = await server.request('GET', `${server.origin}/metrics`, { headers });
	assert.is(res.status, 200, '~> /metrics answers 200');
	return parseExposition(res.text);
}

test('the text format 0.0.4, every line of it valid; not cached; HEAD alike; not below /api/v3', async () => {
	const res = await s.request('GET', `${s.origin}/metrics`);
	assert.is(res.status, 200, '~> 200');
	assert.is(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8', '~> the Prometheus text format');
	assert.is(res.headers.get('cache-control'), 'no-store', '~> never cached');
	const families = parseExposition(res.text);
	for (const name of [
		'gitstead_http_requests_total',
		'gitstead_http_request_duration_seconds',
		'gitstead_rate_limit_rejections_total',
		'gitstead_webhook_queue_depth',
		'gitstead_webhook_delivery_failures_total',
		'gitstead_webhook_delivery_duration_seconds',
		'gitstead_background_tasks_queued',
		'gitstead_background_tasks_due',
		'gitstead_database_size_bytes',
		'gitstead_database_wal_size_bytes',
		'gitstead_data_disk_free_bytes',
	]) {
		assert.ok(families.has(name), `~> ${name} is exposed`);
		assert.ok(families.get(name)!.help, `~> ${name} has a HELP text`);
	}
	assert.is(families.get('gitstead_http_requests_total')!.type, 'counter', '~> requests are a counter');
	assert.is(families.get('gitstead_http_request_duration_seconds')!.type, 'histogram', '~> durations a histogram');
	assert.is(families.get('gitstead_webhook_queue_depth')!.type, 'gauge', '~> the queue a gauge');
	const head = await s.request('HEAD', `${s.origin}/metrics`);
	assert.is(head.status, 200, '~> HEAD answers');
	assert.is(head.text, '', '~> without a body');
	const below = await s.get('/metrics');
	assert.is(below.status, 404, '~> not below /api/v3');
});

test('requests are counted by method, route template and status; unknown paths as "unmatched"; never a raw path', async () => {
	const before = await scrape();
	const issues = { method: 'GET', route: '/repos/{owner}/{repo}/issues', status: '200' };
	const missing = { method: 'GET', route: '/repos/{owner}/{repo}/issues', status: '404' };
	const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
	const token = s.fullToken('mira');
	assert.is((await s.get('/repos/mira/orbit/issues', token)).status, 200, '~> a list');
	assert.is((await s.get('/repos/mira/orbit/issues', token)).status, 200, '~> the list again');
	assert.is((await s.get('/repos/mira/nothing-here/issues', token)).status, 404, '~> a repository that does not exist');
	assert.is((await s.get('/no/such/path/42', token)).status, 404, '~> an unknown path');
	const after = await scrape();
	const delta = (labels: Record<string, string>) =>
		value(after, 'gitstead_http_requests_total', labels) - value(before, 'gitstead_http_requests_total', labels);
	assert.is(delta(issues), 2, '~> two 200 answers of GET /repos/{owner}/{repo}/issues');
	assert.is(delta(missing), 1, '~> one 404 of the same route');
	assert.is(delta(unmatched), 1, '~> the unknown path counts as unmatched');
	const durationCount = (m: typeof before) =>
		value(m, 'gitstead_http_request_duration_seconds_count', { method: 'GET', route: '/repos/{owner}/{repo}/issues' });
	assert.is(durationCount(after) - durationCount(before), 3, '~> each answer observed in the duration histogram');
	const buckets = after
		.get('gitstead_http_request_duration_seconds')!
		.samples.filter(
			(x) => x.name.endsWith('_bucket') && x.labels.route === '/repos/{owner}/{repo}/issues' && x.labels.method === 'GET',
		);
	assert.equal(
		buckets.map((b) => b.labels.le),
		['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'],
		'~> the buckets, 1 ms to 10 s, and +Inf',
	);
	assert.ok(
		value(after, 'gitstead_http_request_duration_seconds_sum', { method: 'GET', route: '/repos/{owner}/{repo}/issues' }) > 0,
		'~> seconds summed',
	);
	const routes = new Set(after.get('gitstead_http_requests_total')!.samples.map((x) => x.labels.route));
	for (const route of routes) {
		assert.ok(!/mira|orbit|nothing-here|42/.test(route), `~> no raw path segment in a route label (${route})`);
		assert.ok(
			['unmatched', 'unparsed', 'preflight'].includes(route) || route.startsWith('web:') || route.startsWith('/'),
			`~> a template or a keyword (${route})`,
		);
	}
	assert.ok(routes.has('/metrics'), '~> the scrapes themselves are counted as /metrics');
});

test('web paths outside the API are named: /healthz, avatars, feeds', async () => {
	const before = await scrape();
	assert.is((await s.request('GET', `${s.origin}/healthz`)).status, 200, '~> health');
	const user = s.app.stores.accounts.user('mira')!;
	assert.is((await s.request('GET', `${s.origin}/avatars/u/${user.id}`)).status, 200, '~> an avatar');
	assert.is((await s.request('GET', `${s.origin}/timeline`)).status, 200, '~> the public timeline feed');
	const after = await scrape();
	const delta = (labels: Record<string, string>) =>
		value(after, 'gitstead_http_requests_total', labels) - value(before, 'gitstead_http_requests_total', labels);
	assert.is(delta({ route: '/healthz', status: '200' }), 1, '~> /healthz');
	assert.is(delta({ route: 'web:avatar', status: '200' }), 1, '~> avatars as "web:avatar", as the access log names them');
	assert.is(delta({ route: 'web:feed', status: '200' }), 1, '~> the Atom feeds as "web:feed"');
});

test('rate-limit rejections are counted by resource', async () => {
	const before = value(await scrape(), 'gitstead_rate_limit_rejections_total', { resource: 'core' });
	const statuses: number[] = [];
	for (let i = 0; i < 3; i++) statuses.push((await s.get('/users/mira')).status);
	const after = value(await scrape(), 'gitstead_rate_limit_rejections_total', { resource: 'core' });
	const refused = statuses.filter((status) => status === 403).length;
	assert.ok(refused >= 1, `~> the anonymous limit of 2 is spent (${statuses.join(', ')})`);
	assert.is(after - before, refused, '~> each 403 for a spent limit counted once, under resource="core"');
});

test('webhooks: the queue depth, failed attempts (final when no retry follows) and attempt durations', async () => {
	const token = s.fullToken('mira');
	for (const path of ['/ok', '/broken']) {
		const hook = await s.request('POST', '/repos/mira/orbit/hooks', {
			token,
			body: { config: { url: `${receiverUrl}${path}`, content_type: 'json' } },
		});
		assert.is(hook.status, 201, `~> a hook to ${path} (its ping is queued)`);
	}
	const queued = await scrape();
	assert.is(value(queued, 'gitstead_webhook_queue_depth'), 2, '~> two pings waiting');
	await s.app.webhooks.deliverDue();
	const after = await scrape();
	assert.is(value(after, 'gitstead_webhook_queue_depth'), 0, '~> none after a delivery pass');
	assert.is(
		value(after, 'gitstead_webhook_delivery_failures_total', { final: 'true' }),
		1,
		'~> the 500 failed for good (max_attempts = 1)',
	);
	assert.is(
		value(after, 'gitstead_webhook_delivery_duration_seconds_count', { outcome: 'success' }),
		1,
		'~> one successful attempt timed',
	);
	assert.is(value(after, 'gitstead_webhook_delivery_duration_seconds_count', { outcome: 'failure' }), 1, '~> one failed attempt timed');
});

test('background tasks queued and due; database and WAL sizes; free disk; process metrics', async () => {
	const before = await scrape();
	s.app.tasks.enqueue(MARK_READ_TASK, { never: 'run' });
	const after = await scrape();
	assert.is(value(after, 'gitstead_background_tasks_queued') - value(before, 'gitstead_background_tasks_queued'), 1, '~> a queued task');
	assert.is(value(after, 'gitstead_background_tasks_due') - value(before, 'gitstead_background_tasks_due'), 1, '~> due now');
	assert.ok(value(after, 'gitstead_database_size_bytes') > 0, '~> the database file has a size');
	assert.ok(value(after, 'gitstead_database_wal_size_bytes') > 0, '~> and its WAL (written since the last checkpoint)');
	assert.ok(value(after, 'gitstead_data_disk_free_bytes') > 0, '~> free bytes of the data disk');
	for (const name of [
		'process_cpu_user_seconds_total',
		'process_resident_memory_bytes',
		'nodejs_heap_size_used_bytes',
		'nodejs_eventloop_lag_seconds',
		'nodejs_version_info',
	]) {
		assert.ok(after.has(name), `~> prom-client's default metric ${name}`);
	}
});

test('a registry per application: another server counts only its own requests', async () => {
	const other = await startServer();
	try {
		const before = value(await scrape(other), 'gitstead_http_requests_total', { route: '/repos/{owner}/{repo}/issues' });
		await s.get('/repos/mira/orbit/issues', s.fullToken('mira'));
		const families = await scrape(other);
		assert.is(
			value(families, 'gitstead_http_requests_total', { route: '/repos/{owner}/{repo}/issues' }),
			before,
			"~> the first server's requests are not in the second's metrics",
		);
		assert.ok(families.has('process_cpu_user_seconds_total'), '~> each registry has the process metrics');
	} finally {
		await other.close();
	}
});

test('[metrics] token: 401 with WWW-Authenticate: Bearer without it or with another; 200 with it', async () => {
	const guarded = await startServer({
		configure(c) {
			c.metrics.token = 'scrape-secret';
		},
	});
	try {
		const url = `${guarded.origin}/metrics`;
		const none = await guarded.request('GET', url);
		assert.is(none.status, 401, '~> no Authorization: 401');
		assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer\b/, '~> WWW-Authenticate: Bearer');
		assert.not.match(none.text, /gitstead_/, '~> no metrics leak');
		const wrong = await guarded.request('GET', url, { headers: { Authorization: 'Bearer scrape-secreT' } });
		assert.is(wrong.status, 401, '~> another token: 401');
		const basic = await guarded.request('GET', url, { headers: { Authorization: 'Basic c2NyYXBlLXNlY3JldA==' } });
		assert.is(basic.status, 401, '~> another scheme: 401');
		const right = await guarded.request('GET', url, { headers: { Authorization: 'Bearer scrape-secret' } });
		assert.is(right.status, 200, '~> the token: 200');
		parseExposition(right.text);
		const healthz = await guarded.request('GET', `${guarded.origin}/healthz`);
		assert.is(healthz.status, 200, '~> /healthz needs no token');
	} finally {
		await guarded.close();
	}
});

test('[metrics] enabled = false: /metrics answers 404 like an unknown path', async () => {
	const off = await startServer({
		configure(c) {
			c.metrics.enabled = false;
		},
	});
	try {
		const res = await off.request('GET', `${off.origin}/metrics`);
		assert.is(res.status, 404, '~> 404');
		assert.is(res.body.message, 'Not Found', "~> GitHub's body for an unknown path");
		assert.is((await off.request('GET', `${off.origin}/healthz`)).status, 200, '~> /healthz stays');
	} finally {
		await off.close();
	}
});

test('the parser is strict: malformed expositions are refused', () => {
	const good = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 3\n';
	parseExposition(good);
	for (const bad of [
		'a_total 1\n', // no TYPE
		'# TYPE a counter\na{x=1} 1\n', // unquoted
		'# TYPE a counter\na{x="\\q"} 1\n', // bad escape
		'# TYPE a counter\na{1x="1"} 1\n', // bad label name
		'# TYPE a counter\na 1 2 3\n', // trailing text
		'# TYPE a counter\na one\n', // bad value
		'# TYPE a counter\na 1\na 2\n', // duplicate series
		'# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n', // not cumulative
		'# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', // no +Inf
	]) {
		assert.throws(() => parseExposition(bad), undefined, `~> refused: ${JSON.stringify(bad)}`);
	}
});

test.run();
