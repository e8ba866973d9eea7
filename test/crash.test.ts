/**
 * Crash safety: a `serve` child process taking concurrent writes from several clients is killed
 * with SIGKILL, three times. After each kill every write that was answered 2xx is in the database,
 * `PRAGMA integrity_check` says ok, and a new server starts at once on the same folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleCommand, run, serve } from './helpers/cli';

const test = suite('crash');
const gitstead = bundleCommand();
const ROUNDS = 3;
const CLIENTS = 6;
let dir: string;
let config: string;

test.before(() => {
	dir = mkdtempSync(join(tmpdir(), 'gitstead-crash-'));
	config = join(dir, 'gitstead.toml');
	writeFileSync(config, `[storage]\ndata_dir = "${join(dir, 'data')}"\n[rate_limit]\nenabled = false\n`);
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

const admin = (...args: string[]) => {
	const result = run(gitstead, ['admin', ...args, '--config', config]);
	assert.is(result.code, 0, `~> admin ${args[0]}: ${result.stderr}`);
	return result.stdout;
};

/** Reads the team names straight from the file, read-only, and checks its integrity. */
function inspect(): { names: Set<string>; integrity: string } {
	const db = new Database(join(dir, 'data', 'gitstead.db'), { readonly: true, fileMustExist: true });
	try {
		const integrity = db.pragma('integrity_check', { simple: true }) as string;
		const names = new Set(db.prepare('SELECT name FROM teams').pluck().all() as string[]);
		return { names, integrity };
	} finally {
		db.close();
	}
}

test(`SIGKILL under concurrent writes, ${ROUNDS} times: every answered write survives, integrity ok`, async () => {
	admin('init');
	admin('create-user', 'kim');
	admin('create-org', 'kco', '--owner', 'kim');
	const token = JSON.parse(admin('create-token', 'kim', '--scopes', 'admin:org', '--json')).token as string;
	const acknowledged: string[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		const served = await serve(gitstead, ['--config', config]);
		const exited = new Promise((done) => served.child.once('exit', done));
		let killed = false;
		const unexpected: string[] = [];
		const client = async (c: number) => {
			for (let i = 0; !killed; i++) {
				const name = `r${round}-c${c}-${i}`;
				try {
					const res = await fetch(`${served.address}/api/v3/orgs/kco/teams`, {
						method: 'POST',
						headers: { Authorization: `Bearer ${token}` },
						body: JSON.stringify({ name }),
					});
					await res.arrayBuffer();
					if (res.status === 201) acknowledged.push(name);
					else unexpected.push(`${name}: ${res.status}`);
				} catch {
					return; // the connection died with the server
				}
			}
		};
		const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
		// Kill at a moment that varies from round to round, while every client has a write in flight.
		await new Promise((done) => setTimeout(done, 250 + round * 120));
		killed = true;
		served.child.kill('SIGKILL');
		await exited;
		await Promise.all(clients);
		assert.equal(unexpected, [], '~> no write failed while the server ran');
		const { names, integrity } = inspect();
		assert.is(integrity, 'ok', `~> round ${round}: integrity_check`);
		const lost = acknowledged.filter((name) => !names.has(name));
		assert.equal(lost, [], `~> round ${round}: every acknowledged write is there (${acknowledged.length} so far)`);
		assert.ok(
			acknowledged.some((name) => name.startsWith(`r${round}-`)),
			`~> round ${round} wrote something`,
		);
	}
	// A last start recovers the folder at once and serves everything written.
	const served = await serve(gitstead, ['--config', config]);
	try {
		const total = inspect().names.size;
		let listed = 0;
		for (let page = 1; ; page++) {
			const res = await fetch(`${served.address}/api/v3/orgs/kco/teams?per_page=100&page=${page}`, {
				headers: { Authorization: `Bearer ${token}` },
			});
			const teams = (await res.json()) as unknown[];
			listed += teams.length;
			if (teams.length < 100) break;
		}
		assert.is(listed, total, '~> the API lists what the file holds');
		assert.ok(total >= acknowledged.length);
	} finally {
		assert.is(await served.stop(), 0);
	}
});

test.run();
