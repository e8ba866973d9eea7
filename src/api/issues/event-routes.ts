/**
 * Issue events and timelines (GitHub's "Issue events" and "Timeline events" REST APIs): an issue's
 * events, a repository's events (each with its issue), one event, and an issue's timeline — its
 * events, comments and, for a pull request, its commits and submitted reviews, in time order.
 * Readers of the repository's issues or pull requests read them; a repository with issues turned
 * off keeps its pull requests' events.
 */
import { notFound } from '../../model/errors';
import { idParam, route, type Context } from '../../http/route';
import { ok, paged } from '../../http/reply';
import { commit as gitCommit } from '../git/render';
import { signatureVerifier } from '../keys/verification';
import { pullCommits } from '../pulls/service';
import { renderReview } from '../pulls/reviews';
import type { PullRow } from '../../model/rows';
import { ISSUES_READ } from './routes';
import { issueComment } from './render';
import { issueEvent, namedIn, type EventPeople } from './event-render';
import type { IssueEventRow } from './event-store';
import { issueRepository, loadIssue, renderIssues, type IssueScope } from './service';
import type { IssueRow } from '../../model/rows';
import { issueTimeline } from './timeline';
import { simpleUser } from '../../model/render';

/** Accounts and teams the events name, one query each. */
function peopleOf(ctx: Context, scope: IssueScope, rows: readonly IssueEventRow[]): EventPeople {
	const { accountIds, teamIds } = namedIn(rows);
	const { stores } = ctx.app;
	const teams = new Map(stores.teams.byIds(teamIds).map((team) => [team.id, team]));
	const parents = [...teams.values()].flatMap((team) => (team.parent_id !== null && !teams.has(team.parent_id) ? [team.parent_id] : []));
	for (const team of stores.teams.byIds(parents)) teams.set(team.id, team);
	return { accounts: stores.accounts.mapByIds(accountIds), teams, orgLogin: scope.owner.login };
}

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
			const people = peopleOf(ctx, scope, rows);
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
			const people = peopleOf(ctx, scope, rows);
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
			return ok(issueEvent(ctx.app.urls, scope.paths, row, peopleOf(ctx, scope, [row]), renderIssues(ctx, scope, [issue])[0]));
		},
	}),
	route({
		...ISSUES_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/issues/{issue_number}/timeline',
		docs: 'issues/timeline#list-timeline-events-for-an-issue',
		pagination: true,
		handler(ctx) {
			const scope = issueRepository(ctx, { allowDisabled: true });
			const issue = loadIssue(ctx, scope);
			const { app } = ctx;
			const pull = issue.pull_request ? (app.stores.pulls.byIssue(issue.id) as PullRow | undefined) : undefined;
			const { items, total } = issueTimeline(app, issue, {
				viewerId: ctx.principal.user?.id ?? null,
				commits: pull ? (pullCommits(app, pull.pr) ?? []) : undefined,
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(renderTimeline(ctx, scope, issue, pull, items), total);
		},
	}),
];

/**
 * The REST rendering of a page of an issue's timeline items (GitHub's timeline events: issue
 * events, `committed`, `commented` and `reviewed`), with the people, authors and signature
 * verification each kind names read once for the page.
 */
function renderTimeline(
	ctx: Context,
	scope: IssueScope,
	issue: IssueRow,
	pull: PullRow | undefined,
	items: ReturnType<typeof issueTimeline>['items'],
): unknown[] {
	const { app } = ctx;
	const events = items.flatMap((item) => (item.kind === 'event' ? [item.event] : []));
	const people = peopleOf(ctx, scope, events);
	const authors = app.stores.accounts.mapByIds(
		items.flatMap((item) => (item.kind === 'comment' ? [item.comment.user_id] : item.kind === 'review' ? [item.review.user_id] : [])),
	);
	const view = { repo: scope.repo, owner: scope.owner };
	const verify = signatureVerifier(app);
	const body = items.map((item) => {
		switch (item.kind) {
			case 'event':
				return issueEvent(app.urls, scope.paths, item.event, people);
			case 'commit':
				return { event: 'committed', ...gitCommit(app.urls, view, item.commit.sha, item.commit.data, verify) };
			case 'comment': {
				const author = authors.get(item.comment.user_id)!;
				const comment = issueComment(
					app.urls,
					scope.paths,
					issue.number,
					issue.pull_request === 1,
					item.comment,
					author,
					scope.associations.of(author),
					ctx.media,
				);
				return { event: 'commented', actor: simpleUser(app.urls, author), ...comment };
			}
			default: {
				const review = renderReview(ctx, scope, pull!, item.review, authors.get(item.review.user_id)!);
				return { event: 'reviewed', ...review, state: item.review.state.toLowerCase() };
			}
		}
	});
	return body;
}
