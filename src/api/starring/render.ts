/**
 * Response shapes of starring (GitHub's activity/starring): with the star media type
 * (`application/vnd.github.star+json`) a starred repository is {starred_at, repo} and a stargazer
 * {starred_at, user}; otherwise the repository record and the simple user themselves.
 */
import type { Urls } from '../../model/urls';
import type { MediaParam } from '../../http/negotiation';
import { simpleUser } from '../../model/render';
import type { AccountRow } from '../../model/rows';

/** The media type parameter that adds starred_at: application/vnd.github.star+json. */
export const STAR_MEDIA = 'star';

/**
 * One repository of a starred list.
 * @param record the repository record (src/api/repos/render.ts)
 * @param starredAt ISO timestamp
 */
export function starredRepository(media: MediaParam, record: unknown, starredAt: string): unknown {
	return media === STAR_MEDIA ? { starred_at: starredAt, repo: record } : record;
}

/** One stargazer: a simple user, or {starred_at, user} with the star media type (`at`: ISO timestamp). */
export function stargazer(urls: Urls, media: MediaParam, account: AccountRow & { at: string }): unknown {
	const user = simpleUser(urls, account);
	return media === STAR_MEDIA ? { starred_at: account.at, user } : user;
}
