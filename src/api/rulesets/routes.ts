/**
 * Organization rulesets (GitHub's "REST API endpoints for rules": organization rulesets, rule
 * suites; "push rule bypass requests"), with the permission matrix's Organization administration
 * rows: list and create, get, update and delete, versions; rule suites (src/api/rulesets/enforce.ts
 * keeps them); push-rule bypass requests. And repository rulesets: a repository's own rulesets,
 * created, updated and deleted by its administrators at /repos/{owner}/{repo}/rulesets and listed
 * there with the organization's that apply (includes_parents), and
 * GET /repos/{owner}/{repo}/rules/branches/{branch}: the active rules of both kinds for a branch.
 *
 * Organization owners and the organization's app (with organization_administration) manage them;
 * members get 403, callers outside the organization 404.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context, type ResourceGuard, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import type { AccountRow } from '../../model/rows';
import { branchRulesets } from './enforce';
import { bypassMode, repositoryMatches, conditionsOf } from './match';
import {
	bypassRequest,
	ruleSuite,
	ruleSuiteSummary,
	ruleset,
	rulesetSource,
	rulesetSummary,
	rulesetVersion,
	rulesetVersionWithState,
} from './render';
import { createBody, repositoryCreateBody, repositoryUpdateBody, updateBody, type Rule } from './schema';
import { createRuleset, deleteRuleset, updateRuleset } from './service';
import type { RulesetRow } from './store';

const O = '/orgs/{org}';
const DOCS = 'orgs/rules';
const ADMIN = { org: 'owner', conceal: 'outsiders' } as const satisfies ResourceGuard;
const PERIOD_HOURS = { hour: 1, day: 24, week: 168, month: 720 } as const;

const targetsQuery = v.object({ targets: v.optional(v.string()) });
const suitesQuery = v.object({
	ref: v.optional(v.string()),
	repository_name: v.optional(v.string()),
	time_period: v.optional(v.picklist(['hour', 'day', 'week', 'month']), 'day'),
	actor_name: v.optional(v.string()),
	rule_suite_result: v.optional(v.picklist(['pass', 'fail', 'bypass', 'all']), 'all'),
	evaluate_status: v.optional(v.picklist(['pass', 'fail', 'bypass', 'all'])),
});
const bypassQuery = v.object({
	repository_name: v.optional(v.string()),
	reviewer: v.optional(v.string()),
	requester: v.optional(v.string()),
	time_period: v.optional(v.picklist(['hour', 'day', 'week', 'month']), 'day'),
	request_status: v.optional(v.picklist(['completed', 'cancelled', 'approved', 'expired', 'deleted', 'denied', 'open', 'all']), 'all'),
});
const includesParents = v.optional(v.picklist(['true', 'false']), 'true');
const repoListQuery = v.object({ targets: v.optional(v.string()), includes_parents: includesParents });
const repoOneQuery = v.object({ includes_parents: includesParents });

/** The `targets` filter (comma-separated branch, tag, push), or null for all. */
function targetFilter(targets: string | undefined): Set<string> | null {
	if (targets === undefined || targets.trim() === '') return null;
	return new Set(targets.split(',').map((t) => t.trim()));
}

/** ISO timestamp `period` before the request. */
function since(ctx: Context, period: keyof typeof PERIOD_HOURS): string {
	return isoSeconds(ctx.now - PERIOD_HOURS[period] * 3600_000);
}

/** The ruleset {ruleset_id} of the guarded organization. @throws DomainError 404 */
function loadRuleset(ctx: Context): RulesetRow {
	const id = idParam(ctx.params.ruleset_id);
	const row = id === null ? undefined : ctx.app.stores.rulesets.get(ctx.org.org.id, id);
	if (!row) throw notFound();
	return row;
}

/** The organization owning the guarded repository, or null (a user's repository has no organization rulesets). */
function repoOrganization(ctx: Context): AccountRow | null {
	return ctx.repo.owner.type === 'Organization' ? ctx.repo.owner : null;
}

/** Organization rulesets whose repository condition admits the guarded repository. */
function repositoryRulesets(ctx: Context): { org: AccountRow; rows: RulesetRow[] } | null {
	const org = repoOrganization(ctx);
	if (!org) return null;
	const rows = ctx.app.stores.rulesets.list(org.id).filter((row) => repositoryMatches(ctx.app, org, conditionsOf(row), ctx.repo.repo));
	return { org, rows };
}

/** A page of `items` (offset and size from the pipeline). */
function page<T>(ctx: Context, items: T[]): T[] {
	return items.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
}

const orgRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: `${O}/rulesets`,
		docs: `${DOCS}#get-all-organization-repository-rulesets`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		query: targetsQuery,
		pagination: true,
		handler(ctx) {
			const org = ctx.org.org;
			const targets = targetFilter(ctx.query.targets);
			const rows = ctx.app.stores.rulesets.list(org.id).filter((row) => !targets || targets.has(row.target));
			return paged(
				page(ctx, rows).map((row) => rulesetSummary(ctx.app.urls, org, row)),
				rows.length,
			);
		},
	}),
	route({
		method: 'POST',
		path: `${O}/rulesets`,
		docs: `${DOCS}#create-an-organization-repository-ruleset`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		errorResource: 'Ruleset',
		body: createBody,
		handler(ctx) {
			const org = ctx.org.org;
			const { source_type: _ignored, ...input } = ctx.body;
			const row = createRuleset(ctx.app, org, input, isoSeconds(ctx.now), ctx.principal.actorId);
			const body = ruleset(ctx.app.urls, org, row, bypassMode(ctx.app, org, row, ctx.principal.actorId, null));
			return created(body, body._links.self.href);
		},
	}),
	route({
		method: 'GET',
		path: `${O}/rulesets/rule-suites`,
		docs: `${DOCS}#list-organization-rule-suites`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		query: suitesQuery,
		pagination: true,
		handler(ctx) {
			const q = ctx.query;
			const filter = {
				since: since(ctx, q.time_period),
				ref: q.ref,
				repositoryName: q.repository_name,
				actorName: q.actor_name,
				result: q.rule_suite_result === 'all' ? undefined : q.rule_suite_result,
			};
			const store = ctx.app.stores.rulesets;
			const orgId = ctx.org.org.id;
			let rows = store.suites(orgId, filter, ctx.page.perPage, ctx.page.offset);
			let total = store.suiteCount(orgId, filter);
			if (q.evaluate_status && q.evaluate_status !== 'all') {
				// evaluate_status (api.github.com): the evaluation_result; filtered over the whole range, then paged.
				const all = store.suites(orgId, filter, total, 0).filter((row) => row.evaluation_result === q.evaluate_status);
				total = all.length;
				rows = page(ctx, all);
			}
			return paged(rows.map(ruleSuiteSummary), total);
		},
	}),
	route({
		method: 'GET',
		path: `${O}/rulesets/rule-suites/{rule_suite_id}`,
		docs: `${DOCS}#get-an-organization-rule-suite`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			const id = idParam(ctx.params.rule_suite_id);
			const row = id === null ? undefined : ctx.app.stores.rulesets.suite(ctx.org.org.id, id);
			if (!row) throw notFound();
			return ok(ruleSuite(row, (rulesetId) => ctx.app.stores.rulesets.exists(rulesetId)));
		},
	}),
	route({
		method: 'GET',
		path: `${O}/rulesets/{ruleset_id}`,
		docs: `${DOCS}#get-an-organization-repository-ruleset`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			const org = ctx.org.org;
			const row = loadRuleset(ctx);
			return ok(ruleset(ctx.app.urls, org, row, bypassMode(ctx.app, org, row, ctx.principal.actorId, null)));
		},
	}),
	route({
		method: 'PUT',
		path: `${O}/rulesets/{ruleset_id}`,
		docs: `${DOCS}#update-an-organization-repository-ruleset`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		errorResource: 'Ruleset',
		body: updateBody,
		handler(ctx) {
			const org = ctx.org.org;
			const row = updateRuleset(ctx.app, org, loadRuleset(ctx), ctx.body, isoSeconds(ctx.now), ctx.principal.actorId);
			return ok(ruleset(ctx.app.urls, org, row, bypassMode(ctx.app, org, row, ctx.principal.actorId, null)));
		},
	}),
	route({
		method: 'DELETE',
		path: `${O}/rulesets/{ruleset_id}`,
		docs: `${DOCS}#delete-an-organization-repository-ruleset`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			deleteRuleset(ctx.app, ctx.org.org, loadRuleset(ctx), ctx.principal.actorId);
			return noContent();
		},
	}),
	route({
		method: 'GET',
		path: `${O}/rulesets/{ruleset_id}/history`,
		docs: `${DOCS}#get-organization-ruleset-history`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		pagination: true,
		handler(ctx) {
			const row = loadRuleset(ctx);
			const store = ctx.app.stores.rulesets;
			return paged(store.versions(row.id, ctx.page.perPage, ctx.page.offset).map(rulesetVersion), store.versionCount(row.id));
		},
	}),
	route({
		method: 'GET',
		path: `${O}/rulesets/{ruleset_id}/history/{version_id}`,
		docs: `${DOCS}#get-organization-ruleset-version`,
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		handler(ctx) {
			const row = loadRuleset(ctx);
			const id = idParam(ctx.params.version_id);
			const version = id === null ? undefined : ctx.app.stores.rulesets.version(row.id, id);
			if (!version) throw notFound();
			return ok(rulesetVersionWithState(version));
		},
	}),
	route({
		method: 'GET',
		path: `${O}/bypass-requests/push-rules`,
		docs: 'orgs/bypass-requests#list-push-rule-bypass-requests-within-an-organization',
		permissions: 'matrix',
		access: 'authenticated',
		resource: ADMIN,
		query: bypassQuery,
		pagination: true,
		handler(ctx) {
			const org = ctx.org.org;
			const q = ctx.query;
			const filter = {
				since: since(ctx, q.time_period),
				repositoryName: q.repository_name,
				requester: q.requester,
				reviewer: q.reviewer,
				status: q.request_status === 'all' ? undefined : q.request_status,
			};
			const store = ctx.app.stores.rulesets;
			const rows = store.bypassRequests(org.id, filter, ctx.page.perPage, ctx.page.offset);
			const body = rows.map((row) => {
				const repo = ctx.app.stores.repos.byId(row.repo_id);
				return bypassRequest(
					ctx.app.urls,
					row,
					org,
					repo && { id: repo.id, name: repo.name, owner: org.login },
					ctx.app.stores.accounts.byId(row.requester_id),
				);
			});
			return paged(body, store.bypassRequestCount(org.id, filter));
		},
	}),
];

const REPO = '/repos/{owner}/{repo}';
const REPO_READ = { permissions: [{ metadata: 'read' as const }], access: 'public' as const, resource: { repo: 'read' as const } };
/** Repository rulesets are managed by the repository's administrators (administration write). */
const REPO_ADMIN = {
	permissions: [{ administration: 'write' as const }],
	access: 'authenticated' as const,
	resource: { repo: 'admin' as const },
	errorResource: 'Ruleset',
};

/** The guarded repository's rulesets: its organization's whose repository condition admits it (with `parents`), then its own. */
function rulesetsOfRepository(ctx: Context, parents: boolean): RulesetRow[] {
	const inherited = parents ? (repositoryRulesets(ctx)?.rows ?? []) : [];
	return [...inherited, ...ctx.app.stores.rulesets.listInRepo(ctx.repo.repo.id)];
}

/** The guarded repository's own ruleset {ruleset_id}. @throws DomainError 404 */
function loadRepositoryRuleset(ctx: Context): RulesetRow {
	const id = idParam(ctx.params.ruleset_id);
	const row = id === null ? undefined : ctx.app.stores.rulesets.getInRepo(ctx.repo.repo.id, id);
	if (!row) throw notFound();
	return row;
}

const repositoryRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: `${REPO}/rulesets`,
		docs: 'repos/rules#get-all-repository-rulesets',
		...REPO_READ,
		query: repoListQuery,
		pagination: true,
		handler(ctx) {
			const targets = targetFilter(ctx.query.targets);
			const rows = rulesetsOfRepository(ctx, ctx.query.includes_parents === 'true').filter(
				(row) => !targets || targets.has(row.target),
			);
			return paged(
				page(ctx, rows).map((row) => rulesetSummary(ctx.app.urls, ctx.repo.owner, row)),
				rows.length,
			);
		},
	}),
	route({
		method: 'POST',
		path: `${REPO}/rulesets`,
		docs: 'repos/rules#create-a-repository-ruleset',
		...REPO_ADMIN,
		body: repositoryCreateBody,
		handler(ctx) {
			const { owner, repo } = ctx.repo;
			const { source_type: _ignored, ...input } = ctx.body;
			const row = createRuleset(ctx.app, owner, input, isoSeconds(ctx.now), ctx.principal.actorId, repo);
			const body = ruleset(ctx.app.urls, owner, row, bypassMode(ctx.app, owner, row, ctx.principal.actorId, repo));
			return created(body, body._links.self.href);
		},
	}),
	route({
		method: 'GET',
		path: `${REPO}/rulesets/{ruleset_id}`,
		docs: 'repos/rules#get-a-repository-ruleset',
		...REPO_READ,
		query: repoOneQuery,
		handler(ctx) {
			const id = idParam(ctx.params.ruleset_id);
			const row = rulesetsOfRepository(ctx, ctx.query.includes_parents === 'true').find((r) => r.id === id);
			if (!row) throw notFound();
			const { owner, repo } = ctx.repo;
			return ok(ruleset(ctx.app.urls, owner, row, bypassMode(ctx.app, owner, row, ctx.principal.actorId, repo)));
		},
	}),
	route({
		method: 'PUT',
		path: `${REPO}/rulesets/{ruleset_id}`,
		docs: 'repos/rules#update-a-repository-ruleset',
		...REPO_ADMIN,
		body: repositoryUpdateBody,
		handler(ctx) {
			const { owner, repo } = ctx.repo;
			const row = updateRuleset(ctx.app, owner, loadRepositoryRuleset(ctx), ctx.body, isoSeconds(ctx.now), ctx.principal.actorId);
			return ok(ruleset(ctx.app.urls, owner, row, bypassMode(ctx.app, owner, row, ctx.principal.actorId, repo)));
		},
	}),
	route({
		method: 'DELETE',
		path: `${REPO}/rulesets/{ruleset_id}`,
		docs: 'repos/rules#delete-a-repository-ruleset',
		...REPO_ADMIN,
		handler(ctx) {
			deleteRuleset(ctx.app, ctx.repo.owner, loadRepositoryRuleset(ctx), ctx.principal.actorId);
			return noContent();
		},
	}),
	route({
		method: 'GET',
		path: `${REPO}/rules/branches/{branch}`,
		docs: 'repos/rules#get-rules-for-a-branch',
		...REPO_READ,
		pagination: true,
		handler(ctx) {
			const owner = ctx.repo.owner;
			const rules = branchRulesets(ctx.app, owner, ctx.repo.repo, ctx.params.branch).flatMap((row) => {
				const { source_type, source } = rulesetSource(owner, row);
				return (JSON.parse(row.rules) as Rule[]).map((rule) => ({
					...rule,
					ruleset_source_type: source_type,
					ruleset_source: source,
					ruleset_id: row.id,
				}));
			});
			return paged(page(ctx, rules), rules.length);
		},
	}),
];

/** Every rulesets route: the organization's (matrix rows) and the repository-level reads. */
export const rulesetRoutes: RouteDeclaration[] = [...orgRoutes, ...repositoryRoutes];
