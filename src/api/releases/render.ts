/**
 * GitHub's Release and ReleaseAsset objects. A draft's html_url names it `untagged-<id>` (its tag
 * may not exist yet), as GitHub's does; the body fields follow the media type (bodyFields).
 */
import { nodeId, type Urls } from '../../model/urls';
import { bodyFields } from '../../model/markdown/render';
import type { RepositoryPaths } from '../../model/render';
import { simpleUser } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import type { AssetRow, ReleaseRow } from './store';

/** Loads accounts by id, each once per answer. */
export type People = (id: number | null) => AccountRow | undefined;

const user = (urls: Urls, people: People, id: number | null) => {
	const account = people(id);
	return account ? simpleUser(urls, account) : null;
};

/** The upload URL of a release: a URI template, served by this server (GitHub's is on uploads.github.com). */
export function uploadUrl(base: RepositoryPaths, releaseId: number): string {
	return `${base.api}/releases/${releaseId}/assets{?name,label}`;
}

/** The address of an asset's bytes for browsers: …/{owner}/{repo}/releases/download/{tag}/{name}. */
export function browserDownloadUrl(base: RepositoryPaths, tag: string, name: string): string {
	return `${base.html}/releases/download/${encodeURIComponent(tag)}/${encodeURIComponent(name)}`;
}

/** A ReleaseAsset. @param tag its release's tag (for browser_download_url) */
export function asset(urls: Urls, base: RepositoryPaths, tag: string, row: AssetRow, people: People) {
	return {
		url: `${base.api}/releases/assets/${row.id}`,
		browser_download_url: browserDownloadUrl(base, tag, row.name),
		id: row.id,
		node_id: nodeId('ReleaseAsset', row.id),
		name: row.name,
		label: row.label,
		state: 'uploaded',
		content_type: row.content_type,
		size: row.size,
		digest: `sha256:${row.sha256}`,
		download_count: row.download_count,
		created_at: row.created_at,
		updated_at: row.updated_at,
		uploader: user(urls, people, row.uploader_id),
	};
}

/**
 * A Release with its assets.
 * @param media the requested media type's property (raw, text, html, full), for the body fields
 * @param immutable the release was published immutable (src/api/immutable-releases/enforce.ts)
 */
export function release(
	urls: Urls,
	base: RepositoryPaths,
	row: ReleaseRow,
	assets: AssetRow[],
	people: People,
	media: string | null,
	immutable = false,
) {
	const url = `${base.api}/releases/${row.id}`;
	const tagPath = row.draft ? `untagged-${row.id}` : encodeURIComponent(row.tag_name);
	return {
		url,
		html_url: `${base.html}/releases/tag/${tagPath}`,
		assets_url: `${url}/assets`,
		upload_url: uploadUrl(base, row.id),
		tarball_url: row.draft ? null : `${base.api}/tarball/${encodeURIComponent(row.tag_name)}`,
		zipball_url: row.draft ? null : `${base.api}/zipball/${encodeURIComponent(row.tag_name)}`,
		id: row.id,
		node_id: nodeId('Release', row.id),
		tag_name: row.tag_name,
		target_commitish: row.target_commitish,
		name: row.name,
		draft: row.draft === 1,
		prerelease: row.prerelease === 1,
		immutable,
		created_at: row.created_at,
		published_at: row.published_at,
		updated_at: row.updated_at,
		author: user(urls, people, row.author_id),
		assets: assets.map((a) => asset(urls, base, row.tag_name, a, people)),
		...bodyFields(row, media),
	};
}
