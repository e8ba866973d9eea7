/**
 * GitHub's full repository (the repository record of src/model/render.ts with its organization,
 * parent, source and network count).
 */
import type { AccountRow, RepositoryRow } from '../../model/rows';
import { repository, repositoryPaths, simpleUser } from '../../model/render';
import type { RepoPermission } from '../../model/repo-permissions';
import type { App } from '../../app';

/** Kept for src/api/git until it imports src/model/render. */
export { repositoryPaths };

/**
 * GitHub's full-repository (GET, PATCH /repos/{owner}/{repo}, creation, forks): the repository
 * record plus `organization` (an organization's repository), `parent` and `source` (a fork's
 * parent and the root of its network, as repository records), `network_count` (the forks in the
 * network), and `temp_clone_token` as a string (Gitstead issues no clone credential: empty).
 * @param permission the caller's permission; null (a public view) omits permissions, role_name
 *   and security_and_analysis (administrators only)
 */
export function fullRepository(app: App, repo: RepositoryRow, owner: AccountRow, permission: RepoPermission | null) {
	const { urls, stores } = app;
	const record: Record<string, unknown> = {
		...repository(urls, repo, owner, permission),
		temp_clone_token: '',
		network_count: stores.repos.network(repo.id).length - 1,
	};
	if (owner.type === 'Organization') record.organization = simpleUser(urls, owner);
	if (repo.fork_parent_id !== null) {
		const parent = stores.repos.byId(repo.fork_parent_id);
		if (parent) {
			record.parent = repository(urls, parent, stores.accounts.byId(parent.owner_id)!, null);
			// The network's root: fork parents followed up (a fork of a fork's source is the original).
			let source = parent;
			while (source.fork_parent_id !== null) {
				const next = stores.repos.byId(source.fork_parent_id);
				if (!next) break;
				source = next;
			}
			record.source =
				source.id === parent.id ? record.parent : repository(urls, source, stores.accounts.byId(source.owner_id)!, null);
		}
	}
	return record;
}
