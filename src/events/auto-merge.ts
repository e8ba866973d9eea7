/**
 * Auto-merge derived from the domain-event log: an event that may let a pull request waiting for
 * auto-merge be merged (a commit status, a completed check run, check suite, workflow job or run, a
 * submitted or dismissed review, a push, a pull request synchronized or marked ready) queues
 * AUTO_MERGE_TASK for each of its repository's open pull requests with auto-merge enabled. The task
 * (src/api/pulls/auto-merge.ts) decides, outside this transaction, whether the base branch's
 * protection now lets it merge. A pull request closed (or merged) loses its request, as on GitHub:
 * reopened, it waits for auto-merge to be enabled again.
 */
import type { App } from '../app';
import type { RepositoryRow } from '../model/rows';
import type { TimelineEntry } from '../model/timeline';

/** The background task that merges a pull request waiting for auto-merge (payload { issueId }). */
export const AUTO_MERGE_TASK = 'pull-request-auto-merge';

/** Event → the actions that may unblock a merge (null: the event has no action). */
const TRIGGERS: Record<string, ReadonlySet<string | null>> = {
	status: new Set([null]),
	push: new Set([null]),
	check_run: new Set(['completed']),
	check_suite: new Set(['completed']),
	workflow_job: new Set(['completed']),
	workflow_run: new Set(['completed']),
	pull_request_review: new Set(['submitted', 'dismissed']),
	pull_request: new Set(['synchronize', 'ready_for_review']),
};

/** Per connection: the statement that finds a waiting task with the same payload. */
const queuedStatements = new WeakMap<App['db'], { get(kind: string, payload: string): unknown }>();

/**
 * Queues AUTO_MERGE_TASK for the repository's waiting pull requests when the event may unblock
 * them (inside the event's transaction; a task already queued for a pull request is not repeated).
 */
export function deriveAutoMerge(
	app: App,
	event: { event: string; action: string | null; repo?: RepositoryRow; timeline?: TimelineEntry[] },
): void {
	if (event.event === 'pull_request' && event.action === 'closed') {
		for (const entry of event.timeline ?? []) if (entry.event === 'closed') app.stores.autoMerges.remove(entry.issueId);
		return;
	}
	if (!event.repo || !TRIGGERS[event.event]?.has(event.action)) return;
	const waiting = app.stores.autoMerges.waitingIn(event.repo.id);
	if (waiting.length === 0) return;
	let statement = queuedStatements.get(app.db);
	if (!statement) {
		statement = app.db.prepare("SELECT 1 FROM background_tasks WHERE state = 'queued' AND kind = ? AND payload = ? LIMIT 1");
		queuedStatements.set(app.db, statement);
	}
	for (const issueId of waiting) {
		const payload = { issueId };
		if (!statement.get(AUTO_MERGE_TASK, JSON.stringify(payload))) app.tasks.enqueue(AUTO_MERGE_TASK, payload);
	}
}
