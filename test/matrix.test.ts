/**
 * The spec's permission matrix against the route table: every matrix row whose path Gitstead
 * implements is checked over HTTP — the route names the row's permissions in
 * X-Accepted-Service-Permissions / X-Accepted-GitHub-Permissions, a fine-grained token without
 * them is refused (or, on a public route, answered as a public view), a token holding them gets
 * past the permission check, and token kinds the row rejects are refused.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MATRIX, type MatrixRow } from '../src/auth/permission-matrix';
import { formatAcceptedPermissions, type GrantedPermissions } from '../src/auth/permissions';
import { MESSAGES } from '../src/http/errors';
import { buildRoutes } from '../src/server';
import { startServer, type TestServer } from './helpers/server';

const test = suite('permission matrix');
let s: TestServer;
const routes = buildRoutes();
const implemented = MATRIX.filter((row) => routes.some((r) => r.method === row.method && r.path === row.path));
let params: Record<string, string>;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike']) s.user(login);
	// acme in an enterprise olivia owns (the enterprise organization-installation rows).
	s.enterprise('bigco', 'olivia');
	s.org('acme', 'olivia', { enterprise: 'bigco' });
	s.member('acme', 'mike');
	const owner = s.fullToken('olivia');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
	const team = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Crew', privacy: 'closed' } });
	// A ruleset, its first version and a rule suite (a push to main the ruleset evaluates) for the rulesets rows.
	const ruleset = await s.request('POST', '/orgs/acme/rulesets', {
		token: owner,
		body: {
			name: 'main',
			enforcement: 'evaluate',
			conditions: { ref_name: { include: ['~DEFAULT_BRANCH'] }, repository_name: { include: ['~ALL'] } },
			rules: [{ type: 'required_signatures' }],
		},
	});
	const history = await s.request('GET', `/orgs/acme/rulesets/${ruleset.body.id}/history`, { token: owner });
	await s.request('PUT', '/repos/acme/app/contents/README.md', {
		token: owner,
		body: { message: 'readme', content: Buffer.from('hi').toString('base64') },
	});
	const suites = await s.request('GET', '/orgs/acme/rulesets/rule-suites', { token: owner });
	const configuration = await s.request('POST', '/orgs/acme/code-security/configurations', { token: owner, body: { name: 'Matrix' } });
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	// The organization's Default runner group: the walk's writes (empty bodies, DELETE) leave it as it is.
	const group = s.app.stores.runnerGroups.defaultGroup({ org: repo.owner_id });
	params = {
		org: 'acme',
		team_slug: 'crew',
		team_id: String(team.body.id),
		username: 'mike',
		owner: 'acme',
		repo: 'app',
		organization_id: String(s.app.stores.accounts.byLogin('acme')!.id),
		role_id: '8134',
		ruleset_id: String(ruleset.body.id),
		version_id: String(history.body[0].version_id),
		rule_suite_id: String(suites.body[0].id),
		configuration_id: String(configuration.body.id),
		security_product: 'secret_scanning',
		enablement: 'enable_all',
		repository_id: String(repo.id),
		runner_group_id: String(group.id),
		enterprise: 'bigco',
		// Objects inside the guarded resource that need not exist to test the permission check.
		group_id: '999999',
		installation_id: '999999',
	};
});

/** Rows that destroy their organization (DELETE /orgs/{org}): each request gets a fresh one, owned by olivia. */
const DESTRUCTIVE = new Set(['DELETE /orgs/{org}']);
let scratch = 0;

/** The organization a request of `row` acts on: acme, or a fresh one for a destructive row. */
function target(row: MatrixRow): string {
	if (!DESTRUCTIVE.has(`${row.method} ${row.path}`)) return 'acme';
	const login = `scratch-${++scratch}`;
	s.org(login, 'olivia');
	return login;
}
test.after(() => s.close());

function concrete(path: string, org = 'acme'): string {
	return path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
		if (name === 'org') return org;
		if (!(name in params)) throw new Error(`no fixture for {${name}}`);
		return params[name];
	});
}

/** All permissions of the row's first alternative, as a token grant. */
function grant(row: MatrixRow): GrantedPermissions {
	return { ...row.policy[0] };
}

test('the matrix covers the team, member and outside-collaborator routes', () => {
	const ids = implemented.map((row) => `${row.method} ${row.path}`);
	for (const id of [
		'GET /orgs/{org}/teams',
		'POST /orgs/{org}/teams',
		'PATCH /orgs/{org}/teams/{team_slug}',
		'PUT /teams/{team_id}/repos/{owner}/{repo}',
		'GET /teams/{team_id}/teams',
		'PUT /orgs/{org}/outside_collaborators/{username}',
		'PUT /orgs/{org}/public_members/{username}',
		'PATCH /user/memberships/orgs/{org}',
	]) {
		assert.ok(ids.includes(id), `~> ${id} is implemented and in the matrix`);
	}
	assert.ok(implemented.length >= 45, `~> ${implemented.length} matrix rows implemented`);
});

test('every implemented row: the route policy is the row', () => {
	for (const row of implemented) {
		const route = routes.find((r) => r.method === row.method && r.path === row.path)!;
		assert.equal(route.policy, row.policy, `~> ${row.method} ${row.path} policy`);
		for (const kind of row.rejects) assert.not.ok(route.tokenKinds.has(kind), `~> ${row.method} ${row.path} rejects ${kind}`);
	}
});

test('every implemented row over HTTP: header, refusal without the permission, passage with it', async () => {
	for (const row of implemented) {
		const route = routes.find((r) => r.method === row.method && r.path === row.path)!;
		const id = `${row.method} ${row.path}`;
		const body = row.method === 'GET' || row.method === 'DELETE' ? undefined : {};

		let org = target(row);
		let path = concrete(row.path, org);
		const without = s.token('olivia', { kind: 'fine-grained', org, permissions: {} });
		const refused = await s.request(row.method, path, { token: without, body });
		assert.is(refused.headers.get('x-accepted-service-permissions'), formatAcceptedPermissions(row.policy), `~> ${id} header`);
		assert.is(refused.headers.get('x-accepted-github-permissions'), formatAcceptedPermissions(row.policy), `~> ${id} GitHub header`);
		if (route.access === 'public') {
			assert.is.not(refused.body?.message, MESSAGES.byPersonalAccessToken, `~> ${id} is public: answered as a public view`);
		} else {
			assert.is(refused.status, 403, `~> ${id} without ${formatAcceptedPermissions(row.policy)} is 403`);
			assert.is(refused.body.message, MESSAGES.byPersonalAccessToken, `~> ${id} message`);
		}

		const holder = s.token('olivia', { kind: 'fine-grained', org, permissions: grant(row) });
		const passed = await s.request(row.method, path, { token: holder, body });
		assert.is.not(passed.body?.message, MESSAGES.byPersonalAccessToken, `~> ${id} with the permission passes the check`);

		if (DESTRUCTIVE.has(id)) {
			org = target(row);
			path = concrete(row.path, org);
		}
		const app = s.token('olivia', { kind: 'installation', org, permissions: grant(row) });
		const byApp = await s.request(row.method, path, { token: app, body });
		if (row.rejects.includes('installation')) {
			assert.is(byApp.status, 403, `~> ${id} rejects installation tokens`);
			assert.is(byApp.body.message, MESSAGES.byIntegration);
		} else {
			assert.is.not(byApp.body?.message, MESSAGES.byIntegration, `~> ${id} accepts installation tokens`);
		}
	}
});

test('routes outside the matrix declare their own policy', () => {
	for (const route of routes) {
		assert.ok(Array.isArray(route.policy), `~> ${route.method} ${route.path} has a policy`);
		assert.ok(route.tokenKinds.size > 0, `~> ${route.method} ${route.path} accepts some token kind`);
		assert.ok(['public', 'authenticated', 'site_admin'].includes(route.access));
	}
});

test.run();
