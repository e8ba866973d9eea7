/**
 * Search statements. A search's SQL depends on which qualifiers it uses (and how often), so
 * statements are prepared per shape of query and kept (at most MAX_SHAPES, oldest dropped first);
 * every value reaches SQLite as a parameter, never as text. The candidate statements for the
 * caller's private repositories are prepared once.
 */
import type { Statement } from 'better-sqlite3';
import type { DB } from '../../db/open';
import type { RepositoryRow } from '../../model/rows';

/** A candidate of the caller's readable private repositories: the columns the access rules read. */
export type CandidateRepository = Pick<RepositoryRow, 'id' | 'owner_id' | 'visibility'>;

/** Prepared search statements kept at once (each shape of query is one). */
const MAX_SHAPES = 256;

/** Creates the search store. */
export function createSearchStore(db: DB) {
	const shapes = new Map<string, Statement<unknown[]>>();
	const statement = (sql: string) => {
		let prepared = shapes.get(sql);
		if (prepared) {
			// Most recently used last, so the oldest shape goes first.
			shapes.delete(sql);
		} else {
			prepared = db.prepare(sql);
			if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
		}
		shapes.set(sql, prepared);
		return prepared;
	};
	// Non-public repositories a user may read through some grant: owned, a collaborator's, or in an
	// organization the user belongs to (membership in any state, or a team of it). The access rules
	// (repositoryPermissions) then decide exactly. Only the columns those rules read are loaded
	// (id, owner_id, visibility): five times faster than whole rows for thousands of candidates.
	const userCandidates = db.prepare(`
		SELECT id, owner_id, visibility FROM repositories WHERE visibility <> 'public' AND id IN (
			SELECT id FROM repositories WHERE owner_id = @user
			UNION SELECT repo_id FROM repository_collaborators WHERE user_id = @user
			UNION SELECT r.id FROM org_memberships m JOIN repositories r ON r.owner_id = m.org_id WHERE m.user_id = @user
			UNION SELECT r.id FROM team_memberships tm JOIN teams t ON t.id = tm.team_id JOIN repositories r ON r.owner_id = t.org_id
				WHERE tm.user_id = @user)`);
	const ownerCandidates = db.prepare("SELECT id, owner_id, visibility FROM repositories WHERE owner_id = ? AND visibility <> 'public'");
	return {
		/** Rows of a search query (`sql` built by the routes, `?` parameters). */
		all: <T>(sql: string, params: readonly unknown[]) => statement(sql).all(...params) as T[],
		/** The single number a count query answers. */
		count: (sql: string, params: readonly unknown[]) =>
			statement(sql)
				.pluck()
				.get(...params) as number,
		/** Non-public repositories the user may read through some grant (a superset; the access rules decide). */
		userCandidates: (userId: number) => userCandidates.all({ user: userId }) as CandidateRepository[],
		/** An account's non-public repositories. */
		ownerCandidates: (ownerId: number) => ownerCandidates.all(ownerId) as CandidateRepository[],
	};
}
