/**
 * Prepared statements for deployments, their statuses, deployment environments (with their
 * protection rules and required reviewers) and deployment branch policies.
 */
import type { DB } from '../../db/open';

export type DeploymentState = 'error' | 'failure' | 'inactive' | 'in_progress' | 'queued' | 'pending' | 'success';

export interface DeploymentRow {
	id: number;
	repo_id: number;
	ref: string;
	sha: string;
	task: string;
	/** JSON text: an object or a string. */
	payload: string;
	original_environment: string;
	environment: string;
	description: string | null;
	creator_id: number | null;
	performed_via_app_id: number | null;
	transient_environment: number;
	production_environment: number;
	auto_merge: number;
	/** JSON array, or null for "all contexts". */
	required_contexts: string | null;
	created_at: string;
	updated_at: string;
}

export type NewDeployment = Omit<DeploymentRow, 'id' | 'created_at' | 'updated_at'>;

export interface StatusRow {
	id: number;
	deployment_id: number;
	state: DeploymentState;
	description: string;
	environment: string;
	target_url: string;
	log_url: string;
	environment_url: string;
	creator_id: number | null;
	created_at: string;
	updated_at: string;
}

export type NewStatus = Omit<StatusRow, 'id' | 'created_at' | 'updated_at'>;

export interface EnvironmentRow {
	id: number;
	repo_id: number;
	name: string;
	wait_timer: number;
	prevent_self_review: number;
	branch_policy: 'protected' | 'custom' | null;
	created_at: string;
	updated_at: string;
	/** 1: repository administrators may bypass the protection rules (GitHub's default) */
	can_admins_bypass: number;
}

export type EnvironmentSettings = Pick<EnvironmentRow, 'wait_timer' | 'prevent_self_review' | 'branch_policy' | 'can_admins_bypass'>;

export type RuleType = 'wait_timer' | 'required_reviewers' | 'branch_policy';

export interface RuleRow {
	id: number;
	environment_id: number;
	type: RuleType;
}

export interface ReviewerRow {
	id: number;
	environment_id: number;
	user_id: number | null;
	team_id: number | null;
}

export interface BranchPolicyRow {
	id: number;
	environment_id: number;
	name: string;
	type: 'branch' | 'tag';
	created_at: string;
	updated_at: string;
}

/** Filters of GET /repos/{owner}/{repo}/deployments; null means "any". */
export interface DeploymentFilter {
	repoId: number;
	sha: string | null;
	ref: string | null;
	task: string | null;
	environment: string | null;
	limit: number;
	offset: number;
}

export type DeploymentStore = ReturnType<typeof createDeploymentStore>;

export function createDeploymentStore(db: DB) {
	// Deployments
	const deployment = db.prepare('SELECT * FROM deployments WHERE repo_id = ? AND id = ?');
	const insertDeployment = db.prepare(`
		INSERT INTO deployments (repo_id, ref, sha, task, payload, original_environment, environment, description, creator_id,
			performed_via_app_id, transient_environment, production_environment, auto_merge, required_contexts, created_at, updated_at)
		VALUES (@repo_id, @ref, @sha, @task, @payload, @original_environment, @environment, @description, @creator_id,
			@performed_via_app_id, @transient_environment, @production_environment, @auto_merge, @required_contexts, @now, @now)`);
	const filter = `repo_id = @repoId AND (@sha IS NULL OR sha = @sha) AND (@ref IS NULL OR ref = @ref)
		AND (@task IS NULL OR task = @task) AND (@environment IS NULL OR environment = @environment)`;
	// Newest first, as GitHub lists them.
	const listDeployments = db.prepare(`SELECT * FROM deployments WHERE ${filter} ORDER BY id DESC LIMIT @limit OFFSET @offset`);
	const countDeployments = db.prepare(`SELECT count(*) FROM deployments WHERE ${filter}`).pluck();
	const countInRepo = db.prepare('SELECT count(*) FROM deployments WHERE repo_id = ?').pluck();
	const removeDeployment = db.prepare('DELETE FROM deployments WHERE id = ?');
	const updateDeploymentEnvironment = db.prepare('UPDATE deployments SET environment = ?, updated_at = ? WHERE id = ?');
	// Earlier deployments that a new status with auto_inactive makes inactive: same repository and
	// environment name, non-transient, non-production, latest status success.
	const autoInactive = db.prepare(`
		SELECT d.* FROM deployments d
		WHERE d.repo_id = @repoId AND d.environment = @environment AND d.id < @before
			AND d.transient_environment = 0 AND d.production_environment = 0
			AND (SELECT s.state FROM deployment_statuses s WHERE s.deployment_id = d.id ORDER BY s.id DESC LIMIT 1) = 'success'
		ORDER BY d.id`);

	// Statuses
	const status = db.prepare('SELECT * FROM deployment_statuses WHERE deployment_id = ? AND id = ?');
	const latestStatus = db.prepare('SELECT * FROM deployment_statuses WHERE deployment_id = ? ORDER BY id DESC LIMIT 1');
	// Newest first, as GitHub lists them.
	const listStatuses = db.prepare('SELECT * FROM deployment_statuses WHERE deployment_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
	const countStatuses = db.prepare('SELECT count(*) FROM deployment_statuses WHERE deployment_id = ?').pluck();
	const insertStatus = db.prepare(`
		INSERT INTO deployment_statuses (deployment_id, state, description, environment, target_url, log_url, environment_url, creator_id,
			created_at, updated_at)
		VALUES (@deployment_id, @state, @description, @environment, @target_url, @log_url, @environment_url, @creator_id, @now, @now)`);
	const statusById = db.prepare('SELECT * FROM deployment_statuses WHERE id = ?');

	// Environments
	const environment = db.prepare('SELECT * FROM environments WHERE repo_id = ? AND name = ?');
	const environmentById = db.prepare('SELECT * FROM environments WHERE id = ?');
	const listEnvironments = db.prepare('SELECT * FROM environments WHERE repo_id = ? ORDER BY name, id LIMIT ? OFFSET ?');
	const countEnvironments = db.prepare('SELECT count(*) FROM environments WHERE repo_id = ?').pluck();
	const insertEnvironment = db.prepare(`
		INSERT INTO environments (repo_id, name, wait_timer, prevent_self_review, branch_policy, can_admins_bypass, created_at, updated_at)
		VALUES (@repoId, @name, @wait_timer, @prevent_self_review, @branch_policy, @can_admins_bypass, @now, @now)`);
	const updateEnvironment = db.prepare(`
		UPDATE environments SET wait_timer = @wait_timer, prevent_self_review = @prevent_self_review, branch_policy = @branch_policy,
			can_admins_bypass = @can_admins_bypass, updated_at = @now WHERE id = @id`);
	const removeEnvironment = db.prepare('DELETE FROM environments WHERE id = ?');
	const rules = db.prepare(
		'SELECT * FROM environment_protection_rules WHERE environment_id IN (SELECT value FROM json_each(?)) ORDER BY id',
	);
	const addRule = db.prepare('INSERT OR IGNORE INTO environment_protection_rules (environment_id, type) VALUES (?, ?)');
	const removeRule = db.prepare('DELETE FROM environment_protection_rules WHERE environment_id = ? AND type = ?');
	const reviewers = db.prepare(
		'SELECT * FROM environment_reviewers WHERE environment_id IN (SELECT value FROM json_each(?)) ORDER BY id',
	);
	const clearReviewers = db.prepare('DELETE FROM environment_reviewers WHERE environment_id = ?');
	const addReviewer = db.prepare('INSERT INTO environment_reviewers (environment_id, user_id, team_id) VALUES (?, ?, ?)');

	// Branch policies
	const policy = db.prepare('SELECT * FROM deployment_branch_policies WHERE environment_id = ? AND id = ?');
	const policyByName = db.prepare('SELECT * FROM deployment_branch_policies WHERE environment_id = ? AND type = ? AND name = ?');
	const listPolicies = db.prepare('SELECT * FROM deployment_branch_policies WHERE environment_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const allPolicies = db.prepare('SELECT * FROM deployment_branch_policies WHERE environment_id = ? ORDER BY id');
	const countPolicies = db.prepare('SELECT count(*) FROM deployment_branch_policies WHERE environment_id = ?').pluck();
	const insertPolicy = db.prepare(`
		INSERT INTO deployment_branch_policies (environment_id, name, type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`);
	const renamePolicy = db.prepare('UPDATE deployment_branch_policies SET name = ?, updated_at = ? WHERE id = ?');
	const removePolicy = db.prepare('DELETE FROM deployment_branch_policies WHERE id = ?');
	const clearPolicies = db.prepare('DELETE FROM deployment_branch_policies WHERE environment_id = ?');

	return {
		deployment: (repoId: number, id: number) => deployment.get(repoId, id) as DeploymentRow | undefined,
		/** @param now ISO timestamp */
		insertDeployment(values: NewDeployment, now: string): DeploymentRow {
			const id = Number(insertDeployment.run({ ...values, now }).lastInsertRowid);
			return deployment.get(values.repo_id, id) as DeploymentRow;
		},
		deployments(filter: DeploymentFilter) {
			return { rows: listDeployments.all(filter) as DeploymentRow[], total: countDeployments.get(filter) as number };
		},
		/** Number of deployments of a repository. */
		countDeployments: (repoId: number) => countInRepo.get(repoId) as number,
		removeDeployment: (id: number) => void removeDeployment.run(id),
		/** Sets the deployment's (current) environment. @param now ISO timestamp */
		setDeploymentEnvironment: (id: number, name: string, now: string) => void updateDeploymentEnvironment.run(name, now, id),
		/** Earlier deployments a status with auto_inactive turns inactive (see the query). */
		autoInactiveCandidates: (repoId: number, environment: string, before: number) =>
			autoInactive.all({ repoId, environment, before }) as DeploymentRow[],

		status: (deploymentId: number, id: number) => status.get(deploymentId, id) as StatusRow | undefined,
		latestStatus: (deploymentId: number) => latestStatus.get(deploymentId) as StatusRow | undefined,
		statuses(deploymentId: number, limit: number, offset: number) {
			return { rows: listStatuses.all(deploymentId, limit, offset) as StatusRow[], total: countStatuses.get(deploymentId) as number };
		},
		/** @param now ISO timestamp */
		insertStatus(values: NewStatus, now: string): StatusRow {
			const id = Number(insertStatus.run({ ...values, now }).lastInsertRowid);
			return statusById.get(id) as StatusRow;
		},

		/** An environment by name (case-insensitive). */
		environment: (repoId: number, name: string) => environment.get(repoId, name) as EnvironmentRow | undefined,
		environments(repoId: number, limit: number, offset: number) {
			return {
				rows: listEnvironments.all(repoId, limit, offset) as EnvironmentRow[],
				total: countEnvironments.get(repoId) as number,
			};
		},
		/** @param now ISO timestamp */
		insertEnvironment(repoId: number, name: string, settings: EnvironmentSettings, now: string): EnvironmentRow {
			const id = Number(insertEnvironment.run({ ...settings, repoId, name, now }).lastInsertRowid);
			return environmentById.get(id) as EnvironmentRow;
		},
		/** @param now ISO timestamp */
		updateEnvironment(id: number, settings: EnvironmentSettings, now: string): EnvironmentRow {
			updateEnvironment.run({ ...settings, id, now });
			return environmentById.get(id) as EnvironmentRow;
		},
		/** Deletes the environment with its rules, reviewers and branch policies (deployments stay). */
		removeEnvironment: (id: number) => void removeEnvironment.run(id),
		rules: (environmentIds: number[]) => rules.all(JSON.stringify(environmentIds)) as RuleRow[],
		/** Shows (`on`) or drops a protection rule; a shown rule keeps its id. */
		setRule(environmentId: number, type: RuleType, on: boolean): void {
			if (on) addRule.run(environmentId, type);
			else removeRule.run(environmentId, type);
		},
		reviewers: (environmentIds: number[]) => reviewers.all(JSON.stringify(environmentIds)) as ReviewerRow[],
		/** Replaces the required reviewers, in order. */
		setReviewers(environmentId: number, list: Array<{ userId: number | null; teamId: number | null }>): void {
			clearReviewers.run(environmentId);
			for (const reviewer of list) addReviewer.run(environmentId, reviewer.userId, reviewer.teamId);
		},

		policy: (environmentId: number, id: number) => policy.get(environmentId, id) as BranchPolicyRow | undefined,
		policyByName: (environmentId: number, type: 'branch' | 'tag', name: string) =>
			policyByName.get(environmentId, type, name) as BranchPolicyRow | undefined,
		policies(environmentId: number, limit: number, offset: number) {
			return {
				rows: listPolicies.all(environmentId, limit, offset) as BranchPolicyRow[],
				total: countPolicies.get(environmentId) as number,
			};
		},
		allPolicies: (environmentId: number) => allPolicies.all(environmentId) as BranchPolicyRow[],
		/** @param now ISO timestamp */
		insertPolicy(environmentId: number, name: string, type: 'branch' | 'tag', now: string): BranchPolicyRow {
			const id = Number(insertPolicy.run(environmentId, name, type, now, now).lastInsertRowid);
			return policy.get(environmentId, id) as BranchPolicyRow;
		},
		/** @param now ISO timestamp */
		renamePolicy(row: BranchPolicyRow, name: string, now: string): BranchPolicyRow {
			renamePolicy.run(name, now, row.id);
			return policy.get(row.environment_id, row.id) as BranchPolicyRow;
		},
		removePolicy: (id: number) => void removePolicy.run(id),
		clearPolicies: (environmentId: number) => void clearPolicies.run(environmentId),
	};
}
