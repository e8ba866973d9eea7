/**
 * Check suites and check runs, read from the stored workflow runs and jobs (schema.sql, "workflows,
 * runs and jobs"): GitHub Actions makes one check suite per workflow run (its `check_suite_id`)
 * and one check run per job (the job's id). Nothing here writes.
 */
import type { DB } from '../../db/open';
import type { JobConclusion, RunConclusion, RunStatus } from '../actions/store';

/** A workflow run as a check suite. */
export interface SuiteRow {
	run_id: number;
	check_suite_id: number;
	head_branch: string | null;
	head_sha: string;
	/** JSON {tree_id, message, timestamp, author, committer} or NULL */
	head_commit: string | null;
	/** JSON [{id, number, head {ref, sha}, base {ref, sha}}] */
	pull_requests: string;
	status: RunStatus;
	conclusion: RunConclusion | null;
	created_at: string;
	updated_at: string;
	/** Jobs of the run's current attempt. */
	latest_check_runs_count: number;
}

/** A workflow job as a check run. */
export interface CheckRunRow {
	id: number;
	run_id: number;
	name: string;
	status: RunStatus;
	conclusion: JobConclusion | null;
	started_at: string;
	completed_at: string | null;
	head_sha: string;
	check_suite_id: number;
	/** The run's JSON pull_requests. */
	pull_requests: string;
}

/** Filters of the check-run lists; null: not given. */
export interface CheckRunFilter {
	name: string | null;
	status: RunStatus | null;
	/** false: the jobs of each run's current attempt only (GitHub's filter=latest). */
	all: boolean;
}

export type CheckStore = ReturnType<typeof createCheckStore>;

export function createCheckStore(db: DB) {
	const suiteColumns = `
		r.id AS run_id, r.check_suite_id, r.head_branch, r.head_sha, r.head_commit, r.pull_requests, r.status, r.conclusion,
		r.created_at, r.updated_at,
		(SELECT count(*) FROM workflow_jobs j WHERE j.run_id = r.id AND j.run_attempt = r.run_attempt) AS latest_check_runs_count`;
	// A suite's id is its run's check_suite_id (imported runs may name their own; the first run wins).
	const suite = db.prepare(`SELECT ${suiteColumns} FROM workflow_runs r WHERE r.repo_id = ? AND r.check_suite_id = ? ORDER BY r.id LIMIT 1`);
	const suiteWhere = `
		FROM workflow_runs r INDEXED BY workflow_runs_head_sha WHERE r.repo_id = @repo AND r.head_sha = @sha
		AND (@name IS NULL OR EXISTS (SELECT 1 FROM workflow_jobs j WHERE j.run_id = r.id AND j.run_attempt = r.run_attempt AND j.name = @name))`;
	const suites = db.prepare(`SELECT ${suiteColumns} ${suiteWhere} ORDER BY r.id LIMIT @limit OFFSET @offset`);
	const suiteCount = db.prepare(`SELECT count(*) ${suiteWhere}`).pluck();

	const runColumns = `
		j.id, j.run_id, j.name, j.status, j.conclusion, j.started_at, j.completed_at,
		r.head_sha, r.check_suite_id, r.pull_requests`;
	const checkRun = db.prepare(`SELECT ${runColumns} FROM workflow_jobs j JOIN workflow_runs r ON r.id = j.run_id WHERE j.id = ? AND r.repo_id = ?`);
	const filters = `
		AND (@all = 1 OR j.run_attempt = r.run_attempt)
		AND (@name IS NULL OR j.name = @name)
		AND (@status IS NULL OR j.status = @status)`;
	const commitWhere = `FROM workflow_runs r INDEXED BY workflow_runs_head_sha JOIN workflow_jobs j ON j.run_id = r.id
		WHERE r.repo_id = @repo AND r.head_sha = @sha ${filters}`;
	const forCommit = db.prepare(`SELECT ${runColumns} ${commitWhere} ORDER BY j.id DESC LIMIT @limit OFFSET @offset`);
	const forCommitCount = db.prepare(`SELECT count(*) ${commitWhere}`).pluck();
	const suiteWhereRuns = `FROM workflow_jobs j JOIN workflow_runs r ON r.id = j.run_id WHERE j.run_id = @run ${filters}`;
	const forSuite = db.prepare(`SELECT ${runColumns} ${suiteWhereRuns} ORDER BY j.id DESC LIMIT @limit OFFSET @offset`);
	const forSuiteCount = db.prepare(`SELECT count(*) ${suiteWhereRuns}`).pluck();

	const bind = (filter: CheckRunFilter) => ({ name: filter.name, status: filter.status, all: filter.all ? 1 : 0 });

	return {
		/** The check suite `id` of the repository (its workflow run). */
		suite: (repoId: number, id: number) => suite.get(repoId, id) as SuiteRow | undefined,
		/** Check suites of a commit (oldest first), those with a check run named `name` when given. */
		suites(repoId: number, sha: string, name: string | null, limit: number, offset: number): { rows: SuiteRow[]; total: number } {
			const args = { repo: repoId, sha, name, limit, offset };
			return { rows: suites.all(args) as SuiteRow[], total: suiteCount.get(args) as number };
		},
		/** The check run `id` of the repository (its workflow job). */
		checkRun: (repoId: number, id: number) => checkRun.get(id, repoId) as CheckRunRow | undefined,
		/** Check runs of a commit, newest first. */
		forCommit(repoId: number, sha: string, filter: CheckRunFilter, limit: number, offset: number): { rows: CheckRunRow[]; total: number } {
			const args = { repo: repoId, sha, ...bind(filter), limit, offset };
			return { rows: forCommit.all(args) as CheckRunRow[], total: forCommitCount.get(args) as number };
		},
		/** Check runs of a check suite (the workflow run `runId`), newest first. */
		forSuite(runId: number, filter: CheckRunFilter, limit: number, offset: number): { rows: CheckRunRow[]; total: number } {
			const args = { run: runId, ...bind(filter), limit, offset };
			return { rows: forSuite.all(args) as CheckRunRow[], total: forSuiteCount.get(args) as number };
		},
	};
}
