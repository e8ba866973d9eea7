/**
 * The pull-request and merge services without an HTTP server: an app over a temporary data folder,
 * commits made through the contents service, plain Caller objects. Covers opening a pull request,
 * the merge preconditions (draft, head moved, method allowed, already merged) and what a merge does:
 * the base branch moves through the one ref-write path, the pull request is merged and its issue
 * closed, the events recorded, and the head branch deleted with delete_branch_on_merge.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { App } from '../src/app';
import { NOW, refusal, serviceApp } from './helpers/services';
import type { Caller } from '../src/auth/caller';
import type { AccountRow, RepositoryRow } from '../src/model/rows';
import { createUser } from '../src/api/users/service';
import { createRepository } from '../src/api/repos/service';
import { commitFile } from '../src/api/contents/service';
import { createRef } from '../src/api/git/writes';
import { issueScope } from '../src/api/issues/service';
import { createPullRequest, updatePullRequest } from '../src/api/pulls/workflows';
import { mergePullRequest } from '../src/api/pulls/merge-service';
import { isoSeconds } from '../src/time';

const test = suite('services: merge');
let app: App;
let close: () => void;
let owner: AccountRow;
let repo: RepositoryRow;

const caller = (): Caller => ({ app, now: NOW, media: null, principal: { actorId: owner.id } as Caller['principal'] });
const scope = () => issueScope(app, { repo: app.stores.repos.byId(repo.id)!, owner, permission: 'admin' });
const ident = { name: 'Octo', email: 'octo@example.com', seconds: NOW / 1000, tz: '+0000' };

/** A branch off the default branch with one new file. */
function branchWithFile(branch: string, path: string): string {
	const base = app.stores.git.ref(repo.id, `refs/heads/${repo.default_branch}`)!.sha;
	createRef(app, repo, `refs/heads/${branch}`, base, { actorId: owner.id });
	const change = { path, message: `Add ${path}`, content: Buffer.from(`${path}\n`), branch, author: ident, committer: ident };
	commitFile(app, repo, change, isoSeconds(NOW), owner.id);
	return app.stores.git.ref(repo.id, `refs/heads/${branch}`)!.sha;
}

function events(): string[] {
	return (
		app.db.prepare('SELECT event, action FROM events WHERE repo_id = ? ORDER BY id').all(repo.id) as Array<{
			event: string;
			action: string | null;
		}>
	).map((row) => (row.action ? `${row.event}.${row.action}` : row.event));
}

test.before(() => {
	({ app, close } = serviceApp('services'));
	owner = createUser(app, { login: 'octo' });
	repo = createRepository(
		app,
		owner,
		{ name: 'demo', auto_init: true },
		{ collaboratorId: null, now: isoSeconds(NOW), actorId: owner.id },
	);
});

test.after(() => close());

test('createPullRequest refuses unknown branches and branches without new commits', () => {
	assert.is(refusal(() => createPullRequest(caller(), scope(), { title: 'x', head: 'nope', base: repo.default_branch })).status, 422);
	createRef(app, repo, 'refs/heads/same', app.stores.git.ref(repo.id, `refs/heads/${repo.default_branch}`)!.sha, { actorId: owner.id });
	const error = refusal(() => createPullRequest(caller(), scope(), { title: 'x', head: 'same', base: repo.default_branch }));
	assert.is(error.status, 422);
	assert.match(JSON.stringify(error), /No commits between/);
});

test('mergePullRequest: draft, moved head and disallowed methods are refused; nothing changes', () => {
	const head = branchWithFile('draft-work', 'draft.txt');
	const pull = createPullRequest(caller(), scope(), { title: 'Draft', head: 'draft-work', base: repo.default_branch, draft: true });
	assert.is(refusal(() => mergePullRequest(caller(), scope(), pull, { method: 'merge' })).status, 405);
	app.db.prepare('UPDATE pull_requests SET draft = 0 WHERE issue_id = ?').run(pull.id);
	const ready = app.stores.pulls.byIssue(pull.id)!;
	assert.is(refusal(() => mergePullRequest(caller(), scope(), ready, { method: 'merge', sha: '0'.repeat(40) })).status, 409);
	app.db.prepare('UPDATE repositories SET allow_rebase_merge = 0 WHERE id = ?').run(repo.id);
	assert.is(refusal(() => mergePullRequest(caller(), scope(), ready, { method: 'rebase' })).status, 405);
	app.db.prepare('UPDATE repositories SET allow_rebase_merge = 1 WHERE id = ?').run(repo.id);
	assert.is(app.stores.git.ref(repo.id, 'refs/heads/draft-work')!.sha, head);
	assert.is(app.stores.pulls.byIssue(pull.id)!.pr.merged_at, null);
});

test('mergePullRequest merges, closes the issue, records events and deletes the head branch', () => {
	app.db.prepare('UPDATE repositories SET delete_branch_on_merge = 1 WHERE id = ?').run(repo.id);
	const head = branchWithFile('feature', 'feature.txt');
	const pull = createPullRequest(caller(), scope(), { title: 'Feature', head: 'feature', base: repo.default_branch });
	const before = events().length;
	const sha = mergePullRequest(caller(), scope(), pull, { method: 'merge', sha: head });
	assert.is(app.stores.git.ref(repo.id, `refs/heads/${repo.default_branch}`)!.sha, sha);
	const merged = app.stores.pulls.byIssue(pull.id)!;
	assert.is(merged.state, 'closed');
	assert.is(merged.pr.merge_commit_sha, sha);
	assert.is(merged.pr.merged_by_id, owner.id);
	assert.is(app.stores.git.ref(repo.id, 'refs/heads/feature'), undefined);
	const recorded = events().slice(before);
	assert.ok(recorded.includes('push'), recorded.join(', '));
	assert.ok(recorded.includes('pull_request.closed'), recorded.join(', '));
	assert.ok(recorded.includes('delete'), recorded.join(', '));
	// Merging again is GitHub's 405, and a merged pull request does not reopen.
	assert.is(refusal(() => mergePullRequest(caller(), scope(), merged, { method: 'merge' })).status, 405);
	assert.is(refusal(() => updatePullRequest(caller(), scope(), merged, { state: 'open' })).status, 422);
});

test('mergePullRequest squash: one commit on the base, titled after its only commit and the pull request number', () => {
	branchWithFile('squashed', 'squash.txt');
	const pull = createPullRequest(caller(), scope(), { title: 'Squash me', head: 'squashed', base: repo.default_branch });
	const sha = mergePullRequest(caller(), scope(), pull, { method: 'squash' });
	const object = app.stores.git.object(repo.id, sha)!;
	const text = object.content.toString('utf8');
	assert.is((text.match(/^parent /gm) ?? []).length, 1);
	assert.match(text, `Add squash.txt (#${pull.number})`);
});

test.run();
