/**
 * Milestones (GitHub's issues/milestones API): create, get, list with state/sort/direction, update,
 * delete, the labels of a milestone's issues, issue counts, and the issue's `milestone` field and
 * filter; the milestone webhook and the issues milestoned/demilestoned actions.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('milestones');
let s: TestServer;
let olivia: string; // owner of acme
let mia: string; // member of acme (read through the base permission)
let carl: string; // outside collaborator with triage on acme/web
let eve: string; // nobody to acme

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mia', 'carl', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mia');
	olivia = s.fullToken('olivia');
	mia = s.fullToken('mia');
	carl = s.fullToken('carl');
	eve = s.fullToken('eve');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	const web = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'web')!;
	s.app.stores.repos.setCollaborator(web.id, s.app.stores.accounts.user('carl')!.id, 'triage', '2026-01-01T00:00:00Z');
});
test.after(() => s.close());

test('create: 201 with Location and GitHub’s milestone object; duplicate titles 422 already_exists', async () => {
	const res = await s.request('POST', '/repos/acme/web/milestones', {
		token: olivia,
		body: { title: 'v1.0', description: 'First release', due_on: '2026-12-01T00:00:00Z' },
	});
	assert.is(res.status, 201, '~> created');
	assert.is(res.headers.get('location'), `${s.api}/repos/acme/web/milestones/1`, '~> Location names it');
	assert.equal(
		res.body,
		{
			url: `${s.api}/repos/acme/web/milestones/1`,
			html_url: `${s.origin}/acme/web/milestone/1`,
			labels_url: `${s.api}/repos/acme/web/milestones/1/labels`,
			id: res.body.id,
			node_id: res.body.node_id,
			number: 1,
			state: 'open',
			title: 'v1.0',
			description: 'First release',
			creator: res.body.creator,
			open_issues: 0,
			closed_issues: 0,
			created_at: '2026-11-22T12:00:00Z',
			updated_at: '2026-11-22T12:00:00Z',
			closed_at: null,
			due_on: '2026-12-01T00:00:00Z',
		},
		'~> GitHub’s milestone object',
	);
	assert.is(res.body.creator.login, 'olivia', '~> the creator');
	const dup = await s.request('POST', '/repos/acme/web/milestones', { token: olivia, body: { title: 'v1.0' } });
	assert.is(dup.status, 422, '~> a duplicate title is refused');
	assert.equal(dup.body.errors, [{ resource: 'Milestone', field: 'title', code: 'already_exists' }], '~> GitHub’s already_exists item');
	const closed = await s.request('POST', '/repos/acme/web/milestones', { token: olivia, body: { title: 'v0.9', state: 'closed' } });
	assert.is(closed.body.number, 2, '~> numbered per repository');
	assert.is(closed.body.closed_at, '2026-11-22T12:00:00Z', '~> created closed: closed_at set');
});

test('create: anonymous 401, no push access 403, hidden repository 404, validation 422, scopes', async () => {
	const body = { title: 'v2' };
	assert.is((await s.request('POST', '/repos/acme/web/milestones', { body })).status, 401, '~> anonymous');
	const reader = await s.request('POST', '/repos/acme/web/milestones', { token: mia, body });
	assert.is(reader.status, 403, '~> read access is not enough to manage milestones');
	assert.is(
		(await s.request('POST', '/repos/acme/vault/milestones', { token: eve, body })).status,
		404,
		'~> a private repository stays hidden',
	);
	assert.is((await s.get('/repos/acme/vault/milestones', eve)).status, 404, '~> its list too');
	const noScope = await s.request('POST', '/repos/acme/web/milestones', { token: s.token('olivia', { scopes: ['read:org'] }), body });
	assert.is(noScope.status, 403, '~> a classic token without repo or public_repo');
	const fine = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'read' } });
	assert.is(
		(await s.request('POST', '/repos/acme/web/milestones', { token: fine, body })).status,
		403,
		'~> fine-grained with issues:read only',
	);
	for (const bad of [{}, { title: '' }, { title: 5 }, { title: 'x', state: 'done' }, { title: 'x', due_on: 'tomorrow' }]) {
		const res = await s.request('POST', '/repos/acme/web/milestones', { token: olivia, body: bad });
		assert.is(res.status, 422, `~> ${JSON.stringify(bad)} is a validation failure`);
		assert.is(res.body.errors[0].resource, 'Milestone', '~> named Milestone');
	}
	const echoed = await s.request('POST', '/repos/acme/web/milestones', {
		token: olivia,
		body: { title: 'echo', id: 9, url: '', creator: null, open_issues: 7 },
	});
	assert.is(echoed.status, 201, '~> read-only fields echoed back are ignored');
	assert.is(echoed.body.open_issues, 0);
	assert.is((await s.request('DELETE', `/repos/acme/web/milestones/${echoed.body.number}`, { token: olivia })).status, 204);
});

test('issues join milestones: the milestone field, counts, the list filter, 422 for an unknown number', async () => {
	const one = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'A', milestone: 1, labels: ['bug'] } });
	assert.is(one.status, 201);
	assert.is(one.body.milestone.number, 1, '~> the issue carries the milestone object');
	assert.is(one.body.milestone.title, 'v1.0');
	assert.is(one.body.milestone.open_issues, 1, '~> counted at once');
	const two = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'B', milestone: '1', labels: ['ui'] } });
	assert.is(two.body.milestone.number, 1, '~> a numeric string names it too');
	await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'C' } });
	const unknown = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'D', milestone: 99 } });
	assert.is(unknown.status, 422, '~> an unknown milestone is refused');
	assert.equal(unknown.body.errors, [{ resource: 'Issue', field: 'milestone', code: 'invalid', value: 99 }], '~> GitHub’s invalid item');
	const dropped = await s.request('POST', '/repos/acme/web/issues', { token: mia, body: { title: 'E', milestone: 1 } });
	assert.is(dropped.status, 201, '~> without push access the milestone is dropped, as on GitHub');
	assert.is(dropped.body.milestone, null);

	const closed = await s.request('PATCH', `/repos/acme/web/issues/${two.body.number}`, { token: olivia, body: { state: 'closed' } });
	assert.is(closed.body.milestone.closed_issues, 1, '~> closing moves the count');
	assert.is(closed.body.milestone.open_issues, 1);
	const got = await s.get('/repos/acme/web/milestones/1', mia);
	assert.is(got.body.open_issues, 1, '~> the milestone shows its open issues');
	assert.is(got.body.closed_issues, 1, '~> and its closed ones');

	const list = async (milestone: string, state = 'all') =>
		(await s.get(`/repos/acme/web/issues?milestone=${encodeURIComponent(milestone)}&state=${state}`, mia)).body.map(
			(i: any) => i.title,
		);
	assert.equal(await list('1'), ['B', 'A'], '~> by number');
	assert.equal(await list('1', 'open'), ['A'], '~> with the state filter');
	assert.equal(await list('*'), ['B', 'A'], '~> * is any milestone');
	assert.equal(await list('none'), ['E', 'C'], '~> none is no milestone');
	const unknownFilter = await s.get('/repos/acme/web/issues?milestone=42', mia);
	assert.is(unknownFilter.status, 422, '~> an unknown milestone is GitHub’s 422');
	assert.equal(unknownFilter.body.errors, [{ resource: 'Issue', field: 'milestone', code: 'invalid', value: '42' }]);
	assert.is((await s.get('/repos/acme/web/issues?milestone=v1.0', mia)).status, 422, '~> a title is not a number');

	const labels = await s.get('/repos/acme/web/milestones/1/labels', mia);
	assert.is(labels.status, 200);
	assert.equal(
		labels.body.map((l: any) => l.name),
		['bug', 'ui'],
		'~> the labels of its issues, once each',
	);

	const moved = await s.request('PATCH', `/repos/acme/web/issues/${one.body.number}`, { token: carl, body: { milestone: 2 } });
	assert.is(moved.status, 200, '~> triage sets an issue’s milestone');
	assert.is(moved.body.milestone.number, 2);
	assert.is((await s.get('/repos/acme/web/milestones/1', mia)).body.open_issues, 0, '~> the old milestone counts it no more');
	const removed = await s.request('PATCH', `/repos/acme/web/issues/${one.body.number}`, { token: carl, body: { milestone: null } });
	assert.is(removed.body.milestone, null, '~> null takes it out');
	const badType = await s.request('PATCH', `/repos/acme/web/issues/${one.body.number}`, {
		token: carl,
		body: { milestone: { number: 1 } },
	});
	assert.is(badType.status, 422, '~> a milestone of the wrong type is 422');
});

test('list: state, sort due_on|completeness, direction, pagination', async () => {
	await s.request('POST', '/repos/acme/web/milestones', { token: olivia, body: { title: 'v1.1', due_on: '2026-12-15T00:00:00Z' } });
	await s.request('POST', '/repos/acme/web/milestones', { token: olivia, body: { title: 'Someday' } });
	const titles = async (query: string) => (await s.get(`/repos/acme/web/milestones${query}`, eve)).body.map((m: any) => m.title);
	assert.equal(await titles(''), ['v1.0', 'v1.1', 'Someday'], '~> open ones by due date, ascending, undated last');
	assert.equal(await titles('?direction=desc'), ['v1.1', 'v1.0', 'Someday'], '~> descending');
	assert.equal(await titles('?state=closed'), ['v0.9'], '~> closed ones');
	assert.equal((await titles('?state=all')).length, 4, '~> all');
	// v1.0 has one closed issue of one: 100 %; the others none.
	assert.equal((await titles('?sort=completeness&direction=desc'))[0], 'v1.0', '~> the most complete first');
	const page = await s.get('/repos/acme/web/milestones?per_page=1&page=2', eve);
	assert.equal(
		page.body.map((m: any) => m.title),
		['v1.1'],
		'~> pages',
	);
	assert.match(page.headers.get('link') ?? '', 'rel="next"', '~> with Link');
	assert.is((await s.get('/repos/acme/web/milestones?sort=title', eve)).status, 422, '~> an unknown sort is 422');
	assert.is((await s.get('/repos/acme/web/milestones/99', eve)).status, 404, '~> an unknown milestone is 404');
	assert.is((await s.get('/repos/acme/web/milestones/abc', eve)).status, 404);
});

test('update and delete: edits, close and reopen; issues keep no milestone after a delete', async () => {
	const edited = await s.request('PATCH', '/repos/acme/web/milestones/3', {
		token: olivia,
		body: { title: 'v1.1.0', description: null, due_on: null },
	});
	assert.is(edited.status, 200);
	assert.is(edited.body.title, 'v1.1.0');
	assert.is(edited.body.due_on, null, '~> null clears the due date');
	const taken = await s.request('PATCH', '/repos/acme/web/milestones/3', { token: olivia, body: { title: 'v1.0' } });
	assert.is(taken.status, 422, '~> another milestone’s title');
	assert.is(taken.body.errors[0].code, 'already_exists');
	const closed = await s.request('PATCH', '/repos/acme/web/milestones/3', { token: olivia, body: { state: 'closed' } });
	assert.is(closed.body.state, 'closed');
	assert.is(closed.body.closed_at, '2026-11-22T12:00:00Z', '~> closed_at set');
	const reopened = await s.request('PATCH', '/repos/acme/web/milestones/3', { token: olivia, body: { state: 'open' } });
	assert.is(reopened.body.closed_at, null, '~> reopening clears it');
	assert.is(
		(await s.request('PATCH', '/repos/acme/web/milestones/3', { token: mia, body: { title: 'x' } })).status,
		403,
		'~> read access cannot edit',
	);
	const byTriage = await s.request('PATCH', '/repos/acme/web/milestones/3', { token: carl, body: { description: 'Triaged' } });
	assert.is(byTriage.status, 200, '~> triage manages milestones');
	assert.is((await s.request('PATCH', '/repos/acme/web/milestones/3', { token: olivia, body: { state: 'shut' } })).status, 422);

	const issue = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'F', milestone: 3 } });
	assert.is((await s.request('DELETE', '/repos/acme/web/milestones/3', { token: mia })).status, 403, '~> read access cannot delete');
	assert.is((await s.request('DELETE', '/repos/acme/web/milestones/3', { token: olivia })).status, 204);
	assert.is((await s.get('/repos/acme/web/milestones/3', olivia)).status, 404, '~> gone');
	assert.is((await s.get(`/repos/acme/web/issues/${issue.body.number}`, olivia)).body.milestone, null, '~> its issues keep no milestone');
	assert.is((await s.request('DELETE', '/repos/acme/web/milestones/3', { token: olivia })).status, 404);
});

test('events: the milestone webhook and the issues milestoned/demilestoned actions, through the event log', async () => {
	const events = () =>
		s.app.db
			.prepare("SELECT event || '.' || action AS name FROM events WHERE event IN ('milestone', 'issues') ORDER BY id")
			.pluck()
			.all() as string[];
	const before = events().length;
	const m = await s.request('POST', '/repos/acme/web/milestones', { token: olivia, body: { title: 'Events' } });
	await s.request('PATCH', `/repos/acme/web/milestones/${m.body.number}`, { token: olivia, body: { description: 'd', state: 'closed' } });
	await s.request('PATCH', `/repos/acme/web/milestones/${m.body.number}`, { token: olivia, body: { state: 'open' } });
	const issue = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'G' } });
	await s.request('PATCH', `/repos/acme/web/issues/${issue.body.number}`, { token: olivia, body: { milestone: m.body.number } });
	await s.request('PATCH', `/repos/acme/web/issues/${issue.body.number}`, { token: olivia, body: { milestone: 1 } });
	await s.request('PATCH', `/repos/acme/web/issues/${issue.body.number}`, { token: olivia, body: { milestone: null } });
	await s.request('DELETE', `/repos/acme/web/milestones/${m.body.number}`, { token: olivia });
	assert.equal(events().slice(before), [
		'milestone.created',
		'milestone.edited',
		'milestone.closed',
		'milestone.opened',
		'issues.opened',
		'issues.milestoned',
		'issues.demilestoned',
		'issues.milestoned',
		'issues.demilestoned',
		'milestone.deleted',
	]);
	const feed = s.app.db.prepare("SELECT count(*) FROM events WHERE event = 'milestone' AND feed_type IS NOT NULL").pluck().get();
	assert.is(feed, 0, '~> milestones are in no activity feed');
});

test('Octokit: issues.createMilestone, listMilestones, getMilestone, updateMilestone, deleteMilestone, listLabelsForMilestone', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: olivia, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const made = await octokit.rest.issues.createMilestone({ owner: 'acme', repo: 'web', title: 'Octo', due_on: '2027-01-01T00:00:00Z' });
	assert.is(made.status, 201);
	const listed = await octokit.rest.issues.listMilestones({
		owner: 'acme',
		repo: 'web',
		state: 'all',
		sort: 'due_on',
		direction: 'desc',
	});
	assert.is(listed.data[0].title, 'Octo', '~> latest due date first');
	const got = await octokit.rest.issues.getMilestone({ owner: 'acme', repo: 'web', milestone_number: made.data.number });
	assert.is(got.data.id, made.data.id);
	const updated = await octokit.rest.issues.updateMilestone({
		owner: 'acme',
		repo: 'web',
		milestone_number: made.data.number,
		state: 'closed',
	});
	assert.is(updated.data.state, 'closed');
	const issue = await octokit.rest.issues.create({
		owner: 'acme',
		repo: 'web',
		title: 'With milestone',
		milestone: made.data.number,
		labels: ['octo'],
	});
	assert.is(issue.data.milestone?.number, made.data.number);
	const labels = await octokit.rest.issues.listLabelsForMilestone({ owner: 'acme', repo: 'web', milestone_number: made.data.number });
	assert.equal(
		labels.data.map((l) => l.name),
		['octo'],
	);
	const dup = await octokit.rest.issues.createMilestone({ owner: 'acme', repo: 'web', title: 'Octo' }).catch((e) => e);
	assert.is(dup.status, 422, '~> Octokit throws GitHub’s 422');
	assert.is((await octokit.rest.issues.deleteMilestone({ owner: 'acme', repo: 'web', milestone_number: made.data.number })).status, 204);
});

test('webhook payloads: milestone with changes, repository, organization and sender; issues milestoned with the milestone', async () => {
	const hook = await s.request('POST', '/repos/acme/web/hooks', {
		token: olivia,
		body: { events: ['milestone', 'issues'], config: { url: 'http://hooks.example.com/gitstead' } },
	});
	assert.is(hook.status, 201, `~> a hook: ${hook.text}`);
	const made = await s.request('POST', '/repos/acme/web/milestones', { token: olivia, body: { title: 'Hooked' } });
	await s.request('PATCH', `/repos/acme/web/milestones/${made.body.number}`, { token: olivia, body: { title: 'Hooked!' } });
	const issue = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'H' } });
	await s.request('PATCH', `/repos/acme/web/issues/${issue.body.number}`, { token: olivia, body: { milestone: made.body.number } });
	const payload = (event: string, action: string) =>
		JSON.parse(
			s.app.db
				.prepare('SELECT payload FROM webhook_deliveries WHERE hook_id = ? AND event = ? AND action = ? ORDER BY id DESC')
				.pluck()
				.get(hook.body.id, event, action) as string,
		);
	const edited = payload('milestone', 'edited');
	assert.is(edited.action, 'edited');
	assert.equal(edited.changes, { title: { from: 'Hooked' } }, '~> the previous title');
	assert.is(edited.milestone.title, 'Hooked!');
	assert.is(edited.repository.full_name, 'acme/web', '~> the repository');
	assert.is(edited.organization.login, 'acme', '~> the organization');
	assert.is(edited.sender.login, 'olivia', '~> the sender');
	const milestoned = payload('issues', 'milestoned');
	assert.is(milestoned.milestone.number, made.body.number, '~> the milestone');
	assert.is(milestoned.issue.milestone.number, made.body.number, '~> the issue in it');
});

test.run();
