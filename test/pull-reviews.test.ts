/**
 * Pull request reviews (GitHub's "Review requests", "Reviews" and "Review comments"
 * REST APIs) over real HTTP: requesting reviewers (users and teams, GitHub's 422s, the author
 * refused), requested_reviewers and requested_teams on the pull-request forms, the pull_request
 * review_requested / review_request_removed webhooks (validated against GitHub's webhook schemas)
 * and the review_requested notification reason.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isoSeconds } from '../src/time';
import { OpenApi } from './helpers/openapi';
import { startServer, type TestServer } from './helpers/server';
import { createBranch, hookDeliveries, mustSucceed, writeFile } from './helpers/setup';

const test = suite('pull-reviews');
const APP = '/repos/acme/app';
let s: TestServer;
let olivia: string; // owner of acme
let mike: string; // push collaborator on acme/app, the author of the pull request
let wendy: string; // member of the team core, push through it
let nora: string; // nobody to acme
let hookId: number;
let number: number;

const must = (method: string, path: string, body?: unknown, token = olivia) => mustSucceed(s, method, path, body, token);

/** Writes a file on a branch with the contents API; returns the new commit's sha. */
const write = (branch: string, path: string, text: string, token = olivia) => writeFile(s, APP, branch, path, text, token);

const branch = (name: string, from = 'main') => createBranch(s, APP, name, from, olivia);

const deliveries = (event: string) => hookDeliveries(s, hookId, event);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'wendy', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	mike = s.fullToken('mike');
	wendy = s.fullToken('wendy');
	nora = s.fullToken('nora');
	await must('POST', '/orgs/acme/repos', { name: 'app', auto_init: true });
	await must('POST', '/orgs/acme/repos', { name: 'vault', private: true, auto_init: true });
	const app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('mike')!.id, 'push', isoSeconds(s.clock.now));
	await must('PUT', '/orgs/acme/memberships/wendy', { role: 'member' });
	await must('PATCH', '/user/memberships/orgs/acme', { state: 'active' }, wendy);
	await must('POST', '/orgs/acme/teams', { name: 'Core', privacy: 'closed', repo_names: ['acme/app'] });
	await must('PUT', '/orgs/acme/teams/core/memberships/wendy', { role: 'member' });
	await must('PUT', '/orgs/acme/teams/core/repos/acme/app', { permission: 'push' });
	hookId = (
		await must('POST', `${APP}/hooks`, {
			name: 'web',
			config: { url: 'https://hooks.example.com/r', content_type: 'json' },
			events: ['pull_request', 'pull_request_review', 'pull_request_review_comment'],
		})
	).id;
	await branch('feature');
	await write('feature', 'src/hello.txt', 'hello\nworld\n', mike);
	number = (await must('POST', `${APP}/pulls`, { title: 'Say hello', head: 'feature', base: 'main' }, mike)).number;
});
test.after(() => s.close());

test('POST requested_reviewers: 201 the simple form with requested_reviewers and requested_teams; GET lists them', async () => {
	const res = await s.request('POST', `${APP}/pulls/${number}/requested_reviewers`, {
		token: mike,
		body: { reviewers: ['olivia'], team_reviewers: ['core'] },
	});
	assert.is(res.status, 201, res.text);
	assert.equal(
		res.body.requested_reviewers.map((u: any) => u.login),
		['olivia'],
	);
	assert.equal(
		res.body.requested_teams.map((t: any) => t.slug),
		['core'],
	);
	assert.not.ok('mergeable' in res.body, '~> the simple form');
	const got = await must('GET', `${APP}/pulls/${number}/requested_reviewers`, undefined, nora);
	assert.equal([got.users.map((u: any) => u.login), got.teams.map((t: any) => t.slug)], [['olivia'], ['core']]);
	const full = await must('GET', `${APP}/pulls/${number}`);
	assert.equal(
		full.requested_reviewers.map((u: any) => u.login),
		['olivia'],
		'~> the full form too',
	);
	const [listed] = await must('GET', `${APP}/pulls`);
	assert.equal(
		listed.requested_teams.map((t: any) => t.slug),
		['core'],
		'~> and the list',
	);
	const again = await must('POST', `${APP}/pulls/${number}/requested_reviewers`, { reviewers: ['olivia'] }, mike);
	assert.equal(
		again.requested_reviewers.map((u: any) => u.login),
		['olivia'],
		'~> asking twice changes nothing',
	);
	const requested = deliveries('pull_request').filter((d) => d.action === 'review_requested');
	assert.equal(
		requested.map((d) => d.requested_reviewer?.login ?? d.requested_team.slug),
		['olivia', 'core'],
		'~> one event per new request',
	);
});

test("GitHub's 422s: not a collaborator, unknown names, the author; 403 for a stranger", async () => {
	const outsider = await s.request('POST', '/repos/acme/vault/pulls/1/requested_reviewers', {
		token: olivia,
		body: { reviewers: ['nora'] },
	});
	assert.is(outsider.status, 404, '~> no such pull request');
	await branch('second');
	await write('second', 'two.txt', 'two\n');
	const pr = await must('POST', `${APP}/pulls`, { title: 'Two', head: 'second', base: 'main' });
	const teamless = await s.request('POST', `${APP}/pulls/${pr.number}/requested_reviewers`, {
		token: olivia,
		body: { team_reviewers: ['nope'] },
	});
	assert.is(teamless.status, 422);
	assert.is(
		teamless.body.message,
		'Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the acme/app repository.',
	);
	const ghost = await s.request('POST', `${APP}/pulls/${pr.number}/requested_reviewers`, {
		token: olivia,
		body: { reviewers: ['ghost-login'] },
	});
	assert.is(ghost.status, 422);
	const author = await s.request('POST', `${APP}/pulls/${pr.number}/requested_reviewers`, {
		token: olivia,
		body: { reviewers: ['olivia'] },
	});
	assert.is(author.status, 422);
	assert.is(author.body.message, 'Review cannot be requested from pull request author.');
	const none = await s.request('POST', `${APP}/pulls/${pr.number}/requested_reviewers`, { token: olivia, body: {} });
	assert.is(none.status, 422);
	const stranger = await s.request('POST', `${APP}/pulls/${pr.number}/requested_reviewers`, {
		token: nora,
		body: { reviewers: ['mike'] },
	});
	assert.is(stranger.status, 403);
	assert.equal((await must('GET', `${APP}/pulls/${pr.number}/requested_reviewers`)).users, [], '~> nothing requested');
});

test('a private repository: only users who read it can be asked', async () => {
	await must('PUT', '/repos/acme/vault/contents/a.txt', {
		message: 'a',
		content: Buffer.from('a').toString('base64'),
		branch: 'main',
	}).catch(() => undefined);
	const main = (await must('GET', '/repos/acme/vault/git/ref/heads/main')).object.sha;
	await must('POST', '/repos/acme/vault/git/refs', { ref: 'refs/heads/topic', sha: main });
	await must('PUT', '/repos/acme/vault/contents/b.txt', { message: 'b', content: Buffer.from('b').toString('base64'), branch: 'topic' });
	const pr = await must('POST', '/repos/acme/vault/pulls', { title: 'Vault', head: 'topic', base: 'main' });
	const nope = await s.request('POST', `/repos/acme/vault/pulls/${pr.number}/requested_reviewers`, {
		token: olivia,
		body: { reviewers: ['nora'] },
	});
	assert.is(nope.status, 422);
	assert.match(nope.body.message, /not a collaborator of the acme\/vault repository/);
	const team = await s.request('POST', `/repos/acme/vault/pulls/${pr.number}/requested_reviewers`, {
		token: olivia,
		body: { team_reviewers: ['core'] },
	});
	assert.is(team.status, 422, '~> a team without access to the private repository');
	const member = await s.request('POST', `/repos/acme/vault/pulls/${pr.number}/requested_reviewers`, {
		token: olivia,
		body: { reviewers: ['wendy'] },
	});
	assert.is(member.status, 201, '~> an organization member reads it through the base permission');
});

test("review_requested notifications: the requested user and the team's members", async () => {
	const olivias = (await must('GET', '/notifications?all=true')).find((t: any) => t.subject.url === `${s.api}${APP}/pulls/${number}`);
	assert.ok(olivias, '~> olivia was asked');
	assert.is(olivias.reason, 'review_requested');
	assert.is(olivias.subject.type, 'PullRequest');
	const wendys = (await must('GET', '/notifications?all=true', undefined, wendy)).find(
		(t: any) => t.subject.url === `${s.api}${APP}/pulls/${number}`,
	);
	assert.ok(wendys, '~> wendy, through the team core');
	assert.is(wendys.reason, 'review_requested');
	const noras = (await must('GET', '/notifications?all=true', undefined, nora)).find(
		(t: any) => t.subject.url === `${s.api}${APP}/pulls/${number}`,
	);
	assert.not.ok(noras);
});

test('DELETE requested_reviewers: 200 the simple form without them; review_request_removed', async () => {
	const res = await s.request('DELETE', `${APP}/pulls/${number}/requested_reviewers`, {
		token: mike,
		body: { reviewers: ['olivia'], team_reviewers: ['core'] },
	});
	assert.is(res.status, 200, res.text);
	assert.equal([res.body.requested_reviewers, res.body.requested_teams], [[], []]);
	const removed = deliveries('pull_request').filter((d) => d.action === 'review_request_removed');
	assert.equal(
		removed.map((d) => d.requested_reviewer?.login ?? d.requested_team.slug),
		['olivia', 'core'],
	);
	const missing = await s.request('DELETE', `${APP}/pulls/${number}/requested_reviewers`, {
		token: mike,
		body: { team_reviewers: ['core'] },
	});
	assert.is(missing.status, 422, '~> reviewers is required');
});

test('POST reviews: PENDING without event (its author alone sees it), one per user; submitting through …/events', async () => {
	await must('POST', `${APP}/pulls/${number}/requested_reviewers`, { reviewers: ['olivia'] }, mike);
	const res = await s.request('POST', `${APP}/pulls/${number}/reviews`, { token: olivia, body: { body: 'Looking' } });
	assert.is(res.status, 200, res.text);
	assert.is(res.body.state, 'PENDING');
	assert.not.ok('submitted_at' in res.body);
	const head = (await must('GET', `${APP}/pulls/${number}`)).head.sha;
	assert.is(res.body.commit_id, head, '~> the head by default');
	assert.ok(res.body.html_url.endsWith(`/acme/app/pull/${number}#pullrequestreview-${res.body.id}`), res.body.html_url);
	const twice = await s.request('POST', `${APP}/pulls/${number}/reviews`, { token: olivia, body: {} });
	assert.is(twice.status, 422, '~> one pending review per user');
	assert.is(
		(await s.request('GET', `${APP}/pulls/${number}/reviews/${res.body.id}`, { token: mike })).status,
		404,
		"~> another user's pending review",
	);
	assert.equal((await must('GET', `${APP}/pulls/${number}/reviews`, undefined, mike)).length, 0);
	assert.equal(
		(await must('GET', `${APP}/pulls/${number}/reviews`)).map((r: any) => r.state),
		['PENDING'],
	);
	const edited = await must('PUT', `${APP}/pulls/${number}/reviews/${res.body.id}`, { body: 'Looking closer' });
	assert.is(edited.body, 'Looking closer');
	const submitted = await s.request('POST', `${APP}/pulls/${number}/reviews/${res.body.id}/events`, {
		token: olivia,
		body: { event: 'APPROVE' },
	});
	assert.is(submitted.status, 200, submitted.text);
	assert.is(submitted.body.state, 'APPROVED');
	assert.ok(submitted.body.submitted_at);
	assert.equal((await must('GET', `${APP}/pulls/${number}/requested_reviewers`)).users, [], '~> the review withdrew the request');
	const again = await s.request('POST', `${APP}/pulls/${number}/reviews/${res.body.id}/events`, {
		token: olivia,
		body: { event: 'COMMENT', body: 'x' },
	});
	assert.is(again.status, 422, '~> only a pending review is submitted');
	const gone = await s.request('DELETE', `${APP}/pulls/${number}/reviews/${res.body.id}`, { token: olivia });
	assert.is(gone.status, 422, '~> only a pending review is deleted');
	const submittedHook = deliveries('pull_request_review')
		.filter((d) => d.action === 'submitted')
		.at(-1);
	assert.equal(
		[submittedHook.review.id, submittedHook.review.state, submittedHook.pull_request.number],
		[res.body.id, 'approved', number],
	);
	const feed = await must('GET', '/repos/acme/app/events');
	assert.ok(
		feed.some((e: any) => e.type === 'PullRequestReviewEvent' && e.payload.review.id === res.body.id),
		'~> PullRequestReviewEvent in the feed',
	);
});

test("GitHub's rules: not on one's own pull request, a body for REQUEST_CHANGES and COMMENT, a known commit", async () => {
	const own = await s.request('POST', `${APP}/pulls/${number}/reviews`, { token: mike, body: { event: 'APPROVE' } });
	assert.is(own.status, 422);
	assert.is(own.body.message, 'Can not approve your own pull request');
	const ownChanges = await s.request('POST', `${APP}/pulls/${number}/reviews`, {
		token: mike,
		body: { event: 'REQUEST_CHANGES', body: 'no' },
	});
	assert.is(ownChanges.body.message, 'Can not request changes on your own pull request');
	const ownComment = await s.request('POST', `${APP}/pulls/${number}/reviews`, {
		token: mike,
		body: { event: 'COMMENT', body: 'A note to self' },
	});
	assert.is(ownComment.status, 200, '~> the author may comment');
	for (const event of ['REQUEST_CHANGES', 'COMMENT']) {
		const bare = await s.request('POST', `${APP}/pulls/${number}/reviews`, { token: wendy, body: { event } });
		assert.is(bare.status, 422, `~> ${event} needs a body`);
		assert.equal(bare.body.errors, ["body can't be blank"], '~> validation-error-simple, as GitHub documents');
	}
	const unknown = await s.request('POST', `${APP}/pulls/${number}/reviews`, {
		token: wendy,
		body: { event: 'APPROVE', commit_id: 'f'.repeat(40) },
	});
	assert.is(unknown.status, 422);
	const bad = await s.request('POST', `${APP}/pulls/${number}/reviews`, { token: wendy, body: { event: 'MERGE' } });
	assert.is(bad.status, 422);
});

test('pending reviews are deleted; reviews dismissed with push access; mentions notify', async () => {
	const pending = await must('POST', `${APP}/pulls/${number}/reviews`, { body: 'Draft thoughts' }, wendy);
	const removed = await s.request('DELETE', `${APP}/pulls/${number}/reviews/${pending.id}`, { token: wendy });
	assert.is(removed.status, 200);
	assert.is(removed.body.id, pending.id);
	assert.is((await s.request('GET', `${APP}/pulls/${number}/reviews/${pending.id}`, { token: wendy })).status, 404);
	const changes = await must('POST', `${APP}/pulls/${number}/reviews`, { event: 'REQUEST_CHANGES', body: 'Please fix, @nora' }, wendy);
	assert.is(changes.state, 'CHANGES_REQUESTED');
	const noras = (await must('GET', '/notifications?all=true', undefined, nora)).find(
		(t: any) => t.subject.url === `${s.api}${APP}/pulls/${number}`,
	);
	assert.is(noras?.reason, 'mention');
	const stranger = await s.request('PUT', `${APP}/pulls/${number}/reviews/${changes.id}/dismissals`, {
		token: nora,
		body: { message: 'No' },
	});
	assert.is(stranger.status, 403);
	const dismissed = await must('PUT', `${APP}/pulls/${number}/reviews/${changes.id}/dismissals`, {
		message: 'Fixed elsewhere',
		event: 'DISMISS',
	});
	assert.is(dismissed.state, 'DISMISSED');
	const again = await s.request('PUT', `${APP}/pulls/${number}/reviews/${changes.id}/dismissals`, {
		token: olivia,
		body: { message: 'Again' },
	});
	assert.is(again.status, 422);
	const hook = deliveries('pull_request_review').at(-1);
	assert.equal([hook.action, hook.review.state], ['dismissed', 'dismissed']);
	const edited = await must('PUT', `${APP}/pulls/${number}/reviews/${changes.id}`, { body: 'Please fix this' }, wendy);
	assert.is(edited.body, 'Please fix this');
	const editHook = deliveries('pull_request_review').at(-1);
	assert.equal([editHook.action, editHook.changes.body.from], ['edited', 'Please fix, @nora']);
	const foreign = await s.request('PUT', `${APP}/pulls/${number}/reviews/${changes.id}`, { token: olivia, body: { body: 'Mine now' } });
	assert.is(foreign.status, 403);
});

test("branch protection: approvals of writers count, a writer's change request blocks, dismiss_stale_reviews", async () => {
	await branch('guarded-topic');
	await write('guarded-topic', 'guarded.txt', 'one\n', mike);
	const pr = await must('POST', `${APP}/pulls`, { title: 'Guarded', head: 'guarded-topic', base: 'main' }, mike);
	await must('PUT', `${APP}/branches/main/protection`, {
		required_status_checks: null,
		enforce_admins: false,
		required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true },
		restrictions: null,
	});
	const state = async () => {
		await s.app.tasks.runDue();
		return (await must('GET', `${APP}/pulls/${pr.number}`)).mergeable_state;
	};
	assert.is(await state(), 'blocked');
	await must('POST', `${APP}/pulls/${pr.number}/reviews`, { event: 'APPROVE' }, nora);
	assert.is(await state(), 'blocked', '~> nora has no write access');
	await must('POST', `${APP}/pulls/${pr.number}/reviews`, { event: 'APPROVE' }, wendy);
	assert.is(await state(), 'clean', '~> wendy writes through the team');
	const changes = await must('POST', `${APP}/pulls/${pr.number}/reviews`, { event: 'REQUEST_CHANGES', body: 'Wait' });
	assert.is(await state(), 'blocked', '~> olivia requested changes');
	await must('PUT', `${APP}/pulls/${pr.number}/reviews/${changes.id}/dismissals`, { message: 'Never mind' });
	assert.is(await state(), 'clean');
	await write('guarded-topic', 'guarded.txt', 'two\n', mike);
	assert.is(await state(), 'blocked', '~> the approval was for an older head (dismiss_stale_reviews)');
	const merge = await s.request('PUT', `${APP}/pulls/${pr.number}/merge`, { token: mike, body: {} });
	assert.is(merge.status, 405, '~> mike (push, no admin bypass) cannot merge it');
	assert.is(merge.body.message, 'At least 1 approving review is required by reviewers with write access.');
	await must('POST', `${APP}/pulls/${pr.number}/reviews`, { event: 'APPROVE' }, wendy);
	assert.is(await state(), 'clean');
	assert.is((await s.request('PUT', `${APP}/pulls/${pr.number}/merge`, { token: mike, body: {} })).status, 200, '~> approved: merged');
	await must('DELETE', `${APP}/branches/main/protection`);
});

test("POST …/comments: placed in the diff (line/side or position), a review of its own, GitHub's shape; 422 outside the diff", async () => {
	const head = (await must('GET', `${APP}/pulls/${number}`)).head.sha;
	const res = await s.request('POST', `${APP}/pulls/${number}/comments`, {
		token: wendy,
		body: { body: 'Why **world**?', commit_id: head, path: 'src/hello.txt', line: 2, side: 'RIGHT' },
	});
	assert.is(res.status, 201, res.text);
	const c = res.body;
	assert.equal(
		[c.path, c.position, c.original_position, c.line, c.original_line, c.side, c.start_line, c.commit_id, c.subject_type],
		['src/hello.txt', 2, 2, 2, 2, 'RIGHT', null, head, 'line'],
	);
	assert.is(c.diff_hunk, '@@ -0,0 +1,2 @@\n+hello\n+world');
	assert.ok(c.html_url.endsWith(`/acme/app/pull/${number}#discussion_r${c.id}`));
	assert.is(res.headers.get('location'), c.url);
	const review = await must('GET', `${APP}/pulls/${number}/reviews/${c.pull_request_review_id}`);
	assert.equal([review.state, review.body], ['COMMENTED', ''], '~> a review of its own');
	const byPosition = await must(
		'POST',
		`${APP}/pulls/${number}/comments`,
		{ body: 'First line', commit_id: head, path: 'src/hello.txt', position: 1 },
		wendy,
	);
	assert.equal([byPosition.line, byPosition.side, byPosition.diff_hunk], [1, 'RIGHT', '@@ -0,0 +1,2 @@\n+hello']);
	const range = await must(
		'POST',
		`${APP}/pulls/${number}/comments`,
		{ body: 'Both lines', commit_id: head, path: 'src/hello.txt', start_line: 1, line: 2 },
		wendy,
	);
	assert.equal([range.start_line, range.start_side, range.line], [1, 'RIGHT', 2]);
	const html = await s.request('GET', `${APP}/pulls/comments/${c.id}`, {
		token: olivia,
		headers: { Accept: 'application/vnd.github.full+json' },
	});
	assert.match(html.body.body_html, /<strong>world<\/strong>/, '~> rendered when written');
	for (const [body, field] of [
		[{ path: 'nowhere.txt', line: 1 }, 'pull_request_review_thread.path'],
		[{ path: 'src/hello.txt', line: 9 }, 'pull_request_review_thread.line'],
		[{ path: 'src/hello.txt', line: 1, side: 'LEFT' }, 'pull_request_review_thread.line'],
		[{ path: 'src/hello.txt', position: 7 }, 'pull_request_review_thread.position'],
	] as const) {
		const bad = await s.request('POST', `${APP}/pulls/${number}/comments`, {
			token: wendy,
			body: { body: 'x', commit_id: head, ...body },
		});
		assert.is(bad.status, 422, JSON.stringify(body));
		assert.equal(bad.body.errors, [{ resource: 'PullRequestReviewComment', code: 'custom', field, message: 'could not be resolved' }]);
	}
	const missing = await s.request('POST', `${APP}/pulls/${number}/comments`, {
		token: wendy,
		body: { body: 'x', path: 'src/hello.txt', line: 1 },
	});
	assert.is(missing.status, 422, '~> commit_id is required');
	const hook = deliveries('pull_request_review_comment').find((d) => d.comment.id === c.id);
	assert.is(hook.action, 'created');
	assert.is(hook.pull_request.number, number);
	const full = await must('GET', `${APP}/pulls/${number}`);
	assert.is(full.review_comments, 3, '~> review_comments counts them');
});

test('replies, lists (pull request, repository, review), PATCH and DELETE', async () => {
	const [first] = await must('GET', `${APP}/pulls/${number}/comments`);
	const replied = await s.request('POST', `${APP}/pulls/${number}/comments/${first.id}/replies`, {
		token: mike,
		body: { body: 'Because' },
	});
	assert.is(replied.status, 201, replied.text);
	assert.equal([replied.body.in_reply_to_id, replied.body.path, replied.body.line], [first.id, first.path, first.line]);
	const nested = await must('POST', `${APP}/pulls/${number}/comments`, { body: 'And so', in_reply_to: replied.body.id }, olivia);
	assert.is(nested.in_reply_to_id, first.id, "~> a reply answers the thread's first comment");
	const list = await must('GET', `${APP}/pulls/${number}/comments`, undefined, nora);
	assert.equal(list.length, 5);
	const desc = await must('GET', `${APP}/pulls/${number}/comments?direction=desc`);
	assert.is(desc[0].id, nested.id);
	assert.equal((await must('GET', `${APP}/pulls/comments`)).length, 5, "~> the repository's");
	const ofReview = await must('GET', `${APP}/pulls/${number}/reviews/${first.pull_request_review_id}/comments`);
	assert.equal(
		ofReview.map((c: any) => c.id),
		[first.id],
	);
	const patched = await must('PATCH', `${APP}/pulls/comments/${first.id}`, { body: 'Why world, @nora?' }, wendy);
	assert.is(patched.body, 'Why world, @nora?');
	const stranger = await s.request('PATCH', `${APP}/pulls/comments/${first.id}`, { token: nora, body: { body: 'mine' } });
	assert.is(stranger.status, 403);
	const removed = await s.request('DELETE', `${APP}/pulls/comments/${nested.id}`, { token: olivia });
	assert.is(removed.status, 204);
	assert.is((await s.request('GET', `${APP}/pulls/comments/${nested.id}`, { token: olivia })).status, 404);
	const actions = deliveries('pull_request_review_comment').map((d) => d.action);
	assert.ok(actions.includes('edited') && actions.includes('deleted'));
	const feed = await must('GET', '/repos/acme/app/events');
	assert.ok(
		feed.some((e: any) => e.type === 'PullRequestReviewCommentEvent'),
		'~> PullRequestReviewCommentEvent in the feed',
	);
});

test('a locked pull request takes reviews and review comments from push access only', async () => {
	await must('PUT', `${APP}/issues/${number}/lock`, {});
	const head = (await must('GET', `${APP}/pulls/${number}`)).head.sha;
	const review = await s.request('POST', `${APP}/pulls/${number}/reviews`, { token: nora, body: { event: 'COMMENT', body: 'Hi' } });
	assert.is(review.status, 403);
	const comment = await s.request('POST', `${APP}/pulls/${number}/comments`, {
		token: nora,
		body: { body: 'Hi', commit_id: head, path: 'src/hello.txt', line: 1 },
	});
	assert.is(comment.status, 403);
	const writer = await s.request('POST', `${APP}/pulls/${number}/comments`, {
		token: wendy,
		body: { body: 'Still here', commit_id: head, path: 'src/hello.txt', line: 1 },
	});
	assert.is(writer.status, 201);
	await must('DELETE', `${APP}/pulls/comments/${writer.body.id}`, undefined, wendy);
	await must('DELETE', `${APP}/issues/${number}/lock`);
});

test("POST reviews with comments[]: pending comments are their author's alone until submitted", async () => {
	const head = (await must('GET', `${APP}/pulls/${number}`)).head.sha;
	const outside = await s.request('POST', `${APP}/pulls/${number}/reviews`, {
		token: wendy,
		body: { comments: [{ path: 'src/hello.txt', line: 40, body: 'x' }] },
	});
	assert.is(outside.status, 422, '~> a comment outside the diff refuses the review');
	const pending = await must(
		'POST',
		`${APP}/pulls/${number}/reviews`,
		{ commit_id: head, comments: [{ path: 'src/hello.txt', line: 1, body: 'Pending note' }] },
		wendy,
	);
	const mine = await must('GET', `${APP}/pulls/${number}/reviews/${pending.id}/comments`, undefined, wendy);
	assert.equal(
		mine.map((c: any) => c.body),
		['Pending note'],
	);
	assert.is((await s.request('GET', `${APP}/pulls/comments/${mine[0].id}`, { token: olivia })).status, 404);
	assert.not.ok((await must('GET', `${APP}/pulls/${number}/comments`)).some((c: any) => c.id === mine[0].id));
	const before = deliveries('pull_request_review_comment').length;
	const submitted = await must('POST', `${APP}/pulls/${number}/reviews/${pending.id}/events`, { event: 'COMMENT' }, wendy);
	assert.is(submitted.state, 'COMMENTED', '~> inline comments stand for the body');
	const created = deliveries('pull_request_review_comment').slice(before);
	assert.equal(
		created.map((d) => [d.action, d.comment.body]),
		[['created', 'Pending note']],
	);
	assert.ok(
		(await must('GET', `${APP}/pulls/${number}/comments`)).some((c: any) => c.id === mine[0].id),
		'~> visible once submitted',
	);
});

test('Octokit: requestReviewers → createReview with inline comments (REQUEST_CHANGES) → a fix (synchronize) → APPROVE → the protected merge', async () => {
	const { Octokit } = await import('@octokit/rest');
	const quiet = { debug() {}, info() {}, warn() {}, error() {} };
	const author = new Octokit({ auth: mike, baseUrl: s.api, log: quiet });
	const reviewer = new Octokit({ auth: wendy, baseUrl: s.api, log: quiet });
	const repo = { owner: 'acme', repo: 'app' };
	await branch('octo-review');
	await write('octo-review', 'octo.txt', 'one\ntwo\n', mike);
	const { data: pr } = await author.pulls.create({ ...repo, title: 'Octo review', head: 'octo-review', base: 'main' });
	await must('PUT', `${APP}/branches/main/protection`, {
		required_status_checks: null,
		enforce_admins: false,
		required_pull_request_reviews: { required_approving_review_count: 1 },
		restrictions: null,
	});
	const { data: requested, status } = await author.pulls.requestReviewers({ ...repo, pull_number: pr.number, reviewers: ['wendy'] });
	assert.is(status, 201);
	assert.equal(
		requested.requested_reviewers!.map((u) => u.login),
		['wendy'],
	);
	const { data: files } = await reviewer.pulls.listFiles({ ...repo, pull_number: pr.number });
	assert.equal(
		files.map((f) => f.filename),
		['octo.txt'],
	);
	const { data: changes } = await reviewer.pulls.createReview({
		...repo,
		pull_number: pr.number,
		event: 'REQUEST_CHANGES',
		body: 'Two is wrong',
		comments: [{ path: 'octo.txt', line: 2, side: 'RIGHT', body: 'Say 2' }],
	});
	assert.is(changes.state, 'CHANGES_REQUESTED');
	const { data: inline } = await reviewer.pulls.listCommentsForReview({ ...repo, pull_number: pr.number, review_id: changes.id });
	assert.equal(
		inline.map((c) => [c.path, c.line, c.body]),
		[['octo.txt', 2, 'Say 2']],
	);
	const refused = await author.pulls.merge({ ...repo, pull_number: pr.number }).catch((error) => error);
	assert.is(refused.status, 405, '~> blocked before the approval');
	const fix = await write('octo-review', 'octo.txt', 'one\n2\n', mike);
	const { data: moved } = await author.pulls.get({ ...repo, pull_number: pr.number });
	assert.is(moved.head.sha, fix, '~> the fix moved the head (synchronize)');
	const { data: approval } = await reviewer.pulls.createReview({ ...repo, pull_number: pr.number, event: 'APPROVE' });
	assert.equal([approval.state, approval.commit_id], ['APPROVED', fix]);
	const { data: reviews } = await author.pulls.listReviews({ ...repo, pull_number: pr.number });
	assert.equal(
		reviews.map((r) => r.state),
		['CHANGES_REQUESTED', 'APPROVED'],
	);
	await s.app.tasks.runDue();
	const { data: merged } = await author.pulls.merge({ ...repo, pull_number: pr.number });
	assert.is(merged.merged, true, '~> merged after the approval');
	await must('DELETE', `${APP}/branches/main/protection`);
});

test("every pull_request review payload validates against GitHub's webhook schema for its action", async () => {
	const openapi = new OpenApi(['ghes-3.19']);
	const payloads = deliveries('pull_request').filter((d) => d.action.startsWith('review_'));
	const actions = new Set(payloads.map((d) => d.action));
	for (const action of ['review_requested', 'review_request_removed']) assert.ok(actions.has(action), `~> ${action} delivered`);
	const problems: string[] = [];
	for (const payload of payloads) {
		const violations = openapi.validateComponent(`webhook-pull-request-${payload.action.replace(/_/g, '-')}`, payload);
		assert.ok(violations, `~> GitHub documents ${payload.action}`);
		for (const v of violations!) problems.push(`${payload.action} ${v.pointer} ${v.keyword}: ${v.message}`);
	}
	assert.equal([...new Set(problems)], [], '~> no violations');
});

test("every pull_request_review_comment payload validates against GitHub's webhook schema for its action", async () => {
	const openapi = new OpenApi(['ghes-3.19']);
	const payloads = deliveries('pull_request_review_comment');
	assert.equal([...new Set(payloads.map((d) => d.action))].sort(), ['created', 'deleted', 'edited']);
	const problems: string[] = [];
	for (const payload of payloads) {
		const violations = openapi.validateComponent(`webhook-pull-request-review-comment-${payload.action}`, payload);
		assert.ok(violations, `~> GitHub documents ${payload.action}`);
		for (const v of violations!) problems.push(`${payload.action} ${v.pointer} ${v.keyword}: ${v.message}`);
	}
	assert.equal([...new Set(problems)], [], '~> no violations');
});

test("every pull_request_review payload validates against GitHub's webhook schema for its action", async () => {
	const openapi = new OpenApi(['ghes-3.19']);
	const payloads = deliveries('pull_request_review');
	assert.equal([...new Set(payloads.map((d) => d.action))].sort(), ['dismissed', 'edited', 'submitted']);
	const problems: string[] = [];
	for (const payload of payloads) {
		const violations = openapi.validateComponent(`webhook-pull-request-review-${payload.action}`, payload);
		assert.ok(violations, `~> GitHub documents ${payload.action}`);
		for (const v of violations!) problems.push(`${payload.action} ${v.pointer} ${v.keyword}: ${v.message}`);
	}
	assert.equal([...new Set(problems)], [], '~> no violations');
});

test.run();
