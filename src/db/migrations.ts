/**
 * Append-only list of schema upgrades. Step N upgrades a database at user_version N-1 to N.
 * Never reorder or delete a step; retire one by making it a no-op. After the last step the
 * database must equal a fresh schema.sql (test/storage.test.ts compares sqlite_master).
 *
 * Version 1 is the first released schema.
 */
import type { DB } from './open';

export interface Migration {
	version: number;
	description: string;
	up(db: DB): void;
}

export const migrations: Migration[] = [
	{
		version: 2,
		description: 'organization setting members_can_fork_private_repositories; public or private user email',
		up(db) {
			db.exec(`
				ALTER TABLE accounts ADD COLUMN members_can_fork_private_repositories INTEGER NOT NULL DEFAULT 0;
				ALTER TABLE accounts ADD COLUMN email_public INTEGER NOT NULL DEFAULT 0;
			`);
		},
	},
	{
		version: 3,
		description: 'queued webhook deliveries indexed per hook, (hook_id, next_attempt_at), instead of by due time alone',
		up(db) {
			db.exec(`
				DROP INDEX webhook_deliveries_due;
				CREATE INDEX webhook_deliveries_queued ON webhook_deliveries(hook_id, next_attempt_at) WHERE state = 'queued';`);
		},
	},
];

/** The schema version schema.sql describes. */
export const SCHEMA_VERSION = 1 + migrations.length;
