/**
 * Pull requests (GitHub's "Pulls" REST API) over real HTTP: creating one from a branch
 * written with the contents API, GitHub's 422 answers, the list and its filters, the full form,
 * updates (title, body, base, state; reopening needs the head branch), commits, files, the diff and
 * patch media types, GET …/merge, the head following pushes (synchronize) and the base following
 * its branch, the pull_request webhook (also for label and assignee changes through the issue
 * routes), PullRequestEvent in the feeds, notifications, search, access (a hidden private
 * repository 404, a token without Pull requests 403), and an Octokit flow.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isoSeconds } from '../src/time';
import { OpenApi } from './helpers/openapi';
import { startServer, type TestServer } from './helpers/server';
import { createBranch, hookDeliveries, mustSucceed, writeFile } from './helpers/setup';

const test = suite('pulls');
const APP = '/repos/acme/app';
let s: TestServer;
let olivia: string; // owner of acme
let mike: string; // push collaborator on acme/app
let nora: string; // nobody to acme
let hookId: number;

const must = (method: string, path: string, body?: unknown, token = olivia) => mustSucceed(s, method, path, body, token);

/** Writes a file on a branch with the contents API; returns the new commit's sha. */
const write = (branch: string, path: string, text: string, token = olivia, repo = APP) => writeFile(s, repo, branch, path, text, token);

const branch = (name: string, from = 'main', repo = APP, token = olivia) => createBranch(s, repo, name, from, token);

const deliveries = (event: string) => hookDeliveries(s, hookId, event);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	olivia = s.fullToken('olivia');
	mike = s.fullToken('mike');
	nora = s.fullToken('nora');
	await must('POST', '/orgs/acme/repos', { name: 'app', auto_init: true });
	await must('POST', '/orgs/acme/repos', { name: 'vault', private: true, auto_init: true });
	const app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('mike')!.id, 'push', isoSeconds(s.clock.now));
	hookId = (
		await must('POST', `${APP}/hooks`, {
			name: 'web',
			config: { url: 'https://hooks.example.com/r', content_type: 'json' },
			events: ['pull_request', 'issues'],
		})
	).id;
	await branch('feature');
	await write('feature', 'src/hello.txt', 'hello\nworld\n', mike);
});
test.after(() => s.close());

test('POST /pulls opens a pull request: 201, the full form, an issue with pull_request, opened recorded', async () => {
	const main = (await must('GET', `${APP}/git/ref/heads/main`)).object.sha;
	const feature = (await must('GET', `${APP}/git/ref/heads/feature`)).object.sha;
	const res = await s.request('POST', `${APP}/pulls`, {
		token: mike,
		body: { title: 'Say hello', body: 'Adds a greeting for @olivia', head: 'feature', base: 'main' },
	});
	assert.is(res.status, 201, `~> created: ${res.text}`);
	const pr = res.body;
	assert.is(res.headers.get('location'), `${s.api}${APP}/pulls/1`, '~> Location');
	assert.is(pr.number, 1, '~> numbered with the issues');
	assert.is(pr.url, `${s.api}${APP}/pulls/1`);
	assert.is(pr.html_url, `${s.origin}/acme/app/pull/1`);
	assert.is(pr.diff_url, `${s.origin}/acme/app/pull/1.diff`);
	assert.is(pr.issue_url, `${s.api}${APP}/issues/1`);
	assert.is(pr.state, 'open');
	assert.is(pr.user.login, 'mike');
	assert.is(pr.body, 'Adds a greeting for @olivia');
	assert.equal(pr.head.label, 'acme:feature', '~> head label owner:branch');
	assert.is(pr.head.ref, 'feature');
	assert.is(pr.head.sha, feature);
	assert.is(pr.head.repo.full_name, 'acme/app');
	assert.is(pr.head.user.login, 'acme');
	assert.is(pr.base.label, 'acme:main');
	assert.is(pr.base.sha, main);
	assert.is(pr._links.self.href, pr.url);
	assert.is(pr._links.statuses.href, `${s.api}${APP}/statuses/${feature}`);
	assert.is(pr.merged, false);
	assert.is(pr.merged_at, null);
	assert.is(pr.merged_by, null);
	assert.is(pr.draft, false);
	assert.is(pr.mergeable, true, '~> a fast-forward is mergeable');
	assert.is(pr.mergeable_state, 'clean');
	assert.is(pr.commits, 1);
	assert.is(pr.additions, 2);
	assert.is(pr.deletions, 0);
	assert.is(pr.changed_files, 1);
	assert.is(pr.comments, 0);
	assert.is(pr.review_comments, 0);
	assert.is(pr.maintainer_can_modify, false);
	assert.is(pr.author_association, 'COLLABORATOR');
	const issue = await must('GET', `${APP}/issues/1`);
	assert.equal(
		issue.pull_request,
		{
			url: `${s.api}${APP}/pulls/1`,
			html_url: `${s.origin}/acme/app/pull/1`,
			diff_url: `${s.origin}/acme/app/pull/1.diff`,
			patch_url: `${s.origin}/acme/app/pull/1.patch`,
			merged_at: null,
		},
		'~> the issue form names the pull request',
	);
	const opened = deliveries('pull_request').find((d) => d.action === 'opened');
	assert.ok(opened, '~> pull_request opened delivered');
	assert.is(opened.number, 1);
	assert.is(opened.pull_request.head.sha, feature);
	assert.is(opened.pull_request.commits, 1, '~> the full form in the payload');
	assert.is(opened.repository.full_name, 'acme/app');
	assert.is(opened.organization.login, 'acme');
	assert.is(opened.sender.login, 'mike');
	assert.equal(deliveries('issues'), [], '~> no issues event for a pull request');
});

test("POST /pulls: GitHub's 422 answers", async () => {
	const post = (body: Record<string, unknown>) => s.request('POST', `${APP}/pulls`, { token: olivia, body });
	const again = await post({ title: 'Again', head: 'feature', base: 'main' });
	assert.is(again.status, 422);
	assert.is(again.body.message, 'Validation Failed');
	assert.is(again.body.errors[0].code, 'custom');
	assert.is(again.body.errors[0].message, 'A pull request already exists for acme:feature.');
	await branch('same');
	const none = await post({ title: 'Nothing', head: 'same', base: 'main' });
	assert.is(none.status, 422);
	assert.is(none.body.errors[0].message, 'No commits between main and same');
	const head = await post({ title: 'x', head: 'nope', base: 'main' });
	assert.is(head.status, 422);
	assert.equal(head.body.errors, [{ resource: 'PullRequest', field: 'head', code: 'invalid' }], '~> unknown head');
	const base = await post({ title: 'x', head: 'feature', base: 'nope' });
	assert.equal(base.body.errors, [{ resource: 'PullRequest', field: 'base', code: 'invalid' }], '~> unknown base');
	const owner = await post({ title: 'x', head: 'nobody-here:feature', base: 'main' });
	assert.is(owner.status, 422, '~> unknown head owner');
	const title = await post({ head: 'feature', base: 'main' });
	assert.is(title.status, 422, '~> title required without issue');
	assert.is((await post({ title: 'x', head: 7, base: 'main' })).status, 422, '~> head must be a string');
});

test('POST /pulls with `issue` converts an issue; `draft` opens a draft; acme:branch heads', async () => {
	const issue = await must('POST', `${APP}/issues`, { title: 'Needs docs' }, mike);
	await branch('docs');
	await write('docs', 'docs/README.md', '# Docs\n', mike);
	const res = await s.request('POST', `${APP}/pulls`, {
		token: mike,
		body: { issue: issue.number, head: 'acme:docs', base: 'main', draft: true },
	});
	assert.is(res.status, 201, res.text);
	assert.is(res.body.number, issue.number, '~> the issue keeps its number');
	assert.is(res.body.title, 'Needs docs', '~> and its title');
	assert.is(res.body.draft, true);
	assert.is(res.body.mergeable_state, 'draft');
	assert.ok((await must('GET', `${APP}/issues/${issue.number}`)).pull_request, '~> the issue is a pull request now');
	const twice = await s.request('POST', `${APP}/pulls`, { token: mike, body: { issue: issue.number, head: 'feature', base: 'docs' } });
	assert.is(twice.status, 422, '~> a pull request cannot be converted again');
});

test('GET /pulls: simple form, state/head/base/sort/direction filters, Link', async () => {
	const list = await s.request('GET', `${APP}/pulls`, { token: nora });
	assert.is(list.status, 200);
	assert.equal(
		list.body.map((p: any) => p.number),
		[2, 1],
		'~> open, newest first',
	);
	assert.not.ok('mergeable' in list.body[0], '~> the simple form has no mergeable');
	assert.not.ok('commits' in list.body[0]);
	assert.ok('head' in list.body[0] && '_links' in list.body[0]);
	assert.equal(
		(await must('GET', `${APP}/pulls?direction=asc`)).map((p: any) => p.number),
		[1, 2],
	);
	assert.equal(
		(await must('GET', `${APP}/pulls?head=acme:docs`)).map((p: any) => p.number),
		[2],
		'~> head owner:branch',
	);
	assert.equal(
		(await must('GET', `${APP}/pulls?head=acme`)).map((p: any) => p.number),
		[2, 1],
		'~> head owner only',
	);
	assert.equal(await must('GET', `${APP}/pulls?head=acme:nope`), [], '~> unknown head branch');
	assert.equal(await must('GET', `${APP}/pulls?head=nobody:feature`), [], '~> unknown head owner');
	assert.equal(await must('GET', `${APP}/pulls?base=docs`), []);
	assert.equal((await must('GET', `${APP}/pulls?base=main&sort=updated`)).length, 2);
	assert.equal(await must('GET', `${APP}/pulls?state=closed`), []);
	assert.equal(await must('GET', `${APP}/pulls?sort=long-running`), [], '~> none has run a month');
	const paged = await s.request('GET', `${APP}/pulls?per_page=1`, { token: olivia });
	assert.ok((paged.headers.get('link') ?? '').includes('rel="next"'), '~> Link');
	assert.is((await s.request('GET', `${APP}/pulls?sort=size`, { token: olivia })).status, 422);
	assert.is(
		(await s.request('GET', `${APP}/issues?state=all`, { token: olivia })).body.length,
		2,
		'~> pull requests stay in the issues list',
	);
});

test("GET /pulls/{n}: full form, 404 for an issue's number and unknown numbers; diff and patch media", async () => {
	const pr = await must('GET', `${APP}/pulls/1`);
	assert.is(pr.commits, 1);
	const plain = await must('POST', `${APP}/issues`, { title: 'Plain issue' });
	assert.is(
		(await s.request('GET', `${APP}/pulls/${plain.number}`, { token: olivia })).status,
		404,
		'~> a plain issue is no pull request',
	);
	assert.is((await s.request('GET', `${APP}/pulls/999`, { token: olivia })).status, 404);
	assert.is((await s.request('GET', `${APP}/pulls/abc`, { token: olivia })).status, 404);
	const diff = await s.request('GET', `${APP}/pulls/1`, { token: olivia, headers: { Accept: 'application/vnd.github.diff' } });
	assert.is(diff.status, 200);
	assert.match(diff.headers.get('content-type') ?? '', /application\/vnd\.github\.diff/);
	assert.match(diff.text, /^diff --git a\/src\/hello\.txt b\/src\/hello\.txt\nnew file mode 100644\n/);
	assert.match(diff.text, /\n\+hello\n\+world\n/);
	const patch = await s.request('GET', `${APP}/pulls/1`, { token: olivia, headers: { Accept: 'application/vnd.github.patch' } });
	assert.is(patch.status, 200);
	assert.match(patch.text, /^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001\n/);
	assert.match(patch.text, /Subject: \[PATCH\] Write src\/hello\.txt/);
});

test('GET …/commits and …/files: the comparison from the merge base', async () => {
	const commits = await must('GET', `${APP}/pulls/1/commits`);
	assert.is(commits.length, 1);
	assert.is(commits[0].commit.message, 'Write src/hello.txt');
	assert.is(commits[0].url, `${s.api}${APP}/commits/${commits[0].sha}`);
	const files = await must('GET', `${APP}/pulls/1/files`);
	assert.equal(
		files.map((f: any) => [f.filename, f.status, f.additions, f.deletions, f.changes]),
		[['src/hello.txt', 'added', 2, 0, 2]],
	);
	assert.is(files[0].patch, '@@ -0,0 +1,2 @@\n+hello\n+world');
	assert.is((await s.request('GET', `${APP}/pulls/999/files`, { token: olivia })).status, 404);
	assert.is((await s.request('GET', `${APP}/pulls/1/merge`, { token: olivia })).status, 404, '~> not merged: 404');
});

test('pushing to the head (contents PUT) moves head_sha and records synchronize; the base follows its branch', async () => {
	const before = (await must('GET', `${APP}/pulls/1`)).head.sha;
	const after = await write('feature', 'src/second.txt', 'two\n', mike);
	const pr = await must('GET', `${APP}/pulls/1`);
	assert.is(pr.head.sha, after, '~> head_sha follows the push');
	assert.is(pr.commits, 2);
	assert.is(pr.changed_files, 2);
	const sync = deliveries('pull_request').filter((d) => d.action === 'synchronize');
	assert.is(sync.length, 1, '~> one synchronize');
	assert.is(sync[0].before, before);
	assert.is(sync[0].after, after);
	assert.is(sync[0].pull_request.head.sha, after);
	assert.is(sync[0].sender.login, 'mike');
	// The base moves: base_sha follows without an event; both sides moved, so only a merge can tell.
	const count = deliveries('pull_request').length;
	const main = await write('main', 'CHANGELOG', 'v1\n');
	const moved = await must('GET', `${APP}/pulls/1`);
	assert.is(moved.base.sha, main, '~> base_sha follows');
	assert.is(moved.mergeable, null, '~> diverged: mergeable unknown until a merge is tried');
	assert.is(moved.mergeable_state, 'unknown');
	assert.is(moved.commits, 2, "~> still the head's own commits");
	assert.is(deliveries('pull_request').length, count, '~> no event for a base move');
});

test('PATCH /pulls/{n}: title, body, base (edited with changes), close, reopen; 422 reopening without the head branch', async () => {
	const count = deliveries('pull_request').length;
	const res = await s.request('PATCH', `${APP}/pulls/1`, { token: mike, body: { title: 'Say hello twice', body: 'Now two files' } });
	assert.is(res.status, 200, res.text);
	assert.is(res.body.title, 'Say hello twice');
	assert.is(res.body.body, 'Now two files');
	const edited = deliveries('pull_request').slice(count);
	assert.equal(
		edited.map((d) => d.action),
		['edited'],
	);
	assert.equal(edited[0].changes, { title: { from: 'Say hello' }, body: { from: 'Adds a greeting for @olivia' } });
	await branch('release');
	const oldBase = (await must('GET', `${APP}/pulls/1`)).base.sha;
	const rebased = await must('PATCH', `${APP}/pulls/1`, { base: 'release' });
	assert.is(rebased.base.ref, 'release');
	const baseEdit = deliveries('pull_request').at(-1);
	assert.equal(baseEdit.changes, { base: { ref: { from: 'main' }, sha: { from: oldBase } } }, '~> edited with changes.base');
	assert.is((await s.request('PATCH', `${APP}/pulls/1`, { token: olivia, body: { base: 'nope' } })).status, 422, '~> unknown base');
	assert.is(
		(await s.request('PATCH', `${APP}/pulls/1`, { token: olivia, body: { base: 'feature' } })).status,
		422,
		'~> its own head as base',
	);
	assert.is(
		(await s.request('PATCH', `${APP}/pulls/1`, { token: nora, body: { title: 'Mine' } })).status,
		403,
		'~> not the author, no triage',
	);
	const closed = await must('PATCH', `${APP}/pulls/1`, { state: 'closed' });
	assert.is(closed.state, 'closed');
	assert.ok(closed.closed_at);
	assert.is(deliveries('pull_request').at(-1).action, 'closed');
	const reopened = await must('PATCH', `${APP}/pulls/1`, { state: 'open' });
	assert.is(reopened.state, 'open');
	assert.is(deliveries('pull_request').at(-1).action, 'reopened');
	// Deleting the head branch leaves the pull request open; once closed, it cannot reopen.
	await must('DELETE', `${APP}/git/refs/heads/docs`);
	const draft = await must('GET', `${APP}/pulls/2`);
	assert.is(draft.state, 'open', '~> a deleted head branch leaves it open');
	await must('PATCH', `${APP}/pulls/2`, { state: 'closed' });
	const refused = await s.request('PATCH', `${APP}/pulls/2`, { token: olivia, body: { state: 'open' } });
	assert.is(refused.status, 422, '~> reopening without the head branch');
	assert.is(refused.body.errors[0].code, 'custom');
	assert.is(refused.body.errors[0].field, 'state');
	assert.is(refused.body.errors[0].message, 'state cannot be changed. The docs branch has been deleted.');
	const viaIssue = await s.request('PATCH', `${APP}/issues/2`, { token: olivia, body: { state: 'open' } });
	assert.is(viaIssue.status, 422, '~> nor through the issue route');
	assert.is((await must('GET', `${APP}/pulls/2`)).state, 'closed');
});

test('issue routes on a pull request report pull_request (labeled, assigned, milestoned), never issues', async () => {
	const count = deliveries('pull_request').length;
	await must('POST', `${APP}/issues/1/labels`, { labels: ['bug'] });
	await must('POST', `${APP}/issues/1/assignees`, { assignees: ['mike'] });
	const milestone = await must('POST', `${APP}/milestones`, { title: 'v1' });
	await must('PATCH', `${APP}/issues/1`, { milestone: milestone.number });
	const events = deliveries('pull_request').slice(count);
	assert.equal(
		events.map((d) => d.action),
		['labeled', 'assigned', 'milestoned'],
	);
	assert.is(events[0].label.name, 'bug');
	assert.is(events[0].pull_request.labels[0].name, 'bug', '~> the pull request with its label');
	assert.is(events[1].assignee.login, 'mike');
	const issueEvents = deliveries('issues');
	assert.ok(
		issueEvents.every((d) => d.issue.number !== 1),
		'~> no issues event for the pull request',
	);
	const pr = await must('GET', `${APP}/pulls/1`);
	assert.equal(
		pr.labels.map((l: any) => l.name),
		['bug'],
		'~> the pull request shows its labels',
	);
	assert.is(pr.assignee.login, 'mike');
	assert.is(pr.milestone.title, 'v1');
});

test('feeds show PullRequestEvent (opened, closed, reopened); watchers are notified with subject PullRequest', async () => {
	const events = await must('GET', `${APP}/events?per_page=100`);
	const prEvents = events.filter((e: any) => e.type === 'PullRequestEvent');
	assert.ok(prEvents.length >= 4, '~> PullRequestEvent entries');
	assert.equal([...new Set(prEvents.map((e: any) => e.payload.action))].sort(), ['closed', 'opened', 'reopened']);
	const opened = prEvents.find((e: any) => e.payload.action === 'opened' && e.payload.number === 1);
	assert.is(opened.payload.pull_request.number, 1);
	assert.is(opened.actor.login, 'mike');
	const atom = await (await fetch(`${s.origin}/mike.atom`)).text();
	assert.match(atom, /mike opened pull request acme\/app#1/, '~> the Atom feed names it');
	const threads = await must('GET', '/notifications?all=true');
	const thread = threads.find((t: any) => t.subject.type === 'PullRequest' && t.subject.url === `${s.api}${APP}/pulls/1`);
	assert.ok(thread, "~> olivia (watcher, mentioned) has the pull request's thread");
	assert.is(thread.reason, 'mention');
	// A comment on the pull request (an issue comment) reaches its author (also its assignee since
	// the labels test: the stronger reason, assign, names the thread).
	await must('POST', `${APP}/issues/1/comments`, { body: 'Looks good' });
	const mine = (await must('GET', '/notifications', undefined, mike)).find((t: any) => t.subject.url === `${s.api}${APP}/pulls/1`);
	assert.ok(mine, '~> the author is notified');
	assert.is(mine.subject.type, 'PullRequest');
	assert.is(mine.reason, 'assign');
	assert.match(mine.subject.latest_comment_url, /\/issues\/comments\/\d+$/);
});

test('search: is:pr and type:pr find pull requests', async () => {
	const prs = await must('GET', '/search/issues?q=repo:acme/app+is:pr');
	assert.equal(prs.items.map((i: any) => i.number).sort(), [1, 2]);
	assert.ok(
		prs.items.every((i: any) => i.pull_request),
		'~> with their pull_request part',
	);
	const issues = await must('GET', '/search/issues?q=repo:acme/app+type:issue');
	assert.ok(issues.items.every((i: any) => !i.pull_request));
	assert.equal(
		(await must('GET', '/search/issues?q=repo:acme/app+type:pr+state:closed')).items.map((i: any) => i.number),
		[2],
	);
});

test('access: a hidden private repository 404, anonymous reads public, writes need a token and Pull requests', async () => {
	await branch('topic', 'main', '/repos/acme/vault');
	await write('topic', 'secret.txt', 'x\n', olivia, '/repos/acme/vault');
	const pr = await must('POST', '/repos/acme/vault/pulls', { title: 'Secret', head: 'topic', base: 'main' });
	assert.is((await s.request('GET', `/repos/acme/vault/pulls/${pr.number}`, { token: nora })).status, 404, '~> hidden');
	assert.is((await s.request('GET', '/repos/acme/vault/pulls', { token: nora })).status, 404);
	assert.is((await s.request('GET', `${APP}/pulls/1`)).status, 200, '~> anonymous reads a public repository');
	assert.is((await s.request('POST', `${APP}/pulls`, { body: { title: 'x', head: 'feature', base: 'main' } })).status, 401);
	const issuesOnly = s.token('olivia', { kind: 'fine-grained', permissions: { issues: 'write', metadata: 'read' }, org: 'acme' });
	const refused = await s.request('POST', `${APP}/pulls`, { token: issuesOnly, body: { title: 'x', head: 'feature', base: 'release' } });
	assert.is(refused.status, 403, '~> a token without Pull requests');
	const reader = s.token('olivia', { kind: 'fine-grained', permissions: { pull_requests: 'read', metadata: 'read' }, org: 'acme' });
	assert.is((await s.request('GET', '/repos/acme/vault/pulls', { token: reader })).status, 200, '~> Pull requests (read) reads');
	assert.is((await s.request('PATCH', `/repos/acme/vault/pulls/${pr.number}`, { token: reader, body: { title: 'y' } })).status, 403);
});

test('renaming branches: pull requests into the branch are retargeted (edited), those from it closed', async () => {
	await branch('target');
	await branch('work');
	await write('work', 'work.txt', 'work\n', mike);
	const pr = await must('POST', `${APP}/pulls`, { title: 'Work', head: 'work', base: 'target' }, mike);
	const count = deliveries('pull_request').length;
	await must('POST', `${APP}/branches/target/rename`, { new_name: 'target-2' });
	const retargeted = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(retargeted.base.ref, 'target-2', '~> retargeted');
	assert.is(retargeted.state, 'open');
	const edited = deliveries('pull_request').slice(count);
	assert.equal(
		edited.map((d) => d.action),
		['edited'],
	);
	assert.equal(edited[0].changes.base.ref, { from: 'target' });
	await must('POST', `${APP}/branches/work/rename`, { new_name: 'work-2' });
	const closed = await must('GET', `${APP}/pulls/${pr.number}`);
	assert.is(closed.state, 'closed', '~> a pull request from a renamed branch is closed');
	assert.is(deliveries('pull_request').at(-1).action, 'closed');
});

test("a fork's branch: owner:branch heads, the head fetched into the base repository, synchronize from pushes to the fork", async () => {
	const fork = await s.request('POST', `${APP}/forks`, { token: nora, body: {} });
	assert.is(fork.status, 202, fork.text);
	const FORK = `/repos/nora/${fork.body.name}`;
	// The base moves after the fork was made: the fork lacks it, the base lacks the fork's commits.
	await write('main', 'NEWS', 'after the fork\n');
	await branch('fix', 'main', FORK, nora);
	const first = await write('fix', 'fix.txt', 'fixed\n', nora, FORK);
	const res = await s.request('POST', `${APP}/pulls`, {
		token: nora,
		body: { title: 'Fix from a fork', head: 'nora:fix', base: 'main', maintainer_can_modify: true },
	});
	assert.is(res.status, 201, res.text);
	assert.is(res.body.head.label, 'nora:fix');
	assert.is(res.body.head.repo.full_name, `nora/${fork.body.name}`);
	assert.is(res.body.head.user.login, 'nora');
	assert.is(res.body.head.sha, first);
	assert.is(res.body.maintainer_can_modify, true, "~> maintainers may push to the fork's branch");
	assert.is(res.body.commits, 1, "~> only the fork's own commit");
	assert.is(res.body.changed_files, 1);
	assert.is(res.body.author_association, 'NONE');
	assert.equal(
		(await must('GET', `${APP}/pulls?head=nora:fix`)).map((p: any) => p.number),
		[res.body.number],
	);
	const second = await write('fix', 'fix.txt', 'fixed twice\n', nora, FORK);
	const pr = await must('GET', `${APP}/pulls/${res.body.number}`);
	assert.is(pr.head.sha, second, '~> a push to the fork moves the head');
	assert.is(pr.commits, 2);
	const sync = deliveries('pull_request')
		.filter((d) => d.action === 'synchronize')
		.at(-1);
	assert.equal([sync.number, sync.before, sync.after], [res.body.number, first, second], '~> synchronize from the fork');
	const files = await must('GET', `${APP}/pulls/${res.body.number}/files`);
	assert.equal(
		files.map((f: any) => [f.filename, f.status]),
		[['fix.txt', 'added']],
	);
	assert.match(
		(await s.request('GET', `${APP}/pulls/${res.body.number}`, { token: olivia, headers: { Accept: 'application/vnd.github.diff' } }))
			.text,
		/\+fixed twice\n/,
	);
	const stranger = await s.request('POST', `${APP}/pulls`, { token: olivia, body: { title: 'x', head: 'nora:nope', base: 'main' } });
	assert.is(stranger.status, 422, '~> an unknown fork branch');
});

test("every pull_request payload validates against GitHub's webhook schema for its action", async () => {
	const openapi = new OpenApi(['ghes-3.19']);
	assert.ok(openapi.validateComponent('webhook-pull-request-opened', { action: 'opened' })!.length > 0, '~> the check bites');
	const payloads = deliveries('pull_request');
	const actions = new Set(payloads.map((d) => d.action));
	for (const action of ['opened', 'edited', 'closed', 'reopened', 'synchronize', 'labeled', 'assigned', 'milestoned'])
		assert.ok(actions.has(action), `~> ${action} delivered`);
	const problems: string[] = [];
	for (const payload of payloads) {
		const violations = openapi.validateComponent(`webhook-pull-request-${payload.action.replace(/_/g, '-')}`, payload);
		assert.ok(violations, `~> GitHub documents ${payload.action}`);
		for (const v of violations!) problems.push(`${payload.action} ${v.pointer} ${v.keyword}: ${v.message}`);
	}
	assert.equal([...new Set(problems)], [], '~> no violations');
});

test('Octokit: pulls.create, list, get, listFiles, update', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: mike, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	await branch('octo');
	await write('octo', 'octo.txt', 'octo\n', mike);
	const { data: created, status } = await octokit.pulls.create({
		owner: 'acme',
		repo: 'app',
		title: 'From Octokit',
		head: 'octo',
		base: 'main',
	});
	assert.is(status, 201);
	const { data: list } = await octokit.pulls.list({ owner: 'acme', repo: 'app', state: 'open', head: 'acme:octo' });
	assert.equal(
		list.map((p) => p.number),
		[created.number],
	);
	const { data: got } = await octokit.pulls.get({ owner: 'acme', repo: 'app', pull_number: created.number });
	assert.is(got.head.ref, 'octo');
	assert.is(got.changed_files, 1);
	const { data: files } = await octokit.pulls.listFiles({ owner: 'acme', repo: 'app', pull_number: created.number });
	assert.equal(
		files.map((f) => f.filename),
		['octo.txt'],
	);
	const { data: updated } = await octokit.pulls.update({
		owner: 'acme',
		repo: 'app',
		pull_number: created.number,
		title: 'From Octokit, edited',
		state: 'closed',
	});
	assert.is(updated.title, 'From Octokit, edited');
	assert.is(updated.state, 'closed');
	const merged = await octokit.pulls.checkIfMerged({ owner: 'acme', repo: 'app', pull_number: created.number }).catch((error) => error);
	assert.is(merged.status, 404, '~> not merged');
});

test.run();
