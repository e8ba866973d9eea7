/**
 * Finished background tasks are pruned by the `background-tasks-prune` job: done ones after a day,
 * failed ones after 30 days; queued ones never.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { JOBS } from '../src/jobs';
import { PermanentTaskError } from '../src/jobs/tasks';
import { startServer, type TestServer } from './helpers/server';

const test = suite('background tasks prune');
let s: TestServer;

test.before(async () => {
	s = await startServer();
	s.app.tasks.register('test-ok', () => undefined);
	s.app.tasks.register('test-fail', () => {
		throw new PermanentTaskError('cannot');
	});
});
test.after(() => s.close());

const states = () =>
	s.app.db
		.prepare("SELECT kind, state FROM background_tasks WHERE kind LIKE 'test-%' ORDER BY id")
		.all()
		.map((row) => `${(row as { kind: string }).kind}:${(row as { state: string }).state}`);
const prune = () => JOBS.find((job) => job.id === 'background-tasks-prune')!.run(s.app);

test('done tasks go after a day, failed ones after 30 days, queued ones stay', async () => {
	s.app.transaction(() => {
		s.app.tasks.enqueue('test-ok', {});
		s.app.tasks.enqueue('test-fail', {});
	});
	await s.app.tasks.runDue();
	s.app.transaction(() => s.app.tasks.enqueue('test-ok', { later: true }));
	s.clock.advance(2 * 86_400_000);
	// The third task is due but not run: it stays queued.
	assert.equal(states(), ['test-ok:done', 'test-fail:failed', 'test-ok:queued']);
	await prune();
	assert.equal(states(), ['test-fail:failed', 'test-ok:queued'], '~> the done task is gone after a day');
	s.clock.advance(29 * 86_400_000);
	await prune();
	assert.equal(states(), ['test-ok:queued'], '~> the failed one after 30 days; the queued one stays');
});

test.run();
