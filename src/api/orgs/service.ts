/**
 * Creating organizations (`gitstead admin create-org`) and deleting them (DELETE /orgs/{org}).
 */
import type { App } from '../../app';
import { events } from '../../events/catalog';
import { createDefaultGroup } from '../runner-groups/service';
import { isoSeconds } from '../../time';
import { assertLogin, assertLoginFree } from '../users/service';
import type { AccountRow } from '../users/store';

/**
 * Creates an organization with `ownerId` as its first owner, and its Default runner group.
 * @throws HttpError 422 for an invalid or taken login.
 */
export function createOrganization(
	app: App,
	input: { login: string; ownerId: number; enterpriseId?: number | null; name?: string | null },
): AccountRow {
	assertLogin(input.login, 'Organization', 'login');
	return app.transaction(() => {
		assertLoginFree(app, input.login, 'Organization', 'login');
		const now = isoSeconds(app.clock());
		const id = app.stores.accounts.insert({
			login: input.login,
			type: 'Organization',
			name: input.name ?? null,
			enterpriseId: input.enterpriseId ?? null,
			now,
		});
		app.stores.memberships.insert({ orgId: id, userId: input.ownerId, role: 'admin', state: 'active', inviterId: null, now });
		// Its Default self-hosted runner group, as every organization has.
		createDefaultGroup(app, { org: id }, now);
		return app.stores.accounts.byId(id)!;
	});
}

/**
 * Deletes an organization (DELETE /orgs/{org}), inside the caller's transaction: `organization`
 * deleted is recorded first (its payload still has the organization), then the account row goes
 * and every row that names it cascades: repositories with their contents, teams, memberships,
 * invitations, hooks, Actions settings, runner groups. Users' forks of its repositories stay, without a
 * parent, as on GitHub. The in-memory hook list is refreshed after.
 */
export function deleteOrganization(app: App, org: AccountRow, actorId: number | null): void {
	events.orgDeleted(app, org, actorId);
	app.stores.accounts.removeOrganization(org.id);
	app.webhooks.invalidate();
}
