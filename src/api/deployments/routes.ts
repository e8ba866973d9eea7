/**
 * Deployments, statuses, environments and branch policies. (Being built.)
 */
import type { RouteDeclaration } from '../../http/route';

export const deploymentRoutes: RouteDeclaration[] = [];
