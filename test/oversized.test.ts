/**
 * Oversized requests (server.max_url_bytes, server.max_header_bytes): a long URL answers 414, a
 * large header block 431, an unparsable request 400, all with GitHub's error body, and the server
 * keeps answering afterwards.
 */
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('oversized');
let s: TestServer;
let small: TestServer;

test.before(async () => {
	s = await startServer();
	s.user('octocat');
	small = await startServer({
		configure: (c) => {
			c.server.max_url_bytes = 1024;
			c.server.max_header_bytes = 2048;
		},
	});
});
test.after(async () => {
	await s.close();
	await small.close();
});

const errorShape = (body: any, status: number, message: string) => {
	assert.equal(Object.keys(body).sort(), ['documentation_url', 'message', 'status']);
	assert.is(body.message, message);
	assert.is(body.status, String(status));
	assert.match(body.documentation_url, /^https:\/\/docs\.github\.com\//);
};

/** Sends raw bytes and reads until the server closes or `ms` pass. */
function raw(origin: string, text: string, ms = 2000): Promise<string> {
	const { hostname, port } = new URL(origin);
	return new Promise((resolve) => {
		const socket = connect(Number(port), hostname);
		let received = '';
		const done = () => {
			socket.destroy();
			resolve(received);
		};
		socket.on('data', (chunk) => (received += chunk));
		socket.on('end', done);
		socket.on('error', done);
		socket.setTimeout(ms, done);
		socket.write(text);
	});
}

test("a 20 KB URL answers 414 URI Too Long with GitHub's error body", async () => {
	const res = await s.get(`/users/${'a'.repeat(20_000)}`);
	assert.is(res.status, 414);
	errorShape(res.body, 414, 'URI Too Long');
	assert.ok(res.headers.get('x-github-request-id'));
	assert.is((await s.get('/users/octocat')).status, 200, '~> the server keeps answering');
});

test("a 40 KB header answers 431, as does a 20 KB one below Node's own limit", async () => {
	for (const size of [40_000, 20_000]) {
		const res = await s.get('/users/octocat', undefined, { 'X-Padding': 'p'.repeat(size) });
		assert.is(res.status, 431, `~> ${size} bytes`);
		errorShape(res.body, 431, 'Request Header Fields Too Large');
	}
	assert.is((await s.get('/users/octocat')).status, 200, '~> the server keeps answering');
});

test("a URL past Node's limit for URL and headers together still answers 414", async () => {
	const res = await s.get(`/users/${'a'.repeat(30_000)}`);
	assert.is(res.status, 414);
	errorShape(res.body, 414, 'URI Too Long');
});

test('limits come from the configuration; just below them is served', async () => {
	assert.is((await small.get(`/users/${'a'.repeat(1100)}`)).status, 414);
	assert.is((await small.get(`/users/${'a'.repeat(900)}`)).status, 404, '~> a long URL under the limit is routed');
	assert.is((await small.get('/meta', undefined, { 'X-Padding': 'p'.repeat(2100) })).status, 431);
	assert.is((await small.get('/meta', undefined, { 'X-Padding': 'p'.repeat(1500) })).status, 200);
});

test("an unparsable request answers 400 with GitHub's error body and the connection closes", async () => {
	const answer = await raw(s.origin, 'GET /meta HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
	assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
	assert.match(answer, /\r\nConnection: close\r\n/);
	const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
	errorShape(body, 400, 'Problems parsing the request');
	assert.is((await s.get('/users/octocat')).status, 200);
});

test.run();
