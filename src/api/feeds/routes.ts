/**
 * Activity feeds (GitHub's "Activity → Events"): the public
 * timeline, a repository's network, an organization's public events, a repository's events, and
 * a user's events (public; all of them to the user; the user's organization dashboard). Every feed
 * comes from the domain-event log (received events: those of the repositories the user watches), polls cheaply (its ETag is its version, checked before anything
 * is rendered; X-Poll-Interval) and holds at most 300 events of the last 30 days.
 *
 * A private repository's events reach only callers who can read it, and never the public feeds.
 * GET /feeds lists the same feeds as Atom documents at the web origin (src/api/feeds/web.ts).
 */
import { reachesAccount } from '../../auth/principal';
import { notFound } from '../../model/errors';
import { route, type Context, type RouteDeclaration } from '../../http/route';
import type { FeedFilter } from '../../events/store';
import { ok } from '../../http/reply';
import { feed, feedPage, feedVersion, readableEvents, receivedFeed } from './service';
import { feedsListing } from './web';

/** Everything feeds share: public reads, 30 per page (at most 100), polled, versioned. */
const FEED = { method: 'GET' as const, access: 'public' as const, pagination: true, polled: true };

/** A feed route: its filter decides both its version (the ETag) and its pages. */
function feedRoute(
	declaration: Omit<RouteDeclaration, 'handler' | 'version' | 'method' | 'access'> & {
		access?: RouteDeclaration['access'];
		filter(ctx: Context): FeedFilter;
	},
): RouteDeclaration {
	const { filter, ...rest } = declaration;
	// The version (before the handler, for the ETag) and the page share one filter and one version.
	const seen = new WeakMap<Context, { filter: FeedFilter; version: string }>();
	const versioned = (ctx: Context) => {
		let found = seen.get(ctx);
		if (!found) {
			const chosen = filter(ctx);
			seen.set(ctx, (found = { filter: chosen, version: feedVersion(ctx, chosen) }));
		}
		return found;
	};
	return route({
		...FEED,
		...rest,
		version: (ctx: Context) => versioned(ctx).version,
		handler: (ctx: Context) => {
			const { filter: chosen, version } = versioned(ctx);
			return feedPage(ctx, chosen, version);
		},
	});
}

/** The user of {username}. @throws DomainError 404 */
function pathUser(ctx: Context) {
	const user = ctx.app.stores.accounts.user(ctx.params.username);
	if (!user) throw notFound();
	return user;
}

/** True when the caller is the user of the path, with a token that reaches the user's own account. */
function isSelf(ctx: Context, userId: number): boolean {
	return !ctx.publicView && ctx.principal.user?.id === userId && reachesAccount(ctx.principal, userId);
}

export const feedRoutes: RouteDeclaration[] = [
	route({
		method: 'GET',
		path: '/feeds',
		docs: 'activity/feeds#get-feeds',
		access: 'public',
		permissions: [],
		// The Atom feeds' URLs (src/api/feeds/web.ts): the caller's own ones when acting as a user.
		resource: 'none',
		handler: (ctx) => ok(feedsListing(ctx)),
	}),
	feedRoute({
		path: '/events',
		docs: 'activity/events#list-public-events',
		permissions: [],
		resource: 'none',
		filter: (ctx) => feed(ctx, { publicOnly: true }),
	}),
	feedRoute({
		path: '/networks/{owner}/{repo}/events',
		docs: 'activity/events#list-public-events-for-a-network-of-repositories',
		permissions: [],
		resource: { repo: 'read' },
		// The public events of the repository's whole fork network.
		filter: (ctx) => feed(ctx, { publicOnly: true, repoIds: ctx.app.stores.repos.network(ctx.repo.repo.id) }),
	}),
	feedRoute({
		path: '/orgs/{org}/events',
		docs: 'activity/events#list-public-organization-events',
		permissions: [],
		resource: { org: 'read' },
		filter: (ctx) => feed(ctx, { publicOnly: true, orgId: ctx.org.org.id }),
	}),
	feedRoute({
		path: '/repos/{owner}/{repo}/events',
		docs: 'activity/events#list-repository-events',
		permissions: [{ metadata: 'read' }],
		// Whoever may read the repository sees its events, private ones too.
		resource: { repo: 'read' },
		filter: (ctx) => feed(ctx, { publicOnly: false, repoIds: [ctx.repo.repo.id] }),
	}),
	feedRoute({
		path: '/users/{username}/events',
		docs: 'activity/events#list-events-for-the-authenticated-user',
		permissions: [],
		resource: 'none',
		// The user's own events: to the user, private ones of repositories the user still reads.
		filter(ctx) {
			const user = pathUser(ctx);
			if (!isSelf(ctx, user.id)) return feed(ctx, { publicOnly: true, actorId: user.id });
			return feed(ctx, { publicOnly: false, actorId: user.id, readableRepoIds: readableEvents(ctx, { actorId: user.id }) });
		},
	}),
	feedRoute({
		path: '/users/{username}/events/public',
		docs: 'activity/events#list-public-events-for-a-user',
		permissions: [],
		resource: 'none',
		filter: (ctx) => feed(ctx, { publicOnly: true, actorId: pathUser(ctx).id }),
	}),
	feedRoute({
		path: '/users/{username}/events/orgs/{org}',
		docs: 'activity/events#list-organization-events-for-the-authenticated-user',
		access: 'authenticated',
		permissions: [],
		// The user's organization dashboard: only the user sees it, with a token that reaches the organization.
		resource: { org: 'read', bound: true },
		filter(ctx) {
			const user = pathUser(ctx);
			if (ctx.principal.user?.id !== user.id) throw notFound();
			const orgId = ctx.org.org.id;
			return feed(ctx, { publicOnly: false, orgId, readableRepoIds: readableEvents(ctx, { orgId }) });
		},
	}),
	feedRoute({
		path: '/users/{username}/received_events',
		docs: 'activity/events#list-events-received-by-the-authenticated-user',
		permissions: [],
		resource: 'none',
		filter(ctx) {
			const user = pathUser(ctx);
			return receivedFeed(ctx, user.id, isSelf(ctx, user.id));
		},
	}),
	feedRoute({
		path: '/users/{username}/received_events/public',
		docs: 'activity/events#list-public-events-received-by-a-user',
		permissions: [],
		resource: 'none',
		filter: (ctx) => receivedFeed(ctx, pathUser(ctx).id, false),
	}),
];
