/**
 * Prepared statements for repositories, their collaborators and team grants, and the bulk reads
 * behind repository lists: one page of an owner's repositories in SQL, and a user's collaborator
 * rows on many repositories at once.
 */
import { COUNTER_COLUMNS, type ChangeCounters, type CounterColumn } from '../../db/change-counters';
import type { DB } from '../../db/open';
import type { AccountRow, RepositoryRow } from '../../model/rows';

/** Kept for src/api/git until it imports src/model/rows. */
export type { RepositoryRow };
import type { RepoPermission } from '../../model/repo-permissions';

export type NewRepository = Omit<
	RepositoryRow,
	| 'id'
	| 'created_at'
	| 'updated_at'
	| 'pushed_at'
	| 'archived'
	| 'fork_parent_id'
	| 'language'
	| 'topics'
	| 'open_issues_count'
	| 'advanced_security'
	| 'delegated_alert_dismissal'
	| 'stargazers_count'
	| 'subscribers_count'
	| 'forks_count'
	| 'allow_forking'
	| 'web_commit_signoff_required'
	| 'allow_update_branch'
	| 'use_squash_pr_title_as_default'
	| 'squash_merge_commit_title'
	| 'squash_merge_commit_message'
	| 'merge_commit_title'
	| 'merge_commit_message'
	| 'security_settings'
	| 'size'
> & {
	fork_parent_id?: number | null;
};

/**
 * An entry of a user's list of repositories (stars, subscriptions) before the list decides what the
 * caller may see: the repository's id, owner and visibility, and when it entered the list.
 */
export interface ListedRepository {
	repo_id: number;
	owner_id: number;
	visibility: RepositoryRow['visibility'];
	/** ISO timestamp: starred or subscribed. */
	at: string;
}

/** A repository a user reaches, with how (GET /user/repos affiliations): 1 or 0 each. */
export interface AffiliatedRepository extends RepositoryRow {
	/** The user owns it. */
	is_owner: number;
	/** The user is a direct collaborator on it. */
	is_collaborator: number;
	/** It belongs to an organization the user is an active member of. */
	is_member: number;
}

/** Sort keys of GET /orgs/{org}/repos. */
export type RepositorySort = 'created' | 'updated' | 'pushed' | 'full_name';

/**
 * Filter of an owner's repository list. visibility: 'public' only, 'private' (every non-public
 * one: private and internal) or 'any'; fork: 'fork' only, 'source' (not forks) only, or 'any'.
 */
export interface RepositoryFilter {
	ownerId: number;
	visibility: 'any' | 'public' | 'private';
	fork: 'any' | 'fork' | 'source';
	/** Archived ones only (true), unarchived ones only (false); undefined or null: either. */
	archived?: boolean | null;
	/** With issues turned on (true) or off (false); undefined or null: either. */
	hasIssues?: boolean | null;
}

/** A filter's SQL parameters (booleans as 1/0, unset ones NULL). */
const filterParams = (filter: RepositoryFilter) => ({
	ownerId: filter.ownerId,
	visibility: filter.visibility,
	fork: filter.fork,
	archived: filter.archived == null ? null : filter.archived ? 1 : 0,
	hasIssues: filter.hasIssues == null ? null : filter.hasIssues ? 1 : 0,
});

/** SQL sort key per sort; names are [A-Za-z0-9._-] only, so lower() folds them as JavaScript does. */
const SORT_KEYS: Record<RepositorySort, string> = {
	created: 'created_at',
	updated: 'updated_at',
	pushed: "coalesce(pushed_at, '')",
	full_name: 'lower(name)',
};
const REPOSITORY_FILTER = `owner_id = @ownerId
	AND (@visibility = 'any' OR (@visibility = 'public') = (visibility = 'public'))
	AND (@fork = 'any' OR (@fork = 'fork') = (fork_parent_id IS NOT NULL))
	AND (@archived IS NULL OR archived = @archived) AND (@hasIssues IS NULL OR has_issues = @hasIssues)`;

export type RepositoryStore = ReturnType<typeof createRepositoryStore>;

/**
 * Makes a remembered row read-only (a caller's accidental write throws in strict mode) but for the
 * counter columns, which counter triggers' writes update in place: cheaper than copying a 45-column
 * row for every issue opened. Sealed: no column is added or removed.
 */
function freezeButCounters(row: RepositoryRow): void {
	Object.seal(row);
	for (const key of Object.keys(row)) if (!COUNTERS.has(key)) Object.defineProperty(row, key, { writable: false });
}
const COUNTERS: ReadonlySet<string> = new Set(COUNTER_COLUMNS);

/** Repository rows kept in memory at most (then the memo starts over). */
const REPOSITORY_MEMO_LIMIT = 20_000;

/**
 * Repository rows by id and by owner and name, remembered in memory (the guard of every repository
 * route reads one). `changes` reports every write to a repositories row on this connection (its
 * TEMP triggers: stores' statements, counter triggers, cascades) and clear() for everything else
 * (another process's commit, a rollback): the row is then forgotten, but for a write of its counter
 * columns alone, which updates it in place. Returned rows are read-only but for those counters.
 */
export function createRepositoryStore(db: DB, changes?: ChangeCounters) {
	const byOwnerAndNameStatement = db.prepare('SELECT * FROM repositories WHERE owner_id = ? AND name = ?');
	const byIdStatement = db.prepare('SELECT * FROM repositories WHERE id = ?');
	const rows = new Map<number, RepositoryRow>();
	const ids = new Map<string, number>();
	// The key of the name as the column compares it (COLLATE NOCASE folds ASCII letters only).
	const nameKey = (ownerId: number, name: string) =>
		`${ownerId}/${/[A-Z]/.test(name) ? name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : name}`;
	const remember = (row: RepositoryRow | undefined): RepositoryRow | undefined => {
		if (!row || !changes) return row;
		if (rows.size >= REPOSITORY_MEMO_LIMIT) forget(-1);
		freezeButCounters(row);
		rows.set(row.id, row);
		ids.set(nameKey(row.owner_id, row.name), row.id);
		return row;
	};
	/** @param id the repository whose row changed; -1: all of them */
	const forget = (id: number) => {
		if (id === -1) {
			rows.clear();
			ids.clear();
			return;
		}
		const row = rows.get(id);
		if (!row) return;
		rows.delete(id);
		ids.delete(nameKey(row.owner_id, row.name));
	};
	changes?.onRepositoryRow(forget);
	// A counter trigger's write (an issue opened or closed, a star, a watcher, a fork) changes one
	// column: the cached row takes the new value in place instead of being read again (a holder of
	// the row sees the count the database now has).
	changes?.onRepositoryCounter((id, column, value) => {
		const row = rows.get(id) as Record<CounterColumn, number> | undefined;
		if (row) row[column] = value;
	});
	const byOwnerAndName = {
		get(ownerId: number, name: string): RepositoryRow | undefined {
			const id = ids.get(nameKey(ownerId, name));
			const row = id === undefined ? undefined : rows.get(id);
			return row ?? remember(byOwnerAndNameStatement.get(ownerId, name) as RepositoryRow | undefined);
		},
	};
	const byId = {
		get: (id: number): RepositoryRow | undefined => rows.get(id) ?? remember(byIdStatement.get(id) as RepositoryRow | undefined),
	};
	const redirect = db.prepare(
		'SELECT r.* FROM repository_redirects x JOIN repositories r ON r.id = x.repo_id WHERE x.owner_id = ? AND x.name = ?',
	);
	const byIds = db.prepare('SELECT * FROM repositories WHERE id IN (SELECT value FROM json_each(?))');
	const insert = db.prepare(`
		INSERT INTO repositories (owner_id, name, description, homepage, visibility, fork_parent_id, default_branch, license_key,
			has_issues, has_projects, has_wiki, has_downloads, has_discussions, is_template, allow_squash_merge, allow_merge_commit,
			allow_rebase_merge, allow_auto_merge, delete_branch_on_merge, created_at, updated_at, pushed_at)
		VALUES (@owner_id, @name, @description, @homepage, @visibility, @fork_parent_id, @default_branch, @license_key,
			@has_issues, @has_projects, @has_wiki, @has_downloads, @has_discussions, @is_template, @allow_squash_merge, @allow_merge_commit,
			@allow_rebase_merge, @allow_auto_merge, @delete_branch_on_merge, @now, @now, @now)`);
	const setDefaultBranch = db.prepare('UPDATE repositories SET default_branch = ?, updated_at = ? WHERE id = ?');
	const setSize = db.prepare('UPDATE repositories SET size = ? WHERE id = ?');
	const update = db.prepare(`
		UPDATE repositories SET name = @name, description = @description, homepage = @homepage, visibility = @visibility,
			default_branch = @default_branch, has_issues = @has_issues, has_projects = @has_projects, has_wiki = @has_wiki,
			has_downloads = @has_downloads, has_discussions = @has_discussions, is_template = @is_template, archived = @archived,
			allow_squash_merge = @allow_squash_merge, allow_merge_commit = @allow_merge_commit, allow_rebase_merge = @allow_rebase_merge,
			allow_auto_merge = @allow_auto_merge, delete_branch_on_merge = @delete_branch_on_merge,
			advanced_security = @advanced_security, delegated_alert_dismissal = @delegated_alert_dismissal, updated_at = @updated_at,
			allow_forking = @allow_forking, web_commit_signoff_required = @web_commit_signoff_required,
			allow_update_branch = @allow_update_branch, use_squash_pr_title_as_default = @use_squash_pr_title_as_default,
			squash_merge_commit_title = @squash_merge_commit_title, squash_merge_commit_message = @squash_merge_commit_message,
			merge_commit_title = @merge_commit_title, merge_commit_message = @merge_commit_message
		WHERE id = @id`);
	const setSecurity = db.prepare(
		'UPDATE repositories SET advanced_security = @advanced_security, delegated_alert_dismissal = @delegated_alert_dismissal WHERE id = @id',
	);
	const collaborator = db.prepare('SELECT permission FROM repository_collaborators WHERE repo_id = ? AND user_id = ?').pluck();
	const collaboratorRole = db.prepare('SELECT role_id FROM repository_collaborators WHERE repo_id = ? AND user_id = ?').pluck();
	const setCollaborator = db.prepare(`
		INSERT INTO repository_collaborators (repo_id, user_id, permission, created_at, role_id) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (repo_id, user_id) DO UPDATE SET permission = excluded.permission, role_id = excluded.role_id`);
	// Team grants reach members of the team and of its child teams (a child team inherits its
	// parent's access), so walk from the user's teams up to their ancestors.
	const teamPermissions = db
		.prepare(`
		WITH RECURSIVE my_teams(id) AS (
			SELECT team_id FROM team_memberships WHERE user_id = @userId AND state = 'active'
			UNION SELECT t.parent_id FROM teams t JOIN my_teams m ON t.id = m.id WHERE t.parent_id IS NOT NULL
		)
		SELECT permission FROM team_repositories WHERE repo_id = @repoId AND team_id IN (SELECT id FROM my_teams)`)
		.pluck();
	const forOwner = db.prepare('SELECT * FROM repositories WHERE owner_id = ? ORDER BY id');
	// Forks owned by users of an owner's private and internal repositories (the private-fork rule).
	const userForksOfPrivate = db.prepare(`
		SELECT f.* FROM repositories p
		JOIN repositories f ON f.fork_parent_id = p.id
		JOIN accounts a ON a.id = f.owner_id AND a.type = 'User'
		WHERE p.owner_id = ? AND p.visibility != 'public' ORDER BY f.id`);
	const remove = db.prepare('DELETE FROM repositories WHERE id = ?');
	// Each way in through its own index (owner, collaborator rows by user, memberships by user).
	const affiliated = db.prepare(`
		WITH owned(id) AS (SELECT id FROM repositories WHERE owner_id = @userId),
		collaborating(id) AS (SELECT repo_id FROM repository_collaborators WHERE user_id = @userId),
		memberships(org_id) AS (SELECT org_id FROM org_memberships WHERE user_id = @userId AND state = 'active'),
		ids(id) AS (
			SELECT id FROM owned UNION SELECT id FROM collaborating
			UNION SELECT r.id FROM memberships m JOIN repositories r ON r.owner_id = m.org_id
		)
		SELECT r.*, r.owner_id = @userId AS is_owner,
			r.id IN (SELECT id FROM collaborating) AS is_collaborator,
			r.owner_id IN (SELECT org_id FROM memberships) AS is_member
		FROM ids JOIN repositories r ON r.id = ids.id`);
	const publicSince = db.prepare("SELECT * FROM repositories WHERE id > ? AND visibility = 'public' ORDER BY id LIMIT ?");
	const moveRepository = db.prepare(
		'UPDATE repositories SET owner_id = @ownerId, name = @name, visibility = @visibility, updated_at = @now WHERE id = @id',
	);
	const takeName = db.prepare('DELETE FROM repository_redirects WHERE owner_id = @ownerId AND name = @name');
	const keepOldName = db.prepare(
		'INSERT OR REPLACE INTO repository_redirects (owner_id, name, repo_id) VALUES (@fromOwnerId, @fromName, @id)',
	);
	const dropTeamGrants = db.prepare('DELETE FROM team_repositories WHERE repo_id = ?');
	const clearTopics = db.prepare('DELETE FROM repository_topics WHERE repo_id = ?');
	const addTopic = db.prepare('INSERT INTO repository_topics (repo_id, name, position) VALUES (?, ?, ?)');
	const forkOf = db.prepare('SELECT * FROM repositories WHERE owner_id = ? AND fork_parent_id = ? ORDER BY id LIMIT 1');
	// A repository's network: its root (following fork parents up) and every fork below the root.
	const network = db
		.prepare(`
		WITH RECURSIVE up(id, parent) AS (
			SELECT id, fork_parent_id FROM repositories WHERE id = @id
			UNION SELECT r.id, r.fork_parent_id FROM repositories r JOIN up ON r.id = up.parent
		),
		down(id) AS (
			SELECT id FROM up WHERE parent IS NULL
			UNION SELECT r.id FROM repositories r JOIN down ON r.fork_parent_id = down.id
		)
		SELECT id FROM down`)
		.pluck();
	const collaborators = db.prepare(`
		SELECT a.*, c.permission FROM repository_collaborators c JOIN accounts a ON a.id = c.user_id WHERE c.repo_id = ? ORDER BY a.id`);
	const removeCollaborations = db.prepare(
		'DELETE FROM repository_collaborators WHERE user_id = ? AND repo_id IN (SELECT id FROM repositories WHERE owner_id = ?)',
	);
	// Outside collaborators of an organization: collaborators on its repositories who are not active members.
	const outsideCollaborators = db.prepare(`
		SELECT a.* FROM accounts a WHERE a.id IN (
			SELECT c.user_id FROM repository_collaborators c JOIN repositories r ON r.id = c.repo_id WHERE r.owner_id = @orgId)
		AND NOT EXISTS (SELECT 1 FROM org_memberships m WHERE m.org_id = @orgId AND m.user_id = a.id AND m.state = 'active')
		ORDER BY a.id LIMIT @limit OFFSET @offset`);
	const countOutsideCollaborators = db
		.prepare(`
		SELECT count(*) FROM accounts a WHERE a.id IN (
			SELECT c.user_id FROM repository_collaborators c JOIN repositories r ON r.id = c.repo_id WHERE r.owner_id = @orgId)
		AND NOT EXISTS (SELECT 1 FROM org_memberships m WHERE m.org_id = @orgId AND m.user_id = a.id AND m.state = 'active')`)
		.pluck();

	// One statement per sort and direction; ties are broken by id in the same direction.
	const repositoryPages = new Map(
		(Object.keys(SORT_KEYS) as RepositorySort[]).flatMap((sort) =>
			(['asc', 'desc'] as const).map((direction) => [
				`${sort} ${direction}`,
				db.prepare(`
					SELECT * FROM repositories WHERE ${REPOSITORY_FILTER}
					ORDER BY ${SORT_KEYS[sort]} ${direction}, id ${direction} LIMIT @limit OFFSET @offset`),
			]),
		),
	);
	const repositoryCount = db.prepare(`SELECT count(*) FROM repositories WHERE ${REPOSITORY_FILTER}`).pluck();
	const collaboratorGrants = db.prepare(
		'SELECT repo_id, permission FROM repository_collaborators WHERE user_id = ? AND repo_id IN (SELECT value FROM json_each(?))',
	);

	return {
		byOwnerAndName: (ownerId: number, name: string) => byOwnerAndName.get(ownerId, name) as RepositoryRow | undefined,
		/** The repository that had `name` under the owner before a rename (repository_redirects), if any. */
		redirected: (ownerId: number, name: string) => redirect.get(ownerId, name) as RepositoryRow | undefined,
		byId: (id: number) => byId.get(id) as RepositoryRow | undefined,
		/** The repositories with these ids that exist, in no particular order. */
		byIds: (ids: readonly number[]) => (ids.length ? (byIds.all(JSON.stringify(ids)) as RepositoryRow[]) : []),
		/** @param now ISO timestamp */
		insert: (repo: NewRepository, now: string) => Number(insert.run({ fork_parent_id: null, ...repo, now }).lastInsertRowid),
		/** Writes every editable field of the row (PATCH /repos/{owner}/{repo}); returns the stored row. */
		/** Names the default branch (a push to an empty repository). @param now ISO timestamp */
		setDefaultBranch: (id: number, branch: string, now: string) => void setDefaultBranch.run(branch, now, id),
		/** Sets the repository's size (GitHub's `size`: kilobytes its git data takes). */
		setSize: (id: number, kilobytes: number) => void setSize.run(kilobytes, id),
		update(row: RepositoryRow): RepositoryRow {
			update.run(row);
			return byId.get(row.id) as RepositoryRow;
		},
		/** Sets the security_and_analysis switches (1 enabled, 0 disabled). */
		setSecurity: (id: number, settings: { advanced_security: number; delegated_alert_dismissal: number }) =>
			void setSecurity.run({ id, ...settings }),
		collaboratorPermission: (repoId: number, userId: number) => collaborator.get(repoId, userId) as RepoPermission | undefined,
		/** @param now ISO timestamp */
		/** The custom repository role of a user's direct grant, or null. */
		collaboratorRole: (repoId: number, userId: number) => (collaboratorRole.get(repoId, userId) as number | null | undefined) ?? null,
		/** @param roleId a custom repository role whose base role is `permission` (null: none) */
		setCollaborator: (repoId: number, userId: number, permission: RepoPermission, now: string, roleId: number | null = null) =>
			void setCollaborator.run(repoId, userId, permission, now, roleId),
		/** Permissions the user holds on the repository through teams (including parent teams). */
		teamPermissions: (repoId: number, userId: number) => teamPermissions.all({ repoId, userId }) as RepoPermission[],
		forOwner: (ownerId: number) => forOwner.all(ownerId) as RepositoryRow[],
		/** Users' forks of the owner's private and internal repositories. */
		userForksOfPrivate: (ownerId: number) => userForksOfPrivate.all(ownerId) as RepositoryRow[],
		/**
		 * Every repository the user owns, collaborates on, or that belongs to an organization the user
		 * is an active member of (whether the user may read it is the access rules' to say), with how.
		 */
		affiliated: (userId: number) => affiliated.all({ userId }) as AffiliatedRepository[],
		/** Public repositories with an id above `since`, in id order (GET /repositories). */
		publicSince: (since: number, limit: number) => publicSince.all(since, limit) as RepositoryRow[],
		/**
		 * Moves a repository to another owner (a transfer), under `name`: its former owner and name
		 * redirect to it (repository_redirects), the new name stops redirecting elsewhere, and the
		 * former organization's team grants end. @param now ISO timestamp
		 */
		transfer(
			repo: RepositoryRow,
			move: { ownerId: number; name: string; visibility: RepositoryRow['visibility']; now: string },
		): RepositoryRow {
			moveRepository.run({ id: repo.id, ...move });
			takeName.run({ ownerId: move.ownerId, name: move.name });
			keepOldName.run({ id: repo.id, fromOwnerId: repo.owner_id, fromName: repo.name });
			if (move.ownerId !== repo.owner_id) dropTeamGrants.run(repo.id);
			return byId.get(repo.id) as RepositoryRow;
		},
		/** Replaces a repository's topics (repositories.topics follows by triggers). */
		setTopics(repoId: number, names: readonly string[]): void {
			clearTopics.run(repoId);
			names.forEach((name, position) => {
				addTopic.run(repoId, name, position);
			});
		},
		/** The owner's fork of a repository, if it has one (the oldest). */
		forkOf: (ownerId: number, parentId: number) => forkOf.get(ownerId, parentId) as RepositoryRow | undefined,
		/** The ids of a repository's network: its root repository and every fork of it, at any depth. */
		network: (id: number) => network.all({ id }) as number[],
		/** Deletes a repository with everything in it (foreign keys cascade; its forks are detached). */
		remove: (id: number) => void remove.run(id),
		/** Direct collaborators of a repository, with their permission. */
		collaborators: (repoId: number) => collaborators.all(repoId) as Array<AccountRow & { permission: RepoPermission }>,
		/** Removes the user's direct access to every repository of the owner. @returns rows removed */
		removeCollaborations: (userId: number, ownerId: number) => removeCollaborations.run(userId, ownerId).changes,
		outsideCollaborators(filter: { orgId: number; limit: number; offset: number }) {
			return { rows: outsideCollaborators.all(filter) as AccountRow[], total: countOutsideCollaborators.get(filter) as number };
		},
		/**
		 * An owner's repositories matching the filter, sorted (ties by id in the same direction); one
		 * page, or all of them when `limit` is -1.
		 */
		page(filter: RepositoryFilter, sort: RepositorySort, direction: 'asc' | 'desc', limit: number, offset: number) {
			return repositoryPages.get(`${sort} ${direction}`)!.all({ ...filterParams(filter), limit, offset }) as RepositoryRow[];
		},
		count: (filter: RepositoryFilter) => repositoryCount.get(filterParams(filter)) as number,
		/** The user's direct collaborator permissions on any of the repositories. */
		collaboratorGrants: (userId: number, repoIds: number[]) =>
			collaboratorGrants.all(userId, JSON.stringify(repoIds)) as Array<{ repo_id: number; permission: RepoPermission }>,
	};
}
