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
import { invalidField, unprocessable } from '../../model/errors';
import { route, type Context } from '../../http/route';
import type { Reply } from '../../http/reply';
import { repositoryPermissions } from '../../auth/access/repos';
import type { RepoPermission } from '../../auth/repo-permissions';
import { repository, repositoryPaths } from '../repos/render';
import type { RepositoryRow } from '../repos/store';
import { Associations } from '../issues/association';
import { renderIssues, type IssueScope } from '../issues/service';
import { simpleUser } from '../users/render';
import type { AccountRow } from '../users/store';
import { booleanValue, Conditions, containsPattern, countRange, dateRange, matchExpression, parseQuery, textMatches } from './query';
import { readablePrivateRepositories } from './visibility';
import { findIssues, ISSUE_SORTS, type IssueSearch } from './issues';
import { inColumns, maybeNot, scopeQualifiers } from './scope';

/** GitHub answers only the first 1000 results of a search. */
export const MAX_RESULTS = 1000;

const order = v.optional(v.picklist(['asc', 'desc'], 'order must be asc or desc'));
const SEARCH = {
	access: 'public' as const,
	resource: 'none' as const,
	permissions: [],
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
function results(total: number, items: unknown[], more: Record<string, unknown> = {}): Reply {
	return { status: 200, body: { total_count: total, incomplete_results: false, items, ...more }, total: Math.min(total, MAX_RESULTS) };
}

/** The text-match media type (`application/vnd.github.text-match+json`) adds `text_matches` to items. */
const wantsTextMatches = (ctx: Context) => ctx.media === 'text-match';

// ----- repositories

const REPOSITORY_QUALIFIERS = new Set([
	'user',
	'org',
	'repo',
	'is',
	'fork',
	'archived',
	'language',
	'topic',
	'created',
	'pushed',
	'stars',
	'forks',
	'in',
	'mirror',
	'template',
]);
const FORKS = '(SELECT count(*) FROM repositories f WHERE f.fork_parent_id = r.id)';
const HELP_WANTED =
	"(SELECT count(*) FROM issues hi JOIN issue_labels hl ON hl.issue_id = hi.id JOIN labels ll ON ll.id = hl.label_id WHERE hi.repo_id = r.id AND hi.state = 'open' AND ll.name = 'help wanted' COLLATE NOCASE)";
const REPOSITORY_SORTS = { stars: 'r.stargazers_count', forks: FORKS, 'help-wanted-issues': HELP_WANTED, updated: 'r.updated_at' } as const;

function searchRepositories(ctx: Context<{ q?: string; sort?: keyof typeof REPOSITORY_SORTS; order?: 'asc' | 'desc' }>): Reply {
	const { terms, qualifiers } = parseQuery(ctx.query.q, REPOSITORY_QUALIFIERS);
	const page = searchPage(ctx as Context);
	const visibleIds = readablePrivateRepositories(ctx as Context);
	const visible = new Set(visibleIds);
	const where = new Conditions();
	const match = matchExpression(terms, inColumns(qualifiers, ['name', 'description']));
	if (match) where.add('repositories_fts MATCH ?', match);
	where.add("r.visibility = 'public' OR r.id IN (SELECT value FROM json_each(?))", JSON.stringify(visibleIds));
	scopeQualifiers(ctx as Context, qualifiers, where, visible, 'r.id', 'r.owner_id');
	let forks: 'false' | 'true' | 'only' = 'false';
	for (const q of qualifiers) {
		switch (q.key) {
			case 'is': {
				const value = q.value.toLowerCase();
				if (value === 'public' || value === 'private' || value === 'internal')
					where.add(maybeNot('r.visibility = ?', q.negated), value);
				else if (value === 'archived') where.add(maybeNot('r.archived = 1', q.negated));
				else if (value === 'fork') forks = q.negated ? 'false' : 'only';
				else if (value === 'template') where.add(maybeNot('r.is_template = 1', q.negated));
				else if (value === 'mirror') where.add(maybeNot('0', q.negated));
				else
					throw invalidField(
						'Search',
						'q',
						`"is:${q.value}" is not a repository state: public, private, internal, archived, fork, template`,
					);
				break;
			}
			case 'fork': {
				const value = q.value.toLowerCase();
				if (value !== 'true' && value !== 'false' && value !== 'only')
					throw invalidField('Search', 'q', `"fork:${q.value}" must be true, false or only`);
				forks = value;
				break;
			}
			case 'archived':
				where.add(maybeNot('r.archived = ?', q.negated), booleanValue(q) ? 1 : 0);
				break;
			case 'mirror':
				// Gitstead has no mirrors.
				where.add(maybeNot(booleanValue(q) ? '0' : '1', q.negated));
				break;
			case 'template':
				where.add(maybeNot('r.is_template = ?', q.negated), booleanValue(q) ? 1 : 0);
				break;
			case 'language':
				where.add(maybeNot('r.language = ? COLLATE NOCASE', q.negated), q.value);
				break;
			case 'topic':
				where.add(maybeNot('EXISTS (SELECT 1 FROM json_each(r.topics) t WHERE t.value = ? COLLATE NOCASE)', q.negated), q.value);
				break;
			case 'created':
				where.time('r.created_at', dateRange(q), q.negated);
				break;
			case 'pushed':
				where.time('r.pushed_at', dateRange(q), q.negated);
				break;
			case 'stars':
				where.count('r.stargazers_count', countRange(q), q.negated);
				break;
			case 'forks':
				where.count(FORKS, countRange(q), q.negated);
				break;
		}
	}
	if (forks === 'false') where.add('r.fork_parent_id IS NULL');
	else if (forks === 'only') where.add('r.fork_parent_id IS NOT NULL');

	const from = match ? 'repositories_fts JOIN repositories r ON r.id = repositories_fts.rowid' : 'repositories r';
	const direction = ctx.query.order === 'asc' ? 'ASC' : 'DESC';
	const orderBy = ctx.query.sort
		? `${REPOSITORY_SORTS[ctx.query.sort]} ${direction}, r.id ${direction}`
		: match
			? 'bm25(repositories_fts), r.stargazers_count DESC, r.id'
			: 'r.stargazers_count DESC, r.id';
	const { search, accounts } = ctx.app.stores;
	const total = search.count(`SELECT count(*) FROM ${from} WHERE ${where.where()}`, where.params);
	const rows = search.all<RepositoryRow>(`SELECT r.* FROM ${from} WHERE ${where.where()} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
		...where.params,
		page.limit,
		page.offset,
	]);
	const owners = accounts.mapByIds(rows.map((row) => row.owner_id));
	const showPermissions = ctx.principal.kind !== 'anonymous' && !ctx.publicView;
	const permissions = showPermissions
		? repositoryPermissions(
				ctx as Context,
				rows.map((repo) => ({ repo, owner: owners.get(repo.owner_id)! })),
			)
		: new Map<number, RepoPermission | null>();
	const columns = inColumns(qualifiers, ['name', 'description']);
	return results(
		total,
		rows.map((row) => {
			const item = repository(ctx.app.urls, row, owners.get(row.owner_id)!, permissions.get(row.id) ?? null);
			const matches = wantsTextMatches(ctx as Context)
				? {
						text_matches: textMatches(
							item.url,
							'Repository',
							columns.map((c) => [c, c === 'name' ? row.name : row.description]),
							terms,
						),
					}
				: {};
			return { ...item, score: 1, ...matches };
		}),
	);
}

// ----- issues and pull requests

function searchIssues(ctx: Context<IssueSearch>): Reply {
	const { total, rows, terms, issueColumns } = findIssues(ctx as Context, ctx.query, searchPage(ctx as Context));
	const { repos, accounts } = ctx.app.stores;
	// Rendered per repository (labels, assignees, authors and associations in one query each).
	const repoRows = repos.byIds([...new Set(rows.map((row) => row.repo_id))]);
	const owners = accounts.mapByIds(repoRows.map((repo) => repo.owner_id));
	const rendered = new Map<number, unknown>();
	for (const repo of repoRows) {
		const owner = owners.get(repo.owner_id)!;
		const scope: IssueScope = {
			repo,
			owner,
			permission: null,
			paths: repositoryPaths(ctx.app.urls, owner.login, repo.name),
			associations: new Associations(ctx.app, repo, owner),
		};
		const own = rows.filter((row) => row.repo_id === repo.id);
		renderIssues(ctx as Context, scope, own).forEach((item, i) => {
			const row = own[i];
			const matches = wantsTextMatches(ctx as Context)
				? {
						text_matches: textMatches(
							item.url,
							'Issue',
							issueColumns.map((c) => [c, c === 'title' ? row.title : row.body]),
							terms,
						),
					}
				: {};
			rendered.set(row.id, { ...item, score: 1, ...matches });
		});
	}
	// GitHub's issue search names the kind it ran (lexical, semantic or hybrid): Gitstead's is lexical.
	return results(
		total,
		rows.map((row) => rendered.get(row.id)),
		{ search_type: 'lexical' },
	);
}

// ----- users

const USER_QUALIFIERS = new Set(['type', 'in', 'repos', 'followers', 'created', 'location', 'fullname', 'user', 'org']);
const PUBLIC_REPOS = "(SELECT count(*) FROM repositories pr WHERE pr.owner_id = a.id AND pr.visibility = 'public')";
const USER_SORTS = { followers: '0', repositories: PUBLIC_REPOS, joined: 'a.created_at' } as const;

function searchUsers(ctx: Context<{ q?: string; sort?: keyof typeof USER_SORTS; order?: 'asc' | 'desc' }>): Reply {
	const { terms, qualifiers } = parseQuery(ctx.query.q, USER_QUALIFIERS);
	const page = searchPage(ctx as Context);
	const where = new Conditions();
	where.add("a.type IN ('User', 'Organization')");
	const columns = inColumns(qualifiers, ['login', 'email', 'name']);
	const words = terms.filter((term) => term.trim() !== '');
	for (const word of words) {
		const like = containsPattern(word);
		const parts: string[] = [];
		const params: unknown[] = [];
		const add = (condition: string) => {
			parts.push(condition);
			params.push(like);
		};
		if (columns.includes('login')) add("a.login LIKE ? ESCAPE '\\'");
		if (columns.includes('name')) add("a.name LIKE ? ESCAPE '\\'");
		// Only a public email is searched (a user's private email is nobody's business).
		if (columns.includes('email')) add("(a.type = 'Organization' OR a.email_public = 1) AND a.email LIKE ? ESCAPE '\\'");
		where.add(parts.join(' OR '), ...params);
	}
	for (const q of qualifiers) {
		switch (q.key) {
			case 'type': {
				const value = q.value.toLowerCase();
				if (value !== 'user' && value !== 'org') throw invalidField('Search', 'q', `"type:${q.value}" must be user or org`);
				where.add(maybeNot('a.type = ?', q.negated), value === 'org' ? 'Organization' : 'User');
				break;
			}
			case 'user':
			case 'org':
				where.add(maybeNot('a.login = ? COLLATE NOCASE', q.negated), q.value);
				break;
			case 'repos':
				where.count(PUBLIC_REPOS, countRange(q), q.negated);
				break;
			case 'followers':
				// Gitstead keeps no followers: everyone has 0.
				where.count('0', countRange(q), q.negated);
				break;
			case 'created':
				where.time('a.created_at', dateRange(q), q.negated);
				break;
			case 'location':
				where.add(maybeNot("a.location LIKE ? ESCAPE '\\'", q.negated), containsPattern(q.value));
				break;
			case 'fullname':
				where.add(maybeNot("a.name LIKE ? ESCAPE '\\'", q.negated), containsPattern(q.value));
				break;
		}
	}
	const direction = ctx.query.order === 'asc' ? 'ASC' : 'DESC';
	// Best match: an exact login first, then logins starting with the text, then the rest.
	const first = words[0] ?? '';
	const orderBy = ctx.query.sort
		? `${USER_SORTS[ctx.query.sort]} ${direction}, a.id ${direction}`
		: `CASE WHEN a.login = ? COLLATE NOCASE THEN 0 WHEN a.login LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END, a.id`;
	const orderParams = ctx.query.sort ? [] : [first, `${containsPattern(first).slice(1)}`];
	const { search } = ctx.app.stores;
	const total = search.count(`SELECT count(*) FROM accounts a WHERE ${where.where()}`, where.params);
	const rows = search.all<AccountRow>(`SELECT a.* FROM accounts a WHERE ${where.where()} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
		...where.params,
		...orderParams,
		page.limit,
		page.offset,
	]);
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

/** GET /search/repositories, /search/issues, /search/users (GitHub's search API). */
export const searchRoutes = [
	route({
		...SEARCH,
		method: 'GET',
		path: '/search/repositories',
		docs: 'search/search#search-repositories',
		query: v.object({
			q: v.optional(v.string()),
			sort: v.optional(v.picklist(Object.keys(REPOSITORY_SORTS) as Array<keyof typeof REPOSITORY_SORTS>)),
			order,
		}),
		handler: searchRepositories,
	}),
	route({
		...SEARCH,
		method: 'GET',
		path: '/search/issues',
		docs: 'search/search#search-issues-and-pull-requests',
		query: v.object({ q: v.optional(v.string()), sort: v.optional(v.picklist(ISSUE_SORTS)), order }),
		handler: searchIssues,
	}),
	route({
		...SEARCH,
		method: 'GET',
		path: '/search/users',
		docs: 'search/search#search-users',
		query: v.object({
			q: v.optional(v.string()),
			sort: v.optional(v.picklist(Object.keys(USER_SORTS) as Array<keyof typeof USER_SORTS>)),
			order,
		}),
		handler: searchUsers,
	}),
];
