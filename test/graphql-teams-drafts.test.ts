/**
 * GraphQL Team.members with `membership` (IMMEDIATE, CHILD_TEAM, ALL) and `role`, paged; and the
 * pull_request webhook's `ready_for_review` and `converted_to_draft` deliveries after
 * markPullRequestReadyForReview and convertPullRequestToDraft.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Receiver } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';

const test = suite('graphql-teams-drafts');
const receiver = new Receiver();
let s: TestServer;
let olivia: string;

async function graphql(query: string, variables: Record<string, unknown> = {}, token = olivia) {
	const res = await s.request('POST', '/graphql', { token, body: { query, variables } });
	assert.is(res.status, 200, res.text);
	assert.not.ok(res.body.errors, JSON.stringify(res.body.errors));
	return res.body.data;
}

test.before(async () => {
	await receiver.start();
	s = await startServer({ configure: (c) => void (c.webhooks.allowed_hosts = ['127.0.0.1']) });
	for (const login of ['olivia', 'mike', 'nora', 'zoe']) s.user(login);
	s.org('acme', 'olivia');
	for (const login of ['mike', 'nora', 'zoe']) s.member('acme', login);
	olivia = s.fullToken('olivia');
	const parent = await s.request('POST', '/orgs/acme/teams', { token: olivia, body: { name: 'Platform', privacy: 'closed' } });
	assert.is(parent.status, 201, parent.text);
	const child = await s.request('POST', '/orgs/acme/teams', {
		token: olivia,
		body: { name: 'Platform Core', privacy: 'closed', parent_team_id: parent.body.id },
	});
	assert.is(child.status, 201, child.text);
	const put = (team: string, login: string, role: string) =>
		s.request('PUT', `/orgs/acme/teams/${team}/memberships/${login}`, { token: olivia, body: { role } });
	await put('platform', 'mike', 'maintainer');
	await put('platform-core', 'nora', 'member');
	await put('platform-core', 'zoe', 'member');
	// zoe belongs to both: an immediate member of the parent too.
	await put('platform', 'zoe', 'member');
});
test.after(async () => {
	await s.close();
	await receiver.stop();
});

const membersQuery = `query($membership: TeamMembershipType, $role: TeamMemberRole, $first: Int, $after: String) {
	organization(login: "acme") { team(slug: "platform") {
		members(first: $first, after: $after, membership: $membership, role: $role) {
			totalCount edges { role node { login } } pageInfo { hasNextPage endCursor }
		}
	} }
}`;
const logins = (data: any) => data.organization.team.members.edges.map((e: any) => e.node.login).sort();

test('Team.members: IMMEDIATE, CHILD_TEAM and ALL (the default)', async () => {
	const all = await graphql(membersQuery, { first: 10 });
	assert.ok(logins(all).includes('nora'), '~> ALL includes the child team');
	assert.ok(logins(all).includes('mike'));
	const immediate = await graphql(membersQuery, { first: 10, membership: 'IMMEDIATE' });
	assert.not.ok(logins(immediate).includes('nora'));
	assert.ok(logins(immediate).includes('mike'));
	assert.ok(logins(immediate).includes('zoe'), '~> a member of both is an immediate member');
	assert.is(immediate.organization.team.members.edges.find((e: any) => e.node.login === 'mike').role, 'MAINTAINER');
	const child = await graphql(membersQuery, { first: 10, membership: 'CHILD_TEAM' });
	assert.equal(logins(child), ['nora']);
	assert.is(child.organization.team.members.totalCount, 1);
	const maintainers = await graphql(membersQuery, { first: 10, membership: 'IMMEDIATE', role: 'MAINTAINER' });
	assert.ok(logins(maintainers).includes('mike'));
	assert.not.ok(logins(maintainers).includes('zoe'));
	// Paged: one at a time, the cursors carry on.
	const seen: string[] = [];
	let after: string | null = null;
	for (let i = 0; i < 10; i++) {
		const page: any = await graphql(membersQuery, { first: 1, after, membership: 'IMMEDIATE' });
		seen.push(...logins(page));
		if (!page.organization.team.members.pageInfo.hasNextPage) break;
		after = page.organization.team.members.pageInfo.endCursor;
	}
	assert.equal(seen.sort(), logins(immediate));
});

test('pull_request webhook: ready_for_review and converted_to_draft are delivered', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web', auto_init: true } });
	const hook = await s.request('POST', '/repos/acme/web/hooks', {
		token: olivia,
		body: { config: { url: receiver.url('/web'), content_type: 'json' }, events: ['pull_request'] },
	});
	assert.is(hook.status, 201, hook.text);
	const main = (await s.get('/repos/acme/web/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/acme/web/git/refs', { token: olivia, body: { ref: 'refs/heads/wip', sha: main } });
	await s.request('PUT', '/repos/acme/web/contents/wip.txt', {
		token: olivia,
		body: { message: 'wip', content: Buffer.from('wip').toString('base64'), branch: 'wip' },
	});
	const pr = await s.request('POST', '/repos/acme/web/pulls', {
		token: olivia,
		body: { title: 'Draft work', head: 'wip', base: 'main', draft: true },
	});
	assert.is(pr.status, 201, pr.text);
	await graphql('mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }', {
		id: pr.body.node_id,
	});
	await graphql('mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { pullRequest { isDraft } } }', {
		id: pr.body.node_id,
	});
	await s.app.webhooks.deliverDue();
	const actions = (r: typeof receiver.received) =>
		r.filter((x) => x.path === '/web' && x.event === 'pull_request').map((x) => x.payload.action);
	await receiver.waitFor((r) => actions(r).includes('converted_to_draft'));
	assert.equal(
		actions(receiver.received).filter((a) => a !== 'opened'),
		['ready_for_review', 'converted_to_draft'],
	);
	const ready = receiver.received.find((x) => x.payload.action === 'ready_for_review')!;
	assert.is(ready.payload.pull_request.number, pr.body.number);
	assert.is(ready.payload.pull_request.draft, false);
	assert.is(ready.headers['x-github-event'], 'pull_request');
});

test.run();
