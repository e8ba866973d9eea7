/**
 * The issue-comment use cases (GitHub's issue comments; comments on pull requests are issue
 * comments too): create, update, delete. Each checks the rule, writes in one transaction and
 * records its issue_comment event itself (src/api/issues/events.ts recordIssueComment). Refusals
 * are DomainErrors (src/model/errors.ts).
 */
import type { Caller } from '../../auth/caller';
import { forbidden } from '../../model/errors';
import { atLeast } from '../../model/repo-permissions';
import type { IssueCommentRow, IssueRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { recordIssueComment } from '../issues/events';
import type { IssueScope } from '../issues/service';
import { issueComment } from '../issues/render';

/** Authors change their own comments; others need push access (GitHub's write role). @throws DomainError 403 */
function requireEditable(caller: Caller, scope: IssueScope, row: IssueCommentRow): void {
	if (row.user_id !== caller.principal.actorId && !atLeast(scope.permission, 'push')) {
		throw forbidden('Must be the author of the comment or have write access to the repository to change it.');
	}
}

/**
 * Comments on an issue or pull request. A locked conversation takes comments only from people with
 * push access.
 * @returns the comment as stored
 * @throws DomainError 403 "Unable to create comment because issue is locked." (or without an acting user)
 */
export function createIssueComment(caller: Caller, scope: IssueScope, issue: IssueRow, body: string): IssueCommentRow {
	const actor = caller.principal.actorId;
	if (actor === null) throw forbidden('A user must act to comment.');
	if (issue.locked === 1 && !atLeast(scope.permission, 'push')) throw forbidden('Unable to create comment because issue is locked.');
	const { app } = caller;
	return app.transaction(() => {
		const row = app.stores.issues.insertComment(issue, actor, body, isoSeconds(caller.now));
		recordIssueComment(caller, scope, app.stores.issues.byId(issue.id)!, row, 'created');
		return row;
	});
}

/**
 * Changes a comment's body (its author, or push access); an unchanged body records nothing.
 * @returns the comment as stored
 * @throws DomainError 403 for neither author nor writer
 */
export function updateIssueComment(caller: Caller, scope: IssueScope, comment: IssueCommentRow, body: string): IssueCommentRow {
	requireEditable(caller, scope, comment);
	const { app } = caller;
	return app.transaction(() => {
		const updated = app.stores.issues.updateComment(comment, body, isoSeconds(caller.now));
		if (updated.body !== comment.body)
			recordIssueComment(caller, scope, app.stores.issues.byId(comment.issue_id)!, updated, 'edited', comment.body);
		return updated;
	});
}

/**
 * Deletes a comment (its author, or push access).
 * @throws DomainError 403 for neither author nor writer
 */
export function deleteIssueComment(caller: Caller, scope: IssueScope, comment: IssueCommentRow): void {
	requireEditable(caller, scope, comment);
	const { app } = caller;
	app.transaction(() => {
		app.stores.issues.removeComment(comment, isoSeconds(caller.now));
		recordIssueComment(caller, scope, app.stores.issues.byId(comment.issue_id)!, comment, 'deleted');
	});
}

/**
 * Renders comments (GitHub's issue-comment) with their issues and authors loaded in one query
 * each, the bodies in the caller's media type.
 * @param issues the comments' issues when the caller has them (else read by id)
 */
export function renderIssueComments(caller: Caller, scope: IssueScope, rows: IssueCommentRow[], issues?: IssueRow[]) {
	const { app } = caller;
	const byId = new Map((issues ?? app.stores.issues.byIds([...new Set(rows.map((c) => c.issue_id))])).map((i) => [i.id, i]));
	const authors = app.stores.accounts.mapByIds(rows.map((c) => c.user_id));
	return rows.map((row) => {
		const issue = byId.get(row.issue_id)!;
		const author = authors.get(row.user_id)!;
		return issueComment(
			app.urls,
			scope.paths,
			issue.number,
			issue.pull_request === 1,
			row,
			author,
			scope.associations.of(author),
			caller.media,
		);
	});
}
