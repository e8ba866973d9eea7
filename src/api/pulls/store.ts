/**
 * Prepared statements for pull requests: the `pull_requests` row that completes an issue with
 * pull_request = 1 (schema.sql). The issue part (title, body, state, labels, assignees,
 * milestone, comments) stays in the issue tables; lists join the two.
 */
import type { DB } from '../../db/open';
import type { IssueRow, PullRequestRow, PullRow } from '../../model/rows';

export type PullSort = 'created' | 'updated' | 'popularity' | 'long-running';

/** Filters of GET /repos/{owner}/{repo}/pulls, resolved to ids. */
export interface PullFilter {
	repoId: number;
	state: 'open' | 'closed' | 'all';
	/** head filter: the head repository and branch; null: none. headRepoId -1 matches nothing. */
	headRepoId: number | null;
	headRef: string | null;
	baseRef: string | null;
	sort: PullSort;
	direction: 'asc' | 'desc';
	/** ISO timestamp a month before now (long-running: created before it, updated after it). */
	monthAgo: string;
	limit: number;
	offset: number;
}

const PR_COLUMNS = [
	'issue_id',
	'repo_id',
	'head_repo_id',
	'head_ref',
	'head_sha',
	'base_ref',
	'base_sha',
	'draft',
	'maintainer_can_modify',
	'merged_at',
	'merged_by_id',
	'merge_commit_sha',
	'mergeable',
	'mergeable_state',
	'mergeable_head_sha',
	'mergeable_base_sha',
];

const WHERE = `
	p.repo_id = @repoId
	AND (@state = 'all' OR i.state = @state)
	AND (@headRepoId IS NULL OR (p.head_repo_id = @headRepoId AND (@headRef IS NULL OR p.head_ref = @headRef)))
	AND (@baseRef IS NULL OR p.base_ref = @baseRef)
	AND (@sort != 'long-running' OR (i.created_at < @monthAgo AND i.updated_at >= @monthAgo))`;

const ORDER: Record<PullSort, string> = {
	created: 'i.number',
	updated: 'i.updated_at',
	popularity: 'i.comments',
	'long-running': 'i.created_at',
};

export type PullStore = ReturnType<typeof createPullStore>;

/** Prepares the pull-request statements on `db` (src/api/stores.ts). */
export function createPullStore(db: DB) {
	const prefixed = PR_COLUMNS.map((c) => `p.${c} AS "pr.${c}"`).join(', ');
	const split = (row: Record<string, unknown> | undefined): PullRow | undefined => {
		if (!row) return undefined;
		const issue: Record<string, unknown> = {};
		const pr: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(row)) {
			if (key.startsWith('pr.')) pr[key.slice(3)] = value;
			else issue[key] = value;
		}
		return { ...(issue as unknown as IssueRow), pr: pr as unknown as PullRequestRow };
	};
	const select = `SELECT i.*, ${prefixed} FROM pull_requests p JOIN issues i ON i.id = p.issue_id`;
	const byNumber = db.prepare(`${select} WHERE i.repo_id = ? AND i.number = ?`);
	const byIssue = db.prepare(`${select} WHERE p.issue_id = ?`);
	const byIssues = db.prepare('SELECT * FROM pull_requests WHERE issue_id IN (SELECT value FROM json_each(?))');
	const insert = db.prepare(`
		INSERT INTO pull_requests (issue_id, repo_id, head_repo_id, head_ref, head_sha, base_ref, base_sha, draft, maintainer_can_modify)
		VALUES (@issue_id, @repo_id, @head_repo_id, @head_ref, @head_sha, @base_ref, @base_sha, @draft, @maintainer_can_modify)`);
	const markIssue = db.prepare('UPDATE issues SET pull_request = 1, updated_at = ? WHERE id = ?');
	const openWithHead = db.prepare(`${select}
		WHERE p.repo_id = ? AND p.head_repo_id = ? AND p.head_ref = ? AND p.base_ref = ? AND i.state = 'open' LIMIT 1`);
	const openByHead = db.prepare(`${select} WHERE p.head_repo_id = ? AND p.head_ref = ? AND i.state = 'open' AND p.merged_at IS NULL`);
	const openByBase = db.prepare(`${select} WHERE p.repo_id = ? AND p.base_ref = ? AND i.state = 'open' AND p.merged_at IS NULL`);
	const byHeadAt = db.prepare(
		`${select} WHERE p.head_repo_id = ? AND p.head_ref = ? AND p.head_sha = ? ORDER BY p.issue_id DESC LIMIT ?`,
	);
	const setHead = db.prepare('UPDATE pull_requests SET head_sha = ? WHERE issue_id = ?');
	const setBase = db.prepare('UPDATE pull_requests SET base_ref = ?, base_sha = ? WHERE issue_id = ?');
	const setModify = db.prepare('UPDATE pull_requests SET maintainer_can_modify = ? WHERE issue_id = ?');
	const setDraft = db.prepare('UPDATE pull_requests SET draft = ? WHERE issue_id = ?');
	const setMergeability = db.prepare(`
		UPDATE pull_requests SET mergeable = @mergeable, mergeable_state = @state, mergeable_head_sha = @head, mergeable_base_sha = @base
		WHERE issue_id = @issueId`);
	// Merging (src/api/pulls/merge-service.ts).
	const setMerged = db.prepare('UPDATE pull_requests SET merged_at = ?, merged_by_id = ?, merge_commit_sha = ? WHERE issue_id = ?');
	const lists = new Map<string, ReturnType<DB['prepare']>>();
	for (const sort of Object.keys(ORDER) as PullSort[]) {
		for (const direction of ['asc', 'desc']) {
			lists.set(
				`${sort} ${direction}`,
				db.prepare(
					`${select} WHERE ${WHERE} ORDER BY ${ORDER[sort]} ${direction}, i.number ${direction} LIMIT @limit OFFSET @offset`,
				),
			);
		}
	}
	const count = db.prepare(`SELECT count(*) FROM pull_requests p JOIN issues i ON i.id = p.issue_id WHERE ${WHERE}`).pluck();

	return {
		/** The pull request numbered `number` in the repository (undefined for a plain issue). */
		byNumber: (repoId: number, number: number) => split(byNumber.get(repoId, number) as Record<string, unknown> | undefined),
		byIssue: (issueId: number) => split(byIssue.get(issueId) as Record<string, unknown> | undefined),
		/** The pull-request parts of the issues given that are pull requests, by issue id. */
		forIssues(ids: number[]): Map<number, PullRequestRow> {
			if (!ids.length) return new Map();
			return new Map((byIssues.all(JSON.stringify(ids)) as PullRequestRow[]).map((row) => [row.issue_id, row]));
		},
		/** Marks the pull request a draft (1) or ready for review (0). */
		setDraft: (issueId: number, draft: 0 | 1) => void setDraft.run(draft, issueId),
		/** Adds the pull-request part to an issue (and marks the issue a pull request). */
		insert(
			row: Pick<
				PullRequestRow,
				| 'issue_id'
				| 'repo_id'
				| 'head_repo_id'
				| 'head_ref'
				| 'head_sha'
				| 'base_ref'
				| 'base_sha'
				| 'draft'
				| 'maintainer_can_modify'
			>,
			now: string,
		): void {
			insert.run(row);
			markIssue.run(now, row.issue_id);
		},
		/** The open pull request of `repoId` from head repository and branch into the base branch, if any. */
		openWithHead: (repoId: number, headRepoId: number, headRef: string, baseRef: string) =>
			split(openWithHead.get(repoId, headRepoId, headRef, baseRef) as Record<string, unknown> | undefined),
		/** Open, unmerged pull requests whose head is the branch of the repository (any base repository). */
		openByHead: (headRepoId: number, headRef: string) =>
			(openByHead.all(headRepoId, headRef) as Record<string, unknown>[]).map((r) => split(r)!),
		/** The pull requests (any state) whose head is the branch of the repository at `sha`, newest first. */
		byHeadAt: (headRepoId: number, headRef: string, sha: string, limit: number) =>
			(byHeadAt.all(headRepoId, headRef, sha, limit) as Record<string, unknown>[]).map((r) => split(r)!),
		/** Open, unmerged pull requests into the branch of the repository. */
		openByBase: (repoId: number, baseRef: string) =>
			(openByBase.all(repoId, baseRef) as Record<string, unknown>[]).map((r) => split(r)!),
		setHead: (issueId: number, sha: string) => void setHead.run(sha, issueId),
		setBase: (issueId: number, ref: string, sha: string) => void setBase.run(ref, sha, issueId),
		setMaintainerCanModify: (issueId: number, value: boolean) => void setModify.run(value ? 1 : 0, issueId),
		/** Records the mergeability computed for the head and base shas given. */
		setMergeability: (issueId: number, mergeable: boolean | null, state: string, head: string, base: string) =>
			void setMergeability.run({ issueId, mergeable: mergeable === null ? null : mergeable ? 1 : 0, state, head, base }),
		/** Marks the pull request merged (src/api/pulls/merge-service.ts). @param now ISO timestamp */
		setMerged: (issueId: number, now: string, mergedById: number | null, sha: string) =>
			void setMerged.run(now, mergedById, sha, issueId),
		/** One page of a repository's pull requests and the count of all that match. */
		list(filter: PullFilter): { rows: PullRow[]; total: number } {
			const params = { ...filter };
			const rows = (lists.get(`${filter.sort} ${filter.direction}`)!.all(params) as Record<string, unknown>[]).map((r) => split(r)!);
			const { limit: _limit, offset: _offset, ...counted } = params;
			return { rows, total: count.get(counted) as number };
		},
	};
}
