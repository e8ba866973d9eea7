/**
 * hub (Debian's hub 2.14) against Gitstead behind a TLS front that forwards as a reverse proxy does
 * (test/helpers/tls.ts with X-Forwarded-Proto/Host; the server trusts 127.0.0.1), so the URLs the
 * server returns name the host hub talks to. hub speaks to https://GITHUB_HOST/api/v3 for any host
 * but github.com; GITHUB_TOKEN authenticates, SSL_CERT_FILE / GIT_SSL_CAINFO trust the self-signed
 * certificate. Flows: hub create, git push, hub issue create/list, hub pull-request after a push,
 * hub release create (it sends target_commitish ""), hub release, hub api, hub ci-status, hub
 * browse -u; each cross-checked through REST.
 *
 * hub 2.14 cannot build a git remote URL for a host with a port (its rawHost parses "localhost:PORT"
 * as scheme "localhost"), so the test adds `origin` itself before `hub create`, as a user on such a
 * host must; on a host without a port hub adds it.
 * Skipped, with a message, when `which hub` finds no hub.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';
import { type TlsFront, tlsFront } from './helpers/tls';

const test = suite('hub');

/** The hub binary on PATH, or null. */
function findHub(): string | null {
	try {
		return execFileSync('which', ['hub'], { encoding: 'utf8' }).trim() || null;
	} catch {
		return null;
	}
}

interface Result {
	code: number;
	stdout: string;
	stderr: string;
}

const hub = findHub();
let s: TestServer;
let front: TlsFront;
let olivia: string;
let home: string;
let work: string;
let env: Record<string, string>;

/** Runs a command in the working copy (asynchronously: the server answers from this process). */
function run(command: string, args: string[]): Promise<Result> {
	return new Promise((resolve) => {
		execFile(command, args, { env, cwd: work, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
			const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
			resolve({ code, stdout, stderr });
		});
	});
}

/** Runs a command that must succeed; returns its standard output. */
async function ok(command: string, args: string[]): Promise<string> {
	const r = await run(command, args);
	assert.is(r.code, 0, `${command} ${args.join(' ')} failed (${r.code}): ${r.stderr}${r.stdout}`);
	return r.stdout;
}

if (!hub) {
	console.log('test/hub.test.ts: skipped — hub is not installed (`which hub` found nothing; apt-get install hub)');
} else {
	test.before(async () => {
		s = await startServer({ configure: (c) => void (c.server.trusted_proxies = ['127.0.0.1']) });
		s.user('olivia');
		olivia = s.fullToken('olivia');
		front = await tlsFront(Number(new URL(s.origin).port), { forwarded: true });
		home = mkdtempSync(join(tmpdir(), 'gitstead-hub-'));
		work = join(home, 'proj');
		env = {
			PATH: process.env.PATH ?? '/usr/bin:/bin',
			HOME: home,
			XDG_CONFIG_HOME: join(home, '.config'),
			GITHUB_HOST: front.host,
			GITHUB_TOKEN: olivia,
			HUB_PROTOCOL: 'https',
			SSL_CERT_FILE: front.certFile,
			GIT_SSL_CAINFO: front.certFile,
			GIT_AUTHOR_NAME: 'Olivia',
			GIT_AUTHOR_EMAIL: 'olivia@example.com',
			GIT_COMMITTER_NAME: 'Olivia',
			GIT_COMMITTER_EMAIL: 'olivia@example.com',
			GIT_TERMINAL_PROMPT: '0',
			GIT_CONFIG_NOSYSTEM: '1',
			TERM: 'dumb',
		};
		// git pushes with the same token (an Authorization header, as a credential helper would give).
		writeFileSync(join(home, '.gitconfig'), `[http]\n\textraheader = Authorization: token ${olivia}\n[init]\n\tdefaultBranch = main\n`);
		execFileSync('git', ['init', '-q', work], { env });
		writeFileSync(join(work, 'README.md'), '# proj\n');
		await ok('git', ['add', 'README.md']);
		await ok('git', ['commit', '-q', '-m', 'First commit']);
	});
	test.after(async () => {
		await front?.close();
		await s?.close();
		if (home) rmSync(home, { recursive: true, force: true });
	});

	test('hub create, then git push over https', async () => {
		await ok('git', ['remote', 'add', 'origin', `https://${front.host}/olivia/proj.git`]);
		const out = await ok('hub', ['create', '-d', 'Made by hub']);
		assert.is(out.trim(), `https://${front.host}/olivia/proj`);
		const repo = await s.get('/repos/olivia/proj', olivia);
		assert.is(repo.status, 200);
		assert.is(repo.body.description, 'Made by hub');
		// Straight to the server (not through the front), so its own origin.
		assert.is(repo.body.html_url, `${s.origin}/olivia/proj`);
		await ok('git', ['push', '-q', '-u', 'origin', 'main']);
		// hub takes the base branch of a pull request from origin/HEAD, as a clone would have it.
		await ok('git', ['remote', 'set-head', 'origin', '--auto']);
		assert.is((await ok('git', ['symbolic-ref', 'refs/remotes/origin/HEAD'])).trim(), 'refs/remotes/origin/main');
		const main = await s.get('/repos/olivia/proj/branches/main', olivia);
		assert.is(main.body.commit.sha, (await ok('git', ['rev-parse', 'HEAD'])).trim());
	});

	test('hub issue create and list', async () => {
		const out = await ok('hub', ['issue', 'create', '-m', 'Broken link\n\nOn the front page', '-l', 'bug']);
		assert.is(out.trim(), `https://${front.host}/olivia/proj/issues/1`);
		await ok('hub', ['issue', 'create', '-m', 'Second issue']);
		const list = await ok('hub', ['issue']);
		assert.match(list, /#2\s+Second issue/);
		assert.match(list, /#1\s+Broken link/);
		const labelled = await ok('hub', ['issue', '-l', 'bug', '-f', '%I %t%n']);
		assert.is(labelled.trim(), '1 Broken link');
		const issue = await s.get('/repos/olivia/proj/issues/1', olivia);
		assert.is(issue.body.body, 'On the front page');
		assert.equal(
			issue.body.labels.map((l: { name: string }) => l.name),
			['bug'],
		);
	});

	test('hub pull-request after a push, listed by hub pr list', async () => {
		await ok('git', ['checkout', '-q', '-b', 'topic']);
		writeFileSync(join(work, 'topic.txt'), 'topic\n');
		await ok('git', ['add', 'topic.txt']);
		await ok('git', ['commit', '-q', '-m', 'Add the topic']);
		await ok('git', ['push', '-q', '-u', 'origin', 'topic']);
		const out = await ok('hub', ['pull-request', '-m', 'Add the topic\n\nPlease review']);
		assert.is(out.trim(), `https://${front.host}/olivia/proj/pull/3`);
		const list = await ok('hub', ['pr', 'list', '-f', '%I %H %B %t%n']);
		assert.is(list.trim(), '3 topic main Add the topic');
		const pull = await s.get('/repos/olivia/proj/pulls/3', olivia);
		assert.is(pull.body.base.ref, 'main');
		assert.is(pull.body.head.ref, 'topic');
		assert.is(pull.body.body, 'Please review');
		await ok('git', ['checkout', '-q', 'main']);
	});

	test('hub release create (target_commitish "") and hub release', async () => {
		const out = await ok('hub', ['release', 'create', '-m', 'Version 1.0\n\nThe notes', 'v1.0']);
		assert.is(out.trim(), `https://${front.host}/olivia/proj/releases/tag/v1.0`);
		assert.is((await ok('hub', ['release'])).trim(), 'v1.0');
		const release = await s.get('/repos/olivia/proj/releases/tags/v1.0', olivia);
		assert.is(release.body.name, 'Version 1.0');
		assert.is(release.body.body, 'The notes');
		assert.is(release.body.target_commitish, 'main');
		const tag = await s.get('/repos/olivia/proj/git/ref/tags/v1.0', olivia);
		assert.is(tag.body.object.sha, (await ok('git', ['rev-parse', 'main'])).trim());
	});

	test('hub api', async () => {
		const user = JSON.parse(await ok('hub', ['api', 'user']));
		assert.is(user.login, 'olivia');
		const created = JSON.parse(
			await ok('hub', ['api', 'repos/{owner}/{repo}/issues', '-F', 'title=From hub api', '-F', 'body=Made with -F']),
		);
		assert.is(created.number, 4);
		const issues = JSON.parse(await ok('hub', ['api', 'repos/{owner}/{repo}/issues?state=all']));
		assert.equal(
			issues.map((i: { number: number }) => i.number),
			[4, 3, 2, 1],
		);
		const graphql = JSON.parse(await ok('hub', ['api', 'graphql', '-f', 'query={ viewer { login } }']));
		assert.is(graphql.data.viewer.login, 'olivia');
	});

	test('hub ci-status', async () => {
		const none = await run('hub', ['ci-status', 'main']);
		assert.is(none.code, 3, 'no status: exit 3');
		assert.is(none.stdout.trim(), 'no status');
		const sha = (await ok('git', ['rev-parse', 'main'])).trim();
		await s.request('POST', `/repos/olivia/proj/statuses/${sha}`, {
			token: olivia,
			body: { state: 'pending', context: 'ci/build', target_url: 'https://ci.test/1' },
		});
		const pending = await run('hub', ['ci-status', 'main']);
		assert.is(pending.code, 2, 'pending: exit 2');
		assert.is(pending.stdout.trim(), 'pending');
		await s.request('POST', `/repos/olivia/proj/statuses/${sha}`, {
			token: olivia,
			body: { state: 'success', context: 'ci/build', target_url: 'https://ci.test/1' },
		});
		assert.is((await ok('hub', ['ci-status', 'main'])).trim(), 'success');
		const verbose = await ok('hub', ['ci-status', '-v', 'main']);
		assert.match(verbose, /ci\/build\s+https:\/\/ci\.test\/1/);
	});

	test('hub browse -u', async () => {
		// On the default branch: the repository's page; on another branch: its tree.
		assert.is((await ok('hub', ['browse', '-u'])).trim(), `https://${front.host}/olivia/proj`);
		await ok('git', ['checkout', '-q', 'topic']);
		assert.is((await ok('hub', ['browse', '-u'])).trim(), `https://${front.host}/olivia/proj/tree/topic`);
		await ok('git', ['checkout', '-q', 'main']);
		assert.is((await ok('hub', ['browse', '-u', '--', 'issues'])).trim(), `https://${front.host}/olivia/proj/issues`);
		// The pages hub points a browser at exist.
		for (const path of ['/olivia/proj', '/olivia/proj/tree/topic', '/olivia/proj/issues']) {
			assert.is((await fetch(`${s.origin}${path}`, { headers: { accept: 'text/html' } })).status, 200, path);
		}
	});
}

test.run();
