/**
 * Workflows, workflow runs and jobs (GitHub's actions/* operations):
 * list and get workflows (by id or file name), disable and enable one, dispatch a workflow, list
 * runs (of a repository or of one workflow) with every search filter, get a run, list and get
 * jobs, re-run a job (and the jobs that need it) or a whole run, cancel a run; a run's artifacts
 * (none: Gitstead stores no artifacts).
 *
 * Reads need Actions (read); public repositories are readable anonymously. Writes need Actions
 * (write) (classic and OAuth tokens: repo) and push access to the repository. Dispatches and
 * re-runs are refused (422) where the organization's Actions policy disables Actions
 * (src/api/org-actions).
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { noContent, ok, redirect, type Reply } from '../../http/reply';
import { idParam, route, type Context, type RouteDeclaration } from '../../http/route';
import { isoSeconds } from '../../time';
import type { RepoAccess } from '../../auth/access/types';
import { job, repoUrls, RunRenderer, workflow } from './render';
import {
	cancelRun,
	dispatchWorkflow,
	listRuns,
	MAX_INPUTS,
	rerunJob,
	rerunRun,
	resolveWorkflow,
	STATUS_FILTERS,
	type RunQuery,
} from './service';
import type { RunRow, WorkflowRow } from './store';
import { requireActionsEnabled } from '../org-actions/service';
import { jobLogUrl, runLogsUrl } from './logs';

const REPO = '/repos/{owner}/{repo}/actions';

const READ: Pick<RouteDeclaration, 'permissions' | 'access'> = { permissions: [{ actions: 'read' }], access: 'public' };
const WRITE: Pick<RouteDeclaration, 'permissions' | 'access'> = { permissions: [{ actions: 'write' }], access: 'authenticated' };

const flag = v.optional(v.picklist(['true', 'false', ''], 'must be true or false'));

const runsQuery = v.object({
	actor: v.optional(v.string()),
	branch: v.optional(v.string()),
	event: v.optional(v.string()),
	status: v.optional(v.picklist([...STATUS_FILTERS, ''], `must be one of ${STATUS_FILTERS.join(', ')}`)),
	created: v.optional(v.string()),
	exclude_pull_requests: flag,
	check_suite_id: v.optional(v.pipe(v.string(), v.regex(/^(\d{1,15})?$/, 'must be an integer'))),
	head_sha: v.optional(v.string()),
});

const inputValue = v.union([v.string(), v.number(), v.boolean()], 'input values are strings, numbers or booleans');
const dispatchBody = v.object({
	ref: v.pipe(v.string(), v.minLength(1, 'ref is required')),
	inputs: v.optional(
		v.nullable(
			v.pipe(
				v.unknown(),
				v.check((inputs) => typeof inputs === 'object' && !Array.isArray(inputs), 'inputs is an object of input names and values'),
				v.record(v.string(), inputValue),
				v.check((inputs) => Object.keys(inputs).length <= MAX_INPUTS, `at most ${MAX_INPUTS} inputs`),
			),
		),
	),
	return_run_details: v.optional(v.boolean()),
});

const debug = v.optional(v.boolean());

/** A positive integer path parameter, or null. */

function loadRun(ctx: Context, access: RepoAccess): RunRow {
	const id = idParam(ctx.params.run_id);
	const run = id === null ? undefined : ctx.app.stores.actions.run(access.repo.id, id);
	if (!run) throw notFound();
	return run;
}

function renderer(ctx: Context, access: RepoAccess): RunRenderer {
	return new RunRenderer(ctx.app.urls, ctx.app.stores.accounts, access.repo, access.owner);
}

/** A page of runs as `{total_count, workflow_runs}` (serialized by the renderer). */
function runsReply(ctx: Context<v.InferOutput<typeof runsQuery>>, access: RepoAccess, scope: WorkflowRow | null): Reply {
	const { rows, total } = listRuns(ctx.app, access.repo, scope, ctx.query as RunQuery, ctx.page);
	return { status: 200, json: renderer(ctx, access).listJson(rows, total, ctx.query.exclude_pull_requests === 'true'), total };
}

export const actionsRoutes: RouteDeclaration[] = [
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/workflows`,
		resource: { repo: 'read' },
		docs: 'actions/workflows#list-repository-workflows',
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			const { rows, total } = ctx.app.stores.actions.workflows(access.repo.id, ctx.page.perPage, ctx.page.offset);
			const base = repoUrls(ctx.app.urls, access.owner, access.repo);
			return {
				status: 200,
				body: { total_count: total, workflows: rows.map((row) => workflow(base, access.repo.default_branch, row)) },
				total,
			};
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/workflows/{workflow_id}`,
		resource: { repo: 'read' },
		docs: 'actions/workflows#get-a-workflow',
		handler(ctx) {
			const access = ctx.repo;
			const found = resolveWorkflow(ctx.app, access.repo, ctx.params.workflow_id);
			return ok(workflow(repoUrls(ctx.app.urls, access.owner, access.repo), access.repo.default_branch, found));
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: `${REPO}/workflows/{workflow_id}/dispatches`,
		resource: { repo: 'push' },
		docs: 'actions/workflows#create-a-workflow-dispatch-event',
		errorResource: 'Workflow',
		body: dispatchBody,
		handler(ctx) {
			const access = ctx.repo;
			// The organization's Actions policy may leave this repository without Actions.
			requireActionsEnabled(ctx.app, access.repo, access.owner);
			const now = isoSeconds(ctx.now);
			// A file name not yet known registers the workflow (Gitstead reads no workflow files).
			const target = resolveWorkflow(ctx.app, access.repo, ctx.params.workflow_id, { now });
			const run = dispatchWorkflow(ctx.app, access.repo, target, ctx.body, ctx.principal.actorId, now);
			if (!ctx.body.return_run_details) return noContent();
			const base = repoUrls(ctx.app.urls, access.owner, access.repo);
			return ok({
				workflow_run_id: run.id,
				run_url: `${base.api}/actions/runs/${run.id}`,
				html_url: `${base.html}/actions/runs/${run.id}`,
			});
		},
	}),
	route({
		...WRITE,
		method: 'PUT',
		path: `${REPO}/workflows/{workflow_id}/disable`,
		resource: { repo: 'push' },
		docs: 'actions/workflows#disable-a-workflow',
		errorResource: 'Workflow',
		handler(ctx) {
			// Disabled by hand: dispatches are refused (422) until it is enabled again.
			const found = resolveWorkflow(ctx.app, ctx.repo.repo, ctx.params.workflow_id);
			if (found.state !== 'disabled_manually')
				ctx.app.stores.actions.setWorkflowState(found.id, 'disabled_manually', isoSeconds(ctx.now));
			return noContent();
		},
	}),
	route({
		...WRITE,
		method: 'PUT',
		path: `${REPO}/workflows/{workflow_id}/enable`,
		resource: { repo: 'push' },
		docs: 'actions/workflows#enable-a-workflow',
		errorResource: 'Workflow',
		handler(ctx) {
			// Active again, whatever disabled it.
			const found = resolveWorkflow(ctx.app, ctx.repo.repo, ctx.params.workflow_id);
			if (found.state !== 'active') ctx.app.stores.actions.setWorkflowState(found.id, 'active', isoSeconds(ctx.now));
			return noContent();
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/runs`,
		resource: { repo: 'read' },
		docs: 'actions/workflow-runs#list-workflow-runs-for-a-repository',
		errorResource: 'WorkflowRun',
		query: runsQuery,
		pagination: true,
		handler(ctx) {
			return runsReply(ctx, ctx.repo, null);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/workflows/{workflow_id}/runs`,
		resource: { repo: 'read' },
		docs: 'actions/workflow-runs#list-workflow-runs-for-a-workflow',
		errorResource: 'WorkflowRun',
		query: runsQuery,
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			return runsReply(ctx, access, resolveWorkflow(ctx.app, access.repo, ctx.params.workflow_id));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/runs/{run_id}`,
		resource: { repo: 'read' },
		docs: 'actions/workflow-runs#get-a-workflow-run',
		errorResource: 'WorkflowRun',
		query: v.object({ exclude_pull_requests: flag }),
		handler(ctx) {
			const access = ctx.repo;
			return ok(renderer(ctx, access).run(loadRun(ctx, access), ctx.query.exclude_pull_requests === 'true'));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/runs/{run_id}/jobs`,
		resource: { repo: 'read' },
		docs: 'actions/workflow-jobs#list-jobs-for-a-workflow-run',
		errorResource: 'WorkflowJob',
		query: v.object({ filter: v.optional(v.picklist(['latest', 'all', ''], 'must be latest or all')) }),
		pagination: true,
		handler(ctx) {
			const access = ctx.repo;
			const run = loadRun(ctx, access);
			const attempt = ctx.query.filter === 'all' ? null : run.run_attempt;
			const { rows, total } = ctx.app.stores.actions.jobs(run.id, attempt, ctx.page.perPage, ctx.page.offset);
			const base = repoUrls(ctx.app.urls, access.owner, access.repo);
			return { status: 200, body: { total_count: total, jobs: rows.map((row) => job(base, row)) }, total };
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/runs/{run_id}/artifacts`,
		resource: { repo: 'read' },
		docs: 'actions/artifacts#list-workflow-run-artifacts',
		errorResource: 'Artifact',
		query: v.object({ name: v.optional(v.string()) }),
		pagination: true,
		handler(ctx) {
			// Gitstead stores no workflow artifacts (runs are imported, not executed here): a run's
			// list is empty, as GitHub answers for a run that uploaded none.
			loadRun(ctx, ctx.repo);
			return { status: 200, body: { total_count: 0, artifacts: [] }, total: 0 };
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/jobs/{job_id}`,
		resource: { repo: 'read' },
		docs: 'actions/workflow-jobs#get-a-job-for-a-workflow-run',
		handler(ctx) {
			const access = ctx.repo;
			const id = idParam(ctx.params.job_id);
			const found = id === null ? undefined : ctx.app.stores.actions.job(access.repo.id, id);
			if (!found) throw notFound();
			return ok(job(repoUrls(ctx.app.urls, access.owner, access.repo), found));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/jobs/{job_id}/logs`,
		resource: { repo: 'read' },
		docs: 'actions/workflow-jobs#download-job-logs-for-a-workflow-run',
		handler(ctx) {
			const access = ctx.repo;
			const id = idParam(ctx.params.job_id);
			const found = id === null ? undefined : ctx.app.stores.actions.job(access.repo.id, id);
			const url = found && jobLogUrl(ctx.app, access.owner.login, access.repo, found, ctx.now);
			if (!url) throw notFound();
			// GitHub answers with a short-lived download URL: the log as text/plain.
			return redirect(url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${REPO}/runs/{run_id}/logs`,
		resource: { repo: 'read' },
		docs: 'actions/workflow-runs#download-workflow-run-logs',
		handler(ctx) {
			const access = ctx.repo;
			const run = loadRun(ctx, access);
			const url = runLogsUrl(ctx.app, access.owner.login, access.repo, run.id, run.run_attempt, ctx.now);
			if (!url) throw notFound();
			// GitHub answers with a short-lived download URL: a zip of the jobs' and steps' logs.
			return redirect(url);
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: `${REPO}/jobs/{job_id}/rerun`,
		resource: { repo: 'push' },
		docs: 'actions/workflow-runs#re-run-a-job-from-a-workflow-run',
		errorResource: 'WorkflowJob',
		body: v.object({ enable_debug_logging: debug, enable_debugger: debug }),
		handler(ctx) {
			const access = ctx.repo;
			const id = idParam(ctx.params.job_id);
			const found = id === null ? undefined : ctx.app.stores.actions.job(access.repo.id, id);
			const run = found && ctx.app.stores.actions.run(access.repo.id, found.run_id);
			if (!found || !run) throw notFound();
			requireActionsEnabled(ctx.app, access.repo, access.owner);
			rerunJob(ctx.app, access.repo, run, found, ctx.principal.actorId, isoSeconds(ctx.now));
			return { status: 201, body: {} };
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: `${REPO}/runs/{run_id}/rerun`,
		resource: { repo: 'push' },
		docs: 'actions/workflow-runs#re-run-a-workflow',
		errorResource: 'WorkflowRun',
		body: v.object({ enable_debug_logging: debug }),
		handler(ctx) {
			const access = ctx.repo;
			const run = loadRun(ctx, access);
			requireActionsEnabled(ctx.app, access.repo, access.owner);
			rerunRun(ctx.app, access.repo, run, ctx.principal.actorId, isoSeconds(ctx.now));
			return { status: 201, body: {} };
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: `${REPO}/runs/{run_id}/cancel`,
		resource: { repo: 'push' },
		docs: 'actions/workflow-runs#cancel-a-workflow-run',
		handler(ctx) {
			const access = ctx.repo;
			cancelRun(ctx.app, access.repo, loadRun(ctx, access), ctx.principal.actorId, isoSeconds(ctx.now));
			return { status: 202, body: {} };
		},
	}),
];
