/**
 * Repository search (GitHub's search syntax: terms in name and description, `user:`, `org:`,
 * `repo:`, `is:`, `fork:`, `language:`, `topic:`, `stars:`, …): the SQL of one search, counted and
 * paged, over what the viewer may read. GET /search/repositories and the web interface's search
 * page run it.
 */
import type { Viewer } from '../../auth/access/types';
import { invalidField } from '../../model/errors';
import type { RepositoryRow } from '../repos/store';
import { booleanValue, Conditions, countRange, dateRange, matchExpression, type ForkFilter, forkValue, parseQuery } from './query';
import { inColumns, maybeNot, scopeQualifiers } from './scope';
import { readablePrivateRepositories } from './visibility';

export const REPOSITORY_QUALIFIERS = new Set([
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
export const REPOSITORY_SORTS = {
	stars: 'r.stargazers_count',
	forks: FORKS,
	'help-wanted-issues': HELP_WANTED,
	updated: 'r.updated_at',
} as const;

/** The query of a repository search: q, and sort/order as GET /search/repositories takes them. */
export interface RepositorySearch {
	q?: string;
	sort?: keyof typeof REPOSITORY_SORTS;
	order?: 'asc' | 'desc';
}

/**
 * One page of the repositories matching a search that the viewer may read, and how many match in all.
 * @returns the rows in order, the total, and the terms and columns searched (text matches)
 * @throws HttpError 422 for a qualifier value GitHub refuses or a user:/org:/repo: naming nothing readable
 */
export function findRepositories(
	viewer: Viewer,
	query: RepositorySearch,
	page: { limit: number; offset: number },
): { total: number; rows: RepositoryRow[]; terms: string[]; columns: string[] } {
	const { terms, qualifiers } = parseQuery(query.q, REPOSITORY_QUALIFIERS);
	const visibleIds = readablePrivateRepositories(viewer);
	const visible = new Set(visibleIds);
	const where = new Conditions();
	const columns = inColumns(qualifiers, ['name', 'description']);
	const match = matchExpression(terms, columns);
	if (match) where.add('repositories_fts MATCH ?', match);
	where.add("r.visibility = 'public' OR r.id IN (SELECT value FROM json_each(?))", JSON.stringify(visibleIds));
	scopeQualifiers(viewer, qualifiers, where, visible, 'r.id', 'r.owner_id');
	let forks: ForkFilter = 'false';
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
			case 'fork':
				forks = forkValue(q);
				break;
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
	where.forks('r.fork_parent_id', forks);

	const from = match ? 'repositories_fts JOIN repositories r ON r.id = repositories_fts.rowid' : 'repositories r';
	const direction = query.order === 'asc' ? 'ASC' : 'DESC';
	const orderBy = query.sort
		? `${REPOSITORY_SORTS[query.sort]} ${direction}, r.id ${direction}`
		: match
			? 'bm25(repositories_fts), r.stargazers_count DESC, r.id'
			: 'r.stargazers_count DESC, r.id';
	const { search } = viewer.app.stores;
	const total = search.count(`SELECT count(*) FROM ${from} WHERE ${where.where()}`, where.params);
	const rows = search.all<RepositoryRow>(`SELECT r.* FROM ${from} WHERE ${where.where()} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
		...where.params,
		page.limit,
		page.offset,
	]);
	return { total, rows, terms, columns };
}
