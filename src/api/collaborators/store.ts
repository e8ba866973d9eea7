/**
 * Prepared statements of collaborators and repository invitations. repository_collaborators (the
 * direct grants, also read by the access rules in src/auth/access and by author_association) stays
 * the source of truth: an accepted invitation inserts there. The collaborator lists compute every
 * user's repository role from all of its sources (direct grant, teams with their parents, the
 * organization's owners and base permission, the owner of a personal repository) in one query.
 */
import type { DB } from '../../db/open';
import type { RepoPermission } from '../../model/repo-permissions';
import type { AccountRow } from '../../model/rows';
import { ORGANIZATION_ROLE_RANK_SQL } from '../roles/catalog';

/** A row of repository_invitations. Timestamps are ISO (seconds). */
export interface InvitationRow {
	id: number;
	repo_id: number;
	invitee_id: number;
	inviter_id: number | null;
	permission: RepoPermission;
	/** A custom repository role whose base role is `permission` (null: none; schema 22). */
	role_id: number | null;
	created_at: string;
	/** When the invitation stops being acceptable (created_at + 7 days). */
	expires_at: string;
}

/** GitHub's affiliation filter of GET /repos/{owner}/{repo}/collaborators. */
export type Affiliation = 'all' | 'direct' | 'outside';

/** Who to compute roles for: one repository and what its owner grants. */
export interface GrantScope {
	repoId: number;
	/** The owning organization (its owners and members); null for a personal repository. */
	orgId: number | null;
	/** The personal repository's owner (admin); null for an organization repository. */
	ownerId: number | null;
	/** Rank (1 pull … 5 admin) every active member holds (base permission, internal visibility); 0: none. */
	memberRank: number;
}

/** A user with access and their strongest role from every source; `direct`: 1 with a direct grant. */
export type CollaboratorRow = AccountRow & { rank: number; direct: number };

const RANKS: readonly RepoPermission[] = ['pull', 'triage', 'push', 'maintain', 'admin'];
/** Repository role → rank 1…5 (the order of src/auth/repo-permissions). */
export const permissionRank = (permission: RepoPermission): number => RANKS.indexOf(permission) + 1;
/** Rank 1…5 → repository role. */
export const rankPermission = (rank: number): RepoPermission => RANKS[rank - 1];

const RANK_SQL = (column: string) =>
	`CASE ${column} WHEN 'pull' THEN 1 WHEN 'triage' THEN 2 WHEN 'push' THEN 3 WHEN 'maintain' THEN 4 WHEN 'admin' THEN 5 END`;

/**
 * Every grant on the repository, one row per source (members of a child team inherit its parents'
 * grants), folded per user; `one`: only @userId's (each source then an index lookup).
 */
const GRANTS = (one: boolean) => `
	WITH RECURSIVE
	granted_teams(id, rank) AS (
		SELECT team_id, ${RANK_SQL('permission')} FROM team_repositories WHERE repo_id = @repoId
		UNION ALL
		SELECT t.id, g.rank FROM teams t JOIN granted_teams g ON t.parent_id = g.id
	),
	grants(user_id, rank, direct) AS (
		SELECT user_id, ${RANK_SQL('permission')}, 1 FROM repository_collaborators WHERE repo_id = @repoId${one ? ' AND user_id = @userId' : ''}
		UNION ALL
		SELECT m.user_id, g.rank, 0 FROM granted_teams g JOIN team_memberships m ON m.team_id = g.id${one ? ' AND m.user_id = @userId' : ''}
			WHERE m.state = 'active'
		UNION ALL
		SELECT user_id, CASE role WHEN 'admin' THEN 5 ELSE @memberRank END, 0 FROM org_memberships
			WHERE org_id = @orgId${one ? ' AND user_id = @userId' : ''} AND state = 'active' AND (role = 'admin' OR @memberRank > 0)
		UNION ALL
		-- Organization roles (all_repo_*) of active members, held directly or through a team.
		SELECT h.user_id, ${ORGANIZATION_ROLE_RANK_SQL('h.role_id')}, 0 FROM (
			SELECT user_id, role_id FROM organization_role_assignments WHERE org_id = @orgId AND user_id IS NOT NULL${one ? ' AND user_id = @userId' : ''}
			UNION ALL
			SELECT tm.user_id, a.role_id FROM organization_role_assignments a JOIN team_memberships tm ON tm.team_id = a.team_id AND tm.state = 'active'
				WHERE a.org_id = @orgId AND a.team_id IS NOT NULL${one ? ' AND tm.user_id = @userId' : ''}
		) h JOIN org_memberships om ON om.org_id = @orgId AND om.user_id = h.user_id AND om.state = 'active'
		UNION ALL
		SELECT @ownerId, 5, 0 WHERE @ownerId IS NOT NULL${one ? ' AND @ownerId = @userId' : ''}
	),
	collaborators(user_id, rank, direct) AS (SELECT user_id, max(rank), max(direct) FROM grants GROUP BY user_id)`;

const AFFILIATION: Record<Affiliation, string> = {
	all: '1',
	direct: 'c.direct = 1',
	// Direct collaborators who are not active members of the owning organization.
	outside: `c.direct = 1 AND NOT EXISTS (
		SELECT 1 FROM org_memberships m WHERE m.org_id = @orgId AND m.user_id = c.user_id AND m.state = 'active')`,
};

// Grants reach users only (collaborators, team and organization members, a personal repository's owner).
const FILTER = (affiliation: Affiliation) => `c.rank >= @minRank AND ${AFFILIATION[affiliation]}`;

export type CollaboratorStore = ReturnType<typeof createCollaboratorStore>;

export function createCollaboratorStore(db: DB) {
	// One statement per affiliation: the page with the number of matches (a window over the same
	// fold, so the grants are gathered once), and the count alone for a page past the end.
	const pages = new Map(
		(Object.keys(AFFILIATION) as Affiliation[]).map((affiliation) => [
			affiliation,
			{
				page: db.prepare(`${GRANTS(false)},
					matches AS MATERIALIZED (SELECT c.user_id, c.rank, c.direct FROM collaborators c WHERE ${FILTER(affiliation)})
					SELECT a.*, m.rank AS rank, m.direct AS direct, (SELECT count(*) FROM matches) AS total
					FROM matches m JOIN accounts a ON a.id = m.user_id ORDER BY m.user_id LIMIT @limit OFFSET @offset`),
				count: db
					.prepare(`${GRANTS(false)}
					SELECT count(*) FROM collaborators c WHERE ${FILTER(affiliation)}`)
					.pluck(),
			},
		]),
	);
	const one = db.prepare(`${GRANTS(true)}
		SELECT a.*, c.rank AS rank, c.direct AS direct FROM collaborators c JOIN accounts a ON a.id = c.user_id WHERE a.type = 'User'`);
	const removeCollaborator = db.prepare('DELETE FROM repository_collaborators WHERE repo_id = ? AND user_id = ?');

	const insertInvitation = db.prepare(`
		INSERT INTO repository_invitations (repo_id, invitee_id, inviter_id, permission, role_id, created_at, expires_at)
		VALUES (@repo_id, @invitee_id, @inviter_id, @permission, @role_id, @created_at, @expires_at) RETURNING *`);
	const invitationById = db.prepare('SELECT * FROM repository_invitations WHERE id = ?');
	const invitationOf = db.prepare('SELECT * FROM repository_invitations WHERE repo_id = ? AND invitee_id = ?');
	const forRepo = db.prepare('SELECT * FROM repository_invitations WHERE repo_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const countForRepo = db.prepare('SELECT count(*) FROM repository_invitations WHERE repo_id = ?').pluck();
	// The invitee sees only invitations still open (not expired), as GitHub's invitation page does.
	const forInvitee = db.prepare(
		'SELECT * FROM repository_invitations WHERE invitee_id = ? AND expires_at > ? ORDER BY id LIMIT ? OFFSET ?',
	);
	const countForInvitee = db.prepare('SELECT count(*) FROM repository_invitations WHERE invitee_id = ? AND expires_at > ?').pluck();
	const setPermission = db.prepare('UPDATE repository_invitations SET permission = ?, role_id = ? WHERE id = ?');
	const removeInvitation = db.prepare('DELETE FROM repository_invitations WHERE id = ?');
	const removeSentBy = db.prepare('DELETE FROM repository_invitations WHERE repo_id = ? AND inviter_id = ?');
	// Invitations sent are counted from the event log, which keeps them after they are accepted or deleted.
	const sentSince = db
		.prepare("SELECT count(*) FROM events WHERE event = 'repository_invitation' AND repo_id = ? AND created_at > ?")
		.pluck();
	const invitationsInOwner = db.prepare(`
		SELECT * FROM repository_invitations WHERE invitee_id = ? AND repo_id IN (SELECT id FROM repositories WHERE owner_id = ?) ORDER BY id`);

	const params = (scope: GrantScope) => ({
		repoId: scope.repoId,
		orgId: scope.orgId,
		ownerId: scope.ownerId,
		memberRank: scope.memberRank,
	});

	return {
		/**
		 * One page of the users with access to a repository (GET /repos/{owner}/{repo}/collaborators),
		 * by id, each with their strongest role; `minRank` keeps those holding at least that role.
		 */
		list(scope: GrantScope, filter: { affiliation: Affiliation; minRank: number; limit: number; offset: number }) {
			const statements = pages.get(filter.affiliation)!;
			const values = { ...params(scope), minRank: filter.minRank };
			const rows = statements.page.all({ ...values, limit: filter.limit, offset: filter.offset }) as Array<
				CollaboratorRow & { total: number }
			>;
			const total = rows.length ? rows[0].total : filter.offset > 0 ? (statements.count.get(values) as number) : 0;
			return { rows: rows.map(({ total: _total, ...row }) => row as CollaboratorRow), total };
		},
		/** One user's grants on the repository, as the list would show them; undefined: no grant at all. */
		grant: (scope: GrantScope, userId: number) => one.get({ ...params(scope), userId }) as CollaboratorRow | undefined,
		/** Removes a direct grant. @returns whether there was one */
		removeCollaborator: (repoId: number, userId: number) => removeCollaborator.run(repoId, userId).changes > 0,

		/** Creates an invitation. @returns the stored row */
		insertInvitation: (row: Omit<InvitationRow, 'id'>) => insertInvitation.get(row) as InvitationRow,
		invitation: (id: number) => invitationById.get(id) as InvitationRow | undefined,
		/** The user's invitation to the repository, if any (at most one: UNIQUE (repo_id, invitee_id)). */
		invitationOf: (repoId: number, inviteeId: number) => invitationOf.get(repoId, inviteeId) as InvitationRow | undefined,
		/** One page of a repository's invitations, oldest first, with their number. */
		forRepository: (repoId: number, limit: number, offset: number) => ({
			rows: forRepo.all(repoId, limit, offset) as InvitationRow[],
			total: countForRepo.get(repoId) as number,
		}),
		/** One page of a user's open invitations (expiring after `now`, ISO), oldest first, with their number. */
		forInvitee: (userId: number, now: string, limit: number, offset: number) => ({
			rows: forInvitee.all(userId, now, limit, offset) as InvitationRow[],
			total: countForInvitee.get(userId, now) as number,
		}),
		/** Every open invitation of the user (notifications show their threads whatever the user reads). @param now ISO */
		openForInvitee: (userId: number, now: string) => forInvitee.all(userId, now, -1, 0) as InvitationRow[],
		/** @param roleId the custom repository role the invitation now gives (null: none) */
		setPermission: (id: number, permission: RepoPermission, roleId: number | null = null) =>
			void setPermission.run(permission, roleId, id),
		removeInvitation: (id: number) => void removeInvitation.run(id),
		/** Cancels the invitations to a repository that a user sent. @returns how many */
		removeSentBy: (repoId: number, inviterId: number) => removeSentBy.run(repoId, inviterId).changes,
		/** How many invitations were sent to the repository after `since` (ISO), whatever became of them. */
		sentSince: (repoId: number, since: string) => sentSince.get(repoId, since) as number,
		/** A user's invitations to any repository of an owner. */
		invitationsInOwner: (userId: number, ownerId: number) => invitationsInOwner.all(userId, ownerId) as InvitationRow[],
	};
}
