/**
 * importRuns: creates workflows, workflow runs and their jobs from a JSON description — demo data
 * and benchmark fixtures (`gitstead admin import-runs`). Everything is checked first, then written
 * in one transaction: a description with a problem writes nothing.
 *
 * The description (every field optional unless marked; timestamps ISO 8601, stored to the second):
 *
 *   {
 *     "workflows": [{                      // workflows to register, even without runs
 *       "name": "CI",                       // required
 *       "path": ".github/workflows/ci.yml", // required; a bare file name means .github/workflows/<file>
 *       "state": "active",                  // or deleted, disabled_fork, disabled_inactivity, disabled_manually
 *       "jobs": [{"name": "build"}, {"name": "test", "needs": ["build"]}],  // default: one job named after the workflow
 *       "created_at": "2026-01-01T00:00:00Z"
 *     }],
 *     "runs": [{
 *       "path": "ci.yml",                   // required: the workflow (registered on first use if unknown)
 *       "name": "CI",                       // name of a workflow registered here; default the file name without extension
 *       "event": "push",                    // default push
 *       "branch": "main",                   // head_branch; default the repository's default branch; null allowed
 *       "head_sha": "<40 hex>",             // default derived from the workflow path and run number
 *       "actor": "octocat",                 // login; required unless a user owns the repository (then the owner)
 *       "triggering_actor": "octocat",      // default actor
 *       "status": "completed",              // requested, queued, in_progress, waiting, pending, completed (default)
 *       "conclusion": "success",            // when completed (default success): success, failure, neutral, cancelled,
 *                                           //   skipped, timed_out, action_required, stale; otherwise absent or null
 *       "created_at": "…",                  // default now; run_started_at defaults to it, updated_at to the latest time given
 *       "run_started_at": "…", "updated_at": "…",
 *       "run_number": 12,                   // default the workflow's next number
 *       "run_attempt": 1,                   // 1 to 51
 *       "check_suite_id": 42,               // default the run's id
 *       "display_title": "Fix the build",   // default the first line of head_commit.message, else the workflow name
 *       "head_commit": {"message": "…", "timestamp": "…", "tree_id": "<40 hex>",
 *                       "author": {"name": "…", "email": "…"}, "committer": {"name": "…", "email": "…"}},
 *                                           // default built from display_title, created_at and the actor; null: unknown
 *       "pull_requests": [{"number": 7, "id": 7, "head": {"ref": "…", "sha": "…"}, "base": {"ref": "…", "sha": "…"}}],
 *       "jobs": [{                          // default: the workflow's jobs, in states that fit the run's
 *         "name": "build",                  // required, unique in the run
 *         "needs": ["lint"],                // names of jobs of this run
 *         "status": "completed", "conclusion": "success",   // default from the run (stale → skipped)
 *         "created_at": "…", "started_at": "…", "completed_at": "…",
 *         "labels": ["ubuntu-latest"],
 *         "steps": [{"name": "Checkout", "status": "completed", "conclusion": "success", "number": 1,
 *                    "started_at": "…", "completed_at": "…",
 *                    "log": "Syncing repository\n…"}],  // the step's lines of the job's log
 *         "log": "…",                       // the job's log (before its steps' lines); logs need blob storage
 *         "runner_id": 1, "runner_name": "…", "runner_group_id": 1, "runner_group_name": "…"
 *       }]
 *     }]
 *   }
 *
 * A bare array is read as `{"runs": [...]}`. A workflow that already exists (same path) is reused
 * as it is.
 *
 * Events: importing is a data load, not activity. GitHub never replays history, so a completed
 * run records no event (a benchmark's 100,000 finished runs deliver nothing). A run that has not
 * completed is live work entering Gitstead, announced as it stands: workflow_run requested (its
 * payload shows the run's current status), then workflow_job queued / waiting / in_progress for
 * each of its jobs in that status (jobs that already completed are history). Their sender is the
 * run's triggering actor (./events.ts). Rules checked: a conclusion exactly when completed; a completed run's jobs are all
 * completed; a job that started waits for the jobs it needs to complete first; `needs` name jobs
 * of the run and form no cycle; actors are known users.
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import type { App } from '../../app';
import { invalidField, validationFailed, type ValidationItem } from '../../model/errors';
import { toValidationError } from '../../http/validation';
import { isoSeconds } from '../../time';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { recordJob, recordRun } from './events';
import { buildLog, type BuiltLog, writeLogFile } from './logs';
import {
	JOB_CONCLUSIONS,
	jobProblems,
	MAX_ATTEMPT,
	RUN_CONCLUSIONS,
	RUN_STATUSES,
	WORKFLOW_DIR,
	WORKFLOW_STATES,
	workflowJobs,
	workflowPath,
} from './service';
import type { JobConclusion, JobDefinition, NewJob, NewRun, RunConclusion, RunStatus, WorkflowRow } from './store';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const timestamp = v.pipe(
	v.string(),
	v.check(
		(text) => ISO.test(text) && !Number.isNaN(Date.parse(text)),
		'must be an ISO 8601 timestamp with a zone, e.g. 2026-01-01T12:00:00Z',
	),
	v.transform((text) => isoSeconds(Date.parse(text))),
);
const sha = v.pipe(
	v.string(),
	v.regex(/^[0-9a-fA-F]{40}$/, 'must be 40 hexadecimal digits'),
	v.transform((text) => text.toLowerCase()),
);
const count = (min: number, max = Number.MAX_SAFE_INTEGER) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const name = v.pipe(v.string(), v.minLength(1), v.maxLength(255));
const person = v.object({ name: v.string(), email: v.string() });
const jobDefinition = v.object({ name, needs: v.optional(v.array(v.string())) });

const stepSchema = v.object({
	name: v.string(),
	status: v.picklist(['queued', 'in_progress', 'completed']),
	conclusion: v.optional(v.nullable(v.string())),
	number: v.optional(count(1)),
	started_at: v.optional(v.nullable(timestamp)),
	completed_at: v.optional(v.nullable(timestamp)),
	/** The step's lines (its part of the job's log). */
	log: v.optional(v.string()),
});

const jobSchema = v.object({
	...jobDefinition.entries,
	status: v.optional(v.picklist(RUN_STATUSES)),
	conclusion: v.optional(v.nullable(v.picklist(JOB_CONCLUSIONS))),
	created_at: v.optional(timestamp),
	started_at: v.optional(timestamp),
	completed_at: v.optional(v.nullable(timestamp)),
	labels: v.optional(v.array(v.string())),
	steps: v.optional(v.array(stepSchema)),
	runner_id: v.optional(v.nullable(count(1))),
	runner_name: v.optional(v.nullable(v.string())),
	runner_group_id: v.optional(v.nullable(count(1))),
	runner_group_name: v.optional(v.nullable(v.string())),
	/** The job's log (before its steps' lines, when they are given too). */
	log: v.optional(v.string()),
});

const runSchema = v.object({
	path: v.pipe(v.string(), v.minLength(1)),
	name: v.optional(name),
	event: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
	branch: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(255)))),
	head_sha: v.optional(sha),
	actor: v.optional(v.string()),
	triggering_actor: v.optional(v.string()),
	status: v.optional(v.picklist(RUN_STATUSES)),
	conclusion: v.optional(v.nullable(v.picklist(RUN_CONCLUSIONS))),
	created_at: v.optional(timestamp),
	run_started_at: v.optional(timestamp),
	updated_at: v.optional(timestamp),
	run_number: v.optional(count(1)),
	run_attempt: v.optional(count(1, MAX_ATTEMPT)),
	check_suite_id: v.optional(count(1)),
	display_title: v.optional(v.string()),
	head_commit: v.optional(
		v.nullable(
			v.object({
				message: v.optional(v.string()),
				timestamp: v.optional(timestamp),
				tree_id: v.optional(sha),
				author: v.optional(v.nullable(person)),
				committer: v.optional(v.nullable(person)),
			}),
		),
	),
	pull_requests: v.optional(
		v.array(
			v.object({
				number: count(1),
				id: v.optional(count(1)),
				head: v.optional(v.object({ ref: v.optional(v.string()), sha: v.optional(sha) })),
				base: v.optional(v.object({ ref: v.optional(v.string()), sha: v.optional(sha) })),
			}),
		),
	),
	jobs: v.optional(v.array(jobSchema)),
});

const importSchema = v.object({
	workflows: v.optional(
		v.array(
			v.object({
				name,
				path: v.pipe(v.string(), v.minLength(1)),
				state: v.optional(v.picklist(WORKFLOW_STATES)),
				jobs: v.optional(v.array(jobDefinition)),
				created_at: v.optional(timestamp),
			}),
		),
	),
	runs: v.optional(v.array(runSchema)),
});

export type ImportInput = v.InferInput<typeof importSchema>;
type JobInput = v.InferOutput<typeof jobSchema>;

export interface ImportResult {
	/** Workflows registered (existing ones reused are not counted). */
	workflows: number;
	runs: number;
	jobs: number;
	/** Ids of the runs created, in input order. */
	run_ids: number[];
}

const NULL_SHA = '0'.repeat(40);
const WORKFLOW_FILE = /^\.github\/workflows\/[^/]+\.ya?ml$/;

/** A workflow as the import sees it: existing, or to be registered. */
interface PlannedWorkflow {
	row: WorkflowRow | null;
	values: Pick<WorkflowRow, 'name' | 'path' | 'state' | 'jobs' | 'created_at'>;
	definition: JobDefinition[];
	nextNumber: number;
	lastNumber: number;
	added: number;
}

/**
 * Creates workflows, runs and jobs from a description (see the module comment for its format).
 * @param repo the repository, or "owner/name"
 * @param input the parsed JSON description
 * @param now ISO timestamp for defaults (default: the app clock)
 * @returns what was created
 * @throws DomainError 422 listing every problem, each naming its place (e.g. `runs[3].conclusion`);
 *   nothing is written then.
 */
export function importRuns(app: App, repo: RepositoryRow | string, input: unknown, now = isoSeconds(app.clock())): ImportResult {
	const target = typeof repo === 'string' ? findRepository(app, repo) : repo;
	const parsed = v.safeParse(importSchema, Array.isArray(input) ? { runs: input } : input);
	if (!parsed.success) throw toValidationError(parsed.issues, 'WorkflowRun');
	const { actions, accounts } = app.stores;
	const problems: ValidationItem[] = [];
	const problem = (field: string, message: string) => problems.push({ resource: 'WorkflowRun', field, code: 'invalid', message });

	// Workflows: given ones, then those runs name.
	const planned = new Map<string, PlannedWorkflow>();
	const plan = (
		path: string,
		workflowName: string,
		state: WorkflowRow['state'],
		jobs: JobDefinition[],
		createdAt: string,
	): PlannedWorkflow => {
		const row = actions.workflowByPath(target.id, path) ?? null;
		const values = { name: workflowName, path, state, jobs: JSON.stringify(jobs), created_at: createdAt };
		const entry: PlannedWorkflow = row
			? {
					row,
					values: row,
					definition: workflowJobs(row),
					nextNumber: row.last_run_number + 1,
					lastNumber: row.last_run_number,
					added: 0,
				}
			: {
					row: null,
					values,
					definition: jobs.length ? jobs : [{ name: workflowName, needs: [] }],
					nextNumber: 1,
					lastNumber: 0,
					added: 0,
				};
		planned.set(path, entry);
		return entry;
	};
	(parsed.output.workflows ?? []).forEach((given, i) => {
		const path = workflowPath(given.path);
		if (!WORKFLOW_FILE.test(path))
			problem(`workflows[${i}].path`, `"${given.path}" is not a workflow file under ${WORKFLOW_DIR} (.yml or .yaml)`);
		if (planned.has(path)) problem(`workflows[${i}].path`, `workflow ${path} is listed twice`);
		const jobs = (given.jobs ?? []).map((job) => ({ name: job.name, needs: job.needs ?? [] }));
		for (const message of jobProblems(jobs)) problem(`workflows[${i}].jobs`, message);
		plan(path, given.name, given.state ?? 'active', jobs, given.created_at ?? now);
	});

	const owner = accounts.byId(target.owner_id)!;
	const actorOf = (login: string | undefined, field: string): AccountRow | null => {
		if (login === undefined) {
			if (owner.type === 'User') return owner;
			problem(field, `the repository belongs to an organization: name the user who triggered the run`);
			return null;
		}
		const account = accounts.byLogin(login);
		if (!account || account.type === 'Organization') {
			problem(field, `unknown user "${login}"`);
			return null;
		}
		return account;
	};

	let nextId = actions.nextRunId();
	const runs: NewRun[] = [];
	const jobs: NewJob[] = [];
	// Each job's log (by its index in `jobs`), when the description gives one.
	const builtLogs: Array<BuiltLog | null> = [];
	/** Workflow path of each run (by run id): workflow ids exist only once written. */
	const pathOf = new Map<number, string>();
	(parsed.output.runs ?? []).forEach((run, i) => {
		const at = `runs[${i}]`;
		const path = workflowPath(run.path);
		if (!WORKFLOW_FILE.test(path)) problem(`${at}.path`, `"${run.path}" is not a workflow file under ${WORKFLOW_DIR} (.yml or .yaml)`);
		const givenJobs = run.jobs?.map((job) => ({ name: job.name, needs: job.needs ?? [] }));
		const workflow =
			planned.get(path) ??
			plan(path, run.name ?? path.slice(path.lastIndexOf('/') + 1).replace(/\.ya?ml$/, ''), 'active', givenJobs ?? [], now);

		const status: RunStatus = run.status ?? 'completed';
		const conclusion: RunConclusion | null =
			run.conclusion === undefined ? (status === 'completed' ? 'success' : null) : run.conclusion;
		if ((status === 'completed') !== (conclusion !== null)) {
			problem(
				`${at}.conclusion`,
				status === 'completed' ? 'a completed run needs a conclusion' : `a ${status} run has no conclusion`,
			);
		}
		const actor = actorOf(run.actor, `${at}.actor`);
		const triggering = run.triggering_actor === undefined ? actor : actorOf(run.triggering_actor, `${at}.triggering_actor`);

		const runNumber = run.run_number ?? workflow.nextNumber;
		workflow.nextNumber = Math.max(workflow.nextNumber, runNumber + 1);
		workflow.lastNumber = Math.max(workflow.lastNumber, runNumber);
		workflow.added += 1;
		const id = nextId++;
		const createdAt = run.created_at ?? now;
		const startedAt = run.run_started_at ?? createdAt;
		const attempt = run.run_attempt ?? 1;
		const branch = run.branch === undefined ? target.default_branch : run.branch;
		const headSha = run.head_sha ?? createHash('sha1').update(`gitstead:${target.id}:${path}:${runNumber}`).digest('hex');
		const workflowName = workflow.values.name;
		const message = run.head_commit?.message;
		const displayTitle = run.display_title ?? (message ? message.split('\n')[0] : workflowName);

		// Jobs: given, or made from the workflow's definition in states that fit the run.
		const runJobs: JobInput[] =
			run.jobs ??
			workflow.definition.map((def) => ({ name: def.name, needs: def.needs, ...defaultJobState(status, conclusion, def) }));
		const defs = runJobs.map((job) => ({ name: job.name, needs: job.needs ?? [] }));
		for (const message of jobProblems(defs)) problem(`${at}.jobs`, message);
		const states = new Map<string, { status: RunStatus; conclusion: JobConclusion | null }>();
		let latest = startedAt;
		runJobs.forEach((job, j) => {
			const jobAt = `${at}.jobs[${j}]`;
			const fallback = defaultJobState(status, conclusion, defs[j]);
			const jobStatus = job.status ?? fallback.status;
			const jobConclusion =
				job.conclusion === undefined ? (jobStatus === 'completed' ? (fallback.conclusion ?? 'success') : null) : job.conclusion;
			if ((jobStatus === 'completed') !== (jobConclusion !== null)) {
				problem(
					`${jobAt}.conclusion`,
					jobStatus === 'completed' ? 'a completed job needs a conclusion' : `a ${jobStatus} job has no conclusion`,
				);
			}
			if (status === 'completed' && jobStatus !== 'completed')
				problem(`${jobAt}.status`, `a completed run's jobs are completed, not ${jobStatus}`);
			states.set(job.name, { status: jobStatus, conclusion: jobConclusion as JobConclusion | null });
			const completedAt = jobStatus === 'completed' ? (job.completed_at ?? run.updated_at ?? startedAt) : null;
			if (completedAt && completedAt > latest) latest = completedAt;
			try {
				builtLogs[jobs.length] = buildLog({
					startedAt: job.started_at ?? startedAt,
					text: job.log,
					steps: (job.steps ?? []).map((step, k) => ({
						number: step.number ?? k + 1,
						startedAt: step.started_at ?? null,
						text: step.log,
					})),
				});
			} catch (error) {
				problem(`${jobAt}.log`, (error as Error).message);
			}
			jobs.push({
				run_id: id,
				run_attempt: attempt,
				name: job.name,
				needs: JSON.stringify(defs[j].needs),
				status: jobStatus,
				conclusion: jobConclusion as JobConclusion | null,
				labels: JSON.stringify(job.labels ?? ['ubuntu-latest']),
				steps: JSON.stringify(
					(job.steps ?? []).map((step, k) => ({
						name: step.name,
						status: step.status,
						conclusion: step.conclusion ?? null,
						number: step.number ?? k + 1,
						started_at: step.started_at ?? null,
						completed_at: step.completed_at ?? null,
					})),
				),
				runner_id: job.runner_id ?? null,
				runner_name: job.runner_name ?? null,
				runner_group_id: job.runner_group_id ?? null,
				runner_group_name: job.runner_group_name ?? null,
				created_at: job.created_at ?? createdAt,
				started_at: job.started_at ?? startedAt,
				completed_at: completedAt,
			});
		});
		// A job that started (in progress, or completed otherwise than skipped or cancelled before
		// starting) needs its needs completed.
		runJobs.forEach((job, j) => {
			const state = states.get(job.name)!;
			const finished = state.status === 'completed' && state.conclusion !== 'skipped' && state.conclusion !== 'cancelled';
			const started = state.status === 'in_progress' || finished;
			if (!started) return;
			for (const need of defs[j].needs) {
				if (states.has(need) && states.get(need)!.status !== 'completed') {
					problem(`${at}.jobs[${j}].status`, `job "${job.name}" started before "${need}", which it needs, completed`);
				}
			}
		});

		const commit = run.head_commit;
		const noreply = `users.noreply.${app.urls.host.replace(/:\d+$/, '')}`;
		const author = actor && { name: actor.name ?? actor.login, email: actor.email ?? `${actor.id}+${actor.login}@${noreply}` };
		runs.push({
			id,
			repo_id: target.id,
			workflow_id: workflow.row?.id ?? 0, // set once registered
			run_number: runNumber,
			run_attempt: attempt,
			check_suite_id: run.check_suite_id ?? id,
			event: run.event ?? 'push',
			display_title: displayTitle,
			head_branch: branch,
			head_sha: headSha,
			head_commit:
				commit === null
					? null
					: JSON.stringify({
							tree_id: commit?.tree_id ?? createHash('sha1').update(`tree:${headSha}`).digest('hex'),
							message: message ?? displayTitle,
							timestamp: commit?.timestamp ?? createdAt,
							author: commit?.author === undefined ? author : commit.author,
							committer: commit?.committer === undefined ? author : commit.committer,
						}),
			pull_requests: JSON.stringify(
				(run.pull_requests ?? []).map((pr) => ({
					id: pr.id ?? pr.number,
					number: pr.number,
					head: { ref: pr.head?.ref ?? branch ?? target.default_branch, sha: pr.head?.sha ?? headSha },
					base: { ref: pr.base?.ref ?? target.default_branch, sha: pr.base?.sha ?? NULL_SHA },
				})),
			),
			status,
			conclusion,
			actor_id: actor?.id ?? null,
			triggering_actor_id: triggering?.id ?? null,
			run_started_at: startedAt,
			created_at: createdAt,
			updated_at: run.updated_at ?? latest,
		});
		pathOf.set(id, path);
	});
	if (problems.length) throw validationFailed(problems);
	// Log files are written before the transaction (a failure leaves files the sweep removes).
	const logFiles = builtLogs.map((log) => log && { name: writeLogFile(app, log.bytes), size: log.bytes.length, steps: log.steps });

	return app.transaction(() => {
		let registered = 0;
		for (const entry of planned.values()) {
			if (entry.row) continue;
			entry.row = actions.insertWorkflow({ repo_id: target.id, ...entry.values });
			registered += 1;
		}
		for (const run of runs) {
			run.workflow_id = planned.get(pathOf.get(run.id)!)!.row!.id;
			actions.insertRun(run);
		}
		jobs.forEach((job, i) => {
			const jobId = actions.insertJob(job);
			const log = logFiles[i];
			if (log) app.stores.jobLogs.set(jobId, log.name, log.size, log.steps);
		});
		for (const entry of planned.values()) if (entry.added) actions.recordRuns(entry.row!.id, entry.lastNumber, entry.added);
		for (const run of runs) {
			if (run.status === 'completed') continue;
			recordRun(app, target, actions.run(target.id, run.id)!, 'requested', run.triggering_actor_id);
			for (const job of actions.jobs(run.id, run.run_attempt).rows) {
				if (job.status !== 'completed') recordJob(app, target, job, run.triggering_actor_id);
			}
		}
		return { workflows: registered, runs: runs.length, jobs: jobs.length, run_ids: runs.map((run) => run.id) };
	});
}

/** A generated job's state for a run's state: completed with the run (stale → skipped), started jobs first. */
function defaultJobState(
	status: RunStatus,
	conclusion: RunConclusion | null,
	def: JobDefinition,
): { status: RunStatus; conclusion: JobConclusion | null } {
	if (status === 'completed') return { status, conclusion: conclusion === 'stale' || conclusion === null ? 'skipped' : conclusion };
	if (status === 'in_progress') return { status: def.needs.length ? 'queued' : 'in_progress', conclusion: null };
	return { status, conclusion: null };
}

function findRepository(app: App, fullName: string): RepositoryRow {
	const [ownerLogin, name, extra] = fullName.split('/');
	const owner = ownerLogin ? app.stores.accounts.byLogin(ownerLogin) : undefined;
	const repo = owner && name && extra === undefined ? app.stores.repos.byOwnerAndName(owner.id, name) : undefined;
	if (!repo) throw invalidField('Repository', 'repository', `unknown repository "${fullName}"`);
	return repo;
}
