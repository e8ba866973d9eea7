/**
 * The repository statistics' reads and writes over the commit index (commit_search, schema 37 and
 * 42): which indexed commits still lack their line counts and time zone, and the aggregates the
 * five GET …/stats/* answers are made of, grouped in SQL, merge commits left out (and, for the
 * contributors, empty commits). Times are epoch seconds; weeks start on Sunday 00:00 UTC (epoch
 * day 3 was a Sunday).
 */
import type { DB } from '../../db/open';

/** A commit whose statistics are still to count. */
export interface PendingCommit {
	sha: string;
	tree_sha: string;
	/** JSON array of parent ids. */
	parents: string;
}

/** Counted statistics of one commit. */
export interface CommitStats {
	sha: string;
	/** null: lines not counted (a repository of MAX_LINE_COMMITS commits or more). */
	additions: number | null;
	deletions: number | null;
	/** Minutes east of UTC of the author's time. */
	offset: number;
}

/** The Sunday 00:00 UTC that starts the week of an epoch-seconds column, in SQL. */
const week = (column: string) => `((${column} + 345600) / 604800) * 604800 - 345600`;
const seconds = "CAST(strftime('%s', author_date) AS INTEGER)";
/** GitHub's statistics leave merge commits out (a merge's parents list holds a comma). */
const NO_MERGES = "instr(parents, ',') = 0";
/** Contributor statistics leave empty commits out too: those whose tree is their parent's. */
const NOT_EMPTY = `NOT EXISTS (SELECT 1 FROM commit_search p WHERE p.repo_id = commit_search.repo_id
	AND p.sha = json_extract(commit_search.parents, '$[0]') AND p.tree_sha = commit_search.tree_sha)`;

/** Creates the statistics store. */
export function createStatsStore(db: DB) {
	const count = db.prepare('SELECT count(*) FROM commit_search WHERE repo_id = ?').pluck();
	const pending = db.prepare('SELECT sha, tree_sha, parents FROM commit_search WHERE repo_id = ? AND author_offset IS NULL LIMIT ?');
	const anyPending = db.prepare('SELECT 1 FROM commit_search WHERE repo_id = ? AND author_offset IS NULL LIMIT 1').pluck();
	const uncounted = db.prepare('UPDATE commit_search SET author_offset = NULL WHERE repo_id = ? AND additions IS NULL');
	const set = db.prepare(
		'UPDATE commit_search SET additions = @additions, deletions = @deletions, author_offset = @offset WHERE repo_id = @repoId AND sha = @sha',
	);
	const range = db.prepare(
		`SELECT min(${week(seconds)}) AS first, max(${week(seconds)}) AS last FROM commit_search WHERE repo_id = ? AND ${NO_MERGES}`,
	);
	const byAuthorWeek = db.prepare(`
		SELECT author_id, ${week(seconds)} AS w, count(*) AS c, coalesce(sum(additions), 0) AS a, coalesce(sum(deletions), 0) AS d
		FROM commit_search WHERE repo_id = ? AND author_id IS NOT NULL AND ${NO_MERGES} AND ${NOT_EMPTY} GROUP BY author_id, w`);
	const byWeek = db.prepare(`
		SELECT ${week(seconds)} AS w, coalesce(sum(additions), 0) AS a, coalesce(sum(deletions), 0) AS d
		FROM commit_search WHERE repo_id = ? AND ${NO_MERGES} GROUP BY w ORDER BY w`);
	const byDay = db.prepare(`
		SELECT ${seconds} / 86400 AS day, count(*) AS c, sum(author_id IS @owner) AS owner
		FROM commit_search WHERE repo_id = @repoId AND author_date >= @since AND ${NO_MERGES} GROUP BY day`);
	// The author's local day of the week (0 Sunday) and hour.
	const punch = db.prepare(`
		SELECT ((local / 86400) + 4) % 7 AS day, (local % 86400) / 3600 AS hour, count(*) AS c
		FROM (SELECT ${seconds} + coalesce(author_offset, 0) * 60 AS local FROM commit_search WHERE repo_id = ? AND ${NO_MERGES})
		GROUP BY day, hour`);
	return {
		/** How many commits of the repository are indexed. */
		count: (repoId: number) => count.get(repoId) as number,
		/** Up to `limit` commits still to count. */
		pending: (repoId: number, limit: number) => pending.all(repoId, limit) as PendingCommit[],
		/** Whether some commit is still to count. */
		hasPending: (repoId: number) => anyPending.get(repoId) !== undefined,
		/** Marks the commits whose lines were never counted as still to count (the repository fell below the line-count limit). */
		recountLines: (repoId: number) => void uncounted.run(repoId),
		/** Stores counted statistics (commits no longer indexed are skipped). */
		set(repoId: number, rows: readonly CommitStats[]): void {
			for (const row of rows) set.run({ ...row, repoId });
		},
		/** The first and last week (epoch seconds of its Sunday) with commits, or nulls for none. */
		weeks: (repoId: number) => range.get(repoId) as { first: number | null; last: number | null },
		/** Commits, additions and deletions per author account and week. */
		authorWeeks: (repoId: number) =>
			byAuthorWeek.all(repoId) as Array<{ author_id: number; w: number; c: number; a: number; d: number }>,
		/** Additions and deletions per week with commits, oldest first. */
		codeWeeks: (repoId: number) => byWeek.all(repoId) as Array<{ w: number; a: number; d: number }>,
		/**
		 * Commits per UTC day (epoch days) authored at or after `since` (ISO), with how many of them
		 * the account `ownerId` authored.
		 */
		days: (repoId: number, since: string, ownerId: number) =>
			byDay.all({ repoId, since, owner: ownerId }) as Array<{ day: number; c: number; owner: number }>,
		/** Commits per day of the week (0 Sunday) and hour, in each author's own time zone. */
		punchCard: (repoId: number) => punch.all(repoId) as Array<{ day: number; hour: number; c: number }>,
	};
}
