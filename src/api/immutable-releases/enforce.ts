/**
 * Immutable releases enforced (GitHub's immutable releases): a release published while its
 * repository is enforced (its organization's enforced_repositories is `all`, or `selected` with the
 * repository selected) is immutable — its assets cannot be uploaded, changed or deleted, its tag
 * cannot be moved or deleted, it cannot return to a draft or change its tag; its title, notes,
 * prerelease and latest flags still change. Its tag name is never used again, even after the
 * release is deleted (GitHub's 422 "tag_name was used by an immutable release").
 *
 * Small and self-contained: src/api/branches/enforce.ts calls checkImmutableTag from the one
 * reference-update path; the release routes and service call the others. Imports stores only.
 */
import type { App } from '../../app';
import { invalidField, unprocessable } from '../../model/errors';
import type { RepositoryRow } from '../../model/rows';

/** The repository's releases are published immutable (its organization's policy). */
export function repositoryEnforced(app: App, repo: RepositoryRow): boolean {
	const owner = app.stores.accounts.byId(repo.owner_id);
	if (owner?.type !== 'Organization') return false;
	const policy = app.stores.immutableReleases.policy(owner.id);
	return policy === 'all' || (policy === 'selected' && app.stores.immutableReleases.isSelected(owner.id, repo.id));
}

/** A release being published: immutable when its repository is enforced. */
export function markPublished(app: App, repo: RepositoryRow, release: { id: number; tag_name: string }): void {
	if (repositoryEnforced(app, repo)) app.stores.immutableReleases.markImmutable(release.id, repo.id, release.tag_name);
}

/** True when the release was published immutable. */
export function isImmutable(app: App, releaseId: number): boolean {
	return app.stores.immutableReleases.isImmutable(releaseId);
}

/**
 * A reference write (before → after; null: created / deleted) touching the tag of an immutable
 * release.
 * @throws DomainError 422 when it moves or deletes the tag of a live immutable release, or creates a
 *   tag an immutable release used
 */
export function checkImmutableTag(app: App, repoId: number, name: string, before: string | null, after: string | null): void {
	if (!name.startsWith('refs/tags/')) return;
	const used = app.stores.immutableReleases.byTag(repoId, name.slice('refs/tags/'.length));
	if (!used) return;
	if (before === null) {
		if (!used.live) throw unprocessable('Cannot create a tag that was used by an immutable release.');
		return;
	}
	if (!used.live) return;
	if (after === null) throw unprocessable('Cannot delete a tag that belongs to an immutable release.');
	if (after !== before) throw unprocessable('Cannot update a tag that belongs to an immutable release.');
}

/**
 * A release's tag name: not one an immutable release used. @throws DomainError 422 (tag_name, custom)
 */
export function checkTagReuse(app: App, repoId: number, tag: string, self: number | null): void {
	const used = app.stores.immutableReleases.byTag(repoId, tag);
	if (used && (used.release_id === null || used.release_id !== self))
		throw invalidField('Release', 'tag_name', 'tag_name was used by an immutable release', 'custom');
}

/**
 * A change to an immutable release: its tag or back to a draft.
 * @throws DomainError 422
 */
export function checkReleaseUpdate(app: App, release: { id: number; tag_name: string }, next: { tag_name: string; draft: boolean }): void {
	if (!isImmutable(app, release.id)) return;
	if (next.tag_name !== release.tag_name)
		throw invalidField('Release', 'tag_name', 'tag_name cannot be changed on an immutable release', 'custom');
	if (next.draft) throw unprocessable('Cannot unpublish an immutable release.');
}

/**
 * An asset upload, change or deletion on the release.
 * @throws DomainError 422 "Cannot upload assets to an immutable release" (GitHub's), "Cannot modify
 *   assets of an immutable release", "Cannot delete assets of an immutable release"
 */
export function checkAssetChange(app: App, releaseId: number, change: 'upload' | 'modify' | 'delete'): void {
	if (!isImmutable(app, releaseId)) return;
	throw unprocessable(
		change === 'upload' ? 'Cannot upload assets to an immutable release' : `Cannot ${change} assets of an immutable release`,
	);
}
