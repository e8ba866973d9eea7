/**
 * GitHub's git database shapes (OpenAPI schemas short-blob, blob, git-tree, git-commit, git-ref,
 * git-tag, verification). Dates are answered in UTC ('YYYY-MM-DDTHH:MM:SSZ'), as GitHub does.
 */
import type { Urls } from '../../model/urls';
import { isoSeconds } from '../../time';
import type { AccountRow } from '../users/store';
import { repositoryPaths } from '../../model/render';
import type { RepositoryRow } from '../../model/rows';
import { UNSIGNED, type Verification, type Verifier } from '../keys/verification';
import { commitPayload, findTrailingSignature, type CommitData, type Ident, type ObjectType, type TagData, type TreeMode } from './objects';

/** The repository an object belongs to, for URLs and node ids. */
export interface RepoView {
	repo: RepositoryRow;
	owner: AccountRow;
}

/**
 * GitHub's legacy node id of a git object or reference: base64 of
 * "<length of type name, 2 digits>:<Type><repository id>:<sha or ref name>" (e.g. "06:Commit42:<sha>").
 */
export function gitNodeId(type: 'Blob' | 'Tree' | 'Commit' | 'Tag' | 'Ref', repoId: number, key: string): string {
	return Buffer.from(`${String(type.length).padStart(2, '0')}:${type}${repoId}:${key}`).toString('base64');
}

/** API base of the repository: .../repos/<owner>/<repo> */
export function repoApi(urls: Urls, view: RepoView): string {
	return repositoryPaths(urls, view.owner.login, view.repo.name).api;
}

const COLLECTION: Record<ObjectType, string> = { blob: 'blobs', tree: 'trees', commit: 'commits', tag: 'tags' };

/** API URL of an object: .../git/blobs|trees|commits|tags/<sha> */
export function objectUrl(urls: Urls, view: RepoView, type: ObjectType, sha: string): string {
	return `${repoApi(urls, view)}/git/${COLLECTION[type]}/${sha}`;
}

/** API URL of a reference ('refs/heads/main' → .../git/refs/heads/main). */
export function refUrl(urls: Urls, view: RepoView, name: string): string {
	return `${repoApi(urls, view)}/git/${encodeURI(name).replace(/#/g, '%23')}`;
}

/** ShortBlob: the answer to creating a blob. */
export function shortBlob(urls: Urls, view: RepoView, sha: string) {
	return { sha, url: objectUrl(urls, view, 'blob', sha) };
}

/**
 * GitHub's base64 layout (Ruby's Base64.encode64): lines of 60 characters, each ending in a newline.
 */
export function base64Lines(content: Buffer): string {
	const text = content.toString('base64');
	let out = '';
	for (let at = 0; at < text.length; at += 60) out += `${text.slice(at, at + 60)}\n`;
	return out;
}

/** Blob: content always base64. */
export function blob(urls: Urls, view: RepoView, sha: string, content: Buffer) {
	return {
		sha,
		node_id: gitNodeId('Blob', view.repo.id, sha),
		size: content.length,
		url: objectUrl(urls, view, 'blob', sha),
		content: base64Lines(content),
		encoding: 'base64',
	};
}

/** One entry of a tree listing; `size` only for blobs, `url` except for submodules (commits). */
export interface TreeItem {
	path: string;
	mode: TreeMode;
	type: 'blob' | 'tree' | 'commit';
	sha: string;
	size?: number;
}

/** GitTree. */
export function tree(urls: Urls, view: RepoView, sha: string, items: TreeItem[], truncated: boolean) {
	return {
		sha,
		url: objectUrl(urls, view, 'tree', sha),
		tree: items.map((item) => {
			const entry: Record<string, unknown> = { path: item.path, mode: item.mode, type: item.type, sha: item.sha };
			if (item.type === 'blob') entry.size = item.size ?? 0;
			if (item.type !== 'commit') entry.url = objectUrl(urls, view, item.type, item.sha);
			return entry;
		}),
		truncated,
	};
}

function person(ident: Ident) {
	return { name: ident.name, email: ident.email, date: isoSeconds(ident.seconds * 1000) };
}

/**
 * Verification of a commit: the gpgsig header's signature over the commit without it, checked by
 * `verify` against the signer's registered keys (src/api/keys/verification.ts).
 */
export function commitVerification(sha: string, commit: CommitData, verify: Verifier): Verification {
	if (!commit.signature) return UNSIGNED;
	return verify({
		sha,
		signature: commit.signature,
		payload: commitPayload(commit),
		email: commit.committer.email,
		seconds: commit.committer.seconds,
	});
}

/**
 * Verification of a tag: a signature is an armored block closing the message (as git appends
 * it); the payload is the tag object's text before it; the tagger's email is the signer's.
 */
export function tagVerification(sha: string, data: TagData, objectText: string, verify: Verifier): Verification {
	const found = findTrailingSignature(objectText);
	if (!found) return UNSIGNED;
	return verify({ sha, signature: found.signature, payload: found.payload, email: data.tagger.email, seconds: data.tagger.seconds });
}

/** GitCommit. */
export function commit(urls: Urls, view: RepoView, sha: string, data: CommitData, verify: Verifier) {
	const html = (id: string) => urls.html(`/${view.owner.login}/${view.repo.name}/commit/${id}`);
	return {
		sha,
		node_id: gitNodeId('Commit', view.repo.id, sha),
		url: objectUrl(urls, view, 'commit', sha),
		html_url: html(sha),
		author: person(data.author),
		committer: person(data.committer),
		tree: { sha: data.tree, url: objectUrl(urls, view, 'tree', data.tree) },
		message: data.message,
		parents: data.parents.map((parent) => ({ sha: parent, url: objectUrl(urls, view, 'commit', parent), html_url: html(parent) })),
		verification: commitVerification(sha, data, verify),
	};
}

/** GitTag. @param objectText the tag object's whole text (for the verification payload) */
export function tag(urls: Urls, view: RepoView, sha: string, data: TagData, objectText: string, verify: Verifier) {
	return {
		node_id: gitNodeId('Tag', view.repo.id, sha),
		tag: data.tag,
		sha,
		url: objectUrl(urls, view, 'tag', sha),
		message: data.message,
		tagger: person(data.tagger),
		object: { sha: data.object, type: data.type, url: objectUrl(urls, view, data.type, data.object) },
		verification: tagVerification(sha, data, objectText, verify),
	};
}

/** GitRef. */
export function ref(urls: Urls, view: RepoView, name: string, sha: string, type: ObjectType) {
	return {
		ref: name,
		node_id: gitNodeId('Ref', view.repo.id, name),
		url: refUrl(urls, view, name),
		object: { sha, type, url: objectUrl(urls, view, type, sha) },
	};
}
