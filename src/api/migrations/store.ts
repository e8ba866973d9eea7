/**
 * Prepared statements for organization migrations and their repositories.
 */
import type { DB } from '../../db/open';
import type { RepositoryRow } from '../../model/rows';

export interface MigrationRow {
	id: number;
	org_id: number;
	guid: string;
	state: 'pending' | 'exporting' | 'exported' | 'failed';
	lock_repositories: number;
	exclude_metadata: number;
	exclude_git_data: number;
	exclude_attachments: number;
	exclude_releases: number;
	exclude_owner_projects: number;
	org_metadata_only: number;
	exclude: string;
	archive_path: string | null;
	archive_deleted_at: string | null;
	failure: string | null;
	created_at: string;
	updated_at: string;
}

export type NewMigration = Omit<
	MigrationRow,
	'id' | 'state' | 'archive_path' | 'archive_deleted_at' | 'failure' | 'created_at' | 'updated_at'
>;

export type MigrationStore = ReturnType<typeof createMigrationStore>;

export function createMigrationStore(db: DB) {
	const get = db.prepare('SELECT * FROM migrations WHERE org_id = ? AND id = ?');
	const byId = db.prepare('SELECT * FROM migrations WHERE id = ?');
	const byGuid = db.prepare('SELECT * FROM migrations WHERE guid = ?');
	const list = db.prepare('SELECT * FROM migrations WHERE org_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
	const count = db.prepare('SELECT count(*) FROM migrations WHERE org_id = ?').pluck();
	const insert = db.prepare(`
		INSERT INTO migrations (org_id, guid, state, lock_repositories, exclude_metadata, exclude_git_data, exclude_attachments,
			exclude_releases, exclude_owner_projects, org_metadata_only, exclude, created_at, updated_at)
		VALUES (@org_id, @guid, 'pending', @lock_repositories, @exclude_metadata, @exclude_git_data, @exclude_attachments,
			@exclude_releases, @exclude_owner_projects, @org_metadata_only, @exclude, @now, @now)`);
	const addRepository = db.prepare('INSERT INTO migration_repositories (migration_id, repo_id, locked) VALUES (?, ?, ?)');
	const repositories = db.prepare(`
		SELECT r.* FROM migration_repositories m JOIN repositories r ON r.id = m.repo_id WHERE m.migration_id = ? ORDER BY r.id`);
	const repositoriesOf = db.prepare(`
		SELECT m.migration_id, r.* FROM migration_repositories m JOIN repositories r ON r.id = m.repo_id
		WHERE m.migration_id IN (SELECT value FROM json_each(?)) ORDER BY r.id`);
	const setState = db.prepare('UPDATE migrations SET state = ?, failure = ?, updated_at = ? WHERE id = ?');
	const setArchive = db.prepare(
		"UPDATE migrations SET state = 'exported', archive_path = ?, failure = NULL, updated_at = ? WHERE id = ?",
	);
	const deleteArchive = db.prepare('UPDATE migrations SET archive_path = NULL, archive_deleted_at = ?, updated_at = ? WHERE id = ?');
	const unlock = db.prepare('UPDATE migration_repositories SET locked = 0 WHERE migration_id = ? AND repo_id = ?');
	const locked = db.prepare('SELECT EXISTS (SELECT 1 FROM migration_repositories WHERE repo_id = ? AND locked = 1)').pluck();
	const expiring = db.prepare('SELECT * FROM migrations WHERE archive_path IS NOT NULL AND updated_at <= ?');

	return {
		get: (orgId: number, id: number) => get.get(orgId, id) as MigrationRow | undefined,
		byId: (id: number) => byId.get(id) as MigrationRow | undefined,
		byGuid: (guid: string) => byGuid.get(guid) as MigrationRow | undefined,
		list(orgId: number, limit: number, offset: number) {
			return { rows: list.all(orgId, limit, offset) as MigrationRow[], total: count.get(orgId) as number };
		},
		/** @param now ISO timestamp */
		insert(migration: NewMigration, repoIds: number[], now: string): MigrationRow {
			const id = Number(insert.run({ ...migration, now }).lastInsertRowid);
			for (const repoId of repoIds) addRepository.run(id, repoId, migration.lock_repositories);
			return byId.get(id) as MigrationRow;
		},
		repositories: (migrationId: number) => repositories.all(migrationId) as RepositoryRow[],
		/** Repositories of several migrations, with the migration each belongs to (one query). */
		repositoriesOf: (migrationIds: number[]) =>
			repositoriesOf.all(JSON.stringify(migrationIds)) as Array<RepositoryRow & { migration_id: number }>,
		/** @param now ISO timestamp */
		setState: (id: number, state: MigrationRow['state'], failure: string | null, now: string) =>
			void setState.run(state, failure, now, id),
		/** @param now ISO timestamp */
		setArchive: (id: number, path: string, now: string) => void setArchive.run(path, now, id),
		/** @param now ISO timestamp */
		deleteArchive: (id: number, now: string) => void deleteArchive.run(now, now, id),
		/** @returns false when the repository is not part of the migration */
		unlock: (migrationId: number, repoId: number) => unlock.run(migrationId, repoId).changes > 0,
		/** True while a migration holds the repository locked. */
		isLocked: (repoId: number) => (locked.get(repoId) as number) === 1,
		/** Migrations whose archive was last touched at or before `before` (ISO timestamp). */
		archivesBefore: (before: string) => expiring.all(before) as MigrationRow[],
	};
}
