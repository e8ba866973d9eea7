/**
 * Workflow job logs, as GitHub serves them
 * (https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-run and
 * https://docs.github.com/rest/actions/workflow-runs#download-workflow-run-logs): imported with
 * runs, kept as files of the blob folder (`<blob_dir>/job-logs/<sha-256>`, written before the
 * import's transaction, named by their bytes so equal logs share one file; files no row names
 * are swept after an hour). The API answers 302 to a download URL at the web origin, signed for
 * minutes when the repository is not public (as codeload's): a job's log as text/plain, a run's
 * logs as a zip laid out as GitHub's: `<n>_<job name>.txt` with each job's whole log, and
 * `<job name>/<step number>_<step name>.txt` with each step's lines.
 *
 * Every line starts with its time, as GitHub's logs do (`2026-01-01T10:00:00.0000000Z text`):
 * imported lines without one get their step's (else their job's) start time.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import type * as Yazl from 'yazl';
import type { App } from '../../app';
import { sweepUnnamedFiles } from '../../model/blob-files';
import { unprocessable } from '../../model/errors';
import type { RepositoryRow } from '../../model/rows';
import { allowed, tokenQuery } from '../contents/codeload';
import type { JobLogRow, StepRange } from './log-store';
import type { JobRow } from './store';

/** yazl, loaded at its first zip: its module body is not run by a start. */
let yazlLibrary: typeof Yazl | undefined;
const yazl = () => (yazlLibrary ??= require('yazl') as typeof Yazl);

/** Largest job log imported, in bytes. */
export const MAX_LOG_BYTES = 64 * 1024 * 1024;
const STAMPED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z /;

/** The folder of log files, or null when blob storage is off (storage.blob_dir = ""). */
export function logDir(app: App): string | null {
	return app.config.blobDir === null ? null : join(app.config.blobDir, 'job-logs');
}

/** A log as imported: the job's text, or its steps' (each with its number and start time). */
export interface LogInput {
	/** ISO timestamp: the stamp of lines whose step gives none. */
	startedAt: string;
	text?: string;
	steps: Array<{ number: number; startedAt: string | null; text?: string }>;
}

/** A log's bytes and its steps' ranges, ready to store. */
export interface BuiltLog {
	bytes: Buffer;
	steps: StepRange[];
}

/** GitHub's stamp of an ISO time: 2026-01-01T10:00:00.0000000Z. */
const stamp = (iso: string) => `${iso.replace(/Z$/, '')}.0000000Z`;

/** Lines of `text`, each stamped (the stamp given unless it has one), ending in a newline. */
function stamped(text: string, at: string): string {
	const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
	return lines
		.map((line) => (STAMPED.test(line) ? line : `${stamp(at)} ${line}`))
		.join('\n')
		.concat('\n');
}

/**
 * A job's log from what an import gives: its steps' logs one after the other (the job's own text,
 * if given too, first), or the job's text alone (then no step has lines of its own).
 * @returns null when nothing was given
 * @throws DomainError 422 past MAX_LOG_BYTES
 */
export function buildLog(input: LogInput): BuiltLog | null {
	const parts: Buffer[] = [];
	const steps: StepRange[] = [];
	let size = 0;
	const add = (text: string, at: string) => {
		const bytes = Buffer.from(stamped(text, at));
		size += bytes.length;
		if (size > MAX_LOG_BYTES) throw unprocessable(`A job's log is at most ${MAX_LOG_BYTES} bytes.`);
		parts.push(bytes);
		return bytes.length;
	};
	if (input.text !== undefined) add(input.text, input.startedAt);
	for (const step of input.steps) {
		if (step.text === undefined) continue;
		const start = size;
		add(step.text, step.startedAt ?? input.startedAt);
		steps.push({ number: step.number, start, end: size });
	}
	return parts.length ? { bytes: Buffer.concat(parts), steps } : null;
}

/**
 * Writes a log's file (unless one with the same bytes exists), before the transaction that names
 * it: a crash in between leaves a file the sweep removes.
 * @returns the file name
 * @throws DomainError 422 when blob storage is off
 */
export function writeLogFile(app: App, bytes: Buffer): string {
	const dir = logDir(app);
	if (dir === null)
		throw unprocessable('A blob storage provider must be configured before job logs can be stored (config storage.blob_dir is empty).');
	const name = createHash('sha256').update(bytes).digest('hex');
	const path = join(dir, name);
	if (!existsSync(path)) {
		mkdirSync(dir, { recursive: true });
		const temporary = `${path}.${process.pid}.tmp`;
		writeFileSync(temporary, bytes);
		renameSync(temporary, path);
	}
	return name;
}

/**
 * Deletes log files no row names (left by a failed import, or by rows deleted with their
 * repository), if older than an hour. @param nowMs epoch milliseconds @returns files deleted
 */
export function sweepLogFiles(app: App, nowMs: number): number {
	return sweepUnnamedFiles(logDir(app), () => app.stores.jobLogs.blobs(), nowMs);
}

/** The file of a stored log, when it is there. */
function fileOf(app: App, row: JobLogRow): string | null {
	const dir = logDir(app);
	const path = dir === null ? null : join(dir, row.blob);
	return path && existsSync(path) ? path : null;
}

/** Where a job's log downloads from (what GET …/actions/jobs/{id}/logs redirects to), or null without one. @param nowMs epoch milliseconds */
export function jobLogUrl(app: App, owner: string, repo: RepositoryRow, job: JobRow, nowMs: number): string | null {
	const row = app.stores.jobLogs.byJob(job.id);
	if (!row || !fileOf(app, row)) return null;
	const subject = `job:${job.id}`;
	return app.urls.html(
		`/_logs/${encodeURIComponent(owner)}/${encodeURIComponent(repo.name)}/jobs/${job.id}${tokenQuery(app, repo, 'log', subject, nowMs)}`,
	);
}

/** Where a run's logs download from (a zip), or null when none of its jobs has one. @param nowMs epoch milliseconds */
export function runLogsUrl(app: App, owner: string, repo: RepositoryRow, runId: number, attempt: number, nowMs: number): string | null {
	const jobs = app.stores.actions.jobs(runId, attempt).rows;
	if (app.stores.jobLogs.byJobs(jobs.map((job) => job.id)).size === 0) return null;
	const subject = `run:${runId}:${attempt}`;
	return app.urls.html(
		`/_logs/${encodeURIComponent(owner)}/${encodeURIComponent(repo.name)}/runs/${runId}/attempts/${attempt}/logs.zip${tokenQuery(app, repo, 'log', subject, nowMs)}`,
	);
}

/** A name as one path component of the zip (GitHub leaves out what paths cannot hold). */
const component = (name: string) => name.replace(/[/\\:]/g, '').replace(/^\.+/, '') || '_';

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
	res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
	res.end(text);
}

/**
 * Answers a GET or HEAD of a log download URL (`/_logs/{owner}/{repo}/jobs/{id}`,
 * `/_logs/{owner}/{repo}/runs/{id}/attempts/{n}/logs.zip`): 404 for a wrong, expired or missing
 * token, an unknown job or run, or a log that is gone.
 * @param path the request path without its query
 * @param headers headers every answer carries (request id, CORS)
 * @returns false when the path is not one of these
 */
export function serveLogs(
	app: App,
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	token: string | null,
	headers: Record<string, string>,
): boolean {
	const m = /^\/_logs\/([^/]+)\/([^/]+)\/(?:jobs\/(\d{1,15})|runs\/(\d{1,15})\/attempts\/(\d{1,3})\/logs\.zip)$/.exec(path);
	if (!m) return false;
	const notFound = () => plain(res, 404, '404: Not Found', headers);
	let ownerLogin: string;
	let name: string;
	try {
		ownerLogin = decodeURIComponent(m[1]);
		name = decodeURIComponent(m[2]);
	} catch {
		notFound();
		return true;
	}
	const owner = app.stores.accounts.byLogin(ownerLogin);
	const repo = owner && app.stores.repos.byOwnerAndName(owner.id, name);
	if (!owner || !repo) {
		notFound();
		return true;
	}
	const now = app.clock();
	if (m[3] !== undefined) {
		const job = app.stores.actions.job(repo.id, Number(m[3]));
		const row = job && allowed(app, repo, 'log', `job:${job.id}`, token, now) ? app.stores.jobLogs.byJob(job.id) : undefined;
		const file = row && fileOf(app, row);
		if (!row || !file) {
			notFound();
			return true;
		}
		res.writeHead(200, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(row.size) });
		if (req.method === 'HEAD') res.end();
		else pipeline(createReadStream(file), res, () => undefined);
		return true;
	}
	const runId = Number(m[4]);
	const attempt = Number(m[5]);
	const run = app.stores.actions.run(repo.id, runId);
	if (!run || !allowed(app, repo, 'log', `run:${runId}:${attempt}`, token, now)) {
		notFound();
		return true;
	}
	const jobs = app.stores.actions.jobs(runId, attempt).rows;
	const logs = app.stores.jobLogs.byJobs(jobs.map((job) => job.id));
	const zip = new (yazl().ZipFile)();
	let files = 0;
	jobs.forEach((job, index) => {
		const row = logs.get(job.id);
		const file = row && fileOf(app, row);
		if (!row || !file) return;
		files++;
		const mtime = new Date(Date.parse(job.completed_at ?? job.started_at));
		const dir = component(job.name);
		zip.addReadStreamLazy(`${index + 1}_${dir}.txt`, { mtime }, (callback) => callback(null, createReadStream(file)));
		const steps = JSON.parse(job.steps) as Array<{ number: number; name: string }>;
		for (const range of JSON.parse(row.steps) as StepRange[]) {
			if (range.end <= range.start) continue;
			const step = steps.find((s) => s.number === range.number);
			const entry = `${dir}/${range.number}_${component(step?.name ?? `Step ${range.number}`)}.txt`;
			zip.addReadStreamLazy(entry, { mtime }, (callback) =>
				callback(null, createReadStream(file, { start: range.start, end: range.end - 1 })),
			);
		}
	});
	if (files === 0) {
		notFound();
		return true;
	}
	zip.end();
	res.writeHead(200, {
		...headers,
		'Content-Type': 'application/zip',
		'Content-Disposition': `attachment; filename=logs_${runId}.zip`,
	});
	const body = zip.outputStream as Readable;
	if (req.method === 'HEAD') {
		body.destroy();
		res.end();
		return true;
	}
	pipeline(body, res, () => undefined);
	return true;
}
