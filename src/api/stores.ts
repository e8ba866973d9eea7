/**
 * Every area's store (its prepared statements), created once per open database. Stores import only
 * src/db and each other's row types, so anything may depend on the `Stores` shape.
 */
import type { DB } from '../db/open';
import { createActionsStore } from './actions/store';
import { createSecretStore } from './actions-secrets/store';
import { createAppStore } from './apps/store';
import { createCheckStore } from './checks/store';
import { createBranchStore } from './branches/store';
import { createBudgetStore } from './budgets/store';
import { createCodeSecurityStore } from './code-security/store';
import { createCollaboratorStore } from './collaborators/store';
import { createCustomPropertyStore } from './custom-properties/store';
import { createDependabotStore } from './dependabot/store';
import { createDependencyGraphStore } from './dependency-graph/store';
import { createDeploymentStore } from './deployments/store';
import { createEnterpriseStore } from './enterprises/store';
import { createGistStore } from './gists/store';
import { createGitStore } from './git/store';
import { createKeyStore } from './keys/store';
import { createImmutableReleaseStore } from './immutable-releases/store';
import { createIssueEventStore } from './issues/event-store';
import { createIssueStore } from './issues/store';
import { createLabelStore } from './labels/store';
import { createMembershipStore } from './members/store';
import { createMilestoneStore } from './milestones/store';
import { createMigrationStore } from './migrations/store';
import { createNotificationStore } from './notifications/store';
import { createOrgStore } from './orgs/store';
import { createOrgSecurityStore } from './org-security/store';
import { createOrgActionsStore } from './org-actions/store';
import { createPullStore } from './pulls/store';
import { createAutoMergeStore } from './pulls/auto-merge-store';
import { createReviewStore } from './pulls/review-store';
import { createReactionStore } from './reactions/store';
import { createReleaseStore } from './releases/store';
import { createRepositoryStore } from './repos/store';
import { ChangeCounters } from '../db/change-counters';
import { lazyPreparing } from '../db/lazy';
import { createRunnerGroupStore } from './runner-groups/store';
import { createRulesetStore } from './rulesets/store';
import { createSearchStore } from './search/store';
import { createIssueIndexStore } from './search/issue-index-store';
import { createCodeSearchStore } from './search/code-store';
import { createCommitSearchStore } from './search/commit-store';
import { createIssueAdminStore } from './issues/admin-store';
import { createJobLogStore } from './actions/log-store';
import { createStarStore } from './starring/store';
import { createStatusStore } from './statuses/store';
import { createTeamStore } from './teams/store';
import { createAccountStore } from './users/store';
import { createUserEmailStore } from './users/email-store';
import { createStatsStore } from './stats/store';
import { createSubscriptionStore } from './watching/store';
import { createWebhookStore } from '../webhooks/store';
import { createAuditStore } from '../events/audit-store';
import { createEventStore } from '../events/store';
import { createRoleStore } from './roles/store';
import { createExternalGroupStore } from './external-groups/store';

/** Prepares every area's statements on `db`. */
export function createStores(database: DB) {
	const changes = new ChangeCounters(database);
	// Statements are prepared when first used, not all of them before the first answer.
	const db = lazyPreparing(database);
	return {
		/** What this connection changed (repository rows, issue content …): caches and validators follow it. */
		changes,
		accounts: createAccountStore(db),
		emails: createUserEmailStore(db),
		orgs: createOrgStore(db),
		enterprises: createEnterpriseStore(db),
		memberships: createMembershipStore(db),
		teams: createTeamStore(db),
		repos: createRepositoryStore(db, changes),
		collaborators: createCollaboratorStore(db),
		customProperties: createCustomPropertyStore(db),
		budgets: createBudgetStore(db),
		runnerGroups: createRunnerGroupStore(db),
		orgActions: createOrgActionsStore(db),
		migrations: createMigrationStore(db),
		webhooks: createWebhookStore(db),
		apps: createAppStore(db),
		git: createGitStore(db),
		keys: createKeyStore(db),
		branches: createBranchStore(db),
		deployments: createDeploymentStore(db),
		actions: createActionsStore(db),
		secrets: createSecretStore(db),
		checks: createCheckStore(db),
		gists: createGistStore(db),
		dependabot: createDependabotStore(db),
		dependencyGraph: createDependencyGraphStore(db),
		issues: createIssueStore(db),
		issueEvents: createIssueEventStore(db),
		pulls: createPullStore(db),
		autoMerges: createAutoMergeStore(db),
		reviews: createReviewStore(db),
		labels: createLabelStore(db),
		milestones: createMilestoneStore(db),
		reactions: createReactionStore(db),
		events: createEventStore(db),
		roles: createRoleStore(db),
		auditLog: createAuditStore(db),
		stars: createStarStore(db),
		statuses: createStatusStore(db),
		releases: createReleaseStore(db),
		subscriptions: createSubscriptionStore(db),
		notifications: createNotificationStore(db),
		search: createSearchStore(db),
		issueIndex: createIssueIndexStore(db),
		codeSearch: createCodeSearchStore(db),
		commitSearch: createCommitSearchStore(db),
		stats: createStatsStore(db),
		issueAdmin: createIssueAdminStore(db),
		jobLogs: createJobLogStore(db),
		rulesets: createRulesetStore(db),
		codeSecurity: createCodeSecurityStore(db),
		orgSecurity: createOrgSecurityStore(db),
		immutableReleases: createImmutableReleaseStore(db),
		externalGroups: createExternalGroupStore(db),
	};
}

export type Stores = ReturnType<typeof createStores>;
