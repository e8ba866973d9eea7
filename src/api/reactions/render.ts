/**
 * GitHub's reaction object (the rollup issues and comments carry is src/model/render.ts reactionRollup).
 */
import { nodeId, type Urls } from '../../model/urls';
import { simpleUser } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import type { ReactionRow } from './store';

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
