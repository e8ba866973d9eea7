/**
 * Git reference names with slashes in path parameters, unencoded, as GitHub takes them and as
 * Renovate sends them (GET …/commits/renovate/lodash-4.x/status): {ref} of the commit, status and
 * checks routes, {branch} of the branch and protection routes, {basehead} of compare. A path that
 * matched one route before still matches it (one segment per parameter is tried first).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('ref-paths');
const APP = '/repos/acme/app';
const BRANCH = 'renovate/gitstead-pad-1.x';
let s: TestServer;
let alice: string;
let tip: string;
let mainSha: string;

test.before(async () => {
	s = await startServer();
	s.user('alice');
	alice = s.fullToken('alice');
	s.org('acme', 'alice');
	await must('POST', '/orgs/acme/repos', { name: 'app', auto_init: true });
	mainSha = (await must('GET', `${APP}/git/ref/heads/main`)).object.sha;
	await must('POST', `${APP}/git/refs`, { ref: `refs/heads/${BRANCH}`, sha: mainSha });
	const put = await must('PUT', `${APP}/contents/a.txt`, {
		message: 'Add a.txt',
		content: Buffer.from('a\n').toString('base64'),
		branch: BRANCH,
	});
	tip = put.commit.sha;
});
test.after(async () => {
	await s?.close();
});

async function must(method: string, path: string, body?: unknown) {
	const res = await s.request(method, path, { token: alice, body });
	assert.ok(res.status < 300, `${method} ${path} → ${res.status} ${res.text}`);
	return res.body;
}

test('commits: GET …/commits/{ref}, …/status, …/statuses, …/check-runs and …/check-suites of a branch with slashes', async () => {
	assert.is((await must('GET', `${APP}/commits/${BRANCH}`)).sha, tip);
	await must('POST', `${APP}/statuses/${tip}`, { state: 'success', context: 'ci' });
	const combined = await must('GET', `${APP}/commits/${BRANCH}/status`);
	assert.is(combined.sha, tip);
	assert.is(combined.state, 'success');
	const statuses = await must('GET', `${APP}/commits/${BRANCH}/statuses`);
	assert.equal(
		statuses.map((x: { context: string }) => x.context),
		['ci'],
	);
	assert.is((await must('GET', `${APP}/commits/${BRANCH}/check-runs`)).total_count, 0);
	assert.is((await must('GET', `${APP}/commits/${BRANCH}/check-suites`)).total_count, 0);
	// The one-segment readings still win: a commit's branches-where-head, a branch named like a route.
	const heads = await must('GET', `${APP}/commits/${tip}/branches-where-head`);
	assert.equal(
		heads.map((b: { name: string }) => b.name),
		[BRANCH],
	);
	assert.is((await s.request('GET', `${APP}/commits/no/such/branch/status`, { token: alice })).status, 404);
});

test('branches: GET …/branches/{branch} and its protection for a name with slashes', async () => {
	const branch = await must('GET', `${APP}/branches/${BRANCH}`);
	assert.is(branch.name, BRANCH);
	assert.is(branch.commit.sha, tip);
	const none = await s.request('GET', `${APP}/branches/${BRANCH}/protection`, { token: alice });
	assert.is(none.status, 404);
	assert.is(none.body.message, 'Branch not protected');
	await must('PUT', `${APP}/branches/${BRANCH}/protection`, {
		required_status_checks: null,
		enforce_admins: false,
		required_pull_request_reviews: null,
		restrictions: null,
	});
	assert.is((await must('GET', `${APP}/branches/${BRANCH}`)).protected, true);
	assert.is((await must('GET', `${APP}/branches/${BRANCH}/protection`)).enforce_admins.enabled, false);
});

test('compare: …/compare/{basehead} with a head branch holding slashes', async () => {
	const comparison = await must('GET', `${APP}/compare/main...${BRANCH}`);
	assert.is(comparison.ahead_by, 1);
	assert.is(comparison.merge_base_commit.sha, mainSha);
});

test.run();
