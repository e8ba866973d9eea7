// npm run bench: loads Gitstead and a bare polka server (same response sizes) in the same run and
// prints req/s, p99 latency, CPU per request and the server's RSS, with the ratio to the baseline
// and the targets (GET /orgs/{org}/teams ≥ 0.6×, POST issue with its event fanned
// out to 3 hooks and 20 watchers ≥ 0.2×, a repository feed page ≥ 0.5×, a feed 304 ≥ 0.7×);
// then custom property definition reads and writes, webhook delivery throughput, filtered lists of
// 100,000 workflow runs, and dependency snapshot submissions of a 1,000-dependency manifest.
//
// Layout: each server is a child process pinned to CPU 0 (taskset, when available); autocannon
// runs in this process, pinned to CPU 1. Gitstead runs from build/gitstead.cjs on a fresh data
// folder with rate limiting on and limits high enough not to interfere (counting still happens).
//
// Then the cost of every GET route of the demo data (bench/routes.mjs; BENCH_ROUTES=0 leaves it out).
//
// Environment: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 32); BENCH_PROFILE=DIR writes
// Gitstead's CPU profile of the whole run there (node --cpu-prof; NODE_OPTIONS may not carry it).
// BENCH_NODE_FLAGS="--flag …" passes node flags to the benchmarked server.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchGit } from './git.mjs';
import { benchRoutes } from './routes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const haveTaskset = (() => {
	try {
		execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
		return cpus().length > 1;
	} catch {
		return false;
	}
})();
if (haveTaskset) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

function startChild(args, env = {}) {
	const command = haveTaskset ? 'taskset' : process.execPath;
	const argv = haveTaskset ? ['-c', '0', process.execPath, ...args] : args;
	const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (d) => (stdout += d));
	// The server writes an access-log line per request: keep the first 64 KiB (the listen line) and
	// the last 64 KiB, not hundreds of megabytes.
	child.stderr.on('data', (d) => {
		stderr += d;
		if (stderr.length > 1 << 18) stderr = `${stderr.slice(0, 1 << 16)}\n…\n${stderr.slice(-(1 << 16))}`;
	});
	return {
		child,
		out: () => stdout,
		err: () => stderr,
		async waitFor(pattern, stream = 'err') {
			const started = Date.now();
			for (;;) {
				const match = pattern.exec(stream === 'err' ? stderr : stdout);
				if (match) return match;
				if (Date.now() - started > 20000) throw new Error(`timed out waiting for ${pattern}:\n${stderr}`);
				await new Promise((r) => setTimeout(r, 10));
			}
		},
	};
}

/** CPU time (user + system) of a process so far, in microseconds. */
function cpuMicros(pid) {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime, stime in clock ticks (100/s)
}

/** Peak RSS of a process in MB, sampled every 100 ms while `fn` runs, and its CPU time per request. */
async function withRss(pid, fn) {
	const read = () => {
		try {
			const status = readFileSync(`/proc/${pid}/status`, 'utf8');
			return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
		} catch {
			return 0;
		}
	};
	let peak = read();
	const timer = setInterval(() => (peak = Math.max(peak, read())), 100);
	const cpuBefore = cpuMicros(pid);
	try {
		const result = await fn();
		const cpuPerRequest = (cpuMicros(pid) - cpuBefore) / result.requests.total;
		return { result, rss: Math.max(peak, read()), cpuPerRequest };
	} finally {
		clearInterval(timer);
	}
}

function load(options) {
	return new Promise((resolveLoad, reject) => {
		const settings = { connections, duration: seconds, ...options };
		if (settings.amount) delete settings.duration;
		autocannon(settings, (error, result) => (error ? reject(error) : resolveLoad(result)));
	});
}

async function json(url, token, method = 'GET', body) {
	const res = await fetch(url, {
		method,
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
	return { text, body: JSON.parse(text) };
}

/** @param r an autocannon result; 304 answers count as successes (conditional polls expect them). */
const summary = (r) => ({
	rps: r.requests.average,
	p99: r.latency.p99,
	non2xx: r.non2xx - (r['3xx'] ?? 0) + r.errors + r.timeouts,
	requests: r.requests.total,
});

async function main() {
	/** Prints the table of Gitstead against bare polka: [name, ours, baseline, body bytes, target ratio]. */
	function printRows(rows) {
		console.log(
			`\nGitstead benchmark: ${seconds} s per run, ${connections} connections, ${haveTaskset ? 'server on CPU 0, load on CPU 1' : 'no CPU pinning'}`,
		);
		console.log(`node ${process.version}, ${cpus()[0].model}; startup to listening: ${startupMs} ms\n`);
		console.log(
			'| endpoint | body | Gitstead req/s | p99 ms | CPU µs/req | RSS MB | bare polka req/s | p99 ms | CPU µs/req | ratio | target | non-2xx |',
		);
		console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
		const missed = [];
		for (const [name, ours, base, bytes, target] of rows) {
			const a = summary(ours.result);
			const b = summary(base.result);
			const ratio = a.rps / b.rps;
			if (target !== null && ratio < target) missed.push(`${name}: ${ratio.toFixed(2)}× < ${target}×`);
			console.log(
				`| ${name} | ${(bytes / 1024).toFixed(1)} KB | ${a.rps.toFixed(0)} | ${a.p99} | ${ours.cpuPerRequest.toFixed(0)} | ${ours.rss.toFixed(0)} | ` +
					`${b.rps.toFixed(0)} | ${b.p99} | ${base.cpuPerRequest.toFixed(0)} | ${ratio.toFixed(2)}× | ${target === null ? '' : `≥ ${target}×`} | ${a.non2xx} |`,
			);
		}
		if (missed.length) console.log(`\nBelow target: ${missed.join('; ')}`);
	}

	const dir = mkdtempSync(join(tmpdir(), 'gitstead-bench-'));
	const config = join(dir, 'bench.toml');
	writeFileSync(
		config,
		`[storage]\ndata_dir = "${join(dir, 'data')}"\n[rate_limit.limits]\ncore = 1000000000\ncore_unauthenticated = 1000000000\n` +
			'dependency_snapshots = 1000000000\n' +
			// The webhook receiver below listens on loopback, which hooks may reach only when allowed.
			'[webhooks]\nallowed_hosts = ["127.0.0.1"]\n',
	);
	const started = Date.now();
	const profile = [
		...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []),
		...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : []),
	];
	const gitstead = startChild([...profile, join(root, 'build/gitstead.cjs'), 'serve', '--port', '0', '--config', config]);
	const [, address] = await gitstead.waitFor(/listen=(http:\/\/\S+)/);
	const startupMs = Date.now() - started;
	const [, token] = await gitstead.waitFor(/(ghp_[A-Za-z0-9]{36})/, 'out');
	const api = `${address}/api/v3`;
	const serverPid = gitstead.child.pid; // taskset execs node in place: same pid

	// Fixtures through the CLI, as an admin would: an organization with 30 teams to read, another to write into.
	const cli = (...args) => execFileSync(process.execPath, [join(root, 'build/gitstead.cjs'), 'admin', ...args, '--config', config]);
	cli('create-org', 'bench', '--owner', 'admin');
	cli('create-org', 'writes', '--owner', 'admin');
	for (let i = 0; i < 30; i++) {
		await json(`${api}/orgs/bench/teams`, token, 'POST', {
			name: `Team ${String(i).padStart(2, '0')}`,
			description: `Bench team number ${i}`,
			privacy: 'closed',
		});
	}
	const list = await json(`${api}/orgs/bench/teams`, token);
	const created = await json(`${api}/orgs/writes/teams`, token, 'POST', { name: 'Sample', privacy: 'closed' });
	const listBytes = Buffer.byteLength(list.text);
	const createBytes = Buffer.byteLength(created.text);
	if (list.body.length !== 30) throw new Error(`expected 30 teams, got ${list.body.length}`);

	// The feed: a repository with 40 events (issues opened), read 30 per page.
	await json(`${api}/orgs/bench/repos`, token, 'POST', { name: 'busy' });
	for (let i = 0; i < 40; i++)
		await json(`${api}/repos/bench/busy/issues`, token, 'POST', { title: `Event ${i}`, body: 'Some **activity** to show' });
	const feedRes = await fetch(`${api}/repos/bench/busy/events`, { headers: { Authorization: `Bearer ${token}` } });
	const feedText = await feedRes.text();
	const feedEtag = feedRes.headers.get('etag');
	const feedBytes = Buffer.byteLength(feedText);
	if (JSON.parse(feedText).length !== 30) throw new Error('expected 30 events on the first page');

	// One issue read by a polling client (issue #23): GET it, GET it again with its ETag (304), and
	// POST issues to a repository without hooks or watchers. The baseline sends the same bytes with
	// the same response header set, copied from Gitstead's own answers.
	await json(`${api}/orgs/bench/repos`, token, 'POST', { name: 'plain' });
	await json(`${api}/repos/bench/busy/issues`, token, 'POST', {
		title: 'A polled issue',
		body: 'Some **Markdown** with a [link](https://example.com) and `code`',
	});
	const issueUrl = `${api}/repos/bench/busy/issues/41`;
	const oneRes = await fetch(issueUrl, { headers: { Authorization: `Bearer ${token}` } });
	const oneText = await oneRes.text();
	const oneEtag = oneRes.headers.get('etag');
	if (oneRes.status !== 200 || !oneEtag) throw new Error(`GET issue: ${oneRes.status} ${oneText}`);
	const plainRes = await fetch(`${api}/repos/bench/plain/issues`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ title: 'Sample', body: 'Steps: run **the bench**' }),
	});
	const plainText = await plainRes.text();
	const headerSet = (res) =>
		Object.fromEntries(
			[...res.headers].filter(
				([name]) => !['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name),
			),
		);
	const oneHeaders = headerSet(oneRes);
	// The teams list's baseline sends the list's own header set too (GitHub's, about 1.4 KB).
	const listRes = await fetch(`${api}/orgs/bench/teams`, { headers: { Authorization: `Bearer ${token}` } });
	await listRes.text();
	const listHeaders = headerSet(listRes);
	const plainHeaders = headerSet(plainRes);

	const bare = startChild([join(root, 'bench/bare-polka.mjs')], {
		BARE_GET_BYTES: String(listBytes),
		BARE_GET_HEADERS: JSON.stringify(listHeaders),
		BARE_POST_BYTES: String(createBytes),
		BARE_FEED_BYTES: String(feedBytes),
		BARE_ISSUE_BYTES: String(Buffer.byteLength(oneText)),
		BARE_ISSUE_HEADERS: JSON.stringify(oneHeaders),
		BARE_CREATED_BYTES: String(Buffer.byteLength(plainText)),
		BARE_CREATED_HEADERS: JSON.stringify(plainHeaders),
	});
	const [, bareAddress] = await bare.waitFor(/listening (http:\/\/\S+)/);
	const barePid = bare.child.pid;

	const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
	const results = {};
	// BENCH_ONLY=post: the POST issue row alone (a quicker before/after of a write-path change).
	const postOnly = process.env.BENCH_ONLY === 'post';
	if (!postOnly) {
		results.readBare = await withRss(barePid, () => load({ url: `${bareAddress}/orgs/bench/teams`, headers }));
		await load({ url: `${api}/orgs/bench/teams`, headers, duration: 1 }); // warm-up, unmeasured
		results.read = await withRss(serverPid, () => load({ url: `${api}/orgs/bench/teams`, headers }));
		results.feedBare = await withRss(barePid, () => load({ url: `${bareAddress}/repos/bench/busy/events`, headers }));
		results.feed = await withRss(serverPid, () => load({ url: `${api}/repos/bench/busy/events`, headers }));
		results.pollBare = await withRss(barePid, () =>
			load({ url: `${bareAddress}/repos/bench/busy/events`, headers: { ...headers, 'If-None-Match': 'W/"feed"' } }),
		);
		results.poll = await withRss(serverPid, () =>
			load({ url: `${api}/repos/bench/busy/events`, headers: { ...headers, 'If-None-Match': feedEtag } }),
		);
		// One second of each Gitstead load first, unmeasured, so the JIT has compiled the path.
		const warm = (options) => load({ ...options, duration: 1 });
		await warm({ url: issueUrl, headers });
		await warm({ url: issueUrl, headers: { ...headers, 'If-None-Match': oneEtag } });
		results.issueGetBare = await withRss(barePid, () => load({ url: `${bareAddress}/repos/bench/busy/issues/41`, headers }));
		results.issueGet = await withRss(serverPid, () => load({ url: issueUrl, headers }));
		results.issuePollBare = await withRss(barePid, () =>
			load({ url: `${bareAddress}/repos/bench/busy/issues/41`, headers: { ...headers, 'If-None-Match': 'W/"issue"' } }),
		);
		results.issuePoll = await withRss(serverPid, () => load({ url: issueUrl, headers: { ...headers, 'If-None-Match': oneEtag } }));
	}
	const plainBody = '{"title":"Bench issue [<id>]","body":"Steps: run **the bench** with `npm run bench` ([<id>])"}';
	if (postOnly)
		await load({ url: `${api}/repos/bench/plain/issues`, method: 'POST', headers, body: plainBody, idReplacement: true, duration: 2 });
	results.plainBare = await withRss(barePid, () =>
		load({ url: `${bareAddress}/repos/bench/plain/issues`, method: 'POST', headers, body: plainBody, idReplacement: true }),
	);
	results.plain = await withRss(serverPid, () =>
		load({ url: `${api}/repos/bench/plain/issues`, method: 'POST', headers, body: plainBody, idReplacement: true }),
	);
	if (process.env.BENCH_ONLY === 'core' || postOnly) {
		const rowsCore = [
			['GET /orgs/{org}/teams (30 teams, token)', results.read, results.readBare, listBytes, 0.85],
			['GET /repos/{owner}/{repo}/issues/{issue_number}', results.issueGet, results.issueGetBare, Buffer.byteLength(oneText), 0.5],
			['GET …/issues/{issue_number}, If-None-Match matching (304)', results.issuePoll, results.issuePollBare, 0, 0.7],
			[
				'POST /repos/{owner}/{repo}/issues (no hooks, no watchers)',
				results.plain,
				results.plainBare,
				Buffer.byteLength(plainText),
				0.25,
			],
		].filter((row) => row[1] !== undefined);
		printRows(rowsCore);
		gitstead.child.kill('SIGTERM');
		bare.child.kill('SIGTERM');
		await new Promise((r) => setTimeout(r, 300));
		rmSync(dir, { recursive: true, force: true });
		if (!postOnly && process.env.BENCH_ROUTES !== '0') await benchRoutes({ root });
		return;
	}
	results.writeBare = await withRss(barePid, () =>
		load({
			url: `${bareAddress}/orgs/writes/teams`,
			method: 'POST',
			headers,
			body: '{"name":"Team [<id>]","privacy":"closed"}',
			idReplacement: true,
		}),
	);
	results.write = await withRss(serverPid, () =>
		load({
			url: `${api}/orgs/writes/teams`,
			method: 'POST',
			headers,
			body: '{"name":"Team [<id>]","privacy":"closed"}',
			idReplacement: true,
		}),
	);
	// The write path: POST an issue with a short Markdown body (rendered and stored
	// with it), which records its event and fans it out in the same transaction: deliveries for 3
	// repository hooks (sent by the server's webhook-deliveries job to a loopback receiver in this
	// process while the load runs) and notification threads for 20 watchers.
	await json(`${api}/orgs/writes/repos`, token, 'POST', { name: 'tracker' });
	const issueReceiver = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(200);
			res.end('ok');
		});
	});
	await new Promise((r) => issueReceiver.listen(0, '127.0.0.1', r));
	const issueHooks = [];
	for (let i = 0; i < 3; i++) {
		issueHooks[i] = await json(`${api}/repos/writes/tracker/hooks`, token, 'POST', {
			name: 'web',
			events: ['issues'],
			config: { url: `http://127.0.0.1:${issueReceiver.address().port}/hook${i}`, content_type: 'json', secret: `bench${i}` },
		});
	}
	for (let i = 0; i < 20; i++) {
		const login = `watcher${String(i).padStart(2, '0')}`;
		cli('create-user', login);
		const watcherToken = /(ghp_[A-Za-z0-9]{36})/.exec(cli('create-token', login, '--scopes', 'repo,notifications').toString())[1];
		await json(`${api}/repos/writes/tracker/subscription`, watcherToken, 'PUT', { subscribed: true });
	}
	const issueBody = '{"title":"Bench issue [<id>]","body":"Steps: run **the bench** with `npm run bench` ([<id>])"}';
	const issue = await json(`${api}/repos/writes/tracker/issues`, token, 'POST', { title: 'Sample', body: 'Steps: run **the bench**' });
	const issueBytes = Buffer.byteLength(JSON.stringify(issue.body));
	results.issueBare = await withRss(barePid, () =>
		load({ url: `${bareAddress}/orgs/writes/teams`, method: 'POST', headers, body: issueBody, idReplacement: true }),
	);
	results.issue = await withRss(serverPid, () =>
		load({ url: `${api}/repos/writes/tracker/issues`, method: 'POST', headers, body: issueBody, idReplacement: true }),
	);
	// Deleting the hooks drops the deliveries still queued, so they do not load the runs below.
	for (const hook of issueHooks) await fetch(`${api}/repos/writes/tracker/hooks/${hook.body.id}`, { method: 'DELETE', headers });
	issueReceiver.close();
	issueReceiver.closeAllConnections();

	// Custom property definitions: GET one, and PATCH a batch of one new definition per request.
	await json(`${api}/orgs/bench/properties/schema/environment`, token, 'PUT', {
		value_type: 'single_select',
		allowed_values: ['production', 'staging', 'development'],
		default_value: 'production',
		required: true,
		description: 'Where the repository runs',
	});
	results.propertyGet = await withRss(serverPid, () => load({ url: `${api}/orgs/bench/properties/schema/environment`, headers }));
	results.propertyPatch = await withRss(serverPid, () =>
		load({
			url: `${api}/orgs/writes/properties/schema`,
			method: 'PATCH',
			headers,
			body: '{"properties":[{"property_name":"p[<id>]","value_type":"string","description":"bench"}]}',
			idReplacement: true,
		}),
	);

	// Webhook deliveries: a receiver on loopback (in this process, CPU 1); pings queue deliveries,
	// the server's webhook-deliveries job sends them (one hook: one attempt in flight at a time).
	const received = [];
	const receiver = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			received.push(performance.now());
			res.writeHead(200);
			res.end('ok');
		});
	});
	await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
	const hook = await json(`${api}/admin/hooks`, token, 'POST', {
		name: 'web',
		config: { url: `http://127.0.0.1:${receiver.address().port}/hook`, content_type: 'json', secret: 'bench' },
		events: ['team'],
	});
	const deliveries = Number(process.env.BENCH_DELIVERIES ?? 3000);
	await load({
		url: `${api}/admin/hooks/${hook.body.id}/pings`,
		method: 'POST',
		headers,
		amount: deliveries,
		connections: 8,
		duration: undefined,
	});
	const waitStart = Date.now();
	while (received.length < deliveries && Date.now() - waitStart < 120_000) await new Promise((r) => setTimeout(r, 50));
	receiver.close();
	const span = (received[received.length - 1] - received[0]) / 1000;
	results.deliveries = { count: received.length, perSecond: received.length / span };

	// Workflow runs: 100,000 runs imported through the CLI (demo data), then filtered lists.
	const runCount = Number(process.env.BENCH_RUNS ?? 100_000);
	await json(`${api}/orgs/bench/repos`, token, 'POST', { name: 'ci' });
	const actors = ['alice', 'bob', 'carol', 'dave'];
	for (const login of actors) cli('create-user', login);
	const branches = ['main', 'develop', 'release/1.x', 'feature/login', 'feature/search'];
	const events = ['push', 'pull_request', 'schedule', 'workflow_dispatch'];
	const conclusions = ['success', 'success', 'success', 'failure', 'cancelled', 'skipped'];
	const day0 = Date.UTC(2026, 7, 1);
	const runs = Array.from({ length: runCount }, (_, i) => ({
		path: i % 3 === 0 ? '.github/workflows/release.yml' : '.github/workflows/ci.yml',
		actor: actors[i % actors.length],
		branch: branches[(i * 7) % branches.length],
		event: events[(i * 3) % events.length],
		conclusion: conclusions[(i * 5) % conclusions.length],
		created_at: new Date(day0 + Math.floor((i / runCount) * 90 * 86_400_000)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
	}));
	const runsFile = join(dir, 'runs.json');
	writeFileSync(runsFile, JSON.stringify({ runs }));
	const importStarted = Date.now();
	cli('import-runs', 'bench/ci', runsFile);
	results.importSeconds = (Date.now() - importStarted) / 1000;
	const runLists = [
		['GET …/actions/runs?actor=&branch=&status=', `${api}/repos/bench/ci/actions/runs?actor=alice&branch=main&status=success`],
		[
			'GET …/actions/runs?created=2026-09-01..2026-09-15&event=push',
			`${api}/repos/bench/ci/actions/runs?created=2026-09-01..2026-09-15&event=push`,
		],
	];
	for (const [, url] of runLists) {
		const first = await json(url, token);
		if (!(first.body.total_count > 0)) throw new Error(`no runs match ${url}`);
	}
	results.runLists = [];
	for (const [name, url] of runLists) results.runLists.push([name, await withRss(serverPid, () => load({ url, headers }))]);

	// Dependency snapshots: a 1,000-dependency manifest submitted for the default branch (every
	// submission also recomputes the repository's dependabot alerts).
	const resolved = Object.fromEntries(
		Array.from({ length: 1000 }, (_, i) => [
			`package-${i}`,
			{
				package_url: `pkg:npm/package-${i}@1.${i % 10}.${i % 7}`,
				relationship: i % 4 ? 'indirect' : 'direct',
				scope: i % 5 ? 'runtime' : 'development',
			},
		]),
	);
	const snapshotBody = JSON.stringify({
		version: 0,
		job: { id: 'bench', correlator: 'bench-ci' },
		sha: 'a'.repeat(40),
		ref: 'refs/heads/main',
		detector: { name: 'bench-detector', version: '1.0.0', url: 'https://example.com/detector' },
		manifests: { 'package-lock.json': { name: 'package-lock.json', file: { source_location: 'package-lock.json' }, resolved } },
		scanned: '2026-11-22T12:00:00Z',
	});
	results.snapshotBytes = Buffer.byteLength(snapshotBody);
	results.snapshot = await withRss(serverPid, () =>
		load({ url: `${api}/repos/bench/ci/dependency-graph/snapshots`, method: 'POST', headers, body: snapshotBody, connections: 4 }),
	);

	const idle = readFileSync(`/proc/${serverPid}/status`, 'utf8');
	gitstead.child.kill('SIGTERM');
	bare.child.kill('SIGTERM');
	await new Promise((r) => setTimeout(r, 300));
	rmSync(dir, { recursive: true, force: true });

	const rows = [
		['GET /orgs/{org}/teams (30 teams, token)', results.read, results.readBare, listBytes, 0.85],
		['GET /repos/{owner}/{repo}/issues/{issue_number}', results.issueGet, results.issueGetBare, Buffer.byteLength(oneText), 0.5],
		['GET …/issues/{issue_number}, If-None-Match matching (304)', results.issuePoll, results.issuePollBare, 0, 0.7],
		['POST /repos/{owner}/{repo}/issues (no hooks, no watchers)', results.plain, results.plainBare, Buffer.byteLength(plainText), 0.25],
		['POST /orgs/{org}/teams', results.write, results.writeBare, createBytes, null],
		['POST /repos/{owner}/{repo}/issues (Markdown body; 3 hooks, 20 watchers)', results.issue, results.issueBare, issueBytes, 0.2],
		['GET /repos/{owner}/{repo}/events (30 events)', results.feed, results.feedBare, feedBytes, 0.5],
		['GET /repos/{owner}/{repo}/events, If-None-Match matching (304)', results.poll, results.pollBare, 0, 0.7],
	];
	printRows(rows);
	console.log('\n| endpoint | Gitstead req/s | p99 ms | CPU µs/req | RSS MB | non-2xx |');
	console.log('|---|---:|---:|---:|---:|---:|');
	for (const [name, ours] of [
		['GET /orgs/{org}/properties/schema/{name}', results.propertyGet],
		['PATCH /orgs/{org}/properties/schema (one new definition)', results.propertyPatch],
	]) {
		const a = summary(ours.result);
		console.log(
			`| ${name} | ${a.rps.toFixed(0)} | ${a.p99} | ${ours.cpuPerRequest.toFixed(0)} | ${ours.rss.toFixed(0)} | ${a.non2xx} |`,
		);
	}
	console.log(
		`\nWorkflow runs: ${runCount.toLocaleString('en')} runs imported with gitstead admin import-runs in ${results.importSeconds.toFixed(1)} s`,
	);
	console.log('\n| endpoint | Gitstead req/s | p99 ms | CPU µs/req | RSS MB | non-2xx |');
	console.log('|---|---:|---:|---:|---:|---:|');
	for (const [name, ours] of [
		...results.runLists,
		[
			`POST …/dependency-graph/snapshots (1,000 dependencies, ${(results.snapshotBytes / 1024).toFixed(0)} KB, 4 connections)`,
			results.snapshot,
		],
	]) {
		const a = summary(ours.result);
		console.log(
			`| ${name} | ${a.rps.toFixed(0)} | ${a.p99} | ${ours.cpuPerRequest.toFixed(0)} | ${ours.rss.toFixed(0)} | ${a.non2xx} |`,
		);
	}
	console.log(
		`\nWebhook deliveries to a loopback receiver: ${results.deliveries.count} delivered at ${results.deliveries.perSecond.toFixed(0)} deliveries/s (signed JSON, one hook: one attempt in flight)`,
	);
	console.log(`Gitstead RSS after the runs: ${(Number(/VmRSS:\s+(\d+)/.exec(idle)[1]) / 1024).toFixed(0)} MB`);
	const failed =
		rows.some(([, ours]) => summary(ours.result).non2xx > 0) ||
		[results.propertyGet, results.propertyPatch, results.snapshot, ...results.runLists.map(([, r]) => r)].some(
			(r) => summary(r.result).non2xx > 0,
		) ||
		results.deliveries.count < deliveries;
	if (failed) {
		console.error('some Gitstead responses were not 2xx');
		process.exitCode = 1;
	}
	// The second table: every GET route of the demo data, the ten most expensive (bench/routes.mjs).
	if (process.env.BENCH_ROUTES !== '0') await benchRoutes({ root });
	if (process.env.BENCH_GIT !== '0') {
		console.log('\nGit over HTTP against git itself (bench/git.mjs; BENCH_GIT=0 leaves it out):');
		await benchGit();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
