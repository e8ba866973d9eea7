/**
 * Repository statistics (https://docs.github.com/rest/metrics/statistics): contributors, weekly
 * commit activity, code frequency, participation and the punch card of the default branch's
 * history, computed from the commit index (src/api/search/commit-index.ts) off the request path.
 *
 * As on GitHub, the first request for statistics that are not ready answers 202 (empty body) and
 * queues the `repository-stats` background task; it brings the commit index to the branch's head
 * and counts, per commit, the lines added and deleted against its first parent and the author's
 * time zone (STATS_BATCH commits per transaction, yielding between batches). Once the index is at
 * the head and every commit is counted, the answers are aggregates read in SQL. An empty
 * repository answers 204. Repositories of MAX_LINE_COMMITS commits or more get no line counts:
 * contributors' additions and deletions are 0 and code frequency answers 422, as GitHub does.
 * Weeks start on Sunday 00:00 UTC and are given as epoch seconds; days of commit activity are UTC
 * days; the punch card uses each author's own time zone.
 */
import type { App } from '../../app';
import { type DomainError, unprocessable } from '../../model/errors';
import { simpleUser } from '../../model/render';
import type { RepositoryRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { diffTrees, filePatch } from '../git/diff';
import { parseCommit } from '../git/objects';
import { peel, resolveCommit } from '../git/service';
import { indexCommits } from '../search/commit-index';
import { MAX_COMMIT_FILES } from '../commits/service';
import type { CommitStats } from './store';

/** The background task's kind. */
export const STATS_TASK = 'repository-stats';
/** Repositories with this many commits or more get no line counts (GitHub's limit). */
export const MAX_LINE_COMMITS = 10_000;
/** Commits counted per transaction. */
const STATS_BATCH = 100;
/** Seconds in a week and a day. */
const WEEK = 604_800;
const DAY = 86_400;

/** What a statistics request gets: the answer, or not ready (202) or an empty repository (204). */
export type StatsAnswer<T> = { state: 'ready'; value: T } | { state: 'computing' } | { state: 'empty' };

/**
 * Queues the statistics task for a repository unless one is waiting. Call inside a transaction;
 * cheap (one row).
 */
export function enqueueStats(app: App, repoId: number): void {
	let statement = queued.get(app.db);
	if (!statement) {
		statement = app.db.prepare("SELECT 1 FROM background_tasks WHERE state = 'queued' AND kind = ? AND payload = ? LIMIT 1");
		queued.set(app.db, statement);
	}
	if (statement.get(STATS_TASK, JSON.stringify({ repoId }))) return;
	app.tasks.enqueue(STATS_TASK, { repoId });
}
const queued = new WeakMap<App['db'], { get(kind: string, payload: string): unknown }>();

/**
 * Whether the repository's statistics can be read now: its default branch's commit (null: an
 * empty repository) is the indexed head and every indexed commit is counted. When not, queues the
 * task (in its own transaction) and answers 'computing'.
 */
function readiness(app: App, repo: RepositoryRow): 'ready' | 'computing' | 'empty' {
	const head = resolveCommit(app, repo, `refs/heads/${repo.default_branch}`);
	if (!head) return 'empty';
	if (app.stores.commitSearch.state(repo.id) === head && !app.stores.stats.hasPending(repo.id)) return 'ready';
	app.transaction(() => enqueueStats(app, repo.id));
	return 'computing';
}

/** Runs `read` when the statistics are ready. */
function answer<T>(app: App, repo: RepositoryRow, read: () => T): StatsAnswer<T> {
	const state = readiness(app, repo);
	return state === 'ready' ? { state, value: read() } : { state };
}

/** Every week (Sunday, epoch seconds) from `first` to `last`. */
function weekRange(first: number, last: number): number[] {
	const out: number[] = [];
	for (let w = first; w <= last; w += WEEK) out.push(w);
	return out;
}

/**
 * GET …/stats/contributors: each author account with its commits in total and per week (w, a, d,
 * c) over the repository's whole range of weeks, fewest commits first (GitHub's order). Commits by
 * emails of no account are left out. Additions and deletions are 0 at MAX_LINE_COMMITS or more.
 */
export function contributorStats(app: App, repo: RepositoryRow) {
	return answer(app, repo, () => {
		const { stats, accounts } = app.stores;
		const { first, last } = stats.weeks(repo.id);
		if (first === null || last === null) return [];
		const lines = stats.count(repo.id) < MAX_LINE_COMMITS;
		const weeks = weekRange(first, last);
		const byAuthor = new Map<number, Map<number, { a: number; d: number; c: number }>>();
		for (const row of stats.authorWeeks(repo.id)) {
			let map = byAuthor.get(row.author_id);
			if (!map) byAuthor.set(row.author_id, (map = new Map()));
			map.set(row.w, { a: lines ? row.a : 0, d: lines ? row.d : 0, c: row.c });
		}
		const out = [];
		for (const [authorId, map] of byAuthor) {
			const account = accounts.byId(authorId);
			if (!account) continue;
			const total = [...map.values()].reduce((sum, week) => sum + week.c, 0);
			out.push({
				author: simpleUser(app.urls, account),
				total,
				weeks: weeks.map((w) => ({ w, a: 0, d: 0, c: 0, ...map.get(w) })),
			});
		}
		return out.sort((x, y) => x.total - y.total || x.author.id - y.author.id);
	});
}

/**
 * GET …/stats/code_frequency: [week, additions, -deletions] for every week from the first commit's
 * to the last one's.
 * @throws DomainError 422 for a repository of MAX_LINE_COMMITS commits or more
 */
export function codeFrequencyStats(app: App, repo: RepositoryRow) {
	return answer(app, repo, () => {
		const { stats } = app.stores;
		if (stats.count(repo.id) >= MAX_LINE_COMMITS) throw tooManyCommits();
		const { first, last } = stats.weeks(repo.id);
		if (first === null || last === null) return [];
		const byWeek = new Map(stats.codeWeeks(repo.id).map((row) => [row.w, row]));
		return weekRange(first, last).map((w) => [w, byWeek.get(w)?.a ?? 0, -(byWeek.get(w)?.d ?? 0)]);
	});
}

const tooManyCommits = (): DomainError =>
	unprocessable(
		`Code frequency statistics are not available for repositories with ${MAX_LINE_COMMITS.toLocaleString('en')} or more commits`,
	);

/** The Sunday 00:00 UTC starting the week of `nowSeconds`. */
const weekStart = (nowSeconds: number) => Math.floor((nowSeconds + 4 * DAY) / WEEK) * WEEK - 4 * DAY;

/**
 * GET …/stats/commit_activity: the last 52 weeks (the current one last), each with its commits per
 * UTC day from Sunday and its total.
 * @param nowMs epoch milliseconds
 */
export function commitActivityStats(app: App, repo: RepositoryRow, nowMs: number) {
	return answer(app, repo, () => {
		const first = weekStart(Math.floor(nowMs / 1000)) - 51 * WEEK;
		const perDay = new Map(app.stores.stats.days(repo.id, isoSeconds(first * 1000), 0).map((row) => [row.day, row.c]));
		return Array.from({ length: 52 }, (_, i) => {
			const week = first + i * WEEK;
			const days = Array.from({ length: 7 }, (_, d) => perDay.get(week / DAY + d) ?? 0);
			return { days, total: days.reduce((sum, n) => sum + n, 0), week };
		});
	});
}

/**
 * GET …/stats/participation: commits per week over the last 52 weeks, oldest first, the most
 * recent week being the seven days before today's UTC midnight: `all` by everyone, `owner` by the
 * repository's owner. An empty repository answers zeros.
 * @param nowMs epoch milliseconds
 */
export function participationStats(app: App, repo: RepositoryRow, nowMs: number): StatsAnswer<{ all: number[]; owner: number[] }> {
	const zeros = () => Array.from({ length: 52 }, () => 0);
	const state = readiness(app, repo);
	if (state === 'computing') return { state };
	const all = zeros();
	const owner = zeros();
	if (state === 'empty') return { state: 'ready', value: { all, owner } };
	const today = Math.floor(nowMs / 1000 / DAY);
	const firstDay = today - 52 * 7;
	for (const row of app.stores.stats.days(repo.id, isoSeconds(firstDay * DAY * 1000), repo.owner_id)) {
		if (row.day >= today) continue;
		const index = Math.floor((row.day - firstDay) / 7);
		all[index] += row.c;
		owner[index] += row.owner;
	}
	return { state: 'ready', value: { all, owner } };
}

/** GET …/stats/punch_card: [day (0 Sunday), hour, commits] for all 168 hours of the week, in each author's time zone. */
export function punchCardStats(app: App, repo: RepositoryRow) {
	return answer(app, repo, () => {
		const counts = new Map(app.stores.stats.punchCard(repo.id).map((row) => [row.day * 24 + row.hour, row.c]));
		return Array.from({ length: 168 }, (_, i) => [Math.floor(i / 24), i % 24, counts.get(i) ?? 0]);
	});
}

/** Minutes east of UTC of git's offset notation ('+0530' → 330). */
function offsetMinutes(tz: string): number {
	const m = /^([+-])(\d{2})(\d{2})$/.exec(tz);
	if (!m) return 0;
	const minutes = Number(m[2]) * 60 + Number(m[3]);
	return m[1] === '-' ? -minutes : minutes;
}

/** Counts one commit: its author's time zone and, with `lines`, the lines against its first parent. */
function countCommit(app: App, repoId: number, sha: string, treeSha: string, parents: string[], lines: boolean): CommitStats {
	const object = app.stores.git.object(repoId, sha);
	const offset = object && object.type === 'commit' ? offsetMinutes(parseCommit(object.content).author.tz) : 0;
	if (!lines) return { sha, additions: null, deletions: null, offset };
	// A merge adds no lines of its own (git log --shortstat shows none).
	if (parents.length > 1) return { sha, additions: 0, deletions: 0, offset };
	const base = parents.length === 1 ? peel(app, repoId, parents[0], 'tree') : null;
	const { changes } = diffTrees(app, repoId, base, treeSha, MAX_COMMIT_FILES);
	let additions = 0;
	let deletions = 0;
	for (const change of changes) {
		const patch = filePatch(app, repoId, change);
		additions += patch.additions;
		deletions += patch.deletions;
	}
	return { sha, additions, deletions, offset };
}

const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The task's handler: brings the commit index to the default branch, then counts every commit not
 * counted yet, STATS_BATCH per transaction. Idempotent; a repository deleted meanwhile is skipped.
 * @param payload {repoId}
 */
export async function runStatsTask(app: App, payload: unknown): Promise<void> {
	const { repoId } = payload as { repoId: number };
	if (!app.stores.repos.byId(repoId)) return;
	await indexCommits(app, repoId);
	const { stats } = app.stores;
	const lines = stats.count(repoId) < MAX_LINE_COMMITS;
	// Commits indexed while the repository was too large to count lines are counted again.
	if (lines) app.transaction(() => stats.recountLines(repoId));
	for (;;) {
		const batch = stats.pending(repoId, STATS_BATCH);
		if (batch.length === 0) break;
		// Objects are read and diffed outside the transaction; only the counts are written in it.
		const rows = batch.map((row) => countCommit(app, repoId, row.sha, row.tree_sha, JSON.parse(row.parents) as string[], lines));
		app.transaction(() => stats.set(repoId, rows));
		await yieldTurn();
	}
}
