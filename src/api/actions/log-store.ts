/**
 * Rows of workflow job logs (schema 39): which blob file holds a job's log, its size and the byte
 * range of each step's lines (src/api/actions/logs.ts writes and serves the files).
 */
import type { DB } from '../../db/open';

/** A step's lines in its job's log: bytes [start, end). */
export interface StepRange {
	number: number;
	start: number;
	end: number;
}

/** A job's log as stored. */
export interface JobLogRow {
	job_id: number;
	/** File name in the job-logs folder (the SHA-256 of the bytes, hex). */
	blob: string;
	/** Bytes. */
	size: number;
	/** JSON StepRange[]. */
	steps: string;
}

/** Creates the job log store. */
export function createJobLogStore(db: DB) {
	const insert = db.prepare('INSERT OR REPLACE INTO workflow_job_logs (job_id, blob, size, steps) VALUES (?, ?, ?, ?)');
	const byJob = db.prepare('SELECT * FROM workflow_job_logs WHERE job_id = ?');
	const byJobs = db.prepare('SELECT * FROM workflow_job_logs WHERE job_id IN (SELECT value FROM json_each(?))');
	const blobs = db.prepare('SELECT DISTINCT blob FROM workflow_job_logs').pluck();
	return {
		/** Records a job's log file. */
		set(jobId: number, blob: string, size: number, steps: readonly StepRange[]): void {
			insert.run(jobId, blob, size, JSON.stringify(steps));
		},
		byJob: (jobId: number) => byJob.get(jobId) as JobLogRow | undefined,
		/** The logs of these jobs (those that have one), by job id. */
		byJobs: (jobIds: readonly number[]) => new Map((byJobs.all(JSON.stringify(jobIds)) as JobLogRow[]).map((row) => [row.job_id, row])),
		/** Every file name a row names (the sweep keeps them). */
		blobs: () => blobs.all() as string[],
	};
}
