/**
 * The review services without an HTTP server: an app over a temporary data folder, a pull request
 * opened through the pull-request service, plain Caller objects. Covers GitHub's subtle review
 * rules: the author cannot approve their own pull request, one pending review per user, a pending
 * review is its author's alone, dismissing needs push access and a decision, review comments are
 * edited by their author or push access, review requests need the author or triage.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { App } from '../src/app';
import { callerAs, NOW, refusal, serviceApp } from './helpers/services';
import type { Caller } from '../src/auth/caller';
import type { RepoPermission } from '../src/model/repo-permissions';
import type { AccountRow, PullRow, RepositoryRow } from '../src/model/rows';
import { createUser } from '../src/api/users/service';
import { createRepository } from '../src/api/repos/service';
import { commitFile } from '../src/api/contents/service';
import { createRef } from '../src/api/git/writes';
import { issueScope } from '../src/api/issues/service';
import { createPullRequest } from '../src/api/pulls/workflows';
import { createReview, requestPullReviewers, submitReview } from '../src/api/pulls/review-service';
import {
	createReviewComment,
	deletePendingReview,
	deleteReviewComment,
	dismissReview,
	editReview,
	editReviewComment,
	removePullReviewers,
	visibleReview,
} from '../src/api/pulls/review-edits';
import { isoSeconds } from '../src/time';

const test = suite('services: reviews');
let app: App;
let close: () => void;
let owner: AccountRow;
let reviewer: AccountRow;
let other: AccountRow;
let repo: RepositoryRow;
let pull: PullRow;

const as = (account: AccountRow): Caller => callerAs(app, account);
const scope = (permission: RepoPermission) => issueScope(app, { repo: app.stores.repos.byId(repo.id)!, owner, permission });
const ident = { name: 'Octo', email: 'octo@example.com', seconds: NOW / 1000, tz: '+0000' };

function events(event: string): string[] {
	return (
		app.db.prepare('SELECT action FROM events WHERE repo_id = ? AND event = ? ORDER BY id').all(repo.id, event) as Array<{
			action: string;
		}>
	).map((row) => row.action);
}

test.before(() => {
	({ app, close } = serviceApp('reviews'));
	owner = createUser(app, { login: 'octo' });
	reviewer = createUser(app, { login: 'hubot' });
	other = createUser(app, { login: 'monalisa' });
	repo = createRepository(
		app,
		owner,
		{ name: 'demo', auto_init: true },
		{ collaboratorId: null, now: isoSeconds(NOW), actorId: owner.id },
	);
	const base = app.stores.git.ref(repo.id, `refs/heads/${repo.default_branch}`)!.sha;
	createRef(app, repo, 'refs/heads/feature', base, { actorId: owner.id });
	const change = {
		path: 'feature.txt',
		message: 'Add feature.txt',
		content: Buffer.from('one\ntwo\n'),
		branch: 'feature',
		author: ident,
		committer: ident,
	};
	commitFile(app, repo, change, isoSeconds(NOW), owner.id);
	pull = createPullRequest(as(owner), scope('admin'), { title: 'Feature', head: 'feature', base: repo.default_branch });
});

test.after(() => close());

test('the author cannot approve or request changes on their own pull request', () => {
	const approve = refusal(() => createReview(as(owner), scope('admin'), pull, { event: 'APPROVE' }));
	assert.is(approve.status, 422);
	assert.match(approve.message, 'Can not approve your own pull request');
	const changes = refusal(() => createReview(as(owner), scope('admin'), pull, { event: 'REQUEST_CHANGES', body: 'no' }));
	assert.match(changes.message, 'Can not request changes on your own pull request');
	// A COMMENT without a body or inline comments is blank.
	assert.is(refusal(() => createReview(as(reviewer), scope('pull'), pull, { event: 'COMMENT' })).status, 422);
	assert.equal(events('pull_request_review'), []);
});

test('one pending review per user, seen by its author alone; only the author deletes it', () => {
	const id = createReview(as(reviewer), scope('pull'), pull, { body: 'thinking' });
	const again = refusal(() => createReview(as(reviewer), scope('pull'), pull, {}));
	assert.match(again.message, 'User can only have one pending review per pull request');
	assert.is(visibleReview(as(reviewer), pull, id).state, 'PENDING');
	assert.is(refusal(() => visibleReview(as(other), pull, id)).status, 404);
	const review = visibleReview(as(reviewer), pull, id);
	assert.is(refusal(() => deletePendingReview(as(other), review)).status, 403);
	deletePendingReview(as(reviewer), review);
	assert.is(refusal(() => visibleReview(as(reviewer), pull, id)).status, 404);
	// Nothing about a pending review is ever recorded.
	assert.equal(events('pull_request_review'), []);
});

test('a submitted review cannot be deleted; its body edit records `edited`, by its author only', () => {
	const id = createReview(as(reviewer), scope('pull'), pull, { body: 'pending' });
	submitReview(as(reviewer), scope('pull'), pull, visibleReview(as(reviewer), pull, id), 'APPROVE', 'Looks good');
	const review = visibleReview(as(other), pull, id);
	assert.is(review.state, 'APPROVED');
	assert.is(refusal(() => deletePendingReview(as(reviewer), review)).status, 422);
	assert.is(refusal(() => editReview(as(other), scope('admin'), pull, review, 'mine now')).status, 403);
	editReview(as(reviewer), scope('pull'), pull, review, 'Looks very good');
	assert.equal(events('pull_request_review'), ['submitted', 'edited']);
});

test('dismissing needs push access and an approval or a change request', () => {
	const approved = app.stores.reviews.reviews(pull.id, reviewer.id, 100, 0).rows.find((r) => r.state === 'APPROVED')!;
	const denied = refusal(() => dismissReview(as(other), scope('triage'), pull, approved, 'stale'));
	assert.is(denied.status, 403);
	dismissReview(as(owner), scope('push'), pull, approved, 'stale');
	const dismissed = visibleReview(as(owner), pull, approved.id);
	assert.is(dismissed.state, 'DISMISSED');
	assert.match(refusal(() => dismissReview(as(owner), scope('admin'), pull, dismissed, 'again')).message, 'Can not dismiss a dismissed');
	const commented = createReview(as(reviewer), scope('pull'), pull, { event: 'COMMENT', body: 'fyi' });
	const comment = visibleReview(as(owner), pull, commented);
	assert.match(refusal(() => dismissReview(as(owner), scope('admin'), pull, comment, 'x')).message, 'Can not dismiss a commented');
	const timeline = app.db
		.prepare("SELECT COUNT(*) AS n FROM issue_events WHERE issue_id = ? AND event = 'review_dismissed'")
		.get(pull.id) as { n: number };
	assert.is(timeline.n, 1);
});

test('review comments: placed in the diff, edited and deleted by their author or push access', () => {
	const comment = createReviewComment(as(reviewer), scope('pull'), pull, {
		body: 'Why two?',
		commit_id: pull.pr.head_sha,
		path: 'feature.txt',
		line: 2,
	});
	assert.is(comment.line, 2);
	assert.is(comment.side, 'RIGHT');
	const outside = refusal(() =>
		createReviewComment(as(reviewer), scope('pull'), pull, { body: 'x', commit_id: pull.pr.head_sha, path: 'README.md', line: 1 }),
	);
	assert.is(outside.status, 422);
	assert.is(refusal(() => editReviewComment(as(other), scope('pull'), comment, 'hijack')).status, 403);
	assert.is(editReviewComment(as(owner), scope('push'), comment, 'Why two lines?').body, 'Why two lines?');
	assert.is(refusal(() => deleteReviewComment(as(other), scope('triage'), comment)).status, 403);
	deleteReviewComment(as(reviewer), scope('pull'), comment);
	assert.equal(events('pull_request_review_comment'), ['created', 'edited', 'deleted']);
});

test('review requests: the author or triage; the author cannot be asked; withdrawing records once', () => {
	assert.is(refusal(() => requestPullReviewers(as(other), scope('pull'), pull, ['hubot'], undefined)).status, 403);
	assert.is(refusal(() => requestPullReviewers(as(owner), scope('admin'), pull, ['octo'], undefined)).status, 422);
	requestPullReviewers(as(owner), scope('admin'), pull, ['hubot'], undefined);
	assert.is(refusal(() => removePullReviewers(as(other), scope('pull'), pull, ['hubot'], [])).status, 403);
	removePullReviewers(as(owner), scope('admin'), pull, ['hubot'], []);
	removePullReviewers(as(owner), scope('admin'), pull, ['hubot'], []);
	const actions = events('pull_request').filter((a) => a.startsWith('review_'));
	assert.equal(actions, ['review_requested', 'review_request_removed']);
});

test.run();
