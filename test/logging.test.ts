/**
 * Logs of a real `gitstead serve` (the built bundle): JSON lines with --log-format json, logfmt by
 * default, --log-level; one access-log line per request whose request id is the answer's
 * X-GitHub-Request-Id and whose route is the template; credentials never written; a 500's stack
 * logged once with its request id.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { bundleCommand, serve, type Served } from './helpers/cli';

const folders: string[] = [];
const folder = () => {
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-logging-'));
	folders.push(dir);
	return dir;
};
test.after(() => {
	for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The token `serve` prints once for the bootstrapped administrator. */
const adminToken = (served: Served) => /\b(ghp_[A-Za-z0-9]+)/.exec(served.stdout())![1];

/** Sends one request; returns status, the request id header and the body text. */
async function call(address: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
	const res = await fetch(`${address}${path}`, { method, headers, body });
	const text = await res.text();
	return { status: res.status, id: res.headers.get('x-github-request-id'), text };
}

/** Writes raw bytes on a new connection and reads the answer until the server closes it. */
function raw(address: string, bytes: string): Promise<string> {
	const { hostname, port } = new URL(address);
	return new Promise((done, fail) => {
		const socket = connect(Number(port), hostname, () => socket.write(bytes));
		let answer = '';
		socket.on('data', (chunk) => (answer += chunk));
		socket.on('close', () => done(answer));
		socket.on('error', fail);
	});
}

/** key=value pairs of a logfmt line (values may be JSON-quoted). */
function logfmt(line: string): Record<string, string> {
	const out: Record<string, string> = {};
	const pair = /([A-Za-z0-9_.-]+)=("(?:[^"\\]|\\.)*"|\S*)/g;
	let rest = line;
	for (let match = pair.exec(line); match; match = pair.exec(line)) {
		out[match[1]] = match[2].startsWith('"') ? (JSON.parse(match[2]) as string) : match[2];
		rest = rest.replace(match[0], '');
	}
	assert.is(rest.trim(), '', `~> nothing but key=value pairs in: ${line}`);
	return out;
}

const lines = (stderr: string) => stderr.split('\n').filter((line) => line !== '');

test('json: every line is JSON; one access line per request, its request id the answer’s, its route the template; no credential written', async () => {
	const dir = folder();
	const served = await serve(bundleCommand(), ['--data-dir', dir, '--log-format', 'json']);
	const token = adminToken(served);
	const ids: string[] = [];
	const expect: Array<{ route: string; status: number }> = [];
	const track = async (route: string, request: Promise<{ status: number; id: string | null }>) => {
		const res = await request;
		assert.ok(res.id, `~> ${route}: the answer carries X-GitHub-Request-Id`);
		ids.push(res.id!);
		expect.push({ route, status: res.status });
		return res;
	};
	try {
		const auth = { Authorization: `Bearer ${token}` };
		await track(
			'/user',
			call(served.address, 'GET', '/api/v3/user?access_token=SECRET-QUERY-TOKEN&client_secret=SECRET-CLIENT', {
				...auth,
				Cookie: 'session=SECRET-COOKIE',
			}),
		);
		await track(
			'/repos/{owner}/{repo}/issues/{issue_number}',
			call(served.address, 'GET', '/api/v3/repos/admin/missing/issues/7', auth),
		);
		await track(
			'/user/repos',
			call(served.address, 'POST', '/api/v3/user/repos', { ...auth, 'Content-Type': 'application/json' }, '{"name":"demo"}'),
		);
		await track(
			'/repos/{owner}/{repo}',
			call(served.address, 'GET', '/repos/admin/demo?token=SECRET-TOKEN-PARAM', { Authorization: `token ${token}` }),
		);
		await track(
			'/users/{username}',
			call(served.address, 'GET', '/api/v3/users/admin', { Authorization: 'Bearer ghp_NotARealTokenButSecretLooking0000000' }),
		);
		await track('unmatched', call(served.address, 'GET', '/api/v3/no/such/thing?code=SECRET-CODE&state=SECRET-STATE'));
		await track('preflight', call(served.address, 'OPTIONS', '/api/v3/user'));
		await track('web:avatar', call(served.address, 'GET', '/avatars/u/1'));
		await track('web:feed', call(served.address, 'GET', '/timeline'));
		await track(
			'web:codeload',
			call(served.address, 'GET', `/_codeload/admin/demo/legacy.tar.gz/${'0'.repeat(40)}?token=SECRET-CODELOAD`),
		);
		const forged = await track('/meta', call(served.address, 'GET', '/api/v3/meta', { 'X-Request-Id': 'forged-by-the-client' }));
		assert.is.not(forged.id, 'forged-by-the-client', '~> X-Request-Id from a peer that is not a trusted proxy is ignored');
		await track('unmatched', call(served.address, 'GET', `/api/v3/${'x'.repeat(9000)}`));
		const tooLarge = await raw(
			served.address,
			`POST /api/v3/user/repos HTTP/1.1\r\nHost: x\r\nContent-Length: ${6 * 1024 * 1024}\r\n\r\n`,
		);
		assert.match(tooLarge, /^HTTP\/1\.1 413 /, '~> a body over the limit: 413');
		ids.push(/X-GitHub-Request-Id: (\S+)/i.exec(tooLarge)![1]);
		expect.push({ route: 'unmatched', status: 413 });
		const garbage = await raw(served.address, 'NOT HTTP AT ALL\r\n\r\n');
		const garbageId = /X-GitHub-Request-Id: (\S+)/i.exec(garbage)?.[1];
		assert.match(garbage, /^HTTP\/1\.1 400 /, '~> a request Node cannot parse: 400');
		assert.ok(garbageId, '~> with a request id');
		ids.push(garbageId!);
		expect.push({ route: 'unparsed', status: 400 });
	} finally {
		assert.is(await served.stop(), 0, '~> stops with status 0');
	}
	const stderr = served.stderr();
	const entries = lines(stderr).map((line) => {
		try {
			return JSON.parse(line) as Record<string, unknown>;
		} catch {
			throw new Error(`not a JSON line: ${line}`);
		}
	});
	for (const entry of entries) {
		assert.type(entry.time, 'string', '~> every entry has a time');
		assert.ok(['debug', 'info', 'warn', 'error'].includes(entry.level as string), '~> and a level name');
		assert.type(entry.msg, 'string', '~> and a message');
	}
	const access = entries.filter((entry) => entry.msg === 'request');
	assert.equal(
		access.map((entry) => entry.request_id).sort(),
		[...ids].sort(),
		'~> one access line per request, with the request id of its answer',
	);
	for (const [i, id] of ids.entries()) {
		const entry = access.find((line) => line.request_id === id)!;
		assert.is(entry.route, expect[i].route, `~> request ${i}: the route template`);
		assert.is(entry.status, expect[i].status, `~> request ${i}: the status`);
		assert.type(entry.ms, 'number', '~> duration in ms');
		assert.ok((entry.bytes as number) > 0, '~> bytes sent');
		assert.is(entry.ip, '127.0.0.1', '~> the client address');
	}
	const user = access.find((entry) => entry.route === '/user')!;
	assert.is(user.auth, 'classic', '~> the token kind');
	assert.is(user.login, 'admin', '~> the user');
	assert.is(user.user_id, 1);
	assert.type(user.token_id, 'number', '~> the token id');
	assert.is(user.rate, 'core', '~> the rate-limit resource');
	assert.is(access.find((entry) => entry.route === '/users/{username}')!.status, 401, '~> a bad token is refused');
	assert.ok(!access.some((entry) => JSON.stringify(entry).includes('/repos/admin/')), '~> never the raw path');
	for (const secret of [token, 'SECRET', 'ghp_NotARealToken']) {
		assert.not.ok(stderr.includes(secret), `~> "${secret.slice(0, 12)}…" appears nowhere in the log`);
	}
	assert.ok(
		entries.some((entry) => /^stopped in \d+ ms$/.test(entry.msg as string)),
		'~> the shutdown is logged',
	);
});

test('logfmt by default: time=… level=… msg=… key=value; --log-level warn drops the info lines', async () => {
	const dir = folder();
	const served = await serve(bundleCommand(), ['--data-dir', dir, '--trusted-proxies', '127.0.0.1']);
	const res = await call(served.address, 'GET', '/api/v3/users/admin?access_token=SECRET', { 'X-Request-Id': 'proxy-id-42' });
	assert.is(res.id, 'proxy-id-42', '~> a trusted proxy’s X-Request-Id is adopted');
	assert.is(await served.stop(), 0);
	const parsed = lines(served.stderr()).map(logfmt);
	for (const entry of parsed) {
		assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, '~> ISO time first');
		assert.ok(['debug', 'info', 'warn', 'error'].includes(entry.level), '~> a level');
		assert.type(entry.msg, 'string');
	}
	assert.match(
		lines(served.stderr())[0],
		/^time=\S+ level=info msg="Gitstead \S+ serving http:\S+" listen=http:/,
		'~> time, level, msg first',
	);
	const access = parsed.filter((entry) => entry.msg === 'request');
	assert.is(access.length, 1, '~> one access line');
	assert.is(access[0].request_id, res.id, '~> with the answer’s request id');
	assert.is(access[0].route, '/users/{username}');
	assert.is(access[0].status, '200');
	assert.not.ok(served.stderr().includes('SECRET'), '~> no query secret');

	// --log-level warn: the server runs, and writes nothing below warn (not even its address).
	const quiet = folder();
	const port = await freePort();
	const { spawn } = await import('node:child_process');
	const [node, bundle] = bundleCommand();
	const child = spawn(node, [...bundle, 'serve', '--data-dir', quiet, '--port', String(port), '--log-level', 'warn']);
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const exited = new Promise<number | null>((done) => child.on('exit', done));
	const address = `http://127.0.0.1:${port}`;
	const until = Date.now() + 15_000;
	let answered = false;
	while (!answered && Date.now() < until) {
		answered = await fetch(`${address}/api/v3/meta`).then(
			(r) => r.ok,
			() => false,
		);
		if (!answered) await new Promise((done) => setTimeout(done, 50));
	}
	assert.ok(answered, '~> the server answers');
	child.kill('SIGTERM');
	assert.is(await exited, 0);
	assert.is(stderr, '', '~> no info line at --log-level warn');
});

test('a 500 logs its stack once, with the request id of the answer; the access line has status 500', async () => {
	const dir = folder();
	const served = await serve(bundleCommand(), ['--data-dir', dir, '--log-format', 'json']);
	const token = adminToken(served);
	try {
		// A table renamed behind the server's back: the gists list fails inside its handler.
		const db = new Database(join(dir, 'gitstead.db'));
		db.pragma('busy_timeout = 5000');
		db.exec('ALTER TABLE gists RENAME TO gists_gone');
		db.close();
		const res = await call(served.address, 'GET', '/api/v3/gists?access_token=SECRET', { Authorization: `Bearer ${token}` });
		assert.is(res.status, 500, res.text);
		assert.is(JSON.parse(res.text).request_id, res.id, '~> the body names the request id');
		assert.not.ok(res.text.includes('gists_gone') || res.text.includes('no such table'), '~> no error detail in the answer');
	} finally {
		await served.stop();
	}
	const entries = lines(served.stderr()).map((line) => JSON.parse(line) as Record<string, any>);
	const errors = entries.filter((entry) => entry.level === 'error');
	assert.is(errors.length, 1, '~> one error line');
	const id = entries.find((entry) => entry.msg === 'request' && entry.route === '/gists')!.request_id;
	assert.is(errors[0].request_id, id, '~> with the request id');
	assert.match(errors[0].error.stack, /no such table: gists/, '~> and the stack');
	assert.match(errors[0].error.stack, /\n\s+at /);
	assert.is(entries.filter((entry) => JSON.stringify(entry).includes('no such table')).length, 1, '~> the stack is written once');
	assert.is(entries.find((entry) => entry.request_id === id && entry.msg === 'request')!.status, 500);
	assert.not.ok(served.stderr().includes('SECRET') || served.stderr().includes(token), '~> no credential');
});

function freePort(): Promise<number> {
	return new Promise((done) => {
		const server = createServer();
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => done(port));
		});
	});
}

test.run();
