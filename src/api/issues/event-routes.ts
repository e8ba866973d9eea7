/**
 * Issue events (GitHub's "Issue events" REST API): an issue's events, a repository's events (each
 * with its issue) and one event. Readers of the repository's issues or pull requests read them; a
 * repository with issues turned off keeps its pull requests' events. An issue's timeline is
 * src/api/timeline/routes.ts.
 */
import { notFound } from '../../model/errors';
import { idParam, route } from '../../http/route';
import { ok, paged } from '../../http/reply';
import { ISSUES_READ } from './access';
import { issueEvent, peopleOf } from './event-render';
import { issueRepository, loadIssue, renderIssues, type IssueScope } from './service';
import type { IssueRow } from '../../model/rows';

/** The events of issues the caller reads in this repository: a repository with issues off keeps its pull requests'. */
function readableIssues(scope: IssueScope, rows: IssueRow[]): IssueRow[] {
	return scope.repo.has_issues === 1 ? rows : rows.filter((row) => row.pull_request);
}

export const issueEventRoutes = [
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/events',
		docs: 'issues/events#list-issue-events',
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const issue = loadIssue(ctx, scope);
			const { rows, total } = ctx.app.stores.issueEvents.forIssue(issue.id, ctx.page.perPage, ctx.page.offset);
			const people = peopleOf(ctx.app, scope.owner.login, rows);
			return paged(
				rows.map((row) => issueEvent(ctx.app.urls, scope.paths, row, people)),
				total,
			);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/events',
		docs: 'issues/events#list-issue-events-for-a-repository',
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const { rows, total } = ctx.app.stores.issueEvents.forRepo(scope.repo.id, ctx.page.perPage, ctx.page.offset);
			const issues = readableIssues(scope, ctx.app.stores.issues.byIds([...new Set(rows.map((row) => row.issue_id))]));
			const rendered = new Map<number, unknown>();
			const items = renderIssues(ctx, scope, issues);
			for (let i = 0; i < issues.length; i++) rendered.set(issues[i].id, items[i]);
			const people = peopleOf(ctx.app, scope.owner.login, rows);
			return paged(
				rows
					.filter((row) => rendered.has(row.issue_id))
					.map((row) => issueEvent(ctx.app.urls, scope.paths, row, people, rendered.get(row.issue_id))),
				total,
			);
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/events/{event_id}',
		docs: 'issues/events#get-an-issue-event',
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const id = idParam(ctx.params.event_id);
			const row = id === null ? undefined : ctx.app.stores.issueEvents.byId(scope.repo.id, id);
			const issue = row && ctx.app.stores.issues.byId(row.issue_id);
			if (!row || !issue || readableIssues(scope, [issue]).length === 0) throw notFound();
			return ok(
				issueEvent(
					ctx.app.urls,
					scope.paths,
					row,
					peopleOf(ctx.app, scope.owner.login, [row]),
					renderIssues(ctx, scope, [issue])[0],
				),
			);
		},
	}),
];
