/**
 * The spec's permission matrix, read from the spec's own text (test/helpers/matrix-text.ts), against
 * the encoded matrix (src/auth/permission-matrix.ts) and the server: every row the text names is
 * encoded with the text's permission, token kinds and `*`; every row is a route (or listed below as
 * not built yet, a list that may only shrink); and over HTTP, for every route, in an organization of
 * its own: the header names the permission, a member's fine-grained token without it is refused
 * with 403 (on a route anonymous callers may read: answered as them), and the owner's fine-grained
 * token holding it succeeds (2xx).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../src/api/apps/service';
import { installOnOrganization } from '../src/api/enterprise-apps/service';
import { importExternalGroups } from '../src/api/external-groups/service';
import { MATRIX } from '../src/auth/permission-matrix';
import { isoSeconds } from '../src/time';
import { formatAcceptedPermissions, type GrantedPermissions } from '../src/auth/permissions';
import { MESSAGES } from '../src/http/errors';
import { buildRoutes } from '../src/server';
import { matrixSection, parseMatrix, type TextRow } from './helpers/matrix-text';
import { startServer, type TestServer } from './helpers/server';

const test = suite('permission matrix (the spec text)');
const section = matrixSection();
const rows: TextRow[] = section ? parseMatrix(section) : [];
const routes = buildRoutes();
const id = (row: { method: string; path: string }) => `${row.method} ${row.path}`;
const implemented = (row: TextRow) => routes.some((r) => r.method === row.method && r.path === row.path);

/**
 * Rows of the matrix no route serves yet (issue 13 builds them). The test fails when a row here is
 * built (take it out) or when a row not here is missing (a route was lost).
 */
const PENDING = new Set<string>([
	'DELETE /orgs/{org}',
	'PUT /orgs/{org}/actions/oidc/customization/sub',
	'PUT /orgs/{org}/actions/permissions',
	'PUT /orgs/{org}/actions/permissions/artifact-and-log-retention',
	'PUT /orgs/{org}/actions/permissions/fork-pr-contributor-approval',
	'PUT /orgs/{org}/actions/permissions/fork-pr-workflows-private-repos',
	'PUT /orgs/{org}/actions/permissions/repositories',
	'PUT /orgs/{org}/actions/permissions/selected-actions',
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners',
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners/repositories',
	'PUT /orgs/{org}/actions/permissions/workflow',
	'PUT /orgs/{org}/actions/permissions/repositories/{repository_id}',
	'DELETE /orgs/{org}/actions/permissions/repositories/{repository_id}',
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners/repositories/{repository_id}',
	'DELETE /orgs/{org}/actions/permissions/self-hosted-runners/repositories/{repository_id}',
	'GET /orgs/{org}/bypass-requests/push-rules',
	'POST /orgs/{org}/code-security/configurations',
	'DELETE /orgs/{org}/code-security/configurations/detach',
	'PATCH /orgs/{org}/code-security/configurations/{configuration_id}',
	'DELETE /orgs/{org}/code-security/configurations/{configuration_id}',
	'POST /orgs/{org}/code-security/configurations/{configuration_id}/attach',
	'PUT /orgs/{org}/code-security/configurations/{configuration_id}/defaults',
	'PATCH /orgs/{org}/dependabot/repository-access',
	'PUT /orgs/{org}/dependabot/repository-access/default-level',
	'GET /orgs/{org}/rulesets',
	'POST /orgs/{org}/rulesets',
	'GET /orgs/{org}/rulesets/rule-suites',
	'GET /orgs/{org}/rulesets/rule-suites/{rule_suite_id}',
	'GET /orgs/{org}/rulesets/{ruleset_id}',
	'PUT /orgs/{org}/rulesets/{ruleset_id}',
	'DELETE /orgs/{org}/rulesets/{ruleset_id}',
	'GET /orgs/{org}/rulesets/{ruleset_id}/history',
	'GET /orgs/{org}/rulesets/{ruleset_id}/history/{version_id}',
	'PATCH /orgs/{org}/secret-scanning/pattern-configurations',
	'PUT /orgs/{org}/security-managers/teams/{team_slug}',
	'DELETE /orgs/{org}/security-managers/teams/{team_slug}',
	'PUT /orgs/{org}/settings/immutable-releases',
	'PUT /orgs/{org}/settings/immutable-releases/repositories',
	'PUT /orgs/{org}/settings/immutable-releases/repositories/{repository_id}',
	'DELETE /orgs/{org}/settings/immutable-releases/repositories/{repository_id}',
	'POST /orgs/{org}/{security_product}/{enablement}',
	'GET /orgs/{org}/actions/cache/usage',
	'GET /orgs/{org}/actions/cache/usage-by-repository',
	'GET /orgs/{org}/actions/oidc/customization/sub',
	'GET /orgs/{org}/actions/permissions',
	'GET /orgs/{org}/actions/permissions/artifact-and-log-retention',
	'GET /orgs/{org}/actions/permissions/fork-pr-contributor-approval',
	'GET /orgs/{org}/actions/permissions/fork-pr-workflows-private-repos',
	'GET /orgs/{org}/actions/permissions/repositories',
	'GET /orgs/{org}/actions/permissions/selected-actions',
	'GET /orgs/{org}/actions/permissions/self-hosted-runners',
	'GET /orgs/{org}/actions/permissions/self-hosted-runners/repositories',
	'GET /orgs/{org}/actions/permissions/workflow',
	'GET /orgs/{org}/code-security/configurations',
	'GET /orgs/{org}/code-security/configurations/defaults',
	'GET /orgs/{org}/code-security/configurations/{configuration_id}',
	'GET /orgs/{org}/code-security/configurations/{configuration_id}/repositories',
	'GET /orgs/{org}/dependabot/repository-access',
	'GET /orgs/{org}/secret-scanning/pattern-configurations',
	'GET /orgs/{org}/security-managers',
	'GET /orgs/{org}/settings/billing/advanced-security',
	'GET /orgs/{org}/settings/immutable-releases',
	'GET /orgs/{org}/settings/immutable-releases/repositories',
	'POST /orgs/{org}/actions/runner-groups',
	'PATCH /orgs/{org}/actions/runner-groups/{runner_group_id}',
	'DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}',
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories',
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories/{repository_id}',
	'DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories/{repository_id}',
]);

/**
 * Bodies of write rows whose 2xx needs one (GitHub's required fields), by row; `ctx` gives the
 * fixture of the row's organization.
 */
const BODIES: Record<string, (ctx: Fixture) => unknown> = {
	'POST /orgs/{org}/teams': () => ({ name: 'Second crew' }),
	'PATCH /orgs/{org}/teams/{team_slug}': () => ({ description: 'renamed' }),
	'PATCH /teams/{team_id}': () => ({ name: 'Crew' }),
	'PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': () => ({ permission: 'push' }),
	'PUT /teams/{team_id}/repos/{owner}/{repo}': () => ({ permission: 'push' }),
	'PUT /orgs/{org}/memberships/{username}': () => ({ role: 'member' }),
	'PATCH /user/memberships/orgs/{org}': () => ({ state: 'active' }),
	'PATCH /orgs/{org}/teams/{team_slug}/external-groups': (ctx) => ({ group_id: Number(ctx.params.group_id) }),
	// The fixture's app is installed already (on app and lib): installing it again answers 200.
	'POST /enterprises/{enterprise}/apps/organizations/{org}/installations': (ctx) => ({ client_id: ctx.params.client_id, repository_selection: 'selected', repositories: ['app'] }),
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories': () => ({ repository_selection: 'selected', repositories: ['app'] }),
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories/add': () => ({ repositories: ['app'] }),
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories/remove': () => ({ repositories: ['lib'] }),
};

/** Who calls a row, when not the organization's owner (olivia): the row acts on the caller. */
const CALLER: Record<string, 'mike'> = {
	// PUT/DELETE public_members/{username}: only the user themself may publicize their membership.
	'PUT /orgs/{org}/public_members/{username}': 'mike',
	'DELETE /orgs/{org}/public_members/{username}': 'mike',
	'PATCH /user/memberships/orgs/{org}': 'mike',
	'GET /user/memberships/orgs/{org}': 'mike',
};

interface Fixture {
	org: string;
	params: Record<string, string>;
}

let s: TestServer;
let counter = 0;

/**
 * A fresh organization for one row: owner olivia, member mike (in team crew), repo app, outsider
 * nina; for enterprise rows, in an enterprise olivia owns, with an app installed on app and lib.
 */
async function fixture(row: TextRow): Promise<Fixture> {
	const org = `org${++counter}`;
	const enterprise = row.path.startsWith('/enterprises/') ? `ent${counter}` : null;
	if (enterprise) s.enterprise(enterprise, 'olivia');
	s.org(org, 'olivia', enterprise ? { enterprise } : {});
	s.member(org, 'mike');
	const owner = s.fullToken('olivia');
	const repo = await s.request('POST', `/orgs/${org}/repos`, { token: owner, body: { name: 'app' } });
	assert.is(repo.status, 201, `~> ${id(row)}: fixture repository`);
	const team = await s.request('POST', `/orgs/${org}/teams`, { token: owner, body: { name: 'Crew', privacy: 'closed' } });
	assert.is(team.status, 201, `~> ${id(row)}: fixture team`);
	const membership = await s.request('PUT', `/orgs/${org}/teams/crew/memberships/mike`, { token: owner, body: {} });
	assert.is(membership.status, 200, `~> ${id(row)}: fixture team membership`);
	const teamRepo = await s.request('PUT', `/orgs/${org}/teams/crew/repos/${org}/app`, { token: owner, body: { permission: 'pull' } });
	assert.is(teamRepo.status, 204, `~> ${id(row)}: fixture team repository`);
	// The user a row acts on: mike, except where the row invites someone new: nina, not a member.
	const username = id(row) === 'PUT /orgs/{org}/memberships/{username}' ? 'nina' : 'mike';
	if (row.method === 'DELETE' && /outside_collaborators/.test(row.path)) {
		// Converting the member makes an outside collaborator to remove.
		const converted = await s.request('PUT', `/orgs/${org}/outside_collaborators/mike`, { token: owner });
		assert.ok(converted.status < 300, `~> ${id(row)}: fixture outside collaborator (${converted.status})`);
	}
	if (row.method !== 'PUT' && /public_members\/\{username\}/.test(row.path)) {
		await s.request('PUT', `/orgs/${org}/public_members/mike`, { token: s.fullToken('mike') });
	}
	// {role_id}: a custom repository role of the organization, or the predefined all_repo_write.
	let roleId = '8134';
	if (row.path.includes('/custom-repository-roles/')) {
		const role = await s.request('POST', `/orgs/${org}/custom-repository-roles`, {
			token: owner,
			body: { name: 'Triager', base_role: 'read', permissions: ['add_label'] },
		});
		assert.is(role.status, 201, `~> ${id(row)}: fixture custom role`);
		roleId = String(role.body.id);
	}
	// {group_id}: an external group of the organization (imported; mike is its member).
	let groupId = '0';
	if (row.path.includes('external-group')) {
		const [group] = importExternalGroups(s.app, s.app.stores.accounts.organization(org)!, [{ group_name: 'Engineering', members: [{ member_login: 'mike' }] }], isoSeconds(s.clock.now));
		groupId = String(group.group_id);
	}
	// {installation_id}: an app of the organization installed on app and lib (enterprise rows).
	let installationId = '0';
	let clientId = '';
	if (enterprise) {
		const lib = await s.request('POST', `/orgs/${org}/repos`, { token: owner, body: { name: 'lib' } });
		assert.is(lib.status, 201, `~> ${id(row)}: fixture second repository`);
		const now = isoSeconds(s.clock.now);
		const orgRow = s.app.stores.accounts.organization(org)!;
		const made = createApp(s.app, { name: `Installer ${counter}`, owner: orgRow, permissions: { contents: 'read' } }, now);
		const installed = installOnOrganization(s.app, orgRow, { client_id: made.app.client_id, repository_selection: 'selected', repositories: ['app', 'lib'] }, null, now);
		installationId = String(installed.installation.id);
		clientId = made.app.client_id;
	}
	return {
		org,
		params: {
			enterprise: enterprise ?? '',
			installation_id: installationId,
			client_id: clientId,
			group_id: groupId,
			role_id: roleId,
			org,
			owner: org,
			repo: 'app',
			team_slug: 'crew',
			team_id: String(team.body.id),
			username,
			repository_id: String(repo.body.id),
			organization_id: String(s.app.stores.accounts.byLogin(org)!.id),
		},
	};
}

function concrete(path: string, params: Record<string, string>): string {
	return path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
		if (!(name in params)) throw new Error(`no fixture for {${name}} in ${path}`);
		return params[name];
	});
}

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nina']) s.user(login);
});
test.after(() => s.close());

test('the spec text is beside the project', () => {
	if (!section) console.log('  (skipped: ../shared/spec/000_18014e9f1c9e9550.txt is not beside this checkout)');
	else assert.ok(rows.length >= 140, `~> the matrix names ${rows.length} rows`);
});

test('every row of the text is encoded with its permission, token kinds and mark, and nothing else is', () => {
	if (!section) return;
	const encoded = new Map(MATRIX.map((row) => [id(row), row]));
	for (const row of rows) {
		const mine = encoded.get(id(row));
		assert.ok(mine, `~> ${id(row)} is in src/auth/permission-matrix.ts`);
		assert.is(mine!.multiple, row.multiple, `~> ${id(row)}: the spec's * mark`);
		assert.is(mine!.rejects.includes('installation'), row.rejectsInstallation, `~> ${id(row)}: installation tokens`);
		if (!row.multiple) assert.equal(mine!.policy, [{ [row.key]: row.level }], `~> ${id(row)}: ${row.key} ${row.level}`);
		else assert.ok((mine!.policy[0] as Record<string, string>)[row.key] !== undefined || Object.keys(mine!.policy[0]).length > 1, `~> ${id(row)}: names its permissions`);
	}
	const named = new Set(rows.map(id));
	for (const row of MATRIX) assert.ok(named.has(id(row)), `~> ${id(row)} is named by the spec's text`);
});

test('every row is a route, but those not built yet', () => {
	if (!section) return;
	for (const row of rows) {
		if (PENDING.has(id(row))) assert.not.ok(implemented(row), `~> ${id(row)} is built: take it out of PENDING`);
		else assert.ok(implemented(row), `~> ${id(row)} is a route`);
	}
});

test('every route over HTTP: the header, 403 for a member without the permission, 2xx for the owner with it', async () => {
	if (!section) return;
	for (const row of rows.filter(implemented)) {
		const name = id(row);
		const encoded = MATRIX.find((m) => id(m) === name)!;
		const grant: GrantedPermissions = { ...encoded.policy[0] };
		const ctx = await fixture(row);
		const path = concrete(row.path, ctx.params);
		const body = BODIES[name]?.(ctx) ?? (row.method === 'GET' || row.method === 'DELETE' ? undefined : {});

		const without = s.token('mike', { kind: 'fine-grained', org: ctx.org, permissions: {} });
		const refused = await s.request(row.method, path, { token: without, body });
		const header = formatAcceptedPermissions(encoded.policy);
		assert.is(refused.headers.get('x-accepted-service-permissions'), header, `~> ${name}: X-Accepted-Service-Permissions`);
		assert.is(refused.headers.get('x-accepted-github-permissions'), header, `~> ${name}: X-Accepted-GitHub-Permissions`);
		if (routes.find((r) => r.method === row.method && r.path === row.path)!.access === 'public') {
			// A route anonymous callers may read answers a token without the permission as them.
			assert.is.not(refused.body?.message, MESSAGES.byPersonalAccessToken, `~> ${name}: a member's token without ${header} gets the public view`);
		} else {
			assert.is(refused.status, 403, `~> ${name}: a member's token without ${header} is refused`);
			assert.is(refused.body.message, MESSAGES.byPersonalAccessToken, `~> ${name}: GitHub's message`);
		}

		const caller = CALLER[name] ?? 'olivia';
		const holder = s.token(caller, { kind: 'fine-grained', org: ctx.org, permissions: grant });
		const passed = await s.request(row.method, path, { token: holder, body });
		assert.ok(passed.status >= 200 && passed.status < 300, `~> ${name}: ${caller}'s token with ${header} succeeds (got ${passed.status} ${passed.text.slice(0, 200)})`);
	}
});

test.run();
