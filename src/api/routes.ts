/**
 * The route table: every area's declarations (one routes module each), in one list
 * (test/matrix.test.ts walks it). Each area's module is loaded by a `require` inside its `load`, so
 * the bundle evaluates an area's module (and what only it imports) when `load` first runs: the
 * server builds its table from the route manifest (src/api/route-manifest.ts) and loads an area at
 * the first request that matches one of its routes; routeDeclarations() loads them all.
 */
import type { RouteDeclaration } from '../http/route';

/** A route area: the declarations of one routes module, loaded (its module evaluated) at the first call. */
export interface RouteArea {
	/** The module's path below src/api without its `routes` suffix ('teams', 'pulls/merge'): the manifest's area. */
	readonly name: string;
	/** Requires the module and returns its declarations (Node caches the module: later calls are cheap). */
	load(): RouteDeclaration[];
}

/**
 * The areas, in the route table's order. Order does not decide matching: a static segment
 * (/issues/comments) wins over a parameter (/issues/{issue_number}) at the same place
 * (src/http/router.ts).
 */
export const ROUTE_AREAS: readonly RouteArea[] = [
	{ name: 'meta', load: () => (require('./meta/routes') as typeof import('./meta/routes')).metaRoutes },
	{ name: 'rate-limit', load: () => (require('./rate-limit/routes') as typeof import('./rate-limit/routes')).rateLimitRoutes },
	{ name: 'users', load: () => (require('./users/routes') as typeof import('./users/routes')).userRoutes },
	{ name: 'users/email', load: () => (require('./users/email-routes') as typeof import('./users/email-routes')).emailRoutes },
	{ name: 'stats', load: () => (require('./stats/routes') as typeof import('./stats/routes')).statsRoutes },
	{ name: 'keys', load: () => (require('./keys/routes') as typeof import('./keys/routes')).keyRoutes },
	{ name: 'orgs', load: () => (require('./orgs/routes') as typeof import('./orgs/routes')).orgRoutes },
	{ name: 'audit-log', load: () => (require('./audit-log/routes') as typeof import('./audit-log/routes')).auditLogRoutes },
	{
		name: 'roles',
		load: () => {
			const area = require('./roles/routes') as typeof import('./roles/routes');
			return [...area.roleRoutes, ...area.legacyRoleRoutes];
		},
	},
	{ name: 'org-actions', load: () => (require('./org-actions/routes') as typeof import('./org-actions/routes')).orgActionsRoutes },
	{ name: 'members', load: () => (require('./members/routes') as typeof import('./members/routes')).memberRoutes },
	{
		name: 'outside-collaborators',
		load: () =>
			(require('./outside-collaborators/routes') as typeof import('./outside-collaborators/routes')).outsideCollaboratorRoutes,
	},
	{ name: 'teams', load: () => (require('./teams/routes') as typeof import('./teams/routes')).teamsRoutes },
	{
		name: 'external-groups',
		load: () => (require('./external-groups/routes') as typeof import('./external-groups/routes')).externalGroupRoutes,
	},
	{
		name: 'enterprise-apps',
		load: () => (require('./enterprise-apps/routes') as typeof import('./enterprise-apps/routes')).enterpriseAppRoutes,
	},
	{ name: 'repos', load: () => (require('./repos/routes') as typeof import('./repos/routes')).repositoryRoutes },
	{
		name: 'collaborators',
		load: () => (require('./collaborators/routes') as typeof import('./collaborators/routes')).collaboratorRoutes,
	},
	{
		name: 'custom-properties',
		load: () => (require('./custom-properties/routes') as typeof import('./custom-properties/routes')).customPropertyRoutes,
	},
	{ name: 'rulesets', load: () => (require('./rulesets/routes') as typeof import('./rulesets/routes')).rulesetRoutes },
	{ name: 'budgets', load: () => (require('./budgets/routes') as typeof import('./budgets/routes')).budgetRoutes },
	{ name: 'runner-groups', load: () => (require('./runner-groups/routes') as typeof import('./runner-groups/routes')).runnerGroupRoutes },
	{
		name: 'runner-groups/org',
		load: () => (require('./runner-groups/org-routes') as typeof import('./runner-groups/org-routes')).orgRunnerGroupRoutes,
	},
	{ name: 'migrations', load: () => (require('./migrations/routes') as typeof import('./migrations/routes')).migrationRoutes },
	{
		name: 'global-webhooks',
		load: () => (require('./global-webhooks/routes') as typeof import('./global-webhooks/routes')).globalWebhookRoutes,
	},
	{
		name: 'hooks',
		load: () => {
			const area = require('./hooks/routes') as typeof import('./hooks/routes');
			return [...area.organizationWebhookRoutes, ...area.repositoryWebhookRoutes];
		},
	},
	{ name: 'apps', load: () => (require('./apps/routes') as typeof import('./apps/routes')).appRoutes },
	{ name: 'git', load: () => (require('./git/routes') as typeof import('./git/routes')).gitRoutes },
	{ name: 'contents', load: () => (require('./contents/routes') as typeof import('./contents/routes')).contentRoutes },
	{ name: 'gitignore', load: () => (require('./gitignore/routes') as typeof import('./gitignore/routes')).gitignoreRoutes },
	{ name: 'licenses', load: () => (require('./licenses/routes') as typeof import('./licenses/routes')).licenseRoutes },
	{ name: 'branches', load: () => (require('./branches/routes') as typeof import('./branches/routes')).branchRoutes },
	{ name: 'commits', load: () => (require('./commits/routes') as typeof import('./commits/routes')).commitRoutes },
	{ name: 'deployments', load: () => (require('./deployments/routes') as typeof import('./deployments/routes')).deploymentRoutes },
	{ name: 'statuses', load: () => (require('./statuses/routes') as typeof import('./statuses/routes')).statusRoutes },
	{ name: 'releases', load: () => (require('./releases/routes') as typeof import('./releases/routes')).releaseRoutes },
	{ name: 'actions', load: () => (require('./actions/routes') as typeof import('./actions/routes')).actionsRoutes },
	{
		name: 'actions-secrets',
		load: () => (require('./actions-secrets/routes') as typeof import('./actions-secrets/routes')).secretRoutesTable,
	},
	{ name: 'checks', load: () => (require('./checks/routes') as typeof import('./checks/routes')).checkRoutes },
	{ name: 'gists', load: () => (require('./gists/routes') as typeof import('./gists/routes')).gistRoutes },
	{
		name: 'issue-comments',
		load: () => (require('./issue-comments/routes') as typeof import('./issue-comments/routes')).issueCommentRoutes,
	},
	{ name: 'issues', load: () => (require('./issues/routes') as typeof import('./issues/routes')).issueRoutes },
	{ name: 'issues/event', load: () => (require('./issues/event-routes') as typeof import('./issues/event-routes')).issueEventRoutes },
	{ name: 'timeline', load: () => (require('./timeline/routes') as typeof import('./timeline/routes')).timelineRoutes },
	{ name: 'pulls', load: () => (require('./pulls/routes') as typeof import('./pulls/routes')).pullRoutes },
	{ name: 'pulls/merge', load: () => (require('./pulls/merge-routes') as typeof import('./pulls/merge-routes')).pullMergeRoutes },
	{ name: 'pulls/review', load: () => (require('./pulls/review-routes') as typeof import('./pulls/review-routes')).reviewRequestRoutes },
	{
		name: 'pulls/review-comment',
		load: () => (require('./pulls/review-comment-routes') as typeof import('./pulls/review-comment-routes')).reviewCommentRoutes,
	},
	{ name: 'labels', load: () => (require('./labels/routes') as typeof import('./labels/routes')).labelRoutes },
	{ name: 'milestones', load: () => (require('./milestones/routes') as typeof import('./milestones/routes')).milestoneRoutes },
	{ name: 'reactions', load: () => (require('./reactions/routes') as typeof import('./reactions/routes')).reactionsRoutes },
	{ name: 'dependabot', load: () => (require('./dependabot/routes') as typeof import('./dependabot/routes')).dependabotRoutes },
	{
		name: 'dependency-graph',
		load: () => (require('./dependency-graph/routes') as typeof import('./dependency-graph/routes')).dependencyGraphRoutes,
	},
	{
		name: 'code-security',
		load: () => (require('./code-security/routes') as typeof import('./code-security/routes')).codeSecurityRoutes,
	},
	{
		name: 'code-security/repository',
		load: () =>
			(require('./code-security/repository-routes') as typeof import('./code-security/repository-routes')).repositorySecurityRoutes,
	},
	{ name: 'community', load: () => (require('./community/routes') as typeof import('./community/routes')).communityRoutes },
	{ name: 'org-security', load: () => (require('./org-security/routes') as typeof import('./org-security/routes')).orgSecurityRoutes },
	{
		name: 'immutable-releases',
		load: () => (require('./immutable-releases/routes') as typeof import('./immutable-releases/routes')).immutableReleaseRoutes,
	},
	{ name: 'feeds', load: () => (require('./feeds/routes') as typeof import('./feeds/routes')).feedRoutes },
	{ name: 'starring', load: () => (require('./starring/routes') as typeof import('./starring/routes')).starringRoutes },
	{ name: 'watching', load: () => (require('./watching/routes') as typeof import('./watching/routes')).watchingRoutes },
	{
		name: 'notifications',
		load: () => (require('./notifications/routes') as typeof import('./notifications/routes')).notificationRoutes,
	},
	{ name: 'search', load: () => (require('./search/routes') as typeof import('./search/routes')).searchRoutes },
	{ name: 'misc', load: () => (require('./misc/routes') as typeof import('./misc/routes')).miscRoutes },
	{ name: 'markdown', load: () => (require('./markdown/routes') as typeof import('./markdown/routes')).markdownRoutes },
	{ name: 'graphql', load: () => (require('./graphql/routes') as typeof import('./graphql/routes')).graphqlRoutes },
];

/** Every area's declarations, in route-table order (loads every area's module). */
export function routeDeclarations(): RouteDeclaration[] {
	return ROUTE_AREAS.flatMap((area) => area.load());
}
