/**
 * Git's smart HTTP protocol, read side (src/api/git/transport.ts): the machine's git clones and
 * fetches repositories made through the API — branches, annotated tags, pull request heads,
 * private repositories with tokens as Basic passwords, incremental fetches — and checks the
 * result with git fsck. Skipped when git is not installed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parsePktLines, pktLine } from '../src/api/git/pktline';
import { hasGit, needsGit } from './helpers/git';
import { startServer, type TestServer } from './helpers/server';

const test = suite('git-http');
let s: TestServer;
let work: string;
let ownerToken: string;
let otherToken: string;

function env(extra: Record<string, string> = {}): Record<string, string> {
	return {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: work,
		GIT_CONFIG_NOSYSTEM: '1',
		GIT_CONFIG_GLOBAL: '/dev/null',
		GIT_TERMINAL_PROMPT: '0',
		GIT_ASKPASS: '/bin/false',
		...extra,
	};
}

/** Runs git (asynchronously: the server answers in this process); returns status, stdout and stderr (never rejects). */
function git(args: string[], cwd = work, extra: Record<string, string> = {}): Promise<{ status: number; out: string; err: string }> {
	return new Promise((resolve) => {
		execFile('git', args, { cwd, env: env(extra), encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
			const status = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
			resolve({ status, out: stdout, err: stderr });
		});
	});
}

async function ok(args: string[], cwd = work, extra: Record<string, string> = {}): Promise<string> {
	const result = await git(args, cwd, extra);
	assert.is(result.status, 0, `~> git ${args.join(' ')} succeeds: ${result.err}`);
	return result.out;
}

const b64 = (text: string) => Buffer.from(text).toString('base64');
const url = (repo: string, auth = '') => `${s.origin.replace('http://', `http://${auth}`)}/octo/${repo}.git`;

async function put(repo: string, path: string, text: string, token: string, branch?: string): Promise<string> {
	const res = await s.request('PUT', `/repos/octo/${repo}/contents/${path}`, {
		token,
		body: { message: `write ${path}`, content: b64(text), ...(branch ? { branch } : {}) },
	});
	assert.ok(res.status === 201 || res.status === 200, `~> PUT contents answers 201: ${res.text}`);
	return res.body.commit.sha;
}

test.before(async () => {
	if (!hasGit) return;
	s = await startServer();
	s.user('octo');
	s.user('mallory');
	ownerToken = s.fullToken('octo');
	otherToken = s.fullToken('mallory');
	work = mkdtempSync(join(tmpdir(), 'gitstead-githttp-'));
});

test.after(async () => {
	if (!hasGit) return;
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

if (needsGit(test, 'git-http')) {
	test('clone a public repository: history, files, branches, annotated tags, fsck clean', async () => {
		const created = await s.request('POST', '/user/repos', { token: ownerToken, body: { name: 'pub', auto_init: true } });
		assert.is(created.status, 201, '~> the repository is created');
		await put('pub', 'a.txt', 'alpha\n', ownerToken);
		await put('pub', 'dir/b.txt', 'beta\n', ownerToken);
		const head = await put('pub', 'dir/sub/c.txt', 'gamma\n', ownerToken);
		const branch = await s.request('POST', '/repos/octo/pub/git/refs', {
			token: ownerToken,
			body: { ref: 'refs/heads/feature', sha: head },
		});
		assert.is(branch.status, 201, '~> the branch is created');
		const featureHead = await put('pub', 'feature.txt', 'feature\n', ownerToken, 'feature');
		const tag = await s.request('POST', '/repos/octo/pub/git/tags', {
			token: ownerToken,
			body: {
				tag: 'v1.0',
				message: 'release 1.0\n',
				object: head,
				type: 'commit',
				tagger: { name: 'Octo', email: 'octo@example.com', date: '2026-11-22T12:00:00Z' },
			},
		});
		assert.is(tag.status, 201, '~> the tag object is created');
		const tagRef = await s.request('POST', '/repos/octo/pub/git/refs', {
			token: ownerToken,
			body: { ref: 'refs/tags/v1.0', sha: tag.body.sha },
		});
		assert.is(tagRef.status, 201, '~> the tag reference is created');

		const refs = await fetch(`${s.origin}/octo/pub.git/info/refs?service=git-upload-pack`);
		assert.is(refs.status, 200, '~> info/refs answers 200 anonymously for a public repository');
		assert.is(refs.headers.get('content-type'), 'application/x-git-upload-pack-advertisement', '~> with the advertisement media type');
		const lines = parsePktLines(Buffer.from(await refs.arrayBuffer()));
		assert.is(lines[0], '# service=git-upload-pack', '~> the service line comes first');
		assert.is(lines[1], null, '~> then a flush');
		assert.match(lines[2]!, new RegExp(`^${head} HEAD\\0.*symref=HEAD:refs/heads/main`), '~> HEAD first, with its symref');
		assert.ok(
			lines.includes(`${tag.body.sha} refs/tags/v1.0`) && lines.includes(`${head} refs/tags/v1.0^{}`),
			'~> the annotated tag with its peeled line',
		);
		const noGit = await fetch(`${s.origin}/octo/pub/info/refs?service=git-upload-pack`);
		assert.is(noGit.status, 200, '~> the path without .git answers too');

		const dir = join(work, 'pub');
		await ok(['clone', '--quiet', url('pub'), dir]);
		assert.is(readFileSync(join(dir, 'dir/sub/c.txt'), 'utf8'), 'gamma\n', '~> the files are checked out');
		assert.is((await ok(['rev-parse', 'HEAD'], dir)).trim(), head, '~> HEAD is the default branch head');
		assert.is((await ok(['rev-list', '--count', 'HEAD'], dir)).trim(), '4', '~> the whole history came');
		assert.is((await ok(['rev-parse', 'origin/feature'], dir)).trim(), featureHead, '~> the other branch came');
		assert.is((await ok(['cat-file', '-t', 'v1.0'], dir)).trim(), 'tag', '~> the annotated tag came');
		assert.is((await ok(['rev-parse', 'v1.0^{}'], dir)).trim(), head, '~> and peels to its commit');
		await ok(['fsck', '--full', '--strict'], dir);
		assert.match(await ok(['log', '--format=%s', '-1'], dir), 'write dir/sub/c.txt', '~> git log shows the API commit');
	});

	test('pull request heads: git fetch origin refs/pull/N/head', async () => {
		const dir = join(work, 'pub');
		const pull = await s.request('POST', '/repos/octo/pub/pulls', {
			token: ownerToken,
			body: { title: 'Feature', head: 'feature', base: 'main' },
		});
		assert.is(pull.status, 201, '~> the pull request is created');
		await ok(['fetch', '--quiet', 'origin', `refs/pull/${pull.body.number}/head`], dir);
		assert.is((await ok(['rev-parse', 'FETCH_HEAD'], dir)).trim(), pull.body.head.sha, '~> FETCH_HEAD is the pull request head');
	});

	test('a second fetch sends only the new objects', async () => {
		const dir = join(work, 'pub');
		const loose = async () => Number(/^count: (\d+)$/m.exec(await ok(['count-objects', '-v'], dir))![1]);
		const before = await loose();
		await put('pub', 'new.txt', 'new file\n', ownerToken);
		const trace = join(work, 'trace.txt');
		await ok(['fetch', 'origin'], dir, { GIT_TRACE_PACKET: trace });
		const text = readFileSync(trace, 'utf8');
		assert.match(text, /have [0-9a-f]{40}/, '~> the client offered what it has');
		assert.match(text, /ACK [0-9a-f]{40}/, '~> and the server acknowledged a common commit');
		// A small pack is unpacked into loose objects: the new commit, its root tree and the new blob.
		assert.is((await loose()) - before, 3, '~> the fetch brought the commit, its tree and the new blob only');
		await ok(['fsck', '--full', '--strict'], dir);
	});

	test('private repositories: 401 without credentials, a token as the password, 404 for another user', async () => {
		const created = await s.request('POST', '/user/repos', {
			token: ownerToken,
			body: { name: 'secret', auto_init: true, private: true },
		});
		assert.is(created.status, 201, '~> the private repository is created');
		const anonymous = await fetch(`${s.origin}/octo/secret.git/info/refs?service=git-upload-pack`);
		assert.is(anonymous.status, 401, '~> anonymous info/refs answers 401');
		assert.is(anonymous.headers.get('www-authenticate'), 'Basic realm="Gitstead"', '~> with a Basic challenge');
		const failed = await git(['clone', url('secret'), join(work, 'secret-anon')]);
		assert.is.not(failed.status, 0, '~> git clone without credentials fails');
		await ok(['clone', '--quiet', url('secret', `x-access-token:${ownerToken}@`), join(work, 'secret')]);
		assert.ok(readFileSync(join(work, 'secret/README.md'), 'utf8').length > 0, '~> with the owner token the clone succeeds');
		await ok(['clone', '--quiet', url('secret', `anyone:${ownerToken}@`), join(work, 'secret2')]);
		const other = await fetch(`${s.origin}/octo/secret.git/info/refs?service=git-upload-pack`, {
			headers: { Authorization: `Basic ${b64(`x-access-token:${otherToken}`)}` },
		});
		assert.is(other.status, 404, '~> another user gets 404');
		const otherClone = await git(['clone', url('secret', `x-access-token:${otherToken}@`), join(work, 'secret-other')]);
		assert.is.not(otherClone.status, 0, '~> and git clone with their token fails');
		const bad = await fetch(`${s.origin}/octo/secret.git/info/refs?service=git-upload-pack`, {
			headers: { Authorization: `Basic ${b64('x:ghp_nonsense')}` },
		});
		assert.is(bad.status, 401, '~> a bad token answers 401');
		const missing = await fetch(`${s.origin}/octo/nothing.git/info/refs?service=git-upload-pack`, {
			headers: { Authorization: `Basic ${b64(`x:${ownerToken}`)}` },
		});
		assert.is(missing.status, 404, '~> an unknown repository answers 404 to an authenticated caller');
	});

	test('an anonymous push is asked for credentials; the dumb protocol and bad requests are refused', async () => {
		const push = await fetch(`${s.origin}/octo/pub.git/info/refs?service=git-receive-pack`);
		assert.is(push.status, 401, '~> the receive-pack advertisement asks anonymous callers to authenticate');
		assert.match(push.headers.get('www-authenticate') ?? '', /^Basic /, '~> with a Basic challenge');
		const post = await fetch(`${s.origin}/octo/pub.git/git-receive-pack`, { method: 'POST', body: '0000' });
		assert.is(post.status, 401, '~> so does POST git-receive-pack');
		const dir = join(work, 'pub');
		const pushed = await git(['push', 'origin', 'HEAD:refs/heads/pushed'], dir);
		assert.is.not(pushed.status, 0, '~> git push without credentials fails');
		const dumb = await fetch(`${s.origin}/octo/pub.git/info/refs`);
		assert.is(dumb.status, 403, '~> the dumb protocol is not served');
		const wrongType = await fetch(`${s.origin}/octo/pub.git/git-upload-pack`, { method: 'POST', body: '0000' });
		assert.is(wrongType.status, 415, '~> a POST without the request media type answers 415');
		const garbage = await fetch(`${s.origin}/octo/pub.git/git-upload-pack`, {
			method: 'POST',
			body: 'zzzz',
			headers: { 'Content-Type': 'application/x-git-upload-pack-request' },
		});
		assert.is(garbage.status, 400, '~> malformed pkt-lines answer 400');
	});

	test('a gzip-encoded request gets a pack; an unknown want gets ERR', async () => {
		const head = (await s.get('/repos/octo/pub/git/ref/heads/main', ownerToken)).body.object.sha as string;
		const body = Buffer.concat([pktLine(`want ${head} side-band-64k no-progress\n`), Buffer.from('0000'), pktLine('done\n')]);
		const res = await fetch(`${s.origin}/octo/pub.git/git-upload-pack`, {
			method: 'POST',
			body: gzipSync(body),
			headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Content-Encoding': 'gzip' },
		});
		assert.is(res.status, 200, '~> the gzip-encoded negotiation is answered');
		assert.is(res.headers.get('content-type'), 'application/x-git-upload-pack-result', '~> with the result media type');
		const answer = Buffer.from(await res.arrayBuffer());
		assert.is(answer.toString('ascii', 0, 8), '0008NAK\n', '~> NAK first (no haves)');
		assert.is(answer.toString('ascii', 13, 17), 'PACK', '~> then the pack on band 1');
		const unknown = await fetch(`${s.origin}/octo/pub.git/git-upload-pack`, {
			method: 'POST',
			body: Buffer.concat([pktLine(`want ${'1'.repeat(40)}\n`), Buffer.from('0000'), pktLine('done\n')]),
			headers: { 'Content-Type': 'application/x-git-upload-pack-request' },
		});
		assert.match(await unknown.text(), 'ERR upload-pack: not our ref', '~> an unknown want gets ERR');
	});

	test('packs over storage.max_pack_bytes are refused with a git error', async () => {
		const previous = s.app.config.storage.max_pack_bytes;
		s.app.config.storage.max_pack_bytes = 10;
		try {
			const result = await git(['clone', url('pub'), join(work, 'too-big')]);
			assert.is.not(result.status, 0, '~> the clone fails');
			assert.match(result.err, 'storage.max_pack_bytes', `~> with the server's reason: ${result.err}`);
		} finally {
			s.app.config.storage.max_pack_bytes = previous;
		}
	});
}

test.run();
