/**
 * A user's email addresses (https://docs.github.com/rest/users/emails): the account's own address
 * is its primary one (verified, `visibility` public or private: `email_public`), the others are
 * added and deleted through the API (unverified until a site administrator verifies them, as
 * Gitstead sends no mail), and the account's noreply address (`<id>+<login>@users.noreply.<host>`,
 * GitHub's stand-in for a private address) is always listed, verified. GitHub records these
 * changes in the user's security log only: no domain event.
 */
import type { App } from '../../app';
import { invalidField, notFound, validationFailed, type ValidationItem } from '../../model/errors';
import type { AccountRow } from '../../model/rows';

/** GitHub's Email object. */
export interface Email {
	email: string;
	primary: boolean;
	verified: boolean;
	/** The primary address's visibility; null for the others. */
	visibility: 'public' | 'private' | null;
}

/** Addresses a user may add at most (beyond the primary one). */
export const MAX_EMAILS = 100;
/** Longest address accepted (RFC 5321's path limit). */
const MAX_LENGTH = 254;
/** An address as GitHub accepts one: a local part, an @ and a domain with a dot, no spaces. */
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]+$/;

/** The account's noreply address (GitHub's `<id>+<login>@users.noreply.<host>`). */
export function noreplyEmail(app: App, user: AccountRow): string {
	return `${user.id}+${user.login}@users.noreply.${app.urls.host.replace(/:\d+$/, '')}`;
}

/** Every address of a user: the primary one first, then the added ones oldest first, then the noreply address. */
export function userEmails(app: App, user: AccountRow): Email[] {
	const out: Email[] = [];
	if (user.email)
		out.push({ email: user.email, primary: true, verified: true, visibility: user.email_public === 1 ? 'public' : 'private' });
	for (const row of app.stores.emails.ofUser(user.id))
		out.push({ email: row.email, primary: false, verified: row.verified === 1, visibility: null });
	out.push({ email: noreplyEmail(app, user), primary: false, verified: true, visibility: null });
	return out;
}

/** The addresses others may see (GET /user/public_emails): the primary one when it is public. */
export function publicEmails(app: App, user: AccountRow): Email[] {
	return userEmails(app, user).filter((email) => email.visibility === 'public');
}

/** One errors[] item of UserEmail. */
const item = (message: string, value: string): ValidationItem => ({
	resource: 'UserEmail',
	field: 'email',
	code: 'custom',
	message,
	value,
});

/**
 * Adds addresses to a user in one transaction, unverified; all or none.
 * @param now ISO timestamp
 * @returns the added addresses as Email objects, in the order given
 * @throws DomainError 422 (resource UserEmail) for an invalid address, one already in use (by this
 *   or another account, without case), a noreply address, a repeated one, or more than MAX_EMAILS
 */
export function addEmails(app: App, user: AccountRow, emails: readonly string[], now: string): Email[] {
	const wanted = emails.map((email) => email.trim());
	if (wanted.length === 0) throw invalidField('UserEmail', 'emails', 'emails must contain at least one email address', 'missing_field');
	const problems: ValidationItem[] = [];
	const seen = new Set<string>();
	for (const email of wanted) {
		const key = email.toLowerCase();
		if (email.length > MAX_LENGTH || !EMAIL.test(email)) problems.push(item('email is invalid', email));
		else if (/@users\.noreply\./i.test(email)) problems.push(item('email is reserved', email));
		else if (seen.has(key) || app.stores.emails.ownerOf(email) !== undefined) problems.push(item('email is already in use', email));
		seen.add(key);
	}
	if (problems.length) throw validationFailed(problems);
	return app.transaction(() => {
		if (app.stores.emails.count(user.id) + wanted.length > MAX_EMAILS) {
			throw invalidField(
				'UserEmail',
				'emails',
				`a user may have at most ${MAX_EMAILS} email addresses besides the primary one`,
				'custom',
			);
		}
		app.stores.emails.add(user.id, wanted, false, now);
		return wanted.map((email) => ({ email, primary: false, verified: false, visibility: null }));
	});
}

/**
 * Deletes addresses of a user in one transaction; all or none.
 * @throws DomainError 422 (resource UserEmail) for the primary or the noreply address; 404 for an
 *   address the user does not have
 */
export function deleteEmails(app: App, user: AccountRow, emails: readonly string[]): void {
	const wanted = emails.map((email) => email.trim());
	if (wanted.length === 0) throw invalidField('UserEmail', 'emails', 'emails must contain at least one email address', 'missing_field');
	const own = new Set(app.stores.emails.ofUser(user.id).map((row) => row.email.toLowerCase()));
	const problems: ValidationItem[] = [];
	for (const email of wanted) {
		const key = email.toLowerCase();
		if (user.email && key === user.email.toLowerCase()) problems.push(item('Cannot delete your primary email address', email));
		else if (key === noreplyEmail(app, user).toLowerCase()) problems.push(item('Cannot delete your noreply email address', email));
	}
	if (problems.length) throw validationFailed(problems);
	if (wanted.some((email) => !own.has(email.toLowerCase()))) throw notFound();
	app.transaction(() => app.stores.emails.remove(user.id, wanted));
}

/**
 * Sets the visibility of the primary address (public: others see it as the profile's `email`).
 * @param now ISO timestamp
 * @returns the user's addresses after the change
 * @throws DomainError 422 when the user has no primary address
 */
export function setPrimaryVisibility(app: App, user: AccountRow, visibility: 'public' | 'private', now: string): Email[] {
	if (!user.email) throw invalidField('UserEmail', 'visibility', 'You have no primary email address', 'custom');
	const updated = app.transaction(() => {
		app.stores.accounts.setProfile(
			user.id,
			{
				name: user.name,
				company: user.company,
				blog: user.blog,
				location: user.location,
				bio: user.bio,
				twitter_username: user.twitter_username,
				email_public: visibility === 'public' ? 1 : 0,
			},
			now,
		);
		return app.stores.accounts.byId(user.id)!;
	});
	return userEmails(app, updated);
}

/**
 * Marks a user's added address verified (`gitstead admin verify-email`: Gitstead sends no
 * verification mail, a site administrator vouches for the address instead).
 * @throws DomainError 404 when the user has no such added address
 */
export function verifyEmail(app: App, user: AccountRow, email: string): void {
	const done = app.transaction(() => app.stores.emails.verify(user.id, email.trim()));
	if (!done) throw notFound(`${user.login} has no added email address ${email.trim()}`);
}
