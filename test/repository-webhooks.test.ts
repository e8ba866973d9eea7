/**
 * Repository webhooks (GitHub REST "Repository webhooks"): management with the secret masked,
 * add_events/remove_events, the config routes, pings and test pushes reaching a receiver on
 * loopback with GitHub's headers and a valid HMAC, events of the repository delivered to the hooks
 * subscribed to them (and only those), the delivery log with cursor pagination and redelivery,
 * access (repository administrators; scopes and fine-grained permissions), the target rule, and
 * hooks deleted with their repository.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Config } from '../src/config';
import { Receiver, signature } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';

const test = suite('repository-webhooks');
const receiver = new Receiver();
const SECRET = 'repo-hook-secret';
let s: TestServer;
let owner: string;
let appId: number;

const configure = (c: Config) => {
	c.webhooks.timeout_seconds = 2;
	// The receiver listens on loopback, which hooks may reach only when allowed.
	c.webhooks.allowed_hosts = ['127.0.0.1'];
};

test.before(async () => {
	await receiver.start();
	s = await startServer({ configure });
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	// Members push to every repository; only owners administer them.
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'write' } });
	appId = (await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } })).body.id;
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'other' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'vault', private: true } });
});
test.after(async () => {
	await s.close();
	await receiver.stop();
});

/** Creates a hook on acme/app (or `repo`) delivering to `path` on the receiver; returns its answer. */
async function createHook(path: string, extra: Record<string, unknown> = {}, repo = 'acme/app') {
	const { config, ...rest } = extra as { config?: Record<string, unknown> };
	return s.request('POST', `/repos/${repo}/hooks`, {
		token: owner,
		body: { name: 'web', config: { url: receiver.url(path), content_type: 'json', ...config }, ...rest },
	});
}

/** Runs the delivery engine until nothing is due and returns what arrived. */
async function deliver() {
	await s.app.webhooks.deliverDue();
	return receiver.take();
}

test('create – GitHub defaults and shape, the secret masked, Location; a signed ping is sent to the new hook', async () => {
	const res = await s.request('POST', '/repos/acme/app/hooks', {
		token: owner,
		body: { config: { url: receiver.url('/create'), secret: SECRET } },
	});
	assert.is(res.status, 201, '~> created');
	const id = res.body.id;
	const url = `${s.api}/repos/acme/app/hooks/${id}`;
	assert.is(res.headers.get('location'), url, '~> Location');
	assert.equal(
		res.body,
		{
			type: 'Repository',
			id,
			name: 'web',
			active: true,
			events: ['push'],
			config: { content_type: 'form', insecure_ssl: '0', secret: '********', url: receiver.url('/create') },
			updated_at: res.body.updated_at,
			created_at: res.body.created_at,
			url,
			test_url: `${url}/test`,
			ping_url: `${url}/pings`,
			deliveries_url: `${url}/deliveries`,
			last_response: { code: null, status: 'unused', message: null },
		},
		'~> the hook object',
	);
	assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

	const [ping, ...more] = await deliver();
	assert.equal(more, [], '~> one delivery: the ping');
	assert.is(ping.path, '/create');
	assert.is(ping.event, 'ping', '~> X-GitHub-Event');
	assert.is(ping.headers['x-github-hook-id'], String(id), '~> X-GitHub-Hook-ID');
	assert.is(ping.headers['x-github-hook-installation-target-type'], 'repository', '~> target type');
	assert.is(ping.headers['x-github-hook-installation-target-id'], String(appId), '~> target id: the repository');
	assert.match(String(ping.headers['x-github-delivery']), /^[0-9a-f-]{36}$/, '~> X-GitHub-Delivery');
	assert.match(String(ping.headers['user-agent']), /^GitHub-Hookshot\//, '~> User-Agent');
	assert.is(ping.headers['content-type'], 'application/x-www-form-urlencoded', '~> form by default');
	assert.is(
		ping.headers['x-hub-signature-256'],
		signature('sha256', SECRET, ping.body),
		'~> a valid SHA-256 signature over the exact body',
	);
	assert.is(ping.headers['x-hub-signature'], signature('sha1', SECRET, ping.body), '~> and SHA-1');
	assert.is(ping.payload.hook_id, id);
	assert.type(ping.payload.zen, 'string');
	assert.is(ping.payload.hook.type, 'Repository');
	assert.is(ping.payload.hook.config.secret, '********', '~> the payload masks the secret too');
	assert.is(ping.payload.repository.full_name, 'acme/app', '~> the repository');
	assert.is(ping.payload.organization.login, 'acme');
	assert.is(ping.payload.sender.login, 'olivia');
	assert.not.match(ping.body, SECRET, '~> the secret is never sent');

	const after = await s.get(`/repos/acme/app/hooks/${id}`, owner);
	assert.equal(after.body.last_response, { code: 200, status: 'active', message: 'OK' }, '~> last_response after the ping');
	const list = await s.get('/repos/acme/app/hooks', owner);
	assert.is(list.status, 200);
	assert.equal(
		list.body.map((h: any) => h.id),
		[id],
	);
	assert.not.match(list.text + after.text, SECRET, '~> the secret is in no answer');
	assert.is((await s.request('DELETE', `/repos/acme/app/hooks/${id}`, { token: owner })).status, 204);
});

test('create – validation: name, URL, content type, events, duplicates; nothing is created', async () => {
	const cases: Array<[Record<string, unknown>, string]> = [
		[{ name: 'email', config: { url: receiver.url('/v') } }, 'name'],
		[{ name: 'web' }, 'config.url'],
		[{ config: { url: 'not a url' } }, 'config.url'],
		[{ config: { url: 'ftp://example.test/hook' } }, 'config.url'],
		[{ config: { url: receiver.url('/v'), content_type: 'xml' } }, 'config.content_type'],
		[{ config: { url: receiver.url('/v'), insecure_ssl: '2' } }, 'config.insecure_ssl'],
		[{ config: { url: receiver.url('/v') }, events: ['push', 'no_such_event'] }, 'events.1'],
		[{ config: { url: receiver.url('/v') }, active: 'yes' }, 'active'],
	];
	for (const [body, field] of cases) {
		const res = await s.request('POST', '/repos/acme/app/hooks', { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}: 422`);
		assert.is(res.body.message, 'Validation Failed');
		assert.ok(
			res.body.errors.some((e: any) => e.field === field && e.resource === 'Hook'),
			`~> names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
	// Not on the allowed list: a loopback name, although its address is allowed.
	const named = await s.request('POST', '/repos/acme/app/hooks', { token: owner, body: { config: { url: 'http://localhost:9/hook' } } });
	assert.is(named.status, 422, '~> localhost is refused (webhooks.allowed_hosts lists 127.0.0.1 only)');
	assert.equal(named.body.errors[0].code, 'custom');
	assert.match(named.body.errors[0].message, /localhost is a loopback host name/);
	const first = await createHook('/dup', { events: ['*'] });
	assert.is(first.status, 201);
	const dup = await createHook('/dup');
	assert.is(dup.status, 422, '~> a second hook with the same URL');
	assert.is(dup.body.errors[0].message, 'Hook already exists on this repository');
	assert.is((await s.get('/repos/acme/app/hooks', owner)).body.length, 1, '~> only the first exists');
	await s.request('DELETE', `/repos/acme/app/hooks/${first.body.id}`, { token: owner });
	receiver.take();
	await deliver();
});

test('create – at most 20 hooks per event in a repository', async () => {
	const ids: number[] = [];
	for (let i = 0; i < 20; i++) ids.push((await createHook(`/many/${i}`, { events: ['issues'], active: false })).body.id);
	const over = await createHook('/many/20', { events: ['issues', 'push'], active: false });
	assert.is(over.status, 422);
	assert.is(over.body.errors[0].message, 'The "issues" event cannot have more than 20 hooks');
	assert.is((await createHook('/many/push', { events: ['push'], active: false })).status, 201, '~> another event is free');
	for (const id of ids) await s.request('DELETE', `/repos/acme/app/hooks/${id}`, { token: owner });
	for (const hook of (await s.get('/repos/acme/app/hooks', owner)).body)
		await s.request('DELETE', `/repos/acme/app/hooks/${hook.id}`, { token: owner });
	assert.equal(await deliver(), [], '~> inactive hooks get no ping');
});

test('update – events, add_events and remove_events, active; config replaced (secret removed unless sent) or kept when omitted', async () => {
	const hook = (await createHook('/upd', { config: { secret: SECRET }, events: ['push'] })).body;
	const path = `/repos/acme/app/hooks/${hook.id}`;
	const added = await s.request('PATCH', path, { token: owner, body: { add_events: ['issues', 'push', 'label'] } });
	assert.is(added.status, 200);
	assert.equal(added.body.events, ['push', 'issues', 'label'], '~> add_events appends, without repeats');
	assert.is(added.body.config.secret, '********', '~> config omitted: kept, with its secret');
	const removed = await s.request('PATCH', path, { token: owner, body: { remove_events: ['push', 'label'] } });
	assert.equal(removed.body.events, ['issues'], '~> remove_events');
	const replaced = await s.request('PATCH', path, {
		token: owner,
		body: { events: ['create', 'delete'], add_events: ['push'], remove_events: ['delete'] },
	});
	assert.equal(replaced.body.events, ['create', 'push'], '~> events replaces, then add and remove apply');
	const off = await s.request('PATCH', path, { token: owner, body: { active: false } });
	assert.is(off.body.active, false);
	assert.equal(off.body.events, ['create', 'push'], '~> omitted events are kept');
	const reconfigured = await s.request('PATCH', path, { token: owner, body: { active: true, config: { content_type: 'json' } } });
	assert.equal(
		reconfigured.body.config,
		{ content_type: 'json', insecure_ssl: '0', url: receiver.url('/upd') },
		'~> a config without the secret removes it; the URL stays',
	);
	assert.ok(reconfigured.body.updated_at >= hook.updated_at);
	const bad = await s.request('PATCH', path, { token: owner, body: { config: { url: 'http://[::1]/hook' } } });
	assert.is(bad.status, 422, '~> a loopback URL is refused on update too');
	assert.is(bad.body.errors[0].field, 'url');
	const badEvent = await s.request('PATCH', path, { token: owner, body: { add_events: ['pushed'] } });
	assert.is(badEvent.status, 422);
	assert.is(badEvent.body.errors[0].field, 'add_events.0');
	assert.equal((await s.get(path, owner)).body.config.url, receiver.url('/upd'), '~> unchanged by the refusals');
	assert.is((await s.request('PATCH', '/repos/acme/app/hooks/999999', { token: owner, body: { active: true } })).status, 404);
	await s.request('DELETE', path, { token: owner });
	receiver.take();
});

test('config – GET and PATCH …/config: only the fields given change; the secret stays masked', async () => {
	const hook = (await createHook('/config', { config: { secret: SECRET } })).body;
	const path = `/repos/acme/app/hooks/${hook.id}/config`;
	const got = await s.get(path, owner);
	assert.is(got.status, 200);
	assert.equal(got.body, { content_type: 'json', insecure_ssl: '0', secret: '********', url: receiver.url('/config') });
	const patched = await s.request('PATCH', path, { token: owner, body: { content_type: 'form', insecure_ssl: 1 } });
	assert.is(patched.status, 200);
	assert.equal(
		patched.body,
		{ content_type: 'form', insecure_ssl: '1', secret: '********', url: receiver.url('/config') },
		'~> the secret and URL stay',
	);
	const moved = await s.request('PATCH', path, { token: owner, body: { url: receiver.url('/config2'), secret: '' } });
	assert.equal(moved.body, { content_type: 'form', insecure_ssl: '1', url: receiver.url('/config2') }, '~> an empty secret removes it');
	const refused = await s.request('PATCH', path, { token: owner, body: { url: 'http://169.254.169.254/latest' } });
	assert.is(refused.status, 422, '~> the metadata address is refused');
	assert.equal((await s.get(`/repos/acme/app/hooks/${hook.id}`, owner)).body.config.url, receiver.url('/config2'));
	await s.request('PATCH', path, { token: owner, body: { secret: SECRET, insecure_ssl: '0' } });
	receiver.take();
	assert.is((await s.request('POST', `/repos/acme/app/hooks/${hook.id}/pings`, { token: owner })).status, 204);
	const [ping] = await deliver();
	assert.is(ping.path, '/config2', '~> deliveries follow the new URL');
	assert.is(ping.headers['x-hub-signature-256'], signature('sha256', SECRET, ping.body), '~> signed with the new secret');
	assert.is(ping.headers['content-type'], 'application/x-www-form-urlencoded');
	await s.request('DELETE', `/repos/acme/app/hooks/${hook.id}`, { token: owner });
});

test('events – an issue opened is delivered to the hooks subscribed to issues (or *) and active, in this repository only', async () => {
	const issues = (await createHook('/issues', { config: { secret: SECRET }, events: ['issues'] })).body;
	const push = (await createHook('/push', { events: ['push'] })).body;
	const all = (await createHook('/all', { events: ['*'] })).body;
	const inactive = (await createHook('/inactive', { events: ['issues'], active: false })).body;
	const elsewhere = (await createHook('/elsewhere', { events: ['issues'] }, 'acme/other')).body;
	receiver.take();
	await deliver(); // the pings
	const opened = await s.request('POST', '/repos/acme/app/issues', {
		token: s.fullToken('mike'),
		body: { title: 'Webhooks please', labels: ['bug'] },
	});
	assert.is(opened.status, 201);
	const got = await deliver();
	const at = (path: string) => got.filter((r) => r.path === path);
	const [delivered, ...others] = at('/issues');
	assert.ok(delivered, '~> the hook subscribed to issues got it');
	assert.equal(
		others.map((r) => r.event),
		[],
		'~> once',
	);
	assert.is(delivered.event, 'issues');
	assert.is(delivered.payload.action, 'opened');
	assert.is(delivered.payload.issue.title, 'Webhooks please');
	assert.is(delivered.payload.issue.number, opened.body.number);
	assert.is(delivered.payload.repository.full_name, 'acme/app');
	assert.is(delivered.payload.sender.login, 'mike');
	assert.is(delivered.headers['x-github-hook-id'], String(issues.id));
	assert.is(delivered.headers['x-github-hook-installation-target-type'], 'repository');
	assert.is(delivered.headers['x-github-hook-installation-target-id'], String(appId));
	assert.is(delivered.headers['content-type'], 'application/json');
	assert.is(delivered.headers['x-hub-signature-256'], signature('sha256', SECRET, delivered.body), '~> valid signature');
	assert.equal(at('/push'), [], '~> not to a hook subscribed to push only');
	assert.equal(at('/inactive'), [], '~> not to an inactive hook');
	assert.equal(at('/elsewhere'), [], "~> not to another repository's hook");
	assert.ok(
		at('/all').some((r) => r.event === 'issues' && r.payload.action === 'opened'),
		'~> the * hook got it',
	);
	assert.ok(
		at('/all').every((r) => r.headers['x-hub-signature'] === undefined),
		'~> unsigned without a secret',
	);
	const list = (await s.get(`/repos/acme/app/hooks/${issues.id}/deliveries`, owner)).body;
	assert.is(list[0].event, 'issues');
	assert.is(list[0].action, 'opened');
	assert.is(list[0].repository_id, appId, '~> the delivery names its repository');
	for (const hook of [issues, push, all, inactive]) await s.request('DELETE', `/repos/acme/app/hooks/${hook.id}`, { token: owner });
	await s.request('DELETE', `/repos/acme/other/hooks/${elsewhere.id}`, { token: owner });
});

test("tests – POST …/tests sends the repository's latest push to that hook only (204); without push, nothing", async () => {
	const tree = (
		await s.request('POST', '/repos/acme/app/git/trees', {
			token: owner,
			body: { tree: [{ path: 'a', mode: '100644', type: 'blob', content: 'a' }] },
		})
	).body.sha;
	const commit = (await s.request('POST', '/repos/acme/app/git/commits', { token: owner, body: { message: 'First', tree, parents: [] } }))
		.body.sha;
	const second = (
		await s.request('POST', '/repos/acme/app/git/commits', { token: owner, body: { message: 'Second', tree, parents: [commit] } })
	).body.sha;
	assert.is(
		(await s.request('POST', '/repos/acme/app/git/refs', { token: owner, body: { ref: 'refs/heads/main', sha: commit } })).status,
		201,
	);
	assert.is((await s.request('PATCH', '/repos/acme/app/git/refs/heads/main', { token: owner, body: { sha: second } })).status, 200);
	const pushHook = (await createHook('/test-push', { events: ['push'], config: { secret: SECRET } })).body;
	const other = (await createHook('/test-other', { events: ['issues'] })).body;
	const sibling = (await createHook('/test-sibling', { events: ['push'] })).body;
	await deliver();
	assert.is((await s.request('POST', `/repos/acme/app/hooks/${pushHook.id}/tests`, { token: owner })).status, 204);
	const [push, ...rest] = await deliver();
	assert.equal(rest, [], '~> to that hook only');
	assert.is(push.path, '/test-push');
	assert.is(push.event, 'push');
	assert.is(push.payload.ref, 'refs/heads/main');
	assert.is(push.payload.after, second, '~> the latest commit');
	assert.is(push.payload.before, commit, '~> from its parent');
	assert.is(push.payload.head_commit.id, second);
	assert.equal(
		push.payload.commits.map((c: any) => c.message),
		['Second'],
	);
	assert.is(push.payload.repository.full_name, 'acme/app');
	assert.not.ok('action' in push.payload, '~> push has no action');
	assert.is(push.headers['x-hub-signature-256'], signature('sha256', SECRET, push.body));
	assert.is((await s.request('POST', `/repos/acme/app/hooks/${other.id}/tests`, { token: owner })).status, 204);
	assert.equal(await deliver(), [], '~> a hook without push gets nothing');
	assert.is(
		(await s.request('POST', `/repos/acme/app/hooks/${sibling.id}/test`, { token: owner })).status,
		204,
		'~> test_url is served too',
	);
	assert.equal(
		(await deliver()).map((r) => r.path),
		['/test-sibling'],
	);
	const empty = (await createHook('/test-empty', { events: ['push'] }, 'acme/other')).body;
	await deliver();
	assert.is((await s.request('POST', `/repos/acme/other/hooks/${empty.id}/tests`, { token: owner })).status, 204);
	assert.equal(await deliver(), [], '~> a repository without commits sends nothing');
	assert.is(
		(await s.request('POST', `/repos/acme/app/hooks/${empty.id}/tests`, { token: owner })).status,
		404,
		"~> another repository's hook is not found here",
	);
	for (const hook of [pushHook, other, sibling]) await s.request('DELETE', `/repos/acme/app/hooks/${hook.id}`, { token: owner });
	await s.request('DELETE', `/repos/acme/other/hooks/${empty.id}`, { token: owner });
});

test('tests – the latest push went to another branch than the default one: that push is sent', async () => {
	const main = (await s.get('/repos/acme/app/git/ref/heads/main', owner)).body.object.sha;
	const tree = (await s.get(`/repos/acme/app/git/commits/${main}`, owner)).body.tree.sha;
	const feature = (
		await s.request('POST', '/repos/acme/app/git/commits', { token: owner, body: { message: 'Feature work', tree, parents: [main] } })
	).body.sha;
	assert.is(
		(await s.request('POST', '/repos/acme/app/git/refs', { token: owner, body: { ref: 'refs/heads/feature', sha: main } })).status,
		201,
	);
	assert.is((await s.request('PATCH', '/repos/acme/app/git/refs/heads/feature', { token: owner, body: { sha: feature } })).status, 200);
	const hook = (await createHook('/test-latest', { events: ['push'] })).body;
	await deliver();
	assert.is((await s.request('POST', `/repos/acme/app/hooks/${hook.id}/tests`, { token: owner })).status, 204);
	const [push, ...rest] = await deliver();
	assert.equal(rest, []);
	assert.ok(push, '~> a push is delivered');
	assert.is(push.payload.ref, 'refs/heads/feature', '~> the ref of the latest push, not the default branch');
	assert.is(push.payload.before, main);
	assert.is(push.payload.after, feature);
	assert.equal(
		push.payload.commits.map((c: any) => c.message),
		['Feature work'],
	);
	await s.request('DELETE', `/repos/acme/app/hooks/${hook.id}`, { token: owner });
	await s.request('DELETE', '/repos/acme/app/git/refs/heads/feature', { token: owner });
});

test('deliveries – cursor pagination, one delivery with its request and response, redelivery (202) with the same GUID', async () => {
	const hook = (await createHook('/log', { events: ['issues'] })).body;
	receiver.answers = [200, 500];
	await deliver(); // the ping (200)
	for (const title of ['one', 'two', 'three', 'four'])
		await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title } });
	await deliver(); // 'one' answered 500 (queued for a retry); the rest 200
	const base = `/repos/acme/app/hooks/${hook.id}/deliveries`;
	const first = await s.get(`${base}?per_page=2`, owner);
	assert.is(first.status, 200);
	assert.equal(
		first.body.map((d: any) => d.action ?? d.event),
		['opened', 'opened'],
		'~> newest first',
	);
	assert.equal(
		first.body.map((d: any) => d.payload),
		[undefined, undefined],
	);
	const link = first.headers.get('link');
	const next = /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];
	assert.ok(next, `~> Link rel="next": ${link}`);
	assert.match(next!, /[?&]cursor=v1_\d+/, '~> with a cursor');
	assert.match(next!, /per_page=2/);
	const second = await s.request('GET', next!, { token: owner });
	const third = await s.request('GET', /<([^>]+)>; rel="next"/.exec(second.headers.get('link') ?? '')![1], { token: owner });
	const ids = [...first.body, ...second.body, ...third.body].map((d: any) => d.id);
	assert.is(ids.length, 5, '~> four issues and the ping, each once');
	assert.equal(
		ids,
		[...ids].sort((a, b) => b - a),
		'~> in descending order',
	);
	assert.is(third.headers.get('link'), null, '~> no Link on the last page');
	assert.is(third.body.at(-1).event, 'ping');
	assert.is((await s.get(`${base}?cursor=bogus`, owner)).status, 400, '~> a cursor this server did not give');
	const failed = (await s.get(`${base}?status=failure`, owner)).body;
	assert.equal(
		failed.map((d: any) => d.status_code),
		[500],
		'~> status=failure',
	);
	const item = first.body[0];
	assert.equal(
		Object.keys(item).slice(0, 12),
		[
			'id',
			'guid',
			'delivered_at',
			'redelivery',
			'duration',
			'status',
			'status_code',
			'event',
			'action',
			'installation_id',
			'repository_id',
			'throttled_at',
		],
		"~> GitHub's hook-delivery-item",
	);
	const one = await s.get(`${base}/${item.id}`, owner);
	assert.is(one.status, 200);
	assert.is(one.body.guid, item.guid);
	assert.is(one.body.url, receiver.url('/log'));
	assert.is(one.body.request.payload.issue.title, 'four');
	assert.is(one.body.request.headers['X-GitHub-Event'], 'issues');
	assert.is(one.body.response.payload, 'ok');
	assert.is(one.body.status_code, 200);
	const redo = await s.request('POST', `${base}/${item.id}/attempts`, { token: owner });
	assert.is(redo.status, 202);
	assert.equal(redo.body, {});
	const [again] = await deliver();
	assert.is(again.headers['x-github-delivery'], item.guid, '~> the same GUID');
	assert.is(again.payload.issue.title, 'four');
	const [newest] = (await s.get(base, owner)).body;
	assert.is(newest.redelivery, true);
	assert.is(newest.guid, item.guid);
	assert.is((await s.get(`${base}/999999`, owner)).status, 404);
	const otherHook = (await createHook('/log-other', { events: ['issues'] })).body;
	assert.is(
		(await s.get(`/repos/acme/app/hooks/${otherHook.id}/deliveries/${item.id}`, owner)).status,
		404,
		"~> another hook's delivery",
	);
	assert.is(
		(await s.request('POST', `/repos/acme/app/hooks/${otherHook.id}/deliveries/${item.id}/attempts`, { token: owner })).status,
		404,
	);
	for (const id of [hook.id, otherHook.id]) await s.request('DELETE', `/repos/acme/app/hooks/${id}`, { token: owner });
	receiver.take();
});

test('ping – 204; to an inactive hook it is logged as failed, not sent', async () => {
	const hook = (await createHook('/ping', { active: false })).body;
	assert.is((await s.request('POST', `/repos/acme/app/hooks/${hook.id}/pings`, { token: owner })).status, 204);
	assert.equal(await deliver(), [], '~> not sent');
	const [logged] = (await s.get(`/repos/acme/app/hooks/${hook.id}/deliveries`, owner)).body;
	assert.is(logged.event, 'ping');
	assert.is(logged.status, 'hook inactive');
	await s.request('PATCH', `/repos/acme/app/hooks/${hook.id}`, { token: owner, body: { active: true } });
	assert.is((await s.request('POST', `/repos/acme/app/hooks/${hook.id}/pings`, { token: owner })).status, 204);
	assert.equal(
		(await deliver()).map((r) => r.event),
		['ping'],
	);
	await s.request('DELETE', `/repos/acme/app/hooks/${hook.id}`, { token: owner });
});

test('access – repository administrators only: anonymous 401, anyone else 404 (GitHub conceals hooks); scopes and fine-grained permissions', async () => {
	const hook = (await createHook('/access')).body;
	const vaultHook = (await createHook('/vault', {}, 'acme/vault')).body;
	await deliver();
	const path = `/repos/acme/app/hooks/${hook.id}`;
	assert.is((await s.get('/repos/acme/app/hooks')).status, 401, '~> anonymous');
	const outsider = s.fullToken('nora');
	assert.is((await s.get('/repos/acme/vault/hooks', outsider)).status, 404, '~> a private repository the caller cannot see');
	const readOnly = await s.get('/repos/acme/app/hooks', outsider);
	assert.is(readOnly.status, 404, '~> a public repository: read is not admin, and the hooks are not shown');
	assert.is(readOnly.body.message, 'Not Found');
	const pusher = await s.get(path, s.fullToken('mike'));
	assert.is(pusher.status, 404, '~> push access is not admin');
	assert.is(
		(await s.request('POST', '/repos/acme/app/hooks', { token: s.fullToken('mike'), body: { config: { url: receiver.url('/m') } } }))
			.status,
		404,
	);
	assert.is((await s.get(`/repos/acme/other/hooks/${hook.id}`, owner)).status, 404, "~> another repository's hook");
	const global = s.app.stores.webhooks.insert(
		{ kind: 'global' },
		{ active: 0, events: '["user"]', url: receiver.url('/g'), content_type: 'json', insecure_ssl: '0', secret: null },
		'2026-01-01T00:00:00Z',
	).id;
	assert.is((await s.get(`/repos/acme/app/hooks/${global}`, owner)).status, 404, '~> a global hook is no repository hook');

	// Classic scopes: read:repo_hook reads and pings (private repositories too), write:repo_hook writes, admin:repo_hook deletes.
	const reader = s.token('olivia', { scopes: ['read:repo_hook'] });
	const read = await s.get('/repos/acme/vault/hooks', reader);
	assert.is(read.status, 200, '~> read:repo_hook lists, in a private repository too');
	assert.is(read.headers.get('x-accepted-oauth-scopes'), 'read:repo_hook, repo');
	assert.is((await s.request('POST', `/repos/acme/vault/hooks/${vaultHook.id}/pings`, { token: reader })).status, 204, '~> and pings');
	const noWrite = await s.request('PATCH', path, { token: reader, body: { active: true } });
	assert.is(noWrite.status, 403);
	assert.match(noWrite.body.message, 'write:repo_hook');
	const writer = s.token('olivia', { scopes: ['write:repo_hook'] });
	assert.is((await s.request('PATCH', path, { token: writer, body: { active: true } })).status, 200, '~> write:repo_hook updates');
	const noDelete = await s.request('DELETE', path, { token: writer });
	assert.is(noDelete.status, 403, '~> but does not delete');
	assert.match(noDelete.body.message, 'admin:repo_hook');
	assert.is((await s.get('/repos/acme/app/hooks', s.token('olivia', { scopes: ['admin:org'] }))).status, 403, '~> unrelated scopes');

	// Fine-grained: the Webhooks repository permission.
	const fine = (permissions: Record<string, string>) =>
		s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: permissions as never });
	const fineRead = fine({ repository_hooks: 'read' });
	const listed = await s.get('/repos/acme/app/hooks', fineRead);
	assert.is(listed.status, 200);
	assert.is(listed.headers.get('x-accepted-github-permissions'), 'repository_hooks=read');
	assert.is((await s.request('PATCH', path, { token: fineRead, body: { active: true } })).status, 403, '~> read does not write');
	assert.is((await s.request('PATCH', path, { token: fine({ repository_hooks: 'write' }), body: { active: true } })).status, 200);
	assert.is(
		(await s.get('/repos/acme/app/hooks', fine({ administration: 'write' }))).status,
		403,
		'~> administration is not the Webhooks permission',
	);
	assert.is(
		(await s.get('/repos/acme/app/hooks', s.token('olivia', { kind: 'fine-grained', permissions: { repository_hooks: 'write' } })))
			.status,
		403,
		'~> a token bound to another account',
	);
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { repository_hooks: 'write' } });
	assert.is((await s.get('/repos/acme/app/hooks', app)).status, 200, '~> an app installed on the organization');
	const created = await s.request('POST', '/repos/acme/app/hooks', { token: app, body: { config: { url: receiver.url('/by-app') } } });
	assert.is(created.status, 201);
	const ping = (await deliver()).find((r) => r.path === '/by-app')!;
	assert.match(ping.payload.sender.login, /\[bot\]$/, "~> the app's bot is the sender");

	for (const id of [hook.id, created.body.id]) await s.request('DELETE', `/repos/acme/app/hooks/${id}`, { token: owner });
	await s.request('DELETE', `/repos/acme/vault/hooks/${vaultHook.id}`, { token: owner });
	s.app.stores.webhooks.remove(global);
	s.app.webhooks.invalidate();
	receiver.take();
});

test('targets – loopback refused with 422 at create and update unless webhooks.allowed_hosts lists the host', async () => {
	const strict = await startServer(); // the default configuration: allowed_hosts = []
	try {
		strict.user('olivia');
		const token = strict.fullToken('olivia');
		await strict.request('POST', '/user/repos', { token, body: { name: 'solo' } });
		const refused = await strict.request('POST', '/repos/olivia/solo/hooks', {
			token,
			body: { config: { url: receiver.url('/strict') } },
		});
		assert.is(refused.status, 422);
		assert.equal(refused.body.errors[0].resource, 'Hook');
		assert.equal(refused.body.errors[0].field, 'url');
		assert.equal(refused.body.errors[0].code, 'custom');
		assert.match(refused.body.errors[0].message, /127\.0\.0\.1 is a loopback address/);
		assert.is((await strict.get('/repos/olivia/solo/hooks', token)).body.length, 0, '~> nothing created');
		const ok = await strict.request('POST', '/repos/olivia/solo/hooks', { token, body: { config: { url: 'http://10.0.0.8/hook' } } });
		assert.is(ok.status, 201, '~> private ranges are allowed');
		const moved = await strict.request('PATCH', `/repos/olivia/solo/hooks/${ok.body.id}`, {
			token,
			body: { config: { url: 'http://127.0.0.1:9/' } },
		});
		assert.is(moved.status, 422, '~> and on update');
		const viaConfig = await strict.request('PATCH', `/repos/olivia/solo/hooks/${ok.body.id}/config`, {
			token,
			body: { url: 'http://0.0.0.0/' },
		});
		assert.is(viaConfig.status, 422, '~> and on the config route');
	} finally {
		await strict.close();
	}
	const allowed = await createHook('/allowed');
	assert.is(allowed.status, 201, '~> 127.0.0.1 is listed on this server');
	await s.request('DELETE', `/repos/acme/app/hooks/${allowed.body.id}`, { token: owner });
	receiver.take();
});

test('delete – 204, the hook and its deliveries go; deleting the repository deletes its hooks and their deliveries', async () => {
	const hook = (await createHook('/delete', { events: ['issues'] })).body;
	await deliver();
	const count = (id: number) => s.app.db.prepare('SELECT count(*) FROM webhook_deliveries WHERE hook_id = ?').pluck().get(id);
	assert.is(count(hook.id), 1, '~> its ping');
	assert.is((await s.request('DELETE', `/repos/acme/app/hooks/${hook.id}`, { token: owner })).status, 204);
	assert.is((await s.get(`/repos/acme/app/hooks/${hook.id}`, owner)).status, 404);
	assert.is((await s.request('DELETE', `/repos/acme/app/hooks/${hook.id}`, { token: owner })).status, 404, '~> once');
	assert.is(count(hook.id), 0, '~> its deliveries went with it');
	await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title: 'after' } });
	assert.equal(await deliver(), []);

	const doomed = (await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'doomed' } })).body;
	const kept = (await createHook('/doomed', { events: ['issues'] }, 'acme/doomed')).body;
	s.app.db.prepare('DELETE FROM repositories WHERE id = ?').run(doomed.id);
	s.app.webhooks.invalidate();
	assert.is(s.app.stores.webhooks.get(kept.id), undefined, '~> the hook went with its repository');
	assert.is(count(kept.id), 0, '~> and its deliveries (the queued ping)');
	assert.equal(await deliver(), []);
});

test.run();
