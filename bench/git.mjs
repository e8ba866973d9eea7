// The git section of `npm run bench` (also `node bench/git.mjs` alone): a generated history of at
// least 50,000 objects (bench/git-history.mjs) pushed and cloned, once with git itself over file://
// (git push to a bare repository, git clone --no-local from it) and once against Gitstead over
// smart HTTP, in the same run. Prints the times, the pack a clone receives, the bytes stored (git:
// `git count-objects -v` size-pack after `git gc`; Gitstead: the pages of its git tables) and the
// server's peak RSS, with the ratios and the targets: push ≤ 3× git, clone ≤ 2× git, the clone's
// pack ≤ 1.5× git's, stored bytes ≤ 1.5× git's pack.
//
// Environment: BENCH_GIT_COMMITS (default 8000: about 70,000 objects).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { generatedHistory } from './git-history.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'build', 'gitstead.cjs');

const gitEnv = {
	PATH: process.env.PATH,
	HOME: tmpdir(),
	GIT_CONFIG_NOSYSTEM: '1',
	GIT_CONFIG_GLOBAL: '/dev/null',
	GIT_TERMINAL_PROMPT: '0',
};

function time(fn) {
	const started = process.hrtime.bigint();
	fn();
	return Number(process.hrtime.bigint() - started) / 1e6;
}

function git(args, cwd) {
	const result = spawnSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', maxBuffer: 1 << 28 });
	if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
	return result.stdout;
}

/** Bytes of the .pack files of a repository. */
function packBytes(gitDir) {
	const folder = join(gitDir, 'objects', 'pack');
	return readdirSync(folder)
		.filter((name) => name.endsWith('.pack'))
		.reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
}

/** Peak resident set of a process, in bytes (VmHWM). */
function peakRss(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { encoding: 'utf8', ...options });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
	return result.stdout;
}

async function startGitstead(dataDir) {
	const child = spawn(process.execPath, [bundle, 'serve', '--data-dir', dataDir, '--port', '0'], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env },
	});
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	const started = Date.now();
	for (;;) {
		const match = /listen"?[=:]"?(http:\/\/[^\s",]+)/.exec(output);
		if (match) return { child, address: match[1], output: () => output };
		if (Date.now() - started > 20_000) throw new Error(`Gitstead did not start:\n${output}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

/** Runs the git benchmark. @returns the rows printed */
export async function benchGit({ commits = Number(process.env.BENCH_GIT_COMMITS ?? 8000), print = console.log } = {}) {
	const history = generatedHistory({ commits });
	const work = mkdtempSync(join(tmpdir(), 'gitstead-bench-git-'));
	try {
		const refspecs = ['refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'];
		// git itself
		const bare = join(work, 'git.git');
		git(['init', '-q', '--bare', bare]);
		const gitPush = time(() => git(['push', '-q', `file://${bare}`, ...refspecs], history.dir));
		git(['gc', '-q'], bare);
		const gitStored = Number(/size-pack: (\d+)/.exec(git(['count-objects', '-v'], bare))[1]) * 1024;
		const gitCloneDir = join(work, 'git-clone.git');
		const gitClone = time(() => git(['clone', '-q', '--bare', '--no-local', `file://${bare}`, gitCloneDir], work));
		const gitPack = packBytes(gitCloneDir);

		// Gitstead
		const dataDir = join(work, 'data');
		run(process.execPath, [bundle, 'admin', 'init', '--data-dir', dataDir]);
		run(process.execPath, [bundle, 'admin', 'create-user', 'bench', '--data-dir', dataDir]);
		const token = run(process.execPath, [bundle, 'admin', 'create-token', 'bench', '--scopes', 'repo,workflow', '--data-dir', dataDir])
			.trim()
			.split(/\s+/)
			.find((word) => word.startsWith('ghp_'));
		const server = await startGitstead(dataDir);
		try {
			const made = await fetch(`${server.address}/api/v3/user/repos`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({ name: 'history' }),
			});
			if (made.status !== 201) throw new Error(`creating the repository: ${made.status} ${await made.text()}`);
			const remote = `${server.address.replace('http://', `http://x:${token}@`)}/bench/history.git`;
			const rssBefore = peakRss(server.child.pid);
			const ourPush = time(() => git(['push', '-q', remote, ...refspecs], history.dir));
			const rssPush = peakRss(server.child.pid);
			const ourCloneDir = join(work, 'our-clone.git');
			const ourClone = time(() => git(['clone', '-q', '--bare', '--no-local', remote, ourCloneDir], work));
			const rssClone = peakRss(server.child.pid);
			const ourPack = packBytes(ourCloneDir);
			const same = git(['for-each-ref'], ourCloneDir) === git(['for-each-ref'], gitCloneDir);
			const db = new Database(join(dataDir, 'gitstead.db'), { readonly: true });
			const ourStored = db
				.prepare(
					"SELECT sum(pgsize) FROM dbstat WHERE name IN ('git_objects', 'git_objects_oid', 'git_objects_commits', 'git_commit_parents', 'git_refs')",
				)
				.pluck()
				.get();
			db.close();
			const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
			const rows = [
				['git section', `${history.objects} objects, ${commits} commits (generated, ${mb(history.sizePack)} packed)`],
				['push', `git ${gitPush.toFixed(0)} ms, Gitstead ${ourPush.toFixed(0)} ms`, ourPush / gitPush, 3],
				['clone', `git ${gitClone.toFixed(0)} ms, Gitstead ${ourClone.toFixed(0)} ms`, ourClone / gitClone, 2],
				['pack a clone receives', `git ${mb(gitPack)}, Gitstead ${mb(ourPack)}`, ourPack / gitPack, 1.5],
				[
					'bytes stored',
					`git ${mb(gitStored)} (size-pack after git gc), Gitstead ${mb(ourStored)} (git tables)`,
					ourStored / gitStored,
					1.5,
				],
				['server peak RSS', `before ${mb(rssBefore)}, after the push ${mb(rssPush)}, after the clone ${mb(rssClone)}`],
				['refs identical', same ? 'yes' : 'NO'],
			];
			for (const [name, detail, ratio, target] of rows) {
				const verdict =
					ratio === undefined ? '' : ` → ${ratio.toFixed(2)}× (target ≤ ${target}×${ratio <= target ? ', met' : ', NOT met'})`;
				print(`${name.padEnd(24)} ${detail}${verdict}`);
			}
			return rows;
		} finally {
			server.child.kill('SIGTERM');
			await new Promise((r) => server.child.once('exit', r));
		}
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	execFileSync('git', ['--version']);
	await benchGit();
}
