/**
 * The permission matrix, read from its text (test/fixtures/permission-matrix.md, parsed by test/helpers/matrix-text.ts), against
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

const test = suite('permission matrix (its text)');
const section = matrixSection();
const rows: TextRow[] = section ? parseMatrix(section) : [];
const routes = buildRoutes();
const id = (row: { method: string; path: string }) => `${row.method} ${row.path}`;
const implemented = (row: TextRow) => routes.some((r) => r.method === row.method && r.path === row.path);

/**
 * Rows of the matrix no route serves yet (to be built). The test fails when a row here is
 * built (take it out) or when a row not here is missing (a route was lost).
 */
const PENDING = new Set<string>([]);

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
	'POST /orgs/{org}/rulesets': () => RULESET,
	'PUT /orgs/{org}/rulesets/{ruleset_id}': () => ({ enforcement: 'active' }),
	'POST /orgs/{org}/code-security/configurations': () => ({ name: 'Second', description: 'Another configuration' }),
	'DELETE /orgs/{org}/code-security/configurations/detach': (ctx) => ({ selected_repository_ids: [Number(ctx.params.repository_id)] }),
	'PATCH /orgs/{org}/code-security/configurations/{configuration_id}': () => ({ description: 'Changed' }),
	'POST /orgs/{org}/code-security/configurations/{configuration_id}/attach': () => ({ scope: 'all' }),
	'PUT /orgs/{org}/code-security/configurations/{configuration_id}/defaults': () => ({ default_for_new_repos: 'all' }),
	'PATCH /orgs/{org}/dependabot/repository-access': (ctx) => ({ repository_ids_to_add: [Number(ctx.params.repository_id)] }),
	'PUT /orgs/{org}/dependabot/repository-access/default-level': () => ({ default_level: 'public' }),
	'PATCH /orgs/{org}/secret-scanning/pattern-configurations': () => ({
		pattern_config_version: null,
		provider_pattern_settings: [{ token_type: 'GITHUB_PERSONAL_ACCESS_TOKEN', push_protection_setting: 'enabled' }],
	}),
	'PUT /orgs/{org}/settings/immutable-releases': () => ({ enforced_repositories: 'all' }),
	'PATCH /orgs/{org}': () => ({ description: 'Anvils and more' }),
	'PUT /orgs/{org}/actions/permissions': () => ({ enabled_repositories: 'all', allowed_actions: 'all' }),
	'PUT /orgs/{org}/actions/permissions/repositories': (ctx) => ({ selected_repository_ids: [Number(ctx.params.repository_id)] }),
	'PUT /orgs/{org}/actions/permissions/selected-actions': () => ({
		github_owned_allowed: true,
		verified_allowed: true,
		patterns_allowed: ['docker/*'],
	}),
	'PUT /orgs/{org}/actions/permissions/workflow': () => ({ default_workflow_permissions: 'write' }),
	'PUT /orgs/{org}/actions/permissions/artifact-and-log-retention': () => ({ days: 30 }),
	'PUT /orgs/{org}/actions/permissions/fork-pr-contributor-approval': () => ({ approval_policy: 'all_external_contributors' }),
	'PUT /orgs/{org}/actions/permissions/fork-pr-workflows-private-repos': () => ({ run_workflows_from_fork_pull_requests: true }),
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners': () => ({ enabled_repositories: 'selected' }),
	'PUT /orgs/{org}/actions/permissions/self-hosted-runners/repositories': (ctx) => ({
		selected_repository_ids: [Number(ctx.params.repository_id)],
	}),
	'PUT /orgs/{org}/actions/oidc/customization/sub': () => ({ include_claim_keys: ['repo', 'context'] }),
	'POST /orgs/{org}/actions/runner-groups': () => ({ name: 'Builders' }),
	'PATCH /orgs/{org}/actions/runner-groups/{runner_group_id}': () => ({ name: 'Renamed' }),
	'PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories': (ctx) => ({
		selected_repository_ids: [Number(ctx.params.repository_id)],
	}),
	'PUT /orgs/{org}/settings/immutable-releases/repositories': (ctx) => ({ selected_repository_ids: [Number(ctx.params.repository_id)] }),
	'PATCH /orgs/{org}/teams/{team_slug}/external-groups': (ctx) => ({ group_id: Number(ctx.params.group_id) }),
	// The fixture's app is installed already (on app and lib): installing it again answers 200.
	'POST /enterprises/{enterprise}/apps/organizations/{org}/installations': (ctx) => ({
		client_id: ctx.params.client_id,
		repository_selection: 'selected',
		repositories: ['app'],
	}),
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories': () => ({
		repository_selection: 'selected',
		repositories: ['app'],
	}),
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories/add': () => ({
		repositories: ['app'],
	}),
	'PATCH /enterprises/{enterprise}/apps/organizations/{org}/installations/{installation_id}/repositories/remove': () => ({
		repositories: ['lib'],
	}),
};

/** A ruleset the rulesets rows create or find. */
const RULESET = {
	name: 'main',
	enforcement: 'evaluate',
	conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: [] } },
	rules: [{ type: 'required_signatures' }],
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
	// {ruleset_id}, {version_id}, {rule_suite_id}: a ruleset, its first version, and the rule suite of
	// a commit it evaluated.
	const rulesets: Record<string, string> = {};
	if (row.path.includes('/rulesets/')) {
		const ruleset = await s.request('POST', `/orgs/${org}/rulesets`, { token: owner, body: RULESET });
		assert.is(ruleset.status, 201, `~> ${id(row)}: fixture ruleset`);
		const history = await s.request('GET', `/orgs/${org}/rulesets/${ruleset.body.id}/history`, { token: owner });
		await s.request('PUT', `/repos/${org}/app/contents/README.md`, {
			token: owner,
			body: { message: 'readme', content: Buffer.from('hi').toString('base64') },
		});
		const suites = await s.request('GET', `/orgs/${org}/rulesets/rule-suites`, { token: owner });
		assert.ok(suites.body.length > 0, `~> ${id(row)}: fixture rule suite`);
		Object.assign(rulesets, {
			ruleset_id: String(ruleset.body.id),
			version_id: String(history.body[0].version_id),
			rule_suite_id: String(suites.body[0].id),
		});
	}
	// {configuration_id}: a code security configuration of the organization; the immutable-releases
	// repository rows need the policy on `selected`.
	let configurationId = '';
	if (row.path.includes('/code-security/configurations/{configuration_id}')) {
		const configuration = await s.request('POST', `/orgs/${org}/code-security/configurations`, {
			token: owner,
			body: { name: 'Matrix', description: 'For the walk' },
		});
		assert.is(configuration.status, 201, `~> ${id(row)}: fixture configuration`);
		configurationId = String(configuration.body.id);
	}
	if (row.path.includes('/settings/immutable-releases/repositories')) {
		const selected = await s.request('PUT', `/orgs/${org}/settings/immutable-releases`, {
			token: owner,
			body: { enforced_repositories: 'selected' },
		});
		assert.ok(selected.status < 300, `~> ${id(row)}: fixture immutable-releases policy (${selected.status})`);
	}
	// Actions settings: the repository lists need the `selected` policies; {runner_group_id}: a group
	// available to selected repositories.
	if (/\/actions\/permissions\/repositories/.test(row.path)) {
		await s.request('PUT', `/orgs/${org}/actions/permissions`, { token: owner, body: { enabled_repositories: 'selected' } });
	}
	if (/\/actions\/permissions\/selected-actions/.test(row.path)) {
		await s.request('PUT', `/orgs/${org}/actions/permissions`, {
			token: owner,
			body: { enabled_repositories: 'all', allowed_actions: 'selected' },
		});
	}
	if (/\/actions\/permissions\/self-hosted-runners\/repositories/.test(row.path)) {
		await s.request('PUT', `/orgs/${org}/actions/permissions/self-hosted-runners`, {
			token: owner,
			body: { enabled_repositories: 'selected' },
		});
	}
	let runnerGroupId = '';
	if (row.path.includes('{runner_group_id}')) {
		const group = await s.request('POST', `/orgs/${org}/actions/runner-groups`, {
			token: owner,
			body: { name: 'Printers', visibility: 'selected' },
		});
		assert.is(group.status, 201, `~> ${id(row)}: fixture runner group`);
		runnerGroupId = String(group.body.id);
	}
	// {group_id}: an external group of the organization (imported; mike is its member).
	let groupId = '0';
	if (row.path.includes('external-group')) {
		const [group] = importExternalGroups(
			s.app,
			s.app.stores.accounts.organization(org)!,
			[{ group_name: 'Engineering', members: [{ member_login: 'mike' }] }],
			isoSeconds(s.clock.now),
		);
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
		const installed = installOnOrganization(
			s.app,
			orgRow,
			{ client_id: made.app.client_id, repository_selection: 'selected', repositories: ['app', 'lib'] },
			null,
			now,
		);
		installationId = String(installed.installation.id);
		clientId = made.app.client_id;
	}
	return {
		org,
		params: {
			...rulesets,
			runner_group_id: runnerGroupId,
			configuration_id: configurationId,
			security_product: 'secret_scanning',
			enablement: 'enable_all',
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

test('the matrix text is read', () => {
	assert.ok(section, '~> test/fixtures/permission-matrix.md has the matrix section');
	assert.ok(rows.length >= 140, `~> the matrix names ${rows.length} rows`);
});

test('every row of the text is encoded with its permission, token kinds and mark, and nothing else is', () => {
	if (!section) return;
	const encoded = new Map(MATRIX.map((row) => [id(row), row]));
	for (const row of rows) {
		const mine = encoded.get(id(row));
		assert.ok(mine, `~> ${id(row)} is in src/auth/permission-matrix.ts`);
		assert.is(mine!.multiple, row.multiple, `~> ${id(row)}: the text's * mark`);
		assert.is(mine!.rejects.includes('installation'), row.rejectsInstallation, `~> ${id(row)}: installation tokens`);
		if (!row.multiple) assert.equal(mine!.policy, [{ [row.key]: row.level }], `~> ${id(row)}: ${row.key} ${row.level}`);
		else
			assert.ok(
				(mine!.policy[0] as Record<string, string>)[row.key] !== undefined || Object.keys(mine!.policy[0]).length > 1,
				`~> ${id(row)}: names its permissions`,
			);
	}
	const named = new Set(rows.map(id));
	for (const row of MATRIX) assert.ok(named.has(id(row)), `~> ${id(row)} is named by the matrix text`);
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
			assert.is.not(
				refused.body?.message,
				MESSAGES.byPersonalAccessToken,
				`~> ${name}: a member's token without ${header} gets the public view`,
			);
		} else {
			assert.is(refused.status, 403, `~> ${name}: a member's token without ${header} is refused`);
			assert.is(refused.body.message, MESSAGES.byPersonalAccessToken, `~> ${name}: GitHub's message`);
		}

		const caller = CALLER[name] ?? 'olivia';
		const holder = s.token(caller, { kind: 'fine-grained', org: ctx.org, permissions: grant });
		const passed = await s.request(row.method, path, { token: holder, body });
		assert.ok(
			passed.status >= 200 && passed.status < 300,
			`~> ${name}: ${caller}'s token with ${header} succeeds (got ${passed.status} ${passed.text.slice(0, 200)})`,
		);
	}
});

test.run();
