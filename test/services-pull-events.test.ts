/**
 * Pull request events are cheap to record: without an HTTP server, a head move (the `synchronize`
 * of a push) and an opened pull request record their events inside the writing transaction with
 * no merge base computed for the payload there (the git layer counts merge bases computed while a
 * transaction is open); the comparison counts (commits, additions, deletions, changed_files) are
 * computed after commit and written into the queued webhook deliveries and the feed entry, with
 * the values computing them in place gives.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { App } from '../src/app';
import { callerAs, NOW, serviceApp } from './helpers/services';
import type { Caller } from '../src/auth/caller';
import type { AccountRow, PullRow, RepositoryRow } from '../src/model/rows';
import { createUser } from '../src/api/users/service';
import { createRepository } from '../src/api/repos/service';
import { commitFile } from '../src/api/contents/service';
import { createRef } from '../src/api/git/writes';
import { mergeBasesInTransactions } from '../src/api/git/service';
import { issueScope } from '../src/api/issues/service';
import { createPullRequest } from '../src/api/pulls/workflows';
import { comparisonCounts, comparisonPart } from '../src/api/pulls/service';
import { completeLeftovers, pendingDeferred } from '../src/events/deferred';
import { isoSeconds } from '../src/time';
import { expandOrigin } from '../src/model/json';

const test = suite('services: pull request events');
let app: App;
let close: () => void;
let owner: AccountRow;
let repo: RepositoryRow;

const caller = (): Caller => callerAs(app, owner);
const scope = () => issueScope(app, { repo: app.stores.repos.byId(repo.id)!, owner, permission: 'admin' });
const ident = { name: 'Octo', email: 'octo@example.com', seconds: NOW / 1000, tz: '+0000' };

/** A commit on the branch, in a writing transaction of its own (as a request's). */
function commit(branch: string, path: string, text: string): void {
	const change = { path, message: `Write ${path}`, content: Buffer.from(text), branch, author: ident, committer: ident };
	app.transaction(() => commitFile(app, repo, change, isoSeconds(NOW), owner.id));
}

/** The queued pull_request deliveries' payloads, oldest first. */
function deliveries(action: string): any[] {
	return (
		app.db
			.prepare("SELECT payload FROM webhook_deliveries WHERE event = 'pull_request' AND action = ? ORDER BY id")
			.all(action) as Array<{ payload: string }>
	).map((row) => JSON.parse(row.payload));
}

/** Lets the after-commit step run (a microtask once the transaction has committed). */
const afterCommit = () => app.transaction.durable().then(() => new Promise((resolve) => setImmediate(resolve)));

const counted = (pull: any) => [pull.commits, pull.additions, pull.deletions, pull.changed_files];

test.before(() => {
	({ app, close } = serviceApp('pull-events'));
	owner = createUser(app, { login: 'octo' });
	repo = createRepository(
		app,
		owner,
		{ name: 'demo', auto_init: true },
		{ collaboratorId: null, now: isoSeconds(NOW), actorId: owner.id },
	);
	app.transaction(() =>
		app.stores.webhooks.insert(
			{ kind: 'repository', repoId: repo.id },
			{ active: 1, events: '["*"]', url: 'http://hooks.invalid/', content_type: 'json', insecure_ssl: '0', secret: null },
			isoSeconds(NOW),
		),
	);
	app.webhooks.invalidate();
	const base = app.stores.git.ref(repo.id, `refs/heads/${repo.default_branch}`)!.sha;
	createRef(app, repo, 'refs/heads/feature', base, { actorId: owner.id });
	commit('feature', 'one.txt', 'one\n');
});

test.after(() => close());

let pull: PullRow;

test('opened: the payload is recorded without a comparison; its counts are filled after commit', async () => {
	const before = mergeBasesInTransactions(app);
	pull = createPullRequest(caller(), scope(), { title: 'Feature', head: 'feature', base: repo.default_branch });
	// GitHub's preconditions (no history in common, no commits between) still compare once; the
	// payload's counts add nothing.
	assert.is(mergeBasesInTransactions(app) - before, 1, '~> only the precondition compares in the transaction');
	assert.ok(pendingDeferred(app) > 0, '~> counts are left for after the commit');
	await afterCommit();
	assert.is(pendingDeferred(app), 0);
	const [opened] = deliveries('opened');
	assert.equal(counted(opened.pull_request), [1, 1, 0, 1]);
	const feed = app.db.prepare("SELECT payload FROM events WHERE feed_type = 'PullRequestEvent' ORDER BY id DESC").get() as {
		payload: string;
	};
	assert.equal(counted(JSON.parse(expandOrigin(feed.payload)).pull_request), [1, 1, 0, 1], '~> the feed entry too');
});

test('synchronize: a head move records no merge base in the transaction; the delivery carries the new counts', async () => {
	const before = mergeBasesInTransactions(app);
	commit('feature', 'two.txt', 'two\nlines\n');
	assert.is(mergeBasesInTransactions(app) - before, 0, '~> no merge base while the write lock is held');
	await afterCommit();
	const [sync] = deliveries('synchronize');
	assert.ok(sync, '~> synchronize queued');
	const current = app.stores.pulls.byIssue(pull.id)!;
	const expected = comparisonCounts(app, current.pr);
	assert.equal(counted(sync.pull_request), [expected.commits, expected.additions, expected.deletions, expected.changed_files]);
	assert.equal(counted(sync.pull_request), [2, 3, 0, 2]);
	assert.not.match(JSON.stringify(sync), 'deferred:', '~> no placeholder left');
});

test('a rolled-back change leaves nothing to fill and nothing pending', async () => {
	const before = deliveries('synchronize').length;
	assert.throws(() =>
		app.transaction(() => {
			commit('feature', 'three.txt', 'three\n');
			throw new Error('refused');
		}),
	);
	await afterCommit();
	assert.is(pendingDeferred(app), 0);
	assert.is(deliveries('synchronize').length, before);
});

test('placeholders a stopped process left are filled when the app opens again (completeLeftovers)', () => {
	const row = app.db.prepare("SELECT id, payload FROM webhook_deliveries WHERE action = 'synchronize' ORDER BY id DESC").get() as {
		id: number;
		payload: string;
	};
	const current = app.stores.pulls.byIssue(pull.id)!.pr;
	const key = `${repo.id}:${current.base_sha}:${current.head_sha}`;
	const payload = JSON.parse(row.payload);
	payload.pull_request.commits = `\u0000deferred:comparison:${key}:commits`;
	payload.pull_request.additions = `\u0000deferred:unknown-kind:${key}`;
	app.stores.webhooks.setPayload(row.id, JSON.stringify(payload));
	assert.is(completeLeftovers(app, { comparison: comparisonPart }), 1);
	const filled = JSON.parse(app.db.prepare('SELECT payload FROM webhook_deliveries WHERE id = ?').pluck().get(row.id) as string);
	assert.is(filled.pull_request.commits, 2);
	assert.is(filled.pull_request.additions, null, '~> a kind without a resolver: null');
	assert.is(completeLeftovers(app, { comparison: comparisonPart }), 0, '~> nothing left');
});

test.run();
