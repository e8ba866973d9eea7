/**
 * Prepared statements for the review side of pull requests (schema.sql): the review requests of a
 * pull request (`pull_request_review_requests`: users and teams, GitHub's requested_reviewers and
 * requested_teams).
 */
import type { DB } from '../../db/open';

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

	return {
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
