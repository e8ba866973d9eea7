/**
 * Issue administration GitHub offers through GraphQL only: transferIssue (next number in the
 * destination, comments kept, labels and milestone kept by name, the old number answering 301, the
 * `transferred` webhook and timeline event), pinIssue / unpinIssue (3 per repository,
 * Repository.pinnedIssues, Issue.isPinned, `pinned` / `unpinned` webhooks), deleteIssue (admins
 * only, 410 for the old number, the `deleted` webhook, numbers never given again); and the gh
 * commands over them (gh issue transfer, pin, unpin, delete --yes; gh 2.23 behind a TLS front,
 * skipped with a message when `which gh` finds no gh).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Receiver } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';
import { findGh, runGh, tlsFront, type TlsFront } from './helpers/tls';

const test = suite('issue-admin');
const gh = findGh();
const receiver = new Receiver();
let s: TestServer;
let front: TlsFront | undefined;
let olivia: string; // owner of acme
let mike: string; // member with write access

async function graphql(token: string, query: string, variables: Record<string, unknown> = {}) {
	const res = await s.request('POST', '/graphql', { token, body: { query, variables } });
	assert.is(res.status, 200, res.text);
	return res.body as { data?: any; errors?: Array<{ type?: string; message: string }> };
}

async function issue(repo: string, title: string, extra: Record<string, unknown> = {}) {
	const res = await s.request('POST', `/repos/${repo}/issues`, { token: olivia, body: { title, ...extra } });
	assert.is(res.status, 201, res.text);
	return res.body as { number: number; node_id: string; id: number };
}

const repoId = async (repo: string) => (await s.get(`/repos/${repo}`, olivia)).body.node_id as string;

async function hookEvents(action: string) {
	await s.app.webhooks.deliverDue();
	await receiver.waitFor((r) => r.some((x) => x.event === 'issues' && x.payload.action === action));
	return receiver.received.filter((x) => x.event === 'issues' && x.payload.action === action);
}

test.before(async () => {
	await receiver.start();
	s = await startServer({ configure: (c) => void (c.webhooks.allowed_hosts = ['127.0.0.1']) });
	s.user('olivia');
	s.user('mike');
	s.user('nora');
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	olivia = s.fullToken('olivia');
	mike = s.fullToken('mike');
	for (const name of ['web', 'api']) await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name, auto_init: true } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	for (const repo of ['web', 'api']) {
		const added = await s.request('PUT', `/repos/acme/${repo}/collaborators/mike`, { token: olivia, body: { permission: 'push' } });
		assert.is(added.status, 204, added.text);
	}
	await s.request('POST', '/repos/acme/api/labels', { token: olivia, body: { name: 'needs-triage', color: 'ff0000' } });
	await s.request('POST', '/repos/acme/web/milestones', { token: olivia, body: { title: 'v1' } });
	await s.request('POST', '/repos/acme/api/milestones', { token: olivia, body: { title: 'v1' } });
	const hook = await s.request('POST', '/orgs/acme/hooks', {
		token: olivia,
		body: { name: 'web', config: { url: receiver.url('/org'), content_type: 'json' }, events: ['issues'] },
	});
	assert.is(hook.status, 201, hook.text);
	if (gh) front = await tlsFront(Number(new URL(s.origin).port));
});
test.after(async () => {
	await front?.close();
	await s.close();
	await receiver.stop();
});

test('transferIssue: next number in the destination, comments follow, labels and milestone by name, 301 from the old number', async () => {
	await issue('acme/api', 'Filler'); // api's next number is 2
	const moving = await issue('acme/web', 'Crash on start', { labels: ['bug', 'web-only', 'Needs-Triage'], milestone: 1 });
	await s.request('POST', `/repos/acme/web/issues/${moving.number}/comments`, { token: mike, body: { body: 'Same here' } });
	const openCount = async (repo: string) => (await s.get(`/repos/${repo}`, olivia)).body.open_issues_count as number;
	const counts = [await openCount('acme/web'), await openCount('acme/api')];
	const out = await graphql(
		mike,
		'mutation($i: ID!, $r: ID!) { transferIssue(input: {issueId: $i, repositoryId: $r, clientMutationId: "t"}) { clientMutationId issue { number title repository { nameWithOwner } } } }',
		{ i: moving.node_id, r: await repoId('acme/api') },
	);
	assert.not.ok(out.errors, JSON.stringify(out.errors));
	assert.equal(out.data.transferIssue, {
		clientMutationId: 't',
		issue: { number: 2, title: 'Crash on start', repository: { nameWithOwner: 'acme/api' } },
	});
	const moved = (await s.get('/repos/acme/api/issues/2', olivia)).body;
	assert.equal(
		moved.labels.map((l: any) => l.name).sort(),
		['bug', 'needs-triage'],
		'~> a label of the same name (any case) is kept, others dropped',
	);
	assert.is(moved.milestone.title, 'v1');
	assert.is(moved.milestone.url, (await s.get('/repos/acme/api/milestones/1', olivia)).body.url);
	const comments = (await s.get('/repos/acme/api/issues/2/comments', olivia)).body;
	assert.equal(
		comments.map((c: any) => c.body),
		['Same here'],
	);
	assert.equal([await openCount('acme/web'), await openCount('acme/api')], [counts[0] - 1, counts[1] + 1], '~> the open count moves');
	const old = await s.get(`/repos/acme/web/issues/${moving.number}`, olivia);
	assert.is(old.status, 301);
	assert.ok(old.headers.get('location')!.endsWith('/repos/acme/api/issues/2'));
	assert.is(old.body.url, old.headers.get('location'));
	const timeline = (await s.get('/repos/acme/api/issues/2/timeline', olivia)).body;
	assert.ok(timeline.some((e: any) => e.event === 'transferred'));
	const [delivery] = await hookEvents('transferred');
	assert.is(delivery.payload.issue.number, moving.number);
	assert.is(delivery.payload.repository.full_name, 'acme/web');
	assert.is(delivery.payload.changes.new_issue.number, 2);
	assert.is(delivery.payload.changes.new_repository.full_name, 'acme/api');
	const opened = receiver.received.find((x) => x.payload.action === 'opened' && x.payload.changes?.old_issue);
	assert.ok(opened, '~> the destination gets opened with where the issue came from');
	assert.is(opened!.payload.repository.full_name, 'acme/api');
	assert.is(opened!.payload.changes.old_repository.full_name, 'acme/web');
	assert.is(opened!.payload.issue.number, 2);
	// The number left behind is never given again.
	const next = await issue('acme/web', 'After the transfer');
	assert.is(next.number, moving.number + 1);
});

test('transferIssue refusals: private to public, another owner, no write access, pull requests', async () => {
	const secret = await s.request('POST', '/repos/acme/vault/issues', { token: olivia, body: { title: 'Secret' } });
	const out = await graphql(
		olivia,
		'mutation($i: ID!, $r: ID!) { transferIssue(input: {issueId: $i, repositoryId: $r}) { issue { number } } }',
		{
			i: secret.body.node_id,
			r: await repoId('acme/web'),
		},
	);
	assert.is(out.errors?.[0].type, 'UNPROCESSABLE');
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'mine' } });
	const plain = await issue('acme/web', 'Stays');
	const other = await graphql(
		olivia,
		'mutation($i: ID!, $r: ID!) { transferIssue(input: {issueId: $i, repositoryId: $r}) { issue { number } } }',
		{
			i: plain.node_id,
			r: await repoId('olivia/mine'),
		},
	);
	assert.match(other.errors?.[0].message ?? '', 'same user or organization');
	const nora = await graphql(
		s.fullToken('nora'),
		'mutation($i: ID!, $r: ID!) { transferIssue(input: {issueId: $i, repositoryId: $r}) { issue { number } } }',
		{ i: plain.node_id, r: await repoId('acme/api') },
	);
	assert.is(nora.errors?.[0].type, 'FORBIDDEN');
	assert.is((await s.get(`/repos/acme/web/issues/${plain.number}`, olivia)).body.title, 'Stays');
});

test('pinIssue / unpinIssue: at most 3, Repository.pinnedIssues, Issue.isPinned, webhooks', async () => {
	const issues = [];
	for (const title of ['One', 'Two', 'Three', 'Four']) issues.push(await issue('acme/web', title));
	for (const i of issues.slice(0, 3)) {
		const out = await graphql(mike, 'mutation($i: ID!) { pinIssue(input: {issueId: $i}) { issue { title isPinned } } }', {
			i: i.node_id,
		});
		assert.not.ok(out.errors, JSON.stringify(out.errors));
		assert.is(out.data.pinIssue.issue.isPinned, true);
	}
	const fourth = await graphql(mike, 'mutation($i: ID!) { pinIssue(input: {issueId: $i}) { issue { title } } }', {
		i: issues[3].node_id,
	});
	assert.is(fourth.errors?.[0].type, 'UNPROCESSABLE');
	const listed = await graphql(
		olivia,
		'{ repository(owner: "acme", name: "web") { pinnedIssues(first: 10) { totalCount nodes { issue { title } pinnedBy { login } } } } }',
	);
	assert.equal(
		listed.data.repository.pinnedIssues.nodes.map((n: any) => [n.issue.title, n.pinnedBy.login]),
		[
			['One', 'mike'],
			['Two', 'mike'],
			['Three', 'mike'],
		],
	);
	const unpinned = await graphql(mike, 'mutation($i: ID!) { unpinIssue(input: {issueId: $i}) { issue { isPinned } } }', {
		i: issues[0].node_id,
	});
	assert.is(unpinned.data.unpinIssue.issue.isPinned, false);
	assert.is((await hookEvents('pinned')).length, 3);
	assert.is((await hookEvents('unpinned'))[0].payload.issue.title, 'One');
	const timeline = (await s.get(`/repos/acme/web/issues/${issues[0].number}/timeline`, olivia)).body;
	assert.equal(
		timeline.map((e: any) => e.event).filter((e: string) => e.endsWith('pinned')),
		['pinned', 'unpinned'],
	);
});

test('deleteIssue: admins only; 410 for the old number; the deleted webhook; numbers never reused', async () => {
	const doomed = await issue('acme/web', 'Spam');
	await s.request('POST', `/repos/acme/web/issues/${doomed.number}/comments`, { token: mike, body: { body: 'buy now' } });
	const refused = await graphql(mike, 'mutation($i: ID!) { deleteIssue(input: {issueId: $i}) { repository { name } } }', {
		i: doomed.node_id,
	});
	assert.is(refused.errors?.[0].type, 'FORBIDDEN');
	const out = await graphql(olivia, 'mutation($i: ID!) { deleteIssue(input: {issueId: $i}) { repository { nameWithOwner } } }', {
		i: doomed.node_id,
	});
	assert.not.ok(out.errors, JSON.stringify(out.errors));
	assert.is(out.data.deleteIssue.repository.nameWithOwner, 'acme/web');
	assert.is((await s.get(`/repos/acme/web/issues/${doomed.number}`, olivia)).status, 410);
	const [deleted] = await hookEvents('deleted');
	assert.is(deleted.payload.issue.title, 'Spam');
	assert.is((await issue('acme/web', 'Next')).number, doomed.number + 1);
});

test('gh issue transfer, pin, unpin, delete --yes', async () => {
	if (!front) {
		console.log('test/issue-admin.test.ts: gh commands skipped — the gh CLI is not installed (`which gh` found nothing)');
		return;
	}
	const made = await issue('acme/web', 'Through gh');
	const pin = await runGh(front, olivia, ['issue', 'pin', String(made.number), '-R', 'acme/web']);
	assert.is(pin.code, 0, pin.stderr);
	assert.ok(s.app.stores.issueAdmin.isPinned(made.id));
	const unpin = await runGh(front, olivia, ['issue', 'unpin', String(made.number), '-R', 'acme/web']);
	assert.is(unpin.code, 0, unpin.stderr);
	assert.not.ok(s.app.stores.issueAdmin.isPinned(made.id));
	const transfer = await runGh(front, olivia, ['issue', 'transfer', String(made.number), 'acme/api', '-R', 'acme/web']);
	assert.is(transfer.code, 0, transfer.stderr);
	const moved = s.app.stores.issues.byId(made.id)!;
	assert.is(moved.repo_id, (await s.get('/repos/acme/api', olivia)).body.id);
	assert.match(transfer.stdout, `/acme/api/issues/${moved.number}`);
	const del = await runGh(front, olivia, ['issue', 'delete', String(moved.number), '--yes', '-R', 'acme/api']);
	assert.is(del.code, 0, del.stderr);
	assert.is((await s.get(`/repos/acme/api/issues/${moved.number}`, olivia)).status, 410);
});

test.run();
