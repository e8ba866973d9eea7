/**
 * Fetching over smart HTTP in the shapes CI systems and large-repository users ask for
 * (src/api/git/upload-pack.ts, rev-list.ts): protocol v2's ls-refs and fetch, shallow clones and
 * their deepening (--depth, --deepen, --shallow-since, --shallow-exclude, --unshallow), partial
 * clones (--filter=blob:none, blob:limit, tree:0) with their lazy fetches, and a fetch of one
 * commit by id as actions/checkout does. Each result is checked with the machine's git.
 * Skipped when git is not installed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gitIn, hasGit, needsGit, writeTree } from './helpers/git';
import { startServer, type TestServer } from './helpers/server';

const test = suite('git-fetch');
let s: TestServer;
let work: string;
let git: ReturnType<typeof gitIn>['git'];
let token: string;
let source: string;
/** Commit ids of the source's main branch, oldest first. */
const commits: string[] = [];

const url = (repo = 'deep') => `${s.origin.replace('http://', `http://x-access-token:${token}@`)}/octo/${repo}.git`;

async function ok(args: string[], cwd = work, env: Record<string, string> = {}): Promise<string> {
	const result = await git(args, cwd, env);
	assert.is(result.status, 0, `~> git ${args.join(' ')} succeeds: ${result.err}`);
	return result.out;
}

const count = async (dir: string, rev = 'HEAD') => Number((await ok(['rev-list', '--count', rev], dir)).trim());

test.before(async () => {
	if (!hasGit) return;
	s = await startServer();
	s.user('octo');
	token = s.fullToken('octo');
	work = mkdtempSync(join(tmpdir(), 'gitstead-fetch-'));
	git = gitIn(work).git;
	const made = await s.request('POST', '/user/repos', { token, body: { name: 'deep', private: true } });
	assert.is(made.status, 201);
	source = join(work, 'source');
	await ok(['init', '-q', source]);
	// Ten commits a day apart (committer dates from 2026-01-01), each changing a big and a small file.
	for (let i = 0; i < 10; i++) {
		writeTree(source, {
			'big.txt': `${'big line\n'.repeat(2000)}version ${i}\n`,
			[`small-${i}.txt`]: `small ${i}\n`,
			'dir/nested/file.txt': `nested ${i}\n`,
		});
		await ok(['add', '-A'], source);
		const date = `2026-01-${String(i + 1).padStart(2, '0')}T12:00:00Z`;
		await ok(['commit', '-q', '-m', `Commit ${i}`], source, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
		commits.push((await ok(['rev-parse', 'HEAD'], source)).trim());
	}
	await ok(['tag', '-a', '-m', 'first', 'v0', commits[0]], source);
	await ok(['branch', 'old', commits[3]], source);
	await ok(['push', '-q', url(), 'main', 'old', '--tags'], source);
});

test.after(async () => {
	if (!hasGit) return;
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

if (needsGit(test, 'git-fetch')) {
	test('protocol v2: ls-refs with prefixes, symrefs and peeled tags (git ls-remote)', async () => {
		const v2 = await ok(['-c', 'protocol.version=2', 'ls-remote', '--symref', url()]);
		assert.match(v2, `ref: refs/heads/main\tHEAD`, '~> HEAD names its branch');
		assert.match(v2, `${commits[9]}\trefs/heads/main`);
		assert.match(v2, `${commits[0]}\trefs/tags/v0^{}`, '~> the annotated tag peeled');
		const heads = await ok(['-c', 'protocol.version=2', 'ls-remote', '--heads', url()]);
		assert.not.match(heads, 'refs/tags/', '~> ref-prefix keeps to the branches');
		const res = await fetch(`${s.origin}/octo/deep.git/info/refs?service=git-upload-pack`, {
			headers: { 'Git-Protocol': 'version=2', Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
		});
		const text = await res.text();
		assert.match(text, 'version 2', '~> the v2 capability advertisement');
		assert.match(text, 'fetch=shallow wait-for-done filter');
		assert.match(text, 'ls-refs=unborn');
	});

	test('shallow clones: --depth, then --deepen, --shallow-since, --shallow-exclude and --unshallow', async () => {
		for (const version of ['0', '2']) {
			const dir = join(work, `shallow-v${version}`);
			await ok(['-c', `protocol.version=${version}`, 'clone', '-q', '--depth=1', '--no-local', url(), dir]);
			assert.is(await count(dir), 1, `~> v${version}: --depth=1 brings one commit`);
			assert.is((await ok(['rev-parse', 'HEAD'], dir)).trim(), commits[9]);
			assert.is(await ok(['fsck', '--no-dangling'], dir), '');
			await ok(['-c', `protocol.version=${version}`, 'fetch', '-q', '--deepen=2'], dir);
			assert.is(await count(dir), 3, `~> v${version}: --deepen=2 adds two`);
			await ok(['-c', `protocol.version=${version}`, 'fetch', '-q', '--shallow-since=2026-01-05T00:00:00Z'], dir);
			assert.is(
				await count(dir),
				6,
				`~> v${version}: --shallow-since keeps the commits from 2026-01-05 on (a date without a time is that day at the current time of day, so the test names midnight)`,
			);
			await ok(['-c', `protocol.version=${version}`, 'fetch', '-q', '--shallow-exclude=old'], dir);
			assert.is(await count(dir), 6, `~> v${version}: --shallow-exclude=old leaves out old's history`);
			await ok(['-c', `protocol.version=${version}`, 'fetch', '-q', '--unshallow'], dir);
			assert.is(await count(dir), 10, `~> v${version}: --unshallow brings the whole history`);
			assert.is(await ok(['fsck', '--strict', '--no-dangling'], dir), '', `~> v${version}: complete and clean`);
		}
	});

	test('one commit fetched by id with depth 1, as actions/checkout does', async () => {
		const dir = join(work, 'checkout');
		await ok(['init', '-q', dir]);
		await ok(['remote', 'add', 'origin', url()], dir);
		await ok(
			['-c', 'protocol.version=2', 'fetch', '--no-tags', '--prune', '--depth=1', 'origin', `+${commits[5]}:refs/remotes/origin/main`],
			dir,
		);
		await ok(['checkout', '-q', '--force', '-B', 'main', 'refs/remotes/origin/main'], dir);
		assert.is((await ok(['rev-parse', 'HEAD'], dir)).trim(), commits[5], '~> the commit asked for, not a tip');
		assert.is(await count(dir), 1);
		const v0 = join(work, 'checkout-v0');
		await ok(['init', '-q', v0]);
		await ok(['-c', 'protocol.version=0', 'fetch', '-q', '--depth=1', url(), commits[2]], v0);
		assert.is((await ok(['rev-parse', 'FETCH_HEAD'], v0)).trim(), commits[2], '~> protocol v0 too (allow-reachable-sha1-in-want)');
	});

	test('partial clones: blob:none fetches blobs lazily, blob:limit leaves big ones out, tree:0 only commits', async () => {
		const none = join(work, 'blobless');
		await ok(['clone', '-q', '--filter=blob:none', '--no-checkout', '--no-local', url(), none]);
		const missing = await ok(['rev-list', '--objects', '--all', '--missing=print'], none);
		assert.ok(missing.split('\n').filter((line) => line.startsWith('?')).length > 10, '~> blobs are missing (promised)');
		await ok(['checkout', '-q', 'main'], none);
		assert.match(await ok(['show', 'HEAD:big.txt'], none), 'version 9', '~> the checkout fetched the blobs it needs');
		await ok(['checkout', '-q', commits[1]], none);
		assert.match(await ok(['show', 'HEAD:small-1.txt'], none), 'small 1', '~> another commit, another lazy fetch');
		const limited = join(work, 'limited');
		await ok(['clone', '-q', '--filter=blob:limit=1k', '--no-checkout', '--no-local', url(), limited]);
		const promised = (await ok(['rev-list', '--objects', '--all', '--missing=print'], limited))
			.split('\n')
			.filter((line) => line.startsWith('?'));
		assert.is(promised.length, 10, '~> only the ten versions of big.txt (18 KB each) are left out');
		const treeless = join(work, 'treeless');
		await ok(['clone', '-q', '--filter=tree:0', '--no-checkout', '--no-local', url(), treeless]);
		assert.is(await count(treeless, 'main'), 10, '~> every commit');
		await ok(['checkout', '-q', 'main'], treeless);
		assert.match(await ok(['show', 'HEAD:dir/nested/file.txt'], treeless), 'nested 9', '~> trees and blobs arrive when needed');
	});

	test('an incremental fetch sends a thin pack of what is new; a repository with nothing new sends nothing', async () => {
		const dir = join(work, 'incremental');
		await ok(['clone', '-q', '--no-local', url(), dir]);
		writeTree(source, { 'big.txt': `${'big line\n'.repeat(2000)}version 10\n` });
		await ok(['commit', '-q', '-am', 'Commit 10'], source);
		await ok(['push', '-q', url(), 'main'], source);
		const fetched = await git(['fetch', 'origin'], dir, { GIT_TRACE_PACKET: '0' });
		assert.is(fetched.status, 0, fetched.err);
		await ok(['merge', '-q', '--ff-only', 'origin/main'], dir);
		assert.match(await ok(['show', 'HEAD:big.txt'], dir), 'version 10');
		assert.is(await ok(['fsck', '--no-dangling'], dir), '');
		const again = await git(['fetch', 'origin'], dir);
		assert.is(again.status, 0);
		assert.is(again.err.trim(), '', '~> nothing new: nothing said');
	});
}

test.run();
