/**
 * GET /search/code: the default branches' files, indexed by the background task a push to the
 * default branch queues (never in the request): substring terms through the trigram index,
 * qualifiers (repo:, org:, user:, path:, language:, extension:, filename:, in:path), private
 * repositories for those who can read them only, binary and over-large files left out, the text
 * match media type, authentication required and the code_search rate category.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CANDIDATES } from '../src/api/search/code';
import { createCommit, createTree, updateRef } from '../src/api/git/writes';
import { startServer, type TestServer } from './helpers/server';

const test = suite('search-code');
let s: TestServer;
let olivia: string;
let nora: string;

const put = async (repo: string, path: string, content: string | Buffer, token = olivia, branch?: string) => {
	const res = await s.request('PUT', `/repos/${repo}/contents/${path}`, {
		token,
		body: { message: `add ${path}`, content: Buffer.from(content).toString('base64'), ...(branch ? { branch } : {}) },
	});
	assert.is(res.status, 201, `~> ${path}: ${JSON.stringify(res.body)}`);
	return res.body;
};
const search = (q: string, token = olivia, headers?: Record<string, string>) =>
	s.get(`/search/code?q=${encodeURIComponent(q)}`, token, headers);
const paths = (res: { body: { items: Array<{ repository: { full_name: string }; path: string }> } }) =>
	res.body.items.map((item) => `${item.repository.full_name}:${item.path}`).sort();

test.before(async () => {
	s = await startServer({ configure: (c) => void (c.rate_limit.limits.code_search = 1000) });
	for (const login of ['olivia', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	nora = s.fullToken('nora');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'rocket', auto_init: true } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', auto_init: true, private: true } });
	await s.request('POST', '/user/repos', { token: nora, body: { name: 'notes', auto_init: true } });
	await put('acme/rocket', 'src/engine.ts', 'export function ignite(fuel: number) {\n\treturn fuel * 42; // thrust\n}\n');
	await put('acme/rocket', 'src/util/serializer.py', 'def serialize(payload):\n    return repr(payload)\n');
	await put('acme/rocket', 'docs/engine.md', '# The engine\nIt ignites.\n');
	await put('acme/rocket', 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x69, 0x67, 0x6e, 0x69, 0x74, 0x65]));
	await put('acme/rocket', 'big.txt', `ignite ${'x'.repeat(400 * 1024)}`);
	await put('acme/vault', 'secret.ts', 'export const ignitionCode = "ignite-1234";\n');
	await put('nora/notes', 'todo.txt', 'ignite the grill', nora);
	await s.app.tasks.runDue();
});
test.after(() => s.close());

test('terms match substrings of the default branch files, across readable repositories', async () => {
	const res = await search('ignite');
	assert.is(res.status, 200, JSON.stringify(res.body));
	assert.equal(paths(res), ['acme/rocket:docs/engine.md', 'acme/rocket:src/engine.ts', 'acme/vault:secret.ts', 'nora/notes:todo.txt']);
	assert.is(res.body.total_count, 4);
	assert.is(res.body.incomplete_results, false);
	const item = res.body.items.find((i: any) => i.path === 'src/engine.ts');
	assert.is(item.name, 'engine.ts');
	assert.match(item.sha, /^[0-9a-f]{40}$/);
	assert.match(item.url, /\/repos\/acme\/rocket\/contents\/src\/engine\.ts\?ref=[0-9a-f]{40}$/);
	assert.ok(item.git_url.endsWith(`/repos/acme/rocket/git/blobs/${item.sha}`));
	assert.match(item.html_url, /\/acme\/rocket\/blob\/[0-9a-f]{40}\/src\/engine\.ts$/);
	assert.is(item.repository.full_name, 'acme/rocket');
	assert.is(item.score, 1);
	assert.not.ok('text_matches' in item, '~> only with the text-match media type');
	// The blob the item names is the file's.
	const blob = await s.get(item.git_url.replace(/^.*\/api\/v3/, ''), olivia);
	assert.match(Buffer.from(blob.body.content, 'base64').toString(), 'fuel * 42');
	// A substring inside a word, case-insensitively.
	assert.equal(paths(await search('SERIALIZ')), ['acme/rocket:src/util/serializer.py']);
	// Every term must be found.
	assert.equal(paths(await search('ignite thrust')), ['acme/rocket:src/engine.ts']);
	assert.equal(paths(await search('"return fuel"')), ['acme/rocket:src/engine.ts']);
});

test('binary files and files of 384 KB or more are not indexed', async () => {
	assert.equal(paths(await search('ignite repo:acme/rocket')).includes('acme/rocket:big.txt'), false);
	assert.is((await search('ignite filename:logo.png')).body.total_count, 0);
	assert.is((await search('logo in:path repo:acme/rocket')).body.total_count, 0, '~> a binary file is never found');
});

test('qualifiers: repo, org, user, path, language, extension, filename, in:path', async () => {
	assert.equal(paths(await search('ignite repo:nora/notes')), ['nora/notes:todo.txt']);
	assert.equal(paths(await search('ignite org:acme')), [
		'acme/rocket:docs/engine.md',
		'acme/rocket:src/engine.ts',
		'acme/vault:secret.ts',
	]);
	assert.equal(paths(await search('ignite user:nora')), ['nora/notes:todo.txt']);
	assert.equal(paths(await search('ignite path:src')), ['acme/rocket:src/engine.ts']);
	assert.equal(paths(await search('serialize path:src/util')), ['acme/rocket:src/util/serializer.py']);
	assert.equal(paths(await search('ignite language:typescript')), ['acme/rocket:src/engine.ts', 'acme/vault:secret.ts']);
	assert.equal(paths(await search('ignite extension:md')), ['acme/rocket:docs/engine.md']);
	assert.equal(paths(await search('ignite -extension:md org:acme')), ['acme/rocket:src/engine.ts', 'acme/vault:secret.ts']);
	assert.equal(paths(await search('ignite filename:todo.txt')), ['nora/notes:todo.txt']);
	assert.equal(paths(await search('engine in:path')), ['acme/rocket:docs/engine.md', 'acme/rocket:src/engine.ts']);
	// Short terms work within a repository.
	assert.equal(paths(await search('42 repo:acme/rocket')), ['acme/rocket:src/engine.ts']);
});

test('private repositories: only for those who can read them; unreadable repo: is 422', async () => {
	assert.equal(paths(await search('ignite', nora)), ['acme/rocket:docs/engine.md', 'acme/rocket:src/engine.ts', 'nora/notes:todo.txt']);
	const hidden = await search('ignite repo:acme/vault', nora);
	assert.is(hidden.status, 422);
	const fineGrained = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { metadata: 'read' } });
	assert.not.ok(
		paths(await search('ignite', fineGrained)).includes('acme/vault:secret.ts'),
		'~> without Contents (read), no private code',
	);
});

test('the index follows the default branch: changed, deleted and other-branch files', async () => {
	const engine = await s.get('/repos/acme/rocket/contents/src/engine.ts', olivia);
	await s.request('PUT', '/repos/acme/rocket/contents/src/engine.ts', {
		token: olivia,
		body: { message: 'rename', content: Buffer.from('export function kindle() {}\n').toString('base64'), sha: engine.body.sha },
	});
	const main = (await s.get('/repos/acme/rocket/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/acme/rocket/git/refs', { token: olivia, body: { ref: 'refs/heads/wip', sha: main } });
	await put('acme/rocket', 'wip.ts', 'kindle();', olivia, 'wip');
	// Nothing changes before the task runs: indexing is off the request path.
	assert.equal(paths(await search('kindle')), []);
	await s.app.tasks.runDue();
	assert.equal(paths(await search('kindle')), ['acme/rocket:src/engine.ts']);
	assert.not.ok(paths(await search('ignite')).includes('acme/rocket:src/engine.ts'));
	// A new default branch is indexed in its turn.
	const patched = await s.request('PATCH', '/repos/acme/rocket', { token: olivia, body: { default_branch: 'wip' } });
	assert.is(patched.status, 200);
	await s.app.tasks.runDue();
	assert.equal(paths(await search('kindle repo:acme/rocket')), ['acme/rocket:src/engine.ts', 'acme/rocket:wip.ts']);
	await s.request('PATCH', '/repos/acme/rocket', { token: olivia, body: { default_branch: 'main' } });
	await s.app.tasks.runDue();
});

test('text matches with application/vnd.github.text-match+json', async () => {
	const res = await search('serialize', olivia, { Accept: 'application/vnd.github.text-match+json' });
	assert.is(res.status, 200);
	const [match] = res.body.items[0].text_matches;
	assert.is(match.object_type, 'FileContent');
	assert.is(match.property, 'content');
	assert.is(match.object_url, res.body.items[0].url);
	const [start, end] = match.matches[0].indices;
	assert.is(match.fragment.slice(start, end).toLowerCase(), 'serialize');
});

test('bounded work: past 1000 index hits the answer is unranked and says incomplete_results', async () => {
	await s.request('POST', '/user/repos', { token: nora, body: { name: 'haystack', auto_init: true } });
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('nora')!.id, 'haystack')!;
	const now = '2026-03-01T10:00:00Z';
	const ident = { name: 'Nora', email: 'nora@example.com', seconds: 1_772_359_200, tz: '+0000' };
	const head = (await s.get('/repos/nora/haystack/git/ref/heads/main', nora)).body.object.sha;
	s.app.transaction(() => {
		const files = Array.from({ length: CANDIDATES + 1 }, (_, i) => ({
			path: `hay/${i}.txt`,
			mode: '100644' as const,
			type: 'blob' as const,
			content: `needle ${i}`,
		}));
		const tree = createTree(s.app, repo.id, undefined, files, now);
		const commit = createCommit(
			s.app,
			repo.id,
			{ message: 'hay', tree, parents: [head], author: ident, committer: ident, signature: null },
			now,
		);
		updateRef(s.app, repo, 'refs/heads/main', commit, { actorId: null });
	});
	await s.app.tasks.runDue();
	const capped = await search('needle repo:nora/haystack', nora);
	assert.is(capped.status, 200);
	assert.is(capped.body.incomplete_results, true);
	assert.is(capped.body.total_count, CANDIDATES);
	const narrow = await search('"needle 999" repo:nora/haystack', nora);
	assert.is(narrow.body.incomplete_results, false);
	assert.equal(paths(narrow), ['nora/haystack:hay/999.txt']);
});

test('forks: searched only with fork:true or fork:only', async () => {
	const fork = await s.request('POST', '/repos/nora/notes/forks', { token: olivia, body: {} });
	assert.is(fork.status, 202, fork.text);
	await put('olivia/notes', 'fork.txt', 'ignite from the fork');
	await s.app.tasks.runDue();
	assert.not.ok(
		paths(await search('ignite')).some((p) => p.startsWith('olivia/notes:')),
		'~> forks are left out',
	);
	assert.equal(paths(await search('ignite fork:only')), ['olivia/notes:fork.txt', 'olivia/notes:todo.txt']);
	assert.ok(paths(await search('ignite fork:true')).includes('nora/notes:todo.txt'));
	assert.is((await search('ignite fork:maybe')).status, 422);
});

test('validation, authentication and the code_search rate limit', async () => {
	assert.is((await search('language:go')).status, 422, '~> a term is required');
	assert.is((await search('ab')).status, 422, '~> a short term alone needs repo:');
	assert.is((await s.get('/search/code')).status, 401, '~> anonymous callers are refused');
	const res = await search('ignite');
	assert.is(res.headers.get('x-ratelimit-resource'), 'code_search');
});

test.run();
