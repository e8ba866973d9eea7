/**
 * GitHub's branch and branch-protection shapes (OpenAPI short-branch, branch-with-protection,
 * protected-branch and its parts: status-check-policy, protected-branch-admin-enforced,
 * protected-branch-pull-request-review, branch-restriction-policy), and the
 * branch_protection_rule webhook's `rule`.
 */
import type { App } from '../../app';
import { integration } from '../apps/render';
import { shortBranch } from '../commits/render';
import { repoApi, type RepoView } from '../git/render';
import { teamListForm } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { ActorIds, ProtectionRow, ProtectionSettings, ReviewSettings, StatusChecksSettings } from './store';

/** API URL of a branch (…/branches/<name>, the name's characters escaped, its slashes kept). */
export function branchUrl(app: App, view: RepoView, branch: string): string {
	return `${repoApi(app.urls, view)}/branches/${branch.split('/').map(encodeURIComponent).join('/')}`;
}

/** …/branches/<name>/protection */
export const protectionUrl = (app: App, view: RepoView, branch: string) => `${branchUrl(app, view, branch)}/protection`;

/** ShortBranch: an item of the branches list (commits/render.ts: the commits routes list branches too). */
export { shortBranch };

/**
 * The `protection` summary of a branch (branch-protection): enabled and its required status checks
 * with their enforcement level ('off', 'non_admins', 'everyone').
 */
export function protectionSummary(settings: ProtectionSettings | null) {
	const checks = settings?.required_status_checks ?? null;
	return {
		enabled: settings !== null,
		required_status_checks: {
			enforcement_level: checks ? (settings!.enforce_admins ? 'everyone' : 'non_admins') : 'off',
			contexts: checks?.contexts ?? [],
			checks: checks?.checks ?? [],
		},
	};
}

/** StatusCheckPolicy: GET …/protection/required_status_checks. */
export function statusChecks(app: App, view: RepoView, branch: string, checks: StatusChecksSettings) {
	const url = `${protectionUrl(app, view, branch)}/required_status_checks`;
	return { url, strict: checks.strict, contexts: checks.contexts, contexts_url: `${url}/contexts`, checks: checks.checks };
}

/** ProtectedBranchAdminEnforced: GET …/protection/enforce_admins. */
export function enforceAdmins(app: App, view: RepoView, branch: string, enabled: boolean) {
	return { url: `${protectionUrl(app, view, branch)}/enforce_admins`, enabled };
}

/** The required_signatures object: GET …/protection/required_signatures. */
export function requiredSignatures(app: App, view: RepoView, branch: string, enabled: boolean) {
	return { url: `${protectionUrl(app, view, branch)}/required_signatures`, enabled };
}

/** Users, teams and apps of a restriction or allowance, as GitHub lists them (unknown ids left out). */
export function actors(app: App, ids: ActorIds) {
	const { stores, urls } = app;
	const users = stores.accounts.byIds(ids.users).sort((a, b) => a.login.localeCompare(b.login));
	const teams = ids.teams.map((id) => stores.teams.byId(id)).filter((team) => team !== undefined);
	const apps = ids.apps.map((id) => stores.apps.byId(id)).filter((row) => row !== undefined);
	return {
		users: users.map((user) => simpleUser(urls, user)),
		teams: teams.map((team) => {
			const org = stores.accounts.byId(team.org_id)!;
			const parent = team.parent_id !== null ? stores.teams.byId(team.parent_id) : undefined;
			// GitHub's team schema here names its kind and organization.
			return { ...teamListForm(urls, org.login, team, parent), type: 'organization', organization_id: org.id };
		}),
		apps: apps.map((row) => integration(urls, row, stores.accounts.byId(row.owner_id)!, stores.apps.installationCount(row.id))),
	};
}

/** BranchRestrictionPolicy: GET …/protection/restrictions. */
export function restrictions(app: App, view: RepoView, branch: string, ids: ActorIds) {
	const url = `${protectionUrl(app, view, branch)}/restrictions`;
	return { url, users_url: `${url}/users`, teams_url: `${url}/teams`, apps_url: `${url}/apps`, ...actors(app, ids) };
}

/** ProtectedBranchPullRequestReview: GET …/protection/required_pull_request_reviews. */
export function reviews(app: App, view: RepoView, branch: string, settings: ReviewSettings) {
	const base = protectionUrl(app, view, branch);
	const body: Record<string, unknown> = { url: `${base}/required_pull_request_reviews` };
	if (settings.dismissal_restrictions) {
		const url = `${base}/dismissal_restrictions`;
		body.dismissal_restrictions = {
			url,
			users_url: `${url}/users`,
			teams_url: `${url}/teams`,
			...actors(app, settings.dismissal_restrictions),
		};
	}
	body.dismiss_stale_reviews = settings.dismiss_stale_reviews;
	body.require_code_owner_reviews = settings.require_code_owner_reviews;
	body.required_approving_review_count = settings.required_approving_review_count;
	body.require_last_push_approval = settings.require_last_push_approval;
	if (settings.bypass_pull_request_allowances) body.bypass_pull_request_allowances = actors(app, settings.bypass_pull_request_allowances);
	return body;
}

/** ProtectedBranch: GET …/branches/{branch}/protection (and the answer to PUT). */
export function protection(app: App, view: RepoView, branch: string, settings: ProtectionSettings) {
	const body: Record<string, unknown> = { url: protectionUrl(app, view, branch) };
	if (settings.required_status_checks) body.required_status_checks = statusChecks(app, view, branch, settings.required_status_checks);
	if (settings.required_pull_request_reviews)
		body.required_pull_request_reviews = reviews(app, view, branch, settings.required_pull_request_reviews);
	body.required_signatures = requiredSignatures(app, view, branch, settings.required_signatures);
	body.enforce_admins = enforceAdmins(app, view, branch, settings.enforce_admins);
	for (const key of [
		'required_linear_history',
		'allow_force_pushes',
		'allow_deletions',
		'block_creations',
		'required_conversation_resolution',
		'lock_branch',
		'allow_fork_syncing',
	] as const) {
		body[key] = { enabled: settings[key] };
	}
	if (settings.restrictions) body.restrictions = restrictions(app, view, branch, settings.restrictions);
	return body;
}

/**
 * The branch_protection_rule webhook's `rule` (webhooks branch-protection-rule): the rule's
 * settings as enforcement levels ('off', 'non_admins', 'everyone').
 */
export function protectionRule(app: App, row: ProtectionRow) {
	const s = row.settings;
	const level = (on: boolean) => (on ? (s.enforce_admins ? 'everyone' : 'non_admins') : 'off');
	const everyone = (on: boolean) => (on ? 'everyone' : 'off');
	const reviews = s.required_pull_request_reviews;
	const pushers = s.restrictions ? actors(app, s.restrictions) : null;
	return {
		id: row.id,
		repository_id: row.repo_id,
		name: row.branch,
		created_at: row.created_at,
		updated_at: row.updated_at,
		pull_request_reviews_enforcement_level: level(reviews !== null),
		required_approving_review_count: reviews?.required_approving_review_count ?? 0,
		dismiss_stale_reviews_on_push: reviews?.dismiss_stale_reviews ?? false,
		require_code_owner_review: reviews?.require_code_owner_reviews ?? false,
		authorized_dismissal_actors_only: reviews?.dismissal_restrictions != null,
		ignore_approvals_from_contributors: false,
		require_last_push_approval: reviews?.require_last_push_approval ?? false,
		required_status_checks: s.required_status_checks?.contexts ?? [],
		required_status_checks_enforcement_level: level(s.required_status_checks !== null),
		strict_required_status_checks_policy: s.required_status_checks?.strict ?? false,
		signature_requirement_enforcement_level: level(s.required_signatures),
		linear_history_requirement_enforcement_level: level(s.required_linear_history),
		admin_enforced: s.enforce_admins,
		create_protected: s.block_creations,
		allow_force_pushes_enforcement_level: everyone(s.allow_force_pushes),
		allow_deletions_enforcement_level: everyone(s.allow_deletions),
		merge_queue_enforcement_level: 'off',
		required_deployments_enforcement_level: 'off',
		required_conversation_resolution_level: level(s.required_conversation_resolution),
		authorized_actors_only: s.restrictions !== null,
		authorized_actor_names: pushers
			? [...pushers.users.map((u) => u.login), ...pushers.teams.map((t) => t.slug), ...pushers.apps.map((a) => a.slug)]
			: [],
		lock_branch_enforcement_level: everyone(s.lock_branch),
		lock_allows_fork_sync: s.allow_fork_syncing,
	};
}
