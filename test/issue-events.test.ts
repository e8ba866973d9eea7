/**
 * Issue events and timelines (GitHub's issue events and timeline APIs) over real HTTP: every change
 * to an issue records its event in the change's transaction (labeled, unlabeled, assigned,
 * unassigned, milestoned, demilestoned, renamed, closed with its state_reason, reopened, locked,
 * unlocked); pull requests add review_requested / review_request_removed, head_ref_force_pushed,
 * merged and closed with the merge commit, head_ref_deleted, review_dismissed; pushes add
 * `referenced` (once per commit) and a closed event naming the closing commit. The timeline merges
 * events, comments, commits and reviews in time order; the repository-wide list carries each
 * event's issue.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isoSeconds } from '../src/time';
import { referencedNumbers } from '../src/api/issues/timeline';
import { gitIn, hasGit, writeTree } from './helpers/git';
import { startServer, type TestServer } from './helpers/server';

const test = suite('issue-events');
const APP = '/repos/acme/app';
let s: TestServer;
let olivia: string;
let mike: string;

async function must(method: string, path: string, body?: unknown, token = olivia) {
	const res = await s.request(method, path, { token, body });
	assert.ok(res.status >= 200 && res.status < 300, `~> ${method} ${path}: ${res.status} ${res.text}`);
	return res.body;
}

async function write(branch: string, path: string, text: string): Promise<string> {
	const existing = await s.request('GET', `${APP}/contents/${path}?ref=${branch}`, { token: olivia });
	const body: Record<string, unknown> = { message: `Write ${path}`, content: Buffer.from(text).toString('base64'), branch };
	if (existing.status === 200) body.sha = existing.body.sha;
	return (await must('PUT', `${APP}/contents/${path}`, body)).commit.sha;
}

async function branch(name: string, from = 'main'): Promise<void> {
	const sha = (await must('GET', `${APP}/git/ref/heads/${from}`)).object.sha;
	await must('POST', `${APP}/git/refs`, { ref: `refs/heads/${name}`, sha });
}

const eventsOf = async (number: number) => (await must('GET', `${APP}/issues/${number}/events?per_page=100`)) as any[];

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike']) s.user(login);
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	mike = s.fullToken('mike');
	await must('POST', '/orgs/acme/repos', { name: 'app', auto_init: true, delete_branch_on_merge: true });
	const app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('mike')!.id, 'push', isoSeconds(s.clock.now));
});
test.after(() => s.close());

test('an issue’s changes are its events, in order, with GitHub’s fields', async () => {
	const issue = await must('POST', `${APP}/issues`, { title: 'Wobbly', body: 'It wobbles' });
	const n = issue.number as number;
	await must('POST', `${APP}/issues/${n}/labels`, { labels: ['bug'] });
	await must('DELETE', `${APP}/issues/${n}/labels/bug`);
	await must('POST', `${APP}/issues/${n}/assignees`, { assignees: ['mike'] });
	await must('DELETE', `${APP}/issues/${n}/assignees`, { assignees: ['mike'] });
	const milestone = await must('POST', `${APP}/milestones`, { title: 'v1' });
	await must('PATCH', `${APP}/issues/${n}`, { milestone: milestone.number });
	await must('PATCH', `${APP}/issues/${n}`, { milestone: null });
	await must('PATCH', `${APP}/issues/${n}`, { title: 'Very wobbly' });
	await must('PATCH', `${APP}/issues/${n}`, { state: 'closed', state_reason: 'not_planned' });
	await must('PATCH', `${APP}/issues/${n}`, { state: 'open' });
	await must('PUT', `${APP}/issues/${n}/lock`, { lock_reason: 'resolved' });
	await must('DELETE', `${APP}/issues/${n}/lock`);
	const events = await eventsOf(n);
	assert.equal(
		events.map((e) => e.event),
		[
			'labeled',
			'unlabeled',
			'assigned',
			'unassigned',
			'milestoned',
			'demilestoned',
			'renamed',
			'closed',
			'reopened',
			'locked',
			'unlocked',
		],
	);
	const byName = Object.fromEntries(events.map((e) => [e.event, e]));
	assert.equal(byName.labeled.label, { name: 'bug', color: 'd73a4a' });
	assert.is(byName.labeled.actor.login, 'olivia');
	assert.is(byName.assigned.assignee.login, 'mike');
	assert.is(byName.assigned.assigner.login, 'olivia');
	assert.equal(byName.milestoned.milestone, { title: 'v1' });
	assert.equal(byName.renamed.rename, { from: 'Wobbly', to: 'Very wobbly' });
	assert.is(byName.closed.state_reason, 'not_planned');
	assert.is(byName.closed.commit_id, null);
	assert.is(byName.locked.lock_reason, 'resolved');
	assert.match(byName.labeled.url, `${APP}/issues/events/${byName.labeled.id}`);
	// One event, and the repository's list with each event's issue.
	const one = await must('GET', `${APP}/issues/events/${byName.renamed.id}`);
	assert.is(one.event, 'renamed');
	assert.is(one.issue.number, n);
	const all = (await must('GET', `${APP}/issues/events`)) as any[];
	assert.is(all[0].event, 'unlocked', 'newest first');
	assert.is(all[0].issue.number, n);
	assert.is((await s.request('GET', `${APP}/issues/events/999999`, { token: olivia })).status, 404);
	// The timeline: the events and the comments, in time order.
	await must('POST', `${APP}/issues/${n}/comments`, { body: 'Still wobbles' });
	const timeline = (await must('GET', `${APP}/issues/${n}/timeline?per_page=100`)) as any[];
	assert.is(timeline.length, 12);
	const last = timeline[timeline.length - 1];
	assert.is(last.event, 'commented');
	assert.is(last.actor.login, 'olivia');
	assert.is(last.body, 'Still wobbles');
	const page = (await must('GET', `${APP}/issues/${n}/timeline?per_page=5&page=3`)) as any[];
	assert.equal(
		page.map((e) => e.event),
		['unlocked', 'commented'],
	);
});

test('a pull request: review requests, a force push, a dismissed review, merged and closed with the merge commit, the head branch deleted', async () => {
	await branch('feature');
	await write('feature', 'feature.txt', 'one\n');
	await branch('other');
	const otherSha = await write('other', 'other.txt', 'elsewhere\n');
	const pull = await must('POST', `${APP}/pulls`, { title: 'Feature', head: 'feature', base: 'main' }, mike);
	const n = pull.number as number;
	await must('POST', `${APP}/pulls/${n}/requested_reviewers`, { reviewers: ['olivia'] }, mike);
	await must('DELETE', `${APP}/pulls/${n}/requested_reviewers`, { reviewers: ['olivia'] }, mike);
	// The head moved to a commit that does not hold the old one: a force push.
	await must('PATCH', `${APP}/git/refs/heads/feature`, { sha: otherSha, force: true }, mike);
	const review = await must('POST', `${APP}/pulls/${n}/reviews`, { event: 'REQUEST_CHANGES', body: 'Not yet' });
	await must('PUT', `${APP}/pulls/${n}/reviews/${review.id}/dismissals`, { message: 'Addressed' });
	const merged = (await s.request('PUT', `${APP}/pulls/${n}/merge`, { token: olivia, body: {} })).body;
	assert.ok(merged.sha, `~> merged: ${JSON.stringify(merged)}`);
	const events = await eventsOf(n);
	assert.equal(
		events.map((e) => e.event),
		['review_requested', 'review_request_removed', 'head_ref_force_pushed', 'review_dismissed', 'merged', 'closed', 'head_ref_deleted'],
	);
	const byName = Object.fromEntries(events.map((e) => [e.event, e]));
	assert.is(byName.review_requested.requested_reviewer.login, 'olivia');
	assert.is(byName.review_requested.review_requester.login, 'mike');
	assert.is(byName.head_ref_force_pushed.commit_id, otherSha);
	assert.equal(byName.review_dismissed.dismissed_review, {
		state: 'changes_requested',
		review_id: review.id,
		dismissal_message: 'Addressed',
		dismissal_commit_id: null,
	});
	assert.is(byName.merged.commit_id, merged.sha);
	assert.is(byName.closed.commit_id, merged.sha);
	assert.is(byName.merged.actor.login, 'olivia');
	// The timeline adds the commit and the review.
	const timeline = (await must('GET', `${APP}/issues/${n}/timeline?per_page=100`)) as any[];
	const committed = timeline.find((e) => e.event === 'committed');
	assert.is(committed.sha, otherSha);
	assert.ok(committed.tree.sha);
	const reviewed = timeline.find((e) => e.event === 'reviewed');
	assert.is(reviewed.state, 'dismissed');
	assert.is(reviewed.user.login, 'olivia');
});

test('references: #N, GH-N and owner/repo#N of this repository; code spans and other repositories left out', () => {
	assert.equal(referencedNumbers('Fix #1, see GH-2 and acme/app#3 (not other/repo#4, `#5`) x#6', 'acme', 'app'), [1, 2, 3]);
});

test('pushes: a commit naming #N is referenced once, and a closing keyword on the default branch names its commit', async () => {
	if (!hasGit) {
		console.log('issue-events: git is missing; the push part is skipped');
		return;
	}
	const issue = await must('POST', `${APP}/issues`, { title: 'Pushed at' });
	const other = await must('POST', `${APP}/issues`, { title: 'Fixed by a push' });
	const work = mkdtempSync(join(tmpdir(), 'gitstead-events-'));
	try {
		const { git } = gitIn(work);
		const url = `${s.origin.replace('http://', `http://x-access-token:${olivia}@`)}/acme/app.git`;
		const dir = join(work, 'app');
		const run = async (args: string[]) => {
			const result = await git(args, dir);
			assert.is(result.status, 0, `~> git ${args.join(' ')}: ${result.err}`);
			return result.out.trim();
		};
		assert.is((await git(['clone', '-q', url, dir], work)).status, 0);
		await run(['checkout', '-q', '-b', 'topic']);
		writeTree(dir, { 'a.txt': 'a\n' });
		await run(['add', '-A']);
		await run(['commit', '-q', '-m', `Work on #${issue.number}`]);
		const sha = await run(['rev-parse', 'HEAD']);
		await run(['push', '-q', 'origin', 'topic']);
		// The same commit pushed again on another branch: still one reference.
		await run(['push', '-q', 'origin', 'topic:copy']);
		await run(['checkout', '-q', 'main']);
		writeTree(dir, { 'b.txt': 'b\n' });
		await run(['add', '-A']);
		await run(['commit', '-q', '-m', `Repair\n\nFixes #${other.number}`]);
		const fix = await run(['rev-parse', 'HEAD']);
		await run(['push', '-q', 'origin', 'main']);
		const referenced = await eventsOf(issue.number);
		assert.equal(
			referenced.map((e) => [e.event, e.commit_id]),
			[['referenced', sha]],
		);
		assert.match(referenced[0].commit_url, `${APP}/commits/${sha}`);
		const fixed = await eventsOf(other.number);
		assert.equal(
			fixed.map((e) => [e.event, e.commit_id]),
			[
				['referenced', fix],
				['closed', fix],
			],
		);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
});

test.run();
