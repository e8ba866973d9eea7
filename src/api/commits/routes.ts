/**
 * GitHub's repository commits API (repos/commits, repos/compare-commits, repos/list-tags) over the
 * stored git objects: list commits, get one with its stats and files (also as
 * application/vnd.github.diff and .patch, or as its bare SHA with .sha), compare two commits, and list tags. Reading needs
 * Contents (read) — public repositories anonymously too.
 */
import * as v from 'valibot';
import type { App } from '../../app';
import { ok, paged } from '../../http/reply';
import { route, type Context, type RouteDeclaration } from '../../http/route';
import { timestampParam } from '../../http/validation';
import { callerRepoPermission } from '../../auth/access/repos';
import { MAX_DIFF_FILES, unifiedDiff } from '../git/diff';
import { CommitReader } from '../git/graph';
import { repoApi, type RepoView } from '../git/render';
import { peel } from '../git/service';
import { fullSha, requireCommits } from '../git/writes';
import { unprocessable } from '../../model/errors';
import { AuthorLookup, fullCommit, shortBranch, tagItem } from './render';
import { formatPatch, textAnswer } from './text';
import { compareCommits, type Comparison, commitChanges, diffFiles, listCommits, MAX_COMPARE_COMMITS, requireCommit } from './service';
import { COMMITS_READ } from './access';

const READ = COMMITS_READ;

function view(ctx: Context): RepoView {
	return { repo: ctx.repo.repo, owner: ctx.repo.owner };
}

/** Whether the caller may read a repository (of a comparison's network) by id. */
function readable(ctx: Context, repoId: number): boolean {
	const row = ctx.app.stores.repos.byId(repoId);
	const owner = row && ctx.app.stores.accounts.byId(row.owner_id);
	return !!row && !!owner && callerRepoPermission(ctx, row, owner) !== null;
}

/** Comparison: GitHub's answer of GET …/compare/{basehead} for a comparison and its page of files. */
function comparisonBody(app: App, repo: RepoView, basehead: string, compared: Comparison, files: unknown[]) {
	const { base, head, mergeBaseSha, reader, counts } = compared;
	const authors = new AuthorLookup(app);
	const html = app.urls.html(`/${repo.owner.login}/${repo.repo.name}/compare/${basehead}`);
	return {
		url: `${repoApi(app.urls, repo)}/compare/${basehead}`,
		html_url: html,
		permalink_url: app.urls.html(
			`/${repo.owner.login}/${repo.repo.name}/compare/${base.ownerLogin}:${base.sha}...${head.ownerLogin}:${head.sha}`,
		),
		diff_url: `${html}.diff`,
		patch_url: `${html}.patch`,
		base_commit: fullCommit(app, repo, base.sha, reader.read(base.sha)!, authors),
		merge_base_commit: fullCommit(app, repo, mergeBaseSha, reader.read(mergeBaseSha)!, authors),
		status: counts.status,
		ahead_by: counts.ahead,
		behind_by: counts.behind,
		total_commits: compared.total,
		commits: compared.commits.map((c) => fullCommit(app, repo, c.sha, c.data, authors)),
		files,
	};
}

const epoch = (iso: string | undefined) => (iso === undefined ? undefined : Math.floor(Date.parse(iso) / 1000));

/** The commits, compare and tags routes, for the route table (src/api/routes.ts). */
export const commitRoutes: RouteDeclaration[] = [
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/commits',
		docs: 'commits/commits#list-commits',
		pagination: true,
		query: v.object({
			sha: v.optional(v.string()),
			path: v.optional(v.string()),
			author: v.optional(v.string()),
			committer: v.optional(v.string()),
			since: v.optional(timestampParam('since')),
			until: v.optional(timestampParam('until')),
		}),
		handler(ctx) {
			const repo = view(ctx);
			const head = requireCommit(ctx.app, repo, ctx.query.sha ?? repo.repo.default_branch, 404);
			const filter = {
				author: ctx.query.author,
				committer: ctx.query.committer,
				path: ctx.query.path,
				since: epoch(ctx.query.since),
				until: epoch(ctx.query.until),
			};
			const { commits, total } = listCommits(ctx.app, repo, head, filter, ctx.page.offset, ctx.page.perPage);
			const authors = new AuthorLookup(ctx.app);
			return paged(
				commits.map((c) => fullCommit(ctx.app, repo, c.sha, c.data, authors)),
				total,
			);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/commits/{ref}',
		docs: 'commits/commits#get-a-commit',
		// More than 300 files: pages of files (up to 3,000), each with the same commit and stats.
		pagination: { perPage: MAX_DIFF_FILES, maxPerPage: MAX_DIFF_FILES },
		handler(ctx) {
			const repo = view(ctx);
			const sha = requireCommit(ctx.app, repo, ctx.params.ref);
			// application/vnd.github.sha: the commit's SHA alone (how clients resolve a ref, e.g. actions/checkout).
			if (ctx.media === 'sha') return { status: 200, raw: { body: sha, contentType: 'application/vnd.github.sha; charset=utf-8' } };
			const data = new CommitReader(ctx.app, repo.repo.id).read(sha)!;
			const changes = commitChanges(ctx.app, repo.repo.id, data);
			const text = textAnswer(
				ctx,
				() => unifiedDiff(ctx.app, repo.repo.id, changes),
				() => formatPatch(ctx.app, repo.repo.id, sha, data, 1, 1),
			);
			if (text) return text;
			const { files, stats } = diffFiles(ctx.app, repo, sha, changes, ctx.page.offset, ctx.page.perPage);
			return {
				status: 200,
				body: { ...fullCommit(ctx.app, repo, sha, data, new AuthorLookup(ctx.app)), stats, files },
				total: changes.length,
			};
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/commits/{commit_sha}/branches-where-head',
		docs: 'commits/commits#list-branches-for-head-commit',
		handler(ctx) {
			const repo = view(ctx);
			requireCommits(ctx.app, repo.repo.id);
			const sha = fullSha(ctx.params.commit_sha);
			if (!sha || ctx.app.stores.git.meta(repo.repo.id, sha)?.type !== 'commit')
				throw unprocessable(`No commit found for SHA: ${ctx.params.commit_sha}`);
			return ok(
				ctx.app.stores.branches
					.headsAt(repo.repo.id, sha)
					.map((row) => shortBranch(ctx.app, repo, row.name, row.sha, row.protected)),
			);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/compare/{basehead}',
		docs: 'commits/commits#compare-two-commits',
		// Without page or per_page, GitHub answers up to 250 commits at once; with them, pages of commits (files on the first only).
		pagination: { perPage: MAX_COMPARE_COMMITS, maxPerPage: MAX_COMPARE_COMMITS },
		handler(ctx) {
			const repo = view(ctx);
			const compared = compareCommits(ctx.app, repo, ctx.params.basehead, (id) => readable(ctx, id), {
				offset: ctx.page.offset,
				limit: ctx.page.perPage,
			});
			const { repoId, commits, changes } = compared;
			const text = textAnswer(
				ctx,
				() => unifiedDiff(ctx.app, repoId, changes),
				() => commits.map((c, i) => formatPatch(ctx.app, repoId, c.sha, c.data, i + 1, commits.length)).join(''),
			);
			if (text) return text;
			// The files on the first page only.
			const { files } = ctx.page.page === 1 ? diffFiles(ctx.app, repo, compared.head.sha, changes) : { files: [] };
			return { status: 200, body: comparisonBody(ctx.app, repo, ctx.params.basehead, compared, files), total: compared.total };
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/tags',
		docs: 'repos/repos#list-repository-tags',
		pagination: true,
		handler(ctx) {
			const repo = view(ctx);
			const { git } = ctx.app.stores;
			// Newest names first: the store lists by name, so read the mirrored window of that order.
			const total = git.matchingRefs(repo.repo.id, 'refs/tags/', 0, 0).total;
			const end = Math.max(0, total - ctx.page.offset);
			const start = Math.max(0, end - ctx.page.perPage);
			const { rows } = git.matchingRefs(repo.repo.id, 'refs/tags/', end - start, start);
			const items = rows
				.reverse()
				.map((row) =>
					tagItem(
						ctx.app.urls,
						repo,
						row.name.slice('refs/tags/'.length),
						peel(ctx.app, repo.repo.id, row.sha, 'commit') ?? row.sha,
					),
				);
			return paged(items, total);
		},
	}),
];
