/**
 * Write contention: `gitstead admin` commands succeed while the server takes concurrent writes
 * (every writing transaction begins IMMEDIATE and waits up to storage.busy_timeout_ms); past that
 * timeout a write request answers 503 with Retry-After and GitHub's error body, while reads go on.
 * CONTENTION_COMMANDS, CONTENTION_PARALLEL and CONTENTION_WRITERS scale the first test up for
 * measurements (e.g. CONTENTION_COMMANDS=165).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleCommand, run, runAsync, serve } from './helpers/cli';
import { startServer } from './helpers/server';

const test = suite('contention');
const gitstead = bundleCommand();
const COMMANDS = Number(process.env.CONTENTION_COMMANDS ?? 30);
const PARALLEL = Number(process.env.CONTENTION_PARALLEL ?? 3);
const WRITERS = Number(process.env.CONTENTION_WRITERS ?? 4);
let dir: string;
let config: string;

test.before(() => {
	dir = mkdtempSync(join(tmpdir(), 'gitstead-contention-'));
	config = join(dir, 'gitstead.toml');
	writeFileSync(config, `[storage]\ndata_dir = "${join(dir, 'data')}"\n[rate_limit]\nenabled = false\n`);
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test(`${COMMANDS} admin commands (${PARALLEL} at a time) beside ${WRITERS} writing API clients all succeed`, async () => {
	const admin = (...args: string[]) => run(gitstead, ['admin', ...args, '--config', config]);
	assert.is(admin('init').code, 0);
	assert.is(admin('create-user', 'kim').code, 0);
	assert.is(admin('create-org', 'kco', '--owner', 'kim').code, 0);
	const token = JSON.parse(admin('create-token', 'kim', '--scopes', 'admin:org', '--json').stdout).token as string;
	const served = await serve(gitstead, ['--config', config]);
	let done = false;
	let answered = 0;
	const refused: string[] = [];
	const writer = async (w: number) => {
		for (let i = 0; !done; i++) {
			const res = await fetch(`${served.address}/api/v3/orgs/kco/teams`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${token}` },
				body: JSON.stringify({ name: `w${w}-${i}` }),
			});
			await res.arrayBuffer();
			if (res.status === 201) answered++;
			else refused.push(String(res.status));
		}
	};
	const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
	try {
		await new Promise((wait) => setTimeout(wait, 100)); // the load is on
		const failures: string[] = [];
		let next = 0;
		const worker = async () => {
			while (next < COMMANDS) {
				const i = next++;
				const args = i % 2 === 0 ? ['create-user', `load${i}`] : ['create-token', 'kim', '--scopes', 'read:org'];
				const result = await runAsync(gitstead, ['admin', ...args, '--config', config]);
				if (result.code !== 0) failures.push(`${args.join(' ')}: ${result.stderr.trim()}`);
			}
		};
		await Promise.all(Array.from({ length: PARALLEL }, worker));
		assert.equal(failures, [], `~> ${failures.length} of ${COMMANDS} admin commands failed`);
	} finally {
		done = true;
		await Promise.all(writers);
		await served.stop();
	}
	assert.ok(answered > 0, '~> the API took writes meanwhile');
	assert.equal(refused, [], '~> and refused none');
});

test('past storage.busy_timeout_ms a write answers 503 with Retry-After; reads go on; then writes resume', async () => {
	const s = await startServer({ configure: (c) => (c.storage.busy_timeout_ms = 200) });
	s.user('kim');
	s.org('kco', 'kim');
	const token = s.fullToken('kim');
	const blocker = new Database(join(s.dataDir, 'gitstead.db'));
	try {
		blocker.exec('BEGIN IMMEDIATE');
		const started = Date.now();
		const refused = await s.request('POST', '/orgs/kco/teams', { token, body: { name: 'Blocked' } });
		const ms = Date.now() - started;
		assert.is(refused.status, 503);
		assert.ok(Number(refused.headers.get('retry-after')) >= 1, '~> Retry-After');
		assert.equal(Object.keys(refused.body).sort(), ['documentation_url', 'message', 'status']);
		assert.is(refused.body.status, '503');
		assert.match(refused.body.message, /^Service Unavailable/);
		assert.ok(ms >= 190 && ms < 2000, `~> waited about the configured 200 ms (${ms} ms)`);
		const read = await s.get('/orgs/kco/teams', token);
		assert.is(read.status, 200, '~> a reader is not blocked by the writer (WAL)');
		assert.is(read.body.length, 0);
		blocker.exec('ROLLBACK');
		const created = await s.request('POST', '/orgs/kco/teams', { token, body: { name: 'Unblocked' } });
		assert.is(created.status, 201, '~> writes resume once the lock is released');
	} finally {
		if (blocker.inTransaction) blocker.exec('ROLLBACK');
		blocker.close();
		await s.close();
	}
});

test('group commit: concurrent writes of one turn commit together, each all-or-nothing; a 201 is on disk when it arrives', async () => {
	const s = await startServer();
	s.user('kim');
	s.org('kco', 'kim');
	const token = s.fullToken('kim');
	const reader = new Database(join(s.dataDir, 'gitstead.db'), { readonly: true });
	try {
		// 24 creations at once, two of them the same name: one of those two is refused (422), alone.
		const names = Array.from({ length: 24 }, (_, i) => (i === 23 ? 'Team 0' : `Team ${i}`));
		const answers = await Promise.all(
			names.map(async (name) => {
				const res = await s.request('POST', '/orgs/kco/teams', { token, body: { name } });
				// Another connection sees the team as soon as the answer arrives: answers wait for the commit.
				const stored =
					res.status === 201 ? reader.prepare('SELECT count(*) FROM teams WHERE slug = ?').pluck().get(res.body.slug) : null;
				return { name, status: res.status, stored };
			}),
		);
		assert.equal(answers.filter((a) => a.status === 201).length, 23, '~> every other creation succeeded');
		assert.equal(answers.filter((a) => a.status === 422).length, 1, '~> the duplicate alone was refused');
		assert.ok(
			answers.every((a) => a.status !== 201 || a.stored === 1),
			'~> each 201 was committed before it was sent',
		);
		assert.is(
			reader.prepare("SELECT count(*) FROM teams t JOIN accounts o ON o.id = t.org_id WHERE o.login = 'kco'").pluck().get(),
			23,
		);
		const events = reader.prepare("SELECT count(*) FROM events WHERE event = 'team' AND action = 'created'").pluck().get();
		assert.is(events, 23, '~> one event per team created: the refused write left none behind');
	} finally {
		reader.close();
		await s.close();
	}
});

test.run();
