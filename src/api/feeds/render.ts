/**
 * The activity feeds' Event object (spec document 2, Event; GitHub's activity event shape): id
 * (string), type, actor {id, login, display_login, gravatar_id, url, avatar_url}, repo {id, name,
 * url}, payload, public, created_at, and org on organization repositories. The payload was stored
 * as JSON when the event happened and is spliced in as it is, so a page of events costs no parsing.
 */
import type { Urls } from '../../http/urls';
import type { EventRow } from '../../events/store';
import type { AccountRow } from '../users/store';

/** GitHub's stand-in for an account that no longer exists, or for changes made by no one. */
const GHOST = { id: 10137, login: 'ghost' };

function actorJson(urls: Urls, account: Pick<AccountRow, 'id' | 'login'> | undefined, kind: 'users' | 'orgs'): string {
	const { id, login } = account ?? GHOST;
	return JSON.stringify({
		id,
		login,
		...(kind === 'users' ? { display_login: login } : {}),
		gravatar_id: '',
		url: urls.api(`/${kind}/${login}`),
		avatar_url: `${urls.origin}/avatars/u/${id}`,
	});
}

/**
 * One Event as JSON text.
 * @param accounts the actors and organizations of the page, by id
 */
export function eventJson(urls: Urls, row: EventRow, accounts: Map<number, AccountRow>): string {
	const actor = row.actor_id === null ? undefined : accounts.get(row.actor_id);
	const org = row.org_id === null ? undefined : accounts.get(row.org_id);
	const repo = JSON.stringify({ id: row.repo_id ?? 0, name: row.repo_name ?? '', url: urls.api(`/repos/${row.repo_name ?? ''}`) });
	return (
		`{"id":${JSON.stringify(String(row.id))},"type":${JSON.stringify(row.feed_type)},"actor":${actorJson(urls, actor, 'users')},` +
		`"repo":${repo},"payload":${row.payload ?? '{}'},"public":${row.public === 1},"created_at":${JSON.stringify(row.created_at)}` +
		(org ? `,"org":${actorJson(urls, org, 'orgs')}` : '') +
		'}'
	);
}
