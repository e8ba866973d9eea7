/**
 * Teams (https://docs.github.com/en/rest/teams/teams): list, create, get, update, delete, child teams,
 * members and memberships, and team repositories. Every team operation is served at
 * /orgs/{org}/teams/{team_slug}…, at /organizations/{org_id}/team/{team_id}… (the `url` field of
 * a team) and, where GitHub keeps it, at the legacy /teams/{team_id}….
 */
import * as v from 'valibot';
import { matrixRow } from '../../auth/permission-matrix';
import { levelMeets } from '../../auth/permissions';
import { TOKEN_KINDS, type TokenKind } from '../../auth/tokens';
import { forbidden, notFound } from '../../model/errors';
import { created, noContent, ok, paged, type Reply } from '../../http/reply';
import { route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { callerRepoPermission } from '../../auth/access/repos';
import type { OrgAccess } from '../../auth/access/types';
import { strongest, type RepoPermission } from '../../model/repo-permissions';
import { repository } from '../../model/render';
import { teamMembership } from './render';
import { repositoryRole } from '../roles/service';
import {
	assertNotSynced,
	assertOrganizationRepository,
	createTeam,
	deleteTeam,
	teamFull,
	teamListJson,
	updateTeam,
	visibleTeams,
	visibleTeamsVersion,
	type TeamEditor,
	setTeamMembership,
	removeTeamMembership,
	addOrganizationMemberToTeam,
	removeTeamRepository,
	setTeamRepository,
	listChildTeams,
	listTeamMembers,
	listTeamRepositories,
} from './service';
import { TEAM_READ, TEAMS_LIST } from './access';

// ---------------------------------------------------------------------------------------------
// Schemas

const privacy = v.picklist(['secret', 'closed']);
const notificationSetting = v.picklist(['notifications_enabled', 'notifications_disabled']);
const login = v.pipe(v.string(), v.minLength(1));

const createBody = v.object({
	name: v.pipe(v.string(), v.minLength(1, 'name must not be empty')),
	description: v.optional(v.string()),
	maintainers: v.optional(v.array(login)),
	repo_names: v.optional(v.array(v.string())),
	privacy: v.optional(privacy),
	notification_setting: v.optional(notificationSetting),
	permission: v.optional(v.picklist(['pull', 'push'])),
	parent_team_id: v.optional(v.pipe(v.number(), v.integer())),
	parent_team_slug: v.optional(v.string()),
	ldap_dn: v.optional(v.string()),
});

const updateBody = v.object({
	name: v.optional(v.pipe(v.string(), v.minLength(1, 'name must not be empty'))),
	description: v.optional(v.nullable(v.string())),
	privacy: v.optional(privacy),
	notification_setting: v.optional(notificationSetting),
	permission: v.optional(v.picklist(['pull', 'push', 'admin'])),
	parent_team_id: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
	parent_team_slug: v.optional(v.nullable(v.string())),
});

const listQuery = v.object({ team_type: v.optional(v.picklist(['all', 'enterprise', 'organization'])) });
const membersQuery = v.object({ role: v.optional(v.picklist(['all', 'member', 'maintainer'])) });
const membershipBody = v.object({ role: v.optional(v.picklist(['member', 'maintainer'])) });
/** `permission`: a repository role, or a custom repository role's name (src/api/roles/service.ts). */
const repoPermissionBody = v.object({ permission: v.optional(v.pipe(v.string(), v.maxLength(100))) });
/** The legacy route accepts only pull, push and admin. */
const legacyRepoPermissionBody = v.object({ permission: v.optional(v.picklist(['pull', 'push', 'admin'])) });

// ---------------------------------------------------------------------------------------------
// Helpers

/** What the caller may do when creating or changing a team of the organization `access` names. */
function teamEditor(ctx: Context, access: OrgAccess): TeamEditor {
	return {
		access,
		// Owners may make any team a parent; an app needs organization administration for that.
		anyParent: access.app ? levelMeets(ctx.principal.permissions.organization_administration, 'write') : access.admin,
		repoPermission: (repo) => callerRepoPermission(ctx, repo, access.org),
	};
}

function loadUser(ctx: Context) {
	const user = ctx.app.stores.accounts.byLogin(ctx.params.username);
	if (!user) throw notFound();
	return user;
}

/** The team's effective permission on a repository: its own grant or an ancestor's. */
function teamPermission(ctx: Context, teamId: number, repoId: number): RepoPermission | null {
	let permission: RepoPermission | null = null;
	for (const granted of ctx.app.stores.teams.lineageGrants(teamId, repoId)) permission = strongest(permission, granted);
	return permission;
}

// ---------------------------------------------------------------------------------------------
// Handlers shared by the three ways of addressing a team

function getTeam(ctx: Context): Reply {
	const team = ctx.team;
	return ok(teamFull(ctx.app, team.org, team.team));
}

function patchTeam(ctx: Context<Record<string, unknown>, v.InferOutput<typeof updateBody>>): Reply {
	const team = ctx.team;
	const updated = updateTeam(ctx.app, teamEditor(ctx, team), team.team, ctx.body, isoSeconds(ctx.now));
	return ok(teamFull(ctx.app, team.org, updated));
}

function removeTeam(ctx: Context): Reply {
	const team = ctx.team;
	deleteTeam(ctx.app, team, team.team);
	return noContent();
}

function childTeams(ctx: Context): Reply {
	const { ids, total } = listChildTeams(ctx.app, ctx.team, { limit: ctx.page.perPage, offset: ctx.page.offset });
	return { status: 200, json: teamListJson(ctx.app, ctx.team.org, ids), total };
}

function listMembers(ctx: Context<v.InferOutput<typeof membersQuery>>): Reply {
	const { items, total } = listTeamMembers(
		ctx.app,
		ctx.team,
		{ role: ctx.query.role ?? 'all', membership: 'all' },
		{ limit: ctx.page.perPage, offset: ctx.page.offset },
	);
	return paged(items, total);
}

function getMembership(ctx: Context): Reply {
	const team = ctx.team;
	const user = loadUser(ctx);
	const membership =
		ctx.app.stores.teams.membership(team.team.id, user.id) ?? ctx.app.stores.teams.inheritedMembership(team.team.id, user.id);
	if (!membership) throw notFound();
	// Organization owners are reported as maintainers (https://docs.github.com/en/rest/teams/teams).
	const owner = ctx.app.stores.memberships.get(team.org.id, user.id);
	const role = owner?.role === 'admin' && owner.state === 'active' ? 'maintainer' : membership.role;
	return ok(teamMembership(ctx.app.urls, team.team, user.login, role, membership.state));
}

function putMembership(ctx: Context<Record<string, unknown>, v.InferOutput<typeof membershipBody>>): Reply {
	const team = ctx.team;
	const user = loadUser(ctx);
	assertNotSynced(ctx.app, team.team);
	const role = ctx.body.role ?? 'member';
	const state = setTeamMembership(ctx.app, team, user, role, isoSeconds(ctx.now));
	return ok(teamMembership(ctx.app.urls, team.team, user.login, role, state));
}

function deleteMembership(ctx: Context): Reply {
	const team = ctx.team;
	const user = loadUser(ctx);
	// A synced team's members follow its external group: 403 here, 404 on the legacy members route.
	if (ctx.route.path.endsWith('/members/{username}')) {
		if (ctx.app.stores.externalGroups.linkOf(team.team.id) !== null) throw notFound();
	} else assertNotSynced(ctx.app, team.team);
	removeTeamMembership(ctx.app, team, user);
	return noContent();
}

function checkMember(ctx: Context): Reply {
	const team = ctx.team;
	const user = loadUser(ctx);
	const membership =
		ctx.app.stores.teams.membership(team.team.id, user.id) ?? ctx.app.stores.teams.inheritedMembership(team.team.id, user.id);
	if (membership?.state !== 'active') throw notFound();
	return noContent();
}

function putMember(ctx: Context): Reply {
	const team = ctx.team;
	const user = loadUser(ctx);
	// GitHub: "Not Found if team synchronization is set up" on the legacy route.
	if (ctx.app.stores.externalGroups.linkOf(team.team.id) !== null) throw notFound();
	addOrganizationMemberToTeam(ctx.app, team, user, isoSeconds(ctx.now));
	return noContent();
}

function listRepos(ctx: Context): Reply {
	const { items, total } = listTeamRepositories(ctx, ctx.team, { limit: ctx.page.perPage, offset: ctx.page.offset });
	return paged(items, total);
}

function checkRepo(ctx: Context): Reply {
	const team = ctx.team;
	const { repo, owner } = ctx.repo;
	const permission = teamPermission(ctx, team.team.id, repo.id);
	if (!permission) throw notFound();
	// The repository media type asks for the repository with the team's permissions (https://docs.github.com/en/rest/teams/teams).
	if (ctx.media === 'repository') return ok(repository(ctx.app.urls, repo, owner, permission));
	return noContent();
}

function putRepo(ctx: Context<Record<string, unknown>, { permission?: string }>): Reply {
	const team = ctx.team;
	const target = ctx.repo;
	assertOrganizationRepository(ctx.app, team.org.id, target.repo);
	const { permission, roleId } = repositoryRole(ctx.app, team.org, ctx.body.permission ?? team.team.permission, 'Team');
	setTeamRepository(ctx.app, team.org, team.team, target.repo, { permission, roleId }, team.actorId, isoSeconds(ctx.now));
	return noContent();
}

function deleteRepo(ctx: Context): Reply {
	const team = ctx.team;
	const target = ctx.repo;
	if (!team.manage && target.permission !== 'admin') {
		throw forbidden(
			'You must be an organization owner, a team maintainer, or have admin rights to the repository to remove it from the team.',
		);
	}
	removeTeamRepository(ctx.app, team.org, team.team, target.repo, team.actorId);
	return noContent();
}

// ---------------------------------------------------------------------------------------------
// Declarations

type Variant = 'slug' | 'id' | 'legacy';

/** One team operation, declared once and served at each of its addresses. */
interface TeamOperation extends Omit<RouteDeclaration, 'path' | 'permissions'> {
	suffix: string;
	variants: Variant[];
	/** Body schema of the legacy route when it differs. */
	legacyBody?: RouteDeclaration['body'];
}

const ALL: Variant[] = ['slug', 'id', 'legacy'];
/** The legacy member routes (…/members/{username}): no slug form, as GitHub has none. */
const MEMBER_VARIANTS: Variant[] = ['legacy', 'id'];
/** The guard of routes the team's members call (their handlers may ask more, e.g. removing only oneself). */
const TEAM_MEMBER = { access: 'authenticated' as const, resource: { team: 'member' as const } };
/** The guard of routes that change the team: its maintainers. */
const TEAM_MAINTAINER = { access: 'authenticated' as const, resource: { team: 'maintainer' as const } };
const paths: Record<Variant, string> = {
	slug: '/orgs/{org}/teams/{team_slug}',
	id: '/organizations/{org_id}/team/{team_id}',
	legacy: '/teams/{team_id}',
};

function teamRoutes(op: TeamOperation): RouteDeclaration[] {
	const { suffix, variants, legacyBody, ...rest } = op;
	// The /organizations/{org_id}/team/{team_id} address is not in the permission matrix: it takes
	// the policy of the slug address (or the legacy one where no slug address exists).
	const source = variants.includes('slug') ? 'slug' : 'legacy';
	const sourceRow = matrixRow(`${op.method} ${paths[source]}${suffix}`);
	return variants.map((variant) => {
		const path = `${paths[variant]}${suffix}`;
		const body = variant === 'legacy' && legacyBody ? legacyBody : rest.body;
		if (variant === 'id') {
			const tokens = (rest.tokens ?? TOKEN_KINDS).filter((kind) => !sourceRow.rejects.includes(kind as TokenKind));
			return { ...rest, body, path, permissions: sourceRow.policy, tokens };
		}
		return { ...rest, body, path, permissions: 'matrix' as const };
	});
}

export const teamsRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: '/orgs/{org}/teams',
		docs: 'teams/teams#list-teams',
		permissions: 'matrix',
		...TEAMS_LIST,
		errorResource: 'Team',
		query: listQuery,
		pagination: true,
		// Owners see every team, so any team write changes their list: answered 304 before anything
		// is read or rendered. Anyone else: the ETag is the digest of the list they see, so a secret
		// team they cannot see (created, renamed, deleted) never changes it.
		version: (ctx) =>
			ctx.org.admin
				? `${ctx.query.team_type === 'enterprise' ? 'enterprise' : 'organization'}:${visibleTeamsVersion(ctx.app, ctx.org.org.id, { seeAll: true, userId: ctx.org.userId })}`
				: null,
		handler(ctx) {
			const access = ctx.org;
			// Every team Gitstead holds is an organization team; enterprise teams do not exist here.
			if (ctx.query.team_type === 'enterprise') return paged([], 0);
			const { ids, total } = visibleTeams(
				ctx.app,
				access.org.id,
				{ seeAll: access.admin, userId: access.userId },
				{ limit: ctx.page.perPage, offset: ctx.page.offset },
			);
			const json = teamListJson(ctx.app, access.org, ids);
			return { status: 200, json, total };
		},
	}),
	route({
		method: 'POST',
		path: '/orgs/{org}/teams',
		docs: 'teams/teams#create-a-team',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'member' },
		errorResource: 'Team',
		body: createBody,
		handler(ctx) {
			const access = ctx.org;
			if (!access.admin && access.org.members_can_create_teams === 0) {
				throw forbidden(`Only owners of ${access.org.login} may create teams.`);
			}
			const team = createTeam(ctx.app, teamEditor(ctx, access), ctx.body, isoSeconds(ctx.now));
			return created(teamFull(ctx.app, access.org, team));
		},
	}),
	...teamRoutes({
		method: 'GET',
		suffix: '',
		variants: ALL,
		docs: 'teams/teams#get-a-team-by-name',
		...TEAM_READ,
		handler: getTeam,
	}),
	...teamRoutes({
		method: 'PATCH',
		suffix: '',
		variants: ALL,
		docs: 'teams/teams#update-a-team',
		...TEAM_MAINTAINER,
		errorResource: 'Team',
		body: updateBody,
		handler: patchTeam as RouteDeclaration['handler'],
	}),
	...teamRoutes({
		method: 'DELETE',
		suffix: '',
		variants: ALL,
		docs: 'teams/teams#delete-a-team',
		...TEAM_MAINTAINER,
		handler: removeTeam,
	}),
	...teamRoutes({
		method: 'GET',
		suffix: '/teams',
		variants: ALL,
		docs: 'teams/teams#list-child-teams',
		...TEAM_READ,
		pagination: true,
		handler: childTeams,
	}),
	...teamRoutes({
		method: 'GET',
		suffix: '/members',
		variants: ALL,
		docs: 'teams/members#list-team-members',
		...TEAM_READ,
		errorResource: 'TeamMember',
		query: membersQuery,
		pagination: true,
		handler: listMembers as RouteDeclaration['handler'],
	}),
	...teamRoutes({
		method: 'GET',
		suffix: '/memberships/{username}',
		variants: ALL,
		docs: 'teams/members#get-team-membership-for-a-user',
		...TEAM_MEMBER,
		handler: getMembership,
	}),
	...teamRoutes({
		method: 'PUT',
		suffix: '/memberships/{username}',
		variants: ALL,
		docs: 'teams/members#add-or-update-team-membership-for-a-user',
		...TEAM_MAINTAINER,
		errorResource: 'TeamMember',
		body: membershipBody,
		handler: putMembership as RouteDeclaration['handler'],
	}),
	...teamRoutes({
		method: 'DELETE',
		suffix: '/memberships/{username}',
		variants: ALL,
		docs: 'teams/members#remove-team-membership-for-a-user',
		...TEAM_MEMBER,
		handler: deleteMembership,
	}),
	...teamRoutes({
		method: 'GET',
		suffix: '/members/{username}',
		variants: MEMBER_VARIANTS,
		docs: 'teams/members#get-team-member-legacy',
		...TEAM_MEMBER,
		handler: checkMember,
	}),
	...teamRoutes({
		method: 'PUT',
		suffix: '/members/{username}',
		variants: MEMBER_VARIANTS,
		docs: 'teams/members#add-team-member-legacy',
		...TEAM_MAINTAINER,
		handler: putMember,
	}),
	...teamRoutes({
		method: 'DELETE',
		suffix: '/members/{username}',
		variants: MEMBER_VARIANTS,
		docs: 'teams/members#remove-team-member-legacy',
		...TEAM_MEMBER,
		handler: deleteMembership,
	}),
	...teamRoutes({
		method: 'GET',
		suffix: '/repos',
		variants: ALL,
		docs: 'teams/teams#list-team-repositories',
		...TEAM_READ,
		pagination: true,
		handler: listRepos,
	}),
	...teamRoutes({
		method: 'GET',
		suffix: '/repos/{owner}/{repo}',
		variants: ALL,
		docs: 'teams/teams#check-team-permissions-for-a-repository',
		access: 'authenticated',
		resource: { team: 'member', repo: 'read' },
		handler: checkRepo,
	}),
	...teamRoutes({
		method: 'PUT',
		suffix: '/repos/{owner}/{repo}',
		variants: ALL,
		docs: 'teams/teams#add-or-update-team-repository-permissions',
		access: 'authenticated',
		resource: { team: 'member', repo: 'admin', writable: false },
		errorResource: 'Team',
		body: repoPermissionBody,
		legacyBody: legacyRepoPermissionBody,
		handler: putRepo as RouteDeclaration['handler'],
	}),
	...teamRoutes({
		method: 'DELETE',
		suffix: '/repos/{owner}/{repo}',
		variants: ALL,
		docs: 'teams/teams#remove-a-repository-from-a-team',
		access: 'authenticated',
		resource: { team: 'member', repo: 'read', writable: false },
		handler: deleteRepo,
	}),
];
