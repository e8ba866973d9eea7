/**
 * Starring (GitHub's activity/starring): star, unstar and check a repository for the authenticated
 * user, the repositories a user starred, and a repository's stargazers. Stars are the user's own
 * ("Starring" user permission; classic tokens need public_repo to star a public repository and repo
 * for a private one, nothing to read); the repository they name must be one the caller can read.
 * A star is kept when its user loses read access to a private repository, and hidden from the lists
 * (src/api/repos/lists.ts). Each new star records the star and watch events
 * (src/api/starring/events.ts). repositories.stargazers_count (also GitHub's watchers_count) is kept
 * by triggers.
 */
import * as v from 'valibot';
import { notFound } from '../../model/errors';
import { noContent, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { repositoryPeoplePage, userRepositoryPage } from '../repos/lists';
import { repository } from '../../model/render';
import { STAR_READ, STAR_WRITE } from './access';
import { starRepository, unstarRepository } from './service';
import { stargazer, starredRepository } from './render';

const starredQuery = v.object({
	sort: v.optional(v.picklist(['created', 'updated'], 'sort must be created or updated')),
	direction: v.optional(v.picklist(['asc', 'desc'], 'direction must be asc or desc')),
});

/**
 * One page of the repositories `userId` starred that the caller may see (sort: when starred, or
 * when last pushed to; newest first unless direction=asc).
 */
function starredList(ctx: Context<v.InferOutput<typeof starredQuery>>, userId: number) {
	const listed = ctx.app.stores.stars.starredBy(userId, ctx.query.sort ?? 'created', ctx.query.direction ?? 'desc');
	const { rows, total } = userRepositoryPage(ctx, userId, listed);
	const { urls } = ctx.app;
	return paged(
		rows.map((entry) =>
			starredRepository(ctx.media, repository(urls, entry.repo, entry.owner, ctx.publicView ? null : entry.permission), entry.at),
		),
		total,
	);
}

/** The activity/starring routes (registered in src/api/routes.ts). */
export const starringRoutes = [
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}/stargazers',
		docs: 'activity/starring#list-stargazers',
		permissions: [{ metadata: 'read' }],
		access: 'public',
		resource: { repo: 'read' },
		pagination: true,
		handler(ctx) {
			const { stars } = ctx.app.stores;
			const id = ctx.repo.repo.id;
			const { rows, total } = repositoryPeoplePage(ctx, ctx.repo, {
				page: (limit, offset) => stars.stargazerPage(id, limit, offset),
				count: () => stars.stargazerCount(id),
				all: () => stars.stargazerIds(id),
			});
			return paged(
				rows.map((account) => stargazer(ctx.app.urls, ctx.media, account)),
				total,
			);
		},
	}),
	route({
		method: 'GET',
		path: '/user/starred',
		docs: 'activity/starring#list-repositories-starred-by-the-authenticated-user',
		permissions: [{ starring: 'read' }],
		access: 'authenticated',
		resource: { self: true },
		query: starredQuery,
		pagination: true,
		handler: (ctx) => starredList(ctx, ctx.principal.user!.id),
	}),
	route({
		method: 'GET',
		path: '/users/{username}/starred',
		docs: 'activity/starring#list-repositories-starred-by-a-user',
		permissions: [{ starring: 'read' }],
		access: 'public',
		resource: 'none',
		query: starredQuery,
		pagination: true,
		handler(ctx) {
			const account = ctx.app.stores.accounts.byLogin(ctx.params.username);
			if (!account) throw notFound();
			return starredList(ctx, account.id);
		},
	}),
	route({
		...STAR_READ,
		method: 'GET',
		docs: 'activity/starring#check-if-a-repository-is-starred-by-the-authenticated-user',
		handler(ctx) {
			// GitHub's answer for "not starred" is a plain 404.
			if (!ctx.app.stores.stars.get(ctx.principal.user!.id, ctx.repo.repo.id)) throw notFound();
			return noContent();
		},
	}),
	route({
		...STAR_WRITE,
		method: 'PUT',
		docs: 'activity/starring#star-a-repository-for-the-authenticated-user',
		handler(ctx) {
			starRepository(ctx, ctx.principal.user!.id, ctx.repo.repo);
			return noContent();
		},
	}),
	route({
		...STAR_WRITE,
		method: 'DELETE',
		docs: 'activity/starring#unstar-a-repository-for-the-authenticated-user',
		handler(ctx) {
			unstarRepository(ctx, ctx.principal.user!.id, ctx.repo.repo);
			return noContent();
		},
	}),
];
