/**
 * Response shapes: GitHub's `deployment`; GitHub's `deployment-status`;
 * GitHub's `environment` (protection rules, deployment_branch_policy) and DeploymentBranchPolicy.
 */
import type { App } from '../../app';
import { nodeId, type Urls } from '../../model/urls';
import { integration } from '../apps/render';
import { teamListForm } from '../../model/render';
import type { TeamRow, AccountRow } from '../../model/rows';
import type { RepositoryPaths } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { BranchPolicyRow, DeploymentRow, EnvironmentRow, ReviewerRow, RuleRow, StatusRow } from './store';

/**
 * `performed_via_github_app` of a deployment: the app it was created through (GitHub's
 * integration record), or null when none was, or the app is gone.
 */
export function performedVia(app: App, appId: number | null): unknown {
	if (appId === null) return null;
	const found = app.stores.apps.byId(appId);
	const owner = found && app.stores.accounts.byId(found.owner_id);
	return found && owner ? integration(app.urls, found, owner, app.stores.apps.installationCount(found.id)) : null;
}
/** API URL of an environment (the name URL-encoded: '/' becomes %2F). */
export function environmentUrl(repo: RepositoryPaths, name: string): string {
	return `${repo.api}/environments/${encodeURIComponent(name)}`;
}

/** API URL of a deployment branch policy. */
export function branchPolicyUrl(repo: RepositoryPaths, environment: string, id: number): string {
	return `${environmentUrl(repo, environment)}/deployment-branch-policies/${id}`;
}

/**
 * A deployment. payload comes back as given (object or string).
 * @param creator the creating account, undefined when it is gone
 * @param app the app the deployment was created through (`performed_via_github_app`), or null
 */
export function deployment(urls: Urls, repo: RepositoryPaths, row: DeploymentRow, creator: AccountRow | undefined, app: unknown) {
	const url = `${repo.api}/deployments/${row.id}`;
	return {
		url,
		id: row.id,
		node_id: nodeId('Deployment', row.id),
		sha: row.sha,
		ref: row.ref,
		task: row.task,
		payload: JSON.parse(row.payload) as unknown,
		original_environment: row.original_environment,
		environment: row.environment,
		description: row.description,
		creator: creator ? simpleUser(urls, creator) : null,
		created_at: row.created_at,
		updated_at: row.updated_at,
		statuses_url: `${url}/statuses`,
		repository_url: repo.api,
		transient_environment: row.transient_environment === 1,
		production_environment: row.production_environment === 1,
		performed_via_github_app: app,
	};
}

/**
 * A DeploymentStatus: its fields, in a fixed order. environment_url and log_url are URIs in
 * GitHub's description (format uri, not required): left out when none was given. target_url, which
 * the description requires, keeps its default, empty (docs/COMPATIBILITY.md).
 */
export function deploymentStatus(urls: Urls, repo: RepositoryPaths, row: StatusRow, creator: AccountRow | undefined) {
	const deploymentUrl = `${repo.api}/deployments/${row.deployment_id}`;
	return {
		url: `${deploymentUrl}/statuses/${row.id}`,
		id: row.id,
		node_id: nodeId('DeploymentStatus', row.id),
		state: row.state,
		creator: creator ? simpleUser(urls, creator) : null,
		description: row.description,
		environment: row.environment,
		target_url: row.target_url,
		created_at: row.created_at,
		updated_at: row.updated_at,
		deployment_url: deploymentUrl,
		repository_url: repo.api,
		...(row.environment_url === '' ? {} : { environment_url: row.environment_url }),
		...(row.log_url === '' ? {} : { log_url: row.log_url }),
	};
}

/** What an environment's reviewers resolve to. */
export interface ReviewerLookup {
	users: Map<number, AccountRow>;
	teams: Map<number, TeamRow>;
	/** Login of the organization owning the teams. */
	orgLogin: string;
}

/**
 * An environment with its protection rules (wait_timer, required_reviewers, branch_policy, in the
 * order they were first set) and deployment_branch_policy (null: every branch may deploy).
 */
export function environment(
	urls: Urls,
	repo: RepositoryPaths,
	row: EnvironmentRow,
	rules: RuleRow[],
	reviewers: ReviewerRow[],
	lookup: ReviewerLookup,
) {
	const protection = rules
		.filter((rule) => rule.environment_id === row.id)
		.map((rule) => {
			const base = { id: rule.id, node_id: nodeId('Gate', rule.id) };
			switch (rule.type) {
				case 'wait_timer':
					return { ...base, type: rule.type, wait_timer: row.wait_timer };
				case 'required_reviewers':
					return {
						...base,
						prevent_self_review: row.prevent_self_review === 1,
						type: rule.type,
						reviewers: reviewers
							.filter((r) => r.environment_id === row.id)
							.flatMap((r): Array<{ type: 'User' | 'Team'; reviewer: object }> => {
								const user = r.user_id !== null ? lookup.users.get(r.user_id) : undefined;
								if (user) return [{ type: 'User', reviewer: simpleUser(urls, user) }];
								const team = r.team_id !== null ? lookup.teams.get(r.team_id) : undefined;
								if (team) return [{ type: 'Team', reviewer: teamListForm(urls, lookup.orgLogin, team, undefined) }];
								return [];
							}),
					};
				default:
					return { ...base, type: rule.type };
			}
		});
	return {
		id: row.id,
		node_id: nodeId('Environment', row.id),
		name: row.name,
		url: environmentUrl(repo, row.name),
		html_url: `${repo.html}/deployments/activity_log?environments_filter=${encodeURIComponent(row.name)}`,
		created_at: row.created_at,
		updated_at: row.updated_at,
		can_admins_bypass: row.can_admins_bypass === 1,
		protection_rules: protection,
		deployment_branch_policy:
			row.branch_policy === null
				? null
				: { protected_branches: row.branch_policy === 'protected', custom_branch_policies: row.branch_policy === 'custom' },
	};
}

/** A DeploymentBranchPolicy. */
export function branchPolicy(row: BranchPolicyRow) {
	return { id: row.id, node_id: nodeId('GateBranchPolicy', row.id), name: row.name, type: row.type };
}
