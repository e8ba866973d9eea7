/**
 * GitHub Apps and installations (https://docs.github.com/en/rest/apps/apps):
 * app JWTs, installation lookups, token exchange, installation tokens acting with the
 * installation's permissions — by hand and through a stock client (@octokit/auth-app).
 */
import { createSign } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, installApp } from '../src/api/apps/service';
import { epochSeconds, isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';

const test = suite('apps');
let s: TestServer;
let appId: number;
let privateKey: string;
let installationId: number;

function jwt(claims: Record<string, unknown>, key = privateKey): string {
	const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const body = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}`;
	return `${body}.${createSign('RSA-SHA256').update(body).sign(key).toString('base64url')}`;
}
const appToken = () => jwt({ iat: epochSeconds(s.clock.now) - 60, exp: epochSeconds(s.clock.now) + 540, iss: appId });

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike']) s.user(login);
	const org = s.org('acme', 'olivia');
	s.member('acme', 'mike');
	const owner = s.fullToken('olivia');
	for (const name of ['app', 'secret']) await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, private: true } });
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Crew', privacy: 'closed' } });
	const created = createApp(
		s.app,
		{ name: 'Deploy Bot', owner: org, permissions: { members: 'write', contents: 'read' }, events: ['team'] },
		isoSeconds(s.clock.now),
	);
	appId = created.app.id;
	privateKey = created.privateKey;
	installationId = installApp(s.app, created.app, org, { members: 'read', contents: 'read' }, isoSeconds(s.clock.now)).id;
});
test.after(() => s.close());

test('JWT – GET /app; refused elsewhere; bad tokens are 401', async () => {
	const res = await s.get('/app', appToken());
	assert.is(res.status, 200);
	assert.is(res.body.slug, 'deploy-bot');
	assert.is(res.body.name, 'Deploy Bot');
	assert.is(res.body.owner.login, 'acme');
	assert.equal(res.body.permissions, { metadata: 'read', members: 'write', contents: 'read' });
	assert.equal(res.body.events, ['team']);
	assert.is(res.body.installations_count, 1);
	assert.match(res.body.client_id, /^Iv1\.[0-9a-f]{16}$/);
	const byClientId = await s.get(
		'/app',
		jwt({ iat: epochSeconds(s.clock.now), exp: epochSeconds(s.clock.now) + 300, iss: res.body.client_id }),
	);
	assert.is(byClientId.status, 200, '~> iss may be the client id');
	assert.is((await s.get('/orgs/acme/teams', appToken())).status, 403, '~> a JWT is not an installation token');
	const expired = await s.get('/app', jwt({ iat: epochSeconds(s.clock.now) - 700, exp: epochSeconds(s.clock.now) - 10, iss: appId }));
	assert.is(expired.status, 401);
	assert.match(expired.body.message, "'Expiration time' claim");
	const tooLong = await s.get('/app', jwt({ iat: epochSeconds(s.clock.now), exp: epochSeconds(s.clock.now) + 3600, iss: appId }));
	assert.match(tooLong.body.message, 'too far in the future');
	const unknown = await s.get('/app', jwt({ iat: epochSeconds(s.clock.now), exp: epochSeconds(s.clock.now) + 60, iss: 99999 }));
	assert.is(unknown.status, 401);
	const otherKey = createApp(
		s.app,
		{ name: 'Other', owner: s.app.stores.accounts.user('mike')!, permissions: {} },
		isoSeconds(s.clock.now),
	).privateKey;
	const forged = await s.get('/app', jwt({ iat: epochSeconds(s.clock.now), exp: epochSeconds(s.clock.now) + 60, iss: appId }, otherKey));
	assert.is(forged.status, 401, '~> a token signed with another key');
	assert.is((await s.get('/app', 'a.b.c')).status, 401);
	assert.is((await s.get('/app', s.fullToken('olivia'))).status, 403, '~> /app needs the app itself');
});

test('installations – lookups by organization, repository, user; list and get', async () => {
	const token = appToken();
	const org = await s.get('/orgs/acme/installation', token);
	assert.is(org.status, 200);
	assert.is(org.body.id, installationId);
	assert.is(org.body.app_id, appId);
	assert.is(org.body.app_slug, 'deploy-bot');
	assert.is(org.body.target_type, 'Organization');
	assert.is(org.body.account.login, 'acme');
	assert.equal(org.body.permissions, { metadata: 'read', members: 'read', contents: 'read' });
	assert.is(org.body.access_tokens_url, `${s.api}/app/installations/${installationId}/access_tokens`);
	assert.is(org.body.repository_selection, 'all');
	assert.equal((await s.get('/repos/acme/secret/installation', token)).body, org.body, '~> private repositories of the account too');
	assert.is((await s.get('/repos/acme/nope/installation', token)).status, 404);
	assert.is((await s.get('/users/mike/installation', token)).status, 404, '~> not installed there');
	assert.equal(
		(await s.get('/app/installations', token)).body.map((i: any) => i.id),
		[installationId],
	);
	assert.is((await s.get(`/app/installations/${installationId}`, token)).body.account.login, 'acme');
	assert.is((await s.get('/app/installations/99999', token)).status, 404);
});

test('token exchange – 201, 60 minutes, at most the installation permissions, repository selection', async () => {
	const res = await s.request('POST', `/app/installations/${installationId}/access_tokens`, { token: appToken(), body: {} });
	assert.is(res.status, 201);
	assert.match(res.body.token, /^ghs_/);
	assert.is(res.body.expires_at, isoSeconds(s.clock.now + 3_600_000));
	assert.equal(res.body.permissions, { metadata: 'read', members: 'read', contents: 'read' });
	assert.is(res.body.repository_selection, 'all');
	const teams = await s.get('/orgs/acme/teams', res.body.token);
	assert.is(teams.status, 200, '~> acts with the installation permissions');
	const write = await s.request('POST', '/orgs/acme/teams', { token: res.body.token, body: { name: 'No' } });
	assert.is(write.status, 403, '~> members:read only: the installation grants less than the app asks for');
	assert.is(write.body.message, 'Resource not accessible by integration');
	const wider = await s.request('POST', `/app/installations/${installationId}/access_tokens`, {
		token: appToken(),
		body: { permissions: { members: 'write' } },
	});
	assert.is(wider.status, 422);
	assert.match(wider.body.message, 'not granted to this installation');
	const narrow = await s.request('POST', `/app/installations/${installationId}/access_tokens`, {
		token: appToken(),
		body: { repositories: ['app'], permissions: { contents: 'read' } },
	});
	assert.is(narrow.status, 201);
	assert.is(narrow.body.repository_selection, 'selected');
	assert.equal(
		narrow.body.repositories.map((r: any) => r.name),
		['app'],
	);
	assert.equal(narrow.body.permissions, { contents: 'read' });
	assert.is((await s.get('/repos/acme/app', narrow.body.token)).status, 200);
	assert.is((await s.get('/repos/acme/secret', narrow.body.token)).status, 404, '~> only the repositories named');
	assert.is((await s.get('/orgs/acme/teams', narrow.body.token)).status, 403, '~> only the permissions asked for');
	const listed = await s.get('/installation/repositories', narrow.body.token);
	assert.equal(
		listed.body.repositories.map((r: any) => r.name),
		['app'],
	);
	assert.is(listed.body.repository_selection, 'selected');
	const badRepo = await s.request('POST', `/app/installations/${installationId}/access_tokens`, {
		token: appToken(),
		body: { repositories: ['nope'] },
	});
	assert.is(badRepo.status, 422);
	const badKey = await s.request('POST', `/app/installations/${installationId}/access_tokens`, {
		token: appToken(),
		body: { permissions: { flying: 'write' } },
	});
	assert.is(badKey.status, 422);
	s.clock.advance(3_601_000);
	assert.is((await s.get('/orgs/acme/teams', res.body.token)).status, 401, '~> expired after 60 minutes');
});

test('installation tokens – the bot is the actor; DELETE /installation/token revokes', async () => {
	const res = await s.request('POST', `/app/installations/${installationId}/access_tokens`, { token: appToken(), body: {} });
	const token = res.body.token;
	const all = await s.get('/installation/repositories', token);
	assert.equal(
		all.body.repositories.map((r: any) => r.name),
		['app', 'secret'],
	);
	assert.equal(Object.keys(all.body), ['total_count', 'repositories', 'repository_selection']);
	assert.is((await s.request('DELETE', '/installation/token', { token })).status, 204);
	assert.is((await s.get('/installation/repositories', token)).status, 401);
});

test('uninstall – DELETE /app/installations/{id}; its tokens stop working', async () => {
	const res = await s.request('POST', `/app/installations/${installationId}/access_tokens`, { token: appToken(), body: {} });
	assert.is((await s.get('/orgs/acme/teams', res.body.token)).status, 200);
	assert.is((await s.request('DELETE', `/app/installations/${installationId}`, { token: appToken() })).status, 204);
	assert.is((await s.get('/orgs/acme/installation', appToken())).status, 404);
	assert.is((await s.get('/orgs/acme/teams', res.body.token)).status, 401);
	const app = s.app.stores.apps.byId(appId)!;
	installationId = installApp(s.app, app, s.app.stores.accounts.organization('acme')!, { members: 'write' }, isoSeconds(s.clock.now)).id;
});

test('a stock client: @octokit/auth-app signs the JWT, exchanges it, and the installation creates a team', async () => {
	const { Octokit } = await import('@octokit/rest');
	const { createAppAuth } = await import('@octokit/auth-app');
	s.clock.now = Date.now();
	const octokit = new Octokit({
		baseUrl: s.api,
		authStrategy: createAppAuth,
		auth: { appId, privateKey, installationId },
		log: { debug() {}, info() {}, warn() {}, error() {} },
	});
	const created = await octokit.rest.teams.create({ org: 'acme', name: 'Made By An App', privacy: 'closed' });
	assert.is(created.status, 201);
	assert.is(created.data.members_count, 0, '~> the bot is no member');
	const { data: app } = await new Octokit({
		baseUrl: s.api,
		authStrategy: createAppAuth,
		auth: { appId, privateKey },
	}).rest.apps.getAuthenticated();
	assert.is(app!.slug, 'deploy-bot');
});

test('GET /orgs/{org}/installations: the apps installed on the organization, for its owners', async () => {
	s.user('zed');
	const res = await s.get('/orgs/acme/installations', s.fullToken('olivia'));
	assert.is(res.status, 200);
	assert.is(res.body.total_count, 1);
	assert.is(res.body.installations.length, 1);
	const [only] = res.body.installations;
	assert.is(only.id, installationId);
	assert.is(only.app_slug, 'deploy-bot');
	assert.is(only.account.login, 'acme');
	assert.is(only.target_type, 'Organization');
	assert.type(only.permissions.members, 'string', '~> the permissions granted to the installation');
	assert.ok(Array.isArray(only.events));
	const fineGrained = await s.get(
		'/orgs/acme/installations',
		s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } }),
	);
	assert.is(fineGrained.status, 200, '~> organization administration (read), as the matrix says');
	assert.is(fineGrained.headers.get('x-accepted-github-permissions'), 'organization_administration=read');
	const member = await s.get('/orgs/acme/installations', s.fullToken('mike'));
	assert.is(member.status, 403, '~> members may not list them');
	const outsider = await s.get('/orgs/acme/installations', s.fullToken('zed'));
	assert.is(outsider.status, 404, '~> outside the organization: concealed');
	const paged = await s.get('/orgs/acme/installations?per_page=1&page=2', s.fullToken('olivia'));
	assert.is(paged.body.total_count, 1);
	assert.equal(paged.body.installations, []);
	assert.match(paged.headers.get('link') ?? '', /rel="prev"/);
});

test.run();
