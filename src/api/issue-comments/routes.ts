/**
 * Issue comments (creation, deletion and the per-issue list as
 * GitHub has them): list for a repository (default ascending id; sort created|updated with
 * direction; since), list for one issue, create, get, update, delete. Comments on pull requests
 * are issue comments too. Bodies follow the raw (default), text, html and full media types.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { timestampParam } from '../../http/validation';
import { commentBodyField } from '../markdown/body';
import { ISSUES_READ, ISSUES_WRITE } from '../issues/access';
import { issueRepository, loadIssue, type IssueScope } from '../issues/service';
import { createIssueComment, deleteIssueComment, renderIssueComments as render, updateIssueComment } from './service';
import type { IssueCommentRow } from '../../model/rows';

const commentBody = v.object({ body: commentBodyField });
const since = v.optional(timestampParam('since'));
const repositoryListQuery = v.object({
	sort: v.optional(v.picklist(['created', 'updated'], 'sort must be created or updated')),
	direction: v.optional(v.picklist(['asc', 'desc'], 'direction must be asc or desc')),
	since,
});
const issueListQuery = v.object({ since });

/** A comment of the repository by its id. @throws DomainError 404 */
function loadComment(ctx: Context, scope: IssueScope): IssueCommentRow {
	const id = idParam(ctx.params.comment_id);
	const row = id ? ctx.app.stores.issues.comment(scope.repo.id, id) : undefined;
	if (!row) throw notFound();
	return row;
}

export const issueCommentRoutes = [
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/comments',
		docs: 'issues/comments#list-issue-comments-for-a-repository',
		errorResource: 'IssueComment',
		query: repositoryListQuery,
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			// direction is ignored without sort; with sort it defaults to descending, as GitHub's sorts do.
			const { rows, total } = ctx.app.stores.issues.repoComments({
				repoId: scope.repo.id,
				sort: ctx.query.sort ?? null,
				direction: ctx.query.direction ?? 'desc',
				since: ctx.query.since ?? null,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(render(ctx, scope, rows), total);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
		docs: 'issues/comments#get-an-issue-comment',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			return ok(render(ctx, scope, [loadComment(ctx, scope)])[0]);
		},
	}),
	route({
		...ISSUES_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
		docs: 'issues/comments#update-an-issue-comment',
		errorResource: 'IssueComment',
		body: commentBody,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const updated = updateIssueComment(ctx, scope, loadComment(ctx, scope), ctx.body.body);
			return ok(render(ctx, scope, [updated])[0]);
		},
	}),
	route({
		...ISSUES_WRITE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
		docs: 'issues/comments#delete-an-issue-comment',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			deleteIssueComment(ctx, scope, loadComment(ctx, scope));
			return noContent();
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
		docs: 'issues/comments#list-issue-comments',
		errorResource: 'IssueComment',
		query: issueListQuery,
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const issue = loadIssue(ctx, scope);
			const { rows, total } = ctx.app.stores.issues.issueComments(
				issue.id,
				ctx.query.since ?? null,
				ctx.page.perPage,
				ctx.page.offset,
			);
			return paged(render(ctx, scope, rows, [issue]), total);
		},
	}),
	route({
		...ISSUES_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
		docs: 'issues/comments#create-an-issue-comment',
		errorResource: 'IssueComment',
		body: commentBody,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const issue = loadIssue(ctx, scope);
			const row = createIssueComment(ctx, scope, issue, ctx.body.body);
			const body = render(ctx, scope, [row], [issue])[0];
			return created(body, body.url);
		},
	}),
];
