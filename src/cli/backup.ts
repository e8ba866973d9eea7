/**
 * `gitstead admin backup FILE` and `gitstead admin restore FILE`: one .tar.gz archive holding a
 * consistent copy of the database and the blobs it refers to, taken while a server serves and
 * writes; and its restoration, checked before anything is touched.
 *
 * The archive's entries, in order: `manifest.json` (a BackupManifest: versions, counts, and the
 * size and SHA-256 of every other entry), `gitstead.db` (a self-contained SQLite file, rollback
 * journal), and `blobs/…` (the blob folder: the release assets and migration archives the database
 * names, and any other file of the folder).
 *
 * Consistency: the database is copied first, with SQLite's online backup API from a connection that
 * holds one read transaction for the whole copy. In WAL mode that snapshot blocks no writer, and the
 * copy never restarts however much the server writes meanwhile; it holds everything committed before
 * it began. The blobs copied are the ones that snapshot names: a blob is written before the row that
 * names it commits, so each is complete; one deleted since (its row deleted after the snapshot) is
 * reported as a warning and left out; files created since are not named and are left out.
 */
import { createHash } from 'node:crypto';
import {
	accessSync,
	closeSync,
	constants,
	copyFileSync,
	createReadStream,
	existsSync,
	fsyncSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type * as Tar from 'tar';
import { version } from '../build-info';
import type { Resolved } from '../config';
import { acquireDataDirLock, DataDirLockedError, LOCK_DESCRIPTION_FILE, LOCK_FILE, type DataDirLock } from '../db/lock';
import { SCHEMA_VERSION } from '../db/migrations';
import { openDatabase, type DB } from '../db/open';
import { blobReferences, isSafeBlobPath, MANAGED_BLOB_FOLDERS } from './blob-refs';
import { CliError, type Output } from './output';

/** tar, loaded at its first use: its module body is not run by a start. */
let tarLibrary: typeof Tar | undefined;
const tar = () => (tarLibrary ??= require('tar') as typeof Tar);

/** The `format` of every Gitstead backup manifest. */
export const BACKUP_FORMAT = 'gitstead-backup';
/** The manifest layout this Gitstead writes and reads. */
export const BACKUP_FORMAT_VERSION = 1;

/** One archived file. */
export interface ManifestFile {
	/** Path inside the archive, forward slashes ("gitstead.db", "blobs/release-assets/…"). */
	path: string;
	/** Bytes. */
	size: number;
	/** Lowercase hex SHA-256 of the contents. */
	sha256: string;
}

/** manifest.json, the archive's first entry. */
export interface BackupManifest {
	format: typeof BACKUP_FORMAT;
	format_version: number;
	/** Gitstead version that wrote the archive. */
	gitstead_version: string;
	/** The database's user_version. */
	schema_version: number;
	/** ISO 8601 time the database snapshot was taken. */
	created_at: string;
	/** Rows of the main tables in the snapshot (tables an older schema lacks are left out). */
	counts: Record<string, number>;
	database: ManifestFile;
	blobs: ManifestFile[];
	/** Referenced blobs that were missing when copied, and the like. */
	warnings: string[];
}

/** Options every admin command accepts beside its own (parseArgs shape). */
type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/**
 * An admin command that runs on the configuration rather than an opened application: it opens (or
 * replaces) the data folder itself, and may run asynchronously.
 */
export interface StorageCommand {
	options: Options;
	/** Positional argument names; '[NAME]' is optional. */
	positionals: string[];
	/** Runs the command; its exit code is process.exitCode (0 unless set). @throws CliError */
	standalone(config: Resolved, values: Record<string, string | boolean | undefined>, positionals: string[], out: Output): Promise<void>;
}

/** The tables counted in a manifest and by restore: name → SQL. */
const COUNTS: Record<string, string> = {
	users: "SELECT count(*) FROM accounts WHERE type = 'User'",
	organizations: "SELECT count(*) FROM accounts WHERE type = 'Organization'",
	enterprises: 'SELECT count(*) FROM enterprises',
	teams: 'SELECT count(*) FROM teams',
	repositories: 'SELECT count(*) FROM repositories',
	issues: 'SELECT count(*) FROM issues',
	pull_requests: 'SELECT count(*) FROM pull_requests',
	comments: 'SELECT count(*) FROM issue_comments',
	releases: 'SELECT count(*) FROM releases',
	release_assets: 'SELECT count(*) FROM release_assets',
	gists: 'SELECT count(*) FROM gists',
	git_objects: 'SELECT count(*) FROM git_objects',
	tokens: 'SELECT count(*) FROM tokens',
	hooks: 'SELECT count(*) FROM global_webhooks',
	deliveries: 'SELECT count(*) FROM webhook_deliveries',
	apps: 'SELECT count(*) FROM apps',
};

/** Row counts of the main tables (a table the schema lacks is left out). */
export function countRows(db: DB): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const [name, sql] of Object.entries(COUNTS)) {
		try {
			counts[name] = db.prepare(sql).pluck().get() as number;
		} catch {
			// An older schema without this table.
		}
	}
	return counts;
}

/** SHA-256 (hex) and size of a file, streamed; `onBytes` is told of each chunk's length. */
async function hashFile(file: string, onBytes: (bytes: number) => void = () => {}): Promise<{ sha256: string; size: number }> {
	const hash = createHash('sha256');
	let size = 0;
	for await (const chunk of createReadStream(file)) {
		hash.update(chunk as Buffer);
		size += (chunk as Buffer).length;
		onBytes((chunk as Buffer).length);
	}
	return { sha256: hash.digest('hex'), size };
}

/** Every file below `folder`, as paths relative to it with forward slashes. */
function walk(folder: string, prefix = ''): string[] {
	const files: string[] = [];
	let entries;
	try {
		entries = readdirSync(join(folder, prefix), { withFileTypes: true });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return files;
		throw error;
	}
	for (const entry of entries) {
		const path = prefix ? `${prefix}/${entry.name}` : entry.name;
		if (entry.isDirectory()) files.push(...walk(folder, path));
		else if (entry.isFile()) files.push(path);
	}
	return files;
}

/** Hard-links (or, across file systems, copies) a file. @returns false when the source is gone */
function linkOrCopy(source: string, target: string): boolean {
	mkdirSync(dirname(target), { recursive: true });
	try {
		linkSync(source, target);
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') return false;
		if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
	}
	try {
		copyFileSync(source, target);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
		throw error;
	}
}

/** Writes progress on one terminal line of standard error (only when it is a terminal). */
function progressLine(enabled: boolean): { show(text: string): void; done(): void } {
	let shown = false;
	return {
		show(text) {
			if (!enabled) return;
			process.stderr.write(`\r${text}\x1b[K`);
			shown = true;
		},
		done() {
			if (shown) process.stderr.write('\r\x1b[K');
		},
	};
}

const percent = (done: number, total: number) => (total <= 0 ? 100 : Math.min(100, Math.floor((done / total) * 100)));

/** "2026-11-24T06-37-34Z": an ISO time usable in a file name. */
export function fileStamp(date = new Date()): string {
	return date
		.toISOString()
		.replace(/\.\d+Z$/, 'Z')
		.replace(/:/g, '-');
}

/** What a backup made (the --json summary). */
export interface BackupSummary {
	file: string;
	/** Archive bytes. */
	bytes: number;
	/** SHA-256 (hex) of the archive file. */
	sha256: string;
	schema_version: number;
	created_at: string;
	counts: Record<string, number>;
	blobs: number;
	warnings: string[];
	/** Milliseconds the whole backup took. */
	duration_ms: number;
}

/**
 * Writes a backup archive of the configured data folder to `file` (through `file.tmp`, renamed when
 * complete), beside a running server.
 * @param options.force overwrite an existing file
 * @param options.progress show progress on standard error
 * @throws CliError when the file exists (without force), the database is missing, or copying fails
 */
export async function backupDataFolder(
	config: Resolved,
	file: string,
	options: { force?: boolean; progress?: boolean } = {},
): Promise<BackupSummary> {
	const started = Date.now();
	const target = resolve(file);
	if (existsSync(target) && !options.force) throw new CliError(`${target} already exists; pass --force to overwrite it`);
	if (!existsSync(config.databaseFile)) throw new CliError(`there is no database at ${config.databaseFile} (see --data-dir)`);
	if (!existsSync(dirname(target))) throw new CliError(`the folder ${dirname(target)} does not exist`);
	const progress = progressLine(options.progress === true);
	const partial = `${target}.tmp`;
	const staging = mkdtempSync(join(dirname(target), `.${basename(target)}.staging-`));
	try {
		// 1. The database, from one read snapshot (see the module comment).
		const snapshotFile = join(staging, 'gitstead.db');
		const source = openDatabase(config.databaseFile, { mustExist: true, busyTimeoutMs: config.storage.busy_timeout_ms });
		let createdAt: string;
		try {
			source.exec('BEGIN');
			source.prepare('SELECT count(*) FROM sqlite_master').get();
			createdAt = new Date().toISOString();
			await source.backup(snapshotFile, {
				progress({ totalPages, remainingPages }) {
					progress.show(`backing up the database: ${percent(totalPages - remainingPages, totalPages)}% of ${totalPages} pages`);
					return 1000; // pages per step; the event loop runs between steps
				},
			});
			source.exec('COMMIT');
		} catch (error) {
			throw new CliError(`cannot back up the database ${config.databaseFile}: ${(error as Error).message}`);
		} finally {
			source.close();
		}

		// 2. What the snapshot holds, and the blobs it names.
		const snapshot = openDatabase(snapshotFile, { mustExist: true });
		let schemaVersion: number;
		let counts: Record<string, number>;
		let references;
		try {
			// A self-contained file: no WAL beside it.
			snapshot.pragma('journal_mode = DELETE');
			schemaVersion = snapshot.pragma('user_version', { simple: true }) as number;
			counts = countRows(snapshot);
			references = blobReferences(snapshot);
		} finally {
			snapshot.close();
		}
		const warnings: string[] = [];
		const archived: string[] = [];
		if (config.blobDir !== null) {
			for (const reference of references) {
				if (!isSafeBlobPath(reference.path)) {
					warnings.push(`${reference.owner} names a blob outside its folder (${reference.path}); left out`);
					continue;
				}
				if (linkOrCopy(join(config.blobDir, reference.path), join(staging, 'blobs', reference.path))) archived.push(reference.path);
				else warnings.push(`${reference.owner}: its blob ${reference.path} is missing from ${config.blobDir}; left out`);
			}
			// Files outside the managed folders belong to no row this Gitstead knows: keep them as they are.
			for (const path of walk(config.blobDir)) {
				if ((MANAGED_BLOB_FOLDERS as readonly string[]).includes(path.split('/')[0])) continue;
				if (linkOrCopy(join(config.blobDir, path), join(staging, 'blobs', path))) archived.push(path);
			}
		} else if (references.length) {
			warnings.push(
				`the database names ${references.length} blobs but blob storage is off (storage.blob_dir = ""); they are left out`,
			);
		}

		// 3. Checksums and the manifest.
		const database = { path: 'gitstead.db', ...(await hashFile(snapshotFile)) };
		const blobFiles = archived.map((path) => join(staging, 'blobs', path));
		const totalBlobBytes = blobFiles.reduce((sum, path) => sum + statSync(path).size, 0);
		let blobBytes = 0;
		const blobs: ManifestFile[] = [];
		for (let i = 0; i < archived.length; i++) {
			const hashed = await hashFile(blobFiles[i], (bytes) => {
				blobBytes += bytes;
				progress.show(`backing up the blobs: ${percent(blobBytes, totalBlobBytes)}% of ${totalBlobBytes} bytes`);
			});
			blobs.push({ path: `blobs/${archived[i]}`, ...hashed });
		}
		const manifest: BackupManifest = {
			format: BACKUP_FORMAT,
			format_version: BACKUP_FORMAT_VERSION,
			gitstead_version: version,
			schema_version: schemaVersion,
			created_at: createdAt,
			counts,
			database,
			blobs,
			warnings,
		};
		writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, '\t')}\n`);

		// 4. The archive: manifest first, then the database, then the blobs.
		const total = database.size + totalBlobBytes;
		let written = 0;
		rmSync(partial, { force: true });
		await tar().c(
			{
				gzip: true,
				file: partial,
				cwd: staging,
				portable: true,
				onWriteEntry(entry) {
					written += entry.stat?.isFile() ? entry.stat.size : 0;
					progress.show(`writing the archive: ${percent(written, total)}%`);
				},
			},
			['manifest.json', 'gitstead.db', ...manifest.blobs.map((blob) => blob.path)],
		);
		const fd = openSync(partial, 'r');
		try {
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		renameSync(partial, target);
		progress.done();
		const archive = await hashFile(target);
		return {
			file: target,
			bytes: archive.size,
			sha256: archive.sha256,
			schema_version: schemaVersion,
			created_at: createdAt,
			counts,
			blobs: blobs.length,
			warnings,
			duration_ms: Date.now() - started,
		};
	} catch (error) {
		progress.done();
		rmSync(partial, { force: true });
		throw error;
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
}

/** Reads and checks an extracted archive's manifest. @throws CliError naming what is wrong */
function readManifest(folder: string, file: string): BackupManifest {
	let manifest: BackupManifest;
	try {
		manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as BackupManifest;
	} catch {
		throw new CliError(`${file} is not a Gitstead backup: it has no readable manifest.json`);
	}
	if (manifest?.format !== BACKUP_FORMAT || typeof manifest.format_version !== 'number') {
		throw new CliError(`${file} is not a Gitstead backup (its manifest.json has no format "${BACKUP_FORMAT}")`);
	}
	if (manifest.format_version > BACKUP_FORMAT_VERSION) {
		throw new CliError(
			`${file} has backup format ${manifest.format_version}, newer than this Gitstead reads (${BACKUP_FORMAT_VERSION}); restore it with a newer Gitstead`,
		);
	}
	if (!Number.isInteger(manifest.schema_version) || !manifest.database || !Array.isArray(manifest.blobs)) {
		throw new CliError(`${file} has an incomplete manifest.json`);
	}
	return manifest;
}

/**
 * Checks every extracted file against the manifest: present, of its size and SHA-256, and nothing
 * else. @throws CliError naming the first mismatch
 */
async function verifyExtracted(folder: string, manifest: BackupManifest, file: string): Promise<void> {
	const listed = [manifest.database, ...manifest.blobs];
	if (manifest.database.path !== 'gitstead.db')
		throw new CliError(`${file}: its manifest names the database "${manifest.database.path}"`);
	for (const entry of listed) {
		if (
			typeof entry?.path !== 'string' ||
			entry.path.split('/').some((part) => part === '..' || part === '') ||
			isAbsolute(entry.path)
		) {
			throw new CliError(`${file}: its manifest names an unsafe path`);
		}
		const path = join(folder, ...entry.path.split('/'));
		if (!existsSync(path)) throw new CliError(`${file} is damaged: ${entry.path} is listed in its manifest but missing`);
		const { sha256, size } = await hashFile(path);
		if (size !== entry.size || sha256 !== entry.sha256) {
			throw new CliError(
				`${file} is damaged or was altered: ${entry.path} does not match its manifest checksum (SHA-256 ${sha256}, expected ${entry.sha256})`,
			);
		}
	}
	const expected = new Set(['manifest.json', ...listed.map((entry) => entry.path)]);
	const extra = walk(folder).filter((path) => !expected.has(path));
	if (extra.length) throw new CliError(`${file} holds files its manifest does not list (${extra.slice(0, 3).join(', ')})`);
}

/** What a restore did (the --json summary). */
export interface RestoreSummary {
	file: string;
	data_dir: string;
	/** Where the data folder's previous contents went, or null when there were none. */
	previous_data: string | null;
	/** Where a blob folder outside the data folder went, or null. */
	previous_blobs: string | null;
	schema_version: number;
	created_at: string;
	counts: Record<string, number>;
	blobs: number;
	duration_ms: number;
}

/** True when a folder holds nothing but a data-folder lock (and its description). */
function onlyLock(folder: string): boolean {
	if (!existsSync(folder)) return true;
	return readdirSync(folder).every((name) => name === LOCK_FILE || name === LOCK_DESCRIPTION_FILE || name.startsWith(`${LOCK_FILE}-`));
}

/** Whether a folder can be renamed as a whole: not a mount point, in a folder this user may write. */
function renamable(folder: string): boolean {
	try {
		if (statSync(folder).dev !== statSync(dirname(folder)).dev) return false;
		accessSync(dirname(folder), constants.W_OK);
		return true;
	} catch {
		return false;
	}
}

/** Takes a folder's lock, as a CliError naming the server that holds it. */
async function lockFolder(folder: string): Promise<DataDirLock> {
	try {
		return await acquireDataDirLock(folder, version);
	} catch (error) {
		if (error instanceof DataDirLockedError) {
			throw new CliError(`${error.message.replace(/; stop it first.*$/, '')}; stop it before restoring into ${folder}`);
		}
		throw new CliError((error as Error).message);
	}
}

/**
 * Restores an archive into the configured data folder. Holds the folder's lock throughout (refuses
 * while a server runs there), extracts into a new folder beside it, verifies every file against the
 * manifest and runs PRAGMA integrity_check there, and only then swaps: the previous folder is moved
 * to `<data-dir>.before-restore-<time>` (kept), the new one takes its place. A folder that cannot be
 * renamed (a mount point; `inPlace`, detected when not given) is swapped entry by entry instead,
 * with `.restore-<time>` and `.before-restore-<time>` inside it.
 * @throws CliError (nothing changed) when a server holds the folder, the archive is damaged,
 *   altered, not a backup, or from a newer schema, or the restored database fails its check
 */
export async function restoreDataFolder(config: Resolved, file: string, options: { inPlace?: boolean } = {}): Promise<RestoreSummary> {
	const started = Date.now();
	const archive = resolve(file);
	if (!existsSync(archive)) throw new CliError(`there is no file ${archive}`);
	const dataDir = config.storage.data_dir;
	const stamp = fileStamp();
	const createdDataDir = !existsSync(dataDir);
	try {
		mkdirSync(dataDir, { recursive: true });
	} catch (error) {
		throw new CliError(`cannot create the data folder ${dataDir}: ${(error as Error).message}`);
	}
	// A data folder that cannot be renamed (a mount point, e.g. a container volume, or in a folder
	// this user cannot write) is swapped in place: its entries move, one rename each.
	const inPlace = options.inPlace ?? !renamable(dataDir);
	const staging = inPlace ? join(dataDir, `.restore-${stamp}`) : `${dataDir}.restore-${stamp}`;
	const aside = inPlace ? join(dataDir, `.before-restore-${stamp}`) : `${dataDir}.before-restore-${stamp}`;
	// A blob folder inside the data folder moves with it; one outside is swapped on its own.
	const blobInside = config.blobDir === null || !relative(dataDir, config.blobDir).startsWith('..');
	const blobStaging = config.blobDir !== null && !blobInside ? `${config.blobDir}.restore-${stamp}` : null;

	let dataLock: DataDirLock;
	try {
		dataLock = await lockFolder(dataDir);
	} catch (error) {
		if (createdDataDir) rmSync(dataDir, { recursive: true, force: true });
		throw error;
	}
	let stagingLock: DataDirLock | null = null;
	let swapped = false;
	try {
		mkdirSync(staging);
		try {
			await tar().x({
				file: archive,
				cwd: staging,
				strict: true,
				// Plain files and folders only: no links, devices or absolute paths.
				filter: (_path, entry) => {
					const type = (entry as Tar.ReadEntry).type;
					return type === 'File' || type === 'OldFile' || type === 'Directory';
				},
			});
		} catch (error) {
			throw new CliError(`${archive} is not a readable backup archive: ${(error as Error).message}`);
		}
		const manifest = readManifest(staging, archive);
		if (manifest.schema_version > SCHEMA_VERSION) {
			throw new CliError(
				`${archive} holds schema version ${manifest.schema_version}, newer than this Gitstead (${version}, schema version ${SCHEMA_VERSION}); restore it with the Gitstead that wrote it (${manifest.gitstead_version}) or a newer one`,
			);
		}
		await verifyExtracted(staging, manifest, archive);
		const restored = openDatabase(join(staging, 'gitstead.db'), { mustExist: true });
		let counts: Record<string, number>;
		try {
			const result = restored.pragma('integrity_check', { simple: true });
			if (result !== 'ok') throw new CliError(`the database in ${archive} fails PRAGMA integrity_check: ${String(result)}`);
			const schema = restored.pragma('user_version', { simple: true }) as number;
			if (schema !== manifest.schema_version)
				throw new CliError(
					`the database in ${archive} is at schema version ${schema}, its manifest says ${manifest.schema_version}`,
				);
			counts = countRows(restored);
		} finally {
			restored.close();
		}
		rmSync(join(staging, 'manifest.json'));
		// Lay the blobs out as configured.
		if (existsSync(join(staging, 'blobs'))) {
			if (config.blobDir === null) rmSync(join(staging, 'blobs'), { recursive: true });
			else if (blobStaging) renameSync(join(staging, 'blobs'), blobStaging);
			else if (resolve(staging, relative(dataDir, config.blobDir)) !== join(staging, 'blobs')) {
				const target = resolve(staging, relative(dataDir, config.blobDir));
				mkdirSync(dirname(target), { recursive: true });
				renameSync(join(staging, 'blobs'), target);
			}
		}

		if (inPlace) {
			// The swap, entry by entry, under the folder's lock (which stays where it is).
			mkdirSync(aside);
			const keep = (name: string) =>
				name === basename(staging) ||
				name === basename(aside) ||
				name.startsWith('.before-restore-') ||
				name === LOCK_FILE ||
				name === LOCK_DESCRIPTION_FILE ||
				name.startsWith(`${LOCK_FILE}-`);
			for (const name of readdirSync(dataDir)) if (!keep(name)) renameSync(join(dataDir, name), join(aside, name));
			swapped = true;
			for (const name of readdirSync(staging)) renameSync(join(staging, name), join(dataDir, name));
			rmSync(staging, { recursive: true });
		} else {
			// The swap. The new folder is locked first, so no server starts on it once it is in place.
			stagingLock = await lockFolder(staging);
			renameSync(dataDir, aside);
			renameSync(staging, dataDir);
			swapped = true;
		}
		let previousBlobs: string | null = null;
		if (blobStaging && config.blobDir) {
			if (existsSync(config.blobDir)) {
				previousBlobs = `${config.blobDir}.before-restore-${stamp}`;
				renameSync(config.blobDir, previousBlobs);
			}
			renameSync(blobStaging, config.blobDir);
		}
		// Our lock descriptions, at their new places, are ours to remove while the locks are held.
		if (!inPlace) {
			rmSync(join(dataDir, LOCK_DESCRIPTION_FILE), { force: true });
			rmSync(join(aside, LOCK_DESCRIPTION_FILE), { force: true });
		}
		let previousData: string | null = aside;
		if (onlyLock(aside)) {
			rmSync(aside, { recursive: true, force: true });
			previousData = null;
		}
		return {
			file: archive,
			data_dir: dataDir,
			previous_data: previousData,
			previous_blobs: previousBlobs,
			schema_version: manifest.schema_version,
			created_at: manifest.created_at,
			counts,
			blobs: manifest.blobs.length,
			duration_ms: Date.now() - started,
		};
	} finally {
		stagingLock?.release();
		dataLock.release();
		if (!swapped) {
			rmSync(staging, { recursive: true, force: true });
			if (blobStaging) rmSync(blobStaging, { recursive: true, force: true });
			if (createdDataDir && onlyLock(dataDir)) rmSync(dataDir, { recursive: true, force: true });
		}
	}
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** backup and restore, registered in ADMIN_COMMANDS (src/cli/admin.ts). */
export const BACKUP_COMMANDS: Record<string, StorageCommand> = {
	backup: {
		options: { force: { type: 'boolean' } },
		positionals: ['FILE'],
		async standalone(config, values, [file], out) {
			const json = values.json === true;
			const summary = await backupDataFolder(config, file, {
				force: values.force === true,
				progress: !json && process.stderr.isTTY === true,
			});
			const lines = [
				`backed up ${config.storage.data_dir} to ${summary.file} (${summary.bytes} bytes, schema version ${summary.schema_version}, ` +
					`${summary.counts.repositories ?? 0} repositories, ${plural(summary.blobs, 'blob')}, ${summary.duration_ms} ms)`,
				`sha256 ${summary.sha256}`,
				...summary.warnings.map((warning) => `warning: ${warning}`),
			];
			out.result(summary, lines.join('\n'));
		},
	},
	restore: {
		options: {},
		positionals: ['FILE'],
		async standalone(config, _values, [file], out) {
			const summary = await restoreDataFolder(config, file);
			const previous = summary.previous_data
				? `; the previous data is in ${summary.previous_data}${summary.previous_blobs ? ` and its blobs in ${summary.previous_blobs}` : ''}`
				: '';
			out.result(
				summary,
				`restored ${summary.file} (taken ${summary.created_at}, schema version ${summary.schema_version}) into ${summary.data_dir}${previous}` +
					(summary.schema_version < SCHEMA_VERSION
						? `\nthe server upgrades it to schema version ${SCHEMA_VERSION} when it starts`
						: ''),
			);
		},
	},
};
