/**
 * Check suites and check runs (GitHub's "Check runs" and "Check suites" REST APIs). GitHub Actions'
 * check suites are the repository's workflow runs and its check runs their jobs; other GitHub Apps
 * create and update their own check runs (POST/PATCH …/check-runs, installation tokens only, as on
 * GitHub), each in the app's suite for the commit. Every list shows both.
 *
 * Permissions: reads take Checks (read), public for public repositories (a private repository the
 * caller cannot read answers 404); writes take Checks (write).
 */
import * as v from 'valibot';
import { forbidden, invalidField, notFound, unprocessable } from '../../model/errors';
import { created, ok } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { FULL_SHA } from '../git/objects';
import { resolveCommit } from '../git/service';
import { repository, repositoryPaths } from '../../model/render';
import { isoSeconds } from '../../time';
import { withHeadCommit } from './commit';
import { recordCheckRun } from './events';
import { ACTIONS_APP_ID, appObject, checkRun, checkSuite, type AppObject } from './render';
import type { CheckConclusion, CheckRunFilter, CheckRunRow, CheckStatus, NewCheckRun } from './store';
import { CHECKS_READ } from './access';

const READ = CHECKS_READ;
/** Only GitHub Apps write check runs (GitHub: "OAuth apps and personal access tokens (classic) cannot use this endpoint"). */
const WRITE = { permissions: [{ checks: 'write' as const }], access: 'authenticated' as const, tokens: ['installation' as const] };

const STATUSES = ['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending'] as const satisfies readonly CheckStatus[];
const CONCLUSIONS = [
	'action_required',
	'cancelled',
	'failure',
	'neutral',
	'success',
	'skipped',
	'stale',
	'timed_out',
] as const satisfies readonly CheckConclusion[];
const isoDate = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp (YYYY-MM-DDTHH:MM:SSZ)'));
const output = v.object({
	title: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1024, 'title is too long')))),
	summary: v.pipe(v.string(), v.maxLength(65535, 'summary is too long (maximum is 65535 characters)')),
	text: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(65535, 'text is too long (maximum is 65535 characters)')))),
});
const runFields = {
	details_url: v.optional(v.nullable(v.string())),
	external_id: v.optional(v.nullable(v.string())),
	status: v.optional(v.picklist(STATUSES, `status must be one of ${STATUSES.join(', ')}`)),
	started_at: v.optional(v.nullable(isoDate)),
	conclusion: v.optional(v.nullable(v.picklist(CONCLUSIONS, `conclusion must be one of ${CONCLUSIONS.join(', ')}`))),
	completed_at: v.optional(v.nullable(isoDate)),
	output: v.optional(output),
	// Accepted as GitHub does; Gitstead shows no action buttons.
	actions: v.optional(v.array(v.unknown())),
};
const checkRunName = v.pipe(v.string(), v.minLength(1, "name can't be blank"), v.maxLength(255, 'name is too long'));
const createBody = v.object({ name: checkRunName, head_sha: v.string(), ...runFields });
const updateBody = v.object({ name: v.optional(checkRunName), ...runFields });

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
 * @throws DomainError 404 "No commit found for SHA: <ref>"
 */
function commitOf(ctx: Context): string {
	const ref = ctx.params.ref;
	const lower = ref.toLowerCase();
	const sha = FULL_SHA.test(lower) ? lower : resolveCommit(ctx.app, ctx.repo.repo, ref);
	if (!sha) throw notFound(`No commit found for SHA: ${ref}`);
	return sha;
}

function filterOf(query: { check_name?: string; status?: string; filter?: string; app_id?: string }): CheckRunFilter {
	return {
		name: query.check_name ?? null,
		status: (query.status as CheckRunFilter['status']) ?? null,
		all: query.filter === 'all',
		appId: query.app_id === undefined ? null : Number(query.app_id),
		actionsAppId: ACTIONS_APP_ID,
	};
}

/** App objects by app id (null: GitHub Actions), each built once per answer. */
function apps(ctx: Context): (appId: number | null) => AppObject | null {
	const seen = new Map<number | null, AppObject | null>();
	return (appId) => {
		if (!seen.has(appId)) seen.set(appId, appObject(ctx.app, appId));
		return seen.get(appId)!;
	};
}

function runsBody(ctx: Context, rows: CheckRunRow[], total: number) {
	const base = paths(ctx);
	const app = apps(ctx);
	const { id, name } = ctx.repo.repo;
	return {
		status: 200,
		total,
		body: { total_count: total, check_runs: rows.map((row) => checkRun(base, id, name, app(row.app_id), row)) },
	};
}

/** The GitHub App acting (through its installation token). @throws DomainError 403 when no app acts */
function actingApp(ctx: Context): number {
	const installation = ctx.principal.installationId === null ? undefined : ctx.app.stores.apps.installation(ctx.principal.installationId);
	const appId = ctx.principal.appId ?? installation?.app_id ?? null;
	if (appId === null) throw forbidden('Only GitHub Apps can create or update check runs.');
	return appId;
}

/** Body fields as stored; completing needs a conclusion, a conclusion (or completed_at) completes. @throws DomainError 422 */
function runValues(body: v.InferOutput<typeof updateBody>, current: CheckRunRow | null, now: string): Omit<NewCheckRun, 'head_sha'> {
	const conclusion = (body.conclusion === undefined ? (current?.conclusion ?? null) : body.conclusion) as CheckConclusion | null;
	let status: CheckStatus = body.status ?? (current?.status as CheckStatus | undefined) ?? 'queued';
	// GitHub: "Providing conclusion will automatically set the status parameter to completed."
	if (body.conclusion) status = 'completed';
	if (status === 'completed' && !conclusion)
		throw invalidField('CheckRun', 'conclusion', 'conclusion is required when status is completed', 'missing_field');
	const completed = status === 'completed';
	const out = body.output;
	return {
		name: body.name ?? current?.name ?? '',
		external_id: body.external_id === undefined ? (current?.external_id ?? null) : body.external_id,
		details_url: body.details_url === undefined ? (current?.details_url ?? null) : body.details_url,
		status,
		conclusion: completed ? conclusion : null,
		started_at: body.started_at === undefined ? (current?.started_at ?? now) : body.started_at,
		completed_at: completed ? (body.completed_at ?? current?.completed_at ?? now) : null,
		output_title: out ? (out.title ?? null) : (current?.output_title ?? null),
		output_summary: out ? out.summary : (current?.output_summary ?? null),
		output_text: out ? (out.text ?? null) : (current?.output_text ?? null),
	};
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
			const { rows, total } = ctx.app.stores.checks.forCommit(
				ctx.repo.repo.id,
				sha,
				filterOf(ctx.query),
				ctx.page.perPage,
				ctx.page.offset,
			);
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
			const filter = {
				name: ctx.query.check_name ?? null,
				appId: ctx.query.app_id === undefined ? null : Number(ctx.query.app_id),
				actionsAppId: ACTIONS_APP_ID,
			};
			const { rows, total } = ctx.app.stores.checks.suites(ctx.repo.repo.id, sha, filter, ctx.page.perPage, ctx.page.offset);
			const base = paths(ctx);
			const app = apps(ctx);
			const record = repository(ctx.app.urls, ctx.repo.repo, ctx.repo.owner, null);
			const { id, name } = ctx.repo.repo;
			return {
				status: 200,
				total,
				body: {
					total_count: total,
					check_suites: rows.map((row) => checkSuite(base, id, name, app(row.app_id), record, withHeadCommit(ctx.app, id, row))),
				},
			};
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
			return ok(checkRun(paths(ctx), ctx.repo.repo.id, ctx.repo.repo.name, appObject(ctx.app, row.app_id), row));
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
			return ok(
				checkSuite(
					paths(ctx),
					ctx.repo.repo.id,
					ctx.repo.repo.name,
					appObject(ctx.app, row.app_id),
					record,
					withHeadCommit(ctx.app, ctx.repo.repo.id, row),
				),
			);
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
			const { rows, total } = ctx.app.stores.checks.forSuite(suite, filterOf(ctx.query), ctx.page.perPage, ctx.page.offset);
			return runsBody(ctx, rows, total);
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/check-runs',
		resource: { repo: 'read' },
		docs: 'checks/runs#create-a-check-run',
		errorResource: 'CheckRun',
		body: createBody,
		handler(ctx) {
			const appId = actingApp(ctx);
			const now = isoSeconds(ctx.now);
			const text = ctx.body.head_sha.toLowerCase();
			const sha = FULL_SHA.test(text) ? resolveCommit(ctx.app, ctx.repo.repo, text) : null;
			if (!sha) throw unprocessable(`No commit found for SHA: ${ctx.body.head_sha}`);
			const values = runValues(ctx.body, null, now);
			const branch = ctx.app.stores.git.matchingRefs(ctx.repo.repo.id, 'refs/heads/', 1000, 0).rows.find((ref) => ref.sha === sha);
			const row = ctx.app.stores.checks.insertRun(
				ctx.repo.repo.id,
				appId,
				branch ? branch.name.slice('refs/heads/'.length) : null,
				{ ...values, head_sha: sha },
				now,
			);
			recordCheckRun(ctx.app, ctx.repo.repo, 'created', row, ctx.principal.actorId);
			if (row.status === 'completed') recordCheckRun(ctx.app, ctx.repo.repo, 'completed', row, ctx.principal.actorId);
			const body = checkRun(paths(ctx), ctx.repo.repo.id, ctx.repo.repo.name, appObject(ctx.app, appId), row);
			return created(body, body.url);
		},
	}),
	route({
		...WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/check-runs/{check_run_id}',
		resource: { repo: 'read' },
		docs: 'checks/runs#update-a-check-run',
		errorResource: 'CheckRun',
		body: updateBody,
		handler(ctx) {
			const id = idParam(ctx.params.check_run_id);
			const current = id === null ? undefined : ctx.app.stores.checks.checkRun(ctx.repo.repo.id, id);
			if (!current) throw notFound();
			// A check run is changed only by the app that made it (GitHub Actions' are workflow jobs).
			if (current.app_id !== actingApp(ctx)) throw forbidden('Only the GitHub App that created a check run can update it.');
			const now = isoSeconds(ctx.now);
			const row = ctx.app.stores.checks.updateRun(ctx.repo.repo.id, current.id, runValues(ctx.body, current, now), now);
			if (row.status === 'completed' && current.status !== 'completed')
				recordCheckRun(ctx.app, ctx.repo.repo, 'completed', row, ctx.principal.actorId);
			return ok(checkRun(paths(ctx), ctx.repo.repo.id, ctx.repo.repo.name, appObject(ctx.app, row.app_id), row));
		},
	}),
];
