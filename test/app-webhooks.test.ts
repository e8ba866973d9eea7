/**
 * GitHub Apps receive webhooks: an app's hook (PATCH/GET /app/hook/config with the app's JWT, or
 * `gitstead admin create-app --webhook-url`), the events of each installation that subscribes to them
 * (the app's events and the installation's permissions and repositories), one delivery per
 * installation with `installation` {id, node_id} and X-GitHub-Hook-Installation-Target-Type:
 * integration; the installation and installation_repositories events; the delivery log and
 * redelivery with the app's JWT.
 */
import { createSign } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, installApp } from '../src/api/apps/service';
import { changeSelection } from '../src/api/enterprise-apps/service';
import { isoSeconds, epochSeconds } from '../src/time';
import { Receiver, signature } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';

const test = suite('app-webhooks');
let s: TestServer;
let olivia: string;
const receiver = new Receiver();
const SECRET = 'probot-secret';
let appId: number;
let appKey: string;
let installationId: number;

/** A JWT of an app, signed with its private key. */
function jwt(id = appId, key = appKey): string {
	const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const now = epochSeconds(s.clock.now);
	const body = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: now - 60, exp: now + 540, iss: id })}`;
	return `${body}.${createSign('RSA-SHA256').update(body).sign(key).toString('base64url')}`;
}

/** Delivers what is due and returns what the receiver got at `path`. */
async function delivered(path = '/bot') {
	await s.app.webhooks.deliverDue();
	return receiver.takeAt(path);
}

test.before(async () => {
	await receiver.start();
	s = await startServer({ configure: (c) => void (c.webhooks.allowed_hosts = ['127.0.0.1']) });
	s.user('olivia');
	s.user('mike');
	olivia = s.fullToken('olivia');
	const acme = s.org('acme', 'olivia');
	s.org('initech', 'olivia');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'app' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'docs' } });
	await s.request('POST', '/orgs/initech/repos', { token: olivia, body: { name: 'tps' } });
	const made = createApp(
		s.app,
		{
			name: 'Triage Bot',
			owner: acme,
			permissions: { issues: 'write', metadata: 'read' },
			events: ['issues', 'issue_comment', 'push'],
		},
		isoSeconds(s.clock.now),
	);
	appId = made.app.id;
	appKey = made.privateKey;
});
test.after(async () => {
	await s.close();
	await receiver.stop();
});

test('the app’s webhook: PATCH /app/hook/config makes it (secret masked), GET reads it; only with the app’s JWT', async () => {
	const empty = await s.get('/app/hook/config', jwt());
	assert.is(empty.status, 200, empty.text);
	const privateAddress = await s.request('PATCH', '/app/hook/config', {
		token: jwt(),
		body: { url: 'http://10.0.0.1:1/x', content_type: 'json' },
	});
	assert.is(privateAddress.status, 200, 'a private address: the address rule refuses loopback only');
	const made = await s.request('PATCH', '/app/hook/config', {
		token: jwt(),
		body: { url: receiver.url('/bot'), content_type: 'json', secret: SECRET, insecure_ssl: '0' },
	});
	assert.is(made.status, 200, made.text);
	assert.equal(made.body, { content_type: 'json', insecure_ssl: '0', secret: '********', url: receiver.url('/bot') });
	assert.equal((await s.get('/app/hook/config', jwt())).body, made.body);
	const loopback = await s.request('PATCH', '/app/hook/config', { token: jwt(), body: { url: 'http://[::1]:1/x' } });
	assert.is(loopback.status, 422, 'loopback other than the allowed host');
	assert.is((await s.get('/app/hook/config', olivia)).status, 403, 'a user token');
});

test('installing the app: installation created to the app’s hook only, with the installation and its repositories', async () => {
	const acme = s.app.stores.accounts.byLogin('acme')!;
	installationId = installApp(s.app, s.app.stores.apps.byId(appId)!, acme, null, isoSeconds(s.clock.now)).id;
	const [got, ...more] = await delivered();
	assert.is(more.length, 0);
	assert.is(got.event, 'installation');
	assert.is(got.payload.action, 'created');
	assert.is(got.payload.installation.id, installationId);
	assert.is(got.payload.installation.app_id, appId);
	assert.is(got.payload.installation.account.login, 'acme');
	assert.equal(
		got.payload.repositories.map((r: { full_name: string }) => r.full_name),
		['acme/app', 'acme/docs'],
	);
	assert.is(got.headers['x-github-hook-installation-target-type'], 'integration');
	assert.is(got.headers['x-github-hook-installation-target-id'], String(appId));
	assert.is(got.headers['x-hub-signature-256'], signature('sha256', SECRET, got.body));
});

test('an event the installation subscribes to: delivered once per installation with installation {id, node_id}', async () => {
	const initech = s.app.stores.accounts.byLogin('initech')!;
	const other = installApp(s.app, s.app.stores.apps.byId(appId)!, initech, null, isoSeconds(s.clock.now));
	assert.is((await delivered())[0].payload.installation.id, other.id, 'installation created on initech');
	const issue = await s.request('POST', '/repos/acme/app/issues', { token: olivia, body: { title: 'Bug' } });
	assert.is(issue.status, 201);
	const got = await delivered();
	assert.equal(
		got.map((r) => `${r.event}.${r.payload.action}`),
		['issues.opened'],
	);
	assert.equal(got[0].payload.installation, {
		id: installationId,
		node_id: Buffer.from(`012:Installation${installationId}`).toString('base64'),
	});
	assert.is(got[0].payload.issue.title, 'Bug');
	assert.is(got[0].payload.repository.full_name, 'acme/app');
	assert.is(got[0].headers['x-github-event'], 'issues');
	// initech's installation sees initech's issues only.
	await s.request('POST', '/repos/initech/tps/issues', { token: olivia, body: { title: 'TPS report' } });
	const tps = await delivered();
	assert.equal(
		tps.map((r) => r.payload.installation.id),
		[other.id],
	);
	// Events the app does not subscribe to (a label) or has no permission for are not sent.
	await s.request('POST', '/repos/acme/app/labels', { token: olivia, body: { name: 'triage', color: 'ff0000' } });
	await s.request('POST', '/repos/acme/app/releases', { token: olivia, body: { tag_name: 'v1', name: 'One' } });
	assert.equal(
		(await delivered()).map((r) => r.event),
		[],
	);
});

test('installation_repositories: a selection change is sent; repositories outside the selection send nothing', async () => {
	const acme = s.app.stores.accounts.byLogin('acme')!;
	const row = s.app.stores.apps.installation(installationId)!;
	changeSelection(s.app, acme, row, { repository_selection: 'selected', repositories: ['docs'] }, null, isoSeconds(s.clock.now));
	const [removed] = await delivered();
	assert.is(removed.event, 'installation_repositories');
	assert.is(removed.payload.action, 'removed');
	assert.is(removed.payload.repository_selection, 'selected');
	assert.equal(
		removed.payload.repositories_removed.map((r: { name: string }) => r.name),
		['app'],
	);
	await s.request('POST', '/repos/acme/app/issues', { token: olivia, body: { title: 'Outside the selection' } });
	assert.is((await delivered()).length, 0);
	await s.request('POST', '/repos/acme/docs/issues', { token: olivia, body: { title: 'Inside' } });
	assert.equal(
		(await delivered()).map((r) => r.payload.issue.title),
		['Inside'],
	);
	changeSelection(
		s.app,
		acme,
		s.app.stores.apps.installation(installationId)!,
		{ repository_selection: 'all' },
		null,
		isoSeconds(s.clock.now),
	);
	const [added] = await delivered();
	assert.is(added.payload.action, 'added');
	assert.equal(
		added.payload.repositories_added.map((r: { name: string }) => r.name),
		['app'],
	);
});

test('suspend and unsuspend (PUT/DELETE /app/installations/{id}/suspended): sent; a suspended installation receives nothing else', async () => {
	assert.is((await s.request('PUT', `/app/installations/${installationId}/suspended`, { token: jwt() })).status, 204);
	const [suspended] = await delivered();
	assert.is(suspended.payload.action, 'suspend');
	assert.type(suspended.payload.installation.suspended_at, 'string');
	await s.request('POST', '/repos/acme/app/issues', { token: olivia, body: { title: 'While suspended' } });
	assert.is((await delivered()).length, 0);
	assert.is((await s.request('DELETE', `/app/installations/${installationId}/suspended`, { token: jwt() })).status, 204);
	assert.is((await delivered())[0].payload.action, 'unsuspend');
});

test('new permissions accepted; the delivery log with installation_id, one delivery, redelivery; uninstalling sends deleted', async () => {
	const acme = s.app.stores.accounts.byLogin('acme')!;
	installApp(s.app, s.app.stores.apps.byId(appId)!, acme, { issues: 'read' }, isoSeconds(s.clock.now));
	assert.is((await delivered())[0].payload.action, 'new_permissions_accepted');
	const log = await s.get('/app/hook/deliveries', jwt());
	assert.is(log.status, 200, log.text);
	assert.ok(log.body.length >= 8);
	const newest = log.body[0];
	assert.is(newest.event, 'installation');
	assert.is(newest.action, 'new_permissions_accepted');
	assert.is(newest.installation_id, installationId);
	const one = await s.get(`/app/hook/deliveries/${newest.id}`, jwt());
	assert.is(one.status, 200);
	assert.is(one.body.request.headers['X-GitHub-Hook-Installation-Target-Type'], 'integration');
	assert.is(one.body.request.payload.action, 'new_permissions_accepted');
	const again = await s.request('POST', `/app/hook/deliveries/${newest.id}/attempts`, { token: jwt() });
	assert.is(again.status, 202);
	const [redelivered] = await delivered();
	assert.is(redelivered.headers['x-github-delivery'], one.body.guid);
	assert.is((await s.get('/app/hook/deliveries/999999', jwt())).status, 404);
	assert.is((await s.request('DELETE', `/app/installations/${installationId}`, { token: jwt() })).status, 204);
	const [deleted] = await delivered();
	assert.is(deleted.payload.action, 'deleted');
	assert.is(deleted.payload.installation.id, installationId);
});

test.run();
