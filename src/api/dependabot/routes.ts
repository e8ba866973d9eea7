/**
 * Dependabot alerts and dismissal requests (spec document 2, Dismissal requests for dependency alerts).
 */
import type { RouteDeclaration } from '../../http/route';

export const dependabotRoutes: RouteDeclaration[] = [];
