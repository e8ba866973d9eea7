/**
 * Merging pull requests over real HTTP: PUT …/merge with each method (the resulting
 * commits' parents, trees and messages read back with the git data API), 409 on a stale `sha`,
 * 405 for a merged, conflicting or disallowed merge, mergeable/mergeable_state/rebaseable computed
 * by the background task (run with app.tasks.runDue()), branch protection (a required check until
 * its commit status exists, required reviews), closing keywords, PUT …/update-branch, an Octokit
 * pulls.merge, and `git fsck --strict` over every object the merges wrote.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isoSeconds } from '../src/time';
import { closingReferences } from '../src/api/issues/closing-keywords';
import { storedObjects } from './helpers/git-objects';
import { startServer, type TestServer } from './helpers/server';
import { hookDeliveries, mustSucceed, writeFile } from './helpers/setup';

const test = suite('pulls-merge');
const APP = '/repos/acme/app';
let s: TestServer;
let olivia: string; // owner of acme
let mike: string; // push collaborator on acme/app
let hookId: number;

const must = (method: string, path: string, body?: unknown, token = olivia) => mustSucceed(s, method, path, body, token);

/** Writes a file on a branch with the contents API; returns the new commit's sha. */
const write = (branch: string, path: string, text: string, token = olivia) => writeFile(s, APP, branch, path, text, token);

async function head(branch: string): Promise<string> {
	return (await must('GET', `${APP}/git/ref/heads/${branch}`)).object.sha;
}

async function branch(name: string, from = 'main'): Promise<string> {
	const sha = await head(from);
	await must('POST', `${APP}/git/refs`, { ref: `refs/heads/${name}`, sha });
	return sha;
}

async function file(ref: string, path: string): Promise<string | null> {
	const res = await s.request('GET', `${APP}/contents/${path}?ref=${ref}`, { token: olivia });
	return res.status === 200 ? Buffer.from(res.body.content, 'base64').toString('utf8') : null;
}

async function open(headBranch: string, title: string, body?: string, token = mike) {
	return must('POST', `${APP}/pulls`, { title, head: headBranch, base: 'main', ...(body ? { body } : {}) }, token);
}

const merge = (number: number, body: Record<string, unknown> = {}, token = olivia) =>
	s.request('PUT', `${APP}/pulls/${number}/merge`, { token, body });

const deliveries = (event: string) => hookDeliveries(s, hookId, event);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike']) s.user(login);
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	mike = s.fullToken('mike');
	await must('POST', '/orgs/acme/repos', { name: 'app', auto_init: true });
	const app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('mike')!.id, 'push', isoSeconds(s.clock.now));
	hookId = (
		await must('POST', `${APP}/hooks`, {
			name: 'web',
			config: { url: 'https://hooks.example.com/m', content_type: 'json' },
			events: ['pull_request', 'issues', 'push'],
		})
	).id;
	await write('main', 'shared.txt', 'one\ntwo\nthree\nfour\nfive\n');
});
test.after(() => s.close());

test("merge_method merge: a merge commit with two parents and both sides' files; mergeability from the task; 409 on a stale sha", async () => {
	await branch('feature-a');
	const headSha = await write('feature-a', 'a.txt', 'from a\n', mike);
	const baseSha = await write('main', 'b.txt', 'from main\n');
	const pr = await open('feature-a', 'Add a', 'The a file');
	assert.is(pr.mergeable, null, '~> diverged: unknown until the task ran');
	assert.is(pr.mergeable_state, 'unknown');
	assert.is(pr.rebaseable, null);
	await s.app.tasks.runDue();
	const computed = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(computed.mergeable, true, '~> computed by the merge engine');
	assert.is(computed.mergeable_state, 'clean');
	assert.is(computed.rebaseable, true);

	const stale = await merge(pr.number, { sha: baseSha });
	assert.is(stale.status, 409);
	assert.is(stale.body.message, 'Head branch was modified. Review and try the merge again.');
	const bad = await merge(pr.number, { merge_method: 'octopus' });
	assert.is(bad.status, 422, '~> unknown merge_method');

	const res = await merge(pr.number, { sha: headSha });
	assert.is(res.status, 200, res.text);
	assert.equal(Object.keys(res.body).sort(), ['merged', 'message', 'sha']);
	assert.is(res.body.merged, true);
	assert.is(res.body.message, 'Pull Request successfully merged');
	const commit = await must('GET', `${APP}/git/commits/${res.body.sha}`);
	assert.equal(
		commit.parents.map((p: any) => p.sha),
		[baseSha, headSha],
		'~> base first, head second',
	);
	assert.is(commit.message, `Merge pull request #${pr.number} from acme/feature-a\n\nAdd a`);
	assert.is(commit.author.name, 'olivia', '~> the merger authors it');
	assert.is(await head('main'), res.body.sha, '~> main moved');
	assert.is(await file('main', 'a.txt'), 'from a\n');
	assert.is(await file('main', 'b.txt'), 'from main\n');

	const merged = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(merged.state, 'closed');
	assert.is(merged.merged, true);
	assert.is(merged.merged_by.login, 'olivia');
	assert.is(merged.merge_commit_sha, res.body.sha);
	assert.ok(merged.merged_at);
	assert.is(merged.base.sha, baseSha, '~> the base it was merged into');
	assert.is(merged.mergeable, null);
	assert.is((await s.request('GET', `${APP}/pulls/${pr.number}/merge`, { token: olivia })).status, 204);
	const again = await merge(pr.number);
	assert.is(again.status, 405);
	assert.is(again.body.message, 'Pull Request is not mergeable');
	const closed = deliveries('pull_request').filter((d) => d.action === 'closed' && d.number === pr.number);
	assert.is(closed.length, 1, '~> pull_request closed');
	assert.is(closed[0].pull_request.merged, true);
	assert.is(closed[0].pull_request.merge_commit_sha, res.body.sha);
	assert.ok(
		deliveries('push').some((d) => d.after === res.body.sha),
		'~> the push of main',
	);
	const feed = await must('GET', `${APP}/events`);
	assert.ok(
		feed.some((e: any) => e.type === 'PullRequestEvent' && e.payload.action === 'closed' && e.payload.pull_request.merged === true),
		'~> PullRequestEvent closed',
	);
});

test('merge_method squash: one commit on the base, authored by the merger, title (#N), the commit list and co-authors', async () => {
	await branch('feature-s');
	await write('feature-s', 's1.txt', 'one\n', mike);
	const headSha = await write('feature-s', 's2.txt', 'two\n', mike);
	const baseSha = await head('main');
	const pr = await open('feature-s', 'Squash these');
	const res = await merge(pr.number, { merge_method: 'squash', sha: headSha });
	assert.is(res.status, 200, res.text);
	const commit = await must('GET', `${APP}/git/commits/${res.body.sha}`);
	assert.equal(
		commit.parents.map((p: any) => p.sha),
		[baseSha],
		'~> one parent',
	);
	const mikeEmail = (await must('GET', `${APP}/git/commits/${headSha}`)).author.email;
	assert.is(
		commit.message,
		`Squash these (#${pr.number})\n\n* Write s1.txt\n\n* Write s2.txt\n\nCo-authored-by: mike <${mikeEmail}>`,
		"~> the commits' other authors as co-authors",
	);
	assert.is(commit.author.name, 'olivia', '~> the merger authors it (GitHub since 2020)');
	assert.is(commit.committer.name, 'olivia');
	const headTree = (await must('GET', `${APP}/git/commits/${headSha}`)).tree.sha;
	assert.is(commit.tree.sha, headTree, "~> a fast-forward squash has the head's tree");
	await branch('feature-s2');
	await write('feature-s2', 's3.txt', 'three\n', mike);
	const custom = await open('feature-s2', 'Custom');
	const titled = await merge(custom.number, { merge_method: 'squash', commit_title: 'My title', commit_message: 'My message' });
	assert.is(
		(await must('GET', `${APP}/git/commits/${titled.body.sha}`)).message,
		'My title\n\nMy message',
		'~> commit_title and commit_message win',
	);
});

test('merge_method rebase: the commits replayed onto the base, messages and authors kept', async () => {
	await branch('feature-r');
	await write('feature-r', 'r1.txt', 'one\n', mike);
	await write('feature-r', 'r2.txt', 'two\n', mike);
	const baseSha = await write('main', 'm.txt', 'main moved\n');
	const pr = await open('feature-r', 'Rebase these');
	await s.app.tasks.runDue();
	assert.is((await must('GET', `${APP}/pulls/${pr.number}`)).rebaseable, true);
	const res = await merge(pr.number, { merge_method: 'rebase' });
	assert.is(res.status, 200, res.text);
	const top = await must('GET', `${APP}/git/commits/${res.body.sha}`);
	assert.is(top.message, 'Write r2.txt');
	assert.is(top.author.name, 'mike');
	assert.is(top.committer.name, 'olivia');
	const below = await must('GET', `${APP}/git/commits/${top.parents[0].sha}`);
	assert.is(below.message, 'Write r1.txt');
	assert.equal(
		below.parents.map((p: any) => p.sha),
		[baseSha],
		'~> replayed onto the base',
	);
	assert.is(await head('main'), res.body.sha);
	assert.is(await file('main', 'r2.txt'), 'two\n');
	assert.is(await file('main', 'm.txt'), 'main moved\n');
	assert.is((await must('GET', `${APP}/pulls/${pr.number}`)).merge_commit_sha, res.body.sha);
});

test("a merge method the repository disallows: 405 with GitHub's message", async () => {
	await must('PATCH', APP, { allow_squash_merge: false, allow_rebase_merge: false });
	await branch('feature-d');
	await write('feature-d', 'd.txt', 'd\n', mike);
	const pr = await open('feature-d', 'Disallowed');
	const squash = await merge(pr.number, { merge_method: 'squash' });
	assert.is(squash.status, 405);
	assert.is(squash.body.message, 'Squash merges are not allowed on this repository.');
	const rebase = await merge(pr.number, { merge_method: 'rebase' });
	assert.is(rebase.body.message, 'Rebase merges are not allowed on this repository.');
	await must('PATCH', APP, { allow_squash_merge: true, allow_rebase_merge: true, allow_merge_commit: false });
	const plain = await merge(pr.number);
	assert.is(plain.status, 405);
	assert.is(plain.body.message, 'Merge commits are not allowed on this repository.');
	await must('PATCH', APP, { allow_merge_commit: true });
	await branch('feature-draft');
	await write('feature-draft', 'draft.txt', 'draft\n', mike);
	const draft = await must('POST', `${APP}/pulls`, { title: 'Draft', head: 'feature-draft', base: 'main', draft: true }, mike);
	const early = await merge(draft.number);
	assert.is(early.status, 405);
	assert.is(early.body.message, 'Pull Request is still a draft');
	await must('PATCH', `${APP}/pulls/${draft.number}`, { state: 'closed' });
	await must('PATCH', `${APP}/pulls/${pr.number}`, { state: 'closed' });
	const closed = await merge(pr.number);
	assert.is(closed.status, 405, '~> a closed pull request');
	assert.is(closed.body.message, 'Pull Request is not mergeable');
});

test('delete_branch_on_merge: the merged head branch is deleted (delete recorded); a branch another pull request is based on stays', async () => {
	await must('PATCH', APP, { delete_branch_on_merge: true });
	await branch('feature-del');
	await write('feature-del', 'del.txt', 'del\n', mike);
	await branch('stacked', 'feature-del');
	await write('stacked', 'stacked.txt', 'stacked\n', mike);
	const stacked = await must('POST', `${APP}/pulls`, { title: 'Stacked', head: 'stacked', base: 'feature-del' }, mike);
	const kept = await open('feature-del', 'Kept branch');
	assert.is((await merge(kept.number)).status, 200);
	assert.is(
		(await s.request('GET', `${APP}/git/ref/heads/feature-del`, { token: olivia })).status,
		200,
		'~> the stacked pull request is based on it',
	);
	await must('PATCH', `${APP}/pulls/${stacked.number}`, { state: 'closed' });
	await branch('feature-gone');
	await write('feature-gone', 'gone.txt', 'gone\n', mike);
	const gone = await open('feature-gone', 'Gone branch');
	assert.is((await merge(gone.number)).status, 200);
	assert.is((await s.request('GET', `${APP}/git/ref/heads/feature-gone`, { token: olivia })).status, 404, '~> deleted');
	assert.ok(
		deliveries('push').some((d) => d.ref === 'refs/heads/feature-gone' && d.deleted === true),
		'~> the deletion pushed',
	);
	await must('PATCH', APP, { delete_branch_on_merge: false });
});

test('a conflicting pull request: mergeable false, mergeable_state dirty after the task, merge 405', async () => {
	await branch('feature-c');
	await write('feature-c', 'shared.txt', 'one\nTWO from c\nthree\nfour\nfive\n', mike);
	await write('main', 'shared.txt', 'one\nTWO from main\nthree\nfour\nfive\n');
	const pr = await open('feature-c', 'Conflicts');
	await s.app.tasks.runDue();
	const got = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(got.mergeable, false);
	assert.is(got.mergeable_state, 'dirty');
	assert.is(got.rebaseable, false);
	const before = await head('main');
	const res = await merge(pr.number);
	assert.is(res.status, 405);
	assert.is(res.body.message, 'Pull Request is not mergeable');
	assert.is(await head('main'), before, '~> nothing moved');
	const update = await s.request('PUT', `${APP}/pulls/${pr.number}/update-branch`, { token: mike, body: {} });
	assert.is(update.status, 422);
	assert.is(update.body.message, 'merge conflict between base and head');
	await must('PATCH', `${APP}/pulls/${pr.number}`, { state: 'closed' });
});

test("branch protection: a required check blocks the merge until its commit status exists; required reviews block with GitHub's 405", async () => {
	await must('PUT', `${APP}/branches/main/protection`, {
		required_status_checks: { strict: false, contexts: ['ci'] },
		enforce_admins: true,
		required_pull_request_reviews: null,
		restrictions: null,
	});
	await branch('feature-p');
	const headSha = await write('feature-p', 'p.txt', 'p\n', mike);
	const pr = await open('feature-p', 'Protected');
	await s.app.tasks.runDue();
	let got = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(got.mergeable, true);
	assert.is(got.mergeable_state, 'blocked', '~> the required check has not run');
	const blocked = await merge(pr.number);
	assert.is(blocked.status, 405);
	assert.is(blocked.body.message, 'Required status check "ci" is expected.');
	await must('POST', `${APP}/statuses/${headSha}`, { state: 'success', context: 'ci' });
	await must('POST', `${APP}/statuses/${headSha}`, { state: 'failure', context: 'lint' });
	got = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(got.mergeable_state, 'unstable', '~> a check no one requires is failing');
	const res = await merge(pr.number);
	assert.is(res.status, 200, res.text);

	await must('PUT', `${APP}/branches/main/protection`, {
		required_status_checks: null,
		enforce_admins: true,
		required_pull_request_reviews: { required_approving_review_count: 1 },
		restrictions: null,
	});
	await branch('feature-q');
	await write('feature-q', 'q.txt', 'q\n', mike);
	const reviewed = await open('feature-q', 'Needs a review');
	await s.app.tasks.runDue();
	assert.is((await must('GET', `${APP}/pulls/${reviewed.number}`)).mergeable_state, 'blocked');
	const refused = await merge(reviewed.number);
	assert.is(refused.status, 405);
	assert.is(refused.body.message, 'At least 1 approving review is required by reviewers with write access.');
	await must('DELETE', `${APP}/branches/main/protection`);
	assert.is((await merge(reviewed.number)).status, 200, '~> without the protection');
});

test('strict required checks: a head behind its base reads `behind` and is refused until update-branch brings it up to date', async () => {
	await branch('feature-b');
	const headSha = await write('feature-b', 'behind.txt', 'b\n', mike);
	await write('main', 'ahead.txt', 'main moved on\n');
	await must('PUT', `${APP}/branches/main/protection`, {
		required_status_checks: { strict: true, contexts: ['ci'] },
		enforce_admins: true,
		required_pull_request_reviews: null,
		restrictions: null,
	});
	const pr = await open('feature-b', 'Behind');
	await must('POST', `${APP}/statuses/${headSha}`, { state: 'success', context: 'ci' });
	await s.app.tasks.runDue();
	assert.is((await must('GET', `${APP}/pulls/${pr.number}`)).mergeable_state, 'behind');
	const refused = await merge(pr.number);
	assert.is(refused.status, 405);
	assert.is(refused.body.message, 'Head branch is out of date. Review and try the merge again.');
	assert.is((await s.request('PUT', `${APP}/pulls/${pr.number}/update-branch`, { token: mike, body: {} })).status, 202);
	const updated = await head('feature-b');
	await must('POST', `${APP}/statuses/${updated}`, { state: 'success', context: 'ci' });
	await s.app.tasks.runDue();
	assert.is((await must('GET', `${APP}/pulls/${pr.number}`)).mergeable_state, 'clean');
	assert.is((await merge(pr.number, { sha: updated })).status, 200);
	await must('DELETE', `${APP}/branches/main/protection`);
});

test('closing keywords: the issues a merged pull request names are closed as completed', async () => {
	assert.equal(
		closingReferences('Fixes #1, closes acme/app#2; resolved: #3 and close other/repo#4; prefix#5; fix #1', 'acme', 'app'),
		[1, 2, 3],
	);
	const first = await must('POST', `${APP}/issues`, { title: 'Broken one' });
	const second = await must('POST', `${APP}/issues`, { title: 'Broken two' });
	const third = await must('POST', `${APP}/issues`, { title: 'Left alone' });
	await branch('feature-k');
	const fourth = await must('POST', `${APP}/issues`, { title: 'Closed by a commit message' });
	const main = await head('feature-k');
	const tree = await must('POST', `${APP}/git/trees`, {
		base_tree: (await must('GET', `${APP}/git/commits/${main}`)).tree.sha,
		tree: [{ path: 'k.txt', mode: '100644', content: 'k' }],
	});
	const commit = await must('POST', `${APP}/git/commits`, {
		message: `Add k\n\nCloses #${fourth.number}`,
		tree: tree.sha,
		parents: [main],
	});
	await must('PATCH', `${APP}/git/refs/heads/feature-k`, { sha: commit.sha });
	const pr = await open('feature-k', `Fix #${first.number}`, `This resolves acme/app#${second.number}; see #${third.number}.`);
	assert.is((await merge(pr.number)).status, 200);
	const one = await must('GET', `${APP}/issues/${first.number}`);
	assert.is(one.state, 'closed');
	assert.is(one.state_reason, 'completed');
	assert.is(one.closed_by.login, 'olivia');
	assert.is((await must('GET', `${APP}/issues/${second.number}`)).state, 'closed');
	assert.is((await must('GET', `${APP}/issues/${third.number}`)).state, 'open', '~> a mention without a keyword');
	assert.is((await must('GET', `${APP}/issues/${fourth.number}`)).state, 'closed', '~> a keyword in a commit message');
	const closed = deliveries('issues')
		.filter((d) => d.action === 'closed')
		.map((d) => d.issue.number);
	assert.ok(closed.includes(first.number) && closed.includes(second.number), '~> issues closed recorded');
});

test('PUT …/update-branch: merges the base into the head branch (202), 422 on expected_head_sha mismatch or nothing to merge', async () => {
	await branch('feature-u');
	const headSha = await write('feature-u', 'u.txt', 'u\n', mike);
	const pr = await open('feature-u', 'Update me');
	const nothing = await s.request('PUT', `${APP}/pulls/${pr.number}/update-branch`, { token: mike, body: {} });
	assert.is(nothing.status, 422, '~> the head has every base commit');
	assert.is(nothing.body.message, 'There are no new commits on the base branch.');
	const baseSha = await write('main', 'later.txt', 'later\n');
	const mismatch = await s.request('PUT', `${APP}/pulls/${pr.number}/update-branch`, {
		token: mike,
		body: { expected_head_sha: baseSha },
	});
	assert.is(mismatch.status, 422);
	assert.is(mismatch.body.message, 'expected head sha didn’t match current head ref.');
	const res = await s.request('PUT', `${APP}/pulls/${pr.number}/update-branch`, { token: mike, body: { expected_head_sha: headSha } });
	assert.is(res.status, 202, res.text);
	assert.equal(res.body, { message: 'Updating pull request branch.', url: `${s.api}${APP}/pulls/${pr.number}` });
	const newHead = await head('feature-u');
	const commit = await must('GET', `${APP}/git/commits/${newHead}`);
	assert.equal(
		commit.parents.map((p: any) => p.sha),
		[headSha, baseSha],
	);
	assert.is(commit.message, "Merge branch 'main' into feature-u");
	assert.is(commit.author.name, 'mike');
	const got = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(got.head.sha, newHead, '~> the pull request follows its head');
	assert.ok(
		deliveries('pull_request').some((d) => d.action === 'synchronize' && d.number === pr.number && d.after === newHead),
		'~> synchronize',
	);
	assert.is(await file('feature-u', 'later.txt'), 'later\n');
	await s.app.tasks.runDue();
	const mixed = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(mixed.mergeable, true);
	assert.is(mixed.rebaseable, false, '~> a merge commit in its history does not rebase');
	const rebase = await merge(pr.number, { merge_method: 'rebase' });
	assert.is(rebase.status, 405);
	assert.is(rebase.body.message, "This branch can't be rebased");
	await must('PATCH', `${APP}/pulls/${pr.number}`, { state: 'closed' });
});

test("a pull request from a fork: update-branch by a maintainer (maintainer_can_modify) merges the base into the fork's branch; the merge lands in the base", async () => {
	s.user('nora');
	const nora = s.fullToken('nora');
	const fork = await s.request('POST', `${APP}/forks`, { token: nora, body: {} });
	assert.is(fork.status, 202, fork.text);
	const FORK = `/repos/nora/${fork.body.name}`;
	const forkMain = (await s.request('GET', `${FORK}/git/ref/heads/main`, { token: nora })).body.object.sha;
	await s.request('POST', `${FORK}/git/refs`, { token: nora, body: { ref: 'refs/heads/fork-fix', sha: forkMain } });
	const put = await s.request('PUT', `${FORK}/contents/fork.txt`, {
		token: nora,
		body: { message: 'Fork change', content: Buffer.from('fork\n').toString('base64'), branch: 'fork-fix' },
	});
	assert.is(put.status, 201, put.text);
	const forkHead = put.body.commit.sha;
	const baseSha = await write('main', 'after-fork.txt', 'after the fork\n');
	const pr = (
		await s.request('POST', `${APP}/pulls`, {
			token: nora,
			body: { title: 'From the fork', head: 'nora:fork-fix', base: 'main', maintainer_can_modify: true },
		})
	).body;
	const update = await s.request('PUT', `${APP}/pulls/${pr.number}/update-branch`, {
		token: mike,
		body: { expected_head_sha: forkHead },
	});
	assert.is(update.status, 202, update.text);
	const newHead = (await s.request('GET', `${FORK}/git/ref/heads/fork-fix`, { token: nora })).body.object.sha;
	const merged = (await s.request('GET', `${FORK}/git/commits/${newHead}`, { token: nora })).body;
	assert.equal(
		merged.parents.map((p: any) => p.sha),
		[forkHead, baseSha],
		"~> the base merged into the fork's branch",
	);
	assert.is((await must('GET', `${APP}/pulls/${pr.number}`)).head.sha, newHead, '~> the pull request follows the fork');
	const res = await merge(pr.number, { sha: newHead });
	assert.is(res.status, 200, res.text);
	assert.is(await file('main', 'fork.txt'), 'fork\n');
	assert.equal(
		(await must('GET', `${APP}/git/commits/${res.body.sha}`)).parents.map((p: any) => p.sha),
		[baseSha, newHead],
	);
	assert.is(
		(await must('GET', `${APP}/git/commits/${res.body.sha}`)).message.split('\n')[0],
		`Merge pull request #${pr.number} from nora/fork-fix`,
	);
});

test('Octokit pulls.updateBranch and pulls.merge', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: olivia, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	await branch('feature-o');
	await write('feature-o', 'o.txt', 'o\n', mike);
	const pr = await open('feature-o', 'Via Octokit');
	await write('main', 'octokit-main.txt', 'main\n');
	const updated = await octokit.pulls.updateBranch({ owner: 'acme', repo: 'app', pull_number: pr.number });
	assert.is(updated.status, 202);
	assert.is(updated.data.message, 'Updating pull request branch.');
	const { data, status } = await octokit.pulls.merge({ owner: 'acme', repo: 'app', pull_number: pr.number, merge_method: 'squash' });
	assert.is(status, 200);
	assert.is(data.merged, true);
	assert.is((await octokit.pulls.get({ owner: 'acme', repo: 'app', pull_number: pr.number })).data.merged, true);
	try {
		await octokit.pulls.merge({ owner: 'acme', repo: 'app', pull_number: pr.number });
		assert.unreachable('a merged pull request');
	} catch (error) {
		assert.is((error as { status: number }).status, 405);
	}
});

const hasGit = spawnSync('git', ['--version']).status === 0;
test('every object the merges wrote passes git fsck --strict', async () => {
	if (!hasGit) return;
	const work = mkdtempSync(join(tmpdir(), 'gitstead-pr-merge-'));
	try {
		const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
		const repo = join(work, 'repo');
		execFileSync('git', ['init', '-q', '--bare', repo], { env });
		const git = (args: string[], input?: string) =>
			execFileSync('git', args, { cwd: repo, env, input, stdio: ['pipe', 'pipe', 'pipe'] })
				.toString('utf8')
				.trim();
		const repoId = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!.id;
		const rows = storedObjects(s.app, repoId);
		for (const type of ['blob', 'tree', 'commit']) {
			const mine = rows.filter((row) => row.type === type);
			const paths = mine.map((row, i) => {
				const path = join(work, `${type}-${i}`);
				writeFileSync(path, row.content);
				return path;
			});
			const ids = git(['hash-object', '-w', '-t', type, '--stdin-paths'], paths.join('\n')).split('\n');
			assert.equal(
				ids,
				mine.map((row) => row.sha),
				`~> git hashes every ${type} as Gitstead did`,
			);
		}
		git(['update-ref', 'refs/heads/main', await head('main')]);
		git(['fsck', '--strict', '--no-dangling']);
		assert.ok(git(['rev-list', '--count', 'main']) !== '0');
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
});

test.run();
