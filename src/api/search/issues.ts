/**
 * Issue and pull request search (GitHub's search syntax: terms, `is:`, `label:`, `author:`, …):
 * the SQL of one search, counted and paged, over what the viewer may read. GET /search/issues and
 * the web interface's issue and pull request lists run it.
 */
import type { Viewer } from '../../auth/access/types';
import { invalidField } from '../../model/errors';
import type { IssueRow } from '../../model/rows';
import { booleanValue, Conditions, countRange, dateRange, matchExpression, parseQuery, type Qualifier } from './query';
import { accountId, inColumns, maybeNot, scopeQualifiers } from './scope';
import { readablePrivateRepositories } from './visibility';
import { catchUpIssueIndex } from './issue-index';

/** A pull request that was merged / is a draft (its pull_requests row). */
const PR_MERGED = '(EXISTS (SELECT 1 FROM pull_requests pm WHERE pm.issue_id = i.id AND pm.merged_at IS NOT NULL))';
const PR_DRAFT = '(EXISTS (SELECT 1 FROM pull_requests pd WHERE pd.issue_id = i.id AND pd.draft = 1))';

export const ISSUE_QUALIFIERS = new Set([
	'user',
	'org',
	'repo',
	'is',
	'type',
	'state',
	'reason',
	'in',
	'author',
	'assignee',
	'mentions',
	'commenter',
	'involves',
	'label',
	'no',
	'milestone',
	'created',
	'updated',
	'closed',
	'comments',
	'archived',
	'draft',
	'linked',
	'project',
	'review-requested',
	'user-review-requested',
	'reviewed-by',
]);
export const ISSUE_SORTS = [
	'comments',
	'reactions',
	'reactions-+1',
	'reactions--1',
	'reactions-smile',
	'reactions-thinking_face',
	'reactions-heart',
	'reactions-tada',
	'interactions',
	'created',
	'updated',
] as const;

function issueSort(sort: (typeof ISSUE_SORTS)[number]): string | null {
	if (sort === 'comments' || sort === 'interactions') return 'i.comments';
	if (sort === 'created') return 'i.created_at';
	if (sort === 'updated') return 'i.updated_at';
	return null; // reactions: Gitstead stores none, every count is 0
}

/** The query of an issue search: q, and sort/order as GET /search/issues takes them. */
export interface IssueSearch {
	q?: string;
	sort?: (typeof ISSUE_SORTS)[number];
	order?: 'asc' | 'desc';
}

/**
 * One page of the issues and pull requests matching a search that the viewer may read, and how
 * many match in all.
 * @returns the rows in order, the total, and the terms and issue columns searched (text matches)
 * @throws HttpError 422 for a qualifier value GitHub refuses or a user:/org:/repo: naming nothing readable
 */
export function findIssues(
	viewer: Viewer,
	query: IssueSearch,
	page: { limit: number; offset: number },
): { total: number; rows: IssueRow[]; terms: string[]; issueColumns: string[] } {
	const { terms, qualifiers } = parseQuery(query.q, ISSUE_QUALIFIERS);
	// Issues written since the indexer's last pass are found too.
	if (terms.length) catchUpIssueIndex(viewer.app);
	const visibleIds = readablePrivateRepositories(viewer, { issues: true });
	const visible = new Set(visibleIds);
	const where = new Conditions();
	// in:title,body,comments (all three by default): the words match in the issue's title and body,
	// or within one of its comments.
	const columns = inColumns(qualifiers, ['title', 'body', 'comments']);
	const issueColumns = columns.filter((column) => column !== 'comments');
	const comments = columns.includes('comments');
	const issueMatch = issueColumns.length ? matchExpression(terms, issueColumns) : null;
	const commentMatch = comments ? matchExpression(terms, ['body']) : null;
	// Ranked by FTS5 (bm25) when only the issue's own text is searched.
	const match = commentMatch ? null : issueMatch;
	if (match) where.add('issues_fts MATCH ?', match);
	else if (commentMatch) {
		const inComments =
			'i.id IN (SELECT c.issue_id FROM issue_comments_fts JOIN issue_comments c ON c.id = issue_comments_fts.rowid WHERE issue_comments_fts MATCH ?)';
		if (issueMatch)
			where.add(`i.id IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH ?) OR ${inComments}`, issueMatch, commentMatch);
		else where.add(inComments, commentMatch);
	}
	where.add("r.visibility = 'public' OR r.id IN (SELECT value FROM json_each(?))", JSON.stringify(visibleIds));
	// Issues of a repository with issues turned off are not found; its pull requests are.
	where.add('i.pull_request = 1 OR r.has_issues = 1');
	scopeQualifiers(viewer, qualifiers, where, visible, 'i.repo_id', 'r.owner_id');
	const labels = (q: Qualifier) =>
		q.value
			.split(',')
			.map((name) => name.trim())
			.filter(Boolean);
	const bad = (q: Qualifier) =>
		invalidField('Search', 'q', `"${q.negated ? '-' : ''}${q.key}:${q.value}" is not a valid qualifier value`);
	for (const q of qualifiers) {
		const value = q.value.toLowerCase();
		switch (q.key) {
			case 'is':
			case 'type':
			case 'state':
				if (value === 'issue' && q.key !== 'state') where.add(`i.pull_request = ${q.negated ? 1 : 0}`);
				else if ((value === 'pr' || value === 'pull-request') && q.key !== 'state')
					where.add(`i.pull_request = ${q.negated ? 0 : 1}`);
				else if ((value === 'open' || value === 'closed') && q.key !== 'type') where.add(maybeNot('i.state = ?', q.negated), value);
				else if ((value === 'public' || value === 'private') && q.key === 'is')
					where.add(maybeNot(value === 'public' ? "r.visibility = 'public'" : "r.visibility <> 'public'", q.negated));
				else if ((value === 'locked' || value === 'unlocked') && q.key === 'is')
					where.add(maybeNot(`i.locked = ${value === 'locked' ? 1 : 0}`, q.negated));
				// Merged and draft read the pull request's row (src/api/pulls): unmerged is closed without a merge.
				else if (value === 'merged' && q.key === 'is') where.add(maybeNot(PR_MERGED, q.negated));
				else if (value === 'draft' && q.key === 'is') where.add(maybeNot(PR_DRAFT, q.negated));
				else if (value === 'unmerged' && q.key === 'is')
					where.add(maybeNot(`i.pull_request = 1 AND i.state = 'closed' AND NOT ${PR_MERGED}`, q.negated));
				else throw bad(q);
				break;
			case 'reason':
				if (
					value !== 'completed' &&
					value !== 'not planned' &&
					value !== 'not_planned' &&
					value !== 'duplicate' &&
					value !== 'reopened'
				)
					throw bad(q);
				where.add(maybeNot('i.state_reason = ?', q.negated), value.replace(' ', '_'));
				break;
			case 'author':
				where.add(maybeNot('i.user_id = ?', q.negated), accountId(viewer, q.value));
				break;
			case 'assignee':
				where.add(
					maybeNot('EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ?)', q.negated),
					accountId(viewer, q.value),
				);
				break;
			case 'mentions':
				where.add(
					maybeNot(
						'gitstead_mentions(i.body, ?) OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = i.id AND gitstead_mentions(c.body, ?))',
						q.negated,
					),
					q.value,
					q.value,
				);
				break;
			case 'review-requested': {
				// Requested directly or through a team the user is an active member of.
				const id = accountId(viewer, q.value);
				where.add(
					maybeNot(
						'EXISTS (SELECT 1 FROM pull_request_review_requests rr WHERE rr.issue_id = i.id AND (rr.user_id = ?' +
							" OR rr.team_id IN (SELECT tm.team_id FROM team_memberships tm WHERE tm.user_id = ? AND tm.state = 'active')))",
						q.negated,
					),
					id,
					id,
				);
				break;
			}
			case 'user-review-requested':
				where.add(
					maybeNot(
						'EXISTS (SELECT 1 FROM pull_request_review_requests rr WHERE rr.issue_id = i.id AND rr.user_id = ?)',
						q.negated,
					),
					accountId(viewer, q.value),
				);
				break;
			case 'reviewed-by':
				where.add(
					maybeNot(
						"EXISTS (SELECT 1 FROM pull_request_reviews rv WHERE rv.issue_id = i.id AND rv.user_id = ? AND rv.state <> 'PENDING')",
						q.negated,
					),
					accountId(viewer, q.value),
				);
				break;
			case 'commenter':
				where.add(
					maybeNot('EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = i.id AND c.user_id = ?)', q.negated),
					accountId(viewer, q.value),
				);
				break;
			case 'involves': {
				const id = accountId(viewer, q.value);
				where.add(
					maybeNot(
						'i.user_id = ? OR EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ?)' +
							' OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = i.id AND (c.user_id = ? OR gitstead_mentions(c.body, ?)))' +
							' OR gitstead_mentions(i.body, ?)',
						q.negated,
					),
					id,
					id,
					id,
					q.value,
					q.value,
				);
				break;
			}
			case 'label':
				// label:a,b matches either; label:a label:b both.
				where.add(
					maybeNot(
						'EXISTS (SELECT 1 FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id AND l.name IN (SELECT value FROM json_each(?)))',
						q.negated,
					),
					JSON.stringify(labels(q)),
				);
				break;
			case 'no':
				if (value === 'label')
					where.add(maybeNot('NOT EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id)', q.negated));
				else if (value === 'assignee')
					where.add(maybeNot('NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id)', q.negated));
				else if (value === 'milestone') where.add(maybeNot('i.milestone_id IS NULL', q.negated));
				// Gitstead has no projects: no issue has one.
				else if (value === 'project') where.add(q.negated ? '0' : '1');
				else throw bad(q);
				break;
			case 'milestone':
				// milestone:TITLE (quoted when it has spaces): the issues in the repository's milestone of that title.
				where.add(
					maybeNot('EXISTS (SELECT 1 FROM milestones m WHERE m.id = i.milestone_id AND m.title = ? COLLATE NOCASE)', q.negated),
					q.value,
				);
				break;
			case 'project':
			case 'linked':
				where.add(q.negated ? '1' : '0');
				break;
			case 'draft':
				where.add(maybeNot(booleanValue(q) ? PR_DRAFT : `i.pull_request = 1 AND NOT ${PR_DRAFT}`, q.negated));
				break;
			case 'archived':
				where.add(maybeNot('r.archived = ?', q.negated), booleanValue(q) ? 1 : 0);
				break;
			case 'created':
				where.time('i.created_at', dateRange(q), q.negated);
				break;
			case 'updated':
				where.time('i.updated_at', dateRange(q), q.negated);
				break;
			case 'closed':
				where.time('i.closed_at', dateRange(q), q.negated);
				break;
			case 'comments':
				where.count('i.comments', countRange(q), q.negated);
				break;
		}
	}
	const from = match
		? 'issues_fts JOIN issues i ON i.id = issues_fts.rowid JOIN repositories r ON r.id = i.repo_id'
		: 'issues i JOIN repositories r ON r.id = i.repo_id';
	const direction = query.order === 'asc' ? 'ASC' : 'DESC';
	const column = query.sort ? issueSort(query.sort) : null;
	// Best match: bm25 over title and body; with comments searched too, issues whose own text
	// matches come first.
	const rankOwnText = !column && !match && issueMatch !== null && commentMatch !== null;
	const orderBy = column
		? `${column} ${direction}, i.id ${direction}`
		: match
			? 'bm25(issues_fts), i.id DESC'
			: rankOwnText
				? 'i.id IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH ?) DESC, i.id DESC'
				: 'i.id DESC';
	const orderParams = rankOwnText ? [issueMatch] : [];
	const { search } = viewer.app.stores;
	const total = search.count(`SELECT count(*) FROM ${from} WHERE ${where.where()}`, where.params);
	const rows = search.all<IssueRow>(`SELECT i.* FROM ${from} WHERE ${where.where()} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
		...where.params,
		...orderParams,
		page.limit,
		page.offset,
	]);
	return { total, rows, terms, issueColumns };
}
