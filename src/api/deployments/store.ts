/**
 * Prepared statements for deployments, statuses, environments and branch policies. (Being built: see src/api/deployments/.)
 */
import type { DB } from '../../db/open';

export type DeploymentStore = ReturnType<typeof createDeploymentStore>;

export function createDeploymentStore(_db: DB) {
	return {};
}
