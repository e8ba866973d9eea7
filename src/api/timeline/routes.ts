/**
 * An issue's timeline (GitHub's "Timeline events" REST API,
 * https://docs.github.com/rest/issues/timeline): its events, comments and, for a pull request, its
 * commits and submitted reviews, in time order (src/api/issues/timeline.ts issueTimeline). Readers
 * of the repository's issues or pull requests read it; a repository with issues turned off keeps
 * its pull requests' timelines. Its own folder, since it renders both issues' and pulls' parts.
 */
import { route } from '../../http/route';
import { paged } from '../../http/reply';
import type { Caller } from '../../auth/caller';
import { simpleUser } from '../../model/render';
import type { IssueRow, PullRow } from '../../model/rows';
import { commit as gitCommit } from '../git/render';
import { ISSUES_READ } from '../issues/access';
import { issueEvent, peopleOf } from '../issues/event-render';
import { issueComment } from '../issues/render';
import { issueRepository, loadIssue, type IssueScope } from '../issues/service';
import { issueTimeline } from '../issues/timeline';
import { signatureVerifier } from '../keys/verification';
import { renderReview } from '../pulls/reviews';
import { pullCommits } from '../pulls/service';

export const timelineRoutes = [
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
 * verification each kind names read once for the page; bodies in the caller's media type.
 */
function renderTimeline(
	ctx: Caller,
	scope: IssueScope,
	issue: IssueRow,
	pull: PullRow | undefined,
	items: ReturnType<typeof issueTimeline>['items'],
): unknown[] {
	const { app } = ctx;
	const events = items.flatMap((item) => (item.kind === 'event' ? [item.event] : []));
	const people = peopleOf(app, scope.owner.login, events);
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
