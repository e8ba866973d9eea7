/**
 * What a search may show the caller: public repositories, and the non-public ones the caller can
 * read (src/auth/access: repositoryPermissions, the rules of GET /repos/{owner}/{repo}). The
 * readable ones are worked out once per search, from a superset of candidates (owned, collaborator
 * grants, the organizations the user belongs to; an installation's account), and passed to the
 * search's SQL as a set, so filtering, counting and paging all happen in one query and
 * total_count counts exactly what the caller may see.
 */
import type { Viewer } from '../../auth/access/types';
import { repositoryPermissions } from '../../auth/access/repos';
import { permissionsSatisfy } from '../../auth/permissions';
import type { RepositoryRow } from '../../model/rows';
import type { CandidateRepository } from './store';

/**
 * Ids of the non-public repositories the caller can read (none for anonymous callers and public
 * views). With `issues`, tokens with fine-grained permissions must also hold Issues or Pull
 * requests (read) to find the issues of private repositories; with `contents`, Contents (read) to
 * find their code.
 */
export function readablePrivateRepositories(ctx: Viewer, options: { issues?: boolean; contents?: boolean } = {}): number[] {
	const { principal } = ctx;
	const { stores } = ctx.app;
	if (ctx.publicView) return [];
	const fineGrained = principal.kind !== 'classic' && principal.kind !== 'oauth' && principal.kind !== 'anonymous';
	if (options.issues && fineGrained && !permissionsSatisfy(principal.permissions, [{ issues: 'read' }, { pull_requests: 'read' }]))
		return [];
	if (options.contents && fineGrained && !permissionsSatisfy(principal.permissions, [{ contents: 'read' }])) return [];
	let candidates: CandidateRepository[];
	if (principal.kind === 'installation') {
		if (principal.resourceOwnerId === null) return [];
		candidates = stores.search.ownerCandidates(principal.resourceOwnerId);
	} else if (principal.user) {
		candidates = stores.search.userCandidates(principal.user.id);
	} else {
		return [];
	}
	if (candidates.length === 0) return [];
	const owners = stores.accounts.mapByIds(candidates.map((repo) => repo.owner_id));
	// The access rules read a repository's id and visibility only (and its owner's row): the
	// candidates carry just those columns.
	const permissions = repositoryPermissions(
		ctx,
		candidates.map((repo) => ({ repo: repo as RepositoryRow, owner: owners.get(repo.owner_id)! })),
	);
	return candidates.filter((repo) => permissions.get(repo.id)).map((repo) => repo.id);
}
