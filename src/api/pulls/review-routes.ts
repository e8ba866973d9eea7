/**
 * Review requests of a pull request (GitHub's "Review requests" REST API, issue #11):
 * GET/POST/DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers.
 *
 * Reading needs Pull requests (read) — public repositories anonymously too — and answers
 * pull-request-review-request `{users, teams}`. Requesting and withdrawing need Pull requests
 * (write) and the pull request's author or triage access; both answer the pull-request-simple
 * form (201 and 200). The rules of who may be asked: src/api/pulls/review-requests.ts.
 */
import * as v from 'valibot';
import { forbidden, validationFailed } from '../../http/errors';
import { created, ok } from '../../http/reply';
import { route } from '../../http/route';
import { canTriage } from '../issues/service';
import { requestedReviewers } from './requested';
import { removeReviewRequests, requestReviews, resolveReviewers } from './review-requests';
import { loadPull, pullScope, renderPulls } from './service';

/** Reading: Pull requests (read); public repositories without a token. */
const PULLS_READ = {
	access: 'public' as const,
	resource: { repo: 'read' as const },
	permissions: [{ pull_requests: 'read' as const }],
};
/** Writing: Pull requests (write); `public_repo` on public repositories. */
const PULLS_WRITE = {
	access: 'authenticated' as const,
	resource: { repo: 'read' as const },
	permissions: [{ pull_requests: 'write' as const }],
	scopes: ['repo', 'public_repo'],
};

/** GitHub takes at most 100 reviewers in one request (and 100 teams). */
const names = (field: string) =>
	v.pipe(v.array(v.pipe(v.string(`${field} must be an array of strings`), v.minLength(1, `${field} must not hold blanks`), v.maxLength(256)), `${field} must be an array`), v.maxLength(100, `${field} holds more than 100 names`));
const requestBody = v.object({
	reviewers: v.optional(names('reviewers')),
	team_reviewers: v.optional(names('team_reviewers')),
});
const removeBody = v.object({
	reviewers: names('reviewers'),
	team_reviewers: v.optional(names('team_reviewers')),
});

/** The review-request routes, registered in src/api/routes.ts. */
export const reviewRequestRoutes = [
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
		docs: 'pulls/review-requests#get-all-requested-reviewers-for-a-pull-request',
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			return ok(requestedReviewers(ctx.app, scope.owner, [pull.id]).get(pull.id)!);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
		docs: 'pulls/review-requests#request-reviewers-for-a-pull-request',
		errorResource: 'PullRequest',
		body: requestBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			if (!canTriage(scope) && pull.user_id !== ctx.principal.actorId) {
				throw forbidden('Must be the author of the pull request or have triage access to the repository to request reviews.');
			}
			const { reviewers, team_reviewers } = ctx.body;
			if (reviewers === undefined && team_reviewers === undefined) {
				throw validationFailed([{ resource: 'PullRequest', field: 'reviewers', code: 'missing_field' }]);
			}
			const { users, teams } = resolveReviewers(ctx, scope, pull, reviewers ?? [], team_reviewers ?? []);
			requestReviews(ctx, scope, pull, users, teams);
			const body = renderPulls(ctx, scope, [ctx.app.stores.pulls.byIssue(pull.id)!], false)[0];
			return created(body, body.url);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
		docs: 'pulls/review-requests#remove-requested-reviewers-from-a-pull-request',
		errorResource: 'PullRequest',
		body: removeBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			if (!canTriage(scope) && pull.user_id !== ctx.principal.actorId) {
				throw forbidden('Must be the author of the pull request or have triage access to the repository to remove review requests.');
			}
			const { users, teams } = resolveReviewers(ctx, scope, pull, ctx.body.reviewers, ctx.body.team_reviewers ?? []);
			removeReviewRequests(ctx, scope, pull, users, teams);
			return ok(renderPulls(ctx, scope, [ctx.app.stores.pulls.byIssue(pull.id)!], false)[0]);
		},
	}),
];
