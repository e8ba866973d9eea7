/**
 * Repository statistics (GET /repos/{owner}/{repo}/stats/contributors, commit_activity,
 * code_frequency, participation, punch_card) over a history pushed with git: authors with accounts
 * and without, time zones, an empty commit and a merge. 202 with {} while the background task
 * computes, 200 after, again 202 once the default branch moves; 204 for an empty repository;
 * code_frequency 422 at 10,000 commits. PyGithub's get_stats_* (asked again while they answer
 * None, PyGithub's reading of 202) where python3-github is installed. Skipped without git.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../src/api/users/service';
import { gitIn, hasGit, needsGit, writeTree } from './helpers/git';
import { startServer, type TestServer } from './helpers/server';

const test = suite('repo-stats');
let s: TestServer;
let work: string;
let alice: string;
let git: ReturnType<typeof gitIn>['git'];

// Weeks (Sunday 00:00 UTC, epoch seconds) of the history; the test clock is Sunday 2026-11-22 12:00 UTC.
const W1 = Date.UTC(2026, 10, 1) / 1000;
const W2 = W1 + 604800;
const W3 = W2 + 604800;

const STATS = '/repos/alice/insights/stats';

/** Who made each commit, when (git's ISO dates with the author's zone). */
const PEOPLE = {
	alice: { GIT_AUTHOR_NAME: 'Alice', GIT_AUTHOR_EMAIL: 'alice@example.com' },
	bob: { GIT_AUTHOR_NAME: 'Bob', GIT_AUTHOR_EMAIL: 'bob@example.com' },
	anon: { GIT_AUTHOR_NAME: 'Anonymous', GIT_AUTHOR_EMAIL: 'anon@elsewhere.example' },
};

async function ok(args: string[], env: Record<string, string> = {}, cwd = join(work, 'insights')): Promise<string> {
	const result = await git(args, cwd, env);
	assert.is(result.status, 0, `git ${args.join(' ')}: ${result.err}`);
	return result.out.trim();
}

/** Commits everything staged as `who` at `date` (author and committer date). */
async function commit(who: keyof typeof PEOPLE, date: string, message: string, files: Record<string, string> | null) {
	if (files) writeTree(join(work, 'insights'), files);
	await ok(['add', '-A']);
	await ok(['commit', '-q', ...(files ? [] : ['--allow-empty']), '-m', message], {
		...PEOPLE[who],
		GIT_AUTHOR_DATE: date,
		GIT_COMMITTER_DATE: date,
	});
}

const url = (repo: string) => `${s.origin.replace('http://', `http://x-access-token:${alice}@`)}/alice/${repo}.git`;

/** Asks until the answer is no longer 202, running the background tasks between the asks. */
async function settled(path: string, token?: string) {
	for (let i = 0; i < 50; i++) {
		const res = await s.get(path, token);
		if (res.status !== 202) return res;
		await s.app.tasks.runDue();
	}
	throw new Error(`${path}: still 202`);
}

test.before(async () => {
	if (!hasGit) return;
	s = await startServer();
	createUser(s.app, { login: 'alice', email: 'alice@example.com' });
	createUser(s.app, { login: 'bob', email: 'bob@example.com' });
	s.user('stranger');
	alice = s.fullToken('alice');
	work = mkdtempSync(join(tmpdir(), 'gitstead-stats-'));
	git = gitIn(work).git;
	assert.is((await s.request('POST', '/user/repos', { token: alice, body: { name: 'insights' } })).status, 201);
	await ok(['init', '-q', join(work, 'insights')], {}, work);
	await commit('alice', '2026-11-02T09:30:00+02:00', 'Start', { 'a.txt': '1\n2\n3\n' });
	await commit('bob', '2026-11-03T23:15:00-05:00', 'Change two, add b', { 'a.txt': '1\nTWO\n3\n', 'b.txt': 'x\ny\n' });
	await commit('anon', '2026-11-10T12:00:00+00:00', 'Add c', { 'c.txt': 'c\n' });
	await commit('alice', '2026-11-11T12:00:00+00:00', 'Nothing', null);
	await ok(['checkout', '-q', '-b', 'topic']);
	await commit('alice', '2026-11-12T08:00:00+00:00', 'Trim a', { 'a.txt': '1\n' });
	await ok(['checkout', '-q', 'main']);
	await commit('bob', '2026-11-16T10:00:00+00:00', 'Add d', { 'd.txt': 'd\n' });
	await ok(['merge', '-q', '--no-ff', '-m', 'Merge topic', 'topic'], {
		...PEOPLE.alice,
		GIT_AUTHOR_DATE: '2026-11-17T10:00:00+00:00',
		GIT_COMMITTER_DATE: '2026-11-17T10:00:00+00:00',
	});
	await commit('alice', '2026-11-18T10:00:00+00:00', 'Add e', { 'e.txt': 'e\nf\n' });
});

test.after(async () => {
	if (!hasGit) return;
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

if (needsGit(test, 'repo-stats')) {
	test('an empty repository: 204 (participation: zeros)', async () => {
		for (const kind of ['contributors', 'commit_activity', 'code_frequency', 'punch_card']) {
			const res = await s.get(`${STATS}/${kind}`, alice);
			assert.is(res.status, 204, kind);
			assert.is(res.text, '');
		}
		const participation = await s.get(`${STATS}/participation`, alice);
		assert.is(participation.status, 200);
		assert.equal(participation.body.all, new Array(52).fill(0));
	});

	test('202 with {} while computing (the task queued), then 200', async () => {
		await ok(['push', '-q', url('insights'), 'main']);
		await s.app.tasks.runDue();
		const first = await s.get(`${STATS}/contributors`, alice);
		assert.is(first.status, 202);
		assert.equal(first.body, {});
		const done = await settled(`${STATS}/contributors`, alice);
		assert.is(done.status, 200);
	});

	test("contributors: accounts only, fewest commits first, every week's additions, deletions and commits (merges and empty commits left out)", async () => {
		const res = await settled(`${STATS}/contributors`, alice);
		assert.is(res.status, 200);
		assert.equal(
			res.body.map((c: { author: { login: string }; total: number }) => [c.author.login, c.total]),
			[
				['bob', 2],
				['alice', 3],
			],
		);
		assert.equal(res.body[0].weeks, [
			{ w: W1, a: 3, d: 1, c: 1 },
			{ w: W2, a: 0, d: 0, c: 0 },
			{ w: W3, a: 1, d: 0, c: 1 },
		]);
		assert.equal(res.body[1].weeks, [
			{ w: W1, a: 3, d: 0, c: 1 },
			{ w: W2, a: 0, d: 2, c: 1 },
			{ w: W3, a: 2, d: 0, c: 1 },
		]);
		assert.is(res.body[1].author.id, s.app.stores.accounts.user('alice')!.id);
		assert.ok(res.body[1].author.avatar_url);
	});

	test('code_frequency: [week, additions, -deletions] from the first week to the last', async () => {
		const res = await settled(`${STATS}/code_frequency`, alice);
		assert.is(res.status, 200);
		assert.equal(res.body, [
			[W1, 6, -1],
			[W2, 1, -2],
			[W3, 3, 0],
		]);
	});

	test('commit_activity: 52 weeks ending with the current one, commits per UTC day from Sunday', async () => {
		const res = await settled(`${STATS}/commit_activity`, alice);
		assert.is(res.status, 200);
		assert.is(res.body.length, 52);
		assert.is(res.body[51].week, W3 + 604800, 'the current week last');
		assert.equal(res.body[48], { days: [0, 1, 0, 1, 0, 0, 0], total: 2, week: W1 });
		assert.equal(res.body[49], { days: [0, 0, 1, 1, 1, 0, 0], total: 3, week: W2 });
		assert.equal(res.body[50], { days: [0, 1, 0, 1, 0, 0, 0], total: 2, week: W3 });
		assert.is(
			res.body.reduce((sum: number, week: { total: number }) => sum + week.total, 0),
			7,
			'every commit but the merge',
		);
	});

	test("participation: the last 52 weeks to today's UTC midnight, everyone's and the owner's", async () => {
		const res = await settled(`${STATS}/participation`, alice);
		assert.is(res.status, 200);
		assert.is(res.body.all.length, 52);
		assert.equal(res.body.all.slice(49), [2, 3, 2]);
		assert.equal(res.body.owner.slice(49), [1, 2, 1]);
		assert.is(
			res.body.all.reduce((a: number, b: number) => a + b, 0),
			7,
		);
	});

	test("punch_card: 168 [day, hour, commits], each commit at its author's local time", async () => {
		const res = await settled(`${STATS}/punch_card`, alice);
		assert.is(res.status, 200);
		assert.is(res.body.length, 168);
		const at = (day: number, hour: number) => res.body[day * 24 + hour];
		assert.equal(at(1, 9), [1, 9, 1], 'Monday 09:30 +02:00');
		assert.equal(at(2, 23), [2, 23, 1], 'Tuesday 23:15 -05:00');
		assert.equal(at(1, 7), [1, 7, 0], 'not its UTC hour');
		assert.equal(at(4, 8), [4, 8, 1]);
		assert.is(
			res.body.reduce((sum: number, row: number[]) => sum + row[2], 0),
			7,
		);
	});

	test('a push to the default branch: 202 again, then the new history; readers of a public repository may ask, a private one is 404', async () => {
		await commit('bob', '2026-11-19T10:00:00+00:00', 'Add f', { 'f.txt': 'f\n' });
		await ok(['push', '-q', url('insights'), 'main']);
		const again = await s.get(`${STATS}/contributors`, alice);
		assert.is(again.status, 202);
		const res = await settled(`${STATS}/contributors`);
		assert.equal(
			res.body.map((c: { author: { login: string }; total: number }) => [c.author.login, c.total]),
			[
				['alice', 3],
				['bob', 3],
			],
			'ties: the older account first',
		);
		assert.is((await s.request('PATCH', '/repos/alice/insights', { token: alice, body: { private: true } })).status, 200);
		assert.is((await s.get(`${STATS}/punch_card`, s.fullToken('stranger'))).status, 404);
		assert.is((await s.get(`${STATS}/punch_card`)).status, 404);
		assert.is((await s.request('PATCH', '/repos/alice/insights', { token: alice, body: { private: false } })).status, 200);
	});

	test('PyGithub: get_stats_contributors, _commit_activity, _code_frequency, _participation, _punch_card', async () => {
		const python = ['python3', '/usr/bin/python3'].find((candidate) => {
			try {
				execFileSync(candidate, ['-c', 'import github'], { stdio: 'ignore' });
				return true;
			} catch {
				return false;
			}
		});
		if (!python) {
			console.log('repo-stats: no python3 imports PyGithub (apt-get install python3-github); its part skipped');
			return;
		}
		// A fresh push first, so PyGithub meets the 202s itself.
		await commit('alice', '2026-11-20T09:00:00+00:00', 'Add g', { 'g.txt': 'g\n' });
		await ok(['push', '-q', url('insights'), 'main']);
		// Gitstead's job runner is not started by the test server: run the background tasks while PyGithub asks.
		const runner = setInterval(() => void s.app.tasks.runDue(), 50);
		const { stdout } = await promisify(execFile)(
			python,
			[join(__dirname, 'fixtures', 'pygithub', 'stats.py'), `${s.origin}/api/v3`, alice, 'alice/insights'],
			{ encoding: 'utf8', timeout: 60_000 },
		)
			.catch((error: { stderr?: string; message: string }) => {
				throw new Error(`stats.py failed: ${error.stderr || error.message}`);
			})
			.finally(() => clearInterval(runner));
		const out = JSON.parse(stdout);
		assert.equal(out.contributors, [
			{
				login: 'bob',
				total: 3,
				weeks: [
					[W1, 3, 1, 1],
					[W3, 2, 0, 2],
				],
			},
			{
				login: 'alice',
				total: 4,
				weeks: [
					[W1, 3, 0, 1],
					[W2, 0, 2, 1],
					[W3, 3, 0, 2],
				],
			},
		]);
		assert.is(out.activity_weeks, 52);
		assert.is(out.activity_total, 9);
		assert.equal(out.frequency, [
			[W1, 6, -1],
			[W2, 1, -2],
			[W3, 5, 0],
		]);
		assert.equal(out.participation, { all: 9, owner: 5, weeks: 52 });
		assert.is(out.punch_monday_9, 1);
	});

	test('10,000 commits: code_frequency 422, contributors without additions and deletions', async () => {
		assert.is((await s.request('POST', '/user/repos', { token: alice, body: { name: 'big' } })).status, 201);
		const dir = join(work, 'big');
		await ok(['init', '-q', dir], {}, work);
		// 10,000 commits by alice, one a minute, through fast-import.
		let stream = '';
		for (let i = 0; i < 10_000; i++) {
			const line = `${i}\n`;
			stream += `commit refs/heads/main\ncommitter Alice <alice@example.com> ${1790000000 + i * 60} +0000\ndata 4\nbump\n`;
			stream += `M 100644 inline n.txt\ndata ${Buffer.byteLength(line)}\n${line}\n`;
		}
		const started = Date.now();
		execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream, env: { ...gitIn(work).env() } });
		await ok(['push', '-q', url('big'), 'main'], {}, dir);
		await s.app.tasks.runDue();
		const frequency = await settled('/repos/alice/big/stats/code_frequency', alice);
		assert.is(frequency.status, 422, frequency.text);
		assert.match(frequency.body.message, '10,000 or more commits');
		const contributors = await settled('/repos/alice/big/stats/contributors', alice);
		assert.is(contributors.status, 200);
		assert.is(contributors.body[0].total, 10_000);
		assert.ok(contributors.body[0].weeks.every((w: { a: number; d: number }) => w.a === 0 && w.d === 0));
		console.log(`repo-stats: 10,000 commits pushed, indexed and counted in ${Date.now() - started} ms`);
	});
}

test.run();
