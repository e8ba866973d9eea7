/**
 * GitHub's reaction object and the reaction rollup that issues and comments carry.
 */
import { nodeId, type Urls } from '../../http/urls';
import { simpleUser } from '../users/render';
import type { AccountRow } from '../users/store';
import type { ReactionRow } from './store';

/**
 * The `reactions` rollup of an issue or comment: {url, total_count, "+1", "-1", laugh, hooray,
 * confused, heart, rocket, eyes}.
 * @param subjectUrl the or comment's API URL
 * @param counts the row's reaction_counts column (JSON {content: count}, kept by triggers)
 */
export function reactionRollup(subjectUrl: string, counts: string | null | undefined) {
	const n = counts ? (JSON.parse(counts) as Record<string, number>) : {};
	const get = (content: string) => n[content] ?? 0;
	const rollup = {
		url: `${subjectUrl}/reactions`,
		total_count: 0,
		'+1': get('+1'),
		'-1': get('-1'),
		laugh: get('laugh'),
		hooray: get('hooray'),
		confused: get('confused'),
		heart: get('heart'),
		rocket: get('rocket'),
		eyes: get('eyes'),
	};
	rollup.total_count =
		rollup['+1'] + rollup['-1'] + rollup.laugh + rollup.hooray + rollup.confused + rollup.heart + rollup.rocket + rollup.eyes;
	return rollup;
}

/** A reaction: {id, node_id, user, content, created_at}; `user` null when the account is gone. */
export function reaction(urls: Urls, row: ReactionRow, user: AccountRow | undefined) {
	return {
		id: row.id,
		node_id: nodeId('Reaction', row.id),
		user: user ? simpleUser(urls, user) : null,
		content: row.content,
		created_at: row.created_at,
	};
}
