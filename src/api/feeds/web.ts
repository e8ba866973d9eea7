/**
 * The Atom feeds GET /feeds lists (GitHub's "Get feeds", activity/feeds), served at the web origin
 * as GitHub Enterprise Server serves them, outside /api/v3:
 *
 *   /timeline                                    the public timeline (what GET /events shows)
 *   /{login}                                     a user's public events (GET /users/{username}/events/public)
 *   /{login}.private?token=T                     what the user receives (GET /users/{username}/received_events, as the user)
 *   /{login}.private.actor?token=T               the user's own events (GET /users/{username}/events, as the user)
 *   /organizations/{org}/{login}.private.atom?token=T
 *                                                the user's organization dashboard (GET /users/{username}/events/orgs/{org})
 *   /security-advisories                         the imported security advisories (`gitstead admin import-advisories`)
 *
 * Each also answers with `.atom` appended (GitHub.com's form). A login that is also a top-level API
 * path (`/meta`, `/events`, …) is served by the API there; its public feed stays at `/{login}.atom`.
 *
 * Feed tokens: the private feeds are read with `token`, a feed token that is not an API token (an
 * API token in its place, or any other wrong value, answers 404). It is
 * `<id>.<HMAC-SHA256(installation secret, "feed:<user id>:<id>")>`, where id is the API token that
 * asked GET /feeds: a classic or OAuth token of the user holding `repo` (the scope that reads
 * private repositories; other tokens are given no private feed URLs). The feed token lives exactly
 * as long as that API token: revoking it or letting it expire makes every feed URL it was given
 * answer 404. A private feed shows what that token shows through the API, evaluated at each read.
 */
import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import type { App } from '../../app';
import { randomSecret } from '../../db/settings';
import { anonymous, type Principal } from '../../auth/principal';
import { expandScopes } from '../../auth/scopes';
import type { FeedFilter } from '../../events/store';
import type { Context } from '../../http/route';
import { epochSeconds, isoSeconds } from '../../time';
import type { AccountRow } from '../../model/rows';
import { advisoriesAtom, eventsAtom, type AtomHead } from './atom';
import { feed, feedVersion, readableEvents, receivedFeed, type FeedViewer } from './service';

/** The settings key of the installation's feed-token secret. */
const FEED_SECRET = 'feed_token_secret';
/** Entries in an Atom document (the newest of the feed). */
const ATOM_ENTRIES = 30;
const ATOM = 'application/atom+xml';

/** The HMAC of a feed token, hex. */
function feedMac(secret: string, userId: number, tokenId: number): string {
	return createHmac('sha256', secret).update(`feed:${userId}:${tokenId}`).digest('hex');
}

/**
 * The feed token of a user's API token (created with the installation's secret on first use; the
 * first call writes the settings row).
 */
export function feedToken(app: App, userId: number, tokenId: number): string {
	const secret = app.settings.ensure(FEED_SECRET, randomSecret);
	return `${tokenId}.${feedMac(secret, userId, tokenId)}`;
}

/** Whether the principal may be given the user's private feed URLs: a classic or OAuth token with `repo`. */
function readsPrivateFeeds(principal: Principal): boolean {
	return (
		(principal.kind === 'classic' || principal.kind === 'oauth') &&
		principal.tokenId !== null &&
		principal.user !== null &&
		principal.scopes.has('repo')
	);
}

const link = (href: string) => ({ href, type: ATOM });

/**
 * GET /feeds (GitHub's "Get feeds"): the public timeline and the user template for everyone, the
 * security advisories feed; the caller's public feed to any caller acting as a user; and, to a
 * classic or OAuth token holding `repo`, the private feeds with the caller's feed token (GitHub
 * gives these to Basic authentication only, because its feed tokens cannot be revoked; ours end
 * with the API token). `current_user_organization_url`, a legacy key GitHub sends empty, is left
 * out; `current_user_organization_urls` lists a feed per active organization membership.
 */
export function feedsListing(ctx: Context): Record<string, unknown> {
	const { app, principal } = ctx;
	const html = (path: string) => app.urls.html(path);
	const body: Record<string, unknown> = { timeline_url: html('/timeline'), user_url: html('/{user}') };
	const links: Record<string, unknown> = { timeline: link(html('/timeline')), user: link(html('/{user}')) };
	const user = principal.user;
	if (user) {
		body.current_user_public_url = html(`/${user.login}`);
		links.current_user_public = link(html(`/${user.login}`));
	}
	if (user && readsPrivateFeeds(principal)) {
		const token = encodeURIComponent(feedToken(app, user.id, principal.tokenId!));
		const mine = html(`/${user.login}.private?token=${token}`);
		const actor = html(`/${user.login}.private.actor?token=${token}`);
		const { rows } = app.stores.memberships.forUser({ userId: user.id, state: 'active', limit: -1, offset: 0 });
		const orgs = app.stores.accounts.mapByIds(rows.map((row) => row.org_id));
		const orgUrls = rows
			.map((row) => orgs.get(row.org_id))
			.filter((org) => org !== undefined)
			.map((org) => html(`/organizations/${org.login}/${user.login}.private.atom?token=${token}`));
		Object.assign(body, { current_user_url: mine, current_user_actor_url: actor, current_user_organization_urls: orgUrls });
		Object.assign(links, { current_user: link(mine), current_user_actor: link(actor), current_user_organizations: orgUrls.map(link) });
	}
	body.security_advisories_url = html('/security-advisories');
	links.security_advisories = link(html('/security-advisories'));
	body._links = links;
	return body;
}

/**
 * The principal a feed token stands for: its API token's, if the token is the user's, live (not
 * revoked, not expired), classic or OAuth with `repo`, and the MAC matches. Null otherwise.
 * @param now epoch milliseconds
 */
function feedPrincipal(app: App, user: AccountRow, token: string | null, now: number): Principal | null {
	const match = token === null ? null : /^(\d{1,15})\.([0-9a-f]{64})$/.exec(token);
	const secret = app.settings.get(FEED_SECRET);
	if (!match || secret === undefined) return null;
	const row = app.tokens.get(Number(match[1]));
	if (!row || row.user_id !== user.id || (row.kind !== 'classic' && row.kind !== 'oauth')) return null;
	if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= epochSeconds(now))) return null;
	const expected = Buffer.from(feedMac(secret, user.id, row.id), 'hex');
	if (!timingSafeEqual(expected, Buffer.from(match[2], 'hex'))) return null;
	const scopeList = row.scopes ? row.scopes.split(',') : [];
	const scopes = expandScopes(scopeList);
	if (!scopes.has('repo')) return null;
	return {
		kind: row.kind,
		tokenId: row.id,
		user: { id: user.id, login: user.login, siteAdmin: user.site_admin === 1 },
		actorId: user.id,
		installationId: null,
		appId: null,
		repositoryIds: null,
		scopeList,
		scopes,
		permissions: {},
		resourceOwnerId: null,
		rateKey: `user:${user.id}`,
	};
}

/** One Atom feed, resolved from a web path: what it shows, to whom, and its document's facts. */
interface WebFeed {
	/** Names the feed in its ETag. */
	key: string;
	head: Omit<AtomHead, 'updated'>;
	/** The event feed's filter; absent for the advisory feed. */
	filter?: FeedFilter;
	private: boolean;
}

const LOGIN = '[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}';
const PRIVATE_ORG = new RegExp(`^/organizations/(${LOGIN})/(${LOGIN})\\.private(?:\\.atom)?$`);
const PRIVATE_ACTOR = new RegExp(`^/(${LOGIN})\\.private\\.actor(?:\\.atom)?$`);
const PRIVATE = new RegExp(`^/(${LOGIN})\\.private(?:\\.atom)?$`);
const PUBLIC = new RegExp(`^/(${LOGIN})(?:\\.atom)?$`);

/**
 * The feed a path names, for the caller holding `token`; null for no feed (an unknown user or
 * organization, a wrong token, an organization the user is not an active member of).
 */
function resolve(app: App, path: string, token: string | null, now: number): WebFeed | null {
	const self = (p: string) => app.urls.html(p);
	const publicViewer: FeedViewer = { app, principal: anonymous('feed'), publicView: true, now };
	if (path === '/timeline' || path === '/timeline.atom') {
		return {
			key: 'timeline',
			head: { path: '/timeline', self: self('/timeline.atom'), title: 'Gitstead public timeline' },
			filter: feed(publicViewer, { publicOnly: true }),
			private: false,
		};
	}
	if (path === '/security-advisories' || path === '/security-advisories.atom') {
		return {
			key: 'advisories',
			head: {
				path: '/security-advisories',
				self: self('/security-advisories.atom'),
				title: 'Gitstead security advisory feed',
				author: 'Gitstead',
			},
			private: false,
		};
	}
	const query = token === null ? '' : `?token=${encodeURIComponent(token)}`;
	let match: RegExpExecArray | null;
	if ((match = PRIVATE_ORG.exec(path))) {
		const org = app.stores.accounts.organization(match[1]);
		const user = app.stores.accounts.user(match[2]);
		if (!org || !user || app.stores.memberships.get(org.id, user.id)?.state !== 'active') return null;
		const viewer = privateViewer(app, user, token, now);
		if (!viewer) return null;
		const filter = feed(viewer, { publicOnly: false, orgId: org.id, readableRepoIds: readableEvents(viewer, { orgId: org.id }) });
		const path = `/organizations/${org.login}/${user.login}.private.atom`;
		return {
			key: `org:${org.id}:${user.id}`,
			head: { path, self: self(path + query), title: `${org.login} dashboard for ${user.login}` },
			filter,
			private: true,
		};
	}
	if ((match = PRIVATE_ACTOR.exec(path))) {
		const user = app.stores.accounts.user(match[1]);
		const viewer = user && privateViewer(app, user, token, now);
		if (!user || !viewer) return null;
		const filter = feed(viewer, { publicOnly: false, actorId: user.id, readableRepoIds: readableEvents(viewer, { actorId: user.id }) });
		const path = `/${user.login}.private.actor.atom`;
		return {
			key: `actor:${user.id}`,
			head: { path, self: self(path + query), title: `${user.login}’s activity` },
			filter,
			private: true,
		};
	}
	if ((match = PRIVATE.exec(path))) {
		const user = app.stores.accounts.user(match[1]);
		const viewer = user && privateViewer(app, user, token, now);
		if (!user || !viewer) return null;
		const path = `/${user.login}.private.atom`;
		return {
			key: `received:${user.id}`,
			head: { path, self: self(path + query), title: `Private feed for ${user.login}` },
			filter: receivedFeed(viewer, user.id, true),
			private: true,
		};
	}
	if ((match = PUBLIC.exec(path))) {
		const user = app.stores.accounts.user(match[1]);
		if (!user) return null;
		const path = `/${user.login}`;
		return {
			key: `public:${user.id}`,
			head: { path, self: self(`${path}.atom`), title: `${user.login}’s public activity` },
			filter: feed(publicViewer, { publicOnly: true, actorId: user.id }),
			private: false,
		};
	}
	return null;
}

/** The viewer of a private feed: the feed token's principal. */
function privateViewer(app: App, user: AccountRow, token: string | null, now: number): FeedViewer | null {
	const principal = feedPrincipal(app, user, token, now);
	return principal && { app, principal, publicView: false, route: { acceptedScopes: [] }, now };
}

/** An Atom answer: 200 with the document (none for HEAD) or 304. */
export interface AtomAnswer {
	status: 200 | 304;
	headers: Record<string, string>;
	body?: string;
}

/** Whether an If-None-Match header names the ETag (weak comparison; `*` matches). */
function matches(header: string | undefined, etag: string): boolean {
	if (header === undefined) return false;
	if (header.trim() === '*') return true;
	const bare = (tag: string) => tag.trim().replace(/^W\//, '');
	return header.split(',').some((tag) => bare(tag) === bare(etag));
}

/**
 * Serves a web path as an Atom feed, or returns null when the path names no feed (the caller
 * answers 404). The ETag of an event feed comes from its version (newest event and size, as the
 * API feeds': src/api/feeds/service.ts), so a matching If-None-Match is answered 304 before
 * anything is rendered; the advisory feed's from its document.
 * @param request.path the path without its query; @param request.token the `token` query parameter
 * @param now epoch milliseconds
 */
export function serveAtom(
	app: App,
	request: { method: string; path: string; token: string | null; ifNoneMatch?: string },
	now: number,
): AtomAnswer | null {
	const found = resolve(app, request.path, request.token, now);
	if (!found) return null;
	const headers: Record<string, string> = {
		'Content-Type': `${ATOM}; charset=utf-8`,
		'Cache-Control': found.private ? 'private, max-age=60' : 'public, max-age=60',
	};
	let body: string;
	if (found.filter) {
		const filter = found.filter;
		headers.ETag = `W/"${hash('sha1', `atom;${app.urls.origin};${found.key};${feedVersion({ app }, filter)}`)}"`;
		if (matches(request.ifNoneMatch, headers.ETag)) return { status: 304, headers };
		const { rows } = app.stores.events.feed(filter, ATOM_ENTRIES, 0);
		const ids = new Set<number>();
		for (const row of rows) if (row.actor_id !== null) ids.add(row.actor_id);
		const accounts = app.stores.accounts.mapByIds(ids);
		body = eventsAtom(app.urls, { ...found.head, updated: rows[0]?.created_at ?? isoSeconds(now) }, rows, accounts);
	} else {
		const { dependabot } = app.stores;
		const rows = dependabot.latestAdvisories(ATOM_ENTRIES);
		const packages = dependabot.packagesOfAdvisories(rows.map((row) => row.id));
		// No version is kept for advisories: the ETag is the digest of what the document shows.
		headers.ETag = `W/"${hash('sha1', `atom;${app.urls.origin};${found.key};${JSON.stringify(rows)};${JSON.stringify([...packages])}`)}"`;
		if (matches(request.ifNoneMatch, headers.ETag)) return { status: 304, headers };
		body = advisoriesAtom(app.urls, { ...found.head, updated: rows[0]?.updated_at ?? isoSeconds(now) }, rows, packages);
	}
	headers['Content-Length'] = String(Buffer.byteLength(body));
	return { status: 200, headers, body: request.method === 'HEAD' ? undefined : body };
}
