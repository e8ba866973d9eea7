/**
 * Organization Actions settings (GitHub's actions/permissions, actions/oidc and actions/cache
 * operations for an organization): GET and PUT /orgs/{org}/actions/permissions and its pages
 * (repositories, selected-actions, workflow, artifact-and-log-retention,
 * fork-pr-contributor-approval, fork-pr-workflows-private-repos, self-hosted-runners and its
 * repositories), the OIDC subject claim template, and the cache usage.
 *
 * Policy from the permission matrix: Organization administration (read for GET, write for
 * PUT/DELETE); classic tokens admin:org. Owners and the organization's app only: members get 403,
 * outsiders 404.
 */
import * as v from 'valibot';
import { conflict, unprocessable } from '../../model/errors';
import { created, noContent, ok, type Reply } from '../../http/reply';
import { idParam, route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import { repository } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import {
	DEFAULT_CLAIM_KEYS,
	MAXIMUM_RETENTION_DAYS,
	OIDC_CLAIM_KEYS,
	organizationRepositories,
	organizationRepository,
	requireSelected,
	updateActionsSettings,
} from './service';
import type { OrgActionsValues, RepositoryList } from './store';

const O = '/orgs/{org}/actions';
const PERMISSIONS = `${O}/permissions`;

/** Every route: the matrix row, owners and the app, outsiders 404. */
const POLICY = {
	permissions: 'matrix' as const,
	access: 'authenticated' as const,
	resource: { org: 'owner' as const, conceal: 'outsiders' as const },
	errorResource: 'Organization',
};

const bool = (field: string) => v.boolean(`${field} must be a boolean`);
const ids = (field: string) => v.array(v.pipe(v.number(), v.integer()), `${field} must be an array of repository ids`);

/** Apply a change of settings with its audit-log action, answering 204. */
function change(ctx: Context, patch: Partial<OrgActionsValues>, action: string): Reply {
	updateActionsSettings(ctx.app, ctx.org.org, patch, action, ctx.org.actorId, isoSeconds(ctx.now));
	return noContent();
}

/** `{total_count, repositories}` of a selection (GitHub's minimal-repository items). */
function selection(ctx: Context, org: AccountRow, list: RepositoryList): Reply {
	const { rows, total } = ctx.app.stores.orgActions.repositories(org.id, list, ctx.page.perPage, ctx.page.offset);
	return { status: 200, body: { total_count: total, repositories: rows.map((r) => repository(ctx.app.urls, r, org, null)) }, total };
}

/** The routes of one repository selection: list, replace, add one, remove one. */
function selectionRoutes(
	base: string,
	list: RepositoryList,
	docs: { list: string; set: string; add: string; remove: string },
	action: string,
): RouteDeclaration[] {
	return [
		route({
			...POLICY,
			method: 'GET',
			path: base,
			docs: docs.list,
			pagination: true,
			handler: (ctx) => selection(ctx, ctx.org.org, list),
		}),
		route({
			...POLICY,
			method: 'PUT',
			path: base,
			docs: docs.set,
			body: v.object({ selected_repository_ids: ids('selected_repository_ids') }),
			handler(ctx) {
				const org = ctx.org.org;
				requireSelected(ctx.app.stores.orgActions.get(org.id), list);
				const repos = organizationRepositories(ctx.app, org, ctx.body.selected_repository_ids, 'selected_repository_ids');
				ctx.app.stores.orgActions.replace(
					org.id,
					list,
					repos.map((r) => r.id),
				);
				return change(ctx, {}, action);
			},
		}),
		...(['PUT', 'DELETE'] as const).map((method) =>
			route({
				...POLICY,
				method,
				path: `${base}/{repository_id}`,
				docs: method === 'PUT' ? docs.add : docs.remove,
				handler(ctx) {
					const org = ctx.org.org;
					const repo = organizationRepository(ctx.app, org, idParam(ctx.params.repository_id));
					requireSelected(ctx.app.stores.orgActions.get(org.id), list);
					if (method === 'PUT') ctx.app.stores.orgActions.add(org.id, list, repo.id);
					else ctx.app.stores.orgActions.remove(org.id, list, repo.id);
					return change(ctx, {}, action);
				},
			}),
		),
	];
}

const permissionsBody = v.object({
	enabled_repositories: v.picklist(['all', 'none', 'selected'], 'enabled_repositories must be all, none or selected'),
	allowed_actions: v.optional(v.picklist(['all', 'local_only', 'selected'], 'allowed_actions must be all, local_only or selected')),
	sha_pinning_required: v.optional(bool('sha_pinning_required')),
});

const selectedActionsBody = v.object({
	github_owned_allowed: v.optional(bool('github_owned_allowed')),
	verified_allowed: v.optional(bool('verified_allowed')),
	patterns_allowed: v.optional(
		v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(255)), 'patterns_allowed must be an array of strings'),
	),
});

const workflowBody = v.object({
	default_workflow_permissions: v.optional(v.picklist(['read', 'write'], 'default_workflow_permissions must be read or write')),
	can_approve_pull_request_reviews: v.optional(bool('can_approve_pull_request_reviews')),
});

const APPROVAL_POLICIES = ['first_time_contributors_new_to_github', 'first_time_contributors', 'all_external_contributors'] as const;

const forkPrivateBody = v.object({
	run_workflows_from_fork_pull_requests: bool('run_workflows_from_fork_pull_requests'),
	send_write_tokens_to_workflows: v.optional(bool('send_write_tokens_to_workflows')),
	send_secrets_and_variables: v.optional(bool('send_secrets_and_variables')),
	require_approval_for_fork_pr_workflows: v.optional(bool('require_approval_for_fork_pr_workflows')),
});

const oidcBody = v.object({
	include_claim_keys: v.array(v.string(), 'include_claim_keys must be an array of claim names'),
	use_immutable_subject: v.optional(bool('use_immutable_subject')),
});

const flag = (on: number) => on === 1;

/** Every organization Actions settings route (registered in src/api/routes.ts). */
export const orgActionsRoutes: RouteDeclaration[] = [
	route({
		...POLICY,
		method: 'GET',
		path: PERMISSIONS,
		docs: 'actions/permissions#get-github-actions-permissions-for-an-organization',
		handler(ctx) {
			const s = ctx.app.stores.orgActions.get(ctx.org.org.id);
			const base = ctx.app.urls.api(`/orgs/${ctx.org.org.login}/actions/permissions`);
			return ok({
				enabled_repositories: s.enabled_repositories,
				...(s.enabled_repositories === 'selected' ? { selected_repositories_url: `${base}/repositories` } : {}),
				...(s.enabled_repositories !== 'none'
					? {
							allowed_actions: s.allowed_actions,
							...(s.allowed_actions === 'selected' ? { selected_actions_url: `${base}/selected-actions` } : {}),
							sha_pinning_required: flag(s.sha_pinning_required),
						}
					: {}),
			});
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: PERMISSIONS,
		docs: 'actions/permissions#set-github-actions-permissions-for-an-organization',
		body: permissionsBody,
		handler(ctx) {
			const { enabled_repositories, allowed_actions, sha_pinning_required } = ctx.body;
			return change(
				ctx,
				{
					enabled_repositories,
					...(allowed_actions !== undefined ? { allowed_actions } : {}),
					...(sha_pinning_required !== undefined ? { sha_pinning_required: sha_pinning_required ? 1 : 0 } : {}),
				},
				'update_actions_settings',
			);
		},
	}),
	...selectionRoutes(
		`${PERMISSIONS}/repositories`,
		'actions',
		{
			list: 'actions/permissions#list-selected-repositories-enabled-for-github-actions-in-an-organization',
			set: 'actions/permissions#set-selected-repositories-enabled-for-github-actions-in-an-organization',
			add: 'actions/permissions#enable-a-selected-repository-for-github-actions-in-an-organization',
			remove: 'actions/permissions#disable-a-selected-repository-for-github-actions-in-an-organization',
		},
		'update_actions_settings',
	),
	route({
		...POLICY,
		method: 'GET',
		path: `${PERMISSIONS}/selected-actions`,
		docs: 'actions/permissions#get-allowed-actions-and-reusable-workflows-for-an-organization',
		handler(ctx) {
			const s = ctx.app.stores.orgActions.get(ctx.org.org.id);
			return ok({
				github_owned_allowed: flag(s.github_owned_allowed),
				verified_allowed: flag(s.verified_allowed),
				patterns_allowed: JSON.parse(s.patterns_allowed) as string[],
			});
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${PERMISSIONS}/selected-actions`,
		docs: 'actions/permissions#set-allowed-actions-and-reusable-workflows-for-an-organization',
		body: selectedActionsBody,
		handler(ctx) {
			const current = ctx.app.stores.orgActions.get(ctx.org.org.id);
			if (current.allowed_actions !== 'selected') {
				throw conflict("The organization's allowed_actions policy must be set to selected to choose actions.");
			}
			const { github_owned_allowed, verified_allowed, patterns_allowed } = ctx.body;
			return change(
				ctx,
				{
					...(github_owned_allowed !== undefined ? { github_owned_allowed: github_owned_allowed ? 1 : 0 } : {}),
					...(verified_allowed !== undefined ? { verified_allowed: verified_allowed ? 1 : 0 } : {}),
					...(patterns_allowed !== undefined
						? { patterns_allowed: JSON.stringify([...new Set(patterns_allowed.map((p) => p.trim()))]) }
						: {}),
				},
				'update_actions_settings',
			);
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${PERMISSIONS}/workflow`,
		docs: 'actions/permissions#get-default-workflow-permissions-for-an-organization',
		handler(ctx) {
			const s = ctx.app.stores.orgActions.get(ctx.org.org.id);
			return ok({
				default_workflow_permissions: s.default_workflow_permissions,
				can_approve_pull_request_reviews: flag(s.can_approve_pull_request_reviews),
			});
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${PERMISSIONS}/workflow`,
		docs: 'actions/permissions#set-default-workflow-permissions-for-an-organization',
		body: workflowBody,
		handler(ctx) {
			const { default_workflow_permissions, can_approve_pull_request_reviews } = ctx.body;
			return change(
				ctx,
				{
					...(default_workflow_permissions !== undefined ? { default_workflow_permissions } : {}),
					...(can_approve_pull_request_reviews !== undefined
						? { can_approve_pull_request_reviews: can_approve_pull_request_reviews ? 1 : 0 }
						: {}),
				},
				'set_default_workflow_permissions',
			);
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${PERMISSIONS}/artifact-and-log-retention`,
		docs: 'actions/permissions#get-artifact-and-log-retention-settings-for-an-organization',
		handler(ctx) {
			return ok({ days: ctx.app.stores.orgActions.get(ctx.org.org.id).retention_days, maximum_allowed_days: MAXIMUM_RETENTION_DAYS });
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${PERMISSIONS}/artifact-and-log-retention`,
		docs: 'actions/permissions#set-artifact-and-log-retention-settings-for-an-organization',
		body: v.object({
			days: v.pipe(
				v.number('days must be a number of days'),
				v.integer('days must be a whole number of days'),
				v.minValue(1, 'days must be at least 1'),
				v.maxValue(MAXIMUM_RETENTION_DAYS, `days must be at most ${MAXIMUM_RETENTION_DAYS} (maximum_allowed_days)`),
			),
		}),
		handler: (ctx) => change(ctx, { retention_days: ctx.body.days }, 'set_actions_retention_limit'),
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${PERMISSIONS}/fork-pr-contributor-approval`,
		docs: 'actions/permissions#get-fork-pr-contributor-approval-permissions-for-an-organization',
		handler: (ctx) => ok({ approval_policy: ctx.app.stores.orgActions.get(ctx.org.org.id).approval_policy }),
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${PERMISSIONS}/fork-pr-contributor-approval`,
		docs: 'actions/permissions#set-fork-pr-contributor-approval-permissions-for-an-organization',
		body: v.object({
			approval_policy: v.picklist(APPROVAL_POLICIES, `approval_policy must be one of ${APPROVAL_POLICIES.join(', ')}`),
		}),
		handler: (ctx) => change(ctx, { approval_policy: ctx.body.approval_policy }, 'set_actions_fork_pr_approvals_policy'),
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${PERMISSIONS}/fork-pr-workflows-private-repos`,
		docs: 'actions/permissions#get-private-repo-fork-pr-workflow-settings-for-an-organization',
		handler(ctx) {
			const s = ctx.app.stores.orgActions.get(ctx.org.org.id);
			return ok({
				run_workflows_from_fork_pull_requests: flag(s.run_workflows_from_fork_pull_requests),
				send_write_tokens_to_workflows: flag(s.send_write_tokens_to_workflows),
				send_secrets_and_variables: flag(s.send_secrets_and_variables),
				require_approval_for_fork_pr_workflows: flag(s.require_approval_for_fork_pr_workflows),
			});
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${PERMISSIONS}/fork-pr-workflows-private-repos`,
		docs: 'actions/permissions#set-private-repo-fork-pr-workflow-settings-for-an-organization',
		body: forkPrivateBody,
		handler(ctx) {
			const b = ctx.body;
			const bit = (value: boolean | undefined) => (value === undefined ? {} : value ? 1 : 0);
			const patch: Partial<OrgActionsValues> = {
				run_workflows_from_fork_pull_requests: b.run_workflows_from_fork_pull_requests ? 1 : 0,
			};
			for (const key of [
				'send_write_tokens_to_workflows',
				'send_secrets_and_variables',
				'require_approval_for_fork_pr_workflows',
			] as const) {
				const value = bit(b[key]);
				if (typeof value === 'number') patch[key] = value;
			}
			// Workflows from forks that may not run get no write token and no secrets either.
			if (!b.run_workflows_from_fork_pull_requests)
				Object.assign(patch, { send_write_tokens_to_workflows: 0, send_secrets_and_variables: 0 });
			return change(ctx, patch, 'set_fork_pr_workflows_policy');
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${PERMISSIONS}/self-hosted-runners`,
		docs: 'actions/permissions#get-self-hosted-runners-settings-for-an-organization',
		handler(ctx) {
			const s = ctx.app.stores.orgActions.get(ctx.org.org.id);
			const url = ctx.app.urls.api(`/orgs/${ctx.org.org.login}/actions/permissions/self-hosted-runners/repositories`);
			return ok({
				enabled_repositories: s.self_hosted_enabled_repositories,
				...(s.self_hosted_enabled_repositories === 'selected' ? { selected_repositories_url: url } : {}),
			});
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${PERMISSIONS}/self-hosted-runners`,
		docs: 'actions/permissions#set-self-hosted-runners-settings-for-an-organization',
		body: v.object({
			enabled_repositories: v.picklist(['all', 'selected', 'none'], 'enabled_repositories must be all, selected or none'),
		}),
		handler: (ctx) =>
			change(ctx, { self_hosted_enabled_repositories: ctx.body.enabled_repositories }, 'update_self_hosted_runners_settings'),
	}),
	...selectionRoutes(
		`${PERMISSIONS}/self-hosted-runners/repositories`,
		'self_hosted',
		{
			list: 'actions/permissions#list-repositories-allowed-to-use-self-hosted-runners-in-an-organization',
			set: 'actions/permissions#set-repositories-allowed-to-use-self-hosted-runners-in-an-organization',
			add: 'actions/permissions#add-a-repository-to-the-list-of-repositories-allowed-to-use-self-hosted-runners-in-an-organization',
			remove: 'actions/permissions#remove-a-repository-from-the-list-of-repositories-allowed-to-use-self-hosted-runners-in-an-organization',
		},
		'update_self_hosted_runners_settings',
	),
	route({
		...POLICY,
		method: 'GET',
		path: `${O}/oidc/customization/sub`,
		docs: 'actions/oidc#get-the-customization-template-for-an-oidc-subject-claim-for-an-organization',
		handler(ctx) {
			const s = ctx.app.stores.orgActions.get(ctx.org.org.id);
			const keys = s.oidc_include_claim_keys === null ? DEFAULT_CLAIM_KEYS : (JSON.parse(s.oidc_include_claim_keys) as string[]);
			return ok({ include_claim_keys: keys, use_immutable_subject: flag(s.oidc_use_immutable_subject) });
		},
	}),
	route({
		...POLICY,
		method: 'PUT',
		path: `${O}/oidc/customization/sub`,
		docs: 'actions/oidc#set-the-customization-template-for-an-oidc-subject-claim-for-an-organization',
		body: oidcBody,
		handler(ctx) {
			const keys = ctx.body.include_claim_keys;
			const unknown = keys.filter(
				(key) => !(OIDC_CLAIM_KEYS as readonly string[]).includes(key) && !/^repo_property_[A-Za-z0-9_.-]+$/.test(key),
			);
			if (unknown.length) {
				throw unprocessable(`Invalid claim keys: ${unknown.join(', ')}. Valid keys: ${OIDC_CLAIM_KEYS.join(', ')}.`);
			}
			if (keys.length === 0) throw unprocessable('include_claim_keys must name at least one claim.');
			updateActionsSettings(
				ctx.app,
				ctx.org.org,
				{
					oidc_include_claim_keys: JSON.stringify([...new Set(keys)]),
					...(ctx.body.use_immutable_subject !== undefined
						? { oidc_use_immutable_subject: ctx.body.use_immutable_subject ? 1 : 0 }
						: {}),
				},
				'oidc_subject_claim_customization',
				ctx.org.actorId,
				isoSeconds(ctx.now),
			);
			// GitHub's 201 with an empty object.
			return created({});
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${O}/cache/usage`,
		docs: 'actions/cache#get-github-actions-cache-usage-for-an-organization',
		handler() {
			// Gitstead runs no workflows itself and keeps no Actions caches: nothing is cached.
			return ok({ total_active_caches_count: 0, total_active_caches_size_in_bytes: 0 });
		},
	}),
	route({
		...POLICY,
		method: 'GET',
		path: `${O}/cache/usage-by-repository`,
		docs: 'actions/cache#list-repositories-with-github-actions-cache-usage-for-an-organization',
		pagination: true,
		handler(ctx) {
			// Every repository with workflows, each with no caches (Gitstead keeps none).
			const org = ctx.org.org;
			const { rows, total } = ctx.app.stores.orgActions.withWorkflows(org.id, ctx.page.perPage, ctx.page.offset);
			const usages = rows.map((r) => ({
				full_name: `${org.login}/${r.name}`,
				active_caches_size_in_bytes: 0,
				active_caches_count: 0,
			}));
			return { status: 200, body: { total_count: total, repository_cache_usages: usages }, total };
		},
	}),
];
