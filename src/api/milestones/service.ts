/**
 * Reading repository milestones (GitHub's issues/milestones API, GraphQL's Repository.milestone
 * and milestones): a page of them in SQL order, rendered as REST renders them.
 */
import type { App } from '../../app';
import type { RepoAccess } from '../../auth/access/types';
import { milestone, repositoryPaths } from '../../model/render';
import type { MilestoneRow } from '../../model/rows';
import type { MilestoneFilter } from './store';

/** Milestones of the repository `access` names as GitHub's REST API renders them (creators loaded together). */
export function renderMilestones(app: App, access: RepoAccess, rows: MilestoneRow[]) {
	const creators = app.stores.accounts.mapByIds(rows.flatMap((row) => (row.creator_id === null ? [] : [row.creator_id])));
	const paths = repositoryPaths(app.urls, access.owner.login, access.repo.name);
	return rows.map((row) => milestone(app.urls, paths, row, row.creator_id === null ? null : creators.get(row.creator_id)));
}

/**
 * One page of the repository's milestones (GET /repos/{owner}/{repo}/milestones): state, order,
 * LIMIT and OFFSET in SQL; rendered, with the count of all that match.
 */
export function milestonePage(app: App, access: RepoAccess, filter: Omit<MilestoneFilter, 'repoId'>) {
	const { rows, total } = app.stores.milestones.list({ ...filter, repoId: access.repo.id });
	return { items: rows.length ? renderMilestones(app, access, rows) : [], total };
}
