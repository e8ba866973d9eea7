/**
 * Draft pull requests marked ready for review and turned back into drafts (GitHub's GraphQL
 * markPullRequestReadyForReview and convertPullRequestToDraft; no REST route does it). The
 * pull_request webhook's `ready_for_review` / `converted_to_draft`, and the issue events
 * `ready_for_review` / `convert_to_draft` in the timeline, come from the one recorded event.
 * https://docs.github.com/graphql/reference/mutations#markpullrequestreadyforreview
 */
import { userRepoPermission } from '../../auth/access/repos';
import { atLeast } from '../../model/repo-permissions';
import type { Caller } from '../../auth/caller';
import { DomainError, forbidden } from '../../model/errors';
import { isoSeconds } from '../../time';
import { Associations } from '../issues/association';
import type { IssueScope } from '../issues/service';
import { repositoryPaths } from '../repos/render';
import { recordPullRequest } from './events';
import type { PullRow } from '../../model/rows';

/**
 * Sets the pull request's draft flag for the caller, in the caller's transaction: the author or
 * anyone with write access may (as on GitHub). No change when it already is so; nothing is recorded.
 * @throws DomainError 403 for other callers; 422 for a closed or merged pull request
 * @returns the pull request as it now is
 */
export function setPullDraft(ctx: Caller, pull: PullRow, draft: boolean): PullRow {
	const { app } = ctx;
	const repo = app.stores.repos.byId(pull.repo_id);
	const owner = repo && app.stores.accounts.byId(repo.owner_id);
	if (!repo || !owner) throw new DomainError('NotFound', 'Not Found');
	const actorId = ctx.principal.actorId;
	const permission = actorId === null ? null : userRepoPermission(app, repo, owner, actorId);
	if (actorId === null || (pull.user_id !== actorId && !atLeast(permission, 'push')))
		throw forbidden('You do not have permission to change the draft state of this pull request.');
	if (pull.state !== 'open' || pull.pr.merged_at)
		throw new DomainError('Unprocessable', `Pull request is ${pull.pr.merged_at ? 'merged' : 'closed'}`);
	if ((pull.pr.draft === 1) === draft) return pull;
	app.stores.pulls.setDraft(pull.id, draft ? 1 : 0);
	app.stores.issues.touch(pull.id, isoSeconds(ctx.now ?? app.clock()));
	const scope: IssueScope = {
		repo,
		owner,
		permission,
		paths: repositoryPaths(app.urls, owner.login, repo.name),
		associations: new Associations(app, repo, owner),
	};
	const current = app.stores.pulls.byIssue(pull.id) as PullRow;
	recordPullRequest(ctx, scope, current, draft ? 'converted_to_draft' : 'ready_for_review');
	return current;
}
