/**
 * Organization rulesets enforced on reference writes: through the git refs API, an
 * active ruleset refuses what its rules forbid with GitHub's 422 "Repository rule violations
 * found\n\n…\n\n", an evaluate ruleset lets the write through and records the failure in the rule
 * suite, bypass actors pass with the result bypass; ref_name (~DEFAULT_BRANCH, ~ALL, fnmatch
 * include/exclude), repository_name and repository_property conditions; the rule suites and their
 * filters.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';
import { mustSucceed } from './helpers/setup';

const test = suite('rules-enforcement');
let s: TestServer;
let owner: string;
let pusher: string;
const R = '/repos/acme/app';
const c: Record<string, string> = {};
const ZERO = '0000000000000000000000000000000000000000';
const violation = (...lines: string[]) => `Repository rule violations found\n\n${lines.map((l) => `${l}\n\n`).join('')}`;
let guardId: number;

const must = (method: string, path: string, body?: unknown, token = owner) => mustSucceed(s, method, path, body, token);

async function commit(repo: string, content: string, parents: string[], message = `Commit ${content}`): Promise<string> {
	const tree = await must('POST', `/repos/acme/${repo}/git/trees`, { tree: [{ path: 'README', mode: '100644', type: 'blob', content }] });
	return (await must('POST', `/repos/acme/${repo}/git/commits`, { message, tree: tree.sha, parents })).sha;
}

const update = (ref: string, sha: string, token = pusher, force = true) =>
	s.request('PATCH', `${R}/git/refs/heads/${ref}`, { token, body: { sha, force } });
const head = async (ref: string, repo = 'app') => (await s.get(`/repos/acme/${repo}/git/ref/heads/${ref}`, owner)).body.object.sha;
const suites = async (query = '') => (await s.get(`/orgs/acme/rulesets/rule-suites${query}`, owner)).body;
const setRuleset = (id: number, body: Record<string, unknown>) => must('PUT', `/orgs/acme/rulesets/${id}`, body);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	pusher = s.fullToken('mike');
	await must('PATCH', '/orgs/acme', { default_repository_permission: 'none' });
	await must('POST', '/orgs/acme/repos', { name: 'app' });
	await must('POST', '/orgs/acme/repos', { name: 'docs' });
	await must('POST', '/orgs/acme/teams', { name: 'Core', privacy: 'closed', repo_names: ['acme/app', 'acme/docs'] });
	await must('PUT', '/orgs/acme/teams/core/repos/acme/app', { permission: 'push' });
	await must('PUT', '/orgs/acme/teams/core/repos/acme/docs', { permission: 'push' });
	await must('PUT', '/orgs/acme/teams/core/memberships/mike', {});
	c.one = await commit('app', 'one', []);
	c.two = await commit('app', 'two', [c.one]);
	c.three = await commit('app', 'three', [c.two]);
	c.side = await commit('app', 'side', [c.one]);
	c.merge = await commit('app', 'merge', [c.three, c.side]);
	await must('POST', `${R}/git/refs`, { ref: 'refs/heads/main', sha: c.two });
	for (const name of ['release/1', 'release/old-1', 'feature/x', 'linear'])
		await must('POST', `${R}/git/refs`, { ref: `refs/heads/${name}`, sha: c.one });
	c.docs = await commit('docs', 'docs', []);
	await must('POST', '/repos/acme/docs/git/refs', { ref: 'refs/heads/main', sha: c.docs });
});
test.after(() => s.close());

test('active – deletion and non_fast_forward on ~DEFAULT_BRANCH and release/* refuse with GitHub’s 422', async () => {
	const ruleset = await must('POST', '/orgs/acme/rulesets', {
		name: 'Guard',
		enforcement: 'active',
		conditions: {
			ref_name: { include: ['~DEFAULT_BRANCH', 'refs/heads/release/*'], exclude: ['refs/heads/release/old*'] },
			repository_name: { include: ['~ALL'], exclude: [] },
		},
		rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }],
	});
	guardId = ruleset.id;
	const forced = await update('main', c.side);
	assert.is(forced.status, 422, forced.text);
	assert.is(forced.body.message, violation('Cannot force-push to this branch'), '~> GitHub’s rule-violation message');
	assert.is(forced.body.status, '422');
	assert.is(await head('main'), c.two, '~> main did not move');

	const forward = await update('main', c.three, pusher, false);
	assert.is(forward.status, 200, `~> a fast-forward passes: ${forward.text}`);

	const deleted = await s.request('DELETE', `${R}/git/refs/heads/release/1`, { token: pusher });
	assert.is(deleted.status, 422);
	assert.is(deleted.body.message, violation('Cannot delete this branch'));
	assert.is(await head('release/1'), c.one, '~> release/1 stays');
	assert.is((await s.request('DELETE', `${R}/git/refs/heads/release/old-1`, { token: pusher })).status, 204, '~> excluded by pattern');
	assert.is((await s.request('DELETE', `${R}/git/refs/heads/feature/x`, { token: pusher })).status, 204, '~> not included');

	const failed = await suites('?rule_suite_result=fail');
	assert.is(failed.length, 2, '~> both refusals left a failing rule suite');
	const [deletion, force] = failed;
	assert.equal(
		{
			ref: deletion.ref,
			before: deletion.before_sha,
			after: deletion.after_sha,
			actor: deletion.actor_name,
			repo: deletion.repository_name,
			result: deletion.result,
			evaluation: deletion.evaluation_result,
		},
		{ ref: 'refs/heads/release/1', before: c.one, after: ZERO, actor: 'mike', repo: 'app', result: 'fail', evaluation: null },
	);
	assert.is(force.ref, 'refs/heads/main');
	assert.is(force.after_sha, c.side);
	const detail = await s.get(`/orgs/acme/rulesets/rule-suites/${force.id}`, owner);
	assert.is(detail.status, 200);
	assert.equal(detail.body.rule_evaluations, [
		{
			rule_source: { type: 'ruleset', id: guardId, name: 'Guard' },
			enforcement: 'active',
			result: 'fail',
			rule_type: 'non_fast_forward',
			details: 'Cannot force-push to this branch',
		},
	]);
	const passed = await suites('?rule_suite_result=pass');
	assert.is(passed.length, 1, '~> the fast-forward passed and was recorded');
	assert.is(passed[0].after_sha, c.three);
	assert.is((await suites()).length, 3, '~> the unmatched deletions recorded nothing');
});

test('evaluate – the write goes through and the rule suite records the failure', async () => {
	await setRuleset(guardId, { enforcement: 'evaluate' });
	const forced = await update('main', c.side);
	assert.is(forced.status, 200, forced.text);
	assert.is(await head('main'), c.side);
	const [latest] = await suites();
	assert.is(latest.result, 'pass', '~> no active rule failed');
	assert.is(latest.evaluation_result, 'fail', '~> the evaluated rule would have');
	const detail = await s.get(`/orgs/acme/rulesets/rule-suites/${latest.id}`, owner);
	assert.is(detail.body.rule_evaluations[0].enforcement, 'evaluate');
	assert.is(detail.body.rule_evaluations[0].result, 'fail');
	await setRuleset(guardId, { enforcement: 'disabled' });
	const back = await update('main', c.three);
	assert.is(back.status, 200, '~> disabled: nothing evaluated');
	assert.is((await suites())[0].id, latest.id, '~> and nothing recorded');
});

test('bypass actors – organization admins, teams, repository roles pass with the result bypass', async () => {
	await setRuleset(guardId, {
		enforcement: 'active',
		bypass_actors: [{ actor_id: null, actor_type: 'OrganizationAdmin', bypass_mode: 'always' }],
	});
	assert.is((await update('main', c.side)).status, 422, '~> mike is no organization admin');
	const byOwner = await update('main', c.side, owner);
	assert.is(byOwner.status, 200, byOwner.text);
	const [latest] = await suites();
	assert.is(latest.result, 'bypass');
	assert.is(latest.actor_name, 'olivia');
	await update('main', c.three, owner);

	const core = await must('GET', '/orgs/acme/teams/core');
	await setRuleset(guardId, { bypass_actors: [{ actor_id: core.id, actor_type: 'Team', bypass_mode: 'pull_request' }] });
	assert.is((await update('main', c.side)).status, 422, '~> a pull_request bypass does not cover a direct push');
	await setRuleset(guardId, { bypass_actors: [{ actor_id: core.id, actor_type: 'Team', bypass_mode: 'always' }] });
	assert.is((await update('main', c.side)).status, 200, '~> a member of the team bypasses');
	assert.is((await suites())[0].result, 'bypass');
	await update('main', c.three);

	// Integration: the app whose installation token writes (its bot acts).
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { contents: 'write', metadata: 'read' } });
	const [installation] = s.app.stores.apps.installationsOn(s.app.stores.accounts.organization('acme')!.id);
	assert.is((await update('main', c.side, app)).status, 422, '~> the app is no bypass actor yet');
	await setRuleset(guardId, { bypass_actors: [{ actor_id: installation.app_id, actor_type: 'Integration', bypass_mode: 'always' }] });
	const byApp = await update('main', c.side, app);
	assert.is(byApp.status, 200, `~> the app bypasses: ${byApp.text}`);
	assert.is((await suites())[0].result, 'bypass');
	assert.is((await update('main', c.side, pusher)).status, 200, '~> no move, nothing to check');
	await update('main', c.three, app);

	await setRuleset(guardId, { bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }] });
	assert.is((await update('main', c.side)).status, 422, '~> mike writes, he does not administer');
	await setRuleset(guardId, { bypass_actors: [{ actor_id: 4, actor_type: 'RepositoryRole', bypass_mode: 'always' }] });
	assert.is((await update('main', c.side)).status, 200, '~> the write role bypasses');
	await update('main', c.three);
	await setRuleset(guardId, { bypass_actors: [], enforcement: 'active' });
});

test('~ALL, fnmatch exclusions and repository_name: creation restricted', async () => {
	const ruleset = await must('POST', '/orgs/acme/rulesets', {
		name: 'No new branches',
		enforcement: 'active',
		conditions: {
			ref_name: { include: ['~ALL'], exclude: ['refs/heads/dependabot/**'] },
			repository_name: { include: ['ap*'], exclude: [] },
		},
		rules: [{ type: 'creation' }],
	});
	const created = await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/heads/new', sha: c.one } });
	assert.is(created.status, 422);
	assert.is(created.body.message, violation('Cannot create ref due to creations being restricted.'));
	assert.is(
		(await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/heads/dependabot/npm/lodash', sha: c.one } })).status,
		201,
		'~> ** crosses slashes',
	);
	assert.is(
		(await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/tags/v1', sha: c.one } })).status,
		201,
		'~> a branch ruleset leaves tags alone',
	);
	assert.is(
		(await s.request('POST', '/repos/acme/docs/git/refs', { token: pusher, body: { ref: 'refs/heads/new', sha: c.docs } })).status,
		201,
		'~> docs is not named by ap*',
	);

	await setRuleset(ruleset.id, {
		conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: ['docs'] } },
	});
	assert.is(
		(await s.request('POST', '/repos/acme/docs/git/refs', { token: pusher, body: { ref: 'refs/heads/newer', sha: c.docs } })).status,
		201,
		'~> excluded by name',
	);
	assert.is((await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/heads/newer', sha: c.one } })).status, 422);
	await must('DELETE', `/orgs/acme/rulesets/${ruleset.id}`);
});

test('repository_property conditions: custom properties (their default values) and system properties', async () => {
	await must('PUT', '/orgs/acme/properties/schema/tier', {
		value_type: 'single_select',
		allowed_values: ['gold', 'silver'],
		default_value: 'gold',
		required: true,
	});
	const ruleset = await must('POST', '/orgs/acme/rulesets', {
		name: 'Gold',
		enforcement: 'active',
		conditions: {
			ref_name: { include: ['~ALL'], exclude: [] },
			repository_property: { include: [{ name: 'tier', property_values: ['gold'] }], exclude: [] },
		},
		rules: [{ type: 'creation' }],
	});
	assert.is(
		(await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/heads/gold', sha: c.one } })).status,
		422,
		'~> tier gold applies',
	);
	await setRuleset(ruleset.id, {
		conditions: {
			ref_name: { include: ['~ALL'], exclude: [] },
			repository_property: { include: [{ name: 'tier', property_values: ['silver'] }], exclude: [] },
		},
	});
	assert.is(
		(await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/heads/silver', sha: c.one } })).status,
		201,
		'~> tier silver does not',
	);
	await setRuleset(ruleset.id, {
		conditions: {
			ref_name: { include: ['~ALL'], exclude: [] },
			repository_property: {
				include: [{ name: 'tier', property_values: ['gold'] }],
				exclude: [{ name: 'visibility', property_values: ['public'], source: 'system' }],
			},
		},
	});
	assert.is(
		(await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/heads/public', sha: c.one } })).status,
		201,
		'~> public repositories excluded',
	);
	await must('DELETE', `/orgs/acme/rulesets/${ruleset.id}`);
});

test('history rules: linear history, commit message patterns, several violations at once', async () => {
	const ruleset = await must('POST', '/orgs/acme/rulesets', {
		name: 'Linear',
		enforcement: 'active',
		conditions: { ref_name: { include: ['refs/heads/linear'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: [] } },
		rules: [
			{ type: 'required_linear_history' },
			{ type: 'commit_message_pattern', parameters: { operator: 'starts_with', pattern: 'Commit', negate: false } },
		],
	});
	const merge = await update('linear', c.merge, pusher, false);
	assert.is(merge.status, 422);
	assert.is(merge.body.message, violation('This branch must not contain merge commits.'));
	await setRuleset(ruleset.id, {
		rules: [
			{ type: 'required_linear_history' },
			{ type: 'commit_message_pattern', parameters: { operator: 'contains', pattern: 'side', negate: true } },
		],
	});
	const both = await update('linear', c.merge, pusher, false);
	assert.is(
		both.body.message,
		violation('This branch must not contain merge commits.', 'Commit message must not contain: side'),
		'~> one line per violation',
	);
	assert.is((await update('linear', c.three, pusher, false)).status, 200, '~> a linear history of allowed messages passes');
	const [latest] = await suites('?ref=linear');
	assert.equal(
		(await s.get(`/orgs/acme/rulesets/rule-suites/${latest.id}`, owner)).body.rule_evaluations.map(
			(e: { rule_type: string; result: string }) => `${e.rule_type} ${e.result}`,
		),
		['required_linear_history pass', 'commit_message_pattern pass'],
	);
	await must('DELETE', `/orgs/acme/rulesets/${ruleset.id}`);
});

test('pull_request and required_status_checks: a direct push is refused, a pull request’s merge passes once the check does', async () => {
	c.four = await commit('app', 'four', [await head('main')]);
	await must('POST', `${R}/git/refs`, { ref: 'refs/heads/topic', sha: c.four });
	const ruleset = await must('POST', '/orgs/acme/rulesets', {
		name: 'Reviewed',
		enforcement: 'active',
		conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] }, repository_name: { include: ['~ALL'], exclude: [] } },
		rules: [
			{
				type: 'pull_request',
				parameters: {
					dismiss_stale_reviews_on_push: false,
					require_code_owner_review: false,
					require_last_push_approval: false,
					required_approving_review_count: 0,
					required_review_thread_resolution: false,
				},
			},
			{
				type: 'required_status_checks',
				parameters: { required_status_checks: [{ context: 'ci' }], strict_required_status_checks_policy: false },
			},
		],
	});
	const direct = await update('main', c.four, pusher, false);
	assert.is(direct.status, 422);
	assert.is(direct.body.message, violation('Changes must be made through a pull request.', 'Required status check "ci" is expected.'));
	const pull = await must('POST', `${R}/pulls`, { title: 'Four', head: 'topic', base: 'main' }, pusher);
	const failuresBefore = (await suites('?ref=main&rule_suite_result=fail')).length;
	const refused = await s.request('PUT', `${R}/pulls/${pull.number}/merge`, { token: pusher, body: { merge_method: 'merge' } });
	assert.is(refused.status, 405, refused.text);
	assert.is(refused.body.message, violation('Required status check "ci" is expected.'), '~> through a pull request only the check fails');
	await must('POST', `${R}/statuses/${c.four}`, { state: 'success', context: 'ci' });
	const merged = await s.request('PUT', `${R}/pulls/${pull.number}/merge`, { token: pusher, body: { merge_method: 'merge' } });
	assert.is(merged.status, 200, merged.text);
	const [latest] = await suites('?ref=main');
	assert.is(latest.result, 'pass');
	assert.is(latest.after_sha, merged.body.sha);
	assert.is(
		(await suites('?ref=main&rule_suite_result=fail')).length,
		failuresBefore + 1,
		'~> the refused merge left its rule suite too',
	);
	await must('DELETE', `/orgs/acme/rulesets/${ruleset.id}`);
});

test('tag rulesets: tag_name_pattern, update, deletion', async () => {
	const ruleset = await must('POST', '/orgs/acme/rulesets', {
		name: 'Tags',
		target: 'tag',
		enforcement: 'active',
		conditions: { ref_name: { include: ['~ALL'], exclude: [] }, repository_name: { include: ['app'], exclude: [] } },
		rules: [
			{ type: 'update', parameters: { update_allows_fetch_and_merge: false } },
			{ type: 'deletion' },
			{ type: 'tag_name_pattern', parameters: { operator: 'regex', pattern: '^v\\d' } },
		],
	});
	const latest = await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/tags/latest', sha: c.one } });
	assert.is(latest.status, 422);
	assert.is(latest.body.message, violation('Tag name must match a given regex pattern: ^v\\d'));
	assert.is((await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/tags/v2', sha: c.one } })).status, 201);
	const moved = await s.request('PATCH', `${R}/git/refs/tags/v2`, { token: pusher, body: { sha: c.two, force: false } });
	assert.is(moved.body.message, violation('Cannot update this protected ref.'));
	const removed = await s.request('DELETE', `${R}/git/refs/tags/v2`, { token: pusher });
	assert.is(removed.status, 422);
	assert.is(removed.body.message, violation('Cannot delete this tag'));
	assert.is(
		(await s.request('PATCH', `${R}/git/refs/heads/linear`, { token: pusher, body: { sha: c.merge, force: true } })).status,
		200,
		'~> a tag ruleset leaves branches alone',
	);
	await must('DELETE', `/orgs/acme/rulesets/${ruleset.id}`);
});

test('rule suites – filters, time periods, deleted rulesets, 404', async () => {
	const all = await suites();
	assert.ok(all.length > 5);
	const mainSuites = await suites('?ref=main');
	assert.ok(mainSuites.length > 0 && mainSuites.every((x: { ref: string }) => x.ref === 'refs/heads/main'), '~> ref without its prefix');
	assert.equal(await suites('?ref=refs/heads/main'), mainSuites);
	assert.ok((await suites('?actor_name=olivia')).every((x: { actor_name: string }) => x.actor_name === 'olivia'));
	assert.is((await suites('?actor_name=olivia')).length > 0, true);
	assert.ok((await suites('?repository_name=docs')).every((x: { repository_name: string }) => x.repository_name === 'docs'));
	assert.ok((await suites('?rule_suite_result=bypass')).length >= 3);
	assert.is((await s.get('/orgs/acme/rulesets/rule-suites?rule_suite_result=maybe', owner)).status, 422);
	assert.is((await s.get('/orgs/acme/rulesets/rule-suites?time_period=year', owner)).status, 422);
	const page = await s.get('/orgs/acme/rulesets/rule-suites?per_page=2', owner);
	assert.is(page.body.length, 2);
	assert.ok(page.headers.get('link')?.includes('rel="next"'));

	const linear = (await suites('?ref=linear'))[0];
	const detail = await s.get(`/orgs/acme/rulesets/rule-suites/${linear.id}`, owner);
	assert.is(detail.body.rule_evaluations[0].enforcement, 'deleted ruleset', '~> the Linear ruleset was deleted');

	s.clock.advance(2 * 3600_000);
	assert.equal(await suites('?time_period=hour'), [], '~> nothing in the last hour');
	assert.is((await suites('?time_period=day')).length, all.length);
	s.clock.advance(2 * 86400_000);
	assert.equal(await suites(), [], '~> the default period is a day');
	assert.is((await suites('?time_period=week')).length, all.length);
	assert.is((await s.get('/orgs/acme/rulesets/rule-suites/999999', owner)).status, 404);
	assert.is((await s.get('/orgs/acme/rulesets/rule-suites/abc', owner)).status, 404);
	assert.is((await s.get(`/orgs/acme/rulesets/rule-suites/${linear.id}`, pusher)).status, 403, '~> members may not read them');
});

test.run();
