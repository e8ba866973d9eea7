/**
 * Code search (GitHub's search syntax for code: terms, `repo:`, `org:`, `user:`, `path:`,
 * `language:`, `extension:`, `filename:`, `size:`, `in:file,path`, `fork:true|only`): the SQL of one search over
 * the code search index (src/api/search/code-index.ts: the default branches' text files), counted
 * and paged, over the repositories the viewer may read. GET /search/code runs it.
 *
 * Terms match anywhere in a file's text, case-insensitively, as substrings (the trigram index:
 * `seria` finds `serializer`); a term of three or more characters reads the index, shorter ones
 * filter what the others (or a `repo:`) found. As GitHub requires, a query carries at least one
 * term (`language:go` alone is refused, `amazing language:go` is not).
 */
import type { Viewer } from '../../auth/access/types';
import { invalidField } from '../../model/errors';
import type { RepositoryRow } from '../../model/rows';
import type { CodeFileRow } from './code-store';
import { Conditions, containsPattern, countRange, type ForkFilter, forkValue, parseQuery } from './query';
import { grouped, maybeNot, scopeQualifiers } from './scope';
import { readablePrivateRepositories } from './visibility';

export const CODE_QUALIFIERS = new Set(['user', 'org', 'repo', 'path', 'language', 'extension', 'filename', 'size', 'in', 'fork']);

/** The query of a code search: q (sort/order are accepted and ignored, as GitHub does since 2023). */
export interface CodeSearch {
	q?: string;
	sort?: 'indexed';
	order?: 'asc' | 'desc';
}

/** A file found, with its repository's row and the commit indexed. */
export interface CodeHit extends CodeFileRow {
	commit_sha: string;
}

/** Shortest term the trigram index can look up. */
const TRIGRAM = 3;
/** Index hits one search considers at most (ranked when there are no more). */
export const CANDIDATES = 1_000;
/** Files whose text is read for short terms at most, when longer terms found them. */
export const SHORT_SCAN_FILES = 1_000;
/** Bytes of text read for short terms alone at most (the repo: repositories' files, in index order). */
export const SHORT_SCAN_BYTES = 4 * 1024 * 1024;

/** An FTS5 phrase for a term (quotes doubled, so operators in the input mean nothing). */
const phrase = (term: string) => `"${term.replace(/"/g, '""')}"`;

/**
 * One page of the indexed files matching a code search in the repositories the viewer may read,
 * and how many match in all.
 * @returns the rows in order (each with its repository id and indexed commit), the total, the
 *   terms searched (text matches), and whether the search stopped at one of its bounds
 *   (CANDIDATES, SHORT_SCAN_FILES, SHORT_SCAN_BYTES: then `incomplete`, unranked)
 * @throws HttpError 422 for a query without a term, a term too short to look up without `repo:`,
 *   a qualifier value GitHub refuses, or a user:/org:/repo: naming nothing readable
 */
export function findCode(
	viewer: Viewer,
	query: CodeSearch,
	page: { limit: number; offset: number },
): { total: number; rows: CodeHit[]; terms: string[]; inContent: boolean; incomplete: boolean } {
	const { terms: raw, qualifiers } = parseQuery(query.q, CODE_QUALIFIERS);
	const terms = raw.filter((term) => term.trim() !== '');
	if (terms.length === 0)
		throw invalidField('Search', 'q', 'A code search needs at least one search term: `amazing language:go`, not `language:go` alone.');
	const named = qualifiers.filter((q) => q.key === 'in').flatMap((q) => q.value.toLowerCase().split(','));
	const inPath = named.includes('path');
	const inContent = named.includes('file') || !inPath;
	const long = terms.filter((term) => term.length >= TRIGRAM);
	const short = terms.filter((term) => term.length < TRIGRAM);
	if (inContent && long.length === 0 && grouped(qualifiers, 'repo').values.length === 0)
		throw invalidField(
			'Search',
			'q',
			`Search terms shorter than ${TRIGRAM} characters need a repo: qualifier (or a longer term beside them).`,
		);
	const visibleIds = readablePrivateRepositories(viewer, { contents: true });
	const where = new Conditions();
	where.add("r.visibility = 'public' OR r.id IN (SELECT value FROM json_each(?))", JSON.stringify(visibleIds));
	scopeQualifiers(viewer, qualifiers, where, new Set(visibleIds), 'r.id', 'r.owner_id');
	// Binary files are listed in the index (so they are not read again) but never found.
	where.add('f.binary = 0');
	// The content terms: one MATCH of the long ones (the index), the short ones filter the text.
	const { search } = viewer.app.stores;
	let incomplete = false;
	let useMatch = inContent && !inPath && long.length > 0;
	if (useMatch) {
		const expression = long.map(phrase).join(' AND ');
		// Bounded work per request: past CANDIDATES hits (SHORT_SCAN_FILES when short terms must
		// be looked for in their text), only the first ones (by index order) are considered, unranked,
		// and the answer says incomplete_results, as GitHub's does when its search stops early.
		const bound = short.length ? SHORT_SCAN_FILES : CANDIDATES;
		const hits = search.count('SELECT count(*) FROM (SELECT rowid FROM code_search_fts WHERE code_search_fts MATCH ? LIMIT ?)', [
			expression,
			bound + 1,
		]);
		if (hits > bound) {
			incomplete = true;
			useMatch = false;
			where.add('f.id IN (SELECT rowid FROM code_search_fts WHERE code_search_fts MATCH ? LIMIT ?)', expression, bound);
		} else {
			where.add('code_search_fts MATCH ?', expression);
		}
	} else if (inContent && !inPath) {
		// Short terms alone: the text of the repo: repositories is read, up to SHORT_SCAN_BYTES.
		const repoIds = grouped(qualifiers, 'repo').values.map((fullName) => {
			const [login, name] = fullName.split('/');
			const owner = viewer.app.stores.accounts.byLogin(login);
			return (owner && viewer.app.stores.repos.byOwnerAndName(owner.id, name))?.id ?? -1;
		});
		const window = `SELECT id, sum(size) OVER (ORDER BY id) AS upto FROM code_search_files
			WHERE binary = 0 AND repo_id IN (SELECT value FROM json_each(?))`;
		const over = search.count(`SELECT count(*) FROM (${window}) WHERE upto > ?`, [JSON.stringify(repoIds), SHORT_SCAN_BYTES]);
		if (over > 0) incomplete = true;
		where.add(`f.id IN (SELECT id FROM (${window}) WHERE upto <= ?)`, JSON.stringify(repoIds), SHORT_SCAN_BYTES);
	}
	const text = '(SELECT content FROM code_search_fts t WHERE t.rowid = f.id)';
	for (const term of inContent && !inPath ? short : inPath ? terms : []) {
		if (inPath && inContent) {
			const content =
				term.length >= TRIGRAM
					? 'f.id IN (SELECT rowid FROM code_search_fts WHERE code_search_fts MATCH ?)'
					: `${text} LIKE ? ESCAPE '\\'`;
			where.add(
				`${content} OR f.path LIKE ? ESCAPE '\\'`,
				term.length >= TRIGRAM ? phrase(term) : containsPattern(term),
				containsPattern(term),
			);
		} else if (inPath) {
			where.add("f.path LIKE ? ESCAPE '\\'", containsPattern(term));
		} else {
			// LIKE: case-insensitive (ASCII), no copy of the text.
			where.add(`${text} LIKE ? ESCAPE '\\'`, containsPattern(term));
		}
	}
	// Forks are left out unless fork:true or fork:only (GitHub's code search qualifier).
	let forks: ForkFilter = 'false';
	for (const q of qualifiers) {
		switch (q.key) {
			case 'path': {
				// path:src matches files under src/ (and the path itself); a leading / anchors it at the root.
				const value = q.value.replace(/^\/+|\/+$/g, '');
				const anchored = q.value.startsWith('/');
				const prefix = value.replace(/[\\%_]/g, (c) => `\\${c}`);
				where.add(
					maybeNot(
						anchored
							? "(f.path = ? OR f.path LIKE ? ESCAPE '\\')"
							: "(f.path = ? OR f.path LIKE ? ESCAPE '\\' OR f.path LIKE ? ESCAPE '\\')",
						q.negated,
					),
					...(anchored ? [value, `${prefix}/%`] : [value, `${prefix}/%`, `%/${prefix}/%`]),
				);
				break;
			}
			case 'language':
				where.add(maybeNot('f.language = ? COLLATE NOCASE', q.negated), q.value);
				break;
			case 'extension':
				where.add(maybeNot('f.extension = ?', q.negated), q.value.replace(/^\./, '').toLowerCase());
				break;
			case 'filename':
				where.add(maybeNot('f.name = ? COLLATE NOCASE', q.negated), q.value);
				break;
			case 'size':
				where.count('f.size', countRange(q), q.negated);
				break;
			case 'fork':
				forks = forkValue(q);
				break;
		}
	}
	where.forks('r.fork_parent_id', forks);
	const from = `${useMatch ? 'code_search_fts JOIN code_search_files f ON f.id = code_search_fts.rowid' : 'code_search_files f'}
		JOIN repositories r ON r.id = f.repo_id JOIN code_search_repos s ON s.repo_id = f.repo_id`;
	const orderBy = useMatch ? 'bm25(code_search_fts), f.repo_id, f.path' : 'f.repo_id, f.path';
	const total = search.count(`SELECT count(*) FROM ${from} WHERE ${where.where()}`, where.params);
	const rows = search.all<CodeHit>(`SELECT f.*, s.commit_sha FROM ${from} WHERE ${where.where()} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, [
		...where.params,
		page.limit,
		page.offset,
	]);
	return { total, rows, terms, inContent, incomplete };
}

/** The repositories of the hits, by id. */
export function hitRepositories(viewer: Viewer, rows: readonly CodeHit[]): Map<number, RepositoryRow> {
	const repos = viewer.app.stores.repos.byIds([...new Set(rows.map((row) => row.repo_id))]);
	return new Map(repos.map((repo) => [repo.id, repo]));
}
