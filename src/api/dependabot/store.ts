/**
 * Prepared statements for dependabot alerts and their dismissal requests (schema.sql, block
 * "dependabot alerts and dismissal requests").
 */
import type { DB } from '../../db/open';

export type DependabotStore = ReturnType<typeof createDependabotStore>;

export function createDependabotStore(_db: DB) {
	return {};
}
