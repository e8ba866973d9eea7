/**
 * GraphQL mutations decide access with their REST twin's route rules and call the same services:
 * a read-only collaborator is FORBIDDEN where REST answers 403, an outsider NOT_FOUND on a private
 * repository where REST answers 404, and each mutation's effect, read back through REST, is what
 * the REST write makes (labels, stars, pull requests, reviews, review requests, merges, locks,
 * drafts, issue transfer with createLabelsIfMissing, pins, deletion).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';

const test = suite('graphql-mutations');
let s: TestServer;
let olivia: string; // owns olivia/app (public), olivia/vault (private), olivia/docs (public)
let mike: string; // push collaborator on olivia/app
let rita: string; // read collaborator on olivia/app
let eve: string; // outsider

type Json = any;

const gql = async (token: string, query: string, variables: Record<string, unknown> = {}): Promise<Json> =>
	(await s.request('POST', `${s.origin}/api/graphql`, { token, body: { query, variables } })).body;

async function must(method: string, path: string, body?: unknown, token = olivia): Promise<Json> {
	const res = await s.request(method, path, { token, body });
	assert.ok(res.status >= 200 && res.status < 300, `~> setup ${method} ${path}: ${res.status} ${res.text}`);
	return res.body;
}

/** Data of a GraphQL answer that must have no errors. */
async function data(token: string, query: string, variables: Record<string, unknown> = {}): Promise<Json> {
	const res = await gql(token, query, variables);
	assert.is(res.errors, undefined, JSON.stringify(res.errors));
	return res.data;
}

/** The type of the first error of a GraphQL answer that must fail. */
async function refusal(token: string, query: string, variables: Record<string, unknown> = {}): Promise<string> {
	const res = await gql(token, query, variables);
	assert.ok(res.errors?.length, `expected an error, got ${JSON.stringify(res.data)}`);
	return res.errors[0].type;
}

/** A branch `name` of `repo` from main with one more file; returns nothing. */
async function branch(repo: string, name: string, path = `${name}.txt`) {
	const main = await must('GET', `/repos/olivia/${repo}/git/ref/heads/main`);
	await must('POST', `/repos/olivia/${repo}/git/refs`, { ref: `refs/heads/${name}`, sha: main.object.sha });
	await must('PUT', `/repos/olivia/${repo}/contents/${path}`, {
		message: `Add ${path}`,
		content: Buffer.from(`${name}\n`).toString('base64'),
		branch: name,
	});
}

const node = (path: string, token = olivia) => must('GET', path, undefined, token).then((body) => body.node_id as string);

const MERGE = 'mutation($id: ID!) { mergePullRequest(input: {pullRequestId: $id, mergeMethod: SQUASH}) { pullRequest { merged state } } }';
const ADD_LABELS =
	'mutation($id: ID!, $labels: [ID!]!) { addLabelsToLabelable(input: {labelableId: $id, labelIds: $labels}) { labelable { ... on Issue { labels(first: 10) { nodes { name } } } ... on PullRequest { labels(first: 10) { nodes { name } } } } } }';
const LOCK =
	'mutation($id: ID!) { lockLockable(input: {lockableId: $id, lockReason: TOO_HEATED}) { actor { login } lockedRecord { locked activeLockReason } } }';

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'rita', 'eve']) s.user(login);
	olivia = s.fullToken('olivia');
	mike = s.fullToken('mike');
	rita = s.fullToken('rita');
	eve = s.fullToken('eve');
	await must('POST', '/user/repos', { name: 'app', auto_init: true });
	await must('POST', '/user/repos', { name: 'vault', private: true, auto_init: true });
	await must('POST', '/user/repos', { name: 'docs' });
	const { repos, accounts } = s.app.stores;
	const app = repos.byOwnerAndName(accounts.user('olivia')!.id, 'app')!;
	repos.setCollaborator(app.id, accounts.user('mike')!.id, 'push', isoSeconds(s.clock.now));
	repos.setCollaborator(app.id, accounts.user('rita')!.id, 'pull', isoSeconds(s.clock.now));
	await must('POST', '/repos/olivia/app/issues', { title: 'First' });
	await must('POST', '/repos/olivia/vault/issues', { title: 'Hidden' });
	await branch('app', 'feature');
	await branch('vault', 'secret');
	await must('POST', '/repos/olivia/vault/pulls', { title: 'Secret change', head: 'secret', base: 'main' });
});

test.after(() => s.close());

test('access edges: read-only collaborators are FORBIDDEN, outsiders NOT_FOUND on a private repository, as REST says 403 / 404', async () => {
	const pull = await must('POST', '/repos/olivia/app/pulls', { title: 'Guarded', head: 'feature', base: 'main' }, mike);
	const bug = await node('/repos/olivia/app/labels/bug');
	// rita reads olivia/app: she sees the pull request but may neither merge nor label it.
	assert.is(await refusal(rita, MERGE, { id: pull.node_id }), 'FORBIDDEN');
	assert.is((await s.request('PUT', `/repos/olivia/app/pulls/${pull.number}/merge`, { token: rita, body: {} })).status, 403);
	assert.is(await refusal(rita, ADD_LABELS, { id: pull.node_id, labels: [bug] }), 'FORBIDDEN');
	assert.is(
		(await s.request('POST', `/repos/olivia/app/issues/${pull.number}/labels`, { token: rita, body: { labels: ['bug'] } })).status,
		403,
	);
	assert.is(await refusal(rita, LOCK, { id: pull.node_id }), 'FORBIDDEN');
	const after = await must('GET', `/repos/olivia/app/pulls/${pull.number}`);
	assert.is(after.merged, false);
	assert.equal(after.labels, []);
	assert.is(after.locked, false);

	// eve cannot see olivia/vault: every mutation naming it is NOT_FOUND, with GitHub's message.
	const vaultPull = await node('/repos/olivia/vault/pulls/2');
	const vaultIssue = await node('/repos/olivia/vault/issues/1');
	const vault = await node('/repos/olivia/vault');
	const vaultBug = await node('/repos/olivia/vault/labels/bug');
	const hidden = await gql(eve, MERGE, { id: vaultPull });
	assert.is(hidden.errors[0].type, 'NOT_FOUND');
	assert.is(hidden.errors[0].message, `Could not resolve to a node with the global id of '${vaultPull}'`);
	assert.is((await s.request('PUT', '/repos/olivia/vault/pulls/2/merge', { token: eve, body: {} })).status, 404);
	assert.is(await refusal(eve, ADD_LABELS, { id: vaultIssue, labels: [vaultBug] }), 'NOT_FOUND');
	assert.is(await refusal(eve, LOCK, { id: vaultIssue }), 'NOT_FOUND');
	assert.is(
		await refusal(eve, 'mutation($id: ID!) { addStar(input: {starrableId: $id}) { clientMutationId } }', { id: vault }),
		'NOT_FOUND',
	);
	assert.is(
		await refusal(
			eve,
			'mutation($id: ID!) { createLabel(input: {repositoryId: $id, name: "x", color: "ffffff"}) { label { name } } }',
			{
				id: vault,
			},
		),
		'NOT_FOUND',
	);
	assert.is(
		await refusal(eve, 'mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { clientMutationId } }', {
			id: vaultPull,
		}),
		'NOT_FOUND',
	);
	assert.is((await must('GET', '/repos/olivia/vault/pulls/2')).merged, false);

	// A token with Pull requests (read) only: creating a pull request is FORBIDDEN, as POST …/pulls is 403.
	const readOnly = s.token('olivia', {
		kind: 'fine-grained',
		permissions: { pull_requests: 'read', metadata: 'read', contents: 'read' },
	});
	const create =
		'mutation($id: ID!) { createPullRequest(input: {repositoryId: $id, title: "x", headRefName: "feature", baseRefName: "main"}) { pullRequest { number } } }';
	assert.is(await refusal(readOnly, create, { id: await node('/repos/olivia/app') }), 'FORBIDDEN');
	assert.is(
		(await s.request('POST', '/repos/olivia/app/pulls', { token: readOnly, body: { title: 'x', head: 'feature', base: 'main' } }))
			.status,
		403,
	);
	await must('PATCH', `/repos/olivia/app/pulls/${pull.number}`, { state: 'closed' });
});

test('labels: createLabel, addLabelsToLabelable and removeLabelsFromLabelable as the REST label routes', async () => {
	const repositoryId = await node('/repos/olivia/app');
	const created = await data(
		olivia,
		'mutation($id: ID!) { createLabel(input: {repositoryId: $id, name: "needs-triage", color: "C0FFEE", description: "Look at it"}) { label { id name color description } } }',
		{ id: repositoryId },
	);
	const rest = await must('GET', '/repos/olivia/app/labels/needs-triage');
	assert.equal(created.createLabel.label, { id: rest.node_id, name: rest.name, color: rest.color, description: rest.description });
	assert.is(rest.color, 'C0FFEE');
	const duplicate = await gql(
		olivia,
		'mutation($id: ID!) { createLabel(input: {repositoryId: $id, name: "Needs-Triage", color: "ffffff"}) { label { name } } }',
		{
			id: repositoryId,
		},
	);
	assert.is(duplicate.errors[0].type, 'UNPROCESSABLE');

	const issue = await node('/repos/olivia/app/issues/1');
	const bug = await node('/repos/olivia/app/labels/bug');
	const added = await data(olivia, ADD_LABELS, { id: issue, labels: [bug, created.createLabel.label.id] });
	const names = (await must('GET', '/repos/olivia/app/issues/1/labels')).map((l: Json) => l.name);
	assert.equal(added.addLabelsToLabelable.labelable.labels.nodes.map((l: Json) => l.name).sort(), [...names].sort());
	assert.equal(names.sort(), ['bug', 'needs-triage']);
	// A label of another repository is not one of this issue's repository: NOT_FOUND, nothing changes.
	const foreign = await node('/repos/olivia/docs/labels/enhancement');
	assert.is(await refusal(olivia, ADD_LABELS, { id: issue, labels: [foreign] }), 'NOT_FOUND');

	const removed = await data(
		olivia,
		'mutation($id: ID!, $labels: [ID!]!) { removeLabelsFromLabelable(input: {labelableId: $id, labelIds: $labels}) { labelable { ... on Issue { labels(first: 10) { nodes { name } } } } } }',
		{ id: issue, labels: [bug, await node('/repos/olivia/app/labels/wontfix')] },
	);
	assert.equal(removed.removeLabelsFromLabelable.labelable.labels.nodes, [{ name: 'needs-triage' }]);
	assert.equal(
		(await must('GET', '/repos/olivia/app/issues/1/labels')).map((l: Json) => l.name),
		['needs-triage'],
	);
});

test('addStar and removeStar: the REST star, counted in stargazers_count', async () => {
	const id = await node('/repos/olivia/docs');
	const star = await data(mike, 'mutation($id: ID!) { addStar(input: {starrableId: $id}) { starrable { stargazerCount } } }', { id });
	assert.is((await s.request('GET', '/user/starred/olivia/docs', { token: mike })).status, 204);
	assert.is(star.addStar.starrable.stargazerCount, (await must('GET', '/repos/olivia/docs')).stargazers_count);
	assert.is(star.addStar.starrable.stargazerCount, 1);
	const again = await data(mike, 'mutation($id: ID!) { addStar(input: {starrableId: $id}) { starrable { stargazerCount } } }', { id });
	assert.is(again.addStar.starrable.stargazerCount, 1);
	const unstar = await data(mike, 'mutation($id: ID!) { removeStar(input: {starrableId: $id}) { starrable { stargazerCount } } }', {
		id,
	});
	assert.is(unstar.removeStar.starrable.stargazerCount, 0);
	assert.is((await s.request('GET', '/user/starred/olivia/docs', { token: mike })).status, 404);
});

test('pull requests: create, update, review requests, reviews, draft, close/reopen, merge read back through REST', async () => {
	await branch('app', 'topic');
	const repositoryId = await node('/repos/olivia/app');
	const created = await data(
		mike,
		`mutation($id: ID!) { createPullRequest(input: {repositoryId: $id, title: "Topic", body: "Adds topic", headRefName: "topic", baseRefName: "main", draft: true}) {
			pullRequest { id number title body isDraft headRefName baseRefName state } } }`,
		{ id: repositoryId },
	);
	const pr = created.createPullRequest.pullRequest;
	let rest = await must('GET', `/repos/olivia/app/pulls/${pr.number}`);
	assert.equal(
		{ id: pr.id, title: pr.title, body: pr.body, isDraft: pr.isDraft, head: pr.headRefName, base: pr.baseRefName, state: pr.state },
		{
			id: rest.node_id,
			title: rest.title,
			body: rest.body,
			isDraft: rest.draft,
			head: rest.head.ref,
			base: rest.base.ref,
			state: 'OPEN',
		},
	);
	// The same head and base again: REST's 422, as UNPROCESSABLE.
	const twice = await gql(
		mike,
		'mutation($id: ID!) { createPullRequest(input: {repositoryId: $id, title: "Again", headRefName: "topic", baseRefName: "main"}) { pullRequest { number } } }',
		{ id: repositoryId },
	);
	assert.is(twice.errors[0].type, 'UNPROCESSABLE');
	assert.match(twice.errors[0].message, /already exists/);

	const enhancement = await node('/repos/olivia/app/labels/enhancement');
	await data(
		olivia,
		'mutation($id: ID!, $labels: [ID!]) { updatePullRequest(input: {pullRequestId: $id, title: "Topic, renamed", labelIds: $labels}) { pullRequest { title } } }',
		{ id: pr.id, labels: [enhancement] },
	);
	rest = await must('GET', `/repos/olivia/app/pulls/${pr.number}`);
	assert.is(rest.title, 'Topic, renamed');
	assert.equal(
		rest.labels.map((l: Json) => l.name),
		['enhancement'],
	);

	const ritaId = await node('/users/rita');
	const oliviaId = await node('/users/olivia');
	await data(
		olivia,
		'mutation($id: ID!, $users: [ID!]) { requestReviews(input: {pullRequestId: $id, userIds: $users}) { clientMutationId } }',
		{
			id: pr.id,
			users: [ritaId, oliviaId],
		},
	);
	let requested = await must('GET', `/repos/olivia/app/pulls/${pr.number}/requested_reviewers`);
	assert.equal(requested.users.map((u: Json) => u.login).sort(), ['olivia', 'rita']);
	// Without union the requests become exactly the ones named.
	await data(
		olivia,
		'mutation($id: ID!, $users: [ID!]) { requestReviews(input: {pullRequestId: $id, userIds: $users}) { clientMutationId } }',
		{
			id: pr.id,
			users: [ritaId],
		},
	);
	requested = await must('GET', `/repos/olivia/app/pulls/${pr.number}/requested_reviewers`);
	assert.equal(
		requested.users.map((u: Json) => u.login),
		['rita'],
	);

	// Asking the author is REST's 422, and nothing is withdrawn either: one transaction.
	const refused = await gql(
		olivia,
		'mutation($id: ID!, $users: [ID!]) { requestReviews(input: {pullRequestId: $id, userIds: $users}) { clientMutationId } }',
		{ id: pr.id, users: [await node('/users/mike')] },
	);
	assert.is(refused.errors[0].type, 'UNPROCESSABLE');
	assert.is(
		(
			await s.request('POST', `/repos/olivia/app/pulls/${pr.number}/requested_reviewers`, {
				token: olivia,
				body: { reviewers: ['mike'] },
			})
		).status,
		422,
	);
	requested = await must('GET', `/repos/olivia/app/pulls/${pr.number}/requested_reviewers`);
	assert.equal(
		requested.users.map((u: Json) => u.login),
		['rita'],
	);

	const ready = await data(
		mike,
		'mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }',
		{ id: pr.id },
	);
	assert.is(ready.markPullRequestReadyForReview.pullRequest.isDraft, false);
	assert.is((await must('GET', `/repos/olivia/app/pulls/${pr.number}`)).draft, false);

	// A pending review, then submitted by naming the pull request; and an approval in one step.
	const pending = await data(
		rita,
		'mutation($id: ID!) { addPullRequestReview(input: {pullRequestId: $id, body: "Looking"}) { pullRequestReview { id state } } }',
		{ id: pr.id },
	);
	assert.is(pending.addPullRequestReview.pullRequestReview.state, 'PENDING');
	const submitted = await data(
		rita,
		'mutation($id: ID!) { submitPullRequestReview(input: {pullRequestId: $id, event: COMMENT, body: "Nice"}) { pullRequestReview { id state body } } }',
		{ id: pr.id },
	);
	assert.equal(submitted.submitPullRequestReview.pullRequestReview, {
		id: pending.addPullRequestReview.pullRequestReview.id,
		state: 'COMMENTED',
		body: 'Nice',
	});
	const approved = await data(
		olivia,
		'mutation($id: ID!) { addPullRequestReview(input: {pullRequestId: $id, event: APPROVE}) { pullRequestReview { id state author { login } } } }',
		{ id: pr.id },
	);
	const reviews = await must('GET', `/repos/olivia/app/pulls/${pr.number}/reviews`);
	assert.equal(
		reviews.map((r: Json) => [r.node_id, r.state, r.user.login]),
		[
			[submitted.submitPullRequestReview.pullRequestReview.id, 'COMMENTED', 'rita'],
			[approved.addPullRequestReview.pullRequestReview.id, 'APPROVED', 'olivia'],
		],
	);
	// Dismissing takes push access: rita (read) is FORBIDDEN as REST's 403; olivia dismisses her approval.
	const DISMISS =
		'mutation($id: ID!) { dismissPullRequestReview(input: {pullRequestReviewId: $id, message: "Stale"}) { pullRequestReview { state } } }';
	const approval = approved.addPullRequestReview.pullRequestReview.id;
	assert.is(await refusal(rita, DISMISS, { id: approval }), 'FORBIDDEN');
	const approvalId = reviews[1].id;
	assert.is(
		(
			await s.request('PUT', `/repos/olivia/app/pulls/${pr.number}/reviews/${approvalId}/dismissals`, {
				token: rita,
				body: { message: 'x' },
			})
		).status,
		403,
	);
	const dismissed = await data(olivia, DISMISS, { id: approval });
	assert.is(dismissed.dismissPullRequestReview.pullRequestReview.state, 'DISMISSED');
	assert.is((await must('GET', `/repos/olivia/app/pulls/${pr.number}/reviews/${approvalId}`)).state, 'DISMISSED');
	const secretReview = await must('POST', '/repos/olivia/vault/pulls/2/reviews', { event: 'COMMENT', body: 'Private note' });
	assert.is(await refusal(eve, DISMISS, { id: secretReview.node_id }), 'NOT_FOUND');
	// The author cannot approve their own pull request: REST's 422 rule.
	const own = await gql(
		mike,
		'mutation($id: ID!) { addPullRequestReview(input: {pullRequestId: $id, event: APPROVE}) { pullRequestReview { id } } }',
		{
			id: pr.id,
		},
	);
	assert.is(own.errors[0].type, 'UNPROCESSABLE');

	const closed = await data(mike, 'mutation($id: ID!) { closePullRequest(input: {pullRequestId: $id}) { pullRequest { state } } }', {
		id: pr.id,
	});
	assert.is(closed.closePullRequest.pullRequest.state, 'CLOSED');
	assert.is((await must('GET', `/repos/olivia/app/pulls/${pr.number}`)).state, 'closed');
	const reopened = await data(mike, 'mutation($id: ID!) { reopenPullRequest(input: {pullRequestId: $id}) { pullRequest { state } } }', {
		id: pr.id,
	});
	assert.is(reopened.reopenPullRequest.pullRequest.state, 'OPEN');

	const merged = await data(olivia, MERGE, { id: pr.id });
	assert.equal(merged.mergePullRequest.pullRequest, { merged: true, state: 'MERGED' });
	rest = await must('GET', `/repos/olivia/app/pulls/${pr.number}`);
	assert.is(rest.merged, true);
	assert.is(rest.merged_by.login, 'olivia');
	assert.is((await s.request('GET', `/repos/olivia/app/pulls/${pr.number}/merge`, { token: olivia })).status, 204);
	const main = await must('GET', '/repos/olivia/app/contents/topic.txt?ref=main');
	assert.is(Buffer.from(main.content, 'base64').toString(), 'topic\n');
	// Merging again: REST's 405 "Pull Request is not mergeable" as UNPROCESSABLE.
	assert.is(await refusal(olivia, MERGE, { id: pr.id }), 'UNPROCESSABLE');
});

test('lockLockable and unlockLockable: the REST lock, with the actor', async () => {
	const issue = await must('POST', '/repos/olivia/app/issues', { title: 'Heated' });
	const locked = await data(mike, LOCK, { id: issue.node_id });
	assert.equal(locked.lockLockable, { actor: { login: 'mike' }, lockedRecord: { locked: true, activeLockReason: 'TOO_HEATED' } });
	let rest = await must('GET', `/repos/olivia/app/issues/${issue.number}`);
	assert.is(rest.locked, true);
	assert.is(rest.active_lock_reason, 'too heated');
	const unlocked = await data(
		mike,
		'mutation($id: ID!) { unlockLockable(input: {lockableId: $id}) { unlockedRecord { locked activeLockReason } } }',
		{ id: issue.node_id },
	);
	assert.equal(unlocked.unlockLockable.unlockedRecord, { locked: false, activeLockReason: null });
	rest = await must('GET', `/repos/olivia/app/issues/${issue.number}`);
	assert.is(rest.locked, false);
});

test('transferIssue with createLabelsIfMissing creates the missing labels (name, color, description) in the destination', async () => {
	const issue = await must('POST', '/repos/olivia/app/issues', { title: 'Move me', labels: ['needs-triage', 'bug', 'made-up'] });
	assert.is((await s.request('GET', '/repos/olivia/docs/labels/needs-triage', { token: olivia })).status, 404);
	const docs = await node('/repos/olivia/docs');
	const hook = await must('POST', '/repos/olivia/docs/hooks', {
		name: 'web',
		config: { url: 'https://hooks.example.com/docs', content_type: 'json' },
		events: ['label', 'issues'],
	});
	const deliveries = (event: string): Json[] =>
		s.app.stores.webhooks
			.deliveries({ hookId: hook.id, status: null, limit: 1000, offset: 0 })
			.rows.filter((row) => row.event === event)
			.map((row) => ({ action: row.action, ...JSON.parse(row.payload) }));
	// Without the option, labels the destination lacks are dropped (GitHub's default).
	const plain = await must('POST', '/repos/olivia/app/issues', { title: 'Move me plainly', labels: ['needs-triage', 'bug'] });
	const moved = await data(
		olivia,
		'mutation($id: ID!, $repo: ID!) { transferIssue(input: {issueId: $id, repositoryId: $repo}) { issue { number labels(first: 10) { nodes { name } } } } }',
		{ id: plain.node_id, repo: docs },
	);
	assert.equal(moved.transferIssue.issue.labels.nodes, [{ name: 'bug' }]);
	assert.is((await s.request('GET', '/repos/olivia/docs/labels/needs-triage', { token: olivia })).status, 404);

	const withLabels = await data(
		olivia,
		`mutation($id: ID!, $repo: ID!) { transferIssue(input: {issueId: $id, repositoryId: $repo, createLabelsIfMissing: true}) {
			issue { number repository { nameWithOwner } labels(first: 10) { nodes { name color description } } } } }`,
		{ id: issue.node_id, repo: docs },
	);
	const target = withLabels.transferIssue.issue;
	assert.is(target.repository.nameWithOwner, 'olivia/docs');
	for (const name of ['needs-triage', 'made-up']) {
		const source = await must('GET', `/repos/olivia/app/labels/${name}`);
		const copy = await must('GET', `/repos/olivia/docs/labels/${name}`);
		assert.equal([copy.name, copy.color, copy.description], [source.name, source.color, source.description]);
		assert.is(copy.default, false);
	}
	const restLabels = (await must('GET', `/repos/olivia/docs/issues/${target.number}/labels`)).map((l: Json) => l.name).sort();
	assert.equal(restLabels, ['bug', 'made-up', 'needs-triage']);
	assert.equal(target.labels.nodes.map((l: Json) => l.name).sort(), restLabels);
	assert.equal(
		target.labels.nodes.find((l: Json) => l.name === 'needs-triage'),
		{ name: 'needs-triage', color: 'C0FFEE', description: 'Look at it' },
	);
	// The labels created and the issue opened in the destination are reported as REST's writes report them.
	assert.equal(
		deliveries('label')
			.map((d) => [d.action, d.label.name, d.label.color, d.sender.login])
			.sort(),
		[
			['created', 'made-up', 'ededed', 'olivia'],
			['created', 'needs-triage', 'C0FFEE', 'olivia'],
		],
	);
	const opened = deliveries('issues').filter((d) => d.action === 'opened' && d.issue.number === target.number);
	assert.is(opened.length, 1);
	assert.is(opened[0].changes.old_repository.full_name, 'olivia/app');
	// The old number answers 301 to where the issue is now.
	const old = await s.request('GET', `/repos/olivia/app/issues/${issue.number}`, { token: olivia });
	assert.is(old.status, 301);
	// A read collaborator of the source may not transfer: FORBIDDEN (write access to both needed).
	const other = await must('POST', '/repos/olivia/app/issues', { title: 'Stay' });
	assert.is(
		await refusal(
			rita,
			'mutation($id: ID!, $repo: ID!) { transferIssue(input: {issueId: $id, repositoryId: $repo}) { issue { number } } }',
			{
				id: other.node_id,
				repo: docs,
			},
		),
		'FORBIDDEN',
	);
});

test('pinIssue, unpinIssue and deleteIssue: pins read back, a deleted issue answers 410', async () => {
	const issue = await must('POST', '/repos/olivia/app/issues', { title: 'Pin me' });
	const pinned = await data(olivia, 'mutation($id: ID!) { pinIssue(input: {issueId: $id}) { issue { number isPinned } } }', {
		id: issue.node_id,
	});
	assert.equal(pinned.pinIssue.issue, { number: issue.number, isPinned: true });
	const list = await data(
		olivia,
		'{ repository(owner: "olivia", name: "app") { pinnedIssues(first: 3) { nodes { issue { number } pinnedBy { login } } } } }',
	);
	assert.equal(list.repository.pinnedIssues.nodes, [{ issue: { number: issue.number }, pinnedBy: { login: 'olivia' } }]);
	// Pinning takes write access: rita reads the repository only.
	assert.is(
		await refusal(rita, 'mutation($id: ID!) { unpinIssue(input: {issueId: $id}) { issue { number } } }', { id: issue.node_id }),
		'FORBIDDEN',
	);
	await data(olivia, 'mutation($id: ID!) { unpinIssue(input: {issueId: $id}) { issue { isPinned } } }', { id: issue.node_id });
	const none = await data(olivia, '{ repository(owner: "olivia", name: "app") { pinnedIssues(first: 3) { totalCount } } }');
	assert.is(none.repository.pinnedIssues.totalCount, 0);

	// Deleting takes admin: mike (push) is FORBIDDEN, olivia deletes.
	assert.is(
		await refusal(mike, 'mutation($id: ID!) { deleteIssue(input: {issueId: $id}) { repository { name } } }', { id: issue.node_id }),
		'FORBIDDEN',
	);
	const deleted = await data(olivia, 'mutation($id: ID!) { deleteIssue(input: {issueId: $id}) { repository { nameWithOwner } } }', {
		id: issue.node_id,
	});
	assert.is(deleted.deleteIssue.repository.nameWithOwner, 'olivia/app');
	assert.is((await s.request('GET', `/repos/olivia/app/issues/${issue.number}`, { token: olivia })).status, 410);
});

test('archiveRepository, unarchiveRepository and createRepository: the REST repository writes and their access', async () => {
	const id = await node('/repos/olivia/docs');
	const ARCHIVE = 'mutation($id: ID!) { archiveRepository(input: {repositoryId: $id}) { repository { isArchived } } }';
	// Archiving takes admin: mike (push) is FORBIDDEN as PATCH /repos/{owner}/{repo} is 403 for him.
	const app = await node('/repos/olivia/app');
	assert.is(await refusal(mike, ARCHIVE, { id: app }), 'FORBIDDEN');
	assert.is((await s.request('PATCH', '/repos/olivia/app', { token: mike, body: { archived: true } })).status, 403);
	assert.is(await refusal(eve, ARCHIVE, { id: await node('/repos/olivia/vault') }), 'NOT_FOUND');
	const archived = await data(olivia, ARCHIVE, { id });
	assert.is(archived.archiveRepository.repository.isArchived, true);
	assert.is((await must('GET', '/repos/olivia/docs')).archived, true);
	// An archived repository takes no other change, in GraphQL as in REST.
	const label = await gql(
		olivia,
		'mutation($id: ID!) { createLabel(input: {repositoryId: $id, name: "late", color: "ffffff"}) { label { name } } }',
		{
			id,
		},
	);
	assert.is(label.errors[0].type, 'FORBIDDEN');
	assert.is((await s.request('POST', '/repos/olivia/docs/labels', { token: olivia, body: { name: 'late' } })).status, 403);
	const unarchived = await data(
		olivia,
		'mutation($id: ID!) { unarchiveRepository(input: {repositoryId: $id}) { repository { isArchived } } }',
		{ id },
	);
	assert.is(unarchived.unarchiveRepository.repository.isArchived, false);
	assert.is((await must('GET', '/repos/olivia/docs')).archived, false);

	const created = await data(
		mike,
		'mutation { createRepository(input: {name: "notes", visibility: PRIVATE, description: "Mine"}) { repository { nameWithOwner isPrivate description } } }',
	);
	assert.equal(created.createRepository.repository, { nameWithOwner: 'mike/notes', isPrivate: true, description: 'Mine' });
	const rest = await must('GET', '/repos/mike/notes', undefined, mike);
	assert.equal([rest.private, rest.description], [true, 'Mine']);
	assert.is(
		await refusal(
			mike,
			'mutation($owner: ID!) { createRepository(input: {name: "theirs", visibility: PUBLIC, ownerId: $owner}) { repository { name } } }',
			{
				owner: await node('/users/olivia'),
			},
		),
		'FORBIDDEN',
	);
	// A classic token with public_repo only may create public repositories, not private ones (REST's rule).
	const publicOnly = s.token('mike', { scopes: ['public_repo'] });
	assert.is(
		await refusal(publicOnly, 'mutation { createRepository(input: {name: "hush", visibility: PRIVATE}) { repository { name } } }'),
		'FORBIDDEN',
	);
	assert.is((await s.request('POST', '/user/repos', { token: publicOnly, body: { name: 'hush', private: true } })).status, 403);

	// An organization's repository: its members may (owners always); outsiders are refused as REST refuses them.
	s.org('acme', 'olivia');
	const acme = await node('/orgs/acme');
	const org = await data(
		olivia,
		'mutation($owner: ID!) { createRepository(input: {name: "site", visibility: INTERNAL, ownerId: $owner}) { repository { nameWithOwner visibility } } }',
		{
			owner: acme,
		},
	);
	assert.equal(org.createRepository.repository, { nameWithOwner: 'acme/site', visibility: 'INTERNAL' });
	assert.is((await must('GET', '/repos/acme/site')).visibility, 'internal');
	const outsider = await gql(
		eve,
		'mutation($owner: ID!) { createRepository(input: {name: "mine", visibility: PUBLIC, ownerId: $owner}) { repository { name } } }',
		{
			owner: acme,
		},
	);
	assert.is((await s.request('POST', '/orgs/acme/repos', { token: eve, body: { name: 'mine' } })).status, 403);
	assert.is(outsider.errors[0].type, 'FORBIDDEN');
	assert.is((await s.request('GET', '/repos/acme/mine', { token: olivia })).status, 404);
});

test.run();
