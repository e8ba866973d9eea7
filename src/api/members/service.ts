/**
 * Organization membership rules (https://docs.github.com/en/rest/orgs/members): owners vs members, invitations, and the rule
 * that the last owner can be neither removed nor demoted.
 */
import type { App } from '../../app';
import { forbidden, invalidField } from '../../model/errors';
import type { AccountRow } from '../../model/rows';
import type { OrgAccess } from '../../auth/access/types';
import { simpleUser } from '../../model/render';
import { deleteForksWithoutAccess } from '../repos/service';
import { teamScope } from '../teams/service';
import { events } from '../../events/catalog';
import type { OrgMembershipRow } from './store';

/**
 * GET /orgs/{org}/members (and public_members): one page of the organization's active members
 * (simple users, by id) with `role` admin, member or all. Members of the organization see concealed
 * members too; everyone else (and `publicOnly`) the public members only.
 */
export function listOrganizationMembers(
	app: App,
	access: OrgAccess,
	filter: { role: 'all' | 'admin' | 'member'; publicOnly: boolean },
	range: { limit: number; offset: number },
) {
	const { rows, total } = app.stores.memberships.members({
		orgId: access.org.id,
		role: filter.role,
		publicOnly: filter.publicOnly || !access.member,
		limit: range.limit,
		offset: range.offset,
	});
	return { items: rows.map((row) => simpleUser(app.urls, row)), total };
}

/** @throws DomainError 403 when `userId` is the organization's only active owner. */
export function assertNotLastOwner(app: App, org: AccountRow, userId: number, action: string): void {
	const membership = app.stores.memberships.get(org.id, userId);
	if (membership?.role === 'admin' && membership.state === 'active' && app.stores.memberships.ownerCount(org.id) <= 1) {
		throw forbidden(`Cannot ${action} the last owner of ${org.login}; make someone else an owner first.`);
	}
}

/**
 * Adds a user to an organization at once (`gitstead admin add-member`), or changes the role of a
 * member. Pending invitations are accepted.
 * @param now ISO timestamp
 * @throws DomainError 422 for a non-user account; 403 when demoting the last owner.
 */
export function addMember(
	app: App,
	org: AccountRow,
	user: AccountRow,
	role: 'admin' | 'member',
	now: string,
	actorId: number | null = null,
): OrgMembershipRow {
	if (user.type !== 'User') throw invalidField('Membership', 'username', `${user.login} is not a user`);
	return app.transaction(() => {
		const existing = app.stores.memberships.get(org.id, user.id);
		if (!existing) {
			app.stores.memberships.insert({ orgId: org.id, userId: user.id, role, state: 'active', inviterId: actorId, now });
			events.orgMember(app, 'member_added', org, user, role, actorId);
		} else {
			if (role === 'member') assertNotLastOwner(app, org, user.id, 'demote');
			app.stores.memberships.setRole(org.id, user.id, role);
			if (existing.state === 'pending') acceptInvitation(app, org, user.id);
		}
		return app.stores.memberships.get(org.id, user.id)!;
	});
}

/**
 * PUT /orgs/{org}/memberships/{username}: invites a new user (pending until accepted) or changes a
 * member's role.
 * @param now ISO timestamp
 */
export function setMembership(
	app: App,
	org: AccountRow,
	user: AccountRow,
	role: 'admin' | 'member',
	inviterId: number | null,
	now: string,
): OrgMembershipRow {
	if (user.type !== 'User') throw invalidField('Membership', 'username', `${user.login} is not a user`);
	return app.transaction(() => {
		const existing = app.stores.memberships.get(org.id, user.id);
		if (!existing) {
			app.stores.memberships.insert({ orgId: org.id, userId: user.id, role, state: 'pending', inviterId, now });
			events.orgMemberInvited(app, org, user, role, now, inviterId);
		} else {
			if (role === 'member') assertNotLastOwner(app, org, user.id, 'demote');
			app.stores.memberships.setRole(org.id, user.id, role);
		}
		return app.stores.memberships.get(org.id, user.id)!;
	});
}

/**
 * A pending member accepts: membership and pending team memberships become active. Records
 * organization member_added, then membership added for each team the user joins with it (the
 * invitation's teams: GitHub reports the team membership when it takes effect).
 */
export function acceptInvitation(app: App, org: AccountRow, userId: number): void {
	const joining = app.stores.teams.membershipsInOrg(org.id, userId).filter((m) => m.state === 'pending');
	app.stores.memberships.setState(org.id, userId, 'active');
	app.stores.teams.activatePending(org.id, userId);
	app.cache.invalidate(teamScope(org.id));
	const user = app.stores.accounts.byId(userId)!;
	events.orgMember(app, 'member_added', org, user, app.stores.memberships.get(org.id, userId)!.role, userId);
	for (const membership of joining) {
		const team = app.stores.teams.byId(membership.team_id);
		if (team) events.teamMembership(app, 'added', org, team, user, userId);
	}
}

/**
 * Removes a member or cancels an invitation: membership, team memberships and direct access to
 * the organization's repositories go.
 * @returns false when the user had no membership
 * @throws DomainError 403 for the last owner.
 */
export function removeMember(app: App, org: AccountRow, userId: number, actorId: number | null): boolean {
	return app.transaction(() => {
		const membership = app.stores.memberships.get(org.id, userId);
		if (!membership) return false;
		assertNotLastOwner(app, org, userId, 'remove');
		app.stores.memberships.removeEverywhere(org.id, userId);
		if (membership.state === 'active')
			events.orgMember(app, 'member_removed', org, app.stores.accounts.byId(userId)!, membership.role, actorId);
		deleteForksWithoutAccess(app, org, actorId);
		return true;
	});
}
