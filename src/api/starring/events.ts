/**
 * Domain events of starring, recorded through the event log inside the transaction of the change.
 * GitHub reports a star twice: the `star` webhook (created, deleted; with starred_at) and, for a new
 * star only, the legacy `watch` webhook (action started: "watching" meant starring before 2012)
 * whose activity-feed entry is the WatchEvent, payload {"action":"started"}. Unstarring has no feed
 * entry and no watch webhook. Subscribing to a repository (watching in today's sense) is reported
 * by neither.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inOrganization, sender } from '../../events/payloads';
import { repository } from '../repos/render';
import type { RepositoryRow } from '../repos/store';
import type { AccountRow } from '../users/store';

/** repository, organization (of an organization's repository) and sender, as GitHub's payloads carry them. */
function where(app: App, repo: RepositoryRow, owner: AccountRow, actorId: number | null): Record<string, unknown> {
	// The row as it is now: the star's trigger has just changed stargazers_count.
	const current = app.stores.repos.byId(repo.id) ?? repo;
	return {
		repository: repository(app.urls, current, owner, null),
		...(owner.type === 'Organization' ? inOrganization(app, owner) : {}),
		...sender(app, actorId),
	};
}

/**
 * A star added (`created`, with starred_at, then watch `started` with its WatchEvent) or removed
 * (`deleted`, starred_at null).
 * @param starredAt ISO timestamp of the new star; null for a removed one
 */
export function recordStar(
	app: App,
	action: 'created' | 'deleted',
	repo: RepositoryRow,
	owner: AccountRow,
	starredAt: string | null,
	actorId: number | null,
): void {
	record(app, {
		event: 'star',
		action,
		actorId,
		repo,
		webhook: () => ({ starred_at: starredAt, ...where(app, repo, owner, actorId) }),
	});
	if (action !== 'created') return;
	record(app, {
		event: 'watch',
		action: 'started',
		actorId,
		repo,
		feed: { type: 'WatchEvent', payload: { action: 'started' } },
		webhook: () => where(app, repo, owner, actorId),
	});
}
