/**
 * Prepared statements for external groups (imported by `gitstead admin import-external-groups`),
 * their members, and the teams linked to them (GitHub's "External groups" REST API).
 */
import type { DB } from '../../db/open';

export interface ExternalGroupRow {
	id: number;
	org_id: number;
	name: string;
	/** ISO timestamp of the last import that changed it. */
	updated_at: string;
}

export interface ExternalGroupMemberRow {
	/** member_id: the identity's id. */
	id: number;
	group_id: number;
	login: string;
	name: string | null;
	email: string | null;
}

export type ExternalGroupStore = ReturnType<typeof createExternalGroupStore>;

export function createExternalGroupStore(db: DB) {
	const byId = db.prepare('SELECT * FROM external_groups WHERE id = ?');
	const byName = db.prepare('SELECT * FROM external_groups WHERE org_id = ? AND name = ?');
	const page = db.prepare(`
		SELECT * FROM external_groups WHERE org_id = @orgId AND (@filter IS NULL OR instr(lower(name), lower(@filter)) > 0)
		ORDER BY id LIMIT @limit OFFSET @offset`);
	const count = db
		.prepare(
			'SELECT count(*) FROM external_groups WHERE org_id = @orgId AND (@filter IS NULL OR instr(lower(name), lower(@filter)) > 0)',
		)
		.pluck();
	const insert = db.prepare('INSERT INTO external_groups (org_id, name, updated_at) VALUES (?, ?, ?)');
	const rename = db.prepare('UPDATE external_groups SET name = ?, updated_at = ? WHERE id = ?');
	const touch = db.prepare('UPDATE external_groups SET updated_at = ? WHERE id = ?');
	const members = db.prepare('SELECT * FROM external_group_members WHERE group_id = ? ORDER BY id');
	const membersPage = db.prepare('SELECT * FROM external_group_members WHERE group_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const memberCount = db.prepare('SELECT count(*) FROM external_group_members WHERE group_id = ?').pluck();
	const upsertMember = db.prepare(`
		INSERT INTO external_group_members (group_id, login, name, email) VALUES (@groupId, @login, @name, @email)
		ON CONFLICT (group_id, login) DO UPDATE SET login = excluded.login, name = excluded.name, email = excluded.email`);
	const removeMember = db.prepare('DELETE FROM external_group_members WHERE id = ?');
	const teams = db.prepare(`
		SELECT t.* FROM team_external_groups l JOIN teams t ON t.id = l.team_id WHERE l.group_id = ? ORDER BY t.id`);
	const linkOf = db.prepare('SELECT group_id FROM team_external_groups WHERE team_id = ?').pluck();
	const link = db.prepare(`
		INSERT INTO team_external_groups (team_id, group_id, created_at) VALUES (?, ?, ?)
		ON CONFLICT (team_id) DO UPDATE SET group_id = excluded.group_id, created_at = excluded.created_at`);
	const unlink = db.prepare('DELETE FROM team_external_groups WHERE team_id = ?');
	const teamMembers = db.prepare('SELECT user_id FROM team_memberships WHERE team_id = ?').pluck();

	return {
		byId: (id: number) => byId.get(id) as ExternalGroupRow | undefined,
		/** The organization's group of that name (case-insensitive). */
		byName: (orgId: number, name: string) => byName.get(orgId, name) as ExternalGroupRow | undefined,
		/** One page of the organization's groups, oldest first; `filter`: a text the name contains (any case). */
		page(orgId: number, filter: string | null, limit: number, offset: number) {
			return {
				rows: page.all({ orgId, filter, limit, offset }) as ExternalGroupRow[],
				total: count.get({ orgId, filter }) as number,
			};
		},
		/** @param now ISO timestamp @returns the new group's id */
		insert: (orgId: number, name: string, now: string) => Number(insert.run(orgId, name, now).lastInsertRowid),
		/** @param now ISO timestamp */
		rename: (id: number, name: string, now: string) => void rename.run(name, now, id),
		/** @param now ISO timestamp */
		touch: (id: number, now: string) => void touch.run(now, id),
		members: (groupId: number) => members.all(groupId) as ExternalGroupMemberRow[],
		membersPage(groupId: number, limit: number, offset: number) {
			return { rows: membersPage.all(groupId, limit, offset) as ExternalGroupMemberRow[], total: memberCount.get(groupId) as number };
		},
		/** Adds or updates a member by login. */
		upsertMember: (groupId: number, member: { login: string; name: string | null; email: string | null }) =>
			void upsertMember.run({ groupId, ...member }),
		removeMember: (id: number) => void removeMember.run(id),
		/** Teams linked to the group, by id. */
		teams: (groupId: number) => teams.all(groupId) as Array<{ id: number; org_id: number; name: string; slug: string }>,
		/** The group a team is linked to, or null. */
		linkOf: (teamId: number) => (linkOf.get(teamId) as number | undefined) ?? null,
		/** @param now ISO timestamp */
		link: (teamId: number, groupId: number, now: string) => void link.run(teamId, groupId, now),
		unlink: (teamId: number) => unlink.run(teamId).changes > 0,
		/** Ids of the users with a direct membership of the team (active or pending). */
		teamMemberIds: (teamId: number) => teamMembers.all(teamId) as number[],
	};
}
