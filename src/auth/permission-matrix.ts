/**
 * The permission matrix (the permission each route needs for fine-grained and app tokens, as GitHub's
 * "Permissions required for fine-grained personal access tokens" lists it), encoded once, as data.
 * Routes take their policy from it with `matrixPolicy('METHOD /path')`; test/matrix.test.ts
 * walks every row whose path Gitstead implements and checks the route against it over HTTP.
 *
 * Notation: `O` = /orgs/{org}; `GET|PUT` = one row per method;
 * `[a|b]` = one row per alternative path segment; a trailing ` *` marks the "multiple
 * permissions are needed" rows, whose full sets are given in MULTIPLE below where they are
 * them. `depbot` paths are written with GitHub's `dependabot`.
 */
import type { TokenKind } from './tokens';
import type { Level, PermissionKey, PermissionPolicy, PermissionSet } from './permissions';

export interface MatrixRow {
	method: string;
	/** GitHub path syntax, e.g. /orgs/{org}/teams */
	path: string;
	/** Alternatives; the row's own category (level) is the first set. */
	policy: PermissionPolicy;
	/** Token kinds the row rejects (e.g. "UAT only, no IAT" rejects installation tokens). */
	rejects: TokenKind[];
	/** The spec marks the row with '*' (more than one permission, or a substitute). */
	multiple: boolean;
}

const O = '/orgs/{org}';
const ACTIONS_PERMISSION_PAGES =
	'[artifact-and-log-retention|fork-pr-contributor-approval|fork-pr-workflows-private-repos|repositories|selected-actions|self-hosted-runners|self-hosted-runners/repositories|workflow]';
const INSTALLATIONS = '/enterprises/{enterprise}/apps/organizations/{org}/installations';

/** Rows by category and level, as the matrix lists them. */
const SOURCE: Array<{ key: PermissionKey; level: Level; rows: string[] }> = [
	{
		key: 'organization_administration',
		level: 'write',
		rows: [
			`PATCH|DELETE ${O}`,
			`PUT ${O}/actions/oidc/customization/sub`,
			`PUT ${O}/actions/permissions`,
			`PUT ${O}/actions/permissions/${ACTIONS_PERMISSION_PAGES}`,
			`PUT|DELETE ${O}/actions/permissions/repositories/{repository_id} *`,
			`PUT|DELETE ${O}/actions/permissions/self-hosted-runners/repositories/{repository_id} *`,
			`GET ${O}/bypass-requests/push-rules`,
			`POST ${O}/code-security/configurations`,
			`DELETE ${O}/code-security/configurations/detach`,
			`PATCH|DELETE ${O}/code-security/configurations/{configuration_id}`,
			`POST ${O}/code-security/configurations/{configuration_id}/attach`,
			`PUT ${O}/code-security/configurations/{configuration_id}/defaults`,
			`PATCH ${O}/dependabot/repository-access`,
			`PUT ${O}/dependabot/repository-access/default-level`,
			`GET|POST ${O}/rulesets`,
			`GET ${O}/rulesets/rule-suites`,
			`GET ${O}/rulesets/rule-suites/{rule_suite_id}`,
			`GET|PUT|DELETE ${O}/rulesets/{ruleset_id}`,
			`GET ${O}/rulesets/{ruleset_id}/history`,
			`GET ${O}/rulesets/{ruleset_id}/history/{version_id}`,
			`PATCH ${O}/secret-scanning/pattern-configurations`,
			`PUT|DELETE ${O}/security-managers/teams/{team_slug}`,
			`PUT ${O}/settings/immutable-releases`,
			`PUT ${O}/settings/immutable-releases/repositories *`,
			`PUT|DELETE ${O}/settings/immutable-releases/repositories/{repository_id} *`,
			`POST ${O}/{security_product}/{enablement}`,
		],
	},
	{
		key: 'organization_administration',
		level: 'read',
		rows: [
			'GET /organizations/{organization_id}/custom_roles *',
			`GET ${O}/actions/cache/usage`,
			`GET ${O}/actions/cache/usage-by-repository`,
			`GET ${O}/actions/oidc/customization/sub`,
			`GET ${O}/actions/permissions`,
			`GET ${O}/actions/permissions/${ACTIONS_PERMISSION_PAGES}`,
			`GET ${O}/audit-log`,
			`GET ${O}/code-security/configurations`,
			`GET ${O}/code-security/configurations/defaults`,
			`GET ${O}/code-security/configurations/{configuration_id}`,
			`GET ${O}/code-security/configurations/{configuration_id}/repositories`,
			`GET ${O}/custom-repository-roles *`,
			`GET ${O}/custom-repository-roles/{role_id} *`,
			`GET ${O}/dependabot/repository-access`,
			`GET ${O}/installations`,
			`GET ${O}/repository-fine-grained-permissions *`,
			`GET ${O}/secret-scanning/pattern-configurations`,
			`GET ${O}/security-managers`,
			`GET ${O}/settings/billing/advanced-security`,
			`GET ${O}/settings/immutable-releases`,
			`GET ${O}/settings/immutable-releases/repositories`,
		],
	},
	{
		key: 'members',
		level: 'write',
		rows: [
			`GET ${O}/external-group/{group_id}`,
			`GET ${O}/external-groups`,
			`DELETE ${O}/members/{username}`,
			`PUT|DELETE ${O}/memberships/{username}`,
			`DELETE ${O}/organization-roles/teams/{team_slug}`,
			`PUT|DELETE ${O}/organization-roles/teams/{team_slug}/{role_id}`,
			`DELETE ${O}/organization-roles/users/{username}`,
			`PUT|DELETE ${O}/organization-roles/users/{username}/{role_id}`,
			`PUT|DELETE ${O}/outside_collaborators/{username}`,
			`PUT|DELETE ${O}/public_members/{username} !installation`,
			`POST ${O}/teams`,
			`PATCH|DELETE ${O}/teams/{team_slug}`,
			`GET|PATCH|DELETE ${O}/teams/{team_slug}/external-groups`,
			`PUT|DELETE ${O}/teams/{team_slug}/memberships/{username}`,
			'PATCH|DELETE /teams/{team_id}',
			'PUT|DELETE /teams/{team_id}/members/{username}',
			'PUT|DELETE /teams/{team_id}/memberships/{username}',
			'PATCH /user/memberships/orgs/{org} !installation',
		],
	},
	{
		key: 'members',
		level: 'read',
		rows: [
			`GET ${O}/members`,
			`GET ${O}/members/{username}`,
			`GET ${O}/memberships/{username}`,
			`GET ${O}/organization-roles/{role_id}/teams`,
			`GET ${O}/organization-roles/{role_id}/users`,
			`GET ${O}/outside_collaborators`,
			`GET ${O}/public_members`,
			`GET ${O}/public_members/{username}`,
			`GET ${O}/teams`,
			`GET ${O}/teams/{team_slug}`,
			`GET ${O}/teams/{team_slug}/members`,
			`GET ${O}/teams/{team_slug}/memberships/{username}`,
			`GET ${O}/teams/{team_slug}/repos`,
			`GET ${O}/teams/{team_slug}/teams`,
			`GET|PUT|DELETE ${O}/teams/{team_slug}/repos/{owner}/{repo} *`,
			'GET /teams/{team_id}',
			'GET /teams/{team_id}/members',
			'GET /teams/{team_id}/members/{username}',
			'GET /teams/{team_id}/memberships/{username}',
			'GET /teams/{team_id}/repos',
			'GET /teams/{team_id}/teams',
			'GET|PUT|DELETE /teams/{team_id}/repos/{owner}/{repo} *',
			'GET /user/memberships/orgs/{org}',
		],
	},
	{
		key: 'organization_self_hosted_runners',
		level: 'write',
		rows: [
			`POST ${O}/actions/runner-groups`,
			`PATCH|DELETE ${O}/actions/runner-groups/{runner_group_id}`,
			`PUT ${O}/actions/runner-groups/{runner_group_id}/repositories`,
			`PUT|DELETE ${O}/actions/runner-groups/{runner_group_id}/repositories/{repository_id} *`,
		],
	},
	{
		key: 'enterprise_organization_installations',
		level: 'write',
		rows: [
			`POST ${INSTALLATIONS}`,
			`DELETE ${INSTALLATIONS}/{installation_id}`,
			`PATCH ${INSTALLATIONS}/{installation_id}/repositories *`,
			`PATCH ${INSTALLATIONS}/{installation_id}/repositories/add *`,
			`PATCH ${INSTALLATIONS}/{installation_id}/repositories/remove *`,
		],
	},
	{
		key: 'enterprise_organization_installations',
		level: 'read',
		rows: [
			'GET /enterprises/{enterprise}/apps/installable_organizations',
			'GET /enterprises/{enterprise}/apps/installable_organizations/{org}/accessible_repositories *',
			`GET ${INSTALLATIONS}`,
			`GET ${INSTALLATIONS}/{installation_id}/repositories *`,
		],
	},
];

/**
 * Full permission sets of '*' rows where they are known: the legacy team-repository
 * section lists "Administration repository (write), Members organization (read), Metadata
 * repository (read)" for PUT/DELETE; GET checks visibility of team and repository only.
 */
const MULTIPLE: Record<string, PermissionSet> = {
	'GET /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': { members: 'read', metadata: 'read' },
	'PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': { administration: 'write', members: 'read', metadata: 'read' },
	'DELETE /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}': { administration: 'write', members: 'read', metadata: 'read' },
	'GET /teams/{team_id}/repos/{owner}/{repo}': { members: 'read', metadata: 'read' },
	'PUT /teams/{team_id}/repos/{owner}/{repo}': { administration: 'write', members: 'read', metadata: 'read' },
	'DELETE /teams/{team_id}/repos/{owner}/{repo}': { administration: 'write', members: 'read', metadata: 'read' },
};

function expand(line: string): Array<{ method: string; path: string; multiple: boolean; rejects: TokenKind[] }> {
	const parts = line.split(' ');
	const methods = parts[0].split('|');
	const multiple = parts.includes('*');
	const rejects = parts.filter((p) => p.startsWith('!')).map((p) => p.slice(1) as TokenKind);
	const template = parts[1];
	const alternation = /\[([^\]]+)\]/.exec(template);
	const paths = alternation ? alternation[1].split('|').map((alt) => template.replace(alternation[0], alt)) : [template];
	return methods.flatMap((method) => paths.map((path) => ({ method, path, multiple, rejects })));
}

/** Every row of the matrix. */
export const MATRIX: readonly MatrixRow[] = SOURCE.flatMap(({ key, level, rows }) =>
	rows.flatMap(expand).map((row) => {
		const id = `${row.method} ${row.path}`;
		const set: PermissionSet = MULTIPLE[id] ?? { [key]: level };
		return { ...row, policy: [set] };
	}),
);

const BY_ID = new Map(MATRIX.map((row) => [`${row.method} ${row.path}`, row]));

/**
 * The matrix row of a route, e.g. `matrixRow('POST /orgs/{org}/teams')`; a `/depbot/` path takes
 * the row of its `/dependabot/` spelling.
 * @throws Error at startup when the permission matrix has no such row (a typo in a route declaration).
 */
export function matrixRow(id: string): MatrixRow {
	// The `depbot` spelling names the row of GitHub's `dependabot` path.
	const row = BY_ID.get(id) ?? BY_ID.get(id.replace(/\/depbot(?=\/|$)/, '/dependabot'));
	if (!row) throw new Error(`the permission matrix has no row "${id}"`);
	return row;
}
