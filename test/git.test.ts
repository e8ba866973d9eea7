/**
 * Git objects and references (OpenAPI git/*): blobs, trees,
 * commits, annotated tags and refs over HTTP, with every object id proven against the git binary
 * (`git hash-object`, `git mktree`, `git commit-tree`, `git tag`, `git fsck --strict`), and the
 * revision service (src/api/git/service.ts) compared with `git rev-parse` and `git merge-base`.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitParents, mergeBase, mergeBases, resolveCommit } from '../src/api/git/service';
import type { RepositoryRow } from '../src/model/rows';
import { buildRoutes } from '../src/server';
import { storedObjectCount, storedObjects } from './helpers/git-objects';
import { startServer, type TestServer } from './helpers/server';

const test = suite('git');
let s: TestServer;
let owner: string;
let reader: string;
let outsider: string;
let app: RepositoryRow;
let work: string;
let bare: string;
const R = '/repos/acme/app/git';

const UNSIGNED = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };

// ---- the git binary, in a bare repository of its own (no user or system configuration)

function git(args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): string {
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: work,
		GIT_CONFIG_NOSYSTEM: '1',
		GIT_CONFIG_GLOBAL: '/dev/null',
		...options.env,
	};
	return execFileSync('git', args, { cwd: bare, input: options.input, env, stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8');
}
const gitLine = (args: string[], options: Parameters<typeof git>[1] = {}) => git(args, options).trim();

/** Every object Gitstead stored for the repository, written into the bare repository with git's own checks; ids must agree. */
function exportObjects(repoId = app.id): number {
	const rows = storedObjects(s.app, repoId);
	for (const row of rows) {
		assert.is(
			gitLine(['hash-object', '-w', '-t', row.type, '--stdin'], { input: row.content }),
			row.sha,
			`~> git hash-object agrees on ${row.type} ${row.sha}`,
		);
	}
	return rows.length;
}

/** The id git gives a tree of these files (paths with '/' make subtrees), built with git mktree. */
function gitTree(files: Array<{ path: string; mode: string; sha: string }>): string {
	const here: string[] = [];
	const dirs = new Map<string, Array<{ path: string; mode: string; sha: string }>>();
	for (const file of files) {
		const slash = file.path.indexOf('/');
		if (slash < 0) {
			const type = file.mode === '040000' ? 'tree' : file.mode === '160000' ? 'commit' : 'blob';
			here.push(`${file.mode} ${type} ${file.sha}\t${file.path}\n`);
		} else {
			const dir = file.path.slice(0, slash);
			dirs.set(dir, [...(dirs.get(dir) ?? []), { ...file, path: file.path.slice(slash + 1) }]);
		}
	}
	for (const [dir, inner] of dirs) here.push(`040000 tree ${gitTree(inner)}\t${dir}\n`);
	return gitLine(['mktree', '--missing'], { input: here.join('') });
}

function gitBlob(content: string | Buffer): string {
	return gitLine(['hash-object', '-w', '-t', 'blob', '--stdin'], { input: content });
}

/** git commit-tree with exact identities and dates ("<epoch> <±hhmm>"); the message is taken verbatim from stdin. */
function gitCommit(tree: string, parents: string[], message: string, author: string[], committer: string[], sshKey?: string): string {
	const env = {
		GIT_AUTHOR_NAME: author[0],
		GIT_AUTHOR_EMAIL: author[1],
		GIT_AUTHOR_DATE: author[2],
		GIT_COMMITTER_NAME: committer[0],
		GIT_COMMITTER_EMAIL: committer[1],
		GIT_COMMITTER_DATE: committer[2],
	};
	const sign = sshKey ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${sshKey}`] : [];
	return gitLine([...sign, 'commit-tree', ...(sshKey ? ['-S'] : []), tree, ...parents.flatMap((p) => ['-p', p])], {
		input: message,
		env,
	});
}

const create = (path: string, body: unknown, token = owner) => s.request('POST', `${R}${path}`, { token, body });
const sha40 = (c: string) => c.repeat(40);
const decodeNodeId = (id: string) => Buffer.from(id, 'base64').toString('utf8');

test.before(async () => {
	work = mkdtempSync(join(tmpdir(), 'gitstead-git-'));
	bare = join(work, 'repo.git');
	execFileSync('git', ['init', '-q', '--bare', bare], {
		env: { PATH: process.env.PATH ?? '', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
	});
	s = await startServer();
	for (const login of ['olivia', 'mike', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	reader = s.fullToken('mike');
	outsider = s.fullToken('eve');
	for (const [name, isPrivate] of [
		['app', false],
		['vault', true],
		['empty', false],
		['frozen', false],
	] as const) {
		assert.is((await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, private: isPrivate } })).status, 201);
	}
	app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'app')!;
});
test.after(async () => {
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Blobs

test('blobs – utf-8 and base64 content under git hash-object ids; read back base64 in 60-character lines', async () => {
	const text = await create('/blobs', { content: 'Content of the blob', encoding: 'utf-8' });
	assert.is(text.status, 201);
	assert.equal(Object.keys(text.body), ['sha', 'url']);
	assert.is(text.body.sha, gitBlob('Content of the blob'));
	assert.is(text.body.url, `${s.api}/repos/acme/app/git/blobs/${text.body.sha}`);
	assert.is(text.headers.get('location'), text.body.url);

	const bytes = Buffer.concat([Buffer.from([0, 1, 2, 255, 254]), randomBytes(300)]);
	const binary = await create('/blobs', { content: bytes.toString('base64').replace(/(.{76})/g, '$1\n'), encoding: 'base64' });
	assert.is(binary.status, 201);
	assert.is(binary.body.sha, gitBlob(bytes), '~> line breaks in base64 are ignored');
	const unicode = await create('/blobs', { content: 'héllo ✓\n' });
	assert.is(unicode.body.sha, gitBlob(Buffer.from('héllo ✓\n', 'utf8')), '~> encoding defaults to utf-8');
	assert.is((await create('/blobs', { content: '' })).body.sha, 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', '~> the empty blob');
	const again = await create('/blobs', { content: 'Content of the blob' });
	assert.is(again.status, 201);
	assert.is(again.body.sha, text.body.sha, '~> content-addressed: the same content is the same object');

	const got = await s.get(`${R}/blobs/${binary.body.sha}`, owner);
	assert.is(got.status, 200);
	assert.equal(Object.keys(got.body), ['sha', 'node_id', 'size', 'url', 'content', 'encoding']);
	assert.is(got.body.size, bytes.length);
	assert.is(got.body.encoding, 'base64');
	assert.ok(
		got.body.content
			.split('\n')
			.slice(0, -2)
			.every((line: string) => line.length === 60),
		'~> 60-character lines',
	);
	assert.ok(got.body.content.endsWith('\n'));
	assert.equal(Buffer.from(got.body.content, 'base64'), bytes);
	assert.is(decodeNodeId(got.body.node_id), `04:Blob${app.id}:${binary.body.sha}`);
	assert.ok(got.headers.get('etag'));
	const raw = await fetch(`${s.api}${R}/blobs/${binary.body.sha}`, {
		headers: { Accept: 'application/vnd.github.raw+json', Authorization: `Bearer ${owner}` },
	});
	assert.is(raw.status, 200);
	assert.is(raw.headers.get('content-type'), 'application/vnd.github.raw');
	assert.equal(Buffer.from(await raw.arrayBuffer()), bytes, '~> the raw media type answers the bytes themselves');
	const anonymous = await s.get(`${R}/blobs/${text.body.sha}`);
	assert.is(anonymous.status, 200, '~> public repositories are readable anonymously');
	assert.is(Buffer.from(anonymous.body.content, 'base64').toString(), 'Content of the blob');
	assert.is(got.headers.get('x-accepted-github-permissions'), 'contents=read');
	assert.is(text.headers.get('x-accepted-github-permissions'), 'contents=write');
});

test('blobs – validation and denial', async () => {
	for (const [body, field] of [
		[{}, 'content'],
		[{ content: 5 }, 'content'],
		[{ content: 'x', encoding: 'utf-16' }, 'encoding'],
		[{ content: 'not base64!', encoding: 'base64' }, 'content'],
		[{ content: 'abcde', encoding: 'base64' }, 'content'],
	] as const) {
		const res = await create('/blobs', body);
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field && e.resource === 'Blob'),
			`~> names ${field}`,
		);
	}
	const malformed = await s.get(`${R}/blobs/abc123`, owner);
	assert.is(malformed.status, 422);
	assert.is(malformed.body.message, 'The sha parameter must be exactly 40 characters and contain only [0-9a-f].');
	assert.is((await s.get(`${R}/blobs/${sha40('a')}`, owner)).status, 404);
	const tree = await create('/trees', { tree: [{ path: 'x', mode: '100644', type: 'blob', content: 'x' }] });
	assert.is((await s.get(`${R}/blobs/${tree.body.sha}`, owner)).status, 404, '~> a tree is not a blob');

	assert.is((await s.request('POST', `${R}/blobs`, { body: { content: 'x' } })).status, 401);
	const denied = await create('/blobs', { content: 'x' }, reader);
	assert.is(denied.status, 403, '~> members read the repository but may not push');
	assert.is((await s.request('POST', '/repos/acme/vault/git/blobs', { token: outsider, body: { content: 'x' } })).status, 404);
	assert.is((await s.get(`/repos/acme/vault/git/blobs/${sha40('a')}`)).status, 404, '~> private repositories are invisible anonymously');
	const fine = (permissions: Record<string, string>) =>
		s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: permissions as never });
	assert.is((await create('/blobs', { content: 'x' }, fine({ contents: 'read' }))).status, 403);
	assert.is((await create('/blobs', { content: 'fine' }, fine({ contents: 'write' }))).status, 201);
	const publicRepo = s.token('olivia', { scopes: ['public_repo'] });
	assert.is((await create('/blobs', { content: 'public_repo' }, publicRepo)).status, 201, '~> public_repo writes public repositories');
	assert.is((await s.request('POST', '/repos/acme/vault/git/blobs', { token: publicRepo, body: { content: 'x' } })).status, 404);
	const frozen = s.app.stores.repos.byOwnerAndName(app.owner_id, 'frozen')!;
	s.app.db.prepare('UPDATE repositories SET archived = 1 WHERE id = ?').run(frozen.id);
	const archived = await s.request('POST', '/repos/acme/frozen/git/blobs', { token: owner, body: { content: 'x' } });
	assert.is(archived.status, 403);
	assert.is(archived.body.message, 'Repository was archived so is read-only.');
});

// ---------------------------------------------------------------------------------------------
// Trees

let rootTree: string;
const files = () => [
	{ path: 'README.md', mode: '100644', sha: gitBlob('# app\n') },
	{ path: 'bin/run.sh', mode: '100755', sha: gitBlob('#!/bin/sh\necho run\n') },
	{ path: 'docs/guide/intro.md', mode: '100644', sha: gitBlob('intro\n') },
	{ path: 'link', mode: '120000', sha: gitBlob('README.md') },
	{ path: 'vendor/lib', mode: '160000', sha: sha40('c') },
	{ path: 'a-b', mode: '100644', sha: gitBlob('dash\n') },
	{ path: 'a.txt', mode: '100644', sha: gitBlob('dot\n') },
	{ path: 'a/x', mode: '100644', sha: gitBlob('slash\n') },
];

test("trees – nested paths, every mode, content and sha entries; ids as git mktree, in git's entry order", async () => {
	const readme = await create('/blobs', { content: '# app\n' });
	const res = await create('/trees', {
		tree: [
			{ path: 'README.md', mode: '100644', type: 'blob', sha: readme.body.sha },
			{ path: 'bin/run.sh', mode: '100755', type: 'blob', content: '#!/bin/sh\necho run\n' },
			{ path: 'docs/guide/intro.md', mode: '100644', content: 'intro\n' },
			{ path: 'link', mode: '120000', type: 'blob', content: 'README.md' },
			{ path: 'vendor/lib', mode: '160000', type: 'commit', sha: sha40('C') },
			{ path: 'a/x', mode: '100644', type: 'blob', content: 'slash\n' },
			{ path: 'a.txt', mode: '100644', type: 'blob', content: 'dot\n' },
			{ path: 'a-b', mode: '100644', type: 'blob', content: 'dash\n' },
		],
	});
	assert.is(res.status, 201);
	rootTree = res.body.sha;
	assert.is(rootTree, gitTree(files()), '~> the id git mktree gives the same tree');
	assert.equal(Object.keys(res.body), ['sha', 'url', 'tree', 'truncated']);
	assert.is(res.headers.get('location'), `${s.api}/repos/acme/app/git/trees/${rootTree}`);
	assert.equal(
		res.body.tree.map((e: any) => e.path),
		['README.md', 'a-b', 'a.txt', 'a', 'bin', 'docs', 'link', 'vendor'],
		'~> a tree sorts as if its name ended in "/": a-b, a.txt, a',
	);
	const readmeEntry = res.body.tree[0];
	assert.equal(readmeEntry, {
		path: 'README.md',
		mode: '100644',
		type: 'blob',
		sha: readme.body.sha,
		size: 6,
		url: `${s.api}/repos/acme/app/git/blobs/${readme.body.sha}`,
	});
	const dir = res.body.tree.find((e: any) => e.path === 'bin');
	assert.equal(Object.keys(dir), ['path', 'mode', 'type', 'sha', 'url']);
	assert.is(dir.mode, '040000');
	assert.is(dir.url, `${s.api}/repos/acme/app/git/trees/${dir.sha}`);

	const flat = await s.get(`${R}/trees/${rootTree}`, owner);
	assert.is(flat.status, 200);
	assert.equal(flat.body, res.body);
	const deep = await s.get(`${R}/trees/${rootTree}?recursive=1`, owner);
	exportObjects();
	const lsTree = gitLine(['ls-tree', '-r', '-t', '-l', rootTree])
		.split('\n')
		.map((line) => {
			const [meta, path] = line.split('\t');
			const [mode, type, sha, size] = meta.split(/\s+/);
			return size === '-' ? { path, mode, type, sha } : { path, mode, type, sha, size: Number(size) };
		});
	assert.equal(
		deep.body.tree.map(({ url: _url, ...entry }: any) => entry),
		lsTree,
		'~> recursive listing = git ls-tree -r -t -l, in its order',
	);
	const submodule = deep.body.tree.find((e: any) => e.type === 'commit');
	assert.equal(submodule, { path: 'vendor/lib', mode: '160000', type: 'commit', sha: sha40('c') }, '~> submodules: no size, no url');
	assert.is(deep.body.truncated, false);
	assert.equal(
		(await s.get(`${R}/trees/${rootTree}?recursive=false`, owner)).body.tree.length,
		lsTree.length,
		'~> any value of recursive recurses',
	);
});

test('trees – base_tree: replace, add and delete by path; emptied folders disappear', async () => {
	const res = await create('/trees', {
		base_tree: rootTree,
		tree: [
			{ path: 'docs/guide/intro.md', mode: '100644', type: 'blob', content: 'new intro\n' },
			{ path: 'docs/guide/more.md', mode: '100644', type: 'blob', content: 'more\n' },
			{ path: 'bin/run.sh', mode: '100755', type: 'blob', sha: null },
			{ path: 'link', mode: '120000', type: 'blob', sha: null },
		],
	});
	assert.is(res.status, 201);
	const expected = files()
		.filter((f) => f.path !== 'bin/run.sh' && f.path !== 'link')
		.map((f) => (f.path === 'docs/guide/intro.md' ? { ...f, sha: gitBlob('new intro\n') } : f))
		.concat([{ path: 'docs/guide/more.md', mode: '100644', sha: gitBlob('more\n') }]);
	assert.is(res.body.sha, gitTree(expected));
	assert.not.ok(
		res.body.tree.some((e: any) => e.path === 'bin'),
		'~> bin held only run.sh',
	);
	const subtree = (await s.get(`${R}/trees/${rootTree}`, owner)).body.tree.find((e: any) => e.path === 'docs');
	const replaced = await create('/trees', {
		base_tree: rootTree,
		tree: [
			{ path: 'moved', mode: '040000', type: 'tree', sha: subtree.sha },
			{ path: 'docs', mode: '040000', sha: null },
		],
	});
	assert.is(replaced.status, 201);
	assert.ok(replaced.body.tree.some((e: any) => e.path === 'moved' && e.sha === subtree.sha));
	const emptied = await create('/trees', {
		base_tree: replaced.body.sha,
		tree: replaced.body.tree.map((e: any) => ({ path: e.path, mode: e.mode, sha: null })),
	});
	assert.is(emptied.body.sha, '4b825dc642cb6eb9a060e54bf8d69288fbee4904', '~> the empty tree');
	assert.equal(emptied.body.tree, []);
	assert.is((await create('/trees', { tree: [] })).body.sha, '4b825dc642cb6eb9a060e54bf8d69288fbee4904');
});

test("trees – validation, GitHub's messages, nothing written on failure; denial", async () => {
	const blob = (await create('/blobs', { content: 'v\n' })).body.sha;
	const cases: Array<[Record<string, unknown>, string]> = [
		[{}, 'tree'],
		[{ tree: [{ path: 'x', mode: '100600', type: 'blob', sha: blob }] }, 'tree.0.mode'],
		[{ tree: [{ mode: '100644', type: 'blob', sha: blob }] }, 'tree.0.path'],
		[{ tree: [{ path: 'x', mode: '100644', type: 'tree', sha: blob }] }, 'tree.0.type'],
		[{ tree: [{ path: 'x', mode: '100644', type: 'blob', sha: blob, content: 'v' }] }, 'tree.0.content'],
		[{ tree: [{ path: 'x', mode: '100644', type: 'blob' }] }, 'tree.0.sha'],
		[{ tree: [{ path: 'a/../b', mode: '100644', content: 'v' }] }, 'tree.0.path'],
		[{ tree: [{ path: '.git/config', mode: '100644', content: 'v' }] }, 'tree.0.path'],
		[{ tree: [{ path: '/abs', mode: '100644', content: 'v' }] }, 'tree.0.path'],
		[{ tree: [{ path: 'x', mode: '040000', content: 'v' }] }, 'tree.0.content'],
		[{ tree: [{ path: 'x', mode: '100644', sha: 'abc' }] }, 'tree.0.sha'],
	];
	const count = () => s.app.db.prepare('SELECT count(*) FROM git_objects').pluck().get() as number;
	const before = count();
	for (const [body, field] of cases) {
		const res = await create('/trees', body);
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors?.some((e: any) => e.field === field && e.resource === 'Tree'),
			`~> names ${field}: ${JSON.stringify(res.body)}`,
		);
	}
	const messages: Array<[Record<string, unknown>, string]> = [
		[{ tree: [{ path: 'x', mode: '100644', type: 'blob', sha: sha40('d') }] }, `tree.sha ${sha40('d')} is not a valid blob`],
		[{ tree: [{ path: 'x', mode: '040000', type: 'tree', sha: blob }] }, `tree.sha ${blob} is not a valid tree`],
		[{ base_tree: blob, tree: [] }, 'base_tree is not a valid tree oid'],
		[{ base_tree: 'main', tree: [] }, 'base_tree is not a valid tree oid'],
		[
			{
				base_tree: rootTree,
				tree: [
					{ path: 'new.txt', mode: '100644', content: 'kept?' },
					{ path: 'nope/x', mode: '100644', sha: null },
				],
			},
			'tree.path nope/x cannot be deleted: it does not exist in base_tree',
		],
	];
	for (const [body, message] of messages) {
		const res = await create('/trees', body);
		assert.is(res.status, 422);
		assert.is(res.body.message, message);
	}
	assert.is(count(), before, '~> a refused request leaves no object behind');
	assert.is((await s.get(`${R}/trees/${sha40('e')}`, owner)).status, 404);
	assert.is((await s.get(`${R}/trees/${blob}`, owner)).status, 404, '~> a blob leads to no tree');
	assert.is((await s.get(`${R}/trees/no-such-branch`, owner)).status, 404);
	assert.is((await s.request('POST', `${R}/trees`, { body: { tree: [] } })).status, 401);
	assert.is((await create('/trees', { tree: [] }, reader)).status, 403);
	assert.is((await s.request('POST', '/repos/acme/vault/git/trees', { token: outsider, body: { tree: [] } })).status, 404);
	assert.is((await s.get(`${R}/trees/${rootTree}`)).status, 200);
	assert.is((await s.get(`/repos/acme/vault/git/trees/${rootTree}`)).status, 404);
});

// ---------------------------------------------------------------------------------------------
// Commits

const commits: Record<string, string> = {};

test('commits – byte-exact as git commit-tree: offsets kept, dates answered in UTC, parents in order', async () => {
	const author = { name: 'Mona Octocat', email: 'octocat@github.com', date: '2008-07-09T16:13:30+12:00' };
	const committer = { name: 'Hubot', email: 'hubot@example.com', date: '2011-01-02T03:04:05-05:30' };
	const res = await create('/commits', { message: 'Initial commit\n\nWith a body, no final newline', tree: rootTree, author, committer });
	assert.is(res.status, 201);
	exportObjects();
	const expected = gitCommit(
		rootTree,
		[],
		'Initial commit\n\nWith a body, no final newline',
		['Mona Octocat', 'octocat@github.com', '1215576810 +1200'],
		['Hubot', 'hubot@example.com', '1293957245 -0530'],
	);
	assert.is(res.body.sha, expected, '~> the id git commit-tree gives');
	commits.root = res.body.sha;
	assert.equal(Object.keys(res.body), [
		'sha',
		'node_id',
		'url',
		'html_url',
		'author',
		'committer',
		'tree',
		'message',
		'parents',
		'verification',
	]);
	assert.equal(res.body.author, { name: 'Mona Octocat', email: 'octocat@github.com', date: '2008-07-09T04:13:30Z' });
	assert.equal(res.body.committer, { name: 'Hubot', email: 'hubot@example.com', date: '2011-01-02T08:34:05Z' });
	assert.equal(res.body.tree, { sha: rootTree, url: `${s.api}/repos/acme/app/git/trees/${rootTree}` });
	assert.equal(res.body.parents, []);
	assert.equal(res.body.verification, UNSIGNED);
	assert.is(res.body.html_url, `${s.origin}/acme/app/commit/${res.body.sha}`);
	assert.is(res.headers.get('location'), `${s.api}/repos/acme/app/git/commits/${res.body.sha}`);
	assert.is(decodeNodeId(res.body.node_id), `06:Commit${app.id}:${res.body.sha}`);
	assert.equal((await s.get(`${R}/commits/${res.body.sha}`)).body, res.body, '~> read back, anonymously on a public repository');

	// Defaults: the caller, now; the committer is the author.
	const child = await create('/commits', { message: 'second', tree: rootTree, parents: [commits.root] });
	assert.is(child.status, 201);
	const now = Math.floor(s.clock.now / 1000);
	const me = ['olivia', `${s.app.stores.accounts.byLogin('olivia')!.id}+olivia@users.noreply.127.0.0.1`, `${now} +0000`];
	exportObjects();
	assert.is(child.body.sha, gitCommit(rootTree, [commits.root], 'second', me, me));
	assert.equal(child.body.author, { name: me[0], email: me[1], date: '2026-11-22T12:00:00Z' });
	assert.equal(child.body.committer, child.body.author);
	assert.equal(child.body.parents, [
		{
			sha: commits.root,
			url: `${s.api}/repos/acme/app/git/commits/${commits.root}`,
			html_url: `${s.origin}/acme/app/commit/${commits.root}`,
		},
	]);
	commits.a1 = child.body.sha;
	const onlyCommitter = await create('/commits', { message: 'c', tree: rootTree, committer: { name: 'X', email: 'x@example.com' } });
	assert.equal(onlyCommitter.body.author, child.body.author, '~> the author is the caller when only a committer is given');
	assert.equal(onlyCommitter.body.committer, { name: 'X', email: 'x@example.com', date: '2026-11-22T12:00:00Z' });
	const offset = await create('/commits', {
		message: 'u',
		tree: rootTree,
		author: { name: 'U', email: 'u@x', date: '2020-02-29T23:59:59Z' },
	});
	exportObjects();
	assert.is(offset.body.sha, gitCommit(rootTree, [], 'u', ['U', 'u@x', '1583020799 +0000'], ['U', 'u@x', '1583020799 +0000']));
});

test('commits – signature: a gpgsig header as git writes it; verification answers unknown_key / unknown_signature_type', async () => {
	// A real SSH signature made by git itself.
	execFileSync('ssh-keygen', ['-t', 'ed25519', '-N', '', '-q', '-C', 'gitstead-test', '-f', join(work, 'key')]);
	const who = ['Signer', 'signer@example.com', '1700000000 +0200'];
	const signedSha = gitCommit(rootTree, [commits.root], 'signed commit\n', who, who, join(work, 'key.pub'));
	const text = git(['cat-file', 'commit', signedSha]);
	const lines = text.split('\n');
	const start = lines.findIndex((line) => line.startsWith('gpgsig '));
	let end = start + 1;
	while (lines[end].startsWith(' ')) end++;
	const signature = `${[lines[start].slice('gpgsig '.length), ...lines.slice(start + 1, end).map((l) => l.slice(1))].join('\n')}\n`;
	assert.match(signature, /^-----BEGIN SSH SIGNATURE-----\n/);
	const person = { name: 'Signer', email: 'signer@example.com', date: '2023-11-15T00:13:20+02:00' };
	const res = await create('/commits', {
		message: 'signed commit\n',
		tree: rootTree,
		parents: [commits.root],
		author: person,
		committer: person,
		signature,
	});
	assert.is(res.status, 201);
	assert.is(res.body.sha, signedSha, '~> the id of the commit git signed');
	assert.equal(res.body.verification, {
		verified: false,
		reason: 'unknown_key',
		signature,
		payload: [...lines.slice(0, start), ...lines.slice(end)].join('\n'),
		verified_at: null,
	});
	assert.ok(res.body.verification.payload.startsWith(`tree ${rootTree}\n`));

	const pgp =
		'-----BEGIN PGP SIGNATURE-----\n\niQIzBAABAQAdFiEESn/54jMNIrGSE6Tp6cQjvhfv7nAFAlnT71cACgkQ6cQjvhfv\n=5Io4\n-----END PGP SIGNATURE-----';
	const pgpRes = await create('/commits', { message: 'pgp', tree: rootTree, author: person, committer: person, signature: pgp });
	// A truncated signature packet (its length says 563 bytes): unreadable, as GitHub says.
	assert.is(pgpRes.body.verification.reason, 'malformed_signature');
	assert.is(pgpRes.body.verification.signature, `${pgp}\n`);
	const x509 = '-----BEGIN SIGNED MESSAGE-----\nMIAGCSqGSIb3DQEHAqCAMIACAQEx\n-----END SIGNED MESSAGE-----\n';
	const x509Res = await create('/commits', { message: 'x509', tree: rootTree, author: person, committer: person, signature: x509 });
	assert.is(x509Res.body.verification.reason, 'unknown_signature_type');
	assert.equal((await s.get(`${R}/commits/${x509Res.body.sha}`, owner)).body.verification, x509Res.body.verification);
	exportObjects();
	assert.match(git(['cat-file', 'commit', pgpRes.body.sha]), 'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQIz');
});

test("commits – validation, GitHub's messages; denial", async () => {
	const blob = (await create('/blobs', { content: 'b' })).body.sha;
	const fields: Array<[Record<string, unknown>, string]> = [
		[{ tree: rootTree }, 'message'],
		[{ message: 'm' }, 'tree'],
		[{ message: 'm', tree: rootTree, parents: 'x' }, 'parents'],
		[{ message: 'm', tree: rootTree, author: { name: 'A' } }, 'author.email'],
		[{ message: 'm', tree: rootTree, author: { name: 'A <evil>', email: 'a@x' } }, 'author.name'],
		[{ message: 'm', tree: rootTree, author: { name: ' ', email: 'a@x' } }, 'author.name'],
		[{ message: 'm', tree: rootTree, committer: { name: 'A', email: 'a\n@x' } }, 'committer.email'],
		[{ message: 'm', tree: rootTree, author: { name: 'A', email: 'a@x', date: 'yesterday' } }, 'author.date'],
		[{ message: 'm', tree: rootTree, author: { name: 'A', email: 'a@x', date: '2020-02-30T00:00:00Z' } }, 'author.date'],
		[{ message: 'm', tree: rootTree, author: { name: 'A', email: 'a@x', date: '1969-12-31T23:59:59Z' } }, 'author.date'],
	];
	for (const [body, field] of fields) {
		const res = await create('/commits', body);
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field && e.resource === 'Commit'),
			`~> names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
	for (const [body, message] of [
		[{ message: 'm', tree: sha40('f') }, 'Tree SHA does not exist'],
		[{ message: 'm', tree: blob }, 'Tree SHA does not exist'],
		[{ message: 'm', tree: rootTree, parents: [sha40('f')] }, 'Parent SHA does not exist or is not a commit object'],
		[{ message: 'm', tree: rootTree, parents: [rootTree] }, 'Parent SHA does not exist or is not a commit object'],
		[{ message: 'm', tree: rootTree, parents: [commits.root.slice(0, 7)] }, 'Parent SHA does not exist or is not a commit object'],
	] as const) {
		const res = await create('/commits', body);
		assert.is(res.status, 422);
		assert.is(res.body.message, message);
	}
	assert.is((await s.get(`${R}/commits/${sha40('f')}`, owner)).status, 404);
	assert.is((await s.get(`${R}/commits/${rootTree}`, owner)).status, 404, '~> a tree is not a commit');
	assert.is((await s.get(`${R}/commits/main`, owner)).status, 404, '~> commit objects by id only');
	assert.is((await s.request('POST', `${R}/commits`, { body: { message: 'm', tree: rootTree } })).status, 401);
	assert.is((await create('/commits', { message: 'm', tree: rootTree }, reader)).status, 403);
	assert.is((await s.get(`/repos/acme/vault/git/commits/${commits.root}`, outsider)).status, 404);
});

// ---------------------------------------------------------------------------------------------
// References

test('refs – an empty repository (no commit yet) answers 409 "Git Repository is empty." to ref and tag routes', async () => {
	const E = '/repos/acme/empty/git';
	const blob = await s.request('POST', `${E}/blobs`, { token: owner, body: { content: 'first' } });
	assert.is(blob.status, 201, '~> objects can be written: they are how a repository gets its first commit');
	for (const [method, path, body] of [
		['POST', '/refs', { ref: 'refs/heads/main', sha: blob.body.sha }],
		['POST', '/tags', { tag: 'v1', message: 'm', object: blob.body.sha, type: 'blob' }],
		['GET', '/ref/heads/main', undefined],
		['GET', '/matching-refs/heads', undefined],
		['GET', `/tags/${sha40('a')}`, undefined],
		['PATCH', '/refs/heads/main', { sha: blob.body.sha }],
		['DELETE', '/refs/heads/main', undefined],
	] as const) {
		const res = await s.request(method, `${E}${path}`, { token: owner, body });
		assert.is(res.status, 409, `~> ${method} ${path}`);
		assert.is(res.body.message, 'Git Repository is empty.');
	}
});

test("refs – create, get, list matching by prefix; a branch push sets the repository's pushed_at", async () => {
	const before = (await s.get('/repos/acme/app', owner)).body.pushed_at;
	s.clock.advance(3_600_000);
	const res = await create('/refs', { ref: 'refs/heads/main', sha: commits.a1 });
	assert.is(res.status, 201);
	assert.equal(res.body, {
		ref: 'refs/heads/main',
		node_id: res.body.node_id,
		url: `${s.api}/repos/acme/app/git/refs/heads/main`,
		object: { sha: commits.a1, type: 'commit', url: `${s.api}/repos/acme/app/git/commits/${commits.a1}` },
	});
	assert.is(decodeNodeId(res.body.node_id), `03:Ref${app.id}:refs/heads/main`);
	assert.is(res.headers.get('location'), res.body.url);
	const pushedAt = (await s.get('/repos/acme/app', owner)).body.pushed_at;
	assert.is(pushedAt, '2026-11-22T13:00:00Z');
	assert.is.not(pushedAt, before);

	for (const name of ['refs/heads/feature', 'refs/heads/featureB', 'refs/heads/feature/x', 'refs/heads/zeta', 'refs/tags/v0.1']) {
		assert.is((await create('/refs', { ref: name, sha: commits.root })).status, 201, `~> ${name}`);
	}
	s.clock.advance(60_000);
	assert.is((await create('/refs', { ref: 'refs/tags/v0.2', sha: commits.root })).status, 201);
	assert.is((await s.get('/repos/acme/app', owner)).body.pushed_at, pushedAt, '~> a tag is not a branch push');

	const got = await s.get(`${R}/ref/heads/main`);
	assert.is(got.status, 200);
	assert.equal(got.body, res.body);
	assert.is((await s.get(`${R}/ref/heads/nope`, owner)).status, 404);
	assert.is((await s.get(`${R}/ref/heads/featur`, owner)).status, 404, '~> get is exact');

	const matching = await s.get(`${R}/matching-refs/heads/feature`, owner);
	assert.is(matching.status, 200);
	assert.equal(
		matching.body.map((r: any) => r.ref),
		['refs/heads/feature', 'refs/heads/feature/x', 'refs/heads/featureB'],
	);
	assert.equal(
		(await s.get(`${R}/matching-refs/tags/v`, owner)).body.map((r: any) => r.ref),
		['refs/tags/v0.1', 'refs/tags/v0.2'],
	);
	assert.equal((await s.get(`${R}/matching-refs/heads/nothing`, owner)).body, []);
	const all = await s.get(`${R}/matching-refs/`, owner);
	assert.is(all.body.length, 7, '~> without a ref: every reference');
	assert.equal((await s.get(`${R}/matching-refs`, owner)).body, all.body);
	const page = await s.get(`${R}/matching-refs/heads?per_page=2&page=2`, owner);
	assert.equal(
		page.body.map((r: any) => r.ref),
		['refs/heads/featureB', 'refs/heads/main'],
	);
	assert.match(page.headers.get('link')!, 'rel="next"');

	// GitHub's older forms: GET /git/refs and GET /git/refs/{ref} (exact, else the references it prefixes).
	assert.equal((await s.get(`${R}/refs`, owner)).body, all.body);
	assert.equal((await s.get(`${R}/refs/heads/main`, owner)).body, res.body);
	assert.equal(
		(await s.get(`${R}/refs/tags`, owner)).body.map((r: any) => r.ref),
		['refs/tags/v0.1', 'refs/tags/v0.2'],
	);
	assert.is((await s.get(`${R}/refs/heads/nope`, owner)).status, 404);
	assert.is((await s.get(`/repos/acme/vault/git/matching-refs/heads`)).status, 404);
	for (const path of ['/ref/heads/main', '/refs', '/refs/heads/main', '/matching-refs/heads']) {
		assert.is(
			(await s.get(`/repos/acme/vault/git${path}`, outsider)).status,
			404,
			`~> ${path}: a private repository is invisible to outsiders`,
		);
		assert.is((await s.get(`/repos/acme/vault/git${path}`, reader)).status, 409, `~> ${path}: members read it (it is empty)`);
	}
});

test("refs – create: validation and GitHub's messages; denial", async () => {
	const blob = (await create('/blobs', { content: 'b' })).body.sha;
	for (const name of [
		'heads/x',
		'refs/x',
		'refs/heads/a..b',
		'refs/heads/x.lock',
		'refs/heads/.hidden',
		'refs/heads/with space',
		'refs/heads/x/',
		'refs/heads/a@{1}',
		'refs/heads/a~1',
		'refs/notes/x',
		'refs/heads//x',
	]) {
		const res = await create('/refs', { ref: name, sha: commits.root });
		assert.is(res.status, 422, `~> ${name}`);
		assert.is(res.body.message, `${name} is not a valid ref name.`);
	}
	const exists = await create('/refs', { ref: 'refs/heads/main', sha: commits.root });
	assert.is(exists.status, 422);
	assert.is(exists.body.message, 'Reference already exists');
	const missing = await create('/refs', { ref: 'refs/heads/ghost', sha: sha40('9') });
	assert.is(missing.status, 422);
	assert.is(missing.body.message, 'Object does not exist');
	assert.is((await create('/refs', { ref: 'refs/heads/short', sha: commits.root.slice(0, 10) })).body.message, 'Object does not exist');
	assert.is((await create('/refs', { ref: 'refs/heads/blob', sha: blob })).status, 422, '~> a branch points to a commit');
	assert.is((await create('/refs', { ref: 'refs/tags/blob', sha: blob })).status, 201, '~> a tag may point to any object');
	const fields = await create('/refs', { ref: 'refs/heads/x' });
	assert.is(fields.status, 422);
	assert.is(fields.body.errors[0].field, 'sha');
	assert.is((await s.request('POST', `${R}/refs`, { body: { ref: 'refs/heads/anon', sha: commits.root } })).status, 401);
	assert.is((await create('/refs', { ref: 'refs/heads/mike', sha: commits.root }, reader)).status, 403);
	assert.is(
		(await s.request('POST', '/repos/acme/vault/git/refs', { token: outsider, body: { ref: 'refs/heads/x', sha: commits.root } }))
			.status,
		404,
	);
});

test('refs – update: fast-forward only unless force; delete; the default branch stays', async () => {
	// a2 descends from a1 (main); b1 is a sibling of a1.
	const a2 = (await create('/commits', { message: 'a2', tree: rootTree, parents: [commits.a1] })).body.sha;
	const b1 = (await create('/commits', { message: 'b1', tree: rootTree, parents: [commits.root] })).body.sha;
	Object.assign(commits, { a2, b1 });
	s.clock.advance(60_000);
	const forward = await s.request('PATCH', `${R}/refs/heads/main`, { token: owner, body: { sha: a2 } });
	assert.is(forward.status, 200);
	assert.is(forward.body.object.sha, a2);
	assert.is((await s.get('/repos/acme/app', owner)).body.pushed_at, '2026-11-22T13:02:00Z', '~> a branch update is a push');
	const sideways = await s.request('PATCH', `${R}/refs/heads/main`, { token: owner, body: { sha: b1 } });
	assert.is(sideways.status, 422);
	assert.is(sideways.body.message, 'Update is not a fast forward');
	const back = await s.request('PATCH', `${R}/refs/heads/main`, { token: owner, body: { sha: commits.a1, force: false } });
	assert.is(back.body.message, 'Update is not a fast forward', '~> backwards is not forward either');
	const same = await s.request('PATCH', `${R}/refs/heads/main`, { token: owner, body: { sha: a2 } });
	assert.is(same.status, 200, '~> no move is fine');
	const forced = await s.request('PATCH', `${R}/refs/heads/zeta`, { token: owner, body: { sha: b1, force: true } });
	assert.is(forced.status, 200);
	assert.is((await s.request('PATCH', `${R}/refs/heads/zeta`, { token: owner, body: { sha: a2, force: true } })).body.object.sha, a2);
	assert.is((await s.get(`${R}/ref/heads/zeta`, owner)).body.object.sha, a2);

	for (const [path, body, message] of [
		['/refs/heads/ghost', { sha: a2 }, 'Reference does not exist'],
		['/refs/refs/heads/main', { sha: a2 }, 'Reference does not exist'],
		['/refs/heads/main', { sha: sha40('7') }, 'Object does not exist'],
		['/refs/heads/main', { sha: rootTree, force: true }, `Object ${rootTree} is a tree; a branch must point to a commit`],
	] as const) {
		const res = await s.request('PATCH', `${R}${path}`, { token: owner, body });
		assert.is(res.status, 422, `~> ${path} ${JSON.stringify(body)}`);
		assert.is(res.body.message, message);
	}
	assert.is((await s.request('PATCH', `${R}/refs/heads/main`, { token: owner, body: { force: true } })).status, 422);
	assert.is((await s.request('PATCH', `${R}/refs/heads/main`, { token: owner, body: { sha: a2, force: 'yes' } })).status, 422);
	assert.is((await s.request('PATCH', `${R}/refs/heads/main`, { body: { sha: a2 } })).status, 401);
	assert.is((await s.request('PATCH', `${R}/refs/heads/main`, { token: reader, body: { sha: a2 } })).status, 403);

	assert.is((await s.request('DELETE', `${R}/refs/heads/featureB`, { token: reader })).status, 403);
	assert.is((await s.request('DELETE', `${R}/refs/heads/featureB`)).status, 401);
	const deleted = await s.request('DELETE', `${R}/refs/heads/featureB`, { token: owner });
	assert.is(deleted.status, 204);
	assert.is((await s.get(`${R}/ref/heads/featureB`, owner)).status, 404);
	const again = await s.request('DELETE', `${R}/refs/heads/featureB`, { token: owner });
	assert.is(again.status, 422);
	assert.is(again.body.message, 'Reference does not exist');
	const main = await s.request('DELETE', `${R}/refs/heads/main`, { token: owner });
	assert.is(main.status, 422);
	assert.is(main.body.message, 'Cannot delete the default branch');
	assert.is((await s.request('DELETE', `${R}/refs/tags/v0.2`, { token: owner })).status, 204);
	assert.is((await s.request('DELETE', '/repos/acme/vault/git/refs/heads/main', { token: outsider })).status, 404);
});

// ---------------------------------------------------------------------------------------------
// Annotated tags

test("forks start with the parent's objects and references", async () => {
	const main = (await s.get(`${R}/ref/heads/main`, owner)).body.object.sha;
	const fork = await s.request('POST', '/repos/acme/app/forks', { token: outsider, body: {} });
	assert.is(fork.status, 202);
	const forked = await s.get(`/repos/eve/app/git/ref/heads/main`, outsider);
	assert.is(forked.status, 200);
	assert.is(forked.body.object.sha, main);
	const commit = await s.get(`/repos/eve/app/git/commits/${main}`, outsider);
	assert.is(commit.body.sha, main);
	assert.ok(commit.body.parents.length > 0, '~> the commit graph comes along');
});

test('tags – create a tag object as git tag -a writes it; refs/tags/<tag> completes the annotated tag', async () => {
	const res = await create('/tags', {
		tag: 'v1.0.0',
		message: 'Initial public release\n',
		object: commits.a2,
		type: 'commit',
		tagger: { name: 'Monalisa Octocat', email: 'octocat@github.com', date: '2011-06-17T14:53:35-07:00' },
	});
	assert.is(res.status, 201);
	exportObjects();
	const expected = gitLine(['tag', '-a', '-F', '-', '--cleanup=verbatim', 'v1.0.0', commits.a2], {
		input: 'Initial public release\n',
		env: { GIT_COMMITTER_NAME: 'Monalisa Octocat', GIT_COMMITTER_EMAIL: 'octocat@github.com', GIT_COMMITTER_DATE: '1308347615 -0700' },
	});
	assert.is(expected, '', '~> git tag prints nothing');
	assert.is(res.body.sha, gitLine(['rev-parse', 'refs/tags/v1.0.0']), '~> the id of the tag git made');
	assert.equal(res.body, {
		node_id: res.body.node_id,
		tag: 'v1.0.0',
		sha: res.body.sha,
		url: `${s.api}/repos/acme/app/git/tags/${res.body.sha}`,
		message: 'Initial public release\n',
		tagger: { name: 'Monalisa Octocat', email: 'octocat@github.com', date: '2011-06-17T21:53:35Z' },
		object: { sha: commits.a2, type: 'commit', url: `${s.api}/repos/acme/app/git/commits/${commits.a2}` },
		verification: UNSIGNED,
	});
	assert.is(decodeNodeId(res.body.node_id), `03:Tag${app.id}:${res.body.sha}`);
	assert.is(res.headers.get('location'), res.body.url);
	assert.is((await s.get(`${R}/ref/tags/v1.0.0`, owner)).status, 404, '~> the tag object alone makes no reference');

	const ref = await create('/refs', { ref: 'refs/tags/v1.0.0', sha: res.body.sha });
	assert.is(ref.status, 201);
	assert.equal(ref.body.object, { sha: res.body.sha, type: 'tag', url: res.body.url });
	assert.equal((await s.get(`${R}/tags/${res.body.sha}`)).body, res.body, '~> read back anonymously');
	assert.is((await s.get(`${R}/trees/v1.0.0`, owner)).body.sha, rootTree, "~> a tag name leads to its commit's tree");
	assert.is((await s.get(`${R}/trees/main`, owner)).body.sha, rootTree, '~> so does a branch name');
	assert.is((await s.get(`${R}/trees/${commits.a2}`, owner)).body.sha, rootTree, '~> and a commit id');

	// Tagger defaults to the caller, now; trees, blobs and tags can be tagged too.
	const plain = await create('/tags', { tag: 'tree-tag', message: 'a tree', object: rootTree, type: 'tree' });
	assert.is(plain.status, 201);
	assert.equal(plain.body.tagger, {
		name: 'olivia',
		email: `${s.app.stores.accounts.byLogin('olivia')!.id}+olivia@users.noreply.127.0.0.1`,
		date: '2026-11-22T13:02:00Z',
	});
	assert.equal(plain.body.object.url, `${s.api}/repos/acme/app/git/trees/${rootTree}`);
	const nested = await create('/tags', {
		tag: 'meta',
		message: 'tag of a tag',
		object: res.body.sha,
		type: 'tag',
		tagger: { name: 'T', email: 't@x', date: '2020-01-01T00:00:00Z' },
	});
	assert.is(nested.status, 201);
	exportObjects();
	gitLine(['tag', '-a', '-F', '-', '--cleanup=verbatim', 'meta', res.body.sha], {
		input: 'tag of a tag',
		env: { GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@x', GIT_COMMITTER_DATE: '1577836800 +0000' },
	});
	assert.is(nested.body.sha, gitLine(['rev-parse', 'refs/tags/meta']));
	assert.is(nested.body.object.url, `${s.api}/repos/acme/app/git/tags/${res.body.sha}`);
});

test('tags – verification: a signature closing the message (SSH by an unregistered key → unknown_key, a truncated PGP packet → malformed_signature, other armor → unknown_signature_type)', async () => {
	// A tag git signs with an SSH key, replayed through the API: same object, same id.
	gitLine(
		[
			'-c',
			'gpg.format=ssh',
			'-c',
			`user.signingkey=${join(work, 'key.pub')}`,
			'tag',
			'-s',
			'-F',
			'-',
			'--cleanup=verbatim',
			'v2.0.0',
			commits.a2,
		],
		{
			input: 'Signed release\n',
			env: { GIT_COMMITTER_NAME: 'Signer', GIT_COMMITTER_EMAIL: 'signer@example.com', GIT_COMMITTER_DATE: '1700000000 +0100' },
		},
	);
	const sha = gitLine(['rev-parse', 'refs/tags/v2.0.0']);
	const text = git(['cat-file', 'tag', sha]);
	const message = text.slice(text.indexOf('\n\n') + 2);
	assert.match(message, /^Signed release\n-----BEGIN SSH SIGNATURE-----\n/);
	const res = await create('/tags', {
		tag: 'v2.0.0',
		message,
		object: commits.a2,
		type: 'commit',
		tagger: { name: 'Signer', email: 'signer@example.com', date: '2023-11-14T23:13:20+01:00' },
	});
	assert.is(res.status, 201);
	assert.is(res.body.sha, sha, '~> the id of the tag git signed');
	const at = text.indexOf('-----BEGIN SSH SIGNATURE-----');
	assert.equal(res.body.verification, {
		verified: false,
		reason: 'unknown_key',
		signature: text.slice(at),
		payload: text.slice(0, at),
		verified_at: null,
	});
	assert.is(res.body.message, message, '~> the message is kept whole, signature included');
	assert.equal((await s.get(`${R}/tags/${sha}`, owner)).body.verification, res.body.verification);

	const tagger = { name: 'T', email: 't@x', date: '2020-01-01T00:00:00Z' };
	const pgp = await create('/tags', {
		tag: 'pgp',
		message: 'rel\n-----BEGIN PGP SIGNATURE-----\n\nwsBcBAABCAAQBQJ\n=abcd\n-----END PGP SIGNATURE-----\n',
		object: commits.a2,
		type: 'commit',
		tagger,
	});
	// A truncated signature packet: unreadable, as GitHub says.
	assert.is(pgp.body.verification.reason, 'malformed_signature');
	assert.is(pgp.body.verification.signature, '-----BEGIN PGP SIGNATURE-----\n\nwsBcBAABCAAQBQJ\n=abcd\n-----END PGP SIGNATURE-----\n');
	assert.is(pgp.body.verification.payload, `object ${commits.a2}\ntype commit\ntag pgp\ntagger T <t@x> 1577836800 +0000\n\nrel\n`);
	const smime = await create('/tags', {
		tag: 'smime',
		message: 'rel\n-----BEGIN SIGNED MESSAGE-----\nMIAG\n-----END SIGNED MESSAGE-----',
		object: commits.a2,
		type: 'commit',
		tagger,
	});
	assert.is(smime.body.verification.reason, 'unknown_signature_type');
	assert.is(smime.body.verification.signature, '-----BEGIN SIGNED MESSAGE-----\nMIAG\n-----END SIGNED MESSAGE-----\n');
	const middle = await create('/tags', {
		tag: 'mid',
		message: '-----BEGIN PGP SIGNATURE-----\nx\n-----END PGP SIGNATURE-----\nand text after',
		object: commits.a2,
		type: 'commit',
		tagger,
	});
	assert.equal(middle.body.verification, UNSIGNED, '~> only a block closing the message is a signature');
	exportObjects();
	assert.equal(git(['fsck', '--strict', '--no-dangling']), '', '~> every object so far passes git fsck --strict');
});

test("tags – validation, GitHub's messages; denial", async () => {
	const blob = (await create('/blobs', { content: 'b' })).body.sha;
	const base = { tag: 'x', message: 'm', object: commits.a2, type: 'commit' };
	for (const [body, field] of [
		[{ message: 'm', object: commits.a2, type: 'commit' }, 'tag'],
		[{ tag: 'x', object: commits.a2, type: 'commit' }, 'message'],
		[{ tag: 'x', message: 'm', type: 'commit' }, 'object'],
		[{ tag: 'x', message: 'm', object: commits.a2 }, 'type'],
		[{ ...base, type: 'branch' }, 'type'],
		[{ ...base, type: 'tree' }, 'type'],
		[{ ...base, tag: '' }, 'tag'],
		[{ ...base, tag: 'two\nlines' }, 'tag'],
		[{ ...base, tagger: { name: 'T' } }, 'tagger.email'],
		[{ ...base, tagger: { name: 'T', email: 't@x', date: '17 June 2011' } }, 'tagger.date'],
	] as const) {
		const res = await create('/tags', body);
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field && e.resource === 'Tag'),
			`~> names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
	for (const object of [sha40('8'), commits.a2.slice(0, 12)]) {
		const res = await create('/tags', { ...base, object });
		assert.is(res.status, 422);
		assert.is(res.body.message, 'Object does not exist');
	}
	assert.is((await create('/tags', { ...base, object: blob, type: 'blob' })).status, 201);
	assert.is((await s.get(`${R}/tags/${sha40('8')}`, owner)).status, 404);
	assert.is((await s.get(`${R}/tags/${commits.a2}`, owner)).status, 404, '~> a commit is not a tag object');
	assert.is((await s.get(`${R}/tags/v1.0.0`, owner)).status, 404, '~> tag objects by id only');
	assert.is((await s.request('POST', `${R}/tags`, { body: base })).status, 401);
	assert.is((await create('/tags', base, reader)).status, 403);
	assert.is((await s.request('POST', '/repos/acme/vault/git/tags', { token: outsider, body: base })).status, 404);
	assert.is((await s.get(`/repos/acme/vault/git/tags/${sha40('8')}`)).status, 404);
});

// ---------------------------------------------------------------------------------------------
// The revision service (src/api/git/service.ts), compared with git on the same objects

test('service – resolveCommit, commitParents, mergeBase(s) agree with git rev-parse / rev-list / merge-base', async () => {
	const commit = async (message: string, parents: string[]) =>
		(await create('/commits', { message, tree: rootTree, parents })).body.sha as string;
	// root ─ a1 ─ a2 ─ a3 ─────── m (merge of a3 and b2)
	//    └─ b1 ─ b2 ─┘    x1 = merge(a2, b1), x2 = merge(b1, a2): a criss-cross with two merge bases
	const a3 = await commit('a3', [commits.a2]);
	const b2 = await commit('b2', [commits.b1]);
	const m = await commit('m', [a3, b2]);
	const x1 = await commit('x1', [commits.a2, commits.b1]);
	const x2 = await commit('x2', [commits.b1, commits.a2]);
	const lonely = await commit('unrelated root', []);
	const tagObject = (name: string) => gitLine(['rev-parse', `refs/tags/${name}`]);
	for (const [name, sha] of [
		['refs/heads/m', m],
		['refs/heads/b2', b2],
		['refs/tags/meta', tagObject('meta')],
		['refs/tags/v2.0.0', tagObject('v2.0.0')],
	]) {
		assert.is((await create('/refs', { ref: name, sha })).status, 201, `~> ${name}`);
	}
	exportObjects();
	for (const name of ['main', 'm', 'b2', 'zeta', 'feature'])
		git(['update-ref', `refs/heads/${name}`, (await s.get(`${R}/ref/heads/${name}`, owner)).body.object.sha]);
	git(['symbolic-ref', 'HEAD', 'refs/heads/main']);

	const repo = s.app.stores.repos.byId(app.id)!;
	const revisions = [
		'main',
		'heads/main',
		'refs/heads/main',
		'HEAD',
		'm',
		'v1.0.0',
		'tags/v1.0.0',
		'refs/tags/v1.0.0',
		'meta',
		'v2.0.0',
		m,
		m.toUpperCase(),
		m.slice(0, 7),
		b2.slice(0, 12),
	];
	for (const rev of revisions) {
		assert.is(resolveCommit(s.app, repo, rev), gitLine(['rev-parse', '--verify', '-q', `${rev}^{commit}`]), `~> ${rev}`);
	}
	for (const rev of ['nope', 'tree-tag', rootTree, sha40('1'), 'abc', '']) {
		assert.is(resolveCommit(s.app, repo, rev), null, `~> ${rev || '(empty)'} names no commit`);
	}
	for (const sha of [m, x1, commits.root, a3]) {
		assert.equal(
			commitParents(s.app, app.id, sha),
			gitLine(['rev-list', '--parents', '-n', '1', sha]).split(' ').slice(1),
			`~> parents of ${sha}`,
		);
	}
	assert.is(commitParents(s.app, app.id, rootTree), null);
	for (const [a, b] of [
		[a3, b2],
		[m, b2],
		[b2, m],
		[commits.a2, a3],
		[m, commits.root],
		[x1, a3],
		[commits.a1, commits.b1],
	]) {
		assert.is(mergeBase(s.app, app.id, a, b), gitLine(['merge-base', a, b]), `~> merge-base ${a} ${b}`);
	}
	assert.equal(
		new Set(mergeBases(s.app, app.id, x1, x2)),
		new Set(gitLine(['merge-base', '--all', x1, x2]).split('\n')),
		'~> criss-cross: both bases',
	);
	assert.is(mergeBases(s.app, app.id, x1, x2).length, 2);
	assert.is(mergeBase(s.app, app.id, m, lonely), null, '~> no shared history');
	assert.is(mergeBase(s.app, app.id, m, rootTree), null);
	assert.equal(git(['fsck', '--strict', '--no-dangling']), '', '~> the whole object database passes git fsck --strict');
	assert.is(exportObjects(), storedObjectCount(s.app, app.id));
});

test('octokit – the usual "commit a file through the git database" workflow with a stock client', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: owner, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const repo = { owner: 'acme', repo: 'app' };
	const head = await octokit.rest.git.getRef({ ...repo, ref: 'heads/feature/x' });
	const parent = await octokit.rest.git.getCommit({ ...repo, commit_sha: head.data.object.sha });
	const blob = await octokit.rest.git.createBlob({ ...repo, content: Buffer.from('octo\n').toString('base64'), encoding: 'base64' });
	const tree = await octokit.rest.git.createTree({
		...repo,
		base_tree: parent.data.tree.sha,
		tree: [{ path: 'octo/cat.txt', mode: '100644', type: 'blob', sha: blob.data.sha }],
	});
	const commit = await octokit.rest.git.createCommit({
		...repo,
		message: 'Add octocat',
		tree: tree.data.sha,
		parents: [parent.data.sha],
	});
	const moved = await octokit.rest.git.updateRef({ ...repo, ref: 'heads/feature/x', sha: commit.data.sha });
	assert.is(moved.data.object.sha, commit.data.sha);
	const got = await octokit.rest.git.getTree({ ...repo, tree_sha: 'feature/x', recursive: '1' });
	assert.ok(got.data.tree.some((e) => e.path === 'octo/cat.txt' && e.sha === blob.data.sha));
	const tag = await octokit.rest.git.createTag({ ...repo, tag: 'octo-1', message: 'octo', object: commit.data.sha, type: 'commit' });
	await octokit.rest.git.createRef({ ...repo, ref: 'refs/tags/octo-1', sha: tag.data.sha });
	assert.equal(
		(await octokit.rest.git.listMatchingRefs({ ...repo, ref: 'tags/octo' })).data.map((r) => r.object.type),
		['tag'],
	);
	assert.is((await octokit.rest.git.getTag({ ...repo, tag_sha: tag.data.sha })).data.verification?.reason, 'unsigned');
	const error = await octokit.rest.git.updateRef({ ...repo, ref: 'heads/feature/x', sha: parent.data.sha }).catch((e) => e);
	assert.is(error.status, 422);
	assert.is(error.response.data.message, 'Update is not a fast forward');
	await octokit.rest.git.deleteRef({ ...repo, ref: 'tags/octo-1' });
	assert.is((await octokit.rest.git.getRef({ ...repo, ref: 'tags/octo-1' }).catch((e) => e)).status, 404);
});

test('hostile input – junk path parameters and bodies on every git route: never a 5xx, always an error body', async () => {
	const routes = buildRoutes().filter((route) => route.path.startsWith('/repos/{owner}/{repo}/git/'));
	assert.is(routes.length, 15);
	const params = ['%00', 'x'.repeat(300), '..%2F..', '%E0%A4%A', 'heads/../../x', '-1', sha40('A'), 'heads/main', ''];
	const bodies: unknown[] = [
		[],
		'text',
		null,
		{ tree: [{ path: `${'a/'.repeat(3000)}x`, mode: '100644', content: 'x' }] },
		{ tree: 'x', base_tree: 5 },
		{ ref: {}, sha: [] },
		{ ref: 'refs/heads/%00', sha: sha40('a') },
		{ message: 1, tree: {} },
		{ content: 'x'.repeat(10), encoding: 'base64' },
		{ tag: 'x', message: 'm', object: sha40('a'), type: 'commit', tagger: { name: 'x', email: 'y', date: '9999-99-99T99:99:99Z' } },
		{ message: 'm', tree: rootTree, parents: [null], author: { name: 'x', email: 'y', date: '2020-01-01T00:00:00+99:99' } },
	];
	for (const route of routes) {
		for (const param of params) {
			const path = route.path
				.replace('{owner}', 'acme')
				.replace('{repo}', 'app')
				.replace(/\{[a-z_]+\}|\*\??/g, param);
			for (const body of route.method === 'GET' || route.method === 'DELETE' ? [undefined] : bodies) {
				const res = await s.request(route.method, path, {
					token: owner,
					raw: body === undefined ? undefined : JSON.stringify(body),
					headers: { 'Content-Type': 'application/json' },
				});
				assert.ok(res.status < 500, `~> ${route.method} ${path.slice(0, 80)} answered ${res.status}: ${res.text.slice(0, 200)}`);
				if (res.status >= 400) assert.type(res.body?.message, 'string');
			}
		}
	}
	const deep = await create('/trees', { tree: [{ path: `${'d/'.repeat(2000)}x`, mode: '100644', content: 'deep' }] });
	assert.is(deep.status, 201, '~> 2000 folders deep is fine');
	assert.is((await s.get(`${R}/trees/${deep.body.sha}?recursive=1`, owner)).body.tree.length, 2001);
	const tooLong = await create('/trees', { tree: [{ path: 'p'.repeat(4097), mode: '100644', content: 'x' }] });
	assert.is(tooLong.status, 422);
	assert.is(tooLong.body.errors[0].field, 'tree.0.path');
});

test('responses – ETag and 304 on reads; X-Accepted permissions', async () => {
	const first = await s.get(`${R}/ref/heads/main`, owner);
	const etag = first.headers.get('etag')!;
	assert.ok(etag);
	assert.is((await s.get(`${R}/ref/heads/main`, owner, { 'If-None-Match': etag })).status, 304);
	assert.is(first.headers.get('x-accepted-github-permissions'), 'contents=read');
	const fineRead = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'read' } });
	assert.is((await s.get(`/repos/acme/vault/git/commits/${commits.root}`, fineRead)).status, 404, '~> vault holds no such commit');
	assert.is((await s.get(`${R}/commits/${commits.root}`, fineRead)).status, 200);
	const none = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: {} });
	assert.is(
		(await s.get(`${R}/commits/${commits.root}`, none)).status,
		200,
		'~> without contents: the public view of a public repository',
	);
	assert.is((await s.request('DELETE', `${R}/refs/heads/zeta`, { token: none })).status, 403);
});

test.run();
