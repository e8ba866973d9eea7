/**
 * Notifications (GitHub's activity/notifications): the
 * authenticated user's threads, all of them or one repository's, marking them read, one thread
 * (read, marked read, marked done) and its subscription. Only a personal access token (classic)
 * with scope `notifications` or `repo` is accepted; other kinds are refused with 403.
 *
 * Lists are sorted by updated_at, newest first, and optimized for polling: Last-Modified is the
 * newest updated_at of the list (If-Modified-Since with that value, passed exactly, answers 304
 * without using the rate limit) and X-Poll-Interval is 60 seconds. A user's threads of
 * repositories they no longer read are left out of every answer (404 for one thread), but for the
 * threads of their open repository invitations (an invitee reads a private repository only once
 * they accept).
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { accepted, noContent, ok, type Reply } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { timestampParam } from '../../http/validation';
import { isoSeconds } from '../../time';
import type { OwnedRepository } from '../../auth/access/repos';
import { strongest } from '../../model/notifications';
import { notificationThread, threadSubscription } from './render';
import { invitationThreads, markThreads, MARKING_IN_BACKGROUND, readableRepositories, userThread } from './service';
import type { ThreadFilter, ThreadView } from './store';

/** Seconds between polls GitHub asks clients to keep (X-Poll-Interval). */
export const POLL_INTERVAL_SECONDS = 60;

/** Every notification route: classic tokens with `notifications` or `repo`, for the user themselves. */
const NOTIFICATIONS = {
	access: 'authenticated' as const,
	permissions: [],
	tokens: ['classic'] as Array<'classic'>,
	scopes: ['notifications', 'repo'],
	resource: { self: true } as const,
	errorResource: 'Notification',
};
/** The repository forms: also the repository {owner}/{repo}, read (marking threads read changes nothing in it). */
const REPOSITORY_NOTIFICATIONS = { ...NOTIFICATIONS, resource: { self: true, repo: 'read', readOnly: true } as const };

const flag = v.optional(
	v.pipe(
		v.picklist(['true', 'false'], 'must be true or false'),
		v.transform((value) => value === 'true'),
	),
	'false',
);
const listFilters = {
	all: flag,
	participating: flag,
	since: v.optional(timestampParam('since')),
	before: v.optional(timestampParam('before')),
};
/** GET /notifications: per_page above 50 is capped at 50 as GitHub does (gh status asks for 100). */
const listQuery = v.object(listFilters);
const repositoryListQuery = v.object(listFilters);
const markBody = v.object({
	last_read_at: v.optional(timestampParam('last_read_at')),
	read: v.optional(v.boolean('read must be a boolean'), true),
});
const repositoryMarkBody = v.object({ last_read_at: v.optional(timestampParam('last_read_at')) });
const subscriptionBody = v.object({ ignored: v.optional(v.boolean('ignored must be a boolean'), false) });

/** 205 Reset Content, no body (GitHub's answer to marking read). */
const resetContent = (): Reply => ({ status: 205 });

const pollHeaders = (lastModified: string | null): Record<string, string> => ({
	'X-Poll-Interval': String(POLL_INTERVAL_SECONDS),
	...(lastModified ? { 'Last-Modified': new Date(lastModified).toUTCString() } : {}),
});

/**
 * One page of threads in the repositories given (and, with `invitations`, the threads of the user's
 * open repository invitations), with Last-Modified and X-Poll-Interval.
 */
function listThreads(
	ctx: Context,
	readable: Map<number, OwnedRepository>,
	query: { all: boolean; participating: boolean; since?: string; before?: string },
	invitations?: { ids: number[]; repositories: Map<number, OwnedRepository> },
): Reply {
	const repositories = invitations ? new Map([...invitations.repositories, ...readable]) : readable;
	const filter: ThreadFilter = {
		userId: ctx.principal.user!.id,
		repoIds: [...readable.keys()],
		invitationIds: invitations?.ids ?? [],
		all: query.all,
		participating: query.participating,
		since: query.since ?? null,
		before: query.before ?? null,
	};
	const { notifications } = ctx.app.stores;
	const { rows, total } = notifications.list(filter, ctx.page.perPage, ctx.page.offset);
	const body = rows.map((row) => {
		const { repo, owner } = repositories.get(row.repository_id)!;
		return notificationThread(ctx.app.urls, row, repo, owner);
	});
	return { status: 200, body, total, headers: pollHeaders(notifications.lastModified(filter)) };
}

/**
 * The caller's thread {thread_id} in a repository they read, or of one of their open repository
 * invitations. @throws DomainError 404
 */
function loadThread(ctx: Context): { view: ThreadView; repo: OwnedRepository } {
	const id = idParam(ctx.params.thread_id);
	const found = id === null ? undefined : userThread(ctx.app, ctx.principal.user!.id, id, isoSeconds(ctx.now));
	if (!found) throw notFound();
	return found;
}

/** The thread's subscription as it stands (404 when the user neither follows nor ignores it). */
function subscriptionOf(ctx: Context, view: ThreadView): Reply {
	if (!view.subscribed && !view.ignored) throw notFound();
	return ok(threadSubscription(ctx.app.urls, view));
}

export const notificationRoutes = [
	route({
		...NOTIFICATIONS,
		method: 'GET',
		path: '/notifications',
		docs: 'activity/notifications#list-notifications-for-the-authenticated-user',
		query: listQuery,
		pagination: { perPage: 50, maxPerPage: 50 },
		handler(ctx) {
			return listThreads(
				ctx,
				readableRepositories(ctx.app, ctx.principal),
				ctx.query,
				invitationThreads(ctx.app, ctx.principal.user!.id, isoSeconds(ctx.now)),
			);
		},
	}),
	route({
		...NOTIFICATIONS,
		method: 'PUT',
		path: '/notifications',
		docs: 'activity/notifications#mark-notifications-as-read',
		body: markBody,
		handler(ctx) {
			const lastReadAt = ctx.body.last_read_at ?? isoSeconds(ctx.now);
			const done = markThreads(ctx.app, { userId: ctx.principal.user!.id, repoId: null, lastReadAt, read: ctx.body.read });
			return done === 'done' ? resetContent() : accepted({ message: MARKING_IN_BACKGROUND });
		},
	}),
	route({
		...REPOSITORY_NOTIFICATIONS,
		method: 'GET',
		path: '/repos/{owner}/{repo}/notifications',
		docs: 'activity/notifications#list-repository-notifications-for-the-authenticated-user',
		query: repositoryListQuery,
		pagination: true,
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			return listThreads(ctx, new Map([[repo.id, { repo, owner }]]), ctx.query);
		},
	}),
	route({
		...REPOSITORY_NOTIFICATIONS,
		method: 'PUT',
		path: '/repos/{owner}/{repo}/notifications',
		docs: 'activity/notifications#mark-repository-notifications-as-read',
		body: repositoryMarkBody,
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			const lastReadAt = ctx.body.last_read_at ?? isoSeconds(ctx.now);
			const done = markThreads(ctx.app, { userId: ctx.principal.user!.id, repoId: repo.id, lastReadAt, read: true });
			if (done === 'done') return resetContent();
			return accepted({ message: MARKING_IN_BACKGROUND, url: ctx.app.urls.api(`/repos/${owner.login}/${repo.name}/notifications`) });
		},
	}),
	route({
		...NOTIFICATIONS,
		method: 'GET',
		path: '/notifications/threads/{thread_id}',
		docs: 'activity/notifications#get-a-thread',
		handler(ctx) {
			const { view, repo } = loadThread(ctx);
			return { ...ok(notificationThread(ctx.app.urls, view, repo.repo, repo.owner)), headers: pollHeaders(view.updated_at) };
		},
	}),
	route({
		...NOTIFICATIONS,
		method: 'PATCH',
		path: '/notifications/threads/{thread_id}',
		docs: 'activity/notifications#mark-a-thread-as-read',
		handler(ctx) {
			const { view } = loadThread(ctx);
			ctx.app.stores.notifications.markRead(view.id, isoSeconds(ctx.now));
			return resetContent();
		},
	}),
	route({
		...NOTIFICATIONS,
		method: 'DELETE',
		path: '/notifications/threads/{thread_id}',
		docs: 'activity/notifications#mark-a-thread-as-done',
		handler(ctx) {
			const { view } = loadThread(ctx);
			ctx.app.stores.notifications.markDone(view.id, isoSeconds(ctx.now));
			return noContent();
		},
	}),
	route({
		...NOTIFICATIONS,
		method: 'GET',
		path: '/notifications/threads/{thread_id}/subscription',
		docs: 'activity/notifications#get-a-thread-subscription-for-the-authenticated-user',
		handler(ctx) {
			return subscriptionOf(ctx, loadThread(ctx).view);
		},
	}),
	route({
		...NOTIFICATIONS,
		method: 'PUT',
		path: '/notifications/threads/{thread_id}/subscription',
		docs: 'activity/notifications#set-a-thread-subscription',
		body: subscriptionBody,
		handler(ctx) {
			const { view } = loadThread(ctx);
			const now = isoSeconds(ctx.now);
			const since = view.subscribed || view.ignored ? (view.subscribed_at ?? now) : now;
			const values = ctx.body.ignored
				? { subscribed: 0, ignored: 1, subscribed_at: since, standing: view.standing }
				: // Subscribing by hand: the thread's next notification says manual unless the user is more to it.
					{
						subscribed: 1,
						ignored: 0,
						subscribed_at: view.subscribed ? since : now,
						standing: strongest(view.standing, 'manual'),
					};
			ctx.app.stores.notifications.setSubscription(view.id, values);
			return ok(threadSubscription(ctx.app.urls, { ...view, ...values }));
		},
	}),
	route({
		...NOTIFICATIONS,
		method: 'DELETE',
		path: '/notifications/threads/{thread_id}/subscription',
		docs: 'activity/notifications#delete-a-thread-subscription',
		handler(ctx) {
			const { view } = loadThread(ctx);
			ctx.app.stores.notifications.setSubscription(view.id, {
				subscribed: 0,
				ignored: 0,
				subscribed_at: null,
				standing: view.standing,
			});
			return noContent();
		},
	}),
];
