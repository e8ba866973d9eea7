/**
 * Organization webhooks (GitHub REST "Organization webhooks"): management with the secret masked,
 * the config routes, pings reaching a receiver on loopback with GitHub's headers and a valid HMAC,
 * events of the organization and of every repository in it delivered to the hooks subscribed
 * (and to no other organization's), the delivery log with cursor pagination and redelivery, access
 * (organization owners; admin:org_hook; the Webhooks organization permission), the target rule,
 * and hooks deleted with their organization.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Config } from '../src/config';
import { Receiver, signature } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';

const test = suite('organization-webhooks');
const receiver = new Receiver();
const SECRET = 'org-hook-secret';
let s: TestServer;
let owner: string;
let acmeId: number;

const configure = (c: Config) => {
	c.webhooks.timeout_seconds = 2;
	c.webhooks.allowed_hosts = ['127.0.0.1'];
};

test.before(async () => {
	await receiver.start();
	s = await startServer({ configure });
	for (const login of ['olivia', 'mike', 'nora', 'oscar']) s.user(login);
	acmeId = s.org('acme', 'olivia').id;
	s.org('other', 'oscar');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	await s.request('POST', '/orgs/other/repos', { token: s.fullToken('oscar'), body: { name: 'site' } });
	await s.request('POST', '/user/repos', { token: owner, body: { name: 'personal' } });
});
test.after(async () => {
	await s.close();
	await receiver.stop();
});

/** Creates a hook on acme (or `org`) delivering to `path` on the receiver; returns its answer. */
async function createHook(path: string, extra: Record<string, unknown> = {}, org = 'acme', token = owner) {
	const { config, ...rest } = extra as { config?: Record<string, unknown> };
	return s.request('POST', `/orgs/${org}/hooks`, {
		token,
		body: { name: 'web', config: { url: receiver.url(path), content_type: 'json', ...config }, ...rest },
	});
}

async function deliver() {
	await s.app.webhooks.deliverDue();
	return receiver.take();
}

test('create – GitHub defaults and the org-hook shape, the secret masked, Location; a signed ping is sent', async () => {
	const res = await createHook('/create', { config: { secret: SECRET, content_type: undefined } });
	assert.is(res.status, 201);
	const id = res.body.id;
	const url = `${s.api}/orgs/acme/hooks/${id}`;
	assert.is(res.headers.get('location'), url);
	assert.equal(
		res.body,
		{
			id,
			url,
			ping_url: `${url}/pings`,
			deliveries_url: `${url}/deliveries`,
			name: 'web',
			events: ['push'],
			active: true,
			config: { url: receiver.url('/create'), insecure_ssl: '0', content_type: 'form', secret: '********' },
			updated_at: res.body.updated_at,
			created_at: res.body.created_at,
			type: 'Organization',
		},
		"~> GitHub's org-hook",
	);
	const [ping, ...more] = await deliver();
	assert.equal(more, []);
	assert.is(ping.event, 'ping');
	assert.is(ping.headers['x-github-hook-id'], String(id));
	assert.is(ping.headers['x-github-hook-installation-target-type'], 'organization');
	assert.is(ping.headers['x-github-hook-installation-target-id'], String(acmeId));
	assert.match(String(ping.headers['user-agent']), /^GitHub-Hookshot\//);
	assert.match(String(ping.headers['x-github-delivery']), /^[0-9a-f-]{36}$/);
	assert.is(ping.headers['x-hub-signature-256'], signature('sha256', SECRET, ping.body), '~> valid HMAC-SHA256');
	assert.is(ping.headers['x-hub-signature'], signature('sha1', SECRET, ping.body), '~> valid HMAC-SHA1');
	assert.is(ping.payload.hook_id, id);
	assert.is(ping.payload.hook.type, 'Organization');
	assert.is(ping.payload.organization.login, 'acme');
	assert.is(ping.payload.sender.login, 'olivia');
	assert.not.ok('repository' in ping.payload);
	const list = await s.get('/orgs/acme/hooks', owner);
	assert.equal(
		list.body.map((h: any) => h.id),
		[id],
	);
	assert.not.match(list.text, SECRET, '~> the secret is in no answer');
	assert.is((await s.request('DELETE', `/orgs/acme/hooks/${id}`, { token: owner })).status, 204);
});

test('create – validation: name required and "web", config with its URL, events; duplicates', async () => {
	const cases: Array<[Record<string, unknown>, string]> = [
		[{ config: { url: receiver.url('/v') } }, 'name'],
		[{ name: 'email', config: { url: receiver.url('/v') } }, 'name'],
		[{ name: 'web' }, 'config'],
		[{ name: 'web', config: {} }, 'config.url'],
		[{ name: 'web', config: { url: 'mailto:ops@example.test' } }, 'config.url'],
		[{ name: 'web', config: { url: receiver.url('/v') }, events: ['issue'] }, 'events.0'],
	];
	for (const [body, field] of cases) {
		const res = await s.request('POST', '/orgs/acme/hooks', { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field),
			`~> names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
	const first = await createHook('/dup');
	const dup = await createHook('/dup', { events: ['issues'] });
	assert.is(dup.status, 422);
	assert.is(dup.body.errors[0].message, 'Hook already exists on this organization');
	const elsewhere = await createHook('/dup', {}, 'other', s.fullToken('oscar'));
	assert.is(elsewhere.status, 201, '~> the same URL in another organization is fine');
	await s.request('DELETE', `/orgs/acme/hooks/${first.body.id}`, { token: owner });
	await s.request('DELETE', `/orgs/other/hooks/${elsewhere.body.id}`, { token: s.fullToken('oscar') });
	await deliver();
});

test("events – the organization's hooks receive events of its repositories and of the organization, by subscription; no other organization's", async () => {
	const issues = (await createHook('/issues', { config: { secret: SECRET }, events: ['issues'] })).body;
	const repos = (await createHook('/repos', { events: ['repository', 'organization'] })).body;
	const all = (await createHook('/all', { events: ['*'] })).body;
	const off = (await createHook('/off', { events: ['*'], active: false })).body;
	const foreign = (await createHook('/foreign', { events: ['*'] }, 'other', s.fullToken('oscar'))).body;
	await deliver();
	const opened = await s.request('POST', '/repos/acme/app/issues', { token: s.fullToken('mike'), body: { title: 'From a member' } });
	assert.is(opened.status, 201);
	await s.request('POST', '/repos/olivia/personal/issues', { token: owner, body: { title: 'Not in the organization' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'fresh' } });
	s.member('acme', 'nora');
	const got = await deliver();
	const at = (path: string) => got.filter((r) => r.path === path);
	const [issue, ...rest] = at('/issues');
	assert.ok(issue, '~> the issue of a repository in the organization');
	assert.equal(rest, [], '~> only that one: not the personal repository, not the other events');
	assert.is(issue.event, 'issues');
	assert.is(issue.payload.action, 'opened');
	assert.is(issue.payload.issue.title, 'From a member');
	assert.is(issue.payload.repository.full_name, 'acme/app');
	assert.is(issue.payload.organization.login, 'acme');
	assert.is(issue.headers['x-github-hook-installation-target-type'], 'organization');
	assert.is(issue.headers['x-github-hook-installation-target-id'], String(acmeId));
	assert.is(issue.headers['x-hub-signature-256'], signature('sha256', SECRET, issue.body));
	const repoEvents = at('/repos').map((r) => `${r.event}.${r.payload.action}`);
	assert.ok(repoEvents.includes('repository.created'), `~> repository created (${repoEvents.join(', ')})`);
	assert.ok(repoEvents.includes('organization.member_added'), '~> organization member_added');
	assert.not.ok(
		repoEvents.some((name) => name.startsWith('issues')),
		'~> not subscribed to issues',
	);
	const created = at('/repos').find((r) => r.event === 'repository')!;
	assert.is(created.payload.repository.full_name, 'acme/fresh');
	const everything = at('/all').map((r) => r.event);
	for (const event of ['issues', 'repository', 'organization']) assert.ok(everything.includes(event), `~> * receives ${event}`);
	assert.equal(at('/off'), [], '~> an inactive hook receives nothing');
	assert.equal(at('/foreign'), [], "~> another organization's hook receives nothing");
	const [logged] = (await s.get(`/orgs/acme/hooks/${issues.id}/deliveries`, owner)).body;
	assert.is(logged.repository_id, (await s.get('/repos/acme/app', owner)).body.id, "~> the delivery names the event's repository");
	for (const hook of [issues, repos, all, off]) await s.request('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner });
	await s.request('DELETE', `/orgs/other/hooks/${foreign.id}`, { token: s.fullToken('oscar') });
});

test('update and config – PATCH keeps what it omits; a config replaces (the secret removed unless sent); …/config changes only what it names', async () => {
	const hook = (await createHook('/upd', { config: { secret: SECRET } })).body;
	const path = `/orgs/acme/hooks/${hook.id}`;
	const events = await s.request('PATCH', path, { token: owner, body: { events: ['issues', 'issues', 'label'], active: false } });
	assert.is(events.status, 200);
	assert.equal(events.body.events, ['issues', 'label']);
	assert.is(events.body.active, false);
	assert.is(events.body.config.secret, '********', '~> config omitted: kept');
	const replaced = await s.request('PATCH', path, { token: owner, body: { config: { url: receiver.url('/upd2') } } });
	assert.equal(
		replaced.body.config,
		{ url: receiver.url('/upd2'), insecure_ssl: '0', content_type: 'form' },
		'~> the secret went; defaults back',
	);
	assert.is(replaced.body.active, false);
	const config = `${path}/config`;
	assert.equal((await s.get(config, owner)).body, { content_type: 'form', insecure_ssl: '0', url: receiver.url('/upd2') });
	const patched = await s.request('PATCH', config, { token: owner, body: { secret: SECRET, content_type: 'json' } });
	assert.equal(patched.body, { content_type: 'json', insecure_ssl: '0', secret: '********', url: receiver.url('/upd2') });
	const refused = await s.request('PATCH', config, { token: owner, body: { url: 'http://[fe80::1]/hook' } });
	assert.is(refused.status, 422, '~> link-local refused');
	assert.is((await s.request('PATCH', path, { token: owner, body: { name: 'email' } })).status, 422);
	assert.is((await s.get(`/orgs/acme/hooks/999999/config`, owner)).status, 404);
	await s.request('DELETE', path, { token: owner });
	await deliver();
});

test('deliveries – cursor pagination, get, redeliver; ping', async () => {
	const hook = (await createHook('/log', { events: ['issues'] })).body;
	await deliver();
	for (const title of ['a', 'b', 'c']) await s.request('POST', '/repos/acme/app/issues', { token: owner, body: { title } });
	assert.is((await s.request('POST', `/orgs/acme/hooks/${hook.id}/pings`, { token: owner })).status, 204);
	const sent = await deliver();
	assert.equal(
		sent.map((r) => r.event),
		['issues', 'issues', 'issues', 'ping'],
	);
	const base = `/orgs/acme/hooks/${hook.id}/deliveries`;
	const seen: number[] = [];
	let next: string | undefined = `${base}?per_page=2`;
	let pages = 0;
	while (next) {
		const res: any = await s.request('GET', next, { token: owner });
		assert.is(res.status, 200);
		seen.push(...res.body.map((d: any) => d.id));
		next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
		if (next) assert.ok(next.startsWith(`${s.api}${base}?`), `~> absolute: ${next}`);
		pages++;
	}
	assert.is(pages, 3, '~> 5 deliveries in pages of 2');
	assert.is(seen.length, 5);
	assert.is(new Set(seen).size, 5, '~> no repeats');
	const [newest] = (await s.get(base, owner)).body;
	assert.is(newest.event, 'ping');
	const one = (await s.get(`${base}/${newest.id}`, owner)).body;
	assert.is(one.request.payload.organization.login, 'acme');
	assert.is(one.request.headers['X-GitHub-Hook-Installation-Target-Type'], 'organization');
	assert.is(one.status_code, 200);
	const redo = await s.request('POST', `${base}/${newest.id}/attempts`, { token: owner });
	assert.is(redo.status, 202);
	assert.equal(redo.body, {});
	const [again] = await deliver();
	assert.is(again.headers['x-github-delivery'], newest.guid);
	assert.is((await s.get(`${base}/${newest.id + 1000}`, owner)).status, 404);
	await s.request('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner });
});

test('access – organization owners only; admin:org_hook; the Webhooks organization permission; hooks of elsewhere are 404', async () => {
	const hook = (await createHook('/access')).body;
	await deliver();
	assert.is((await s.get('/orgs/acme/hooks')).status, 401);
	const member = await s.get('/orgs/acme/hooks', s.fullToken('mike'));
	assert.is(member.status, 404, '~> a member is not an owner: the hooks are not shown (GitHub answers 404)');
	assert.is(member.body.message, 'Not Found');
	assert.is(
		(
			await s.request('POST', '/orgs/acme/hooks', {
				token: s.fullToken('mike'),
				body: { name: 'web', config: { url: receiver.url('/m') } },
			})
		).status,
		404,
	);
	assert.is((await s.get(`/orgs/acme/hooks/${hook.id}`, s.fullToken('oscar'))).status, 404, '~> an outsider');
	assert.is((await s.get('/orgs/nowhere/hooks', owner)).status, 404);
	assert.is((await s.get(`/orgs/other/hooks/${hook.id}`, s.fullToken('oscar'))).status, 404, "~> another organization's hook");
	await s.request('POST', '/repos/acme/app/hooks', { token: owner, body: { config: { url: receiver.url('/repo-level') } } });
	const repoHook = (await s.get('/repos/acme/app/hooks', owner)).body[0];
	assert.is((await s.get(`/orgs/acme/hooks/${repoHook.id}`, owner)).status, 404, '~> a repository hook is no organization hook');
	assert.is((await s.get(`/repos/acme/app/hooks/${hook.id}`, owner)).status, 404, '~> and the reverse');

	const scoped = await s.get('/orgs/acme/hooks', s.token('olivia', { scopes: ['admin:org_hook'] }));
	assert.is(scoped.status, 200, '~> admin:org_hook');
	assert.is(scoped.headers.get('x-accepted-oauth-scopes'), 'admin:org_hook');
	const adminOrg = await s.get('/orgs/acme/hooks', s.token('olivia', { scopes: ['admin:org', 'repo'] }));
	assert.is(adminOrg.status, 403, '~> admin:org is not admin:org_hook');
	assert.match(adminOrg.body.message, 'admin:org_hook');
	const fine = (level: 'read' | 'write') =>
		s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_hooks: level } });
	const read = await s.get('/orgs/acme/hooks', fine('read'));
	assert.is(read.status, 200);
	assert.is(read.headers.get('x-accepted-github-permissions'), 'organization_hooks=read');
	assert.is(
		(await s.request('PATCH', `/orgs/acme/hooks/${hook.id}`, { token: fine('read'), body: { active: true } })).status,
		403,
		'~> read does not write',
	);
	assert.is((await s.request('PATCH', `/orgs/acme/hooks/${hook.id}`, { token: fine('write'), body: { active: true } })).status, 200);
	assert.is(
		(await s.get('/orgs/acme/hooks', s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } })))
			.status,
		403,
	);
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_hooks: 'write' } });
	assert.is((await s.get('/orgs/acme/hooks', app)).status, 200, '~> an app installed on the organization');
	assert.is((await s.get('/orgs/other/hooks', app)).status, 403, '~> not on another organization');
	await s.request('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner });
	await s.request('DELETE', `/repos/acme/app/hooks/${repoHook.id}`, { token: owner });
	await deliver();
});

test('targets – loopback refused with 422 unless webhooks.allowed_hosts lists the host', async () => {
	const strict = await startServer();
	try {
		strict.user('olivia');
		strict.org('acme', 'olivia');
		const token = strict.fullToken('olivia');
		const refused = await strict.request('POST', '/orgs/acme/hooks', {
			token,
			body: { name: 'web', config: { url: receiver.url('/strict') } },
		});
		assert.is(refused.status, 422);
		assert.equal(
			[refused.body.errors[0].resource, refused.body.errors[0].field, refused.body.errors[0].code],
			['Hook', 'url', 'custom'],
		);
		assert.match(refused.body.errors[0].message, /loopback address/);
		assert.equal((await strict.get('/orgs/acme/hooks', token)).body, [], '~> nothing created');
	} finally {
		await strict.close();
	}
});

test('delete – 204 and its deliveries go; deleting the organization deletes its hooks and their deliveries', async () => {
	const hook = (await createHook('/delete')).body;
	const count = (id: number) => s.app.db.prepare('SELECT count(*) FROM webhook_deliveries WHERE hook_id = ?').pluck().get(id);
	assert.is(count(hook.id), 1, '~> its queued ping');
	assert.is((await s.request('DELETE', `/orgs/acme/hooks/${hook.id}`, { token: owner })).status, 204);
	assert.is(count(hook.id), 0);
	assert.is((await s.get(`/orgs/acme/hooks/${hook.id}`, owner)).status, 404);
	assert.equal(await deliver(), [], '~> the queued ping is never sent');

	s.org('doomed', 'olivia');
	const kept = (await createHook('/doomed', { events: ['*'] }, 'doomed')).body;
	await deliver();
	assert.is(count(kept.id), 1);
	s.app.db.prepare("DELETE FROM accounts WHERE login = 'doomed'").run();
	s.app.stores.accounts.forget();
	s.app.webhooks.invalidate();
	assert.is(s.app.stores.webhooks.get(kept.id), undefined, '~> the hook went with its organization');
	assert.is(count(kept.id), 0, '~> and its deliveries');
});

test.run();
