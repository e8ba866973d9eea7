/**
 * Prepared statements for issues (pull requests included), their assignees, and issue comments.
 * repositories.open_issues_count is kept by triggers (schema.sql). A comment's body is rendered
 * here, when it is written, and stored next to the source (body_html, body_text). An issue's body is
 * rendered on the first read that shows it (src/api/issues/service.ts withRenderedBodies) and then
 * kept in the row: body_html is null until then (and after an edit of the body).
 */
import type { DB } from '../../db/open';
import type { AccountRow, IssueCommentRow, IssueRow } from '../../model/rows';
import { renderBody } from '../../model/markdown/render';
import { ORGANIZATION_ROLE_RANK_SQL } from '../roles/catalog';

export type IssueSort = 'created' | 'updated' | 'comments';
export type Direction = 'asc' | 'desc';

/** Filters of GET /repos/{owner}/{repo}/issues, resolved to ids. */
export interface IssueFilter {
	repoId: number;
	state: 'open' | 'closed' | 'all';
	/** null: any creator */
	creatorId: number | null;
	/** 'any' | 'none' | 'user' (assigneeId) | null: no filter */
	assignee: 'any' | 'none' | 'user' | null;
	assigneeId: number | null;
	/** login mentioned in the body or a comment; null: no filter */
	mentioned: string | null;
	/** label names that must all be on the issue (distinct, case-insensitively) */
	labels: string[];
	/** ISO timestamp: updated at or after */
	since: string | null;
	/** milestone filter: 'none' (no milestone), 'any' (some milestone), 'id' (milestoneId), null: no filter */
	milestone: 'none' | 'any' | 'id' | null;
	milestoneId: number | null;
	/** true when a filter can match nothing (an issue type: Gitstead has none) */
	none: boolean;
	/** Issues only (false), pull requests only (true); undefined or null: both. */
	pullRequests?: boolean | null;
	/**
	 * GitHub's GraphQL states (OPEN, CLOSED, MERGED: a closed pull request that was merged), any of
	 * which matches; undefined or null: no filter. Applies with `state`.
	 */
	states?: ReadonlyArray<'OPEN' | 'CLOSED' | 'MERGED'> | null;
	/** `labels` match when the issue carries any of them (GraphQL's `labels` argument) rather than all. */
	anyLabel?: boolean;
	/** Pull requests whose head branch (of any repository) has this name; undefined or null: no filter. */
	headRef?: string | null;
	/** Pull requests into this base branch; undefined or null: no filter. */
	baseRef?: string | null;
	sort: IssueSort;
	direction: Direction;
	limit: number;
	offset: number;
}

/** Filters of GET /repos/{owner}/{repo}/issues/comments. */
export interface CommentFilter {
	repoId: number;
	/** null: ascending id (no sort parameter) */
	sort: 'created' | 'updated' | null;
	direction: Direction;
	/** ISO timestamp: updated at or after */
	since: string | null;
	limit: number;
	offset: number;
}

/** True when `text` mentions @login (a whole login, case-insensitively). */
export function mentions(text: string | null, login: string): boolean {
	if (!text) return false;
	const lower = text.toLowerCase();
	const needle = `@${login.toLowerCase()}`;
	for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
		const before = at === 0 ? '' : lower[at - 1];
		const after = lower[at + needle.length] ?? '';
		if (!/[a-z0-9_`]/.test(before) && !/[a-z0-9-]/.test(after)) return true;
	}
	return false;
}

const ISSUE_WHERE = `
	i.repo_id = @repoId AND @none = 0
	AND (@state = 'all' OR i.state = @state)
	AND (@milestone IS NULL OR (@milestone = 'none' AND i.milestone_id IS NULL) OR (@milestone = 'any' AND i.milestone_id IS NOT NULL)
		OR (@milestone = 'id' AND i.milestone_id = @milestoneId))
	AND (@creatorId IS NULL OR i.user_id = @creatorId)
	AND (@assignee IS NULL
		OR (@assignee = 'none' AND NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id))
		OR (@assignee = 'any' AND EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id))
		OR (@assignee = 'user' AND EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = @assigneeId)))
	AND (@labelCount = 0 OR (SELECT count(*) FROM issue_labels il JOIN labels l ON l.id = il.label_id
		WHERE il.issue_id = i.id AND l.name IN (SELECT value FROM json_each(@labels))) >= (CASE WHEN @anyLabel = 1 THEN 1 ELSE @labelCount END))
	AND (@pullRequests IS NULL OR i.pull_request = @pullRequests)
	AND (@states IS NULL OR (CASE WHEN i.state = 'open' THEN 'OPEN'
		WHEN EXISTS (SELECT 1 FROM pull_requests pm WHERE pm.issue_id = i.id AND pm.merged_at IS NOT NULL) THEN 'MERGED'
		ELSE 'CLOSED' END) IN (SELECT value FROM json_each(@states)))
	AND (@mentioned IS NULL OR gitstead_mentions(i.body, @mentioned)
		OR EXISTS (SELECT 1 FROM issue_comments c WHERE c.issue_id = i.id AND gitstead_mentions(c.body, @mentioned)))
	AND (@since IS NULL OR i.updated_at >= @since)
	AND (@headRef IS NULL AND @baseRef IS NULL OR EXISTS (SELECT 1 FROM pull_requests pb WHERE pb.issue_id = i.id
		AND (@headRef IS NULL OR pb.head_ref = @headRef) AND (@baseRef IS NULL OR pb.base_ref = @baseRef)))`;

const ISSUE_ORDER: Record<IssueSort, string> = { created: 'i.number', updated: 'i.updated_at', comments: 'i.comments' };

/** Whose repository the assignable users are computed for (GET …/assignees, resolveAssignees). */
export interface AssignableScope {
	repoId: number;
	ownerId: number;
	/** 1: an organization's repository; 0: a user's */
	org: 0 | 1;
	/**
	 * The rank (pull 1 … admin 5) every active member of the organization holds: the base permission,
	 * at least read on a public or internal repository; 0 for none.
	 */
	memberRank: number;
}

const RANK_SQL = (column: string) =>
	`(CASE ${column} WHEN 'pull' THEN 1 WHEN 'triage' THEN 2 WHEN 'push' THEN 3 WHEN 'maintain' THEN 4 WHEN 'admin' THEN 5 ELSE 0 END)`;

/**
 * GitHub's assignable users of a repository, the rule of userRepoPermission in one statement:
 * users with triage access or more (owner, collaborators, teams with their parents' grants,
 * organization owners), and active members of the organization who can read it at all.
 */
const ASSIGNABLE = `
	WITH RECURSIVE granted(id, rank) AS (
		SELECT team_id, ${RANK_SQL('permission')} FROM team_repositories WHERE repo_id = @repoId AND @org = 1
		UNION SELECT t.id, g.rank FROM teams t JOIN granted g ON t.parent_id = g.id
	),
	grants(user_id, rank, member) AS (
		SELECT user_id, ${RANK_SQL('permission')}, 0 FROM repository_collaborators WHERE repo_id = @repoId AND (@userId IS NULL OR user_id = @userId)
		UNION ALL SELECT tm.user_id, g.rank, 0 FROM team_memberships tm JOIN granted g ON g.id = tm.team_id
			WHERE tm.state = 'active' AND (@userId IS NULL OR tm.user_id = @userId)
		UNION ALL SELECT @ownerId, 5, 0 WHERE @org = 0 AND (@userId IS NULL OR @ownerId = @userId)
		UNION ALL SELECT m.user_id, CASE WHEN m.role = 'admin' THEN 5 ELSE @memberRank END, 1 FROM org_memberships m
			WHERE @org = 1 AND m.org_id = @ownerId AND m.state = 'active' AND (@userId IS NULL OR m.user_id = @userId)
		-- Organization roles (all_repo_*) of active members, held directly or through a team.
		UNION ALL SELECT h.user_id, ${ORGANIZATION_ROLE_RANK_SQL('h.role_id')}, 1 FROM (
			SELECT user_id, role_id FROM organization_role_assignments WHERE @org = 1 AND org_id = @ownerId AND user_id IS NOT NULL
			UNION ALL
			SELECT tm.user_id, a.role_id FROM organization_role_assignments a JOIN team_memberships tm ON tm.team_id = a.team_id AND tm.state = 'active'
				WHERE @org = 1 AND a.org_id = @ownerId AND a.team_id IS NOT NULL
		) h JOIN org_memberships om ON om.org_id = @ownerId AND om.user_id = h.user_id AND om.state = 'active'
			WHERE @userId IS NULL OR h.user_id = @userId
	),
	best(user_id) AS (
		SELECT user_id FROM grants GROUP BY user_id HAVING max(rank) >= 2 OR (max(member) = 1 AND max(rank) >= 1)
	)`;

export type IssueStore = ReturnType<typeof createIssueStore>;

export function createIssueStore(db: DB) {
	db.function('gitstead_mentions', { deterministic: true }, (text: unknown, login: unknown) =>
		mentions(typeof text === 'string' ? text : null, String(login)) ? 1 : 0,
	);
	const byNumber = db.prepare('SELECT * FROM issues WHERE repo_id = ? AND number = ?');
	const byId = db.prepare('SELECT * FROM issues WHERE id = ?');
	const byIds = db.prepare('SELECT * FROM issues WHERE id IN (SELECT value FROM json_each(?))');
	// A number an issue left behind (transferred, deleted) is never given again.
	const nextNumber = db
		.prepare(
			'SELECT max(coalesce((SELECT max(number) FROM issues WHERE repo_id = @repo), 0), coalesce((SELECT max(number) FROM issue_tombstones WHERE repo_id = @repo), 0)) + 1',
		)
		.pluck();
	const insert = db.prepare(`
		INSERT INTO issues (repo_id, number, title, body, user_id, pull_request, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
	const update = db.prepare(`
		UPDATE issues SET title = @title, body = @body, body_html = @body_html, body_text = @body_text, state = @state,
			state_reason = @state_reason, closed_by_id = @closed_by_id, closed_at = @closed_at, updated_at = @now WHERE id = @id`);
	const storedBody = db.prepare('SELECT title, body, body_html, body_text FROM issues WHERE id = ?');
	// Only while the body is still the one rendered and nothing was kept yet.
	const keepRendering = db.prepare(
		'UPDATE issues SET body_html = @body_html, body_text = @body_text WHERE id = @id AND body = @body AND body_html IS NULL',
	);
	const lock = db.prepare('UPDATE issues SET locked = ?, active_lock_reason = ?, updated_at = ? WHERE id = ?');
	const touch = db.prepare('UPDATE issues SET updated_at = ? WHERE id = ?');
	const setMilestone = db.prepare('UPDATE issues SET milestone_id = ? WHERE id = ?');
	const openCounts = db.prepare(
		"SELECT coalesce(sum(pull_request = 0), 0) AS issues, coalesce(sum(pull_request = 1), 0) AS pulls FROM issues WHERE repo_id = ? AND state = 'open'",
	);
	const lists = new Map<string, ReturnType<DB['prepare']>>();
	for (const sort of Object.keys(ISSUE_ORDER) as IssueSort[]) {
		for (const direction of ['asc', 'desc'] as Direction[]) {
			lists.set(
				`${sort} ${direction}`,
				db.prepare(`SELECT i.* FROM issues i WHERE ${ISSUE_WHERE}
					ORDER BY ${ISSUE_ORDER[sort]} ${direction}, i.number ${direction} LIMIT @limit OFFSET @offset`),
			);
		}
	}
	const count = db.prepare(`SELECT count(*) FROM issues i WHERE ${ISSUE_WHERE}`).pluck();

	const assignees = db.prepare(`
		SELECT issue_id, user_id FROM issue_assignees WHERE issue_id IN (SELECT value FROM json_each(?)) ORDER BY issue_id, position`);
	const clearAssignees = db.prepare('DELETE FROM issue_assignees WHERE issue_id = ?');
	const addAssignee = db.prepare(`
		INSERT OR IGNORE INTO issue_assignees (issue_id, user_id, position)
		VALUES (@issueId, @userId, (SELECT coalesce(max(position), 0) + 1 FROM issue_assignees WHERE issue_id = @issueId))`);
	const removeAssignee = db.prepare('DELETE FROM issue_assignees WHERE issue_id = ? AND user_id = ?');
	const assignedIn = db.prepare(`
		SELECT i.* FROM issue_assignees a JOIN issues i ON i.id = a.issue_id WHERE a.user_id = ? AND i.repo_id = ? ORDER BY i.id`);

	// @query: a lower-case part of the login or name (GraphQL's assignableUsers(query:)), null for all.
	const ASSIGNABLE_WHERE = `a.type = 'User'
		AND (@query IS NULL OR instr(lower(a.login), @query) > 0 OR instr(lower(coalesce(a.name, '')), @query) > 0)`;
	const assignablePage = db.prepare(`${ASSIGNABLE}
		SELECT a.* FROM accounts a JOIN best b ON b.user_id = a.id WHERE ${ASSIGNABLE_WHERE}
		ORDER BY a.login COLLATE NOCASE, a.id LIMIT @limit OFFSET @offset`);
	const assignableCount = db
		.prepare(`${ASSIGNABLE} SELECT count(*) FROM accounts a JOIN best b ON b.user_id = a.id WHERE ${ASSIGNABLE_WHERE}`)
		.pluck();

	const comment = db.prepare('SELECT * FROM issue_comments WHERE repo_id = ? AND id = ?');
	const insertComment = db.prepare(
		'INSERT INTO issue_comments (repo_id, issue_id, user_id, body, body_html, body_text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
	);
	const updateComment = db.prepare('UPDATE issue_comments SET body = ?, body_html = ?, body_text = ?, updated_at = ? WHERE id = ?');
	const removeComment = db.prepare('DELETE FROM issue_comments WHERE id = ?');
	const countComments = db.prepare('UPDATE issues SET comments = comments + ?, updated_at = ? WHERE id = ?');
	const issueComments = db.prepare(`
		SELECT * FROM issue_comments WHERE issue_id = @issueId AND (@since IS NULL OR updated_at > @since)
		ORDER BY id LIMIT @limit OFFSET @offset`);
	const issueCommentTotal = db
		.prepare('SELECT count(*) FROM issue_comments WHERE issue_id = @issueId AND (@since IS NULL OR updated_at > @since)')
		.pluck();
	const COMMENT_WHERE = 'repo_id = @repoId AND (@since IS NULL OR updated_at > @since)';
	const repoComments = new Map<string, ReturnType<DB['prepare']>>();
	repoComments.set('id', db.prepare(`SELECT * FROM issue_comments WHERE ${COMMENT_WHERE} ORDER BY id LIMIT @limit OFFSET @offset`));
	for (const sort of ['created', 'updated'] as const) {
		for (const direction of ['asc', 'desc'] as Direction[]) {
			repoComments.set(
				`${sort} ${direction}`,
				db.prepare(`SELECT * FROM issue_comments WHERE ${COMMENT_WHERE}
					ORDER BY ${sort}_at ${direction}, id ${direction} LIMIT @limit OFFSET @offset`),
			);
		}
	}
	const repoCommentTotal = db.prepare(`SELECT count(*) FROM issue_comments WHERE ${COMMENT_WHERE}`).pluck();
	const textListeners: Array<() => void> = [];
	const textWritten = () => {
		for (const listener of textListeners) listener();
	};

	return {
		/**
		 * Registers a callback for an issue inserted or its title or body written through this store
		 * (the search index follows after commit: src/api/search/issue-index.ts).
		 */
		onTextWritten: (listener: () => void) => void textListeners.push(listener),
		/** Open issues and open pull requests of a repository (the web interface's tab counters). */
		openCounts: (repoId: number) => openCounts.get(repoId) as { issues: number; pulls: number },
		byNumber: (repoId: number, number: number) => byNumber.get(repoId, number) as IssueRow | undefined,
		byId: (id: number) => byId.get(id) as IssueRow | undefined,
		byIds: (ids: number[]) => byIds.all(JSON.stringify(ids)) as IssueRow[],
		/**
		 * Inserts an issue with the repository's next number (issues and pull requests share them); its
		 * body is rendered when first read (body_html null). @param now ISO timestamp
		 */
		insert(
			issue: { repo_id: number; title: string; body: string | null; user_id: number; pull_request: boolean },
			now: string,
		): IssueRow {
			const number = nextNumber.get({ repo: issue.repo_id }) as number;
			const pullRequest = issue.pull_request ? 1 : 0;
			const { lastInsertRowid } = insert.run(issue.repo_id, number, issue.title, issue.body, issue.user_id, pullRequest, now, now);
			// The row as stored, in the table's column order, with schema.sql's defaults (no trigger on
			// issues writes the row itself): cheaper than RETURNING *, which SQLite runs through a
			// temporary table, or reading it again (test/services-issues.test.ts compares the two).
			const row: IssueRow = {
				id: Number(lastInsertRowid),
				repo_id: issue.repo_id,
				number,
				title: issue.title,
				body: issue.body,
				user_id: issue.user_id,
				state: 'open',
				state_reason: null,
				locked: 0,
				active_lock_reason: null,
				pull_request: pullRequest,
				comments: 0,
				closed_by_id: null,
				created_at: now,
				updated_at: now,
				closed_at: null,
				body_html: null,
				body_text: null,
				milestone_id: null,
				reaction_counts: '{}',
			};
			textWritten();
			return row;
		},
		/**
		 * Writes the editable fields (title, body, state and its reason, closer) and updated_at; a
		 * changed body loses its kept rendering (rendered again when next read; row.body_html and
		 * row.body_text are ignored). @param now ISO timestamp
		 */
		update(row: IssueRow, now: string): IssueRow {
			const stored = storedBody.get(row.id) as Pick<IssueRow, 'title' | 'body' | 'body_html' | 'body_text'>;
			const rendered =
				row.body === stored.body
					? { body_html: stored.body_html, body_text: stored.body_text }
					: { body_html: null, body_text: null };
			update.run({ ...row, ...rendered, now });
			if (row.body !== stored.body || row.title !== stored.title) textWritten();
			return byId.get(row.id) as IssueRow;
		},
		/**
		 * Keeps an issue body's rendering in its row (`body` is the source it was rendered from: a body
		 * changed meanwhile keeps nothing). Not a change of the issue: updated_at stays, and the
		 * change counters behind ETags do not move (src/db/change-counters.ts).
		 */
		keepRendering: (id: number, body: string, rendered: { body_html: string; body_text: string }) =>
			void keepRendering.run({ id, body, ...rendered }),
		/** @param now ISO timestamp */
		setLock: (id: number, locked: boolean, reason: string | null, now: string) => void lock.run(locked ? 1 : 0, reason, now, id),
		/** @param now ISO timestamp */
		touch: (id: number, now: string) => void touch.run(now, id),
		/** Puts the issue in a milestone (milestones.id) or in none (null); the milestones' counts follow (triggers). */
		setMilestone: (id: number, milestoneId: number | null) => void setMilestone.run(milestoneId, id),
		list(filter: IssueFilter) {
			const params = {
				...filter,
				labels: JSON.stringify(filter.labels),
				labelCount: filter.labels.length,
				none: filter.none ? 1 : 0,
				pullRequests: filter.pullRequests == null ? null : filter.pullRequests ? 1 : 0,
				states: filter.states == null ? null : JSON.stringify(filter.states),
				anyLabel: filter.anyLabel ? 1 : 0,
				headRef: filter.headRef ?? null,
				baseRef: filter.baseRef ?? null,
			};
			const { sort, direction, limit, offset, ...where } = params;
			return {
				rows: lists.get(`${sort} ${direction}`)!.all({ ...where, limit, offset }) as IssueRow[],
				total: count.get(where) as number,
			};
		},
		/** issue id → assignee account ids in order, for several issues. */
		assignees(issueIds: number[]): Map<number, number[]> {
			const result = new Map<number, number[]>();
			for (const row of assignees.all(JSON.stringify(issueIds)) as Array<{ issue_id: number; user_id: number }>) {
				let ids = result.get(row.issue_id);
				if (!ids) result.set(row.issue_id, (ids = []));
				ids.push(row.user_id);
			}
			return result;
		},
		replaceAssignees(issueId: number, userIds: number[]): void {
			clearAssignees.run(issueId);
			for (const userId of userIds) addAssignee.run({ issueId, userId });
		},
		addAssignees(issueId: number, userIds: number[]): void {
			for (const userId of userIds) addAssignee.run({ issueId, userId });
		},
		removeAssignee: (issueId: number, userId: number) => void removeAssignee.run(issueId, userId),
		/** One page of the repository's assignable users (login order) and their number; `query`: part of a login or name (any case). */
		assignable(scope: AssignableScope, limit: number, offset: number, query: string | null = null) {
			const params = { ...scope, userId: null, query: query === null ? null : query.toLowerCase() };
			return {
				rows: limit > 0 ? (assignablePage.all({ ...params, limit, offset }) as AccountRow[]) : [],
				total: assignableCount.get(params) as number,
			};
		},
		/** Whether the user is one of the repository's assignable users (the same statement). */
		isAssignable: (scope: AssignableScope, userId: number) => (assignableCount.get({ ...scope, userId, query: null }) as number) > 0,
		/** The issues (pull requests included) of a repository the user is assigned to, by id. */
		assignedIn: (repoId: number, userId: number) => assignedIn.all(userId, repoId) as IssueRow[],

		comment: (repoId: number, id: number) => comment.get(repoId, id) as IssueCommentRow | undefined,
		/**
		 * Adds a comment, its body rendered, and counts it on the issue (which counts as updated).
		 * @param now ISO timestamp
		 */
		insertComment(issue: IssueRow, userId: number, body: string, now: string): IssueCommentRow {
			const { html, text } = renderBody(body);
			const id = insertComment.run(issue.repo_id, issue.id, userId, body, html, text, now, now).lastInsertRowid;
			countComments.run(1, now, issue.id);
			return comment.get(issue.repo_id, id) as IssueCommentRow;
		},
		/** Replaces a comment's body and its rendering. @param now ISO timestamp */
		updateComment(row: IssueCommentRow, body: string, now: string): IssueCommentRow {
			const { html, text } = body === row.body ? { html: row.body_html, text: row.body_text } : renderBody(body);
			updateComment.run(body, html, text, now, row.id);
			return comment.get(row.repo_id, row.id) as IssueCommentRow;
		},
		/** @param now ISO timestamp */
		removeComment(row: IssueCommentRow, now: string): void {
			removeComment.run(row.id);
			countComments.run(-1, now, row.issue_id);
		},
		/** One issue's comments in ascending id order; since: ISO timestamp or null. */
		issueComments(issueId: number, since: string | null, limit: number, offset: number) {
			const params = { issueId, since, limit, offset };
			return { rows: issueComments.all(params) as IssueCommentRow[], total: issueCommentTotal.get({ issueId, since }) as number };
		},
		/** A repository's comments (spec: default ascending id; sort with direction otherwise). */
		repoComments(filter: CommentFilter) {
			const { sort, direction, ...where } = filter;
			const statement = repoComments.get(sort ? `${sort} ${direction}` : 'id')!;
			return {
				rows: statement.all(where) as IssueCommentRow[],
				total: repoCommentTotal.get({ repoId: where.repoId, since: where.since }) as number,
			};
		},
	};
}
