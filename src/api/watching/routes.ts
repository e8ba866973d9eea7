/**
 * Watching (GitHub's activity/watching): the authenticated user's subscription to a repository
 * (get, set, delete), the repositories a user watches, and a repository's watchers. Creating a
 * repository subscribes its creator (src/api/repos/service.ts). GitHub serves the subscription
 * routes to classic and OAuth tokens only (`notifications`, or `repo`, which private repositories
 * need anyway); the watched-repository lists take the "Watching" user permission. A subscription is
 * kept when its user loses read access to a private repository, and hidden from the lists
 * (src/api/repos/lists.ts). GitHub reports no event for subscriptions (its `watch` webhook is about
 * stars): nothing is recorded. repositories.subscribers_count is kept by triggers.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { noContent, ok, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { repositoryPeoplePage, userRepositoryPage } from '../repos/lists';
import { repository, repositoryPaths } from '../../model/render';
import { simpleUser } from '../../model/render';
import { repositorySubscription } from './render';
import { SUBSCRIPTION } from './access';
import { REPOSITORY_READ } from '../repos/access';

const subscriptionBody = v.object({
	subscribed: v.optional(v.boolean('subscribed must be a boolean')),
	ignored: v.optional(v.boolean('ignored must be a boolean')),
});

/** One page of the repositories `userId` watches that the caller may see, oldest subscription first. */
function watchedList(ctx: Context, userId: number) {
	const { rows, total } = userRepositoryPage(ctx, userId, ctx.app.stores.subscriptions.watchedBy(userId));
	return paged(
		rows.map((entry) => repository(ctx.app.urls, entry.repo, entry.owner, ctx.publicView ? null : entry.permission)),
		total,
	);
}

/** The activity/watching routes (registered in src/api/routes.ts). */
export const watchingRoutes = [
	route({
		...REPOSITORY_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/subscribers',
		docs: 'activity/watching#list-watchers',
		pagination: true,
		handler(ctx) {
			const { subscriptions } = ctx.app.stores;
			const id = ctx.repo.repo.id;
			const { rows, total } = repositoryPeoplePage(ctx, ctx.repo, {
				page: (limit, offset) => subscriptions.subscriberPage(id, limit, offset),
				count: () => subscriptions.subscriberCount(id),
				all: () => subscriptions.subscriberIds(id),
			});
			return paged(
				rows.map((account) => simpleUser(ctx.app.urls, account)),
				total,
			);
		},
	}),
	route({
		...SUBSCRIPTION,
		method: 'GET',
		docs: 'activity/watching#get-a-repository-subscription',
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			const row = ctx.app.stores.subscriptions.get(ctx.principal.user!.id, repo.id);
			// Not subscribed: GitHub answers 404.
			if (!row) throw notFound();
			return ok(repositorySubscription(repositoryPaths(ctx.app.urls, owner.login, repo.name), row));
		},
	}),
	route({
		...SUBSCRIPTION,
		method: 'PUT',
		docs: 'activity/watching#set-a-repository-subscription',
		errorResource: 'Subscription',
		body: subscriptionBody,
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			const row = ctx.app.stores.subscriptions.set(
				ctx.principal.user!.id,
				repo.id,
				{ subscribed: ctx.body.subscribed ?? false, ignored: ctx.body.ignored ?? false },
				isoSeconds(ctx.now),
			);
			return ok(repositorySubscription(repositoryPaths(ctx.app.urls, owner.login, repo.name), row));
		},
	}),
	route({
		...SUBSCRIPTION,
		method: 'DELETE',
		docs: 'activity/watching#delete-a-repository-subscription',
		handler(ctx) {
			ctx.app.stores.subscriptions.remove(ctx.principal.user!.id, ctx.repo.repo.id);
			return noContent();
		},
	}),
	route({
		method: 'GET',
		path: '/user/subscriptions',
		docs: 'activity/watching#list-repositories-watched-by-the-authenticated-user',
		permissions: [{ watching: 'read' }],
		access: 'authenticated',
		resource: { self: true },
		pagination: true,
		handler: (ctx) => watchedList(ctx, ctx.principal.user!.id),
	}),
	route({
		method: 'GET',
		path: '/users/{username}/subscriptions',
		docs: 'activity/watching#list-repositories-watched-by-a-user',
		permissions: [{ watching: 'read' }],
		access: 'public',
		resource: 'none',
		pagination: true,
		handler(ctx) {
			const account = ctx.app.stores.accounts.byLogin(ctx.params.username);
			if (!account) throw notFound();
			return watchedList(ctx, account.id);
		},
	}),
];
