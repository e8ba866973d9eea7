/**
 * Graceful shutdown of a real `gitstead serve` (the built bundle): requests in flight at SIGTERM
 * are answered in full, new connections are refused, idle keep-alive connections close at once,
 * the process exits 0 with its lock released and the WAL folded back; a request past the
 * deadline is cut and the process still exits; a second signal exits at once with status 1;
 * a webhook attempt in flight at the deadline is left due, not recorded.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { bundleCommand, serve, waitFor, type Served } from './helpers/cli';

const folders: string[] = [];
const folder = () => {
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-shutdown-'));
	folders.push(dir);
	return dir;
};
test.after(() => {
	for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const adminToken = (served: Served) => /\b(ghp_[A-Za-z0-9]+)/.exec(served.stdout())![1];
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Slow {
	socket: Socket;
	/** Sends the rest of the body. */
	finish(): void;
	/** The whole answer, once the server has closed the connection. */
	answer: Promise<string>;
	closed: () => boolean;
}

/** A POST whose headers and first half of the body are sent now, the rest on finish(). */
function slowPost(address: string, path: string, token: string, body: string): Promise<Slow> {
	const { hostname, port } = new URL(address);
	const half = Math.floor(body.length / 2);
	return new Promise((ready, fail) => {
		let answer = '';
		let closed = false;
		const socket = connect(Number(port), hostname, () => {
			socket.write(
				`POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
					`Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body.slice(0, half)}`,
			);
			ready({ socket, finish: () => socket.write(body.slice(half)), answer: done, closed: () => closed });
		});
		const done = new Promise<string>((resolve) => {
			socket.on('data', (chunk) => (answer += chunk));
			socket.on('close', () => {
				closed = true;
				resolve(answer);
			});
		});
		socket.on('error', fail);
	});
}

/** Status, headers (lower-cased) and body of a raw HTTP/1.1 answer with a Content-Length. */
function parse(answer: string): { status: number; headers: Record<string, string>; body: string } {
	const end = answer.indexOf('\r\n\r\n');
	const [statusLine, ...headerLines] = answer.slice(0, end).split('\r\n');
	const headers = Object.fromEntries(
		headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
	);
	return { status: Number(statusLine.split(' ')[1]), headers, body: answer.slice(end + 4) };
}

function exitOf(served: Served): Promise<number | null> {
	return new Promise((done) => {
		if (served.child.exitCode !== null) return done(served.child.exitCode);
		served.child.on('exit', (code) => done(code));
	});
}

test('SIGTERM with 20 requests in flight: all answered in full, new connections refused, idle ones closed, exit 0, lock released, WAL folded back', async () => {
	const dir = folder();
	const served = await serve(bundleCommand(), ['--data-dir', dir]);
	const token = adminToken(served);
	const { hostname, port } = new URL(served.address);
	// An idle keep-alive connection (one answered request on it).
	const idle = await new Promise<{ closed: () => boolean }>((ready) => {
		let closed = false;
		const socket = connect(Number(port), hostname, () => socket.write(`GET /api/v3/meta HTTP/1.1\r\nHost: x\r\n\r\n`));
		socket.once('data', () => ready({ closed: () => closed }));
		socket.on('close', () => (closed = true));
	});
	const requests = await Promise.all(
		Array.from({ length: 20 }, (_, i) =>
			slowPost(served.address, '/api/v3/user/repos', token, JSON.stringify({ name: `repo-${i}`, description: 'x'.repeat(200) })),
		),
	);
	await sleep(500); // the server has read every request's headers
	const signalled = Date.now();
	const exited = exitOf(served);
	served.child.kill('SIGTERM');
	await waitFor(() => /stopping \(SIGTERM\): draining 20 requests/.test(served.stderr()), 5000);
	await waitFor(() => idle.closed(), 2000);
	assert.ok(idle.closed(), '~> the idle keep-alive connection is closed at once');
	const refused = await new Promise<string>((done) => {
		const socket = connect(Number(port), hostname);
		socket.on('connect', () => {
			socket.destroy();
			done('connected');
		});
		socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
	});
	assert.is(refused, 'ECONNREFUSED', '~> new connections are refused while draining');
	assert.ok(
		requests.every((request) => !request.closed()),
		'~> the requests in flight are still open',
	);
	for (const request of requests) request.finish();
	const answers = (await Promise.all(requests.map((request) => request.answer))).map(parse);
	for (const [i, answer] of answers.entries()) {
		assert.is(answer.status, 201, `~> request ${i} answered 201: ${answer.body.slice(0, 200)}`);
		assert.is(answer.headers.connection, 'close', '~> with Connection: close');
		assert.is(Buffer.byteLength(answer.body), Number(answer.headers['content-length']), '~> the whole body');
		assert.is(JSON.parse(answer.body).name, `repo-${i}`);
		assert.ok(answer.headers['x-github-request-id'], '~> and a request id');
	}
	assert.is(await exited, 0, '~> exits 0');
	assert.ok(Date.now() - signalled < 10_000, '~> within the deadline');
	const stderr = served.stderr();
	assert.match(stderr, /answered 20 requests, server closed/);
	assert.match(stderr, /msg="database closed"/);
	assert.match(stderr, /msg="stopped in \d+ ms"/);
	assert.not.ok(existsSync(join(dir, 'gitstead.lock.json')), '~> the lock description is removed');
	const wal = join(dir, 'gitstead.db-wal');
	assert.ok(!existsSync(wal) || statSync(wal).size === 0, '~> no WAL left');
	const db = new Database(join(dir, 'gitstead.db'), { readonly: true });
	assert.is(
		(db.prepare("SELECT count(*) AS n FROM repositories WHERE name LIKE 'repo-%'").get() as { n: number }).n,
		20,
		'~> every write committed',
	);
	db.close();
	// The lock is free: a new server starts on the folder.
	const again = await serve(bundleCommand(), ['--data-dir', dir]);
	assert.is(await again.stop(), 0);
});

test('a request still running at the deadline is cut; the process still exits 0', async () => {
	const dir = folder();
	const served = await serve(bundleCommand(), ['--data-dir', dir, '--shutdown-timeout', '0.5']);
	const token = adminToken(served);
	const stuck = await slowPost(served.address, '/api/v3/user/repos', token, JSON.stringify({ name: 'never' }));
	await sleep(200);
	const signalled = Date.now();
	const exited = exitOf(served);
	served.child.kill('SIGTERM');
	assert.is(await exited, 0, '~> exits 0');
	assert.ok(Date.now() - signalled < 5000, `~> soon after the deadline (${Date.now() - signalled} ms)`);
	await stuck.answer;
	assert.ok(stuck.closed(), '~> the unanswered connection is closed');
	assert.match(served.stderr(), /shutdown deadline passed: closed 1 of 1 requests unanswered/);
	assert.match(
		served.stderr(),
		/msg=request .*route=\/user\/repos status=499 .*aborted=true/,
		`~> the cut request has its access line: ${served.stderr()}`,
	);
	assert.not.ok(existsSync(join(dir, 'gitstead.lock.json')), '~> the lock is released');
});

test('a second signal while draining exits at once with status 1', async () => {
	const dir = folder();
	const served = await serve(bundleCommand(), ['--data-dir', dir]);
	const token = adminToken(served);
	const stuck = await slowPost(served.address, '/api/v3/user/repos', token, JSON.stringify({ name: 'never' }));
	await sleep(200);
	const exited = exitOf(served);
	const signalled = Date.now();
	served.child.kill('SIGTERM');
	await waitFor(() => /draining 1 requests/.test(served.stderr()), 5000);
	served.child.kill('SIGINT');
	assert.is(await exited, 1, '~> status 1');
	assert.ok(Date.now() - signalled < 5000, '~> at once, not after the 10 s deadline');
	assert.match(served.stderr(), /received SIGINT again while stopping: exiting at once/);
	stuck.socket.destroy();
});

test('a webhook attempt in flight at the deadline is dropped unrecorded: the delivery stays due for the next start', async () => {
	const dir = folder();
	// A receiver that never answers.
	const held: IncomingMessage[] = [];
	const receiver = createServer((req) => void held.push(req));
	await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
	const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
	const { writeFileSync } = await import('node:fs');
	writeFileSync(join(dir, 'gitstead.toml'), '[webhooks]\nallowed_hosts = ["127.0.0.1"]\ntimeout_seconds = 60\n');
	const served = await serve(bundleCommand(), ['--data-dir', dir, '--shutdown-timeout', '1']);
	try {
		const token = adminToken(served);
		const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
		const repo = await fetch(`${served.address}/api/v3/user/repos`, {
			method: 'POST',
			headers: auth,
			body: JSON.stringify({ name: 'hooked' }),
		});
		assert.is(repo.status, 201);
		// Creating the hook queues its ping: the attempt starts and hangs on the receiver.
		const hook = await fetch(`${served.address}/api/v3/repos/admin/hooked/hooks`, {
			method: 'POST',
			headers: auth,
			body: JSON.stringify({ config: { url: receiverUrl, content_type: 'json' }, events: ['push'] }),
		});
		assert.is(hook.status, 201, await hook.text());
		await waitFor(() => held.length === 1, 5000);
		const exited = exitOf(served);
		served.child.kill('SIGTERM');
		assert.is(await exited, 0, '~> exits 0');
		assert.match(served.stderr(), /1 webhook attempts left due for the next start/);
	} finally {
		receiver.closeAllConnections();
		receiver.close();
	}
	const db = new Database(join(dir, 'gitstead.db'), { readonly: true });
	const deliveries = db.prepare("SELECT * FROM webhook_deliveries WHERE event = 'ping'").all() as Array<Record<string, unknown>>;
	db.close();
	assert.is(deliveries.length, 1);
	assert.is(deliveries[0].attempts, 0, '~> no attempt recorded');
	assert.is(deliveries[0].state, 'queued', '~> still queued: sent again at the next start');
});

test.run();
