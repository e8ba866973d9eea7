/**
 * Prepared statements for an organization's Actions settings (org_actions_settings: one row per
 * organization that changed one; none means GitHub's defaults) and the repositories it selected
 * for Actions or for self-hosted runners (org_actions_repositories).
 */
import type { DB } from '../../db/open';
import type { RepositoryRow } from '../../model/rows';

/** A row of org_actions_settings (0/1 flags, JSON arrays as text). */
export interface OrgActionsRow {
	org_id: number;
	enabled_repositories: 'all' | 'none' | 'selected';
	allowed_actions: 'all' | 'local_only' | 'selected';
	sha_pinning_required: number;
	github_owned_allowed: number;
	verified_allowed: number;
	/** JSON array of action patterns (owner/repo@ref, with * wildcards). */
	patterns_allowed: string;
	default_workflow_permissions: 'read' | 'write';
	can_approve_pull_request_reviews: number;
	/** Artifact and log retention, days. */
	retention_days: number;
	approval_policy: 'first_time_contributors_new_to_github' | 'first_time_contributors' | 'all_external_contributors';
	run_workflows_from_fork_pull_requests: number;
	send_write_tokens_to_workflows: number;
	send_secrets_and_variables: number;
	require_approval_for_fork_pr_workflows: number;
	self_hosted_enabled_repositories: 'all' | 'none' | 'selected';
	/** JSON array of claim keys, or null: GitHub's default subject claim. */
	oidc_include_claim_keys: string | null;
	oidc_use_immutable_subject: number;
	updated_at: string;
}

/** The settings' columns (all but org_id and updated_at). */
export type OrgActionsValues = Omit<OrgActionsRow, 'org_id' | 'updated_at'>;

/** Which selection a repository list is: repositories allowed Actions, or self-hosted runners. */
export type RepositoryList = 'actions' | 'self_hosted';

/** GitHub's defaults, for an organization that changed nothing. */
export const ACTIONS_DEFAULTS: OrgActionsValues = {
	enabled_repositories: 'all',
	allowed_actions: 'all',
	sha_pinning_required: 0,
	github_owned_allowed: 1,
	verified_allowed: 0,
	patterns_allowed: '[]',
	default_workflow_permissions: 'read',
	can_approve_pull_request_reviews: 0,
	retention_days: 90,
	approval_policy: 'first_time_contributors',
	run_workflows_from_fork_pull_requests: 0,
	send_write_tokens_to_workflows: 0,
	send_secrets_and_variables: 0,
	require_approval_for_fork_pr_workflows: 0,
	self_hosted_enabled_repositories: 'all',
	oidc_include_claim_keys: null,
	oidc_use_immutable_subject: 0,
};

const COLUMNS = Object.keys(ACTIONS_DEFAULTS) as Array<keyof OrgActionsValues>;

export type OrgActionsStore = ReturnType<typeof createOrgActionsStore>;

/** The statements of org_actions_settings and org_actions_repositories, prepared once on `db`. */
export function createOrgActionsStore(db: DB) {
	const get = db.prepare('SELECT * FROM org_actions_settings WHERE org_id = ?');
	const upsert = db.prepare(`
		INSERT INTO org_actions_settings (org_id, ${COLUMNS.join(', ')}, updated_at)
		VALUES (@org_id, ${COLUMNS.map((c) => `@${c}`).join(', ')}, @updated_at)
		ON CONFLICT (org_id) DO UPDATE SET ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}, updated_at = excluded.updated_at`);
	// A selected repository transferred to another owner no longer counts (its row stays until replaced).
	const repos = db.prepare(`
		SELECT r.* FROM org_actions_repositories s JOIN repositories r ON r.id = s.repo_id AND r.owner_id = s.org_id
		WHERE s.org_id = ? AND s.list = ? ORDER BY r.id LIMIT ? OFFSET ?`);
	const repoCount = db
		.prepare(`SELECT count(*) FROM org_actions_repositories s JOIN repositories r ON r.id = s.repo_id AND r.owner_id = s.org_id
		WHERE s.org_id = ? AND s.list = ?`)
		.pluck();
	const has = db
		.prepare(`SELECT 1 FROM org_actions_repositories s JOIN repositories r ON r.id = s.repo_id AND r.owner_id = s.org_id
		WHERE s.org_id = ? AND s.list = ? AND s.repo_id = ?`)
		.pluck();
	const add = db.prepare('INSERT OR IGNORE INTO org_actions_repositories (org_id, list, repo_id) VALUES (?, ?, ?)');
	const remove = db.prepare('DELETE FROM org_actions_repositories WHERE org_id = ? AND list = ? AND repo_id = ?');
	const clear = db.prepare('DELETE FROM org_actions_repositories WHERE org_id = ? AND list = ?');
	const withWorkflows = db.prepare(`
		SELECT r.* FROM repositories r WHERE r.owner_id = ? AND EXISTS (SELECT 1 FROM workflows w WHERE w.repo_id = r.id)
		ORDER BY r.id LIMIT ? OFFSET ?`);
	const withWorkflowsCount = db
		.prepare('SELECT count(*) FROM repositories r WHERE r.owner_id = ? AND EXISTS (SELECT 1 FROM workflows w WHERE w.repo_id = r.id)')
		.pluck();

	return {
		/** The organization's settings: its row, or GitHub's defaults. */
		get(orgId: number): OrgActionsValues {
			return (get.get(orgId) as OrgActionsRow | undefined) ?? ACTIONS_DEFAULTS;
		},
		/** Writes every setting. @param now ISO timestamp */
		set(orgId: number, values: OrgActionsValues, now: string): void {
			upsert.run({ ...values, org_id: orgId, updated_at: now });
		},
		/** A page of the selected repositories of `list`, by id. */
		repositories(orgId: number, list: RepositoryList, limit: number, offset: number) {
			return { rows: repos.all(orgId, list, limit, offset) as RepositoryRow[], total: repoCount.get(orgId, list) as number };
		},
		selected: (orgId: number, list: RepositoryList, repoId: number) => has.get(orgId, list, repoId) === 1,
		add: (orgId: number, list: RepositoryList, repoId: number) => void add.run(orgId, list, repoId),
		remove: (orgId: number, list: RepositoryList, repoId: number) => void remove.run(orgId, list, repoId),
		/** A page of the organization's repositories that have workflows, by id. */
		withWorkflows(orgId: number, limit: number, offset: number) {
			return { rows: withWorkflows.all(orgId, limit, offset) as RepositoryRow[], total: withWorkflowsCount.get(orgId) as number };
		},
		/** Replaces the selection of `list` with `repoIds`. */
		replace(orgId: number, list: RepositoryList, repoIds: number[]): void {
			clear.run(orgId, list);
			for (const id of repoIds) add.run(orgId, list, id);
		},
	};
}
