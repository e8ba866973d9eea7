/**
 * Watching (GitHub's activity/watching): the repository subscription (get, set, delete; GitHub's
 * repository-subscription shape; 404 when there is none), creators subscribed on creation, the
 * watcher and watched-repository lists, subscribers_count, visibility of private repositories (also
 * after a watcher loses access), and denial (classic and OAuth tokens only; notifications or repo).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';
import { acmeAndNotes } from './helpers/setup';

const test = suite('watching');
let s: TestServer;
let olivia: string; // owner of acme (acme's base permission: none)
let mike: string; // member of acme; reads acme/vault as a collaborator
let nora: string; // nobody to acme; owns nora/notes
const SUBSCRIPTION_KEYS = ['subscribed', 'ignored', 'reason', 'created_at', 'url', 'repository_url'];

test.before(async () => {
	s = await startServer();
	({ olivia, mike, nora } = await acmeAndNotes(s));
	const vault = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'vault')!;
	s.app.stores.repos.setCollaborator(vault.id, s.app.stores.accounts.user('mike')!.id, 'pull', '2026-11-22T12:00:00Z');
});
test.after(() => s.close());

test('creating a repository subscribes its creator: subscription shape and subscribers_count', async () => {
	const res = await s.get('/repos/acme/app/subscription', olivia);
	assert.is(res.status, 200, '~> olivia created acme/app, so she watches it');
	assert.equal(Object.keys(res.body), SUBSCRIPTION_KEYS, "~> GitHub's repository-subscription keys, in order");
	assert.equal(res.body, {
		subscribed: true,
		ignored: false,
		reason: null,
		created_at: '2026-11-22T12:00:00Z',
		url: `${s.api}/repos/acme/app/subscription`,
		repository_url: `${s.api}/repos/acme/app`,
	});
	const repo = await s.get('/repos/acme/app', olivia);
	assert.is(repo.body.subscribers_count, 1, '~> one watcher');
	assert.is(repo.body.watchers_count, 0, '~> watchers_count counts stars, not watchers');
	assert.is((await s.get('/repos/nora/notes/subscription', nora)).body.subscribed, true, "~> a user's own repository too");
	assert.is((await s.get('/repos/nora/notes/subscription', mike)).status, 404, '~> mike does not watch nora/notes: 404');
});

test('PUT sets the subscription (200), ignoring wins over watching; DELETE removes it (204)', async () => {
	s.clock.advance(60_000);
	const put = await s.request('PUT', '/repos/acme/app/subscription', { token: mike, body: { subscribed: true } });
	assert.is(put.status, 200, '~> mike watches acme/app');
	assert.equal(put.body, {
		subscribed: true,
		ignored: false,
		reason: null,
		created_at: '2026-11-22T12:01:00Z',
		url: `${s.api}/repos/acme/app/subscription`,
		repository_url: `${s.api}/repos/acme/app`,
	});
	assert.equal((await s.get('/repos/acme/app/subscription', mike)).body, put.body, '~> GET answers the same');
	assert.is((await s.get('/repos/acme/app')).body.subscribers_count, 2, '~> two watchers');

	s.clock.advance(60_000);
	const ignore = await s.request('PUT', '/repos/acme/app/subscription', { token: mike, body: { subscribed: true, ignored: true } });
	assert.is(ignore.status, 200);
	assert.is(ignore.body.subscribed, false, '~> an ignored repository is not watched');
	assert.is(ignore.body.ignored, true);
	assert.is(ignore.body.created_at, '2026-11-22T12:01:00Z', '~> the same subscription, changed');
	assert.is((await s.get('/repos/acme/app')).body.subscribers_count, 1, '~> ignoring is not watching');

	const neither = await s.request('PUT', '/repos/acme/app/subscription', { token: mike, body: {} });
	assert.equal([neither.body.subscribed, neither.body.ignored], [false, false], '~> an empty body: neither');
	assert.is((await s.get('/repos/acme/app/subscription', mike)).status, 200, '~> the subscription still exists');

	await s.request('PUT', '/repos/acme/app/subscription', { token: mike, body: { subscribed: true, ignored: false } });
	assert.is((await s.get('/repos/acme/app')).body.subscribers_count, 2, '~> watching again');
	const del = await s.request('DELETE', '/repos/acme/app/subscription', { token: mike });
	assert.is(del.status, 204, '~> deleted');
	assert.is(del.text, '');
	assert.is((await s.get('/repos/acme/app/subscription', mike)).status, 404, '~> no subscription: 404');
	assert.is((await s.get('/repos/acme/app')).body.subscribers_count, 1);
	assert.is((await s.request('DELETE', '/repos/acme/app/subscription', { token: mike })).status, 204, '~> deleting again: 204');
});

test('PUT validation: 422 names the field; nothing is written', async () => {
	const bad = await s.request('PUT', '/repos/acme/app/subscription', { token: mike, body: { subscribed: 'yes' } });
	assert.is(bad.status, 422, '~> subscribed must be a boolean');
	assert.is(bad.body.errors[0].field, 'subscribed');
	assert.is(bad.body.errors[0].resource, 'Subscription');
	assert.is(
		(await s.request('PUT', '/repos/acme/app/subscription', { token: mike, body: { ignored: 1 } })).status,
		422,
		'~> ignored must be a boolean',
	);
	assert.is(
		(
			await s.request('PUT', '/repos/acme/app/subscription', {
				token: mike,
				raw: '[true]',
				headers: { 'Content-Type': 'application/json' },
			})
		).status,
		400,
		'~> a body that is not an object',
	);
	assert.is((await s.get('/repos/acme/app/subscription', mike)).status, 404, '~> no subscription was made');
});

test("subscriptions make no events: GitHub's watch webhook is about stars", async () => {
	const before = s.app.db.prepare('SELECT count(*) FROM events').pluck().get() as number;
	await s.request('PUT', '/repos/acme/app/subscription', { token: nora, body: { subscribed: true } });
	await s.request('DELETE', '/repos/acme/app/subscription', { token: nora });
	assert.is(s.app.db.prepare('SELECT count(*) FROM events').pluck().get(), before, '~> nothing recorded');
});

test('lists: watchers of a repository, the repositories a user watches', async () => {
	s.clock.advance(60_000);
	await s.request('PUT', '/repos/acme/app/subscription', { token: nora, body: { subscribed: true } });
	s.clock.advance(60_000);
	await s.request('PUT', '/repos/acme/vault/subscription', { token: mike, body: { subscribed: true } });
	await s.request('PUT', '/repos/nora/notes/subscription', { token: mike, body: { subscribed: true } });

	const watchers = await s.get('/repos/acme/app/subscribers');
	assert.is(watchers.status, 200, "~> anonymous reads a public repository's watchers");
	assert.equal(
		watchers.body.map((u: any) => u.login),
		['olivia', 'nora'],
		'~> oldest subscription first',
	);
	assert.is(watchers.body[0].subscriptions_url, `${s.api}/users/olivia/subscriptions`, '~> simple users');
	const page = await s.get('/repos/acme/app/subscribers?per_page=1&page=2');
	assert.equal(
		page.body.map((u: any) => u.login),
		['nora'],
	);
	assert.match(page.headers.get('link')!, /rel="prev"/);

	const mine = await s.get('/user/subscriptions', mike);
	assert.is(mine.status, 200);
	assert.equal(
		mine.body.map((r: any) => r.full_name),
		['acme/vault', 'nora/notes'],
		'~> mike watches vault and notes',
	);
	assert.is(mine.body[0].subscribers_count, 2, '~> with the counts (olivia created vault)');
	assert.equal(mine.body[0].permissions.pull, true);
	assert.equal(
		(await s.get('/users/mike/subscriptions')).body.map((r: any) => r.full_name),
		['nora/notes'],
		'~> anonymous: public repositories only',
	);
	assert.equal(
		(await s.get('/users/mike/subscriptions', nora)).body.map((r: any) => r.full_name),
		['nora/notes'],
		'~> an outsider: the same',
	);
	assert.equal(
		(await s.get('/users/mike/subscriptions', olivia)).body.map((r: any) => r.full_name),
		['acme/vault', 'nora/notes'],
		'~> a reader of vault sees it',
	);
	assert.equal(
		(await s.get('/users/olivia/subscriptions', mike)).body.map((r: any) => r.full_name),
		['acme/app', 'acme/vault'],
		'~> what olivia created',
	);
	assert.is((await s.get('/users/ghost/subscriptions')).status, 404, '~> an unknown user: 404');
	const ignored = await s.request('PUT', '/repos/acme/app/subscription', { token: mike, body: { ignored: true } });
	assert.is(ignored.status, 200);
	assert.equal((await s.get('/user/subscriptions', mike)).body.length, 2, '~> an ignored repository is not listed');
	assert.equal(
		(await s.get('/repos/acme/app/subscribers')).body.map((u: any) => u.login),
		['olivia', 'nora'],
		'~> nor is its ignorer a watcher',
	);
});

test('a private repository: hidden to outsiders; a watcher who loses access keeps the subscription, hidden from the lists', async () => {
	assert.is((await s.get('/repos/acme/vault/subscription', nora)).status, 404, '~> an outsider: 404');
	assert.is(
		(await s.request('PUT', '/repos/acme/vault/subscription', { token: nora, body: { subscribed: true } })).status,
		404,
		'~> cannot watch it',
	);
	assert.is(
		(await s.request('PUT', '/repos/acme/vault/subscription', { token: nora, body: { subscribed: 'x' } })).status,
		404,
		'~> 404 before 422',
	);
	assert.is((await s.get('/repos/acme/vault/subscribers')).status, 404, '~> anonymous: its watchers are hidden');
	assert.equal(
		(await s.get('/repos/acme/vault/subscribers', olivia)).body.map((u: any) => u.login),
		['olivia', 'mike'],
	);

	const vault = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'vault')!;
	s.app.stores.repos.removeCollaborations(s.app.stores.accounts.user('mike')!.id, vault.owner_id);
	assert.equal(
		(await s.get('/repos/acme/vault/subscribers', olivia)).body.map((u: any) => u.login),
		['olivia'],
		'~> mike is hidden',
	);
	assert.equal(
		(await s.get('/users/mike/subscriptions', olivia)).body.map((r: any) => r.full_name),
		['nora/notes'],
		'~> from his list too',
	);
	assert.equal(
		(await s.get('/user/subscriptions', mike)).body.map((r: any) => r.full_name),
		['nora/notes'],
		'~> mike no longer sees it',
	);
	assert.is((await s.get('/repos/acme/vault', olivia)).body.subscribers_count, 2, '~> the subscription is kept');
	s.app.stores.repos.setCollaborator(vault.id, s.app.stores.accounts.user('mike')!.id, 'pull', '2026-11-22T12:00:00Z');
	assert.is((await s.get('/repos/acme/vault/subscription', mike)).body.subscribed, true, '~> access back: still watching');
});

test('denial: anonymous, token kinds, scopes', async () => {
	assert.is((await s.get('/repos/acme/app/subscription')).status, 401, '~> anonymous');
	assert.is((await s.request('PUT', '/repos/acme/app/subscription', { body: { subscribed: true } })).status, 401);
	assert.is((await s.get('/user/subscriptions')).status, 401);

	const fine = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { watching: 'write' } });
	const refused = await s.get('/repos/acme/app/subscription', fine);
	assert.is(refused.status, 403, '~> GitHub serves subscriptions to classic and OAuth tokens only');
	assert.is(refused.body.message, 'Resource not accessible by personal access token');
	const installation = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { metadata: 'read' } });
	assert.is(
		(await s.request('PUT', '/repos/acme/app/subscription', { token: installation, body: {} })).status,
		403,
		'~> nor installations',
	);

	const noScope = s.token('nora', { scopes: [] });
	const denied = await s.request('PUT', '/repos/acme/app/subscription', { token: noScope, body: { subscribed: true } });
	assert.is(denied.status, 403, '~> watching needs notifications or repo');
	assert.is(denied.headers.get('x-accepted-oauth-scopes'), 'notifications, repo');
	const notifications = s.token('mike', { scopes: ['notifications'] });
	assert.is((await s.get('/repos/nora/notes/subscription', notifications)).status, 200, '~> notifications reaches a public repository');
	assert.is((await s.get('/repos/acme/vault/subscription', notifications)).status, 404, '~> not a private one');
	assert.equal(
		(await s.get('/user/subscriptions', noScope)).body.map((r: any) => r.full_name),
		['nora/notes', 'acme/app'],
		'~> listing needs no scope (oldest subscription first)',
	);
	const oauth = s.token('mike', { kind: 'oauth', scopes: ['notifications'] });
	assert.is((await s.request('DELETE', '/repos/nora/notes/subscription', { token: oauth })).status, 204, '~> OAuth tokens too');

	const bare = s.token('mike', { kind: 'fine-grained', permissions: {} });
	assert.is((await s.get('/user/subscriptions', bare)).status, 403, '~> fine-grained without Watching');
	const watching = s.token('mike', { kind: 'fine-grained', permissions: { watching: 'read' } });
	assert.is((await s.get('/user/subscriptions', watching)).status, 200, '~> with Watching read');
});

test.run();
