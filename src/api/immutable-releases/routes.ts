/**
 * An organization's immutable releases policy (GitHub's orgs immutable-releases operations), with
 * the permissions of the permission matrix (organization_administration read / write): which
 * repositories publish immutable releases — all, none, or the selected ones. What it enforces is
 * in src/api/immutable-releases/enforce.ts. Owners and the organization's app manage it; members
 * are refused (403), outsiders see nothing (404).
 */
import * as v from 'valibot';
import { conflict, invalidField } from '../../model/errors';
import { noContent, ok } from '../../http/reply';
import { idParam, route, type Context, type ResourceGuard, type RouteDeclaration } from '../../http/route';
import { repository } from '../../model/render';
import { organizationRepository } from '../org-actions/service';
import type { App } from '../../app';
import type { RepositoryRow } from '../../model/rows';

const S = '/orgs/{org}/settings/immutable-releases';
const OWNERS = { org: 'owner', conceal: 'outsiders' } as const satisfies ResourceGuard;
const ids = v.array(v.pipe(v.number(), v.integer()));
const policyBody = v.object({
	enforced_repositories: v.picklist(['all', 'none', 'selected'], 'must be all, none or selected'),
	selected_repository_ids: v.optional(ids),
});
const selectionBody = v.object({ selected_repository_ids: ids });

/** The organization's repositories `list` names. @throws DomainError 422 naming one that is not */
function organizationRepositories(ctx: Context, list: number[]): RepositoryRow[] {
	return list.map((id) => {
		const repo = ctx.app.stores.repos.byId(id);
		if (!repo || repo.owner_id !== ctx.org.org.id) {
			throw invalidField(
				'ImmutableReleasesSettings',
				'selected_repository_ids',
				`repository ${id} is not a repository of ${ctx.org.org.login}`,
			);
		}
		return repo;
	});
}

/** Choosing repositories needs enforced_repositories `selected`. @throws DomainError 409 */
function requireSelectedPolicy(ctx: Context): void {
	if (ctx.app.stores.immutableReleases.policy(ctx.org.org.id) !== 'selected') {
		throw conflict(
			'Repositories are chosen only when enforced_repositories is selected: set it first (PUT /orgs/{org}/settings/immutable-releases).',
		);
	}
}

/**
 * PUT or DELETE …/repositories/{repository_id}: enable or disable one selected repository (404 for a
 * repository outside the organization, 409 unless the policy is `selected`), then 204.
 * @param apply the store change, given the organization's and the repository's ids
 */
function selectedRepositoryRoute(
	method: 'PUT' | 'DELETE',
	verb: 'enable' | 'disable',
	apply: (app: App, orgId: number, repoId: number) => void,
): RouteDeclaration {
	return route({
		method,
		path: `${S}/repositories/{repository_id}`,
		docs: `orgs/orgs#${verb}-a-selected-repository-for-immutable-releases-in-an-organization`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		handler(ctx) {
			const repo = organizationRepository(ctx.app, ctx.org.org, idParam(ctx.params.repository_id));
			requireSelectedPolicy(ctx);
			apply(ctx.app, ctx.org.org.id, repo.id);
			return noContent();
		},
	});
}

export const immutableReleaseRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: S,
		docs: 'orgs/orgs#get-immutable-releases-settings-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		handler(ctx) {
			const policy = ctx.app.stores.immutableReleases.policy(ctx.org.org.id);
			return ok({
				enforced_repositories: policy,
				...(policy === 'selected'
					? { selected_repositories_url: ctx.app.urls.api(`/orgs/${ctx.org.org.login}/settings/immutable-releases/repositories`) }
					: {}),
			});
		},
	}),
	route({
		method: 'PUT',
		path: S,
		docs: 'orgs/orgs#set-immutable-releases-settings-for-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'ImmutableReleasesSettings',
		body: policyBody,
		handler(ctx) {
			const { enforced_repositories: policy, selected_repository_ids: list } = ctx.body;
			if (list !== undefined && policy !== 'selected') {
				throw invalidField(
					'ImmutableReleasesSettings',
					'selected_repository_ids',
					'selected_repository_ids is given only when enforced_repositories is selected',
				);
			}
			const store = ctx.app.stores.immutableReleases;
			const org = ctx.org.org.id;
			const repos = list ? organizationRepositories(ctx, list) : null;
			store.setPolicy(org, policy);
			if (repos) {
				store.clearSelection(org);
				for (const repo of repos) store.select(org, repo.id);
			}
			return noContent();
		},
	}),
	route({
		method: 'GET',
		path: `${S}/repositories`,
		docs: 'orgs/orgs#list-selected-repositories-for-immutable-releases-enforcement',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		pagination: true,
		handler(ctx) {
			const store = ctx.app.stores.immutableReleases;
			const org = ctx.org.org;
			const rows = store.selected(org.id, ctx.page.perPage, ctx.page.offset);
			return {
				status: 200,
				body: {
					total_count: store.selectedCount(org.id),
					repositories: rows.map((repo) => repository(ctx.app.urls, repo, org, null)),
				},
				total: store.selectedCount(org.id),
			};
		},
	}),
	route({
		method: 'PUT',
		path: `${S}/repositories`,
		docs: 'orgs/orgs#set-selected-repositories-for-immutable-releases-enforcement',
		permissions: 'matrix',
		access: 'authenticated',
		resource: OWNERS,
		errorResource: 'ImmutableReleasesSettings',
		body: selectionBody,
		handler(ctx) {
			requireSelectedPolicy(ctx);
			const repos = organizationRepositories(ctx, ctx.body.selected_repository_ids);
			const store = ctx.app.stores.immutableReleases;
			store.clearSelection(ctx.org.org.id);
			for (const repo of repos) store.select(ctx.org.org.id, repo.id);
			return noContent();
		},
	}),
	selectedRepositoryRoute('PUT', 'enable', (app, org, repo) => app.stores.immutableReleases.select(org, repo)),
	selectedRepositoryRoute('DELETE', 'disable', (app, org, repo) => app.stores.immutableReleases.unselect(org, repo)),
];
