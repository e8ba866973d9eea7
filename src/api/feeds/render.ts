/**
 * The activity feeds' Event object (GitHub's activity event shape): id
 * (string), type, actor {id, login, display_login, gravatar_id, url, avatar_url}, repo {id, name,
 * url}, payload, public, created_at, and org on organization repositories. The payload was stored
 * as JSON when the event happened and is spliced in as it is, so a page of events costs no parsing.
 */
import type { Urls } from '../../model/urls';
import type { EventRow } from '../../events/store';
import type { AccountRow } from '../../model/rows';

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
 * Renders the Events of one page: the accounts (actors, organizations) and repositories a page
 * names repeat, so each one's JSON is built once per page.
 */
export class EventRenderer {
	private readonly actors = new Map<string, string>();
	private readonly repos = new Map<string, string>();

	/** @param accounts the actors and organizations of the page, by id */
	constructor(
		private readonly urls: Urls,
		private readonly accounts: Map<number, AccountRow>,
	) {}

	private actor(id: number | null, kind: 'users' | 'orgs'): string {
		const key = `${kind}${id ?? ''}`;
		let json = this.actors.get(key);
		if (json === undefined) {
			json = actorJson(this.urls, id === null ? undefined : this.accounts.get(id), kind);
			this.actors.set(key, json);
		}
		return json;
	}

	private repo(row: EventRow): string {
		// By repository and the name it had then: a renamed repository's old events keep their name.
		const key = `${row.repo_id ?? ''}:${row.repo_name ?? ''}`;
		let json = this.repos.get(key);
		if (json === undefined) {
			json = JSON.stringify({ id: row.repo_id ?? 0, name: row.repo_name ?? '', url: this.urls.api(`/repos/${row.repo_name ?? ''}`) });
			this.repos.set(key, json);
		}
		return json;
	}

	/** One Event as JSON text. */
	event(row: EventRow): string {
		return (
			`{"id":"${row.id}","type":${JSON.stringify(row.feed_type)},"actor":${this.actor(row.actor_id, 'users')},` +
			`"repo":${this.repo(row)},"payload":${row.payload ?? '{}'},"public":${row.public === 1},"created_at":"${row.created_at}"` +
			(row.org_id !== null && this.accounts.has(row.org_id) ? `,"org":${this.actor(row.org_id, 'orgs')}` : '') +
			'}'
		);
	}
}
