/**
 * Deployments, deployment statuses, deployment environments and deployment branch policies
 * (https://docs.github.com/en/rest/deployments/deployments; GitHub's
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
import { idParam, route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import type { RepoAccess } from '../../auth/access/types';
import type { TeamRow, AccountRow } from '../../model/rows';
import { repositoryPaths } from '../../model/render';
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
import type { BranchPolicyRow, DeploymentRow, EnvironmentRow, StatusRow } from './store';

const DEPLOYMENTS = '/repos/{owner}/{repo}/deployments';
const DEPLOYMENT = `${DEPLOYMENTS}/{deployment_id}`;
const ENVIRONMENTS = '/repos/{owner}/{repo}/environments';
const ENVIRONMENT = `${ENVIRONMENTS}/{environment_name}`;
const POLICIES = `${ENVIRONMENT}/deployment-branch-policies`;
const POLICY = `${POLICIES}/{branch_policy_id}`;

/** Reads of deployments and statuses: Deployments (read); anonymous callers see public repositories. */
const READ_DEPLOYMENTS = {
	permissions: [{ deployments: 'read' as const }],
	access: 'public' as const,
	resource: { repo: 'read' as const },
};
/** Writes of deployments and statuses: Deployments (write), push access; classic/OAuth scope repo_deployment or repo. */
const WRITE_DEPLOYMENTS = {
	permissions: [{ deployments: 'write' as const }],
	scopes: ['repo_deployment', 'repo'],
	access: 'authenticated' as const,
	resource: { repo: 'push' as const },
};
/** Reads of environments and branch policies: Actions (read); anonymous callers see public repositories. */
const READ_ENVIRONMENTS = { permissions: [{ actions: 'read' as const }], access: 'public' as const, resource: { repo: 'read' as const } };
/** Writes of environments and branch policies: Administration (write) and admin access to the repository. */
const WRITE_ENVIRONMENTS = {
	permissions: [{ administration: 'write' as const }],
	access: 'authenticated' as const,
	resource: { repo: 'admin' as const },
};

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
	can_admins_bypass: v.optional(v.boolean()),
	reviewers: v.optional(v.nullable(v.array(v.object({ type: v.picklist(['User', 'Team']), id: v.pipe(v.number(), v.integer()) })))),
	deployment_branch_policy: v.optional(v.nullable(v.object({ protected_branches: v.boolean(), custom_branch_policies: v.boolean() }))),
});

const policyName = v.pipe(v.string(), v.minLength(1, 'name cannot be empty'));

/** A route's context whatever its body's shape (a save route's body is its own schema's output). */
type BodyContext = Context<Record<string, unknown>, unknown>;

/** The repository's addresses, for the records' URLs. */
const ref = (ctx: Context, access: RepoAccess) => repositoryPaths(ctx.app.urls, access.owner.login, access.repo.name);

/** The deployment {deployment_id}. @throws DomainError 404 */
function loadDeployment(ctx: BodyContext, access: RepoAccess): DeploymentRow {
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

/** The branch policy {branch_policy_id} of the environment {environment_name}. @throws DomainError 404 */
function loadPolicy(ctx: Context, access: RepoAccess): { env: EnvironmentRow; row: BranchPolicyRow } {
	const env = loadEnvironment(ctx, access);
	const id = idParam(ctx.params.branch_policy_id);
	const row = id === null ? undefined : ctx.app.stores.deployments.policy(env.id, id);
	if (!row) throw notFound();
	return { env, row };
}

/** The app a request acts through (installation and user-to-server tokens), or null. */
function actingAppId(ctx: BodyContext): number | null {
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

/** The route declaration fields of reads or writes of one kind of record: permissions, access, the repository guard. */
type Policy = Pick<RouteDeclaration, 'permissions' | 'access' | 'scopes'> & { resource: { repo: 'read' | 'push' | 'admin' } };

/**
 * One kind of record of a repository (deployments, their statuses, environments, their branch
 * policies), as its list, get and delete routes see it: they differ only in how a record is
 * found, paged, shown and removed.
 */
interface RecordKind<Row> {
	/** The collection's path; `item` one record's. */
	collection: string;
	item: string;
	read: Policy;
	write: Policy;
	/** Documentation anchors of the operations. */
	docs: { list: string; get: string; delete?: string };
	/** The list's answer: the array itself (default), or `{total_count, [listKey]: […]}`. */
	listKey?: string;
	/** The list's query. */
	query?: v.GenericSchema<unknown, Record<string, unknown>>;
	/** One page of records. @throws DomainError 404 for a parent record that does not exist */
	page(ctx: Context, access: RepoAccess): { rows: Row[]; total: number };
	/** The record the path names. @throws DomainError 404 */
	load(ctx: Context, access: RepoAccess): Row;
	/** Records as GitHub shows them. */
	render(ctx: Context, access: RepoAccess, rows: Row[]): unknown[];
	/** Deletes a record (or refuses: DomainError); the delete route exists when given. */
	remove?(ctx: Context, row: Row): void;
	/** The route that creates (or creates or replaces) a record from its body, when the kind has one. */
	save?: SaveRoute<Row>;
}

/** A route saving one record from the request body. */
interface SaveRoute<Row> {
	method: 'POST' | 'PUT';
	/** The path: the collection's (create) or the record's (create or replace). */
	path: string;
	docs: string;
	errorResource: string;
	body: v.GenericSchema;
	/** 201 with the record's URL as Location (a new record), else 200. */
	created: boolean;
	/** Validates and writes the record (the body is `body`'s output). @throws DomainError for input GitHub refuses */
	save(ctx: BodyContext, access: RepoAccess): Row;
}

/** The list, get and (where the kind has them) save and delete routes of a kind of record. */
function recordRoutes<Row>(kind: RecordKind<Row>): {
	list: RouteDeclaration;
	get: RouteDeclaration;
	save: RouteDeclaration[];
	remove: RouteDeclaration[];
} {
	const list = route({
		...kind.read,
		method: 'GET',
		path: kind.collection,
		docs: kind.docs.list,
		query: kind.query,
		pagination: true,
		handler(ctx) {
			const { rows, total } = kind.page(ctx, ctx.repo);
			const items = kind.render(ctx, ctx.repo, rows);
			return kind.listKey ? { status: 200, body: { total_count: total, [kind.listKey]: items }, total } : paged(items, total);
		},
	});
	const get = route({
		...kind.read,
		method: 'GET',
		path: kind.item,
		docs: kind.docs.get,
		handler: (ctx) => ok(kind.render(ctx, ctx.repo, [kind.load(ctx, ctx.repo)])[0]),
	});
	const { remove, docs } = kind;
	const removal =
		remove && docs.delete
			? [
					route({
						...kind.write,
						method: 'DELETE',
						path: kind.item,
						docs: docs.delete,
						handler(ctx) {
							remove(ctx, kind.load(ctx, ctx.repo));
							return noContent();
						},
					}),
				]
			: [];
	const saving = kind.save;
	const save = saving
		? [
				route({
					...kind.write,
					method: saving.method,
					path: saving.path,
					docs: saving.docs,
					errorResource: saving.errorResource,
					body: saving.body,
					handler(ctx) {
						const row = saving.save(ctx, ctx.repo);
						const [body] = kind.render(ctx as Context, ctx.repo, [row]) as Array<{ url: string }>;
						return saving.created ? created(body, body.url) : ok(body);
					},
				}),
			]
		: [];
	return { list, get, save, remove: removal };
}

const deployments = recordRoutes<DeploymentRow>({
	collection: DEPLOYMENTS,
	item: DEPLOYMENT,
	read: READ_DEPLOYMENTS,
	write: WRITE_DEPLOYMENTS,
	docs: {
		list: 'deployments/deployments#list-deployments',
		get: 'deployments/deployments#get-a-deployment',
		delete: 'deployments/deployments#delete-a-deployment',
	},
	query: listDeploymentsQuery,
	page(ctx, access) {
		const query = ctx.query as v.InferOutput<typeof listDeploymentsQuery>;
		return ctx.app.stores.deployments.deployments({
			repoId: access.repo.id,
			sha: query.sha ?? null,
			ref: query.ref ?? null,
			task: query.task ?? null,
			environment: query.environment ?? null,
			limit: ctx.page.perPage,
			offset: ctx.page.offset,
		});
	},
	load: loadDeployment,
	render: renderDeployments,
	remove: (ctx, row) => deleteDeployment(ctx.app, row),
	save: {
		method: 'POST',
		path: DEPLOYMENTS,
		docs: 'deployments/deployments#create-a-deployment',
		errorResource: 'Deployment',
		body: deploymentBody,
		created: true,
		save: (ctx, access) =>
			createDeployment(
				ctx.app,
				access.repo,
				ctx.body as DeploymentInput,
				{ id: ctx.principal.actorId, appId: actingAppId(ctx) },
				isoSeconds(ctx.now),
			),
	},
});

const statuses = recordRoutes<StatusRow>({
	collection: `${DEPLOYMENT}/statuses`,
	item: `${DEPLOYMENT}/statuses/{status_id}`,
	read: READ_DEPLOYMENTS,
	write: WRITE_DEPLOYMENTS,
	docs: { list: 'deployments/statuses#list-deployment-statuses', get: 'deployments/statuses#get-a-deployment-status' },
	page: (ctx, access) => ctx.app.stores.deployments.statuses(loadDeployment(ctx, access).id, ctx.page.perPage, ctx.page.offset),
	load(ctx, access) {
		const row = loadDeployment(ctx, access);
		const id = idParam(ctx.params.status_id);
		const status = id === null ? undefined : ctx.app.stores.deployments.status(row.id, id);
		if (!status) throw notFound();
		return status;
	},
	render: renderStatuses,
	save: {
		method: 'POST',
		path: `${DEPLOYMENT}/statuses`,
		docs: 'deployments/statuses#create-a-deployment-status',
		errorResource: 'DeploymentStatus',
		body: statusBody,
		created: true,
		save: (ctx, access) =>
			createStatus(
				ctx.app,
				access.repo,
				loadDeployment(ctx, access),
				ctx.body as StatusInput,
				ctx.principal.actorId,
				isoSeconds(ctx.now),
			),
	},
});

const environments = recordRoutes<EnvironmentRow>({
	collection: ENVIRONMENTS,
	item: ENVIRONMENT,
	read: READ_ENVIRONMENTS,
	write: WRITE_ENVIRONMENTS,
	docs: {
		list: 'deployments/environments#list-environments',
		get: 'deployments/environments#get-an-environment',
		delete: 'deployments/environments#delete-an-environment',
	},
	listKey: 'environments',
	page: (ctx, access) => ctx.app.stores.deployments.environments(access.repo.id, ctx.page.perPage, ctx.page.offset),
	load: loadEnvironment,
	render: renderEnvironments,
	remove: (ctx, row) => ctx.app.stores.deployments.removeEnvironment(row.id),
	save: {
		method: 'PUT',
		path: ENVIRONMENT,
		docs: 'deployments/environments#create-or-update-an-environment',
		errorResource: 'Environment',
		body: environmentBody,
		created: false,
		save: (ctx, access) =>
			saveEnvironment(
				ctx.app,
				access.repo,
				access.owner,
				ctx.params.environment_name,
				ctx.body as EnvironmentInput,
				isoSeconds(ctx.now),
			),
	},
});

const branchPolicies = recordRoutes<BranchPolicyRow>({
	collection: POLICIES,
	item: POLICY,
	read: READ_ENVIRONMENTS,
	write: WRITE_ENVIRONMENTS,
	docs: {
		list: 'deployments/branch-policies#list-deployment-branch-policies',
		get: 'deployments/branch-policies#get-a-deployment-branch-policy',
		delete: 'deployments/branch-policies#delete-a-deployment-branch-policy',
	},
	listKey: 'branch_policies',
	page: (ctx, access) => ctx.app.stores.deployments.policies(loadEnvironment(ctx, access).id, ctx.page.perPage, ctx.page.offset),
	load: (ctx, access) => loadPolicy(ctx, access).row,
	render: (_ctx, _access, rows) => rows.map(branchPolicy),
	remove: (ctx, row) => ctx.app.stores.deployments.removePolicy(row.id),
});

export const deploymentRoutes = [
	// ---- Deployments
	deployments.list,
	...deployments.save,
	deployments.get,
	...deployments.remove,

	// ---- Deployment statuses
	statuses.list,
	...statuses.save,
	statuses.get,

	// ---- Environments
	environments.list,
	environments.get,
	...environments.save,
	...environments.remove,

	// ---- Deployment branch policies
	branchPolicies.list,
	route({
		...WRITE_ENVIRONMENTS,
		method: 'POST',
		path: POLICIES,
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
	branchPolicies.get,
	route({
		...WRITE_ENVIRONMENTS,
		method: 'PUT',
		path: POLICY,
		docs: 'deployments/branch-policies#update-a-deployment-branch-policy',
		errorResource: 'DeploymentBranchPolicy',
		body: v.object({ name: policyName }),
		handler(ctx) {
			const { env, row } = loadPolicy(ctx, ctx.repo);
			const store = ctx.app.stores.deployments;
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
	...branchPolicies.remove,
];
