/**
 * The GraphQL queries and mutation Renovate 39 sends (captured from its package into
 * test/fixtures/renovate/*.graphql), run against a server with the variables Renovate passes, and
 * auto-merge end to end: enablePullRequestAutoMerge stores the request (REST `auto_merge`,
 * PullRequest.autoMergeRequest), the pull request is merged as its user once the required check
 * passes, and GitHub's refusals. No Renovate here: test/renovate.test.ts runs Renovate itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Receiver } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';

const FIXTURES = join(__dirname, 'fixtures', 'renovate');
const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.graphql`), 'utf8');
const APP = '/repos/acme/app';

const test = suite('renovate-graphql');
let s: TestServer;
let alice: string;
let bot: string;
let reader: string;
let stranger: string;
const receiver = new Receiver();

test.before(async () => {
	// The webhook receiver listens on loopback, which hooks may reach only when allowed.
	s = await startServer({ configure: (c) => void (c.webhooks.allowed_hosts = ['127.0.0.1']) });
	await receiver.start();
	s.user('alice');
	s.user('renovate-bot');
	s.user('reed');
	s.user('stranger');
	alice = s.fullToken('alice');
	bot = s.fullToken('renovate-bot');
	reader = s.fullToken('reed');
	stranger = s.fullToken('stranger');
	s.org('acme', 'alice');
	s.member('acme', 'renovate-bot', 'admin');
	s.member('acme', 'reed');
	await must('POST', '/orgs/acme/repos', { name: 'app', auto_init: true, private: true, allow_auto_merge: true });
	// reed reads the private repository (a team with pull), renovate-bot writes as an owner.
	const team = await must('POST', '/orgs/acme/teams', { name: 'readers', privacy: 'closed' });
	await must('PUT', `/orgs/acme/teams/${team.slug}/memberships/reed`, { role: 'member' });
	await must('PUT', `/orgs/acme/teams/${team.slug}/repos/acme/app`, { permission: 'pull' });
});
test.after(async () => {
	await receiver.stop();
	await s?.close();
});

async function must(method: string, path: string, body?: unknown, token = alice) {
	const res = await s.request(method, path, { token, body });
	assert.ok(res.status < 300, `${method} ${path} → ${res.status} ${res.text}`);
	return res.body;
}

async function graphql(query: string, variables: Record<string, unknown>, token = bot) {
	const res = await s.request('POST', '/api/graphql', { token, body: { query, variables } });
	assert.is(res.status, 200, res.text);
	return res.body as { data?: Record<string, any>; errors?: Array<{ type?: string; message: string }> };
}

/** A branch from main with one file changed, and a pull request of it by renovate-bot. */
async function pullRequest(branch: string): Promise<{ number: number; node_id: string; head: { sha: string } }> {
	const main = await must('GET', `${APP}/git/ref/heads/main`);
	await must('POST', `${APP}/git/refs`, { ref: `refs/heads/${branch}`, sha: main.object.sha }, bot);
	await must(
		'PUT',
		`${APP}/contents/${branch}.txt`,
		{ message: `Add ${branch}`, content: Buffer.from(`${branch}\n`).toString('base64'), branch },
		bot,
	);
	const pull = await must('POST', `${APP}/pulls`, { title: `Update ${branch}`, head: `acme:${branch}`, base: 'main' }, bot);
	await s.app.tasks.runDue();
	return pull;
}

test("repoInfoQuery: the repository's settings, its default branch's tip and the bot's latest issues", async () => {
	const issue = await must('POST', `${APP}/issues`, { title: 'Dependency Dashboard', body: 'dashboard' }, bot);
	await must('POST', `${APP}/issues`, { title: 'By alice' });
	const main = await must('GET', `${APP}/git/ref/heads/main`);
	const repo = await must('GET', APP);
	const { data, errors } = await graphql(fixture('repo-info'), { owner: 'acme', name: 'app', user: 'renovate-bot' });
	assert.is(errors, undefined, JSON.stringify(errors));
	const r = data!.repository;
	assert.is(r.id, repo.node_id);
	assert.is(r.isFork, false);
	assert.is(r.parent, null);
	assert.is(r.isArchived, false);
	assert.is(r.nameWithOwner, 'acme/app');
	assert.is(r.hasIssuesEnabled, true);
	assert.is(r.hasVulnerabilityAlertsEnabled, true, 'Dependabot alerts are on by default');
	assert.is(r.autoMergeAllowed, true);
	assert.is(r.mergeCommitAllowed, true);
	assert.is(r.rebaseMergeAllowed, true);
	assert.is(r.squashMergeAllowed, true);
	assert.equal(r.defaultBranchRef, { name: 'main', target: { oid: main.object.sha } });
	assert.equal(
		r.issues.nodes.map((i: { number: number; title: string; state: string }) => [i.number, i.title, i.state]),
		[[issue.number, 'Dependency Dashboard', 'OPEN']],
		"only renovate-bot's issues",
	);

	// The settings follow REST's writes.
	await must('DELETE', `${APP}/vulnerability-alerts`);
	await must('PATCH', APP, { allow_auto_merge: false, allow_rebase_merge: false });
	const again = (await graphql(fixture('repo-info'), { owner: 'acme', name: 'app', user: 'renovate-bot' })).data!.repository;
	assert.is(again.hasVulnerabilityAlertsEnabled, false);
	assert.is(again.autoMergeAllowed, false);
	assert.is(again.rebaseMergeAllowed, false);
	await must('PUT', `${APP}/vulnerability-alerts`);
	await must('PATCH', APP, { allow_auto_merge: true, allow_rebase_merge: true });

	// A caller who cannot see the repository: GitHub's NOT_FOUND, nothing of it.
	const hidden = await graphql(fixture('repo-info'), { owner: 'acme', name: 'app', user: 'stranger' }, stranger);
	assert.is(hidden.data?.repository ?? null, null);
	assert.is(hidden.errors?.[0].type, 'NOT_FOUND');
});

test('getIssuesQuery: the issues a user created, newest update first, paged with its cursor', async () => {
	const first = await must('POST', `${APP}/issues`, { title: 'Second bot issue' }, bot);
	const all = (await graphql(fixture('issues'), { owner: 'acme', name: 'app', user: 'renovate-bot', count: 100 })).data!.repository
		.issues;
	assert.equal(
		all.nodes.map((i: { title: string }) => i.title),
		['Second bot issue', 'Dependency Dashboard'],
	);
	assert.is(all.nodes[0].number, first.number);
	assert.is(all.nodes[0].body, '');
	assert.ok(!Number.isNaN(Date.parse(all.nodes[0].updatedAt)));
	assert.is(all.pageInfo.hasNextPage, false);
	const page1 = (await graphql(fixture('issues'), { owner: 'acme', name: 'app', user: 'renovate-bot', count: 1 })).data!.repository
		.issues;
	assert.is(page1.nodes.length, 1);
	assert.is(page1.pageInfo.hasNextPage, true);
	const page2 = (
		await graphql(fixture('issues'), { owner: 'acme', name: 'app', user: 'renovate-bot', count: 1, cursor: page1.pageInfo.endCursor })
	).data!.repository.issues;
	assert.equal(
		page2.nodes.map((i: { title: string }) => i.title),
		['Dependency Dashboard'],
	);
	assert.is(page2.pageInfo.hasNextPage, false);
});

test("viewer: an app token's login and id (Renovate's query for its bot)", async () => {
	const { data } = await graphql(fixture('viewer'), {});
	const me = await must('GET', '/user', undefined, bot);
	assert.equal(data!.viewer, { login: 'renovate-bot', databaseId: me.id });
});

test("viewer with an installation token: the app's bot, as Renovate running as a GitHub App reads it", async () => {
	const token = s.token('alice', { kind: 'installation', org: 'acme' });
	const { data, errors } = await graphql(fixture('viewer'), {}, token);
	assert.is(errors, undefined, JSON.stringify(errors));
	const bot = s.app.stores.accounts.byLogin('test-app[bot]');
	assert.ok(bot, 'the test app has its bot account');
	assert.equal(data!.viewer, { login: 'test-app[bot]', databaseId: bot!.id });
});

test('enablePullRequestAutoMerge: refused while the pull request could be merged now, or where the repository does not allow it', async () => {
	const pull = await pullRequest('clean');
	const clean = await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'SQUASH' });
	assert.is(clean.errors?.[0].type, 'UNPROCESSABLE');
	assert.is(clean.errors?.[0].message, 'Pull request Pull request is in clean status');
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).auto_merge, null);

	await must('PATCH', APP, { allow_auto_merge: false });
	const off = await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'SQUASH' });
	assert.is(off.errors?.[0].type, 'UNPROCESSABLE');
	assert.is(off.errors?.[0].message, 'Pull request Auto merge is not allowed for this repository');
	await must('PATCH', APP, { allow_auto_merge: true });

	// Who may not: a reader (FORBIDDEN), someone who cannot see it (NOT_FOUND, as for any unknown id).
	const read = await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'SQUASH' }, reader);
	assert.is(read.errors?.[0].type, 'FORBIDDEN');
	const hidden = await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'SQUASH' }, stranger);
	assert.is(hidden.errors?.[0].type, 'NOT_FOUND');
	const unknown = await graphql(fixture('enable-auto-merge'), {
		pullRequestId: Buffer.from('011:PullRequest999999').toString('base64'),
		mergeMethod: 'MERGE',
	});
	assert.is(unknown.errors?.[0].type, 'NOT_FOUND');
	await must('PATCH', `${APP}/pulls/${pull.number}`, { state: 'closed' });
});

test('auto-merge: stored and shown while a required check is pending, then merged as its user with its method once the check passes', async () => {
	await must('PUT', `${APP}/branches/main/protection`, {
		required_status_checks: { strict: false, contexts: ['ci'] },
		enforce_admins: false,
		required_pull_request_reviews: null,
		restrictions: null,
	});
	const pull = await pullRequest('waiting');
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).mergeable_state, 'blocked');
	const { data, errors } = await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'SQUASH' });
	assert.is(errors, undefined, JSON.stringify(errors));
	assert.equal(data!.enablePullRequestAutoMerge, { pullRequest: { number: pull.number } });

	const shown = await must('GET', `${APP}/pulls/${pull.number}`);
	assert.equal(shown.auto_merge, {
		enabled_by: shown.auto_merge.enabled_by,
		merge_method: 'squash',
		commit_title: '',
		commit_message: '',
	});
	assert.is(shown.auto_merge.enabled_by.login, 'renovate-bot');
	const listed = (await must('GET', `${APP}/pulls`)).find((p: { number: number }) => p.number === pull.number);
	assert.is(listed.auto_merge.merge_method, 'squash');
	const read = await graphql(
		`query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) {
			autoMergeRequest { mergeMethod enabledBy { login } enabledAt commitHeadline commitBody pullRequest { number } } } } }`,
		{ owner: 'acme', name: 'app', number: pull.number },
	);
	assert.is(read.errors, undefined, JSON.stringify(read.errors));
	const request = read.data!.repository.pullRequest.autoMergeRequest;
	assert.is(request.mergeMethod, 'SQUASH');
	assert.is(request.enabledBy.login, 'renovate-bot');
	assert.is(request.pullRequest.number, pull.number);
	assert.ok(!Number.isNaN(Date.parse(request.enabledAt)));

	// A pending status changes nothing; the passing one merges it.
	await must('POST', `${APP}/statuses/${pull.head.sha}`, { state: 'pending', context: 'ci' });
	await s.app.tasks.runDue();
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).state, 'open');
	const before = await must('GET', `${APP}/git/ref/heads/main`);
	await must('POST', `${APP}/statuses/${pull.head.sha}`, { state: 'success', context: 'ci' });
	await s.app.tasks.runDue();
	const merged = await must('GET', `${APP}/pulls/${pull.number}`);
	assert.is(merged.merged, true);
	assert.is(merged.merged_by.login, 'renovate-bot');
	assert.is(merged.auto_merge, null);
	const after = await must('GET', `${APP}/git/ref/heads/main`);
	const commit = await must('GET', `${APP}/git/commits/${after.object.sha}`);
	assert.equal(
		commit.parents.map((p: { sha: string }) => p.sha),
		[before.object.sha],
		'a squash: one parent',
	);
	// GitHub's default squash title for a single commit: the commit's own, with the number.
	assert.is(commit.message.split('\n')[0], `Add waiting (#${pull.number})`);
});

test('disablePullRequestAutoMerge: the request goes, REST shows auto_merge null, and the pull request stays open when the check passes', async () => {
	const pull = await pullRequest('disabled');
	const enabled = await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'MERGE' });
	assert.is(enabled.errors, undefined, JSON.stringify(enabled.errors));
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).auto_merge.merge_method, 'merge');
	const disabled = await graphql(
		'mutation($id: ID!) { disablePullRequestAutoMerge(input: {pullRequestId: $id, clientMutationId: "x"}) { clientMutationId actor { login } pullRequest { number autoMergeRequest { mergeMethod } } } }',
		{ id: pull.node_id },
	);
	assert.is(disabled.errors, undefined, JSON.stringify(disabled.errors));
	assert.equal(disabled.data!.disablePullRequestAutoMerge, {
		clientMutationId: 'x',
		actor: { login: 'renovate-bot' },
		pullRequest: { number: pull.number, autoMergeRequest: null },
	});
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).auto_merge, null);
	await must('POST', `${APP}/statuses/${pull.head.sha}`, { state: 'success', context: 'ci' });
	await s.app.tasks.runDue();
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).state, 'open');
});

test('closing a pull request drops its auto-merge request: reopened, it stays open when the check passes', async () => {
	const pull = await pullRequest('closed');
	const enabled = await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'REBASE' });
	assert.is(enabled.errors, undefined, JSON.stringify(enabled.errors));
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).auto_merge.merge_method, 'rebase');
	await must('PATCH', `${APP}/pulls/${pull.number}`, { state: 'closed' });
	await must('PATCH', `${APP}/pulls/${pull.number}`, { state: 'open' });
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).auto_merge, null);
	await must('POST', `${APP}/statuses/${pull.head.sha}`, { state: 'success', context: 'ci' });
	await s.app.tasks.runDue();
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).state, 'open');
});

test('auto-merge waits for a required approving review, then merges when it is submitted', async () => {
	await must('PUT', `${APP}/branches/main/protection`, {
		required_status_checks: null,
		enforce_admins: false,
		required_pull_request_reviews: { required_approving_review_count: 1 },
		restrictions: null,
	});
	const pull = await pullRequest('reviewed');
	const enabled = await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'MERGE' });
	assert.is(enabled.errors, undefined, JSON.stringify(enabled.errors));
	await s.app.tasks.runDue();
	assert.is((await must('GET', `${APP}/pulls/${pull.number}`)).state, 'open', 'no approval yet');
	await must('POST', `${APP}/pulls/${pull.number}/reviews`, { event: 'APPROVE', body: 'Looks good' });
	await s.app.tasks.runDue();
	const merged = await must('GET', `${APP}/pulls/${pull.number}`);
	assert.is(merged.merged, true);
	assert.is(merged.merged_by.login, 'renovate-bot');
	const commit = await must('GET', `${APP}/git/commits/${merged.merge_commit_sha}`);
	assert.is(commit.parents.length, 2, 'a merge commit');
});

test('webhooks: pull_request auto_merge_enabled, then auto_merge_disabled with its reason', async () => {
	await must('POST', `${APP}/hooks`, {
		config: { url: `${receiver.origin}/hook`, content_type: 'json' },
		events: ['pull_request'],
	});
	const pull = await pullRequest('hooked');
	await graphql(fixture('enable-auto-merge'), { pullRequestId: pull.node_id, mergeMethod: 'SQUASH' });
	await graphql('mutation($id: ID!) { disablePullRequestAutoMerge(input: {pullRequestId: $id}) { clientMutationId } }', {
		id: pull.node_id,
	});
	await s.app.webhooks.deliverDue();
	await receiver.waitFor((all) => all.some((r) => r.payload.action === 'auto_merge_disabled'));
	const actions = receiver.received.filter((r) => r.payload.number === pull.number).map((r) => r.payload.action);
	assert.ok(actions.includes('auto_merge_enabled'), actions.join());
	const enabled = receiver.received.find((r) => r.payload.action === 'auto_merge_enabled')!.payload;
	assert.is(enabled.pull_request.auto_merge.merge_method, 'squash');
	assert.is(enabled.sender.login, 'renovate-bot');
	const disabled = receiver.received.find((r) => r.payload.action === 'auto_merge_disabled')!.payload;
	assert.is(disabled.pull_request.auto_merge, null);
	assert.type(disabled.reason, 'string');
});

test.run();
