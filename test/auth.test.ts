/**
 * Authentication and authorization (https://docs.github.com/en/rest/authentication/authenticating-to-the-rest-api
 * and GitHub's repository roles):
 * header forms, the five token kinds, expiry, revocation, scopes and permissions, public views,
 * hidden private resources.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { normalizeScopes } from '../src/auth/scopes';
import { hashToken, tokenKindOf } from '../src/auth/tokens';
import { epochSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';

const test = suite('auth');
let s: TestServer;
let classic: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'oscar']) s.user(login);
	s.org('acme', 'olivia');
	s.org('globex', 'oscar');
	s.member('acme', 'mike');
	classic = s.fullToken('olivia');
	await s.request('POST', '/orgs/acme/repos', { token: classic, body: { name: 'hidden', private: true } });
	await s.request('POST', '/orgs/acme/teams', { token: classic, body: { name: 'Closed', privacy: 'closed' } });
});
test.after(() => s.close());

test('header forms – Bearer, token, any case, Basic password', async () => {
	for (const header of [`Bearer ${classic}`, `token ${classic}`, `bearer ${classic}`, `TOKEN ${classic}`]) {
		const res = await s.get('/user', undefined, { Authorization: header });
		assert.is(res.status, 200, `~> ${header.split(' ')[0]} accepted`);
	}
	const basic = Buffer.from(`olivia:${classic}`).toString('base64');
	assert.is((await s.get('/user', undefined, { Authorization: `Basic ${basic}` })).status, 200);
});

test('token kinds – distinct prefixes, checksums, stored only as hashes', async () => {
	const kinds = {
		classic: s.token('olivia'),
		'fine-grained': s.token('olivia', { kind: 'fine-grained' }),
		oauth: s.token('olivia', { kind: 'oauth' }),
		'user-to-server': s.token('olivia', { kind: 'user-to-server', org: 'acme' }),
		installation: s.token('olivia', { kind: 'installation', org: 'acme' }),
	};
	const prefixes = Object.values(kinds).map((t) => t.split('_')[0]);
	assert.equal(prefixes, ['ghp', 'github', 'gho', 'ghu', 'ghs']);
	assert.is(kinds['fine-grained'].length, 93);
	assert.is(kinds.classic.length, 40);
	for (const [kind, token] of Object.entries(kinds)) assert.is(tokenKindOf(token), kind);
	const typo = `${classic.slice(0, 10)}${classic[10] === 'A' ? 'B' : 'A'}${classic.slice(11)}`;
	assert.is(tokenKindOf(typo), null, '~> the checksum catches a mistyped token');
	const res = await s.get('/user', typo);
	assert.is(res.status, 401);
	assert.is(res.body.message, 'Bad credentials');
	const stored = s.app.db.prepare('SELECT count(*) FROM tokens WHERE token_hash = ?').pluck().get(hashToken(classic));
	assert.is(stored, 1);
	const plain = s.app.db.prepare("SELECT count(*) FROM tokens WHERE CAST(token_hash AS TEXT) LIKE 'ghp_%'").pluck().get();
	assert.is(plain, 0, '~> no token is stored in clear');
	for (const token of Object.values(kinds)) {
		assert.not.equal((await s.get('/orgs/acme', token)).status, 401);
	}
});

test('unknown, revoked and expired tokens are 401 "Bad credentials", even on public routes', async () => {
	const unknown = s.token('olivia').replace(/^ghp_/, 'ghp_');
	s.app.db.prepare('DELETE FROM tokens WHERE token_hash = ?').run(hashToken(unknown));
	assert.is((await s.get('/orgs/acme', unknown)).status, 401);
	const revoked = s.token('olivia');
	const row = s.app.db.prepare('SELECT id FROM tokens WHERE token_hash = ?').get(hashToken(revoked)) as { id: number };
	s.app.tokens.revoke(row.id, epochSeconds(s.clock.now));
	const res = await s.get('/orgs/acme', revoked);
	assert.is(res.status, 401);
	assert.is(res.body.message, 'Bad credentials');
	assert.is(res.body.status, '401');
	const expiring = s.token('olivia', { kind: 'fine-grained' });
	s.app.db.prepare('UPDATE tokens SET expires_at = ? WHERE token_hash = ?').run(epochSeconds(s.clock.now) - 1, hashToken(expiring));
	assert.is((await s.get('/user', expiring)).status, 401);
});

test('installation tokens expire after 60 minutes', async () => {
	const token = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { members: 'read' } });
	assert.is((await s.get('/orgs/acme/teams', token)).status, 200);
	s.clock.advance(59 * 60 * 1000);
	assert.is((await s.get('/orgs/acme/teams', token)).status, 200);
	s.clock.advance(2 * 60 * 1000);
	const res = await s.get('/orgs/acme/teams', token);
	assert.is(res.status, 401);
	assert.is(res.body.message, 'Bad credentials');
});

test('requires authentication – 401 "Requires authentication" without a token', async () => {
	const res = await s.get('/orgs/acme/teams');
	assert.is(res.status, 401);
	assert.is(res.body.message, 'Requires authentication');
});

test('scopes – X-OAuth-Scopes for classic and OAuth tokens; missing scope is 403', async () => {
	const narrow = s.token('olivia', { scopes: ['read:org', 'repo'] });
	const res = await s.get('/orgs/acme/teams', narrow);
	assert.is(res.status, 200);
	assert.is(res.headers.get('x-oauth-scopes'), 'read:org, repo');
	assert.is(res.headers.get('x-accepted-oauth-scopes'), 'read:org, write:org, admin:org');
	const parent = s.token('olivia', { scopes: ['admin:org'] });
	assert.is((await s.get('/orgs/acme/teams', parent)).status, 200, '~> admin:org implies read:org');
	const none = s.token('olivia', { kind: 'oauth', scopes: [] });
	const denied = await s.get('/orgs/acme/teams', none);
	assert.is(denied.status, 403);
	assert.match(denied.body.message, 'read:org');
	assert.is(denied.headers.get('x-oauth-scopes'), '');
	const fg = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'read' } });
	assert.is((await s.get('/orgs/acme/teams', fg)).headers.get('x-oauth-scopes'), null, '~> not for fine-grained tokens');
});

test('scopes – classic tokens need repo for private repositories', async () => {
	const noRepo = s.token('olivia', { scopes: ['read:org'] });
	assert.is((await s.get('/repos/acme/hidden', noRepo)).status, 404);
	assert.is((await s.get('/repos/acme/hidden', classic)).status, 200);
});

test('permissions – levels: write implies read; a missing permission is 403 with the accepted permissions', async () => {
	const write = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } });
	assert.is((await s.get('/orgs/acme/teams', write)).status, 200, '~> write implies read');
	const other = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'admin' } });
	const res = await s.get('/orgs/acme/teams', other);
	assert.is(res.status, 403);
	assert.is(res.body.message, 'Resource not accessible by personal access token');
	assert.is(res.headers.get('x-accepted-github-permissions'), 'members=read');
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { contents: 'read' } });
	const byApp = await s.get('/orgs/acme/teams', app);
	assert.is(byApp.status, 403);
	assert.is(byApp.body.message, 'Resource not accessible by integration');
});

test('permissions – tokens reach only their resource owner', async () => {
	const acmeApp = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { members: 'read' } });
	assert.is((await s.get('/orgs/acme/teams', acmeApp)).status, 200);
	assert.is((await s.get('/orgs/globex/teams', acmeApp)).status, 403);
	const uat = s.token('mike', { kind: 'user-to-server', org: 'acme', permissions: { members: 'read' } });
	assert.is((await s.get('/orgs/acme/teams', uat)).status, 200);
	assert.is((await s.get('/orgs/acme/teams/closed', uat)).status, 200);
	const personal = s.token('mike', { kind: 'fine-grained', permissions: { members: 'read' } });
	assert.is((await s.get('/orgs/acme/teams', personal)).status, 403, '~> a token owned by the user does not reach the organization');
});

test('public view – a token without the permission sees what anonymous callers see', async () => {
	await s.request('PUT', '/orgs/acme/public_members/mike', { token: s.fullToken('mike') });
	const member = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'read' } });
	const full = await s.get('/orgs/acme/members', member);
	assert.equal(full.body.map((m: any) => m.login).sort(), ['mike', 'olivia']);
	const withoutPermission = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: {} });
	const limited = await s.get('/orgs/acme/members', withoutPermission);
	assert.is(limited.status, 200);
	assert.equal(
		limited.body.map((m: any) => m.login),
		['mike'],
		'~> only public members',
	);
});

test('hidden resources – a private repository the caller cannot see is 404, not 403', async () => {
	const outsider = s.fullToken('oscar');
	const res = await s.get('/repos/acme/hidden', outsider);
	assert.is(res.status, 404);
	assert.is((await s.get('/repos/acme/hidden')).status, 404);
	assert.is((await s.get('/repos/acme/hidden', s.fullToken('mike'))).status, 200, '~> members read through the base permission');
});

test('last_used_at – recorded by the usage-flush job, at most once a minute', async () => {
	const token = s.token('mike');
	await s.get('/user', token);
	const read = () => s.app.db.prepare('SELECT last_used_at FROM tokens WHERE token_hash = ?').pluck().get(hashToken(token));
	assert.is(read(), null, '~> not written on the request path');
	s.app.flushCounters();
	const row = s.app.db.prepare('SELECT last_used_at FROM tokens WHERE token_hash = ?').get(hashToken(token)) as { last_used_at: number };
	assert.is(row.last_used_at, epochSeconds(s.clock.now));
	const first = read();
	s.clock.advance(30_000);
	await s.get('/user', token);
	s.app.flushCounters();
	assert.is(read(), first, '~> within the minute nothing new is written');
	s.clock.advance(31_000);
	await s.get('/user', token);
	s.app.flushCounters();
	assert.is(read(), epochSeconds(s.clock.now));
});

test('tokens bound to an organization – no repositories in the personal account (code review)', async () => {
	const permissions = { administration: 'write', contents: 'read' } as const;
	const acmeOnly = s.token('mike', { kind: 'fine-grained', org: 'acme', permissions });
	const personal = await s.request('POST', '/user/repos', { token: acmeOnly, body: { name: 'escape' } });
	assert.is(personal.status, 403);
	assert.is(personal.body.message, 'Resource not accessible by personal access token');
	assert.is((await s.get('/repos/mike/escape', s.fullToken('mike'))).status, 404, '~> nothing created');
	assert.is((await s.request('POST', '/orgs/acme/repos', { token: acmeOnly, body: { name: 'inside' } })).status, 201);
	const fork = await s.request('POST', '/repos/acme/inside/forks', { token: acmeOnly, body: {} });
	assert.is(fork.status, 403, '~> the default fork target is the personal account');
	assert.is(fork.body.message, 'Resource not accessible by personal access token');
	assert.is((await s.get('/repos/mike/inside', s.fullToken('mike'))).status, 404);
	const forkInOrg = await s.request('POST', '/repos/acme/inside/forks', {
		token: acmeOnly,
		body: { organization: 'acme', name: 'inside-fork' },
	});
	assert.is(forkInOrg.status, 202, '~> forking into the organization it reaches is fine');
	const uts = s.token('mike', { kind: 'user-to-server', org: 'acme', permissions });
	const byApp = await s.request('POST', '/user/repos', { token: uts, body: { name: 'escape' } });
	assert.is(byApp.status, 403);
	assert.is(byApp.body.message, 'Resource not accessible by integration');
	const own = s.token('mike', { kind: 'fine-grained', permissions });
	assert.is(
		(await s.request('POST', '/user/repos', { token: own, body: { name: 'mine' } })).status,
		201,
		'~> a token for the personal account',
	);
});

test('scopes – public_repo creates public repositories only (code review)', async () => {
	const publicOnly = s.token('olivia', { scopes: ['public_repo', 'read:org'] });
	const cases: Array<[string, Record<string, unknown>]> = [
		['/user/repos', { name: 'scoped-private', private: true }],
		['/user/repos', { name: 'scoped-visibility', visibility: 'private' }],
		['/orgs/acme/repos', { name: 'scoped-org', private: true }],
		['/orgs/acme/repos', { name: 'scoped-internal', visibility: 'internal' }],
	];
	for (const [path, body] of cases) {
		const res = await s.request('POST', path, { token: publicOnly, body });
		assert.is(res.status, 403, `~> ${path} ${JSON.stringify(body)}`);
		assert.match(res.body.message, 'It needs one of these scopes: repo');
	}
	assert.is((await s.get('/repos/olivia/scoped-private', classic)).status, 404, '~> nothing created');
	assert.is((await s.request('POST', '/user/repos', { token: publicOnly, body: { name: 'scoped-public' } })).status, 201);
	const fork = await s.request('POST', '/repos/acme/hidden/forks', { token: publicOnly, body: { name: 'hidden-fork' } });
	assert.is(fork.status, 404, '~> a private source stays hidden from a token without repo');
	assert.is((await s.get('/repos/olivia/hidden-fork', classic)).status, 404);
	assert.is(
		(
			await s.request('POST', '/user/repos', {
				token: s.token('olivia', { scopes: ['repo'] }),
				body: { name: 'scoped-private', private: true },
			})
		).status,
		201,
	);
});

test('scopes – names of Object.prototype are unknown scopes (code review)', () => {
	for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
		assert.throws(() => normalizeScopes([name]), /unknown scope/, `~> ${name}`);
	}
	assert.equal(normalizeScopes(['read:org', 'admin:org', 'repo']), ['admin:org', 'repo']);
});

// ----- finding 1 of the hostile-input review: token boundaries (regressions)

test('token boundaries – bound tokens read public repositories of other accounts, and change nothing there (regression)', async () => {
	const owner = s.fullToken('oscar');
	await s.request('POST', '/orgs/globex/repos', { token: owner, body: { name: 'open', has_issues: true } });
	const issue = await s.request('POST', '/repos/globex/open/issues', { token: owner, body: { title: 'Existing' } });
	assert.is(issue.status, 201);
	const kinds = [
		[
			'fine-grained',
			s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'write', contents: 'write' } }),
			'Resource not accessible by personal access token',
		],
		[
			'user-to-server',
			s.token('olivia', { kind: 'user-to-server', org: 'acme', permissions: { issues: 'write' } }),
			'Resource not accessible by integration',
		],
		[
			'installation',
			s.token('olivia', { kind: 'installation', org: 'acme', permissions: { issues: 'write' } }),
			'Resource not accessible by integration',
		],
	] as const;
	for (const [kind, token, message] of kinds) {
		assert.is((await s.get('/repos/globex/open/issues', token)).status, 200, `~> ${kind} reads another account's public issues`);
		const created = await s.request('POST', '/repos/globex/open/issues', { token, body: { title: 'Spam' } });
		assert.is(created.status, 403, `~> ${kind} opens no issue on another account's repository`);
		assert.is(created.body.message, message);
		const comment = await s.request('POST', `/repos/globex/open/issues/${issue.body.number}/comments`, {
			token,
			body: { body: 'spam' },
		});
		assert.is(comment.status, 403, `~> ${kind} comments nowhere but on its own account`);
	}
	const list = await s.get('/repos/globex/open/issues', owner);
	assert.equal(
		list.body.map((i: any) => i.title),
		['Existing'],
		'~> nothing was written',
	);
	// Its own account: allowed.
	await s.request('POST', '/orgs/acme/repos', { token: classic, body: { name: 'tracker' } });
	const own = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'write' } });
	assert.is((await s.request('POST', '/repos/acme/tracker/issues', { token: own, body: { title: 'Mine' } })).status, 201);
});

test('token boundaries – classic scopes as GitHub documents them: public_repo, repo_deployment, security_events (regression)', async () => {
	const mikeToken = (scopes: string[]) => s.token('mike', { scopes });
	// public_repo: issues and comments on any public repository; private ones stay invisible.
	const publicRepo = mikeToken(['public_repo']);
	const issue = await s.request('POST', '/repos/globex/open/issues', { token: publicRepo, body: { title: 'From public_repo' } });
	assert.is(issue.status, 201, '~> public_repo opens issues on public repositories');
	assert.is(
		(await s.request('POST', `/repos/globex/open/issues/${issue.body.number}/comments`, { token: publicRepo, body: { body: 'hi' } }))
			.status,
		201,
	);
	assert.is(
		(
			await s.request('POST', '/repos/acme/hidden/issues', {
				token: s.token('olivia', { scopes: ['public_repo'] }),
				body: { title: 'x' },
			})
		).status,
		404,
	);
	const noScope = await s.request('POST', '/repos/globex/open/issues', { token: mikeToken([]), body: { title: 'x' } });
	assert.is(noScope.status, 403, '~> a token without repo or public_repo writes nothing');
	// repo_deployment: deployments on private repositories the user can push to.
	const deployer = s.token('olivia', { scopes: ['repo_deployment'] });
	const deployment = await s.request('POST', '/repos/acme/hidden/deployments', {
		token: deployer,
		body: { ref: 'main', required_contexts: [] },
	});
	assert.ok([201, 409, 422].includes(deployment.status), `~> repo_deployment reaches the private repository (${deployment.status})`);
	assert.is((await s.get('/repos/acme/hidden/deployments', deployer)).status, 200);
	assert.is((await s.get('/repos/acme/hidden/issues', deployer)).status, 404, '~> but not its issues');
	// security_events: Dependabot alerts and dismissal requests of private repositories.
	const security = s.token('olivia', { scopes: ['security_events'] });
	assert.is(
		(await s.get('/repos/acme/hidden/dependabot/alerts', security)).status,
		200,
		'~> security_events reads alerts of a private repository',
	);
	assert.is((await s.get('/repos/acme/hidden/issues', security)).status, 404, '~> and nothing else there');
});

test.run();
