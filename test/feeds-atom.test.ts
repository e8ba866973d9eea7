/**
 * GET /feeds (GitHub's "Get feeds") and the Atom documents its URLs point to, over real HTTP: the
 * keys anonymous and authenticated callers get, each document well-formed Atom with the entries of
 * the API feed it mirrors, private repositories' events only in private feeds, feed tokens (wrong,
 * foreign, revoked → 404), ETag / If-None-Match 304 from the feed's version, the advisory feed.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importAdvisories } from '../src/api/dependabot/advisories';
import { hashToken } from '../src/auth/tokens';
import { epochSeconds, isoSeconds } from '../src/time';
import { startServer, type Response, type TestServer } from './helpers/server';
import { child, children, parseXml, textOf, type XmlElement } from './helpers/xml';

const test = suite('feeds-atom');
let s: TestServer;
let owner: string;
let reader: string;
let outsider: string;

const ATOM_NS = 'http://www.w3.org/2005/Atom';

/** GET of a web path (outside /api/v3). */
const web = (path: string, headers: Record<string, string> = {}, method = 'GET') => s.request(method, `${s.origin}${path}`, { headers });

/** A 200 Atom answer parsed: the feed element and its entries. */
function atom(res: Response, what: string): { feed: XmlElement; entries: XmlElement[] } {
	assert.is(res.status, 200, `~> ${what}: 200`);
	assert.is(res.headers.get('content-type'), 'application/atom+xml; charset=utf-8', `~> ${what}: Atom`);
	assert.ok(res.headers.get('etag')?.startsWith('W/"'), `~> ${what}: a weak ETag`);
	const feed = parseXml(res.text);
	assert.is(feed.name, 'feed', `~> ${what}: a <feed>`);
	assert.is(feed.attrs.xmlns, ATOM_NS, `~> ${what}: in the Atom namespace`);
	for (const name of ['id', 'title', 'updated']) child(feed, name);
	return { feed, entries: children(feed, 'entry') };
}

/** The event ids of a feed's entries (tag:HOST,2008:Type/ID → ID). */
const entryIds = (entries: XmlElement[]) => entries.map((entry) => /\/(\d+)$/.exec(textOf(child(entry, 'id')))![1]);
const titles = (entries: XmlElement[]) => entries.map((entry) => textOf(child(entry, 'title')));
/** The API feed's event ids (first 30, like the Atom document). */
const apiIds = async (path: string, token?: string) => ((await s.get(path, token)).body as Array<{ id: string }>).map((event) => event.id);

/** The path and query of a URL GET /feeds gave. */
const local = (url: string) => url.slice(s.origin.length);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'rita', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'rita');
	owner = s.fullToken('olivia');
	reader = s.fullToken('rita');
	outsider = s.fullToken('nora');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'read' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'vault', private: true } });
	const issue = await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title: 'Crash on <input> & "quotes"' } });
	assert.is(issue.status, 201);
	await s.request('POST', `/repos/acme/app/issues/${issue.body.number}/comments`, { token: owner, body: { body: 'Looking at it' } });
	assert.is((await s.request('POST', '/repos/acme/vault/issues', { token: owner, body: { title: 'Secret bug' } })).status, 201);
	assert.is((await s.request('PUT', '/user/starred/acme/app', { token: reader })).status, 204);
	// rita receives the events of what she watches, the private repository's too (she reads it).
	for (const repo of ['app', 'vault']) {
		assert.is((await s.request('PUT', `/repos/acme/${repo}/subscription`, { token: reader, body: { subscribed: true } })).status, 200);
	}
	assert.is((await s.request('POST', '/repos/acme/app/forks', { token: outsider, body: {} })).status, 202);
});
test.after(() => s.close());

test('GET /feeds – anonymous: the public timeline, the user template and the advisories, at the web origin', async () => {
	const res = await s.get('/feeds');
	assert.is(res.status, 200);
	assert.equal(Object.keys(res.body), ['timeline_url', 'user_url', 'security_advisories_url', '_links'], '~> no current_user keys');
	assert.is(res.body.timeline_url, `${s.origin}/timeline`, '~> outside /api/v3');
	assert.is(res.body.user_url, `${s.origin}/{user}`, '~> a URI template');
	assert.is(res.body.security_advisories_url, `${s.origin}/security-advisories`);
	assert.equal(res.body._links, {
		timeline: { href: `${s.origin}/timeline`, type: 'application/atom+xml' },
		user: { href: `${s.origin}/{user}`, type: 'application/atom+xml' },
		security_advisories: { href: `${s.origin}/security-advisories`, type: 'application/atom+xml' },
	});
	// Octokit's activity.getFeeds is this route.
	assert.is((await s.get('/feeds', undefined, { Accept: 'application/vnd.github+json' })).status, 200);
});

test('GET /feeds – a classic token with repo: the private feeds with a feed token; other tokens the public ones', async () => {
	const res = await s.get('/feeds', owner);
	assert.is(res.status, 200);
	assert.equal(
		Object.keys(res.body),
		[
			'timeline_url',
			'user_url',
			'current_user_public_url',
			'current_user_url',
			'current_user_actor_url',
			'current_user_organization_urls',
			'security_advisories_url',
			'_links',
		],
		'~> GitHub’s keys, in its order',
	);
	assert.is(res.body.current_user_public_url, `${s.origin}/olivia`);
	const token = /\?token=([^&]+)$/.exec(res.body.current_user_url)?.[1];
	assert.ok(token, '~> the private feed carries a token');
	assert.is(res.body.current_user_url, `${s.origin}/olivia.private?token=${token}`);
	assert.is(res.body.current_user_actor_url, `${s.origin}/olivia.private.actor?token=${token}`);
	assert.equal(
		res.body.current_user_organization_urls,
		[`${s.origin}/organizations/acme/olivia.private.atom?token=${token}`],
		'~> one per organization',
	);
	assert.not.ok(
		decodeURIComponent(token!).includes(owner) || owner.includes(decodeURIComponent(token!)),
		'~> the feed token is not the API token',
	);
	assert.equal(Object.keys(res.body._links), [
		'timeline',
		'user',
		'current_user_public',
		'current_user',
		'current_user_actor',
		'current_user_organizations',
		'security_advisories',
	]);
	assert.equal(res.body._links.current_user, { href: res.body.current_user_url, type: 'application/atom+xml' });
	assert.equal(res.body._links.current_user_organizations, [
		{ href: res.body.current_user_organization_urls[0], type: 'application/atom+xml' },
	]);
	assert.is((await s.get('/feeds', owner)).body.current_user_url, res.body.current_user_url, '~> the same token every time');

	// Tokens that may not read the user's private repositories get no private feed.
	const publicOnly = ['timeline_url', 'user_url', 'current_user_public_url', 'security_advisories_url', '_links'];
	for (const [kind, other] of [
		['classic without repo', s.token('olivia', { scopes: ['public_repo', 'read:org'] })],
		['fine-grained', s.token('olivia', { kind: 'fine-grained', permissions: { metadata: 'read' } })],
	] as const) {
		const answer = await s.get('/feeds', other);
		assert.is(answer.status, 200, `~> ${kind}`);
		assert.equal(Object.keys(answer.body), publicOnly, `~> ${kind}: the public feeds only`);
	}
	const installation = await s.get('/feeds', s.token('olivia', { kind: 'installation', org: 'acme', permissions: { metadata: 'read' } }));
	assert.equal(
		Object.keys(installation.body),
		['timeline_url', 'user_url', 'security_advisories_url', '_links'],
		'~> an app acts for no user',
	);
	assert.is((await s.get('/feeds', 'ghp_notavalidtoken000000000000000000000000')).status, 401, '~> a bad token is 401');
});

test('Octokit – activity.getFeeds, then the feed reader’s part: each URL serves its Atom document', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: owner, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const { status, data } = await octokit.rest.activity.getFeeds();
	assert.is(status, 200);
	const urls = [
		data.timeline_url,
		data.user_url.replace('{user}', 'rita'),
		data.current_user_public_url!,
		data.current_user_url!,
		data.current_user_actor_url!,
		...data.current_user_organization_urls!,
		data.security_advisories_url!,
	];
	for (const url of urls) atom(await s.request('GET', url, { headers: { Accept: 'application/atom+xml' } }), url);
});

test('/timeline – the public timeline as Atom: GET /events’ entries, titled, linked, authored', async () => {
	const { feed, entries } = atom(await web('/timeline'), '/timeline');
	assert.is(textOf(child(feed, 'id')), 'tag:127.0.0.1,2008:/timeline');
	assert.is(child(feed, 'link').attrs.href, `${s.origin}/timeline.atom`, '~> rel self');
	assert.equal(entryIds(entries), await apiIds('/events'), '~> the same events as GET /events, newest first');
	const all = titles(entries);
	assert.ok(all.includes('olivia opened issue acme/app#1'), `~> an issue entry: ${all}`);
	assert.ok(all.includes('olivia commented on issue acme/app#1'));
	assert.ok(all.includes('olivia created a repository acme/app'));
	assert.ok(all.includes('rita starred acme/app'));
	assert.ok(all.includes('nora forked nora/app from acme/app'));
	const opened = entries[all.indexOf('olivia opened issue acme/app#1')];
	const issue = (await s.get('/repos/acme/app/issues/1')).body;
	assert.match(textOf(child(opened, 'id')), /^tag:127\.0\.0\.1,2008:IssuesEvent\/\d+$/, '~> a tag: URI');
	assert.is(child(opened, 'link').attrs.href, issue.html_url, '~> links to the issue’s html_url');
	assert.is(child(opened, 'link').attrs.rel, 'alternate');
	assert.is(textOf(child(child(opened, 'author'), 'name')), 'olivia');
	assert.is(textOf(child(child(opened, 'author'), 'uri')), `${s.origin}/olivia`);
	assert.match(textOf(child(opened, 'updated')), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
	assert.ok(
		textOf(child(opened, 'content')).includes('Crash on &lt;input&gt; &amp; &quot;quotes&quot;'),
		'~> the title, escaped as HTML inside the escaped content',
	);
	const comment = entries[all.indexOf('olivia commented on issue acme/app#1')];
	assert.match(child(comment, 'link').attrs.href, /#issuecomment-\d+$/, '~> a comment links to the comment');
	assert.is(textOf(child(feed, 'updated')), textOf(child(entries[0], 'updated')), '~> the feed is as new as its newest entry');
	// Also at /timeline.atom; never below /api/v3.
	assert.is((await web('/timeline.atom')).text, (await web('/timeline')).text);
	assert.is((await s.get('/timeline')).status, 404, '~> /api/v3/timeline is no feed');
});

test('private repository events never reach the public feeds', async () => {
	for (const path of ['/timeline', '/olivia', '/olivia.atom']) {
		const res = await web(path);
		const { entries } = atom(res, path);
		assert.ok(entries.length > 0, `~> ${path} has entries`);
		assert.not.ok(res.text.includes('acme/vault') || res.text.includes('Secret bug'), `~> ${path} shows nothing of acme/vault`);
	}
	const { feed, entries } = atom(await web('/olivia'), '/olivia');
	assert.is(textOf(child(feed, 'id')), 'tag:127.0.0.1,2008:/olivia');
	assert.equal(entryIds(entries), await apiIds('/users/olivia/events/public'), '~> GET /users/{username}/events/public');
	assert.is((await web('/nobody')).status, 404, '~> an unknown user');
	assert.is((await web('/acme')).status, 404, '~> an organization has no user feed');
	assert.is((await s.get('/meta')).status, 200, '~> API routes at / still win');
});

test('private feeds – with the feed token: what the user sees through the API, private repositories included', async () => {
	const mine = (await s.get('/feeds', reader)).body;
	const received = await web(local(mine.current_user_url));
	const { feed, entries } = atom(received, 'received');
	assert.is(received.headers.get('cache-control'), 'private, max-age=60');
	assert.equal(
		entryIds(entries),
		await apiIds('/users/rita/received_events', reader),
		'~> GET /users/{username}/received_events as the user',
	);
	assert.ok(titles(entries).includes('olivia opened issue acme/vault#1'), '~> the private repository’s events, to a reader');
	assert.is(child(feed, 'link').attrs.href, mine.current_user_url.replace('.private?', '.private.atom?'), '~> rel self keeps the token');

	const ownerFeeds = (await s.get('/feeds', owner)).body;
	const actor = atom(await web(local(ownerFeeds.current_user_actor_url)), 'actor');
	assert.equal(entryIds(actor.entries), await apiIds('/users/olivia/events', owner), '~> GET /users/{username}/events as the user');
	assert.ok(titles(actor.entries).includes('olivia opened issue acme/vault#1'));
	const dashboard = atom(await web(local(ownerFeeds.current_user_organization_urls[0])), 'dashboard');
	assert.equal(
		entryIds(dashboard.entries),
		await apiIds('/users/olivia/events/orgs/acme', owner),
		'~> GET /users/{username}/events/orgs/{org}',
	);
	assert.ok(titles(dashboard.entries).includes('olivia opened issue acme/vault#1'));
	// The .atom spellings.
	assert.is((await web(local(ownerFeeds.current_user_actor_url.replace('.actor?', '.actor.atom?')))).status, 200);
	assert.is((await web(local(ownerFeeds.current_user_organization_urls[0].replace('.atom?', '?')))).status, 200);
});

test('private feeds – a wrong, foreign, missing or revoked token is 404', async () => {
	const { current_user_url: url } = (await s.get('/feeds', owner)).body;
	const token = decodeURIComponent(/token=(.+)$/.exec(url)![1]);
	const [id, mac] = token.split('.');
	const wrongMac = `${id}.${mac.slice(0, -1)}${mac.endsWith('0') ? '1' : '0'}`;
	for (const [what, path] of [
		['no token', '/olivia.private'],
		['a wrong MAC', `/olivia.private?token=${wrongMac}`],
		['an API token', `/olivia.private?token=${owner}`],
		['garbage', '/olivia.private?token=%00%ff'],
		['someone else’s feed', `/rita.private?token=${encodeURIComponent(token)}`],
		['someone else’s actor feed', `/rita.private.actor?token=${encodeURIComponent(token)}`],
		['an organization the user is not in', `/organizations/acme/nora.private.atom?token=${encodeURIComponent(token)}`],
	]) {
		const res = await web(path);
		assert.is(res.status, 404, `~> ${what}: 404`);
		assert.not.ok(res.text.includes('acme/vault'), `~> ${what}: nothing shown`);
	}
	// nora's own token does not open her dashboard of an organization she is not a member of.
	const nora = (await s.get('/feeds', outsider)).body;
	assert.equal(nora.current_user_organization_urls, [], '~> no organization feeds for a non-member');
	const noraToken = /token=(.+)$/.exec(nora.current_user_url)![1];
	assert.is((await web(`/organizations/acme/nora.private.atom?token=${noraToken}`)).status, 404);

	// The feed token ends with the API token that asked for it.
	const short = s.token('olivia', { scopes: ['repo'] });
	const feeds = (await s.get('/feeds', short)).body;
	assert.is((await web(local(feeds.current_user_url))).status, 200, '~> works while the API token lives');
	const row = s.app.db.prepare('SELECT id FROM tokens WHERE token_hash = ?').get(hashToken(short)) as { id: number };
	s.app.tokens.revoke(row.id, epochSeconds(s.clock.now));
	assert.is((await web(local(feeds.current_user_url))).status, 404, '~> revoked API token: the private feed is gone');
	assert.is((await web(local(feeds.current_user_organization_urls[0]))).status, 404, '~> the organization feed too');
	assert.is((await web(local(url))).status, 200, '~> other tokens’ feeds go on');
});

test('polling – ETag from the feed’s version: If-None-Match → 304; a new event changes it; HEAD', async () => {
	const first = await web('/timeline');
	const etag = first.headers.get('etag')!;
	const again = await web('/timeline', { 'If-None-Match': etag });
	assert.is(again.status, 304, '~> unchanged: 304');
	assert.is(again.text, '', '~> no body');
	assert.is(again.headers.get('etag'), etag);
	assert.is((await web('/timeline', { 'If-None-Match': `"other", ${etag.slice(2)}` })).status, 304, '~> weak comparison, lists');
	assert.is((await web('/timeline')).headers.get('etag'), etag, '~> stable');

	const mine = (await s.get('/feeds', reader)).body;
	const privateFirst = await web(local(mine.current_user_url));
	const privateTag = privateFirst.headers.get('etag')!;
	assert.is((await web(local(mine.current_user_url), { 'If-None-Match': privateTag })).status, 304);

	await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title: 'Second' } });
	const changed = await web('/timeline', { 'If-None-Match': etag });
	assert.is(changed.status, 200, '~> a new event: 200');
	assert.is.not(changed.headers.get('etag'), etag);
	assert.is(titles(atom(changed, 'changed').entries)[0], 'olivia opened issue acme/app#2', '~> newest first');
	assert.is((await web(local(mine.current_user_url), { 'If-None-Match': privateTag })).status, 200, '~> the private feed too');

	const head = await web('/timeline', {}, 'HEAD');
	assert.is(head.status, 200);
	assert.is(head.text, '');
	assert.is(head.headers.get('etag'), changed.headers.get('etag'));
	assert.is(head.headers.get('content-type'), 'application/atom+xml; charset=utf-8');
});

test('private feeds follow access: a repository the user can no longer read leaves the feed and changes its ETag', async () => {
	const mine = (await s.get('/feeds', reader)).body;
	const before = await web(local(mine.current_user_url));
	assert.ok(before.text.includes('acme/vault'));
	assert.is((await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'none' } })).status, 200);
	const after = await web(local(mine.current_user_url), { 'If-None-Match': before.headers.get('etag')! });
	assert.is(after.status, 200, '~> a new version');
	assert.not.ok(after.text.includes('acme/vault'), '~> the private repository’s events are gone');
	assert.is((await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'read' } })).status, 200);
});

test('web paths – odd requests are 404 or served, never 5xx', async () => {
	const paths = [
		'/olivia.private?token=a&token=b',
		'/olivia.private?token[]=x',
		`/olivia.private?token=1.${'f'.repeat(64)}`,
		`/olivia.private?token=999999999999999.${'0'.repeat(64)}`,
		'/olivia.private.actor.atom.atom',
		'/organizations/acme/olivia.private',
		'/organizations/nope/olivia.private.atom?token=x',
		'/-bad-.atom',
		'/%ff',
		'/timeline/',
		'/OLIVIA.atom',
	];
	for (const path of paths) {
		const res = await web(path);
		assert.ok(res.status === 404 || res.status === 200, `~> ${path}: ${res.status}`);
	}
	assert.is((await web('/OLIVIA.atom')).status, 200, '~> logins are case-insensitive');
	assert.is((await s.request('POST', `${s.origin}/timeline`)).status, 404, '~> feeds are read with GET');
});

test('/security-advisories – the imported advisories as Atom; empty until some are imported; 304', async () => {
	const empty = atom(await web('/security-advisories'), 'advisories');
	assert.is(empty.entries.length, 0, '~> no advisory imported yet: an empty feed');
	child(empty.feed, 'author');
	const advisory = (ghsa: string, updated: string) => ({
		ghsa_id: ghsa,
		cve_id: null,
		summary: `Prototype pollution in ${ghsa} & co`,
		description: 'Details <here>',
		type: 'reviewed',
		severity: 'medium',
		identifiers: [{ type: 'GHSA', value: ghsa }],
		references: [],
		published_at: '2024-01-02T03:04:05Z',
		updated_at: updated,
		withdrawn_at: null,
		vulnerabilities: [
			{ package: { ecosystem: 'npm', name: 'lodash' }, vulnerable_version_range: '< 4.17.21', first_patched_version: '4.17.21' },
		],
		cvss: null,
		cwes: [],
	});
	importAdvisories(
		s.app,
		[advisory('GHSA-aaaa-bbbb-cccc', '2024-02-01T00:00:00Z'), advisory('GHSA-dddd-eeee-ffff', '2024-03-01T00:00:00Z')],
		isoSeconds(s.clock.now),
	);
	const res = await web('/security-advisories.atom');
	const { entries } = atom(res, 'advisories');
	assert.equal(
		entries.map((entry) => textOf(child(entry, 'id'))),
		['tag:127.0.0.1,2008:GHSA-dddd-eeee-ffff', 'tag:127.0.0.1,2008:GHSA-aaaa-bbbb-cccc'],
		'~> most recently updated first',
	);
	assert.is(textOf(child(entries[0], 'title')), '[GHSA-dddd-eeee-ffff] Medium severity vulnerability that affects lodash');
	assert.is(child(entries[0], 'link').attrs.href, `${s.origin}/advisories/GHSA-dddd-eeee-ffff`);
	assert.ok(textOf(child(entries[0], 'content')).includes('Prototype pollution in GHSA-dddd-eeee-ffff &amp; co'));
	assert.is((await web('/security-advisories', { 'If-None-Match': res.headers.get('etag')! })).status, 304);
});

test.run();
