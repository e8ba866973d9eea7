// The cost of every GET route (npm run bench ends with it; runnable alone after npm run build):
// seeds the demo data (`gitstead admin seed-demo`), starts Gitstead on it (pinned to CPU 0 when
// taskset is there), walks the API from its entry points by following every API URL an answer
// names, fills the GET routes the walk did not reach with path parameters it saw, then loads each
// route that answered 200 for a short while (BENCH_ROUTE_MS, default 200 ms, twice, 4 connections) and
// prints the ten most expensive per request in server CPU time (its main thread's, from /proc;
// the cheaper of two runs).
//
// export: benchRoutes({ root, print }) → { routes, answered, top }
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const ROUTE_MS = Number(process.env.BENCH_ROUTE_MS ?? 200);
/** Distinct URLs walked per route template at most (lists of commits, runs … stay bounded). */
const PER_TEMPLATE = 3;
const WALK_LIMIT = 3000;

/**
 * CPU time of a process's main thread so far, in microseconds: /proc/PID/schedstat counts in
 * nanoseconds (the 10 ms ticks of /proc/PID/stat are too coarse for a short load); the thread that
 * runs JavaScript and SQLite is where a request's cost is.
 */
function cpuMicros(pid) {
	return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
}

/** A route template as a matcher: `/repos/{owner}/{repo}` → regex and parameter names. */
function matcher(path) {
	const names = [];
	const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name) => {
		names.push(name);
		// {path} and {ref} style parameters may hold slashes only as the last segment of some routes;
		// one segment is what the walk needs.
		return '([^/]+)';
	});
	return { path, names, regex: new RegExp(`^${source}$`), segments: path.split('/').length };
}

export async function benchRoutes({ root = resolve(here, '..'), print = true } = {}) {
	const bundle = join(root, 'build/gitstead.cjs');
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-routes-'));
	const data = join(dir, 'data');
	const seeded = execFileSync(process.execPath, [bundle, 'admin', 'seed-demo', '--data-dir', data], { encoding: 'utf8' });
	const token = /rosa-admin\s+(ghp_\w+)/.exec(seeded)?.[1];
	if (!token) throw new Error(`seed-demo printed no token:\n${seeded}`);
	const routes = JSON.parse(execFileSync(process.execPath, [bundle, 'routes', '--json'], { encoding: 'utf8' })).routes.filter(
		(r) => r.method === 'GET',
	);
	const matchers = routes.map((r) => matcher(r.path)).sort((a, b) => b.segments - a.segments);
	const templateOf = (path) => {
		// The most literal match wins: /repos/{owner}/{repo}/issues/events before …/issues/{issue_number}.
		let best = null;
		for (const m of matchers) {
			const found = m.regex.exec(path);
			if (!found) continue;
			const literal = m.path.replace(/\{\w+\}/g, '').length;
			if (!best || literal > best.literal) best = { m, found, literal };
		}
		return best;
	};

	let haveTaskset = false;
	try {
		execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
		haveTaskset = cpus().length > 1;
	} catch {}
	const args = [bundle, 'serve', '--port', '0', '--data-dir', data];
	const child = haveTaskset
		? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
		: spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
	let stderr = '';
	child.stderr.on('data', (d) => {
		if (stderr.length < 1 << 16) stderr += d;
	});
	const started = Date.now();
	let address;
	while (!(address = /listen=(http:\/\/\S+)/.exec(stderr)?.[1])) {
		if (Date.now() - started > 20000) throw new Error(`the server did not start:\n${stderr}`);
		await new Promise((r) => setTimeout(r, 20));
	}
	const api = `${address}/api/v3`;
	const headers = { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json' };

	// The walk: entry points, then every API URL an answer names (templated ones without their {…} part).
	const found = new Map(); // template → [{ url, status }]
	const params = new Map(); // parameter name → values seen in answered URLs
	const queue = [
		'/',
		'/user',
		'/user/repos',
		'/user/orgs',
		'/organizations',
		'/users',
		'/gists',
		'/notifications',
		'/enterprises/northwind',
	];
	const seen = new Set(queue);
	let walked = 0;
	const collect = (value) => {
		if (typeof value === 'string') {
			if (!value.startsWith(api)) return;
			const path = value
				.slice(api.length)
				.replace(/\{[^}]*\}/g, '')
				.split('?')[0];
			if (path && !seen.has(path)) {
				seen.add(path);
				queue.push(path);
			}
		} else if (Array.isArray(value)) for (const item of value.slice(0, 10)) collect(item);
		else if (value && typeof value === 'object') for (const item of Object.values(value)) collect(item);
	};
	while (queue.length && walked < WALK_LIMIT) {
		const path = queue.shift();
		const match = templateOf(path);
		if (!match) continue;
		const list = found.get(match.m.path) ?? [];
		if (list.length >= PER_TEMPLATE) continue;
		walked++;
		const res = await fetch(api + path, { headers });
		const text = await res.text();
		list.push({ url: path, status: res.status });
		found.set(match.m.path, list);
		if (res.status !== 200) continue;
		match.m.names.forEach((name, i) => {
			const values = params.get(name) ?? new Set();
			values.add(match.found[i + 1]);
			params.set(name, values);
		});
		if ((res.headers.get('content-type') ?? '').includes('json')) {
			try {
				collect(JSON.parse(text));
			} catch {}
		}
	}
	// Routes the walk did not answer: each parameter filled with values seen elsewhere.
	for (const m of matchers) {
		if (found.get(m.path)?.some((f) => f.status === 200)) continue;
		if (!m.names.every((name) => params.has(name))) continue;
		const choices = m.names.map((name) => [...params.get(name)].slice(0, 3));
		const tries = [];
		for (let i = 0; i < 3; i++)
			tries.push(m.path.replace(/\{(\w+)\}/g, (_m, name) => choices[m.names.indexOf(name)][i] ?? choices[m.names.indexOf(name)][0]));
		for (const url of new Set(tries)) {
			const res = await fetch(api + url, { headers });
			await res.arrayBuffer();
			const list = found.get(m.path) ?? [];
			list.push({ url, status: res.status });
			found.set(m.path, list);
			if (res.status === 200) break;
		}
	}

	// A short load of each route that answered 200 (its first such URL): server CPU per request.
	const load = (url, ms) =>
		new Promise((done, fail) =>
			autocannon({ url: api + url, headers, connections: 4, duration: ms / 1000 }, (e, r) => (e ? fail(e) : done(r))),
		);
	const answering = [...found].flatMap(([template, list]) => {
		const ok = list.find((f) => f.status === 200);
		return ok ? [[template, ok]] : [];
	});
	// Every route once first, unmeasured, so the JIT has compiled the shared path (the first routes
	// loaded would otherwise carry it).
	for (const [, ok] of answering) await load(ok.url, 100);
	const measured = [];
	for (const [template, ok] of answering) {
		// Twice, the cheaper kept: other work on the machine inflates a run, it never deflates one.
		let best = null;
		for (let run = 0; run < 2; run++) {
			const before = cpuMicros(child.pid);
			const result = await load(ok.url, ROUTE_MS);
			const requests = result.requests.total;
			const cpu = requests > 0 ? (cpuMicros(child.pid) - before) / requests : Infinity;
			if (!best || cpu < best.cpu) best = { result, requests, cpu };
		}
		const { result, requests } = best;
		if (requests > 0)
			measured.push({
				template,
				url: ok.url,
				requests,
				cpu: best.cpu,
				bytes: result.throughput.total / requests,
			});
	}
	child.kill('SIGTERM');
	await new Promise((r) => child.on('exit', r));
	rmSync(dir, { recursive: true, force: true });

	measured.sort((a, b) => b.cpu - a.cpu);
	const top = measured.slice(0, 10);
	if (print) {
		console.log(
			`\nGET routes in the demo data: ${measured.length} of ${routes.length} answered 200 and were loaded twice for ${ROUTE_MS} ms each (4 connections); the ten most expensive in CPU time of the server's main thread:\n`,
		);
		console.log('| route | URL | CPU µs/req | answer KB | requests |');
		console.log('|---|---|---:|---:|---:|');
		for (const r of top)
			console.log(`| ${r.template} | ${r.url} | ${r.cpu.toFixed(0)} | ${(r.bytes / 1024).toFixed(1)} | ${r.requests} |`);
		const median = measured[Math.floor(measured.length / 2)];
		if (median) console.log(`\nMedian route: ${median.cpu.toFixed(0)} µs per request (${median.template}).`);
	}
	return { routes: routes.length, answered: measured.length, top, measured };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await benchRoutes();
