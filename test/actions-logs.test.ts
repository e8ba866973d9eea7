/**
 * Workflow job logs: imported with runs (job and step logs, stamped lines, one file per distinct
 * log in the blob folder), GET …/actions/jobs/{id}/logs (302 to text/plain) and GET
 * …/actions/runs/{id}/logs (302 to a zip laid out as GitHub's), signed download URLs for private
 * repositories, 404 without logs; and gh run view --log / --log-failed (gh 2.23 behind a TLS front,
 * skipped with a message when `which gh` finds no gh).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importRuns } from '../src/api/actions/import';
import { startServer, type TestServer } from './helpers/server';
import { findGh, runGh, tlsFront, type TlsFront } from './helpers/tls';

const test = suite('actions-logs');
const gh = findGh();
let s: TestServer;
let front: TlsFront | undefined;
let olivia: string;
let runId: number;
let privateRunId: number;

const T0 = '2026-03-01T10:00:00Z';
const description = (failing: boolean) => ({
	runs: [
		{
			path: 'ci.yml',
			name: 'CI',
			status: 'completed',
			conclusion: failing ? 'failure' : 'success',
			created_at: T0,
			jobs: [
				{
					name: 'build',
					status: 'completed',
					conclusion: 'success',
					started_at: T0,
					completed_at: '2026-03-01T10:01:00Z',
					steps: [
						{ name: 'Set up job', status: 'completed', conclusion: 'success', number: 1, started_at: T0, log: 'Runner ready' },
						{
							name: 'Run make',
							status: 'completed',
							conclusion: 'success',
							number: 2,
							started_at: '2026-03-01T10:00:05Z',
							log: 'make all\n2026-03-01T10:00:30.1234567Z built 3 targets',
						},
					],
				},
				{
					name: 'test',
					needs: ['build'],
					status: 'completed',
					conclusion: failing ? 'failure' : 'success',
					started_at: '2026-03-01T10:01:00Z',
					completed_at: '2026-03-01T10:02:00Z',
					steps: [
						{ name: 'Set up job', status: 'completed', conclusion: 'success', number: 1, log: 'Runner ready' },
						{
							name: 'Run tests',
							status: 'completed',
							conclusion: failing ? 'failure' : 'success',
							number: 2,
							log: failing ? 'FAIL engine.test.ts\nError: Process completed with exit code 1.' : 'ok',
						},
					],
				},
			],
		},
	],
});

/** The entries of a zip (read with unzip): name → text. */
function unzip(bytes: Buffer): Map<string, string> {
	const dir = mkdtempSync(join(tmpdir(), 'gitstead-logs-'));
	const file = join(dir, 'logs.zip');
	writeFileSync(file, bytes);
	const names = execFileSync('unzip', ['-Z1', file]).toString().split('\n').filter(Boolean);
	const out = new Map(names.map((name) => [name, execFileSync('unzip', ['-p', file, name]).toString()]));
	rmSync(dir, { recursive: true, force: true });
	return out;
}

/** Follows a 302 to the download URL (no credentials: it is signed). */
async function download(location: string) {
	const res = await fetch(location);
	return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

test.before(async () => {
	s = await startServer();
	s.user('olivia');
	olivia = s.fullToken('olivia');
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'web', auto_init: true } });
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'vault', auto_init: true, private: true } });
	runId = importRuns(s.app, 'olivia/web', description(true)).run_ids[0];
	privateRunId = importRuns(s.app, 'olivia/vault', description(false)).run_ids[0];
	if (gh) front = await tlsFront(Number(new URL(s.origin).port));
});
test.after(async () => {
	await front?.close();
	await s.close();
});

test('GET …/jobs/{id}/logs: 302 to the job log as text/plain, every line stamped', async () => {
	const jobs = (await s.get(`/repos/olivia/web/actions/runs/${runId}/jobs`, olivia)).body.jobs;
	const build = jobs.find((j: any) => j.name === 'build');
	const res = await s.get(`/repos/olivia/web/actions/jobs/${build.id}/logs`, olivia);
	assert.is(res.status, 302);
	const file = await download(res.headers.get('location')!);
	assert.is(file.status, 200);
	assert.match(file.type ?? '', 'text/plain');
	assert.equal(file.bytes.toString().split('\n'), [
		'2026-03-01T10:00:00.0000000Z Runner ready',
		'2026-03-01T10:00:05.0000000Z make all',
		'2026-03-01T10:00:30.1234567Z built 3 targets',
		'',
	]);
	// Anonymous callers read a public repository's logs.
	assert.is((await s.get(`/repos/olivia/web/actions/jobs/${build.id}/logs`)).status, 302);
});

test('GET …/runs/{id}/logs: 302 to a zip with each job and each step', async () => {
	const res = await s.get(`/repos/olivia/web/actions/runs/${runId}/logs`, olivia);
	assert.is(res.status, 302);
	const file = await download(res.headers.get('location')!);
	assert.is(file.type, 'application/zip');
	const entries = unzip(file.bytes);
	assert.equal([...entries.keys()].sort(), [
		'1_build.txt',
		'2_test.txt',
		'build/1_Set up job.txt',
		'build/2_Run make.txt',
		'test/1_Set up job.txt',
		'test/2_Run tests.txt',
	]);
	assert.match(entries.get('test/2_Run tests.txt')!, 'Z FAIL engine.test.ts\n');
	assert.not.match(entries.get('test/2_Run tests.txt')!, 'Runner ready');
	assert.is(entries.get('1_build.txt'), entries.get('build/1_Set up job.txt')! + entries.get('build/2_Run make.txt')!);
});

test('private repositories: signed download URLs; logs stored once per distinct content; 404 without logs', async () => {
	const res = await s.get(`/repos/olivia/vault/actions/runs/${privateRunId}/logs`, olivia);
	assert.is(res.status, 302);
	const location = res.headers.get('location')!;
	assert.match(location, /token=\d+\.[0-9a-f]{64}$/);
	assert.is((await download(location)).status, 200);
	assert.is((await download(location.replace(/token=.*$/, 'token=1.00'))).status, 404);
	assert.is((await download(location.replace(/\?token=.*$/, ''))).status, 404);
	assert.is(
		(await s.get(`/repos/olivia/vault/actions/runs/${privateRunId}/logs`)).status,
		404,
		'~> anonymous callers see no private run',
	);
	// build's log is the same in both imports: one file for both.
	const files = readdirSync(join(s.app.config.blobDir!, 'job-logs'));
	assert.is(files.length, 3, '~> build, the failing test and the passing test');
	const bare = importRuns(s.app, 'olivia/web', [{ path: 'ci.yml', status: 'completed', conclusion: 'success' }]).run_ids[0];
	assert.is((await s.get(`/repos/olivia/web/actions/runs/${bare}/logs`, olivia)).status, 404);
});

test('gh run view --log and --log-failed', async () => {
	if (!front) {
		console.log('test/actions-logs.test.ts: gh run view --log skipped — the gh CLI is not installed (`which gh` found nothing)');
		return;
	}
	const all = await runGh(front, olivia, ['run', 'view', String(runId), '--log', '-R', 'olivia/web']);
	assert.is(all.code, 0, all.stderr);
	assert.match(all.stdout, 'build\tRun make\t2026-03-01T10:00:30.1234567Z built 3 targets');
	assert.match(all.stdout, 'test\tRun tests\t2026-03-01T10:01:00.0000000Z FAIL engine.test.ts');
	const failed = await runGh(front, olivia, ['run', 'view', String(runId), '--log-failed', '-R', 'olivia/web']);
	assert.is(failed.code, 0, failed.stderr);
	assert.match(failed.stdout, 'FAIL engine.test.ts');
	assert.not.match(failed.stdout, 'make all');
});

test.run();
