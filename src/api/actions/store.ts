/**
 * Prepared statements for workflows, runs and jobs. (Being built: see src/api/actions/.)
 */
import type { DB } from '../../db/open';

export type ActionsStore = ReturnType<typeof createActionsStore>;

export function createActionsStore(_db: DB) {
	return {};
}
