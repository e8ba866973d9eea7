/**
 * Commit search (GitHub's search syntax for commits: words in the message, `repo:`, `org:`,
 * `user:`, `author:`, `committer:`, `author-name:`, `committer-name:`, `author-email:`,
 * `committer-email:`, `author-date:`, `committer-date:`, `merge:`, `hash:`, `parent:`, `tree:`,
 * `is:public|private`): the SQL of one search over the commit search index (the default branches'
 * histories, src/api/search/commit-index.ts), counted and paged, over the repositories the viewer
 * may read. GET /search/commits runs it.
 */
import type { Viewer } from '../../auth/access/types';
import { invalidField } from '../../model/errors';
import type { CommitSearchRow } from './commit-store';
import { booleanValue, Conditions, containsPattern, dateRange, matchExpression, parseQuery } from './query';
import { accountId, maybeNot, scopeQualifiers } from './scope';
import { readablePrivateRepositories } from './visibility';

export const COMMIT_QUALIFIERS = new Set([
	'user',
	'org',
	'repo',
	'author',
	'committer',
	'author-name',
	'committer-name',
	'author-email',
	'committer-email',
	'author-date',
	'committer-date',
	'merge',
	'hash',
	'parent',
	'tree',
	'is',
]);
/** Message hits one search considers at most (ranked when there are no more). */
export const CANDIDATES = 10_000;
/** Matches counted at most for total_count. */
export const COUNT_CAP = 100_000;
export const COMMIT_SORTS = { 'author-date': 'c.author_date', 'committer-date': 'c.committer_date' } as const;

/** The query of a commit search: q, and sort/order as GET /search/commits takes them. */
export interface CommitSearch {
	q?: string;
	sort?: keyof typeof COMMIT_SORTS;
	order?: 'asc' | 'desc';
}

/** A hash qualifier's value: 4 to 40 hexadecimal digits. @throws DomainError 422 otherwise */
function hashPrefix(key: string, value: string): string {
	const hex = value.toLowerCase();
	if (!/^[0-9a-f]{4,40}$/.test(hex))
		throw invalidField('Search', 'q', `"${key}:${value}" is not a commit id (4 to 40 hexadecimal digits)`);
	return hex;
}

/**
 * One page of the default-branch commits matching a search in the repositories the viewer may
 * read, and how many match in all.
 * @returns the rows in order, the total, the terms searched (text matches), and whether the search
 *   stopped at a bound (CANDIDATES hits considered, COUNT_CAP counted)
 * @throws HttpError 422 for a qualifier value GitHub refuses or a user:/org:/repo: naming nothing readable
 */
export function findCommits(
	viewer: Viewer,
	query: CommitSearch,
	page: { limit: number; offset: number },
): { total: number; rows: CommitSearchRow[]; terms: string[]; incomplete: boolean } {
	const { terms, qualifiers } = parseQuery(query.q, COMMIT_QUALIFIERS);
	const visibleIds = readablePrivateRepositories(viewer, { contents: true });
	const where = new Conditions();
	const { search } = viewer.app.stores;
	const expression = matchExpression(terms, ['message']);
	// Bounded work per request: past CANDIDATES hits, only the most recently indexed ones are
	// considered, unranked (newest first), and the answer says incomplete_results.
	let match = expression !== null;
	let incomplete = false;
	if (expression !== null) {
		const hits = search.count('SELECT count(*) FROM (SELECT rowid FROM commit_search_fts WHERE commit_search_fts MATCH ? LIMIT ?)', [
			expression,
			CANDIDATES + 1,
		]);
		if (hits > CANDIDATES) {
			incomplete = true;
			match = false;
			where.add(
				'c.id IN (SELECT rowid FROM commit_search_fts WHERE commit_search_fts MATCH ? ORDER BY rowid DESC LIMIT ?)',
				expression,
				CANDIDATES,
			);
		} else {
			where.add('commit_search_fts MATCH ?', expression);
		}
	}
	where.add("r.visibility = 'public' OR r.id IN (SELECT value FROM json_each(?))", JSON.stringify(visibleIds));
	scopeQualifiers(viewer, qualifiers, where, new Set(visibleIds), 'r.id', 'r.owner_id');
	for (const q of qualifiers) {
		switch (q.key) {
			case 'author':
			case 'committer':
				where.add(maybeNot(`c.${q.key}_id = ?`, q.negated), accountId(viewer, q.value));
				break;
			case 'author-name':
			case 'committer-name':
				where.add(maybeNot(`c.${q.key.replace('-', '_')} LIKE ? ESCAPE '\\'`, q.negated), containsPattern(q.value));
				break;
			case 'author-email':
			case 'committer-email':
				where.add(maybeNot(`c.${q.key.replace('-', '_')} = ? COLLATE NOCASE`, q.negated), q.value);
				break;
			case 'author-date':
			case 'committer-date':
				where.time(`c.${q.key.replace('-', '_')}`, dateRange(q), q.negated);
				break;
			case 'merge':
				where.add(maybeNot(`json_array_length(c.parents) ${booleanValue(q) ? '>' : '<='} 1`, q.negated));
				break;
			case 'hash':
				where.add(maybeNot('c.sha LIKE ?', q.negated), `${hashPrefix(q.key, q.value)}%`);
				break;
			case 'tree':
				where.add(maybeNot('c.tree_sha LIKE ?', q.negated), `${hashPrefix(q.key, q.value)}%`);
				break;
			case 'parent':
				where.add(
					maybeNot('EXISTS (SELECT 1 FROM json_each(c.parents) p WHERE p.value LIKE ?)', q.negated),
					`${hashPrefix(q.key, q.value)}%`,
				);
				break;
			case 'is': {
				const value = q.value.toLowerCase();
				if (value !== 'public' && value !== 'private' && value !== 'internal')
					throw invalidField('Search', 'q', `"is:${q.value}" is not a repository visibility: public, private, internal`);
				where.add(maybeNot('r.visibility = ?', q.negated), value);
				break;
			}
		}
	}
	const from = `${match ? 'commit_search_fts JOIN commit_search c ON c.id = commit_search_fts.rowid' : 'commit_search c'}
		JOIN repositories r ON r.id = c.repo_id`;
	const direction = query.order === 'asc' ? 'ASC' : 'DESC';
	const orderBy = query.sort
		? `${COMMIT_SORTS[query.sort]} ${direction}, c.id ${direction}`
		: match
			? 'bm25(commit_search_fts), c.committer_date DESC, c.id'
			: 'c.committer_date DESC, c.id DESC';
	// Counting stops at COUNT_CAP (then the answer says incomplete_results).
	let total = search.count(`SELECT count(*) FROM (SELECT 1 FROM ${from} WHERE ${where.where()} LIMIT ?)`, [
		...where.params,
		COUNT_CAP + 1,
	]);
	if (total > COUNT_CAP) {
		total = COUNT_CAP;
		incomplete = true;
	}
	const rows = search.all<CommitSearchRow>(`SELECT c.* FROM ${from} WHERE ${where.where()} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
		...where.params,
		page.limit,
		page.offset,
	]);
	return { total, rows, terms, incomplete };
}
