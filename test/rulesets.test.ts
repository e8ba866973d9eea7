/**
 * Organization rulesets (GitHub's "REST API endpoints for rules"): create, list, get,
 * update, delete, versions; validation of rules, conditions and bypass actors; who may manage them
 * (owners and the organization's app with organization_administration write; members 403;
 * outsiders 404); the repository-level reads; push-rule bypass requests.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';

const test = suite('rulesets');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;
let teamId: number;

const CONDITIONS = {
	ref_name: { include: ['~DEFAULT_BRANCH', 'refs/heads/release/*'], exclude: [] },
	repository_name: { include: ['~ALL'], exclude: [] },
};

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'oscar']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('oscar');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app', auto_init: true } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'vault', private: true, auto_init: true } });
	teamId = (await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Release', privacy: 'closed' } })).body.id;
});
test.after(() => s.close());

async function create(body: Record<string, unknown>, token = owner) {
	return s.request('POST', '/orgs/acme/rulesets', { token, body });
}

test('create – 201 with GitHub’s ruleset shape and Location', async () => {
	const res = await create({
		name: 'Protect main',
		target: 'branch',
		enforcement: 'active',
		bypass_actors: [
			{ actor_id: null, actor_type: 'OrganizationAdmin', bypass_mode: 'always' },
			{ actor_id: teamId, actor_type: 'Team', bypass_mode: 'pull_request' },
		],
		conditions: CONDITIONS,
		rules: [
			{ type: 'deletion' },
			{ type: 'non_fast_forward' },
			{ type: 'update', parameters: { update_allows_fetch_and_merge: true } },
			{
				type: 'pull_request',
				parameters: {
					dismiss_stale_reviews_on_push: true,
					require_code_owner_review: false,
					require_last_push_approval: false,
					required_approving_review_count: 1,
					required_review_thread_resolution: false,
				},
			},
			{
				type: 'required_status_checks',
				parameters: { required_status_checks: [{ context: 'ci' }], strict_required_status_checks_policy: false },
			},
			{ type: 'commit_message_pattern', parameters: { operator: 'regex', pattern: '^[A-Z]', negate: false, name: 'Capitalised' } },
		],
	});
	assert.is(res.status, 201, res.text);
	const body = res.body;
	assert.is(res.headers.get('location'), `${s.api}/orgs/acme/rulesets/${body.id}`, '~> Location names the ruleset');
	assert.is(body.name, 'Protect main');
	assert.is(body.target, 'branch');
	assert.is(body.source_type, 'Organization');
	assert.is(body.source, 'acme');
	assert.is(body.enforcement, 'active');
	assert.equal(body.bypass_actors, [
		{ actor_id: null, actor_type: 'OrganizationAdmin', bypass_mode: 'always' },
		{ actor_id: teamId, actor_type: 'Team', bypass_mode: 'pull_request' },
	]);
	assert.equal(body.conditions, CONDITIONS);
	assert.is(body.rules.length, 6);
	assert.equal(body.rules[5], {
		type: 'commit_message_pattern',
		parameters: { operator: 'regex', pattern: '^[A-Z]', negate: false, name: 'Capitalised' },
	});
	assert.type(body.node_id, 'string');
	assert.is(body._links.self.href, `${s.api}/orgs/acme/rulesets/${body.id}`);
	assert.is(body._links.html.href, `${s.origin}/organizations/acme/settings/rules/${body.id}`);
	assert.is(body.current_user_can_bypass, 'always', '~> the owner is an OrganizationAdmin bypass actor');
	assert.match(body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

	const got = await s.get(`/orgs/acme/rulesets/${body.id}`, owner);
	assert.is(got.status, 200);
	assert.equal(got.body, body, '~> GET answers what POST did');
});

test('list – summaries, the targets filter, pagination', async () => {
	const tag = await create({
		name: 'Tags',
		target: 'tag',
		enforcement: 'evaluate',
		conditions: { ref_name: { include: ['~ALL'] }, repository_id: { repository_ids: [] } },
		rules: [{ type: 'deletion' }],
	});
	assert.is(tag.status, 201, tag.text);
	const list = await s.get('/orgs/acme/rulesets', owner);
	assert.is(list.status, 200);
	assert.equal(
		list.body.map((r: { name: string }) => r.name),
		['Protect main', 'Tags'],
	);
	assert.equal(
		Object.keys(list.body[0]).sort(),
		['_links', 'created_at', 'enforcement', 'id', 'name', 'node_id', 'source', 'source_type', 'target', 'updated_at'],
		'~> the list shows no rules or conditions',
	);
	const tags = await s.get('/orgs/acme/rulesets?targets=tag,push', owner);
	assert.equal(
		tags.body.map((r: { name: string }) => r.name),
		['Tags'],
		'~> targets filters',
	);
	const paged = await s.get('/orgs/acme/rulesets?per_page=1&page=2', owner);
	assert.equal(
		paged.body.map((r: { name: string }) => r.name),
		['Tags'],
	);
	assert.ok(paged.headers.get('link')?.includes('rel="first"'), '~> Link header');
});

test('validation – 422 for unknown rule types, bad parameters, conditions and bypass actors', async () => {
	const base = { name: 'Bad', enforcement: 'active', conditions: CONDITIONS };
	const cases: Array<[string, Record<string, unknown>, string]> = [
		['unknown rule type', { ...base, rules: [{ type: 'no_such_rule' }] }, 'rules.0.type'],
		[
			'pattern without operator',
			{ ...base, rules: [{ type: 'commit_message_pattern', parameters: { pattern: 'x' } }] },
			'rules.0.parameters.operator',
		],
		[
			'invalid regex',
			{ ...base, rules: [{ type: 'branch_name_pattern', parameters: { operator: 'regex', pattern: '(' } }] },
			'rules.0.parameters',
		],
		[
			'update without its parameter',
			{ ...base, rules: [{ type: 'update', parameters: {} }] },
			'rules.0.parameters.update_allows_fetch_and_merge',
		],
		[
			'review count over 10',
			{
				...base,
				rules: [
					{
						type: 'pull_request',
						parameters: {
							dismiss_stale_reviews_on_push: true,
							require_code_owner_review: false,
							require_last_push_approval: false,
							required_approving_review_count: 11,
							required_review_thread_resolution: false,
						},
					},
				],
			},
			'rules.0.parameters.required_approving_review_count',
		],
		[
			'max_file_size 0 on a push ruleset',
			{
				...base,
				target: 'push',
				conditions: { repository_name: { include: ['~ALL'] } },
				rules: [{ type: 'max_file_size', parameters: { max_file_size: 0 } }],
			},
			'rules.0.parameters.max_file_size',
		],
		[
			'push rule on a branch ruleset',
			{ ...base, rules: [{ type: 'max_file_path_length', parameters: { max_file_path_length: 100 } }] },
			'rules.0.type',
		],
		[
			'tag_name_pattern on a branch ruleset',
			{ ...base, rules: [{ type: 'tag_name_pattern', parameters: { operator: 'contains', pattern: 'v' } }] },
			'rules.0.type',
		],
		['a rule type twice', { ...base, rules: [{ type: 'deletion' }, { type: 'deletion' }] }, 'rules.1.type'],
		[
			'two repository conditions',
			{ ...base, conditions: { ...CONDITIONS, repository_id: { repository_ids: [1] } }, rules: [] },
			'conditions',
		],
		[
			'no ref_name on a branch ruleset',
			{ ...base, conditions: { repository_name: { include: ['~ALL'] } }, rules: [] },
			'conditions.ref_name',
		],
		['unknown enforcement', { ...base, enforcement: 'sometimes', rules: [] }, 'enforcement'],
		['missing enforcement', { name: 'Bad', rules: [] }, 'enforcement'],
		['unknown actor type', { ...base, bypass_actors: [{ actor_id: 1, actor_type: 'User' }], rules: [] }, 'bypass_actors.0.actor_type'],
		['team of no one', { ...base, bypass_actors: [{ actor_id: 999999, actor_type: 'Team' }], rules: [] }, 'bypass_actors.0.actor_id'],
		['team without actor_id', { ...base, bypass_actors: [{ actor_type: 'Team' }], rules: [] }, 'bypass_actors.0'],
		[
			'enterprise owners of an organization in no enterprise',
			{ ...base, bypass_actors: [{ actor_type: 'EnterpriseOwner' }], rules: [] },
			'bypass_actors.0.actor_id',
		],
		[
			'unknown repository role',
			{ ...base, bypass_actors: [{ actor_id: 42, actor_type: 'RepositoryRole' }], rules: [] },
			'bypass_actors.0.actor_id',
		],
	];
	for (const [what, body, field] of cases) {
		const res = await create(body);
		assert.is(res.status, 422, `~> ${what}: ${res.text}`);
		assert.is(res.body.message, 'Validation Failed');
		assert.ok(
			res.body.errors.some(
				(e: { field: string }) => e.field === field || e.field.startsWith(`${field}.`) || field.startsWith(e.field),
			),
			`~> ${what} names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
	const taken = await create({ name: 'Protect main', enforcement: 'disabled', conditions: CONDITIONS });
	assert.is(taken.status, 422);
	assert.equal(taken.body.errors, [{ resource: 'Ruleset', field: 'name', code: 'already_exists', message: 'Name must be unique' }]);
	const list = await s.get('/orgs/acme/rulesets', owner);
	assert.is(list.body.length, 2, '~> nothing was created');
});

test('update and history – every change is a version with its state', async () => {
	const created = await create({ name: 'Versioned', enforcement: 'evaluate', conditions: CONDITIONS, rules: [{ type: 'deletion' }] });
	const id = created.body.id;
	s.clock.advance(60_000);
	const updated = await s.request('PUT', `/orgs/acme/rulesets/${id}`, {
		token: owner,
		body: { name: 'Versioned (active)', enforcement: 'active' },
	});
	assert.is(updated.status, 200, updated.text);
	assert.is(updated.body.name, 'Versioned (active)');
	assert.is(updated.body.enforcement, 'active');
	assert.equal(updated.body.rules, [{ type: 'deletion' }], '~> fields not given stay');
	assert.is.not(updated.body.updated_at, created.body.updated_at);
	const bad = await s.request('PUT', `/orgs/acme/rulesets/${id}`, {
		token: owner,
		body: { rules: [{ type: 'deletion', parameters: 5 }, { type: 'creation' }, { type: 'bogus' }] },
	});
	assert.is(bad.status, 422, '~> PUT validates as POST does');

	const history = await s.get(`/orgs/acme/rulesets/${id}/history`, owner);
	assert.is(history.status, 200);
	assert.is(history.body.length, 2, '~> two versions (the refused PUT made none)');
	const [newest, oldest] = history.body;
	assert.ok(newest.version_id > oldest.version_id, '~> newest first');
	assert.equal(newest.actor, { id: s.app.stores.accounts.user('olivia')!.id, type: 'User' });
	assert.is(newest.updated_at, updated.body.updated_at);
	const version = await s.get(`/orgs/acme/rulesets/${id}/history/${oldest.version_id}`, owner);
	assert.is(version.status, 200);
	assert.is(version.body.version_id, oldest.version_id);
	assert.is(version.body.state.name, 'Versioned', '~> the version keeps the state it had');
	assert.is(version.body.state.enforcement, 'evaluate');

	for (const path of [
		`/orgs/acme/rulesets/${id}/history/999999`,
		`/orgs/acme/rulesets/${id}/history/x`,
		'/orgs/acme/rulesets/999999',
		'/orgs/acme/rulesets/abc',
		'/orgs/acme/rulesets/999999/history',
	]) {
		assert.is((await s.get(path, owner)).status, 404, `~> ${path} is 404`);
	}
	assert.is((await s.request('PUT', '/orgs/acme/rulesets/999999', { token: owner, body: { name: 'x' } })).status, 404);

	const removed = await s.request('DELETE', `/orgs/acme/rulesets/${id}`, { token: owner });
	assert.is(removed.status, 204);
	assert.is((await s.get(`/orgs/acme/rulesets/${id}`, owner)).status, 404, '~> deleted');
	assert.is((await s.get(`/orgs/acme/rulesets/${id}/history`, owner)).status, 404, '~> its history went with it');
	assert.is((await s.request('DELETE', `/orgs/acme/rulesets/${id}`, { token: owner })).status, 404);
});

test('events – repository_ruleset created, edited, deleted reach an organization hook', async () => {
	const hook = await s.request('POST', '/orgs/acme/hooks', {
		token: owner,
		body: { name: 'web', config: { url: 'https://hooks.example.com/r' }, events: ['repository_ruleset'] },
	});
	assert.is(hook.status, 201, hook.text);
	const created = await create({ name: 'Hooked', enforcement: 'disabled', conditions: CONDITIONS });
	await s.request('PUT', `/orgs/acme/rulesets/${created.body.id}`, { token: owner, body: { enforcement: 'evaluate' } });
	await s.request('DELETE', `/orgs/acme/rulesets/${created.body.id}`, { token: owner });
	const deliveries = await s.get(`/orgs/acme/hooks/${hook.body.id}/deliveries`, owner);
	assert.equal(
		deliveries.body
			.filter((d: { event: string }) => d.event !== 'ping')
			.map((d: { event: string; action: string }) => `${d.event}.${d.action}`)
			.reverse(),
		['repository_ruleset.created', 'repository_ruleset.edited', 'repository_ruleset.deleted'],
	);
	const edited = deliveries.body.find((d: { action: string }) => d.action === 'edited');
	const detail = await s.get(`/orgs/acme/hooks/${hook.body.id}/deliveries/${edited.id}`, owner);
	const payload = detail.body.request.payload;
	assert.is(payload.repository_ruleset.id, created.body.id);
	assert.equal(payload.changes, { enforcement: { from: 'disabled' } });
	assert.is(payload.organization.login, 'acme');
	assert.is(payload.sender.login, 'olivia');
	await s.request('DELETE', `/orgs/acme/hooks/${hook.body.id}`, { token: owner });
});

test('access – owners 2xx, members 403, outsiders 404, anonymous 401', async () => {
	const [first] = (await s.get('/orgs/acme/rulesets', owner)).body;
	const paths = [
		'/orgs/acme/rulesets',
		`/orgs/acme/rulesets/${first.id}`,
		`/orgs/acme/rulesets/${first.id}/history`,
		'/orgs/acme/rulesets/rule-suites',
		'/orgs/acme/bypass-requests/push-rules',
	];
	for (const path of paths) {
		assert.is((await s.get(path, owner)).status, 200, `~> owner reads ${path}`);
		const byMember = await s.get(path, member);
		assert.is(byMember.status, 403, `~> member gets 403 on ${path}`);
		assert.match(byMember.body.message, /You must be an owner of acme/);
		assert.is((await s.get(path, outsider)).status, 404, `~> outsider gets 404 on ${path}`);
		assert.is((await s.get(path)).status, 401, `~> anonymous gets 401 on ${path}`);
	}
	const body = { name: 'By member', enforcement: 'disabled', conditions: CONDITIONS };
	assert.is((await create(body, member)).status, 403);
	assert.is((await create(body, outsider)).status, 404);
	assert.is((await s.request('DELETE', `/orgs/acme/rulesets/${first.id}`, { token: member })).status, 403);
	assert.is((await s.request('PUT', `/orgs/acme/rulesets/${first.id}`, { token: outsider, body: {} })).status, 404);
	assert.is((await s.get('/orgs/nope/rulesets', owner)).status, 404, '~> unknown organization');
});

test('access – fine-grained organization_administration write/read/none, installation and user-to-server tokens', async () => {
	const body = (name: string) => ({ name, enforcement: 'disabled', conditions: CONDITIONS });
	const write = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'write' } });
	const read = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } });
	const none = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'read' } });
	const res = await s.get('/orgs/acme/rulesets', write);
	assert.is(res.status, 200);
	assert.is(res.headers.get('x-accepted-github-permissions'), 'organization_administration=write');
	assert.is((await create(body('Fine-grained'), write)).status, 201);
	for (const token of [read, none]) {
		const refused = await s.get('/orgs/acme/rulesets', token);
		assert.is(refused.status, 403, '~> the matrix asks organization administration write even to read');
		assert.is(refused.body.message, 'Resource not accessible by personal access token');
		assert.is((await create(body('Refused'), token)).status, 403);
	}
	const installation = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'write' } });
	const created = await create(body('By the app'), installation);
	assert.is(created.status, 201, created.text);
	const history = await s.get(`/orgs/acme/rulesets/${created.body.id}/history`, installation);
	assert.is(history.body[0].actor.type, 'Integration', '~> the app made the version');
	const appWithout = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { members: 'read' } });
	const refused = await s.get('/orgs/acme/rulesets', appWithout);
	assert.is(refused.status, 403);
	assert.is(refused.body.message, 'Resource not accessible by integration');
	const uat = s.token('olivia', { kind: 'user-to-server', org: 'acme', permissions: { organization_administration: 'write' } });
	assert.is((await s.get('/orgs/acme/rulesets', uat)).status, 200, '~> user-to-server token of an owner');
	const memberUat = s.token('mike', { kind: 'user-to-server', org: 'acme', permissions: { organization_administration: 'write' } });
	assert.is((await s.get('/orgs/acme/rulesets', memberUat)).status, 403, '~> a member’s user-to-server token: 403');
	const foreign = s.token('olivia', { kind: 'fine-grained', permissions: { organization_administration: 'write' } });
	assert.is((await s.get('/orgs/acme/rulesets', foreign)).status, 403, '~> a token bound to another account');
});

test('repository level – the organization’s rulesets that apply, rules of a branch', async () => {
	const list = await s.get('/repos/acme/app/rulesets', member);
	assert.is(list.status, 200);
	const names = list.body.map((r: { name: string }) => r.name);
	assert.ok(names.includes('Protect main'), '~> the org ruleset applies to every repository');
	assert.not.ok(names.includes('Tags'), '~> a ruleset for no repository is not listed');
	assert.equal((await s.get('/repos/acme/app/rulesets?includes_parents=false', member)).body, [], '~> without the parents, nothing');
	assert.equal((await s.get('/repos/acme/app/rulesets?targets=tag', member)).body, []);
	const protect = list.body.find((r: { name: string }) => r.name === 'Protect main');
	const one = await s.get(`/repos/acme/app/rulesets/${protect.id}`, member);
	assert.is(one.status, 200);
	assert.is(one.body.current_user_can_bypass, 'never', '~> mike is not in the Release team yet: never');
	await s.request('PUT', '/orgs/acme/teams/release/memberships/mike', { token: owner, body: { role: 'member' } });
	const again = await s.get(`/repos/acme/app/rulesets/${protect.id}`, member);
	assert.is(again.body.current_user_can_bypass, 'pull_requests_only', '~> the Release team bypasses through pull requests');
	assert.is((await s.get(`/repos/acme/app/rulesets/${protect.id}?includes_parents=false`, member)).status, 404);

	const rules = await s.get('/repos/acme/app/rules/branches/main', member);
	assert.is(rules.status, 200);
	assert.equal(rules.body[0], { type: 'deletion', ruleset_source_type: 'Organization', ruleset_source: 'acme', ruleset_id: protect.id });
	assert.ok(rules.body.every((r: { ruleset_id: number }) => r.ruleset_id === protect.id || r.ruleset_id !== undefined));
	assert.ok(rules.body.length >= 6);
	assert.equal((await s.get('/repos/acme/app/rules/branches/feature', member)).body, [], '~> no rule for an unmatched branch');
	assert.is(
		(await s.get('/repos/acme/app/rules/branches/release%2F2.0', member)).body.length,
		rules.body.length,
		'~> release/* matches (the slash encoded); the branch need not exist',
	);
	assert.ok((await s.get('/repos/acme/app/rules/branches/main')).status === 200, '~> a public repository: anonymous reads');
	assert.is((await s.get('/repos/acme/vault/rulesets', outsider)).status, 404, '~> a private repository is hidden');
	assert.is((await s.get('/repos/acme/vault/rules/branches/main', outsider)).status, 404);
});

test('push-rule bypass requests – the stored ones, with GitHub’s filters', async () => {
	const empty = await s.get('/orgs/acme/bypass-requests/push-rules', owner);
	assert.is(empty.status, 200);
	assert.equal(empty.body, [], '~> nothing makes them yet');
	const org = s.app.stores.accounts.organization('acme')!;
	const app = s.app.stores.repos.byOwnerAndName(org.id, 'app')!;
	const mike = s.app.stores.accounts.user('mike')!;
	const now = s.clock.now;
	for (const status of ['open', 'denied']) {
		s.app.stores.rulesets.addBypassRequest({
			org_id: org.id,
			repo_id: app.id,
			requester_id: mike.id,
			request_type: 'push_ruleset_bypass',
			data: JSON.stringify([{ ruleset_id: 1, ruleset_name: 'Protect main', total_violations: 1, rule_type: 'max_file_size' }]),
			resource_identifier: 'a'.repeat(40),
			status,
			requester_comment: null,
			responses:
				status === 'denied'
					? JSON.stringify([
							{ id: 1, reviewer: { actor_id: 1, actor_name: 'olivia' }, status: 'denied', created_at: isoSeconds(now) },
						])
					: '[]',
			expires_at: isoSeconds(now + 7 * 86400_000),
			created_at: isoSeconds(now),
		});
	}
	const all = await s.get('/orgs/acme/bypass-requests/push-rules', owner);
	assert.is(all.body.length, 2);
	assert.equal(all.body[1].repository, { id: app.id, name: 'app', full_name: 'acme/app' });
	assert.equal(all.body[1].requester, { actor_id: mike.id, actor_name: 'mike' });
	assert.is(all.body[1].number, 1);
	assert.is(all.body[0].number, 2, '~> numbered within the repository, newest first');
	assert.is((await s.get('/orgs/acme/bypass-requests/push-rules?request_status=open', owner)).body.length, 1);
	assert.is((await s.get('/orgs/acme/bypass-requests/push-rules?reviewer=olivia', owner)).body.length, 1);
	assert.is((await s.get('/orgs/acme/bypass-requests/push-rules?requester=mike&repository_name=app', owner)).body.length, 2);
	assert.is((await s.get('/orgs/acme/bypass-requests/push-rules?repository_name=vault', owner)).body.length, 0);
	assert.is((await s.get('/orgs/acme/bypass-requests/push-rules?request_status=maybe', owner)).status, 422);
	s.clock.advance(2 * 86400_000);
	assert.is((await s.get('/orgs/acme/bypass-requests/push-rules', owner)).body.length, 0, '~> time_period day by default');
	assert.is((await s.get('/orgs/acme/bypass-requests/push-rules?time_period=week', owner)).body.length, 2);
});

test.run();
