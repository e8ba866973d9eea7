/**
 * Check suites and check runs (GitHub's "Check runs" and "Check suites" REST APIs), read-only: the
 * check suites are the repository's workflow runs and the check runs their jobs, all owned by the
 * GitHub Actions app, as GitHub shows them. Creating and updating check runs (by other apps) is
 * not served.
 *
 * Permissions: Checks (read), public for public repositories; a private repository the caller
 * cannot read answers 404.
 */
import * as v from 'valibot';
import { notFound } from '../../http/errors';
import { ok } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { FULL_SHA } from '../git/objects';
import { resolveCommit } from '../git/service';
import { repository, repositoryPaths } from '../repos/render';
import { ACTIONS_APP_ID, actionsApp, checkRun, checkSuite } from './render';
import type { CheckRunFilter, CheckRunRow } from './store';

const READ = { permissions: [{ checks: 'read' as const }], access: 'public' as const };

const CHECK_RUN_STATUSES = ['queued', 'in_progress', 'completed'] as const;
const appId = v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'app_id must be an integer')));
const checkName = v.optional(v.string());
const runsQuery = v.object({
	check_name: checkName,
	status: v.optional(v.picklist(CHECK_RUN_STATUSES, `status must be one of ${CHECK_RUN_STATUSES.join(', ')}`)),
	filter: v.optional(v.picklist(['latest', 'all'], 'filter must be latest or all')),
	app_id: appId,
});
const suitesQuery = v.object({ check_name: checkName, app_id: appId });
const suiteRunsQuery = v.object({
	check_name: checkName,
	status: v.optional(v.picklist(CHECK_RUN_STATUSES, `status must be one of ${CHECK_RUN_STATUSES.join(', ')}`)),
	filter: v.optional(v.picklist(['latest', 'all'], 'filter must be latest or all')),
});

const paths = (ctx: Context) => repositoryPaths(ctx.app.urls, ctx.repo.owner.login, ctx.repo.repo.name);

/**
 * The commit {ref} names: a full sha as given (runs may name commits whose objects were never
 * pushed here), else a branch, tag or abbreviated sha.
 * @throws HttpError 404 "No commit found for SHA: <ref>"
 */
function commitOf(ctx: Context): string {
	const ref = ctx.params.ref;
	const lower = ref.toLowerCase();
	const sha = FULL_SHA.test(lower) ? lower : resolveCommit(ctx.app, ctx.repo.repo, ref);
	if (!sha) throw notFound(`No commit found for SHA: ${ref}`);
	return sha;
}

/** True when the query's app_id names an app other than GitHub Actions (whose checks are the only ones): an empty list. */
const otherApp = (query: { app_id?: string }) => query.app_id !== undefined && Number(query.app_id) !== ACTIONS_APP_ID;

function filterOf(query: { check_name?: string; status?: string; filter?: string }): CheckRunFilter {
	return { name: query.check_name ?? null, status: (query.status as CheckRunFilter['status']) ?? null, all: query.filter === 'all' };
}

function runsBody(ctx: Context, rows: CheckRunRow[], total: number) {
	const base = paths(ctx);
	const app = actionsApp(ctx.app.urls);
	const { id, name } = ctx.repo.repo;
	return { status: 200, total, body: { total_count: total, check_runs: rows.map((row) => checkRun(base, id, name, app, row)) } };
}

export const checkRoutes = [
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
		resource: { repo: 'read' },
		docs: 'checks/runs#list-check-runs-for-a-git-reference',
		query: runsQuery,
		pagination: true,
		handler(ctx) {
			const sha = commitOf(ctx);
			if (otherApp(ctx.query)) return runsBody(ctx, [], 0);
			const { rows, total } = ctx.app.stores.checks.forCommit(ctx.repo.repo.id, sha, filterOf(ctx.query), ctx.page.perPage, ctx.page.offset);
			return runsBody(ctx, rows, total);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/commits/{ref}/check-suites',
		resource: { repo: 'read' },
		docs: 'checks/suites#list-check-suites-for-a-git-reference',
		query: suitesQuery,
		pagination: true,
		handler(ctx) {
			const sha = commitOf(ctx);
			const { rows, total } = otherApp(ctx.query)
				? { rows: [], total: 0 }
				: ctx.app.stores.checks.suites(ctx.repo.repo.id, sha, ctx.query.check_name ?? null, ctx.page.perPage, ctx.page.offset);
			const base = paths(ctx);
			const app = actionsApp(ctx.app.urls);
			const record = repository(ctx.app.urls, ctx.repo.repo, ctx.repo.owner, null);
			const { id, name } = ctx.repo.repo;
			return { status: 200, total, body: { total_count: total, check_suites: rows.map((row) => checkSuite(base, id, name, app, record, row)) } };
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/check-runs/{check_run_id}',
		resource: { repo: 'read' },
		docs: 'checks/runs#get-a-check-run',
		handler(ctx) {
			const id = idParam(ctx.params.check_run_id);
			const row = id === null ? undefined : ctx.app.stores.checks.checkRun(ctx.repo.repo.id, id);
			if (!row) throw notFound();
			return ok(checkRun(paths(ctx), ctx.repo.repo.id, ctx.repo.repo.name, actionsApp(ctx.app.urls), row));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/check-suites/{check_suite_id}',
		resource: { repo: 'read' },
		docs: 'checks/suites#get-a-check-suite',
		handler(ctx) {
			const id = idParam(ctx.params.check_suite_id);
			const row = id === null ? undefined : ctx.app.stores.checks.suite(ctx.repo.repo.id, id);
			if (!row) throw notFound();
			const record = repository(ctx.app.urls, ctx.repo.repo, ctx.repo.owner, null);
			return ok(checkSuite(paths(ctx), ctx.repo.repo.id, ctx.repo.repo.name, actionsApp(ctx.app.urls), record, row));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs',
		resource: { repo: 'read' },
		docs: 'checks/runs#list-check-runs-in-a-check-suite',
		query: suiteRunsQuery,
		pagination: true,
		handler(ctx) {
			const id = idParam(ctx.params.check_suite_id);
			const suite = id === null ? undefined : ctx.app.stores.checks.suite(ctx.repo.repo.id, id);
			if (!suite) throw notFound();
			const { rows, total } = ctx.app.stores.checks.forSuite(suite.run_id, filterOf(ctx.query), ctx.page.perPage, ctx.page.offset);
			return runsBody(ctx, rows, total);
		},
	}),
];
