/**
 * GitHub's milestone object (issues/milestones): number, title, description, creator, the open and
 * closed issue counts, state, due_on and closed_at (ISO timestamps or null).
 */
import { nodeId, type Urls } from '../../http/urls';
import type { RepositoryPaths } from '../repos/render';
import { simpleUser } from '../users/render';
import type { AccountRow } from '../users/store';
import type { MilestoneRow } from './store';

/** A milestone; `creator` null when the account is gone. */
export function milestone(urls: Urls, paths: RepositoryPaths, row: MilestoneRow, creator: AccountRow | null | undefined) {
	const url = `${paths.api}/milestones/${row.number}`;
	return {
		url,
		html_url: `${paths.html}/milestone/${row.number}`,
		labels_url: `${url}/labels`,
		id: row.id,
		node_id: nodeId('Milestone', row.id),
		number: row.number,
		state: row.state,
		title: row.title,
		description: row.description,
		creator: creator ? simpleUser(urls, creator) : null,
		open_issues: row.open_issues,
		closed_issues: row.closed_issues,
		created_at: row.created_at,
		updated_at: row.updated_at,
		closed_at: row.closed_at,
		due_on: row.due_on,
	};
}
