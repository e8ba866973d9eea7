/**
 * Starring's use cases (REST PUT/DELETE /user/starred/{owner}/{repo}, GraphQL addStar and
 * removeStar): the caller's user stars or unstars a repository it can read (the guard's rule).
 * Starring again, or unstarring a repository not starred, changes nothing and records nothing.
 * https://docs.github.com/rest/activity/starring
 */
import type { Caller } from '../../auth/caller';
import type { RepositoryRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { recordStar } from './events';

/**
 * Stars `repo` for user `userId`; a new star records the `star` `created` and `watch` `started` events.
 * @returns whether a star was added
 */
export function starRepository(caller: Caller, userId: number, repo: RepositoryRow): boolean {
	return caller.app.transaction(() => {
		const star = caller.app.stores.stars.star(userId, repo.id, isoSeconds(caller.now));
		if (star) recordStar(caller.app, 'created', repo, star.created_at, caller.principal.actorId);
		return star !== null;
	});
}

/**
 * Removes user `userId`'s star of `repo`, recording `star` `deleted` when there was one.
 * @returns whether a star was removed
 */
export function unstarRepository(caller: Caller, userId: number, repo: RepositoryRow): boolean {
	return caller.app.transaction(() => {
		const removed = Boolean(caller.app.stores.stars.unstar(userId, repo.id));
		if (removed) recordStar(caller.app, 'deleted', repo, null, caller.principal.actorId);
		return removed;
	});
}
