/**
 * GitHub's pull-request shapes (OpenAPI pull-request-simple for lists, pull-request for one pull
 * request, the webhooks and the feeds): the issue's fields (title, body in the requested media
 * type, labels, assignees, milestone) from the issue rendering, plus head and base
 * ({label, ref, sha, user, repo}), _links, the merge fields and, in the full form, the counts.
 */
import { nodeId, type Urls } from '../../model/urls';
import { repository, type RepositoryPaths } from '../../model/render';
import type { RepositoryRow, AccountRow, PullRequestRow } from '../../model/rows';
import { simpleUser } from '../../model/render';
import type { AutoMergeRow } from './auto-merge-store';

/** One side of a pull request: the branch, its commit and the repository holding it (null: deleted). */
export interface PullSide {
	ref: string;
	sha: string;
	repo: RepositoryRow | null;
	owner: AccountRow | null;
}

/** What only the full form shows. */
export interface PullCounts {
	/** Commits of head that base lacks. */
	commits: number;
	additions: number;
	deletions: number;
	changed_files: number;
	/** null: not known (needs the merge engine), or the pull request is closed or merged. */
	mergeable: boolean | null;
	/** GitHub's mergeable_state: clean, blocked, behind, dirty, draft, unstable, has_hooks, unknown. */
	mergeable_state: string;
	/** null: not known yet; whether the commits replay onto the base (GitHub's rebaseable). */
	rebaseable: boolean | null;
	merged_by: AccountRow | null;
	/** Submitted review comments (comments of pending reviews left out). */
	review_comments: number;
}

/** The review requests as the forms show them: users (simple-user) and teams (team). */
export interface RequestedReviewers {
	users: unknown[];
	teams: unknown[];
}

/** The issue as renderIssues gives it (GitHub's issue object). */
type RenderedIssue = Record<string, unknown> & { url: string; number: number };

function side(urls: Urls, s: PullSide) {
	const login = s.owner?.login ?? 'unknown';
	return {
		label: `${login}:${s.ref}`,
		ref: s.ref,
		sha: s.sha,
		user: s.owner ? simpleUser(urls, s.owner) : null,
		repo: s.repo && s.owner ? repository(urls, s.repo, s.owner, null) : null,
	};
}

/** GitHub's auto_merge object of a pull request with auto-merge enabled (src/api/pulls/auto-merge.ts). */
export function autoMerge(urls: Urls, row: AutoMergeRow, enabledBy: AccountRow | undefined) {
	return {
		enabled_by: enabledBy ? simpleUser(urls, enabledBy) : null,
		merge_method: row.merge_method,
		commit_title: row.commit_title ?? '',
		commit_message: row.commit_message ?? '',
	};
}

/**
 * A pull request: the simple form (counts undefined) or the full form.
 * @param issue the issue object of the same row (renderIssues), whose body fields follow the media type
 * @param requested its review requests (src/api/pulls/review-requests.ts)
 * @param autoMergeObject its auto_merge (autoMerge above), null when auto-merge is not enabled
 */
export function pullRequest(
	urls: Urls,
	paths: RepositoryPaths,
	issue: RenderedIssue,
	pr: PullRequestRow,
	head: PullSide,
	base: PullSide,
	requested: RequestedReviewers,
	counts?: PullCounts,
	autoMergeObject: ReturnType<typeof autoMerge> | null = null,
) {
	const api = `${paths.api}/pulls/${issue.number}`;
	const html = `${paths.html}/pull/${issue.number}`;
	const bodyFields: Record<string, unknown> = {};
	for (const key of ['body', 'body_html', 'body_text'] as const) if (key in issue) bodyFields[key] = issue[key];
	const statuses = `${paths.api}/statuses/${pr.head_sha}`;
	const simple = {
		url: api,
		id: issue.id,
		node_id: nodeId('PullRequest', issue.id as number),
		html_url: html,
		diff_url: `${html}.diff`,
		patch_url: `${html}.patch`,
		issue_url: issue.url,
		commits_url: `${api}/commits`,
		review_comments_url: `${api}/comments`,
		review_comment_url: `${paths.api}/pulls/comments{/number}`,
		comments_url: `${issue.url}/comments`,
		statuses_url: statuses,
		number: issue.number,
		state: issue.state,
		locked: issue.locked,
		title: issue.title,
		user: issue.user,
		...bodyFields,
		labels: issue.labels,
		milestone: issue.milestone,
		active_lock_reason: issue.active_lock_reason,
		created_at: issue.created_at,
		updated_at: issue.updated_at,
		closed_at: issue.closed_at,
		merged_at: pr.merged_at,
		merge_commit_sha: pr.merge_commit_sha,
		assignee: issue.assignee,
		assignees: issue.assignees,
		requested_reviewers: requested.users,
		requested_teams: requested.teams,
		head: side(urls, head),
		base: side(urls, base),
		_links: {
			self: { href: api },
			html: { href: html },
			issue: { href: issue.url },
			comments: { href: `${issue.url}/comments` },
			review_comments: { href: `${api}/comments` },
			review_comment: { href: `${paths.api}/pulls/comments{/number}` },
			commits: { href: `${api}/commits` },
			statuses: { href: statuses },
		},
		author_association: issue.author_association,
		auto_merge: autoMergeObject,
		draft: pr.draft === 1,
	};
	if (!counts) return simple;
	return {
		...simple,
		merged: pr.merged_at !== null,
		mergeable: counts.mergeable,
		rebaseable: counts.rebaseable,
		mergeable_state: counts.mergeable_state,
		merged_by: counts.merged_by ? simpleUser(urls, counts.merged_by) : null,
		comments: issue.comments,
		review_comments: counts.review_comments,
		maintainer_can_modify: pr.maintainer_can_modify === 1,
		commits: counts.commits,
		additions: counts.additions,
		deletions: counts.deletions,
		changed_files: counts.changed_files,
	};
}
