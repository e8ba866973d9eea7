/**
 * Organization members and memberships (https://docs.github.com/en/rest/orgs/members), organizations
 * and users over real HTTP.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('members');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;

test.before(async () => {
	// Anonymous requests are many in the repository list comparison: lift their rate limit.
	s = await startServer({ configure: (c) => (c.rate_limit.limits.core_unauthenticated = 100_000) });
	for (const login of ['olivia', 'mike', 'nina', 'oscar', 'pat']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'nina');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('oscar');
});
test.after(() => s.close());

test('users – GET /user and /users/{username}', async () => {
	const me = await s.get('/user', member);
	assert.is(me.status, 200);
	assert.is(me.body.login, 'mike');
	assert.is(me.body.type, 'User');
	assert.is(me.body.site_admin, false);
	assert.is(me.body.two_factor_authentication, false);
	assert.is((await s.get('/user')).status, 401, '~> /user needs authentication');
	const other = await s.get('/users/NINA');
	assert.is(other.status, 200, '~> logins are case-insensitive');
	assert.is(other.body.login, 'nina');
	assert.is(other.body.total_private_repos, undefined, '~> private counts only on /user');
	const org = await s.get('/users/acme');
	assert.is(org.body.type, 'Organization');
	assert.is((await s.get('/users/ghost')).status, 404);
	const bad = await s.get('/user', 'ghp_notatokenatallnotatokenatallnotatoken');
	assert.is(bad.status, 401);
	assert.is(bad.body.message, 'Bad credentials');
});

test('organizations – GET /orgs/{org}: public view vs members vs owners', async () => {
	const anon = await s.get('/orgs/Acme');
	assert.is(anon.status, 200, '~> organization names are case-insensitive');
	assert.is(anon.body.login, 'acme');
	assert.is(anon.body.type, 'Organization');
	assert.is(anon.body.members_url, `${s.api}/orgs/acme/members{/member}`);
	assert.is(anon.body.default_repository_permission, undefined, '~> settings are not public');
	const asMember = await s.get('/orgs/acme', member);
	assert.is(asMember.body.default_repository_permission, 'read');
	assert.is(asMember.body.billing_email, undefined);
	const asOwner = await s.get('/orgs/acme', owner);
	assert.ok('billing_email' in asOwner.body);
	assert.is((await s.get('/orgs/nope')).status, 404);
});

test('organizations – PATCH by owners only, validated', async () => {
	const res = await s.request('PATCH', '/orgs/acme', {
		token: owner,
		body: { name: 'Acme Corp', description: 'Makers', billing_email: 'b@acme.test' },
	});
	assert.is(res.status, 200);
	assert.is(res.body.name, 'Acme Corp');
	assert.is(res.body.billing_email, 'b@acme.test');
	assert.is((await s.request('PATCH', '/orgs/acme', { token: member, body: { name: 'x' } })).status, 403);
	assert.is((await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'root' } })).status, 422);
	const fg = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } });
	const denied = await s.request('PATCH', '/orgs/acme', { token: fg, body: { name: 'x' } });
	assert.is(denied.status, 403);
	assert.is(denied.headers.get('x-accepted-github-permissions'), 'organization_administration=write');
});

test('organizations – lists for the user and for everyone', async () => {
	const mine = await s.get('/user/orgs', member);
	assert.equal(
		mine.body.map((o: any) => o.login),
		['acme'],
	);
	const pub = await s.get('/users/mike/orgs');
	assert.equal(pub.body, [], '~> concealed memberships are not public');
	const all = await s.get('/organizations');
	assert.ok(all.body.some((o: any) => o.login === 'acme'));
});

test('members – members see concealed members, others see public members only', async () => {
	const asMember = await s.get('/orgs/acme/members', member);
	assert.is(asMember.status, 200);
	assert.equal(asMember.body.map((m: any) => m.login).sort(), ['mike', 'nina', 'olivia']);
	assert.equal((await s.get('/orgs/acme/members')).body, []);
	assert.equal((await s.get('/orgs/acme/members', outsider)).body, []);
	const admins = await s.get('/orgs/acme/members?role=admin', member);
	assert.equal(
		admins.body.map((m: any) => m.login),
		['olivia'],
	);
	assert.equal((await s.get('/orgs/acme/members?filter=2fa_insecure', member)).body, []);
	assert.is((await s.get('/orgs/acme/members?role=boss', member)).status, 422);
});

test('public members – publicize and conceal your own membership only', async () => {
	assert.is((await s.request('PUT', '/orgs/acme/public_members/mike', { token: member })).status, 204);
	assert.is((await s.request('PUT', '/orgs/acme/public_members/nina', { token: member })).status, 403);
	assert.is((await s.request('PUT', '/orgs/acme/public_members/oscar', { token: outsider })).status, 403);
	assert.equal(
		(await s.get('/orgs/acme/public_members')).body.map((m: any) => m.login),
		['mike'],
	);
	assert.equal(
		(await s.get('/orgs/acme/members')).body.map((m: any) => m.login),
		['mike'],
	);
	assert.is((await s.get('/orgs/acme/public_members/mike')).status, 204);
	assert.is((await s.get('/orgs/acme/public_members/nina')).status, 404);
	assert.equal(
		(await s.get('/users/mike/orgs')).body.map((o: any) => o.login),
		['acme'],
	);
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { members: 'write' } });
	assert.is((await s.request('PUT', '/orgs/acme/public_members/mike', { token: app })).status, 403, '~> not for installation tokens');
	assert.is((await s.request('DELETE', '/orgs/acme/public_members/mike', { token: member })).status, 204);
	assert.is((await s.get('/orgs/acme/public_members/mike')).status, 404);
});

test('members – membership check: 204, 404, 302 for non-members', async () => {
	assert.is((await s.get('/orgs/acme/members/nina', member)).status, 204);
	assert.is((await s.get('/orgs/acme/members/oscar', member)).status, 404);
	const redirect = await s.get('/orgs/acme/members/nina', outsider);
	assert.is(redirect.status, 302);
	assert.is(redirect.headers.get('location'), `${s.api}/orgs/acme/public_members/nina`);
});

test('memberships – owners invite; the user accepts', async () => {
	const invite = await s.request('PUT', '/orgs/acme/memberships/pat', { token: owner, body: { role: 'member' } });
	assert.is(invite.status, 200);
	assert.is(invite.body.state, 'pending');
	assert.is(invite.body.role, 'member');
	assert.is(invite.body.url, `${s.api}/orgs/acme/memberships/pat`);
	assert.is(invite.body.organization.login, 'acme');
	assert.is(invite.body.user.login, 'pat');
	assert.is((await s.get('/orgs/acme/members/pat', member)).status, 404, '~> pending is not a member yet');
	const pat = s.fullToken('pat');
	const pending = await s.get('/user/memberships/orgs?state=pending', pat);
	assert.equal(
		pending.body.map((m: any) => m.organization.login),
		['acme'],
	);
	const own = await s.get('/orgs/acme/memberships/pat', pat);
	assert.is(own.status, 200, '~> invitees may read their own membership');
	const badState = await s.request('PATCH', '/user/memberships/orgs/acme', { token: pat, body: { state: 'pending' } });
	assert.is(badState.status, 422);
	const accept = await s.request('PATCH', '/user/memberships/orgs/acme', { token: pat, body: { state: 'active' } });
	assert.is(accept.status, 200);
	assert.is(accept.body.state, 'active');
	assert.is((await s.get('/orgs/acme/members/pat', member)).status, 204);
	assert.is((await s.get('/user/memberships/orgs/acme', pat)).body.state, 'active');
	assert.is((await s.get('/user/memberships/orgs/nope', pat)).status, 404);
});

test('memberships – role changes, denials, last owner', async () => {
	assert.is((await s.request('PUT', '/orgs/acme/memberships/pat', { token: member, body: { role: 'admin' } })).status, 403);
	assert.is((await s.get('/orgs/acme/memberships/nina', outsider)).status, 403);
	assert.is((await s.get('/orgs/acme/memberships/oscar', owner)).status, 404);
	const demoteLast = await s.request('PUT', '/orgs/acme/memberships/olivia', { token: owner, body: { role: 'member' } });
	assert.is(demoteLast.status, 403);
	assert.match(demoteLast.body.message, 'last owner');
	const removeLast = await s.request('DELETE', '/orgs/acme/memberships/olivia', { token: owner });
	assert.is(removeLast.status, 403);
	const promote = await s.request('PUT', '/orgs/acme/memberships/nina', { token: owner, body: { role: 'admin' } });
	assert.is(promote.body.role, 'admin');
	const demote = await s.request('PUT', '/orgs/acme/memberships/olivia', { token: owner, body: { role: 'member' } });
	assert.is(demote.status, 200, '~> with a second owner, demotion is allowed');
	assert.is(demote.body.role, 'member');
	const restore = await s.request('PUT', '/orgs/acme/memberships/olivia', { token: s.fullToken('nina'), body: { role: 'admin' } });
	assert.is(restore.body.role, 'admin');
	assert.is((await s.request('PUT', '/orgs/acme/memberships/acme', { token: owner, body: {} })).status, 404);
});

test('members – removal takes teams and repository access away', async () => {
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'secret-repo', private: true } });
	await s.request('POST', '/orgs/acme/teams', {
		token: owner,
		body: { name: 'Crew', privacy: 'closed', maintainers: ['pat'], repo_names: ['acme/secret-repo'] },
	});
	const pat = s.fullToken('pat');
	assert.is((await s.get('/repos/acme/secret-repo', pat)).status, 200);
	assert.is((await s.request('DELETE', '/orgs/acme/members/pat', { token: member })).status, 403);
	assert.is((await s.request('DELETE', '/orgs/acme/members/pat', { token: owner })).status, 204);
	assert.is((await s.get('/orgs/acme/teams/crew/memberships/pat', owner)).status, 404);
	assert.is((await s.get('/repos/acme/secret-repo', pat)).status, 404, '~> private repositories are hidden again');
	assert.is((await s.request('DELETE', '/orgs/acme/members/pat', { token: owner })).status, 404);
	assert.is(
		(await s.request('DELETE', '/orgs/acme/memberships/nina', { token: owner })).status,
		204,
		'~> an owner can be removed when another remains',
	);
});

test('tokens bound to one organization – no self-service in other organizations (code review)', async () => {
	for (const login of ['alice', 'bert']) s.user(login);
	s.org('beta', 'bert');
	s.member('acme', 'alice');
	s.member('beta', 'alice');
	const acmeOnly = s.token('alice', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } });
	const read = await s.get('/orgs/beta/memberships/alice', acmeOnly);
	assert.is(read.status, 403, '~> a token for acme does not read memberships in beta');
	assert.is((await s.get('/orgs/acme/memberships/alice', acmeOnly)).status, 200, '~> it does in acme');
	for (const path of ['/orgs/beta/members/alice', '/orgs/beta/memberships/alice']) {
		assert.is((await s.request('DELETE', path, { token: acmeOnly })).status, 403, `~> DELETE ${path}`);
	}
	assert.is((await s.get('/orgs/beta/members/alice', s.fullToken('bert'))).status, 204, '~> alice is still a member of beta');
	const publicize = await s.request('PUT', '/orgs/beta/public_members/alice', { token: acmeOnly });
	assert.is(publicize.status, 403);
	assert.is(publicize.body.message, 'Resource not accessible by personal access token');
	assert.is((await s.request('PUT', '/orgs/acme/public_members/alice', { token: acmeOnly })).status, 204);
	await s.request('DELETE', '/orgs/acme/public_members/alice', { token: acmeOnly });
	const mine = await s.get('/user/memberships/orgs/beta', acmeOnly);
	assert.is(mine.status, 403);
	assert.is(mine.body.message, 'Resource not accessible by personal access token');
	assert.is((await s.get('/user/memberships/orgs/acme', acmeOnly)).status, 200);
	const list = await s.get('/user/memberships/orgs', acmeOnly);
	assert.equal(
		list.body.map((m: any) => m.organization.login),
		['acme'],
		'~> lists only the organization the token reaches',
	);
	const orgs = await s.get('/user/orgs', acmeOnly);
	assert.equal(
		orgs.body.map((o: any) => o.login),
		['acme'],
	);
	const all = await s.get('/user/memberships/orgs', s.fullToken('alice'));
	assert.equal(all.body.map((m: any) => m.organization.login).sort(), ['acme', 'beta'], '~> a classic token lists every membership');
	// A user-to-server token for acme cannot accept an invitation to beta.
	s.user('carol');
	s.member('acme', 'carol');
	await s.request('PUT', '/orgs/beta/memberships/carol', { token: s.fullToken('bert'), body: { role: 'admin' } });
	const uts = s.token('carol', { kind: 'user-to-server', org: 'acme', permissions: { members: 'write' } });
	const accept = await s.request('PATCH', '/user/memberships/orgs/beta', { token: uts, body: { state: 'active' } });
	assert.is(accept.status, 403);
	assert.is(accept.body.message, 'Resource not accessible by integration');
	assert.is(
		(await s.request('PATCH', '/user/memberships/orgs/acme', { token: uts, body: { state: 'active' } })).status,
		200,
		'~> acme it reaches',
	);
	const still = await s.get('/orgs/beta/memberships/carol', s.fullToken('bert'));
	assert.is(still.body.state, 'pending', '~> the invitation is still pending');
});

// ---------------------------------------------------------------------------------------------
// GET /orgs/{org}/repos computes the caller's permissions with a constant number of queries; it
// must list exactly what GET /repos/{owner}/{repo} shows each caller (code review).

const FARM = ['src', 'docs', 'vault', 'inner', 'shared', 'Zeta', 'alpha', 'src-fork'];

/** Organization repofarm: repositories of every visibility, a fork, team and collaborator grants. */
async function repofarm(): Promise<Record<string, string | undefined>> {
	for (const login of ['rfowner', 'rfmember', 'rfteam', 'rfchild', 'rfcollab', 'rfnone']) s.user(login);
	s.org('repofarm', 'rfowner');
	for (const login of ['rfmember', 'rfteam', 'rfchild']) s.member('repofarm', login);
	const own = s.fullToken('rfowner');
	const create = async (name: string, visibility: string) => {
		const res = await s.request('POST', '/orgs/repofarm/repos', { token: own, body: { name, visibility } });
		assert.is(res.status, 201);
	};
	await create('src', 'public');
	await create('docs', 'public'); // same second as src: ties are broken by id
	s.clock.advance(2000);
	await create('vault', 'private');
	await create('inner', 'internal');
	s.clock.advance(2000);
	await create('shared', 'private');
	await create('Zeta', 'private');
	s.clock.advance(2000);
	await create('alpha', 'public');
	assert.is(
		(await s.request('POST', '/repos/repofarm/src/forks', { token: own, body: { organization: 'repofarm', name: 'src-fork' } })).status,
		202,
	);
	// Grants: a parent team (inherited by its child team) and a direct collaborator.
	const parent = await s.request('POST', '/orgs/repofarm/teams', {
		token: own,
		body: { name: 'Vaulters', privacy: 'closed', maintainers: ['rfteam'] },
	});
	await s.request('POST', '/orgs/repofarm/teams', {
		token: own,
		body: { name: 'Juniors', parent_team_id: parent.body.id, maintainers: ['rfchild'] },
	});
	await s.request('PUT', '/orgs/repofarm/teams/vaulters/repos/repofarm/vault', { token: own, body: { permission: 'push' } });
	await s.request('PUT', '/orgs/repofarm/teams/juniors/repos/repofarm/Zeta', { token: own, body: { permission: 'maintain' } });
	const farm = s.app.stores.accounts.organization('repofarm')!;
	const shared = s.app.stores.repos.byOwnerAndName(farm.id, 'shared')!;
	s.app.stores.repos.setCollaborator(shared.id, s.app.stores.accounts.user('rfcollab')!.id, 'triage', '2026-11-22T12:00:00Z');
	s.app.stores.repos.setCollaborator(shared.id, s.app.stores.accounts.user('rfmember')!.id, 'admin', '2026-11-22T12:00:00Z');
	return {
		anonymous: undefined,
		owner: own,
		ownerPublicRepo: s.token('rfowner', { scopes: ['public_repo', 'read:org'] }),
		member: s.fullToken('rfmember'),
		team: s.fullToken('rfteam'),
		child: s.fullToken('rfchild'),
		collaborator: s.fullToken('rfcollab'),
		stranger: s.fullToken('rfnone'),
		bound: s.token('rfchild', { kind: 'fine-grained', org: 'repofarm', permissions: { metadata: 'read' } }),
		boundElsewhere: s.token('rfmember', { kind: 'fine-grained', permissions: { metadata: 'read' } }),
		installation: s.token('rfowner', { kind: 'installation', org: 'repofarm', permissions: { metadata: 'read' } }),
	};
}

/** Every item of a list, walking its pages of 3; checks the Link header's last page. */
async function walk(path: string, token: string | undefined, expected: number): Promise<any[]> {
	const out: any[] = [];
	for (let page = 1; ; page++) {
		const res = await s.get(`${path}${path.includes('?') ? '&' : '?'}per_page=3&page=${page}`, token);
		assert.is(res.status, 200);
		if (page === 1 && expected > 3) assert.match(res.headers.get('link') ?? '', `page=${Math.ceil(expected / 3)}>; rel="last"`);
		out.push(...res.body);
		if (res.body.length < 3) return out;
	}
}

/** A repository record without what only GitHub's full form (GET /repos/{owner}/{repo}) carries. */
function listForm(repo: any) {
	const { organization: _o, parent: _p, source: _s, network_count: _n, temp_clone_token: _t, ...rest } = repo;
	return rest;
}

test('organization repositories – the list shows each caller exactly what GET /repos shows, in order (code review)', async () => {
	const callers = await repofarm();
	const key = (repo: any, sort: string) =>
		sort === 'full_name'
			? repo.name.toLowerCase()
			: sort === 'updated'
				? repo.updated_at
				: sort === 'pushed'
					? (repo.pushed_at ?? '')
					: repo.created_at;
	const types: Record<string, (repo: any) => boolean> = {
		all: () => true,
		member: () => true,
		public: (repo) => !repo.private,
		private: (repo) => repo.private,
		forks: (repo) => repo.fork,
		sources: (repo) => !repo.fork,
	};
	const queries: Array<[string, string, string | undefined]> = [
		...Object.keys(types).map((type): [string, string, string | undefined] => [type, 'created', undefined]),
		...['created', 'updated', 'pushed', 'full_name'].flatMap((sort) =>
			[undefined, 'asc', 'desc'].map((direction): [string, string, string | undefined] => ['all', sort, direction]),
		),
	];
	for (const base of ['read', 'none']) {
		await s.request('PATCH', '/orgs/repofarm', { token: callers.owner, body: { default_repository_permission: base } });
		for (const [who, token] of Object.entries(callers)) {
			const seen: any[] = [];
			for (const name of FARM) {
				const one = await s.get(`/repos/repofarm/${name}`, token);
				if (one.status === 200) seen.push(listForm(one.body));
				else assert.is(one.status, 404, `~> ${who} ${name} ${one.text}`);
			}
			for (const [type, sort, direction] of queries) {
				const up = (direction ?? (sort === 'full_name' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
				const expected = seen
					.filter(types[type])
					.sort((a, b) => (key(a, sort) < key(b, sort) ? -1 : key(a, sort) > key(b, sort) ? 1 : a.id - b.id) * up);
				const query = `type=${type}&sort=${sort}${direction ? `&direction=${direction}` : ''}`;
				const list = (await walk(`/orgs/repofarm/repos?${query}`, token, expected.length)).map(listForm);
				assert.equal(list, expected, `~> ${who} (base ${base}) ${query}`);
			}
		}
	}
	// A few facts the comparison relies on.
	await s.request('PATCH', '/orgs/repofarm', { token: callers.owner, body: { default_repository_permission: 'none' } });
	const names = async (token: string | undefined) =>
		(await s.get('/orgs/repofarm/repos?per_page=100&sort=full_name', token)).body.map((r: any) => r.name);
	assert.equal(
		await names(callers.child),
		['alpha', 'docs', 'inner', 'src', 'src-fork', 'vault', 'Zeta'],
		'~> inherited and own team grants',
	);
	assert.equal(await names(callers.collaborator), ['alpha', 'docs', 'shared', 'src', 'src-fork']);
	assert.equal(await names(callers.anonymous), ['alpha', 'docs', 'src', 'src-fork']);
	assert.equal((await s.get('/orgs/repofarm/repos?type=private', callers.ownerPublicRepo)).body, []);
	await s.request('PATCH', '/orgs/repofarm', { token: callers.owner, body: { default_repository_permission: 'read' } });
});

test('organization repositories – a constant number of permission queries, whatever the number of repositories (code review)', async () => {
	const { stores } = s.app;
	const own = s.fullToken('rfowner');
	for (let i = 0; i < 20; i++)
		await s.request('POST', '/orgs/repofarm/repos', { token: own, body: { name: `bulk-${i}`, private: i % 2 === 0 } });
	const counts = { membership: 0, collaborator: 0, teams: 0 };
	const original = {
		get: stores.memberships.get,
		collaboratorPermission: stores.repos.collaboratorPermission,
		teamPermissions: stores.repos.teamPermissions,
	};
	stores.memberships.get = (...args) => {
		counts.membership++;
		return original.get(...args);
	};
	stores.repos.collaboratorPermission = (...args) => {
		counts.collaborator++;
		return original.collaboratorPermission(...args);
	};
	stores.repos.teamPermissions = (...args) => {
		counts.teams++;
		return original.teamPermissions(...args);
	};
	try {
		await s.request('PATCH', '/orgs/repofarm', { token: own, body: { default_repository_permission: 'none' } });
		for (const token of [s.fullToken('rfchild'), s.fullToken('rfcollab'), s.fullToken('rfmember'), own]) {
			Object.assign(counts, { membership: 0, collaborator: 0, teams: 0 });
			const res = await s.get('/orgs/repofarm/repos?per_page=100', token);
			assert.is(res.status, 200);
			assert.ok(res.body.length >= 5);
			assert.ok(counts.membership <= 1, `~> membership read once, not per repository (${counts.membership})`);
			assert.is(counts.collaborator, 0, '~> collaborator rows read in one query');
			assert.is(counts.teams, 0, '~> team grants read in one query');
		}
	} finally {
		Object.assign(stores.memberships, { get: original.get });
		Object.assign(stores.repos, { collaboratorPermission: original.collaboratorPermission, teamPermissions: original.teamPermissions });
		await s.request('PATCH', '/orgs/repofarm', { token: own, body: { default_repository_permission: 'read' } });
	}
});

test.run();
