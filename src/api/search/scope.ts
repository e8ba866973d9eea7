/**
 * Parts shared by the searches: the owner and repository qualifiers (user:, org:, repo:) checked
 * against what the viewer may read, `in:` columns, negation, account ids by login.
 */
import type { Viewer } from '../../auth/access/types';
import { invalidField } from '../../model/errors';
import type { Conditions, Qualifier } from './query';

/** 422 for user:, org: and repo: values that name nothing the caller can see (GitHub's message). */
export const cannotSearch = () =>
	invalidField(
		'Search',
		'q',
		'The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.',
	);

/** Negates a condition for `-key:value`. */
export const maybeNot = (sql: string, negated: boolean) => (negated ? `NOT (${sql})` : sql);

/** Groups the values of repeated qualifiers (`user:a user:b`): any of them matches. */
export function grouped(qualifiers: Qualifier[], key: string): { values: string[]; negated: string[] } {
	const values: string[] = [];
	const negated: string[] = [];
	for (const q of qualifiers) if (q.key === key) (q.negated ? negated : values).push(q.value);
	return { values, negated };
}

/**
 * Adds the owner (user:, org:) and repository (repo:) qualifiers on `ownerColumn`/`repoColumn`.
 * @throws HttpError 422 when a value names no account, or no repository the caller can read
 */
export function scopeQualifiers(
	ctx: Viewer,
	qualifiers: Qualifier[],
	where: Conditions,
	visible: ReadonlySet<number>,
	repoColumn: string,
	ownerColumn: string,
): void {
	const { accounts, repos } = ctx.app.stores;
	for (const key of ['user', 'org'] as const) {
		const { values, negated } = grouped(qualifiers, key);
		const ids = (logins: string[]) =>
			logins.map((login) => {
				const account = key === 'org' ? accounts.organization(login) : accounts.byLogin(login);
				if (!account || account.type === 'Bot') throw cannotSearch();
				return account.id;
			});
		if (values.length) where.add(`${ownerColumn} IN (SELECT value FROM json_each(?))`, JSON.stringify(ids(values)));
		if (negated.length) where.add(`${ownerColumn} NOT IN (SELECT value FROM json_each(?))`, JSON.stringify(ids(negated)));
	}
	const { values, negated } = grouped(qualifiers, 'repo');
	const ids = (names: string[]) =>
		names.map((fullName) => {
			const [login, name, extra] = fullName.split('/');
			const owner = login ? accounts.byLogin(login) : undefined;
			const repo = owner && name && extra === undefined ? repos.byOwnerAndName(owner.id, name) : undefined;
			if (!repo || (repo.visibility !== 'public' && !visible.has(repo.id))) throw cannotSearch();
			return repo.id;
		});
	if (values.length) where.add(`${repoColumn} IN (SELECT value FROM json_each(?))`, JSON.stringify(ids(values)));
	if (negated.length) where.add(`${repoColumn} NOT IN (SELECT value FROM json_each(?))`, JSON.stringify(ids(negated)));
}

/** The FTS columns `in:` names among `allowed` (all of them when absent or none is known). */
export function inColumns(qualifiers: Qualifier[], allowed: readonly string[]): string[] {
	const named = qualifiers.filter((q) => q.key === 'in').flatMap((q) => q.value.toLowerCase().split(','));
	const columns = allowed.filter((column) => named.includes(column));
	return columns.length ? columns : [...allowed];
}

/** An account id by login for a qualifier (-1, matching nothing, when there is none). */
export function accountId(ctx: Viewer, login: string): number {
	return ctx.app.stores.accounts.byLogin(login)?.id ?? -1;
}
