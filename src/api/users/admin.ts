/**
 * A site administrator's decisions about users, shared by `gitstead admin suspend` /
 * `admin site-admin` and the web interface's site admin area (/stafftools): suspending and
 * unsuspending (GitHub Enterprise's "Suspend user": no sign-in, every session ended, every token
 * refused) and the site-administrator role (GitHub Enterprise's promote and demote).
 *
 * Rules: a site administrator is not suspended (demote first); a suspended user is not promoted
 * (unsuspend first); the last site administrator is not demoted (the site would have none). Each
 * change runs in one transaction and records its domain event (`user` suspend, unsuspend,
 * promote, demote: GitHub Enterprise's audit-log actions), and cached token lookups are dropped so
 * a suspension takes effect on the next request.
 */
import type { App } from '../../app';
import { sessionStore } from '../../auth/sessions';
import { record } from '../../events/log';
import { unprocessable } from '../../model/errors';
import { isoSeconds } from '../../time';
import type { AccountRow } from './store';

/**
 * Suspends a user: sessions end, tokens stop working.
 * @param actorId the site administrator (null: the command line)
 * @returns false when the user was already suspended (nothing changes)
 * @throws HttpError 422 when the user is a site administrator or not a user
 */
export function suspendUser(app: App, user: AccountRow, reason: string | null, actorId: number | null): boolean {
	if (user.type !== 'User') throw unprocessable(`${user.login} is not a user`);
	const store = sessionStore(app);
	const done = app.transaction(() => {
		const current = app.stores.accounts.byId(user.id);
		if (current?.site_admin === 1) throw unprocessable(`${user.login} is a site administrator; remove the role before suspending`);
		if (store.suspendedAt(user.id)) return false;
		store.suspend(user.id, isoSeconds(app.clock()), reason?.slice(0, 1000) || null);
		record(app, { event: 'user', action: 'suspend', actorId });
		return true;
	});
	app.authenticator.clear();
	return done;
}

/**
 * Lifts a user's suspension.
 * @returns false when the user was not suspended
 */
export function unsuspendUser(app: App, user: AccountRow, actorId: number | null): boolean {
	const done = app.transaction(() => {
		if (!sessionStore(app).unsuspend(user.id)) return false;
		record(app, { event: 'user', action: 'unsuspend', actorId });
		return true;
	});
	app.authenticator.clear();
	return done;
}

/**
 * Makes a user a site administrator (promote) or not (demote).
 * @returns false when the user already had that role
 * @throws HttpError 422 for an organization, a suspended user (promote) or the last site administrator (demote)
 */
export function setSiteAdmin(app: App, user: AccountRow, siteAdmin: boolean, actorId: number | null): boolean {
	if (user.type !== 'User') throw unprocessable(`${user.login} is not a user`);
	const { accounts } = app.stores;
	const done = app.transaction(() => {
		const current = accounts.byId(user.id);
		if (!current || (current.site_admin === 1) === siteAdmin) return false;
		if (siteAdmin && sessionStore(app).suspendedAt(user.id)) {
			throw unprocessable(`${user.login} is suspended; unsuspend the user before making them a site administrator`);
		}
		if (!siteAdmin && accounts.siteAdminCount() <= 1) {
			throw unprocessable(`${user.login} is the last site administrator; make someone else one first`);
		}
		accounts.setSiteAdmin(user.id, siteAdmin, isoSeconds(app.clock()));
		record(app, { event: 'user', action: siteAdmin ? 'promote' : 'demote', actorId });
		return true;
	});
	// A token's principal carries the site-administrator flag: cached lookups are dropped.
	app.authenticator.clear();
	return done;
}
