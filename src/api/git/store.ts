/**
 * Prepared statements for git objects and refs. (Being built: see src/api/git/.)
 */
import type { DB } from '../../db/open';

export type GitStore = ReturnType<typeof createGitStore>;

export function createGitStore(_db: DB) {
	return {};
}
