/**
 * Deployments, deployment statuses, deployment environments and deployment branch policies
 * (spec document 2, Deployment statuses and Deployment branch policies; reference §2.14; GitHub's
 * deployments, statuses, environments and branch-policies operations).
 *
 * Permissions: deployments and statuses are read with Deployments (read), public for public
 * repositories, and written with Deployments (write) — classic/OAuth scope repo_deployment or
 * repo — by callers with push access. Environments and branch policies are read with Actions
 * (read), public for public repositories, and written with Administration (write) by repository
 * administrators.
 */
import * as v from 'valibot';
import { invalidField, notFound } from '../../model/errors';
import { created, noContent, ok, paged, redirect } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import type { RepoAccess } from '../../auth/access/types';
import type { TeamRow } from '../teams/store';
import type { AccountRow } from '../users/store';
import { repositoryPaths } from '../repos/render';
import { branchPolicy, branchPolicyUrl, deployment, deploymentStatus, environment, performedVia } from './render';
import {
	checkPattern,
	createDeployment,
	createStatus,
	deleteDeployment,
	MAX_STATUS_DESCRIPTION,
	saveEnvironment,
	STATES,
	type DeploymentInput,
	type EnvironmentInput,
	type StatusInput,
} from './service';
import type { DeploymentRow, EnvironmentRow, StatusRow } from './store';

const DEPLOYMENTS = '/repos/{owner}/{repo}/deployments';
const DEPLOYMENT = `${DEPLOYMENTS}/{deployment_id}`;
const ENVIRONMENTS = '/repos/{owner}/{repo}/environments';
const ENVIRONMENT = `${ENVIRONMENTS}/{environment_name}`;
const POLICIES = `${ENVIRONMENT}/deployment-branch-policies`;
const POLICY = `${POLICIES}/{branch_policy_id}`;

/** Reads of deployments and statuses: Deployments (read); anonymous callers see public repositories. */
const READ_DEPLOYMENTS = { permissions: [{ deployments: 'read' as const }], access: 'public' as const };
/** Writes of deployments and statuses: Deployments (write); classic/OAuth scope repo_deployment or repo. */
const WRITE_DEPLOYMENTS = {
	permissions: [{ deployments: 'write' as const }],
	scopes: ['repo_deployment', 'repo'],
	access: 'authenticated' as const,
};
/** Reads of environments and branch policies: Actions (read); anonymous callers see public repositories. */
const READ_ENVIRONMENTS = { permissions: [{ actions: 'read' as const }], access: 'public' as const };
/** Writes of environments and branch policies: Administration (write) and admin access to the repository. */
const WRITE_ENVIRONMENTS = { permissions: [{ administration: 'write' as const }], access: 'authenticated' as const };

const optionalUrl = v.optional(v.string());

const deploymentBody = v.object({
	ref: v.pipe(v.string(), v.minLength(1, 'ref cannot be empty')),
	task: v.optional(v.pipe(v.string(), v.minLength(1, 'task cannot be empty'))),
	auto_merge: v.optional(v.boolean()),
	required_contexts: v.optional(v.array(v.string())),
	payload: v.optional(v.union([v.record(v.string(), v.unknown()), v.string()])),
	environment: v.optional(v.string()),
	description: v.optional(v.nullable(v.string())),
	transient_environment: v.optional(v.boolean()),
	production_environment: v.optional(v.boolean()),
});

const listDeploymentsQuery = v.object({
	sha: v.optional(v.string()),
	ref: v.optional(v.string()),
	task: v.optional(v.string()),
	environment: v.optional(v.string()),
});

const statusBody = v.object({
	state: v.picklist(STATES, `state must be one of ${STATES.join(', ')}`),
	target_url: optionalUrl,
	log_url: optionalUrl,
	description: v.optional(v.pipe(v.string(), v.maxLength(MAX_STATUS_DESCRIPTION, `at most ${MAX_STATUS_DESCRIPTION} characters`))),
	environment: v.optional(v.string()),
	environment_url: optionalUrl,
	auto_inactive: v.optional(v.boolean()),
});

const environmentBody = v.object({
	wait_timer: v.optional(v.pipe(v.number(), v.integer('wait_timer is a whole number of minutes'))),
	prevent_self_review: v.optional(v.boolean()),
	reviewers: v.optional(v.nullable(v.array(v.object({ type: v.picklist(['User', 'Team']), id: v.pipe(v.number(), v.integer()) })))),
	deployment_branch_policy: v.optional(v.nullable(v.object({ protected_branches: v.boolean(), custom_branch_policies: v.boolean() }))),
});

const policyName = v.pipe(v.string(), v.minLength(1, 'name cannot be empty'));

/** The repository's addresses, for the records' URLs. */
const ref = (ctx: Context, access: RepoAccess) => repositoryPaths(ctx.app.urls, access.owner.login, access.repo.name);

function loadDeployment(ctx: Context, access: RepoAccess): DeploymentRow {
	const id = idParam(ctx.params.deployment_id);
	const row = id === null ? undefined : ctx.app.stores.deployments.deployment(access.repo.id, id);
	if (!row) throw notFound();
	return row;
}

/** The environment named by the (URL-decoded) path parameter; 404 when missing. */
function loadEnvironment(ctx: Context, access: RepoAccess): EnvironmentRow {
	const row = ctx.app.stores.deployments.environment(access.repo.id, ctx.params.environment_name);
	if (!row) throw notFound();
	return row;
}

/** The app a request acts through (installation and user-to-server tokens), or null. */
function actingAppId(ctx: Context): number | null {
	if (ctx.principal.installationId === null) return null;
	return ctx.app.stores.apps.installation(ctx.principal.installationId)?.app_id ?? null;
}

function renderDeployments(ctx: Context, access: RepoAccess, rows: DeploymentRow[]) {
	const { stores, urls } = ctx.app;
	const creatorIds = [...new Set(rows.flatMap((r) => (r.creator_id === null ? [] : [r.creator_id])))];
	const accounts = stores.accounts.mapByIds(creatorIds);
	const apps = new Map<number, unknown>();
	return rows.map((row) => {
		let via: unknown = null;
		if (row.performed_via_app_id !== null) {
			if (!apps.has(row.performed_via_app_id)) apps.set(row.performed_via_app_id, performedVia(ctx.app, row.performed_via_app_id));
			via = apps.get(row.performed_via_app_id);
		}
		return deployment(urls, ref(ctx, access), row, row.creator_id === null ? undefined : accounts.get(row.creator_id), via);
	});
}

function renderStatuses(ctx: Context, access: RepoAccess, rows: StatusRow[]) {
	const ids = [...new Set(rows.flatMap((r) => (r.creator_id === null ? [] : [r.creator_id])))];
	const accounts = ctx.app.stores.accounts.mapByIds(ids);
	return rows.map((row) =>
		deploymentStatus(ctx.app.urls, ref(ctx, access), row, row.creator_id === null ? undefined : accounts.get(row.creator_id)),
	);
}

function renderEnvironments(ctx: Context, access: RepoAccess, rows: EnvironmentRow[]) {
	const store = ctx.app.stores.deployments;
	const ids = rows.map((r) => r.id);
	const rules = store.rules(ids);
	const reviewers = store.reviewers(ids);
	const userIds = reviewers.flatMap((r) => (r.user_id === null ? [] : [r.user_id]));
	const teamIds = reviewers.flatMap((r) => (r.team_id === null ? [] : [r.team_id]));
	const users = new Map<number, AccountRow>(userIds.length ? ctx.app.stores.accounts.byIds(userIds).map((a) => [a.id, a]) : []);
	const teams = new Map<number, TeamRow>(teamIds.length ? ctx.app.stores.teams.byIds(teamIds).map((t) => [t.id, t]) : []);
	const lookup = { users, teams, orgLogin: access.owner.login };
	return rows.map((row) => environment(ctx.app.urls, ref(ctx, access), row, rules, reviewers, lookup));
}

export const deploymentRoutes = [
	// ---- Deployments
	route({
		...READ_DEPLOYMENTS,
		method: 'GET',
		path: DEPLOYMENTS,
		resource: { repo: 'read' },
		docs: 'deployments/deployments#list-deployments',
		query: listDeploymentsQuery,
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			const { rows, total } = ctx.app.stores.deployments.deployments({
				repoId: access.repo.id,
				sha: ctx.query.sha ?? null,
				ref: ctx.query.ref ?? null,
				task: ctx.query.task ?? null,
				environment: ctx.query.environment ?? null,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(renderDeployments(ctx, access, rows), total);
		},
	}),
	route({
		...WRITE_DEPLOYMENTS,
		method: 'POST',
		path: DEPLOYMENTS,
		resource: { repo: 'push' },
		docs: 'deployments/deployments#create-a-deployment',
		errorResource: 'Deployment',
		body: deploymentBody,
		handler(ctx) {
			const access = ctx.repo;
			const row = createDeployment(
				ctx.app,
				access.repo,
				ctx.body as DeploymentInput,
				{ id: ctx.principal.actorId, appId: actingAppId(ctx) },
				isoSeconds(ctx.now),
			);
			const [body] = renderDeployments(ctx, access, [row]);
			return created(body, body.url);
		},
	}),
	route({
		...READ_DEPLOYMENTS,
		method: 'GET',
		path: DEPLOYMENT,
		resource: { repo: 'read' },
		docs: 'deployments/deployments#get-a-deployment',
		handler(ctx) {
			const access = ctx.repo;
			return ok(renderDeployments(ctx, access, [loadDeployment(ctx, access)])[0]);
		},
	}),
	route({
		...WRITE_DEPLOYMENTS,
		method: 'DELETE',
		path: DEPLOYMENT,
		resource: { repo: 'push' },
		docs: 'deployments/deployments#delete-a-deployment',
		handler(ctx) {
			const access = ctx.repo;
			deleteDeployment(ctx.app, loadDeployment(ctx, access));
			return noContent();
		},
	}),

	// ---- Deployment statuses
	route({
		...READ_DEPLOYMENTS,
		method: 'GET',
		path: `${DEPLOYMENT}/statuses`,
		resource: { repo: 'read' },
		docs: 'deployments/statuses#list-deployment-statuses',
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			const row = loadDeployment(ctx, access);
			const { rows, total } = ctx.app.stores.deployments.statuses(row.id, ctx.page.perPage, ctx.page.offset);
			return paged(renderStatuses(ctx, access, rows), total);
		},
	}),
	route({
		...WRITE_DEPLOYMENTS,
		method: 'POST',
		path: `${DEPLOYMENT}/statuses`,
		resource: { repo: 'push' },
		docs: 'deployments/statuses#create-a-deployment-status',
		errorResource: 'DeploymentStatus',
		body: statusBody,
		handler(ctx) {
			const access = ctx.repo;
			const row = loadDeployment(ctx, access);
			const status = createStatus(ctx.app, access.repo, row, ctx.body as StatusInput, ctx.principal.actorId, isoSeconds(ctx.now));
			const [body] = renderStatuses(ctx, access, [status]);
			return created(body, body.url);
		},
	}),
	route({
		...READ_DEPLOYMENTS,
		method: 'GET',
		path: `${DEPLOYMENT}/statuses/{status_id}`,
		resource: { repo: 'read' },
		docs: 'deployments/statuses#get-a-deployment-status',
		handler(ctx) {
			const access = ctx.repo;
			const row = loadDeployment(ctx, access);
			const id = idParam(ctx.params.status_id);
			const status = id === null ? undefined : ctx.app.stores.deployments.status(row.id, id);
			if (!status) throw notFound();
			return ok(renderStatuses(ctx, access, [status])[0]);
		},
	}),

	// ---- Environments
	route({
		...READ_ENVIRONMENTS,
		method: 'GET',
		path: ENVIRONMENTS,
		resource: { repo: 'read' },
		docs: 'deployments/environments#list-environments',
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			const { rows, total } = ctx.app.stores.deployments.environments(access.repo.id, ctx.page.perPage, ctx.page.offset);
			return { status: 200, body: { total_count: total, environments: renderEnvironments(ctx, access, rows) }, total };
		},
	}),
	route({
		...READ_ENVIRONMENTS,
		method: 'GET',
		path: ENVIRONMENT,
		resource: { repo: 'read' },
		docs: 'deployments/environments#get-an-environment',
		handler(ctx) {
			const access = ctx.repo;
			return ok(renderEnvironments(ctx, access, [loadEnvironment(ctx, access)])[0]);
		},
	}),
	route({
		...WRITE_ENVIRONMENTS,
		method: 'PUT',
		path: ENVIRONMENT,
		resource: { repo: 'admin' },
		docs: 'deployments/environments#create-or-update-an-environment',
		errorResource: 'Environment',
		body: environmentBody,
		handler(ctx) {
			const access = ctx.repo;
			const row = saveEnvironment(
				ctx.app,
				access.repo,
				access.owner,
				ctx.params.environment_name,
				ctx.body as EnvironmentInput,
				isoSeconds(ctx.now),
			);
			return ok(renderEnvironments(ctx, access, [row])[0]);
		},
	}),
	route({
		...WRITE_ENVIRONMENTS,
		method: 'DELETE',
		path: ENVIRONMENT,
		resource: { repo: 'admin' },
		docs: 'deployments/environments#delete-an-environment',
		handler(ctx) {
			const access = ctx.repo;
			const row = loadEnvironment(ctx, access);
			ctx.app.stores.deployments.removeEnvironment(row.id);
			return noContent();
		},
	}),

	// ---- Deployment branch policies
	route({
		...READ_ENVIRONMENTS,
		method: 'GET',
		path: POLICIES,
		resource: { repo: 'read' },
		docs: 'deployments/branch-policies#list-deployment-branch-policies',
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			const env = loadEnvironment(ctx, access);
			const { rows, total } = ctx.app.stores.deployments.policies(env.id, ctx.page.perPage, ctx.page.offset);
			return { status: 200, body: { total_count: total, branch_policies: rows.map(branchPolicy) }, total };
		},
	}),
	route({
		...WRITE_ENVIRONMENTS,
		method: 'POST',
		path: POLICIES,
		resource: { repo: 'admin' },
		docs: 'deployments/branch-policies#create-a-deployment-branch-policy',
		errorResource: 'DeploymentBranchPolicy',
		body: v.object({ name: policyName, type: v.optional(v.picklist(['branch', 'tag'])) }),
		handler(ctx) {
			const access = ctx.repo;
			const env = loadEnvironment(ctx, access);
			// The endpoints apply only while the environment uses custom branch policies.
			if (env.branch_policy !== 'custom') throw notFound();
			checkPattern(ctx.body.name);
			const type = ctx.body.type ?? 'branch';
			const store = ctx.app.stores.deployments;
			const existing = store.policyByName(env.id, type, ctx.body.name);
			// The same pattern exists: 303 See Other to it.
			if (existing) return redirect(branchPolicyUrl(ref(ctx, access), env.name, existing.id), 303);
			const row = store.insertPolicy(env.id, ctx.body.name, type, isoSeconds(ctx.now));
			return ok(branchPolicy(row));
		},
	}),
	route({
		...READ_ENVIRONMENTS,
		method: 'GET',
		path: POLICY,
		resource: { repo: 'read' },
		docs: 'deployments/branch-policies#get-a-deployment-branch-policy',
		handler(ctx) {
			const access = ctx.repo;
			const env = loadEnvironment(ctx, access);
			const id = idParam(ctx.params.branch_policy_id);
			const row = id === null ? undefined : ctx.app.stores.deployments.policy(env.id, id);
			if (!row) throw notFound();
			return ok(branchPolicy(row));
		},
	}),
	route({
		...WRITE_ENVIRONMENTS,
		method: 'PUT',
		path: POLICY,
		resource: { repo: 'admin' },
		docs: 'deployments/branch-policies#update-a-deployment-branch-policy',
		errorResource: 'DeploymentBranchPolicy',
		body: v.object({ name: policyName }),
		handler(ctx) {
			const access = ctx.repo;
			const env = loadEnvironment(ctx, access);
			const store = ctx.app.stores.deployments;
			const id = idParam(ctx.params.branch_policy_id);
			const row = id === null ? undefined : store.policy(env.id, id);
			if (!row) throw notFound();
			checkPattern(ctx.body.name);
			const same = store.policyByName(env.id, row.type, ctx.body.name);
			if (same && same.id !== row.id) {
				throw invalidField(
					'DeploymentBranchPolicy',
					'name',
					`the ${row.type} pattern "${ctx.body.name}" already exists`,
					'already_exists',
				);
			}
			return ok(branchPolicy(store.renamePolicy(row, ctx.body.name, isoSeconds(ctx.now))));
		},
	}),
	route({
		...WRITE_ENVIRONMENTS,
		method: 'DELETE',
		path: POLICY,
		resource: { repo: 'admin' },
		docs: 'deployments/branch-policies#delete-a-deployment-branch-policy',
		handler(ctx) {
			const access = ctx.repo;
			const env = loadEnvironment(ctx, access);
			const id = idParam(ctx.params.branch_policy_id);
			const row = id === null ? undefined : ctx.app.stores.deployments.policy(env.id, id);
			if (!row) throw notFound();
			ctx.app.stores.deployments.removePolicy(row.id);
			return noContent();
		},
	}),
];
