/**
 * GitHub's "Organization installations" (enterprise-admin/organization-installations): an
 * enterprise owner (or a token with the enterprise_organization_installations permission, per the
 * permission matrix) lists the enterprise's organizations and their repositories, and installs,
 * uninstalls and narrows GitHub Apps on them. The organization must belong to the enterprise (404
 * otherwise, as for one that does not exist).
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { installation as installationRecord } from '../apps/render';
import { accessibleRepository, enterpriseOrganizationInstallation, installableOrganization } from './render';
import {
	changeRepositories,
	changeSelection,
	installOnOrganization,
	MAX_REPOSITORIES_PER_CALL,
	organizationInstallation,
	uninstallFromOrganization,
} from './service';

const BASE = '/enterprises/{enterprise}/apps';
const INSTALLATIONS = `${BASE}/organizations/{org}/installations`;
const DOCS = 'enterprise-admin/organization-installations';

/** Enterprise owners only; {org} is read (the enterprise owner need not be a member). */
const ENTERPRISE_ORG = {
	permissions: 'matrix' as const,
	access: 'authenticated' as const,
	resource: { enterprise: 'admin' as const, org: 'read' as const },
};

/** The guarded organization, which must be one of the guarded enterprise's. @throws DomainError 404 */
function enterpriseOrg(ctx: Context) {
	const org = ctx.org.org;
	if (org.enterprise_id !== ctx.enterprise.enterprise.id) throw notFound();
	return org;
}

const names = v.pipe(
	v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
	v.maxLength(MAX_REPOSITORIES_PER_CALL, `at most ${MAX_REPOSITORIES_PER_CALL} repositories may be given at a time`),
);

export const enterpriseAppRoutes = [
	route({
		method: 'GET',
		path: `${BASE}/installable_organizations`,
		docs: `${DOCS}#get-enterprise-owned-organizations-that-can-have-github-apps-installed`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: { enterprise: 'admin' },
		pagination: true,
		handler(ctx) {
			const { enterprise } = ctx.enterprise;
			const orgs = ctx.app.stores.enterprises.organizations(enterprise.id);
			const page = orgs.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			return paged(
				page.map((org) => installableOrganization(ctx.app.urls, enterprise, org)),
				orgs.length,
			);
		},
	}),
	route({
		...ENTERPRISE_ORG,
		method: 'GET',
		path: `${BASE}/installable_organizations/{org}/accessible_repositories`,
		docs: `${DOCS}#get-repositories-belonging-to-an-enterprise-owned-organization`,
		pagination: true,
		handler(ctx) {
			const org = enterpriseOrg(ctx);
			const repos = ctx.app.stores.repos.forOwner(org.id);
			const page = repos.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			return paged(
				page.map((repo) => accessibleRepository(repo, org)),
				repos.length,
			);
		},
	}),
	route({
		...ENTERPRISE_ORG,
		method: 'GET',
		path: INSTALLATIONS,
		docs: `${DOCS}#list-github-apps-installed-on-an-enterprise-owned-organization`,
		pagination: true,
		handler(ctx) {
			const org = enterpriseOrg(ctx);
			const { rows, total } = ctx.app.stores.apps.installationsOnPage(org.id, ctx.page.perPage, ctx.page.offset);
			return paged(
				rows.map((row) =>
					enterpriseOrganizationInstallation(
						ctx.app.urls,
						ctx.enterprise.enterprise,
						org,
						row,
						ctx.app.stores.apps.byId(row.app_id)!,
					),
				),
				total,
			);
		},
	}),
	route({
		...ENTERPRISE_ORG,
		method: 'POST',
		path: INSTALLATIONS,
		docs: `${DOCS}#install-a-github-app-on-an-enterprise-owned-organization`,
		errorResource: 'Installation',
		body: v.object({
			client_id: v.pipe(v.string(), v.minLength(1, 'client_id must not be empty')),
			repository_selection: v.picklist(['all', 'selected', 'none']),
			repositories: v.optional(names),
		}),
		handler(ctx) {
			const org = enterpriseOrg(ctx);
			const result = installOnOrganization(ctx.app, org, ctx.body, ctx.principal.actorId, isoSeconds(ctx.now));
			const body = installationRecord(ctx.app.urls, result.installation, ctx.app.stores.apps.byId(result.installation.app_id)!, org);
			return result.created ? created(body) : ok(body);
		},
	}),
	route({
		...ENTERPRISE_ORG,
		method: 'DELETE',
		path: `${INSTALLATIONS}/{installation_id}`,
		docs: `${DOCS}#uninstall-a-github-app-from-an-enterprise-owned-organization`,
		handler(ctx) {
			const org = enterpriseOrg(ctx);
			uninstallFromOrganization(
				ctx.app,
				organizationInstallation(ctx.app, org, idParam(ctx.params.installation_id)),
				ctx.principal.actorId,
			);
			return noContent();
		},
	}),
	route({
		...ENTERPRISE_ORG,
		method: 'GET',
		path: `${INSTALLATIONS}/{installation_id}/repositories`,
		docs: `${DOCS}#get-the-repositories-accessible-to-a-given-github-app-installation`,
		pagination: true,
		handler(ctx) {
			const org = enterpriseOrg(ctx);
			const installation = organizationInstallation(ctx.app, org, idParam(ctx.params.installation_id));
			if (installation.repository_selection === 'all') {
				const repos = ctx.app.stores.repos.forOwner(org.id);
				return paged(
					repos.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage).map((repo) => accessibleRepository(repo, org)),
					repos.length,
				);
			}
			const { rows, total } = ctx.app.stores.apps.selectedRepositories(installation.id, ctx.page.perPage, ctx.page.offset);
			return paged(
				rows.map((repo) => accessibleRepository(repo, org)),
				total,
			);
		},
	}),
	route({
		...ENTERPRISE_ORG,
		method: 'PATCH',
		path: `${INSTALLATIONS}/{installation_id}/repositories`,
		docs: `${DOCS}#toggle-installation-repository-access-between-selected-and-all-repositories`,
		errorResource: 'Installation',
		body: v.object({ repository_selection: v.picklist(['all', 'selected']), repositories: v.optional(names) }),
		handler(ctx) {
			const org = enterpriseOrg(ctx);
			const installation = organizationInstallation(ctx.app, org, idParam(ctx.params.installation_id));
			const changed = changeSelection(ctx.app, org, installation, ctx.body, ctx.principal.actorId, isoSeconds(ctx.now));
			return ok(installationRecord(ctx.app.urls, changed, ctx.app.stores.apps.byId(changed.app_id)!, org));
		},
	}),
	...(['add', 'remove'] as const).map((action) =>
		route({
			...ENTERPRISE_ORG,
			method: 'PATCH',
			path: `${INSTALLATIONS}/{installation_id}/repositories/${action}`,
			docs:
				action === 'add'
					? `${DOCS}#grant-repository-access-to-an-organization-installation`
					: `${DOCS}#remove-repository-access-from-an-organization-installation`,
			errorResource: 'Installation',
			body: v.object({ repositories: names }),
			handler(ctx) {
				const org = enterpriseOrg(ctx);
				const installation = organizationInstallation(ctx.app, org, idParam(ctx.params.installation_id));
				changeRepositories(ctx.app, org, installation, action, ctx.body.repositories, ctx.principal.actorId, isoSeconds(ctx.now));
				// The repositories the installation reaches now.
				return ok(
					ctx.app.stores.apps.selectedRepositories(installation.id, 1000, 0).rows.map((repo) => accessibleRepository(repo, org)),
				);
			},
		}),
	),
];
