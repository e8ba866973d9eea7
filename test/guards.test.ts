/**
 * Access declared in the route table (src/http/guards.ts): every route names the resource it guards
 * (or 'none'), the declarations agree with the path and with the spec's permission matrix, and a
 * walk of every route × every kind of token gets exactly what the declaration says. Also the
 * existence oracles: what a caller may not see answers exactly like what does not exist.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PERMISSION_KEYS, type GrantedPermissions, type PermissionKey } from '../src/auth/permissions';
import { MESSAGES } from '../src/http/errors';
import type { Route } from '../src/http/route';
import { buildRoutes } from '../src/server';
import { startServer, type TestServer } from './helpers/server';

const test = suite('guards');
const routes = buildRoutes();
let s: TestServer;
let params: Record<string, string>;

const paramsOf = (path: string) => [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
/** Routes only an app calls with its JWT: they reach the app's own installations, no resource. */
const appOnly = (route: Route) => [...route.tokenKinds].every((kind) => kind === 'app');

test('every route declares the resource it guards, or none', () => {
	for (const route of routes) {
		const id = `${route.method} ${route.path}`;
		const names = paramsOf(route.path);
		const guard = route.guard;
		assert.ok(route.resource === 'none' || typeof route.resource === 'object', `~> ${id} declares its resource`);
		if (names.includes('owner') && names.includes('repo')) assert.ok(guard?.repo || appOnly(route), `~> ${id} guards its repository`);
		if (names.includes('team_slug') || names.includes('team_id')) assert.ok(guard?.team, `~> ${id} guards its team`);
		if (names.includes('org') && !names.includes('team_slug'))
			assert.ok(guard?.org || appOnly(route), `~> ${id} guards its organization`);
		if (names.includes('enterprise')) assert.ok(guard?.enterprise, `~> ${id} guards its enterprise`);
		if (names.includes('gist_id')) assert.ok(guard?.gist, `~> ${id} guards its gist`);
		if (route.path === '/user' || route.path.startsWith('/user/')) assert.ok(guard?.self, `~> ${id} is about the authenticated user`);
		if (route.resource === 'none') {
			// Public profiles, discovery, the site itself (site administrators), an app's own installations.
			const reason =
				route.access === 'site_admin' ||
				appOnly(route) ||
				route.tokenKinds.size === 1 ||
				names.every((name) => ['username', 'guid'].includes(name)) ||
				// GitHub's public catalogues (gitignore templates, licenses): the parameter names an entry of a fixed list.
				route.path.startsWith('/gitignore/') ||
				route.path.startsWith('/licenses/');
			assert.ok(reason, `~> ${id} guards nothing and says why`);
		}
	}
});

test('declarations agree with the permission each route needs: repository permissions guard a repository, organization ones an organization', () => {
	const creation = new Set(['POST /orgs/{org}/repos', 'POST /user/repos']);
	for (const route of routes) {
		const id = `${route.method} ${route.path}`;
		const targets = new Set(
			route.policy.flatMap((set) =>
				Object.keys(set)
					.filter((key) => key !== 'metadata')
					.map((key) => PERMISSION_KEYS[key as PermissionKey].target),
			),
		);
		const guard = route.guard;
		// Creating a repository guards where it is created; an organization's lists span its repositories.
		const orgList = route.method === 'GET' && route.path.startsWith('/orgs/{org}/') && guard?.org;
		if (targets.has('repository') && !creation.has(id) && !orgList) {
			assert.ok(guard?.repo, `~> ${id} needs a repository permission, so guards a repository`);
		}
		if (targets.has('organization'))
			assert.ok(guard?.org || guard?.team, `~> ${id} needs an organization permission, so guards an organization`);
		if (targets.has('enterprise')) assert.ok(guard?.enterprise, `~> ${id} needs an enterprise permission, so guards an enterprise`);
		// A user permission is the authenticated user's (or a gist's); the public lists of another
		// user's stars and watched repositories take one too (Starring, Watching): without it the
		// caller gets the public view.
		const userList = route.access === 'public' && !guard && paramsOf(route.path).includes('username');
		if (targets.has('user')) assert.ok(guard?.gist || guard?.self || userList, `~> ${id} needs a user permission`);
	}
});

// ------------------------------------------------------------------------------------------
// Over HTTP

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora', 'oscar']) s.user(login, { siteAdmin: login === 'olivia' });
	s.enterprise('bigco', 'olivia');
	s.org('acme', 'olivia', { enterprise: 'bigco' });
	s.org('other', 'oscar');
	s.member('acme', 'mike');
	s.member('other', 'olivia');
	const owner = s.fullToken('olivia');
	await s.request('PATCH', '/orgs/acme', { token: owner, body: { default_repository_permission: 'none' } });
	// auto_init: a first commit with a README (GET …/readme answers it).
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app', auto_init: true } });
	// A LICENSE file (GET …/license answers it).
	await s.request('PUT', '/repos/acme/app/contents/LICENSE', {
		token: owner,
		body: { message: 'License', content: Buffer.from('Permission is hereby granted, free of charge').toString('base64') },
	});
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'vault', private: true } });
	await s.request('POST', '/orgs/other/repos', { token: s.fullToken('oscar'), body: { name: 'site' } });
	const crew = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Crew', privacy: 'closed' } });
	await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Hidden', privacy: 'secret' } });
	await s.request('PUT', '/orgs/acme/teams/crew/repos/acme/app', { token: owner, body: { permission: 'push' } });
	const gist = await s.request('POST', '/gists', { token: owner, body: { files: { 'a.txt': { content: 'a' } } } });
	// A star to check (GET /user/starred/{owner}/{repo} answers 404 for a repository not starred,
	// and GET /gists/{gist_id}/star for a gist not starred).
	await s.request('PUT', '/user/starred/acme/app', { token: owner });
	await s.request('PUT', `/gists/${gist.body.id}/star`, { token: owner });
	const acme = s.app.stores.accounts.organization('acme')!;
	// A published release, so GET …/releases/latest has one to show.
	const app = s.app.stores.repos.byOwnerAndName(acme.id, 'app')!;
	const at = '2026-11-22T12:00:00Z';
	const row = { repo_id: app.id, tag_name: 'v1', target_commitish: 'main', name: null, body: null, draft: 0, prerelease: 0 };
	s.app.stores.releases.insert({ ...row, make_latest: 'true', author_id: null, created_at: at, published_at: at });
	params = {
		org: 'acme',
		owner: 'acme',
		repo: 'app',
		team_slug: 'crew',
		team_id: String(crew.body.id),
		org_id: String(acme.id),
		username: 'mike',
		enterprise: 'bigco',
		gist_id: gist.body.id,
		// No installation: DELETE …/installations/{installation_id} would uninstall the test app, whose tokens the walk uses.
		installation_id: '999999',
	};
});
test.after(() => s.close());

function concrete(path: string, overrides: Record<string, string> = {}): string {
	return path.replace(/\{([a-z_]+)\}|\*\??$/g, (_whole, name?: string) => {
		if (!name) return 'heads/main';
		return encodeURIComponent(overrides[name] ?? params[name] ?? '1');
	});
}

/** Path parameters that name the guarded resource itself (the others name objects inside it). */
const GUARDED = ['org', 'owner', 'repo', 'team_slug', 'team_id', 'org_id', 'enterprise', 'gist_id'];
const REFUSALS = [MESSAGES.byPersonalAccessToken, MESSAGES.byIntegration, MESSAGES.requiresAuthentication];
/** A refusal by authentication, the route policy or the guard (not by the handler's own rules). */
function refusedByAccess(message: unknown): boolean {
	if (typeof message !== 'string') return false;
	return REFUSALS.includes(message as never) || /^(Your token has not been granted|You must be|Must have)/.test(message);
}

/** Bodies where an empty one would aim elsewhere (a fork goes to the caller's own account by default). */
const BODIES: Record<string, unknown> = { 'POST /repos/{owner}/{repo}/forks': { organization: 'acme', name: 'app-fork' } };

function bodyFor(route: Route) {
	if (route.method === 'GET' || route.method === 'DELETE') return undefined;
	return BODIES[`${route.method} ${route.path}`] ?? {};
}

/** The permissions of a route's first alternative (a token that holds what the route needs). */
function needed(route: Route): GrantedPermissions {
	return { ...(route.policy[0] ?? {}) };
}

/** What a token bound to another account ('other') may still do on acme's resources: read what is public. */
function foreignAllowed(route: Route): boolean {
	const guard = route.guard;
	if (!guard) return true;
	if (guard.team || guard.enterprise || guard.bound) return false;
	if (guard.self && !guard.repo && !guard.org) return true;
	const write = route.method !== 'GET' && !guard.readOnly;
	if (guard.org && (write || guard.org !== 'read')) return false;
	if (guard.repo && (write || guard.repo !== 'read')) return false;
	return true;
}

/** Routes that destroy their organization (DELETE /orgs/{org}): walked on a fresh organization per request. */
const DESTRUCTIVE = new Set(['DELETE /orgs/{org}']);
let scratch = 0;

/** A fresh organization owned by olivia. @returns its login */
function freshOrg(): string {
	const login = `scratch-${++scratch}`;
	s.org(login, 'olivia');
	return login;
}

/** The walk of a destructive route: each request on an organization of its own, the same checks otherwise. */
async function walkDestructive(route: Route): Promise<void> {
	const id = `${route.method} ${route.path}`;
	const at = (org: string) => concrete(route.path, { org });
	assert.is((await s.request(route.method, at(freshOrg()))).status, 401, `~> ${id} anonymous: 401`);
	const kinds: Array<[string, (org: string) => string]> = [
		['classic', () => s.fullToken('olivia')],
		['oauth', () => s.token('olivia', { kind: 'oauth', scopes: ['admin:org'] })],
		['fine-grained', (org) => s.token('olivia', { kind: 'fine-grained', org, permissions: needed(route) })],
		['user-to-server', (org) => s.token('olivia', { kind: 'user-to-server', org, permissions: needed(route) })],
		['installation', (org) => s.token('olivia', { kind: 'installation', org, permissions: needed(route) })],
	];
	for (const [kind, make] of kinds) {
		const org = freshOrg();
		const res = await s.request(route.method, at(org), { token: make(org) });
		if (!route.tokenKinds.has(kind as never)) assert.is(res.status, 403, `~> ${id} refuses ${kind} tokens`);
		else
			assert.not.ok(
				refusedByAccess(res.body?.message),
				`~> ${id} ${kind} holding what it needs passes: ${res.status} ${res.body?.message}`,
			);
	}
	let org = freshOrg();
	const bare = await s.request(route.method, at(org), { token: s.token('olivia', { kind: 'fine-grained', org, permissions: {} }) });
	assert.is(bare.body?.message, MESSAGES.byPersonalAccessToken, `~> ${id} fine-grained without ${JSON.stringify(route.policy)}`);
	const noScopes = await s.request(route.method, at(org), { token: s.token('olivia', { scopes: [] }) });
	assert.is(noScopes.status, 403, `~> ${id} classic without ${route.acceptedScopes.join(' or ')}`);
	const foreign = await s.request(route.method, at(org), {
		token: s.token('olivia', { kind: 'fine-grained', org: 'other', permissions: needed(route) }),
	});
	assert.ok([403, 404].includes(foreign.status), `~> ${id} a token bound to another account acts not: ${foreign.status}`);
	org = freshOrg();
	const elsewhere = await s.request(route.method, at(org), {
		token: s.token('oscar', { kind: 'installation', org: 'other', permissions: needed(route) }),
	});
	assert.ok([403, 404].includes(elsewhere.status), `~> ${id} an installation elsewhere acts not: ${elsewhere.status}`);
}

test('permission walk: every route × every kind of token answers as its declaration says', async () => {
	let requests = 0;
	const call = async (route: Route, token: string | undefined) => {
		requests++;
		return s.request(route.method, concrete(route.path), { token, body: bodyFor(route) });
	};
	// Reads first: the writes (with empty bodies) may change the fixtures the reads look at.
	const ordered = [...routes.filter((r) => r.method === 'GET'), ...routes.filter((r) => r.method !== 'GET')];
	for (const route of ordered) {
		const id = `${route.method} ${route.path}`;
		if (appOnly(route)) continue; // app JWTs: test/apps.test.ts
		if (DESTRUCTIVE.has(id)) {
			await walkDestructive(route);
			continue;
		}
		const anonymous = await call(route, undefined);
		if (route.access === 'public') assert.is.not(anonymous.status, 401, `~> ${id} anonymous: public`);
		else assert.is(anonymous.status, 401, `~> ${id} anonymous: 401`);

		// Bound to acme, or to olivia's own account where the route acts on it (creating her repositories).
		const ownAccount = route.guard?.self && route.guard.bound && !route.guard.org && !route.guard.repo;
		const bound = ownAccount ? 'olivia' : 'acme';
		const kinds: Array<[string, string]> = [
			['classic', s.fullToken('olivia')],
			[
				'oauth',
				s.token('olivia', {
					kind: 'oauth',
					scopes: [
						'repo',
						'delete_repo',
						'admin:org',
						'admin:org_hook',
						'admin:enterprise',
						'audit_log',
						'gist',
						'site_admin',
						'user',
						'admin:public_key',
						'admin:gpg_key',
						'admin:ssh_signing_key',
					],
				}),
			],
			['fine-grained', s.token('olivia', { kind: 'fine-grained', org: bound, permissions: needed(route) })],
			['user-to-server', s.token('olivia', { kind: 'user-to-server', org: bound, permissions: needed(route) })],
			['installation', s.token('olivia', { kind: 'installation', org: 'acme', permissions: needed(route) })],
		];
		for (const [kind, token] of kinds) {
			const res = await call(route, token);
			if (!route.tokenKinds.has(kind as never)) {
				// Site-administrator routes hide from anyone who is not acting as one (an app acts for no user).
				const expected = route.access === 'site_admin' && kind === 'installation' ? 404 : 403;
				assert.is(res.status, expected, `~> ${id} refuses ${kind} tokens`);
				continue;
			}
			if (kind === 'installation' && (route.guard?.self || route.guard?.enterprise)) {
				assert.ok([403, 404].includes(res.status), `~> ${id} installation tokens act for no user`);
				continue;
			}
			assert.not.ok(
				refusedByAccess(res.body?.message),
				`~> ${id} ${kind} holding what it needs passes: ${res.status} ${res.body?.message}`,
			);
			const onlyGuarded = !route.path.includes('*') && paramsOf(route.path).every((name) => GUARDED.includes(name));
			if (route.method === 'GET' && onlyGuarded && route.access !== 'site_admin') {
				assert.is.not(res.status, 404, `~> ${id} ${kind}: the resource exists and is visible`);
			}
		}

		// Without the route's permission or scope.
		const bare = await call(route, s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: {} }));
		if (route.tokenKinds.has('fine-grained') && route.policy.length > 0) {
			if (route.access === 'public') assert.is.not(bare.body?.message, MESSAGES.byPersonalAccessToken, `~> ${id} public view`);
			else
				assert.is(
					bare.body?.message,
					MESSAGES.byPersonalAccessToken,
					`~> ${id} fine-grained without ${JSON.stringify(route.policy)}`,
				);
		}
		const noScopes = await call(route, s.token('olivia', { scopes: [] }));
		if (route.tokenKinds.has('classic') && route.acceptedScopes.length > 0 && route.access !== 'public') {
			assert.is(noScopes.status, 403, `~> ${id} classic without ${route.acceptedScopes.join(' or ')}`);
			assert.match(noScopes.body.message, 'required scopes', `~> ${id} names the scopes`);
		}

		// Bound to another account: only what is public, read.
		if (route.tokenKinds.has('fine-grained') && route.access !== 'site_admin') {
			const foreign = await call(route, s.token('olivia', { kind: 'fine-grained', org: 'other', permissions: needed(route) }));
			if (foreignAllowed(route)) {
				assert.not.ok(refusedByAccess(foreign.body?.message), `~> ${id} a token bound to another account reads what is public`);
			} else if (route.guard?.team) {
				assert.is(foreign.status, 404, `~> ${id} a token bound to another account sees no team`);
			} else {
				assert.ok([403, 404].includes(foreign.status), `~> ${id} a token bound to another account acts not: ${foreign.status}`);
				if (foreign.status === 403) assert.is(foreign.body.message, MESSAGES.byPersonalAccessToken, `~> ${id} message`);
			}
		}
		if (route.tokenKinds.has('installation') && route.access !== 'site_admin' && !route.guard?.self && !route.guard?.enterprise) {
			const foreign = await call(route, s.token('oscar', { kind: 'installation', org: 'other', permissions: needed(route) }));
			if (foreignAllowed(route))
				assert.not.ok(refusedByAccess(foreign.body?.message), `~> ${id} an installation elsewhere reads what is public`);
			else assert.ok([403, 404].includes(foreign.status), `~> ${id} an installation elsewhere acts not: ${foreign.status}`);
		}
	}
	assert.ok(requests > 2000, `~> ${requests} requests`);
});

test('existence oracles: a private repository, a secret team, an enterprise answer outsiders exactly as ones that do not exist', async () => {
	const outsider = s.fullToken('nora');
	const member = s.fullToken('mike');
	for (const route of routes) {
		if (!route.tokenKinds.has('classic')) continue;
		const id = `${route.method} ${route.path}`;
		const compare = async (token: string, hidden: Record<string, string>, missing: Record<string, string>) => {
			const a = await s.request(route.method, concrete(route.path, hidden), { token, body: bodyFor(route) });
			const b = await s.request(route.method, concrete(route.path, missing), { token, body: bodyFor(route) });
			assert.is(a.status, b.status, `~> ${id} ${JSON.stringify(hidden)}: same status as a missing one`);
			assert.equal(a.body, b.body, `~> ${id}: same body`);
			assert.is(a.headers.get('etag'), b.headers.get('etag'), `~> ${id}: same ETag`);
		};
		if (route.guard?.repo) await compare(outsider, { repo: 'vault' }, { repo: 'no-such-repo' });
		if (route.guard?.team && route.path.includes('{team_slug}'))
			await compare(member, { team_slug: 'hidden' }, { team_slug: 'no-such-team' });
		if (route.guard?.enterprise) await compare(member, {}, { enterprise: 'no-such-enterprise' });
	}
});

test('a secret team changes neither the list nor the ETag a non-member sees', async () => {
	const member = s.fullToken('mike');
	const before = await s.get('/orgs/acme/teams', member);
	await s.request('POST', '/orgs/acme/teams', { token: s.fullToken('olivia'), body: { name: 'Secret Two', privacy: 'secret' } });
	const after = await s.get('/orgs/acme/teams', member);
	assert.equal(after.body, before.body, '~> the same teams');
	assert.is(after.headers.get('etag'), before.headers.get('etag'), '~> the same ETag');
	const owner = await s.get('/orgs/acme/teams', s.fullToken('olivia'));
	assert.ok(
		owner.body.some((team: any) => team.slug === 'secret-two'),
		'~> owners see it',
	);
});

test.run();
