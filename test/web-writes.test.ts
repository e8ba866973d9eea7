/**
 * The web interface's write flows for issues and pull requests over HTTP: a new issue, comments,
 * close and reopen ("Close with comment"), title, labels, assignees, lock; the compare page's pull
 * request form, review requests, reviews with an inline comment, the merge box (methods,
 * protection refusals) and the head branch's deletion. Each effect is read back through the REST
 * API, with the issue events and webhooks REST would record; access (signed out, read-only, a
 * private repository's outsider), CSRF, and a fuzz pass: never a 5xx.
 */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { issueWritePages } from '../src/web/pages/issue-writes';
import { type Received, Receiver } from './helpers/receiver';
import { startWebServer, tokenIn, webClient } from './helpers/web';
import type { TestServer } from './helpers/server';

const test = suite('web writes');
let s: TestServer;
const receiver = new Receiver();
const PASSWORD = 'correct horse battery';
const R = '/repos/acme/widget';
let alice = '';
let bob = '';
let carol = '';
let mallory = '';
let aliceToken = '';

/** A REST request as alice (answers read loosely). */
const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> =>
	s.request(method, path, { token: aliceToken, body });

const { page, post, signIn, submit } = webClient(() => s.origin, PASSWORD);

/** The issue event names of an issue, oldest first (GET …/issues/{n}/events). */
async function eventsOf(number: number): Promise<string[]> {
	const res = await api('GET', `${R}/issues/${number}/events?per_page=100`);
	assert.is(res.status, 200);
	return (res.body as Array<{ event: string }>).map((e) => e.event);
}

/** Runs the delivery engine, then waits for a delivery matching `condition`. */
async function delivered(condition: (got: Received[]) => boolean) {
	await s.app.webhooks.deliverDue();
	await receiver.waitFor(condition, 5000);
}

/** A branch `name` off main with one commit adding `file`. */
async function branchWithFile(name: string, file: string, content: string) {
	const main = (await api('GET', `${R}/git/ref/heads/main`)).body.object.sha;
	assert.is((await api('POST', `${R}/git/refs`, { ref: `refs/heads/${name}`, sha: main })).status, 201);
	const put = await api('PUT', `${R}/contents/${file}`, {
		message: `Add ${file}`,
		content: Buffer.from(content).toString('base64'),
		branch: name,
	});
	assert.is(put.status, 201);
}

test.before(async () => {
	await receiver.start();
	({ s, aliceToken } = await startWebServer({
		members: ['bob', 'carol'],
		outsiders: ['mallory'],
		password: PASSWORD,
		orgBody: { default_repository_permission: 'read' },
	}));
	// bob writes; carol reads (the organization's base permission); mallory is an outsider.
	assert.is((await api('PUT', `${R}/collaborators/bob`, { permission: 'push' })).status, 204);
	await api('POST', `${R}/labels`, { name: 'bug', color: 'd73a4a' });
	await api('POST', `${R}/labels`, { name: 'docs', color: '0075ca' });
	await api('POST', `${R}/milestones`, { title: 'v1' });
	const hook = await api('POST', `${R}/hooks`, { config: { url: receiver.url('/hook'), content_type: 'json' }, events: ['*'] });
	assert.is(hook.status, 201);
	alice = await signIn('alice');
	bob = await signIn('bob');
	carol = await signIn('carol');
	mallory = await signIn('mallory');
});
test.after(async () => {
	s.close();
	await receiver.stop();
});

test('the new issue form: signed out to sign-in, a private repository is the 404 page, labels and assignees for writers', async () => {
	const out = await page('/acme/widget/issues/new');
	assert.is(out.status, 302);
	assert.match(out.headers.get('location') ?? '', '/login?return_to=');
	assert.is((await page('/acme/vault/issues/new', mallory)).status, 404);
	const asAlice = await page('/acme/widget/issues/new', alice);
	assert.is(asAlice.status, 200);
	assert.match(asAlice.text, 'name="labels[]"');
	assert.match(asAlice.text, 'Submit new issue');
	const asCarol = await page('/acme/widget/issues/new', carol);
	assert.is(asCarol.status, 200);
	assert.not.match(asCarol.text, 'name="labels[]"', 'read access: title and body only');
	const list = await page('/acme/widget/issues', alice);
	assert.match(list.text, 'href="/acme/widget/issues/new"');
});

test('opening an issue creates it through the service: labels, assignees, milestone, events and webhooks as REST', async () => {
	const res = await submit(alice, '/acme/widget/issues/new', '/acme/widget/issues', {
		title: 'Broken login',
		body: 'It **fails**.',
		'labels[]': ['bug'],
		'assignees[]': ['bob'],
		milestone: '1',
	});
	assert.is(res.status, 303);
	const location = res.headers.get('location') ?? '';
	assert.match(location, /^\/acme\/widget\/issues\/\d+$/);
	const number = Number(location.split('/').pop());
	const issue = (await api('GET', `${R}/issues/${number}`)).body;
	assert.is(issue.title, 'Broken login');
	assert.is(issue.body, 'It **fails**.');
	assert.equal(
		issue.labels.map((l: { name: string }) => l.name),
		['bug'],
	);
	assert.equal(
		issue.assignees.map((a: { login: string }) => a.login),
		['bob'],
	);
	assert.is(issue.milestone.title, 'v1');
	assert.is(issue.user.login, 'alice');
	const events = await eventsOf(number);
	for (const name of ['labeled', 'assigned', 'milestoned']) assert.ok(events.includes(name), `${name} in ${events}`);
	await delivered((got) => got.some((r) => r.event === 'issues' && r.payload.action === 'opened' && r.payload.issue.number === number));
	const shown = await page(location, alice);
	assert.is(shown.status, 200);
	assert.match(shown.text, '<strong>fails</strong>');

	// A read-only user opens issues; labels and assignees are dropped, as GitHub does.
	const byCarol = await submit(carol, '/acme/widget/issues/new', '/acme/widget/issues', {
		title: 'A question',
		'labels[]': ['bug'],
	});
	assert.is(byCarol.status, 303);
	const carolIssue = (await api('GET', `${R}/issues/${Number((byCarol.headers.get('location') ?? '').split('/').pop())}`)).body;
	assert.is(carolIssue.user.login, 'carol');
	assert.equal(carolIssue.labels, []);

	// A blank title shows the form again with the message and what was typed.
	const blank = await submit(alice, '/acme/widget/issues/new', '/acme/widget/issues', { title: '  ', body: 'kept text' });
	assert.is(blank.status, 422);
	assert.match(blank.text, 'flash-error');
	assert.match(blank.text, /Title can(&#39;|')t be blank/);
	assert.match(blank.text, 'kept text');
	// An unknown milestone is the service's refusal, shown on the page.
	const badMilestone = await submit(alice, '/acme/widget/issues/new', '/acme/widget/issues', { title: 'x', milestone: '99' });
	assert.is(badMilestone.status, 422);
	assert.match(badMilestone.text, 'flash-error');
});

test('access: signed out, another site, no token, read-only triage forms, a private repository', async () => {
	const issue = (await api('POST', `${R}/issues`, { title: 'Access checks' })).body;
	const path = `/acme/widget/issues/${issue.number}`;
	// Read-only: a comment form, no pickers, no lock, no title editor (not the author).
	const asCarol = await page(path, carol);
	assert.match(asCarol.text, 'name="comment_body"');
	assert.not.match(asCarol.text, 'Edit labels');
	assert.not.match((await page(`${path}?edit=labels`, carol)).text, 'Apply labels');
	assert.not.match(asCarol.text, 'Lock conversation');
	assert.not.match(asCarol.text, 'Edit title');
	assert.not.match(asCarol.text, 'Close issue');
	const asAlice = await page(path, alice);
	for (const words of ['Edit labels', 'Edit assignees', 'Lock conversation', 'Edit title', 'Close issue'])
		assert.match(asAlice.text, words);
	// The pickers open on demand (?edit=…): the repository's labels, the users who can be assigned.
	assert.not.match(asAlice.text, 'Apply labels');
	const labelPicker = await page(`${path}?edit=labels`, alice);
	assert.match(labelPicker.text, 'Apply labels');
	assert.match(labelPicker.text, 'name="labels[]" value="docs"');
	const assigneePicker = await page(`${path}?edit=assignees`, alice);
	assert.match(assigneePicker.text, 'name="assignees[]" value="bob"');
	assert.not.match(assigneePicker.text, 'value="mallory"');
	// Signed out: a sign-in link instead of the forms.
	const anonymous = await page(path);
	assert.not.match(anonymous.text, 'name="comment_body"');
	assert.match(anonymous.text, 'to join this conversation');

	// Forged: a read-only user's label change, lock and merge are 403 pages; the issue is unchanged.
	const labels = await submit(carol, path, `${path}/labels`, { 'labels[]': ['bug'] });
	assert.is(labels.status, 403);
	assert.match(labels.headers.get('content-type') ?? '', 'text/html');
	assert.is((await submit(carol, path, `${path}/lock`, { lock: '1' })).status, 403);
	const title = await submit(carol, path, `${path}/title`, { title: 'Renamed by carol' });
	assert.is(title.status, 403, 'neither author nor triager');
	assert.match(title.text, 'Must be the author of the issue or have triage access');
	const after = (await api('GET', `${R}/issues/${issue.number}`)).body;
	assert.equal(after.labels, []);
	assert.is(after.locked, false);
	assert.is(after.title, 'Access checks');

	// A private repository's outsider: the 404 page, as for a missing repository.
	const secret = (await api('POST', '/repos/acme/vault/issues', { title: 'Secret' })).body;
	const hidden = await submit(mallory, path, `/acme/vault/issues/${secret.number}/comment`, { comment_body: 'hi', action: 'comment' });
	assert.is(hidden.status, 404);
	assert.match(hidden.headers.get('content-type') ?? '', 'text/html');
	assert.is((await submit(mallory, path, '/acme/vault/issues', { title: 'x' })).status, 404);
	assert.is((await api('GET', `/repos/acme/vault/issues/${secret.number}`)).body.comments, 0);

	// CSRF: no token, a foreign token, another origin.
	assert.is((await post(`${path}/comment`, { comment_body: 'no token', action: 'comment' }, alice)).status, 403);
	const foreignToken = await post(
		`${path}/comment`,
		{ authenticity_token: tokenIn(asCarol.text), comment_body: 'carol token', action: 'comment' },
		alice,
	);
	assert.is(foreignToken.status, 403, "another session's token");
	const fromElsewhere = await post(
		`${path}/comment`,
		{ authenticity_token: tokenIn(asAlice.text), comment_body: 'cross-site', action: 'comment' },
		alice,
		{ Origin: 'https://evil.example' },
	);
	assert.is(fromElsewhere.status, 403);
	// Signed out with the sign-in form's own double-submit token: sent to sign in, nothing written.
	const login = await page('/login');
	const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
	const signedOut = await post(
		`${path}/comment`,
		{ authenticity_token: tokenIn(login.text), comment_body: 'anon', action: 'comment' },
		cookie,
	);
	assert.is(signedOut.status, 302);
	assert.match(signedOut.headers.get('location') ?? '', '/login');
	assert.is((await api('GET', `${R}/issues/${issue.number}`)).body.comments, 0);
});

test('comment, close with comment, reopen, title, labels, assignees, lock: REST sees them with their events', async () => {
	const issue = (await api('POST', `${R}/issues`, { title: 'Conversation' })).body;
	const n = issue.number;
	const path = `/acme/widget/issues/${n}`;
	const before = receiver.received.length;
	// A read-only user comments.
	const comment = await submit(carol, path, `${path}/comment`, { comment_body: 'Me too', action: 'comment' });
	assert.is(comment.status, 303);
	assert.match(comment.headers.get('location') ?? '', new RegExp(`${path}#issuecomment-\\d+$`));
	const comments = (await api('GET', `${R}/issues/${n}/comments`)).body;
	assert.is(comments.length, 1);
	assert.is(comments[0].user.login, 'carol');
	assert.is(comments[0].body, 'Me too');
	await delivered((got) =>
		got.slice(before).some((r) => r.event === 'issue_comment' && r.payload.action === 'created' && r.payload.comment.body === 'Me too'),
	);
	// A blank comment: the page again, nothing written.
	const blank = await submit(carol, path, `${path}/comment`, { comment_body: ' ', action: 'comment' });
	assert.is(blank.status, 422);
	assert.match(blank.text, 'flash-error');

	// Close with comment, as not planned.
	const closed = await submit(alice, path, `${path}/comment`, {
		comment_body: 'Closing: duplicate',
		action: 'close',
		state_reason: 'not_planned',
	});
	assert.is(closed.status, 303);
	let rest = (await api('GET', `${R}/issues/${n}`)).body;
	assert.is(rest.state, 'closed');
	assert.is(rest.state_reason, 'not_planned');
	assert.is(rest.comments, 2);
	assert.is(rest.closed_by.login, 'alice');
	const closedPage = await page(path, alice);
	assert.match(closedPage.text, 'Reopen issue');
	// Reopen without a comment.
	assert.is((await submit(alice, path, `${path}/comment`, { comment_body: '', action: 'reopen' })).status, 303);
	rest = (await api('GET', `${R}/issues/${n}`)).body;
	assert.is(rest.state, 'open');
	assert.is(rest.comments, 2);

	// Title (bob has write, so triage).
	assert.is((await submit(bob, path, `${path}/title`, { title: 'Conversation, renamed' })).status, 303);
	assert.is((await api('GET', `${R}/issues/${n}`)).body.title, 'Conversation, renamed');
	// Labels replace, assignees replace.
	assert.is((await submit(alice, path, `${path}/labels`, { 'labels[]': ['bug', 'docs'] })).status, 303);
	assert.is((await submit(alice, path, `${path}/labels`, { 'labels[]': ['docs'] })).status, 303);
	assert.equal(
		(await api('GET', `${R}/issues/${n}/labels`)).body.map((l: { name: string }) => l.name),
		['docs'],
	);
	assert.is((await submit(alice, path, `${path}/assignees`, { 'assignees[]': ['bob', 'carol'] })).status, 303);
	assert.equal((await api('GET', `${R}/issues/${n}`)).body.assignees.map((a: { login: string }) => a.login).sort(), ['bob', 'carol']);
	const unassignable = await submit(alice, path, `${path}/assignees`, { 'assignees[]': ['mallory'] });
	assert.is(unassignable.status, 422, 'an outsider cannot be assigned: the service refuses');
	assert.match(unassignable.text, 'flash-error');
	// Milestone: chosen on demand, then removed.
	assert.match((await page(`${path}?edit=milestone`, alice)).text, 'Apply milestone');
	assert.not.match((await page(`${path}?edit=milestone`, carol)).text, 'Apply milestone');
	assert.is((await submit(alice, path, `${path}/milestone`, { milestone: '1' })).status, 303);
	assert.is((await api('GET', `${R}/issues/${n}`)).body.milestone.title, 'v1');
	assert.is((await submit(carol, path, `${path}/milestone`, { milestone: '' })).status, 403);
	assert.is((await submit(alice, path, `${path}/milestone`, { milestone: '' })).status, 303);
	assert.is((await api('GET', `${R}/issues/${n}`)).body.milestone, null);
	// Lock: carol may no longer comment; unlock.
	assert.is((await submit(alice, path, `${path}/lock`, { lock: '1', lock_reason: 'too heated' })).status, 303);
	const lockedRest = (await api('GET', `${R}/issues/${n}`)).body;
	assert.is(lockedRest.locked, true);
	assert.is(lockedRest.active_lock_reason, 'too heated');
	const lockedForCarol = await page(path, carol);
	assert.match(lockedForCarol.text, 'This conversation has been locked');
	const refused = await submit(carol, path, `${path}/comment`, { comment_body: 'Still me', action: 'comment' });
	assert.is(refused.status, 403);
	assert.match(refused.text, 'Unable to create comment because issue is locked.');
	assert.is((await submit(alice, path, `${path}/lock`, { lock: '0' })).status, 303);
	assert.is((await api('GET', `${R}/issues/${n}`)).body.locked, false);

	const events = await eventsOf(n);
	for (const name of [
		'closed',
		'reopened',
		'renamed',
		'labeled',
		'unlabeled',
		'assigned',
		'milestoned',
		'demilestoned',
		'locked',
		'unlocked',
	])
		assert.ok(events.includes(name), `${name} in ${events}`);
	await delivered((got) => got.slice(before).some((r) => r.event === 'issues' && r.payload.action === 'locked'));
});

test('pull requests: the compare form, reviewers, an inline review by another user, protection refusals, merge, delete branch', async () => {
	await branchWithFile('feature', 'feature.txt', 'one\ntwo\n');
	const compare = await page('/acme/widget/compare/main...feature', alice);
	assert.is(compare.status, 200);
	assert.match(compare.text, 'Create pull request');
	assert.match(compare.text, 'value="Add feature.txt"', 'one commit: its summary is the default title');
	const signedOut = await page('/acme/widget/compare/main...feature');
	assert.not.match(signedOut.text, 'Create pull request');
	const picker = await page('/acme/widget/compare?base=main&head=feature', alice);
	assert.is(picker.status, 302);
	assert.is(picker.headers.get('location'), '/acme/widget/compare/main...feature');

	const created = await submit(alice, '/acme/widget/compare/main...feature', '/acme/widget/pull/create', {
		base: 'main',
		head: 'feature',
		title: 'Add the feature',
		body: 'Please review.',
	});
	assert.is(created.status, 303);
	const location = created.headers.get('location') ?? '';
	assert.match(location, /^\/acme\/widget\/pull\/\d+$/);
	const n = Number(location.split('/').pop());
	const pr = (await api('GET', `${R}/pulls/${n}`)).body;
	assert.is(pr.title, 'Add the feature');
	assert.is(pr.head.ref, 'feature');
	assert.is(pr.base.ref, 'main');
	assert.is(pr.draft, false);
	await delivered((got) => got.some((r) => r.event === 'pull_request' && r.payload.action === 'opened' && r.payload.number === n));
	// The same branches again: the service's refusal on the compare page; it now links the open one.
	const again = await submit(alice, '/acme/widget/compare/main...feature', '/acme/widget/pull/create', {
		base: 'main',
		head: 'feature',
		title: 'Twice',
	});
	assert.is(again.status, 422);
	assert.match(again.text, 'A pull request already exists for acme:feature.');
	assert.match((await page('/acme/widget/compare/main...feature', alice)).text, 'is already open for these branches');

	// Reviewers: carol (read) may not ask; alice (the author) asks bob.
	const path = `/acme/widget/pull/${n}`;
	assert.not.match((await page(`${path}?edit=reviewers`, carol)).text, 'Apply reviewers');
	const reviewerPicker = await page(`${path}?edit=reviewers`, alice);
	assert.match(reviewerPicker.text, 'name="reviewers[]" value="bob"');
	assert.not.match(reviewerPicker.text, 'name="reviewers[]" value="alice"', 'not the author');
	const byCarol = await submit(carol, path, `${path}/reviewers`, { 'reviewers[]': ['bob'] });
	assert.is(byCarol.status, 403);
	assert.is((await submit(alice, path, `${path}/reviewers`, { 'reviewers[]': ['bob'] })).status, 303);
	const requested = (await api('GET', `${R}/pulls/${n}/requested_reviewers`)).body;
	assert.equal(
		requested.users.map((u: { login: string }) => u.login),
		['bob'],
	);
	assert.ok((await eventsOf(n)).includes('review_requested'));

	// The author cannot approve their own pull request.
	const own = await submit(alice, `${path}/files`, `${path}/reviews`, { event: 'APPROVE', body: '' });
	assert.is(own.status, 422);
	assert.match(own.text, 'Can not approve your own pull request');

	// bob: the line's form, a comment in a pending review, then Approve.
	const files = await page(`${path}/files?path=feature.txt&line=2&side=RIGHT`, bob);
	assert.is(files.status, 200);
	assert.match(files.text, 'id="inline-comment"');
	assert.match(files.text, 'Start a review');
	const outside = await submit(bob, `${path}/files`, `${path}/review_comments`, {
		path: 'feature.txt',
		line: '40',
		side: 'RIGHT',
		comment_body: 'nowhere',
		action: 'review',
	});
	assert.is(outside.status, 422, 'a line outside the diff is refused');
	assert.match(outside.text, 'flash-error');
	const inline = await submit(bob, `${path}/files`, `${path}/review_comments`, {
		path: 'feature.txt',
		line: '2',
		side: 'RIGHT',
		comment_body: 'Is two enough?',
		action: 'review',
	});
	assert.is(inline.status, 303);
	assert.match((await page(`${path}/files`, bob)).text, 'Pending review: 1 comment');
	const approve = await submit(bob, `${path}/files`, `${path}/reviews`, { event: 'APPROVE', body: 'Looks good' });
	assert.is(approve.status, 303);
	const reviews = (await api('GET', `${R}/pulls/${n}/reviews`)).body;
	assert.is(reviews.length, 1);
	assert.is(reviews[0].state, 'APPROVED');
	assert.is(reviews[0].user.login, 'bob');
	assert.is(reviews[0].body, 'Looks good');
	const lineComments = (await api('GET', `${R}/pulls/${n}/comments`)).body;
	assert.is(lineComments.length, 1);
	assert.is(lineComments[0].path, 'feature.txt');
	assert.is(lineComments[0].line, 2);
	assert.is(lineComments[0].side, 'RIGHT');
	assert.is(lineComments[0].body, 'Is two enough?');
	assert.equal((await api('GET', `${R}/pulls/${n}/requested_reviewers`)).body.users, [], 'the review answered the request');
	await delivered((got) =>
		got.some((r) => r.event === 'pull_request_review' && r.payload.action === 'submitted' && r.payload.review.state === 'approved'),
	);
	await delivered((got) => got.some((r) => r.event === 'pull_request_review_comment' && r.payload.action === 'created'));

	// The merge box: read-only users see no form and are refused; methods the repository disallows are refused.
	const asCarol = await page(path, carol);
	assert.not.match(asCarol.text, 'name="merge_method"');
	assert.is((await submit(carol, path, `${path}/merge`, { merge_method: 'merge' })).status, 403);
	assert.is((await api('PATCH', R, { allow_rebase_merge: false })).status, 200);
	const methods = await page(path, alice);
	assert.match(methods.text, 'name="merge_method"');
	assert.match(methods.text, 'Squash and merge');
	assert.not.match(methods.text, 'Rebase and merge');
	const rebase = await submit(alice, path, `${path}/merge`, { merge_method: 'rebase' });
	assert.is(rebase.status, 422);
	assert.match(rebase.text, 'merge methods this repository allows');
	// Protection: two approvals required; the refusal is shown, nothing merged.
	const protect = await api('PUT', `${R}/branches/main/protection`, {
		required_status_checks: null,
		enforce_admins: true,
		required_pull_request_reviews: { required_approving_review_count: 2 },
		restrictions: null,
	});
	assert.is(protect.status, 200);
	const blocked = await submit(alice, path, `${path}/merge`, { merge_method: 'merge' });
	assert.is(blocked.status, 422);
	assert.match(blocked.text, 'flash-error');
	assert.match(blocked.text, /approving review/i);
	assert.is((await api('GET', `${R}/pulls/${n}`)).body.merged, false);
	assert.is((await api('DELETE', `${R}/branches/main/protection`)).status, 204);
	// A stale head sha: GitHub's 409 as a message.
	const stale = await submit(alice, path, `${path}/merge`, { merge_method: 'merge', sha: '0'.repeat(40) });
	assert.is(stale.status, 422);
	assert.match(stale.text, 'Head branch was modified');

	const merged = await submit(alice, path, `${path}/merge`, {
		merge_method: 'squash',
		sha: pr.head.sha,
		commit_title: 'Add the feature (#1)',
		commit_message: 'Squashed.',
	});
	assert.is(merged.status, 303);
	const done = (await api('GET', `${R}/pulls/${n}`)).body;
	assert.is(done.merged, true);
	assert.is(done.merged_by.login, 'alice');
	const commit = (await api('GET', `${R}/commits/${done.merge_commit_sha}`)).body;
	assert.is(commit.commit.message, 'Add the feature (#1)\n\nSquashed.');
	const mergedPage = await page(path, alice);
	assert.match(mergedPage.text, 'Pull request successfully merged and closed');
	assert.match(mergedPage.text, 'Delete branch');
	assert.not.match((await page(path, carol)).text, 'Delete branch', 'read access: no delete button');
	assert.is((await submit(carol, path, `${path}/branch/delete`, {})).status, 403);
	const deleted = await submit(alice, path, `${path}/branch/delete`, {});
	assert.is(deleted.status, 303);
	assert.is((await api('GET', `${R}/git/ref/heads/feature`)).status, 404);
	assert.not.match((await page(path, alice)).text, 'Delete branch');
	const events = await eventsOf(n);
	for (const name of ['review_requested', 'merged', 'closed', 'head_ref_deleted'])
		assert.ok(events.includes(name), `${name} in ${events}`);
	await delivered((got) => got.some((r) => r.event === 'delete' && r.payload.ref === 'feature'));
});

test('close and reopen a pull request, a draft made ready, a protected head branch is not deleted', async () => {
	await branchWithFile('drafty', 'drafty.txt', 'd\n');
	const created = await submit(alice, '/acme/widget/compare/main...drafty', '/acme/widget/pull/create', {
		base: 'main',
		head: 'drafty',
		title: 'Draft work',
		draft: '1',
	});
	assert.is(created.status, 303);
	const n = Number((created.headers.get('location') ?? '').split('/').pop());
	const path = `/acme/widget/pull/${n}`;
	assert.is((await api('GET', `${R}/pulls/${n}`)).body.draft, true);
	const draftPage = await page(path, alice);
	assert.match(draftPage.text, 'still a work in progress');
	assert.match(draftPage.text, 'Ready for review');
	assert.is((await submit(alice, path, `${path}/ready_for_review`, {})).status, 303);
	assert.is((await api('GET', `${R}/pulls/${n}`)).body.draft, false);
	// Close with comment, reopen.
	assert.is((await submit(alice, path, `/acme/widget/issues/${n}/comment`, { comment_body: 'Not now', action: 'close' })).status, 303);
	let rest = (await api('GET', `${R}/pulls/${n}`)).body;
	assert.is(rest.state, 'closed');
	assert.is(rest.merged, false);
	const closedPage = await page(path, alice);
	assert.match(closedPage.text, 'Closed with unmerged commits');
	assert.match(closedPage.text, 'Reopen pull request');
	// The head branch protected against deletion: the refusal is shown.
	assert.is(
		(
			await api('PUT', `${R}/branches/drafty/protection`, {
				required_status_checks: null,
				enforce_admins: true,
				required_pull_request_reviews: null,
				restrictions: null,
				allow_deletions: false,
			})
		).status,
		200,
	);
	const protectedDelete = await submit(alice, path, `${path}/branch/delete`, {});
	assert.is(protectedDelete.status, 422);
	assert.match(protectedDelete.text, 'protected branch');
	assert.is((await api('GET', `${R}/git/ref/heads/drafty`)).status, 200);
	assert.is((await submit(alice, path, `/acme/widget/issues/${n}/comment`, { comment_body: '', action: 'reopen' })).status, 303);
	rest = (await api('GET', `${R}/pulls/${n}`)).body;
	assert.is(rest.state, 'open');
	const events = await eventsOf(n);
	for (const name of ['ready_for_review', 'closed', 'reopened']) assert.ok(events.includes(name), `${name} in ${events}`);
	// A reader reviews too: a single inline comment (a COMMENT review holding it); Request changes needs a body.
	const single = await submit(carol, `${path}/files`, `${path}/review_comments`, {
		path: 'drafty.txt',
		line: '1',
		side: 'RIGHT',
		comment_body: 'Why d?',
		action: 'single',
	});
	assert.is(single.status, 303);
	const blank = await submit(carol, `${path}/files`, `${path}/reviews`, { event: 'REQUEST_CHANGES', body: '' });
	assert.is(blank.status, 422);
	assert.match(blank.text, /body can(&#39;|')t be blank/);
	assert.is((await submit(carol, `${path}/files`, `${path}/reviews`, { event: 'REQUEST_CHANGES', body: 'Rename it.' })).status, 303);
	const reviews = (await api('GET', `${R}/pulls/${n}/reviews`)).body as Array<{ state: string; user: { login: string } }>;
	assert.equal(
		reviews.map((r) => `${r.user.login} ${r.state}`),
		['carol COMMENTED', 'carol CHANGES_REQUESTED'],
	);
	const lines = (await api('GET', `${R}/pulls/${n}/comments`)).body as Array<{ body: string; line: number }>;
	assert.equal(
		lines.map((c) => `${c.line} ${c.body}`),
		['1 Why d?'],
	);
});

test("a fork's branch: the compare page opens a pull request from it; after the merge its owner may delete it, the base's owner may not", async () => {
	const bobToken = s.fullToken('bob');
	const fork = await s.request('POST', `${R}/forks`, { token: bobToken, body: {} });
	assert.is(fork.status, 202);
	const main = (await s.request('GET', '/repos/bob/widget/git/ref/heads/main', { token: bobToken })).body as { object: { sha: string } };
	assert.is(
		(
			await s.request('POST', '/repos/bob/widget/git/refs', {
				token: bobToken,
				body: { ref: 'refs/heads/forked', sha: main.object.sha },
			})
		).status,
		201,
	);
	const put = await s.request('PUT', '/repos/bob/widget/contents/forked.txt', {
		token: bobToken,
		body: { message: 'Add forked.txt', content: Buffer.from('from the fork\n').toString('base64'), branch: 'forked' },
	});
	assert.is(put.status, 201);
	const compare = await page('/acme/widget/compare/main...bob:forked', bob);
	assert.is(compare.status, 200);
	assert.match(compare.text, 'Create pull request');
	const created = await submit(bob, '/acme/widget/compare/main...bob:forked', '/acme/widget/pull/create', {
		base: 'main',
		head: 'bob:forked',
		title: 'From the fork',
	});
	assert.is(created.status, 303);
	const n = Number((created.headers.get('location') ?? '').split('/').pop());
	const pr = (await api('GET', `${R}/pulls/${n}`)).body;
	assert.is(pr.head.repo.full_name, 'bob/widget');
	const path = `/acme/widget/pull/${n}`;
	assert.is((await submit(alice, path, `${path}/merge`, { merge_method: 'merge', sha: pr.head.sha })).status, 303);
	assert.not.match((await page(path, alice)).text, 'Delete branch', "alice cannot push to bob's fork");
	assert.is((await submit(alice, path, `${path}/branch/delete`, {})).status, 403);
	assert.match((await page(path, bob)).text, 'Delete branch');
	assert.is((await submit(bob, path, `${path}/branch/delete`, {})).status, 303);
	assert.is((await s.request('GET', '/repos/bob/widget/git/ref/heads/forked', { token: bobToken })).status, 404);
});

test('fuzz: the write forms never answer a 5xx, whatever their fields and path parameters', async () => {
	const issue = (await api('POST', `${R}/issues`, { title: 'Fuzzed' })).body;
	await branchWithFile('fuzz', 'fuzz.txt', 'f\n');
	const pull = (await api('POST', `${R}/pulls`, { title: 'Fuzz PR', head: 'fuzz', base: 'main' })).body;
	const csrf = tokenIn((await page('/acme/widget/issues/new', bob)).text);
	const text = fc.oneof(
		fc.string({ maxLength: 20 }),
		fc.constantFrom(
			'',
			'bug',
			'bob',
			'mallory',
			'main',
			'fuzz',
			'fuzz.txt',
			'1',
			'0',
			'-1',
			'99999999999999999999',
			'APPROVE',
			'REQUEST_CHANGES',
			'COMMENT',
			'merge',
			'squash',
			'rebase',
			'close',
			'reopen',
			'not_planned',
			'LEFT',
			'RIGHT',
			'%00',
			'../..',
			'<script>',
		),
		fc.string({ minLength: 2000, maxLength: 3000 }),
	);
	const fields = fc.dictionary(
		fc.constantFrom(
			'title',
			'body',
			'comment_body',
			'action',
			'state_reason',
			'labels[]',
			'assignees[]',
			'reviewers[]',
			'milestone',
			'lock',
			'lock_reason',
			'base',
			'head',
			'draft',
			'event',
			'path',
			'line',
			'side',
			'merge_method',
			'sha',
			'commit_title',
			'commit_message',
		),
		fc.oneof(text, fc.array(text, { maxLength: 4 })),
	);
	const numbers = fc.constantFrom(String(issue.number), String(pull.number), '0', '99999', 'x', '9'.repeat(30));
	const routes = issueWritePages.filter((p) => p.method === 'POST').map((p) => p.path);
	let sent = 0;
	await fc.assert(
		fc.asyncProperty(fc.constantFrom(...routes), numbers, fields, async (route, number, form) => {
			const path = route.replace('{owner}', 'acme').replace('{repo}', 'widget').replace('{number}', number);
			const res = await post(path, { authenticity_token: csrf, ...form }, bob);
			sent++;
			assert.ok(res.status < 500, `${path} ${JSON.stringify(form).slice(0, 300)} → ${res.status}`);
		}),
		{ numRuns: 300 },
	);
	assert.ok(sent >= 300);
	// The GET pages with odd queries.
	for (const query of ['path=&line=1', 'path=fuzz.txt&line=-1&side=LEFT', `path=${'a'.repeat(5000)}&line=1`, 'line=1e9&side=x'])
		assert.is((await page(`/acme/widget/pull/${pull.number}/files?${query}`, bob)).status, 200, query);
});

test.run();
