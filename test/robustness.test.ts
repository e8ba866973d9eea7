/**
 * No input yields a 500: every route, hostile path parameters and bodies, as an owner, a member
 * and anonymously. Also: a killed server loses no committed write.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildRoutes } from '../src/server';
import { startServer, type TestServer } from './helpers/server';

const test = suite('robustness');
let s: TestServer;
let tokens: Array<string | undefined>;

const JUNK_PARAMS = [
	'%ZZ',
	'x'.repeat(300),
	'0',
	'-1',
	'99999999999999999999',
	'__proto__',
	'constructor',
	"a'; DROP TABLE teams;--",
	'%2F..%2F',
];
const JUNK_BODIES: unknown[] = [
	{},
	[],
	'text',
	42,
	null,
	{ name: {}, privacy: 5, role: ['admin'], permission: null, parent_team_id: 'x', maintainers: [1, 2], repo_names: 'acme/app' },
	{ name: 'x'.repeat(10_000), description: 'y'.repeat(100_000) },
	{ __proto__: { polluted: true }, constructor: { prototype: {} }, name: '__proto__' },
	{ parent_team_id: 1e308, team_id: -1, async: 'maybe', state: 'active' },
];

test.before(async () => {
	// The walk makes thousands of requests per caller: a limit that does not run out before it ends.
	s = await startServer({ configure: (c) => (c.rate_limit.limits.core = 1_000_000) });
	s.user('olivia');
	s.user('mike');
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.org('scratch', 'olivia');
	const owner = s.fullToken('olivia');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Crew', privacy: 'closed' } });
	tokens = [owner, s.fullToken('mike'), undefined];
});
test.after(() => s.close());

const VALID: Record<string, string> = {
	org: 'acme',
	team_slug: 'crew',
	username: 'mike',
	owner: 'acme',
	repo: 'app',
	org_id: '0',
	team_id: '0',
};
/** Routes that destroy their organization: walked on a scratch organization, so acme stays. */
const SCRATCH_ORG: Record<string, string> = { 'DELETE /orgs/{org}': 'scratch' };

test('every route × hostile parameters and hostile bodies: never a 5xx', async () => {
	let requests = 0;
	const check = async (method: string, path: string, body: unknown, token: string | undefined) => {
		const raw = body === undefined ? undefined : JSON.stringify(body);
		const res = await s.request(method, path, { token, raw, headers: { 'Content-Type': 'application/json' } });
		requests++;
		assert.ok(res.status < 500, `~> ${method} ${path} ${raw?.slice(0, 60)} answered ${res.status}: ${res.text.slice(0, 200)}`);
		if (res.status >= 400) assert.type(res.body?.message, 'string', `~> ${method} ${path} error body`);
	};
	for (const route of buildRoutes()) {
		const firstBody = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
		for (const junk of JUNK_PARAMS) {
			for (const token of tokens) await check(route.method, route.path.replace(/\{[a-z_]+\}/g, junk), firstBody, token);
		}
		if (route.method === 'GET') continue;
		const scratch = SCRATCH_ORG[`${route.method} ${route.path}`];
		const path = route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => (name === 'org' && scratch ? scratch : VALID[name]) ?? 'x');
		for (const body of JUNK_BODIES) for (const token of tokens.slice(0, 2)) await check(route.method, path, body, token);
	}
	assert.ok(requests > 1500, `~> ${requests} requests`);
	assert.is(({} as Record<string, unknown>).polluted, undefined, '~> no prototype pollution');
	const list = await s.get('/orgs/acme/teams', tokens[0]);
	assert.is(list.status, 200, `~> still serving: ${list.text.slice(0, 200)}`);
});

test.run();
