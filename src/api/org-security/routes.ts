/**
 * An organization's security settings outside code security configurations, with the permissions
 * of the permission matrix (organization_administration read / write):
 *
 * - security managers (GitHub's orgs/security-managers operations): teams whose members read the
 *   security alerts (Dependabot alerts, dismissal requests) of every repository of the
 *   organization — the repository guard lets them through (ResourceGuard.securityManagers);
 * - Dependabot's repository access (dependabot/repository-access): the private and internal
 *   repositories Dependabot may reach when updating dependencies, and the default level. Answered
 *   at GitHub's `/dependabot/` path and at the `/depbot/` spelling;
 * - secret scanning pattern configurations (secret-scanning/push-protection): the push protection
 *   setting of each provider pattern (src/api/org-security/patterns.ts), guarded by a version
 *   (409 when a change names another one);
 * - GitHub Advanced Security active committers (billing): src/api/org-security/committers.ts.
 *
 * Owners and the organization's app manage them; members are refused (403), outsiders see nothing (404).
 */
import * as v from 'valibot';
import { randomBytes } from 'node:crypto';
import { conflict, forbidden, invalidField } from '../../model/errors';
import { noContent, ok } from '../../http/reply';
import { route, type Context, type ResourceGuard, type RouteDeclaration } from '../../http/route';
import { simpleRepository } from '../../model/render';
import { teamListForm } from '../../model/render';
import type { TeamRow } from '../../model/rows';
import { advancedSecurityCommitters } from './committers';
import { PROVIDER_PATTERNS } from './patterns';

const OWNERS = { org: 'owner', conceal: 'outsiders' } as const satisfies ResourceGuard;

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

/** The declaration at its GitHub path and at the `/depbot/` spelling. */
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
				accessible_repositories: orgSecurity
					.accessibleRepositories(org.id)
					.map((repo) => simpleRepository(ctx.app.urls, repo, org)),
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
					if (!repo || repo.owner_id !== org.id)
						throw invalidField('DependabotRepositoryAccess', field, `repository ${id} is not a repository of ${org.login}`);
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

const providerSetting = v.picklist(['not-set', 'disabled', 'enabled'], 'must be not-set, disabled or enabled');
const patternsBody = v.object({
	pattern_config_version: v.optional(v.nullable(v.string())),
	provider_pattern_settings: v.optional(
		v.array(v.object({ token_type: v.string(), push_protection_setting: v.optional(providerSetting) })),
	),
	custom_pattern_settings: v.optional(
		v.array(
			v.object({
				token_type: v.string(),
				custom_pattern_version: v.optional(v.nullable(v.string())),
				push_protection_setting: v.optional(v.picklist(['disabled', 'enabled'], 'must be disabled or enabled')),
			}),
		),
	),
});
const billingQuery = v.object({
	advanced_security_product: v.optional(v.picklist(['code_security', 'secret_protection'], 'must be code_security or secret_protection')),
});

/** A new pattern configuration version: 20 random URL-safe characters. */
function newVersion(): string {
	return randomBytes(15).toString('base64url');
}

const patternsAndBilling: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: '/orgs/{org}/secret-scanning/pattern-configurations',
		docs: 'secret-scanning/push-protection#list-organization-pattern-configurations',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		handler(ctx) {
			const config = ctx.app.stores.orgSecurity.patternConfig(ctx.org.org.id);
			return ok({
				pattern_config_version: config.version,
				provider_pattern_overrides: PROVIDER_PATTERNS.map((p) => ({
					token_type: p.token_type,
					slug: p.slug,
					display_name: p.display_name,
					// Gitstead scans no secrets: no alerts, no blocks.
					alert_total: 0,
					alert_total_percentage: 0,
					false_positives: 0,
					false_positive_rate: 0,
					bypass_rate: 0,
					default_setting: p.default_setting,
					...(ctx.org.org.enterprise_id !== null ? { enterprise_setting: 'not-set' } : {}),
					setting: config.provider[p.token_type] ?? 'not-set',
				})),
				// The organization's custom patterns: Gitstead has none.
				custom_pattern_overrides: [],
			});
		},
	}),
	route({
		method: 'PATCH',
		path: '/orgs/{org}/secret-scanning/pattern-configurations',
		docs: 'secret-scanning/push-protection#update-organization-pattern-configurations',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'PatternConfiguration',
		body: patternsBody,
		handler(ctx) {
			const org = ctx.org.org;
			const store = ctx.app.stores.orgSecurity;
			const current = store.patternConfig(org.id);
			const given = ctx.body.pattern_config_version;
			// The version guards against overwriting someone else's change (GitHub's 409).
			if (given !== undefined && given !== current.version) {
				throw conflict(
					`pattern_config_version ${given === null ? 'null' : `"${given}"`} is not the current version; read the configuration again.`,
				);
			}
			const provider: Record<string, string> = { ...current.provider };
			for (const setting of ctx.body.provider_pattern_settings ?? []) {
				if (!PROVIDER_PATTERNS.some((p) => p.token_type === setting.token_type)) {
					throw invalidField(
						'PatternConfiguration',
						'provider_pattern_settings',
						`${setting.token_type} is not a provider pattern`,
					);
				}
				if (setting.push_protection_setting === undefined) continue;
				if (setting.push_protection_setting === 'not-set') delete provider[setting.token_type];
				else provider[setting.token_type] = setting.push_protection_setting;
			}
			const custom = ctx.body.custom_pattern_settings ?? [];
			if (custom.length)
				throw invalidField(
					'PatternConfiguration',
					'custom_pattern_settings',
					`${custom[0].token_type} is not a custom pattern of ${org.login}`,
				);
			const version = newVersion();
			store.setPatternConfig(org.id, version, provider);
			return ok({ pattern_config_version: version });
		},
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/settings/billing/advanced-security',
		docs: 'billing/billing#get-github-advanced-security-active-committers-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		query: billingQuery,
		pagination: true,
		handler(ctx) {
			const body = advancedSecurityCommitters(ctx.app, ctx.org.org, ctx.query.advanced_security_product, ctx.now, {
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return { status: 200, body, total: body.total_count };
		},
	}),
];

export const orgSecurityRoutes: RouteDeclaration[] = [
	...patternsAndBilling,
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
