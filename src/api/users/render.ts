/**
 * User shapes: GitHub's public and private user records for GET /users/{username} and GET /user,
 * on top of the simple user (src/model/render.ts).
 */
import type { Urls } from '../../model/urls';
import type { AccountCounts } from './store';
import type { AccountRow } from '../../model/rows';
import { simpleUser } from '../../model/render';

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
		twitter_username: account.twitter_username,
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
