/**
 * The review requests of pull requests as GitHub's pull-request forms show them:
 * `requested_reviewers` (simple-user) and `requested_teams` (team), loaded for many pull requests
 * at once (src/api/pulls/review-requests.ts makes and withdraws them).
 */
import type { App } from '../../app';
import { teamListForm } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import type { RequestedReviewers } from './render';

/**
 * The review requests of the pull requests given, as the forms show them, by issue id (every id
 * given has an entry).
 * @param owner the repository's owner (teams are the organization's)
 */
export function requestedReviewers(app: App, owner: AccountRow, issueIds: number[]): Map<number, RequestedReviewers> {
	const result = new Map<number, RequestedReviewers>(issueIds.map((id) => [id, { users: [], teams: [] }]));
	const rows = app.stores.reviews.requestsOf(issueIds);
	if (!rows.length) return result;
	const accounts = app.stores.accounts.mapByIds(rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id])));
	const teams = new Map(app.stores.teams.byIds(rows.flatMap((r) => (r.team_id === null ? [] : [r.team_id]))).map((t) => [t.id, t]));
	const parents = new Map(
		app.stores.teams.byIds([...teams.values()].flatMap((t) => (t.parent_id === null ? [] : [t.parent_id]))).map((t) => [t.id, t]),
	);
	for (const row of rows) {
		const entry = result.get(row.issue_id)!;
		if (row.user_id !== null) {
			const account = accounts.get(row.user_id);
			if (account) entry.users.push(simpleUser(app.urls, account));
		} else {
			const team = teams.get(row.team_id!);
			if (team)
				entry.teams.push(
					teamListForm(app.urls, owner.login, team, team.parent_id === null ? undefined : parents.get(team.parent_id)),
				);
		}
	}
	return result;
}
