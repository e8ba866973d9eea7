/**
 * Pull requests (GitHub's "Pulls" REST API): list, create (from a branch of this
 * repository or of a fork in its network, or by converting an issue), get (also as
 * application/vnd.github.diff and .patch), update (title, body, state, base,
 * maintainer_can_modify), the commits and files of a pull request, and whether it was merged.
 * A pull request is an issue (issues.pull_request = 1): labels, assignees, milestones, locks and
 * comments go through the issue routes, and those report `pull_request` events for it.
 *
 * Reading needs Pull requests (read) — public repositories anonymously too; writing Pull requests
 * (write). Anyone who reads the repository may open a pull request (as from a fork on GitHub); its
 * author or anyone with triage access may change it, and changing its base needs push access.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { created, noContent, ok, paged, type Reply } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { filePatch, unifiedDiff } from '../git/diff';
import type { PullRow } from '../../model/rows';
import { AuthorLookup, diffEntry, fullCommit } from '../commits/render';
import { formatPatch, textAnswer } from '../commits/text';
import type { IssueScope } from '../issues/service';
import { loadPull, MAX_PULL_COMMITS, MAX_PULL_FILES, pullComparison, pullScope, renderPulls } from './service';
import { createPullRequest, headRepository, updatePullRequest } from './workflows';
import type { PullSort } from './store';
import { PULLS_READ, PULLS_WRITE } from './access';
import { createPullBody, updatePullBody } from './inputs';

const listQuery = v.object({
	state: v.optional(v.picklist(['open', 'closed', 'all'], 'state must be open, closed or all'), 'open'),
	head: v.optional(v.string()),
	base: v.optional(v.string()),
	sort: v.optional(
		v.picklist(['created', 'updated', 'popularity', 'long-running'], 'sort must be created, updated, popularity or long-running'),
		'created',
	),
	direction: v.optional(v.picklist(['asc', 'desc'], 'direction must be asc or desc')),
});

/** The {pull_number}'s pull request as the full form (the request's media type). */
function one(ctx: Context, scope: IssueScope, row: PullRow) {
	return renderPulls(ctx, scope, [row], true)[0];
}

/** The diff or patch of a pull request when the media type asks for one, else null. */
function pullText(ctx: Context, row: PullRow): Reply | null {
	if (ctx.media !== 'diff' && ctx.media !== 'patch') return null;
	const comparison = pullComparison(ctx.app, row.pr);
	const repoId = comparison?.repoId ?? row.repo_id;
	const commits = comparison?.commits ?? [];
	return textAnswer(
		ctx,
		() => unifiedDiff(ctx.app, repoId, comparison?.changes ?? []),
		() => commits.map((c, i) => formatPatch(ctx.app, repoId, c.sha, c.data, i + 1, commits.length)).join(''),
	);
}

/** The pull-request routes, registered in src/api/routes.ts. */
export const pullRoutes = [
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls',
		docs: 'pulls/pulls#list-pull-requests',
		errorResource: 'PullRequest',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const scope = pullScope(ctx);
			const { query } = ctx;
			let headRepoId: number | null = null;
			let headRef: string | null = null;
			if (query.head !== undefined && query.head !== '') {
				if (query.head.includes(':')) {
					// `owner:branch`: that owner's repository in the network (this one or a fork) and branch.
					const found = headRepository(ctx, scope, query.head, undefined);
					headRepoId = found?.repo.id ?? -1;
					headRef = found?.branch ?? null;
				} else {
					// `owner` alone: the head's owner, any branch.
					const owner = ctx.app.stores.accounts.byLogin(query.head);
					const repo = !owner
						? undefined
						: owner.id === scope.owner.id
							? scope.repo
							: ctx.app.stores.repos.byIds(ctx.app.stores.repos.network(scope.repo.id)).find((r) => r.owner_id === owner.id);
					headRepoId = repo?.id ?? -1;
				}
			}
			const sort = query.sort as PullSort;
			const { rows, total } = ctx.app.stores.pulls.list({
				repoId: scope.repo.id,
				state: query.state,
				headRepoId,
				headRef,
				baseRef: query.base ?? null,
				sort,
				direction: query.direction ?? (sort === 'created' ? 'desc' : 'asc'),
				monthAgo: isoSeconds(ctx.now - 30 * 24 * 3600 * 1000),
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(renderPulls(ctx, scope, rows, false), total);
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'POST',
		path: '/repos/{owner}/{repo}/pulls',
		docs: 'pulls/pulls#create-a-pull-request',
		errorResource: 'PullRequest',
		body: createPullBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const current = createPullRequest(ctx, scope, ctx.body);
			const body = one(ctx, scope, current);
			return created(body, body.url);
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}',
		docs: 'pulls/pulls#get-a-pull-request',
		handler(ctx) {
			const scope = pullScope(ctx);
			const row = loadPull(ctx, scope);
			return pullText(ctx, row) ?? ok(one(ctx, scope, row));
		},
	}),
	route({
		...PULLS_WRITE,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}',
		docs: 'pulls/pulls#update-a-pull-request',
		errorResource: 'PullRequest',
		body: updatePullBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const updated = updatePullRequest(ctx, scope, loadPull(ctx, scope), ctx.body);
			return ok(one(ctx, scope, updated));
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/commits',
		docs: 'pulls/pulls#list-commits-on-a-pull-request',
		pagination: true,
		handler(ctx) {
			const scope = pullScope(ctx);
			const row = loadPull(ctx, scope);
			const commits = (pullComparison(ctx.app, row.pr)?.commits ?? []).slice(0, MAX_PULL_COMMITS);
			const view = { repo: scope.repo, owner: scope.owner };
			const authors = new AuthorLookup(ctx.app);
			const page = commits.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			return paged(
				page.map((c) => fullCommit(ctx.app, view, c.sha, c.data, authors)),
				commits.length,
			);
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/files',
		docs: 'pulls/pulls#list-pull-requests-files',
		pagination: true,
		handler(ctx) {
			const scope = pullScope(ctx);
			const row = loadPull(ctx, scope);
			const comparison = pullComparison(ctx.app, row.pr, MAX_PULL_FILES);
			const changes = comparison?.changes ?? [];
			const view = { repo: scope.repo, owner: scope.owner };
			const page = changes.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			return paged(
				page.map((change) =>
					diffEntry(ctx.app.urls, view, row.pr.head_sha, change, filePatch(ctx.app, comparison!.repoId, change)),
				),
				changes.length,
			);
		},
	}),
	route({
		...PULLS_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/pulls/{pull_number}/merge',
		docs: 'pulls/pulls#check-if-a-pull-request-has-been-merged',
		handler(ctx) {
			const scope = pullScope(ctx);
			const row = loadPull(ctx, scope);
			if (row.pr.merged_at === null) throw notFound();
			return noContent();
		},
	}),
];
