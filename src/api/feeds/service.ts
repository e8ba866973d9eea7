/**
 * What each activity feed shows (GitHub's "Activity → Events"):
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
import { EventRenderer } from './render';

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
	const permissions = repositoryPermissions(
		ctx,
		repos.map((repo) => ({ repo, owner: owners.get(repo.owner_id)! })),
	);
	return repos.filter((repo) => permissions.get(repo.id)).map((repo) => repo.id);
}

/** The feed's private events repositories the caller reads, for an actor's or organization's timeline. */
export function readableEvents(ctx: FeedViewer, scope: { actorId: number } | { orgId: number }): number[] {
	const { events } = ctx.app.stores;
	const candidates =
		'actorId' in scope ? events.privateReposOfActor(scope.actorId, since(ctx)) : events.privateReposOfOrg(scope.orgId, since(ctx));
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

/**
 * A feed's version (its ETag's source, and the key of its cached pages): the event log's version of
 * the filter (newest event, removals, time horizon: EventStore.version) and the filter itself —
 * which events it selects and, for the caller, which repositories' private events it may show — so
 * equal versions mean equal feeds (actor and organization logins never change), and a caller who
 * gains or loses access gets a new version.
 */
export function feedVersion(ctx: Pick<FeedViewer, 'app'>, filter: FeedFilter): string {
	const identity = [
		filter.publicOnly ? 'p' : 'a',
		filter.repoIds?.join(',') ?? '*',
		filter.orgId ?? '*',
		filter.actorId ?? '*',
		filter.readableRepoIds?.join(',') ?? '*',
		filter.cap,
	].join('|');
	return `${ctx.app.stores.events.version(filter)}:${identity}`;
}

/** Rendered feed pages kept (bytes, over all feeds): polling clients read the same pages again and again. */
export const FEED_PAGE_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Rendered feed pages by feed version and page, least recently used dropped first. A version names
 * the feed's content exactly, so an entry never goes stale: a change makes a new version.
 */
class FeedPageCache {
	private readonly pages = new Map<string, { body: Buffer; total: number }>();
	private bytes = 0;

	get(key: string): { body: Buffer; total: number } | undefined {
		const page = this.pages.get(key);
		if (page) {
			this.pages.delete(key);
			this.pages.set(key, page);
		}
		return page;
	}

	set(key: string, page: { body: Buffer; total: number }): void {
		if (page.body.length > FEED_PAGE_CACHE_BYTES / 8) return;
		this.pages.set(key, page);
		this.bytes += page.body.length;
		for (const [oldest, { body }] of this.pages) {
			if (this.bytes <= FEED_PAGE_CACHE_BYTES) break;
			this.pages.delete(oldest);
			this.bytes -= body.length;
		}
	}
}

const pageCaches = new WeakMap<object, FeedPageCache>();

/**
 * One page of a feed, as JSON with its total for the Link header; rendered once per feed version
 * and page (FeedPageCache).
 * @param version the feed's version (feedVersion), computed already for the ETag
 */
export function feedPage(ctx: Context, filter: FeedFilter, version: string): Reply {
	let cache = pageCaches.get(ctx.app);
	if (!cache) pageCaches.set(ctx.app, (cache = new FeedPageCache()));
	const key = `${ctx.app.urls.origin};${version};${ctx.page.perPage};${ctx.page.offset}`;
	let page = cache.get(key);
	if (!page) {
		page = renderPage(ctx, filter);
		cache.set(key, page);
	}
	return { status: 200, json: page.body, total: page.total };
}

function renderPage(ctx: Context, filter: FeedFilter): { body: Buffer; total: number } {
	const { rows, total } = ctx.app.stores.events.feed(filter, ctx.page.perPage, ctx.page.offset);
	const ids = new Set<number>();
	for (const row of rows) {
		if (row.actor_id !== null) ids.add(row.actor_id);
		if (row.org_id !== null) ids.add(row.org_id);
	}
	const accounts = ctx.app.stores.accounts.mapByIds(ids);
	const renderer = new EventRenderer(ctx.app.urls, accounts);
	return { body: Buffer.from(`[${rows.map((row) => renderer.event(row)).join(',')}]`), total };
}
