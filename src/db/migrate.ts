/**
 * Brings a database to the current schema: a fresh file gets schema.sql, an older one the
 * upgrade steps of migrations.ts in order, all in one transaction.
 */
import { schemaSql } from '../build-info';
import type { DB } from './open';
import { migrations as allMigrations, SCHEMA_VERSION, type Migration, type UpgradeTools } from './migrations';

export interface MigrationResult {
	from: number;
	to: number;
	created: boolean;
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
