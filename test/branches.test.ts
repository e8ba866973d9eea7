/**
 * Branches and branch protection (GitHub's repos/branches and repos/branch-protection): the list
 * and one branch, renaming, protection and each of its parts in GitHub's shapes, and protection
 * enforced on every reference write (force pushes, deletions, required status checks from the
 * check runs of Actions, reviews, restrictions, linear history), with the branch_protection_rule
 * webhook.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { commitChecksPassed } from '../src/api/branches/enforce';
import type { RepositoryRow } from '../src/model/rows';
import { schemaProblems } from './helpers/github-schema';
import { startServer, type TestServer } from './helpers/server';
import { mustSucceed } from './helpers/setup';

const test = suite('branches');
let s: TestServer;
let owner: string;
let pusher: string;
let outsider: string;
let app: RepositoryRow;
const R = '/repos/acme/app';
const c: Record<string, string> = {};

const must = (method: string, path: string, body?: unknown, token = owner) => mustSucceed(s, method, path, body, token);

/** A commit of one file in acme/app through the git database API, dated `seconds` after 2026-01-01. */
async function commit(content: string, parents: string[], seconds: number, file = 'README'): Promise<string> {
	const tree = await must('POST', `${R}/git/trees`, { tree: [{ path: file, mode: '100644', type: 'blob', content }] });
	const date = new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
	const who = { name: 'Olivia', email: 'olivia@example.com', date };
	return (await must('POST', `${R}/git/commits`, { message: `Commit ${content}`, tree: tree.sha, parents, author: who, committer: who }))
		.sha;
}

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	pusher = s.fullToken('mike');
	outsider = s.fullToken('nora');
	await must('PATCH', '/orgs/acme', { default_repository_permission: 'none' });
	await must('POST', '/orgs/acme/repos', { name: 'app' });
	await must('POST', '/orgs/acme/repos', { name: 'vault', private: true });
	await must('POST', '/orgs/acme/teams', { name: 'Core', privacy: 'closed', repo_names: ['acme/app'] });
	await must('PUT', '/orgs/acme/teams/core/repos/acme/app', { permission: 'push' });
	await must('PUT', '/orgs/acme/teams/core/memberships/mike', {});
	app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	c.one = await commit('one', [], 10);
	c.two = await commit('two', [c.one], 20);
	c.three = await commit('three', [c.two], 30);
	c.side = await commit('side', [c.one], 25);
	await must('POST', `${R}/git/refs`, { ref: 'refs/heads/main', sha: c.two });
	for (const name of ['feature/x', 'dev', 'zeta']) await must('POST', `${R}/git/refs`, { ref: `refs/heads/${name}`, sha: c.one });
	await must('POST', `${R}/git/refs`, { ref: 'refs/tags/v1', sha: c.one });
	// The private repository: one branch.
	const tree = await must('POST', '/repos/acme/vault/git/trees', { tree: [{ path: 'a', mode: '100644', content: 'a' }] });
	const root = await must('POST', '/repos/acme/vault/git/commits', { message: 'root', tree: tree.sha, parents: [] });
	await must('POST', '/repos/acme/vault/git/refs', { ref: 'refs/heads/main', sha: root.sha });
});
test.after(() => s.close());

const FULL_RULES = {
	required_status_checks: { strict: true, contexts: ['ci'] },
	enforce_admins: false,
	required_pull_request_reviews: null,
	restrictions: null,
	allow_force_pushes: false,
	allow_deletions: false,
};

test('GET /branches – the branches by name with their head commit, anonymously on a public repository; tags are not branches', async () => {
	const res = await s.get(`${R}/branches`);
	assert.is(res.status, 200);
	assert.equal(
		res.body.map((b: any) => b.name),
		['dev', 'feature/x', 'main', 'zeta'],
		'~> refs/heads/ only, by name',
	);
	assert.equal(
		res.body[2],
		{ name: 'main', commit: { sha: c.two, url: `${s.api}${R}/commits/${c.two}` }, protected: false },
		'~> GitHub short-branch',
	);
	const page = await s.get(`${R}/branches?per_page=2&page=2`, owner);
	assert.equal(
		page.body.map((b: any) => b.name),
		['main', 'zeta'],
		'~> the second page',
	);
	assert.match(page.headers.get('link') ?? '', /rel="prev"/, '~> Link names the other pages');
	assert.is(
		(await s.get('/repos/acme/vault/branches', outsider)).status,
		404,
		'~> a private repository is hidden from those who cannot read it',
	);
	assert.is((await s.get('/repos/acme/vault/branches')).status, 404, '~> and from anonymous callers');
	assert.is((await s.get('/repos/acme/vault/branches', owner)).body.length, 1, '~> its readers list it');
	assert.is(
		(await s.get('/repos/acme/vault/branches', s.token('olivia', { scopes: [] }))).status,
		404,
		'~> a classic token without repo: public repositories only',
	);
	assert.is(
		(
			await s.get(
				'/repos/acme/vault/branches',
				s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'read' } }),
			)
		).status,
		200,
		'~> Contents (read)',
	);
	const fine = await s.request('PUT', `${R}/branches/main/protection`, {
		token: s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'write' } }),
		body: FULL_RULES,
	});
	assert.equal(
		[fine.status, fine.body.message],
		[403, 'Resource not accessible by personal access token'],
		'~> protection needs Administration',
	);
	const invalid = await s.get(`${R}/branches?protected=maybe`, owner);
	assert.is(invalid.status, 422, '~> protected takes true or false');
});

test('GET /branches/{branch} – GitHub’s full commit, _links, protection summary; a name with a slash escaped; 404 "Branch not found"', async () => {
	const res = await s.get(`${R}/branches/main`);
	assert.is(res.status, 200);
	assert.equal(Object.keys(res.body), ['name', 'commit', '_links', 'protected', 'protection', 'protection_url']);
	assert.is(res.body.commit.sha, c.two);
	assert.equal(Object.keys(res.body.commit), [
		'sha',
		'node_id',
		'commit',
		'url',
		'html_url',
		'comments_url',
		'author',
		'committer',
		'parents',
	]);
	assert.is(res.body.commit.commit.message, 'Commit two');
	assert.equal(res.body.commit.commit.author, { name: 'Olivia', email: 'olivia@example.com', date: '2026-01-01T00:00:20Z' });
	assert.equal(res.body.commit.parents, [
		{ sha: c.one, url: `${s.api}${R}/commits/${c.one}`, html_url: `${s.origin}/acme/app/commit/${c.one}` },
	]);
	assert.is(res.body.commit.author, null, '~> no user has that email');
	assert.equal(res.body._links, { self: `${s.api}${R}/branches/main`, html: `${s.origin}/acme/app/tree/main` });
	assert.equal(res.body.protection, { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] } });
	assert.is(res.body.protection_url, `${s.api}${R}/branches/main/protection`);
	const slashed = await s.get(`${R}/branches/feature%2Fx`, owner);
	assert.is(slashed.status, 200, '~> feature/x, escaped');
	assert.is(slashed.body.name, 'feature/x');
	const missing = await s.get(`${R}/branches/nope`, owner);
	assert.is(missing.status, 404);
	assert.is(missing.body.message, 'Branch not found');
	assert.is((await s.get('/repos/acme/vault/branches/main', outsider)).status, 404, '~> hidden private repository');
});

test('PUT /protection – admin only; every rule in GitHub’s shapes; branch_protection_rule created then edited', async () => {
	assert.is((await s.request('PUT', `${R}/branches/main/protection`, { body: FULL_RULES })).status, 401, '~> anonymous: 401');
	const member = await s.request('PUT', `${R}/branches/main/protection`, { token: pusher, body: FULL_RULES });
	assert.is(member.status, 403, '~> push access is not enough');
	assert.is(member.body.message, 'Must have admin rights to Repository.');
	const scopeless = await s.request('PUT', `${R}/branches/main/protection`, {
		token: s.token('olivia', { scopes: [] }),
		body: FULL_RULES,
	});
	assert.is(scopeless.status, 403, '~> a classic token without repo');
	assert.is(
		(await s.request('PUT', '/repos/acme/vault/branches/main/protection', { token: outsider, body: FULL_RULES })).status,
		404,
		'~> hidden repository',
	);
	const incomplete = await s.request('PUT', `${R}/branches/main/protection`, { token: owner, body: { enforce_admins: true } });
	assert.is(incomplete.status, 422, '~> the four required keys must be given (null to leave them off)');
	assert.ok(
		incomplete.body.errors.length > 0 && incomplete.body.errors.every((e: unknown) => typeof e === 'string'),
		`~> GitHub's validation-error-simple: errors are sentences (${incomplete.text})`,
	);
	const count = await s.request('PUT', `${R}/branches/main/protection`, {
		token: owner,
		body: { ...FULL_RULES, required_pull_request_reviews: { required_approving_review_count: 9 } },
	});
	assert.is(count.status, 422, '~> at most 6 approvals');
	assert.is(
		(await s.request('PUT', `${R}/branches/nope/protection`, { token: owner, body: FULL_RULES })).body.message,
		'Branch not found',
	);

	const mark = s.app.stores.events.latestId();
	const res = await s.request('PUT', `${R}/branches/main/protection`, { token: owner, body: FULL_RULES });
	assert.is(res.status, 200);
	const base = `${s.api}${R}/branches/main/protection`;
	assert.equal(res.body, {
		url: base,
		required_status_checks: {
			url: `${base}/required_status_checks`,
			strict: true,
			contexts: ['ci'],
			contexts_url: `${base}/required_status_checks/contexts`,
			checks: [{ context: 'ci', app_id: null }],
		},
		required_signatures: { url: `${base}/required_signatures`, enabled: false },
		enforce_admins: { url: `${base}/enforce_admins`, enabled: false },
		required_linear_history: { enabled: false },
		allow_force_pushes: { enabled: false },
		allow_deletions: { enabled: false },
		block_creations: { enabled: false },
		required_conversation_resolution: { enabled: false },
		lock_branch: { enabled: false },
		allow_fork_syncing: { enabled: false },
	});
	assert.equal((await s.get(`${R}/branches/main/protection`, owner)).body, res.body, '~> GET answers the same');
	assert.is((await s.get(`${R}/branches/main/protection`, pusher)).status, 403, '~> reading protection needs admin too');
	const branch = await s.get(`${R}/branches/main`);
	assert.is(branch.body.protected, true);
	assert.equal(branch.body.protection.required_status_checks, {
		enforcement_level: 'non_admins',
		contexts: ['ci'],
		checks: [{ context: 'ci', app_id: null }],
	});
	assert.equal(
		(await s.get(`${R}/branches?protected=true`)).body.map((b: any) => b.name),
		['main'],
		'~> the protected filter',
	);
	assert.equal(
		(await s.get(`${R}/branches?protected=false`)).body.map((b: any) => b.name),
		['dev', 'feature/x', 'zeta'],
	);
	const events = s.app.db.prepare('SELECT event, action FROM events WHERE id > ?').all(mark);
	assert.equal(events, [{ event: 'branch_protection_rule', action: 'created' }], '~> one branch_protection_rule created');

	const again = s.app.stores.events.latestId();
	await must('PUT', `${R}/branches/main/protection`, { ...FULL_RULES, enforce_admins: true });
	assert.equal(s.app.db.prepare('SELECT action FROM events WHERE id > ?').pluck().all(again), ['edited']);
	const unchanged = s.app.stores.events.latestId();
	await must('PUT', `${R}/branches/main/protection`, { ...FULL_RULES, enforce_admins: true });
	assert.is(s.app.stores.events.latestId(), unchanged, '~> the same rules again record nothing');
	await must('DELETE', `${R}/branches/main/protection/enforce_admins`);
});

test('protection parts – enforce_admins, required_signatures, required_status_checks and contexts, reviews, restrictions', async () => {
	const base = `${R}/branches/main/protection`;
	assert.equal((await s.get(`${base}/enforce_admins`, owner)).body, { url: `${s.api}${base}/enforce_admins`, enabled: false });
	assert.is((await must('POST', `${base}/enforce_admins`)).enabled, true);
	assert.is((await s.request('DELETE', `${base}/enforce_admins`, { token: owner })).status, 204);
	assert.is((await must('POST', `${base}/required_signatures`)).enabled, true);
	assert.is((await s.get(`${base}/required_signatures`, owner)).body.enabled, true);
	assert.is((await s.request('DELETE', `${base}/required_signatures`, { token: owner })).status, 204);

	assert.equal(await must('POST', `${base}/required_status_checks/contexts`, { contexts: ['lint', 'ci'] }), ['ci', 'lint']);
	assert.equal(await must('DELETE', `${base}/required_status_checks/contexts`, { contexts: ['lint'] }), ['ci']);
	assert.equal(await must('PUT', `${base}/required_status_checks/contexts`, { contexts: ['ci', 'test'] }), ['ci', 'test']);
	assert.equal((await s.get(`${base}/required_status_checks/contexts`, owner)).body, ['ci', 'test']);
	assert.is(
		(await s.request('PUT', `${base}/required_status_checks/contexts`, { token: owner, body: { contexts: 'ci' } })).status,
		422,
		'~> contexts is a list',
	);
	const patched = await must('PATCH', `${base}/required_status_checks`, { strict: false, checks: [{ context: 'ci', app_id: 7 }] });
	assert.equal([patched.strict, patched.contexts, patched.checks], [false, ['ci'], [{ context: 'ci', app_id: 7 }]]);

	assert.is((await s.get(`${base}/required_pull_request_reviews`, owner)).body.message, 'Pull request reviews not enabled');
	const reviews = await must('PATCH', `${base}/required_pull_request_reviews`, {
		required_approving_review_count: 2,
		dismissal_restrictions: { users: ['mike'], teams: ['core'] },
	});
	assert.is(reviews.required_approving_review_count, 2);
	assert.equal(
		reviews.dismissal_restrictions.users.map((u: any) => u.login),
		['mike'],
	);
	assert.equal(
		reviews.dismissal_restrictions.teams.map((t: any) => t.slug),
		['core'],
	);
	assert.is((await s.request('DELETE', `${base}/required_pull_request_reviews`, { token: owner })).status, 204);

	assert.is((await s.get(`${base}/restrictions`, owner)).body.message, 'Push restrictions not enabled');
	await must('PUT', base, { ...FULL_RULES, restrictions: { users: ['olivia'], teams: [] } });
	const restrictions = (await s.get(`${base}/restrictions`, owner)).body;
	assert.equal(Object.keys(restrictions), ['url', 'users_url', 'teams_url', 'apps_url', 'users', 'teams', 'apps']);
	assert.equal(
		restrictions.users.map((u: any) => u.login),
		['olivia'],
	);
	assert.equal(
		(await must('POST', `${base}/restrictions/teams`, { teams: ['core'] })).map((t: any) => t.slug),
		['core'],
	);
	assert.equal(
		(await must('PUT', `${base}/restrictions/users`, { users: ['mike'] })).map((u: any) => u.login),
		['mike'],
	);
	assert.equal(await must('DELETE', `${base}/restrictions/users`, { users: ['mike'] }), []);
	const unknown = await s.request('POST', `${base}/restrictions/users`, { token: owner, body: { users: ['ghost'] } });
	assert.is(unknown.status, 422, '~> unknown users are refused');
	assert.is((await s.request('DELETE', `${base}/restrictions`, { token: owner })).status, 204);
	assert.is(
		(await s.get(`${R}/branches/dev/protection/enforce_admins`, owner)).body.message,
		'Branch not protected',
		'~> parts of an unprotected branch',
	);
	await must('PUT', base, FULL_RULES);
});

test('enforcement – force pushes and deletions refused, required checks from check runs, administrators bypass checks only', async () => {
	const refs = `${R}/git/refs/heads`;
	await must('PUT', `${R}/branches/dev/protection`, { ...FULL_RULES, required_status_checks: null });
	await must('POST', `${R}/git/refs`, { ref: 'refs/heads/dev2', sha: c.one });
	// dev at one; side is a descendant of one; two as well: moving dev from side to two is a force push.
	await must('PATCH', `${refs}/dev`, { sha: c.side });
	const force = await s.request('PATCH', `${refs}/dev`, { token: owner, body: { sha: c.two, force: true } });
	assert.is(force.status, 422, '~> not a fast forward: refused even with force');
	assert.is(force.body.message, 'Cannot force-push to this branch');
	const del = await s.request('DELETE', `${refs}/dev`, { token: owner });
	assert.is(del.body.message, 'Cannot delete this protected branch', '~> deletion refused, administrators included');
	await must('PUT', `${R}/branches/dev/protection`, {
		...FULL_RULES,
		required_status_checks: null,
		allow_force_pushes: true,
		allow_deletions: true,
	});
	const hook = await must('POST', `${R}/hooks`, {
		name: 'web',
		config: { url: 'https://hooks.example.com/push', content_type: 'json' },
		events: ['push'],
	});
	await must('PATCH', `${refs}/dev`, { sha: c.two, force: true });
	const [push] = s.app.stores.webhooks.deliveries({ hookId: hook.id, status: null, limit: 1, offset: 0 }).rows;
	assert.equal(
		[JSON.parse(push.payload).forced, JSON.parse(push.payload).before, JSON.parse(push.payload).after],
		[true, c.side, c.two],
		'~> the push webhook says it was forced',
	);
	await must('DELETE', `${R}/hooks/${hook.id}`);

	// main requires "ci": three has no check run yet.
	const expected = await s.request('PATCH', `${refs}/main`, { token: pusher, body: { sha: c.three } });
	assert.is(expected.status, 422);
	assert.is(expected.body.message, 'Required status check "ci" is expected.');
	importRuns(s.app, app, {
		workflows: [{ name: 'CI', path: 'ci.yml', jobs: [{ name: 'ci' }] }],
		runs: [
			{
				path: 'ci.yml',
				actor: 'olivia',
				head_sha: c.three,
				branch: 'main',
				status: 'completed',
				conclusion: 'failure',
				jobs: [{ name: 'ci', conclusion: 'failure' }],
			},
		],
	});
	assert.equal(commitChecksPassed(s.app, app.id, c.three, ['ci']), { passed: false, states: [{ context: 'ci', state: 'failure' }] });
	const failing = await s.request('PATCH', `${refs}/main`, { token: pusher, body: { sha: c.three } });
	assert.is(failing.body.message, 'Required status check "ci" is failing.');
	importRuns(s.app, app, {
		runs: [
			{
				path: 'ci.yml',
				actor: 'olivia',
				head_sha: c.three,
				branch: 'main',
				status: 'completed',
				conclusion: 'success',
				jobs: [{ name: 'ci', conclusion: 'success' }],
			},
		],
	});
	assert.is(commitChecksPassed(s.app, app.id, c.three, ['ci']).passed, true, '~> the newest check run of that name decides');
	const mark = s.app.stores.events.latestId();
	assert.is(
		(await s.request('PATCH', `${refs}/main`, { token: pusher, body: { sha: c.three } })).status,
		200,
		'~> passing checks let the push through',
	);
	assert.equal(s.app.db.prepare('SELECT event FROM events WHERE id > ?').pluck().all(mark), ['push']);
});

test('enforcement – a commit status of the required context satisfies it, as a check run does', async () => {
	await must('POST', `${R}/git/refs`, { ref: 'refs/heads/gated', sha: c.one });
	await must('PUT', `${R}/branches/gated/protection`, {
		...FULL_RULES,
		required_status_checks: { strict: false, contexts: ['ci/status'] },
	});
	const refs = `${R}/git/refs/heads`;
	const expected = await s.request('PATCH', `${refs}/gated`, { token: pusher, body: { sha: c.side } });
	assert.is(expected.body.message, 'Required status check "ci/status" is expected.', '~> nothing reported yet');
	await must('POST', `${R}/statuses/${c.side}`, { state: 'pending', context: 'ci/status' });
	assert.equal(
		commitChecksPassed(s.app, app.id, c.side, ['ci/status']).states,
		[{ context: 'ci/status', state: 'pending' }],
		'~> a pending status',
	);
	await must('POST', `${R}/statuses/${c.side}`, { state: 'failure', context: 'ci/status' });
	const failing = await s.request('PATCH', `${refs}/gated`, { token: pusher, body: { sha: c.side } });
	assert.is(failing.body.message, 'Required status check "ci/status" is failing.', '~> the newest status of the context decides');
	await must('POST', `${R}/statuses/${c.side}`, { state: 'success', context: 'ci/status' });
	assert.is(
		(await s.request('PATCH', `${refs}/gated`, { token: pusher, body: { sha: c.side } })).status,
		200,
		'~> a successful status lets the push through',
	);
});

test('enforcement – reviews need a pull request; restrictions name who may push; linear history; enforce_admins binds administrators', async () => {
	const refs = `${R}/git/refs/heads`;
	const four = await commit('four', [c.one], 40);
	await must('PUT', `${R}/branches/zeta/protection`, {
		...FULL_RULES,
		required_status_checks: null,
		required_pull_request_reviews: { required_approving_review_count: 1 },
	});
	const review = await s.request('PATCH', `${refs}/zeta`, { token: pusher, body: { sha: four } });
	assert.is(review.body.message, 'Changes must be made through a pull request.');
	assert.is(
		(await s.request('PATCH', `${refs}/zeta`, { token: owner, body: { sha: four } })).status,
		200,
		'~> an administrator bypasses reviews without enforce_admins',
	);
	await must('PUT', `${R}/branches/zeta/protection`, {
		...FULL_RULES,
		required_status_checks: null,
		restrictions: { users: ['olivia'], teams: [] },
		required_linear_history: true,
		enforce_admins: true,
	});
	const five = await commit('five', [four], 50);
	const restricted = await s.request('PATCH', `${refs}/zeta`, { token: pusher, body: { sha: five } });
	assert.is(restricted.body.message, "You're not authorized to push to this branch.");
	const merge = await commit('merge', [five, c.side], 60);
	const linear = await s.request('PATCH', `${refs}/zeta`, { token: owner, body: { sha: merge } });
	assert.is(linear.body.message, 'This branch must not contain merge commits.', '~> enforce_admins: the rule binds administrators');
	assert.is((await s.request('PATCH', `${refs}/zeta`, { token: owner, body: { sha: five } })).status, 200);
});

test('branch_protection_rule – GitHub’s payload (rule, changes, repository, organization, sender); block_creations after a permitted deletion', async () => {
	const hook = await must('POST', `${R}/hooks`, {
		name: 'web',
		config: { url: 'https://hooks.example.com/bp', content_type: 'json' },
		events: ['branch_protection_rule'],
	});
	const payloads = () =>
		s.app.stores.webhooks
			.deliveries({ hookId: hook.id, status: null, limit: 100, offset: 0 })
			.rows.filter((row) => row.event === 'branch_protection_rule')
			.reverse()
			.map((row) => ({ action: row.action, ...JSON.parse(row.payload) }));
	await must('PUT', `${R}/branches/feature%2Fx/protection`, {
		...FULL_RULES,
		required_status_checks: null,
		allow_deletions: true,
		block_creations: true,
	});
	await must('POST', `${R}/branches/feature%2Fx/protection/enforce_admins`);
	const [created, edited] = payloads();
	assert.equal(Object.keys(created), ['action', 'rule', 'repository', 'organization', 'sender']);
	assert.is(created.action, 'created');
	assert.equal(
		[
			created.rule.name,
			created.rule.repository_id,
			created.rule.allow_deletions_enforcement_level,
			created.rule.allow_force_pushes_enforcement_level,
			created.rule.create_protected,
			created.rule.admin_enforced,
		],
		['feature/x', app.id, 'everyone', 'off', true, false],
	);
	assert.equal([created.repository.full_name, created.organization.login, created.sender.login], ['acme/app', 'acme', 'olivia']);
	assert.is(edited.action, 'edited');
	assert.equal(edited.changes.admin_enforced, { from: false }, '~> changes name the previous values');
	assert.is(edited.rule.admin_enforced, true);
	await must('DELETE', `${R}/branches/feature%2Fx/protection/enforce_admins`);

	assert.is((await s.request('DELETE', `${R}/git/refs/heads/feature/x`, { token: pusher })).status, 204, '~> allow_deletions lets it go');
	const again = await s.request('POST', `${R}/git/refs`, { token: pusher, body: { ref: 'refs/heads/feature/x', sha: c.one } });
	assert.equal([again.status, again.body.message], [422, 'Cannot create ref due to creations being restricted.']);
	assert.is(
		(await s.request('POST', `${R}/git/refs`, { token: owner, body: { ref: 'refs/heads/feature/x', sha: c.one } })).status,
		201,
		'~> an administrator may, without enforce_admins',
	);
	await must('DELETE', `${R}/branches/feature%2Fx/protection`);
	assert.is(payloads().at(-1).action, 'deleted');
});

test('POST /rename – push for a branch, admin for the default; the ref moves with its protection; default_branch follows', async () => {
	assert.is((await s.request('POST', `${R}/branches/dev2/rename`, { body: { new_name: 'x' } })).status, 401);
	assert.is(
		(await s.request('POST', '/repos/acme/vault/branches/main/rename', { token: outsider, body: { new_name: 'x' } })).status,
		404,
	);
	assert.is(
		(await s.request('POST', `${R}/branches/dev2/rename`, { token: pusher, body: { new_name: 'bad..name' } })).status,
		422,
		'~> not a valid branch name',
	);
	assert.is(
		(await s.request('POST', `${R}/branches/dev2/rename`, { token: pusher, body: { new_name: 'main' } })).status,
		422,
		'~> the name is taken',
	);
	assert.is((await s.request('POST', `${R}/branches/dev2/rename`, { token: pusher, body: {} })).status, 422, '~> new_name is required');
	const mark = s.app.stores.events.latestId();
	const renamed = await s.request('POST', `${R}/branches/dev2/rename`, { token: pusher, body: { new_name: 'develop' } });
	assert.is(renamed.status, 201);
	assert.is(renamed.body.name, 'develop');
	assert.is(renamed.body.commit.sha, c.one);
	assert.equal(s.app.db.prepare('SELECT event FROM events WHERE id > ?').pluck().all(mark), ['create', 'push', 'delete', 'push']);
	const moved = await s.get(`${R}/branches/dev2`, owner);
	assert.equal(
		[moved.status, moved.headers.get('location'), moved.body.url],
		[301, `${s.api}${R}/branches/develop`, `${s.api}${R}/branches/develop`],
		'~> the old name redirects',
	);
	assert.is((await s.get(`${R}/git/ref/heads/dev2`, owner)).status, 404, '~> the old ref is gone');

	const denied = await s.request('POST', `${R}/branches/main/rename`, { token: pusher, body: { new_name: 'trunk' } });
	assert.is(denied.status, 403, '~> the default branch needs admin');
	const contentsOnly = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'write' } });
	const fine = await s.request('POST', `${R}/branches/main/rename`, { token: contentsOnly, body: { new_name: 'trunk' } });
	assert.equal(
		[fine.status, fine.body.message],
		[403, 'Resource not accessible by personal access token'],
		'~> a fine-grained token needs Administration (write) for the default branch',
	);
	const trunk = await s.request('POST', `${R}/branches/main/rename`, { token: owner, body: { new_name: 'trunk' } });
	assert.is(trunk.status, 201);
	assert.is(trunk.body.protected, true, '~> its protection moved with it');
	assert.is((await s.get(R, owner)).body.default_branch, 'trunk', '~> the default branch follows');
	assert.is((await s.get(`${R}/branches/trunk/protection`, owner)).body.required_status_checks.contexts[0], 'ci');
});

test('answers conform to GitHub’s OpenAPI schemas (GHES 3.19)', async () => {
	const check = async (method: string, path: string, concrete: string, status = 200, body?: unknown) => {
		const res = await s.request(method, concrete, { token: owner, body });
		assert.is(res.status, status, `~> ${method} ${concrete}`);
		assert.equal(schemaProblems(method, path, status, res.body), [], `~> ${method} ${path} as GitHub documents it`);
	};
	const B = '/repos/{owner}/{repo}/branches';
	await must('PUT', `${R}/branches/develop/protection`, {
		...FULL_RULES,
		required_pull_request_reviews: {
			required_approving_review_count: 1,
			dismissal_restrictions: { users: ['mike'], teams: ['core'] },
			bypass_pull_request_allowances: { users: ['olivia'] },
		},
		restrictions: { users: ['olivia'], teams: ['core'] },
	});
	await check('GET', B, `${R}/branches`);
	await check('GET', `${B}/{branch}`, `${R}/branches/develop`);
	await check('GET', `${B}/{branch}/protection`, `${R}/branches/develop/protection`);
	await check('PUT', `${B}/{branch}/protection`, `${R}/branches/develop/protection`, 200, {
		...FULL_RULES,
		restrictions: { users: ['olivia'], teams: ['core'] },
	});
	await check('GET', `${B}/{branch}/protection/enforce_admins`, `${R}/branches/develop/protection/enforce_admins`);
	await check('GET', `${B}/{branch}/protection/required_signatures`, `${R}/branches/develop/protection/required_signatures`);
	await check('GET', `${B}/{branch}/protection/required_status_checks`, `${R}/branches/develop/protection/required_status_checks`);
	await check('GET', `${B}/{branch}/protection/restrictions`, `${R}/branches/develop/protection/restrictions`);
	await check('GET', `${B}/{branch}/protection/restrictions/users`, `${R}/branches/develop/protection/restrictions/users`);
	await check('GET', `${B}/{branch}/protection/restrictions/teams`, `${R}/branches/develop/protection/restrictions/teams`);
	await check(
		'PATCH',
		`${B}/{branch}/protection/required_pull_request_reviews`,
		`${R}/branches/develop/protection/required_pull_request_reviews`,
		200,
		{ dismissal_restrictions: { users: ['mike'] } },
	);
	await check('POST', `${B}/{branch}/rename`, `${R}/branches/develop/rename`, 201, { new_name: 'development' });
});

test('a stock GitHub client (@octokit/rest): branches, protection, rename, commits, compare, tags', async () => {
	assert.is(
		(await s.get(`${R}/branches/dev2`, owner)).headers.get('location'),
		`${s.api}${R}/branches/development`,
		'~> a chain of renames leads to the latest name',
	);
	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: owner, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const repo = { owner: 'acme', repo: 'app' };
	const branches = await octokit.paginate(octokit.rest.repos.listBranches, { ...repo, per_page: 2 });
	assert.ok(
		branches.some((b) => b.name === 'feature/x'),
		'~> paginated through Link',
	);
	assert.is(
		(await octokit.rest.repos.getBranch({ ...repo, branch: 'feature/x' })).data.commit.sha,
		c.one,
		'~> a name with a slash, as Octokit escapes it',
	);
	assert.is(
		(await octokit.rest.repos.getBranch({ ...repo, branch: 'dev2' })).data.name,
		'development',
		'~> Octokit follows the redirect of a renamed branch',
	);
	const protection = await octokit.rest.repos.updateBranchProtection({
		...repo,
		branch: 'feature/x',
		required_status_checks: { strict: true, contexts: ['build'] },
		enforce_admins: true,
		required_pull_request_reviews: null,
		restrictions: null,
	});
	assert.equal(protection.data.required_status_checks?.contexts, ['build']);
	assert.equal((await octokit.rest.repos.getAllStatusCheckContexts({ ...repo, branch: 'feature/x' })).data, ['build']);
	await octokit.rest.repos.deleteBranchProtection({ ...repo, branch: 'feature/x' });
	const renamed = await octokit.rest.repos.renameBranch({ ...repo, branch: 'feature/x', new_name: 'feature/y' });
	assert.is(renamed.data.name, 'feature/y');
	const commits = await octokit.paginate(octokit.rest.repos.listCommits, { ...repo, sha: 'zeta', per_page: 1 });
	assert.is(commits.at(-1)!.sha, c.one, '~> paginated to the root commit');
	assert.is((await octokit.rest.repos.getCommit({ ...repo, ref: c.two })).data.files?.[0].filename, 'README');
	const compared = await octokit.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: `${c.one}...${c.three}` });
	assert.equal([compared.data.status, compared.data.ahead_by], ['ahead', 2]);
	const diff = await octokit.rest.repos.getCommit({ ...repo, ref: c.two, mediaType: { format: 'diff' } });
	assert.match(String(diff.data), 'diff --git a/README b/README');
	assert.equal(
		(await octokit.rest.repos.listTags(repo)).data.map((t) => t.name),
		['v1'],
	);
});

test.run();
