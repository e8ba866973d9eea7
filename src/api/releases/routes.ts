/**
 * Releases and release assets (GitHub's "Releases" and "Release assets" REST APIs): list, create,
 * get (by id, latest, by tag), update, delete releases; list, upload, get, download, update,
 * delete assets. Drafts are seen only by callers with push access. An asset upload is streamed to
 * the blob folder (route `upload`: never held in memory, never parsed) at the release's
 * `upload_url`, which this server serves itself; downloads stream the file (`Accept:
 * application/octet-stream` on the asset's API URL, or its browser_download_url).
 *
 * Permissions: reads take Contents (read), public for public repositories; writes take Contents
 * (write) — classic scope repo — and push access.
 */
import { checkAssetChange } from '../immutable-releases/enforce';
import { basename } from 'node:path';
import * as v from 'valibot';
import { invalidField, notFound } from '../../model/errors';
import { created, noContent, ok, paged, type Reply } from '../../http/reply';
import { idParam, route, type Context } from '../../http/route';
import { maxCharacters } from '../../http/validation';
import { isoSeconds } from '../../time';
import { repositoryPaths } from '../../model/render';
import { asset } from './render';
import {
	assetName,
	createRelease,
	deleteRelease,
	downloadAsset,
	MAX_RELEASE_BODY,
	people,
	releasePage,
	renderReleases,
	seesDrafts,
	removeAssetFilesAfterCommit,
	requireAssetDir,
	updateRelease,
} from './service';
import type { AssetRow, ReleaseRow } from './store';
import { RELEASES_READ } from './access';

const READ = RELEASES_READ;
const WRITE = { permissions: [{ contents: 'write' as const }], access: 'authenticated' as const };

const RELEASES = '/repos/{owner}/{repo}/releases';
const RELEASE = `${RELEASES}/{release_id}`;
const ASSET = `${RELEASES}/assets/{asset_id}`;

const tagName = v.pipe(
	v.string(),
	v.minLength(1, "tag_name can't be blank"),
	v.maxLength(255, 'tag_name is too long (maximum is 255 characters)'),
);
const releaseFields = {
	// Empty (hub sends `""` when no target is given) means none, as on GitHub: the default branch on
	// create, unchanged on update.
	target_commitish: v.optional(
		v.pipe(
			v.nullable(v.string()),
			v.transform((value) => (value === null || value === '' ? undefined : value)),
		),
	),
	name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1024, 'name is too long (maximum is 1024 characters)')))),
	body: v.optional(v.nullable(v.pipe(v.string(), maxCharacters('body', MAX_RELEASE_BODY)))),
	draft: v.optional(v.boolean()),
	prerelease: v.optional(v.boolean()),
	make_latest: v.optional(v.picklist(['true', 'false', 'legacy'], 'make_latest must be true, false or legacy')),
	// Accepted as GitHub does; Gitstead writes no release notes and has no discussions.
	generate_release_notes: v.optional(v.boolean()),
	discussion_category_name: v.optional(v.string()),
};
const createBody = v.object({ tag_name: tagName, ...releaseFields });
const updateBody = v.object({ tag_name: v.optional(tagName), ...releaseFields });
const assetLabel = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(255, 'label is too long (maximum is 255 characters)'))));
const uploadQuery = v.object({ name: v.pipe(v.string(), v.minLength(1, "name can't be blank")), label: assetLabel });
const assetBody = v.object({
	name: v.optional(v.pipe(v.string(), v.minLength(1, "name can't be blank"))),
	label: assetLabel,
	state: v.optional(v.picklist(['uploaded'], 'state must be uploaded')),
});

const paths = (ctx: Context) => repositoryPaths(ctx.app.urls, ctx.repo.owner.login, ctx.repo.repo.name);
const drafts = (ctx: Context) => seesDrafts(ctx.repo);

/** The release {release_id} (a draft only for callers with push access). @throws DomainError 404 */
function loadRelease(ctx: Context): ReleaseRow {
	const id = idParam(ctx.params.release_id);
	const row = id === null ? undefined : ctx.app.stores.releases.byId(ctx.repo.repo.id, id);
	if (!row || (row.draft === 1 && !drafts(ctx))) throw notFound();
	return row;
}

/** The asset {asset_id} and its release (a draft's only for callers with push access). @throws DomainError 404 */
function loadAsset(ctx: Context): { row: AssetRow; release: ReleaseRow } {
	const id = idParam(ctx.params.asset_id);
	const row = id === null ? undefined : ctx.app.stores.releases.asset(ctx.repo.repo.id, id);
	const owner = row && ctx.app.stores.releases.byId(ctx.repo.repo.id, row.release_id);
	if (!row || !owner || (owner.draft === 1 && !drafts(ctx))) throw notFound();
	return { row, release: owner };
}

function shown(ctx: Context, row: ReleaseRow, assets?: AssetRow[]) {
	return renderReleases(ctx.app, ctx.repo, [row], ctx.media, assets && new Map([[row.id, assets]]))[0];
}

/** @throws DomainError 422 already_exists when the release has another asset named `name` */
function uniqueAsset(ctx: Context, releaseId: number, name: string, self: number | null): void {
	const other = ctx.app.stores.releases.assetByName(releaseId, name);
	if (other && other.id !== self) throw invalidField('ReleaseAsset', 'name', `name already exists`, 'already_exists');
}

/** The normalized asset name. @throws DomainError 422 when nothing of it is left */
function normalName(raw: string): string {
	const name = assetName(raw);
	if (!name) throw invalidField('ReleaseAsset', 'name', 'name is invalid', 'invalid');
	return name;
}

/** The release and the asset name an upload names, checked (before and after the body arrives). */
function uploadTarget(ctx: Context<{ name: string; label?: string | null }>): { release: ReleaseRow; name: string } {
	const target = loadRelease(ctx);
	checkAssetChange(ctx.app, target.id, 'upload');
	const name = normalName(ctx.query.name);
	uniqueAsset(ctx, target.id, name, null);
	return { release: target, name };
}

/** An asset's bytes as a download (counted). @throws DomainError 404 when the file is gone */
function download(ctx: Context, row: AssetRow): Reply {
	const path = downloadAsset(ctx.app, row);
	if (!path) throw notFound();
	return { status: 200, file: { path, contentType: 'application/octet-stream', name: row.name } };
}

export const releaseRoutes = [
	route({
		...READ,
		method: 'GET',
		path: RELEASES,
		resource: { repo: 'read' },
		docs: 'releases/releases#list-releases',
		pagination: true,
		handler(ctx) {
			const { items, total } = releasePage(ctx.app, ctx.repo, { limit: ctx.page.perPage, offset: ctx.page.offset }, ctx.media);
			return paged(items, total);
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: RELEASES,
		resource: { repo: 'push' },
		docs: 'releases/releases#create-a-release',
		errorResource: 'Release',
		body: createBody,
		handler(ctx) {
			const row = createRelease(ctx.app, ctx.repo.repo, ctx.body, ctx.principal.actorId, isoSeconds(ctx.now));
			const body = shown(ctx, row, []);
			return created(body, body.url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${RELEASES}/latest`,
		resource: { repo: 'read' },
		docs: 'releases/releases#get-the-latest-release',
		handler(ctx) {
			const row = ctx.app.stores.releases.latest(ctx.repo.repo.id);
			if (!row) throw notFound();
			return ok(shown(ctx, row));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${RELEASES}/tags/{tag}`,
		resource: { repo: 'read' },
		docs: 'releases/releases#get-a-release-by-tag-name',
		handler(ctx) {
			// Published releases only, as GitHub's "Get a release by tag name".
			const row = ctx.app.stores.releases.byTag(ctx.repo.repo.id, ctx.params.tag);
			if (!row || row.draft === 1) throw notFound();
			return ok(shown(ctx, row));
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: RELEASE,
		resource: { repo: 'read' },
		docs: 'releases/releases#get-a-release',
		handler(ctx) {
			return ok(shown(ctx, loadRelease(ctx)));
		},
	}),
	route({
		...WRITE,
		method: 'PATCH',
		path: RELEASE,
		resource: { repo: 'push' },
		docs: 'releases/releases#update-a-release',
		errorResource: 'Release',
		body: updateBody,
		handler(ctx) {
			const row = updateRelease(ctx.app, ctx.repo.repo, loadRelease(ctx), ctx.body, ctx.principal.actorId, isoSeconds(ctx.now));
			return ok(shown(ctx, row));
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: RELEASE,
		resource: { repo: 'push' },
		docs: 'releases/releases#delete-a-release',
		handler(ctx) {
			deleteRelease(ctx.app, ctx.repo.repo, loadRelease(ctx), ctx.principal.actorId);
			return noContent();
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: `${RELEASE}/assets`,
		resource: { repo: 'read' },
		docs: 'releases/assets#list-release-assets',
		pagination: true,
		handler(ctx) {
			const owner = loadRelease(ctx);
			const { rows, total } = ctx.app.stores.releases.assets(owner.id, ctx.page.perPage, ctx.page.offset);
			const base = paths(ctx);
			const who = people(ctx.app);
			return paged(
				rows.map((row) => asset(ctx.app.urls, base, owner.tag_name, row, who)),
				total,
			);
		},
	}),
	route({
		...WRITE,
		method: 'POST',
		path: `${RELEASE}/assets`,
		resource: { repo: 'push' },
		docs: 'releases/assets#upload-a-release-asset',
		errorResource: 'ReleaseAsset',
		query: uploadQuery,
		upload: {
			dir: requireAssetDir,
			limit: (app) => app.config.storage.max_asset_bytes,
			before: (ctx) => void uploadTarget(ctx),
		},
		handler(ctx) {
			const file = ctx.upload!;
			const target = uploadTarget(ctx);
			const contentType = ctx.req.headers['content-type'];
			const row = ctx.app.stores.releases.insertAsset({
				release_id: target.release.id,
				repo_id: ctx.repo.repo.id,
				name: target.name,
				label: ctx.query.label ?? null,
				content_type: typeof contentType === 'string' && contentType.trim() ? contentType.trim() : 'application/octet-stream',
				size: file.size,
				sha256: file.sha256,
				uploader_id: ctx.principal.actorId,
				blob: basename(file.path),
				created_at: isoSeconds(ctx.now),
			});
			const body = asset(ctx.app.urls, paths(ctx), target.release.tag_name, row, people(ctx.app));
			return created(body, body.url);
		},
	}),
	route({
		...READ,
		method: 'GET',
		path: ASSET,
		resource: { repo: 'read' },
		docs: 'releases/assets#get-a-release-asset',
		handler(ctx) {
			const { row, release: owner } = loadAsset(ctx);
			// GitHub answers the bytes to Accept: application/octet-stream, the JSON otherwise.
			if ((ctx.req.headers.accept ?? '').includes('application/octet-stream')) return download(ctx, row);
			return ok(asset(ctx.app.urls, paths(ctx), owner.tag_name, row, people(ctx.app)));
		},
	}),
	route({
		...WRITE,
		method: 'PATCH',
		path: ASSET,
		resource: { repo: 'push' },
		docs: 'releases/assets#update-a-release-asset',
		errorResource: 'ReleaseAsset',
		body: assetBody,
		handler(ctx) {
			const { row, release: owner } = loadAsset(ctx);
			checkAssetChange(ctx.app, owner.id, 'modify');
			const name = ctx.body.name === undefined ? row.name : normalName(ctx.body.name);
			if (name !== row.name) uniqueAsset(ctx, owner.id, name, row.id);
			const updated = ctx.app.stores.releases.updateAsset(ctx.repo.repo.id, {
				id: row.id,
				name,
				label: ctx.body.label === undefined ? row.label : ctx.body.label,
				updated_at: isoSeconds(ctx.now),
			});
			return ok(asset(ctx.app.urls, paths(ctx), owner.tag_name, updated, people(ctx.app)));
		},
	}),
	route({
		...WRITE,
		method: 'DELETE',
		path: ASSET,
		resource: { repo: 'push' },
		docs: 'releases/assets#delete-a-release-asset',
		handler(ctx) {
			const { row, release: owner } = loadAsset(ctx);
			checkAssetChange(ctx.app, owner.id, 'delete');
			ctx.app.stores.releases.removeAsset(row.id);
			removeAssetFilesAfterCommit(ctx.app, [row]);
			return noContent();
		},
	}),
	route({
		...READ,
		method: 'GET',
		// browser_download_url, at the web origin (also answered below /api/v3).
		path: '/{owner}/{repo}/releases/download/{tag}/{name}',
		resource: { repo: 'read' },
		docs: 'releases/assets#get-a-release-asset',
		handler(ctx) {
			const owner = ctx.app.stores.releases.byTag(ctx.repo.repo.id, ctx.params.tag);
			if (!owner || (owner.draft === 1 && !drafts(ctx))) throw notFound();
			const row = ctx.app.stores.releases.assetByName(owner.id, ctx.params.name);
			if (!row) throw notFound();
			return download(ctx, row);
		},
	}),
];
