/**
 * Issues (GitHub's issues API; every pull request is an issue, numbered with the
 * repository's issues): create, get, list with filters, update, lock and unlock, an issue's labels
 * and assignees. Anyone who can see a repository with issues turned on may open an issue; labels,
 * assignees and milestones given by callers without push access are dropped, as GitHub does.
 */
import * as v from 'valibot';
import { gone, notFound } from '../../model/errors';
import { HttpError } from '../../http/errors';
import { callerRepoPermission } from '../../auth/access/repos';
import { formerIssue } from './admin';
import { created, noContent, ok, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { timestampParam } from '../../http/validation';
import { label } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { IssueRow, LabelRow } from '../../model/rows';
import {
	assignableScope,
	issueRepository,
	listIssues,
	loadIssue,
	renderIssue,
	renderIssues,
	resolveAssignees,
	type IssueScope,
} from './service';
import { ISSUES_LOCK, ISSUES_READ, ISSUES_TRIAGE, ISSUES_WRITE } from './access';
import { createBody, labelInput, updateBody } from './inputs';
import { addAssignees, createIssue, removeAssignees, removeIssueLabel, setIssueLabels, setIssueLock, updateIssue } from './workflows';

const listQuery = v.object({
	milestone: v.optional(v.string()),
	state: v.optional(v.picklist(['open', 'closed', 'all'], 'state must be open, closed or all'), 'open'),
	assignee: v.optional(v.string()),
	creator: v.optional(v.string()),
	mentioned: v.optional(v.string()),
	labels: v.optional(v.string()),
	type: v.optional(v.string()),
	sort: v.optional(v.picklist(['created', 'updated', 'comments'], 'sort must be created, updated or comments'), 'created'),
	direction: v.optional(v.picklist(['asc', 'desc'], 'direction must be asc or desc'), 'desc'),
	since: v.optional(timestampParam('since')),
});
const lockBody = v.object({
	lock_reason: v.optional(
		v.picklist(['off-topic', 'too heated', 'resolved', 'spam'], 'lock_reason must be off-topic, too heated, resolved or spam'),
	),
});
/** Add or set labels: `labels` (names or {name} objects; GitHub also takes them bare, see arrayBody). */
const labelsBody = v.object({ labels: v.optional(labelInput, []) });
const assigneesBody = v.object({ assignees: v.optional(v.array(v.string()), []) });

/** Assignee logins of a request: `assignees`, else the closing-down single `assignee`. */
function assigneeLogins(input: { assignee?: string | null; assignees?: string[] }): string[] | undefined {
	if (input.assignees !== undefined) return input.assignees;
	if (input.assignee !== undefined) return input.assignee === null ? [] : [input.assignee];
	return undefined;
}

/** One issue as a single-issue answer (with closed_by); `row` must be current. */
function one(ctx: Context, scope: IssueScope, row: IssueRow) {
	return renderIssue(ctx, scope, row) as ReturnType<typeof renderIssues>[number];
}

function issueLabels(scope: IssueScope, rows: LabelRow[]) {
	return rows.map((l) => label(scope.paths.api, l));
}

/** POST (add) and PUT (set) an issue's labels: the same rules, attach or replace. */
function labelsRoute(method: 'POST' | 'PUT', docs: string, mode: 'attach' | 'replace') {
	return route({
		...ISSUES_TRIAGE,
		method,
		path: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
		docs,
		errorResource: 'Label',
		body: labelsBody,
		arrayBody: 'labels',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			return ok(issueLabels(scope, setIssueLabels(ctx, scope, loadIssue(ctx, scope), ctx.body.labels, mode)));
		},
	});
}

/**
 * GitHub's answers for a number whose issue left the repository: 301 Moved Permanently to where a
 * transferred issue is now (for callers who can read it there; others 404), 410 Gone for a deleted
 * one. Nothing for a number an issue holds (or never held).
 * @throws HttpError 301; DomainError 404, 410
 */
function movedIssue(ctx: Context, scope: IssueScope): void {
	const number = /^\d{1,10}$/.test(ctx.params.issue_number) ? Number(ctx.params.issue_number) : 0;
	if (!number || ctx.app.stores.issues.byNumber(scope.repo.id, number)) return;
	const former = formerIssue(ctx, scope.repo.id, number);
	if (former === undefined) return;
	if (former === 'deleted') throw gone('This issue was deleted');
	const { repos, accounts } = ctx.app.stores;
	const repo = repos.byId(former.moved.repo_id);
	const owner = repo && accounts.byId(repo.owner_id);
	if (!repo || !owner || !callerRepoPermission(ctx, repo, owner)) throw notFound();
	const url = ctx.app.urls.api(
		`/repos/${encodeURIComponent(owner.login)}/${encodeURIComponent(repo.name)}/issues/${former.moved.number}`,
	);
	throw new HttpError(301, 'Moved Permanently', {
		headers: { Location: url },
		extra: { url },
		documentation: 'https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects',
	});
}

export const issueRoutes = [
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues',
		docs: 'issues/issues#list-repository-issues',
		errorResource: 'Issue',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx);
			const { rows, total } = listIssues(ctx, scope, ctx.query, ctx.page);
			return paged(renderIssues(ctx, scope, rows), total);
		},
	}),
	route({
		...ISSUES_WRITE,
		permissions: [{ issues: 'write' }],
		method: 'POST',
		path: '/repos/{owner}/{repo}/issues',
		docs: 'issues/issues#create-an-issue',
		errorResource: 'Issue',
		body: createBody,
		handler(ctx) {
			const scope = issueRepository(ctx);
			const { title, body, labels, milestone } = ctx.body;
			const row = createIssue(ctx, scope, { title, body, assignees: assigneeLogins(ctx.body), labels, milestone });
			const rendered = one(ctx, scope, row);
			return created(rendered, rendered.url);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/{issue_number}',
		docs: 'issues/issues#get-an-issue',
		// A matching If-None-Match is answered 304 before the issue is read or rendered, while nothing
		// the answer shows changed (src/db/change-counters.ts lists what counts).
		version: (ctx) => `${ctx.app.stores.changes.repositoryVersion(ctx.repo.repo.id, ctx.repo.owner.id)}:${ctx.params.issue_number}`,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			movedIssue(ctx, scope);
			return ok(one(ctx, scope, loadIssue(ctx, scope)));
		},
	}),
	route({
		...ISSUES_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/issues/{issue_number}',
		docs: 'issues/issues#update-an-issue',
		errorResource: 'Issue',
		body: updateBody,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const patch = { ...ctx.body, assignees: assigneeLogins(ctx.body) };
			return ok(one(ctx, scope, updateIssue(ctx, scope, loadIssue(ctx, scope), patch)));
		},
	}),
	route({
		...ISSUES_LOCK,
		method: 'PUT',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/lock',
		docs: 'issues/issues#lock-an-issue',
		errorResource: 'Issue',
		body: lockBody,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			setIssueLock(ctx, scope, loadIssue(ctx, scope), true, ctx.body.lock_reason ?? null);
			return noContent();
		},
	}),
	route({
		...ISSUES_LOCK,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/lock',
		docs: 'issues/issues#unlock-an-issue',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			setIssueLock(ctx, scope, loadIssue(ctx, scope), false);
			return noContent();
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
		docs: 'issues/labels#list-labels-for-an-issue',
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const row = loadIssue(ctx, scope);
			const all = issueLabels(scope, ctx.app.stores.labels.forIssues([row.id]).get(row.id) ?? []);
			return paged(all.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage), all.length);
		},
	}),
	labelsRoute('POST', 'issues/labels#add-labels-to-an-issue', 'attach'),
	labelsRoute('PUT', 'issues/labels#set-labels-for-an-issue', 'replace'),
	route({
		...ISSUES_TRIAGE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
		docs: 'issues/labels#remove-all-labels-from-an-issue',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			setIssueLabels(ctx, scope, loadIssue(ctx, scope), [], 'replace');
			return noContent();
		},
	}),
	route({
		...ISSUES_TRIAGE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
		docs: 'issues/labels#remove-a-label-from-an-issue',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			return ok(issueLabels(scope, removeIssueLabel(ctx, scope, loadIssue(ctx, scope), ctx.params.name)));
		},
	}),
	route({
		...ISSUES_TRIAGE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/assignees',
		docs: 'issues/assignees#add-assignees-to-an-issue',
		errorResource: 'Issue',
		body: assigneesBody,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			return created(one(ctx, scope, addAssignees(ctx, scope, loadIssue(ctx, scope), ctx.body.assignees)));
		},
	}),
	route({
		...ISSUES_TRIAGE,
		method: 'DELETE',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/assignees',
		docs: 'issues/assignees#remove-assignees-from-an-issue',
		errorResource: 'Issue',
		body: assigneesBody,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			return ok(one(ctx, scope, removeAssignees(ctx, scope, loadIssue(ctx, scope), ctx.body.assignees)));
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/assignees',
		docs: 'issues/assignees#list-assignees',
		pagination: true,
		handler(ctx) {
			// The same statement decides GET …/assignees/{assignee} and the assignees an issue accepts.
			const { rows, total } = ctx.app.stores.issues.assignable(assignableScope(ctx.repo), ctx.page.perPage, ctx.page.offset);
			return paged(
				rows.map((account) => simpleUser(ctx.app.urls, account)),
				total,
			);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/assignees/{assignee}',
		docs: 'issues/assignees#check-if-a-user-can-be-assigned',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			try {
				resolveAssignees(ctx, scope, [ctx.params.assignee]);
			} catch {
				throw notFound();
			}
			return noContent();
		},
	}),
];
