/**
 * One server per data folder (src/db/lock.ts): a second `serve` on the same folder exits at once,
 * naming the first; the lock dies with its process, so a restart right after SIGKILL works at once;
 * admin commands run beside a serving server; a clean stop releases the lock.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { acquireDataDirLock, LOCK_DESCRIPTION_FILE, readLockHolder } from '../src/db/lock';
import { bundleCommand, run, serve, type Served } from './helpers/cli';

const test = suite('lock');
const gitstead = bundleCommand();
let dir: string;
let data: string;
const running: Served[] = [];

test.before(() => {
	dir = mkdtempSync(join(tmpdir(), 'gitstead-lock-'));
	data = join(dir, 'data');
});
test.after(async () => {
	for (const served of running) if (served.child.exitCode === null && served.child.signalCode === null) await served.stop();
	rmSync(dir, { recursive: true, force: true });
});

const start = async () => {
	const served = await serve(gitstead, ['--data-dir', data]);
	running.push(served);
	return served;
};

test('a second serve on the same folder exits at once, naming the first', async () => {
	const first = await start();
	const started = Date.now();
	const second = run(gitstead, ['serve', '--port', '0', '--data-dir', data]);
	const ms = Date.now() - started;
	assert.is(second.code, 1);
	assert.is(second.stdout, '');
	const line = second.stderr;
	assert.match(
		line,
		/^gitstead: error: the data folder \S+ is in use by another Gitstead server \([^\n]+\); stop it first, or choose another --data-dir\n$/,
	);
	assert.ok(line.includes(`pid ${first.child.pid} on host ${hostname()}`), `~> names the holder: ${line}`);
	assert.ok(line.includes(`listening on ${first.address}`), '~> and its address');
	assert.match(line, /started \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
	assert.ok(ms < 15_000, `~> exits at once (${ms} ms, including Node's start; a stale-lock timeout would take far longer)`);
	const admin = run(gitstead, ['admin', 'create-user', 'beside', '--data-dir', data]);
	assert.is(admin.code, 0, `~> admin commands take no lock: ${admin.stderr}`);
});

test('after SIGKILL a new serve starts at once; a clean stop releases the lock', async () => {
	const first = running[0];
	first.child.kill('SIGKILL');
	await new Promise((done) =>
		first.child.exitCode !== null || first.child.signalCode !== null ? done(null) : first.child.once('exit', done),
	);
	assert.ok(existsSync(join(data, LOCK_DESCRIPTION_FILE)), '~> the killed holder left its description behind');
	const killed = Date.now();
	const second = await start();
	const ms = Date.now() - killed;
	assert.ok(ms < 15_000, `~> started in ${ms} ms, with no stale-lock timeout`);
	const res = await fetch(`${second.address}/api/v3/users/beside`);
	assert.is(res.status, 200);
	assert.is(await second.stop(), 0);
	assert.not.ok(existsSync(join(data, LOCK_DESCRIPTION_FILE)), '~> a clean stop removes the description');
	const third = await start();
	assert.is(await third.stop(), 0, '~> and the lock is free again');
});

test('a description left by a dead process does not stand in for a holder', async () => {
	const folder = join(dir, 'stale');
	mkdirSync(folder);
	const dead = spawnSync(process.execPath, ['-e', '']).pid;
	const stale = { pid: dead, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', listen: 'http://127.0.0.1:1', version: 'old' };
	writeFileSync(join(folder, LOCK_DESCRIPTION_FILE), JSON.stringify(stale));
	const lock = await acquireDataDirLock(folder, 'test');
	assert.is(readLockHolder(folder)?.pid, process.pid, '~> the free lock is taken and described anew');
	lock.setListen('http://127.0.0.1:2');
	assert.is(readLockHolder(folder)?.listen, 'http://127.0.0.1:2');
	lock.release();
	lock.release();
	assert.is(readLockHolder(folder), null);
});

test.run();
