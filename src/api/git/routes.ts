/**
 * Git objects and refs. (Being built.)
 */
import type { RouteDeclaration } from '../../http/route';

export const gitRoutes: RouteDeclaration[] = [];
