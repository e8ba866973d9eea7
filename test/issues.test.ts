/**
 * Issues and labels (GitHub's issues API).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('issues');
let s: TestServer;
let olivia: string; // owner of acme
let mia: string; // member of acme
let carl: string; // outside collaborator with push on acme/web (triages its issues)
let eve: string; // nobody to acme
let uma: string; // owns uma/notes

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mia', 'carl', 'eve', 'uma']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mia');
	olivia = s.fullToken('olivia');
	mia = s.fullToken('mia');
	carl = s.fullToken('carl');
	eve = s.fullToken('eve');
	uma = s.fullToken('uma');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'quiet', has_issues: false } });
	await s.request('POST', '/user/repos', { token: uma, body: { name: 'notes' } });
	const web = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'web')!;
	s.app.stores.repos.setCollaborator(web.id, s.app.stores.accounts.user('carl')!.id, 'push', '2026-01-01T00:00:00Z');
});
test.after(() => s.close());

test('create: 201 with Location, numbers per repository, GitHub shape', async () => {
	const res = await s.request('POST', '/repos/acme/web/issues', {
		token: olivia,
		body: { title: 'Login fails', body: 'Steps:\n- [ ] open\n- [x] click', labels: ['bug', 'ui'], assignees: ['mia'] },
	});
	assert.is(res.status, 201);
	const issue = res.body;
	assert.is(res.headers.get('location'), `${s.api}/repos/acme/web/issues/1`);
	assert.is(issue.number, 1);
	assert.is(issue.url, `${s.api}/repos/acme/web/issues/1`);
	assert.is(issue.html_url, `${s.origin}/acme/web/issues/1`);
	assert.is(issue.repository_url, `${s.api}/repos/acme/web`);
	assert.is(issue.comments_url, `${s.api}/repos/acme/web/issues/1/comments`);
	assert.is(issue.labels_url, `${s.api}/repos/acme/web/issues/1/labels{/name}`);
	assert.is(issue.state, 'open');
	assert.is(issue.state_reason, null);
	assert.is(issue.title, 'Login fails');
	assert.is(issue.body, 'Steps:\n- [ ] open\n- [x] click');
	assert.is(issue.user.login, 'olivia');
	assert.is(issue.author_association, 'MEMBER', '~> organization owners are members: OWNER is for user repositories');
	assert.equal(
		issue.labels.map((l: any) => [l.name, l.color, l.default]),
		[
			['bug', 'd73a4a', true],
			['ui', 'ededed', false],
		],
	);
	assert.is(issue.labels[1].url, `${s.api}/repos/acme/web/labels/ui`);
	assert.is(issue.assignee.login, 'mia');
	assert.equal(
		issue.assignees.map((a: any) => a.login),
		['mia'],
	);
	assert.is(issue.milestone, null);
	assert.is(issue.locked, false);
	assert.is(issue.comments, 0);
	assert.is(issue.closed_at, null);
	assert.is(issue.closed_by, null);
	assert.is(issue.pull_request, undefined);
	assert.equal(issue.reactions, {
		url: `${issue.url}/reactions`,
		total_count: 0,
		'+1': 0,
		'-1': 0,
		laugh: 0,
		hooray: 0,
		confused: 0,
		heart: 0,
		rocket: 0,
		eyes: 0,
	});
	assert.is(issue.node_id, Buffer.from(`05:Issue${issue.id}`).toString('base64'));

	const second = await s.request('POST', '/repos/acme/web/issues', { token: mia, body: { title: 42 } });
	assert.is(second.status, 201);
	assert.is(second.body.number, 2);
	assert.is(second.body.title, '42', '~> GitHub accepts a number as title');
	assert.is(second.body.body, null);
	const elsewhere = await s.request('POST', '/repos/uma/notes/issues', { token: uma, body: { title: 'first' } });
	assert.is(elsewhere.body.number, 1, '~> numbers count per repository');
	assert.is(elsewhere.body.author_association, 'OWNER');
	const repo = await s.get('/repos/acme/web', olivia);
	assert.is(repo.body.open_issues_count, 2);
});

test('create: callers without push access cannot set labels or assignees (dropped, as on GitHub)', async () => {
	const res = await s.request('POST', '/repos/acme/web/issues', {
		token: eve,
		body: { title: 'Drive-by', labels: ['bug'], assignees: ['mia'] },
	});
	assert.is(res.status, 201);
	assert.equal(res.body.labels, []);
	assert.equal(res.body.assignees, []);
	assert.is(res.body.author_association, 'NONE');
	const collaborator = await s.request('POST', '/repos/acme/web/issues', {
		token: carl,
		body: { title: 'From carl', labels: ['question'] },
	});
	assert.is(collaborator.body.author_association, 'COLLABORATOR');
	assert.equal(
		collaborator.body.labels.map((l: any) => l.name),
		['question'],
	);
});

test('create: validation and denial', async () => {
	const blank = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: '  ' } });
	assert.is(blank.status, 422);
	assert.equal(blank.body.errors[0].field, 'title');
	const missing = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { body: 'no title' } });
	assert.is(missing.status, 422);
	const badAssignee = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 't', assignees: ['eve'] } });
	assert.is(badAssignee.status, 422);
	assert.equal(badAssignee.body.errors, [{ resource: 'Issue', field: 'assignees', code: 'invalid', value: 'eve' }]);
	const milestone = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 't', milestone: 3 } });
	assert.is(milestone.status, 422);
	assert.is(milestone.body.errors[0].field, 'milestone');
	assert.is((await s.request('POST', '/repos/acme/web/issues', { body: { title: 't' } })).status, 401);
	assert.is(
		(await s.request('POST', '/repos/acme/vault/issues', { token: eve, body: { title: 't' } })).status,
		404,
		'~> private: 404, not 403',
	);
	const disabled = await s.request('POST', '/repos/acme/quiet/issues', { token: olivia, body: { title: 't' } });
	assert.is(disabled.status, 410);
	assert.is(disabled.body.message, 'Issues are disabled for this repo');
	assert.is((await s.get('/repos/acme/quiet/issues', olivia)).status, 410);
	const readOnly = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'read' } });
	const denied = await s.request('POST', '/repos/acme/web/issues', { token: readOnly, body: { title: 't' } });
	assert.is(denied.status, 403);
	assert.is(denied.headers.get('x-accepted-github-permissions'), 'issues=write');
	const count = (await s.get('/repos/acme/web', olivia)).body.open_issues_count;
	assert.is(count, 4, '~> failed creates leave nothing behind');
});

test('get: 200 for visible issues, 404 otherwise; media types render the body', async () => {
	const res = await s.get('/repos/acme/web/issues/1');
	assert.is(res.status, 200, '~> public repository: no token needed');
	assert.is(res.body.title, 'Login fails');
	assert.is((await s.get('/repos/acme/web/issues/99', olivia)).status, 404);
	assert.is((await s.get('/repos/acme/web/issues/abc', olivia)).status, 404);
	const full = await s.get('/repos/acme/web/issues/1', olivia, { Accept: 'application/vnd.github.full+json' });
	assert.is(full.body.body, 'Steps:\n- [ ] open\n- [x] click');
	assert.match(full.body.body_html, '<input type="checkbox" class="task-list-item-checkbox" disabled');
	assert.match(full.body.body_text, 'Steps:');
	const html = await s.get('/repos/acme/web/issues/1', olivia, { Accept: 'application/vnd.github.html+json' });
	assert.is(html.body.body, undefined);
	assert.ok(html.body.body_html);
	const etag = res.headers.get('etag')!;
	assert.is((await s.get('/repos/acme/web/issues/1', undefined, { 'If-None-Match': etag })).status, 304);
});

test('update: authors edit their issue; triage closes with a reason and reopens', async () => {
	const own = await s.request('PATCH', '/repos/acme/web/issues/3', { token: eve, body: { title: 'Drive-by (edited)', labels: ['bug'] } });
	assert.is(own.status, 200);
	assert.is(own.body.title, 'Drive-by (edited)');
	assert.equal(own.body.labels, [], '~> labels from a caller without triage are dropped');
	const other = await s.request('PATCH', '/repos/acme/web/issues/1', { token: eve, body: { title: 'mine now' } });
	assert.is(other.status, 403);

	const reader = await s.request('PATCH', '/repos/acme/web/issues/1', { token: mia, body: { state: 'closed' } });
	assert.is(reader.status, 403, '~> members with read access change only their own issues');
	s.clock.advance(60_000);
	const closed = await s.request('PATCH', '/repos/acme/web/issues/1', {
		token: carl,
		body: { state: 'closed', state_reason: 'not_planned' },
	});
	assert.is(closed.status, 200);
	assert.is(closed.body.state, 'closed');
	assert.is(closed.body.state_reason, 'not_planned');
	assert.is(closed.body.closed_by.login, 'carl');
	assert.is(closed.body.closed_at, '2026-11-22T12:01:00Z');
	assert.is(closed.body.updated_at, '2026-11-22T12:01:00Z');
	assert.is((await s.get('/repos/acme/web', olivia)).body.open_issues_count, 3);

	const reopened = await s.request('PATCH', '/repos/acme/web/issues/1', { token: carl, body: { state: 'open' } });
	assert.is(reopened.body.state, 'open');
	assert.is(reopened.body.state_reason, 'reopened');
	assert.is(reopened.body.closed_at, null);
	const bad = await s.request('PATCH', '/repos/acme/web/issues/1', { token: carl, body: { state: 'closed', state_reason: 'reopened' } });
	assert.is(bad.status, 422);
	const badState = await s.request('PATCH', '/repos/acme/web/issues/1', { token: carl, body: { state: 'merged' } });
	assert.is(badState.status, 422);

	const relabel = await s.request('PATCH', '/repos/acme/web/issues/1', {
		token: carl,
		body: { labels: [{ name: 'enhancement' }], assignees: [] },
	});
	assert.equal(
		relabel.body.labels.map((l: any) => l.name),
		['enhancement'],
	);
	assert.equal(relabel.body.assignees, []);
	assert.is(relabel.body.assignee, null);
});

test('list: filters, sorting and pagination', async () => {
	const open = await s.get('/repos/acme/web/issues', olivia);
	assert.is(open.status, 200);
	assert.equal(
		open.body.map((i: any) => i.number),
		[4, 3, 2, 1],
		'~> default: open, newest first',
	);
	assert.equal(
		(await s.get('/repos/acme/web/issues?direction=asc', olivia)).body.map((i: any) => i.number),
		[1, 2, 3, 4],
	);
	await s.request('PATCH', '/repos/acme/web/issues/2', { token: olivia, body: { state: 'closed' } });
	assert.equal(
		(await s.get('/repos/acme/web/issues?state=closed', olivia)).body.map((i: any) => i.number),
		[2],
	);
	assert.equal((await s.get('/repos/acme/web/issues?state=all', olivia)).body.length, 4);
	assert.equal(
		(await s.get('/repos/acme/web/issues?creator=eve', olivia)).body.map((i: any) => i.number),
		[3],
	);
	assert.equal(
		(await s.get('/repos/acme/web/issues?labels=Question', olivia)).body.map((i: any) => i.number),
		[4],
	);
	assert.equal((await s.get('/repos/acme/web/issues?labels=question,bug', olivia)).body, [], '~> every label must match');
	await s.request('POST', '/repos/acme/web/issues/4/assignees', { token: olivia, body: { assignees: ['carl'] } });
	assert.equal(
		(await s.get('/repos/acme/web/issues?assignee=carl', olivia)).body.map((i: any) => i.number),
		[4],
	);
	assert.equal(
		(await s.get('/repos/acme/web/issues?assignee=*', olivia)).body.map((i: any) => i.number),
		[4],
	);
	assert.equal(
		(await s.get('/repos/acme/web/issues?assignee=none', olivia)).body.map((i: any) => i.number),
		[3, 1],
	);
	assert.equal((await s.get('/repos/acme/web/issues?milestone=*', olivia)).body, [], '~> no issue has a milestone');
	assert.equal((await s.get('/repos/acme/web/issues?milestone=none', olivia)).body.length, 3);
	s.clock.advance(60_000);
	await s.request('PATCH', '/repos/acme/web/issues/3', { token: eve, body: { body: 'cc @mia please' } });
	assert.equal(
		(await s.get('/repos/acme/web/issues?mentioned=mia', olivia)).body.map((i: any) => i.number),
		[3],
	);
	assert.equal((await s.get('/repos/acme/web/issues?mentioned=mi', olivia)).body, [], '~> whole logins only');
	assert.equal((await s.get('/repos/acme/web/issues?sort=updated&direction=desc', olivia)).body[0].number, 3);
	const paged = await s.get('/repos/acme/web/issues?state=all&per_page=2', olivia);
	assert.is(paged.body.length, 2);
	assert.match(paged.headers.get('link')!, 'rel="next"');
	assert.is((await s.get('/repos/acme/web/issues?state=bogus', olivia)).status, 422);
	assert.is((await s.get('/repos/acme/web/issues?since=yesterday', olivia)).status, 422);
	assert.is((await s.get('/repos/acme/vault/issues', eve)).status, 404);
});

test('lock and unlock: push access; comments on locked issues need it too', async () => {
	assert.is((await s.request('PUT', '/repos/acme/web/issues/4/lock', { token: eve, body: {} })).status, 403);
	const bad = await s.request('PUT', '/repos/acme/web/issues/4/lock', { token: carl, body: { lock_reason: 'boring' } });
	assert.is(bad.status, 422);
	assert.is((await s.request('PUT', '/repos/acme/web/issues/4/lock', { token: carl, body: { lock_reason: 'too heated' } })).status, 204);
	const locked = await s.get('/repos/acme/web/issues/4', olivia);
	assert.is(locked.body.locked, true);
	assert.is(locked.body.active_lock_reason, 'too heated');
	const refused = await s.request('POST', '/repos/acme/web/issues/4/comments', { token: eve, body: { body: 'hi' } });
	assert.is(refused.status, 403);
	assert.is((await s.request('POST', '/repos/acme/web/issues/4/comments', { token: carl, body: { body: 'calm down' } })).status, 201);
	assert.is((await s.request('DELETE', '/repos/acme/web/issues/4/lock', { token: carl })).status, 204);
	assert.is((await s.get('/repos/acme/web/issues/4', olivia)).body.locked, false);
});

test('issue labels and assignees routes', async () => {
	const added = await s.request('POST', '/repos/acme/web/issues/3/labels', { token: carl, body: { labels: ['bug', 'Needs Review'] } });
	assert.is(added.status, 200);
	assert.equal(
		added.body.map((l: any) => l.name),
		['bug', 'Needs Review'],
	);
	const set = await s.request('PUT', '/repos/acme/web/issues/3/labels', { token: carl, body: { labels: ['question'] } });
	assert.equal(
		set.body.map((l: any) => l.name),
		['question'],
	);
	const listed = await s.get('/repos/acme/web/issues/3/labels', eve);
	assert.equal(
		listed.body.map((l: any) => l.name),
		['question'],
	);
	const removed = await s.request('DELETE', '/repos/acme/web/issues/3/labels/question', { token: carl });
	assert.is(removed.status, 200);
	assert.equal(removed.body, []);
	const gone = await s.request('DELETE', '/repos/acme/web/issues/3/labels/question', { token: carl });
	assert.is(gone.status, 404);
	assert.is(gone.body.message, 'Label does not exist');
	assert.is((await s.request('POST', '/repos/acme/web/issues/3/labels', { token: eve, body: { labels: ['bug'] } })).status, 403);
	assert.is((await s.request('DELETE', '/repos/acme/web/issues/3/labels', { token: carl })).status, 204);

	const assigned = await s.request('POST', '/repos/acme/web/issues/3/assignees', { token: olivia, body: { assignees: ['mia', 'carl'] } });
	assert.is(assigned.status, 201);
	assert.equal(
		assigned.body.assignees.map((a: any) => a.login),
		['mia', 'carl'],
	);
	const unassigned = await s.request('DELETE', '/repos/acme/web/issues/3/assignees', { token: olivia, body: { assignees: ['mia'] } });
	assert.equal(
		unassigned.body.assignees.map((a: any) => a.login),
		['carl'],
	);
	assert.is((await s.get('/repos/acme/web/assignees/carl', olivia)).status, 204);
	assert.is((await s.get('/repos/acme/web/assignees/eve', olivia)).status, 404);
});

test('repository labels: defaults, create, get, update, delete', async () => {
	const list = await s.get('/repos/uma/notes/labels', uma);
	assert.is(list.status, 200);
	assert.equal(
		list.body.map((l: any) => l.name),
		['bug', 'documentation', 'duplicate', 'enhancement', 'good first issue', 'help wanted', 'invalid', 'question', 'wontfix'],
	);
	const made = await s.request('POST', '/repos/uma/notes/labels', {
		token: uma,
		body: { name: 'p1', color: '#FF0000', description: 'urgent' },
	});
	assert.is(made.status, 201);
	assert.equal(made.body, {
		id: made.body.id,
		node_id: made.body.node_id,
		url: `${s.api}/repos/uma/notes/labels/p1`,
		name: 'p1',
		color: 'FF0000',
		default: false,
		description: 'urgent',
	});
	const dup = await s.request('POST', '/repos/uma/notes/labels', { token: uma, body: { name: 'P1' } });
	assert.is(dup.status, 422);
	assert.is(dup.body.errors[0].code, 'already_exists');
	assert.is((await s.request('POST', '/repos/uma/notes/labels', { token: uma, body: { name: 'x', color: 'red' } })).status, 422);
	assert.is((await s.request('POST', '/repos/uma/notes/labels', { token: eve, body: { name: 'x' } })).status, 403);
	const spaced = await s.get('/repos/uma/notes/labels/good%20first%20issue', eve);
	assert.is(spaced.body.color, '7057ff');
	const renamed = await s.request('PATCH', '/repos/uma/notes/labels/p1', {
		token: uma,
		body: { new_name: 'priority', description: null },
	});
	assert.is(renamed.body.name, 'priority');
	assert.is(renamed.body.description, null);
	assert.is((await s.get('/repos/uma/notes/labels/p1', uma)).status, 404);
	assert.is((await s.request('DELETE', '/repos/uma/notes/labels/priority', { token: uma })).status, 204);
	assert.is((await s.get('/repos/uma/notes/labels/priority', uma)).status, 404);
});

test('pull requests are issues: shared numbers, pull_request field, /pull/ URLs', async () => {
	const repo = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('uma')!.id, 'notes')!;
	const pr = s.app.transaction(() =>
		s.app.stores.issues.insert(
			{ repo_id: repo.id, title: 'Add docs', body: null, user_id: repo.owner_id, pull_request: true },
			'2026-11-22T12:00:00Z',
		),
	);
	assert.is(pr.number, 2);
	const res = await s.get('/repos/uma/notes/issues/2', uma);
	assert.is(res.body.html_url, `${s.origin}/uma/notes/pull/2`);
	assert.equal(res.body.pull_request, {
		url: `${s.api}/repos/uma/notes/pulls/2`,
		html_url: `${s.origin}/uma/notes/pull/2`,
		diff_url: `${s.origin}/uma/notes/pull/2.diff`,
		patch_url: `${s.origin}/uma/notes/pull/2.patch`,
		merged_at: null,
	});
	assert.is(res.body.draft, false);
	const next = await s.request('POST', '/repos/uma/notes/issues', { token: uma, body: { title: 'after the pull request' } });
	assert.is(next.body.number, 3);
});

test('bodies rendered on the first read that shows them, kept in the row; not a change of the issue', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'lazy' } });
	const created = await s.request('POST', '/repos/acme/lazy/issues', { token: olivia, body: { title: 'Lazy', body: 'Some *words*' } });
	assert.is(created.status, 201);
	const stored = () =>
		s.app.db.prepare('SELECT body_html, body_text, updated_at FROM issues WHERE id = ?').get(created.body.id) as Record<
			string,
			unknown
		>;
	assert.equal(stored().body_html, null, '~> a raw write renders nothing');
	const path = `/repos/acme/lazy/issues/${created.body.number}`;
	const before = await s.get(path, olivia);
	assert.ok(before.headers.get('etag'));
	const html = await s.get(path, olivia, { Accept: 'application/vnd.github.html+json' });
	assert.is(html.body.body_html, '<p dir="auto">Some <em>words</em></p>', '~> rendered for the html media type');
	assert.equal(
		stored(),
		{ body_html: '<p dir="auto">Some <em>words</em></p>', body_text: 'Some words', updated_at: created.body.updated_at },
		'~> kept in the row; updated_at stays',
	);
	const after = await s.get(path, olivia, { 'If-None-Match': before.headers.get('etag')! });
	assert.is(after.status, 304, '~> keeping the rendering is not a change (the ETag holds)');
	const text = await s.get(path, olivia, { Accept: 'application/vnd.github.text+json' });
	assert.is(text.body.body_text, 'Some words');
	const list = await s.get('/repos/acme/lazy/issues', olivia, { Accept: 'application/vnd.github.full+json' });
	assert.is(list.body[0].body_html, '<p dir="auto">Some <em>words</em></p>', '~> lists render too');
	await s.request('PATCH', path, { token: olivia, body: { body: 'Other **words**' } });
	assert.is(stored().body_html, null, '~> an edit of the body drops the kept rendering');
	const page = await fetch(`${s.origin}/acme/lazy/issues/${created.body.number}`, { headers: { Accept: 'text/html' } });
	assert.match(await page.text(), '<strong>words</strong>', '~> the web page renders it');
	assert.is(stored().body_text, 'Other words', '~> and keeps it');
});

test("bodies: stored rendering follows edits; more than 65,536 characters is GitHub's 422, nothing written", async () => {
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'drafts' } });
	const created = await s.request('POST', '/repos/acme/drafts/issues', {
		token: olivia,
		body: { title: 'Rendered once', body: 'First *draft*' },
		headers: { Accept: 'application/vnd.github.full+json' },
	});
	assert.is(created.status, 201);
	assert.is(created.body.body_html, '<p dir="auto">First <em>draft</em></p>');
	const path = `/repos/acme/drafts/issues/${created.body.number}`;
	const full = { Accept: 'application/vnd.github.full+json' };
	const retitled = await s.request('PATCH', path, { token: olivia, body: { title: 'Renamed' }, headers: full });
	assert.is(retitled.body.body_html, '<p dir="auto">First <em>draft</em></p>', '~> a title change keeps the rendering');
	const edited = await s.request('PATCH', path, { token: olivia, body: { body: 'Second **version**' }, headers: full });
	assert.is(edited.body.body_html, '<p dir="auto">Second <strong>version</strong></p>');
	assert.is(edited.body.body_text, 'Second version');
	assert.is((await s.get(path, undefined, { Accept: 'application/vnd.github.text+json' })).body.body_text, 'Second version');
	const cleared = await s.request('PATCH', path, { token: olivia, body: { body: null }, headers: full });
	assert.is(cleared.body.body, null);
	assert.ok(
		!('body_html' in cleared.body) && !('body_text' in cleared.body),
		'~> no body: no renderings (strings in GitHub’s description, never null)',
	);

	const expected = {
		message: 'Validation Failed',
		errors: [{ resource: 'Issue', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
	};
	const count = (await s.get('/repos/acme/drafts', olivia)).body.open_issues_count;
	const tooLong = await s.request('POST', '/repos/acme/drafts/issues', {
		token: olivia,
		body: { title: 'Long', body: 'x'.repeat(65537) },
	});
	assert.is(tooLong.status, 422);
	assert.equal({ message: tooLong.body.message, errors: tooLong.body.errors }, expected);
	assert.is((await s.get('/repos/acme/drafts', olivia)).body.open_issues_count, count, '~> nothing written');
	const longEdit = await s.request('PATCH', path, { token: olivia, body: { body: 'x'.repeat(65537) } });
	assert.is(longEdit.status, 422);
	assert.equal(longEdit.body.errors, expected.errors);
	assert.is((await s.get(path, olivia)).body.body, null, '~> nothing written');
	assert.is(
		(await s.request('PATCH', path, { token: olivia, body: { body: 'x'.repeat(65536) } })).status,
		200,
		'~> the limit itself is allowed',
	);
});

test('issue labels as clients send them: {labels}, a bare array of names or of {name} objects, a bare string, Octokit', async () => {
	const { data } = await s
		.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'Label forms' } })
		.then((r) => ({ data: r.body }));
	const path = `/repos/acme/web/issues/${data.number}/labels`;
	const bare = await s.request('POST', path, { token: carl, body: ['bug'] });
	assert.is(bare.status, 200, '~> a bare JSON array of names is the labels field');
	assert.equal(
		bare.body.map((l: any) => l.name),
		['bug'],
	);
	const objects = await s.request('POST', path, { token: carl, raw: '[{"name":"ui"},{"name":"bug"}]' });
	assert.is(objects.status, 200, '~> a bare array of {name} objects too');
	assert.equal(
		objects.body.map((l: any) => l.name),
		['bug', 'ui'],
	);
	const one = await s.request('POST', path, { token: carl, raw: '"question"' });
	assert.is(one.status, 200, '~> a bare string is one label');
	assert.equal(
		one.body.map((l: any) => l.name),
		['bug', 'question', 'ui'],
	);
	const set = await s.request('PUT', path, { token: carl, body: [{ name: 'wontfix' }] });
	assert.is(set.status, 200, '~> PUT takes the bare forms too');
	assert.equal(
		set.body.map((l: any) => l.name),
		['wontfix'],
	);
	const wrong = await s.request('POST', path, { token: carl, body: [5] });
	assert.is(wrong.status, 422, '~> a bare array of the wrong type is a validation failure, not a 400');
	assert.is(wrong.body.errors[0].field, 'labels.0');
	const notArray = await s.request('POST', '/repos/acme/web/labels', { token: olivia, body: ['bug'] });
	assert.is(notArray.status, 400, '~> routes that do not declare a bare array still refuse one');
	assert.is(notArray.body.message, 'Body should be a JSON object');
	assert.is((await s.request('POST', path, { token: eve, body: ['bug'] })).status, 403, '~> no triage access: 403 before the body');
	assert.is((await s.request('POST', path, { body: ['bug'] })).status, 401, '~> anonymous: 401');
	const cleared = await s.request('PUT', path, { token: carl, body: [] });
	assert.equal(cleared.body, [], '~> an empty array removes every label');

	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: carl, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const added = await octokit.rest.issues.addLabels({
		owner: 'acme',
		repo: 'web',
		issue_number: data.number,
		labels: ['bug', 'enhancement'],
	});
	assert.is(added.status, 200);
	assert.equal(
		added.data.map((l) => l.name),
		['bug', 'enhancement'],
		'~> Octokit sends {labels: [...]}',
	);
	const replaced = await octokit.rest.issues.setLabels({
		owner: 'acme',
		repo: 'web',
		issue_number: data.number,
		labels: ['documentation'],
	});
	assert.equal(
		replaced.data.map((l) => l.name),
		['documentation'],
	);
	const listed = await octokit.rest.issues.listLabelsOnIssue({ owner: 'acme', repo: 'web', issue_number: data.number });
	assert.equal(
		listed.data.map((l) => l.name),
		['documentation'],
	);
	await octokit.rest.issues.removeAllLabels({ owner: 'acme', repo: 'web', issue_number: data.number });
	assert.equal((await s.get(path, carl)).body, []);
});

test('writes ignore the read-only and unknown fields clients echo back; known fields of the wrong type stay 422', async () => {
	const made = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'Echo', labels: ['bug'] } });
	const echoed = {
		...made.body,
		title: 'Echoed',
		id: 1,
		url: '',
		html_url: '',
		created_at: 'yesterday',
		user: { login: 'eve' },
		assets: null,
		assignee: null,
		assignees: [],
		milestone: null,
		reactions: { total_count: 9 },
	};
	const updated = await s.request('PATCH', `/repos/acme/web/issues/${made.body.number}`, { token: olivia, body: echoed });
	assert.is(updated.status, 200, '~> an issue echoed back is taken');
	assert.is(updated.body.title, 'Echoed');
	assert.is(updated.body.id, made.body.id, '~> id and user are read-only');
	assert.is(updated.body.user.login, 'olivia');
	assert.is(updated.body.created_at, made.body.created_at);
	assert.equal(
		updated.body.labels.map((l: any) => l.name),
		['bug'],
		'~> the echoed label objects name the labels',
	);
	const wrongType = await s.request('PATCH', `/repos/acme/web/issues/${made.body.number}`, {
		token: olivia,
		body: { title: 'x', state: 7 },
	});
	assert.is(wrongType.status, 422, '~> a known field of the wrong type is 422');

	const label = await s.request('POST', '/repos/acme/web/labels', {
		token: olivia,
		body: { name: 'echo', color: 'aabbcc', id: 5, url: '', default: true, node_id: 'x' },
	});
	assert.is(label.status, 201);
	assert.is(label.body.default, false, '~> default is read-only');
	const relabel = await s.request('PATCH', '/repos/acme/web/labels/echo', {
		token: olivia,
		body: { ...label.body, new_name: 'echoed', url: '' },
	});
	assert.is(relabel.status, 200);
	assert.is(relabel.body.name, 'echoed');
	assert.is((await s.request('PATCH', '/repos/acme/web/labels/echoed', { token: olivia, body: { color: 5 } })).status, 422);

	const comment = await s.request('POST', `/repos/acme/web/issues/${made.body.number}/comments`, {
		token: olivia,
		body: { body: 'hi', id: 3, user: null, html_url: '', created_at: '' },
	});
	assert.is(comment.status, 201);
	const edited = await s.request('PATCH', `/repos/acme/web/issues/comments/${comment.body.id}`, {
		token: olivia,
		body: { ...comment.body, body: 'hello' },
	});
	assert.is(edited.status, 200);
	assert.is(edited.body.body, 'hello');
	assert.is(
		(await s.request('PATCH', `/repos/acme/web/issues/comments/${comment.body.id}`, { token: olivia, body: { body: ['x'] } })).status,
		422,
	);
});

test('assignees: the list and the check agree, user by user (collaborators, teams with parents, members, base permission)', async () => {
	for (const login of ['bo', 'tess', 'kid', 'rita', 'pam', 'nemo']) s.user(login);
	s.org('beta', 'bo');
	for (const login of ['tess', 'kid', 'nemo']) s.member('beta', login);
	const bo = s.fullToken('bo');
	await s.request('PATCH', '/orgs/beta', { token: bo, body: { default_repository_permission: 'none' } });
	await s.request('POST', '/orgs/beta/repos', { token: bo, body: { name: 'core', private: true } });
	const parent = await s.request('POST', '/orgs/beta/teams', { token: bo, body: { name: 'Parent', privacy: 'closed' } });
	await s.request('POST', '/orgs/beta/teams', { token: bo, body: { name: 'Child', privacy: 'closed', parent_team_id: parent.body.id } });
	await s.request('PUT', '/orgs/beta/teams/parent/repos/beta/core', { token: bo, body: { permission: 'pull' } });
	await s.request('PUT', '/orgs/beta/teams/parent/memberships/tess', { token: bo, body: {} });
	await s.request('PUT', '/orgs/beta/teams/child/memberships/kid', { token: bo, body: {} });
	const core = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('beta')!.id, 'core')!;
	s.app.stores.repos.setCollaborator(core.id, s.app.stores.accounts.user('rita')!.id, 'triage', '2026-01-01T00:00:00Z');
	s.app.stores.repos.setCollaborator(core.id, s.app.stores.accounts.user('pam')!.id, 'pull', '2026-01-01T00:00:00Z');
	// bo: owner; tess: member reading through a team; kid: through the child team; rita: outside
	// collaborator with triage; pam: outside collaborator with read only (not assignable); nemo:
	// a member without access to the private repository (not assignable).
	const list = await s.get('/repos/beta/core/assignees', bo);
	assert.is(list.status, 200);
	const logins = list.body.map((u: any) => u.login);
	assert.equal(logins, ['bo', 'kid', 'rita', 'tess'], '~> owners, members who read it, collaborators with triage');
	assert.is(list.body[0].url, `${s.api}/users/bo`, '~> simple users');
	for (const login of ['bo', 'tess', 'kid', 'rita', 'pam', 'nemo', 'olivia']) {
		const check = await s.get(`/repos/beta/core/assignees/${login}`, bo);
		assert.is(check.status, logins.includes(login) ? 204 : 404, `~> the check agrees with the list for ${login}`);
	}
	const refused = await s.request('POST', '/repos/beta/core/issues', { token: bo, body: { title: 'x', assignees: ['pam'] } });
	assert.is(refused.status, 422, '~> an issue takes only assignable users');
	const page = await s.get('/repos/beta/core/assignees?per_page=2&page=2', bo);
	assert.equal(
		page.body.map((u: any) => u.login),
		['rita', 'tess'],
		'~> paged',
	);
	assert.match(page.headers.get('link') ?? '', 'rel="prev"');
	assert.is((await s.get('/repos/beta/core/assignees', eve)).status, 404, '~> a hidden private repository');
	assert.is((await s.get('/repos/beta/core/assignees')).status, 404, '~> anonymous callers see no private repository');
	const web = await s.get('/repos/acme/web/assignees');
	assert.is(web.status, 200, '~> public repositories list without a token');
	assert.equal(
		web.body.map((u: any) => u.login).filter((l: string) => ['olivia', 'mia', 'carl', 'eve'].includes(l)),
		['carl', 'mia', 'olivia'],
		'~> every member of a public repository’s organization, collaborators with push',
	);
});

test.run();
