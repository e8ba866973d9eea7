/**
 * The machine's git, run against a test server: isolated from the user's configuration, never
 * prompting, asynchronous (the server answers in the test's own process).
 */
import type { Test } from 'uvu';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** True when git is on the PATH. */
export const hasGit = spawnSync('git', ['--version']).status === 0;

/**
 * For a test file that drives git: without git installed, registers one test that says so (and how
 * to install it) in place of the file's tests. Returns whether git is installed.
 */
export function needsGit(test: Test, file: string): boolean {
	if (!hasGit)
		test('git is not installed: skipped', () => console.log(`${file}: git is not installed; skipping (apt-get install -y git)`));
	return hasGit;
}

export interface GitResult {
	status: number;
	out: string;
	err: string;
}

/** A git runner whose HOME is `home` (so nothing outside the test folder is read or written). */
export function gitIn(home: string) {
	const env = (extra: Record<string, string> = {}): Record<string, string> => ({
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: home,
		GIT_CONFIG_NOSYSTEM: '1',
		GIT_CONFIG_GLOBAL: '/dev/null',
		GIT_TERMINAL_PROMPT: '0',
		GIT_ASKPASS: '/bin/false',
		GIT_AUTHOR_NAME: 'Octo Cat',
		GIT_AUTHOR_EMAIL: 'octo@example.com',
		GIT_COMMITTER_NAME: 'Octo Cat',
		GIT_COMMITTER_EMAIL: 'octo@example.com',
		...extra,
	});
	/** Runs git; never rejects. */
	const git = (args: string[], cwd = home, extra: Record<string, string> = {}): Promise<GitResult> =>
		new Promise((resolve) => {
			execFile(
				'git',
				['-c', 'init.defaultBranch=main', '-c', 'advice.detachedHead=false', ...args],
				{ cwd, env: env(extra), encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
				(error, stdout, stderr) => {
					const status = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
					resolve({ status, out: stdout, err: stderr });
				},
			);
		});
	return { git, env };
}

/** Writes files (path → content) below `root`, making folders. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
	for (const [path, content] of Object.entries(files)) {
		const full = join(root, path);
		mkdirSync(dirname(full), { recursive: true });
		writeFileSync(full, content);
	}
}
