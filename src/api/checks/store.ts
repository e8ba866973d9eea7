/**
 * Check suites and check runs. GitHub Actions' are read from the stored workflow runs and jobs
 * (schema.sql, "workflows, runs and jobs"): one check suite per workflow run (its
 * `check_suite_id`) and one check run per job (the job's id). Other GitHub Apps' check runs are
 * stored here (`check_runs`, in a suite per repository, commit and app: `check_suites`), with ids
 * from CHECK_ID_BASE up so the two never share an id. Every list reads both.
 */
import type { DB } from '../../db/open';
import type { RunStatus } from '../actions/store';

/** First id of the check runs and suites apps create (2^40): workflow jobs and runs stay below it. */
export const CHECK_ID_BASE = 2 ** 40;

export type CheckStatus = RunStatus;
export type CheckConclusion = 'action_required' | 'cancelled' | 'failure' | 'neutral' | 'success' | 'skipped' | 'stale' | 'timed_out';

/** A check suite: a workflow run (app_id null: GitHub Actions) or an app's suite. */
export interface SuiteRow {
	/** The workflow run's id; null for an app's suite. */
	run_id: number | null;
	check_suite_id: number;
	app_id: number | null;
	head_branch: string | null;
	head_sha: string;
	/** JSON {tree_id, message, timestamp, author, committer} or NULL */
	head_commit: string | null;
	/** JSON [{id, number, head {ref, sha}, base {ref, sha}}] */
	pull_requests: string;
	/** The run's status; for an app's suite, derived from its runs (see suiteState). */
	status: CheckStatus | null;
	conclusion: string | null;
	created_at: string;
	updated_at: string;
	/** Check runs of the suite (the run's current attempt's jobs; an app suite's latest run per name). */
	latest_check_runs_count: number;
	/** App suites: runs not completed, runs in progress, and the distinct conclusions (comma-separated). */
	open_runs: number | null;
	running_runs: number | null;
	conclusions: string | null;
}

/** A check run: a workflow job (app_id null) or an app's check run. */
export interface CheckRunRow {
	id: number;
	/** The job's workflow run; null for an app's check run. */
	run_id: number | null;
	app_id: number | null;
	name: string;
	status: CheckStatus;
	conclusion: string | null;
	started_at: string | null;
	completed_at: string | null;
	head_sha: string;
	check_suite_id: number;
	/** The run's JSON pull_requests ('[]' for apps). */
	pull_requests: string;
	external_id: string | null;
	details_url: string | null;
	output_title: string | null;
	output_summary: string | null;
	output_text: string | null;
}

/** Filters of the check-run lists; null: not given. */
export interface CheckRunFilter {
	name: string | null;
	status: RunStatus | null;
	/** false: the jobs of each run's current attempt, and each app suite's latest run per name (GitHub's filter=latest). */
	all: boolean;
	/** Only this app's (GitHub Actions: ACTIONS_APP_ID); null: every app's. */
	appId: number | null;
	/** The id GitHub Actions goes by in `appId`. */
	actionsAppId: number;
}

/** An app's check run as written. */
export interface NewCheckRun {
	name: string;
	head_sha: string;
	external_id: string | null;
	details_url: string | null;
	status: CheckStatus;
	conclusion: CheckConclusion | null;
	started_at: string | null;
	completed_at: string | null;
	output_title: string | null;
	output_summary: string | null;
	output_text: string | null;
}

export type CheckStore = ReturnType<typeof createCheckStore>;

/** Prepares the statements of check suites and check runs on `db`. */
export function createCheckStore(db: DB) {
	// ---- suites
	const runSuite = `
		SELECT r.id AS run_id, r.check_suite_id, NULL AS app_id, r.head_branch, r.head_sha, r.head_commit, r.pull_requests, r.status,
		  r.conclusion, r.created_at, r.updated_at,
		  (SELECT count(*) FROM workflow_jobs j WHERE j.run_id = r.id AND j.run_attempt = r.run_attempt) AS latest_check_runs_count,
		  NULL AS open_runs, NULL AS running_runs, NULL AS conclusions
		FROM workflow_runs r`;
	const appSuite = `
		SELECT NULL AS run_id, s.id AS check_suite_id, s.app_id, s.head_branch, s.head_sha, NULL AS head_commit, '[]' AS pull_requests,
		  NULL AS status, NULL AS conclusion, s.created_at, s.updated_at,
		  (SELECT count(DISTINCT name) FROM check_runs c WHERE c.suite_id = s.id) AS latest_check_runs_count,
		  (SELECT count(*) FROM check_runs c WHERE c.suite_id = s.id AND c.status <> 'completed') AS open_runs,
		  (SELECT count(*) FROM check_runs c WHERE c.suite_id = s.id AND c.status = 'in_progress') AS running_runs,
		  (SELECT group_concat(DISTINCT conclusion) FROM check_runs c WHERE c.suite_id = s.id) AS conclusions
		FROM check_suites s`;
	// A suite's id is its run's check_suite_id (imported runs may name their own; the first run wins).
	const runSuiteById = db.prepare(`${runSuite} WHERE r.repo_id = ? AND r.check_suite_id = ? ORDER BY r.id LIMIT 1`);
	const appSuiteById = db.prepare(`${appSuite} WHERE s.repo_id = ? AND s.id = ?`);
	const suitesWhere = `
		SELECT * FROM (
		  ${runSuite} INDEXED BY workflow_runs_head_sha WHERE r.repo_id = @repo AND r.head_sha = @sha AND (@app IS NULL OR @app = @actions)
		    AND (@name IS NULL OR EXISTS (SELECT 1 FROM workflow_jobs j WHERE j.run_id = r.id AND j.run_attempt = r.run_attempt AND j.name = @name))
		  UNION ALL
		  ${appSuite} WHERE s.repo_id = @repo AND s.head_sha = @sha AND (@app IS NULL OR s.app_id = @app)
		    AND (@name IS NULL OR EXISTS (SELECT 1 FROM check_runs c WHERE c.suite_id = s.id AND c.name = @name))
		)`;
	const suites = db.prepare(`${suitesWhere} ORDER BY check_suite_id LIMIT @limit OFFSET @offset`);
	const suiteCount = db.prepare(`SELECT count(*) FROM (${suitesWhere})`).pluck();
	const suiteOf = db.prepare('SELECT id FROM check_suites WHERE repo_id = ? AND head_sha = ? AND app_id = ?').pluck();
	const insertSuite = db.prepare(`
		INSERT INTO check_suites (id, repo_id, app_id, head_sha, head_branch, created_at, updated_at)
		VALUES (max(coalesce((SELECT max(id) FROM check_suites), 0) + 1, ${CHECK_ID_BASE}), ?, ?, ?, ?, ?, ?)`);
	const touchSuite = db.prepare('UPDATE check_suites SET updated_at = ? WHERE id = ?');

	// ---- runs
	const jobRun = `
		SELECT j.id, j.run_id, NULL AS app_id, j.name, j.status, j.conclusion, j.started_at, j.completed_at, r.head_sha, r.check_suite_id,
		  r.pull_requests, NULL AS external_id, NULL AS details_url, NULL AS output_title, NULL AS output_summary, NULL AS output_text`;
	const appRun = `
		SELECT c.id, NULL AS run_id, s.app_id, c.name, c.status, c.conclusion, c.started_at, c.completed_at, c.head_sha, c.suite_id AS check_suite_id,
		  '[]' AS pull_requests, c.external_id, c.details_url, c.output_title, c.output_summary, c.output_text`;
	const jobById = db.prepare(`${jobRun} FROM workflow_jobs j JOIN workflow_runs r ON r.id = j.run_id WHERE j.id = ? AND r.repo_id = ?`);
	const appRunById = db.prepare(`${appRun} FROM check_runs c JOIN check_suites s ON s.id = c.suite_id WHERE c.id = ? AND c.repo_id = ?`);
	const jobFilters = `
		AND (@all = 1 OR j.run_attempt = r.run_attempt) AND (@name IS NULL OR j.name = @name) AND (@status IS NULL OR j.status = @status)
		AND (@app IS NULL OR @app = @actions)`;
	const appFilters = `
		AND (@all = 1 OR c.id = (SELECT max(id) FROM check_runs l WHERE l.suite_id = c.suite_id AND l.name = c.name))
		AND (@name IS NULL OR c.name = @name) AND (@status IS NULL OR c.status = @status) AND (@app IS NULL OR s.app_id = @app)`;
	const commitWhere = `
		SELECT * FROM (
		  ${jobRun} FROM workflow_runs r INDEXED BY workflow_runs_head_sha JOIN workflow_jobs j ON j.run_id = r.id
		  WHERE r.repo_id = @repo AND r.head_sha = @sha ${jobFilters}
		  UNION ALL
		  ${appRun} FROM check_runs c JOIN check_suites s ON s.id = c.suite_id WHERE c.repo_id = @repo AND c.head_sha = @sha ${appFilters}
		)`;
	const forCommit = db.prepare(`${commitWhere} ORDER BY id DESC LIMIT @limit OFFSET @offset`);
	const forCommitCount = db.prepare(`SELECT count(*) FROM (${commitWhere})`).pluck();
	const runSuiteWhere = `${jobRun} FROM workflow_jobs j JOIN workflow_runs r ON r.id = j.run_id WHERE j.run_id = @run ${jobFilters}`;
	const forRunSuite = db.prepare(`${runSuiteWhere} ORDER BY j.id DESC LIMIT @limit OFFSET @offset`);
	const forRunSuiteCount = db.prepare(`SELECT count(*) FROM (${runSuiteWhere})`).pluck();
	const appSuiteWhere = `${appRun} FROM check_runs c JOIN check_suites s ON s.id = c.suite_id WHERE c.suite_id = @suite ${appFilters}`;
	const forAppSuite = db.prepare(`${appSuiteWhere} ORDER BY c.id DESC LIMIT @limit OFFSET @offset`);
	const forAppSuiteCount = db.prepare(`SELECT count(*) FROM (${appSuiteWhere})`).pluck();
	const insertRun = db.prepare(`
		INSERT INTO check_runs (id, suite_id, repo_id, name, head_sha, external_id, details_url, status, conclusion, started_at, completed_at,
		  output_title, output_summary, output_text, created_at, updated_at)
		VALUES (max(coalesce((SELECT max(id) FROM check_runs), 0) + 1, ${CHECK_ID_BASE}), @suite_id, @repo_id, @name, @head_sha, @external_id,
		  @details_url, @status, @conclusion, @started_at, @completed_at, @output_title, @output_summary, @output_text, @now, @now)`);
	const updateRun = db.prepare(`
		UPDATE check_runs SET name = @name, external_id = @external_id, details_url = @details_url, status = @status, conclusion = @conclusion,
		  started_at = @started_at, completed_at = @completed_at, output_title = @output_title, output_summary = @output_summary,
		  output_text = @output_text, updated_at = @now
		WHERE id = @id`);

	const bind = (filter: CheckRunFilter) => ({
		name: filter.name,
		status: filter.status,
		all: filter.all ? 1 : 0,
		app: filter.appId,
		actions: filter.actionsAppId,
	});

	return {
		/** The check suite `id` of the repository (a workflow run's, or an app's). */
		suite: (repoId: number, id: number) =>
			(id >= CHECK_ID_BASE ? appSuiteById.get(repoId, id) : runSuiteById.get(repoId, id)) as SuiteRow | undefined,
		/** Check suites of a commit (by id), those of app `appId` and with a check run named `name` when given. */
		suites(
			repoId: number,
			sha: string,
			filter: { name: string | null; appId: number | null; actionsAppId: number },
			limit: number,
			offset: number,
		) {
			const args = { repo: repoId, sha, name: filter.name, app: filter.appId, actions: filter.actionsAppId, limit, offset };
			return { rows: suites.all(args) as SuiteRow[], total: suiteCount.get(args) as number };
		},
		/** The check run `id` of the repository (a workflow job, or an app's check run). */
		checkRun: (repoId: number, id: number) =>
			(id >= CHECK_ID_BASE ? appRunById.get(id, repoId) : jobById.get(id, repoId)) as CheckRunRow | undefined,
		/** Check runs of a commit, newest first. */
		forCommit(
			repoId: number,
			sha: string,
			filter: CheckRunFilter,
			limit: number,
			offset: number,
		): { rows: CheckRunRow[]; total: number } {
			const args = { repo: repoId, sha, ...bind(filter), limit, offset };
			return { rows: forCommit.all(args) as CheckRunRow[], total: forCommitCount.get(args) as number };
		},
		/** Check runs of a check suite, newest first. */
		forSuite(suite: SuiteRow, filter: CheckRunFilter, limit: number, offset: number): { rows: CheckRunRow[]; total: number } {
			if (suite.run_id !== null) {
				const args = { run: suite.run_id, ...bind(filter), limit, offset };
				return { rows: forRunSuite.all(args) as CheckRunRow[], total: forRunSuiteCount.get(args) as number };
			}
			const args = { suite: suite.check_suite_id, ...bind(filter), limit, offset };
			return { rows: forAppSuite.all(args) as CheckRunRow[], total: forAppSuiteCount.get(args) as number };
		},
		/**
		 * Stores an app's check run, in the app's suite for the commit (made when missing).
		 * @param now ISO timestamp
		 */
		insertRun(repoId: number, appId: number, headBranch: string | null, run: NewCheckRun, now: string): CheckRunRow {
			let suiteId = suiteOf.get(repoId, run.head_sha, appId) as number | undefined;
			if (suiteId === undefined) suiteId = Number(insertSuite.run(repoId, appId, run.head_sha, headBranch, now, now).lastInsertRowid);
			else touchSuite.run(now, suiteId);
			const id = Number(insertRun.run({ ...run, suite_id: suiteId, repo_id: repoId, now }).lastInsertRowid);
			return appRunById.get(id, repoId) as CheckRunRow;
		},
		/** Changes an app's check run. @param now ISO timestamp */
		updateRun(repoId: number, id: number, run: Omit<NewCheckRun, 'head_sha'>, now: string): CheckRunRow {
			updateRun.run({ ...run, id, now });
			const row = appRunById.get(id, repoId) as CheckRunRow;
			touchSuite.run(now, row.check_suite_id);
			return row;
		},
	};
}
