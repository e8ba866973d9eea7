/**
 * Append-only list of schema upgrades. Step N upgrades a database at user_version N-1 to N.
 * Never reorder or delete a step; retire one by making it a no-op. After the last step the
 * database must equal a fresh schema.sql (test/storage.test.ts compares sqlite_master).
 *
 * Version 1 is the first released schema, so there are no steps yet.
 */
import type { DB } from './open';

export interface Migration {
	version: number;
	description: string;
	up(db: DB): void;
}

export const migrations: Migration[] = [];

/** The schema version schema.sql describes. */
export const SCHEMA_VERSION = 1 + migrations.length;
