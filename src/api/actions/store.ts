/**
 * Prepared statements for workflows, workflow runs and their jobs (schema.sql, "workflows, runs and
 * jobs").
 *
 * Listing runs: one statement per "driving" filter, each forced onto the index that serves that
 * filter, the `created` range and the list order (created_at, id descending), with every other
 * filter optional (`@x IS NULL OR column = @x`). A single statement with every filter optional
 * cannot use those indexes (SQLite plans once, before the values are bound): over 100,000 runs a
 * selective filter such as head_sha then scans the whole repository (~40 ms instead of ~0.05 ms).
 * The counts of filtered lists stop at a cap (GitHub returns at most 1,000 results per search);
 * unfiltered totals come from the counter on each workflow, never from a scan.
 */
import type { DB } from '../../db/open';

export type RunStatus = 'requested' | 'queued' | 'in_progress' | 'waiting' | 'pending' | 'completed';
export type RunConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | 'stale';
export type JobConclusion = Exclude<RunConclusion, 'stale'>;
export type WorkflowState = 'active' | 'deleted' | 'disabled_fork' | 'disabled_inactivity' | 'disabled_manually';

/** A job of a workflow definition: its name and the names of the jobs it waits for. */
export interface JobDefinition {
	name: string;
	needs: string[];
}

export interface WorkflowRow {
	id: number;
	repo_id: number;
	name: string;
	path: string;
	state: WorkflowState;
	/** JSON JobDefinition[] */
	jobs: string;
	last_run_number: number;
	runs_count: number;
	created_at: string;
	updated_at: string;
}

export interface RunRow {
	id: number;
	repo_id: number;
	workflow_id: number;
	run_number: number;
	run_attempt: number;
	check_suite_id: number;
	event: string;
	display_title: string;
	head_branch: string | null;
	head_sha: string;
	/** JSON {tree_id, message, timestamp, author {name, email}, committer {name, email}} or NULL */
	head_commit: string | null;
	/** JSON [{id, number, head {ref, sha}, base {ref, sha}}] */
	pull_requests: string;
	status: RunStatus;
	conclusion: RunConclusion | null;
	actor_id: number | null;
	triggering_actor_id: number | null;
	run_started_at: string;
	created_at: string;
	updated_at: string;
	/** The workflow's name and path (joined). */
	name: string;
	path: string;
}

/** A run as written (without the joined workflow columns). */
export type NewRun = Omit<RunRow, 'name' | 'path'>;

export interface JobRow {
	id: number;
	run_id: number;
	run_attempt: number;
	name: string;
	/** JSON array of job names */
	needs: string;
	status: RunStatus;
	conclusion: JobConclusion | null;
	/** JSON array of strings */
	labels: string;
	/** JSON array of steps */
	steps: string;
	runner_id: number | null;
	runner_name: string | null;
	runner_group_id: number | null;
	runner_group_name: string | null;
	created_at: string;
	started_at: string;
	completed_at: string | null;
	/** From the run and its workflow (joined). */
	head_sha: string;
	head_branch: string | null;
	workflow_name: string;
}

/** A job as written (without the joined columns). */
export type NewJob = Omit<JobRow, 'id' | 'head_sha' | 'head_branch' | 'workflow_name'>;

/**
 * Filters of GET .../actions/runs after parsing: null means "not given". createdFrom/createdTo are
 * ISO timestamps, inclusive and exclusive.
 */
export interface RunFilter {
	repoId: number;
	workflowId: number | null;
	actorId: number | null;
	branch: string | null;
	event: string | null;
	status: RunStatus | null;
	conclusion: RunConclusion | null;
	headSha: string | null;
	checkSuiteId: number | null;
	createdFrom: string | null;
	createdTo: string | null;
}

type FilterKey = Exclude<keyof RunFilter, 'repoId' | 'createdFrom' | 'createdTo'>;

const COLUMN: Record<FilterKey, string> = {
	workflowId: 'workflow_id',
	actorId: 'actor_id',
	branch: 'head_branch',
	event: 'event',
	status: 'status',
	conclusion: 'conclusion',
	headSha: 'head_sha',
	checkSuiteId: 'check_suite_id',
};

/**
 * Driving filters, most selective first: the first one given picks the statement (and its index).
 * The last entry (no filter) walks the repository's runs in order.
 */
const DRIVERS: Array<{ key: FilterKey | null; index: string }> = [
	{ key: 'headSha', index: 'workflow_runs_head_sha' },
	{ key: 'checkSuiteId', index: 'workflow_runs_check_suite' },
	{ key: 'actorId', index: 'workflow_runs_actor' },
	{ key: 'branch', index: 'workflow_runs_branch' },
	{ key: 'workflowId', index: 'workflow_runs_workflow' },
	{ key: 'event', index: 'workflow_runs_event' },
	{ key: 'conclusion', index: 'workflow_runs_conclusion' },
	{ key: 'status', index: 'workflow_runs_status' },
	{ key: null, index: 'workflow_runs_repo' },
];

/** Bounds standing in for an open `created` range: every ISO timestamp sorts between them. */
const EARLIEST = '';
const LATEST = '~';

function whereClause(driver: FilterKey | null): string {
	const terms = ['r.repo_id = @repoId'];
	if (driver) terms.push(`r.${COLUMN[driver]} = @${driver}`);
	for (const key of Object.keys(COLUMN) as FilterKey[]) {
		if (key !== driver) terms.push(`(@${key} IS NULL OR r.${COLUMN[key]} = @${key})`);
	}
	terms.push('r.created_at >= @createdFrom', 'r.created_at < @createdTo');
	return terms.join(' AND ');
}

const RUN_COLUMNS = 'r.*, w.name AS name, w.path AS path';
const JOB_COLUMNS = 'j.*, r.head_sha AS head_sha, r.head_branch AS head_branch, w.name AS workflow_name';

export type ActionsStore = ReturnType<typeof createActionsStore>;

export function createActionsStore(db: DB) {
	// Workflows
	const workflowById = db.prepare('SELECT * FROM workflows WHERE repo_id = ? AND id = ?');
	const workflowByPath = db.prepare('SELECT * FROM workflows WHERE repo_id = ? AND path = ?');
	const workflows = db.prepare('SELECT * FROM workflows WHERE repo_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const workflowCount = db.prepare('SELECT count(*) FROM workflows WHERE repo_id = ?').pluck();
	const insertWorkflow = db.prepare(`
		INSERT INTO workflows (repo_id, name, path, state, jobs, created_at, updated_at)
		VALUES (@repo_id, @name, @path, @state, @jobs, @created_at, @created_at)`);
	const recordRuns = db.prepare(
		'UPDATE workflows SET last_run_number = max(last_run_number, ?), runs_count = runs_count + ? WHERE id = ?',
	);
	const repoRunsCount = db.prepare('SELECT coalesce(sum(runs_count), 0) FROM workflows WHERE repo_id = ?').pluck();
	const setWorkflowState = db.prepare('UPDATE workflows SET state = ?, updated_at = ? WHERE id = ?');

	// Runs
	const nextRunId = db.prepare('SELECT coalesce(max(id), 0) + 1 FROM workflow_runs').pluck();
	const insertRun = db.prepare(`
		INSERT INTO workflow_runs (id, repo_id, workflow_id, run_number, run_attempt, check_suite_id, event, display_title,
			head_branch, head_sha, head_commit, pull_requests, status, conclusion, actor_id, triggering_actor_id, run_started_at,
			created_at, updated_at)
		VALUES (@id, @repo_id, @workflow_id, @run_number, @run_attempt, @check_suite_id, @event, @display_title,
			@head_branch, @head_sha, @head_commit, @pull_requests, @status, @conclusion, @actor_id, @triggering_actor_id,
			@run_started_at, @created_at, @updated_at)`);
	const run = db.prepare(`
		SELECT ${RUN_COLUMNS} FROM workflow_runs r CROSS JOIN workflows w ON w.id = r.workflow_id
		WHERE r.id = ? AND r.repo_id = ?`);
	const latestOnBranch = db.prepare(`
		SELECT head_sha, head_commit FROM workflow_runs INDEXED BY workflow_runs_branch
		WHERE repo_id = ? AND head_branch = ? ORDER BY created_at DESC, id DESC LIMIT 1`);
	const updateRun = db.prepare(`
		UPDATE workflow_runs SET status = @status, conclusion = @conclusion, run_attempt = @run_attempt,
			run_started_at = @run_started_at, triggering_actor_id = @triggering_actor_id, updated_at = @updated_at
		WHERE id = @id`);
	const pages = new Map<FilterKey | null, ReturnType<DB['prepare']>>();
	const counts = new Map<FilterKey | null, ReturnType<DB['prepare']>>();
	for (const { key, index } of DRIVERS) {
		const where = whereClause(key);
		pages.set(
			key,
			db.prepare(`
				SELECT ${RUN_COLUMNS} FROM workflow_runs r INDEXED BY ${index} CROSS JOIN workflows w ON w.id = r.workflow_id
				WHERE ${where} ORDER BY r.created_at DESC, r.id DESC LIMIT @limit OFFSET @offset`),
		);
		counts.set(
			key,
			db.prepare(`SELECT count(*) FROM (SELECT 1 FROM workflow_runs r INDEXED BY ${index} WHERE ${where} LIMIT @cap)`).pluck(),
		);
	}
	const bind = (filter: RunFilter) => ({
		...filter,
		createdFrom: filter.createdFrom ?? EARLIEST,
		createdTo: filter.createdTo ?? LATEST,
	});
	const driverOf = (filter: RunFilter) => DRIVERS.find(({ key }) => key === null || filter[key] !== null)!.key;

	// Jobs
	const insertJob = db.prepare(`
		INSERT INTO workflow_jobs (run_id, run_attempt, name, needs, status, conclusion, labels, steps, runner_id, runner_name,
			runner_group_id, runner_group_name, created_at, started_at, completed_at)
		VALUES (@run_id, @run_attempt, @name, @needs, @status, @conclusion, @labels, @steps, @runner_id, @runner_name,
			@runner_group_id, @runner_group_name, @created_at, @started_at, @completed_at)`);
	const jobFrom = `FROM workflow_jobs j JOIN workflow_runs r ON r.id = j.run_id JOIN workflows w ON w.id = r.workflow_id`;
	const job = db.prepare(`SELECT ${JOB_COLUMNS} ${jobFrom} WHERE j.id = ? AND r.repo_id = ?`);
	const jobs = db.prepare(`
		SELECT ${JOB_COLUMNS} ${jobFrom} WHERE j.run_id = @run AND (@attempt IS NULL OR j.run_attempt = @attempt)
		ORDER BY j.id LIMIT @limit OFFSET @offset`);
	const jobCount = db
		.prepare('SELECT count(*) FROM workflow_jobs WHERE run_id = @run AND (@attempt IS NULL OR run_attempt = @attempt)')
		.pluck();
	const updateJob = db.prepare(`
		UPDATE workflow_jobs SET status = @status, conclusion = @conclusion, started_at = @started_at, completed_at = @completed_at
		WHERE id = @id`);

	return {
		workflowById: (repoId: number, id: number) => workflowById.get(repoId, id) as WorkflowRow | undefined,
		workflowByPath: (repoId: number, path: string) => workflowByPath.get(repoId, path) as WorkflowRow | undefined,
		/** One page of a repository's workflows, by id, with their number. */
		workflows(repoId: number, limit: number, offset: number): { rows: WorkflowRow[]; total: number } {
			return { rows: workflows.all(repoId, limit, offset) as WorkflowRow[], total: workflowCount.get(repoId) as number };
		},
		/** Registers a workflow. @param values.jobs JSON JobDefinition[] @param values.created_at ISO timestamp */
		insertWorkflow(values: Pick<WorkflowRow, 'repo_id' | 'name' | 'path' | 'state' | 'jobs' | 'created_at'>): WorkflowRow {
			const id = Number(insertWorkflow.run(values).lastInsertRowid);
			return workflowById.get(values.repo_id, id) as WorkflowRow;
		},
		/** Sets a workflow's state (enabled: active, disabled: disabled_manually). @param updatedAt ISO timestamp */
		setWorkflowState(id: number, state: WorkflowState, updatedAt: string): void {
			setWorkflowState.run(state, updatedAt, id);
		},
		/** Counts `added` new runs of a workflow whose highest run_number is now at least `runNumber`. */
		recordRuns(workflowId: number, runNumber: number, added: number): void {
			recordRuns.run(runNumber, added, workflowId);
		},
		/** Number of runs of a repository (every workflow). */
		repoRunsCount: (repoId: number) => repoRunsCount.get(repoId) as number,

		/** The id the next run gets (runs are written with explicit ids, so check_suite_id can default to it). */
		nextRunId: () => nextRunId.get() as number,
		insertRun(values: NewRun): void {
			insertRun.run(values);
		},
		run: (repoId: number, id: number) => run.get(id, repoId) as RunRow | undefined,
		/** head_sha and head_commit of the newest run on a branch of the repository. */
		latestOnBranch: (repoId: number, branch: string) =>
			latestOnBranch.get(repoId, branch) as Pick<RunRow, 'head_sha' | 'head_commit'> | undefined,
		updateRun(
			values: Pick<RunRow, 'id' | 'status' | 'conclusion' | 'run_attempt' | 'run_started_at' | 'triggering_actor_id' | 'updated_at'>,
		): void {
			updateRun.run(values);
		},
		/** One page of runs matching `filter`, newest first. */
		listRuns: (filter: RunFilter, limit: number, offset: number) =>
			pages.get(driverOf(filter))!.all({ ...bind(filter), limit, offset }) as RunRow[],
		/** Number of runs matching `filter`, counting no further than `cap`. */
		countRuns: (filter: RunFilter, cap: number) => counts.get(driverOf(filter))!.get({ ...bind(filter), cap }) as number,

		/** @returns the job's id */
		insertJob(values: NewJob): number {
			return Number(insertJob.run(values).lastInsertRowid);
		},
		job: (repoId: number, id: number) => job.get(id, repoId) as JobRow | undefined,
		/** Jobs of a run, by id: of one attempt, or of every attempt when `attempt` is null. */
		jobs(runId: number, attempt: number | null, limit = -1, offset = 0): { rows: JobRow[]; total: number } {
			const rows = jobs.all({ run: runId, attempt, limit, offset }) as JobRow[];
			const total = limit < 0 && offset === 0 ? rows.length : (jobCount.get({ run: runId, attempt }) as number);
			return { rows, total };
		},
		updateJob(values: Pick<JobRow, 'id' | 'status' | 'conclusion' | 'started_at' | 'completed_at'>): void {
			updateJob.run(values);
		},
	};
}
