/**
 * Prepared statements for the review side of pull requests (schema.sql): the review requests of a
 * pull request (`pull_request_review_requests`: users and teams, GitHub's requested_reviewers and
 * requested_teams) and its reviews (`pull_request_reviews`, bodies rendered when written).
 */
import type { DB } from '../../db/open';
import { renderBody } from '../markdown/render';

/** GitHub's review states. */
export type ReviewState = 'PENDING' | 'COMMENTED' | 'APPROVED' | 'CHANGES_REQUESTED' | 'DISMISSED';

/** One review of a pull request. */
export interface ReviewRow {
	id: number;
	issue_id: number;
	user_id: number;
	state: ReviewState;
	/** '' when none was given. */
	body: string;
	body_html: string | null;
	body_text: string | null;
	/** The commit reviewed. */
	commit_id: string;
	/** ISO timestamp; null while pending. */
	submitted_at: string | null;
	created_at: string;
	updated_at: string;
}

/** One review request: a user or a team (exactly one of the two ids is set). */
export interface ReviewRequestRow {
	id: number;
	issue_id: number;
	user_id: number | null;
	team_id: number | null;
	created_at: string;
}

export type ReviewStore = ReturnType<typeof createReviewStore>;

/** Prepares the review statements on `db` (src/api/stores.ts). */
export function createReviewStore(db: DB) {
	const requests = db.prepare('SELECT * FROM pull_request_review_requests WHERE issue_id IN (SELECT value FROM json_each(?)) ORDER BY id');
	const addUser = db.prepare('INSERT INTO pull_request_review_requests (issue_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
	const addTeam = db.prepare('INSERT INTO pull_request_review_requests (issue_id, team_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
	const removeUser = db.prepare('DELETE FROM pull_request_review_requests WHERE issue_id = ? AND user_id = ?');
	const removeTeam = db.prepare('DELETE FROM pull_request_review_requests WHERE issue_id = ? AND team_id = ?');

	const reviewById = db.prepare('SELECT * FROM pull_request_reviews WHERE id = ? AND issue_id = ?');
	const reviewsOf = db.prepare(`SELECT * FROM pull_request_reviews WHERE issue_id = @issueId AND (state != 'PENDING' OR user_id = @viewerId)
		ORDER BY id LIMIT @limit OFFSET @offset`);
	const countReviews = db.prepare("SELECT count(*) FROM pull_request_reviews WHERE issue_id = @issueId AND (state != 'PENDING' OR user_id = @viewerId)").pluck();
	const pendingOf = db.prepare("SELECT * FROM pull_request_reviews WHERE issue_id = ? AND user_id = ? AND state = 'PENDING'");
	const insertReview = db.prepare(`INSERT INTO pull_request_reviews (issue_id, user_id, state, body, body_html, body_text, commit_id, submitted_at, created_at, updated_at)
		VALUES (@issue_id, @user_id, @state, @body, @body_html, @body_text, @commit_id, @submitted_at, @now, @now)`);
	const updateReview = db.prepare(`UPDATE pull_request_reviews SET state = @state, body = @body, body_html = @body_html, body_text = @body_text,
		submitted_at = @submitted_at, updated_at = @now WHERE id = @id`);
	const deleteReview = db.prepare('DELETE FROM pull_request_reviews WHERE id = ?');
	// The latest submitted, non-pending review of each user (mergeable-state.ts).
	const latestByUser = db.prepare(`SELECT r.* FROM pull_request_reviews r
		WHERE r.issue_id = ? AND r.state IN ('APPROVED', 'CHANGES_REQUESTED', 'DISMISSED')
		AND r.id = (SELECT max(id) FROM pull_request_reviews o WHERE o.issue_id = r.issue_id AND o.user_id = r.user_id AND o.state IN ('APPROVED', 'CHANGES_REQUESTED', 'DISMISSED'))`);
	const rendered = (body: string) => {
		if (body === '') return { body_html: '', body_text: '' };
		const { html, text } = renderBody(body);
		return { body_html: html, body_text: text };
	};

	return {
		/** The review `id` of the pull request, whoever's (callers hide others' pending reviews). */
		review: (issueId: number, id: number) => reviewById.get(id, issueId) as ReviewRow | undefined,
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
			const bodies = next.body === before.body && before.body_html !== null ? { body_html: before.body_html, body_text: before.body_text } : rendered(next.body);
			updateReview.run({ id: before.id, ...next, ...bodies, now });
		},
		deleteReview: (id: number) => void deleteReview.run(id),
		/** Each reviewer's latest review that approved, requested changes or was dismissed. */
		latestDecisive: (issueId: number) => latestByUser.all(issueId) as ReviewRow[],
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
