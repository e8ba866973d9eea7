/**
 * Deployment rules (https://docs.github.com/en/rest/deployments/deployments; GitHub's deployments
 * and environments operations):
 * - a deployment targets an environment (default `production`, created when missing);
 *   production_environment defaults to true only for `production`, transient_environment to false;
 * - a status's environment defaults to the previous status's, else the deployment's; log_url also
 *   sets target_url; with auto_inactive (default true) every earlier non-transient, non-production
 *   deployment of the repository and environment whose latest state is success gets an inactive
 *   status, in the same transaction;
 * - a deployment may be deleted when it is the repository's only one or its latest status is not
 *   success (GitHub's "inactive" deployment);
 * - environments carry a wait timer, required reviewers and a deployment branch policy; branch
 *   policies are shell-style globs in which wildcards do not match '/'.
 */
import type picomatch from 'picomatch';
import type { App } from '../../app';
import { invalidField, unprocessable, validationFailed, type ValidationItem } from '../../model/errors';
import { userRepoPermission } from '../../auth/access/repos';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { recordDeploymentCreated, recordDeploymentStatus } from './events';
import type { DeploymentRow, DeploymentState, EnvironmentRow, EnvironmentSettings, StatusRow } from './store';

export const STATES = ['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'] as const;
/** Longest deployment status description, in characters. */
export const MAX_STATUS_DESCRIPTION = 140;
/** Longest environment name, in characters (GitHub's limit). */
export const MAX_ENVIRONMENT_NAME = 255;
/** Longest wait timer, in minutes (30 days). */
export const MAX_WAIT_TIMER = 43_200;
/** Required reviewers per environment. */
export const MAX_REVIEWERS = 6;
/** Longest branch policy name pattern, in characters. */
export const MAX_PATTERN_LENGTH = 255;
export const DEFAULT_ENVIRONMENT = 'production';

/**
 * Checks an environment name (a path parameter, or a deployment's or status's environment).
 * @throws DomainError 422 naming `field` when empty, longer than 255 characters or holding control characters.
 */
export function checkEnvironmentName(name: string, resource: string, field: string): void {
	if (name.trim() === '') throw invalidField(resource, field, 'an environment name cannot be empty');
	if (name.length > MAX_ENVIRONMENT_NAME)
		throw invalidField(resource, field, `an environment name has at most ${MAX_ENVIRONMENT_NAME} characters`);
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f]/.test(name)) throw invalidField(resource, field, 'an environment name cannot contain control characters');
}

const NO_PROTECTION: EnvironmentSettings = { wait_timer: 0, prevent_self_review: 0, branch_policy: null, can_admins_bypass: 1 };

/**
 * The repository's environment of that name (case-insensitive), created without protection rules
 * when missing (as creating a deployment does on GitHub). Call inside a transaction.
 * @param now ISO timestamp
 */
export function ensureEnvironment(app: App, repoId: number, name: string, now: string): EnvironmentRow {
	return app.stores.deployments.environment(repoId, name) ?? app.stores.deployments.insertEnvironment(repoId, name, NO_PROTECTION, now);
}

export interface DeploymentInput {
	ref: string;
	task?: string;
	auto_merge?: boolean;
	required_contexts?: string[];
	payload?: Record<string, unknown> | string;
	environment?: string;
	description?: string | null;
	transient_environment?: boolean;
	production_environment?: boolean;
}

/**
 * Creates a deployment (and its environment when missing) in one transaction, and records the
 * deployment event (./events.ts). Gitstead does not
 * resolve refs yet: sha is the ref as given. auto_merge and required_contexts are stored, not acted on.
 * @param actor who creates it: { id: account id (user or app bot), appId: the app acting, if any }
 * @param now ISO timestamp
 * @throws DomainError 422 for an invalid environment name.
 */
export function createDeployment(
	app: App,
	repo: RepositoryRow,
	input: DeploymentInput,
	actor: { id: number | null; appId: number | null },
	now: string,
): DeploymentRow {
	const requested = input.environment ?? DEFAULT_ENVIRONMENT;
	checkEnvironmentName(requested, 'Deployment', 'environment');
	return app.transaction(() => {
		const environment = ensureEnvironment(app, repo.id, requested, now);
		const row = app.stores.deployments.insertDeployment(
			{
				repo_id: repo.id,
				ref: input.ref,
				sha: input.ref,
				task: input.task ?? 'deploy',
				payload: JSON.stringify(input.payload ?? {}),
				original_environment: environment.name,
				environment: environment.name,
				description: input.description === undefined ? '' : input.description,
				creator_id: actor.id,
				performed_via_app_id: actor.appId,
				transient_environment: input.transient_environment ? 1 : 0,
				production_environment: (input.production_environment ?? environment.name.toLowerCase() === DEFAULT_ENVIRONMENT) ? 1 : 0,
				auto_merge: (input.auto_merge ?? true) ? 1 : 0,
				required_contexts: input.required_contexts === undefined ? null : JSON.stringify(input.required_contexts),
			},
			now,
		);
		recordDeploymentCreated(app, repo, row, actor.id);
		return row;
	});
}

export interface StatusInput {
	state: DeploymentState;
	target_url?: string;
	log_url?: string;
	description?: string;
	environment?: string;
	environment_url?: string;
	auto_inactive?: boolean;
}

/**
 * Creates a deployment status, all in one transaction: the deployment moves to the status's
 * environment (created when missing), and with auto_inactive every earlier non-transient,
 * non-production deployment of the repository and environment whose latest state is success gets
 * a new inactive status. Each status is recorded as a deployment_status event (./events.ts).
 * @param repo the deployment's repository
 * @param creatorId the acting account (user or app bot)
 * @param now ISO timestamp
 * @returns the new status
 * @throws DomainError 422 for an invalid environment name.
 */
export function createStatus(
	app: App,
	repo: RepositoryRow,
	deployment: DeploymentRow,
	input: StatusInput,
	creatorId: number | null,
	now: string,
): StatusRow {
	const store = app.stores.deployments;
	if (input.environment !== undefined) checkEnvironmentName(input.environment, 'DeploymentStatus', 'environment');
	return app.transaction(() => {
		const previous = store.latestStatus(deployment.id);
		let environment = previous?.environment ?? deployment.environment;
		if (input.environment !== undefined) environment = ensureEnvironment(app, deployment.repo_id, input.environment, now).name;
		// A status may move the deployment to another environment (GitHub: "which can be changed when
		// setting a deploy status"); original_environment keeps the first one.
		store.setDeploymentEnvironment(deployment.id, input.environment !== undefined ? environment : deployment.environment, now);
		const logUrl = input.log_url ?? '';
		const status = store.insertStatus(
			{
				deployment_id: deployment.id,
				state: input.state,
				description: input.description ?? '',
				environment,
				// log_url supersedes target_url and sets it to the same value.
				target_url: logUrl !== '' ? logUrl : (input.target_url ?? ''),
				log_url: logUrl,
				environment_url: input.environment_url ?? '',
				creator_id: creatorId,
			},
			now,
		);
		recordDeploymentStatus(app, repo, store.deployment(repo.id, deployment.id)!, status, creatorId);
		if (input.auto_inactive ?? true) {
			const current = input.environment !== undefined ? environment : deployment.environment;
			for (const earlier of store.autoInactiveCandidates(deployment.repo_id, current, deployment.id)) {
				const last = store.latestStatus(earlier.id);
				const inactive = store.insertStatus(
					{
						deployment_id: earlier.id,
						state: 'inactive',
						description: '',
						environment: last?.environment ?? earlier.environment,
						target_url: '',
						log_url: '',
						environment_url: '',
						creator_id: creatorId,
					},
					now,
				);
				store.setDeploymentEnvironment(earlier.id, earlier.environment, now);
				recordDeploymentStatus(app, repo, store.deployment(repo.id, earlier.id)!, inactive, creatorId);
			}
		}
		return status;
	});
}

/**
 * Deletes a deployment, GitHub's rule: the repository's only deployment goes whatever its state;
 * otherwise only an inactive one (its latest status exists and is not success).
 * @throws DomainError 422 for an active deployment.
 */
export function deleteDeployment(app: App, deployment: DeploymentRow): void {
	const store = app.stores.deployments;
	app.transaction(() => {
		if (store.countDeployments(deployment.repo_id) > 1) {
			const latest = store.latestStatus(deployment.id);
			if (!latest || latest.state === 'success') {
				throw unprocessable(
					'We cannot delete an active deployment unless it is the only deployment in a given repository. ' +
						'Mark it inactive first by creating a status that is not success (for example inactive).',
				);
			}
		}
		store.removeDeployment(deployment.id);
	});
}

export interface EnvironmentInput {
	wait_timer?: number;
	prevent_self_review?: boolean;
	/** Administrators may bypass the protection rules (default true, as on GitHub). */
	can_admins_bypass?: boolean;
	reviewers?: Array<{ type: 'User' | 'Team'; id: number }> | null;
	deployment_branch_policy?: { protected_branches: boolean; custom_branch_policies: boolean } | null;
}

/**
 * Creates or updates an environment (PUT): omitted fields keep their values (new environments
 * start unprotected), null clears reviewers and the branch policy. Leaving custom branch policies
 * deletes the environment's branch policies. Protection rules are shown for a wait timer above 0,
 * for reviewers, and for any branch policy. One transaction.
 * @param now ISO timestamp
 * @throws DomainError 422 for an invalid name, wait timer, reviewer or branch policy.
 */
export function saveEnvironment(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	name: string,
	input: EnvironmentInput,
	now: string,
): EnvironmentRow {
	checkEnvironmentName(name, 'Environment', 'environment_name');
	const problems: ValidationItem[] = [];
	const problem = (field: string, message: string) => problems.push({ resource: 'Environment', field, code: 'invalid', message });
	if (input.wait_timer !== undefined && (input.wait_timer < 0 || input.wait_timer > MAX_WAIT_TIMER)) {
		problem('wait_timer', `wait_timer is a number of minutes from 0 to ${MAX_WAIT_TIMER}`);
	}
	const policy = input.deployment_branch_policy;
	if (policy && policy.protected_branches === policy.custom_branch_policies) {
		problem('deployment_branch_policy', 'exactly one of protected_branches and custom_branch_policies must be true');
	}
	let reviewers: Array<{ userId: number | null; teamId: number | null }> | undefined;
	if (input.reviewers !== undefined) {
		reviewers = [];
		const list = input.reviewers ?? [];
		if (list.length > MAX_REVIEWERS) problem('reviewers', `at most ${MAX_REVIEWERS} reviewers`);
		const seen = new Set<string>();
		for (const reviewer of list) {
			const key = `${reviewer.type}:${reviewer.id}`;
			if (seen.has(key)) continue;
			seen.add(key);
			if (reviewer.type === 'User') {
				const user = app.stores.accounts.byId(reviewer.id);
				if (!user || user.type !== 'User') problem('reviewers', `no user with id ${reviewer.id}`);
				else if (!userRepoPermission(app, repo, owner, user.id)) problem('reviewers', `${user.login} cannot read the repository`);
				else reviewers.push({ userId: user.id, teamId: null });
			} else {
				const team = app.stores.teams.byId(reviewer.id);
				if (!team || team.org_id !== repo.owner_id)
					problem('reviewers', `no team with id ${reviewer.id} in the repository's organization`);
				else reviewers.push({ userId: null, teamId: team.id });
			}
		}
	}
	if (problems.length) throw validationFailed(problems);

	const store = app.stores.deployments;
	return app.transaction(() => {
		const existing = store.environment(repo.id, name);
		const settings: EnvironmentSettings = {
			wait_timer: input.wait_timer ?? existing?.wait_timer ?? 0,
			prevent_self_review:
				input.prevent_self_review === undefined ? (existing?.prevent_self_review ?? 0) : input.prevent_self_review ? 1 : 0,
			can_admins_bypass: input.can_admins_bypass === undefined ? (existing?.can_admins_bypass ?? 1) : input.can_admins_bypass ? 1 : 0,
			branch_policy:
				policy === undefined
					? (existing?.branch_policy ?? null)
					: policy === null
						? null
						: policy.custom_branch_policies
							? 'custom'
							: 'protected',
		};
		const environment = existing
			? store.updateEnvironment(existing.id, settings, now)
			: store.insertEnvironment(repo.id, name, settings, now);
		if (reviewers) store.setReviewers(environment.id, reviewers);
		if (environment.branch_policy !== 'custom') store.clearPolicies(environment.id);
		store.setRule(environment.id, 'wait_timer', environment.wait_timer > 0);
		store.setRule(environment.id, 'required_reviewers', store.reviewers([environment.id]).length > 0);
		store.setRule(environment.id, 'branch_policy', environment.branch_policy !== null);
		return environment;
	});
}

const GLOB_OPTIONS: picomatch.PicomatchOptions = {
	// Ruby's File.fnmatch, which GitHub's patterns follow: no braces, no extglobs, no negation;
	// '*' and '?' never match '/'. Git refs cannot hold a component starting with '.', so dot is moot.
	nobrace: true,
	noextglob: true,
	nonegate: true,
	dot: true,
};
/** picomatch, loaded at the first use (not while the server starts). */
const glob = () => require('picomatch') as typeof picomatch;

/** True when a branch or tag name matches a deployment branch policy pattern ('*' does not match '/'). */
export function matchesBranchPolicy(pattern: string, name: string): boolean {
	return glob()(pattern, GLOB_OPTIONS)(name);
}

/**
 * Checks a branch policy name pattern.
 * @throws DomainError 422 when empty, too long or not a valid pattern.
 */
export function checkPattern(name: string): void {
	if (name.trim() === '') throw invalidField('DeploymentBranchPolicy', 'name', 'name cannot be empty');
	if (name.length > MAX_PATTERN_LENGTH)
		throw invalidField('DeploymentBranchPolicy', 'name', `name has at most ${MAX_PATTERN_LENGTH} characters`);
	try {
		glob().makeRe(name, GLOB_OPTIONS);
	} catch {
		throw invalidField('DeploymentBranchPolicy', 'name', `"${name}" is not a valid name pattern`);
	}
}

/**
 * Whether a ref may deploy to the environment under its custom branch policies (for the runner
 * of workflow jobs that name an environment). `refs/heads/X` is branch X, `refs/tags/X` tag X;
 * a bare name is checked against branch and tag policies alike (Gitstead does not resolve refs
 * yet). Environments without custom policies allow every ref here: Gitstead has no branch
 * protection, so `protected_branches` is not checked.
 */
export function refAllowed(app: App, environment: EnvironmentRow, ref: string): boolean {
	if (environment.branch_policy !== 'custom') return true;
	const kind = ref.startsWith('refs/heads/') ? 'branch' : ref.startsWith('refs/tags/') ? 'tag' : null;
	const name = kind === null ? ref : ref.replace(/^refs\/(heads|tags)\//, '');
	return app.stores.deployments
		.allPolicies(environment.id)
		.some((policy) => (kind === null || policy.type === kind) && matchesBranchPolicy(policy.name, name));
}
