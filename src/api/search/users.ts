/**
 * User and organization search (GitHub's search syntax: words in login, name and public email,
 * `type:`, `repos:`, `created:`, `location:`, …): the SQL of one search, counted and paged. GET
 * /search/users and the web interface's search page run it.
 */
import { invalidField } from '../../model/errors';
import type { App } from '../../app';
import type { AccountRow } from '../users/store';
import { Conditions, containsPattern, countRange, dateRange, parseQuery } from './query';
import { inColumns, maybeNot } from './scope';

export const USER_QUALIFIERS = new Set(['type', 'in', 'repos', 'followers', 'created', 'location', 'fullname', 'user', 'org']);
const PUBLIC_REPOS = "(SELECT count(*) FROM repositories pr WHERE pr.owner_id = a.id AND pr.visibility = 'public')";
export const USER_SORTS = { followers: '0', repositories: PUBLIC_REPOS, joined: 'a.created_at' } as const;

/** The query of a user search: q, and sort/order as GET /search/users takes them. */
export interface UserSearch {
	q?: string;
	sort?: keyof typeof USER_SORTS;
	order?: 'asc' | 'desc';
}

/**
 * One page of the users and organizations matching a search, and how many match in all (accounts
 * are public: no access filter; a private email is never searched).
 * @returns the rows in order, the total, and the words and columns searched (text matches)
 * @throws HttpError 422 for a qualifier value GitHub refuses
 */
export function findUsers(
	app: App,
	query: UserSearch,
	page: { limit: number; offset: number },
): { total: number; rows: AccountRow[]; words: string[]; columns: string[] } {
	const { terms, qualifiers } = parseQuery(query.q, USER_QUALIFIERS);
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
	const direction = query.order === 'asc' ? 'ASC' : 'DESC';
	// Best match: an exact login first, then logins starting with the text, then the rest.
	const first = words[0] ?? '';
	const orderBy = query.sort
		? `${USER_SORTS[query.sort]} ${direction}, a.id ${direction}`
		: `CASE WHEN a.login = ? COLLATE NOCASE THEN 0 WHEN a.login LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END, a.id`;
	const orderParams = query.sort ? [] : [first, `${containsPattern(first).slice(1)}`];
	const { search } = app.stores;
	const total = search.count(`SELECT count(*) FROM accounts a WHERE ${where.where()}`, where.params);
	const rows = search.all<AccountRow>(`SELECT a.* FROM accounts a WHERE ${where.where()} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
		...where.params,
		...orderParams,
		page.limit,
		page.offset,
	]);
	return { total, rows, words, columns };
}
