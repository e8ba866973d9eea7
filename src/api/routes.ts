/**
 * The route table: every area's declarations, in one list (test/matrix.test.ts walks it).
 */
import type { RouteDeclaration } from '../http/route';
import { actionsRoutes } from './actions/routes';
import { secretRoutesTable } from './actions-secrets/routes';
import { graphqlRoutes } from './graphql/routes';
import { appRoutes } from './apps/routes';
import { checkRoutes } from './checks/routes';
import { codeSecurityRoutes } from './code-security/routes';
import { repositorySecurityRoutes } from './code-security/repository-routes';
import { communityRoutes } from './community/routes';
import { dependabotRoutes } from './dependabot/routes';
import { dependencyGraphRoutes } from './dependency-graph/routes';
import { feedRoutes } from './feeds/routes';
import { deploymentRoutes } from './deployments/routes';
import { gistRoutes } from './gists/routes';
import { immutableReleaseRoutes } from './immutable-releases/routes';
import { issueCommentRoutes } from './issue-comments/routes';
import { issueEventRoutes } from './issues/event-routes';
import { timelineRoutes } from './timeline/routes';
import { issueRoutes } from './issues/routes';
import { pullRoutes } from './pulls/routes';
import { pullMergeRoutes } from './pulls/merge-routes';
import { reviewRequestRoutes } from './pulls/review-routes';
import { reviewCommentRoutes } from './pulls/review-comment-routes';
import { auditLogRoutes } from './audit-log/routes';
import { labelRoutes } from './labels/routes';
import { legacyRoleRoutes, roleRoutes } from './roles/routes';
import { gitRoutes } from './git/routes';
import { contentRoutes } from './contents/routes';
import { gitignoreRoutes } from './gitignore/routes';
import { licenseRoutes } from './licenses/routes';
import { budgetRoutes } from './budgets/routes';
import { collaboratorRoutes } from './collaborators/routes';
import { branchRoutes } from './branches/routes';
import { commitRoutes } from './commits/routes';
import { customPropertyRoutes } from './custom-properties/routes';
import { memberRoutes } from './members/routes';
import { globalWebhookRoutes } from './global-webhooks/routes';
import { organizationWebhookRoutes, repositoryWebhookRoutes } from './hooks/routes';
import { markdownRoutes } from './markdown/routes';
import { metaRoutes } from './meta/routes';
import { milestoneRoutes } from './milestones/routes';
import { miscRoutes } from './misc/routes';
import { migrationRoutes } from './migrations/routes';
import { notificationRoutes } from './notifications/routes';
import { orgRoutes } from './orgs/routes';
import { orgSecurityRoutes } from './org-security/routes';
import { orgActionsRoutes } from './org-actions/routes';
import { outsideCollaboratorRoutes } from './outside-collaborators/routes';
import { rateLimitRoutes } from './rate-limit/routes';
import { reactionsRoutes } from './reactions/routes';
import { runnerGroupRoutes } from './runner-groups/routes';
import { rulesetRoutes } from './rulesets/routes';
import { orgRunnerGroupRoutes } from './runner-groups/org-routes';
import { searchRoutes } from './search/routes';
import { releaseRoutes } from './releases/routes';
import { repositoryRoutes } from './repos/routes';
import { starringRoutes } from './starring/routes';
import { statusRoutes } from './statuses/routes';
import { teamsRoutes } from './teams/routes';
import { externalGroupRoutes } from './external-groups/routes';
import { enterpriseAppRoutes } from './enterprise-apps/routes';
import { userRoutes } from './users/routes';
import { emailRoutes } from './users/email-routes';
import { statsRoutes } from './stats/routes';
import { keyRoutes } from './keys/routes';
import { watchingRoutes } from './watching/routes';

export const ROUTES: RouteDeclaration[] = [
	...metaRoutes,
	...rateLimitRoutes,
	...userRoutes,
	...emailRoutes,
	...statsRoutes,
	...keyRoutes,
	...orgRoutes,
	...auditLogRoutes,
	...roleRoutes,
	...legacyRoleRoutes,
	...orgActionsRoutes,
	...memberRoutes,
	...outsideCollaboratorRoutes,
	...teamsRoutes,
	...externalGroupRoutes,
	...enterpriseAppRoutes,
	...repositoryRoutes,
	...collaboratorRoutes,
	...customPropertyRoutes,
	...rulesetRoutes,
	...budgetRoutes,
	...runnerGroupRoutes,
	...orgRunnerGroupRoutes,
	...migrationRoutes,
	...globalWebhookRoutes,
	...organizationWebhookRoutes,
	...repositoryWebhookRoutes,
	...appRoutes,
	...gitRoutes,
	...contentRoutes,
	...gitignoreRoutes,
	...licenseRoutes,
	...branchRoutes,
	...commitRoutes,
	...deploymentRoutes,
	...statusRoutes,
	...releaseRoutes,
	...actionsRoutes,
	...secretRoutesTable,
	...checkRoutes,
	...gistRoutes,
	// Order does not decide matching: a static segment (/issues/comments) wins over a parameter
	// (/issues/{issue_number}) at the same place (src/http/router.ts).
	...issueCommentRoutes,
	...issueRoutes,
	...issueEventRoutes,
	...timelineRoutes,
	...pullRoutes,
	...pullMergeRoutes,
	...reviewRequestRoutes,
	...reviewCommentRoutes,
	...labelRoutes,
	...milestoneRoutes,
	...reactionsRoutes,
	...dependabotRoutes,
	...dependencyGraphRoutes,
	...codeSecurityRoutes,
	...repositorySecurityRoutes,
	...communityRoutes,
	...orgSecurityRoutes,
	...immutableReleaseRoutes,
	...feedRoutes,
	...starringRoutes,
	...watchingRoutes,
	...notificationRoutes,
	...searchRoutes,
	...miscRoutes,
	...markdownRoutes,
	...graphqlRoutes,
];
