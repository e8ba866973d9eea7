/**
 * The files of the blob folder (config storage.blob_dir) a database refers to, shared by
 * `gitstead admin backup` (which copies them) and `gitstead admin check` (which checks them).
 */
import type { DB } from '../db/open';

/** The blob-folder subfolders whose files belong to database rows; other files are copied as they are. */
export const MANAGED_BLOB_FOLDERS = ['release-assets', 'migrations'] as const;

/** One file a row names. */
export interface BlobReference {
	/** Path relative to the blob folder, with forward slashes (e.g. "release-assets/ab12…"). */
	path: string;
	/** Bytes the row records, or null when it records none (migration archives). */
	size: number | null;
	/** What refers to it, for messages: "release asset 12". */
	owner: string;
}

function hasColumn(db: DB, table: string, column: string): boolean {
	const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
	return columns.includes(column);
}

/**
 * Every blob a database's rows name: release assets (`<blob_dir>/release-assets/<blob>`) and
 * migration archives not yet deleted (`<blob_dir>/migrations/<archive_path>`). Tables or columns an
 * older schema lacks are skipped. Names that would leave their folder ("..", "/") are returned as
 * they are; callers refuse them (see isSafeBlobPath).
 */
export function blobReferences(db: DB): BlobReference[] {
	const references: BlobReference[] = [];
	if (hasColumn(db, 'release_assets', 'blob')) {
		for (const row of db.prepare('SELECT id, blob, size FROM release_assets ORDER BY id').all() as {
			id: number;
			blob: string;
			size: number;
		}[]) {
			references.push({ path: `release-assets/${row.blob}`, size: row.size, owner: `release asset ${row.id}` });
		}
	}
	if (hasColumn(db, 'migrations', 'archive_path')) {
		const rows = db
			.prepare('SELECT id, archive_path FROM migrations WHERE archive_path IS NOT NULL AND archive_deleted_at IS NULL ORDER BY id')
			.all() as { id: number; archive_path: string }[];
		for (const row of rows) references.push({ path: `migrations/${row.archive_path}`, size: null, owner: `migration ${row.id}` });
	}
	return references;
}

/** True when a reference's path stays inside its managed folder (one plain file name). */
export function isSafeBlobPath(path: string): boolean {
	const [folder, name, extra] = path.split('/');
	return (
		(MANAGED_BLOB_FOLDERS as readonly string[]).includes(folder) &&
		!!name &&
		extra === undefined &&
		name !== '.' &&
		name !== '..' &&
		!name.includes('\\')
	);
}
