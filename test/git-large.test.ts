/**
 * Git pushes at scale, against the single-file bundle as a separate process (slow: run by
 * `npm run test:slow`): a 100 MB pack is indexed with memory far below its size while reads go on
 * being answered; a server killed (SIGKILL) in the middle of pushes comes back with no reference
 * at a missing object, `gitstead admin check` clean, and takes the push again.
 * Skipped when git is not installed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleCommand, run, serve, type Served } from './helpers/cli';
import { gitIn, hasGit, needsGit } from './helpers/git';

const test = suite('git-large');
const gitstead = bundleCommand();
let work: string;
let git: ReturnType<typeof gitIn>['git'];

/** Resident and peak resident memory of a process, in bytes. */
function memory(pid: number): { rss: number; peak: number } {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
	return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** A data folder with user `bench` and a classic token; returns the token. */
function prepare(dataDir: string): string {
	run(gitstead, ['admin', 'init', '--data-dir', dataDir]);
	run(gitstead, ['admin', 'create-user', 'bench', '--data-dir', dataDir]);
	const out = run(gitstead, ['admin', 'create-token', 'bench', '--scopes', 'repo,workflow', '--data-dir', dataDir]).stdout;
	return out.split(/\s+/).find((word) => word.startsWith('ghp_'))!;
}

async function createRepo(server: Served, token: string, name: string): Promise<void> {
	const res = await fetch(`${server.address}/api/v3/user/repos`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ name }),
	});
	assert.is(res.status, 201, await res.text());
}

test.before(() => {
	if (!hasGit) return;
	work = mkdtempSync(join(tmpdir(), 'gitstead-large-'));
	git = gitIn(work).git;
});
test.after(() => {
	if (work) rmSync(work, { recursive: true, force: true });
});

if (needsGit(test, 'git-large')) {
	test('a 100 MB pack: indexed with memory well under its size, reads answered meanwhile', async () => {
		const dataDir = join(work, 'big-data');
		const token = prepare(dataDir);
		const server = await serve(gitstead, ['--data-dir', dataDir]);
		try {
			await createRepo(server, token, 'big');
			const source = join(work, 'big-src');
			mkdirSync(source);
			await git(['init', '-q', source]);
			// 1,600 files of 64 KiB of random bytes: git cannot compress them, so the pack is ~100 MB.
			for (let i = 0; i < 1600; i++) writeFileSync(join(source, `file-${i}.bin`), randomBytes(64 * 1024));
			await git(['add', '-A'], source);
			await git(['commit', '-q', '-m', 'Big'], source);
			const before = memory(server.child.pid!);
			const latencies: number[] = [];
			let pushing = true;
			const poll = (async () => {
				while (pushing) {
					const started = performance.now();
					const res = await fetch(`${server.address}/api/v3/repos/bench/big`, { headers: { Authorization: `Bearer ${token}` } });
					await res.arrayBuffer();
					latencies.push(performance.now() - started);
					await new Promise((resolve) => setTimeout(resolve, 25));
				}
			})();
			const remote = `${server.address.replace('http://', `http://x:${token}@`)}/bench/big.git`;
			const pushed = await git(['push', remote, 'main'], source);
			pushing = false;
			await poll;
			assert.is(pushed.status, 0, pushed.err);
			const after = memory(server.child.pid!);
			const packBytes = 1600 * 64 * 1024;
			const growth = after.peak - before.rss;
			console.log(
				`git-large: 100 MB push: server RSS ${Math.round(before.rss / 1048576)} MB before, peak ${Math.round(after.peak / 1048576)} MB (growth ${Math.round(growth / 1048576)} MB); ` +
					`reads during the push: ${latencies.length}, slowest ${Math.round(Math.max(...latencies))} ms`,
			);
			// The peak also covers the code index's background pass over the pushed files, which starts
			// as the push ends and reads each blob once (freed by V8's collections, not at once): on a
			// busy machine it overlaps the end of the push. Whole-pack buffering would exceed the pack.
			assert.ok(growth < packBytes * 0.75, `~> memory grew by ${Math.round(growth / 1048576)} MB, well under the pack's 100 MB`);
			assert.ok(latencies.length >= 5, '~> reads were answered during the push');
			assert.ok(Math.max(...latencies) < 1000, `~> no read waited a second (slowest ${Math.round(Math.max(...latencies))} ms)`);
			const clone = join(work, 'big-clone');
			const cloned = await git(['clone', '-q', '--no-local', remote, clone]);
			assert.is(cloned.status, 0, cloned.err);
			assert.is((await git(['rev-parse', 'HEAD'], clone)).out, (await git(['rev-parse', 'HEAD'], source)).out, '~> the same commit');
		} finally {
			await server.stop();
		}
	});

	test('SIGKILL during pushes: no reference at a missing object, admin check clean, the push goes through after', async () => {
		const { generatedHistory } = await import('../bench/git-history.mjs');
		const history = generatedHistory({ commits: 2000, files: 300 });
		const dataDir = join(work, 'crash-data');
		const token = prepare(dataDir);
		let server = await serve(gitstead, ['--data-dir', dataDir]);
		await createRepo(server, token, 'crash');
		for (const delay of [150, 500, 1200]) {
			const remote = `${server.address.replace('http://', `http://x:${token}@`)}/bench/crash.git`;
			const pushing = git(['push', '-q', remote, 'refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'], history.dir);
			await new Promise((resolve) => setTimeout(resolve, delay));
			const exited = new Promise((resolve) => server.child.once('exit', resolve));
			server.child.kill('SIGKILL');
			await exited;
			await pushing;
			const check = run(gitstead, ['admin', 'check', '--json', '--data-dir', dataDir]);
			const report = JSON.parse(check.stdout) as { findings: Array<{ severity: string; message: string }> };
			assert.equal(
				report.findings.filter((finding) => finding.severity === 'error'),
				[],
				`~> killed after ${delay} ms: admin check finds nothing wrong`,
			);
			server = await serve(gitstead, ['--data-dir', dataDir]);
		}
		const remote = `${server.address.replace('http://', `http://x:${token}@`)}/bench/crash.git`;
		const pushed = await git(['push', '-q', remote, 'refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'], history.dir);
		assert.is(pushed.status, 0, `~> the push goes through after the crashes: ${pushed.err}`);
		const clone = join(work, 'crash-clone.git');
		const cloned = await git(['clone', '-q', '--bare', '--no-local', remote, clone]);
		assert.is(cloned.status, 0, cloned.err);
		assert.is((await git(['fsck', '--strict', '--no-dangling'], clone)).out, '', '~> the clone is complete and clean');
		assert.is(
			(await git(['for-each-ref'], clone)).out,
			(await git(['for-each-ref', 'refs/heads', 'refs/tags'], history.dir)).out,
			'~> every reference as pushed',
		);
		await server.stop();
	});
}

test.run();
