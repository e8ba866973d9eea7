/**
 * Prepared statements for releases and release assets (schema.sql, "releases"). Release bodies
 * are rendered when written (body_html, body_text: src/model/markdown/render.ts). An asset's bytes
 * live in the blob folder (`<blob_dir>/release-assets/<blob>`); its row names the file.
 */
import type { DB } from '../../db/open';
import { renderNullableBody } from '../../model/markdown/render';

export type MakeLatest = 'true' | 'false' | 'legacy';

export interface ReleaseRow {
	id: number;
	repo_id: number;
	tag_name: string;
	target_commitish: string;
	name: string | null;
	body: string | null;
	body_html: string | null;
	body_text: string | null;
	draft: number;
	prerelease: number;
	/** The make_latest of the latest write. */
	make_latest: MakeLatest;
	/** 1: the release chosen as the repository's latest (make_latest true), at most one per repository. */
	is_latest: number;
	author_id: number | null;
	/** ISO timestamps; published_at null for drafts. */
	created_at: string;
	published_at: string | null;
	updated_at: string;
}

export interface AssetRow {
	id: number;
	release_id: number;
	repo_id: number;
	name: string;
	label: string | null;
	content_type: string;
	/** Bytes. */
	size: number;
	/** SHA-256, lower-case hex. */
	sha256: string;
	download_count: number;
	uploader_id: number | null;
	/** File name in <blob_dir>/release-assets. */
	blob: string;
	created_at: string;
	updated_at: string;
}

export type NewRelease = Pick<
	ReleaseRow,
	| 'repo_id'
	| 'tag_name'
	| 'target_commitish'
	| 'name'
	| 'body'
	| 'draft'
	| 'prerelease'
	| 'make_latest'
	| 'author_id'
	| 'created_at'
	| 'published_at'
>;
export type ReleaseChange = Pick<
	ReleaseRow,
	'id' | 'tag_name' | 'target_commitish' | 'name' | 'body' | 'draft' | 'prerelease' | 'make_latest' | 'published_at' | 'updated_at'
>;

/** The orders of a release list: creation (id) or name. */
export type ReleaseOrder = 'created' | 'name';

export type ReleaseStore = ReturnType<typeof createReleaseStore>;

/** Prepares the statements of releases and release assets on `db`. */
export function createReleaseStore(db: DB) {
	const insert = db.prepare(`
		INSERT INTO releases (repo_id, tag_name, target_commitish, name, body, body_html, body_text, draft, prerelease, make_latest,
		  author_id, created_at, published_at, updated_at)
		VALUES (@repo_id, @tag_name, @target_commitish, @name, @body, @body_html, @body_text, @draft, @prerelease, @make_latest,
		  @author_id, @created_at, @published_at, @created_at)`);
	const update = db.prepare(`
		UPDATE releases SET tag_name = @tag_name, target_commitish = @target_commitish, name = @name, body = @body,
		  body_html = @body_html, body_text = @body_text, draft = @draft, prerelease = @prerelease, make_latest = @make_latest,
		  published_at = @published_at, updated_at = @updated_at
		WHERE id = @id`);
	const byId = db.prepare('SELECT * FROM releases WHERE id = ? AND repo_id = ?');
	const byTag = db.prepare('SELECT * FROM releases WHERE repo_id = ? AND tag_name = ?');
	// Drafts only for callers who may see them (@drafts = 1).
	const LIST = 'SELECT * FROM releases WHERE repo_id = @repo AND (@drafts = 1 OR draft = 0) ORDER BY';
	const lists: Record<`${ReleaseOrder} ${'asc' | 'desc'}`, ReturnType<DB['prepare']>> = {
		'created desc': db.prepare(`${LIST} id DESC LIMIT @limit OFFSET @offset`),
		'created asc': db.prepare(`${LIST} id ASC LIMIT @limit OFFSET @offset`),
		'name desc': db.prepare(`${LIST} coalesce(name, tag_name) DESC, id DESC LIMIT @limit OFFSET @offset`),
		'name asc': db.prepare(`${LIST} coalesce(name, tag_name) ASC, id ASC LIMIT @limit OFFSET @offset`),
	};
	const count = db.prepare('SELECT count(*) FROM releases WHERE repo_id = @repo AND (@drafts = 1 OR draft = 0)').pluck();
	const pinned = db.prepare('SELECT * FROM releases WHERE repo_id = ? AND is_latest = 1 AND draft = 0 AND prerelease = 0');
	const newest = db.prepare(`
		SELECT * FROM releases WHERE repo_id = ? AND draft = 0 AND prerelease = 0 AND make_latest <> 'false'
		ORDER BY published_at DESC, id DESC LIMIT 1`);
	const pin = db.prepare('UPDATE releases SET is_latest = (id = @id) WHERE repo_id = @repo AND (is_latest = 1 OR id = @id)');
	const unpin = db.prepare('UPDATE releases SET is_latest = 0 WHERE repo_id = ? AND is_latest = 1 AND (? IS NULL OR id = ?)');
	const remove = db.prepare('DELETE FROM releases WHERE id = ?');

	const insertAsset = db.prepare(`
		INSERT INTO release_assets (release_id, repo_id, name, label, content_type, size, sha256, uploader_id, blob, created_at, updated_at)
		VALUES (@release_id, @repo_id, @name, @label, @content_type, @size, @sha256, @uploader_id, @blob, @created_at, @created_at)`);
	const assetById = db.prepare('SELECT * FROM release_assets WHERE id = ? AND repo_id = ?');
	const assetByName = db.prepare('SELECT * FROM release_assets WHERE release_id = ? AND name = ?');
	const assets = db.prepare('SELECT * FROM release_assets WHERE release_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const assetCount = db.prepare('SELECT count(*) FROM release_assets WHERE release_id = ?').pluck();
	const assetsOf = db.prepare('SELECT * FROM release_assets WHERE release_id IN (SELECT value FROM json_each(?)) ORDER BY id');
	const updateAsset = db.prepare('UPDATE release_assets SET name = @name, label = @label, updated_at = @updated_at WHERE id = @id');
	const removeAsset = db.prepare('DELETE FROM release_assets WHERE id = ?');
	const downloaded = db.prepare('UPDATE release_assets SET download_count = download_count + 1 WHERE id = ?');
	const blobs = db.prepare('SELECT blob FROM release_assets').pluck();

	return {
		/** Stores a release, rendering its body. @param row.created_at ISO timestamp (also updated_at) */
		insert(row: NewRelease): ReleaseRow {
			const id = insert.run({ ...row, ...renderNullableBody(row.body) }).lastInsertRowid as number;
			return byId.get(id, row.repo_id) as ReleaseRow;
		},
		/** Changes a release (its body rendered again only when it changed). */
		update(current: ReleaseRow, change: ReleaseChange): ReleaseRow {
			const rendered =
				change.body === current.body
					? { body_html: current.body_html, body_text: current.body_text }
					: renderNullableBody(change.body);
			update.run({ ...change, ...rendered });
			return byId.get(change.id, current.repo_id) as ReleaseRow;
		},
		byId: (repoId: number, id: number) => byId.get(id, repoId) as ReleaseRow | undefined,
		byTag: (repoId: number, tag: string) => byTag.get(repoId, tag) as ReleaseRow | undefined,
		/**
		 * Releases, newest first (or in `order`: by creation or by name, the tag's when it has none);
		 * drafts only when `drafts`.
		 */
		list(
			repoId: number,
			drafts: boolean,
			limit: number,
			offset: number,
			order: { by: ReleaseOrder; direction: 'asc' | 'desc' } = { by: 'created', direction: 'desc' },
		): { rows: ReleaseRow[]; total: number } {
			const args = { repo: repoId, drafts: drafts ? 1 : 0, limit, offset };
			const rows = limit > 0 ? (lists[`${order.by} ${order.direction}`].all(args) as ReleaseRow[]) : [];
			return { rows, total: count.get(args) as number };
		},
		/** The repository's latest release: the one chosen with make_latest, else the newest published full release. */
		latest: (repoId: number) => (pinned.get(repoId) ?? newest.get(repoId)) as ReleaseRow | undefined,
		/** Makes `id` the repository's latest release. */
		pin: (repoId: number, id: number) => void pin.run({ repo: repoId, id }),
		/** Drops the repository's choice of latest release (only when it is `id`, if given). */
		unpin: (repoId: number, id: number | null = null) => void unpin.run(repoId, id, id),
		remove: (id: number) => void remove.run(id),

		/** Stores an uploaded asset. @param row.created_at ISO timestamp (also updated_at) */
		insertAsset(row: Omit<AssetRow, 'id' | 'download_count' | 'updated_at'>): AssetRow {
			const id = insertAsset.run(row).lastInsertRowid as number;
			return assetById.get(id, row.repo_id) as AssetRow;
		},
		asset: (repoId: number, id: number) => assetById.get(id, repoId) as AssetRow | undefined,
		assetByName: (releaseId: number, name: string) => assetByName.get(releaseId, name) as AssetRow | undefined,
		/** A release's assets, oldest first. */
		assets(releaseId: number, limit: number, offset: number): { rows: AssetRow[]; total: number } {
			return { rows: assets.all(releaseId, limit, offset) as AssetRow[], total: assetCount.get(releaseId) as number };
		},
		/** release id → its assets, for several releases. */
		assetsOf(releaseIds: number[]): Map<number, AssetRow[]> {
			const out = new Map<number, AssetRow[]>();
			for (const row of assetsOf.all(JSON.stringify(releaseIds)) as AssetRow[]) {
				let list = out.get(row.release_id);
				if (!list) out.set(row.release_id, (list = []));
				list.push(row);
			}
			return out;
		},
		/** @param change.updated_at ISO timestamp */
		updateAsset(repoId: number, change: Pick<AssetRow, 'id' | 'name' | 'label' | 'updated_at'>): AssetRow {
			updateAsset.run(change);
			return assetById.get(change.id, repoId) as AssetRow;
		},
		removeAsset: (id: number) => void removeAsset.run(id),
		/** Counts a download. */
		downloaded: (id: number) => void downloaded.run(id),
		/** The file names every asset row names. */
		blobs: () => blobs.all() as string[],
	};
}
