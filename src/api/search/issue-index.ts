/**
 * The issues' full-text index (issues_fts), kept after commit instead of by a trigger on every
 * issue write: a pass reads the issues above a persisted watermark (new ones) and the pending list
 * (indexed issues whose title or body changed, or which were deleted: triggers on issues note them)
 * and writes their entries, moving the watermark, in one transaction. Many issues per pass cost a
 * fraction of one trigger's work each (one FTS segment per pass instead of one per commit).
 *
 * When it runs: a pass is scheduled (INDEX_DELAY_MS later) when an issue's title or body is
 * written; the app catches up at start, so a process stopped before its pass loses nothing; and a
 * search catches up before it reads (catchUpIssueIndex), so an issue is found right after the write
 * that created or changed it, whichever process wrote it.
 */
import type { App } from '../../app';

/** How many issues one pass indexes at most (a longer backlog continues on the next turns). */
const PASS_ISSUES = 1000;

/**
 * How long after a write the pass runs: the writes of that time are indexed together (one segment
 * for all of them). Searches do not wait for it (they catch up first).
 */
const INDEX_DELAY_MS = 250;

interface IndexState {
	scheduled: boolean;
	running: boolean;
}

const states = new WeakMap<App, IndexState>();

function stateOf(app: App): IndexState {
	let state = states.get(app);
	if (!state) states.set(app, (state = { scheduled: false, running: false }));
	return state;
}

/**
 * Schedules a pass INDEX_DELAY_MS from now (once however many writes come meanwhile). The timer
 * does not keep the process alive: a command that exits first leaves its issues to the next start
 * or search.
 */
export function scheduleIssueIndexing(app: App): void {
	const state = stateOf(app);
	if (state.scheduled) return;
	state.scheduled = true;
	const run = () => {
		state.scheduled = false;
		if (!app.db.open) return;
		if (indexIssuesPending(app) === PASS_ISSUES) scheduleIssueIndexing(app);
	};
	setTimeout(run, INDEX_DELAY_MS).unref();
}

/**
 * One pass: indexes at most PASS_ISSUES issues above the watermark and PASS_ISSUES pending ones,
 * in one transaction (joining the turn's group when one is open). Never throws (a failure is logged
 * and the watermark stays, so the next pass tries again).
 * @returns the larger of the two counts (PASS_ISSUES: more may wait)
 */
export function indexIssuesPending(app: App): number {
	const state = stateOf(app);
	if (state.running) return 0;
	state.running = true;
	try {
		return app.transaction(() => {
			const index = app.stores.issueIndex;
			const fresh = index.above(index.watermark(), PASS_ISSUES);
			for (const row of fresh) index.write(row);
			if (fresh.length) index.setWatermark(fresh[fresh.length - 1].id);
			const pending = index.pending(PASS_ISSUES);
			for (const row of pending) {
				index.write(row);
				index.settle(row.id);
			}
			return Math.max(fresh.length, pending.length);
		});
	} catch (error) {
		app.log.error('issues not indexed for search', { error });
		return 0;
	} finally {
		state.running = false;
	}
}

/**
 * Indexes whatever is not indexed yet (before a search reads the index, and at start). Costs one
 * statement of two index lookups when nothing waits.
 */
export function catchUpIssueIndex(app: App): void {
	if (stateOf(app).running) return;
	try {
		if (!app.stores.issueIndex.behind()) return;
	} catch (error) {
		app.log.error('issues not indexed for search', { error });
		return;
	}
	while (indexIssuesPending(app) === PASS_ISSUES);
}
