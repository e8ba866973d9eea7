/**
 * Prepared statements for organization memberships (org_memberships). get() is remembered: every
 * request to an organization's routes asks for the caller's membership (the org guard), so lookups
 * are answered from memory. Every write to org_memberships goes through this store and forgets
 * them (code that deletes an account, whose memberships go by ON DELETE CASCADE, must call
 * forget() too); the app calls forget() when another process commits or a transaction that wrote
 * rolls back (src/compose.ts). Returned rows are frozen: never mutate them.
 */
import type { DB } from '../../db/open';
import type { AccountRow } from '../../model/rows';

export interface OrgMembershipRow {
	org_id: number;
	user_id: number;
	role: 'admin' | 'member';
	state: 'active' | 'pending';
	public: number;
	inviter_id: number | null;
	created_at: string;
}

export type MembershipStore = ReturnType<typeof createMembershipStore>;

/** Remembered lookups kept at most (absent memberships are remembered too, so the map is bounded). */
const MEMO_LIMIT = 50_000;

export function createMembershipStore(db: DB) {
	const get = db.prepare('SELECT * FROM org_memberships WHERE org_id = ? AND user_id = ?');
	const ofUserIn = db.prepare('SELECT * FROM org_memberships WHERE user_id = ? AND org_id IN (SELECT value FROM json_each(?))');
	const ofUsersIn = db.prepare('SELECT * FROM org_memberships WHERE org_id = ? AND user_id IN (SELECT value FROM json_each(?))');
	const insert = db.prepare(`
		INSERT INTO org_memberships (org_id, user_id, role, state, public, inviter_id, created_at)
		VALUES (@orgId, @userId, @role, @state, 0, @inviterId, @now)`);
	const setRole = db.prepare('UPDATE org_memberships SET role = ? WHERE org_id = ? AND user_id = ?');
	const setState = db.prepare('UPDATE org_memberships SET state = ? WHERE org_id = ? AND user_id = ?');
	const setPublic = db.prepare('UPDATE org_memberships SET public = ? WHERE org_id = ? AND user_id = ?');
	const remove = db.prepare('DELETE FROM org_memberships WHERE org_id = ? AND user_id = ?');
	const removeTeamMemberships = db.prepare(
		'DELETE FROM team_memberships WHERE user_id = ? AND team_id IN (SELECT id FROM teams WHERE org_id = ?)',
	);
	// Organization roles end with the membership (GitHub removes them).
	const removeRoles = db.prepare('DELETE FROM organization_role_assignments WHERE org_id = ? AND user_id = ?');
	const removeCollaborations = db.prepare(
		'DELETE FROM repository_collaborators WHERE user_id = ? AND repo_id IN (SELECT id FROM repositories WHERE owner_id = ?)',
	);
	const ownerCount = db.prepare("SELECT count(*) FROM org_memberships WHERE org_id = ? AND role = 'admin' AND state = 'active'").pluck();
	// role: 'all' | 'admin' | 'member'; publicOnly: 0 | 1
	const listMembers = db.prepare(`
		SELECT a.* FROM org_memberships m JOIN accounts a ON a.id = m.user_id
		WHERE m.org_id = @orgId AND m.state = 'active' AND (@role = 'all' OR m.role = @role) AND (@publicOnly = 0 OR m.public = 1)
		ORDER BY a.id LIMIT @limit OFFSET @offset`);
	const countMembers = db
		.prepare(`
		SELECT count(*) FROM org_memberships m
		WHERE m.org_id = @orgId AND m.state = 'active' AND (@role = 'all' OR m.role = @role) AND (@publicOnly = 0 OR m.public = 1)`)
		.pluck();
	// @orgId NULL: every organization; otherwise that one only (a token bound to one account).
	const forUser = db.prepare(`
		SELECT m.* FROM org_memberships m
		WHERE m.user_id = @userId AND (@state = 'all' OR m.state = @state) AND (@orgId IS NULL OR m.org_id = @orgId)
		ORDER BY m.org_id LIMIT @limit OFFSET @offset`);
	const countForUser = db
		.prepare(`
		SELECT count(*) FROM org_memberships m
		WHERE m.user_id = @userId AND (@state = 'all' OR m.state = @state) AND (@orgId IS NULL OR m.org_id = @orgId)`)
		.pluck();

	const memo = new Map<string, OrgMembershipRow | null>();
	const forget = () => memo.clear();
	/** Runs a write and forgets every remembered membership (writes are rare; lookups are not). */
	const writing =
		<A extends unknown[], R>(write: (...args: A) => R) =>
		(...args: A): R => {
			memo.clear();
			return write(...args);
		};

	return {
		get(orgId: number, userId: number): OrgMembershipRow | undefined {
			const key = `${orgId}:${userId}`;
			let row = memo.get(key);
			if (row === undefined) {
				if (memo.size >= MEMO_LIMIT) memo.clear();
				row = (get.get(orgId, userId) as OrgMembershipRow | undefined) ?? null;
				memo.set(key, row && Object.freeze(row));
			}
			return row ?? undefined;
		},
		/** Forgets remembered memberships (another process wrote, or a transaction rolled back). */
		forget,
		/** The user's memberships (any state) in any of the organizations. */
		ofUserIn: (userId: number, orgIds: number[]) => ofUserIn.all(userId, JSON.stringify(orgIds)) as OrgMembershipRow[],
		/** The memberships (any state) of any of the users in the organization. */
		ofUsersIn: (orgId: number, userIds: number[]) => ofUsersIn.all(orgId, JSON.stringify(userIds)) as OrgMembershipRow[],
		/** @param now ISO timestamp */
		insert: writing(
			(input: {
				orgId: number;
				userId: number;
				role: 'admin' | 'member';
				state: 'active' | 'pending';
				inviterId: number | null;
				now: string;
			}) => {
				insert.run(input);
			},
		),
		setRole: writing((orgId: number, userId: number, role: 'admin' | 'member') => void setRole.run(role, orgId, userId)),
		setState: writing((orgId: number, userId: number, state: 'active' | 'pending') => void setState.run(state, orgId, userId)),
		setPublic: writing((orgId: number, userId: number, value: boolean) => void setPublic.run(value ? 1 : 0, orgId, userId)),
		/** Removes the membership, the user's team memberships and direct access to the organization's repositories. */
		removeEverywhere: writing((orgId: number, userId: number): void => {
			remove.run(orgId, userId);
			removeRoles.run(orgId, userId);
			removeTeamMemberships.run(userId, orgId);
			removeCollaborations.run(userId, orgId);
		}),
		/** Removes only the organization membership row. */
		remove: writing((orgId: number, userId: number) => {
			remove.run(orgId, userId);
			removeRoles.run(orgId, userId);
		}),
		removeTeamMemberships: (orgId: number, userId: number) => void removeTeamMemberships.run(userId, orgId),
		ownerCount: (orgId: number) => ownerCount.get(orgId) as number,
		members(filter: { orgId: number; role: 'all' | 'admin' | 'member'; publicOnly: boolean; limit: number; offset: number }) {
			const params = { ...filter, publicOnly: filter.publicOnly ? 1 : 0 };
			return { rows: listMembers.all(params) as AccountRow[], total: countMembers.get(params) as number };
		},
		/** The user's memberships, in organization id order; `orgId` (optional) narrows them to one organization. */
		forUser(filter: { userId: number; orgId?: number | null; state: 'all' | 'active' | 'pending'; limit: number; offset: number }) {
			filter = { ...filter, orgId: filter.orgId ?? null };
			return { rows: forUser.all(filter) as OrgMembershipRow[], total: countForUser.get(filter) as number };
		},
	};
}
