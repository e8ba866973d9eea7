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
import { inRepository } from '../../events/payloads';
import type { RepositoryRow } from '../../model/rows';

/**
 * A star added (`created`, with starred_at, then watch `started` with its WatchEvent) or removed
 * (`deleted`, starred_at null).
 * @param starredAt ISO timestamp of the new star; null for a removed one
 */
export function recordStar(
	app: App,
	action: 'created' | 'deleted',
	repo: RepositoryRow,
	starredAt: string | null,
	actorId: number | null,
): void {
	record(app, {
		event: 'star',
		action,
		actorId,
		repo,
		webhook: () => ({ starred_at: starredAt, ...inRepository(app, repo, actorId) }),
	});
	if (action !== 'created') return;
	record(app, {
		event: 'watch',
		action: 'started',
		actorId,
		repo,
		feed: { type: 'WatchEvent', payload: { action: 'started' } },
		webhook: () => inRepository(app, repo, actorId),
	});
}
