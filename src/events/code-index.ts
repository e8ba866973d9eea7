/**
 * The queue side of the code search index (src/api/search/code-index.ts): the writers that move a
 * repository's default branch (a push to it, a new default branch) queue the indexing task here,
 * inside their own transaction, without depending on the search feature; the task itself runs
 * later, outside any request.
 */
import type { App } from '../app';

/** The background task's kind (payload { repoId }). */
export const CODE_INDEX_TASK = 'code-search-index';

/**
 * Queues the indexing of a repository's default branch. Call inside the transaction of the change
 * (a push to the default branch, a new default branch); cheap (one row), the work runs later.
 */
export function enqueueCodeIndex(app: App, repoId: number): void {
	let statement = queuedStatements.get(app.db);
	if (!statement) {
		statement = app.db.prepare("SELECT 1 FROM background_tasks WHERE state = 'queued' AND kind = ? AND payload = ? LIMIT 1");
		queuedStatements.set(app.db, statement);
	}
	const payload = { repoId };
	// One waiting task per repository is enough: it indexes the branch as it is when it runs (a task
	// running now checks the branch again before it ends: runCodeIndexTask).
	if (statement.get(CODE_INDEX_TASK, JSON.stringify(payload))) return;
	app.tasks.enqueue(CODE_INDEX_TASK, payload);
}

/** Per connection: is an indexing task for this repository already waiting? */
const queuedStatements = new WeakMap<App['db'], { get(kind: string, payload: string): unknown }>();
