/**
 * The merge routes: PUT …/pulls/{n}/merge (push access to the base repository; Contents write) and
 * PUT …/pulls/{n}/update-branch (Pull requests write; 202 "Updating pull request branch."). Each
 * parses its body and calls one service of merge-service.ts, which holds the rules.
 */
import * as v from 'valibot';
import { accepted, ok } from '../../http/reply';
import { route } from '../../http/route';
import { mergePullRequest, updatePullRequestBranch } from './merge-service';
import { loadPull, pullScope } from './service';
import { PULLS_MERGE } from './access';
import { mergeBody } from './inputs';

const updateBranchBody = v.object({
	expected_head_sha: v.optional(v.string('expected_head_sha must be a string')),
});

export const pullMergeRoutes = [
	route({
		...PULLS_MERGE,
		method: 'PUT',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/merge',
		docs: 'pulls/pulls#merge-a-pull-request',
		errorResource: 'PullRequest',
		body: mergeBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const { merge_method: method, sha, commit_title: title, commit_message: message } = ctx.body;
			const merged = mergePullRequest(ctx, scope, loadPull(ctx, scope), { method, sha, title, message });
			return ok({ sha: merged, merged: true, message: 'Pull Request successfully merged' });
		},
	}),
	route({
		method: 'PUT',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/update-branch',
		docs: 'pulls/pulls#update-a-pull-request-branch',
		access: 'authenticated',
		resource: { repo: 'read' },
		permissions: [{ pull_requests: 'write' }],
		scopes: ['repo', 'public_repo'],
		errorResource: 'PullRequest',
		body: updateBranchBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const pull = loadPull(ctx, scope);
			updatePullRequestBranch(ctx, scope, pull, { expectedHeadSha: ctx.body.expected_head_sha });
			return accepted({ message: 'Updating pull request branch.', url: `${scope.paths.api}/pulls/${pull.number}` });
		},
	}),
];
