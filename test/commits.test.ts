/**
 * Repository commits over the stored git objects (GitHub's repos/commits, compare and tags): the
 * list with its filters, one commit with stats, files and patches (also as .diff and .patch), a
 * comparison of two commits, and the tags list — checked against the git binary (`git log`,
 * `git diff-tree -p`, `git rev-list --count`) on the same objects.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RepositoryRow } from '../src/model/rows';
import { schemaProblems } from './helpers/github-schema';
import { storedObjects } from './helpers/git-objects';
import { startServer, type TestServer } from './helpers/server';
import { mustSucceed } from './helpers/setup';

const test = suite('commits');
let s: TestServer;
let owner: string;
let outsider: string;
let app: RepositoryRow;
let work: string;
let bare: string;
const R = '/repos/acme/app';
const c: Record<string, string> = {};

function git(args: string[]): string {
	const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
	return execFileSync('git', args, { cwd: bare, env, stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8');
}

/** Writes every stored object of acme/app into the bare repository (git checks each id). */
function exportObjects(): void {
	const rows = storedObjects(s.app, app.id);
	for (const row of rows) {
		const sha = execFileSync('git', ['hash-object', '-w', '-t', row.type, '--stdin'], { cwd: bare, input: row.content })
			.toString()
			.trim();
		assert.is(sha, row.sha);
	}
}

const must = (method: string, path: string, body?: unknown, token = owner) => mustSucceed(s, method, path, body, token);

/** A commit of tree edits on `parents`, by `email`, dated `seconds` after 2026-01-01. */
async function commit(
	message: string,
	edits: unknown[],
	parents: string[],
	seconds: number,
	email = 'olivia@example.com',
): Promise<string> {
	const base = parents[0] ? (await must('GET', `${R}/git/commits/${parents[0]}`)).tree.sha : undefined;
	const tree = await must('POST', `${R}/git/trees`, { tree: edits, ...(base ? { base_tree: base } : {}) });
	const date = new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
	const who = { name: email.split('@')[0], email, date };
	return (await must('POST', `${R}/git/commits`, { message, tree: tree.sha, parents, author: who, committer: who })).sha;
}

const file = (path: string, content: string) => ({ path, mode: '100644', type: 'blob', content });

test.before(async () => {
	s = await startServer();
	work = mkdtempSync(join(tmpdir(), 'gitstead-commits-'));
	bare = join(work, 'repo.git');
	execFileSync('git', ['init', '-q', '--bare', bare]);
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	owner = s.fullToken('olivia');
	outsider = s.fullToken('nora');
	await must('POST', '/orgs/acme/repos', { name: 'app' });
	await must('POST', '/orgs/acme/repos', { name: 'vault', private: true });
	await must('POST', '/orgs/acme/repos', { name: 'empty' });
	app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	const bin = await must('POST', `${R}/git/blobs`, { content: Buffer.from([0, 1, 2, 3, 0, 255]).toString('base64'), encoding: 'base64' });
	c.one = await commit(
		'First\n\nThe beginning.',
		[file('README', 'hello\n'), file('src/a.txt', 'a\nb\nc\n'), { path: 'bin.dat', mode: '100644', type: 'blob', sha: bin.sha }],
		[],
		10,
	);
	c.two = await commit(
		'Second',
		[
			file('src/a.txt', 'a\nB\nc\nd\n'),
			file('docs/guide.md', '# Guide\n'),
			{ path: 'bin.dat', mode: '100644', type: 'blob', sha: null },
		],
		[c.one],
		20,
	);
	const mike = s.app.stores.accounts.user('mike')!;
	const host = new URL(s.origin).hostname;
	c.three = await commit(
		'Third',
		[{ path: 'docs/guide.md', mode: '100644', type: 'blob', sha: null }, file('docs/manual.md', '# Guide\n')],
		[c.two],
		30,
		`${mike.id}+mike@users.noreply.${host}`,
	);
	c.side = await commit('Side', [file('README', 'hello\nworld\n')], [c.one], 25);
	await must('POST', `${R}/git/refs`, { ref: 'refs/heads/main', sha: c.three });
	await must('POST', `${R}/git/refs`, { ref: 'refs/heads/feature', sha: c.side });
	await must('POST', `${R}/git/refs`, { ref: 'refs/tags/v1', sha: c.one });
	const tag = await must('POST', `${R}/git/tags`, {
		tag: 'v2',
		message: 'Two',
		object: c.two,
		type: 'commit',
		tagger: { name: 'O', email: 'o@example.com', date: '2026-01-02T00:00:00Z' },
	});
	await must('POST', `${R}/git/refs`, { ref: 'refs/tags/v2', sha: tag.sha });
	const tree = await must('POST', '/repos/acme/vault/git/trees', { tree: [file('a', 'a')] });
	const root = await must('POST', '/repos/acme/vault/git/commits', { message: 'root', tree: tree.sha, parents: [] });
	await must('POST', '/repos/acme/vault/git/refs', { ref: 'refs/heads/main', sha: root.sha });
	exportObjects();
});
test.after(async () => {
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

const shas = (body: any[]) => body.map((x) => x.sha);

test('GET /commits – newest first from the default branch, as git log; sha, path, author, since/until filters; Link pages', async () => {
	const res = await s.get(`${R}/commits`);
	assert.is(res.status, 200, '~> anonymous on a public repository');
	assert.equal(shas(res.body), git(['log', '--format=%H', c.three]).trim().split('\n'), '~> git log’s order');
	assert.equal(Object.keys(res.body[0]), [
		'sha',
		'node_id',
		'commit',
		'url',
		'html_url',
		'comments_url',
		'author',
		'committer',
		'parents',
	]);
	assert.is(res.body[0].author.login, 'mike', '~> a noreply email names its user');
	assert.is(res.body[1].author, null, '~> an email no user has: null');
	assert.equal(shas((await s.get(`${R}/commits?sha=feature`)).body), [c.side, c.one], '~> sha takes a branch');
	assert.equal(
		shas((await s.get(`${R}/commits?path=src/a.txt`)).body),
		git(['log', '--format=%H', c.three, '--', 'src/a.txt']).trim().split('\n'),
		'~> path: as git log -- path',
	);
	assert.equal(shas((await s.get(`${R}/commits?path=docs`)).body), [c.three, c.two], '~> a folder path');
	assert.equal(shas((await s.get(`${R}/commits?author=mike`)).body), [c.three], '~> author by login');
	assert.equal(shas((await s.get(`${R}/commits?author=olivia@example.com`)).body), [c.two, c.one], '~> author by email');
	assert.equal(
		shas((await s.get(`${R}/commits?since=2026-01-01T00:00:15Z&until=2026-01-01T00:00:25Z`)).body),
		[c.two],
		'~> since and until, inclusive',
	);
	const page = await s.get(`${R}/commits?per_page=1&page=2`);
	assert.equal(shas(page.body), [c.two]);
	assert.match(page.headers.get('link') ?? '', /page=3>; rel="next"/);
	assert.is((await s.get(`${R}/commits?since=yesterday`)).status, 422, '~> since must be a timestamp');
	const nope = await s.get(`${R}/commits?sha=nope`);
	assert.equal([nope.status, nope.body.message], [404, 'No commit found for SHA: nope'], '~> the list answers 404 for an unknown sha');
	assert.is((await s.get('/repos/acme/vault/commits', outsider)).status, 404, '~> hidden private repository');
	assert.is((await s.get('/repos/acme/vault/commits')).status, 404);
	assert.is(
		(await s.get('/repos/acme/vault/commits', s.token('olivia', { scopes: [] }))).status,
		404,
		'~> a classic token without repo sees public repositories only',
	);
	assert.is(
		(await s.get('/repos/acme/vault/commits', s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: {} }))).status,
		404,
		'~> a fine-grained token without Contents: the public view',
	);
	assert.is(
		(
			await s.get(
				'/repos/acme/vault/commits',
				s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'read' } }),
			)
		).status,
		200,
		'~> with Contents (read) it reads',
	);
	const empty = await s.get('/repos/acme/empty/commits', owner);
	assert.equal([empty.status, empty.body.message], [409, 'Git Repository is empty.']);
});

test('GET /commits/{ref} – stats and files from the first parent’s tree, patches as git diff-tree -p; renames; binary without patch', async () => {
	const res = await s.get(`${R}/commits/${c.two}`);
	assert.is(res.status, 200);
	assert.equal(res.body.stats, { total: 4, additions: 3, deletions: 1 }, '~> binary files count no lines');
	const files = Object.fromEntries(res.body.files.map((f: any) => [f.filename, f]));
	assert.equal(Object.keys(files), ['bin.dat', 'docs/guide.md', 'src/a.txt'], '~> path order');
	assert.equal(
		[files['bin.dat'].status, files['bin.dat'].changes, files['bin.dat'].patch],
		['removed', 0, undefined],
		'~> binary: no patch',
	);
	assert.equal(files['docs/guide.md'], {
		sha: git(['rev-parse', `${c.two}:docs/guide.md`]).trim(),
		filename: 'docs/guide.md',
		status: 'added',
		additions: 1,
		deletions: 0,
		changes: 1,
		blob_url: `${s.origin}/acme/app/blob/${c.two}/docs/guide.md`,
		raw_url: `${s.origin}/acme/app/raw/${c.two}/docs/guide.md`,
		contents_url: `${s.api}${R}/contents/docs/guide.md?ref=${c.two}`,
		patch: '@@ -0,0 +1 @@\n+# Guide',
	});
	const gitPatch = git(['diff-tree', '-p', c.one, c.two, '--', 'src/a.txt']);
	assert.is(files['src/a.txt'].patch, gitPatch.slice(gitPatch.indexOf('@@')).trimEnd(), '~> the hunks git prints');
	assert.equal([files['src/a.txt'].additions, files['src/a.txt'].deletions], [2, 1]);
	const diff = await s.get(`${R}/commits/${c.two}`, undefined, { Accept: 'application/vnd.github.diff' });
	assert.match(diff.headers.get('content-type') ?? '', 'application/vnd.github.diff');
	assert.is(diff.text, git(['diff-tree', '-p', c.one, c.two]), '~> .diff: exactly git diff-tree -p');
	const bare = await s.get(`${R}/commits/main`, undefined, { Accept: 'application/vnd.github.sha' });
	assert.match(bare.headers.get('content-type') ?? '', 'application/vnd.github.sha', '~> .sha: the commit SHA alone, as text');
	assert.is(bare.text, (await s.get(`${R}/commits/main`)).body.sha, '~> .sha: the SHA the ref names');
	for (const sha of [c.one, c.two, c.three]) {
		const patch = await s.get(`${R}/commits/${sha}`, undefined, { Accept: 'application/vnd.github.patch' });
		const expected = git(['format-patch', '--stdout', '--no-binary', '-1', sha]).replace(/\n-- \n.*\n\n$/, '\n-- \nGitstead\n\n');
		assert.is(
			patch.text,
			expected,
			`~> .patch: git format-patch --stdout --no-binary (diffstat, summary, diff; GitHub shows no binary patches) for ${sha}`,
		);
	}
	// Kinds git treats specially: a file turned folder, a mode change, a symbolic link, an empty file.
	const odd = await commit(
		'Odd kinds',
		[
			{ path: 'README', mode: '100644', type: 'blob', sha: null },
			file('README/inner', 'in\n'),
			{ path: 'src/a.txt', mode: '100755', type: 'blob', content: 'a\nb\nc\n' },
			{ path: 'link', mode: '120000', type: 'blob', content: 'src/a.txt' },
			file('empty', ''),
		],
		[c.one],
		35,
	);
	exportObjects();
	const oddDiff = await s.get(`${R}/commits/${odd}`, undefined, { Accept: 'application/vnd.github.diff' });
	assert.is(oddDiff.text, git(['diff-tree', '-p', c.one, odd]), '~> file to folder, mode change, symlink, empty file: as git');
	const oddPatch = await s.get(`${R}/commits/${odd}`, undefined, { Accept: 'application/vnd.github.patch' });
	assert.is(oddPatch.text, git(['format-patch', '--stdout', '--no-binary', '-1', odd]).replace(/\n-- \n.*\n\n$/, '\n-- \nGitstead\n\n'));
	// More than 300 files: pages of 300, the same stats on each.
	const many = await commit(
		'Many',
		Array.from({ length: 305 }, (_, i) => file(`many/f${String(i).padStart(3, '0')}`, `${i}\n`)),
		[c.one],
		36,
	);
	const first = await s.get(`${R}/commits/${many}`);
	assert.equal([first.body.files.length, first.body.stats.additions], [300, 305]);
	assert.match(first.headers.get('link') ?? '', /page=2>; rel="next"/);
	const rest = await s.get(`${R}/commits/${many}?page=2`);
	assert.equal(
		[rest.body.files.map((f: any) => f.filename), rest.body.stats.total],
		[['many/f300', 'many/f301', 'many/f302', 'many/f303', 'many/f304'], 305],
	);
	const renamed = (await s.get(`${R}/commits/${c.three}`)).body.files;
	assert.equal(
		renamed.map((f: any) => [f.status, f.filename, f.previous_filename, f.changes]),
		[['renamed', 'docs/manual.md', 'docs/guide.md', 0]],
	);
	const root = (await s.get(`${R}/commits/v1`)).body;
	assert.is(root.sha, c.one, '~> a tag names its commit');
	assert.equal(
		root.files.map((f: any) => f.status),
		['added', 'added', 'added'],
		'~> a root commit adds everything',
	);
	assert.is((await s.get(`${R}/commits/main`)).body.sha, c.three, '~> a branch');
	assert.is((await s.get(`${R}/commits/${c.two.slice(0, 8)}`)).body.sha, c.two, '~> an abbreviated id');
	const unknown = await s.get(`${R}/commits/nope`);
	assert.equal([unknown.status, unknown.body.message], [422, 'No commit found for SHA: nope']);
	assert.is((await s.get(`/repos/acme/vault/commits/main`, outsider)).status, 404);
});

test('GET /compare/{basehead} – status, ahead_by and behind_by as git rev-list --count, merge base, commits oldest first, files from the merge base', async () => {
	const res = await s.get(`${R}/compare/main...feature`);
	assert.is(res.status, 200);
	assert.equal(Object.keys(res.body), [
		'url',
		'html_url',
		'permalink_url',
		'diff_url',
		'patch_url',
		'base_commit',
		'merge_base_commit',
		'status',
		'ahead_by',
		'behind_by',
		'total_commits',
		'commits',
		'files',
	]);
	assert.is(res.body.status, 'diverged');
	assert.is(res.body.ahead_by, Number(git(['rev-list', '--count', `${c.three}..${c.side}`])));
	assert.is(res.body.behind_by, Number(git(['rev-list', '--count', `${c.side}..${c.three}`])));
	assert.is(res.body.merge_base_commit.sha, git(['merge-base', c.three, c.side]).trim());
	assert.is(res.body.base_commit.sha, c.three);
	assert.equal(shas(res.body.commits), [c.side]);
	assert.equal(
		res.body.files.map((f: any) => f.filename),
		['README'],
		'~> three dots: the head’s changes since the merge base',
	);
	assert.is(res.body.url, `${s.api}${R}/compare/main...feature`);
	assert.is(res.body.diff_url, `${s.origin}/acme/app/compare/main...feature.diff`);
	assert.is(res.body.permalink_url, `${s.origin}/acme/app/compare/acme:${c.three}...acme:${c.side}`);
	const ahead = (await s.get(`${R}/compare/${c.one}...main`)).body;
	assert.equal([ahead.status, ahead.ahead_by, ahead.behind_by, ahead.total_commits], ['ahead', 2, 0, 2]);
	assert.equal(shas(ahead.commits), [c.two, c.three], '~> oldest first');
	const second = await s.get(`${R}/compare/${c.one}...main?per_page=1&page=2`);
	assert.equal(
		[shas(second.body.commits), second.body.files, second.body.total_commits],
		[[c.three], [], 2],
		'~> a page of commits; files on the first page only',
	);
	assert.match(second.headers.get('link') ?? '', /page=1>; rel="prev"/);
	assert.is((await s.get(`${R}/compare/main...v1`)).body.status, 'behind');
	assert.equal(
		[(await s.get(`${R}/compare/main...main`)).body.status, (await s.get(`${R}/compare/main...main`)).body.files],
		['identical', []],
	);
	assert.is((await s.get(`${R}/compare/acme:main...acme:feature`)).body.status, 'diverged', '~> owner:branch');
	// A fork's branch: owner:ref names the fork of the network its owner holds.
	const fork = await s.request('POST', `${R}/forks`, { token: outsider, body: {} });
	assert.is(fork.status, 202);
	const tree = await must(
		'POST',
		'/repos/nora/app/git/trees',
		{ tree: [file('FORK', 'fork\n')], base_tree: (await must('GET', `${R}/git/commits/${c.three}`)).tree.sha },
		outsider,
	);
	const forked = await must(
		'POST',
		'/repos/nora/app/git/commits',
		{ message: 'In the fork', tree: tree.sha, parents: [c.three] },
		outsider,
	);
	await must('POST', '/repos/nora/app/git/refs', { ref: 'refs/heads/patch-1', sha: forked.sha }, outsider);
	const across = await s.get(`${R}/compare/main...nora:patch-1`, outsider);
	assert.equal(
		[across.status, across.body.status, across.body.ahead_by, shas(across.body.commits)],
		[200, 'ahead', 1, [forked.sha]],
		'~> main...nora:patch-1',
	);
	assert.equal(
		across.body.files.map((f: any) => f.filename),
		['FORK'],
	);
	assert.is(across.body.permalink_url, `${s.origin}/acme/app/compare/acme:${c.three}...nora:${forked.sha}`);
	assert.is((await s.get(`${R}/compare/main...acme:app:feature`)).body.status, 'diverged', '~> owner:repo:ref');
	assert.is((await s.get(`${R}/compare/main...ghost:patch-1`)).status, 404, '~> an owner with no fork in the network');
	const diff = await s.get(`${R}/compare/${c.one}...${c.two}`, undefined, { Accept: 'application/vnd.github.diff' });
	assert.is(diff.text, git(['diff-tree', '-p', c.one, c.two]));
	assert.is((await s.get(`${R}/compare/main...nope`)).status, 404, '~> an unknown side');
	assert.is((await s.get(`${R}/compare/main`)).status, 404, '~> not base...head');
	assert.is((await s.get(`/repos/acme/vault/compare/main...main`, outsider)).status, 404);
});

test('GET /commits/{commit_sha}/branches-where-head – the branches whose head it is', async () => {
	const res = await s.get(`${R}/commits/${c.three}/branches-where-head`);
	assert.is(res.status, 200);
	assert.equal(res.body, [{ name: 'main', commit: { sha: c.three, url: `${s.api}${R}/commits/${c.three}` }, protected: false }]);
	assert.equal((await s.get(`${R}/commits/${c.one}/branches-where-head`)).body, [], '~> a tag is no branch');
	assert.is((await s.get(`${R}/commits/nope/branches-where-head`)).status, 422);
	assert.is((await s.get(`/repos/acme/vault/commits/${c.one}/branches-where-head`, outsider)).status, 404);
	assert.is((await s.get(`/repos/acme/empty/commits/${c.one}/branches-where-head`, owner)).status, 409);
});

test('GET /tags – newest name first, annotated tags peeled to their commit, with archive URLs', async () => {
	const res = await s.get(`${R}/tags`);
	assert.is(res.status, 200);
	assert.equal(res.body[0], {
		name: 'v2',
		zipball_url: `${s.api}${R}/zipball/refs/tags/v2`,
		tarball_url: `${s.api}${R}/tarball/refs/tags/v2`,
		commit: { sha: c.two, url: `${s.api}${R}/commits/${c.two}` },
		node_id: res.body[0].node_id,
	});
	assert.equal(
		res.body.map((t: any) => [t.name, t.commit.sha]),
		[
			['v2', c.two],
			['v1', c.one],
		],
	);
	const page = await s.get(`${R}/tags?per_page=1&page=2`);
	assert.equal(
		page.body.map((t: any) => t.name),
		['v1'],
	);
	assert.equal((await s.get('/repos/acme/empty/tags', owner)).body, [], '~> an empty repository has none');
	assert.is((await s.get('/repos/acme/vault/tags', outsider)).status, 404);
});

test('answers conform to GitHub’s OpenAPI schemas (GHES 3.19)', async () => {
	const check = async (path: string, concrete: string) => {
		const res = await s.get(concrete, owner);
		assert.is(res.status, 200, `~> ${concrete}`);
		assert.equal(schemaProblems('GET', path, 200, res.body), [], `~> GET ${path} as GitHub documents it`);
	};
	await check('/repos/{owner}/{repo}/commits', `${R}/commits`);
	await check('/repos/{owner}/{repo}/commits/{ref}', `${R}/commits/${c.two}`);
	await check('/repos/{owner}/{repo}/commits/{ref}', `${R}/commits/${c.three}`);
	await check('/repos/{owner}/{repo}/compare/{basehead}', `${R}/compare/main...feature`);
	await check('/repos/{owner}/{repo}/tags', `${R}/tags`);
	await check('/repos/{owner}/{repo}/commits/{commit_sha}/branches-where-head', `${R}/commits/${c.three}/branches-where-head`);
});

test.run();
