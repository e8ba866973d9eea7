/**
 * Lists kept per user of repositories (stars, watched repositories) and per repository of people
 * (stargazers, watchers), as the caller may see them. Stars and subscriptions outlive read access
 * (GitHub keeps them), so both kinds of list hide what the person listed can no longer read, and a
 * user's list shows only repositories the caller may see too. Each list costs a constant number of
 * queries whatever its length: the access rules run over all entries at once
 * (repositoryPermissions, userRepositoryPermissions, repositoryReaders), and only the page shown is
 * loaded whole.
 */
import type { Context } from '../../http/route';
import { repositoryPermissions, repositoryReaders, userRepositoryPermissions, type OwnedRepository } from '../../auth/access/repos';
import type { RepoAccess } from '../../auth/access/types';
import type { RepoPermission } from '../../model/repo-permissions';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import type { ListedRepository } from './store';

/** A repository of a user's list as shown: with its owner, the caller's permission and when it was listed. */
export interface ListedEntry {
	repo: RepositoryRow;
	owner: AccountRow;
	/** The caller's permission (repository records show it unless the answer is a public view). */
	permission: RepoPermission | null;
	/** ISO timestamp: starred or subscribed. */
	at: string;
}

/** Loads repositories with their owners, in the order of `ids` (ids that no longer exist are left out). */
function owned(ctx: Context, ids: readonly number[]): OwnedRepository[] {
	const { stores } = ctx.app;
	const repos = new Map(stores.repos.byIds(ids).map((repo) => [repo.id, repo]));
	const owners = stores.accounts.mapByIds([...repos.values()].map((repo) => repo.owner_id));
	return ids.flatMap((id) => {
		const repo = repos.get(id);
		const owner = repo && owners.get(repo.owner_id);
		return repo && owner ? [{ repo, owner }] : [];
	});
}

/**
 * One page (ctx.page) of a user's list of repositories: public repositories, and private or internal
 * ones that both the caller and the user (`subjectId`) can read.
 * @param listed the user's whole list in order (the stores' starredBy, watchedBy)
 * @returns the page with the caller's permissions, and how many entries the caller may see
 */
export function userRepositoryPage(
	ctx: Context,
	subjectId: number,
	listed: readonly ListedRepository[],
): { rows: ListedEntry[]; total: number } {
	const restricted = owned(
		ctx,
		listed.filter((entry) => entry.visibility !== 'public').map((entry) => entry.repo_id),
	);
	// Private and internal repositories both the caller and the user can read.
	const readable = new Set<number>();
	if (restricted.length) {
		const caller = repositoryPermissions(ctx, restricted);
		// The caller's own list: what the caller reads, the user reads.
		const subject = ctx.principal.user?.id === subjectId ? null : userRepositoryPermissions(ctx.app, subjectId, restricted);
		for (const { repo } of restricted) if (caller.get(repo.id) && (!subject || subject.get(repo.id))) readable.add(repo.id);
	}
	const visible = listed.filter((entry) => entry.visibility === 'public' || readable.has(entry.repo_id));
	const page = visible.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
	const shown = owned(
		ctx,
		page.map((entry) => entry.repo_id),
	);
	const permissions = repositoryPermissions(ctx, shown);
	const at = new Map(page.map((entry) => [entry.repo_id, entry.at]));
	return {
		rows: shown.map(({ repo, owner }) => ({ repo, owner, permission: permissions.get(repo.id) ?? null, at: at.get(repo.id)! })),
		total: visible.length,
	};
}

/** Where a repository's list of people comes from: its SQL pages, and the whole list of ids. */
export interface PeopleSource {
	page(limit: number, offset: number): Array<AccountRow & { at: string }>;
	count(): number;
	all(): Array<{ user_id: number; at: string }>;
}

/**
 * One page (ctx.page) of a repository's list of people (stargazers, watchers). A public repository
 * pages in SQL; a private or internal one leaves out the people who can no longer read it.
 * @returns the page's accounts with when each was listed, and how many there are in all
 */
export function repositoryPeoplePage(
	ctx: Pick<Context, 'app' | 'page'>,
	access: RepoAccess,
	source: PeopleSource,
): { rows: Array<AccountRow & { at: string }>; total: number } {
	const { perPage, offset } = ctx.page;
	if (access.repo.visibility === 'public') return { rows: source.page(perPage, offset), total: source.count() };
	const all = source.all();
	const readers = repositoryReaders(
		ctx.app,
		access.repo,
		access.owner,
		all.map((entry) => entry.user_id),
	);
	const visible = all.filter((entry) => readers.has(entry.user_id));
	const page = visible.slice(offset, offset + perPage);
	const accounts = ctx.app.stores.accounts.mapByIds(page.map((entry) => entry.user_id));
	return {
		rows: page.flatMap((entry) => {
			const account = accounts.get(entry.user_id);
			return account ? [{ ...account, at: entry.at }] : [];
		}),
		total: visible.length,
	};
}
