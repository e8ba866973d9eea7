/**
 * GraphQL accounts, teams, gists, node(id:) and search served from the services the REST routes
 * call: the access edges (secret teams, private repositories, concealed memberships and members,
 * secret gists) through HTTP, and each answer equal to what its REST twin shows the same caller.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('graphql-accounts');
let s: TestServer;
/** Tokens: olivia owns acme, mike and nora are members (nora public), zed is an outsider. */
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

async function graphql(login: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
	const res = await s.request('POST', '/graphql', { token: tokens[login], body: { query, variables } });
	assert.is(res.status, 200, res.text);
	return res.body;
}
async function data(login: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
	const body = await graphql(login, query, variables);
	assert.not.ok(body.errors, JSON.stringify(body.errors));
	return body.data;
}
async function rest(login: string, path: string): Promise<any> {
	const res = await s.get(path, tokens[login]);
	assert.is(res.status, 200, `${path}: ${res.text}`);
	return res.body;
}
const names = (list: any[], key = 'name') => list.map((x) => x[key]);

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora', 'zed']) {
		s.user(login);
		tokens[login] = s.fullToken(login);
	}
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'nora');
	const publicize = await s.request('PUT', '/orgs/acme/public_members/nora', { token: tokens.nora });
	assert.is(publicize.status, 204, publicize.text);
	const team = async (body: Record<string, unknown>) => {
		const res = await s.request('POST', '/orgs/acme/teams', { token: tokens.olivia, body });
		assert.is(res.status, 201, res.text);
		return res.body;
	};
	const platform = await team({ name: 'Platform', privacy: 'closed' });
	await team({ name: 'Platform Core', privacy: 'closed', parent_team_id: platform.id });
	const vault = await team({ name: 'Vault', privacy: 'secret' });
	ids.vault = vault.node_id;
	const put = async (slug: string, login: string, role: string) => {
		const res = await s.request('PUT', `/orgs/acme/teams/${slug}/memberships/${login}`, { token: tokens.olivia, body: { role } });
		assert.is(res.status, 200, res.text);
	};
	await put('platform', 'mike', 'maintainer');
	await put('platform-core', 'nora', 'member');
	await put('vault', 'nora', 'member');
	// olivia is no member of the secret team herself: owners see it all the same.
	await s.request('DELETE', '/orgs/acme/teams/vault/memberships/olivia', { token: tokens.olivia });
	const repo = async (path: string, body: Record<string, unknown>) => {
		const res = await s.request('POST', path, { token: tokens.olivia, body });
		assert.is(res.status, 201, res.text);
		return res.body;
	};
	await repo('/user/repos', { name: 'open-book', auto_init: true });
	ids.hidden = (await repo('/user/repos', { name: 'hidden', private: true, auto_init: true })).node_id;
	await repo('/orgs/acme/repos', { name: 'web', auto_init: true });
	await repo('/orgs/acme/repos', { name: 'vault-app', private: true, has_issues: false });
	await repo('/orgs/acme/repos', { name: 'old-site' });
	const archive = await s.request('PATCH', '/repos/acme/old-site', { token: tokens.olivia, body: { archived: true } });
	assert.is(archive.status, 200, archive.text);
	const grant = await s.request('PUT', '/orgs/acme/teams/platform/repos/acme/vault-app', {
		token: tokens.olivia,
		body: { permission: 'push' },
	});
	assert.is(grant.status, 204, grant.text);
	await s.request('PUT', '/orgs/acme/teams/platform/repos/acme/web', { token: tokens.olivia, body: { permission: 'maintain' } });
	for (const [title, where] of [
		['Searchable gadget in the open', 'olivia/open-book'],
		['Searchable gadget kept hidden', 'olivia/hidden'],
	]) {
		const res = await s.request('POST', `/repos/${where}/issues`, { token: tokens.olivia, body: { title } });
		assert.is(res.status, 201, res.text);
	}
	for (const [file, isPublic] of [
		['a.txt', true],
		['b.txt', false],
		['c.txt', true],
	] as const) {
		const res = await s.request('POST', '/gists', {
			token: tokens.olivia,
			body: { public: isPublic, files: { [file]: { content: `${file} text` } } },
		});
		assert.is(res.status, 201, res.text);
		s.clock.advance(1000);
	}
});
test.after(async () => {
	await s.close();
});

const teamQuery = `query($slug: String!) { organization(login: "acme") { team(slug: $slug) { name slug privacy } } }`;

test('a secret team: invisible to a non-member through Organization.team, teams and node(id:)', async () => {
	assert.is((await data('mike', teamQuery, { slug: 'vault' })).organization.team, null);
	assert.equal((await data('nora', teamQuery, { slug: 'vault' })).organization.team, { name: 'Vault', slug: 'vault', privacy: 'SECRET' });
	assert.is((await data('olivia', teamQuery, { slug: 'vault' })).organization.team.name, 'Vault', '~> owners see every team');
	assert.is((await data('zed', teamQuery, { slug: 'platform' })).organization.team, null, '~> outsiders see no team');
	assert.is((await s.get('/orgs/acme/teams/vault', tokens.mike)).status, 404, '~> REST agrees');

	const node = `query($id: ID!) { node(id: $id) { __typename ... on Team { name } } }`;
	const hidden = await graphql('mike', node, { id: ids.vault });
	assert.is(hidden.errors?.[0]?.type, 'NOT_FOUND', JSON.stringify(hidden));
	assert.is(hidden.data.node, null);
	assert.equal((await data('nora', node, { id: ids.vault })).node, { __typename: 'Team', name: 'Vault' });

	const teams = `{ organization(login: "acme") { teams(first: 10) { totalCount nodes { slug } } } }`;
	for (const login of ['mike', 'nora', 'olivia']) {
		const listed = (await data(login, teams)).organization.teams;
		const twin = await rest(login, '/orgs/acme/teams');
		assert.equal(names(listed.nodes, 'slug'), names(twin, 'slug'), login);
		assert.is(listed.totalCount, twin.length);
	}
	assert.not.ok(names((await data('mike', teams)).organization.teams.nodes, 'slug').includes('vault'));
});

test('Team: members (ALL, IMMEDIATE, CHILD_TEAM), childTeams, parentTeam and repositories equal REST', async () => {
	const query = `query($m: TeamMembershipType) { organization(login: "acme") { team(slug: "platform") {
		organization { login }
		members(first: 10, membership: $m) { totalCount edges { role node { login } } }
		childTeams(first: 10) { totalCount nodes { slug parentTeam { slug } } }
		repositories(first: 10) { totalCount edges { permission node { nameWithOwner } } }
	} } }`;
	const team = (await data('mike', query)).organization.team;
	assert.is(team.organization.login, 'acme');
	const members = await rest('mike', '/orgs/acme/teams/platform/members');
	assert.equal(
		team.members.edges.map((e: { node: { login: string } }) => e.node.login),
		names(members, 'login'),
	);
	assert.equal(
		team.members.edges.map((e: { role: string }) => e.role),
		members.map((m: { role: string }) => m.role.toUpperCase()),
	);
	const immediate = (await data('mike', query, { m: 'IMMEDIATE' })).organization.team.members;
	assert.equal(
		immediate.edges.map((e: { node: { login: string } }) => e.node.login),
		['olivia', 'mike'].filter((login) => names(members, 'login').includes(login)),
	);
	const child = (await data('mike', query, { m: 'CHILD_TEAM' })).organization.team.members;
	assert.equal(child.edges, [{ role: 'MEMBER', node: { login: 'nora' } }]);
	assert.is(child.totalCount, 1);

	assert.equal(team.childTeams.nodes, [{ slug: 'platform-core', parentTeam: { slug: 'platform' } }]);
	assert.equal(names(await rest('mike', '/orgs/acme/teams/platform/teams'), 'slug'), ['platform-core']);

	const repos = await rest('mike', '/orgs/acme/teams/platform/repos');
	assert.equal(
		team.repositories.edges.map((e: { node: { nameWithOwner: string } }) => e.node.nameWithOwner),
		names(repos, 'full_name'),
	);
	assert.is(team.repositories.totalCount, repos.length);
	const permissions = Object.fromEntries(
		team.repositories.edges.map((e: { permission: string; node: { nameWithOwner: string } }) => [e.node.nameWithOwner, e.permission]),
	);
	assert.equal(permissions, { 'acme/vault-app': 'WRITE', 'acme/web': 'MAINTAIN' });
});

const userRepos = `query($login: String!, $privacy: RepositoryPrivacy) { user(login: $login) {
	repositories(first: 10, privacy: $privacy, orderBy: {field: NAME, direction: ASC}) { totalCount nodes { name isPrivate } }
} }`;

test('User.repositories: a private repository is absent for others, present for its owner; equal to REST', async () => {
	for (const login of ['zed', 'mike']) {
		const listed = (await data(login, userRepos, { login: 'olivia' })).user.repositories;
		assert.equal(names(listed.nodes), ['open-book'], login);
		assert.is(listed.totalCount, 1);
		assert.equal(names(await rest(login, '/users/olivia/repos?sort=full_name')), ['open-book']);
	}
	const own = (await data('olivia', userRepos, { login: 'olivia' })).user.repositories;
	assert.equal(names(own.nodes), ['hidden', 'open-book']);
	assert.equal(names(own.nodes), names(await rest('olivia', '/user/repos?affiliation=owner&sort=full_name')));
	const privateOnly = (await data('olivia', userRepos, { login: 'olivia', privacy: 'PRIVATE' })).user.repositories;
	assert.equal(privateOnly.nodes, [{ name: 'hidden', isPrivate: true }]);

	const node = `query($id: ID!) { node(id: $id) { ... on Repository { nameWithOwner } } }`;
	const hidden = await graphql('zed', node, { id: ids.hidden });
	assert.is(hidden.errors?.[0]?.type, 'NOT_FOUND');
	assert.equal((await data('olivia', node, { id: ids.hidden })).node, { nameWithOwner: 'olivia/hidden' });
});

test('Organization.repositories: what REST lists to each caller, the filters in SQL, paged by cursor', async () => {
	const query = `query($isArchived: Boolean, $hasIssues: Boolean, $after: String, $first: Int) { organization(login: "acme") {
		repositories(first: $first, after: $after, isArchived: $isArchived, hasIssuesEnabled: $hasIssues, orderBy: {field: NAME, direction: ASC}) {
			totalCount nodes { name } pageInfo { hasNextPage endCursor }
		}
	} }`;
	for (const login of ['zed', 'mike', 'olivia']) {
		const listed = (await data(login, query, { first: 10 })).organization.repositories;
		const twin = await rest(login, '/orgs/acme/repos?sort=full_name&direction=asc');
		assert.equal(names(listed.nodes), names(twin), login);
		assert.is(listed.totalCount, twin.length);
	}
	assert.equal(names((await data('zed', query, { first: 10 })).organization.repositories.nodes), ['old-site', 'web']);
	assert.equal(names((await data('olivia', query, { first: 10, isArchived: true })).organization.repositories.nodes), ['old-site']);
	assert.equal(names((await data('olivia', query, { first: 10, hasIssues: false })).organization.repositories.nodes), ['vault-app']);
	const seen: string[] = [];
	let after: string | null = null;
	for (let i = 0; i < 5; i++) {
		const page: { nodes: Array<{ name: string }>; totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string } } = (
			await data('olivia', query, { first: 1, after })
		).organization.repositories;
		seen.push(...names(page.nodes));
		assert.is(page.totalCount, 3);
		if (!page.pageInfo.hasNextPage) break;
		after = page.pageInfo.endCursor;
	}
	assert.equal(seen, ['old-site', 'vault-app', 'web']);
});

test('Organization.membersWithRole: an outsider sees the public members, a member every member with its role', async () => {
	const query = `{ organization(login: "acme") { membersWithRole(first: 10) { totalCount edges { role node { login } } } } }`;
	const outsider = (await data('zed', query)).organization.membersWithRole;
	assert.equal(outsider.edges, [{ role: 'MEMBER', node: { login: 'nora' } }]);
	assert.is(outsider.totalCount, 1);
	assert.equal(names(await rest('zed', '/orgs/acme/members'), 'login'), ['nora']);
	const member = (await data('mike', query)).organization.membersWithRole;
	assert.equal(
		member.edges.map((e: { node: { login: string } }) => e.node.login),
		names(await rest('mike', '/orgs/acme/members'), 'login'),
	);
	assert.equal(
		member.edges.map((e: { role: string; node: { login: string } }) => `${e.node.login}:${e.role}`),
		['olivia:ADMIN', 'mike:MEMBER', 'nora:MEMBER'],
	);
});

test('User.organizations: concealed memberships only to the user; profiles equal REST', async () => {
	const query = `query($login: String!) { user(login: $login) { login name createdAt organizations(first: 5) { totalCount nodes { login } } } }`;
	assert.equal((await data('zed', query, { login: 'mike' })).user.organizations, { totalCount: 0, nodes: [] });
	assert.equal(await rest('zed', '/users/mike/orgs'), []);
	const own = (await data('mike', query, { login: 'mike' })).user;
	assert.equal(own.organizations.nodes, [{ login: 'acme' }]);
	assert.equal(names(await rest('mike', '/user/orgs'), 'login'), ['acme']);
	assert.equal((await data('zed', query, { login: 'nora' })).user.organizations.nodes, [{ login: 'acme' }], '~> a public membership');
	const profile = await rest('zed', '/users/mike');
	assert.is(own.createdAt, profile.created_at);

	const org = (
		await data('zed', `{ organization(login: "acme") { login url databaseId } repositoryOwner(login: "acme") { __typename } }`)
	).organization;
	const twin = await rest('zed', '/orgs/acme');
	assert.equal(org, { login: 'acme', url: twin.html_url, databaseId: twin.id });
	const notUser = await graphql('zed', '{ user(login: "acme") { login } }');
	assert.is(notUser.errors?.[0]?.type, 'NOT_FOUND');
	const node = await data('zed', `query($id: ID!) { node(id: $id) { __typename ... on Organization { login } } }`, {
		id: twin.node_id,
	});
	assert.equal(node.node, { __typename: 'Organization', login: 'acme' });
});

test('User.gists: secret gists for their owner only; privacy and order in SQL', async () => {
	const query = `query($privacy: GistPrivacy, $direction: OrderDirection!) { user(login: "olivia") {
		gists(first: 10, privacy: $privacy, orderBy: {field: CREATED_AT, direction: $direction}) {
			totalCount nodes { isPublic files { name text } }
		}
	} }`;
	const files = (list: Array<{ files: Array<{ name: string }> }>) => list.map((g) => g.files[0].name);
	const all = (await data('olivia', query, { privacy: 'ALL', direction: 'ASC' })).user.gists;
	assert.equal(files(all.nodes), ['a.txt', 'b.txt', 'c.txt']);
	assert.is(all.nodes[0].files[0].text, 'a.txt text');
	assert.equal(files((await data('olivia', query, { privacy: 'SECRET', direction: 'ASC' })).user.gists.nodes), ['b.txt']);
	assert.equal(files((await data('olivia', query, { direction: 'DESC' })).user.gists.nodes), ['c.txt', 'a.txt']);
	const others = (await data('zed', query, { privacy: 'ALL', direction: 'ASC' })).user.gists;
	assert.equal(files(others.nodes), ['a.txt', 'c.txt']);
	assert.is(others.totalCount, (await rest('zed', '/users/olivia/gists')).length);
	assert.is((await data('zed', query, { privacy: 'SECRET', direction: 'ASC' })).user.gists.totalCount, 0);
});

test('search: ISSUE and REPOSITORY leave out what the caller may not read, as GET /search does', async () => {
	const query = `query($q: String!, $type: SearchType!) { search(query: $q, type: $type, first: 10) {
		issueCount repositoryCount nodes { ... on Issue { title } ... on Repository { nameWithOwner } }
	} }`;
	const outsider = (await data('zed', query, { q: 'Searchable gadget', type: 'ISSUE' })).search;
	assert.equal(names(outsider.nodes, 'title'), ['Searchable gadget in the open']);
	assert.is(outsider.issueCount, (await rest('zed', '/search/issues?q=Searchable%20gadget')).total_count);
	const owner = (await data('olivia', query, { q: 'Searchable gadget', type: 'ISSUE' })).search;
	assert.is(owner.issueCount, 2);
	assert.equal(
		names(owner.nodes, 'title').sort(),
		names((await rest('olivia', '/search/issues?q=Searchable%20gadget')).items, 'title').sort(),
	);
	const repos = (await data('zed', query, { q: 'user:olivia', type: 'REPOSITORY' })).search;
	assert.equal(names(repos.nodes, 'nameWithOwner'), ['olivia/open-book']);
	assert.is(repos.repositoryCount, (await rest('zed', '/search/repositories?q=user:olivia')).total_count);
});

test.run();
