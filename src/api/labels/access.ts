/**
 * The route access of managing a repository's labels (GitHub's labels API: create, update,
 * delete): Issues or Pull requests (write) and triage access to the repository. Stated once for
 * REST and for GraphQL's createLabel.
 */
import { ISSUES_WRITE } from '../issues/access';

/** Creating, changing and deleting labels: triage access. */
export const LABELS_WRITE = { ...ISSUES_WRITE, resource: { repo: 'triage' as const } };
