/**
 * An organization's security settings outside code security configurations, with the permissions
 * of the spec's matrix (organization_administration read / write):
 *
 * - security managers (GitHub's orgs/security-managers operations): teams whose members read the
 *   security alerts (Dependabot alerts, dismissal requests) of every repository of the
 *   organization — the repository guard lets them through (ResourceGuard.securityManagers);
 * - Dependabot's repository access (dependabot/repository-access): the private and internal
 *   repositories Dependabot may reach when updating dependencies, and the default level. Answered
 *   at GitHub's `/dependabot/` path and at the spec's `/depbot/` spelling.
 *
 * Owners and the organization's app manage them; members are refused (403), outsiders see nothing (404).
 */
import * as v from 'valibot';
import { forbidden, invalidField } from '../../http/errors';
import { noContent, ok } from '../../http/reply';
import { route, type Context, type ResourceGuard, type RouteDeclaration } from '../../http/route';
import { simpleRepository } from '../dependabot/render';
import { teamListForm } from '../teams/render';
import type { TeamRow } from '../teams/store';

const OWNERS: ResourceGuard = { org: 'owner', concealFromOutsiders: true };

/** GitHub's team-simple of a team of `orgLogin`. */
function teamSimple(ctx: Context, orgLogin: string, team: TeamRow) {
	const { parent: _parent, ...rest } = teamListForm(ctx.app.urls, orgLogin, team, undefined);
	return { ...rest, organization_id: team.org_id };
}

/** Only owners and the organization's app change security managers (the team guard lets members see the team). */
function requireOwner(ctx: Context): void {
	if (!ctx.team.admin) throw forbidden(`You must be an owner of ${ctx.team.org.login} to ${ctx.route.action}.`);
}

const repositoryIds = v.optional(v.array(v.pipe(v.number(), v.integer())));
const accessBody = v.object({ repository_ids_to_add: repositoryIds, repository_ids_to_remove: repositoryIds });
const levelBody = v.object({ default_level: v.picklist(['public', 'internal'], 'must be public or internal') });

/** The declaration at its GitHub path and at the spec's `/depbot/` spelling. */
function bothSpellings(declaration: RouteDeclaration): RouteDeclaration[] {
	return [declaration, { ...declaration, path: declaration.path.replace(/\/dependabot(?=\/|$)/, '/depbot') }];
}

const dependabotAccess: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: '/orgs/{org}/dependabot/repository-access',
		docs: 'dependabot/repository-access#lists-the-repositories-dependabot-can-access-in-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		handler(ctx) {
			const org = ctx.org.org;
			const { orgSecurity } = ctx.app.stores;
			return ok({
				default_level: orgSecurity.defaultLevel(org.id),
				accessible_repositories: orgSecurity.accessibleRepositories(org.id).map((repo) => simpleRepository(ctx.app.urls, repo, org)),
			});
		},
	}),
	route({
		method: 'PATCH',
		path: '/orgs/{org}/dependabot/repository-access',
		docs: 'dependabot/repository-access#updates-dependabots-repository-access-list-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'DependabotRepositoryAccess',
		body: accessBody,
		handler(ctx) {
			const org = ctx.org.org;
			const { repos, orgSecurity } = ctx.app.stores;
			const check = (field: string, ids: number[] | undefined) =>
				(ids ?? []).map((id) => {
					const repo = repos.byId(id);
					if (!repo || repo.owner_id !== org.id) throw invalidField('DependabotRepositoryAccess', field, `repository ${id} is not a repository of ${org.login}`);
					return repo;
				});
			const add = check('repository_ids_to_add', ctx.body.repository_ids_to_add);
			const remove = check('repository_ids_to_remove', ctx.body.repository_ids_to_remove);
			for (const repo of add) orgSecurity.grantAccess(org.id, repo.id);
			for (const repo of remove) orgSecurity.revokeAccess(org.id, repo.id);
			return noContent();
		},
	}),
	route({
		method: 'PUT',
		path: '/orgs/{org}/dependabot/repository-access/default-level',
		docs: 'dependabot/repository-access#set-the-default-repository-access-level-for-dependabot',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'DependabotRepositoryAccess',
		body: levelBody,
		handler(ctx) {
			ctx.app.stores.orgSecurity.setDefaultLevel(ctx.org.org.id, ctx.body.default_level);
			return noContent();
		},
	}),
];

export const orgSecurityRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: '/orgs/{org}/security-managers',
		docs: 'orgs/security-managers#list-security-manager-teams',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		handler(ctx) {
			const org = ctx.org.org;
			return ok(ctx.app.stores.orgSecurity.managerTeams(org.id).map((team) => teamSimple(ctx, org.login, team)));
		},
	}),
	route({
		method: 'PUT',
		path: '/orgs/{org}/security-managers/teams/{team_slug}',
		docs: 'orgs/security-managers#add-a-security-manager-team',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { team: 'member' },
		handler(ctx) {
			requireOwner(ctx);
			ctx.app.stores.orgSecurity.addManagerTeam(ctx.team.org.id, ctx.team.team.id);
			return noContent();
		},
	}),
	route({
		method: 'DELETE',
		path: '/orgs/{org}/security-managers/teams/{team_slug}',
		docs: 'orgs/security-managers#remove-a-security-manager-team',
		permissions: 'matrix',
		access: 'authenticated',
		resource: { team: 'member' },
		handler(ctx) {
			requireOwner(ctx);
			ctx.app.stores.orgSecurity.removeManagerTeam(ctx.team.team.id);
			return noContent();
		},
	}),
	...dependabotAccess.flatMap(bothSpellings),
];
