/**
 * Creating users: shared by `gitstead admin create-user` and the first-start bootstrap.
 */
import type { App } from '../../app';
import { invalidField } from '../../model/errors';
import { isoSeconds } from '../../time';
import { events } from '../../events/catalog';
import type { AccountRow } from '../../model/rows';

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
