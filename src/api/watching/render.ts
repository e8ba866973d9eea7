/**
 * Response shape of a repository subscription (GitHub's activity/watching, repository-subscription):
 * {subscribed, ignored, reason, created_at, url, repository_url}.
 */
import type { RepositoryPaths } from '../../model/render';
import type { SubscriptionRow } from './store';

/**
 * The user's subscription to a repository. `reason` is null: Gitstead keeps no reason for a
 * subscription made through the API, as GitHub answers for those.
 * @param paths the repository's addresses (repositoryPaths)
 */
export function repositorySubscription(paths: RepositoryPaths, row: SubscriptionRow) {
	return {
		subscribed: row.subscribed === 1,
		ignored: row.ignored === 1,
		reason: null,
		created_at: row.created_at,
		url: `${paths.api}/subscription`,
		repository_url: paths.api,
	};
}
