/**
 * Prepared statements for immutable releases: an organization's policy and selected repositories,
 * and the releases published immutable (a row outlives its release: the tag name stays used).
 */
import type { DB } from '../../db/open';
import { repositorySelection } from '../../model/repository-selection';

export type EnforcedRepositories = 'all' | 'none' | 'selected';

export type ImmutableReleaseStore = ReturnType<typeof createImmutableReleaseStore>;

export function createImmutableReleaseStore(db: DB) {
	const policy = db.prepare('SELECT enforced_repositories FROM immutable_release_settings WHERE org_id = ?').pluck();
	const setPolicy = db.prepare(`
		INSERT INTO immutable_release_settings (org_id, enforced_repositories) VALUES (?, ?)
		ON CONFLICT (org_id) DO UPDATE SET enforced_repositories = excluded.enforced_repositories`);
	const selection = repositorySelection(db, 'immutable_release_repositories', 'org_id', 'repo_id', 'r.name COLLATE NOCASE, r.id');
	const mark = db.prepare('INSERT OR IGNORE INTO immutable_releases (release_id, repo_id, tag_name) VALUES (?, ?, ?)');
	const isImmutable = db.prepare('SELECT 1 FROM immutable_releases WHERE release_id = ?').pluck();
	const byTag = db.prepare(`
		SELECT release_id, release_id IS NOT NULL AS live FROM immutable_releases
		WHERE repo_id = ? AND tag_name = ? ORDER BY live DESC LIMIT 1`);
	return {
		/** The organization's policy; none when it never set one. */
		policy: (orgId: number) => ((policy.get(orgId) as EnforcedRepositories | undefined) ?? 'none') as EnforcedRepositories,
		setPolicy: (orgId: number, value: EnforcedRepositories) => void setPolicy.run(orgId, value),
		/** The selected repositories, by name. */
		selected: (orgId: number, limit: number, offset: number) => selection.page(orgId, limit, offset).rows,
		selectedCount: selection.count,
		isSelected: selection.has,
		select: (orgId: number, repoId: number) => void selection.add(orgId, repoId),
		unselect: (orgId: number, repoId: number) => void selection.remove(orgId, repoId),
		clearSelection: selection.clear,
		markImmutable: (releaseId: number, repoId: number, tag: string) => void mark.run(releaseId, repoId, tag),
		isImmutable: (releaseId: number) => isImmutable.get(releaseId) === 1,
		/**
		 * The immutable release of that tag: live when the release still exists (release_id null once
		 * deleted); undefined when none ever was.
		 */
		byTag: (repoId: number, tag: string) => byTag.get(repoId, tag) as { release_id: number | null; live: number } | undefined,
	};
}
