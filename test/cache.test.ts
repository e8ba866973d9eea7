/**
 * In-memory caches never serve stale or foreign data: the remembered repository rows the guard
 * reads and the validators that answer GET issue 304 before rendering follow every write: one
 * through the API, one by another process while the server runs (`gitstead admin`, a raw SQLite
 * connection), and a restore; a caller who loses access gets neither a cached answer nor a 304.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { backupDataFolder, restoreDataFolder } from '../src/cli/backup';
import { defaultConfig, resolveConfig } from '../src/config';
import { bundleCommand, run } from './helpers/cli';
import { startServer, type TestServer } from './helpers/server';

const test = suite('cache');
let s: TestServer;
let olivia: string; // owner of acme
let carl: string; // collaborator on acme/vault
let bob: string; // nobody to acme, until the first test makes him a member
const work = mkdtempSync(join(tmpdir(), 'gitstead-cache-'));

test.before(async () => {
	// Loopback is a trusted proxy: a forwarded origin is another origin's answer.
	s = await startServer({ configure: (c) => (c.server.trusted_proxies = ['127.0.0.1']) });
	for (const login of ['olivia', 'carl', 'bob']) s.user(login);
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	carl = s.fullToken('carl');
	bob = s.fullToken('bob');
	assert.is((await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web' } })).status, 201);
	assert.is((await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } })).status, 201);
	const vault = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'vault')!;
	s.app.stores.repos.setCollaborator(vault.id, s.app.stores.accounts.user('carl')!.id, 'push', '2026-01-01T00:00:00Z');
	assert.is((await s.request('POST', '/repos/acme/web/issues', { token: bob, body: { title: 'First', labels: [] } })).status, 201);
	assert.is((await s.request('POST', '/repos/acme/vault/issues', { token: carl, body: { title: 'Secret' } })).status, 201);
});
test.after(async () => {
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

/** GET with If-None-Match: the answer and the ETag to send next time. */
async function poll(path: string, token: string, etag?: string) {
	const res = await s.get(path, token, etag ? { 'If-None-Match': etag } : {});
	return { status: res.status, etag: res.headers.get('etag') ?? '', body: res.body };
}

/** Another connection's commit (what `gitstead admin` or any other process does). */
function external(sql: string, ...params: unknown[]) {
	const db = new Database(join(s.dataDir, 'gitstead.db'));
	db.pragma('busy_timeout = 5000');
	try {
		db.prepare(sql).run(...params);
	} finally {
		db.close();
	}
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5)); // reads look for other connections' commits once a millisecond

test('GET issue: 304 while nothing changed; every API write it shows changes the ETag', async () => {
	const path = '/repos/acme/web/issues/1';
	let { status, etag } = await poll(path, olivia);
	assert.is(status, 200);
	assert.is((await poll(path, olivia, etag)).status, 304, '~> unchanged: 304');
	assert.is((await poll(path, bob, etag)).status, 304, '~> the same answer for another reader');

	const changes: Array<[string, () => Promise<unknown>, (body: any) => boolean]> = [
		['title', () => s.request('PATCH', path, { token: olivia, body: { title: 'Renamed' } }), (b) => b.title === 'Renamed'],
		[
			'labels',
			() => s.request('POST', `${path}/labels`, { token: olivia, body: { labels: ['bug'] } }),
			(b) => b.labels[0]?.name === 'bug',
		],
		[
			'label renamed',
			() => s.request('PATCH', '/repos/acme/web/labels/bug', { token: olivia, body: { new_name: 'defect' } }),
			(b) => b.labels[0]?.name === 'defect',
		],
		[
			'assignee',
			() => s.request('POST', `${path}/assignees`, { token: olivia, body: { assignees: ['olivia'] } }),
			(b) => b.assignees[0]?.login === 'olivia',
		],
		[
			'reaction',
			() => s.request('POST', `${path}/reactions`, { token: bob, body: { content: 'heart' } }),
			(b) => b.reactions.heart === 1,
		],
		['comment', () => s.request('POST', `${path}/comments`, { token: bob, body: { body: 'me too' } }), (b) => b.comments === 1],
		['membership (author_association)', async () => s.member('acme', 'bob'), (b) => b.author_association === 'MEMBER'],
		[
			'repository renamed',
			() => s.request('PATCH', '/repos/acme/web', { token: olivia, body: { name: 'site' } }),
			(b) => b.repository_url.endsWith('/repos/acme/site'),
		],
	];
	for (const [what, change, shows] of changes) {
		await change();
		const current = what === 'repository renamed' ? '/repos/acme/site/issues/1' : path;
		const answer = await poll(current, olivia, etag);
		assert.is(answer.status, 200, `~> after ${what}: 200, not 304`);
		assert.ok(shows(answer.body), `~> after ${what}: the answer shows it`);
		assert.is.not(answer.etag, etag, `~> after ${what}: a new ETag`);
		etag = answer.etag;
		assert.is((await poll(current, olivia, etag)).status, 304, `~> after ${what}: the new ETag matches`);
	}
	assert.is((await s.get('/repos/acme/web', olivia)).status, 301, '~> the old name redirects (the remembered row moved)');
	await s.request('PATCH', '/repos/acme/site', { token: olivia, body: { name: 'web' } });
});

test('render once: the kept answer is per origin, media type and API version, and follows every write', async () => {
	const path = '/repos/acme/web/issues/1';
	await s.request('PATCH', path, { token: olivia, body: { body: 'Some **bold** text' } });
	const first = await s.get(path, olivia);
	const again = await s.get(path, bob);
	assert.equal(again.body, first.body, '~> the same answer again, for another reader');
	assert.is(again.headers.get('etag'), first.headers.get('etag'));
	const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'git.example.com' };
	const proxied = await s.get(path, olivia, forwarded);
	assert.is(proxied.body.url, 'https://git.example.com/api/v3/repos/acme/web/issues/1', '~> another origin: its own URLs');
	assert.is.not(proxied.headers.get('etag'), first.headers.get('etag'));
	assert.is((await s.get(path, olivia)).body.url, `${s.api}/repos/acme/web/issues/1`, '~> the configured origin keeps its own');
	const html = await s.get(path, olivia, { Accept: 'application/vnd.github.html+json' });
	assert.match(html.body.body_html, /<strong>bold<\/strong>/, '~> the html media type: body_html');
	assert.is(html.body.body, undefined, '~> and no body');
	assert.is((await s.get(path, olivia)).body.body_html, undefined, '~> the default media type again: no body_html');
	assert.is((await s.get(path, olivia)).body.body, 'Some **bold** text');

	// Plain GETs (no If-None-Match) after each kind of write: never the kept answer.
	await s.request('PATCH', path, { token: olivia, body: { body: 'Through the API' } });
	assert.is((await s.get(path, olivia)).body.body, 'Through the API', '~> an API write');
	assert.is((await s.get(path, olivia, forwarded)).body.body, 'Through the API', '~> an API write, the other origin');
	external("UPDATE issues SET body = 'From elsewhere' WHERE number = 1 AND repo_id = (SELECT id FROM repositories WHERE name = 'web')");
	await settle();
	assert.is((await s.get(path, olivia)).body.body, 'From elsewhere', "~> another connection's commit");
	assert.is((await s.get(path, olivia, forwarded)).body.body, 'From elsewhere', "~> another connection's commit, the other origin");
	// The author renamed by another process: the kept answer named the old login.
	assert.is((await s.get(path, olivia)).body.user.login, 'bob');
	external("UPDATE accounts SET login = 'bobby' WHERE login = 'bob'");
	await settle();
	assert.is((await s.get(path, olivia)).body.user.login, 'bobby', '~> an account renamed elsewhere');
	external("UPDATE accounts SET login = 'bob' WHERE login = 'bobby'");
	await settle();
	assert.is((await s.get(path, olivia)).body.user.login, 'bob');
});

test('counter writes update the remembered repository row in place: open issues, stars, watchers; a rollback forgets it', async () => {
	const repo = async () => (await s.get('/repos/acme/web', olivia)).body;
	const before = await repo();
	const { etag } = await poll('/repos/acme/web/issues/1', olivia);
	assert.is((await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'Counted' } })).status, 201);
	const opened = await repo();
	assert.is(opened.open_issues_count, before.open_issues_count + 1);
	// The counter moved the repository's version: an issue's ETag changes with it.
	assert.is.not((await poll('/repos/acme/web/issues/1', olivia, etag)).status, 304);
	assert.is((await s.request('PUT', '/user/starred/acme/web', { token: carl })).status, 204);
	assert.is((await repo()).stargazers_count, before.stargazers_count + 1);
	assert.is((await s.request('PUT', '/repos/acme/web/subscription', { token: bob, body: { subscribed: true } })).status, 200);
	assert.is((await repo()).subscribers_count, before.subscribers_count + 1);
	const number = (await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'To close' } })).body.number;
	assert.is((await repo()).open_issues_count, before.open_issues_count + 2);
	assert.is((await s.request('PATCH', `/repos/acme/web/issues/${number}`, { token: olivia, body: { state: 'closed' } })).status, 200);
	assert.is((await repo()).open_issues_count, before.open_issues_count + 1);
	// A counter written in a transaction that rolls back: the remembered row is not left with it.
	const id = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'web')!.id;
	assert.throws(() =>
		s.app.transaction(() => {
			s.app.db.prepare('UPDATE repositories SET open_issues_count = open_issues_count + 100 WHERE id = ?').run(id);
			assert.is(s.app.stores.repos.byId(id)!.open_issues_count, before.open_issues_count + 101);
			throw new Error('rolled back');
		}),
	);
	assert.is((await repo()).open_issues_count, before.open_issues_count + 1);
	// Any other column written drops it: the next read is the row as stored.
	assert.is((await s.request('PATCH', '/repos/acme/web', { token: olivia, body: { description: 'Counted and described' } })).status, 200);
	const described = await repo();
	assert.is(described.description, 'Counted and described');
	assert.is(described.open_issues_count, before.open_issues_count + 1);
	assert.is((await s.request('PATCH', '/repos/acme/web', { token: olivia, body: { description: null } })).status, 200);
});

test('a commit by another connection while the server runs: remembered rows and ETags follow', async () => {
	const path = '/repos/acme/web/issues/1';
	const { etag } = await poll(path, olivia);
	assert.is((await s.get('/repos/acme/web', olivia)).body.description, null);
	external("UPDATE repositories SET description = 'from elsewhere' WHERE name = 'web'");
	external(
		"UPDATE issues SET title = 'Edited elsewhere' WHERE number = 1 AND repo_id = (SELECT id FROM repositories WHERE name = 'web')",
	);
	await settle();
	assert.is((await s.get('/repos/acme/web', olivia)).body.description, 'from elsewhere', '~> the repository row is read again');
	const answer = await poll(path, olivia, etag);
	assert.is(answer.status, 200, '~> no 304 for what changed elsewhere');
	assert.is(answer.body.title, 'Edited elsewhere');
	// A private repository made public by another process: an anonymous caller reads it at once.
	assert.is((await s.get('/repos/acme/vault')).status, 404);
	external("UPDATE repositories SET visibility = 'public' WHERE name = 'vault'");
	await settle();
	assert.is((await s.get('/repos/acme/vault')).status, 200, '~> the guard sees the new visibility');
	external("UPDATE repositories SET visibility = 'private' WHERE name = 'vault'");
	await settle();
	assert.is((await s.get('/repos/acme/vault')).status, 404, '~> and its return to private');
});

test('gitstead admin while the server runs: add-member changes author_association and the ETag', async () => {
	s.user('dora');
	const dora = s.fullToken('dora');
	const created = await s.request('POST', '/repos/acme/web/issues', { token: dora, body: { title: 'From dora' } });
	const path = `/repos/acme/web/issues/${created.body.number}`;
	const first = await poll(path, olivia);
	assert.is(first.body.author_association, 'NONE');
	const result = run(bundleCommand(), ['admin', 'add-member', 'acme', 'dora', '--data-dir', s.dataDir]);
	assert.is(result.code, 0, result.stderr);
	await settle();
	const answer = await poll(path, olivia, first.etag);
	assert.is(answer.status, 200, '~> no 304 after the admin command');
	assert.is(answer.body.author_association, 'MEMBER');
});

test('a caller who loses access gets 404: neither the remembered answer nor a 304', async () => {
	const path = '/repos/acme/vault/issues/1';
	const first = await poll(path, carl);
	assert.is(first.status, 200);
	assert.is((await poll(path, carl, first.etag)).status, 304);
	s.user('eve');
	const eve = s.fullToken('eve'); // nobody to acme
	assert.is((await poll(path, eve, first.etag)).status, 404, "~> another caller's ETag opens nothing");
	assert.is((await s.request('DELETE', '/repos/acme/vault/collaborators/carl', { token: olivia })).status, 204);
	assert.is((await poll(path, carl, first.etag)).status, 404, '~> removed through the API: 404');
	assert.is((await poll(path, carl)).status, 404);
	// Given back, then taken away by another process.
	const vault = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'vault')!;
	s.app.stores.repos.setCollaborator(vault.id, s.app.stores.accounts.user('carl')!.id, 'push', '2026-01-01T00:00:00Z');
	const again = await poll(path, carl);
	assert.is(again.status, 200);
	external('DELETE FROM repository_collaborators WHERE repo_id = ?', vault.id);
	await settle();
	assert.is((await poll(path, carl, again.etag)).status, 404, '~> removed by another connection: 404');
});

test('a token revoked by gitstead admin while the server runs is refused at once: no kept answer, no 304', async () => {
	s.user('gina');
	s.member('acme', 'gina');
	const gina = s.fullToken('gina');
	const path = '/repos/acme/web/issues/1';
	const first = await poll(path, gina);
	assert.is(first.status, 200);
	assert.is((await poll(path, gina, first.etag)).status, 304);
	const listed = run(bundleCommand(), ['admin', 'list-tokens', 'gina', '--json', '--data-dir', s.dataDir]);
	assert.is(listed.code, 0, listed.stderr);
	const [token] = JSON.parse(listed.stdout).tokens as Array<{ id: number }>;
	const revoked = run(bundleCommand(), ['admin', 'revoke-token', String(token.id), '--data-dir', s.dataDir]);
	assert.is(revoked.code, 0, revoked.stderr);
	await settle();
	assert.is((await poll(path, gina, first.etag)).status, 401, '~> a conditional GET: 401, not 304');
	assert.is((await poll(path, gina)).status, 401, '~> a plain GET: 401, not the kept answer');
	// Another process's commit moves every validator (the caches cannot tell what it changed).
	assert.is((await poll(path, olivia, first.etag)).status, 200, '~> another caller: the answer again');
});

test('a restore: ETags issued before it never match what the restored data answers', async () => {
	const path = '/repos/acme/web/issues/1';
	await s.request('PATCH', path, { token: olivia, body: { title: 'Before the backup' } });
	const archive = join(work, 'backup.tar.gz');
	const config = defaultConfig();
	config.storage.data_dir = s.dataDir;
	await backupDataFolder(resolveConfig(config), archive);
	await s.request('PATCH', path, { token: olivia, body: { title: 'After the backup' } });
	const after = await poll(path, olivia);
	await s.close(true);
	const restoredConfig = defaultConfig();
	restoredConfig.storage.data_dir = join(work, 'restored');
	await restoreDataFolder(resolveConfig(restoredConfig), archive);
	s = await startServer({ dataDir: join(work, 'restored') });
	const answer = await poll(path, s.fullToken('olivia'), after.etag);
	assert.is(answer.status, 200, '~> the ETag of the lost change does not match');
	assert.is(answer.body.title, 'Before the backup');
});

test.run();
