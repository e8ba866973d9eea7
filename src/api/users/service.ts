/**
 * Users: creating them (shared by `gitstead admin create-user` and the first-start bootstrap) and
 * a user's own profile (PATCH /user and the web's /settings/profile).
 */
import type { App } from '../../app';
import { invalidField, notFound } from '../../model/errors';
import { publicUser } from './render';
import { isoSeconds } from '../../time';
import { events } from '../../events/catalog';
import type { AccountRow } from '../../model/rows';
import type { UserProfile } from './store';

/** GitHub's rule: alphanumerics and single hyphens, not at either end, at most 39 characters. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/**
 * @throws DomainError 422 (resource `resource`, field `field`) when the name breaks GitHub's login rule.
 */
export function assertLogin(login: string, resource = 'User', field = 'login'): void {
	if (!LOGIN.test(login)) {
		throw invalidField(
			resource,
			field,
			`"${login}" is not a valid name: use letters, digits and single hyphens (not first or last), at most 39 characters`,
		);
	}
}

/** @throws DomainError 422 already_exists when an account (user or organization) has the login. */
export function assertLoginFree(app: App, login: string, resource = 'User', field = 'login'): void {
	const existing = app.stores.accounts.byLogin(login);
	if (existing) {
		throw invalidField(resource, field, `the name "${existing.login}" is already taken`, 'already_exists');
	}
}

/**
 * Creates a user account.
 * @throws DomainError 422 for an invalid or taken login.
 */
export function createUser(
	app: App,
	input: { login: string; email?: string | null; emailPublic?: boolean; name?: string | null; siteAdmin?: boolean },
): AccountRow {
	assertLogin(input.login);
	return app.transaction(() => {
		assertLoginFree(app, input.login);
		const id = app.stores.accounts.insert({
			login: input.login,
			type: 'User',
			name: input.name,
			email: input.email,
			emailPublic: input.emailPublic,
			siteAdmin: input.siteAdmin,
			now: isoSeconds(app.clock()),
		});
		const user = app.stores.accounts.byId(id)!;
		events.userCreated(app, user);
		return user;
	});
}

/** What PATCH /user takes (GitHub's update-the-authenticated-user); every field optional. */
export interface UpdateProfileInput {
	name?: string | null;
	/** The public email: the user's own address (made public), or empty / null to keep it private. */
	email?: string | null;
	blog?: string | null;
	twitter_username?: string | null;
	company?: string | null;
	location?: string | null;
	bio?: string | null;
}

/** GitHub's limits on profile fields (characters). */
export const PROFILE_LIMITS = { name: 255, blog: 255, company: 255, location: 255, bio: 160, twitter_username: 15 } as const;

/**
 * Updates a user's own profile in one transaction (GitHub sends no webhook for it). Empty texts
 * clear a field. `email` chooses the public email among the user's verified addresses, which is
 * the account's one email here: that address makes it public, empty or null hides it.
 * @param now ISO timestamp
 * @returns the account after the change
 * @throws DomainError 422 (resource User) for a field over GitHub's limit, an email that is not the
 *   user's, or a Twitter username that is not one
 */
export function updateProfile(app: App, user: AccountRow, input: UpdateProfileInput, now: string): AccountRow {
	const text = (field: keyof typeof PROFILE_LIMITS, value: string | null | undefined, current: string | null): string | null => {
		if (value === undefined) return current;
		const trimmed = (value ?? '').trim();
		if (trimmed.length > PROFILE_LIMITS[field]) {
			throw invalidField('User', field, `${field} is too long (maximum is ${PROFILE_LIMITS[field]} characters)`);
		}
		return trimmed === '' ? null : trimmed;
	};
	const next: UserProfile = {
		name: text('name', input.name, user.name),
		company: text('company', input.company, user.company),
		blog: text('blog', input.blog, user.blog),
		location: text('location', input.location, user.location),
		bio: text('bio', input.bio, user.bio),
		twitter_username: text('twitter_username', input.twitter_username?.replace(/^@/, ''), user.twitter_username),
		email_public: user.email_public,
	};
	if (next.twitter_username !== null && !/^[A-Za-z0-9_]{1,15}$/.test(next.twitter_username)) {
		throw invalidField('User', 'twitter_username', 'twitter_username may hold letters, digits and underscores only');
	}
	if (input.email !== undefined) {
		const email = (input.email ?? '').trim();
		if (email === '') next.email_public = 0;
		else if (user.email && email.toLowerCase() === user.email.toLowerCase()) next.email_public = 1;
		else throw invalidField('User', 'email', 'email must be one of your verified email addresses', 'custom');
	}
	return app.transaction(() => {
		app.stores.accounts.setProfile(user.id, next, now);
		return app.stores.accounts.byId(user.id)!;
	});
}

/**
 * GET /users/{username}: the public profile of the account with `login` (a user or an
 * organization; GitHub's public-user shape).
 * @throws DomainError 404 when no account has the login
 */
export function publicProfile(app: App, login: string) {
	const account = app.stores.accounts.byLogin(login);
	if (!account) throw notFound();
	return publicUser(app.urls, account, app.stores.accounts.counts(account.id));
}
