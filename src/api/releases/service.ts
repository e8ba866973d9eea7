/**
 * Releases and their assets (GitHub's "Releases" and "Release assets"): creating, editing,
 * publishing (which creates the tag, through the git refs write path, when it does not exist yet),
 * choosing the latest release, deleting (with the assets' files), and the asset files' place in
 * the blob folder.
 */
import { checkReleaseUpdate, checkTagReuse, isImmutable, markPublished } from '../immutable-releases/enforce';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from '../../app';
import { sweepUnnamedFiles } from '../../model/blob-files';
import { invalidField, unprocessable } from '../../model/errors';
import { isValidRefName } from '../git/objects';
import { resolveCommit } from '../git/service';
import { createRef } from '../git/writes';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import type { RepoAccess } from '../../auth/access/types';
import { atLeast } from '../../model/repo-permissions';
import { repositoryPaths } from '../../model/render';
import { release, type People } from './render';
import { recordPublished, recordRelease } from './events';
import type { AssetRow, MakeLatest, ReleaseOrder, ReleaseRow } from './store';

/** Drafts are seen by callers with push access only. */
export const seesDrafts = (access: RepoAccess) => atLeast(access.permission, 'push');

/** Accounts by id, each loaded once per answer. */
export function people(app: App): People {
	const seen = new Map<number, AccountRow | undefined>();
	return (id) => {
		if (id === null) return undefined;
		if (!seen.has(id)) seen.set(id, app.stores.accounts.byId(id));
		return seen.get(id);
	};
}

/**
 * Releases of the repository `access` names as GitHub's REST API renders them, with their assets
 * (`assets` when the caller has them already).
 * @param media the requested media type's property (raw, text, html, full), for the body fields
 */
export function renderReleases(app: App, access: RepoAccess, rows: ReleaseRow[], media: string | null, assets?: Map<number, AssetRow[]>) {
	const all = assets ?? app.stores.releases.assetsOf(rows.map((row) => row.id));
	const base = repositoryPaths(app.urls, access.owner.login, access.repo.name);
	const who = people(app);
	return rows.map((row) => release(app.urls, base, row, all.get(row.id) ?? [], who, media, isImmutable(app, row.id)));
}

/**
 * One page of the repository's releases the caller may see (drafts with push access), newest
 * first or in `order` (GET /repos/{owner}/{repo}/releases, GraphQL's Repository.releases), rendered.
 */
export function releasePage(
	app: App,
	access: RepoAccess,
	page: { limit: number; offset: number; order?: { by: ReleaseOrder; direction: 'asc' | 'desc' } },
	media: string | null,
) {
	const { rows, total } = app.stores.releases.list(access.repo.id, seesDrafts(access), page.limit, page.offset, page.order);
	return { items: renderReleases(app, access, rows, media), total };
}

/** GitHub's limit on a release body, in characters. */
export const MAX_RELEASE_BODY = 125_000;

/**
 * The folder of release asset files: `<blob_dir>/release-assets`.
 * @returns null when blob storage is off (storage.blob_dir = "")
 */
export function assetDir(app: App): string | null {
	return app.config.blobDir === null ? null : join(app.config.blobDir, 'release-assets');
}

/** The folder uploads are streamed to. @throws DomainError 422 when blob storage is off */
export function requireAssetDir(app: App): string {
	const dir = assetDir(app);
	if (dir === null)
		throw unprocessable(
			'A blob storage provider must be configured before release assets can be uploaded (config storage.blob_dir is empty).',
		);
	return dir;
}

/**
 * An asset's name as GitHub stores it: characters other than letters, digits and `-_.+@` become
 * `.`, and leading or trailing periods are dropped ("my file (1).zip" → "my.file..1..zip").
 * @returns the name, or '' when nothing is left
 */
export function assetName(raw: string): string {
	return raw.replace(/[^A-Za-z0-9\-_.+@]/g, '.').replace(/^\.+|\.+$/g, '');
}

/**
 * The file holding an asset's bytes, its download counted (GitHub's download_count), for the
 * asset's API URL, its browser_download_url and the web interface's link.
 * @returns null when blob storage is off or the file is gone
 */
export function downloadAsset(app: App, row: AssetRow): string | null {
	const dir = assetDir(app);
	const path = dir === null ? null : join(dir, row.blob);
	if (!path || !existsSync(path)) return null;
	app.transaction(() => app.stores.releases.downloaded(row.id));
	return path;
}

/** Deletes asset files once the transaction that deleted their rows has committed (kept if it rolls back). */
export function removeAssetFilesAfterCommit(app: App, assets: readonly AssetRow[]): void {
	const dir = assetDir(app);
	if (dir === null || assets.length === 0) return;
	app.transaction.durable().then(
		() => {
			for (const row of assets) rmSync(join(dir, row.blob), { force: true });
		},
		() => undefined,
	);
}

/**
 * Deletes asset files no row names (left by a crash between an upload's write and its commit, or
 * by rows deleted with their repository), if older than an hour.
 * @param nowMs epoch milliseconds
 * @returns how many files were deleted
 */
export function sweepAssetFiles(app: App, nowMs: number): number {
	return sweepUnnamedFiles(assetDir(app), () => app.stores.releases.blobs(), nowMs);
}

export interface ReleaseInput {
	tag_name?: string;
	target_commitish?: string;
	name?: string | null;
	body?: string | null;
	draft?: boolean;
	prerelease?: boolean;
	make_latest?: MakeLatest;
}

/** @throws DomainError 422 for a tag name git refuses, or one another release has */
function checkTag(app: App, repo: RepositoryRow, tag: string, self: number | null): void {
	if (!isValidRefName(`refs/tags/${tag}`)) throw invalidField('Release', 'tag_name', `tag_name is not a valid tag`, 'invalid');
	const other = app.stores.releases.byTag(repo.id, tag);
	if (other && other.id !== self) throw invalidField('Release', 'tag_name', 'tag_name already exists', 'already_exists');
	checkTagReuse(app, repo.id, tag, self);
}

/**
 * The commit a new tag will name, when the tag does not exist yet.
 * @returns null when the tag exists
 * @throws DomainError 422 (field target_commitish) when it names no commit
 */
function tagTarget(app: App, repo: RepositoryRow, tag: string, commitish: string): string | null {
	if (app.stores.git.ref(repo.id, `refs/tags/${tag}`)) return null;
	const sha = resolveCommit(app, repo, commitish);
	if (!sha) throw invalidField('Release', 'target_commitish', 'target_commitish is invalid', 'invalid');
	return sha;
}

/** Applies make_latest to a release as it is now. */
function applyLatest(app: App, repo: RepositoryRow, row: ReleaseRow, given: MakeLatest | undefined): void {
	const { releases } = app.stores;
	const candidate = row.draft === 0 && row.prerelease === 0;
	const choice = given ?? row.make_latest;
	if (!candidate) return releases.unpin(repo.id, row.id);
	if (choice === 'true' && (given !== undefined || row.is_latest === 0)) releases.pin(repo.id, row.id);
	else if (choice === 'legacy') releases.unpin(repo.id);
	else if (choice === 'false') releases.unpin(repo.id, row.id);
}

/**
 * Creates a release; publishing (draft false) creates its tag at target_commitish (default: the
 * default branch) when the tag does not exist. Records release created, and published with
 * released or prereleased; the tag's create and push.
 * @param now ISO timestamp
 * @throws DomainError 422 tag_name invalid or already_exists, target_commitish invalid
 */
export function createRelease(
	app: App,
	repo: RepositoryRow,
	input: ReleaseInput & { tag_name: string },
	actorId: number | null,
	now: string,
): ReleaseRow {
	checkTag(app, repo, input.tag_name, null);
	const commitish = input.target_commitish ?? repo.default_branch;
	const target = tagTarget(app, repo, input.tag_name, commitish);
	const draft = input.draft === true;
	if (!draft && target) createRef(app, repo, `refs/tags/${input.tag_name}`, target, { now, actorId });
	const row = app.stores.releases.insert({
		repo_id: repo.id,
		tag_name: input.tag_name,
		target_commitish: commitish,
		name: input.name ?? null,
		body: input.body ?? null,
		draft: draft ? 1 : 0,
		prerelease: input.prerelease ? 1 : 0,
		make_latest: input.make_latest ?? 'true',
		author_id: actorId,
		created_at: now,
		published_at: draft ? null : now,
	});
	applyLatest(app, repo, row, input.make_latest);
	const current = app.stores.releases.byId(repo.id, row.id)!;
	recordRelease(app, repo, 'created', current, actorId);
	if (!draft) {
		markPublished(app, repo, current);
		recordPublished(app, repo, current, actorId);
	}
	return current;
}

/**
 * Changes a release. Publishing a draft creates its tag when missing; records edited (with the
 * previous name, body and tag_name in `changes`) when a detail changed, then published with
 * released/prereleased, unpublished, released or prereleased for the transitions.
 * @param now ISO timestamp
 * @throws DomainError 422 as for createRelease
 */
export function updateRelease(
	app: App,
	repo: RepositoryRow,
	current: ReleaseRow,
	input: ReleaseInput,
	actorId: number | null,
	now: string,
): ReleaseRow {
	const tag = input.tag_name ?? current.tag_name;
	if (tag !== current.tag_name) checkTag(app, repo, tag, current.id);
	const commitish = input.target_commitish ?? current.target_commitish;
	const draft = input.draft === undefined ? current.draft === 1 : input.draft;
	const prerelease = input.prerelease === undefined ? current.prerelease === 1 : input.prerelease;
	const publishing = !draft && current.draft === 1;
	checkReleaseUpdate(app, current, { tag_name: tag, draft });
	if (!draft) {
		const target = tagTarget(app, repo, tag, commitish);
		if (target) createRef(app, repo, `refs/tags/${tag}`, target, { now, actorId });
	}
	const row = app.stores.releases.update(current, {
		id: current.id,
		tag_name: tag,
		target_commitish: commitish,
		name: input.name === undefined ? current.name : input.name,
		body: input.body === undefined ? current.body : input.body,
		draft: draft ? 1 : 0,
		prerelease: prerelease ? 1 : 0,
		make_latest: input.make_latest ?? current.make_latest,
		published_at: draft ? null : (current.published_at ?? now),
		updated_at: now,
	});
	applyLatest(app, repo, row, input.make_latest);
	const after = app.stores.releases.byId(repo.id, row.id)!;
	const changes: Record<string, unknown> = {};
	for (const key of ['name', 'body', 'tag_name'] as const) if (after[key] !== current[key]) changes[key] = { from: current[key] };
	if (input.make_latest !== undefined && input.make_latest !== current.make_latest)
		changes.make_latest = { to: input.make_latest === 'true' };
	const detail =
		Object.keys(changes).length > 0 || after.target_commitish !== current.target_commitish || after.prerelease !== current.prerelease;
	if (detail) recordRelease(app, repo, 'edited', after, actorId, changes);
	if (publishing) {
		markPublished(app, repo, after);
		recordPublished(app, repo, after, actorId);
	} else if (draft && current.draft === 0) recordRelease(app, repo, 'unpublished', after, actorId);
	else if (!draft && after.prerelease !== current.prerelease)
		recordRelease(app, repo, after.prerelease ? 'prereleased' : 'released', after, actorId);
	return after;
}

/** Deletes a release and its assets (their files once committed); records release deleted. */
export function deleteRelease(app: App, repo: RepositoryRow, row: ReleaseRow, actorId: number | null): void {
	const assets = app.stores.releases.assetsOf([row.id]).get(row.id) ?? [];
	app.stores.releases.remove(row.id);
	recordRelease(app, repo, 'deleted', row, actorId, undefined, assets);
	removeAssetFilesAfterCommit(app, assets);
}
