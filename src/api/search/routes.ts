/**
 * Search (GitHub's search API: repositories, issues and pull requests, users), counted against the
 * `search` rate limit. Free text is matched with the FTS5 indexes of schema 11 (repositories: name,
 * description; issues: title, body; issue comments: body), qualifiers become SQL conditions, and what the caller may not
 * read is filtered in the same query (visibility.ts), so total_count is exact. Only the first 1000
 * results are reachable, as on GitHub. Items carry the shapes of the corresponding list routes and
 * `score` (1.0: Gitstead ranks best matches with FTS5's bm25 but reports no score of its own).
 * Issues are also found by their comments (issue_comments_fts), unless `in:` leaves them out.
 */
import * as v from 'valibot';
import { unprocessable } from '../../model/errors';
import { route, type Context } from '../../http/route';
import type { Reply } from '../../http/reply';
import { repository } from '../../model/render';
import { simpleUser } from '../../model/render';
import { textMatches } from './query';
import { ISSUE_SORTS, type IssueSearch } from './issues';
import { REPOSITORY_SORTS, type RepositorySearch } from './repositories';
import { searchIssueItems, searchRepositoryItems } from './service';
import { SEARCH_READ } from './access';
import { findUsers, USER_SORTS, type UserSearch } from './users';
import { findCode, hitRepositories, type CodeSearch } from './code';
import { COMMIT_SORTS, findCommits, type CommitSearch } from './commits';
import { AuthorLookup, fullCommit } from '../commits/render';
import { parseCommit } from '../git/objects';

/** GitHub answers only the first 1000 results of a search. */
export const MAX_RESULTS = 1000;

const order = v.optional(v.picklist(['asc', 'desc'], 'order must be asc or desc'));
const SEARCH = {
	...SEARCH_READ,
	rateLimit: 'search' as const,
	errorResource: 'Search',
	pagination: true,
};

/** The page as a search reaches it. @throws DomainError 422 past the first 1000 results */
function searchPage(ctx: Context): { limit: number; offset: number } {
	const { offset, perPage } = ctx.page;
	if (offset >= MAX_RESULTS) throw unprocessable(`Only the first ${MAX_RESULTS} search results are available`);
	return { limit: Math.min(perPage, MAX_RESULTS - offset), offset };
}

/**
 * The answer: total_count, incomplete_results, items (and `more`: search_type for issues); the Link
 * header stops at result 1000.
 */
function results(total: number, items: unknown[], more: Record<string, unknown> = {}, incomplete = false): Reply {
	return {
		status: 200,
		body: { total_count: total, incomplete_results: incomplete, items, ...more },
		total: Math.min(total, MAX_RESULTS),
	};
}

/** The text-match media type (`application/vnd.github.text-match+json`) adds `text_matches` to items. */
const wantsTextMatches = (ctx: Context) => ctx.media === 'text-match';

// ----- repositories

function searchRepositories(ctx: Context<RepositorySearch>): Reply {
	const { total, items } = searchRepositoryItems(ctx as Context, ctx.query, searchPage(ctx as Context), wantsTextMatches(ctx as Context));
	return results(total, items);
}

// ----- issues and pull requests

function searchIssues(ctx: Context<IssueSearch>): Reply {
	const { total, items } = searchIssueItems(ctx as Context, ctx.query, searchPage(ctx as Context), wantsTextMatches(ctx as Context));
	// GitHub's issue search names the kind it ran (lexical, semantic or hybrid): Gitstead's is lexical.
	return results(total, items, { search_type: 'lexical' });
}

// ----- users

function searchUsers(ctx: Context<UserSearch>): Reply {
	const { total, rows, words, columns } = findUsers(ctx.app, ctx.query, searchPage(ctx as Context));
	return results(
		total,
		rows.map((row) => {
			const item = simpleUser(ctx.app.urls, row);
			const email = row.type === 'Organization' || row.email_public === 1 ? row.email : null;
			const values: Record<string, string | null> = { login: row.login, name: row.name, email };
			const matches = wantsTextMatches(ctx as Context)
				? {
						text_matches: textMatches(
							item.url,
							'User',
							columns.map((c) => [c, values[c]]),
							words,
						),
					}
				: {};
			return { ...item, score: 1, ...matches };
		}),
	);
}

// ----- code

/** Characters of a file shown around the first match in a text match's fragment. */
const CODE_FRAGMENT = 200;

/**
 * The `text_matches` of a file (GitHub's FileContent matches): the fragment of its text around the
 * first term found (substring, case-insensitively, as the search matched) and each occurrence of
 * the terms in that fragment, [start, end) in UTF-16 units.
 */
function codeTextMatches(objectUrl: string, text: string, terms: readonly string[]) {
	const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const pattern = new RegExp([...new Set(terms)].map(escape).join('|'), 'giu');
	const found = [...text.matchAll(pattern)];
	if (found.length === 0) return [];
	const start = Math.max(0, Math.min(found[0].index! - CODE_FRAGMENT / 2, text.length - CODE_FRAGMENT));
	const fragment = text.slice(start, start + CODE_FRAGMENT);
	const matches = found
		.filter((m) => m.index! >= start && m.index! + m[0].length <= start + fragment.length)
		.slice(0, 20)
		.map((m) => ({ text: m[0], indices: [m.index! - start, m.index! - start + m[0].length] }));
	return [{ object_url: objectUrl, object_type: 'FileContent', property: 'content', fragment, matches }];
}

function searchCode(ctx: Context<CodeSearch>): Reply {
	const { total, rows, terms, inContent, incomplete } = findCode(ctx as Context, ctx.query, searchPage(ctx as Context));
	const { accounts, codeSearch } = ctx.app.stores;
	const repos = hitRepositories(ctx as Context, rows);
	const owners = accounts.mapByIds([...repos.values()].map((repo) => repo.owner_id));
	const { urls } = ctx.app;
	// Hits cluster in few repositories: each is rendered once.
	const rendered = new Map<number, ReturnType<typeof repository>>();
	return results(
		total,
		rows.map((row) => {
			const repo = repos.get(row.repo_id)!;
			const owner = owners.get(repo.owner_id)!;
			let simple = rendered.get(repo.id);
			if (!simple) rendered.set(repo.id, (simple = repository(urls, repo, owner, null)));
			const path = row.path.split('/').map(encodeURIComponent).join('/');
			const base = `/repos/${owner.login}/${repo.name}`;
			const item = {
				name: row.name,
				path: row.path,
				sha: row.sha,
				url: urls.api(`${base}/contents/${path}?ref=${row.commit_sha}`),
				git_url: urls.api(`${base}/git/blobs/${row.sha}`),
				html_url: urls.html(`/${owner.login}/${repo.name}/blob/${row.commit_sha}/${path}`),
				repository: simple,
				score: 1,
			};
			if (!wantsTextMatches(ctx as Context) || !inContent) return item;
			return { ...item, text_matches: codeTextMatches(item.url, codeSearch.text(row.id) ?? '', terms) };
		}),
		{},
		incomplete,
	);
}

// ----- commits

function searchCommits(ctx: Context<CommitSearch>): Reply {
	const { total, rows, terms, incomplete } = findCommits(ctx as Context, ctx.query, searchPage(ctx as Context));
	const { repos, accounts, git } = ctx.app.stores;
	const repoRows = new Map(repos.byIds([...new Set(rows.map((row) => row.repo_id))]).map((repo) => [repo.id, repo]));
	const owners = accounts.mapByIds([...repoRows.values()].map((repo) => repo.owner_id));
	const authors = new AuthorLookup(ctx.app);
	return results(
		total,
		rows.flatMap((row) => {
			const repo = repoRows.get(row.repo_id);
			const object = repo && git.object(repo.id, row.sha);
			// A commit gc removed since it was indexed (it left the branch): no longer shown.
			if (!repo || !object) return [];
			const owner = owners.get(repo.owner_id)!;
			const commit = fullCommit(ctx.app, { repo, owner }, row.sha, parseCommit(object.content), authors);
			const item = { ...commit, repository: repository(ctx.app.urls, repo, owner, null), score: 1 };
			if (!wantsTextMatches(ctx as Context)) return [item];
			return [{ ...item, text_matches: textMatches(commit.url, 'Commit', [['message', row.message]], terms) }];
		}),
		{},
		incomplete,
	);
}

/** The keys of a sort table (its sort values). */
const keysOf = <T extends object>(table: T) => Object.keys(table) as Array<keyof T & string>;

/** A search's query string: q, sort (one of `sorts`) and order. */
function searchQuery<S extends string>(sorts: readonly S[]) {
	return v.object({ q: v.optional(v.string()), sort: v.optional(v.picklist(sorts)), order });
}

/** GET /search/repositories, /search/issues, /search/users (GitHub's search API). */
export const searchRoutes = [
	route({
		...SEARCH,
		method: 'GET',
		path: '/search/repositories',
		docs: 'search/search#search-repositories',
		query: searchQuery(keysOf(REPOSITORY_SORTS)),
		handler: searchRepositories,
	}),
	route({
		...SEARCH,
		method: 'GET',
		path: '/search/issues',
		docs: 'search/search#search-issues-and-pull-requests',
		query: searchQuery(ISSUE_SORTS),
		handler: searchIssues,
	}),
	route({
		...SEARCH,
		method: 'GET',
		path: '/search/users',
		docs: 'search/search#search-users',
		query: searchQuery(keysOf(USER_SORTS)),
		handler: searchUsers,
	}),
	route({
		...SEARCH,
		// GitHub: code search requires authentication and counts against its own limit (10 a minute).
		access: 'authenticated',
		rateLimit: 'code_search',
		method: 'GET',
		path: '/search/code',
		docs: 'search/search#search-code',
		query: searchQuery(['indexed']),
		handler: searchCode,
	}),
	route({
		...SEARCH,
		method: 'GET',
		path: '/search/commits',
		docs: 'search/search#search-commits',
		query: searchQuery(keysOf(COMMIT_SORTS)),
		handler: searchCommits,
	}),
];
