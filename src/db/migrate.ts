/**
 * Brings a database to the current schema: a fresh file gets schema.sql, an older one the
 * upgrade steps of migrations.ts in order, all in one transaction.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { schemaSql } from '../build-info';
import type { DB } from './open';
import { migrations as allMigrations, SCHEMA_VERSION, type Migration, type UpgradeTools } from './migrations';

export interface MigrationResult {
	from: number;
	to: number;
	created: boolean;
	/** The copy of the database taken before upgrade steps ran (backupBeforeUpgrade), if any. */
	backup?: string | null;
}

/**
 * Before upgrade steps run on an existing database, copies it (VACUUM INTO: one consistent, compact
 * file) to `<folder>/gitstead-v{from}-{time}.db`. Synchronous: the server is not serving yet.
 * @param folder where copies go (created when missing), normally `<data-dir>/backups`
 * @returns the copy's path, or null when no step will run (new, current or newer database)
 * @throws Error naming the folder and the reason when the copy fails; the upgrade must not start
 */
export function backupBeforeUpgrade(db: DB, folder: string, target = SCHEMA_VERSION, now = new Date()): string | null {
	const from = db.pragma('user_version', { simple: true }) as number;
	if (from === 0 || from >= target) return null;
	const stamp = now
		.toISOString()
		.replace(/\.\d+Z$/, 'Z')
		.replace(/[-:]/g, '');
	const file = join(folder, `gitstead-v${from}-${stamp}.db`);
	try {
		mkdirSync(folder, { recursive: true });
		db.prepare('VACUUM INTO ?').run(file);
	} catch (error) {
		throw new Error(
			`cannot back up the database to ${file} before upgrading it from schema version ${from} to ${target} ` +
				`(${(error as Error).message}); the upgrade was not started: free space or fix the folder's permissions, then start again`,
		);
	}
	return file;
}

/**
 * Applies schema.sql or the pending upgrade steps.
 * @param tools what the steps need from above the database layer (e.g. the Markdown renderer)
 * @throws Error when the database was written by a newer Gitstead (user_version too high).
 */
export function migrate(db: DB, tools: UpgradeTools, steps: Migration[] = allMigrations, target = SCHEMA_VERSION): MigrationResult {
	const from = db.pragma('user_version', { simple: true }) as number;
	if (from > target) {
		throw new Error(
			`the database is at schema version ${from}, newer than this Gitstead (${target}); ` +
				'run the Gitstead version that wrote it, or restore a backup',
		);
	}
	if (from === target) return { from, to: target, created: false };
	db.transaction(() => {
		if (from === 0) {
			const tables = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number;
			if (tables > 0) throw new Error('the database has tables but no schema version; it is not a Gitstead database');
			db.exec(schemaSql());
		} else {
			for (const step of steps) if (step.version > from && step.version <= target) step.up(db, tools);
		}
		db.pragma(`user_version = ${target}`);
	}).immediate();
	return { from, to: target, created: from === 0 };
}
