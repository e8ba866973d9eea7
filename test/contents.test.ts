/**
 * Repository contents (OpenAPI repos/contents, gitignore/gitignore): auto_init on creation, the
 * gitignore templates, reading a path at a ref (file, folder, symbolic link, submodule, the raw
 * and object media types), files created, updated and deleted as real commits (checked with the
 * git binary), the README, and the tarball and zipball through Gitstead's codeload (read with
 * tar and unzip). Also Octokit's create-or-update → get → delete flow.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';
import { expandOrigin } from '../src/model/json';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('contents');
let s: TestServer;
let owner: string;
let outsider: string;
let publicOnly: string;
let work: string;
const R = '/repos/acme/app';
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const unb64 = (text: string) => Buffer.from(text, 'base64').toString('utf8');

/** A commit of several files through the git database API on acme/app's main (created when missing). */
async function gitCommit(files: Array<{ path: string; mode: string; content?: string; sha?: string }>, message: string): Promise<string> {
	const ref = await s.request('GET', `${R}/git/ref/heads/main`, { token: owner });
	const parents = ref.status === 200 ? [ref.body.object.sha] : [];
	const base = parents.length ? (await s.request('GET', `${R}/git/commits/${parents[0]}`, { token: owner })).body.tree.sha : undefined;
	const tree = await s.request('POST', `${R}/git/trees`, { token: owner, body: { tree: files, ...(base ? { base_tree: base } : {}) } });
	assert.is(tree.status, 201, `~> the tree is made: ${tree.text}`);
	const commit = await s.request('POST', `${R}/git/commits`, { token: owner, body: { message, tree: tree.body.sha, parents } });
	const moved = parents.length
		? await s.request('PATCH', `${R}/git/refs/heads/main`, { token: owner, body: { sha: commit.body.sha } })
		: await s.request('POST', `${R}/git/refs`, { token: owner, body: { ref: 'refs/heads/main', sha: commit.body.sha } });
	assert.ok(moved.status === 200 || moved.status === 201, `~> main moves: ${moved.text}`);
	return commit.body.sha;
}

/** The git binary on a bare repository holding every object Gitstead stored for `repoId`. */
function gitOf(repoId: number): (args: string[]) => string {
	const bare = mkdtempSync(join(work, 'bare-'));
	const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
	const run = (args: string[], input?: Buffer) =>
		execFileSync('git', args, { cwd: bare, input, env, stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8');
	run(['init', '--bare', '-q', '.']);
	const network = s.app.stores.git.network(repoId);
	const ids = s.app.db.prepare('SELECT lower(hex(oid)) FROM git_objects WHERE network_id = ?').pluck().all(network) as string[];
	const rows = ids.map((sha) => s.app.stores.git.readIn(network, sha)!);
	for (const row of rows)
		assert.is(
			run(['hash-object', '-w', '-t', row.type, '--stdin'], row.content).trim(),
			row.sha,
			`~> git agrees on ${row.type} ${row.sha}`,
		);
	return (args) => run(args);
}

test.before(async () => {
	s = await startServer();
	work = mkdtempSync(join(tmpdir(), 'gitstead-contents-'));
	s.user('olivia');
	s.user('mallory');
	s.org('acme', 'olivia');
	owner = s.fullToken('olivia');
	outsider = s.fullToken('mallory');
	publicOnly = s.token('olivia', { scopes: ['public_repo'] });
	const made = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	assert.is(made.status, 201);
	const secret = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'secret', private: true, auto_init: true } });
	assert.is(secret.status, 201);
});

test.after(async () => {
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// gitignore templates and auto_init

test('GET /gitignore/templates lists the names; a template has its name and source; the raw media type answers the source', async () => {
	const list = await s.request('GET', '/gitignore/templates');
	assert.is(list.status, 200, '~> anyone may list the templates');
	for (const name of ['C', 'Go', 'Java', 'Node', 'Python', 'Rust']) assert.ok(list.body.includes(name), `~> ${name} is a template`);
	const node = await s.request('GET', '/gitignore/templates/Node');
	assert.is(node.status, 200);
	assert.is(node.body.name, 'Node', '~> the template names itself');
	assert.ok(node.body.source.includes('node_modules/'), '~> the Node template ignores node_modules');
	const raw = await s.request('GET', '/gitignore/templates/Node', { headers: { Accept: 'application/vnd.github.raw' } });
	assert.is(raw.text, node.body.source, '~> the raw media type answers the source itself');
	const missing = await s.request('GET', '/gitignore/templates/Cobol-2099');
	assert.is(missing.status, 404, '~> an unknown template is 404');
});

test('auto_init makes a first commit with README.md, .gitignore and LICENSE on the default branch; an unknown template is 422', async () => {
	const made = await s.request('POST', '/user/repos', {
		token: owner,
		body: { name: 'starter', description: 'A starter', auto_init: true, gitignore_template: 'Python', license_template: 'mit' },
	});
	assert.is(made.status, 201, `~> the repository is created: ${made.text}`);
	const ref = await s.request('GET', '/repos/olivia/starter/git/ref/heads/main', { token: owner });
	assert.is(ref.status, 200, '~> main exists');
	const commit = await s.request('GET', `/repos/olivia/starter/git/commits/${ref.body.object.sha}`, { token: owner });
	assert.is(commit.body.message, 'Initial commit', "~> GitHub's message");
	assert.equal(commit.body.parents, [], '~> a root commit');
	const tree = await s.request('GET', `/repos/olivia/starter/git/trees/${commit.body.tree.sha}`, { token: owner });
	assert.equal(
		tree.body.tree.map((e: { path: string }) => e.path),
		['.gitignore', 'LICENSE', 'README.md'],
		'~> the three files',
	);
	const readme = await s.request('GET', '/repos/olivia/starter/contents/README.md', { token: owner });
	assert.is(unb64(readme.body.content), '# starter\n\nA starter\n', '~> README.md is "# name" and the description');
	const license = await s.request('GET', '/repos/olivia/starter/contents/LICENSE', { token: owner });
	assert.ok(
		unb64(license.body.content).startsWith('MIT License\n\nCopyright (c) 2026 olivia\n'),
		'~> LICENSE is the MIT text with the year and holder',
	);
	const ignore = await s.request('GET', '/repos/olivia/starter/contents/.gitignore', { token: owner });
	assert.ok(unb64(ignore.body.content).includes('__pycache__/'), '~> .gitignore is the Python template');

	const git = gitOf(s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('olivia')!.id, 'starter')!.id);
	git(['fsck', '--strict', '--no-dangling', ref.body.object.sha]);
	assert.is(git(['cat-file', '-p', `${ref.body.object.sha}:LICENSE`]), unb64(license.body.content), '~> git reads the same LICENSE');

	const gnu = await s.request('POST', '/user/repos', {
		token: owner,
		body: { name: 'gnu', auto_init: true, license_template: 'gpl-3.0' },
	});
	assert.is(gnu.status, 201);
	const gpl = await s.request('GET', '/repos/olivia/gnu/contents/LICENSE', { token: owner });
	assert.match(unb64(gpl.body.content), 'GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007', '~> the GPL text');
	const gnuTree = await s.request('GET', '/repos/olivia/gnu/contents', { token: owner });
	assert.equal(
		gnuTree.body.map((e: { name: string }) => e.name),
		['LICENSE', 'README.md'],
		'~> no .gitignore without a template',
	);

	const bad = await s.request('POST', '/user/repos', {
		token: owner,
		body: { name: 'other', auto_init: true, gitignore_template: 'Cobol-2099' },
	});
	assert.is(bad.status, 422, '~> an unknown gitignore template is refused');
	assert.is(bad.body.errors[0].field, 'gitignore_template', '~> naming the field');
	const none = await s.request('GET', '/repos/olivia/other', { token: owner });
	assert.is(none.status, 404, '~> and nothing is created');
});

// ---------------------------------------------------------------------------------------------
// Reading

test('an empty repository answers 404 "This repository is empty." for contents, readme and archives', async () => {
	for (const path of ['/contents/README.md', '/contents', '/readme', '/tarball', '/zipball/main']) {
		const res = await s.request('GET', `${R}${path}`, { token: owner });
		assert.is(res.status, 404, `~> ${path} of an empty repository is 404`);
		assert.is(res.body.message, 'This repository is empty.', `~> ${path}: GitHub's message`);
	}
});

test('PUT …/contents/{path} creates a file as a commit on main (201), then updates it with its sha (200); git agrees', async () => {
	// The first write to an empty repository creates main.
	const first = await s.request('PUT', `${R}/contents/docs/guide.md`, {
		token: owner,
		body: { message: 'Add the guide', content: b64('# Guide\n') },
	});
	assert.is(first.status, 201, `~> a new file is 201: ${first.text}`);
	assert.is(first.body.content.path, 'docs/guide.md');
	assert.is(first.body.content.name, 'guide.md');
	assert.is(first.body.content.type, 'file');
	assert.is(first.body.content.size, 8);
	assert.is(first.body.content.url, `${s.api}${R}/contents/docs/guide.md?ref=main`, '~> the url names the branch');
	assert.is(first.body.commit.message, 'Add the guide');
	assert.is(first.body.commit.committer.name, 'olivia', '~> the caller commits');
	assert.equal(first.body.commit.parents, [], '~> the first commit of the repository');

	const update = await s.request('PUT', `${R}/contents/docs/guide.md`, {
		token: owner,
		body: {
			message: 'Expand the guide',
			content: b64('# Guide\n\nMore.\n'),
			sha: first.body.content.sha,
			author: { name: 'Ada', email: 'ada@example.com', date: '2026-01-02T03:04:05+02:00' },
		},
	});
	assert.is(update.status, 200, `~> an update is 200: ${update.text}`);
	assert.is(update.body.commit.parents[0].sha, first.body.commit.sha, '~> on top of the previous commit');
	assert.is(update.body.commit.author.name, 'Ada', '~> the author as given');
	assert.is(update.body.commit.author.date, '2026-01-02T01:04:05Z', '~> dated as given (answered in UTC)');
	const ref = await s.request('GET', `${R}/git/ref/heads/main`, { token: owner });
	assert.is(ref.body.object.sha, update.body.commit.sha, '~> main moved to the new commit');

	const git = gitOf(s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'app')!.id);
	assert.is(
		git(['cat-file', '-p', `${update.body.commit.sha}:docs/guide.md`]),
		'# Guide\n\nMore.\n',
		'~> git reads the file at the commit',
	);
	git(['fsck', '--strict', '--no-dangling']);
});

test('PUT refuses a missing sha (422), a wrong sha (409), bad paths and bad base64 (422), a missing branch (404)', async () => {
	const current = await s.request('GET', `${R}/contents/docs/guide.md`, { token: owner });
	const missing = await s.request('PUT', `${R}/contents/docs/guide.md`, { token: owner, body: { message: 'x', content: b64('x') } });
	assert.is(missing.status, 422, '~> replacing a file needs its sha');
	assert.is(missing.body.message, 'Invalid request.\n\n"sha" wasn\'t supplied.', "~> GitHub's message");
	const wrong = await s.request('PUT', `${R}/contents/docs/guide.md`, {
		token: owner,
		body: { message: 'x', content: b64('x'), sha: 'a'.repeat(40) },
	});
	assert.is(wrong.status, 409, '~> a sha that is not the file is a conflict');
	assert.is(wrong.body.message, `docs/guide.md does not match ${'a'.repeat(40)}`);
	for (const path of ['a%2F..%2Fb', 'a%2F%2Fb', '.git/config', '.GIT/x', 'docs/guide.md/inner', 'docs', 'nul%00']) {
		const res = await s.request('PUT', `${R}/contents/${path}`, {
			token: owner,
			body: { message: 'x', content: b64('x'), sha: current.body.sha },
		});
		assert.is(res.status, 422, `~> ${path} is refused`);
	}
	const bad64 = await s.request('PUT', `${R}/contents/new.txt`, { token: owner, body: { message: 'x', content: '***' } });
	assert.is(bad64.status, 422, '~> content must be base64');
	const noMessage = await s.request('PUT', `${R}/contents/new.txt`, { token: owner, body: { content: b64('x') } });
	assert.is(noMessage.status, 422, '~> message is required');
	assert.is(noMessage.body.message, 'Invalid request.\n\n"message" wasn\'t supplied.', "~> GitHub's message");
	const branch = await s.request('PUT', `${R}/contents/new.txt`, {
		token: owner,
		body: { message: 'x', content: b64('x'), branch: 'nope' },
	});
	assert.is(branch.status, 404, '~> a branch that does not exist is 404');
	const after = await s.request('GET', `${R}/contents/docs/guide.md`, { token: owner });
	assert.is(after.body.sha, current.body.sha, '~> nothing changed');
});

test('writes need push access: anonymous 401, outsider 404 on a private repository, public_repo token 404 there, read-only collaborator 403', async () => {
	const anonymous = await s.request('PUT', `${R}/contents/x.txt`, { body: { message: 'x', content: b64('x') } });
	assert.is(anonymous.status, 401, '~> anonymous callers must authenticate');
	const outside = await s.request('PUT', `${R}/contents/x.txt`, { token: outsider, body: { message: 'x', content: b64('x') } });
	assert.is(outside.status, 403, '~> a public repository the caller cannot push to is 403');
	const hidden = await s.request('PUT', '/repos/acme/secret/contents/x.txt', {
		token: outsider,
		body: { message: 'x', content: b64('x') },
	});
	assert.is(hidden.status, 404, '~> a private repository is hidden');
	const scoped = await s.request('PUT', '/repos/acme/secret/contents/x.txt', {
		token: publicOnly,
		body: { message: 'x', content: b64('x') },
	});
	assert.is(scoped.status, 404, '~> a public_repo token does not reach private repositories');
	const readOnly = s.token('olivia', { kind: 'fine-grained', permissions: { contents: 'read' }, org: 'acme' });
	const refused = await s.request('PUT', `${R}/contents/x.txt`, { token: readOnly, body: { message: 'x', content: b64('x') } });
	assert.is(refused.status, 403, '~> a token with Contents read may not write');
	const hiddenRead = await s.request('GET', '/repos/acme/secret/contents/README.md', { token: outsider });
	assert.is(hiddenRead.status, 404, '~> reading a hidden repository is 404');
	const anonymousRead = await s.request('GET', '/repos/acme/secret/readme');
	assert.is(anonymousRead.status, 404, '~> and anonymous callers do not see it either');
});

test('reads and deletes: tokens that may not, hidden repositories, validation', async () => {
	const noRepoScope = s.token('olivia', { scopes: ['read:org'] });
	const noContents = s.token('olivia', { kind: 'fine-grained', permissions: { issues: 'read' }, org: 'acme' });
	for (const path of ['/contents/README.md', '/readme', '/tarball', '/zipball/main']) {
		const scoped = await s.request('GET', `/repos/acme/secret${path}`, { token: noRepoScope });
		assert.is(scoped.status, 404, `~> ${path}: a classic token without repo does not see a private repository`);
		const fine = await s.request('GET', `/repos/acme/secret${path}`, { token: noContents });
		assert.ok(
			[403, 404].includes(fine.status),
			`~> ${path}: a fine-grained token without Contents reads nothing private (${fine.status})`,
		);
		const ok = await s.request('GET', `/repos/acme/secret${path}`, { token: owner });
		assert.ok(ok.status === 200 || ok.status === 302, `~> ${path}: the owner reads it (${ok.status})`);
	}
	const twoRefs = await s.request('GET', '/repos/acme/secret/contents/README.md?ref=main&ref=other', { token: owner });
	assert.is(twoRefs.status, 422, '~> ref must be one string');
	const file = await s.request('GET', '/repos/acme/secret/contents/README.md', { token: owner });
	const hidden = await s.request('DELETE', '/repos/acme/secret/contents/README.md', {
		token: outsider,
		body: { message: 'x', sha: file.body.sha },
	});
	assert.is(hidden.status, 404, '~> deleting in a hidden repository is 404');
	const readOnly = s.token('olivia', { kind: 'fine-grained', permissions: { contents: 'read' }, org: 'acme' });
	const refused = await s.request('DELETE', '/repos/acme/secret/contents/README.md', {
		token: readOnly,
		body: { message: 'x', sha: file.body.sha },
	});
	assert.is(refused.status, 403, '~> Contents read may not delete');
	const badType = await s.request('DELETE', '/repos/acme/secret/contents/README.md', {
		token: owner,
		body: { message: 5, sha: file.body.sha },
	});
	assert.is(badType.status, 422, '~> message must be a string');
	const still = await s.request('GET', '/repos/acme/secret/contents/README.md', { token: owner });
	assert.is(still.body.sha, file.body.sha, '~> nothing was deleted');
});

test('GET …/contents/{path}: a file (base64 in lines of 60), a folder listing, raw and object media, ?ref, 404s', async () => {
	const long = 'x'.repeat(100);
	const put = await s.request('PUT', `${R}/contents/long.txt`, { token: owner, body: { message: 'Long', content: b64(long) } });
	assert.is(put.status, 201);
	const file = await s.request('GET', `${R}/contents/long.txt`);
	assert.is(file.status, 200, '~> anyone reads a public repository');
	assert.is(file.body.encoding, 'base64');
	const lines = file.body.content.split('\n');
	assert.is(lines[0].length, 60, '~> base64 in lines of 60 characters');
	assert.ok(file.body.content.endsWith('\n'), '~> each line ends in a newline');
	assert.is(unb64(file.body.content), long);
	assert.is(file.body.git_url, `${s.api}${R}/git/blobs/${file.body.sha}`);
	assert.is(file.body.html_url, `${s.origin}/acme/app/blob/main/long.txt`);
	assert.equal(file.body._links, { self: file.body.url, git: file.body.git_url, html: file.body.html_url });
	const download = await fetch(file.body.download_url);
	assert.is(await download.text(), long, '~> download_url serves the bytes');

	const raw = await s.request('GET', `${R}/contents/long.txt`, { headers: { Accept: 'application/vnd.github.raw+json' } });
	assert.is(raw.text, long, '~> the raw media type answers the bytes');
	assert.ok(raw.headers.get('content-type')!.startsWith('application/vnd.github.raw'));

	const root = await s.request('GET', `${R}/contents`);
	assert.is(root.status, 200);
	assert.equal(
		root.body.map((e: { name: string; type: string }) => `${e.type}:${e.name}`),
		['dir:docs', 'file:long.txt'],
		'~> the root folder, in git order',
	);
	assert.ok(!('content' in root.body[1]), '~> a listing carries no content');
	assert.is(root.body[0].download_url, null, '~> folders have no download_url');
	const docs = await s.request('GET', `${R}/contents/docs/`);
	assert.equal(
		docs.body.map((e: { path: string }) => e.path),
		['docs/guide.md'],
		'~> a folder, trailing slash or not',
	);
	const object = await s.request('GET', `${R}/contents/docs`, { headers: { Accept: 'application/vnd.github.object' } });
	assert.is(object.body.type, 'dir', '~> the object media type answers the folder itself');
	assert.is(object.body.entries.length, 1, '~> with its entries');

	const first = (await s.request('GET', `${R}/commits/main`, { token: owner })).status;
	void first;
	const history = await s.request('GET', `${R}/git/ref/heads/main`, { token: owner });
	const parent = (await s.request('GET', `${R}/git/commits/${history.body.object.sha}`, { token: owner })).body.parents[0].sha;
	const before = await s.request('GET', `${R}/contents/long.txt?ref=${parent}`);
	assert.is(before.status, 404, '~> ?ref reads an older commit, where long.txt did not exist');
	const atBranch = await s.request('GET', `${R}/contents/long.txt?ref=main`);
	assert.is(atBranch.status, 200, '~> ?ref takes a branch name');
	const badRef = await s.request('GET', `${R}/contents/long.txt?ref=nope`);
	assert.is(badRef.status, 404);
	assert.is(badRef.body.message, 'No commit found for the ref nope');
	const missing = await s.request('GET', `${R}/contents/nothing/here`);
	assert.is(missing.status, 404, '~> a missing path is 404');
});

test('a file over 1 MB: 403 too_large as JSON, empty content with encoding none as object, bytes as raw', async () => {
	const big = Buffer.alloc(1024 * 1024 + 1, 'a');
	const put = await s.request('PUT', `${R}/contents/big.bin`, {
		token: owner,
		body: { message: 'Big', content: big.toString('base64') },
	});
	assert.is(put.status, 201, `~> written: ${put.status}`);
	const json = await s.request('GET', `${R}/contents/big.bin`);
	assert.is(json.status, 403, '~> too large for JSON');
	assert.is(json.body.errors[0].code, 'too_large');
	const object = await s.request('GET', `${R}/contents/big.bin`, { headers: { Accept: 'application/vnd.github.object' } });
	assert.is(object.body.encoding, 'none', '~> the object media type answers without content');
	assert.is(object.body.content, '');
	assert.is(object.body.size, big.length);
	const raw = await s.request('GET', `${R}/contents/big.bin`, { headers: { Accept: 'application/vnd.github.raw' } });
	assert.is(raw.text.length, big.length, '~> raw answers the bytes');
	const del = await s.request('DELETE', `${R}/contents/big.bin`, { token: owner, body: { message: 'Unbig', sha: put.body.content.sha } });
	assert.is(del.status, 200);
});

test('branches with slashes and paths with spaces: in ?ref, branch, URLs and download_url', async () => {
	const head = (await s.request('GET', `${R}/git/ref/heads/main`, { token: owner })).body.object.sha;
	const made = await s.request('POST', `${R}/git/refs`, { token: owner, body: { ref: 'refs/heads/feature/x', sha: head } });
	assert.is(made.status, 201);
	const put = await s.request('PUT', `${R}/contents/notes/my%20notes.md`, {
		token: owner,
		body: { message: 'Notes', content: b64('spaced'), branch: 'feature/x' },
	});
	assert.is(put.status, 201, `~> written on feature/x: ${put.text}`);
	assert.is(put.body.content.path, 'notes/my notes.md', '~> the path decoded');
	assert.is(put.body.content.url, `${s.api}${R}/contents/notes/my%20notes.md?ref=feature%2Fx`, '~> and encoded in URLs');
	const onMain = await s.request('GET', `${R}/contents/notes/my%20notes.md`);
	assert.is(onMain.status, 404, '~> main is untouched');
	const got = await s.request('GET', `${R}/contents/notes/my%20notes.md?ref=feature/x`);
	assert.is(got.status, 200, '~> ?ref names the branch');
	assert.is(await (await fetch(got.body.download_url)).text(), 'spaced', '~> download_url serves it');
	const branchHead = (await s.request('GET', `${R}/git/ref/heads/feature/x`, { token: owner })).body.object.sha;
	assert.is(branchHead, put.body.commit.sha, '~> feature/x moved');
	const del = await s.request('DELETE', `${R}/git/refs/heads/feature/x`, { token: owner });
	assert.is(del.status, 204);
});

test('symbolic links and submodules: a link to a file answers the file, others the link; a submodule names its URL', async () => {
	const blob = await s.request('POST', `${R}/git/blobs`, { token: owner, body: { content: 'long.txt', encoding: 'utf-8' } });
	const outside = await s.request('POST', `${R}/git/blobs`, { token: owner, body: { content: '../../etc/passwd', encoding: 'utf-8' } });
	const modules = '[submodule "lib/dep"]\n\tpath = lib/dep\n\turl = https://example.com/dep.git\n';
	await gitCommit(
		[
			{ path: 'link.txt', mode: '120000', sha: blob.body.sha },
			{ path: 'escape', mode: '120000', sha: outside.body.sha },
			{ path: '.gitmodules', mode: '100644', content: modules },
			{ path: 'lib/dep', mode: '160000', sha: 'c'.repeat(40) },
			{ path: 'bin/run.sh', mode: '100755', content: '#!/bin/sh\necho hi\n' },
			{ path: 'intl/ünïcödé 文件.md', mode: '100644', content: 'ü\n' },
			{ path: `deep/${'n'.repeat(90)}/${'x'.repeat(120)}.txt`, mode: '100644', content: 'far down\n' },
		],
		'Links and a submodule',
	);
	const link = await s.request('GET', `${R}/contents/link.txt`);
	assert.is(link.body.type, 'file', '~> a link to a file answers with the file');
	assert.is(link.body.path, 'long.txt');
	const escape = await s.request('GET', `${R}/contents/escape`);
	assert.is(escape.body.type, 'symlink', '~> a link leaving the repository answers the link');
	assert.is(escape.body.target, '../../etc/passwd');
	const sub = await s.request('GET', `${R}/contents/lib/dep`);
	assert.is(sub.body.type, 'submodule');
	assert.is(sub.body.submodule_git_url, 'https://example.com/dep.git', '~> the URL .gitmodules gives');
	assert.is(sub.body.sha, 'c'.repeat(40));
	const lib = await s.request('GET', `${R}/contents/lib`);
	assert.is(lib.body[0].type, 'file', "~> a listing shows a submodule as 'file' (GitHub's backward-compatible form)");
	const root = await s.request('GET', `${R}/contents`);
	assert.ok(
		root.body.some((e: { name: string; type: string }) => e.name === 'escape' && e.type === 'symlink'),
		'~> and a link as symlink',
	);
});

test('DELETE …/contents/{path} with its sha commits the removal (200, content null); wrong sha 409, missing sha 422, missing file 404', async () => {
	const file = await s.request('GET', `${R}/contents/long.txt`);
	const noSha = await s.request('DELETE', `${R}/contents/long.txt`, { token: owner, body: { message: 'x' } });
	assert.is(noSha.status, 422, '~> sha is required');
	assert.is(noSha.body.message, 'Invalid request.\n\n"sha" wasn\'t supplied.', "~> GitHub's message");
	const wrong = await s.request('DELETE', `${R}/contents/long.txt`, { token: owner, body: { message: 'x', sha: 'b'.repeat(40) } });
	assert.is(wrong.status, 409, '~> a sha that is not the file is a conflict');
	const nothing = await s.request('DELETE', `${R}/contents/absent.txt`, { token: owner, body: { message: 'x', sha: 'b'.repeat(40) } });
	assert.is(nothing.status, 404, '~> deleting a missing file is 404');
	const anonymous = await s.request('DELETE', `${R}/contents/long.txt`, { body: { message: 'x', sha: file.body.sha } });
	assert.is(anonymous.status, 401);
	const done = await s.request('DELETE', `${R}/contents/long.txt`, {
		token: owner,
		body: { message: 'Remove long.txt', sha: file.body.sha },
	});
	assert.is(done.status, 200, `~> deleted: ${done.text}`);
	assert.is(done.body.content, null, '~> content is null');
	assert.is(done.body.commit.message, 'Remove long.txt');
	const gone = await s.request('GET', `${R}/contents/long.txt`);
	assert.is(gone.status, 404, '~> the file is gone from main');
});

test('the contents writes record the push through the git events', async () => {
	const before = s.app.db.prepare("SELECT count(*) FROM events WHERE event = 'push'").pluck().get() as number;
	const res = await s.request('PUT', `${R}/contents/notes.txt`, { token: owner, body: { message: 'Notes', content: b64('notes') } });
	assert.is(res.status, 201);
	const rows = s.app.db.prepare("SELECT feed_type, payload FROM events WHERE event = 'push' ORDER BY id DESC LIMIT 1").all() as Array<{
		feed_type: string;
		payload: string;
	}>;
	const after = s.app.db.prepare("SELECT count(*) FROM events WHERE event = 'push'").pluck().get() as number;
	assert.is(after, before + 1, '~> one push event');
	assert.is(rows[0].feed_type, 'PushEvent', '~> shown as a PushEvent');
	assert.is(JSON.parse(expandOrigin(rows[0].payload)).head, res.body.commit.sha, '~> of the new commit');
});

test('GET …/readme finds README case-insensitively, in a folder too; raw and html media', async () => {
	const none = await s.request('GET', `${R}/readme`);
	assert.is(none.status, 404, '~> no README yet');
	await s.request('PUT', `${R}/contents/ReadMe.MD`, {
		token: owner,
		body: { message: 'Readme', content: b64('# App\n\nHello *world*.\n') },
	});
	await s.request('PUT', `${R}/contents/docs/readme.txt`, {
		token: owner,
		body: { message: 'Docs readme', content: b64('Plain <text>\n') },
	});
	const readme = await s.request('GET', `${R}/readme`);
	assert.is(readme.status, 200);
	assert.is(readme.body.path, 'ReadMe.MD', '~> found case-insensitively');
	assert.is(unb64(readme.body.content), '# App\n\nHello *world*.\n');
	const raw = await s.request('GET', `${R}/readme`, { headers: { Accept: 'application/vnd.github.raw' } });
	assert.is(raw.text, '# App\n\nHello *world*.\n', '~> raw bytes');
	const html = await s.request('GET', `${R}/readme`, { headers: { Accept: 'application/vnd.github.html+json' } });
	assert.ok(html.text.includes('<em>world</em>'), '~> html renders the Markdown');
	assert.ok(html.text.startsWith('<div id="readme"'), "~> in GitHub's wrapper");
	const docs = await s.request('GET', `${R}/readme/docs`);
	assert.is(docs.body.path, 'docs/readme.txt', '~> a folder’s README');
	const docsHtml = await s.request('GET', `${R}/readme/docs`, { headers: { Accept: 'application/vnd.github.html' } });
	assert.ok(docsHtml.text.includes('Plain &lt;text&gt;'), '~> plain text is escaped');
	const fileHtml = await s.request('GET', `${R}/contents/docs/guide.md`, { headers: { Accept: 'application/vnd.github.html+json' } });
	assert.ok(fileHtml.text.startsWith('<div id="file" class="md"'), '~> any Markdown file renders with the html media type');
	assert.ok(fileHtml.text.includes('<h1>Guide</h1>'), `~> rendered: ${fileHtml.text}`);
	const put = await s.request('PUT', `${R}/contents/.github/README`, {
		token: owner,
		body: { message: 'Profile', content: b64('From .github\n') },
	});
	const preferred = await s.request('GET', `${R}/readme`);
	assert.is(preferred.body.path, '.github/README', '~> .github/ comes before the root, as on GitHub');
	await s.request('DELETE', `${R}/contents/.github/README`, { token: owner, body: { message: 'Unprofile', sha: put.body.content.sha } });
	const missingDir = await s.request('GET', `${R}/readme/nowhere`);
	assert.is(missingDir.status, 404);
	const secret = await s.request('GET', '/repos/acme/secret/readme', { token: owner });
	assert.is(secret.body.path, 'README.md', '~> the private repository’s README for its owner');
	assert.ok(secret.body.download_url.includes('?token='), '~> a private download_url is signed');
	const download = await fetch(secret.body.download_url);
	assert.is(await download.text(), '# secret\n', '~> and serves the file');
	const unsigned = await fetch(secret.body.download_url.replace(/\?token=.*$/, ''));
	assert.is(unsigned.status, 404, '~> without its token it is 404');
	const other = await fetch(secret.body.download_url.replace('README.md', 'LICENSE'));
	assert.is(other.status, 404, '~> the token opens that one file only');
});

test('tarball and zipball redirect to a codeload URL that streams the archive under {owner}-{repo}-{short sha}/', async () => {
	const head = (await s.request('GET', `${R}/git/ref/heads/main`, { token: owner })).body.object.sha as string;
	const top = `acme-app-${head.slice(0, 7)}`;
	const tarball = await s.request('GET', `${R}/tarball`);
	assert.is(tarball.status, 302, '~> a redirect');
	const location = tarball.headers.get('location')!;
	assert.ok(
		location.startsWith(`${s.origin}/_codeload/acme/app/legacy.tar.gz/${head}`),
		`~> to the archive of main's commit: ${location}`,
	);
	const tarFile = join(work, 'app.tar.gz');
	writeFileSync(tarFile, Buffer.from(await (await fetch(location)).arrayBuffer()));
	const listed = execFileSync('tar', ['-tzf', tarFile]).toString('utf8').split('\n').filter(Boolean);
	assert.ok(listed.includes(`${top}/docs/guide.md`), `~> the files under the top folder: ${listed.join(', ')}`);
	assert.ok(listed.includes(`${top}/ReadMe.MD`));
	const guide = execFileSync('tar', ['-xzOf', tarFile, `${top}/docs/guide.md`]).toString('utf8');
	assert.is(guide, '# Guide\n\nMore.\n', '~> with their bytes');
	// The same entries, links and submodules as git archive writes for the commit.
	const git = gitOf(s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'app')!.id);
	const gitTar = join(work, 'git.tar');
	git(['archive', '--format=tar', `--prefix=${top}/`, `--output=${gitTar}`, head]);
	const verbose = (file: string, z: boolean) =>
		execFileSync('tar', [z ? '-tzvf' : '-tvf', file, '--numeric-owner'])
			.toString('utf8')
			.split('\n')
			.filter(Boolean)
			.map((line) => line.replace(/^(\S+)\s+\S+\s+(\d+)\s+\S+\s+\S+\s+/, '$1 $2 '))
			.sort();
	const ours = verbose(tarFile, true);
	assert.ok(
		ours.some((line) => line.startsWith('-rwxrwxr-x') && line.endsWith('/bin/run.sh')),
		'~> an executable file keeps its mode',
	);
	assert.ok(
		ours.some((line) => line.endsWith(`${'x'.repeat(120)}.txt`)),
		'~> a path over 100 characters (pax header)',
	);
	assert.equal(ours, verbose(gitTar, false), '~> modes, sizes, names and link targets agree with git archive');

	const gitComment = execFileSync('git', ['get-tar-commit-id'], { input: execFileSync('gzip', ['-dc', tarFile]) })
		.toString('utf8')
		.trim();
	assert.is(gitComment, head, '~> git get-tar-commit-id reads the commit from the pax header');

	const zipball = await s.request('GET', `${R}/zipball/main`);
	assert.is(zipball.status, 302);
	const zipFile = join(work, 'app.zip');
	writeFileSync(zipFile, Buffer.from(await (await fetch(zipball.headers.get('location')!)).arrayBuffer()));
	const zipped = execFileSync('unzip', ['-p', zipFile, `${top}/docs/guide.md`]).toString('utf8');
	assert.is(zipped, '# Guide\n\nMore.\n', '~> the zip holds the same file');
	const zipList = execFileSync('unzip', ['-Z1', zipFile]).toString('utf8').split('\n').filter(Boolean).sort();
	const tarNames = execFileSync('tar', ['-tzf', tarFile]).toString('utf8').split('\n').filter(Boolean).sort();
	assert.equal(zipList, tarNames, '~> the zip holds the same entries as the tarball');
	const modes = execFileSync('unzip', ['-Z', zipFile]).toString('utf8');
	assert.match(modes, /^-rwxrwxr-x .*\/bin\/run\.sh$/m, '~> with the executable mode');
	assert.match(modes, /^lrwxrwxrwx .*\/link\.txt$/m, '~> and links as links');

	const badRef = await s.request('GET', `${R}/tarball/nope`);
	assert.is(badRef.status, 404, '~> an unknown ref is 404');

	const secret = await s.request('GET', '/repos/acme/secret/zipball', { token: owner });
	assert.is(secret.status, 302);
	const signed = secret.headers.get('location')!;
	assert.ok(signed.includes('?token='), '~> a private archive URL is signed');
	assert.is((await fetch(signed)).status, 200, '~> and downloads');
	assert.is((await fetch(signed.replace(/\?token=.*$/, ''))).status, 404, '~> not without the token');
	assert.is(
		(await fetch(signed.replace(/token=(\d+)\./, (_m, e) => `token=${Number(e) + 1}.`))).status,
		404,
		'~> nor with a forged expiry',
	);
	s.clock.advance(301_000);
	assert.is((await fetch(signed)).status, 404, '~> and not after five minutes');
	const head2 = await fetch(location, { method: 'HEAD' });
	assert.is(head2.status, 200, '~> HEAD answers the headers');
	assert.is(
		head2.headers.get('content-disposition'),
		`attachment; filename=${top}.tar.gz`,
		"~> naming the file as GitHub's codeload does",
	);
	for (const odd of [
		'/_raw/acme/app/%E0%A4%A/x',
		'/_raw/acme/app/main/%ZZ',
		'/_codeload/acme/app/legacy.tar.gz/zzz',
		`/_codeload/nobody/app/legacy.zip/${'a'.repeat(40)}`,
		'/_raw/acme/app/main/docs',
	]) {
		const res = await fetch(`${s.origin}${odd}`);
		assert.is(res.status, 404, `~> ${odd} is 404, never a failure`);
	}
	const hidden = await s.request('GET', '/repos/acme/secret/tarball', { token: outsider });
	assert.is(hidden.status, 404, '~> callers who cannot read the repository get no URL');
});

test('a folder of more than 1,000 entries lists the first 1,000, as GitHub does', async () => {
	const files = Array.from({ length: 1001 }, (_, i) => ({
		path: `many/f${String(i).padStart(4, '0')}`,
		mode: '100644',
		content: `${i}`,
	}));
	await gitCommit(files, 'Many files');
	const listing = await s.request('GET', `${R}/contents/many`);
	assert.is(listing.status, 200);
	assert.is(listing.body.length, 1000, '~> 1,000 entries');
	assert.is(listing.body[999].name, 'f0999', '~> the first ones, in git order');
});

test('an archived repository is read-only: PUT and DELETE answer 403, reads go on', async () => {
	const archived = await s.request('PATCH', '/repos/olivia/gnu', { token: owner, body: { archived: true } });
	assert.is(archived.status, 200);
	const license = await s.request('GET', '/repos/olivia/gnu/contents/LICENSE', { token: owner });
	assert.is(license.status, 200, '~> reads go on');
	const put = await s.request('PUT', '/repos/olivia/gnu/contents/x.txt', { token: owner, body: { message: 'x', content: b64('x') } });
	assert.is(put.status, 403, '~> no new file');
	const del = await s.request('DELETE', '/repos/olivia/gnu/contents/LICENSE', {
		token: owner,
		body: { message: 'x', sha: license.body.sha },
	});
	assert.is(del.status, 403, '~> no deletion');
});

test('branch protection holds for contents writes: a pusher waits for the required check, an administrator bypasses it', async () => {
	const made = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'guarded', auto_init: true } });
	assert.is(made.status, 201);
	s.user('pete');
	s.member('acme', 'pete');
	const pusher = s.fullToken('pete');
	assert.is(
		(await s.request('PUT', '/repos/acme/guarded/collaborators/pete', { token: owner, body: { permission: 'push' } })).status,
		204,
		'~> pete may push',
	);
	const rules = {
		required_status_checks: { strict: false, contexts: ['ci'] },
		enforce_admins: false,
		required_pull_request_reviews: null,
		restrictions: null,
	};
	assert.is((await s.request('PUT', '/repos/acme/guarded/branches/main/protection', { token: owner, body: rules })).status, 200);
	const refused = await s.request('PUT', '/repos/acme/guarded/contents/a.txt', {
		token: pusher,
		body: { message: 'a', content: b64('a') },
	});
	assert.is(refused.status, 422, '~> the new head has no "ci" result');
	assert.is(refused.body.message, 'Required status check "ci" is expected.');
	const admin = await s.request('PUT', '/repos/acme/guarded/contents/a.txt', { token: owner, body: { message: 'a', content: b64('a') } });
	assert.is(admin.status, 201, '~> an administrator bypasses required checks unless enforce_admins');
});

test('Octokit: createOrUpdateFileContents → getContent → deleteFile', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit: Octokit = new Octokit({ auth: owner, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const made = await octokit.rest.repos.createOrUpdateFileContents({
		owner: 'acme',
		repo: 'app',
		path: 'octo/hello.txt',
		message: 'Hello',
		content: b64('hello'),
	});
	assert.is(made.status, 201);
	const got = await octokit.rest.repos.getContent({ owner: 'acme', repo: 'app', path: 'octo/hello.txt' });
	assert.ok(!Array.isArray(got.data) && got.data.type === 'file');
	const data = got.data as { sha: string; content: string };
	assert.is(unb64(data.content), 'hello');
	const updated = await octokit.rest.repos.createOrUpdateFileContents({
		owner: 'acme',
		repo: 'app',
		path: 'octo/hello.txt',
		message: 'Hi',
		content: b64('hi'),
		sha: data.sha,
	});
	assert.is(updated.status, 200);
	const deleted = await octokit.rest.repos.deleteFile({
		owner: 'acme',
		repo: 'app',
		path: 'octo/hello.txt',
		message: 'Bye',
		sha: updated.data.content!.sha!,
	});
	assert.is(deleted.status, 200);
	// Octokit follows the 302 to the codeload URL and hands back the archive's bytes.
	const tarball = await octokit.rest.repos.downloadTarballArchive({ owner: 'acme', repo: 'app', ref: 'main' });
	assert.is(tarball.status, 200, '~> Octokit downloads the tarball through the redirect');
	assert.is(
		Buffer.from(tarball.data as ArrayBuffer)
			.subarray(0, 2)
			.toString('hex'),
		'1f8b',
		'~> gzip bytes',
	);
	const zipball = await octokit.rest.repos.downloadZipballArchive({ owner: 'acme', repo: 'secret', ref: '' });
	assert.is(
		Buffer.from(zipball.data as ArrayBuffer)
			.subarray(0, 2)
			.toString('latin1'),
		'PK',
		'~> and a private repository’s zipball (signed URL)',
	);
	const error = await octokit.rest.repos
		.getContent({ owner: 'acme', repo: 'app', path: 'octo/hello.txt' })
		.catch((e: { status: number }) => e);
	assert.is((error as { status: number }).status, 404, '~> gone');
});

test.run();
