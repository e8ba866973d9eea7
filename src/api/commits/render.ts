/**
 * GitHub's commit shapes of the repository commits API (OpenAPI schemas commit, diff-entry,
 * commit-comparison's parts, tag): the full commit with its git data, the GitHub users its author
 * and committer emails belong to, and, for one commit, stats and files. Dates in UTC
 * ('YYYY-MM-DDTHH:MM:SSZ').
 */
import type { App } from '../../app';
import type { Urls } from '../../model/urls';
import { isoSeconds } from '../../time';
import type { FilePatch, TreeChange } from '../git/diff';
import type { CommitData, Ident } from '../git/objects';
import { commitVerification, gitNodeId, objectUrl, repoApi, type RepoView } from '../git/render';
import { simpleUser } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import { signatureVerifier, type Verifier } from '../keys/verification';

/** Finds the GitHub user behind commit emails, once per email within one answer. */
export class AuthorLookup {
	private readonly cache = new Map<string, AccountRow | null>();
	private readonly noreply: RegExp;
	/** Verifies the commits' signatures with the signers' registered keys. */
	readonly verify: Verifier;
	constructor(private readonly app: App) {
		this.verify = signatureVerifier(app);
		const host = app.urls.host.replace(/:\d+$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		// GitHub's noreply addresses: <id>+<login>@users.noreply.<host>.
		this.noreply = new RegExp(`^(\\d+)\\+[^@]+@users\\.noreply\\.${host}$`, 'i');
	}

	/** The account an email belongs to (its own email, or its noreply address), or null. */
	account(email: string): AccountRow | null {
		const key = email.toLowerCase();
		let found = this.cache.get(key);
		if (found === undefined) {
			const match = this.noreply.exec(email);
			found = (match ? this.app.stores.accounts.byId(Number(match[1])) : this.app.stores.branches.userByEmail(email)) ?? null;
			this.cache.set(key, found);
		}
		return found;
	}
}

function person(ident: Ident) {
	return { name: ident.name, email: ident.email, date: isoSeconds(ident.seconds * 1000) };
}

/** API and web URLs of a repository commit (…/commits/<sha>, …/commit/<sha>). */
export function commitUrls(urls: Urls, view: RepoView, sha: string) {
	return {
		url: `${repoApi(urls, view)}/commits/${sha}`,
		html_url: urls.html(`/${view.owner.login}/${view.repo.name}/commit/${sha}`),
	};
}

/** The short commit of lists (branches, tags): {sha, url}. */
export function commitRef(urls: Urls, view: RepoView, sha: string) {
	return { sha, url: commitUrls(urls, view, sha).url };
}

/** ShortBranch: an item of a branches list (GET …/branches, …/commits/{sha}/branches-where-head). */
export function shortBranch(app: App, view: RepoView, name: string, sha: string, protectedBranch: boolean) {
	return { name, commit: commitRef(app.urls, view, sha), protected: protectedBranch };
}

/** Commit: the repository commit object (without stats and files). */
export function fullCommit(app: App, view: RepoView, sha: string, data: CommitData, authors: AuthorLookup) {
	const { urls } = app;
	const links = commitUrls(urls, view, sha);
	const author = authors.account(data.author.email);
	const committer = authors.account(data.committer.email);
	return {
		sha,
		node_id: gitNodeId('Commit', view.repo.id, sha),
		commit: {
			author: person(data.author),
			committer: person(data.committer),
			message: data.message,
			tree: { sha: data.tree, url: objectUrl(urls, view, 'tree', data.tree) },
			url: objectUrl(urls, view, 'commit', sha),
			// Gitstead keeps no commit comments yet.
			comment_count: 0,
			verification: commitVerification(sha, data, authors.verify),
		},
		url: links.url,
		html_url: links.html_url,
		comments_url: `${links.url}/comments`,
		author: author ? simpleUser(urls, author) : null,
		committer: committer ? simpleUser(urls, committer) : null,
		parents: data.parents.map((parent) => ({ sha: parent, ...commitUrls(urls, view, parent) })),
	};
}

/** Encodes a path for URLs, keeping its slashes. */
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * DiffEntry: one changed file of a commit or comparison; URLs name the file at `atSha` (the
 * commit, or the comparison's head).
 */
export function diffEntry(urls: Urls, view: RepoView, atSha: string, change: TreeChange, patch: FilePatch) {
	const path = encodePath(change.path);
	const entry: Record<string, unknown> = {
		sha: change.newSha ?? change.oldSha,
		filename: change.path,
		status: change.status,
		additions: patch.additions,
		deletions: patch.deletions,
		changes: patch.additions + patch.deletions,
		blob_url: urls.html(`/${view.owner.login}/${view.repo.name}/blob/${atSha}/${path}`),
		raw_url: urls.html(`/${view.owner.login}/${view.repo.name}/raw/${atSha}/${path}`),
		contents_url: `${repoApi(urls, view)}/contents/${path}?ref=${atSha}`,
	};
	if (patch.patch !== undefined) entry.patch = patch.patch;
	if (change.previousPath !== undefined) entry.previous_filename = change.previousPath;
	return entry;
}

/** Tag: a tag of the repository tags list, peeled to its commit. */
export function tagItem(urls: Urls, view: RepoView, name: string, commitSha: string) {
	const api = repoApi(urls, view);
	const ref = encodeURIComponent(name);
	return {
		name,
		zipball_url: `${api}/zipball/refs/tags/${ref}`,
		tarball_url: `${api}/tarball/refs/tags/${ref}`,
		commit: commitRef(urls, view, commitSha),
		node_id: gitNodeId('Ref', view.repo.id, `refs/tags/${name}`),
	};
}
