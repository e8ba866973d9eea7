/**
 * External groups (GitHub's teams/external-groups; imported with `gitstead admin
 * import-external-groups`): who may call the routes (owners and apps with members write; members
 * 403; everyone else 404), the list and its filter and Link, one group, linking a team (its members
 * become the group's organization members, with membership events), the refusal of direct membership
 * changes to a synced team, re-importing (members replaced, linked teams re-synced), unlinking.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN_COMMANDS } from '../src/cli/admin';
import { createOutput } from '../src/cli/output';
import { startServer, type TestServer } from './helpers/server';

const test = suite('external groups');
let s: TestServer;
let owner: string;
let dir: string;

/** Runs the import command on `groups`; returns its JSON output. */
function importGroups(org: string, groups: unknown): any {
	const file = join(dir, `groups-${Math.random().toString(36).slice(2)}.json`);
	writeFileSync(file, JSON.stringify(groups));
	const printed: string[] = [];
	ADMIN_COMMANDS['import-external-groups'].run(
		s.app,
		{},
		[org, file],
		createOutput(true, (text) => void printed.push(text)),
	);
	return JSON.parse(printed[0]);
}

const members = async (team: string) =>
	(await s.request('GET', `/orgs/acme/teams/${team}/members`, { token: owner })).body.map((u: { login: string }) => u.login).sort();

const membershipEvents = () =>
	(s.app.db.prepare("SELECT action FROM events WHERE event = 'membership' ORDER BY id").pluck().all() as string[]).join(',');

test.before(async () => {
	s = await startServer();
	dir = mkdtempSync(join(tmpdir(), 'gitstead-groups-'));
	for (const login of ['olivia', 'mike', 'wendy', 'nina', 'zed']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	s.member('acme', 'wendy');
	owner = s.fullToken('olivia');
	const team = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Crew', privacy: 'closed' } });
	assert.is(team.status, 201, '~> the fixture team is created');
	const other = await s.request('POST', '/orgs/acme/teams', { token: owner, body: { name: 'Other', privacy: 'closed' } });
	assert.is(other.status, 201, '~> the second fixture team is created');
});
test.after(() => s.close());

test('import-external-groups creates groups with their members; a malformed file is refused', () => {
	const out = importGroups('acme', [
		{
			group_name: 'Engineering',
			members: [
				{ member_login: 'mike', member_name: 'Mike M', member_email: 'mike@example.com' },
				{ member_login: 'nina' },
				{ member_login: 'ghost' },
			],
		},
		{ group_name: 'Design', members: [] },
	]);
	assert.is(out.groups.length, 2, '~> two groups are imported');
	assert.ok(
		out.groups.every((g: { created: boolean }) => g.created),
		'~> both are new',
	);
	assert.throws(() => importGroups('acme', [{ members: [] }]), /group_name/, '~> a group without group_name is refused');
	assert.throws(() => importGroups('nowhere', []), /unknown organization/, '~> an unknown organization is refused');
});

test('GET /orgs/{org}/external-groups: owners list, filter by display_name, page with Link; members 403, others 404', async () => {
	const list = await s.request('GET', '/orgs/acme/external-groups', { token: owner });
	assert.is(list.status, 200, '~> the owner lists the groups');
	assert.equal(
		list.body.groups.map((g: { group_name: string }) => g.group_name),
		['Engineering', 'Design'],
		'~> oldest first',
	);
	assert.ok(list.body.groups[0].group_id > 0 && list.body.groups[0].updated_at, '~> each has group_id and updated_at');
	const filtered = await s.request('GET', '/orgs/acme/external-groups?display_name=engi', { token: owner });
	assert.equal(
		filtered.body.groups.map((g: { group_name: string }) => g.group_name),
		['Engineering'],
		'~> display_name filters on the name',
	);
	const paged = await s.request('GET', '/orgs/acme/external-groups?per_page=1', { token: owner });
	assert.is(paged.body.groups.length, 1, '~> per_page limits the page');
	assert.match(paged.headers.get('link') ?? '', /rel="next"/, '~> Link names the next page');
	const member = await s.request('GET', '/orgs/acme/external-groups', { token: s.fullToken('mike') });
	assert.is(member.status, 403, '~> a member is refused');
	const outsider = await s.request('GET', '/orgs/acme/external-groups', { token: s.fullToken('zed') });
	assert.is(outsider.status, 404, '~> a non-member is told nothing');
	const anonymous = await s.request('GET', '/orgs/acme/external-groups');
	assert.is(anonymous.status, 401, '~> anonymous callers must authenticate');
	const without = await s.request('GET', '/orgs/acme/external-groups', {
		token: s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'read' } }),
	});
	assert.is(without.status, 403, '~> a fine-grained token with members read is refused (members write is needed)');
	const withIt = await s.request('GET', '/orgs/acme/external-groups', {
		token: s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } }),
	});
	assert.is(withIt.status, 200, '~> a fine-grained token with members write succeeds');
});

test('GET /orgs/{org}/external-group/{group_id}: the group, its teams and members; unknown ids 404', async () => {
	const id = s.app.stores.externalGroups.byName(s.app.stores.accounts.organization('acme')!.id, 'Engineering')!.id;
	const group = await s.request('GET', `/orgs/acme/external-group/${id}`, { token: owner });
	assert.is(group.status, 200, '~> the owner reads the group');
	assert.is(group.body.group_name, 'Engineering', '~> its name');
	assert.equal(group.body.teams, [], '~> no team is linked yet');
	assert.equal(
		group.body.members.map((m: { member_login: string }) => m.member_login),
		['mike', 'nina', 'ghost'],
		'~> its members',
	);
	assert.is(group.body.members[0].member_email, 'mike@example.com', '~> with their email');
	assert.is((await s.request('GET', '/orgs/acme/external-group/999999', { token: owner })).status, 404, '~> an unknown group is 404');
	assert.is(
		(await s.request('GET', `/orgs/acme/external-group/${id}`, { token: s.fullToken('mike') })).status,
		403,
		'~> a member is refused',
	);
});

test('PATCH …/teams/{team_slug}/external-groups links the team: its members become the group’s organization members', async () => {
	const id = s.app.stores.externalGroups.byName(s.app.stores.accounts.organization('acme')!.id, 'Engineering')!.id;
	// wendy is in the team before the link: the group does not name her, so she goes.
	assert.is(
		(await s.request('PUT', '/orgs/acme/teams/crew/memberships/wendy', { token: owner, body: {} })).status,
		200,
		'~> wendy joins first',
	);
	const before = membershipEvents();
	const bad = await s.request('PATCH', '/orgs/acme/teams/crew/external-groups', { token: owner, body: { group_id: 'x' } });
	assert.is(bad.status, 422, '~> a group_id that is not a number is refused');
	const unknown = await s.request('PATCH', '/orgs/acme/teams/crew/external-groups', { token: owner, body: { group_id: 999999 } });
	assert.is(unknown.status, 422, '~> an unknown group is refused');
	const refused = await s.request('PATCH', '/orgs/acme/teams/crew/external-groups', {
		token: s.fullToken('mike'),
		body: { group_id: id },
	});
	assert.is(refused.status, 403, '~> a member may not link');
	const linked = await s.request('PATCH', '/orgs/acme/teams/crew/external-groups', { token: owner, body: { group_id: id } });
	assert.is(linked.status, 200, '~> the owner links the team');
	assert.equal(linked.body.teams, [{ team_id: linked.body.teams[0].team_id, team_name: 'Crew' }], '~> the group names the team');
	assert.equal(
		await members('crew'),
		['mike'],
		'~> mike (a member of acme) joins; nina and ghost (not members) are skipped; wendy and olivia (the creator) leave',
	);
	assert.is(
		membershipEvents().slice(before.length),
		',removed,removed,added',
		'~> membership removed (olivia, the creator, and wendy) and added (mike) are recorded',
	);
	const listed = await s.request('GET', '/orgs/acme/teams/crew/external-groups', { token: owner });
	assert.equal(
		listed.body.groups.map((g: { group_id: number }) => g.group_id),
		[id],
		'~> the team lists its group',
	);
	const other = await s.request('GET', '/orgs/acme/teams/other/external-groups', { token: owner });
	assert.equal(other.body, { groups: [] }, '~> an unlinked team lists none');
	const audit = s.app.db.prepare("SELECT action FROM audit_log WHERE action LIKE 'external_group.%' ORDER BY id").pluck().all();
	assert.ok(audit.includes('external_group.link'), '~> the audit log has external_group.link');
});

test('a synced team refuses direct membership changes: 403 on memberships, 404 on the legacy members route', async () => {
	const put = await s.request('PUT', '/orgs/acme/teams/crew/memberships/wendy', { token: owner, body: {} });
	assert.is(put.status, 403, '~> adding a member directly is refused');
	assert.match(put.body.message, /synced with an external group/, '~> GitHub’s reason');
	assert.is(
		(await s.request('DELETE', '/orgs/acme/teams/crew/memberships/mike', { token: owner })).status,
		403,
		'~> removing one is refused',
	);
	const teamId = (await s.request('GET', '/orgs/acme/teams/crew', { token: owner })).body.id;
	assert.is((await s.request('PUT', `/teams/${teamId}/members/wendy`, { token: owner })).status, 404, '~> the legacy route answers 404');
	assert.equal(await members('crew'), ['mike'], '~> nothing changed');
});

test('re-importing a group replaces its members and re-syncs its linked teams', async () => {
	const out = importGroups('acme', [{ group_name: 'engineering', members: [{ member_login: 'wendy' }, { member_login: 'nina' }] }]);
	assert.is(out.groups[0].created, false, '~> the group is found by name (any case)');
	assert.equal(out.groups[0].teams, [{ team: 'crew', added: ['wendy'], removed: ['mike'] }], '~> the linked team is re-synced');
	assert.equal(await members('crew'), ['wendy'], '~> the team follows the group');
	const id = out.groups[0].group_id;
	const group = await s.request('GET', `/orgs/acme/external-group/${id}?per_page=1`, { token: owner });
	assert.is(group.body.group_name, 'engineering', '~> the new spelling of the name is kept');
	assert.equal(
		group.body.members.map((m: { member_login: string }) => m.member_login),
		['nina'],
		'~> per_page pages the members (nina, kept, comes first)',
	);
	// nina joins the organization: the next import adds her.
	s.member('acme', 'nina');
	importGroups('acme', [{ group_id: id, group_name: 'engineering', members: [{ member_login: 'wendy' }, { member_login: 'nina' }] }]);
	assert.equal(await members('crew'), ['nina', 'wendy'], '~> found by group_id; nina is now a member of acme and joins');
});

test('DELETE …/teams/{team_slug}/external-groups unlinks: members stay, direct changes work again', async () => {
	assert.is(
		(await s.request('DELETE', '/orgs/acme/teams/crew/external-groups', { token: s.fullToken('mike') })).status,
		403,
		'~> a member may not unlink',
	);
	assert.is(
		(await s.request('DELETE', '/orgs/acme/teams/crew/external-groups', { token: s.fullToken('zed') })).status,
		404,
		'~> a non-member sees no team',
	);
	const unlinked = await s.request('DELETE', '/orgs/acme/teams/crew/external-groups', { token: owner });
	assert.is(unlinked.status, 204, '~> the owner unlinks');
	assert.equal(await members('crew'), ['nina', 'wendy'], '~> the members stay');
	assert.is(
		(await s.request('PUT', '/orgs/acme/teams/crew/memberships/mike', { token: owner, body: {} })).status,
		200,
		'~> direct changes work again',
	);
	assert.equal(
		(await s.request('GET', '/orgs/acme/teams/crew/external-groups', { token: owner })).body,
		{ groups: [] },
		'~> no group is linked',
	);
});

test.run();
