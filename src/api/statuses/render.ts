/**
 * GitHub's Status and CombinedCommitStatus objects.
 */
import type { Urls } from '../../model/urls';
import { nodeId } from '../../model/urls';
import { simpleUser } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import type { CommitStatusRow } from './store';

/** Avatar of a status: its creator's (GitHub shows the creator's avatar, or the app's). */
function avatar(urls: Urls, creator: AccountRow | undefined): string | null {
	return creator ? simpleUser(urls, creator).avatar_url : null;
}

/**
 * A Status as `GET …/commits/{ref}/statuses` and `POST …/statuses/{sha}` show it.
 * @param repoApi the repository's API URL (…/repos/{owner}/{repo})
 * @param withCreator false in the combined status, which leaves `creator` out
 */
export function status(urls: Urls, repoApi: string, row: CommitStatusRow, creator: AccountRow | undefined, withCreator = true) {
	return {
		url: `${repoApi}/statuses/${row.sha}`,
		avatar_url: avatar(urls, creator),
		id: row.id,
		node_id: nodeId('StatusContext', row.id),
		state: row.state,
		description: row.description,
		target_url: row.target_url,
		context: row.context,
		created_at: row.created_at,
		updated_at: row.updated_at,
		...(withCreator ? { creator: creator ? simpleUser(urls, creator) : null } : {}),
	};
}
