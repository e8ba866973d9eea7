/**
 * The repository and issue searches as items (GitHub's search result items: the list forms with
 * `score`, and `text_matches` when asked), shared by GET /search/repositories, GET /search/issues
 * and GraphQL's `search`. What the caller may not read is filtered in the search's own query.
 */
import type { Caller } from '../../auth/caller';
import type { Viewer } from '../../auth/access/types';
import { repositoryPermissions } from '../../auth/access/repos';
import type { RepoPermission } from '../../model/repo-permissions';
import { repository, repositoryPaths } from '../../model/render';
import { Associations } from '../issues/association';
import { renderIssues, type IssueScope } from '../issues/service';
import { textMatches } from './query';
import { findIssues, type IssueSearch } from './issues';
import { findRepositories, type RepositorySearch } from './repositories';

/** Who searches: the viewer whose access filters the results, rendering as a caller. */
export type Searcher = Viewer & Caller;

/**
 * One page of the repositories matching `query` that the searcher may read (simple repositories
 * with `score`, the searcher's permissions unless anonymous or a public view) and the total.
 * @param withTextMatches add `text_matches` (the text-match media type)
 * @throws DomainError 422 for a qualifier value GitHub refuses or a user:/org:/repo: naming nothing readable
 */
export function searchRepositoryItems(
	searcher: Searcher,
	query: RepositorySearch,
	page: { limit: number; offset: number },
	withTextMatches: boolean,
) {
	const { total, rows, terms, columns } = findRepositories(searcher, query, page);
	const { accounts } = searcher.app.stores;
	const owners = accounts.mapByIds(rows.map((row) => row.owner_id));
	const showPermissions = searcher.principal.kind !== 'anonymous' && !searcher.publicView;
	const permissions = showPermissions
		? repositoryPermissions(
				searcher,
				rows.map((repo) => ({ repo, owner: owners.get(repo.owner_id)! })),
			)
		: new Map<number, RepoPermission | null>();
	const items = rows.map((row) => {
		const item = repository(searcher.app.urls, row, owners.get(row.owner_id)!, permissions.get(row.id) ?? null);
		const matches = withTextMatches
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
	});
	return { total, items };
}

/**
 * One page of the issues and pull requests matching `query` that the searcher may read (the issue
 * list form with `score`) and the total; rendered per repository (labels, assignees, authors and
 * associations in one query each).
 * @param withTextMatches add `text_matches` (the text-match media type)
 * @throws DomainError 422 for a qualifier value GitHub refuses or a user:/org:/repo: naming nothing readable
 */
export function searchIssueItems(
	searcher: Searcher,
	query: IssueSearch,
	page: { limit: number; offset: number },
	withTextMatches: boolean,
) {
	const { total, rows, terms, issueColumns } = findIssues(searcher, query, page);
	const { repos, accounts } = searcher.app.stores;
	const repoRows = repos.byIds([...new Set(rows.map((row) => row.repo_id))]);
	const owners = accounts.mapByIds(repoRows.map((repo) => repo.owner_id));
	const rendered = new Map<number, Record<string, unknown>>();
	for (const repo of repoRows) {
		const owner = owners.get(repo.owner_id)!;
		const scope: IssueScope = {
			repo,
			owner,
			permission: null,
			paths: repositoryPaths(searcher.app.urls, owner.login, repo.name),
			associations: new Associations(searcher.app, repo, owner),
		};
		const own = rows.filter((row) => row.repo_id === repo.id);
		renderIssues(searcher, scope, own).forEach((item, i) => {
			const row = own[i];
			const matches = withTextMatches
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
	return { total, items: rows.map((row) => rendered.get(row.id)!) };
}
