/**
 * GitHub's repository content shapes (OpenAPI content-file, content-directory, content-symlink,
 * content-submodule, content-tree, file-commit): what GET/PUT/DELETE …/contents/{path} and
 * …/readme answer. URLs carry the ref the caller asked for (`?ref=`), as GitHub's do.
 */
import type { Urls } from '../../model/urls';
import { base64Lines, objectUrl, repoApi, type RepoView } from '../git/render';

/** What an item of a folder listing is, as the contents API names it. */
export type ContentType = 'file' | 'dir' | 'symlink' | 'submodule';

/** One path to render: its name and kind, its object id and size. */
export interface ContentItem {
	type: ContentType;
	/** Repository path, no leading slash. */
	path: string;
	sha: string;
	/** Bytes of the blob (0 for folders and submodules). */
	size: number;
}

/** A path in a URL: each segment percent-encoded, slashes kept. */
export function encodePath(path: string): string {
	return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The URLs every content item carries. download_url is given by the caller (it may be signed
 * for a private repository); html_url is the blob or tree page at `ref`.
 */
function links(urls: Urls, view: RepoView, ref: string, item: ContentItem, downloadUrl: string | null, submoduleUrl: string | null) {
	const api = `${repoApi(urls, view)}/contents/${encodePath(item.path)}?ref=${encodeURIComponent(ref)}`;
	const git =
		item.type === 'dir' || item.type === 'submodule'
			? objectUrl(urls, view, 'tree', item.sha)
			: objectUrl(urls, view, 'blob', item.sha);
	const page = `/${view.owner.login}/${view.repo.name}/${item.type === 'dir' ? 'tree' : 'blob'}/${encodePath(ref)}/${encodePath(item.path)}`;
	const html =
		item.type === 'submodule' ? (submoduleUrl ? `${submoduleUrl.replace(/\.git$/, '')}/tree/${item.sha}` : null) : urls.html(page);
	return {
		url: api,
		html_url: html,
		git_url: git,
		download_url: item.type === 'file' || item.type === 'symlink' ? downloadUrl : null,
		_links: { self: api, git, html },
	};
}

/** The fields every content shape starts with. */
export function contentEntry(
	urls: Urls,
	view: RepoView,
	ref: string,
	item: ContentItem,
	downloadUrl: string | null,
	submoduleUrl: string | null = null,
) {
	const name = item.path.slice(item.path.lastIndexOf('/') + 1);
	return {
		type: item.type,
		size: item.size,
		name,
		path: item.path,
		sha: item.sha,
		...links(urls, view, ref, item, downloadUrl, submoduleUrl),
	};
}

/** Largest file GitHub answers with its content in JSON (bigger ones: raw or object media only). */
export const MAX_JSON_FILE = 1024 * 1024;

/**
 * content-file: the entry with `content` (base64 in lines of 60 characters, each ending in a
 * newline) and `encoding` 'base64'; a file over MAX_JSON_FILE asked for with the object media type
 * has empty content and encoding 'none', as on GitHub.
 */
export function file(urls: Urls, view: RepoView, ref: string, item: ContentItem, content: Buffer, downloadUrl: string | null) {
	const big = content.length > MAX_JSON_FILE;
	return {
		...contentEntry(urls, view, ref, item, downloadUrl),
		content: big ? '' : base64Lines(content),
		encoding: big ? 'none' : 'base64',
	};
}

/** content-symlink: the entry with the link's `target`. */
export function symlink(urls: Urls, view: RepoView, ref: string, item: ContentItem, target: string, downloadUrl: string | null) {
	return { ...contentEntry(urls, view, ref, item, downloadUrl), target };
}

/** content-submodule: the entry with `submodule_git_url` (from .gitmodules; null when it names none). */
export function submodule(urls: Urls, view: RepoView, ref: string, item: ContentItem, gitUrl: string | null) {
	return { ...contentEntry(urls, view, ref, item, null, gitUrl), submodule_git_url: gitUrl };
}
