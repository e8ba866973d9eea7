/**
 * GitHub's search syntax (docs: search-github/getting-started-with-searching-on-github/
 * understanding-the-search-syntax): whitespace-separated words, "quoted phrases", and qualifiers
 * `key:value` (the value may be quoted: `label:"help wanted"`; a leading `-` negates:
 * `-label:bug`). Ranges: `>n`, `>=n`, `<n`, `<=n`, `a..b`, `a..*`, `*..b`, dates
 * (`2026-01-01`) or date-times (`2026-01-01T10:00:00Z`, `…+02:00`).
 */
import { invalidField, validationFailed } from '../../model/errors';
import { parseCreated } from '../actions/service';
import { isoSeconds } from '../../time';

/** One `key:value` of a query. */
export interface Qualifier {
	/** Lower-cased key: `repo`, `label`, … */
	key: string;
	/** The value, unquoted. */
	value: string;
	/** `-key:value`. */
	negated: boolean;
}

/** A parsed query: free-text terms (words and phrases, in order) and qualifiers. */
export interface ParsedQuery {
	terms: string[];
	qualifiers: Qualifier[];
}

/** GitHub caps a query at 256 characters (its 422 says so). */
export const MAX_QUERY = 256;

/**
 * Splits a query into terms and qualifiers. Keys not in `known` stay free text (`foo:bar` is
 * searched as words, as GitHub does with unknown qualifiers).
 * @throws DomainError 422 with GitHub's `missing` item when q is missing or blank, or `invalid` when
 *   it is longer than 256 characters
 */
export function parseQuery(q: string | undefined, known: ReadonlySet<string>): ParsedQuery {
	if (q === undefined || q.trim() === '') throw validationFailed([{ resource: 'Search', field: 'q', code: 'missing' }]);
	if (q.length > MAX_QUERY) {
		throw invalidField('Search', 'q', `The search is longer than ${MAX_QUERY} characters.`);
	}
	const terms: string[] = [];
	const qualifiers: Qualifier[] = [];
	// A token: -?key:"quoted value" | -?key:value | "phrase" | word
	const pattern = /(-?)([A-Za-z_-]+):(?:"([^"]*)"?|(\S*))|"([^"]*)"?|(\S+)/g;
	for (let m = pattern.exec(q); m !== null; m = pattern.exec(q)) {
		if (m[2] !== undefined) {
			const key = m[2].toLowerCase();
			const value = m[3] ?? m[4] ?? '';
			if (known.has(key) && value !== '') {
				qualifiers.push({ key, value, negated: m[1] === '-' });
				continue;
			}
			terms.push(m[0]);
		} else if (m[5] !== undefined) {
			if (m[5].trim() !== '') terms.push(m[5]);
		} else if (m[6] !== undefined && !/^(AND|OR|NOT)$/.test(m[6])) {
			terms.push(m[6]);
		}
	}
	return { terms, qualifiers };
}

/**
 * The FTS5 MATCH expression of free-text terms: every term must match (each a quoted phrase, so
 * FTS5 operators in the input mean nothing), the last one as a prefix, within `columns`; null when
 * no term holds a letter or digit (nothing to match).
 */
export function matchExpression(terms: readonly string[], columns: readonly string[]): string | null {
	const words = terms.filter((term) => /[\p{L}\p{N}]/u.test(term));
	if (words.length === 0) return null;
	const phrases = words.map((term, i) => `"${term.replace(/"/g, '""')}"${i === words.length - 1 ? '*' : ''}`);
	return `{${columns.join(' ')}} : (${phrases.join(' ')})`;
}

/** A range of timestamps as ISO text: from (inclusive) and to (exclusive); null: open. */
export interface TimeRange {
	from: string | null;
	to: string | null;
}

/**
 * A date qualifier's range (`created:>=2026-01-01`, `updated:2026-01-01..2026-02-01`).
 * @throws DomainError 422 naming q when the value is not a date or range
 */
export function dateRange(qualifier: Qualifier): TimeRange {
	try {
		const { from, to } = parseCreated(qualifier.value);
		return { from: from === null ? null : isoSeconds(from), to: to === null ? null : isoSeconds(to) };
	} catch {
		throw invalidField(
			'Search',
			'q',
			`"${qualifier.key}:${qualifier.value}" is not a date or range, e.g. >=2026-01-01 or 2026-01-01..2026-02-01`,
		);
	}
}

/** An integer range, both ends included; null: open. */
export interface CountRange {
	min: number | null;
	max: number | null;
}

/**
 * A number qualifier's range (`stars:>10`, `comments:5..20`, `repos:<=3`).
 * @throws DomainError 422 naming q when the value is not a number or range
 */
export function countRange(qualifier: Qualifier): CountRange {
	const bad = () => invalidField('Search', 'q', `"${qualifier.key}:${qualifier.value}" is not a number or range, e.g. >10 or 10..50`);
	const number = (text: string) => {
		if (!/^\d{1,15}$/.test(text)) throw bad();
		return Number(text);
	};
	const value = qualifier.value;
	const range = /^(.+?)\.\.(.+)$/.exec(value);
	if (range) {
		return { min: range[1] === '*' ? null : number(range[1]), max: range[2] === '*' ? null : number(range[2]) };
	}
	const compare = /^(>=|<=|>|<)?(.+)$/.exec(value)!;
	const n = number(compare[2]);
	switch (compare[1]) {
		case '>':
			return { min: n + 1, max: null };
		case '>=':
			return { min: n, max: null };
		case '<':
			return { min: null, max: n - 1 };
		case '<=':
			return { min: null, max: n };
		default:
			return { min: n, max: n };
	}
}

/** A SQL condition and its parameters, combined by the search queries. */
export class Conditions {
	readonly clauses: string[] = [];
	readonly params: unknown[] = [];

	/** Adds `sql` with its `?` parameters. */
	add(sql: string, ...params: unknown[]): void {
		this.clauses.push(sql);
		this.params.push(...params);
	}

	/** Adds a time range on `column` (ISO text). */
	time(column: string, range: TimeRange, negated = false): void {
		const parts: string[] = [];
		const params: unknown[] = [];
		if (range.from !== null) {
			parts.push(`${column} >= ?`);
			params.push(range.from);
		}
		if (range.to !== null) {
			parts.push(`${column} < ?`);
			params.push(range.to);
		}
		if (parts.length === 0) return;
		this.add(
			negated ? `NOT (${column} IS NOT NULL AND ${parts.join(' AND ')})` : `${column} IS NOT NULL AND ${parts.join(' AND ')}`,
			...params,
		);
	}

	/**
	 * Adds the condition of a fork filter on `column` (the repository's fork parent): forks left
	 * out ('false'), kept ('true': no condition) or alone ('only').
	 */
	forks(column: string, filter: ForkFilter): void {
		if (filter === 'false') this.add(`${column} IS NULL`);
		else if (filter === 'only') this.add(`${column} IS NOT NULL`);
	}

	/** Adds an integer range on the SQL expression `expression`. */
	count(expression: string, range: CountRange, negated = false): void {
		const parts: string[] = [];
		const params: unknown[] = [];
		if (range.min !== null) {
			parts.push(`${expression} >= ?`);
			params.push(range.min);
		}
		if (range.max !== null) {
			parts.push(`${expression} <= ?`);
			params.push(range.max);
		}
		if (parts.length === 0) return;
		this.add(negated ? `NOT (${parts.join(' AND ')})` : parts.join(' AND '), ...params);
	}

	/** The WHERE text ('1' when empty). */
	where(): string {
		return this.clauses.length ? this.clauses.map((c) => `(${c})`).join(' AND ') : '1';
	}
}

/** GitHub's fork qualifier: forks left out ('false', the default), kept ('true') or alone ('only'). */
export type ForkFilter = 'false' | 'true' | 'only';

/** A `fork:` qualifier's value. @throws DomainError 422 for anything but true, false or only */
export function forkValue(qualifier: Qualifier): ForkFilter {
	const value = qualifier.value.toLowerCase();
	if (value !== 'true' && value !== 'false' && value !== 'only')
		throw invalidField('Search', 'q', `"fork:${qualifier.value}" must be true, false or only`);
	return value;
}

/** A boolean qualifier's value (`fork:true`, `archived:false`). @throws DomainError 422 otherwise */
export function booleanValue(qualifier: Qualifier): boolean {
	const value = qualifier.value.toLowerCase();
	if (value === 'true') return true;
	if (value === 'false') return false;
	throw invalidField('Search', 'q', `"${qualifier.key}:${qualifier.value}" must be true or false`);
}

/** SQL LIKE pattern for "contains `text`", with `\` as the escape character. */
export function containsPattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A text match (GitHub's text-match media type): where the words were found in one property. */
export interface TextMatch {
	object_url: string;
	object_type: string;
	property: string;
	fragment: string;
	matches: Array<{ text: string; indices: [number, number] }>;
}

/** Characters of a property shown around the first match when the property is longer. */
const FRAGMENT = 300;
/** Matches listed per fragment at most. */
const MAX_MATCHES = 20;

/**
 * The `text_matches` of one result for `application/vnd.github.text-match+json`: for each
 * property holding a searched word (case-insensitively; the last word also as a prefix), the
 * property (or FRAGMENT characters around its first match) and each match's text and [start, end)
 * indices in that fragment (UTF-16 units). Words that differ only in diacritics are found by the
 * search but not marked here.
 */
export function textMatches(
	objectUrl: string,
	objectType: string,
	properties: ReadonlyArray<[string, string | null]>,
	terms: readonly string[],
): TextMatch[] {
	const words = terms.flatMap((term) => term.split(/[^\p{L}\p{N}]+/u)).filter((word) => word !== '');
	if (words.length === 0) return [];
	const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const last = words[words.length - 1];
	const alternatives = [...new Set(words.slice(0, -1).map(escape)), `${escape(last)}[\\p{L}\\p{N}]*`];
	const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
	const out: TextMatch[] = [];
	for (const [property, value] of properties) {
		if (!value) continue;
		const found = [...value.matchAll(pattern)];
		if (found.length === 0) continue;
		let start = 0;
		let fragment = value;
		if (value.length > FRAGMENT) {
			start = Math.max(0, Math.min(found[0].index! - FRAGMENT / 2, value.length - FRAGMENT));
			fragment = value.slice(start, start + FRAGMENT);
		}
		const matches = found
			.filter((m) => m.index! >= start && m.index! + m[0].length <= start + fragment.length)
			.slice(0, MAX_MATCHES)
			.map((m) => ({ text: m[0], indices: [m.index! - start, m.index! - start + m[0].length] as [number, number] }));
		out.push({ object_url: objectUrl, object_type: objectType, property, fragment, matches });
	}
	return out;
}
