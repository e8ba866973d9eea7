/**
 * Domain events of GitHub Actions (GitHub's `workflow_dispatch`, `workflow_run` and `workflow_job`
 * webhooks), recorded through the event log inside the transaction of the change by
 * src/api/actions/service.ts and import.ts. Activity feeds show none of them.
 *
 * Which change records what:
 * - a run created (dispatch, or an imported run that has not completed) and a re-run's new attempt:
 *   workflow_run requested; each job queued then: workflow_job queued;
 * - a job's status changing (advance-job, cancel): workflow_job queued / in_progress / completed /
 *   waiting (GitHub has no job action for requested or pending);
 * - the run's status changing with it: workflow_run in_progress / completed (GitHub has no run
 *   action for queued, waiting or pending);
 * - a dispatch: workflow_dispatch (no action), before the run it creates.
 *
 * Payloads (GitHub's webhook docs; @octokit/openapi-webhooks, GHES 3.19):
 * - workflow_run: { workflow_run (GitHub's WorkflowRun, as the REST API renders it: actor and
 *   triggering_actor included), workflow (webhooks_workflow), repository, organization?,
 *   enterprise?, sender };
 * - workflow_job: { workflow_job (GitHub's job record), repository, organization?, enterprise?,
 *   sender } (no `deployment`: Gitstead's jobs name no environment);
 * - workflow_dispatch: { inputs, ref (refs/heads/… or refs/tags/…), workflow (its path),
 *   repository, organization?, enterprise?, sender }.
 *
 * Actor (the events row, and the payload's sender): whoever made the change through the API
 * (dispatch, re-run, cancel); for a runner's changes (advance-job) and imports, the run's
 * triggering actor, as GitHub sends the runner's events with the user who triggered the run.
 * A finished run (workflow_run completed) notifies the user who triggered it (ci_activity).
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import type { RepositoryRow } from '../../model/rows';
import { job as renderJob, repoUrls, RunRenderer, workflow as renderWorkflow } from './render';
import type { JobRow, RunRow, RunStatus } from './store';
import type { NotificationActivity } from '../../model/notifications';

/** The workflow_job action of a job status (null: GitHub reports none). */
const JOB_ACTIONS: Partial<Record<RunStatus, 'queued' | 'in_progress' | 'completed' | 'waiting'>> = {
	queued: 'queued',
	in_progress: 'in_progress',
	completed: 'completed',
	waiting: 'waiting',
};

/** The workflow_run action of a run status reached by a change (null: GitHub reports none). */
const RUN_ACTIONS: Partial<Record<RunStatus, 'in_progress' | 'completed'>> = {
	in_progress: 'in_progress',
	completed: 'completed',
};

/** The `workflow` of a workflow_run payload (webhooks_workflow), or null when it is gone. */
function workflowObject(app: App, repo: RepositoryRow, workflowId: number) {
	const row = app.stores.actions.workflowById(repo.id, workflowId);
	if (!row) return null;
	const owner = app.stores.accounts.byId(repo.owner_id)!;
	// webhooks_workflow has no deleted_at.
	const { deleted_at: _deletedAt, ...fields } = renderWorkflow(repoUrls(app.urls, owner, repo), repo.default_branch, row);
	return fields;
}

/**
 * workflow_run requested / in_progress / completed.
 * @param run the run as the change left it (read again from the store by the caller)
 * @param actorId the sender (see the module comment)
 */
export function recordRun(
	app: App,
	repo: RepositoryRow,
	run: RunRow,
	action: 'requested' | 'in_progress' | 'completed',
	actorId: number | null,
): void {
	record(app, {
		event: 'workflow_run',
		action,
		actorId,
		repo,
		notification: action === 'completed' ? finishedRunNotification(run) : undefined,
		webhook: () => {
			const owner = app.stores.accounts.byId(repo.owner_id)!;
			return {
				workflow_run: new RunRenderer(app.urls, app.stores.accounts, repo, owner).run(run),
				workflow: workflowObject(app, repo, run.workflow_id),
				...inRepository(app, repo, actorId),
			};
		},
	});
}

/** How GitHub's notification titles say a run ended ("CI workflow run failed for main branch"). */
const ENDED: Record<string, string> = {
	success: 'succeeded',
	failure: 'failed',
	cancelled: 'cancelled',
	timed_out: 'timed out',
	skipped: 'skipped',
};

/**
 * The notification of a finished run (GitHub's ci_activity: "a workflow run you triggered
 * finished"): its check suite is the subject (subject.url null, as GitHub's CheckSuite threads
 * have), and the user who triggered it is notified, even when the change is theirs (a runner's
 * report is recorded with the triggering actor; cancelling one's own run still reports its end).
 */
function finishedRunNotification(run: RunRow): NotificationActivity | undefined {
	const userId = run.triggering_actor_id ?? run.actor_id;
	if (userId === null) return undefined;
	const ended = ENDED[run.conclusion ?? ''] ?? `completed (${run.conclusion ?? 'no conclusion'})`;
	return {
		subject: {
			type: 'CheckSuite',
			id: run.check_suite_id,
			title: `${run.name} workflow run ${ended}${run.head_branch ? ` for ${run.head_branch} branch` : ''}`,
			path: null,
			latestCommentPath: null,
		},
		broadcast: false,
		involved: [{ userId, reason: 'ci_activity' }],
		notifyActor: true,
	};
}

/**
 * workflow_run in_progress / completed when a change moved the run to that status (nothing for
 * any other status, or when the status stayed).
 * @param before the run's status before the change
 */
export function recordRunStatus(app: App, repo: RepositoryRow, before: RunStatus, run: RunRow, actorId: number | null): void {
	const action = RUN_ACTIONS[run.status];
	if (action && before !== run.status) recordRun(app, repo, run, action, actorId);
}

/**
 * workflow_job queued / in_progress / completed / waiting: the job's action for its (new) status;
 * nothing for requested and pending, which GitHub does not report.
 * @param job the job as the change left it
 */
export function recordJob(app: App, repo: RepositoryRow, job: JobRow, actorId: number | null): void {
	const action = JOB_ACTIONS[job.status];
	if (!action) return;
	record(app, {
		event: 'workflow_job',
		action,
		actorId,
		repo,
		webhook: () => {
			const owner = app.stores.accounts.byId(repo.owner_id)!;
			return { workflow_job: renderJob(repoUrls(app.urls, owner, repo), job), ...inRepository(app, repo, actorId) };
		},
	});
}

/**
 * workflow_dispatch (no action): a workflow was run by hand (POST …/dispatches).
 * @param ref the full ref dispatched (refs/heads/… or refs/tags/…)
 * @param path the workflow file's path (.github/workflows/ci.yml)
 * @param inputs the dispatch's inputs as given (null when none)
 */
export function recordDispatch(
	app: App,
	repo: RepositoryRow,
	ref: string,
	path: string,
	inputs: Record<string, unknown> | null,
	actorId: number | null,
): void {
	record(app, {
		event: 'workflow_dispatch',
		action: null,
		actorId,
		repo,
		webhook: () => ({ inputs, ref, workflow: path, ...inRepository(app, repo, actorId) }),
	});
}
