/**
 * Prepared statements for branches (the refs/heads/ references of src/api/git) and their
 * protection (schema.sql, block "branch protection"): one row per protected branch, its rules as
 * JSON (ProtectionSettings). Also the reads protection enforcement needs: the check runs
 * (workflow jobs, by name) of a commit.
 */
import type { DB } from '../../db/open';
import type { AccountRow } from '../../model/rows';

/** Who a restriction or allowance names: account ids (users, teams) and app ids. */
export interface ActorIds {
	users: number[];
	teams: number[];
	apps: number[];
}

/** required_status_checks as stored. */
export interface StatusChecksSettings {
	strict: boolean;
	/** Required contexts (check run names or commit status contexts), in the order given. */
	contexts: string[];
	/** The same requirements with the app expected to report each (null: any). */
	checks: Array<{ context: string; app_id: number | null }>;
}

/** required_pull_request_reviews as stored. */
export interface ReviewSettings {
	dismiss_stale_reviews: boolean;
	require_code_owner_reviews: boolean;
	/** 0–6 approvals. */
	required_approving_review_count: number;
	require_last_push_approval: boolean;
	/** null: anyone with write access may dismiss reviews. */
	dismissal_restrictions: ActorIds | null;
	bypass_pull_request_allowances: ActorIds | null;
}

/** A branch's protection rules, as PUT .../branches/{branch}/protection sets them. */
export interface ProtectionSettings {
	required_status_checks: StatusChecksSettings | null;
	enforce_admins: boolean;
	required_pull_request_reviews: ReviewSettings | null;
	/** null: everyone with push access may push; else only these (organization repositories). */
	restrictions: ActorIds | null;
	required_signatures: boolean;
	required_linear_history: boolean;
	allow_force_pushes: boolean;
	allow_deletions: boolean;
	block_creations: boolean;
	required_conversation_resolution: boolean;
	lock_branch: boolean;
	allow_fork_syncing: boolean;
}

/** A stored protection with its settings parsed. */
export interface ProtectionRow {
	id: number;
	repo_id: number;
	branch: string;
	settings: ProtectionSettings;
	/** ISO timestamps. */
	created_at: string;
	updated_at: string;
}

/** One branch of a list: its name, head commit and whether it is protected. */
export interface BranchRow {
	name: string;
	sha: string;
	protected: boolean;
}

/** The latest check run of one name on a commit (a workflow job of the run's latest attempt). */
export interface CheckRunState {
	name: string;
	status: string;
	conclusion: string | null;
}

/** The branch store's methods (app.stores.branches). */
export type BranchStore = ReturnType<typeof createBranchStore>;

interface StoredProtection {
	id: number;
	repo_id: number;
	branch: string;
	settings: string;
	created_at: string;
	updated_at: string;
}

const parse = (row: StoredProtection | undefined): ProtectionRow | undefined =>
	row && { ...row, settings: JSON.parse(row.settings) as ProtectionSettings };

/** Prepares the branch and protection statements on `db`, once per open database. */
export function createBranchStore(db: DB) {
	// refs/heads/ names lie in ['refs/heads/', 'refs/heads0'): the primary key's range.
	const HEADS = "r.repo_id = @repoId AND r.name >= 'refs/heads/' AND r.name < 'refs/heads0'";
	const FILTER = '(@protected IS NULL OR (p.id IS NOT NULL) = @protected)';
	const list = db.prepare(`
		SELECT substr(r.name, 12) AS name, r.sha, p.id IS NOT NULL AS protected FROM git_refs r
		LEFT JOIN branch_protections p ON p.repo_id = r.repo_id AND p.branch = substr(r.name, 12)
		WHERE ${HEADS} AND ${FILTER} ORDER BY r.name LIMIT @limit OFFSET @offset`);
	const count = db
		.prepare(`
		SELECT count(*) FROM git_refs r LEFT JOIN branch_protections p ON p.repo_id = r.repo_id AND p.branch = substr(r.name, 12)
		WHERE ${HEADS} AND ${FILTER}`)
		.pluck();
	const headsAt = db.prepare(`
		SELECT substr(r.name, 12) AS name, r.sha, p.id IS NOT NULL AS protected FROM git_refs r
		LEFT JOIN branch_protections p ON p.repo_id = r.repo_id AND p.branch = substr(r.name, 12)
		WHERE ${HEADS} AND r.sha = @sha ORDER BY r.name`);
	const protection = db.prepare('SELECT * FROM branch_protections WHERE repo_id = ? AND branch = ?');
	const protectionById = db.prepare('SELECT * FROM branch_protections WHERE repo_id = ? AND id = ?');
	const upsert = db.prepare(`
		INSERT INTO branch_protections (repo_id, branch, settings, created_at, updated_at) VALUES (@repoId, @branch, @settings, @now, @now)
		ON CONFLICT (repo_id, branch) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`);
	const remove = db.prepare('DELETE FROM branch_protections WHERE repo_id = ? AND branch = ?');
	const rename = db.prepare('UPDATE branch_protections SET branch = @to, updated_at = @now WHERE repo_id = @repoId AND branch = @from');
	// Per name, the newest check run of the commit: a job of each workflow run's latest attempt, or
	// a check run an app wrote (their ids start at 2^40, so an app's run is the newer of the two).
	const checkRuns = db.prepare(`
		SELECT name, status, conclusion FROM (
		  SELECT j.id, j.name, j.status, j.conclusion FROM workflow_jobs j
		  JOIN workflow_runs r ON r.id = j.run_id AND j.run_attempt = r.run_attempt
		  WHERE r.repo_id = @repoId AND r.head_sha = @sha AND j.name IN (SELECT value FROM json_each(@names))
		  UNION ALL
		  SELECT c.id, c.name, c.status, c.conclusion FROM check_runs c
		  WHERE c.repo_id = @repoId AND c.head_sha = @sha AND c.name IN (SELECT value FROM json_each(@names))
		) ORDER BY id`);
	const renamedTo = db.prepare('SELECT new_name FROM branch_renames WHERE repo_id = ? AND old_name = ?').pluck();
	const dropRename = db.prepare('DELETE FROM branch_renames WHERE repo_id = @repoId AND old_name = @to');
	const followRename = db.prepare('UPDATE branch_renames SET new_name = @to WHERE repo_id = @repoId AND new_name = @from');
	const insertRename = db.prepare('INSERT OR REPLACE INTO branch_renames (repo_id, old_name, new_name) VALUES (@repoId, @from, @to)');
	// A user's primary address or one of its verified added ones (user_emails).
	const userByEmail = db.prepare(`
		SELECT * FROM accounts WHERE type = 'User'
		  AND (email = @email COLLATE NOCASE OR id IN (SELECT user_id FROM user_emails WHERE email = @email AND verified = 1))
		ORDER BY id LIMIT 1`);

	return {
		/** The repository's branches by name, optionally only the protected (true) or unprotected (false) ones. */
		list(repoId: number, protectedOnly: boolean | null, limit: number, offset: number): { rows: BranchRow[]; total: number } {
			const filter = { repoId, protected: protectedOnly === null ? null : protectedOnly ? 1 : 0, limit, offset };
			const rows = (list.all(filter) as Array<{ name: string; sha: string; protected: number }>).map((row) => ({
				...row,
				protected: row.protected === 1,
			}));
			return { rows, total: count.get(filter) as number };
		},
		/** The branches whose head is `sha`, by name. */
		headsAt: (repoId: number, sha: string) =>
			(headsAt.all({ repoId, sha }) as Array<{ name: string; sha: string; protected: number }>).map((row) => ({
				...row,
				protected: row.protected === 1,
			})) as BranchRow[],
		protection: (repoId: number, branch: string) => parse(protection.get(repoId, branch) as StoredProtection | undefined),
		/** A protection of the repository by its id (the web's rule pages). */
		protectionById: (repoId: number, id: number) => parse(protectionById.get(repoId, id) as StoredProtection | undefined),
		/** Creates or replaces a branch's protection. @param now ISO timestamp @returns the saved row */
		saveProtection(repoId: number, branch: string, settings: ProtectionSettings, now: string): ProtectionRow {
			upsert.run({ repoId, branch, settings: JSON.stringify(settings), now });
			return parse(protection.get(repoId, branch) as StoredProtection)!;
		},
		removeProtection: (repoId: number, branch: string) => remove.run(repoId, branch).changes > 0,
		/** A renamed branch keeps its protection. @param now ISO timestamp */
		renameProtection: (repoId: number, from: string, to: string, now: string) => void rename.run({ repoId, from, to, now }),
		/** The state of each named check run on `sha` (the newest workflow job or app check run of that name); names without one are left out. */
		checkRuns(repoId: number, sha: string, names: string[]): Map<string, CheckRunState> {
			const found = new Map<string, CheckRunState>();
			for (const row of checkRuns.all({ repoId, sha, names: JSON.stringify(names) }) as CheckRunState[]) found.set(row.name, row);
			return found;
		},
		/** The name a renamed branch has now, or undefined. */
		renamedTo: (repoId: number, name: string) => renamedTo.get(repoId, name) as string | undefined,
		/** Remembers a rename: `from` (and every older name of it) now leads to `to`; `to` is no longer an old name. */
		recordRename(repoId: number, from: string, to: string): void {
			const names = { repoId, from, to };
			dropRename.run(names);
			followRename.run(names);
			insertRename.run(names);
		},
		/** The user whose primary or verified added email is `email` (case-insensitive), for a commit's author and committer. */
		userByEmail: (email: string) => userByEmail.get({ email }) as AccountRow | undefined,
	};
}
