/**
 * Workflows, runs and jobs. (Being built.)
 */
import type { RouteDeclaration } from '../../http/route';

export const actionsRoutes: RouteDeclaration[] = [];
