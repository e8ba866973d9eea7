/**
 * What each activity feed shows (spec document 2, Activity feeds; GitHub's "Activity → Events"):
 * the filter of the event log behind it, the caller's visibility applied, its version (for ETags)
 * and its pages. A timeline holds at most `events.timeline_limit` events (300) and none older than
 * `events.retention_days` (30).
 */
import type { Context } from '../../http/route';
import type { Reply } from '../../http/reply';
import { repositoryPermissions } from '../../auth/access/repos';
import type { Viewer } from '../../auth/access/types';
import type { FeedFilter } from '../../events/store';
import { isoSeconds } from '../../time';
import { eventJson } from './render';

/**
 * Who reads a feed, and when: a request's context, or the viewer of an Atom feed (src/api/feeds/web.ts).
 * `now` is epoch milliseconds.
 */
export type FeedViewer = Viewer & { now: number };

/** The oldest moment a feed shows (ISO timestamp). */
function since(ctx: FeedViewer): string {
	return isoSeconds(ctx.now - ctx.app.config.events.retention_days * 86_400_000);
}

/** A filter with the timeline's bounds. */
export function feed(ctx: FeedViewer, filter: Omit<FeedFilter, 'since' | 'cap'>): FeedFilter {
	return { ...filter, since: since(ctx), cap: ctx.app.config.events.timeline_limit };
}

/**
 * Of the given repositories (private events' repositories), those the caller may read: the private
 * events the caller's feed may show.
 */
export function readableOf(ctx: FeedViewer, repoIds: readonly number[]): number[] {
	if (repoIds.length === 0) return [];
	const { stores } = ctx.app;
	const repos = repoIds.map((id) => stores.repos.byId(id)).filter((repo) => repo !== undefined);
	const owners = stores.accounts.mapByIds(repos.map((repo) => repo.owner_id));
	const permissions = repositoryPermissions(ctx, repos.map((repo) => ({ repo, owner: owners.get(repo.owner_id)! })));
	return repos.filter((repo) => permissions.get(repo.id)).map((repo) => repo.id);
}

/** The feed's private events repositories the caller reads, for an actor's or organization's timeline. */
export function readableEvents(ctx: FeedViewer, scope: { actorId: number } | { orgId: number }): number[] {
	const { events } = ctx.app.stores;
	const candidates = 'actorId' in scope ? events.privateReposOfActor(scope.actorId, since(ctx)) : events.privateReposOfOrg(scope.orgId, since(ctx));
	return readableOf(ctx, candidates);
}

/**
 * What a user receives (GET /users/{username}/received_events): the events of the repositories the
 * user watches (Gitstead has no following of users). To the user, private ones of the watched
 * repositories the user still reads; to everyone else, public ones only.
 */
export function receivedFeed(ctx: FeedViewer, userId: number, self: boolean): FeedFilter {
	const watched = ctx.app.stores.subscriptions.watchedBy(userId);
	const repoIds = watched.map((row) => row.repo_id);
	if (!self) return feed(ctx, { publicOnly: true, repoIds });
	const privateIds = watched.filter((row) => row.visibility !== 'public').map((row) => row.repo_id);
	return feed(ctx, { publicOnly: false, repoIds, readableRepoIds: readableOf(ctx, privateIds) });
}

/** A feed's version: its newest event and its size (a pruned or hidden event changes the size). */
export function feedVersion(ctx: Pick<FeedViewer, 'app'>, filter: FeedFilter): string {
	const { events } = ctx.app.stores;
	return `${events.newestId(filter)}:${events.feed(filter, 0, 0).total}`;
}

/** One page of a feed, as JSON text with its total for the Link header. */
export function feedPage(ctx: Context, filter: FeedFilter): Reply {
	const { rows, total } = ctx.app.stores.events.feed(filter, ctx.page.perPage, ctx.page.offset);
	const ids = new Set<number>();
	for (const row of rows) {
		if (row.actor_id !== null) ids.add(row.actor_id);
		if (row.org_id !== null) ids.add(row.org_id);
	}
	const accounts = ctx.app.stores.accounts.mapByIds(ids);
	return { status: 200, json: `[${rows.map((row) => eventJson(ctx.app.urls, row, accounts)).join(',')}]`, total };
}
