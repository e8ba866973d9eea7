/**
 * Code security configurations of an organization (GitHub's code-security/configurations
 * operations) and POST /orgs/{org}/{security_product}/{enablement}: who may call them (the matrix's
 * organization_administration read / write), GitHub's shapes, the 422s, and what they drive —
 * attaching a configuration sets the repositories' security switches, which Dependabot alerts and
 * dependency review follow; new repositories get the default configuration.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('code-security');
let s: TestServer;
/** olivia: owner of acme. */
let owner: string;
/** mike: member of acme. */
let member: string;
/** nora: no part in acme. */
let outsider: string;
const C = '/orgs/acme/code-security/configurations';
const ids: Record<string, number> = {};

const CONFIG_KEYS = [
	'id',
	'name',
	'target_type',
	'description',
	'advanced_security',
	'dependency_graph',
	'dependency_graph_autosubmit_action',
	'dependency_graph_autosubmit_action_options',
	'dependabot_alerts',
	'dependabot_security_updates',
	'code_scanning_default_setup',
	'code_scanning_default_setup_options',
	'secret_scanning',
	'secret_scanning_push_protection',
	'secret_scanning_delegated_bypass',
	'secret_scanning_delegated_bypass_options',
	'secret_scanning_validity_checks',
	'secret_scanning_non_provider_patterns',
	'private_vulnerability_reporting',
	'enforcement',
	'url',
	'html_url',
	'created_at',
	'updated_at',
];

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('nora');
	for (const [name, visibility] of [
		['app', 'public'],
		['vault', 'private'],
		['docs', 'public'],
	]) {
		const res = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, visibility } });
		ids[name] = res.body.id;
	}
	const team = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Sec', privacy: 'closed' } });
	ids.team = team.body.id;
});
test.after(() => s.close());

test('the GitHub-provided configuration is listed as target_type global', async () => {
	const res = await s.get(C, owner);
	assert.is(res.status, 200, '~> owners list configurations');
	assert.is(res.headers.get('x-accepted-service-permissions'), 'organization_administration=read', '~> the matrix names the permission');
	const global = res.body.find((c: any) => c.target_type === 'global');
	assert.ok(global, '~> the GitHub recommended configuration is there');
	assert.is(global.name, 'GitHub recommended');
	assert.is(global.dependabot_alerts, 'enabled');
	ids.global = global.id;
});

test('POST creates a configuration with GitHub’s defaults and every field given', async () => {
	const res = await s.request('POST', C, {
		token: owner,
		body: {
			name: 'Strict',
			description: 'Everything on',
			advanced_security: 'enabled',
			dependency_graph: 'enabled',
			dependency_graph_autosubmit_action: 'enabled',
			dependency_graph_autosubmit_action_options: { labeled_runners: true },
			dependabot_alerts: 'enabled',
			dependabot_security_updates: 'enabled',
			code_scanning_default_setup: 'enabled',
			code_scanning_default_setup_options: { runner_type: 'labeled', runner_label: 'code-scanning' },
			secret_scanning: 'enabled',
			secret_scanning_push_protection: 'enabled',
			secret_scanning_validity_checks: 'enabled',
			secret_scanning_non_provider_patterns: 'enabled',
			secret_scanning_delegated_bypass: 'enabled',
			secret_scanning_delegated_bypass_options: { reviewers: [{ reviewer_id: ids.team, reviewer_type: 'TEAM' }] },
			private_vulnerability_reporting: 'enabled',
			enforcement: 'enforced',
		},
	});
	assert.is(res.status, 201, '~> created');
	for (const key of CONFIG_KEYS) assert.ok(key in res.body, `~> the configuration has ${key}`);
	assert.is(res.body.target_type, 'organization');
	assert.is(res.body.description, 'Everything on');
	assert.equal(res.body.dependency_graph_autosubmit_action_options, { labeled_runners: true });
	assert.equal(res.body.code_scanning_default_setup_options, { runner_type: 'labeled', runner_label: 'code-scanning' });
	assert.equal(res.body.secret_scanning_delegated_bypass_options.reviewers, [
		{ reviewer_id: ids.team, reviewer_type: 'TEAM', mode: 'ALWAYS' },
	]);
	assert.is(res.headers.get('location'), res.body.url, '~> Location is the configuration');
	ids.strict = res.body.id;

	const off = await s.request('POST', C, {
		token: owner,
		body: { name: 'Off', dependency_graph: 'disabled', dependabot_alerts: 'disabled' },
	});
	assert.is(off.status, 201);
	assert.is(off.body.advanced_security, 'disabled', '~> GitHub’s default advanced_security');
	assert.is(off.body.enforcement, 'enforced', '~> GitHub’s default enforcement');
	assert.is(off.body.secret_scanning, 'disabled');
	ids.off = off.body.id;

	const loose = await s.request('POST', C, {
		token: owner,
		body: { name: 'Loose', dependency_graph: 'not_set', dependabot_alerts: 'not_set', secret_scanning: 'not_set' },
	});
	ids.loose = loose.body.id;
});

test('422: missing or taken name, unknown values, settings that need another, foreign teams', async () => {
	const cases: Array<[unknown, string]> = [
		[{}, 'name'],
		[{ name: 'strict' }, 'name'],
		[{ name: 'GitHub recommended' }, 'name'],
		[{ name: 'X', dependabot_alerts: 'on' }, 'dependabot_alerts'],
		[{ name: 'X', advanced_security: 'maybe' }, 'advanced_security'],
		[{ name: 'X', enforcement: 'strict' }, 'enforcement'],
		[{ name: 'X', dependency_graph: 'disabled', dependabot_alerts: 'enabled' }, 'dependabot_alerts'],
		[{ name: 'X', secret_scanning_push_protection: 'enabled' }, 'secret_scanning_push_protection'],
		[{ name: 'X', description: 'x'.repeat(256) }, 'description'],
		[
			{
				name: 'X',
				secret_scanning: 'enabled',
				secret_scanning_push_protection: 'enabled',
				secret_scanning_delegated_bypass: 'enabled',
				secret_scanning_delegated_bypass_options: { reviewers: [{ reviewer_id: 999999, reviewer_type: 'TEAM' }] },
			},
			'secret_scanning_delegated_bypass_options',
		],
	];
	for (const [body, field] of cases) {
		const res = await s.request('POST', C, { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body).slice(0, 80)} is refused`);
		assert.is(res.body.message, 'Validation Failed');
		assert.ok(JSON.stringify(res.body.errors).includes(field), `~> the error names ${field}: ${JSON.stringify(res.body.errors)}`);
	}
});

test('who may call: owners 2xx, members 403, outsiders 404, anonymous 401; fine-grained organization_administration read vs write vs none; installation tokens', async () => {
	assert.is((await s.get(C, member)).status, 403, '~> a member is refused');
	assert.match((await s.get(C, member)).body.message, 'must be an owner', '~> naming the role');
	assert.is((await s.get(C, outsider)).status, 404, '~> an outsider sees no settings');
	assert.is((await s.request('POST', C, { token: outsider, body: { name: 'Z' } })).status, 404);
	assert.is((await s.request('POST', C, { token: member, body: { name: 'Z' } })).status, 403);
	assert.is((await s.get(C)).status, 401, '~> anonymous callers authenticate');
	const read = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } });
	const write = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'write' } });
	const none = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'read' } });
	assert.is((await s.get(C, read)).status, 200, '~> read lists');
	assert.is((await s.get(`${C}/${ids.strict}`, read)).status, 200, '~> read gets');
	assert.is((await s.request('POST', C, { token: read, body: { name: 'R' } })).status, 403, '~> read does not create');
	assert.is((await s.get(C, none)).status, 403, '~> without the permission: refused');
	assert.is(
		(await s.request('PATCH', `${C}/${ids.loose}`, { token: write, body: { description: 'by token' } })).status,
		200,
		'~> write changes',
	);
	const classicNoScope = s.token('olivia', { scopes: ['repo'] });
	assert.is((await s.get(C, classicNoScope)).status, 403, '~> classic tokens need read:org / admin:org');
	const iat = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'write' } });
	assert.is((await s.get(`${C}/defaults`, iat)).status, 200, '~> the organization’s app reads (IAT)');
	const uat = s.token('olivia', { kind: 'user-to-server', org: 'acme', permissions: { organization_administration: 'read' } });
	assert.is((await s.get(C, uat)).status, 200, '~> a user-to-server token with the permission reads (UAT)');
	const elsewhere = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { members: 'read' } });
	assert.is((await s.get(C, elsewhere)).status, 403, '~> an installation without the permission is refused');
});

test('list: target_type global, per_page with after / before cursors and Link', async () => {
	const global = await s.get(`${C}?target_type=global`, owner);
	assert.ok(
		global.body.every((c: any) => c.target_type === 'global'),
		'~> global only',
	);
	const first = await s.get(`${C}?per_page=2`, owner);
	assert.is(first.body.length, 2);
	const link = first.headers.get('link') ?? '';
	assert.match(link, 'rel="next"', '~> a full page links the next');
	const after = /after=(\d+)/.exec(link)![1];
	const second = await s.get(`${C}?per_page=2&after=${after}`, owner);
	assert.ok(
		second.body.every((c: any) => c.id > Number(after)),
		'~> the next page comes after the cursor',
	);
	const before = await s.get(`${C}?per_page=1&before=${second.body[0].id}`, owner);
	assert.is(before.body[0].id, first.body[1].id, '~> before gives the page before the cursor');
	assert.is((await s.get(`${C}?target_type=mine`, owner)).status, 422);
});

test('GET and PATCH one; GitHub-provided configurations cannot be changed; 204 for no change', async () => {
	const res = await s.get(`${C}/${ids.strict}`, owner);
	assert.is(res.status, 200);
	assert.is(res.body.name, 'Strict');
	assert.is((await s.get(`${C}/${ids.global}`, owner)).body.target_type, 'global', '~> the global one reads');
	assert.is((await s.get(`${C}/999999`, owner)).status, 404);
	assert.is((await s.get(`${C}/abc`, owner)).status, 404);
	const same = await s.request('PATCH', `${C}/${ids.strict}`, { token: owner, body: { name: 'Strict' } });
	assert.is(same.status, 204, '~> nothing changed: 204');
	const renamed = await s.request('PATCH', `${C}/${ids.strict}`, {
		token: owner,
		body: { name: 'Strictest', secret_scanning_validity_checks: 'disabled' },
	});
	assert.is(renamed.status, 200);
	assert.is(renamed.body.name, 'Strictest');
	assert.is(renamed.body.secret_scanning_validity_checks, 'disabled');
	assert.is(renamed.body.dependabot_alerts, 'enabled', '~> the rest kept');
	assert.is((await s.request('PATCH', `${C}/${ids.strict}`, { token: owner, body: { name: 'Off' } })).status, 422, '~> a taken name');
	assert.is(
		(await s.request('PATCH', `${C}/${ids.strict}`, { token: owner, body: { secret_scanning: 'disabled' } })).status,
		422,
		'~> push protection needs secret scanning',
	);
	assert.is(
		(await s.request('PATCH', `${C}/${ids.global}`, { token: owner, body: { name: 'Mine' } })).status,
		409,
		'~> GitHub’s own cannot be changed',
	);
	assert.is((await s.request('DELETE', `${C}/${ids.global}`, { token: owner })).status, 409, '~> nor deleted');
});

test('attach drives the repository switches; Dependabot alerts and dependency review follow; security_and_analysis events', async () => {
	const alerts = () => s.get('/repos/acme/app/dependabot/alerts', owner);
	assert.is((await alerts()).status, 200, '~> alerts are on by default');
	const hook = await s.request('POST', '/orgs/acme/hooks', {
		token: owner,
		body: { name: 'web', config: { url: 'https://hooks.example.com/security' }, events: ['security_and_analysis'] },
	});
	assert.is(hook.status, 201);

	const res = await s.request('POST', `${C}/${ids.off}/attach`, {
		token: owner,
		body: { scope: 'selected', selected_repository_ids: [ids.app] },
	});
	assert.is(res.status, 202, '~> 202 Accepted');
	assert.equal(res.body, {});
	const off = await alerts();
	assert.is(off.status, 403, '~> Dependabot alerts now disabled');
	assert.is(off.body.message, 'Dependabot alerts are disabled for this repository.', '~> GitHub’s sentence');
	const review = await s.get('/repos/acme/app/dependency-graph/compare/main...main', owner);
	assert.is(review.status, 403, '~> dependency review needs the dependency graph');
	const repo = await s.get('/repos/acme/app', owner);
	assert.is(repo.body.security_and_analysis.advanced_security.status, 'disabled');
	assert.is(repo.body.security_and_analysis.secret_scanning.status, 'disabled');
	const deliveries = s.app.db
		.prepare("SELECT count(*) FROM events WHERE event = 'security_and_analysis' AND repo_id = ?")
		.pluck()
		.get(ids.app);
	assert.is(deliveries, 1, '~> one security_and_analysis event for the repository that changed');
	const { rows } = s.app.stores.webhooks.deliveries({ hookId: hook.body.id, status: null, limit: 10, offset: 0 });
	const delivery = rows.find((row) => row.event === 'security_and_analysis');
	assert.ok(delivery, '~> the organization’s hook gets security_and_analysis');
	const payload = JSON.parse(delivery!.payload);
	assert.is(payload.changes.from.security_and_analysis.advanced_security.status, 'disabled', '~> changes.from: the settings before');
	assert.is(payload.repository.full_name, 'acme/app');
	assert.is(payload.repository.security_and_analysis.secret_scanning.status, 'disabled', '~> the repository as it is now');
	assert.is(payload.organization.login, 'acme');
	assert.is(payload.sender.login, 'olivia');

	// Loose sets nothing (not_set): the switches stay as Off left them.
	assert.is(
		(
			await s.request('POST', `${C}/${ids.loose}/attach`, {
				token: owner,
				body: { scope: 'selected', selected_repository_ids: [ids.app] },
			})
		).status,
		202,
	);
	assert.is((await alerts()).status, 403, '~> not_set leaves the switch');

	// Strictest turns everything on, in every public repository.
	assert.is((await s.request('POST', `${C}/${ids.strict}/attach`, { token: owner, body: { scope: 'public' } })).status, 202);
	assert.is((await alerts()).status, 200, '~> alerts on again');
	const strict = await s.get('/repos/acme/docs', owner);
	assert.is(strict.body.security_and_analysis.secret_scanning.status, 'enabled');
	assert.is(strict.body.security_and_analysis.secret_scanning_push_protection.status, 'enabled');
	assert.is(strict.body.security_and_analysis.advanced_security.status, 'enabled');
	const vault = await s.get('/repos/acme/vault', owner);
	assert.is(vault.body.security_and_analysis.secret_scanning.status, 'disabled', '~> the private repository is outside the scope');

	const list = await s.get(`${C}/${ids.strict}/repositories`, owner);
	assert.is(list.status, 200);
	assert.equal(list.body.map((r: any) => r.repository.name).sort(), ['app', 'docs']);
	assert.is(list.body[0].status, 'enforced');
	assert.is((await s.get(`${C}/${ids.strict}/repositories?status=attached`, owner)).body.length, 0, '~> status filter');
	assert.is((await s.get(`${C}/${ids.strict}/repositories?status=bogus`, owner)).status, 422);

	// all_without_configurations: only the vault had none.
	assert.is(
		(await s.request('POST', `${C}/${ids.off}/attach`, { token: owner, body: { scope: 'all_without_configurations' } })).status,
		202,
	);
	assert.equal(
		(await s.get(`${C}/${ids.off}/repositories`, owner)).body.map((r: any) => r.repository.name),
		['vault'],
	);

	// Validation.
	assert.is((await s.request('POST', `${C}/${ids.off}/attach`, { token: owner, body: { scope: 'some' } })).status, 422);
	assert.is((await s.request('POST', `${C}/${ids.off}/attach`, { token: owner, body: { scope: 'selected' } })).status, 422);
	assert.is(
		(
			await s.request('POST', `${C}/${ids.off}/attach`, {
				token: owner,
				body: { scope: 'selected', selected_repository_ids: [999999] },
			})
		).status,
		422,
	);
	assert.is((await s.request('POST', `${C}/${ids.off}/attach`, { token: member, body: { scope: 'all' } })).status, 403);
});

test('PATCH re-applies the configuration to its repositories', async () => {
	assert.is(
		(
			await s.request('PATCH', `${C}/${ids.strict}`, {
				token: owner,
				body: { dependabot_security_updates: 'disabled', dependabot_alerts: 'disabled' },
			})
		).status,
		200,
	);
	assert.is((await s.get('/repos/acme/app/dependabot/alerts', owner)).status, 403, '~> the attached repository follows');
	assert.is((await s.request('PATCH', `${C}/${ids.strict}`, { token: owner, body: { dependabot_alerts: 'enabled' } })).status, 200);
	assert.is((await s.get('/repos/acme/app/dependabot/alerts', owner)).status, 200);
});

test('detach keeps the settings and drops the attachment; DELETE detaches', async () => {
	assert.is((await s.request('DELETE', `${C}/detach`, { token: owner, body: { selected_repository_ids: [ids.docs] } })).status, 204);
	assert.equal(
		(await s.get(`${C}/${ids.strict}/repositories`, owner)).body.map((r: any) => r.repository.name),
		['app'],
	);
	assert.is((await s.get('/repos/acme/docs', owner)).body.security_and_analysis.secret_scanning.status, 'enabled', '~> settings kept');
	assert.is((await s.request('DELETE', `${C}/detach`, { token: owner, body: { selected_repository_ids: [] } })).status, 422);
	assert.is((await s.request('DELETE', `${C}/detach`, { token: member, body: { selected_repository_ids: [ids.docs] } })).status, 403);
	const temp = await s.request('POST', C, { token: owner, body: { name: 'Temp' } });
	await s.request('POST', `${C}/${temp.body.id}/attach`, {
		token: owner,
		body: { scope: 'selected', selected_repository_ids: [ids.docs] },
	});
	assert.is((await s.request('DELETE', `${C}/${temp.body.id}`, { token: owner })).status, 204);
	assert.is((await s.get(`${C}/${temp.body.id}`, owner)).status, 404, '~> gone');
});

test('defaults: PUT sets, overlapping defaults give way, GET lists; new repositories get the default', async () => {
	const set = await s.request('PUT', `${C}/${ids.off}/defaults`, { token: owner, body: { default_for_new_repos: 'all' } });
	assert.is(set.status, 200);
	assert.is(set.body.default_for_new_repos, 'all');
	assert.is(set.body.configuration.id, ids.off);
	const pub = await s.request('PUT', `${C}/${ids.strict}/defaults`, { token: owner, body: { default_for_new_repos: 'public' } });
	assert.is(pub.body.default_for_new_repos, 'public');
	const defaults = await s.get(`${C}/defaults`, owner);
	assert.equal(
		defaults.body.map((d: any) => [d.configuration.id, d.default_for_new_repos]).sort(),
		[
			[ids.off, 'private_and_internal'],
			[ids.strict, 'public'],
		].sort(),
		'~> all gave the public half away',
	);
	const made = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'newbie', visibility: 'private' } });
	assert.is(made.status, 201);
	assert.is((await s.get('/repos/acme/newbie/dependabot/alerts', owner)).status, 403, '~> the private default (Off) applied');
	assert.ok(
		(await s.get(`${C}/${ids.off}/repositories`, owner)).body.some((r: any) => r.repository.name === 'newbie'),
		'~> and attached',
	);
	const made2 = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'shiny' } });
	assert.is(made2.status, 201);
	assert.is(
		(await s.get('/repos/acme/shiny', owner)).body.security_and_analysis.secret_scanning.status,
		'enabled',
		'~> the public default (Strictest) applied',
	);
	assert.is(
		(await s.request('PUT', `${C}/${ids.off}/defaults`, { token: owner, body: { default_for_new_repos: 'none' } })).body
			.default_for_new_repos,
		'none',
	);
	assert.is((await s.request('PUT', `${C}/${ids.off}/defaults`, { token: owner, body: { default_for_new_repos: 'some' } })).status, 422);
	assert.is((await s.request('PUT', `${C}/${ids.off}/defaults`, { token: member, body: { default_for_new_repos: 'all' } })).status, 403);
});

test('POST /orgs/{org}/{security_product}/{enablement} flips the switch on every repository', async () => {
	const res = await s.request('POST', '/orgs/acme/dependabot_alerts/disable_all', { token: owner });
	assert.is(res.status, 204);
	for (const name of ['app', 'vault', 'docs'])
		assert.is((await s.get(`/repos/acme/${name}/dependabot/alerts`, owner)).status, 403, `~> ${name}: alerts off`);
	assert.is((await s.request('POST', '/orgs/acme/dependabot_alerts/enable_all', { token: owner })).status, 204);
	assert.is((await s.get('/repos/acme/vault/dependabot/alerts', owner)).status, 200, '~> on again');
	assert.is((await s.request('POST', '/orgs/acme/secret_scanning_push_protection/enable_all', { token: owner })).status, 204);
	assert.is(
		(await s.get('/repos/acme/vault', owner)).body.security_and_analysis.secret_scanning.status,
		'enabled',
		'~> push protection brings secret scanning',
	);
	assert.is((await s.request('POST', '/orgs/acme/lasers/enable_all', { token: owner })).status, 404, '~> an unknown product');
	assert.is((await s.request('POST', '/orgs/acme/secret_scanning/turn_on', { token: owner })).status, 404, '~> an unknown enablement');
	assert.is(
		(await s.request('POST', '/orgs/acme/secret_scanning/enable_all', { token: owner, body: { query_suite: 'huge' } })).status,
		422,
	);
	assert.is((await s.request('POST', '/orgs/acme/secret_scanning/enable_all', { token: member })).status, 403);
	assert.is((await s.request('POST', '/orgs/acme/secret_scanning/enable_all', { token: outsider })).status, 404);
});

test('repository administrators switch features with PATCH /repos (security_and_analysis event), except what an enforced configuration sets', async () => {
	const count = () =>
		s.app.db
			.prepare("SELECT count(*) FROM events WHERE event = 'security_and_analysis' AND repo_id = ?")
			.pluck()
			.get(ids.docs) as number;
	const before = count();
	const res = await s.request('PATCH', '/repos/acme/docs', {
		token: owner,
		body: { security_and_analysis: { secret_scanning_push_protection: { status: 'disabled' } } },
	});
	assert.is(res.status, 200);
	assert.is(res.body.security_and_analysis.secret_scanning_push_protection.status, 'disabled');
	assert.is(count(), before + 1, '~> security_and_analysis recorded');
	assert.is(
		(
			await s.request('PATCH', '/repos/acme/docs', {
				token: owner,
				body: { security_and_analysis: { secret_scanning_push_protection: { status: 'disabled' } } },
			})
		).status,
		200,
	);
	assert.is(count(), before + 1, '~> nothing changed: nothing recorded');
	const enforced = await s.request('PATCH', '/repos/acme/app', {
		token: owner,
		body: { security_and_analysis: { secret_scanning: { status: 'disabled' } } },
	});
	assert.is(enforced.status, 422, '~> acme/app is attached to the enforced Strictest');
	assert.match(JSON.stringify(enforced.body.errors), 'enforced code security configuration');
	assert.is(
		(
			await s.request('PATCH', '/repos/acme/app', {
				token: owner,
				body: { security_and_analysis: { secret_scanning: { status: 'enabled' } } },
			})
		).status,
		200,
		'~> what it sets anyway passes',
	);
});

test('a repository transferred out of the organization leaves its configuration (settings kept)', async () => {
	const moving = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'moving' } });
	assert.is(
		(
			await s.request('POST', `${C}/${ids.strict}/attach`, {
				token: owner,
				body: { scope: 'selected', selected_repository_ids: [moving.body.id] },
			})
		).status,
		202,
	);
	const moved = await s.request('POST', '/repos/acme/moving/transfer', { token: owner, body: { new_owner: 'olivia' } });
	assert.is(moved.status, 202);
	assert.not.ok(
		(await s.get(`${C}/${ids.strict}/repositories`, owner)).body.some((r: any) => r.repository.id === moving.body.id),
		'~> no longer attached',
	);
	const repo = await s.get('/repos/olivia/moving', owner);
	assert.is(repo.body.security_and_analysis.secret_scanning.status, 'enabled', '~> its settings stay');
	assert.is(
		(
			await s.request('PATCH', '/repos/olivia/moving', {
				token: owner,
				body: { security_and_analysis: { secret_scanning: { status: 'disabled' } } },
			})
		).status,
		200,
		'~> no longer enforced',
	);
});

test('Octokit’s codeSecurity methods work unchanged', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: owner, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const made = await octokit.rest.codeSecurity.createConfiguration({
		org: 'acme',
		name: 'By Octokit',
		description: 'made by a client',
		secret_scanning: 'enabled',
	});
	assert.is(made.status, 201);
	const id = made.data.id!;
	const list = await octokit.rest.codeSecurity.getConfigurationsForOrg({ org: 'acme', per_page: 100 });
	assert.ok(
		list.data.some((c) => c.id === id),
		'~> listed',
	);
	const updated = await octokit.rest.codeSecurity.updateConfiguration({ org: 'acme', configuration_id: id, description: 'changed' });
	assert.is(updated.status, 200);
	const attached = await octokit.rest.codeSecurity.attachConfiguration({
		org: 'acme',
		configuration_id: id,
		scope: 'selected',
		selected_repository_ids: [ids.docs],
	});
	assert.is(attached.status, 202);
	const repos = await octokit.rest.codeSecurity.getRepositoriesForConfiguration({ org: 'acme', configuration_id: id });
	assert.equal(
		repos.data.map((r) => r.repository?.name),
		['docs'],
	);
	const set = await octokit.rest.codeSecurity.setConfigurationAsDefault({
		org: 'acme',
		configuration_id: id,
		default_for_new_repos: 'public',
	});
	assert.is(set.data.default_for_new_repos, 'public');
	const defaults = await octokit.rest.codeSecurity.getDefaultConfigurations({ org: 'acme' });
	assert.ok(defaults.data.some((d) => d.configuration?.id === id));
	assert.is((await octokit.rest.codeSecurity.detachConfiguration({ org: 'acme', selected_repository_ids: [ids.docs] })).status, 204);
	assert.is((await octokit.rest.codeSecurity.deleteConfiguration({ org: 'acme', configuration_id: id })).status, 204);
});

test.run();
