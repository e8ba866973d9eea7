/**
 * Actions secrets and variables (GitHub's actions/secrets and actions/variables operations) of a
 * repository, of a repository's environment and of an organization, with each scope's public key
 * and an organization's selected repositories.
 *
 * Permissions, as GitHub documents them: repository secrets need the Secrets repository permission
 * (read to list, write to change), repository variables Variables (actions_variables); environment
 * ones Environments as well; organization ones the organization's Secrets (organization_secrets)
 * or Variables (organization_actions_variables). Classic tokens need repo, organization ones
 * admin:org. Repository and environment ones are managed by the repository's administrators (others
 * who see the repository 403), organization ones by its owners (outsiders 404, members 403).
 */
import * as v from 'valibot';
import type { Urls } from '../../model/urls';
import { notFound } from '../../model/errors';
import { created, noContent, ok, type Reply } from '../../http/reply';
import { idParam, route, type GuardedContext, type RouteDeclaration } from '../../http/route';
import type { PermissionPolicy } from '../../auth/permissions';
import { isoSeconds } from '../../time';
import { repository } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import { organizationRepository } from '../org-actions/service';
import {
	changeSelection,
	checkName,
	checkSealedValue,
	requireCurrentKey,
	deleteSecret,
	saveSecret,
	scopeKey,
	scopeOf,
	updateVariable,
	type Place,
} from './service';
import type { SecretKind, SecretRow } from './store';

type Level = 'read' | 'write';
type Where = Place['kind'];

/** Each scope's base path, the guard and the permission of each level. */
const SCOPES: Record<Where, { base: string; docs: string; guard: RouteDeclaration['resource'] }> = {
	repository: { base: '/repos/{owner}/{repo}/actions', docs: 'repository', guard: { repo: 'admin' } },
	environment: { base: '/repos/{owner}/{repo}/environments/{environment_name}', docs: 'environment', guard: { repo: 'admin' } },
	organization: { base: '/orgs/{org}/actions', docs: 'organization', guard: { org: 'owner', conceal: 'outsiders' } },
};

/** GitHub's fine-grained permission of a scope, kind and level. */
function permissions(where: Where, kind: SecretKind, level: Level): PermissionPolicy {
	if (where === 'organization') return [kind === 'secret' ? { organization_secrets: level } : { organization_actions_variables: level }];
	const own = kind === 'secret' ? { secrets: level } : { actions_variables: level };
	return [where === 'environment' ? { environments: level, ...own } : own];
}

/** The place a request names (its scope's guard loaded the organization or repository); the environment must exist (404). */
function placeOf(ctx: GuardedContext, where: Where): Place {
	if (where === 'organization') return { kind: 'organization', org: ctx.org!.org };
	const repo = ctx.repo!.repo;
	if (where === 'repository') return { kind: 'repository', repo };
	const environment = ctx.app.stores.deployments.environment(repo.id, ctx.params.environment_name);
	if (!environment) throw notFound();
	return { kind: 'environment', repo, environment };
}

/** The secret or variable a path names, or 404 (a name GitHub would refuse is simply not found). */
function load(ctx: GuardedContext, place: Place, kind: SecretKind, param: string): SecretRow {
	let name: string;
	try {
		name = checkName(kind, ctx.params[param]);
	} catch {
		throw notFound();
	}
	const row = ctx.app.stores.secrets.byName(kind, scopeOf(place), name);
	if (!row) throw notFound();
	return row;
}

/** selected_repositories_url of an organization secret or variable. */
const selectedUrl = (urls: Urls, org: AccountRow, row: SecretRow) =>
	`${urls.apiBase}/orgs/${org.login}/actions/${row.kind === 'secret' ? 'secrets' : 'variables'}/${row.name}/repositories`;

/** GitHub's actions-secret / organization-actions-secret / actions-variable / organization-actions-variable. */
function render(urls: Urls, place: Place, row: SecretRow) {
	return {
		name: row.name,
		...(row.kind === 'variable' ? { value: row.value } : {}),
		created_at: row.created_at,
		updated_at: row.updated_at,
		...(place.kind === 'organization'
			? {
					visibility: row.visibility,
					...(row.visibility === 'selected' ? { selected_repositories_url: selectedUrl(urls, place.org, row) } : {}),
				}
			: {}),
	};
}

/** `{total_count, <field>: [...]}` of one page. */
function list(field: string, rows: unknown[], total: number): Reply {
	return { status: 200, body: { total_count: total, [field]: rows }, total };
}

const sealedBody = v.object({
	encrypted_value: v.string('encrypted_value must be a string'),
	key_id: v.string('key_id must be a string'),
});
const visibility = v.picklist(['all', 'private', 'selected'], 'visibility must be all, private or selected');
const repositoryIds = v.array(v.pipe(v.number(), v.integer()), 'selected_repository_ids must be an array of repository ids');
const orgSealedBody = v.object({
	...sealedBody.entries,
	visibility,
	selected_repository_ids: v.optional(repositoryIds),
});
const variableValue = v.string('value must be a string');
const variableBody = v.object({ name: v.string('name must be a string'), value: variableValue });
const orgVariableBody = v.object({ ...variableBody.entries, visibility, selected_repository_ids: v.optional(repositoryIds) });
const variablePatch = v.object({
	name: v.optional(v.string('name must be a string')),
	value: v.optional(variableValue),
	visibility: v.optional(visibility),
	selected_repository_ids: v.optional(repositoryIds),
});

/** The secrets routes of one scope: list, public key, get, create or update, delete. */
function secretRoutes(where: Where): RouteDeclaration[] {
	const { base, docs: scope, guard } = SCOPES[where];
	const common = { access: 'authenticated' as const, resource: guard, errorResource: 'Secret' };
	const read = { ...common, permissions: permissions(where, 'secret', 'read') };
	const write = { ...common, permissions: permissions(where, 'secret', 'write') };
	const page = 'actions/secrets#';
	const article = where === 'repository' ? 'a' : 'an';
	return [
		route({
			...read,
			method: 'GET',
			path: `${base}/secrets`,
			docs: `${page}list-${scope}-secrets`,
			pagination: true,
			handler(ctx) {
				const place = placeOf(ctx, where);
				const { rows, total } = ctx.app.stores.secrets.page('secret', scopeOf(place), ctx.page.perPage, ctx.page.offset);
				return list(
					'secrets',
					rows.map((row) => render(ctx.app.urls, place, row)),
					total,
				);
			},
		}),
		route({
			...read,
			method: 'GET',
			path: `${base}/secrets/public-key`,
			docs: `${page}get-${article}-${scope}-public-key`,
			handler(ctx) {
				const key = scopeKey(ctx.app, placeOf(ctx, where), isoSeconds(ctx.now));
				return ok({ key_id: key.key_id, key: key.public_key });
			},
		}),
		route({
			...read,
			method: 'GET',
			path: `${base}/secrets/{secret_name}`,
			docs: `${page}get-${article}-${scope}-secret`,
			handler(ctx) {
				const place = placeOf(ctx, where);
				return ok(render(ctx.app.urls, place, load(ctx, place, 'secret', 'secret_name')));
			},
		}),
		route({
			...write,
			method: 'PUT',
			path: `${base}/secrets/{secret_name}`,
			docs: `${page}create-or-update-${article}-${scope}-secret`,
			body: where === 'organization' ? orgSealedBody : sealedBody,
			// The sealed box is opened with libsodium before the write: 422 when it does not open.
			prepare: (ctx) => checkSealedValue(ctx.app, placeOf(ctx, where), ctx.body),
			handler(ctx) {
				const place = placeOf(ctx, where);
				const body = ctx.body as v.InferOutput<typeof orgSealedBody>;
				// Opened by the prepare step with this key; a scope's key never changes once made.
				requireCurrentKey(ctx.app, place, body.key_id);
				const result = saveSecret(
					ctx.app,
					place,
					{
						kind: 'secret',
						name: ctx.params.secret_name,
						value: body.encrypted_value,
						keyId: body.key_id,
						visibility: body.visibility,
						selectedRepositoryIds: body.selected_repository_ids,
					},
					{ createOnly: false },
					actorOf(ctx, where),
					isoSeconds(ctx.now),
				);
				return result.created ? created({}) : noContent();
			},
		}),
		route({
			...write,
			method: 'DELETE',
			path: `${base}/secrets/{secret_name}`,
			docs: `${page}delete-${article}-${scope}-secret`,
			handler(ctx) {
				const place = placeOf(ctx, where);
				deleteSecret(ctx.app, place, load(ctx, place, 'secret', 'secret_name'), actorOf(ctx, where));
				return noContent();
			},
		}),
	];
}

/** The variables routes of one scope: list, create, get, update, delete. */
function variableRoutes(where: Where): RouteDeclaration[] {
	const { base, docs: scope, guard } = SCOPES[where];
	const common = { access: 'authenticated' as const, resource: guard, errorResource: 'Variable' };
	const read = { ...common, permissions: permissions(where, 'variable', 'read') };
	const write = { ...common, permissions: permissions(where, 'variable', 'write') };
	const page = 'actions/variables#';
	const article = where === 'repository' ? 'a' : 'an';
	return [
		route({
			...read,
			method: 'GET',
			path: `${base}/variables`,
			docs: `${page}list-${scope}-variables`,
			pagination: { perPage: 10, maxPerPage: 30 },
			handler(ctx) {
				const place = placeOf(ctx, where);
				const { rows, total } = ctx.app.stores.secrets.page('variable', scopeOf(place), ctx.page.perPage, ctx.page.offset);
				return list(
					'variables',
					rows.map((row) => render(ctx.app.urls, place, row)),
					total,
				);
			},
		}),
		route({
			...write,
			method: 'POST',
			path: `${base}/variables`,
			docs: `${page}create-${article}-${scope}-variable`,
			body: where === 'organization' ? orgVariableBody : variableBody,
			handler(ctx) {
				const place = placeOf(ctx, where);
				const body = ctx.body as v.InferOutput<typeof orgVariableBody>;
				saveSecret(
					ctx.app,
					place,
					{
						kind: 'variable',
						name: body.name,
						value: body.value,
						keyId: null,
						visibility: body.visibility,
						selectedRepositoryIds: body.selected_repository_ids,
					},
					{ createOnly: true },
					actorOf(ctx, where),
					isoSeconds(ctx.now),
				);
				return created({});
			},
		}),
		route({
			...read,
			method: 'GET',
			path: `${base}/variables/{name}`,
			docs: `${page}get-${article}-${scope}-variable`,
			handler(ctx) {
				const place = placeOf(ctx, where);
				return ok(render(ctx.app.urls, place, load(ctx, place, 'variable', 'name')));
			},
		}),
		route({
			...write,
			method: 'PATCH',
			path: `${base}/variables/{name}`,
			docs: `${page}update-${article}-${scope}-variable`,
			body: variablePatch,
			handler(ctx) {
				const place = placeOf(ctx, where);
				const row = load(ctx, place, 'variable', 'name');
				updateVariable(ctx.app, place, row, ctx.body, actorOf(ctx, where), isoSeconds(ctx.now));
				return noContent();
			},
		}),
		route({
			...write,
			method: 'DELETE',
			path: `${base}/variables/{name}`,
			docs: `${page}delete-${article}-${scope}-variable`,
			handler(ctx) {
				const place = placeOf(ctx, where);
				deleteSecret(ctx.app, place, load(ctx, place, 'variable', 'name'), actorOf(ctx, where));
				return noContent();
			},
		}),
	];
}

/** Who acts, for the events: the user, or an app's bot account. */
function actorOf(ctx: GuardedContext, where: Where): number | null {
	return where === 'organization' ? ctx.org!.actorId : ctx.principal.actorId;
}

/** An organization secret's or variable's selected repositories: list, replace, add one, remove one. */
function selectionRoutes(kind: SecretKind): RouteDeclaration[] {
	const plural = kind === 'secret' ? 'secrets' : 'variables';
	const param = kind === 'secret' ? 'secret_name' : 'name';
	const base = `/orgs/{org}/actions/${plural}/{${param}}/repositories`;
	const common = {
		access: 'authenticated' as const,
		resource: SCOPES.organization.guard,
		errorResource: kind === 'secret' ? 'Secret' : 'Variable',
	};
	const page = `actions/${plural}#`;
	const noun = kind === 'secret' ? 'secret' : 'variable';
	const loadOrg = (ctx: GuardedContext) => {
		const place = placeOf(ctx, 'organization') as Extract<Place, { kind: 'organization' }>;
		return { place, row: load(ctx, place, kind, param) };
	};
	return [
		route({
			...common,
			permissions: permissions('organization', kind, 'read'),
			method: 'GET',
			path: base,
			docs: `${page}list-selected-repositories-for-an-organization-${noun}`,
			pagination: true,
			handler(ctx) {
				const { place, row } = loadOrg(ctx);
				if (row.visibility !== 'selected') return list('repositories', [], 0);
				const { rows, total } = ctx.app.stores.secrets.selectedPage(row.id, ctx.page.perPage, ctx.page.offset);
				return list(
					'repositories',
					rows.map((repo) => repository(ctx.app.urls, repo, place.org, null)),
					total,
				);
			},
		}),
		route({
			...common,
			permissions: permissions('organization', kind, 'write'),
			method: 'PUT',
			path: base,
			docs: `${page}set-selected-repositories-for-an-organization-${noun}`,
			body: v.object({ selected_repository_ids: repositoryIds }),
			handler(ctx) {
				const { place, row } = loadOrg(ctx);
				changeSelection(ctx.app, place.org, row, { set: ctx.body.selected_repository_ids }, ctx.org!.actorId, isoSeconds(ctx.now));
				return noContent();
			},
		}),
		...(['PUT', 'DELETE'] as const).map((method) =>
			route({
				...common,
				permissions: permissions('organization', kind, 'write'),
				method,
				path: `${base}/{repository_id}`,
				docs: `${page}${method === 'PUT' ? 'add' : 'remove'}-selected-repository-${method === 'PUT' ? 'to' : 'from'}-an-organization-${noun}`,
				handler(ctx) {
					const { place, row } = loadOrg(ctx);
					const repo = organizationRepository(ctx.app, place.org, idParam(ctx.params.repository_id));
					const change = method === 'PUT' ? { add: repo.id } : { remove: repo.id };
					changeSelection(ctx.app, place.org, row, change, ctx.org!.actorId, isoSeconds(ctx.now));
					return noContent();
				},
			}),
		),
	];
}

/** The organization's secrets or variables a repository may use (GET …/organization-secrets|variables). */
function reachingRoute(kind: SecretKind): RouteDeclaration {
	const plural = kind === 'secret' ? 'secrets' : 'variables';
	return route({
		access: 'authenticated',
		resource: { repo: 'admin' },
		permissions: permissions('repository', kind, 'read'),
		method: 'GET',
		path: `/repos/{owner}/{repo}/actions/organization-${plural}`,
		docs: `actions/${plural}#list-repository-organization-${plural}`,
		pagination: kind === 'secret' ? true : { perPage: 10, maxPerPage: 30 },
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			if (owner.type !== 'Organization') return list(plural, [], 0);
			const { rows, total } = ctx.app.stores.secrets.reaching(kind, owner.id, repo, ctx.page.perPage, ctx.page.offset);
			const place: Place = { kind: 'repository', repo };
			return list(
				plural,
				rows.map((row) => render(ctx.app.urls, place, row)),
				total,
			);
		},
	});
}

export const secretRoutesTable: RouteDeclaration[] = [
	...secretRoutes('repository'),
	reachingRoute('secret'),
	...variableRoutes('repository'),
	reachingRoute('variable'),
	...secretRoutes('environment'),
	...variableRoutes('environment'),
	...secretRoutes('organization'),
	...selectionRoutes('secret'),
	...variableRoutes('organization'),
	...selectionRoutes('variable'),
];
