/**
 * Roles (GitHub's "Organization roles" and "Custom repository roles" REST APIs):
 * - the predefined organization roles all_repo_read … all_repo_admin (src/api/roles/catalog.ts),
 *   listed, and assigned to members and teams: a member holding one, directly or through a team, has
 *   that role on every repository of the organization (src/auth/access/repos.ts and the grant
 *   queries of collaborators and assignees read the assignments);
 * - custom repository roles: a base role plus repository fine-grained permissions, created by owners
 *   and given to collaborators and teams by name (PUT …/collaborators/{username},
 *   PUT …/teams/{team_slug}/repos/{owner}/{repo} with `permission: "<role name>"`);
 * - GET …/repository-fine-grained-permissions, the permissions a custom role may add.
 * Owners only (members 403, everyone else 404); the permission matrix names the fine-grained
 * permissions of the rows it lists, the others take organization administration.
 */
import * as v from 'valibot';
import { invalidField, notFound, unprocessable } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import type { TeamRow, AccountRow } from '../../model/rows';
import {
	BASE_ROLE_PERMISSION,
	ORGANIZATION_ROLES,
	organizationRole as roleDefinition,
	REPOSITORY_FINE_GRAINED_PERMISSIONS,
	REPOSITORY_PERMISSION_NAMES,
} from './catalog';
import { roleEvent } from './events';
import { customRepositoryRole, organizationRole, teamRoleAssignment, userRoleAssignment } from './render';
import type { CustomRepositoryRoleRow } from './store';

const OWNER = { access: 'authenticated' as const, resource: { org: 'owner' as const } };
const ADMINISTRATION_READ = { ...OWNER, permissions: [{ organization_administration: 'read' as const }] };
const ADMINISTRATION_WRITE = { ...OWNER, permissions: [{ organization_administration: 'write' as const }] };
/** Rows of the permission matrix: their permissions and token kinds come from it. */
const MATRIX = { ...OWNER, permissions: 'matrix' as const };

/** The predefined role {role_id}, or 404. */
function roleParam(ctx: Context) {
	const id = idParam(ctx.params.role_id);
	const role = id === null ? undefined : roleDefinition(id);
	if (!role) throw notFound();
	return role;
}

/** The member {username} a role is assigned to: 404 for no such user, 422 for a non-member. */
function memberParam(ctx: Context): AccountRow {
	const user = ctx.app.stores.accounts.user(ctx.params.username);
	if (!user) throw notFound();
	if (ctx.app.stores.memberships.get(ctx.org.org.id, user.id)?.state !== 'active') {
		throw unprocessable(`${user.login} is not a member of ${ctx.org.org.login}.`);
	}
	return user;
}

function withParent(ctx: Context, team: TeamRow) {
	return { team, parent: team.parent_id === null ? undefined : ctx.app.stores.teams.byId(team.parent_id) };
}

/** The custom repository role {role_id} of the organization, or 404. */
function customRoleParam(ctx: Context, orgId = ctx.org.org.id): CustomRepositoryRoleRow {
	const id = idParam(ctx.params.role_id);
	const row = id === null ? undefined : ctx.app.stores.roles.customRole(orgId, id);
	if (!row) throw notFound();
	return row;
}

const PREDEFINED_REPOSITORY_ROLES = new Set(['read', 'triage', 'write', 'maintain', 'admin', 'pull', 'push']);

/**
 * Checks a custom role's name and permissions (GitHub's 422s).
 * @throws DomainError 422
 */
function checkCustomRole(ctx: Context, name: string, permissions: string[], except: number | null): void {
	if (!name.trim()) throw invalidField('Role', 'name', 'name cannot be blank', 'missing_field');
	if (PREDEFINED_REPOSITORY_ROLES.has(name.toLowerCase()))
		throw invalidField('Role', 'name', `${name} is the name of a predefined role`, 'custom');
	const taken = ctx.app.stores.roles.customRoleByName(ctx.org.org.id, name);
	if (taken && taken.id !== except) throw invalidField('Role', 'name', 'Name has already been taken', 'already_exists');
	const unknown = permissions.filter((permission) => !REPOSITORY_PERMISSION_NAMES.has(permission));
	if (unknown.length) throw invalidField('Role', 'permissions', `Invalid permissions: ${unknown.join(', ')}`, 'invalid');
}

const baseRole = v.picklist(['read', 'triage', 'write', 'maintain'], 'base_role must be one of read, triage, write, maintain');
const createBody = v.object({
	name: v.pipe(v.string(), v.maxLength(100)),
	description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000)))),
	base_role: baseRole,
	permissions: v.pipe(v.array(v.string()), v.maxLength(100)),
});
const updateBody = v.object({
	name: v.optional(v.pipe(v.string(), v.maxLength(100))),
	description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000)))),
	base_role: v.optional(baseRole),
	permissions: v.optional(v.pipe(v.array(v.string()), v.maxLength(100))),
});

export const roleRoutes = [
	// ------------------------------------------------------------------ organization roles
	route({
		...ADMINISTRATION_READ,
		method: 'GET',
		path: '/orgs/{org}/organization-roles',
		docs: 'orgs/organization-roles#get-all-organization-roles-for-an-organization',
		handler: (ctx) =>
			ok({ total_count: ORGANIZATION_ROLES.length, roles: ORGANIZATION_ROLES.map((role) => organizationRole(ctx.org.org, role)) }),
	}),
	route({
		...ADMINISTRATION_READ,
		method: 'GET',
		path: '/orgs/{org}/organization-roles/{role_id}',
		docs: 'orgs/organization-roles#get-an-organization-role',
		handler: (ctx) => ok(organizationRole(ctx.org.org, roleParam(ctx))),
	}),
	route({
		...MATRIX,
		method: 'GET',
		path: '/orgs/{org}/organization-roles/{role_id}/teams',
		docs: 'orgs/organization-roles#list-teams-that-are-assigned-to-an-organization-role',
		pagination: true,
		handler(ctx) {
			const role = roleParam(ctx);
			const ids = ctx.app.stores.roles.roleTeamIds(ctx.org.org.id, role.id, ctx.page.perPage + 1, ctx.page.offset);
			const teams = ctx.app.stores.teams.byIds(ids.slice(0, ctx.page.perPage));
			const total = ctx.page.offset + ids.length;
			return paged(
				teams.map((team) => {
					const { parent } = withParent(ctx, team);
					return teamRoleAssignment(ctx.app.urls, ctx.org.org, team, parent);
				}),
				total,
			);
		},
	}),
	route({
		...MATRIX,
		method: 'GET',
		path: '/orgs/{org}/organization-roles/{role_id}/users',
		docs: 'orgs/organization-roles#list-users-that-are-assigned-to-an-organization-role',
		pagination: true,
		handler(ctx) {
			const role = roleParam(ctx);
			const { stores, urls } = ctx.app;
			const rows = stores.roles.roleUsers(ctx.org.org.id, role.id, ctx.page.perPage + 1, ctx.page.offset);
			const users = rows.slice(0, ctx.page.perPage).map((row) => {
				const user = stores.accounts.byId(row.user_id)!;
				const teamIds = row.team_ids ? row.team_ids.split(',').map(Number) : [];
				const teams = stores.teams.byIds(teamIds).map((team) => withParent(ctx, team));
				return userRoleAssignment(urls, ctx.org.org, user, row.direct === 1, teams);
			});
			return paged(users, ctx.page.offset + rows.length);
		},
	}),
	route({
		...MATRIX,
		method: 'PUT',
		path: '/orgs/{org}/organization-roles/users/{username}/{role_id}',
		docs: 'orgs/organization-roles#assign-an-organization-role-to-a-user',
		handler(ctx) {
			const role = roleParam(ctx);
			const user = memberParam(ctx);
			if (ctx.app.stores.roles.assignUser(ctx.org.org.id, role.id, user.id, isoSeconds(ctx.now))) {
				roleEvent(ctx.app, 'assigned', ctx.org.org, { role: role.name, user }, ctx.principal.actorId);
			}
			return noContent();
		},
	}),
	route({
		...MATRIX,
		method: 'DELETE',
		path: '/orgs/{org}/organization-roles/users/{username}/{role_id}',
		docs: 'orgs/organization-roles#remove-an-organization-role-from-a-user',
		handler(ctx) {
			const role = roleParam(ctx);
			const user = ctx.app.stores.accounts.user(ctx.params.username);
			if (!user) throw notFound();
			if (ctx.app.stores.roles.revokeUser(ctx.org.org.id, role.id, user.id)) {
				roleEvent(ctx.app, 'unassigned', ctx.org.org, { role: role.name, user }, ctx.principal.actorId);
			}
			return noContent();
		},
	}),
	route({
		...MATRIX,
		method: 'DELETE',
		path: '/orgs/{org}/organization-roles/users/{username}',
		docs: 'orgs/organization-roles#remove-all-organization-roles-for-a-user',
		handler(ctx) {
			const user = ctx.app.stores.accounts.user(ctx.params.username);
			if (!user) throw notFound();
			if (ctx.app.stores.roles.revokeAllOfUser(ctx.org.org.id, user.id) > 0) {
				roleEvent(ctx.app, 'unassigned', ctx.org.org, { role: null, user }, ctx.principal.actorId);
			}
			return noContent();
		},
	}),
	route({
		...MATRIX,
		resource: { team: 'owner' },
		method: 'PUT',
		path: '/orgs/{org}/organization-roles/teams/{team_slug}/{role_id}',
		docs: 'orgs/organization-roles#assign-an-organization-role-to-a-team',
		handler(ctx) {
			const role = roleParam(ctx);
			const team = ctx.team.team;
			if (ctx.app.stores.roles.assignTeam(ctx.org.org.id, role.id, team.id, isoSeconds(ctx.now))) {
				roleEvent(ctx.app, 'assigned', ctx.org.org, { role: role.name, team }, ctx.principal.actorId);
			}
			return noContent();
		},
	}),
	route({
		...MATRIX,
		resource: { team: 'owner' },
		method: 'DELETE',
		path: '/orgs/{org}/organization-roles/teams/{team_slug}/{role_id}',
		docs: 'orgs/organization-roles#remove-an-organization-role-from-a-team',
		handler(ctx) {
			const role = roleParam(ctx);
			const team = ctx.team.team;
			if (ctx.app.stores.roles.revokeTeam(ctx.org.org.id, role.id, team.id)) {
				roleEvent(ctx.app, 'unassigned', ctx.org.org, { role: role.name, team }, ctx.principal.actorId);
			}
			return noContent();
		},
	}),
	route({
		...MATRIX,
		resource: { team: 'owner' },
		method: 'DELETE',
		path: '/orgs/{org}/organization-roles/teams/{team_slug}',
		docs: 'orgs/organization-roles#remove-all-organization-roles-for-a-team',
		handler(ctx) {
			const team = ctx.team.team;
			if (ctx.app.stores.roles.revokeAllOfTeam(ctx.org.org.id, team.id) > 0) {
				roleEvent(ctx.app, 'unassigned', ctx.org.org, { role: null, team }, ctx.principal.actorId);
			}
			return noContent();
		},
	}),

	// ------------------------------------------------------------------ custom repository roles
	route({
		...MATRIX,
		method: 'GET',
		path: '/orgs/{org}/custom-repository-roles',
		docs: 'orgs/custom-roles#list-custom-repository-roles-in-an-organization',
		handler(ctx) {
			const roles = ctx.app.stores.roles.customRoles(ctx.org.org.id);
			return ok({
				total_count: roles.length,
				custom_roles: roles.map((row) => customRepositoryRole(ctx.app.urls, ctx.org.org, row)),
			});
		},
	}),
	route({
		...ADMINISTRATION_WRITE,
		method: 'POST',
		path: '/orgs/{org}/custom-repository-roles',
		docs: 'orgs/custom-roles#create-a-custom-repository-role',
		errorResource: 'Role',
		body: createBody,
		handler(ctx) {
			const { name, description, base_role, permissions } = ctx.body;
			checkCustomRole(ctx, name, permissions, null);
			const row = ctx.app.stores.roles.insertCustomRole(
				{
					org_id: ctx.org.org.id,
					name: name.trim(),
					description: description ?? null,
					base_role,
					permissions: JSON.stringify([...new Set(permissions)]),
				},
				isoSeconds(ctx.now),
			);
			roleEvent(ctx.app, 'created', ctx.org.org, { role: row.name }, ctx.principal.actorId);
			return created(customRepositoryRole(ctx.app.urls, ctx.org.org, row));
		},
	}),
	route({
		...MATRIX,
		method: 'GET',
		path: '/orgs/{org}/custom-repository-roles/{role_id}',
		docs: 'orgs/custom-roles#get-a-custom-repository-role',
		handler: (ctx) => ok(customRepositoryRole(ctx.app.urls, ctx.org.org, customRoleParam(ctx))),
	}),
	route({
		...ADMINISTRATION_WRITE,
		method: 'PATCH',
		path: '/orgs/{org}/custom-repository-roles/{role_id}',
		docs: 'orgs/custom-roles#update-a-custom-repository-role',
		errorResource: 'Role',
		body: updateBody,
		handler(ctx) {
			const current = customRoleParam(ctx);
			const permissions = ctx.body.permissions ?? (JSON.parse(current.permissions) as string[]);
			const name = ctx.body.name ?? current.name;
			checkCustomRole(ctx, name, permissions, current.id);
			const row: CustomRepositoryRoleRow = {
				...current,
				name: name.trim(),
				description: ctx.body.description === undefined ? current.description : ctx.body.description,
				base_role: ctx.body.base_role ?? current.base_role,
				permissions: JSON.stringify([...new Set(permissions)]),
			};
			ctx.app.stores.roles.updateCustomRole(row, BASE_ROLE_PERMISSION[row.base_role], isoSeconds(ctx.now));
			roleEvent(ctx.app, 'updated', ctx.org.org, { role: row.name }, ctx.principal.actorId);
			return ok(customRepositoryRole(ctx.app.urls, ctx.org.org, ctx.app.stores.roles.customRole(ctx.org.org.id, row.id)!));
		},
	}),
	route({
		...ADMINISTRATION_WRITE,
		method: 'DELETE',
		path: '/orgs/{org}/custom-repository-roles/{role_id}',
		docs: 'orgs/custom-roles#delete-a-custom-repository-role',
		handler(ctx) {
			const id = idParam(ctx.params.role_id);
			const row = id === null ? undefined : ctx.app.stores.roles.customRole(ctx.org.org.id, id);
			// GitHub answers 204 for a role that does not exist.
			if (row && ctx.app.stores.roles.deleteCustomRole(row.id))
				roleEvent(ctx.app, 'deleted', ctx.org.org, { role: row.name }, ctx.principal.actorId);
			return noContent();
		},
	}),
	route({
		...MATRIX,
		resource: { org: 'owner' },
		method: 'GET',
		path: '/orgs/{org}/repository-fine-grained-permissions',
		docs: 'orgs/custom-roles#list-repository-fine-grained-permissions-for-an-organization',
		handler: () => ok(REPOSITORY_FINE_GRAINED_PERMISSIONS),
	}),
];

/** GET /organizations/{organization_id}/custom_roles (deprecated): the organization by its id. */
export const legacyRoleRoutes = [
	route({
		permissions: 'matrix',
		access: 'authenticated',
		resource: { org: 'owner' },
		method: 'GET',
		path: '/organizations/{organization_id}/custom_roles',
		docs: 'orgs/custom-roles#deprecated---list-custom-repository-roles-in-an-organization',
		handler(ctx) {
			const roles = ctx.app.stores.roles.customRoles(ctx.org.org.id);
			return ok({
				total_count: roles.length,
				custom_roles: roles.map((row) => customRepositoryRole(ctx.app.urls, ctx.org.org, row)),
			});
		},
	}),
];
