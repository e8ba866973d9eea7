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
import { forbidden, notFound, validationFailed } from '../../model/errors';
import { created, noContent, ok, paged, type Reply } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { atLeast } from '../../auth/repo-permissions';
import { callerRepoPermission } from '../../auth/access/repos';
import { issueBodyField } from '../markdown/body';
import { filePatch, unifiedDiff } from '../git/diff';
import type { RepositoryRow } from '../repos/store';
import type { AccountRow } from '../users/store';
import { AuthorLookup, diffEntry, fullCommit } from '../commits/render';
import { formatPatch, textAnswer } from '../commits/text';
import { issueSnapshot, recordIssueChanges } from '../issues/events';
import { canTriage, type IssueScope } from '../issues/service';
import type { IssueRow } from '../issues/store';
import {
	fetchHead,
	loadPull,
	MAX_PULL_COMMITS,
	MAX_PULL_FILES,
	pullComparison,
	pullScope,
	refreshMergeability,
	renderPulls,
	reopenPull,
} from './service';
import type { PullRow, PullSort } from './store';
import { PULLS_READ, PULLS_WRITE } from './access';

const MAX_TITLE = 256;
const title = v.pipe(
	v.union([v.string(), v.number()], 'title must be a string'),
	v.transform((value) => String(value).trim()),
	v.minLength(1, "title can't be blank"),
	v.maxLength(MAX_TITLE, `title is longer than ${MAX_TITLE} characters`),
);
const branchName = (field: string) =>
	v.pipe(v.string(`${field} must be a string`), v.minLength(1, `${field} can't be blank`), v.maxLength(1024, `${field} is too long`));

const createBody = v.object({
	title: v.optional(title),
	head: branchName('head'),
	head_repo: v.optional(v.string('head_repo must be a string')),
	base: branchName('base'),
	body: v.optional(issueBodyField),
	maintainer_can_modify: v.optional(v.boolean('maintainer_can_modify must be a boolean')),
	draft: v.optional(v.boolean('draft must be a boolean')),
	issue: v.optional(
		v.pipe(v.number('issue must be a number'), v.integer('issue must be an integer'), v.minValue(1, 'issue must be positive')),
	),
});
const updateBody = v.object({
	title: v.optional(title),
	body: v.optional(issueBodyField),
	state: v.optional(v.picklist(['open', 'closed'], 'state must be open or closed')),
	base: v.optional(branchName('base')),
	maintainer_can_modify: v.optional(v.boolean('maintainer_can_modify must be a boolean')),
});
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

/** GitHub's 422 for a pull request that cannot be made: a `custom` item with a sentence. */
const custom = (field: string, message: string) => validationFailed([{ resource: 'PullRequest', field, code: 'custom', message }]);
/** GitHub's 422 for an unknown head or base branch. */
const invalid = (field: 'head' | 'base') => validationFailed([{ resource: 'PullRequest', field, code: 'invalid' }]);

/** The branch's commit in a repository, or null when it has no such branch. */
function branchSha(ctx: Context, repoId: number, branch: string): string | null {
	return ctx.app.stores.git.ref(repoId, `refs/heads/${branch}`)?.sha ?? null;
}

/**
 * The repository a head names: `branch` (this repository) or `owner:branch` (this repository when
 * the owner owns it, else that owner's fork in this repository's network that the caller can read;
 * `head_repo` names the fork when the owner has several).
 * @returns the repository, its owner and the branch; null when no such repository is readable
 */
function headRepository(
	ctx: Context,
	scope: IssueScope,
	head: string,
	headRepo: string | undefined,
): { repo: RepositoryRow; owner: AccountRow; branch: string } | null {
	const colon = head.indexOf(':');
	if (colon === -1 && headRepo === undefined) return { repo: scope.repo, owner: scope.owner, branch: head };
	const login = colon === -1 ? scope.owner.login : head.slice(0, colon);
	const branch = colon === -1 ? head : head.slice(colon + 1);
	const owner = ctx.app.stores.accounts.byLogin(login);
	if (!owner || !branch) return null;
	if (owner.id === scope.owner.id && (headRepo === undefined || headRepo.toLowerCase() === scope.repo.name.toLowerCase())) {
		return { repo: scope.repo, owner: scope.owner, branch };
	}
	const network = new Set(ctx.app.stores.repos.network(scope.repo.id));
	const candidates = ctx.app.stores.repos
		.byIds([...network])
		.filter((r) => r.owner_id === owner.id && (headRepo === undefined || r.name.toLowerCase() === headRepo.toLowerCase()));
	const found = candidates.find((r) => callerRepoPermission(ctx, r, owner) !== null);
	return found ? { repo: found, owner, branch } : null;
}

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
		body: createBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const input = ctx.body;
			const { stores } = ctx.app;
			if (input.issue === undefined && input.title === undefined) {
				throw validationFailed([{ resource: 'PullRequest', field: 'title', code: 'missing_field' }]);
			}
			const head = headRepository(ctx, scope, input.head, input.head_repo);
			const headSha = head ? branchSha(ctx, head.repo.id, head.branch) : null;
			if (!head || !headSha) throw invalid('head');
			const baseSha = branchSha(ctx, scope.repo.id, input.base);
			if (!baseSha) throw invalid('base');
			const headLabel = `${head.owner.login}:${head.branch}`;
			const existing = stores.pulls.openWithHead(scope.repo.id, head.repo.id, head.branch, input.base);
			if (existing) throw custom('head', `A pull request already exists for ${headLabel}.`);
			const now = isoSeconds(ctx.now);
			// A fork's head is fetched into this repository (GitHub's refs/pull/N/head); a refusal below rolls it back.
			fetchHead(ctx.app, scope.repo.id, head.repo.id, headSha, now);
			const draft = { repo_id: scope.repo.id, head_repo_id: head.repo.id, base_sha: baseSha, head_sha: headSha };
			const comparison = pullComparison(
				ctx.app,
				{ ...draft, issue_id: 0, head_ref: head.branch, base_ref: input.base } as PullRow['pr'],
				1,
			);
			if (!comparison) throw custom('head', `The ${input.head} branch has no history in common with ${input.base}`);
			if (comparison.commits.length === 0) throw custom('head', `No commits between ${input.base} and ${input.head}`);

			const actor = ctx.principal.actorId!;
			let issueRow: IssueRow;
			if (input.issue !== undefined) {
				// Converting an issue: its author or someone with push access; the issue keeps its number and conversation.
				const issue = stores.issues.byNumber(scope.repo.id, input.issue);
				if (!issue || issue.pull_request)
					throw validationFailed([{ resource: 'PullRequest', field: 'issue', code: 'invalid', value: input.issue }]);
				if (issue.user_id !== actor && !atLeast(scope.permission, 'push')) {
					throw forbidden('Must be the author of the issue or have push access to the repository to convert it.');
				}
				issueRow = issue;
			} else {
				issueRow = stores.issues.insert(
					{ repo_id: scope.repo.id, title: input.title!, body: input.body ?? null, user_id: actor, pull_request: true },
					now,
				);
			}
			stores.pulls.insert(
				{
					issue_id: issueRow.id,
					repo_id: scope.repo.id,
					head_repo_id: head.repo.id,
					head_ref: head.branch,
					head_sha: headSha,
					base_ref: input.base,
					base_sha: baseSha,
					draft: input.draft ? 1 : 0,
					maintainer_can_modify: input.maintainer_can_modify && head.repo.id !== scope.repo.id ? 1 : 0,
				},
				now,
			);
			const row = stores.pulls.byIssue(issueRow.id)!;
			refreshMergeability(ctx.app, row.pr);
			const current = stores.pulls.byIssue(issueRow.id)!;
			recordIssueChanges(ctx, scope, null, current);
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
		body: updateBody,
		handler(ctx) {
			const scope = pullScope(ctx);
			const current = loadPull(ctx, scope);
			const input = ctx.body;
			const actor = ctx.principal.actorId!;
			if (!canTriage(scope) && current.user_id !== actor) {
				throw forbidden('Must be the author of the pull request or have triage access to the repository to update it.');
			}
			const { stores } = ctx.app;
			const before = issueSnapshot(ctx, current);
			const moreChanges: Record<string, unknown> = {};
			if (input.base !== undefined && input.base !== current.pr.base_ref) {
				if (!atLeast(scope.permission, 'push'))
					throw forbidden('Must have push access to the repository to change the base branch.');
				if (current.pr.merged_at !== null) throw custom('base', 'Cannot change the base branch of a merged pull request.');
				const baseSha = branchSha(ctx, scope.repo.id, input.base);
				if (!baseSha) throw invalid('base');
				if (current.pr.head_repo_id === scope.repo.id && input.base === current.pr.head_ref) {
					throw custom('base', `The base branch ${input.base} is the head branch of this pull request.`);
				}
				const other =
					current.pr.head_repo_id === null
						? undefined
						: stores.pulls.openWithHead(scope.repo.id, current.pr.head_repo_id, current.pr.head_ref, input.base);
				if (other && other.id !== current.id && current.state === 'open') {
					throw custom(
						'base',
						`A pull request already exists for base branch '${input.base}' and head branch '${current.pr.head_ref}'`,
					);
				}
				stores.pulls.setBase(current.id, input.base, baseSha);
				moreChanges.base = { ref: { from: current.pr.base_ref }, sha: { from: current.pr.base_sha } };
			}
			const now = isoSeconds(ctx.now);
			const next: IssueRow = { ...current };
			if (input.title !== undefined) next.title = input.title;
			if (input.body !== undefined) next.body = input.body;
			if (input.state !== undefined && input.state !== current.state) {
				if (input.state === 'closed') {
					Object.assign(next, { state: 'closed', state_reason: null, closed_at: now, closed_by_id: actor });
				} else {
					reopenPull(ctx.app, stores.pulls.byIssue(current.id)!.pr, input.base ?? current.pr.base_ref, now);
					Object.assign(next, { state: 'open', state_reason: null, closed_at: null, closed_by_id: null });
				}
			}
			if (input.maintainer_can_modify !== undefined && current.pr.head_repo_id !== scope.repo.id) {
				stores.pulls.setMaintainerCanModify(current.id, input.maintainer_can_modify);
			}
			stores.issues.update(next, now);
			const updated = stores.pulls.byIssue(current.id)!;
			if (updated.pr.head_sha !== current.pr.head_sha || updated.pr.base_sha !== current.pr.base_sha)
				refreshMergeability(ctx.app, updated.pr);
			recordIssueChanges(ctx, scope, before, updated, undefined, moreChanges);
			return ok(one(ctx, scope, stores.pulls.byIssue(current.id)!));
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
