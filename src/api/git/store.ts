/**
 * Prepared statements for git objects, the commit graph and references of repositories
 * (schema.sql, block "git objects"). Objects are content-addressed per repository: writing an
 * object that exists already is a no-op.
 */
import type { DB } from '../../db/open';
import type { ObjectType } from './objects';

/** An object's type and size without its content. */
export interface ObjectMeta {
	sha: string;
	type: ObjectType;
	/** Bytes of content. */
	size: number;
}

export interface ObjectRow extends ObjectMeta {
	content: Buffer;
}

export interface RefRow {
	name: string;
	sha: string;
	/** Type of the object the reference points to. */
	type: ObjectType;
}

export type GitStore = ReturnType<typeof createGitStore>;

export function createGitStore(db: DB) {
	const object = db.prepare('SELECT sha, type, size, content FROM git_objects WHERE repo_id = ? AND sha = ?');
	const meta = db.prepare('SELECT sha, type, size FROM git_objects WHERE repo_id = ? AND sha = ?');
	const metas = db.prepare('SELECT sha, type, size FROM git_objects WHERE repo_id = ? AND sha IN (SELECT value FROM json_each(?))');
	// Abbreviated ids: every id in [prefix, prefix + 'g') starts with the prefix (hex digits sort below 'g').
	const byPrefix = db.prepare(
		"SELECT sha, type, size FROM git_objects WHERE repo_id = ? AND sha >= ? AND sha < ? || 'g' ORDER BY sha LIMIT ?",
	);
	const insertObject = db.prepare(
		'INSERT INTO git_objects (repo_id, sha, type, size, content, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (repo_id, sha) DO NOTHING',
	);
	const anyCommit = db.prepare("SELECT 1 FROM git_objects WHERE repo_id = ? AND type = 'commit' LIMIT 1").pluck();
	const insertParent = db.prepare(
		'INSERT INTO git_commit_parents (repo_id, commit_sha, position, parent_sha) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
	);
	const parents = db.prepare('SELECT parent_sha FROM git_commit_parents WHERE repo_id = ? AND commit_sha = ? ORDER BY position').pluck();
	// The commit and every commit reachable from it through parents. CROSS JOIN keeps the loop order:
	// each queued commit looks up its parents by primary key (a plain JOIN let SQLite scan every parent
	// row of the repository per queued commit: quadratic, 1.8 s for 5,000 commits instead of ~10 ms).
	const ancestors = db
		.prepare(`
		WITH RECURSIVE reach(sha) AS (
			SELECT @sha UNION SELECT p.parent_sha FROM reach r CROSS JOIN git_commit_parents p ON p.repo_id = @repoId AND p.commit_sha = r.sha
		)
		SELECT sha FROM reach`)
		.pluck();
	const reaches = db
		.prepare(`
		WITH RECURSIVE reach(sha) AS (
			SELECT @from UNION SELECT p.parent_sha FROM reach r CROSS JOIN git_commit_parents p ON p.repo_id = @repoId AND p.commit_sha = r.sha
		)
		SELECT 1 FROM reach WHERE sha = @to LIMIT 1`)
		.pluck();

	const ref = db.prepare(`
		SELECT r.name, r.sha, o.type FROM git_refs r JOIN git_objects o ON o.repo_id = r.repo_id AND o.sha = r.sha
		WHERE r.repo_id = ? AND r.name = ?`);
	const matching = db.prepare(`
		SELECT r.name, r.sha, o.type FROM git_refs r JOIN git_objects o ON o.repo_id = r.repo_id AND o.sha = r.sha
		WHERE r.repo_id = @repoId AND substr(r.name, 1, length(@prefix)) = @prefix ORDER BY r.name LIMIT @limit OFFSET @offset`);
	const countMatching = db
		.prepare('SELECT count(*) FROM git_refs WHERE repo_id = @repoId AND substr(name, 1, length(@prefix)) = @prefix')
		.pluck();
	// git's ref advertisement (src/api/git/transport.ts): every branch and tag, and each pull request's head.
	const advertised = db.prepare(`
		SELECT r.name, r.sha, o.type FROM git_refs r JOIN git_objects o ON o.repo_id = r.repo_id AND o.sha = r.sha
		WHERE r.repo_id = ? AND (substr(r.name, 1, 11) = 'refs/heads/' OR substr(r.name, 1, 10) = 'refs/tags/') ORDER BY r.name`);
	const pullHeads = db.prepare(`
		SELECT i.number, p.head_sha AS sha FROM pull_requests p JOIN issues i ON i.id = p.issue_id
		WHERE p.repo_id = ? AND EXISTS (SELECT 1 FROM git_objects o WHERE o.repo_id = p.repo_id AND o.sha = p.head_sha) ORDER BY i.number`);
	const insertRef = db.prepare('INSERT INTO git_refs (repo_id, name, sha, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
	const updateRef = db.prepare('UPDATE git_refs SET sha = ?, updated_at = ? WHERE repo_id = ? AND name = ?');
	const deleteRef = db.prepare('DELETE FROM git_refs WHERE repo_id = ? AND name = ?');
	// A fork starts with its parent's objects, commit graph and references.
	const copyObjects = db.prepare(`
		INSERT INTO git_objects (repo_id, sha, type, size, content, created_at)
		SELECT @to, sha, type, size, content, created_at FROM git_objects WHERE repo_id = @from`);
	const copyParents = db.prepare(`
		INSERT INTO git_commit_parents (repo_id, commit_sha, position, parent_sha)
		SELECT @to, commit_sha, position, parent_sha FROM git_commit_parents WHERE repo_id = @from`);
	const copyRefs = db.prepare(`
		INSERT INTO git_refs (repo_id, name, sha, created_at, updated_at)
		SELECT @to, name, sha, created_at, updated_at FROM git_refs WHERE repo_id = @from`);
	// The repository record belongs to the repos area; a branch push only moves its pushed_at.
	const touchPushed = db.prepare('UPDATE repositories SET pushed_at = ? WHERE id = ?');

	return {
		object: (repoId: number, sha: string) => object.get(repoId, sha) as ObjectRow | undefined,
		meta: (repoId: number, sha: string) => meta.get(repoId, sha) as ObjectMeta | undefined,
		/** Type and size of each stored object among `shas` (unknown ids are left out). */
		metas: (repoId: number, shas: string[]) => metas.all(repoId, JSON.stringify(shas)) as ObjectMeta[],
		/** Objects whose id starts with `prefix` (lowercase hex), at most `limit`. */
		byPrefix: (repoId: number, prefix: string, limit: number) => byPrefix.all(repoId, prefix, prefix, limit) as ObjectMeta[],
		/**
		 * Stores an object (no-op when it exists); a commit's parents go to the commit graph too.
		 * @param now ISO timestamp
		 */
		insert(repoId: number, sha: string, type: ObjectType, content: Buffer, now: string, commitParents: string[] = []): void {
			if (insertObject.run(repoId, sha, type, content.length, content, now).changes === 0) return;
			commitParents.forEach((parent, position) => {
				insertParent.run(repoId, sha, position, parent);
			});
		},
		/** True when the repository holds at least one commit (else GitHub calls it empty). */
		hasCommits: (repoId: number) => anyCommit.get(repoId) === 1,
		parents: (repoId: number, sha: string) => parents.all(repoId, sha) as string[],
		/** `sha` and every commit reachable from it. */
		ancestors: (repoId: number, sha: string) => ancestors.all({ repoId, sha }) as string[],
		/** True when `to` is `from` or reachable from it through parents. */
		reaches: (repoId: number, from: string, to: string) => reaches.get({ repoId, from, to }) === 1,

		ref: (repoId: number, name: string) => ref.get(repoId, name) as RefRow | undefined,
		/** References whose full name starts with `prefix`, by name. */
		matchingRefs(repoId: number, prefix: string, limit: number, offset: number) {
			const filter = { repoId, prefix, limit, offset };
			return { rows: matching.all(filter) as RefRow[], total: countMatching.get(filter) as number };
		},
		/** Every refs/heads/* and refs/tags/* reference, by name. */
		advertisedRefs: (repoId: number) => advertised.all(repoId) as RefRow[],
		/** Each pull request's number and head commit, when the repository holds that commit (a fork's newer commits it does not). */
		pullHeads: (repoId: number) => pullHeads.all(repoId) as Array<{ number: number; sha: string }>,
		/** @param now ISO timestamp */
		insertRef: (repoId: number, name: string, sha: string, now: string) => void insertRef.run(repoId, name, sha, now, now),
		/** @param now ISO timestamp */
		updateRef: (repoId: number, name: string, sha: string, now: string) => void updateRef.run(sha, now, repoId, name),
		deleteRef: (repoId: number, name: string) => deleteRef.run(repoId, name).changes > 0,
		/** Copies every object, parent link and reference of repository `from` into the new repository `to` (a fork). */
		copyRepository(from: number, to: number): void {
			copyObjects.run({ from, to });
			copyParents.run({ from, to });
			copyRefs.run({ from, to });
		},
		/** Sets the repository's pushed_at. @param now ISO timestamp */
		touchPushed: (repoId: number, now: string) => void touchPushed.run(now, repoId),
	};
}
