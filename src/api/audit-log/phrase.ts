/**
 * The `phrase` of GET /orgs/{org}/audit-log, as GitHub's "Searching the audit log" documents it:
 * qualifiers `action:`, `actor:`, `user:`, `org:`, `repo:`, `team:`, `operation:`, `token_id:` and
 * `created:`, each negated with a leading `-`, values quoted when they hold spaces. `action:team`
 * matches every team action, `action:team.create` that one. `created:` takes a date or time
 * (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ) alone (that day / second), with >, >=, <, <=, or as a range
 * A..B (either side `*`). Qualifiers of one name are OR-ed, of different names AND-ed. Without
 * `created:`, the last three months are searched (GitHub's default).
 */
import { invalidField } from '../../model/errors';
import type { AuditQuery } from '../../events/audit-store';

/** Columns a qualifier compares, exactly (case-insensitive). */
const EXACT: Record<string, string> = {
	actor: 'actor',
	user: 'user',
	org: 'org',
	repo: 'repo',
	team: 'team',
	operation: 'operation_type',
	token_id: 'token_id',
};
const QUALIFIERS = ['action', ...Object.keys(EXACT), 'created'];
const THREE_MONTHS_MS = 90 * 86_400_000;
const DAY_MS = 86_400_000;

/** A `created:` date or time: the span of milliseconds it names, [start, end). */
function span(text: string): [number, number] | null {
	if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
		const start = Date.parse(`${text}T00:00:00Z`);
		return Number.isNaN(start) ? null : [start, start + DAY_MS];
	}
	if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
		const start = Date.parse(text);
		return Number.isNaN(start) ? null : [start, start + 1000];
	}
	return null;
}

/** The conditions of `created:VALUE`, or null when VALUE is not a date expression. */
function created(value: string): { sql: string; params: number[] } | null {
	const range = /^(.+)\.\.(.+)$/.exec(value);
	if (range) {
		const parts: string[] = [];
		const params: number[] = [];
		if (range[1] !== '*') {
			const from = span(range[1]);
			if (!from) return null;
			parts.push('created_at >= ?');
			params.push(from[0]);
		}
		if (range[2] !== '*') {
			const to = span(range[2]);
			if (!to) return null;
			parts.push('created_at < ?');
			params.push(to[1]);
		}
		return { sql: parts.length ? parts.join(' AND ') : '1', params };
	}
	const op = /^(>=|<=|>|<)?(.*)$/.exec(value)!;
	const at = span(op[2]);
	if (!at) return null;
	switch (op[1]) {
		case '>':
			return { sql: 'created_at >= ?', params: [at[1]] };
		case '>=':
			return { sql: 'created_at >= ?', params: [at[0]] };
		case '<':
			return { sql: 'created_at < ?', params: [at[0]] };
		case '<=':
			return { sql: 'created_at < ?', params: [at[1]] };
		default:
			return { sql: 'created_at >= ? AND created_at < ?', params: [at[0], at[1]] };
	}
}

/** Splits a phrase into terms; double quotes keep spaces in a value. */
function terms(phrase: string): string[] {
	return [...phrase.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((m) => m[0].replace(/"/g, ''));
}

/**
 * The SQL conditions of a phrase and the `include` category.
 * @param now epoch milliseconds (the default three-month window ends here)
 * @throws DomainError 422 (field `phrase`) for an unknown qualifier, a term without one, or a bad date
 */
export function parsePhrase(phrase: string, include: 'web' | 'git' | 'all', now: number): Pick<AuditQuery, 'where' | 'params'> {
	const groups = new Map<string, { sql: string[]; params: unknown[] }>();
	const negated: string[] = [];
	const negatedParams: unknown[] = [];
	let hasCreated = false;
	for (const term of terms(phrase)) {
		const match = /^(-?)([a-z_]+):(.+)$/.exec(term);
		if (!match || !QUALIFIERS.includes(match[2])) {
			throw invalidField(
				'AuditLog',
				'phrase',
				`"${term}" is not a qualifier Gitstead searches by; use ${QUALIFIERS.map((q) => `${q}:`).join(', ')}`,
			);
		}
		const [, minus, key, value] = match;
		let condition: { sql: string; params: unknown[] };
		if (key === 'created') {
			const parsed = created(value);
			if (!parsed)
				throw invalidField(
					'AuditLog',
					'phrase',
					`"${value}" is not a date (YYYY-MM-DD, optionally with >, >=, <, <= or a range A..B)`,
				);
			condition = parsed;
			hasCreated = true;
		} else if (key === 'action') {
			// action:team matches every team.* action; action:team.create exactly that one.
			condition = value.includes('.')
				? { sql: 'action = ?', params: [value] }
				: { sql: "action LIKE ? ESCAPE '\\'", params: [`${value.replace(/[\\%_]/g, '\\$&')}.%`] };
		} else if (key === 'token_id') {
			if (!/^\d{1,15}$/.test(value)) throw invalidField('AuditLog', 'phrase', `token_id:${value} is not a token id`);
			condition = { sql: 'token_id = ?', params: [Number(value)] };
		} else {
			condition = { sql: `${EXACT[key]} = ? COLLATE NOCASE`, params: [value] };
		}
		if (minus) {
			// Entries without the field are not excluded by -qualifier:value.
			negated.push(`NOT coalesce(${condition.sql}, 0)`);
			negatedParams.push(...condition.params);
			continue;
		}
		const group = groups.get(key) ?? { sql: [], params: [] };
		group.sql.push(condition.sql);
		group.params.push(...condition.params);
		groups.set(key, group);
	}
	const where: string[] = [];
	const params: unknown[] = [];
	for (const group of groups.values()) {
		where.push(`(${group.sql.join(' OR ')})`);
		params.push(...group.params);
	}
	where.push(...negated);
	params.push(...negatedParams);
	if (!hasCreated) {
		where.push('created_at >= ?');
		params.push(now - THREE_MONTHS_MS);
	}
	if (include !== 'all') {
		where.push('category = ?');
		params.push(include);
	}
	return { where: where.join(' AND '), params };
}
