/**
 * Review requests of pull requests (GitHub's "Review requests" REST API): who is asked to review —
 * users (`requested_reviewers`, simple-user) and teams of the repository's organization
 * (`requested_teams`, team) — how the forms show them, and the rules of asking:
 * - a user must be able to read the repository (GitHub: a collaborator), a team must belong to the
 *   repository's organization and have access to the repository (any of its teams for a public
 *   one); otherwise 422 "Reviews may only be requested from collaborators. One or more of the
 *   users or teams you specified is not a collaborator of the owner/repo repository.";
 * - the pull request's author cannot be asked: 422 "Review cannot be requested from pull request
 *   author.".
 * Each new request records pull_request `review_requested` (with `requested_reviewer` or
 * `requested_team`), each withdrawn one `review_request_removed`; a requested user (every member
 * of a requested team) is notified with the reason review_requested.
 */
import type { App } from '../../app';
import { unprocessable } from '../../model/errors';
import type { Caller } from '../../auth/caller';
import { isoSeconds } from '../../time';
import { userRepoPermission } from '../../auth/access/repos';
import { issueSubject } from '../issues/events';
import type { IssueScope } from '../issues/service';
import { teamListForm } from '../../model/render';
import type { TeamRow, AccountRow, PullRow } from '../../model/rows';
import { simpleUser } from '../../model/render';
import { recordPullRequest } from './events';

/** At most this many members of a requested team are notified (as for team mentions). */
const MAX_TEAM_NOTIFIED = 1000;

/** GitHub's 422 for reviewers who cannot review the repository. */
const notCollaborator = (scope: IssueScope) =>
	unprocessable(
		`Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${scope.owner.login}/${scope.repo.name} repository.`,
	);

/**
 * The users and teams named, resolved and checked (GitHub's rules above).
 * @throws DomainError 422 for an unknown login or slug, someone who cannot review, or the author
 */
export function resolveReviewers(
	ctx: Caller,
	scope: IssueScope,
	pull: PullRow,
	logins: string[],
	slugs: string[],
): { users: AccountRow[]; teams: TeamRow[] } {
	const { stores } = ctx.app;
	const users = new Map<number, AccountRow>();
	for (const login of logins) {
		const account = stores.accounts.byLogin(login);
		if (!account || account.type !== 'User' || userRepoPermission(ctx.app, scope.repo, scope.owner, account.id) === null)
			throw notCollaborator(scope);
		if (account.id === pull.user_id) throw unprocessable('Review cannot be requested from pull request author.');
		users.set(account.id, account);
	}
	const teams = new Map<number, TeamRow>();
	for (const slug of slugs) {
		const team = scope.owner.type === 'Organization' ? stores.teams.bySlug(scope.owner.id, slug.toLowerCase()) : undefined;
		if (!team) throw notCollaborator(scope);
		if (scope.repo.visibility !== 'public' && stores.teams.lineageGrants(team.id, scope.repo.id).length === 0)
			throw notCollaborator(scope);
		teams.set(team.id, team);
	}
	return { users: [...users.values()], teams: [...teams.values()] };
}

/** The members of a team, for its review_requested notifications. */
function teamMembers(app: App, team: TeamRow): number[] {
	if (team.notification_setting === 'notifications_disabled') return [];
	return app.stores.teams.members({ teamId: team.id, role: 'all', limit: MAX_TEAM_NOTIFIED, offset: 0 }).rows.map((row) => row.id);
}

/**
 * Requests reviews from the users and teams (already requested ones are skipped), recording
 * `review_requested` for each new request.
 */
export function requestReviews(ctx: Caller, scope: IssueScope, pull: PullRow, users: AccountRow[], teams: TeamRow[]): void {
	const { app } = ctx;
	const now = isoSeconds(ctx.now);
	const actorId = ctx.principal.actorId;
	for (const user of users) {
		if (!app.stores.reviews.requestUser(pull.id, user.id, now)) continue;
		recordPullRequest(
			ctx,
			scope,
			pull,
			'review_requested',
			{ requested_reviewer: simpleUser(app.urls, user) },
			{
				subject: issueSubject(pull),
				broadcast: false,
				involved: user.id === actorId ? [] : [{ userId: user.id, reason: 'review_requested' }],
			},
		);
	}
	for (const team of teams) {
		if (!app.stores.reviews.requestTeam(pull.id, team.id, now)) continue;
		const parent = team.parent_id === null ? undefined : app.stores.teams.byId(team.parent_id);
		recordPullRequest(
			ctx,
			scope,
			pull,
			'review_requested',
			{ requested_team: teamListForm(app.urls, scope.owner.login, team, parent) },
			{
				subject: issueSubject(pull),
				broadcast: false,
				involved: teamMembers(app, team)
					.filter((id) => id !== actorId && id !== pull.user_id)
					.map((userId) => ({ userId, reason: 'review_requested' as const })),
			},
		);
	}
}

/** Withdraws the review requests of the users and teams (ones not requested are skipped), recording `review_request_removed`. */
export function removeReviewRequests(ctx: Caller, scope: IssueScope, pull: PullRow, users: AccountRow[], teams: TeamRow[]): void {
	const { app } = ctx;
	for (const user of users) {
		if (app.stores.reviews.removeUser(pull.id, user.id))
			recordPullRequest(ctx, scope, pull, 'review_request_removed', { requested_reviewer: simpleUser(app.urls, user) });
	}
	for (const team of teams) {
		if (!app.stores.reviews.removeTeam(pull.id, team.id)) continue;
		const parent = team.parent_id === null ? undefined : app.stores.teams.byId(team.parent_id);
		recordPullRequest(ctx, scope, pull, 'review_request_removed', {
			requested_team: teamListForm(app.urls, scope.owner.login, team, parent),
		});
	}
}
