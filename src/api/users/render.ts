/**
 * User shapes: SimpleUser and GitHub's public and
 * private user records for GET /users/{username} and GET /user.
 */
import { nodeId, type Urls } from '../../http/urls';
import type { AccountCounts, AccountRow } from './store';

export interface SimpleUser {
	login: string;
	id: number;
	node_id: string;
	avatar_url: string;
	gravatar_id: string;
	url: string;
	html_url: string;
	followers_url: string;
	following_url: string;
	gists_url: string;
	starred_url: string;
	subscriptions_url: string;
	organizations_url: string;
	repos_url: string;
	events_url: string;
	received_events_url: string;
	type: string;
	site_admin: boolean;
}

/** SimpleUser of any account (users, organizations as owners, bots). */
export function simpleUser(urls: Urls, account: Pick<AccountRow, 'id' | 'login' | 'type' | 'site_admin'>): SimpleUser {
	const base = `${urls.apiBase}/users/${account.login}`;
	return {
		login: account.login,
		id: account.id,
		node_id: nodeId(account.type, account.id),
		avatar_url: `${urls.origin}/avatars/u/${account.id}`,
		gravatar_id: '',
		url: base,
		html_url: `${urls.origin}/${account.login}`,
		followers_url: `${base}/followers`,
		following_url: `${base}/following{/other_user}`,
		gists_url: `${base}/gists{/gist_id}`,
		starred_url: `${base}/starred{/owner}{/repo}`,
		subscriptions_url: `${base}/subscriptions`,
		organizations_url: `${base}/orgs`,
		repos_url: `${base}/repos`,
		events_url: `${base}/events{/privacy}`,
		received_events_url: `${base}/received_events`,
		type: account.type,
		site_admin: account.site_admin === 1,
	};
}

/**
 * The email others may see: a user's only when the user made it public (GitHub's public email), an
 * organization's profile email always.
 */
export function visibleEmail(account: AccountRow): string | null {
	return account.type === 'User' && account.email_public !== 1 ? null : account.email;
}

/** GET /users/{username}: the public user record. */
export function publicUser(urls: Urls, account: AccountRow, counts: AccountCounts) {
	return {
		...simpleUser(urls, account),
		name: account.name,
		company: account.company,
		blog: account.blog ?? '',
		location: account.location,
		email: visibleEmail(account),
		hireable: null,
		bio: account.type === 'Organization' ? account.description : account.bio,
		twitter_username: null,
		public_repos: counts.public_repos,
		public_gists: counts.public_gists,
		followers: 0,
		following: 0,
		created_at: account.created_at,
		updated_at: account.updated_at,
	};
}

/** GET /user: the authenticated user's own record, with the private counts. */
export function privateUser(urls: Urls, account: AccountRow, counts: AccountCounts) {
	return {
		...publicUser(urls, account, counts),
		// The user's own email, public or not.
		email: account.email,
		private_gists: counts.private_gists,
		total_private_repos: counts.private_repos,
		owned_private_repos: counts.private_repos,
		disk_usage: 0,
		collaborators: 0,
		two_factor_authentication: false,
	};
}
