/**
 * Prepared statements for dependency snapshots, their manifests and resolved packages
 * (schema.sql, block "dependency graph").
 */
import type { DB } from '../../db/open';

export interface SnapshotRow {
	id: number;
	repo_id: number;
	version: number;
	job_id: string;
	job_correlator: string;
	job_html_url: string | null;
	sha: string;
	ref: string;
	detector_name: string;
	detector_version: string;
	detector_url: string;
	metadata: string;
	scanned: string;
	created_at: string;
}

export interface PackageRow {
	snapshot_id: number;
	manifest_path: string;
	package_url: string;
	ecosystem: string;
	name: string;
	version: string | null;
	relationship: 'direct' | 'indirect' | null;
	scope: 'runtime' | 'development' | null;
	metadata: string;
}

export interface NewSnapshot extends Omit<SnapshotRow, 'id' | 'created_at'> {
	manifests: Array<{
		key: string;
		name: string;
		path: string;
		metadata: string;
		packages: Array<Omit<PackageRow, 'snapshot_id' | 'manifest_path'> & { dependencies: string }>;
	}>;
}

export type DependencyGraphStore = ReturnType<typeof createDependencyGraphStore>;

export function createDependencyGraphStore(db: DB) {
	const insertSnapshot = db.prepare(`
		INSERT INTO dependency_snapshots (repo_id, version, job_id, job_correlator, job_html_url, sha, ref, detector_name, detector_version,
			detector_url, metadata, scanned, created_at)
		VALUES (@repo_id, @version, @job_id, @job_correlator, @job_html_url, @sha, @ref, @detector_name, @detector_version,
			@detector_url, @metadata, @scanned, @created_at)`);
	const insertManifest = db.prepare('INSERT INTO dependency_manifests (snapshot_id, key, name, path, metadata) VALUES (?, ?, ?, ?, ?)');
	const insertPackage = db.prepare(`
		INSERT INTO dependency_packages (manifest_id, package_url, ecosystem, name, version, relationship, scope, metadata, dependencies)
		VALUES (@manifest_id, @package_url, @ecosystem, @name, @version, @relationship, @scope, @metadata, @dependencies)`);
	const byId = db.prepare('SELECT * FROM dependency_snapshots WHERE id = ?');
	const repositories = db.prepare('SELECT DISTINCT repo_id FROM dependency_snapshots').pluck();
	// The latest snapshot of each (correlator, detector) submitted for a ref.
	const latestForRef = db.prepare(`
		SELECT s.* FROM dependency_snapshots s
		WHERE s.id IN (SELECT max(id) FROM dependency_snapshots WHERE repo_id = ? AND ref = ? GROUP BY job_correlator, detector_name)`);
	// Snapshots submitted for any of the given commits.
	const forCommits = db.prepare(
		'SELECT * FROM dependency_snapshots WHERE repo_id = ? AND sha IN (SELECT value FROM json_each(?)) ORDER BY id',
	);
	const manifests = db.prepare(
		'SELECT snapshot_id, path FROM dependency_manifests WHERE snapshot_id IN (SELECT value FROM json_each(?)) ORDER BY id',
	);
	const packages = db.prepare(`
		SELECT m.snapshot_id, m.path AS manifest_path, p.package_url, p.ecosystem, p.name, p.version, p.relationship, p.scope, p.metadata
		FROM dependency_manifests m JOIN dependency_packages p ON p.manifest_id = m.id
		WHERE m.snapshot_id IN (SELECT value FROM json_each(?))
		ORDER BY m.id, p.rowid`);

	return {
		/** Stores a snapshot with its manifests and packages (call inside a transaction). */
		insert(snapshot: NewSnapshot, createdAt: string): SnapshotRow {
			const { manifests, ...row } = snapshot;
			const id = Number(insertSnapshot.run({ ...row, created_at: createdAt }).lastInsertRowid);
			for (const manifest of manifests) {
				const manifestId = insertManifest.run(id, manifest.key, manifest.name, manifest.path, manifest.metadata).lastInsertRowid;
				for (const pkg of manifest.packages) insertPackage.run({ ...pkg, manifest_id: manifestId });
			}
			return byId.get(id) as SnapshotRow;
		},
		/** Ids of the repositories that have snapshots. */
		repositories: () => repositories.all() as number[],
		latestForRef: (repoId: number, ref: string) => latestForRef.all(repoId, ref) as SnapshotRow[],
		forCommits: (repoId: number, shas: string[]) => forCommits.all(repoId, JSON.stringify(shas)) as SnapshotRow[],
		/** The manifests (snapshot id, path) of several snapshots. */
		manifests: (snapshotIds: number[]) => manifests.all(JSON.stringify(snapshotIds)) as Array<{ snapshot_id: number; path: string }>,
		/** The packages of several snapshots, each with its snapshot id and manifest path. */
		packages: (snapshotIds: number[]) => packages.all(JSON.stringify(snapshotIds)) as PackageRow[],
	};
}
