#!/usr/bin/env node
// Runs the uvu test files in parallel (docs/TESTING.md). Usage:
//   node scripts/run-tests.mjs [options] [PATTERN ...]
// PATTERN: a test file (test/pulls.test.ts, pulls.test.ts) or a regular expression matched against
// the file names (e.g. 'pulls|issues'); patterns choose among all files, fast and slow. Without a
// pattern: the fast set (every file not listed in SLOW below).
//   --slow          the slow set (SLOW below)          --all       both sets
//   --checks        also `npm run build` (first: files that run the bundle wait for it), and
//                   `npm run lint` beside the test files
//   --build         only the build of --checks
//   --typecheck     also `npm run typecheck` beside the test files (test:slow passes it: a type
//                   check from a fresh checkout takes about a minute of one core)
//   --isolate       each file in a fresh `node -r tsx/cjs test/<file>` (default: a few worker
//                   processes, each running files one after another)
//   -j, --jobs N    processes at once (default: cores + 1, or TEST_JOBS)
//   --timeout S     per file, in seconds (default 600)
//   --list          print the chosen files and exit
// Prints one line per file as it ends, then the full output of every failed file; exits 1 when a
// test file or a check failed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEST_DIR = join(ROOT, 'test');
const WORKER = join(ROOT, 'scripts', 'test-worker.cjs');
const TIMES = join(ROOT, 'node_modules', '.cache', 'run-tests', 'times.json');

/**
 * The slow set (`npm run test:slow`, run by CI after `npm test`): files slow by what they check
 * (every route swept, the whole source tree parsed, random cases by the hundred, real child
 * processes and clients), not by how they are written: 5 to 80 s of CPU each, together more than
 * the whole fast set.
 */
export const SLOW = {
	'architecture.test.ts': 'madge parses every source file twice (import cycles, layers)',
	'backup.test.ts': 'backup, restore and check as child processes while a writer writes',
	'binary.test.ts': 'builds the single executable and runs it',
	'cli.test.ts': 'spawns the bundled command about 150 times (every command and its --help)',
	'contention.test.ts': 'admin commands as child processes against a server under concurrent writes',
	'crash.test.ts': 'SIGKILLs a serving child process three times under load',
	'events.test.ts': "every write route of the route table called for real, its events and the organization hook's deliveries checked",
	'fuzz.test.ts': 'fast-check property runs over every route',
	'gh.test.ts': 'the real GitHub CLI behind a TLS front',
	'guards.test.ts': 'every route with every kind of token (thousands of requests)',
	'markdown-cost.test.ts': '100 maximum-size issue comments of pathological Markdown written, rendered and listed',
	'matrix-text.test.ts': 'every route of the permission matrix over HTTP, with and without its permission',
	'merge.test.ts': 'hundreds of random merges compared with the git binary',
	'openapi-document.test.ts': 'compiles every schema of the generated OpenAPI description with ajv',
	'openapi.test.ts': "every route's answers validated against GitHub's OpenAPI schemas",
	'renovate.test.ts': 'Renovate itself (installed once into node_modules/.cache, about 330 MB) run seven times as a child process',
	'robustness.test.ts': 'hostile input on every route for three callers',
	'seed-demo.test.ts': 'seeds the whole demo twice with the bundled command',
	'git-large.test.ts': 'a 100 MB push and SIGKILLs during pushes against the bundled command',
	'web-browser.test.ts': 'a real Chromium driven through sign-in, browsing, tokens and forms',
};

// --- options -------------------------------------------------------------------------------------

const options = {
	set: 'fast',
	checks: false,
	build: false,
	typecheck: false,
	isolate: false,
	jobs: 0,
	timeout: 600,
	list: false,
	patterns: [],
};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
	const arg = args[i];
	if (arg === '--slow') options.set = 'slow';
	else if (arg === '--all') options.set = 'all';
	else if (arg === '--checks') options.checks = options.build = true;
	else if (arg === '--build') options.build = true;
	else if (arg === '--typecheck') options.typecheck = true;
	else if (arg === '--isolate') options.isolate = true;
	else if (arg === '--list') options.list = true;
	else if (arg === '-j' || arg === '--jobs') options.jobs = Number(args[++i]);
	else if (arg === '--timeout') options.timeout = Number(args[++i]);
	else if (arg === '-h' || arg === '--help') {
		const usage = readFileSync(fileURLToPath(import.meta.url), 'utf8')
			.split('\n')
			.slice(1, 17);
		process.stdout.write(`${usage.map((line) => line.replace(/^\/\/ ?/, '')).join('\n')}\n`);
		process.exit(0);
	} else if (arg.startsWith('-')) {
		console.error(`run-tests: unknown option ${arg} (see --help)`);
		process.exit(2);
	} else options.patterns.push(arg);
}
options.jobs ||= Number(process.env.TEST_JOBS) || availableParallelism() + 1;
if (!(options.jobs >= 1) || !(options.timeout > 0)) {
	console.error('run-tests: --jobs and --timeout take a positive number');
	process.exit(2);
}

// --- which files ---------------------------------------------------------------------------------

const allFiles = readdirSync(TEST_DIR)
	.filter((name) => name.endsWith('.test.ts'))
	.sort();
for (const name of Object.keys(SLOW)) if (!allFiles.includes(name)) console.error(`run-tests: SLOW names ${name}, which does not exist`);

let files;
if (options.patterns.length) {
	const matchers = options.patterns.map((pattern) => {
		const asFile = basename(pattern);
		if (asFile.endsWith('.ts')) return (name) => name === asFile;
		let expression = /$^/;
		try {
			expression = new RegExp(pattern);
		} catch (error) {
			console.error(`run-tests: ${error.message}`);
			process.exit(2);
		}
		return (name) => expression.test(name);
	});
	files = allFiles.filter((name) => matchers.some((matches) => matches(name)));
	if (!files.length) {
		console.error(`run-tests: no test file matches ${options.patterns.join(' ')}`);
		process.exit(2);
	}
} else if (options.set === 'fast') files = allFiles.filter((name) => !(name in SLOW));
else if (options.set === 'slow') files = allFiles.filter((name) => name in SLOW);
else files = allFiles;

if (options.list) {
	for (const name of files) console.log(`test/${name}${name in SLOW ? '  (slow)' : ''}`);
	process.exit(0);
}

// --- tasks ---------------------------------------------------------------------------------------

/** Seconds each file took last time (to start the longest first); absent on a fresh checkout. */
let times = {};
try {
	times = JSON.parse(readFileSync(TIMES, 'utf8'));
} catch {}

/** A file that runs the built bundle (or builds the executable) waits for the build. */
const usesBuild = (name) => /helpers\/cli'|build\/gitstead|build\.sh/.test(readFileSync(join(TEST_DIR, name), 'utf8'));

const tasks = [];
if (options.build) tasks.push({ kind: 'check', name: 'build', command: ['npm', 'run', '-s', 'build'], estimate: 1e6 });
if (options.typecheck)
	tasks.push({ kind: 'check', name: 'typecheck', command: ['npm', 'run', '-s', 'typecheck'], estimate: times['(typecheck)'] ?? 1e5 });
if (options.checks) tasks.push({ kind: 'check', name: 'lint', command: ['npm', 'run', '-s', 'lint'], estimate: times['(lint)'] ?? 1e4 });
for (const name of files) {
	tasks.push({
		kind: 'file',
		name,
		needs: options.build && usesBuild(name) ? 'build' : undefined,
		// Unknown files: about a second per 10 kB of test code.
		estimate: times[name] ?? statSync(join(TEST_DIR, name)).size / 10_000,
	});
}
tasks.sort((a, b) => b.estimate - a.estimate);

// --- processes -----------------------------------------------------------------------------------

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const red = paint('31');
const green = paint('32');
const dim = paint('2');
const bold = paint('1');
const childEnv = { ...process.env, ...(color && !process.env.FORCE_COLOR ? { FORCE_COLOR: '1' } : {}) };
const children = new Set();
/** Ends a child and whatever it started (each child leads its own process group). */
function kill(child) {
	try {
		process.kill(-child.pid, 'SIGKILL');
	} catch {
		child.kill('SIGKILL');
	}
}

/** Runs a command to its end: { ok, output, seconds }. */
function runCommand(command, timeoutSeconds) {
	return new Promise((done) => {
		const started = performance.now();
		const child = spawn(command[0], command.slice(1), { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		children.add(child);
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			kill(child);
		}, timeoutSeconds * 1000);
		// Whatever it left running (a server a test forgot) would hold the pipes open.
		child.on('exit', () => kill(child));
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			children.delete(child);
			if (timedOut) output += `\nrun-tests: killed after ${timeoutSeconds} s\n`;
			else if (signal) output += `\nrun-tests: ended by ${signal}\n`;
			done({ ok: code === 0 && !timedOut, output, seconds: (performance.now() - started) / 1000 });
		});
		child.on('error', (error) => {
			output += `\nrun-tests: ${error.message}\n`;
		});
	});
}

const MARKER = `@@run-tests-${randomBytes(6).toString('hex')}@@`;

/** A worker process (scripts/test-worker.cjs) that runs test files one after another. */
class Worker {
	constructor() {
		this.ran = [];
		this.stdout = '';
		this.stderr = '';
		this.current = undefined;
		this.child = spawn(process.execPath, ['-r', 'tsx/cjs', WORKER], {
			cwd: ROOT,
			env: { ...childEnv, RUN_TESTS_MARKER: MARKER },
			stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
			detached: true,
		});
		children.add(this.child);
		this.alive = true;
		this.child.stdout.on('data', (chunk) => {
			this.stdout += chunk;
			this.settle();
		});
		this.child.stderr.on('data', (chunk) => (this.stderr += chunk));
		this.child.on('exit', () => kill(this.child));
		this.child.on('close', (code, signal) => {
			this.alive = false;
			children.delete(this.child);
			if (!this.current) return;
			const earlier = this.ran.length ? `; this worker had run ${this.ran.join(', ')} before it` : '';
			this.finish(false, `\nrun-tests: the worker ended (${signal ?? `exit code ${code}`}) while running this file${earlier}\n`);
		});
	}

	/** Runs one file: { ok, output, seconds }. */
	run(name, timeoutSeconds) {
		return new Promise((done) => {
			this.current = { name, done, started: performance.now() };
			this.current.timer = setTimeout(() => {
				this.current.timedOut = true;
				kill(this.child);
			}, timeoutSeconds * 1000);
			this.child.send({ file: join(TEST_DIR, name) });
		});
	}

	settle() {
		const at = this.stdout.indexOf(MARKER);
		if (at < 0 || !this.current) return;
		const end = this.stdout.indexOf('\n', at);
		if (end < 0) return;
		const { ok, cpu } = JSON.parse(this.stdout.slice(at + MARKER.length, end));
		const output = this.stdout.slice(0, at);
		this.stdout = this.stdout.slice(end + 1);
		this.finish(ok, '', output, cpu);
	}

	finish(ok, note, output = this.stdout, cpu = undefined) {
		const { name, done, started, timer, timedOut } = this.current;
		clearTimeout(timer);
		this.current = undefined;
		this.ran.push(name);
		let text = output + (this.stderr ? `\n${this.stderr}` : '');
		this.stderr = '';
		if (timedOut) text += `\nrun-tests: killed after ${options.timeout} s\n`;
		else text += note;
		done({ ok: ok && !timedOut, output: text, seconds: (performance.now() - started) / 1000, cpu });
	}

	/** Lets the worker exit; resolves when it has. */
	close() {
		if (!this.alive) return Promise.resolve();
		// ('close' does not come after disconnect(); 'exit' does.)
		const exited = new Promise((done) => this.child.on('exit', done));
		this.child.disconnect();
		return exited;
	}
}

// --- the run -------------------------------------------------------------------------------------

const started = performance.now();
// Child processes with an IPC channel do not keep this process alive while it waits for them.
setInterval(() => {}, 60_000);
const results = [];
const settled = new Map(); // check name -> ok
const waiting = []; // resolvers waiting for a check to settle
const idle = [];
const counts = { tests: 0, passed: 0 };
const width = Math.max(...tasks.map((task) => task.name.length));

function report(task, result) {
	results.push({ task, ...result });
	const plain = result.output.replace(/\x1b\[[0-9;]*m/g, '');
	const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0);
	const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0);
	counts.tests += total;
	counts.passed += passed;
	const mark = result.ok ? green('ok  ') : red('FAIL');
	const cpu = result.cpu === undefined ? '' : `${result.cpu.toFixed(1)} cpu`;
	const detail = task.kind === 'check' ? 'npm run' : total ? `${passed}/${total} tests` : '';
	console.log(`${mark} ${result.seconds.toFixed(1).padStart(6)} s  ${task.name.padEnd(width)}  ${dim(`${detail} ${cpu}`.trim())}`);
}

function nextTask() {
	const index = tasks.findIndex((task) => !task.needs || settled.has(task.needs));
	return index < 0 ? undefined : tasks.splice(index, 1)[0];
}

async function slot() {
	for (;;) {
		let task = nextTask();
		while (!task && tasks.length) {
			await new Promise((wake) => waiting.push(wake));
			task = nextTask();
		}
		if (!task) return;
		let result;
		if (task.needs && !settled.get(task.needs)) {
			result = { ok: false, output: `run-tests: not run: ${task.needs} failed\n`, seconds: 0 };
		} else if (task.kind === 'check') {
			result = await runCommand(task.command, 600);
			settled.set(task.name, result.ok);
			for (const wake of waiting.splice(0)) wake();
		} else if (options.isolate) {
			result = await runCommand([process.execPath, '-r', 'tsx/cjs', join('test', task.name)], options.timeout);
		} else {
			let worker = idle.pop();
			while (worker && !worker.alive) worker = idle.pop();
			worker ??= new Worker();
			result = await worker.run(task.name, options.timeout);
			if (worker.alive) idle.push(worker);
		}
		report(task, result);
	}
}

const stop = (signal) => {
	for (const child of children) kill(child);
	process.exit(signal === 'SIGINT' ? 130 : 143);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const jobs = Math.min(options.jobs, tasks.length);
console.log(
	dim(
		`run-tests: ${files.length} test files${options.checks ? ' + build, lint' : options.build ? ' + build' : ''}${options.typecheck ? ', typecheck' : ''}, ` +
			`${jobs} at a time${options.isolate ? ', each in its own process' : ''}`,
	),
);
await Promise.all(Array.from({ length: jobs }, slot));
await Promise.all(idle.map((worker) => worker.close()));

// Remember how long each file took, to start the longest first next time.
for (const { task, seconds } of results) times[task.kind === 'check' ? `(${task.name})` : task.name] = Number(seconds.toFixed(2));
try {
	mkdirSync(dirname(TIMES), { recursive: true });
	writeFileSync(TIMES, `${JSON.stringify(times, null, '\t')}\n`);
} catch {}

const failed = results.filter((result) => !result.ok);
for (const { task, output } of failed) {
	const title = task.kind === 'check' ? `npm run ${task.name}` : `test/${task.name}`;
	console.log(`\n${red(bold(`──── ${title} failed ────`))}\n${output.trimEnd()}`);
}
const wall = ((performance.now() - started) / 1000).toFixed(1);
/** CPU seconds used by the processes this run started and their own children (Linux only). */
function childrenCpu() {
	try {
		const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
		return (Number(fields[13]) + Number(fields[14])) / 100;
	} catch {
		return undefined;
	}
}
const cpu = childrenCpu();
const fileResults = results.filter((result) => result.task.kind === 'file');
const summary =
	`${fileResults.length - failed.filter((r) => r.task.kind === 'file').length}/${fileResults.length} files passed, ` +
	`${counts.passed}/${counts.tests} tests, in ${wall} s${cpu === undefined ? '' : ` (${cpu.toFixed(0)} s of CPU)`}`;
console.log(`\n${failed.length ? red(`${summary}; failed: ${failed.map((r) => r.task.name).join(', ')}`) : green(summary)}`);
process.exit(failed.length ? 1 : 0);
