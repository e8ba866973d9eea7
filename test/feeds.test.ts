/**
 * Activity feeds (GitHub's "Activity → Events") from real activity
 * through the API: the public timeline, repository, network, organization and user feeds, event
 * shapes (IssuesEvent, IssueCommentEvent, CreateEvent, DeleteEvent, PushEvent with its commits,
 * ForkEvent, MemberEvent, PublicEvent), visibility of private repositories, polling (ETag from the
 * feed's version, 304 free even past the rate limit, X-Poll-Interval), the 300-event and 30-day
 * bounds.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { JOBS } from '../src/jobs';
import { startServer, TestClock, type TestServer } from './helpers/server';

const test = suite('feeds');
const clock = new TestClock();
let s: TestServer;
let owner: string;
let outsider: string;
let reader: string;

type Event = {
	id: string;
	type: string;
	actor: { login: string; display_login: string };
	repo: { id: number; name: string; url: string };
	payload: any;
	public: boolean;
	created_at: string;
	org?: { login: string };
};
const types = (events: Event[]) => events.map((e) => e.type);

/** A commit on a new tree with one file, through the git database API. @returns its sha */
async function commit(repo: string, token: string, content: string, parents: string[]): Promise<string> {
	const tree = await s.request('POST', `/repos/${repo}/git/trees`, {
		token,
		body: { tree: [{ path: 'README', mode: '100644', type: 'blob', content }] },
	});
	const made = await s.request('POST', `/repos/${repo}/git/commits`, {
		token,
		body: { message: `Commit ${content}`, tree: tree.body.sha, parents },
	});
	assert.is(made.status, 201);
	return made.body.sha;
}

test.before(async () => {
	s = await startServer({ clock, configure: (c) => void (c.rate_limit.limits.core = 40) });
	for (const login of ['olivia', 'rita', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'rita');
	owner = s.fullToken('olivia');
	reader = s.fullToken('rita');
	outsider = s.fullToken('nora');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'read' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'vault', private: true } });
	const issue = await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title: 'Public bug', body: 'It breaks' } });
	await s.request('POST', `/repos/acme/app/issues/${issue.body.number}/comments`, { token: owner, body: { body: 'Looking' } });
	await s.request('POST', '/repos/acme/vault/issues', { token: owner, body: { title: 'Secret bug' } });
	// Branches and a push, through the git database.
	const first = await commit('acme/app', owner, 'one', []);
	assert.is(
		(await s.request('POST', '/repos/acme/app/git/refs', { token: owner, body: { ref: 'refs/heads/main', sha: first } })).status,
		201,
	);
	const second = await commit('acme/app', owner, 'two', [first]);
	const third = await commit('acme/app', owner, 'three', [second]);
	assert.is((await s.request('PATCH', '/repos/acme/app/git/refs/heads/main', { token: owner, body: { sha: third } })).status, 200);
	assert.is(
		(await s.request('POST', '/repos/acme/app/git/refs', { token: owner, body: { ref: 'refs/heads/topic', sha: first } })).status,
		201,
	);
	assert.is((await s.request('DELETE', '/repos/acme/app/git/refs/heads/topic', { token: owner })).status, 204);
	assert.is((await s.request('POST', '/repos/acme/app/forks', { token: s.fullToken('nora'), body: {} })).status, 202);
});
test.after(() => s.close());

test('GET /repos/{owner}/{repo}/events – the repository activity, newest first, with GitHub’s event shapes', async () => {
	const res = await s.get('/repos/acme/app/events?per_page=100', owner);
	assert.is(res.status, 200);
	assert.equal(types(res.body), [
		'ForkEvent',
		'DeleteEvent',
		'CreateEvent',
		'PushEvent',
		'CreateEvent',
		'IssueCommentEvent',
		'IssuesEvent',
		'CreateEvent',
	]);
	const [fork, deleted, created, push, branch, comment, issue, repository] = res.body as Event[];
	assert.type(issue.id, 'string', '~> ids are strings');
	assert.equal(issue.actor.login, 'olivia');
	assert.is(issue.actor.display_login, 'olivia');
	assert.equal(issue.repo, { id: issue.repo.id, name: 'acme/app', url: `${s.api}/repos/acme/app` });
	assert.is(issue.public, true);
	assert.is(issue.org?.login, 'acme', '~> org on organization repositories');
	assert.is(issue.payload.action, 'opened');
	assert.is(issue.payload.issue.title, 'Public bug');
	// Stored with the origin written once; the feed gives the payload back whole.
	const stored = s.app.db.prepare('SELECT payload FROM events WHERE id = ?').pluck().get(Number(issue.id)) as string;
	assert.ok(stored.startsWith(`\u0001${s.origin}\u0001`) && stored.split(s.origin).length === 2, '~> the origin stored once');
	assert.is(issue.payload.issue.url, `${s.api}/repos/acme/app/issues/${issue.payload.issue.number}`);
	assert.is(issue.payload.issue.user.html_url, `${s.origin}/olivia`);
	assert.is(comment.payload.comment.body, 'Looking');
	assert.equal(repository.payload.ref_type, 'repository');
	assert.equal([branch.payload.ref, branch.payload.ref_type], ['main', 'branch']);
	assert.equal([created.payload.ref, deleted.payload.ref, deleted.payload.ref_type], ['topic', 'topic', 'branch']);
	assert.is(fork.payload.forkee.full_name, 'nora/app');
	// PushEvent: the spec's payload, commits from the stored commit graph.
	assert.is(push.payload.ref, 'refs/heads/main');
	assert.is(push.payload.size, 2);
	assert.is(push.payload.distinct_size, 2);
	assert.is(push.payload.repository_id, push.repo.id);
	assert.type(push.payload.push_id, 'number');
	assert.equal(
		push.payload.commits.map((c: any) => c.message),
		['Commit two', 'Commit three'],
		'~> oldest first',
	);
	assert.is(push.payload.head, push.payload.commits[1].sha);
	assert.equal(Object.keys(push.payload.commits[0]).sort(), ['author', 'distinct', 'message', 'sha', 'url']);
});

test('visibility – a private repository’s events reach its readers only, never the public feeds', async () => {
	assert.is((await s.get('/repos/acme/vault/events', outsider)).status, 404, '~> an outsider cannot see the repository');
	const vault = await s.get('/repos/acme/vault/events', reader);
	assert.is(vault.status, 200);
	assert.ok(vault.body.length >= 2 && vault.body.every((e: Event) => e.public === false), '~> public false');
	for (const path of ['/events?per_page=100', '/orgs/acme/events?per_page=100', '/users/olivia/events/public?per_page=100']) {
		const res = await s.get(path, owner);
		assert.is(res.status, 200, `~> ${path}`);
		assert.ok(res.body.length > 0);
		assert.ok(
			res.body.every((e: Event) => e.public && e.repo.name !== 'acme/vault'),
			`~> ${path} is public only`,
		);
	}
	const own = await s.get('/users/olivia/events?per_page=100', owner);
	assert.ok(
		own.body.some((e: Event) => e.repo.name === 'acme/vault'),
		'~> the user sees their own private events',
	);
	const others = await s.get('/users/olivia/events?per_page=100', outsider);
	assert.not.ok(
		others.body.some((e: Event) => e.repo.name === 'acme/vault'),
		'~> others do not',
	);
	const dashboard = await s.get('/users/olivia/events/orgs/acme?per_page=100', owner);
	assert.is(dashboard.status, 200);
	assert.ok(
		dashboard.body.some((e: Event) => e.repo.name === 'acme/vault'),
		'~> the organization dashboard of its member',
	);
	assert.is((await s.get('/users/olivia/events/orgs/acme', reader)).status, 404, '~> someone else’s dashboard');
	assert.is((await s.get('/users/nobody/events')).status, 404);
});

test('GET /networks/{owner}/{repo}/events – the public events of the fork network', async () => {
	await s.request('POST', '/repos/nora/app/issues', { token: outsider, body: { title: 'In the fork' } });
	for (const repo of ['acme/app', 'nora/app']) {
		const res = await s.get(`/networks/${repo}/events?per_page=100`);
		assert.is(res.status, 200);
		const repos = new Set(res.body.map((e: Event) => e.repo.name));
		assert.ok(repos.has('acme/app') && repos.has('nora/app'), `~> ${repo}: the source and its fork`);
	}
	assert.is((await s.get('/networks/acme/vault/events', outsider)).status, 404);
});

test('collaborators and visibility changes: MemberEvent, PublicEvent; a repository made private leaves the public feeds', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'later', private: true } });
	await s.request('PATCH', '/repos/acme/later', { token: owner, body: { private: false } });
	const pub = await s.get('/repos/acme/later/events', owner);
	assert.is(pub.body[0].type, 'PublicEvent');
	assert.equal(pub.body[0].payload, {});
	assert.ok((await s.get('/events?per_page=100')).body.some((e: Event) => e.repo.name === 'acme/later'));
	await s.request('PATCH', '/repos/acme/later', { token: owner, body: { private: true } });
	assert.not.ok(
		(await s.get('/events?per_page=100')).body.some((e: Event) => e.repo.name === 'acme/later'),
		'~> gone from the public timeline',
	);
	assert.ok((await s.get('/repos/acme/later/events', owner)).body.length > 0, '~> still there for readers');
});

test('received events – the events of the repositories the user watches; private ones only to the user', async () => {
	assert.is((await s.request('PUT', '/repos/acme/app/subscription', { token: reader, body: { subscribed: true } })).status, 200);
	assert.is((await s.request('PUT', '/repos/acme/vault/subscription', { token: reader, body: { subscribed: true } })).status, 200);
	const own = await s.get('/users/rita/received_events?per_page=100', reader);
	assert.is(own.status, 200);
	const repos = new Set(own.body.map((e: Event) => e.repo.name));
	assert.ok(repos.has('acme/app') && repos.has('acme/vault'), '~> watched repositories, private ones to the user');
	assert.not.ok(repos.has('nora/app'), '~> not the repositories the user does not watch');
	const seen = await s.get('/users/rita/received_events?per_page=100', outsider);
	assert.ok(seen.body.length > 0 && seen.body.every((e: Event) => e.public), '~> others see the public ones');
	const pub = await s.get('/users/rita/received_events/public?per_page=100', reader);
	assert.ok(
		pub.body.every((e: Event) => e.public),
		'~> the public variant is public even to the user',
	);
	// Creating a repository watches it: its creator receives its events.
	assert.ok((await s.get('/users/olivia/received_events?per_page=100', owner)).body.some((e: Event) => e.repo.name === 'acme/vault'));
	assert.is((await s.get('/users/nobody/received_events')).status, 404);
});

test('polling – ETag from the feed’s version; a matching If-None-Match is 304 and free, even past the rate limit; X-Poll-Interval', async () => {
	const first = await s.get('/repos/acme/app/events', reader);
	const etag = first.headers.get('etag')!;
	assert.ok(etag.startsWith('W/"'));
	assert.is(first.headers.get('x-poll-interval'), '60');
	const used = Number(first.headers.get('x-ratelimit-used'));
	const again = await s.get('/repos/acme/app/events', reader, { 'If-None-Match': etag });
	assert.is(again.status, 304);
	assert.is(again.headers.get('etag'), etag);
	assert.is(Number(again.headers.get('x-ratelimit-used')), used, '~> a 304 does not count');
	// Spend the budget, then poll: still 304.
	for (let i = 0; i < 40; i++) await s.get('/orgs/acme', reader);
	assert.is((await s.get('/orgs/acme', reader)).status, 403, '~> the budget is spent');
	assert.is(
		(await s.get('/repos/acme/app/events', reader, { 'If-None-Match': etag })).status,
		304,
		'~> nothing changed: 304 past the limit',
	);
	await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title: 'New activity' } });
	const changed = await s.get('/repos/acme/app/events', reader, { 'If-None-Match': etag });
	assert.is(changed.status, 403, '~> something changed: the rate-limit answer');
	clock.advance(3601 * 1000);
	const fresh = await s.get('/repos/acme/app/events', reader, { 'If-None-Match': etag });
	assert.is(fresh.status, 200, '~> a new window: the new events');
	assert.is.not(fresh.headers.get('etag'), etag, '~> a new event, a new ETag');
	assert.is(fresh.body[0].payload.issue.title, 'New activity', '~> visible at once');
});

test('versions – a feed’s ETag changes when an event leaves it without a newer one: deleted, hidden, or the caller’s access lost', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'short-lived' } });
	await s.request('POST', '/repos/acme/short-lived/issues', { token: owner, body: { title: 'Soon gone' } });
	await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title: 'Stays' } });
	const org = await s.get('/orgs/acme/events', owner);
	assert.ok(org.body.some((e: any) => e.repo.name === 'acme/short-lived'));
	assert.is((await s.get('/orgs/acme/events', owner, { 'If-None-Match': org.headers.get('etag')! })).status, 304, '~> unchanged: 304');
	// Deleting the repository deletes its events (not the newest one of the feed).
	s.app.transaction(() => s.app.db.prepare("DELETE FROM repositories WHERE name = 'short-lived'").run());
	const afterDelete = await s.get('/orgs/acme/events', owner, { 'If-None-Match': org.headers.get('etag')! });
	assert.is(afterDelete.status, 200, '~> a removal changes the version');
	assert.ok(!afterDelete.body.some((e: any) => e.repo.name === 'acme/short-lived'));

	// Hiding: a repository made private leaves the public feed.
	const publicFeed = await s.get('/events');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'soon-private' } });
	await s.request('POST', '/repos/acme/soon-private/issues', { token: owner, body: { title: 'Was public' } });
	await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title: 'Newest public' } });
	const withIt = await s.get('/events');
	assert.is.not(withIt.headers.get('etag'), publicFeed.headers.get('etag'));
	await s.request('PATCH', '/repos/acme/soon-private', { token: owner, body: { private: true } });
	const hidden = await s.get('/events', undefined, { 'If-None-Match': withIt.headers.get('etag')! });
	assert.is(hidden.status, 200, '~> hiding changes the version');
	assert.ok(!hidden.body.some((e: any) => e.repo.name === 'acme/soon-private'));

	// Access: nora watches the private repository; her received feed shows its events until she loses access.
	s.member('acme', 'nora');
	await s.request('PUT', '/repos/acme/soon-private/subscription', { token: s.fullToken('nora'), body: { subscribed: true } });
	const nora = s.fullToken('nora');
	const received = await s.get('/users/nora/received_events', nora);
	assert.ok(
		received.body.some((e: any) => e.repo.name === 'acme/soon-private'),
		'~> a member reads it',
	);
	await s.request('DELETE', '/orgs/acme/members/nora', { token: owner });
	const lost = await s.get('/users/nora/received_events', nora, { 'If-None-Match': received.headers.get('etag')! });
	assert.is(lost.status, 200, '~> lost access: a new version');
	assert.ok(!lost.body.some((e: any) => e.repo.name === 'acme/soon-private'));
});

test('bounds – at most 300 events per timeline, none older than 30 days (the prune job deletes them)', async () => {
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	const old = clock.now;
	s.app.transaction(() => {
		for (let i = 0; i < 320; i++) {
			s.app.stores.events.insert({
				event: 'watch',
				action: 'started',
				actor_id: null,
				repo_id: repo.id,
				repo_name: 'acme/app',
				org_id: repo.owner_id,
				public: 1,
				feed_type: 'WatchEvent',
				payload: '{"action":"started"}',
				created_at: new Date(old).toISOString().replace(/\.\d{3}Z$/, 'Z'),
			});
		}
	});
	const page = await s.get('/repos/acme/app/events?per_page=100&page=3', owner);
	assert.is(page.body.length, 100);
	const last = await s.get('/repos/acme/app/events?per_page=100&page=4', owner);
	assert.is(last.body.length, 0, '~> the timeline stops at 300');
	assert.match(
		(await s.get('/repos/acme/app/events?per_page=100', owner)).headers.get('link')!,
		'page=3>; rel="last"',
		'~> three pages of 100',
	);
	assert.is(page.body[0].actor.login, 'ghost', '~> events without an actor show GitHub’s ghost');
	const before = (await s.get('/repos/acme/app/events', owner)).headers.get('etag')!;
	clock.advance(31 * 86_400_000);
	const aged = await s.get('/repos/acme/app/events', owner, { 'If-None-Match': before });
	assert.is(aged.status, 200, '~> events aged out of the horizon: the version changed, no stale 304');
	assert.is(aged.body.length, 0, '~> nothing older than 30 days');
	await JOBS.find((job) => job.id === 'events-prune')!.run(s.app);
	assert.is(s.app.db.prepare('SELECT count(*) FROM events').pluck().get(), 0, '~> pruned');
});

test.run();
