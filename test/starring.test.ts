/**
 * Starring (GitHub's activity/starring): star, unstar and check for the authenticated user, the
 * starred lists (sort, direction, the star+json media type), stargazers, the counts on repository
 * records, the star and watch webhooks with the WatchEvent feed row, visibility of private
 * repositories (also after a stargazer loses access), and denial by token, scope and permission.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventRow } from '../src/events/store';
import { startServer, type TestServer } from './helpers/server';
import { acmeAndNotes } from './helpers/setup';

const test = suite('starring');
let s: TestServer;
let olivia: string; // owner of acme (acme's base permission: none)
let mike: string; // member of acme; reads acme/vault through the team crew
let nora: string; // nobody to acme; owns nora/notes
let hookId: number;
const STAR = 'application/vnd.github.star+json';

test.before(async () => {
	s = await startServer();
	({ olivia, mike, nora } = await acmeAndNotes(s));
	await s.request('POST', '/orgs/acme/teams', { token: olivia, body: { name: 'Crew', privacy: 'closed' } });
	await s.request('PUT', '/orgs/acme/teams/crew/repos/acme/vault', { token: olivia, body: { permission: 'pull' } });
	await s.request('PUT', '/orgs/acme/teams/crew/memberships/mike', { token: olivia });
	// An organization hook listening to star and watch (its ping is left out below).
	const hook = await s.request('POST', '/orgs/acme/hooks', {
		token: olivia,
		body: { name: 'web', events: ['star', 'watch'], config: { url: 'https://hooks.example.com/in', content_type: 'json' } },
	});
	assert.is(hook.status, 201, '~> organization hook created');
	hookId = hook.body.id;
});
test.after(() => s.close());

const repoId = (name: string) =>
	s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin(name.split('/')[0])!.id, name.split('/')[1])!.id;
/** The event-log rows of a repository (feed entries and webhook-only events), oldest first. */
const events = (repo: string) => s.app.db.prepare('SELECT * FROM events WHERE repo_id = ? ORDER BY id').all(repoId(repo)) as EventRow[];
/** The hook's deliveries, oldest first, with their payloads parsed. */
const deliveries = () =>
	s.app.stores.webhooks
		.deliveries({ hookId, status: null, limit: 100, offset: 0 })
		.rows.reverse()
		.filter((row) => row.event !== 'ping')
		.map((row) => ({ event: row.event, action: row.action, payload: JSON.parse(row.payload) }));

test('star: PUT without a body answers 204; the check answers 204, 404 before; starring again changes nothing', async () => {
	assert.is((await s.get('/user/starred/acme/app', mike)).status, 404, '~> not starred yet: 404');
	const put = await s.request('PUT', '/user/starred/acme/app', { token: mike, headers: { 'Content-Length': '0' } });
	assert.is(put.status, 204, '~> starred');
	assert.is(put.text, '', '~> no body');
	const check = await s.get('/user/starred/acme/app', mike);
	assert.is(check.status, 204, '~> the check finds the star');
	assert.is(check.headers.get('x-accepted-github-permissions'), 'starring=read,metadata=read', '~> the check names its permissions');
	const repo = await s.get('/repos/acme/app', mike);
	assert.is(repo.body.stargazers_count, 1, '~> stargazers_count counts the star');
	assert.is(repo.body.watchers_count, 1, '~> watchers_count is the stargazer count, as on GitHub');
	assert.is(repo.body.watchers, 1, '~> so is watchers');
	const before = events('acme/app').length;
	s.clock.advance(60_000);
	assert.is((await s.request('PUT', '/user/starred/acme/app', { token: mike })).status, 204, '~> starring again: 204');
	assert.is((await s.get('/repos/acme/app', mike)).body.stargazers_count, 1, '~> still one star');
	assert.is(events('acme/app').length, before, '~> and no new event');
	assert.is(
		(await s.request('PUT', '/user/starred/acme/app', { token: olivia, body: { ignored: 'anything' } })).status,
		204,
		'~> a body is ignored',
	);
	assert.is((await s.get('/repos/acme/app')).body.stargazers_count, 2, '~> two stars');
});

test('events: a star records the star webhook (created, starred_at) and watch started with its WatchEvent row; unstarring records star deleted', async () => {
	const rows = events('acme/app').filter((row) => row.event === 'star' || row.event === 'watch');
	assert.equal(
		rows.map((row) => [row.event, row.action, row.feed_type]),
		[
			['star', 'created', null],
			['watch', 'started', 'WatchEvent'],
			['star', 'created', null],
			['watch', 'started', 'WatchEvent'],
		],
		'~> each star: one star event and one watch event, only the latter in the feeds',
	);
	assert.equal(JSON.parse(rows[1].payload!), { action: 'started' }, '~> WatchEvent payload {"action":"started"}');
	assert.is(rows[1].public, 1, '~> a public repository: a public feed entry');
	assert.is(rows[1].actor_id, s.app.stores.accounts.byLogin('mike')!.id, '~> mike acted');
	assert.is(rows[1].repo_name, 'acme/app');

	const sent = deliveries();
	assert.equal(
		sent.map((d) => `${d.event}.${d.action}`),
		['star.created', 'watch.started', 'star.created', 'watch.started'],
		'~> the hook got both webhooks per star',
	);
	const star = sent[0].payload;
	assert.equal(Object.keys(star), ['action', 'starred_at', 'repository', 'organization', 'sender'], '~> GitHub star payload keys');
	assert.is(star.action, 'created');
	assert.is(star.starred_at, '2026-11-22T12:00:00Z', '~> when it was starred');
	assert.is(star.repository.full_name, 'acme/app');
	assert.is(star.repository.stargazers_count, 1, '~> the repository as it is after the star');
	assert.is(star.organization.login, 'acme');
	assert.is(star.sender.login, 'mike');
	assert.equal(Object.keys(sent[1].payload), ['action', 'repository', 'organization', 'sender'], '~> GitHub watch payload keys');

	assert.is((await s.request('DELETE', '/user/starred/acme/app', { token: olivia })).status, 204, '~> unstarred');
	const last = deliveries().at(-1)!;
	assert.is(`${last.event}.${last.action}`, 'star.deleted', '~> star deleted, no watch event');
	assert.is(last.payload.starred_at, null, '~> starred_at null for a removed star');
	assert.is(last.payload.repository.stargazers_count, 1);
	assert.is(events('acme/app').at(-1)!.feed_type, null, '~> unstarring is not in the feeds');
	const count = deliveries().length;
	assert.is((await s.request('DELETE', '/user/starred/acme/app', { token: olivia })).status, 204, '~> unstarring again: 204');
	assert.is(deliveries().length, count, '~> and nothing recorded');
	assert.is((await s.get('/user/starred/acme/app', olivia)).status, 404, '~> no longer starred');
});

test('GET /user/starred: repository records, sort and direction, the star+json media type', async () => {
	s.clock.advance(60_000);
	await s.request('PUT', '/user/starred/nora/notes', { token: mike });
	s.clock.advance(60_000);
	await s.request('PUT', '/user/starred/acme/vault', { token: mike });
	const list = await s.get('/user/starred', mike);
	assert.is(list.status, 200);
	assert.equal(
		list.body.map((r: any) => r.full_name),
		['acme/vault', 'nora/notes', 'acme/app'],
		'~> newest star first',
	);
	assert.equal(
		list.body[0].permissions,
		{ admin: false, maintain: false, push: false, triage: false, pull: true },
		"~> the caller's permissions",
	);
	assert.is(list.body[0].stargazers_count, 1);
	const asc = await s.get('/user/starred?direction=asc', mike);
	assert.equal(
		asc.body.map((r: any) => r.full_name),
		['acme/app', 'nora/notes', 'acme/vault'],
		'~> oldest first',
	);
	await s.request('PATCH', '/repos/nora/notes', { token: nora, body: { description: 'touched' } });
	const updated = await s.get('/user/starred?sort=updated&direction=asc', mike);
	assert.is(updated.status, 200, '~> sort=updated');
	assert.is(updated.body.length, 3);
	const bad = await s.get('/user/starred?sort=stars', mike);
	assert.is(bad.status, 422, '~> an unknown sort is refused');
	assert.is(bad.body.errors[0].field, 'sort');

	const star = await s.get('/user/starred', mike, { Accept: STAR });
	assert.is(star.headers.get('x-github-media-type'), 'github.v3; param=star; format=json', '~> the star media type is served');
	assert.equal(Object.keys(star.body[0]), ['starred_at', 'repo'], '~> {starred_at, repo}');
	assert.is(star.body[0].starred_at, '2026-11-22T12:03:00Z');
	assert.is(star.body[0].repo.full_name, 'acme/vault');
	assert.is.not(star.headers.get('etag'), list.headers.get('etag'), '~> the ETag varies with the media type');

	const page = await s.get('/user/starred?per_page=1&page=2', mike);
	assert.equal(
		page.body.map((r: any) => r.full_name),
		['nora/notes'],
		'~> pages',
	);
	assert.match(page.headers.get('link')!, /rel="next"/, '~> with a Link header');
});

test('GET /repos/{owner}/{repo}/stargazers: simple users oldest first; {starred_at, user} with star+json', async () => {
	await s.request('PUT', '/user/starred/acme/app', { token: nora });
	const list = await s.get('/repos/acme/app/stargazers');
	assert.is(list.status, 200, "~> anonymous reads a public repository's stargazers");
	assert.equal(
		list.body.map((u: any) => u.login),
		['mike', 'nora'],
		'~> oldest star first',
	);
	assert.is(list.body[0].starred_url, `${s.api}/users/mike/starred{/owner}{/repo}`, '~> simple users');
	const star = await s.get('/repos/acme/app/stargazers', undefined, { Accept: STAR });
	assert.equal(Object.keys(star.body[0]), ['starred_at', 'user'], '~> {starred_at, user}');
	assert.is(star.body[0].starred_at, '2026-11-22T12:00:00Z');
	assert.is(star.body[0].user.login, 'mike');
	const paged = await s.get('/repos/acme/app/stargazers?per_page=1');
	assert.is(paged.body.length, 1);
	assert.match(paged.headers.get('link')!, /page=2>; rel="last"/, '~> Link to the last page');
	assert.is((await s.get('/repos/acme/vault/stargazers', nora)).status, 404, '~> a hidden private repository: 404');
	assert.is((await s.get('/repos/acme/vault/stargazers')).status, 404, '~> anonymous: 404');
	assert.equal(
		(await s.get('/repos/acme/vault/stargazers', olivia)).body.map((u: any) => u.login),
		['mike'],
		'~> readers see them',
	);
});

test('GET /users/{username}/starred: public repositories, and private ones the caller can read', async () => {
	const anonymous = await s.get('/users/mike/starred');
	assert.is(anonymous.status, 200);
	assert.equal(
		anonymous.body.map((r: any) => r.full_name),
		['nora/notes', 'acme/app'],
		'~> anonymous: public repositories only',
	);
	assert.not.ok('permissions' in anonymous.body[0], '~> a public view has no permissions');
	assert.equal(
		(await s.get('/users/mike/starred', nora)).body.map((r: any) => r.full_name),
		['nora/notes', 'acme/app'],
		'~> an outsider: the same',
	);
	assert.equal(
		(await s.get('/users/mike/starred', olivia)).body.map((r: any) => r.full_name),
		['acme/vault', 'nora/notes', 'acme/app'],
		"~> acme's owner reads vault",
	);
	const publicRepo = s.token('olivia', { scopes: ['public_repo'] });
	assert.equal((await s.get('/users/mike/starred', publicRepo)).body.length, 2, '~> public_repo does not reach private repositories');
	const fineNoPermission = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: {} });
	assert.equal((await s.get('/users/mike/starred', fineNoPermission)).body.length, 2, '~> without Starring: the public view');
	const fine = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { starring: 'read' } });
	assert.equal((await s.get('/users/mike/starred', fine)).body.length, 3, '~> with Starring read, bound to acme: vault too');
	assert.equal(
		(await s.get('/users/nora/starred')).body.map((r: any) => r.full_name),
		['acme/app'],
		"~> another user's stars",
	);
	assert.equal((await s.get('/users/acme/starred')).body, [], '~> an organization stars nothing');
	assert.is((await s.get('/users/ghost/starred')).status, 404, '~> an unknown user: 404');
	assert.equal(
		(await s.get('/users/mike/starred', undefined, { Accept: STAR })).body[0].repo.full_name,
		'nora/notes',
		'~> star+json here too',
	);
});

test('a private repository: hidden to outsiders; a stargazer who loses access keeps the star, hidden from every list', async () => {
	assert.is((await s.request('PUT', '/user/starred/acme/vault', { token: nora })).status, 404, '~> an outsider cannot star it');
	assert.is((await s.get('/user/starred/acme/vault', nora)).status, 404, '~> nor check it');
	assert.is((await s.request('DELETE', '/user/starred/acme/vault', { token: nora })).status, 404, '~> nor unstar it');
	assert.is((await s.get('/user/starred/acme/no-such-repo', nora)).status, 404, '~> exactly like a repository that does not exist');

	assert.is((await s.request('DELETE', '/orgs/acme/teams/crew/memberships/mike', { token: olivia })).status, 204, '~> mike leaves crew');
	assert.equal(
		(await s.get('/user/starred', mike)).body.map((r: any) => r.full_name),
		['nora/notes', 'acme/app'],
		'~> mike no longer sees vault',
	);
	assert.is((await s.get('/user/starred/acme/vault', mike)).status, 404);
	assert.equal(
		(await s.get('/users/mike/starred', olivia)).body.map((r: any) => r.full_name),
		['nora/notes', 'acme/app'],
		"~> nor does acme's owner in mike's list",
	);
	const stargazers = await s.get('/repos/acme/vault/stargazers', olivia);
	assert.equal(stargazers.body, [], "~> vault's stargazers hide mike");
	assert.is(stargazers.headers.get('link'), null);
	assert.is((await s.get('/repos/acme/vault', olivia)).body.stargazers_count, 1, '~> the star is kept (and counted)');

	await s.request('PUT', '/orgs/acme/teams/crew/memberships/mike', { token: olivia });
	assert.equal(
		(await s.get('/repos/acme/vault/stargazers', olivia)).body.map((u: any) => u.login),
		['mike'],
		'~> access back: the star shows again',
	);
	assert.is((await s.get('/user/starred', mike)).body.length, 3);
});

test('denial: anonymous, scopes, fine-grained permissions, installation tokens; lists carry stargazers_count', async () => {
	assert.is((await s.request('PUT', '/user/starred/acme/app')).status, 401, '~> anonymous cannot star');
	assert.is((await s.get('/user/starred')).status, 401, '~> nor list its own stars');
	assert.is((await s.get('/user/starred/acme/app')).status, 401);

	const noScope = s.token('nora', { scopes: [] });
	const denied = await s.request('PUT', '/user/starred/acme/app', { token: noScope });
	assert.is(denied.status, 403, '~> starring needs public_repo');
	assert.match(denied.body.message, 'public_repo, repo');
	assert.is(denied.headers.get('x-accepted-oauth-scopes'), 'public_repo, repo');
	assert.is((await s.get('/user/starred', noScope)).status, 200, '~> reading stars needs no scope');
	const publicRepo = s.token('mike', { scopes: ['public_repo'] });
	assert.is(
		(await s.request('PUT', '/user/starred/nora/notes', { token: publicRepo })).status,
		204,
		'~> public_repo stars a public repository',
	);
	assert.is((await s.request('PUT', '/user/starred/acme/vault', { token: publicRepo })).status, 404, '~> not a private one');
	assert.equal(
		(await s.get('/user/starred', publicRepo)).body.map((r: any) => r.full_name),
		['nora/notes', 'acme/app'],
		'~> and does not list it',
	);

	const bare = s.token('nora', { kind: 'fine-grained', permissions: {} });
	assert.is((await s.request('PUT', '/user/starred/acme/app', { token: bare })).status, 403, '~> fine-grained without Starring');
	assert.is((await s.get('/user/starred', bare)).status, 403);
	const starring = s.token('nora', { kind: 'fine-grained', permissions: { starring: 'write' } });
	assert.is(
		(await s.request('DELETE', '/user/starred/acme/app', { token: starring })).status,
		204,
		'~> Starring write unstars a public repository of another account',
	);
	assert.is((await s.get('/user/starred/acme/app', starring)).status, 404, '~> write implies read');
	const installation = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { starring: 'write' } });
	assert.is(
		(await s.request('PUT', '/user/starred/acme/app', { token: installation })).status,
		404,
		'~> an installation acts for no user',
	);

	const orgRepos = await s.get('/orgs/acme/repos', olivia);
	const app = orgRepos.body.find((r: any) => r.name === 'app');
	assert.is(app.stargazers_count, 1, '~> organization lists carry the count (mike)');
	assert.is(app.watchers_count, 1);
});

test.run();
