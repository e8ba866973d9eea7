/**
 * Reactions to issues and issue comments (GitHub's reactions API): list (content filter), create
 * (201 new, 200 when the caller already reacted with that content), delete. Anyone who can read the
 * repository may react with a token that writes issues or pull requests; on a locked issue only
 * those with write access may (as with comments). A reaction is deleted by its own author.
 * GitHub reports reactions to no webhook, feed or notification, so nothing is recorded.
 */
import * as v from 'valibot';
import { forbidden, notFound } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { atLeast } from '../../model/repo-permissions';
import { ISSUES_READ, ISSUES_WRITE } from '../issues/access';
import { issueRepository, loadIssue } from '../issues/service';
import type { IssueRow } from '../../model/rows';
import { reaction } from './render';
import { REACTION_CONTENTS, type ReactionRow, type ReactionSubject } from './store';

const content = v.picklist(REACTION_CONTENTS, `content must be one of ${REACTION_CONTENTS.join(', ')}`);
const createBody = v.object({ content });
const listQuery = v.object({ content: v.optional(content) });

/** What the path names: an issue ({issue_number}) or a comment ({comment_id}), with its issue. */
function subjectOf(ctx: Context, kind: 'issue' | 'comment'): { subject: ReactionSubject; issue: IssueRow } {
	const scope = issueRepository(ctx, { allowDisabled: true });
	if (kind === 'issue') {
		const issue = loadIssue(ctx, scope);
		return { subject: { issueId: issue.id, commentId: null }, issue };
	}
	const id = idParam(ctx.params.comment_id);
	const comment = id ? ctx.app.stores.issues.comment(scope.repo.id, id) : undefined;
	if (!comment) throw notFound();
	return { subject: { issueId: comment.issue_id, commentId: comment.id }, issue: ctx.app.stores.issues.byId(comment.issue_id)! };
}

function render(ctx: Context, rows: ReactionRow[]) {
	const users = ctx.app.stores.accounts.mapByIds(rows.map((row) => row.user_id));
	return rows.map((row) => reaction(ctx.app.urls, row, users.get(row.user_id)));
}

/** The list, create and delete routes of one kind of subject. */
function reactionRoutes(kind: 'issue' | 'comment', base: string, docs: { list: string; create: string; remove: string }) {
	return [
		route({
			...ISSUES_READ,
			method: 'GET',
			path: `${base}/reactions`,
			docs: docs.list,
			errorResource: 'Reaction',
			query: listQuery,
			pagination: true,
			handler(ctx) {
				const { subject } = subjectOf(ctx, kind);
				const { rows, total } = ctx.app.stores.reactions.list(
					subject,
					ctx.query.content ?? null,
					ctx.page.perPage,
					ctx.page.offset,
				);
				return paged(render(ctx, rows), total);
			},
		}),
		route({
			...ISSUES_WRITE,
			method: 'POST',
			path: `${base}/reactions`,
			docs: docs.create,
			errorResource: 'Reaction',
			body: createBody,
			handler(ctx) {
				const { subject, issue } = subjectOf(ctx, kind);
				if (issue.locked === 1 && !atLeast(ctx.repo.permission, 'push'))
					throw forbidden('Unable to react because the issue is locked.');
				const actor = ctx.principal.actorId!;
				const { reactions } = ctx.app.stores;
				const existing = reactions.find(subject, actor, ctx.body.content);
				if (existing) return ok(render(ctx, [existing])[0]);
				return created(render(ctx, [reactions.insert(subject, actor, ctx.body.content, isoSeconds(ctx.now))])[0]);
			},
		}),
		route({
			...ISSUES_WRITE,
			method: 'DELETE',
			path: `${base}/reactions/{reaction_id}`,
			docs: docs.remove,
			handler(ctx) {
				const { subject } = subjectOf(ctx, kind);
				const id = idParam(ctx.params.reaction_id);
				const row = id ? ctx.app.stores.reactions.byId(id) : undefined;
				if (!row || row.issue_id !== subject.issueId || row.comment_id !== subject.commentId) throw notFound();
				if (row.user_id !== ctx.principal.actorId) throw forbidden('Must be the author of the reaction to delete it.');
				ctx.app.stores.reactions.remove(row.id);
				return noContent();
			},
		}),
	];
}

/** The reaction routes of issues and issue comments, registered in src/api/routes.ts. */
export const reactionsRoutes = [
	...reactionRoutes('issue', '/repos/{owner}/{repo}/issues/{issue_number}', {
		list: 'reactions/reactions#list-reactions-for-an-issue',
		create: 'reactions/reactions#create-reaction-for-an-issue',
		remove: 'reactions/reactions#delete-an-issue-reaction',
	}),
	...reactionRoutes('comment', '/repos/{owner}/{repo}/issues/comments/{comment_id}', {
		list: 'reactions/reactions#list-reactions-for-an-issue-comment',
		create: 'reactions/reactions#create-reaction-for-an-issue-comment',
		remove: 'reactions/reactions#delete-an-issue-comment-reaction',
	}),
];
