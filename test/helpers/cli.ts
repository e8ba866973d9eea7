/**
 * Runs the gitstead command (the built bundle, or the single executable) as a child process.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const BUNDLE = resolve(__dirname, '../../build/gitstead.cjs');

export interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** The command line of the built bundle: [node, bundle]. */
export const bundleCommand = (): [string, string[]] => [process.execPath, [BUNDLE]];

/** Runs to completion. */
export function run(command: [string, string[]], args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Run {
	const result = spawnSync(command[0], [...command[1], ...args], {
		cwd: options.cwd,
		env: { ...process.env, ...options.env },
		encoding: 'utf8',
		timeout: 30_000,
	});
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs to completion without blocking the event loop (for commands run beside load). */
export function runAsync(
	command: [string, string[]],
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
	return new Promise((resolveRun) => {
		const child = spawn(command[0], [...command[1], ...args], { cwd: options.cwd, env: { ...process.env, ...options.env } });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolveRun({ code, stdout, stderr });
		});
	});
}

export interface Served {
	child: ChildProcess;
	/** e.g. http://127.0.0.1:40000 */
	address: string;
	stdout: () => string;
	stderr: () => string;
	/** SIGTERM and wait for exit; resolves the exit code. */
	stop(): Promise<number | null>;
}

/** Starts `serve --port 0 …` and waits for the listen line. */
export function serve(
	command: [string, string[]],
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Served> {
	const child = spawn(command[0], [...command[1], 'serve', '--port', '0', ...args], {
		cwd: options.cwd,
		env: { ...process.env, ...options.env },
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk) => (stdout += chunk));
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
	return new Promise((resolveServed, reject) => {
		const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stderr}`)), 20_000);
		const check = () => {
			const match = /listen"?[=:]"?(http:\/\/[^\s",]+)/.exec(stderr);
			if (!match) return;
			clearTimeout(timer);
			child.stderr.off('data', check);
			resolveServed({
				child,
				address: match[1],
				stdout: () => stdout,
				stderr: () => stderr,
				stop: () => {
					child.kill('SIGTERM');
					return exited;
				},
			});
		};
		child.stderr.on('data', check);
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`serve exited with ${code}:\n${stderr}`));
		});
	});
}

/** Polls `condition` every 10 ms for up to `ms`. */
export async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
	const until = Date.now() + ms;
	while (!condition()) {
		if (Date.now() > until) throw new Error('timed out waiting');
		await new Promise((done) => setTimeout(done, 10));
	}
}
