/**
 * Workflow-run rules: the statuses and
 * conclusions, the transitions a run or job may take, the `created` search syntax, how a
 * workflow_id names a workflow, dispatching a run, re-running jobs (with the jobs that need them)
 * or a whole run, cancelling, and the list with its filters and its 1,000-result cap.
 *
 * Gitstead runs no workflows: runs change state only through these functions (the API's re-run
 * and cancel, and advanceJob for tools that play a runner's part). Each change records GitHub's
 * workflow_run and workflow_job events in its transaction (./events.ts).
 */
import { storedCommitJson } from '../../model/simple-commit';
import { createHash } from 'node:crypto';
import type { App } from '../../app';
import { conflict, forbidden, invalidField, notFound, unprocessable } from '../../model/errors';
import { isoSeconds } from '../../time';
import type { RepositoryRow } from '../../model/rows';
import { parseCommit } from '../git/objects';
import { peel } from '../git/service';
import { recordDispatch, recordJob, recordRun, recordRunStatus } from './events';
import type { JobConclusion, JobDefinition, JobRow, NewJob, RunConclusion, RunFilter, RunRow, RunStatus, WorkflowRow } from './store';

export const RUN_STATUSES = [
	'requested',
	'queued',
	'in_progress',
	'waiting',
	'pending',
	'completed',
] as const satisfies readonly RunStatus[];
export const RUN_CONCLUSIONS = [
	'success',
	'failure',
	'neutral',
	'cancelled',
	'skipped',
	'timed_out',
	'action_required',
	'stale',
] as const satisfies readonly RunConclusion[];
export const JOB_CONCLUSIONS = RUN_CONCLUSIONS.filter((c) => c !== 'stale') as JobConclusion[];
/** Values of the list's `status` filter: a status or a conclusion, as GitHub accepts. */
export const STATUS_FILTERS = [
	'completed',
	'action_required',
	'cancelled',
	'failure',
	'neutral',
	'skipped',
	'stale',
	'success',
	'timed_out',
	'in_progress',
	'queued',
	'requested',
	'waiting',
	'pending',
] as const;
export const WORKFLOW_STATES = ['active', 'deleted', 'disabled_fork', 'disabled_inactivity', 'disabled_manually'] as const;

/** Where workflow files live; a bare file name (ci.yml) means this folder. */
export const WORKFLOW_DIR = '.github/workflows/';
/** Filtered run lists return at most this many results. */
export const SEARCH_CAP = 1000;
/** A run can be re-run at most 50 times (GitHub's limit): run_attempt stops at 51. */
export const MAX_ATTEMPT = 51;
/** Inputs a dispatch may carry (GitHub Enterprise Server's limit). */
export const MAX_INPUTS = 10;

/**
 * Allowed status changes of a run or a job: requested → queued → in_progress → completed, with
 * waiting and pending (the workflow engine's states) only before in_progress; anything not yet
 * completed may complete (cancelled, skipped). completed → queued happens only by a re-run.
 */
const NEXT: Record<RunStatus, readonly RunStatus[]> = {
	requested: ['queued', 'waiting', 'pending', 'completed'],
	queued: ['waiting', 'pending', 'in_progress', 'completed'],
	waiting: ['queued', 'pending', 'in_progress', 'completed'],
	pending: ['queued', 'waiting', 'in_progress', 'completed'],
	in_progress: ['completed'],
	completed: [],
};

/** True when a run or job may go from `from` to `to`; `rerun` allows completed → queued. */
export function canTransition(from: RunStatus, to: RunStatus, rerun = false): boolean {
	if (rerun) return from === 'completed' && to === 'queued';
	return NEXT[from].includes(to);
}

/** The names of the jobs and of every job that (transitively) needs one of them. */
export function withDependents(jobs: readonly JobDefinition[], names: Iterable<string>): Set<string> {
	const chosen = new Set(names);
	for (let grew = true; grew; ) {
		grew = false;
		for (const job of jobs) {
			if (!chosen.has(job.name) && job.needs.some((need) => chosen.has(need))) {
				chosen.add(job.name);
				grew = true;
			}
		}
	}
	return chosen;
}

/**
 * Problems of a job list: duplicate names, `needs` naming no job of the list, cycles.
 * @returns messages (empty when the list is sound)
 */
export function jobProblems(jobs: readonly JobDefinition[]): string[] {
	const problems: string[] = [];
	const names = new Set<string>();
	for (const job of jobs) {
		if (names.has(job.name)) problems.push(`job "${job.name}" is listed twice`);
		names.add(job.name);
	}
	for (const job of jobs) {
		for (const need of job.needs)
			if (!names.has(need)) problems.push(`job "${job.name}" needs "${need}", which is not a job of the workflow`);
	}
	// Cycle check: repeatedly take the jobs whose needs are all taken.
	const done = new Set<string>();
	for (let grew = true; grew; ) {
		grew = false;
		for (const job of jobs) {
			if (!done.has(job.name) && job.needs.every((need) => done.has(need) || !names.has(need))) {
				done.add(job.name);
				grew = true;
			}
		}
	}
	const cyclic = jobs.filter((job) => !done.has(job.name)).map((job) => `"${job.name}"`);
	if (cyclic.length) problems.push(`jobs ${cyclic.join(', ')} need each other in a cycle`);
	return problems;
}

// ---------------------------------------------------------------------------------------------
// `created`: GitHub's search date syntax.

interface Span {
	/** Epoch ms (whole seconds; fractions of a second are ignored), inclusive. */
	start: number;
	/** Epoch ms, exclusive: the end of the day, minute or second the value names. */
	end: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+\- ]\d{2}:?\d{2})?$/;

/** A date or date-time as the span of time it names (a day, a minute or a second), or null. */
function span(text: string): Span | null {
	const date = DATE.exec(text);
	if (date) {
		const start = calendar(+date[1], +date[2], +date[3], 0, 0, 0);
		return start === null ? null : { start, end: start + 86_400_000 };
	}
	const m = DATE_TIME.exec(text);
	if (!m) return null;
	const local = calendar(+m[1], +m[2], +m[3], +m[4], +m[5], m[6] === undefined ? 0 : +m[6]);
	if (local === null) return null;
	let offset = 0;
	const zone = m[8];
	if (zone && zone !== 'Z') {
		// A '+' of an unencoded query string arrives as a space.
		const [hours, minutes] = [+zone.slice(1, 3), +zone.slice(-2)];
		if (hours > 23 || minutes > 59) return null;
		offset = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
	}
	const start = local - offset;
	return { start, end: start + (m[6] === undefined ? 60_000 : 1000) };
}

/** Epoch ms of a UTC calendar time, or null when a field is out of range (e.g. February 30). */
function calendar(year: number, month: number, day: number, hour: number, minute: number, second: number): number | null {
	if (hour > 23 || minute > 59 || second > 59) return null;
	const ms = Date.UTC(year, month - 1, day, hour, minute, second);
	const check = new Date(ms);
	return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day ? ms : null;
}

/**
 * Parses `created` (GitHub's search syntax for dates): `2026-01-01`, `>=2026-01-01`, `>…`, `<…`,
 * `<=…`, `2026-01-01..2026-02-01` (both ends included), `2026-01-01..*`, `*..2026-02-01`, with
 * dates or date-times (`2026-01-01T10:00:00Z`, `…+02:00`; no zone is UTC).
 * @returns the range as epoch milliseconds, inclusive from and exclusive to (null: open)
 * @throws DomainError 422 naming `created` when the value is malformed.
 */
export function parseCreated(text: string): { from: number | null; to: number | null } {
	const value = text.trim();
	const bad = () =>
		invalidField(
			'WorkflowRun',
			'created',
			`"${text}" is not a date or range in search syntax, e.g. 2026-01-01, >=2026-01-01, <2026-01-01T12:00:00Z or 2026-01-01..2026-02-01`,
		);
	const range = /^(.+?)\.\.(.+)$/.exec(value);
	if (range) {
		const from = range[1] === '*' ? null : span(range[1]);
		const to = range[2] === '*' ? null : span(range[2]);
		if ((range[1] !== '*' && !from) || (range[2] !== '*' && !to)) throw bad();
		return { from: from?.start ?? null, to: to?.end ?? null };
	}
	const compare = /^(>=|<=|>|<)?(.+)$/.exec(value);
	const at = compare && span(compare[2]);
	if (!at) throw bad();
	switch (compare[1]) {
		case '>=':
			return { from: at.start, to: null };
		case '>':
			return { from: at.end, to: null };
		case '<':
			return { from: null, to: at.start };
		case '<=':
			return { from: null, to: at.end };
		default:
			return { from: at.start, to: at.end };
	}
}

// ---------------------------------------------------------------------------------------------
// Workflows

/** The path a file name or path names: `ci.yml` → `.github/workflows/ci.yml`. */
export function workflowPath(nameOrPath: string): string {
	return nameOrPath.includes('/') ? nameOrPath : WORKFLOW_DIR + nameOrPath;
}

/** The jobs of a workflow: its definition, or one job named after the workflow. */
export function workflowJobs(workflow: WorkflowRow): JobDefinition[] {
	const jobs = JSON.parse(workflow.jobs) as JobDefinition[];
	return jobs.length ? jobs : [{ name: workflow.name, needs: [] }];
}

const WORKFLOW_FILE = /^[A-Za-z0-9_.-]+\.ya?ml$/;

/**
 * The workflow a `workflow_id` path parameter names: an id, a file name (`ci.yml`) or a path.
 * @param register when the file name is unknown, register it (dispatch): a workflow named after the
 *   file, with one job; ids are never registered
 * @throws DomainError 404 when none matches (and none is registered).
 */
export function resolveWorkflow(app: App, repo: RepositoryRow, param: string, register: { now: string } | null = null): WorkflowRow {
	const { actions } = app.stores;
	if (/^\d{1,15}$/.test(param)) {
		const found = actions.workflowById(repo.id, Number(param));
		if (!found) throw notFound();
		return found;
	}
	const path = workflowPath(param);
	const found = actions.workflowByPath(repo.id, path);
	if (found) return found;
	const file = path.slice(WORKFLOW_DIR.length);
	if (!register || !path.startsWith(WORKFLOW_DIR) || !WORKFLOW_FILE.test(file)) throw notFound();
	return actions.insertWorkflow({
		repo_id: repo.id,
		name: file.replace(/\.ya?ml$/, ''),
		path,
		state: 'active',
		jobs: '[]',
		created_at: register.now,
	});
}

// ---------------------------------------------------------------------------------------------
// Runs and jobs

/** A new job row of a run attempt; queued unless `from` (a job to copy) says otherwise. */
function jobValues(runId: number, attempt: number, now: string, def: JobDefinition, from?: JobRow): NewJob {
	if (from) {
		const { id: _id, head_sha: _sha, head_branch: _branch, workflow_name: _name, ...copy } = from;
		return { ...copy, run_id: runId, run_attempt: attempt };
	}
	return {
		run_id: runId,
		run_attempt: attempt,
		name: def.name,
		needs: JSON.stringify(def.needs),
		status: 'queued',
		conclusion: null,
		labels: '["ubuntu-latest"]',
		steps: '[]',
		runner_id: null,
		runner_name: null,
		runner_group_id: null,
		runner_group_name: null,
		created_at: now,
		started_at: now,
		completed_at: null,
	};
}

export interface DispatchInput {
	ref: string;
	inputs?: Record<string, unknown> | null;
}

/**
 * The commit a dispatch runs on, with the head_commit record of a run (JSON) and the full name of
 * the ref; null when the repository holds no commit at all.
 * @throws DomainError 422 "No ref found for: <ref>" when the repository has commits but no such branch or tag
 */
function commitOf(app: App, repo: RepositoryRow, ref: string): { sha: string; head_commit: string; ref: string } | null {
	if (!app.stores.git.hasCommits(repo.id)) return null;
	const named = app.stores.git.ref(repo.id, `refs/heads/${ref}`) ?? app.stores.git.ref(repo.id, `refs/tags/${ref}`);
	const sha = named ? peel(app, repo.id, named.sha, 'commit') : null;
	if (!named || !sha) throw unprocessable(`No ref found for: ${ref}`);
	const data = parseCommit(app.stores.git.object(repo.id, sha)!.content);
	return { sha, head_commit: storedCommitJson(data), ref: named.name };
}

/**
 * Dispatches a workflow (event workflow_dispatch): a new run, queued, with one queued job per job
 * of the workflow. In a repository with git data the ref must name a branch or tag (422 "No ref
 * found for: …" otherwise) and the run takes its commit as head_sha and head_commit. A repository
 * without any commit (demo data imported with `gitstead admin import-runs`) has no refs to check:
 * the run takes head_sha and head_commit of the newest run on the same branch, else a placeholder
 * SHA derived from the ref (head_commit null). Records workflow_dispatch, workflow_run requested
 * and workflow_job queued for each job.
 * @param ref a branch or tag name (refs/heads/… and refs/tags/… are shortened)
 * @param actorId who dispatches (actor and triggering_actor)
 * @param now ISO timestamp
 * @throws DomainError 422 for a malformed ref or a workflow that is not active.
 */
export function dispatchWorkflow(
	app: App,
	repo: RepositoryRow,
	workflow: WorkflowRow,
	input: DispatchInput,
	actorId: number | null,
	now: string,
): RunRow {
	const ref = input.ref.replace(/^refs\/(heads|tags)\//, '');
	if (!ref || ref.length > 255 || /[\s~^:?*[\\]|\.\.|\/\/|^\/|\/$|\.lock$|^-/.test(ref)) {
		throw invalidField('Workflow', 'ref', `"${input.ref}" is not a valid branch or tag name`);
	}
	if (workflow.state !== 'active') {
		throw unprocessable(`Workflow ${workflow.path} is ${workflow.state.replace(/_/g, ' ')}; it cannot be dispatched.`);
	}
	const { actions } = app.stores;
	const commit = commitOf(app, repo, ref);
	return app.transaction(() => {
		const previous = commit ? undefined : actions.latestOnBranch(repo.id, ref);
		const id = actions.nextRunId();
		const runNumber = workflow.last_run_number + 1;
		actions.insertRun({
			id,
			repo_id: repo.id,
			workflow_id: workflow.id,
			run_number: runNumber,
			run_attempt: 1,
			check_suite_id: id,
			event: 'workflow_dispatch',
			display_title: workflow.name,
			head_branch: ref,
			head_sha: commit?.sha ?? previous?.head_sha ?? createHash('sha1').update(`gitstead:${repo.id}:${ref}`).digest('hex'),
			head_commit: commit?.head_commit ?? previous?.head_commit ?? null,
			pull_requests: '[]',
			status: 'queued',
			conclusion: null,
			actor_id: actorId,
			triggering_actor_id: actorId,
			run_started_at: now,
			created_at: now,
			updated_at: now,
		});
		for (const def of workflowJobs(workflow)) actions.insertJob(jobValues(id, 1, now, def));
		actions.recordRuns(workflow.id, runNumber, 1);
		const fullRef = commit?.ref ?? (input.ref.startsWith('refs/tags/') ? input.ref : `refs/heads/${ref}`);
		recordDispatch(app, repo, fullRef, workflow.path, input.inputs ?? null, actorId);
		const run = actions.run(repo.id, id)!;
		recordRun(app, repo, run, 'requested', actorId);
		for (const job of actions.jobs(id, 1).rows) recordJob(app, repo, job, actorId);
		return run;
	});
}

/**
 * Starts the next attempt of a completed run: the named jobs (and every job needing them, however
 * indirectly) are queued again, the others carried over as they ended; the run is queued with no
 * conclusion and run_attempt + 1. Records workflow_run requested (the new attempt) and
 * workflow_job queued for each job queued again.
 * @param names jobs to re-run; null: every job
 * @param actorId who re-runs it (the new triggering_actor)
 * @throws DomainError 403 when the run is not completed or was re-run the maximum number of times.
 */
function rerun(app: App, repo: RepositoryRow, run: RunRow, names: string[] | null, actorId: number | null, now: string): void {
	if (!canTransition(run.status, 'queued', true)) throw forbidden('This workflow run is not completed');
	if (run.run_attempt >= MAX_ATTEMPT) throw forbidden('This workflow run has been re-run the maximum number of times (50)');
	const { actions } = app.stores;
	const attempt = run.run_attempt + 1;
	app.transaction(() => {
		const current = actions.jobs(run.id, run.run_attempt).rows;
		const defs = current.map((job) => ({ name: job.name, needs: JSON.parse(job.needs) as string[] }));
		const again = names === null ? new Set(defs.map((def) => def.name)) : withDependents(defs, names);
		current.forEach((job, i) => {
			actions.insertJob(jobValues(run.id, attempt, now, defs[i], again.has(job.name) ? undefined : job));
		});
		actions.updateRun({
			id: run.id,
			status: 'queued',
			conclusion: null,
			run_attempt: attempt,
			run_started_at: now,
			triggering_actor_id: actorId,
			updated_at: now,
		});
		recordRun(app, repo, actions.run(repo.id, run.id)!, 'requested', actorId);
		for (const job of actions.jobs(run.id, attempt).rows) if (again.has(job.name)) recordJob(app, repo, job, actorId);
	});
}

/**
 * Re-runs a job and the jobs that depend on it (POST .../actions/jobs/{job_id}/rerun).
 * @throws DomainError 403 when the run is not completed, the job is not of its latest attempt, or the
 *   run was re-run the maximum number of times.
 */
export function rerunJob(app: App, repo: RepositoryRow, run: RunRow, job: JobRow, actorId: number | null, now: string): void {
	if (run.status === 'completed' && job.run_attempt !== run.run_attempt) {
		throw forbidden(
			`This job belongs to attempt ${job.run_attempt}; only jobs of the latest attempt (${run.run_attempt}) can be re-run`,
		);
	}
	rerun(app, repo, run, [job.name], actorId, now);
}

/** Re-runs every job of a completed run (POST .../actions/runs/{run_id}/rerun). @throws DomainError 403 as rerunJob */
export function rerunRun(app: App, repo: RepositoryRow, run: RunRow, actorId: number | null, now: string): void {
	rerun(app, repo, run, null, actorId, now);
}

/**
 * Cancels a run: it completes as cancelled, and so does every job of its latest attempt that has
 * not completed. Records workflow_job completed for each of those jobs, then workflow_run completed.
 * @param actorId who cancels it (the events' sender)
 * @throws DomainError 409 when the run is already completed.
 */
export function cancelRun(app: App, repo: RepositoryRow, run: RunRow, actorId: number | null, now: string): void {
	if (!canTransition(run.status, 'completed')) throw conflict('Cannot cancel a workflow run that is completed.');
	const { actions } = app.stores;
	app.transaction(() => {
		for (const job of actions.jobs(run.id, run.run_attempt).rows) {
			if (job.status === 'completed') continue;
			actions.updateJob({ id: job.id, status: 'completed', conclusion: 'cancelled', started_at: job.started_at, completed_at: now });
			recordJob(app, repo, actions.job(repo.id, job.id)!, actorId);
		}
		actions.updateRun({ ...run, status: 'completed', conclusion: 'cancelled', updated_at: now });
		recordRunStatus(app, repo, run.status, actions.run(repo.id, run.id)!, actorId);
	});
}

/** A run's status and conclusion as its jobs make them. */
export function runStateOf(jobs: readonly Pick<JobRow, 'status' | 'conclusion'>[]): {
	status: RunStatus;
	conclusion: RunConclusion | null;
} {
	if (jobs.every((job) => job.status === 'completed')) {
		const has = (c: JobConclusion) => jobs.some((job) => job.conclusion === c);
		for (const c of ['failure', 'timed_out', 'cancelled', 'action_required'] as const)
			if (has(c)) return { status: 'completed', conclusion: c };
		if (jobs.length && jobs.every((job) => job.conclusion === 'skipped')) return { status: 'completed', conclusion: 'skipped' };
		return { status: 'completed', conclusion: 'success' };
	}
	if (jobs.some((job) => job.status === 'in_progress' || job.status === 'completed')) return { status: 'in_progress', conclusion: null };
	for (const status of ['waiting', 'pending', 'requested'] as const) {
		if (jobs.some((job) => job.status === status)) return { status, conclusion: null };
	}
	return { status: 'queued', conclusion: null };
}

/**
 * Moves one job along (a runner's part, for tools and demos): checks the transition, that a job
 * starts only once every job it needs has completed, and that a conclusion comes with completion;
 * then sets the run's status and conclusion from its jobs. Records the job's workflow_job event and,
 * when the run's status changed to in_progress or completed, workflow_run; their sender is the
 * run's triggering actor (a runner acts for whoever triggered the run).
 * @param conclusion required exactly when status is completed
 * @param now ISO timestamp
 * @returns the updated run
 * @throws DomainError 404 unknown job; 422 for a transition GitHub does not make.
 */
export function advanceJob(
	app: App,
	repo: RepositoryRow,
	jobId: number,
	change: { status: RunStatus; conclusion?: JobConclusion | null },
	now: string,
): RunRow {
	const { actions } = app.stores;
	return app.transaction(() => {
		const job = actions.job(repo.id, jobId);
		const run = job && actions.run(repo.id, job.run_id);
		if (!job || !run) throw notFound();
		if (job.run_attempt !== run.run_attempt) {
			throw unprocessable(`job ${job.id} belongs to attempt ${job.run_attempt}, not the latest (${run.run_attempt})`);
		}
		const conclusion = change.conclusion ?? null;
		if (!canTransition(job.status, change.status)) throw unprocessable(`a job cannot go from ${job.status} to ${change.status}`);
		if ((change.status === 'completed') !== (conclusion !== null))
			throw unprocessable('a job has a conclusion exactly when it is completed');
		if (conclusion !== null && !JOB_CONCLUSIONS.includes(conclusion)) throw unprocessable(`"${conclusion}" is not a job conclusion`);
		const siblings = actions.jobs(run.id, run.run_attempt).rows;
		if (change.status === 'in_progress') {
			const needs = JSON.parse(job.needs) as string[];
			const waiting = siblings
				.filter((other) => needs.includes(other.name) && other.status !== 'completed')
				.map((other) => `"${other.name}"`);
			if (waiting.length) throw unprocessable(`job "${job.name}" cannot start before ${waiting.join(', ')} completed`);
		}
		const updated = {
			id: job.id,
			status: change.status,
			conclusion,
			started_at: change.status === 'in_progress' ? now : job.started_at,
			completed_at: change.status === 'completed' ? now : null,
		};
		actions.updateJob(updated);
		const state = runStateOf(siblings.map((other) => (other.id === job.id ? updated : other)));
		if (state.status !== run.status || state.conclusion !== run.conclusion) {
			if (state.status !== run.status && !canTransition(run.status, state.status)) {
				throw unprocessable(`the run cannot go from ${run.status} to ${state.status}`);
			}
			actions.updateRun({ ...run, ...state, updated_at: now });
		}
		const after = actions.run(repo.id, run.id)!;
		recordJob(app, repo, actions.job(repo.id, job.id)!, run.triggering_actor_id);
		recordRunStatus(app, repo, run.status, after, run.triggering_actor_id);
		return after;
	});
}

// ---------------------------------------------------------------------------------------------
// Listing runs

/** The list's query after schema validation (empty strings count as absent). */
export interface RunQuery {
	actor?: string;
	branch?: string;
	event?: string;
	status?: (typeof STATUS_FILTERS)[number] | '';
	created?: string;
	check_suite_id?: string;
	head_sha?: string;
}

/**
 * One page of a repository's runs (or one workflow's), newest first. When a search filter (actor,
 * branch, check_suite_id, created, event, head_sha, status) is given, at most SEARCH_CAP results
 * exist: total_count stops there and later pages are empty.
 * @throws DomainError 422 for a malformed `created`.
 */
export function listRuns(
	app: App,
	repo: RepositoryRow,
	workflow: WorkflowRow | null,
	query: RunQuery,
	page: { perPage: number; offset: number },
): { rows: RunRow[]; total: number } {
	const given = (value: string | undefined) => (value === undefined || value === '' ? null : value);
	const filter: RunFilter = {
		repoId: repo.id,
		workflowId: workflow?.id ?? null,
		actorId: null,
		branch: given(query.branch),
		event: given(query.event),
		status: null,
		conclusion: null,
		headSha: given(query.head_sha)?.toLowerCase() ?? null,
		checkSuiteId: query.check_suite_id ? Number(query.check_suite_id) : null,
		createdFrom: null,
		createdTo: null,
	};
	const status = given(query.status);
	if (status) {
		if ((RUN_STATUSES as readonly string[]).includes(status)) filter.status = status as RunStatus;
		else filter.conclusion = status as RunConclusion;
	}
	const created = given(query.created);
	if (created) {
		const { from, to } = parseCreated(created);
		filter.createdFrom = from === null ? null : isoSeconds(from);
		filter.createdTo = to === null ? null : isoSeconds(to);
	}
	const actor = given(query.actor);
	if (actor) {
		const account = app.stores.accounts.byLogin(actor);
		if (!account) return { rows: [], total: 0 };
		filter.actorId = account.id;
	}
	const { actions } = app.stores;
	const searched = [actor, filter.branch, filter.event, status, created, filter.headSha, filter.checkSuiteId].some((x) => x !== null);
	if (!searched) {
		const total = workflow ? workflow.runs_count : actions.repoRunsCount(repo.id);
		return { rows: page.offset < total ? actions.listRuns(filter, page.perPage, page.offset) : [], total };
	}
	const total = actions.countRuns(filter, SEARCH_CAP);
	const limit = Math.min(page.perPage, SEARCH_CAP - page.offset);
	return { rows: limit > 0 && page.offset < total ? actions.listRuns(filter, limit, page.offset) : [], total };
}
