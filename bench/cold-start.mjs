// npm run bench:cold-start: how long `node build/gitstead.cjs serve` takes from exec to its first
// answers, on an existing data folder (the demo data, seeded once): the first GET /healthz, then the
// first web page a browser asks for (GET / with Accept: text/html), then its stylesheet. Each of
// BENCH_STARTS runs (default 10) spawns the server on a free port and polls every millisecond.
// Prints the median and the best run, and the server's CPU time (user + system, 10 ms ticks) until
// then, which other load on the machine disturbs less. The target is ≤ 150 ms to the first answer.
// Each start is paired with one of the floor: this machine's node serving one answer from a one-line
// node:http server, exec to first answer, the part of a start no Gitstead change can remove.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'build/gitstead.cjs');
const STARTS = Number(process.env.BENCH_STARTS ?? 10);
// BENCH_EXECUTABLE=dist/gitstead (after ./build.sh): time the single executable instead of node + bundle.
const EXECUTABLE = process.env.BENCH_EXECUTABLE ? resolve(process.env.BENCH_EXECUTABLE) : null;

const freePort = () =>
	new Promise((done) => {
		const server = createServer();
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => done(port));
		});
	});

/** One GET; resolves the status and body, or null when nothing listens yet. */
const get = (port, path, headers = {}) =>
	new Promise((done) => {
		const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
			let body = '';
			res.on('data', (chunk) => (body += chunk));
			res.on('end', () => done({ status: res.statusCode, body }));
		});
		req.on('error', () => done(null));
		req.end();
	});

/** Polls until the server answers; throws when it exits first (a data folder newer than it, a taken port…). */
async function until(port, path, headers, child) {
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null)
			throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before answering ${path}`);
		const res = await get(port, path, headers);
		if (res) return res;
		await new Promise((done) => setTimeout(done, 1));
	}
}

async function once(data) {
	const port = await freePort();
	const started = performance.now();
	const serveArgs = ['serve', '--port', String(port), '--data-dir', data];
	const child = EXECUTABLE
		? spawn(EXECUTABLE, serveArgs, { stdio: ['ignore', 'ignore', 'pipe'] })
		: spawn(process.execPath, [bundle, ...serveArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
	try {
		await until(port, '/healthz', {}, child).catch((error) => {
			throw new Error(`${error.message}\n${stderr}`);
		});
		const first = performance.now() - started;
		const firstCpu = cpuMs(child.pid);
		const page = await until(port, '/', { Accept: 'text/html' }, child);
		const pageMs = performance.now() - started;
		const css = /href="(\/_assets\/[^"]+\.css)"/.exec(page.body)?.[1];
		// As a browser asks for it: compressed.
		if (css) await until(port, css, { 'Accept-Encoding': 'br, gzip' }, child);
		const cssMs = performance.now() - started;
		const pageCpu = cpuMs(child.pid);
		return { first, pageMs, cssMs, firstCpu, pageCpu };
	} finally {
		await stop(child);
	}
}

/** The floor: exec of this node with a one-line node:http server, to its first answer (ms wall, CPU). */
async function floorOnce() {
	const port = await freePort();
	const started = performance.now();
	const source = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`;
	const child = spawn(process.execPath, ['-e', source], { stdio: 'ignore' });
	try {
		await until(port, '/healthz', {}, child);
		return { first: performance.now() - started, firstCpu: cpuMs(child.pid) };
	} finally {
		await stop(child);
	}
}

/** Stops a server this benchmark started, unless it has exited. */
async function stop(child) {
	if (child.exitCode !== null || child.signalCode !== null) return;
	child.kill('SIGTERM');
	await new Promise((done) => child.on('exit', done));
}

/** CPU time (user + system) a process has used, in ms (less sensitive than wall time to other load on the machine). */
function cpuMs(pid) {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in clock ticks (100/s)
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-cold-'));
	const data = join(dir, 'data');
	try {
		execFileSync(process.execPath, [bundle, 'admin', 'seed-demo', '--json', '--data-dir', data], { stdio: 'ignore' });
		await once(data); // the first start after seeding warms the OS file cache
		const runs = [];
		const floor = [];
		for (let i = 0; i < STARTS; i++) {
			runs.push(await once(data));
			floor.push(await floorOnce());
		}
		const row = (label, key, of = runs) =>
			console.log(
				`${label.padEnd(40)} median ${median(of.map((r) => r[key]))
					.toFixed(0)
					.padStart(4)} ms   best ${Math.min(...of.map((r) => r[key]))
					.toFixed(0)
					.padStart(4)} ms`,
			);
		console.log(`${EXECUTABLE ?? `node ${bundle}`} serve on the demo data, ${STARTS} starts (exec → answer):`);
		row('first answer (GET /healthz)', 'first');
		row('first web page (GET /, text/html)', 'pageMs');
		row('its stylesheet (GET /_assets/…css, br)', 'cssMs');
		row('server CPU time to the first answer', 'firstCpu');
		row('server CPU time to the first web page', 'pageCpu');
		console.log(`the floor, ${process.execPath} -e with a one-line node:http server, paired with each start:`);
		row('first answer', 'first', floor);
		row('CPU time to the first answer', 'firstCpu', floor);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

await main();
