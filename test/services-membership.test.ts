/**
 * The membership services without an HTTP server: an app over a temporary data folder and the
 * organization, member and team services called directly. Covers organization membership (the
 * last owner stays), team membership (active for members, a pending invitation for non-members
 * added by an owner, refused to a maintainer who is not an owner) and removal (members leave on
 * their own, only maintainers and owners remove others), with the events each records.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { App } from '../src/app';
import { NOW, refusal, serviceApp } from './helpers/services';
import type { OrgAccess, TeamAccess } from '../src/auth/access/types';
import type { AccountRow, TeamRow } from '../src/model/rows';
import { createUser } from '../src/api/users/service';
import { createOrganization } from '../src/api/orgs/service';
import { addMember, removeMember } from '../src/api/members/service';
import { addOrganizationMemberToTeam, createTeam, removeTeamMembership, setTeamMembership } from '../src/api/teams/service';
import { isoSeconds } from '../src/time';

const test = suite('services: membership');
const now = isoSeconds(NOW);
let app: App;
let close: () => void;
let owner: AccountRow;
let member: AccountRow;
let outsider: AccountRow;
let org: AccountRow;
let team: TeamRow;

function orgAccess(user: AccountRow, role: 'owner' | 'member' | null): OrgAccess {
	return { org, role, app: false, admin: role === 'owner', member: role !== null, userId: user.id, actorId: user.id };
}

function teamAccess(user: AccountRow, role: 'owner' | 'member' | null, teamRole: 'member' | 'maintainer' | null): TeamAccess {
	return { ...orgAccess(user, role), team, teamRole, manage: role === 'owner' || teamRole === 'maintainer' };
}

const state = (user: AccountRow) => app.stores.teams.membership(team.id, user.id)?.state ?? null;

function events(): string[] {
	return (
		app.db.prepare('SELECT event, action FROM events WHERE org_id = ? ORDER BY id').all(org.id) as Array<{
			event: string;
			action: string | null;
		}>
	).map((row) => `${row.event}.${row.action}`);
}

test.before(() => {
	({ app, close } = serviceApp('services'));
	owner = createUser(app, { login: 'octo' });
	member = createUser(app, { login: 'member' });
	outsider = createUser(app, { login: 'outsider' });
	org = createOrganization(app, { login: 'acme', ownerId: owner.id });
	addMember(app, org, member, 'member', now, owner.id);
	team = createTeam(app, { access: orgAccess(owner, 'owner'), anyParent: true, repoPermission: () => 'admin' }, { name: 'Core' }, now);
});

test.after(() => close());

test('the last owner of an organization cannot be removed or demoted', () => {
	assert.is(refusal(() => removeMember(app, org, owner.id, owner.id)).status, 403);
	assert.is(refusal(() => addMember(app, org, owner, 'member', now, owner.id)).status, 403);
	assert.is(app.stores.memberships.get(org.id, owner.id)?.role, 'admin');
});

test('setTeamMembership: an organization member joins at once and membership.added is recorded', () => {
	const before = events().length;
	assert.is(setTeamMembership(app, teamAccess(owner, 'owner', null), member, 'member', now), 'active');
	assert.is(state(member), 'active');
	assert.ok(events().slice(before).includes('membership.added'), events().slice(before).join(', '));
});

test('setTeamMembership: a non-member is invited by an owner (pending), refused to a maintainer', () => {
	const maintainer = teamAccess(member, 'member', 'maintainer');
	assert.is(refusal(() => setTeamMembership(app, maintainer, outsider, 'member', now)).status, 403);
	assert.is(state(outsider), null);
	assert.is(setTeamMembership(app, teamAccess(owner, 'owner', null), outsider, 'member', now), 'pending');
	assert.is(state(outsider), 'pending');
	assert.is(app.stores.memberships.get(org.id, outsider.id)?.state, 'pending');
	// An organization is never a team member.
	assert.is(refusal(() => setTeamMembership(app, teamAccess(owner, 'owner', null), org, 'member', now)).status, 422);
	// The legacy route adds active organization members only.
	assert.is(refusal(() => addOrganizationMemberToTeam(app, teamAccess(owner, 'owner', null), outsider, now)).status, 422);
});

test('removeTeamMembership: members leave on their own; only maintainers and owners remove others', () => {
	const other = createUser(app, { login: 'other' });
	addMember(app, org, other, 'member', now, owner.id);
	addOrganizationMemberToTeam(app, teamAccess(owner, 'owner', null), other, now);
	assert.is(refusal(() => removeTeamMembership(app, teamAccess(member, 'member', 'member'), other)).status, 403);
	assert.is(state(other), 'active');
	removeTeamMembership(app, teamAccess(other, 'member', 'member'), other);
	assert.is(state(other), null);
	removeTeamMembership(app, teamAccess(owner, 'owner', null), member);
	assert.is(state(member), null);
});

test.run();
