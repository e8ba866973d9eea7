// A test worker for scripts/run-tests.mjs: started as `node -r tsx/cjs scripts/test-worker.cjs`, it
// runs the uvu test files the runner sends over IPC ({ file: absolute path }), one at a time, in this
// one process, so the modules every file loads (the server, better-sqlite3, graphql, ...) are loaded
// once per worker instead of once per file. After each file it writes a marker line to stdout
// (RUN_TESTS_MARKER + JSON {ok, cpu: CPU seconds, its child processes included}); everything the file printed before it is that file's output.
// stderr is written to stdout too, so a file's output keeps its order. An uncaught exception ends
// the worker (as it would end `node test/<file>`); the runner reports the file that was running.
'use strict';

// uvu queues suites instead of running them when UVU_DEFER is set (as its own CLI does); exec()
// then runs the queue, prints the summary and sets process.exitCode to 1 on a failure.
globalThis.UVU_DEFER = 1;
const uvu = require('uvu');

const marker = process.env.RUN_TESTS_MARKER;
if (!marker || !process.send) throw new Error('scripts/test-worker.cjs is started by scripts/run-tests.mjs');

/** CPU seconds of this process and of the children it has waited for (Linux; else this process only). */
function cpuSeconds() {
	const own = process.cpuUsage();
	let children = 0;
	try {
		const fields = require('node:fs').readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
		children = (Number(fields[13]) + Number(fields[14])) / 100;
	} catch {}
	return (own.user + own.system) / 1e6 + children;
}

const writeOut = process.stdout.write.bind(process.stdout);
process.stderr.write = (chunk, encoding, callback) => writeOut(chunk, encoding, callback);

process.on('message', async (message) => {
	const queue = globalThis.UVU_QUEUE;
	queue.length = 0;
	queue.push([null]);
	globalThis.UVU_INDEX = 0;
	let ok = true;
	const cpu = cpuSeconds();
	try {
		require(message.file);
		await uvu.exec();
		ok = !process.exitCode;
	} catch (error) {
		console.error(error);
		ok = false;
	}
	process.exitCode = 0;
	writeOut(`\n${marker}${JSON.stringify({ ok, cpu: cpuSeconds() - cpu })}\n`);
});
// The runner closes the channel when there is nothing left to run; a file may have left a timer
// or a socket behind, so exit explicitly.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
