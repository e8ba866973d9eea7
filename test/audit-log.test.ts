/**
 * GET /orgs/{org}/audit-log: entries derived from the domain-event log with who acted, through which
 * token and from where; the phrase's qualifiers, include, order, cursors and pages; retention; and
 * who may read it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { JOBS } from '../src/jobs';
import { startServer, type TestServer } from './helpers/server';

const test = suite('audit log');
let s: TestServer;
let olivia: string;
let reader: string;
let teamRequestId: string;
let fineGrained: string;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nina', 'zed']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	olivia = s.fullToken('olivia');
	reader = s.token('olivia', { scopes: ['read:audit_log'] });
	fineGrained = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { administration: 'write', members: 'write' } });
	const repo = await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'app', auto_init: true } });
	assert.is(repo.status, 201);
	const team = await s.request('POST', '/orgs/acme/teams', {
		token: fineGrained,
		body: { name: 'Crew' },
		headers: { 'User-Agent': 'provisioner/1.0' },
	});
	assert.is(team.status, 201);
	teamRequestId = team.headers.get('x-github-request-id')!;
	assert.is((await s.request('PUT', '/orgs/acme/teams/crew/memberships/mike', { token: olivia, body: {} })).status, 200);
	assert.is(
		(await s.request('PUT', '/orgs/acme/teams/crew/repos/acme/app', { token: olivia, body: { permission: 'push' } })).status,
		204,
	);
	// A push (git category) and something GitHub does not audit (an issue).
	const file = await s.request('PUT', '/repos/acme/app/contents/notes.md', {
		token: olivia,
		body: { message: 'notes', content: Buffer.from('hi').toString('base64') },
	});
	assert.is(file.status, 201);
	assert.is((await s.request('POST', '/repos/acme/app/issues', { token: olivia, body: { title: 'not audited' } })).status, 201);
});
test.after(() => s.close());

const log = (query = '', token = reader) => s.get(`/orgs/acme/audit-log${query}`, token);

test('entries are GitHub audit actions, newest first, with who acted through which token', async () => {
	const res = await log();
	assert.is(res.status, 200);
	const actions = res.body.map((e: { action: string }) => e.action);
	assert.equal(
		actions,
		['team.add_repository', 'team.add_member', 'team.add_member', 'team.create', 'repo.create', 'org.add_member'],
		'~> web events, newest first (the team’s creator joins it as maintainer); issues and pushes are not web audit events',
	);
	const fromCli = res.body.find((e: { action: string }) => e.action === 'org.add_member');
	assert.is(fromCli.user, 'mike');
	assert.not.ok('actor' in fromCli, '~> added from the command line: no actor, no token');
	assert.not.ok('token_id' in fromCli);
	const team = res.body.find((e: { action: string }) => e.action === 'team.create');
	assert.is(team.actor, 'olivia');
	assert.is(team.org, 'acme');
	assert.is(team.team, 'acme/crew');
	assert.is(team.operation_type, 'create');
	assert.is(team.programmatic_access_type, 'Fine-grained personal access token', '~> the token kind in GitHub’s words');
	assert.type(team.token_id, 'number');
	assert.is(team.request_id, teamRequestId, '~> the request id of the answer that made the change');
	assert.is(team.user_agent, 'provisioner/1.0');
	assert.is(team.actor_ip, '127.0.0.1');
	assert.type(team['@timestamp'], 'number');
	assert.ok(team['@timestamp'] > 1e12, '~> epoch milliseconds');
	assert.type(team._document_id, 'string');
	const member = res.body.find((e: { action: string }) => e.action === 'team.add_member');
	assert.is(member.user, 'mike', '~> the user acted on');
	const repo = res.body.find((e: { action: string }) => e.action === 'repo.create');
	assert.is(repo.repo, 'acme/app');
	assert.is(repo.programmatic_access_type, 'Personal access token (classic)');
	assert.ok(repo.token_scopes.includes('repo'), '~> a classic token’s scopes');
	assert.not.ok(JSON.stringify(res.body).includes(olivia), '~> no token in any entry');
});

test('include=git shows pushes; include=all both', async () => {
	const git = await log('?include=git');
	assert.equal(
		git.body.map((e: { action: string }) => e.action),
		['git.push', 'git.push'],
		'~> auto_init’s first commit and the contents API’s',
	);
	assert.is(git.body[0].repo, 'acme/app');
	assert.is(git.body[0].ref, 'refs/heads/main');
	const all = await log('?include=all');
	assert.is(all.body.length, 8);
	const invalid = await log('?include=everything');
	assert.is(invalid.status, 422);
});

test('phrase qualifiers: action, actor, user, repo, team, operation, created, negation', async () => {
	const actions = async (phrase: string) => {
		const res = await log(`?phrase=${encodeURIComponent(phrase)}`);
		assert.is(res.status, 200, `~> ${phrase}`);
		return res.body.map((e: { action: string }) => e.action);
	};
	assert.equal(
		await actions('action:team'),
		['team.add_repository', 'team.add_member', 'team.add_member', 'team.create'],
		'~> a category prefix',
	);
	assert.equal(await actions('action:repo.create'), ['repo.create']);
	assert.equal(await actions('action:repo.create action:team.create'), ['team.create', 'repo.create'], '~> one qualifier twice: either');
	assert.equal(await actions('user:mike'), ['team.add_member', 'org.add_member']);
	assert.equal(await actions('actor:olivia action:repo'), ['repo.create']);
	assert.equal(await actions('-actor:olivia'), ['org.add_member'], '~> entries without an actor are not excluded');
	assert.equal(await actions('-action:team'), ['repo.create', 'org.add_member']);
	assert.equal(await actions('repo:acme/app action:repo'), ['repo.create']);
	assert.equal(await actions('team:acme/crew'), ['team.add_repository', 'team.add_member', 'team.add_member', 'team.create']);
	assert.equal(await actions('operation:create action:repo'), ['repo.create']);
	const today = new Date(s.clock.now).toISOString().slice(0, 10);
	assert.is((await actions(`created:${today}`)).length, 6);
	assert.is((await actions(`created:>=${today}`)).length, 6);
	assert.equal(await actions('created:<2001-01-01'), []);
	assert.is((await actions(`created:2001-01-01..${today}`)).length, 6);
	assert.is((await actions(`created:2001-01-01..*`)).length, 6);
	const unknown = await log(`?phrase=${encodeURIComponent('colour:blue')}`);
	assert.is(unknown.status, 422);
	assert.is(unknown.body.errors[0].field, 'phrase');
	assert.match(unknown.body.errors[0].message, /action:/);
	const date = await log(`?phrase=${encodeURIComponent('created:yesterday')}`);
	assert.is(date.status, 422);
});

test('order, pages and cursors', async () => {
	const asc = await log('?order=asc');
	assert.equal(asc.body[0].action, 'org.add_member');
	const first = await log('?per_page=2');
	assert.is(first.body.length, 2);
	assert.match(first.headers.get('link') ?? '', /rel="next"/);
	const second = await log('?per_page=2&page=2');
	assert.equal(
		second.body.map((e: { action: string }) => e.action),
		['team.add_member', 'team.create'],
	);
	const after = await log(`?after=${first.body[1]._document_id}`);
	assert.equal(
		after.body.map((e: { action: string }) => e.action),
		['team.add_member', 'team.create', 'repo.create', 'org.add_member'],
		'~> after a cursor: the entries past it in the order',
	);
	const before = await log(`?before=${second.body[0]._document_id}`);
	assert.equal(
		before.body.map((e: { action: string }) => e.action),
		['team.add_repository', 'team.add_member'],
	);
	const bad = await log('?after=nonsense');
	assert.is(bad.status, 422);
	assert.is(bad.body.errors[0].field, 'after');
});

test('who may read it: owners with read:audit_log or organization administration (read)', async () => {
	assert.is((await log('', olivia)).status, 200, '~> a classic token with admin:org and the rest');
	const noScope = await log('', s.token('olivia', { scopes: ['read:org'] }));
	assert.is(noScope.status, 403, '~> read:org is not read:audit_log');
	const fg = await log(
		'',
		s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } }),
	);
	assert.is(fg.status, 200);
	assert.is(fg.headers.get('x-accepted-github-permissions'), 'organization_administration=read');
	const fgWithout = await log('', s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'read' } }));
	assert.is(fgWithout.status, 403);
	const member = await log('', s.token('mike', { scopes: ['read:audit_log', 'read:org'] }));
	assert.is(member.status, 403, '~> members see the organization but not its audit log');
	const outsider = await log('', s.token('zed', { scopes: ['read:audit_log'] }));
	assert.is(outsider.status, 404, '~> outside the organization: concealed');
	assert.is((await s.get('/orgs/acme/audit-log')).status, 401, '~> anonymous');
});

test('the default window is three months; entries older than audit_retention_days are pruned', async () => {
	s.clock.advance(100 * 86_400_000);
	assert.equal((await log()).body, [], '~> nothing in the last three months');
	assert.is((await log('?phrase=created:>=2001-01-01')).body.length, 6, '~> created: reaches back');
	s.clock.advance(81 * 86_400_000);
	await JOBS.find((job) => job.id === 'audit-log-prune')!.run(s.app);
	assert.equal((await log('?phrase=created:>=2001-01-01&include=all')).body, [], '~> 181 days later: pruned');
});

test.run();
