/**
 * Prepared statements for the review side of pull requests (schema.sql): the review requests of a
 * pull request (`pull_request_review_requests`: users and teams, GitHub's requested_reviewers and
 * requested_teams), its reviews (`pull_request_reviews`) and review comments
 * (`pull_request_review_comments`); bodies are rendered when written.
 */
import type { DB } from '../../db/open';
import { renderBody } from '../../model/markdown/render';
import type { ReviewRow } from '../../model/rows';

/** One review request: a user or a team (exactly one of the two ids is set). */
export interface ReviewRequestRow {
	id: number;
	issue_id: number;
	user_id: number | null;
	team_id: number | null;
	created_at: string;
}

/** One review comment (see schema.sql). */
export interface ReviewCommentRow {
	id: number;
	repo_id: number;
	issue_id: number;
	review_id: number;
	user_id: number;
	in_reply_to_id: number | null;
	path: string;
	position: number;
	line: number;
	side: 'LEFT' | 'RIGHT';
	start_line: number | null;
	start_side: 'LEFT' | 'RIGHT' | null;
	commit_id: string;
	diff_hunk: string;
	body: string;
	body_html: string | null;
	body_text: string | null;
	created_at: string;
	updated_at: string;
}

/** A new review comment: everything but the id, the renderings and the timestamps. */
export type NewReviewComment = Omit<ReviewCommentRow, 'id' | 'body_html' | 'body_text' | 'created_at' | 'updated_at'>;

/** Filters of the review comment lists. */
export interface ReviewCommentFilter {
	/** The repository's comments (GET …/pulls/comments), or … */
	repoId?: number;
	/** … one pull request's (GET …/pulls/{n}/comments), or … */
	issueId?: number;
	/** … one review's. */
	reviewId?: number;
	/** Comments of pending reviews are their author's alone. */
	viewerId: number | null;
	sort: 'created' | 'updated';
	direction: 'asc' | 'desc';
	/** ISO timestamp: updated at or after it; null: all. */
	since: string | null;
	limit: number;
	offset: number;
}

export type ReviewStore = ReturnType<typeof createReviewStore>;

/** Prepares the review statements on `db` (src/api/stores.ts). */
export function createReviewStore(db: DB) {
	const requests = db.prepare(
		'SELECT * FROM pull_request_review_requests WHERE issue_id IN (SELECT value FROM json_each(?)) ORDER BY id',
	);
	const addUser = db.prepare(
		'INSERT INTO pull_request_review_requests (issue_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
	);
	const addTeam = db.prepare(
		'INSERT INTO pull_request_review_requests (issue_id, team_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
	);
	const removeUser = db.prepare('DELETE FROM pull_request_review_requests WHERE issue_id = ? AND user_id = ?');
	const removeTeam = db.prepare('DELETE FROM pull_request_review_requests WHERE issue_id = ? AND team_id = ?');

	const reviewById = db.prepare('SELECT * FROM pull_request_reviews WHERE id = ? AND issue_id = ?');
	const reviewByIdOnly = db.prepare('SELECT * FROM pull_request_reviews WHERE id = ?');
	const reviewsOf =
		db.prepare(`SELECT * FROM pull_request_reviews WHERE issue_id = @issueId AND (state != 'PENDING' OR user_id = @viewerId)
		ORDER BY id LIMIT @limit OFFSET @offset`);
	const countReviews = db
		.prepare("SELECT count(*) FROM pull_request_reviews WHERE issue_id = @issueId AND (state != 'PENDING' OR user_id = @viewerId)")
		.pluck();
	const pendingOf = db.prepare("SELECT * FROM pull_request_reviews WHERE issue_id = ? AND user_id = ? AND state = 'PENDING'");
	const insertReview =
		db.prepare(`INSERT INTO pull_request_reviews (issue_id, user_id, state, body, body_html, body_text, commit_id, submitted_at, created_at, updated_at)
		VALUES (@issue_id, @user_id, @state, @body, @body_html, @body_text, @commit_id, @submitted_at, @now, @now)`);
	const updateReview =
		db.prepare(`UPDATE pull_request_reviews SET state = @state, body = @body, body_html = @body_html, body_text = @body_text,
		submitted_at = @submitted_at, updated_at = @now WHERE id = @id`);
	const deleteReview = db.prepare('DELETE FROM pull_request_reviews WHERE id = ?');
	// The latest submitted, non-pending review of each user (mergeable-state.ts).
	const latestByUser = db.prepare(`SELECT r.* FROM pull_request_reviews r
		WHERE r.issue_id = ? AND r.state IN ('APPROVED', 'CHANGES_REQUESTED', 'DISMISSED')
		AND r.id = (SELECT max(id) FROM pull_request_reviews o WHERE o.issue_id = r.issue_id AND o.user_id = r.user_id AND o.state IN ('APPROVED', 'CHANGES_REQUESTED', 'DISMISSED'))`);
	// The latest submitted review of each author, of any state but pending, in the order submitted (GraphQL's latestReviews).
	const latestByAuthor = db.prepare(`SELECT r.* FROM pull_request_reviews r
		WHERE r.issue_id = ? AND r.state != 'PENDING'
		AND r.id = (SELECT max(id) FROM pull_request_reviews o WHERE o.issue_id = r.issue_id AND o.user_id = r.user_id AND o.state != 'PENDING')
		ORDER BY r.submitted_at, r.id`);
	const commentById = db.prepare('SELECT * FROM pull_request_review_comments WHERE id = ? AND repo_id = ?');
	const insertComment =
		db.prepare(`INSERT INTO pull_request_review_comments (repo_id, issue_id, review_id, user_id, in_reply_to_id, path, position, line, side,
		start_line, start_side, commit_id, diff_hunk, body, body_html, body_text, created_at, updated_at)
		VALUES (@repo_id, @issue_id, @review_id, @user_id, @in_reply_to_id, @path, @position, @line, @side, @start_line, @start_side, @commit_id, @diff_hunk,
		@body, @body_html, @body_text, @now, @now)`);
	const updateComment = db.prepare(
		'UPDATE pull_request_review_comments SET body = @body, body_html = @body_html, body_text = @body_text, updated_at = @now WHERE id = @id',
	);
	const deleteComment = db.prepare('DELETE FROM pull_request_review_comments WHERE id = ?');
	const reviewCommentsOf = db.prepare('SELECT * FROM pull_request_review_comments WHERE review_id = ? ORDER BY id');
	const COMMENT_WHERE = `(@repoId IS NULL OR c.repo_id = @repoId) AND (@issueId IS NULL OR c.issue_id = @issueId) AND (@reviewId IS NULL OR c.review_id = @reviewId)
		AND (@since IS NULL OR c.updated_at >= @since)
		AND (r.state != 'PENDING' OR r.user_id = @viewerId)`;
	const commentLists = new Map<string, ReturnType<DB['prepare']>>();
	for (const sort of ['created', 'updated']) {
		for (const direction of ['asc', 'desc']) {
			commentLists.set(
				`${sort} ${direction}`,
				db.prepare(`SELECT c.* FROM pull_request_review_comments c JOIN pull_request_reviews r ON r.id = c.review_id
				WHERE ${COMMENT_WHERE} ORDER BY c.${sort}_at ${direction}, c.id ${direction} LIMIT @limit OFFSET @offset`),
			);
		}
	}
	const countComments = db
		.prepare(
			`SELECT count(*) FROM pull_request_review_comments c JOIN pull_request_reviews r ON r.id = c.review_id WHERE ${COMMENT_WHERE}`,
		)
		.pluck();
	const submittedCounts =
		db.prepare(`SELECT c.issue_id, count(*) AS n FROM pull_request_review_comments c JOIN pull_request_reviews r ON r.id = c.review_id
		WHERE c.issue_id IN (SELECT value FROM json_each(?)) AND r.state != 'PENDING' GROUP BY c.issue_id`);
	const rendered = (body: string) => {
		if (body === '') return { body_html: '', body_text: '' };
		const { html, text } = renderBody(body);
		return { body_html: html, body_text: text };
	};

	return {
		/** The review `id` of the pull request, whoever's (callers hide others' pending reviews). */
		review: (issueId: number, id: number) => reviewById.get(id, issueId) as ReviewRow | undefined,
		/** The review `id`, whichever pull request it belongs to (GraphQL names a review by its node id alone). */
		byId: (id: number) => reviewByIdOnly.get(id) as ReviewRow | undefined,
		/** One page of the pull request's reviews (others' pending ones left out), oldest first, and their count. */
		reviews(issueId: number, viewerId: number | null, limit: number, offset: number): { rows: ReviewRow[]; total: number } {
			const params = { issueId, viewerId: viewerId ?? 0 };
			return { rows: reviewsOf.all({ ...params, limit, offset }) as ReviewRow[], total: countReviews.get(params) as number };
		},
		/** The user's pending review of the pull request, if any. */
		pending: (issueId: number, userId: number) => pendingOf.get(issueId, userId) as ReviewRow | undefined,
		/** Adds a review (the body rendered). @param now ISO timestamp @returns its id */
		insertReview(row: Pick<ReviewRow, 'issue_id' | 'user_id' | 'state' | 'body' | 'commit_id' | 'submitted_at'>, now: string): number {
			return Number(insertReview.run({ ...row, ...rendered(row.body), now }).lastInsertRowid);
		},
		/** Stores the review's state, body (rendered again when it changed) and submitted_at. @param now ISO timestamp */
		updateReview(before: ReviewRow, next: Pick<ReviewRow, 'state' | 'body' | 'submitted_at'>, now: string): void {
			const bodies =
				next.body === before.body && before.body_html !== null
					? { body_html: before.body_html, body_text: before.body_text }
					: rendered(next.body);
			updateReview.run({ id: before.id, ...next, ...bodies, now });
		},
		deleteReview: (id: number) => void deleteReview.run(id),
		/** Each reviewer's latest review that approved, requested changes or was dismissed. */
		latestDecisive: (issueId: number) => latestByUser.all(issueId) as ReviewRow[],
		/** The latest submitted (not pending) review of each author of the pull request, in the order they were submitted. */
		latestByAuthor: (issueId: number) => latestByAuthor.all(issueId) as ReviewRow[],
		/** The review comment `id` of the repository (callers hide the comments of others' pending reviews). */
		comment: (repoId: number, id: number) => commentById.get(id, repoId) as ReviewCommentRow | undefined,
		/** Adds a review comment (the body rendered). @param now ISO timestamp @returns its id */
		insertComment(row: NewReviewComment, now: string): number {
			return Number(insertComment.run({ ...row, ...rendered(row.body), now }).lastInsertRowid);
		},
		/** Changes a review comment's body (rendered again). @param now ISO timestamp */
		updateComment: (id: number, body: string, now: string) => void updateComment.run({ id, body, ...rendered(body), now }),
		deleteComment: (id: number) => void deleteComment.run(id),
		/** Every comment of a review, oldest first. */
		commentsOfReview: (reviewId: number) => reviewCommentsOf.all(reviewId) as ReviewCommentRow[],
		/** One page of review comments by the filter, and the count of all that match. */
		comments(filter: ReviewCommentFilter): { rows: ReviewCommentRow[]; total: number } {
			const params = {
				repoId: filter.repoId ?? null,
				issueId: filter.issueId ?? null,
				reviewId: filter.reviewId ?? null,
				viewerId: filter.viewerId ?? 0,
				since: filter.since,
			};
			const rows = commentLists
				.get(`${filter.sort} ${filter.direction}`)!
				.all({ ...params, limit: filter.limit, offset: filter.offset }) as ReviewCommentRow[];
			return { rows, total: countComments.get(params) as number };
		},
		/** The count of submitted review comments of each pull request given (GitHub's review_comments), by issue id. */
		submittedCommentCounts(issueIds: number[]): Map<number, number> {
			if (!issueIds.length) return new Map();
			return new Map(
				(submittedCounts.all(JSON.stringify(issueIds)) as Array<{ issue_id: number; n: number }>).map((r) => [r.issue_id, r.n]),
			);
		},
		/** The review requests of the pull requests given (by issue id), oldest first. */
		requestsOf(issueIds: number[]): ReviewRequestRow[] {
			if (!issueIds.length) return [];
			return requests.all(JSON.stringify(issueIds)) as ReviewRequestRow[];
		},
		/** Requests a review from the user. @returns false when it was requested already. @param now ISO timestamp */
		requestUser: (issueId: number, userId: number, now: string) => addUser.run(issueId, userId, now).changes > 0,
		/** Requests a review from the team. @returns false when it was requested already. @param now ISO timestamp */
		requestTeam: (issueId: number, teamId: number, now: string) => addTeam.run(issueId, teamId, now).changes > 0,
		/** Withdraws the user's request. @returns false when there was none */
		removeUser: (issueId: number, userId: number) => removeUser.run(issueId, userId).changes > 0,
		/** Withdraws the team's request. @returns false when there was none */
		removeTeam: (issueId: number, teamId: number) => removeTeam.run(issueId, teamId).changes > 0,
	};
}
