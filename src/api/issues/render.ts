/**
 * GitHub's issue object and its issue comment.
 * Body fields follow the requested media type (raw default, text, html, full), read from the
 * renderings stored with the rows.
 */
import { nodeId, type Urls } from '../../model/urls';
import type { RepositoryPaths } from '../../model/render';
import { label } from '../../model/render';
import type { LabelRow, AccountRow, IssueCommentRow, IssueRow } from '../../model/rows';
import { bodyFields } from '../../model/markdown/render';
import { reactionRollup } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { AuthorAssociation } from './association';

export interface IssueParts {
	author: AccountRow;
	labels: LabelRow[];
	assignees: AccountRow[];
	association: AuthorAssociation;
	/** The issue's milestone as rendered (GitHub's milestone object), or null. */
	milestone: unknown;
	/** Only a single issue shows closed_by; undefined leaves the field out. */
	closedBy?: AccountRow | null;
	/** A pull request's draft flag and merge time (its pull_requests row); absent for plain issues. */
	pull?: { draft: boolean; merged_at: string | null };
}

/** An issue or pull request (GitHub's issue object). */
export function issue(urls: Urls, paths: RepositoryPaths, row: IssueRow, parts: IssueParts, media: string | null) {
	const url = `${paths.api}/issues/${row.number}`;
	const body = bodyFields(row, media);
	const assignees = parts.assignees.map((account) => simpleUser(urls, account));
	return {
		url,
		repository_url: paths.api,
		labels_url: `${url}/labels{/name}`,
		comments_url: `${url}/comments`,
		events_url: `${url}/events`,
		html_url: `${paths.html}/${row.pull_request ? 'pull' : 'issues'}/${row.number}`,
		id: row.id,
		node_id: nodeId(row.pull_request ? 'PullRequest' : 'Issue', row.id),
		number: row.number,
		title: row.title,
		user: simpleUser(urls, parts.author),
		labels: parts.labels.map((l) => label(paths.api, l)),
		state: row.state,
		locked: row.locked === 1,
		assignee: assignees[0] ?? null,
		assignees,
		milestone: parts.milestone,
		comments: row.comments,
		created_at: row.created_at,
		updated_at: row.updated_at,
		closed_at: row.closed_at,
		author_association: parts.association,
		type: null,
		active_lock_reason: row.active_lock_reason,
		...(row.pull_request
			? {
					draft: parts.pull?.draft ?? false,
					pull_request: {
						url: `${paths.api}/pulls/${row.number}`,
						html_url: `${paths.html}/pull/${row.number}`,
						diff_url: `${paths.html}/pull/${row.number}.diff`,
						patch_url: `${paths.html}/pull/${row.number}.patch`,
						merged_at: parts.pull?.merged_at ?? null,
					},
				}
			: {}),
		...body,
		...(parts.closedBy !== undefined ? { closed_by: parts.closedBy ? simpleUser(urls, parts.closedBy) : null } : {}),
		reactions: reactionRollup(url, row.reaction_counts),
		timeline_url: `${url}/timeline`,
		performed_via_github_app: null,
		state_reason: row.state_reason,
	};
}

/** An issue comment: it carries html_url, issue_url and pin. */
export function issueComment(
	urls: Urls,
	paths: RepositoryPaths,
	issueNumber: number,
	pullRequest: boolean,
	row: IssueCommentRow,
	author: AccountRow,
	association: AuthorAssociation,
	media: string | null,
) {
	const url = `${paths.api}/issues/comments/${row.id}`;
	return {
		url,
		html_url: `${paths.html}/${pullRequest ? 'pull' : 'issues'}/${issueNumber}#issuecomment-${row.id}`,
		issue_url: `${paths.api}/issues/${issueNumber}`,
		id: row.id,
		node_id: nodeId('IssueComment', row.id),
		user: simpleUser(urls, author),
		created_at: row.created_at,
		updated_at: row.updated_at,
		...bodyFields(row, media),
		author_association: association,
		performed_via_github_app: null,
		reactions: reactionRollup(url, row.reaction_counts),
		pin: null,
	};
}
