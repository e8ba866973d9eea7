/**
 * A stock GitHub client (@octokit/rest, baseUrl pointed at Gitstead) drives every activity route
 * Octokit names — the event feeds, starring, watching, notifications — and the repository and organization
 * webhook methods (repos.*Webhook*, orgs.*Webhook*), with real deliveries to a receiver on loopback.
 * What is checked is what a client relies on: the method resolves (or throws with GitHub's status),
 * the fields it reads are there, pagination through Link headers, conditional requests.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Config } from '../src/config';
import { Receiver, signature } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('octokit-activity');
const receiver = new Receiver();
let s: TestServer;
/** olivia owns acme; mike is a member; nora is outside it. */
let olivia: Octokit;
let mike: Octokit;
let nora: Octokit;
let anonymous: Octokit;

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const configure = (c: Config) => {
	c.webhooks.timeout_seconds = 2;
	c.webhooks.allowed_hosts = ['127.0.0.1'];
};

test.before(async () => {
	await receiver.start();
	s = await startServer({ configure });
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	const { Octokit } = await import('@octokit/rest');
	const client = (auth?: string) => new Octokit({ auth, baseUrl: s.api, log: quiet });
	olivia = client(s.fullToken('olivia'));
	mike = client(s.fullToken('mike'));
	nora = client(s.fullToken('nora'));
	anonymous = client();
	await olivia.rest.repos.createInOrg({ org: 'acme', name: 'app' });
	await olivia.rest.repos.createInOrg({ org: 'acme', name: 'vault', private: true });
	await nora.rest.repos.createForAuthenticatedUser({ name: 'notes' });
});
test.after(async () => {
	await s.close();
	await receiver.stop();
});

/** Octokit's thrown error for a failed call (or fails the test when it resolves). */
async function failure(call: Promise<unknown>): Promise<{ status: number; response: { data: { message: string } } }> {
	try {
		await call;
	} catch (error) {
		return error as never;
	}
	throw new assert.Assertion({
		message: 'the call resolved',
		generated: false,
		operator: 'throws',
		expects: 'an error',
		actual: 'a result',
	});
}

test('starring: star, check, list (with the star+json media type), stargazers, unstar', async () => {
	s.clock.advance(1000);
	assert.is((await mike.rest.activity.starRepoForAuthenticatedUser({ owner: 'acme', repo: 'app' })).status, 204, '~> starred');
	assert.is((await nora.rest.activity.starRepoForAuthenticatedUser({ owner: 'acme', repo: 'app' })).status, 204);
	assert.is(
		(await mike.rest.activity.checkRepoIsStarredByAuthenticatedUser({ owner: 'acme', repo: 'app' })).status,
		204,
		'~> the check: 204',
	);
	const notStarred = await failure(nora.rest.activity.checkRepoIsStarredByAuthenticatedUser({ owner: 'nora', repo: 'notes' }));
	assert.is(notStarred.status, 404, '~> not starred: Octokit throws 404');

	const mine = await mike.rest.activity.listReposStarredByAuthenticatedUser();
	assert.equal(
		mine.data.map((r) => (r as { full_name: string }).full_name),
		['acme/app'],
	);
	assert.is((mine.data[0] as { stargazers_count: number }).stargazers_count, 2, '~> the count on the repository');
	const timed = await mike.rest.activity.listReposStarredByAuthenticatedUser({ headers: { accept: 'application/vnd.github.star+json' } });
	const entry = timed.data[0] as unknown as { starred_at: string; repo: { full_name: string } };
	assert.is(entry.repo.full_name, 'acme/app', '~> star+json wraps the repository');
	assert.match(entry.starred_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
	const ofUser = await anonymous.rest.activity.listReposStarredByUser({ username: 'mike' });
	assert.equal(
		ofUser.data.map((r) => (r as { full_name: string }).full_name),
		['acme/app'],
		'~> public list of another user',
	);

	const stargazers = await anonymous.rest.activity.listStargazersForRepo({ owner: 'acme', repo: 'app' });
	assert.equal(
		stargazers.data.map((u) => (u as { login: string }).login),
		['mike', 'nora'],
		'~> oldest star first',
	);
	const paged = await olivia.paginate(olivia.rest.activity.listStargazersForRepo, { owner: 'acme', repo: 'app', per_page: 1 });
	assert.equal(
		paged.map((u) => (u as { login: string }).login),
		['mike', 'nora'],
		'~> Octokit follows the Link header',
	);

	assert.is((await nora.rest.activity.unstarRepoForAuthenticatedUser({ owner: 'acme', repo: 'app' })).status, 204, '~> unstarred');
	assert.is((await olivia.rest.repos.get({ owner: 'acme', repo: 'app' })).data.stargazers_count, 1);
	const hidden = await failure(nora.rest.activity.starRepoForAuthenticatedUser({ owner: 'acme', repo: 'vault' }));
	assert.is(hidden.status, 404, '~> a private repository one cannot read: 404');
});

test('watching: subscription get/set/delete, watchers, watched repositories', async () => {
	const none = await failure(mike.rest.activity.getRepoSubscription({ owner: 'acme', repo: 'app' }));
	assert.is(none.status, 404, '~> not watching: 404');
	const set = await mike.rest.activity.setRepoSubscription({ owner: 'acme', repo: 'app', subscribed: true });
	assert.equal([set.data.subscribed, set.data.ignored, set.data.reason], [true, false, null]);
	assert.is(set.data.repository_url, `${s.api}/repos/acme/app`);
	const got = await mike.rest.activity.getRepoSubscription({ owner: 'acme', repo: 'app' });
	assert.is(got.data.subscribed, true);

	const watchers = await anonymous.rest.activity.listWatchersForRepo({ owner: 'acme', repo: 'app' });
	assert.ok(
		watchers.data.some((u) => u.login === 'mike'),
		'~> mike watches acme/app',
	);
	const watched = await mike.rest.activity.listWatchedReposForAuthenticatedUser();
	assert.ok(watched.data.some((r) => r.full_name === 'acme/app'));
	const ofNora = await anonymous.rest.activity.listReposWatchedByUser({ username: 'nora' });
	assert.equal(
		ofNora.data.map((r) => r.full_name),
		['nora/notes'],
		'~> the creator watches what they create',
	);

	const ignoring = await mike.rest.activity.setRepoSubscription({ owner: 'acme', repo: 'app', ignored: true });
	assert.equal([ignoring.data.subscribed, ignoring.data.ignored], [false, true], '~> ignoring');
	assert.is((await mike.rest.activity.deleteRepoSubscription({ owner: 'acme', repo: 'app' })).status, 204);
	assert.is((await failure(mike.rest.activity.getRepoSubscription({ owner: 'acme', repo: 'app' }))).status, 404, '~> gone');
	assert.is((await olivia.rest.repos.get({ owner: 'acme', repo: 'app' })).data.subscribers_count, 1, '~> olivia, the creator');
});

test('event feeds: every list method, with GitHub fields, and a conditional request answered 304', async () => {
	await olivia.rest.issues.create({ owner: 'acme', repo: 'app', title: 'Public trouble' });
	await olivia.rest.issues.create({ owner: 'acme', repo: 'vault', title: 'Private trouble' });

	const publicEvents = await anonymous.rest.activity.listPublicEvents();
	const opened = publicEvents.data.find((e) => e.type === 'IssuesEvent')!;
	assert.ok(opened, '~> the public issue is in /events');
	assert.equal(Object.keys(opened).sort(), ['actor', 'created_at', 'id', 'org', 'payload', 'public', 'repo', 'type']);
	assert.is(opened.repo.name, 'acme/app');
	assert.is(opened.org?.login, 'acme');
	assert.is((opened.payload as { action: string }).action, 'opened');
	assert.ok(!publicEvents.data.some((e) => e.repo.name === 'acme/vault'), '~> never a private repository in /events');
	assert.match(String(publicEvents.headers['x-poll-interval']), /^\d+$/, '~> X-Poll-Interval');

	const repoEvents = await anonymous.rest.activity.listRepoEvents({ owner: 'acme', repo: 'app' });
	assert.ok(
		repoEvents.data.some((e) => e.type === 'WatchEvent'),
		'~> the star of the first test (WatchEvent)',
	);
	assert.ok(repoEvents.data.some((e) => e.type === 'CreateEvent'));
	const network = await anonymous.rest.activity.listPublicEventsForRepoNetwork({ owner: 'acme', repo: 'app' });
	assert.equal(
		network.data.map((e) => e.id),
		repoEvents.data.map((e) => e.id),
		'~> the network of an unforked repository is the repository',
	);
	const org = await anonymous.rest.activity.listPublicOrgEvents({ org: 'acme' });
	assert.ok(
		org.data.every((e) => e.public),
		'~> the organization feed is public events only',
	);

	const privateRepo = await olivia.rest.activity.listRepoEvents({ owner: 'acme', repo: 'vault' });
	assert.is(privateRepo.data[0].public, false, '~> a member reads a private repository feed; public false');
	const denied = await failure(nora.rest.activity.listRepoEvents({ owner: 'acme', repo: 'vault' }));
	assert.is(denied.status, 404, '~> an outsider does not see it exists');

	const own = await olivia.rest.activity.listEventsForAuthenticatedUser({ username: 'olivia' });
	assert.ok(
		own.data.some((e) => e.repo.name === 'acme/vault'),
		'~> the user sees their own private events',
	);
	const seenByOthers = await nora.rest.activity.listEventsForAuthenticatedUser({ username: 'olivia' });
	assert.ok(!seenByOthers.data.some((e) => e.repo.name === 'acme/vault'), '~> others see only public ones');
	const publicOfUser = await olivia.rest.activity.listPublicEventsForUser({ username: 'olivia' });
	assert.ok(publicOfUser.data.every((e) => e.public));
	const dashboard = await olivia.rest.activity.listOrgEventsForAuthenticatedUser({ username: 'olivia', org: 'acme' });
	assert.ok(
		dashboard.data.some((e) => e.repo.name === 'acme/vault'),
		'~> the organization dashboard includes private repositories the user reads',
	);
	const notYours = await failure(mike.rest.activity.listOrgEventsForAuthenticatedUser({ username: 'olivia', org: 'acme' }));
	assert.ok([403, 404].includes(notYours.status), '~> another user’s dashboard is refused');

	await mike.rest.activity.setRepoSubscription({ owner: 'acme', repo: 'app', subscribed: true });
	const received = await mike.rest.activity.listReceivedEventsForUser({ username: 'mike' });
	assert.ok(
		received.data.some((e) => e.repo.name === 'acme/app' && e.type === 'IssuesEvent'),
		'~> events of watched repositories',
	);
	const receivedPublic = await anonymous.rest.activity.listReceivedPublicEventsForUser({ username: 'mike' });
	assert.ok(receivedPublic.data.every((e) => e.public));

	// Conditional polling: Octokit passes the ETag back; a 304 is thrown as a RequestError.
	const etag = String(repoEvents.headers.etag);
	const notModified = await failure(
		anonymous.rest.activity.listRepoEvents({ owner: 'acme', repo: 'app', headers: { 'if-none-match': etag } }),
	);
	assert.is(notModified.status, 304, '~> unchanged feed: 304');
});

test('repository webhooks: create (ping delivered, signed), list, get, update, config, test push, deliveries, redeliver, delete', async () => {
	const url = receiver.url('/repo');
	const created = await olivia.rest.repos.createWebhook({
		owner: 'acme',
		repo: 'app',
		events: ['issues', 'push'],
		config: { url, content_type: 'json', secret: 's3cret' },
	});
	assert.is(created.status, 201);
	assert.is(created.data.config.secret, '********', '~> the secret masked');
	assert.is(created.data.type, 'Repository');
	assert.equal(created.data.last_response, { code: null, status: 'unused', message: null });
	const hook_id = created.data.id;

	await s.app.webhooks.deliverDue();
	const [ping] = receiver.take();
	assert.is(ping.headers['x-github-event'], 'ping', '~> a ping on creation');
	assert.is(ping.headers['x-hub-signature-256'], signature('sha256', 's3cret', ping.body), '~> signed over the exact body');
	assert.is(ping.headers['x-github-hook-installation-target-type'], 'repository');

	const list = await olivia.rest.repos.listWebhooks({ owner: 'acme', repo: 'app' });
	assert.equal(
		list.data.map((h) => h.id),
		[hook_id],
	);
	const got = await olivia.rest.repos.getWebhook({ owner: 'acme', repo: 'app', hook_id });
	assert.is(got.data.last_response.code, 200, '~> the ping’s answer recorded');
	const updated = await olivia.rest.repos.updateWebhook({ owner: 'acme', repo: 'app', hook_id, add_events: ['issue_comment'] });
	assert.equal(updated.data.events.sort(), ['issue_comment', 'issues', 'push']);
	const config = await olivia.rest.repos.getWebhookConfigForRepo({ owner: 'acme', repo: 'app', hook_id });
	assert.equal([config.data.url, config.data.content_type, config.data.secret], [url, 'json', '********']);
	const reconfigured = await olivia.rest.repos.updateWebhookConfigForRepo({ owner: 'acme', repo: 'app', hook_id, insecure_ssl: '1' });
	assert.is(reconfigured.data.insecure_ssl, '1');
	assert.is(reconfigured.data.secret, '********', '~> the secret kept');

	await olivia.rest.issues.create({ owner: 'acme', repo: 'app', title: 'Hooked' });
	await s.app.webhooks.deliverDue();
	const [issues] = receiver.take();
	assert.is(issues.headers['x-github-event'], 'issues');
	assert.is(JSON.parse(issues.body).action, 'opened');

	assert.is((await olivia.rest.repos.testPushWebhook({ owner: 'acme', repo: 'app', hook_id })).status, 204, '~> test push: 204');
	assert.is((await olivia.rest.repos.pingWebhook({ owner: 'acme', repo: 'app', hook_id })).status, 204);
	await s.app.webhooks.deliverDue();
	assert.equal(
		receiver.take().map((r) => r.headers['x-github-event']),
		['ping'],
		'~> the repository has no commit: the test push sends nothing',
	);

	const deliveries = await olivia.paginate(olivia.rest.repos.listWebhookDeliveries, { owner: 'acme', repo: 'app', hook_id, per_page: 1 });
	assert.equal(
		deliveries.map((d) => d.event),
		['ping', 'issues', 'ping'],
		'~> newest first, through the cursor Link',
	);
	const delivery = await olivia.rest.repos.getWebhookDelivery({ owner: 'acme', repo: 'app', hook_id, delivery_id: deliveries[1].id });
	assert.is(delivery.data.action, 'opened');
	assert.is(delivery.data.response.headers !== undefined, true);
	const redelivered = await olivia.rest.repos.redeliverWebhookDelivery({
		owner: 'acme',
		repo: 'app',
		hook_id,
		delivery_id: deliveries[1].id,
	});
	assert.is(redelivered.status, 202);
	await s.app.webhooks.deliverDue();
	const [again] = receiver.take();
	assert.is(again.headers['x-github-delivery'], delivery.data.guid, '~> a redelivery keeps the GUID');

	const refused = await failure(mike.rest.repos.listWebhooks({ owner: 'acme', repo: 'app' }));
	assert.is(refused.status, 404, '~> a member without admin: 404, as GitHub answers');
	assert.is((await olivia.rest.repos.deleteWebhook({ owner: 'acme', repo: 'app', hook_id })).status, 204);
	assert.is((await failure(olivia.rest.repos.getWebhook({ owner: 'acme', repo: 'app', hook_id }))).status, 404);
});

test('organization webhooks: create, list, get, update, config, ping, deliveries, redeliver, delete', async () => {
	const url = receiver.url('/org');
	const created = await olivia.rest.orgs.createWebhook({
		org: 'acme',
		name: 'web',
		events: ['repository', 'star'],
		config: { url, content_type: 'json' },
	});
	assert.is(created.status, 201);
	assert.is(created.data.type, 'Organization');
	const hook_id = created.data.id;
	await s.app.webhooks.deliverDue();
	assert.equal(
		receiver.take().map((r) => r.headers['x-github-hook-installation-target-type']),
		['organization'],
		'~> the ping',
	);

	assert.equal(
		(await olivia.rest.orgs.listWebhooks({ org: 'acme' })).data.map((h) => h.id),
		[hook_id],
	);
	assert.is((await olivia.rest.orgs.getWebhook({ org: 'acme', hook_id })).data.config.url, url);
	const updated = await olivia.rest.orgs.updateWebhook({ org: 'acme', hook_id, events: ['repository', 'star', 'watch'] });
	assert.equal(updated.data.events.sort(), ['repository', 'star', 'watch']);
	assert.is((await olivia.rest.orgs.getWebhookConfigForOrg({ org: 'acme', hook_id })).data.content_type, 'json');
	assert.is((await olivia.rest.orgs.updateWebhookConfigForOrg({ org: 'acme', hook_id, content_type: 'form' })).data.content_type, 'form');

	await nora.rest.activity.starRepoForAuthenticatedUser({ owner: 'acme', repo: 'app' });
	assert.is((await olivia.rest.orgs.pingWebhook({ org: 'acme', hook_id })).status, 204);
	await s.app.webhooks.deliverDue();
	const arrived = receiver.take();
	assert.equal(
		arrived.map((r) => r.headers['x-github-event']),
		['star', 'watch', 'ping'],
		'~> a repository’s star reaches its organization’s hook',
	);
	assert.match(arrived[0].headers['content-type'] ?? '', /application\/x-www-form-urlencoded/, '~> form content type');

	const deliveries = await olivia.rest.orgs.listWebhookDeliveries({ org: 'acme', hook_id });
	const star = deliveries.data.find((d) => d.event === 'star')!;
	assert.is(
		(await olivia.rest.orgs.getWebhookDelivery({ org: 'acme', hook_id, delivery_id: star.id })).data.request.payload?.action,
		'created',
	);
	assert.is((await olivia.rest.orgs.redeliverWebhookDelivery({ org: 'acme', hook_id, delivery_id: star.id })).status, 202);
	const denied = await failure(mike.rest.orgs.listWebhooks({ org: 'acme' }));
	assert.is(denied.status, 404, '~> members do not see the organization’s hooks');
	assert.is((await olivia.rest.orgs.deleteWebhook({ org: 'acme', hook_id })).status, 204);
});

test('notifications: list, repository list, thread, mark read (205), mark done, thread subscription set/get/delete, mark all read', async () => {
	await olivia.rest.issues.create({ owner: 'acme', repo: 'app', title: 'Ping @mike', body: 'Could you look, @mike?' });
	const list = await mike.rest.activity.listNotificationsForAuthenticatedUser();
	const thread = list.data.find((t) => t.subject.title === 'Ping @mike')!;
	assert.ok(thread, '~> mike is notified');
	assert.is(thread.reason, 'mention');
	assert.is(thread.unread, true);
	assert.is(thread.subject.type, 'Issue');
	assert.is(thread.repository.full_name, 'acme/app');
	assert.ok(list.headers['last-modified'], '~> Last-Modified for polling');
	const thread_id = Number(thread.id);

	const repoList = await mike.rest.activity.listRepoNotificationsForAuthenticatedUser({ owner: 'acme', repo: 'app' });
	assert.ok(
		repoList.data.some((t) => t.id === thread.id),
		'~> in the repository list too',
	);
	const participating = await mike.rest.activity.listNotificationsForAuthenticatedUser({ participating: true });
	assert.ok(
		participating.data.some((t) => t.id === thread.id),
		'~> a mention is participating',
	);
	const notModified = await failure(
		mike.rest.activity.listNotificationsForAuthenticatedUser({
			headers: { 'if-modified-since': String(list.headers['last-modified']) },
		}),
	);
	assert.is(notModified.status, 304, '~> If-Modified-Since: 304');

	const got = await mike.rest.activity.getThread({ thread_id });
	assert.is(got.data.id, thread.id);
	const subscription = await mike.rest.activity.getThreadSubscriptionForAuthenticatedUser({ thread_id });
	assert.equal([subscription.data.subscribed, subscription.data.ignored], [true, false], '~> mentioned: subscribed');
	const ignored = await mike.rest.activity.setThreadSubscription({ thread_id, ignored: true });
	assert.is(ignored.data.ignored, true);
	assert.is((await mike.rest.activity.deleteThreadSubscription({ thread_id })).status, 204);

	assert.is((await mike.rest.activity.markThreadAsRead({ thread_id })).status, 205, '~> marked read: 205');
	assert.is((await mike.rest.activity.getThread({ thread_id })).data.unread, false);
	assert.is((await mike.rest.activity.markThreadAsDone({ thread_id })).status, 204, '~> marked done: 204');
	const after = await mike.rest.activity.listNotificationsForAuthenticatedUser({ all: true });
	assert.ok(!after.data.some((t) => t.id === thread.id), '~> done: out of the lists');

	await olivia.rest.issues.create({ owner: 'acme', repo: 'app', title: 'Another @mike', body: '@mike again' });
	assert.is((await mike.rest.activity.markRepoNotificationsAsRead({ owner: 'acme', repo: 'app' })).status, 205);
	await olivia.rest.issues.create({ owner: 'acme', repo: 'app', title: 'Third @mike', body: '@mike once more' });
	assert.is((await mike.rest.activity.markNotificationsAsRead()).status, 205);
	assert.equal((await mike.rest.activity.listNotificationsForAuthenticatedUser()).data, [], '~> nothing unread');

	const fineGrained = new (await import('@octokit/rest')).Octokit({
		auth: s.token('mike', { kind: 'fine-grained', permissions: { metadata: 'read' } }),
		baseUrl: s.api,
		log: quiet,
	});
	assert.is((await failure(fineGrained.rest.activity.listNotificationsForAuthenticatedUser())).status, 403, '~> classic tokens only');
});

test.run();
