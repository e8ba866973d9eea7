/**
 * GET /search/commits: the default branches' histories, indexed by the background task a push to
 * the default branch queues: words in messages, qualifiers (repo:, org:, user:, author:,
 * committer:, author-name:, author-email:, author-date:, committer-date:, merge:, hash:, parent:,
 * tree:, is:), sorting, private repositories for those who can read them, forced pushes taking
 * commits out, the commit shape GitHub answers; and `gh search commits` (gh 2.23 behind a TLS
 * front; skipped with a message when `which gh` finds no gh).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';
import { findGh, runGh, tlsFront, type TlsFront } from './helpers/tls';

const test = suite('search-commits');
const gh = findGh();
let s: TestServer;
let front: TlsFront | undefined;
let olivia: string;
let nora: string;
const shas: Record<string, string> = {};

/** A commit on `repo`'s main through the git database API, moving main. */
async function commit(repo: string, message: string, opts: { date?: string; parents?: string[]; email?: string } = {}) {
	const head = (await s.get(`/repos/${repo}/git/ref/heads/main`, olivia)).body.object.sha;
	const base = (await s.get(`/repos/${repo}/git/commits/${head}`, olivia)).body.tree.sha;
	const tree = await s.request('POST', `/repos/${repo}/git/trees`, {
		token: olivia,
		body: { base_tree: base, tree: [{ path: `${message.slice(0, 8)}.txt`, mode: '100644', type: 'blob', content: message }] },
	});
	const date = opts.date ?? '2026-03-01T10:00:00Z';
	const person = { name: 'Olivia Doe', email: opts.email ?? 'olivia@example.com', date };
	const made = await s.request('POST', `/repos/${repo}/git/commits`, {
		token: olivia,
		body: { message, tree: tree.body.sha, parents: opts.parents ?? [head], author: person, committer: person },
	});
	assert.is(made.status, 201, JSON.stringify(made.body));
	const moved = await s.request('PATCH', `/repos/${repo}/git/refs/heads/main`, {
		token: olivia,
		body: { sha: made.body.sha, force: true },
	});
	assert.is(moved.status, 200, JSON.stringify(moved.body));
	return made.body.sha as string;
}

const search = (q: string, token = olivia, extra = '') => s.get(`/search/commits?q=${encodeURIComponent(q)}${extra}`, token);
const messages = (res: { body: { items: Array<{ commit: { message: string } }> } }) => res.body.items.map((i) => i.commit.message);

test.before(async () => {
	s = await startServer({ configure: (c) => void (c.rate_limit.limits.search = 1000) });
	s.user('olivia');
	s.user('nora');
	s.app.db.prepare("UPDATE accounts SET email = 'olivia@example.com' WHERE login = 'olivia'").run();
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	nora = s.fullToken('nora');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'rocket', auto_init: true } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', auto_init: true, private: true } });
	shas.fuel = await commit('acme/rocket', 'Fix the fuel gauge', { date: '2026-01-10T08:00:00Z' });
	shas.engine = await commit('acme/rocket', 'Tune the engine', { date: '2026-02-10T08:00:00Z', email: 'stranger@example.org' });
	const side = await commit('acme/rocket', 'Side work on fuel lines', { date: '2026-02-11T08:00:00Z' });
	shas.merge = await commit('acme/rocket', 'Merge fuel lines', { date: '2026-02-12T08:00:00Z', parents: [side, shas.engine] });
	shas.secret = await commit('acme/vault', 'Fix the secret fuel formula', { date: '2026-02-01T08:00:00Z' });
	// A commit on another branch is not searched.
	const main = (await s.get('/repos/acme/rocket/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/acme/rocket/git/refs', { token: olivia, body: { ref: 'refs/heads/wip', sha: main } });
	await s.request('PUT', '/repos/acme/rocket/contents/wip.txt', {
		token: olivia,
		body: { message: 'Fuel experiments on wip', content: Buffer.from('x').toString('base64'), branch: 'wip' },
	});
	await s.app.tasks.runDue();
	if (gh) front = await tlsFront(Number(new URL(s.origin).port));
});
test.after(async () => {
	await front?.close();
	await s.close();
});

test('words in messages, over the default branches of readable repositories; the commit shape', async () => {
	const res = await search('fuel');
	assert.is(res.status, 200, JSON.stringify(res.body));
	assert.equal(messages(res).sort(), [
		'Fix the fuel gauge',
		'Fix the secret fuel formula',
		'Merge fuel lines',
		'Side work on fuel lines',
	]);
	assert.is(res.body.total_count, 4);
	assert.is(res.body.incomplete_results, false);
	const item = res.body.items.find((i: any) => i.sha === shas.fuel);
	assert.is(item.commit.author.name, 'Olivia Doe');
	assert.is(item.commit.author.date, '2026-01-10T08:00:00Z');
	assert.is(item.author.login, 'olivia', '~> the account the email belongs to');
	assert.is(item.repository.full_name, 'acme/rocket');
	assert.is(item.score, 1);
	assert.ok(item.url.endsWith(`/repos/acme/rocket/commits/${shas.fuel}`));
	assert.ok(item.html_url.endsWith(`/acme/rocket/commit/${shas.fuel}`));
	assert.is(item.parents.length, 1);
	assert.is((await search('experiments')).body.total_count, 0, '~> other branches are not searched');
	assert.equal(messages(await search('fuel', nora)).sort(), ['Fix the fuel gauge', 'Merge fuel lines', 'Side work on fuel lines']);
	assert.is((await search('fuel repo:acme/vault', nora)).status, 422);
});

test('qualifiers and sorting', async () => {
	assert.equal(messages(await search('fuel repo:acme/vault')), ['Fix the secret fuel formula']);
	assert.equal(messages(await search('fuel is:private')), ['Fix the secret fuel formula']);
	assert.is((await search('fuel org:acme')).body.total_count, 4);
	assert.equal(messages(await search('author:olivia fix')).sort(), ['Fix the fuel gauge', 'Fix the secret fuel formula']);
	assert.equal(messages(await search('tune committer-email:stranger@example.org')), ['Tune the engine']);
	assert.equal(messages(await search('author-name:"olivia doe" engine')), ['Tune the engine']);
	assert.equal(messages(await search('author-name:nobody engine')), []);
	assert.equal(messages(await search('fuel merge:true')), ['Merge fuel lines']);
	assert.equal(messages(await search(`hash:${shas.engine.slice(0, 7)}`)), ['Tune the engine']);
	assert.equal(messages(await search(`parent:${shas.engine.slice(0, 10)}`)).sort(), ['Merge fuel lines', 'Side work on fuel lines']);
	assert.equal(messages(await search(`parent:${shas.engine.slice(0, 10)} merge:false`)), ['Side work on fuel lines']);
	assert.equal(messages(await search('fuel author-date:<2026-02-01')), ['Fix the fuel gauge']);
	assert.equal(messages(await search('fuel repo:acme/rocket', olivia, '&sort=committer-date&order=asc')), [
		'Fix the fuel gauge',
		'Side work on fuel lines',
		'Merge fuel lines',
	]);
	assert.is((await search('hash:xyz')).status, 422);
	assert.is((await search('fuel', olivia, '&sort=stars')).status, 422);
});

test('a forced push takes the commits that left the branch out of the index', async () => {
	const head = (await s.get('/repos/acme/rocket/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('PATCH', '/repos/acme/rocket/git/refs/heads/main', { token: olivia, body: { sha: shas.fuel, force: true } });
	await s.app.tasks.runDue();
	assert.equal(messages(await search('fuel repo:acme/rocket')), ['Fix the fuel gauge']);
	await s.request('PATCH', '/repos/acme/rocket/git/refs/heads/main', { token: olivia, body: { sha: head, force: true } });
	await s.app.tasks.runDue();
	assert.is((await search('fuel repo:acme/rocket')).body.total_count, 3);
});

test('text matches on the message', async () => {
	const res = await s.get('/search/commits?q=gauge', olivia, { Accept: 'application/vnd.github.text-match+json' });
	const [match] = res.body.items[0].text_matches;
	assert.is(match.object_type, 'Commit');
	assert.is(match.property, 'message');
	assert.equal(match.matches[0].text, 'gauge');
});

test('gh search commits', async () => {
	if (!front) {
		console.log('test/search-commits.test.ts: gh search commits skipped — the gh CLI is not installed (`which gh` found nothing)');
		return;
	}
	const r = await runGh(front, olivia, ['search', 'commits', 'fuel', '--owner', 'acme', '--json', 'sha,commit,repository,author']);
	assert.is(r.code, 0, r.stderr);
	const found = JSON.parse(r.stdout);
	assert.equal(found.map((c: any) => c.commit.message).sort(), [
		'Fix the fuel gauge',
		'Fix the secret fuel formula',
		'Merge fuel lines',
		'Side work on fuel lines',
	]);
	assert.is(found.find((c: any) => c.sha === shas.fuel).repository.fullName, 'acme/rocket');
	const table = await runGh(front, olivia, ['search', 'commits', 'tune', '--repo', 'acme/rocket']);
	assert.is(table.code, 0, table.stderr);
	assert.match(table.stdout, 'Tune the engine');
});

test.run();
