/**
 * Repository contents on the stored git objects (GitHub's repos/contents API): what a path holds
 * at a ref, and files written or deleted as real commits on a branch. Writes run inside the
 * caller's transaction and move the branch through the git reference writes
 * (src/api/git/writes.ts: createRef/updateRef), which record the push (and create) events.
 */
import type { App } from '../../app';
import { conflict, type DomainError, invalidField, notFound, unprocessable } from '../../model/errors';
import type { Ident, TreeMode } from '../git/objects';
import { parseCommit } from '../git/objects';
import { peel, resolveCommit } from '../git/service';
import { checkRefName, createCommit, createRef, createTree, storeObject, updateRef, type PersonInput, type RefWrite } from '../git/writes';
import type { RepositoryRow } from '../../model/rows';
import { visibleEmail } from '../users/render';
import { blockingFile, lookupPath, treeEntries } from './paths';

/** GitHub's answer for the contents of a repository without commits. */
export const EMPTY_REPOSITORY = 'This repository is empty.';

/** A ref resolved for reading: the name URLs carry, the commit and its tree. */
export interface ResolvedRef {
	ref: string;
	commit: string;
	tree: string;
}

/**
 * The commit a contents read looks at: `ref` (a branch, tag or commit id), else the default branch.
 * @throws DomainError 404 "This repository is empty." without commits; 404 "No commit found for the ref <ref>"
 */
export function resolveRef(app: App, repo: RepositoryRow, ref: string | undefined): ResolvedRef {
	if (!app.stores.git.hasCommits(repo.id)) throw notFound(EMPTY_REPOSITORY);
	const name = ref === undefined || ref === '' ? repo.default_branch : ref;
	const commit = resolveCommit(app, repo, name);
	if (!commit) throw notFound(`No commit found for the ref ${name}`);
	return { ref: name, commit, tree: parseCommit(app.stores.git.object(repo.id, commit)!.content).tree };
}

/**
 * The URL .gitmodules gives the submodule at `path` ([submodule "x"] path = …, url = …), or null.
 * Read from the root tree of the same commit, as git does.
 */
export function submoduleUrl(app: App, repoId: number, rootTree: string, path: string): string | null {
	const found = lookupPath(app, repoId, rootTree, '.gitmodules');
	if (!found || found.root || found.entry.mode === '040000') return null;
	const row = app.stores.git.object(repoId, found.entry.sha);
	if (!row || row.type !== 'blob') return null;
	let current: { path?: string; url?: string } = {};
	const sections: Array<typeof current> = [current];
	for (const line of row.content.toString('utf8').split('\n')) {
		const text = line.trim();
		if (text.startsWith('[')) sections.push((current = {}));
		const match = /^(path|url)\s*=\s*(.*)$/.exec(text);
		if (match) current[match[1] as 'path' | 'url'] = match[2].trim();
	}
	return sections.find((section) => section.path === path)?.url ?? null;
}

// ---------------------------------------------------------------------------------------------
// README

/** README extensions in GitHub's order of preference (markup first, plain text last). */
const README_EXTENSIONS = [
	'.md',
	'.markdown',
	'.mdown',
	'.mkdn',
	'.mkd',
	'.rst',
	'.adoc',
	'.asciidoc',
	'.org',
	'.textile',
	'.rdoc',
	'.txt',
	'',
];

/**
 * The README of the folder `dir` (a file named README, case-insensitively, with any extension;
 * markup preferred). For the repository's README, GitHub's places in its order: .github/, the
 * root, docs/ ("About READMEs": the first of these holding one wins).
 * @returns its repository path, or null
 */
export function findReadme(app: App, repoId: number, rootTree: string, dir: string): string | null {
	const places = dir === '' ? ['.github', '', 'docs'] : [dir];
	for (const place of places) {
		const found = lookupPath(app, repoId, rootTree, place);
		if (!found) continue;
		const sha = found.root ? found.sha : found.entry.mode === '040000' ? found.entry.sha : null;
		if (!sha) continue;
		const candidates = treeEntries(app, repoId, sha).filter(
			(e) => e.mode !== '040000' && e.mode !== '160000' && /^readme(\.[^/]*)?$/i.test(e.name),
		);
		if (!candidates.length) continue;
		const rank = (name: string) => {
			const ext = name.slice(6).toLowerCase();
			const at = README_EXTENSIONS.indexOf(ext);
			return at < 0 ? README_EXTENSIONS.length : at;
		};
		candidates.sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : 1));
		return place === '' ? candidates[0].name : `${place}/${candidates[0].name}`;
	}
	return null;
}

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * The caller as a committer: the account's name (else login) and email (its public one, else
 * GitHub's noreply address <id>+<login>@users.noreply.<host>).
 * @throws DomainError 422 when no user acts and no committer is given
 */
export function callerPerson(app: App, actorId: number | null): PersonInput {
	const account = actorId === null ? undefined : app.stores.accounts.byId(actorId);
	if (!account) throw invalidField('Content', 'committer', 'committer is required when no user acts', 'missing_field');
	const host = app.urls.host.replace(/:\d+$/, '');
	const clean = (text: string | null) => (text ?? '').replace(/[<>\n\0]/g, '').trim();
	return {
		name: clean(account.name) || account.login,
		email: clean(visibleEmail(account)) || `${account.id}+${account.login}@users.noreply.${host}`,
	};
}

/** What a file write or deletion needs besides the repository. */
export interface FileChange {
	path: string;
	message: string;
	/** The new bytes; null deletes the file. */
	content: Buffer | null;
	/** The blob the caller believes is there (required to replace or delete a file). */
	sha?: string;
	/** Default: the repository's default branch. */
	branch?: string;
	author: Ident;
	committer: Ident;
}

/** What a file write made. */
export interface FileCommit {
	branch: string;
	commit: string;
	/** The file's new blob and mode (null after a deletion). */
	blob: string | null;
	mode: TreeMode | null;
	/** True when the file did not exist before. */
	created: boolean;
}

/** GitHub's 422 for a required field left out of a contents write ('sha' for an existing file). */
export function notSupplied(field: string): DomainError {
	return unprocessable(`Invalid request.\n\n"${field}" wasn't supplied.`);
}

/**
 * Writes or deletes one file as a new commit on a branch (PUT and DELETE …/contents/{path}): a
 * new blob, a new tree along the path, a commit whose parent is the branch's head (none in an
 * empty repository), then the branch moves forward through updateRef (or is created through
 * createRef), which records the push. `path` must be checked already (checkWritePath).
 * @param now ISO timestamp
 * @param options who writes, for branch protection (an administrator bypasses what enforce_admins allows)
 * @throws DomainError 404 for a missing branch (or file to delete), 409 "<path> does not match <sha>"
 *   when `sha` is not the file's blob, 422 when `sha` is missing for an existing file or the path
 *   runs through a file or names a folder
 */
export function commitFile(
	app: App,
	repo: RepositoryRow,
	change: FileChange,
	now: string,
	actorId: number | null,
	options: Omit<RefWrite, 'now' | 'actorId'> = {},
): FileCommit {
	const { git } = app.stores;
	const branch = change.branch ?? repo.default_branch;
	const refName = `refs/heads/${branch}`;
	checkRefName(refName);
	const ref = git.ref(repo.id, refName);
	const empty = !git.hasCommits(repo.id);
	if (!ref && !empty) throw notFound(`Branch ${branch} not found`);
	const parent = ref ? peel(app, repo.id, ref.sha, 'commit') : null;
	if (ref && !parent) throw notFound(`Branch ${branch} not found`);
	const baseTree = parent ? parseCommit(git.object(repo.id, parent)!.content).tree : undefined;

	const existing = baseTree ? lookupPath(app, repo.id, baseTree, change.path) : null;
	const entry = existing && !existing.root ? existing.entry : null;
	if (entry && (entry.mode === '040000' || entry.mode === '160000')) {
		throw invalidField('Content', 'path', `${change.path} is a ${entry.mode === '040000' ? 'directory' : 'submodule'}, not a file`);
	}
	const blocked = baseTree ? blockingFile(app, repo.id, baseTree, change.path) : null;
	if (blocked) throw invalidField('Content', 'path', `${blocked} is a file, so ${change.path} cannot be created below it`);
	if (change.content === null && !entry) throw notFound();
	if (entry) {
		if (change.sha === undefined) throw notSupplied('sha');
		if (change.sha.toLowerCase() !== entry.sha) throw conflict(`${change.path} does not match ${change.sha}`);
	}

	const blob = change.content === null ? null : storeObject(app, repo.id, 'blob', change.content, now);
	const mode: TreeMode | null = blob === null ? null : entry ? entry.mode : '100644';
	const tree = createTree(app, repo.id, baseTree, [{ path: change.path, mode: mode ?? '100644', sha: blob }], now);
	const commit = createCommit(
		app,
		repo.id,
		{
			message: change.message,
			tree,
			parents: parent ? [parent] : [],
			author: change.author,
			committer: change.committer,
			signature: null,
		},
		now,
	);
	if (ref) updateRef(app, repo, refName, commit, { ...options, now, actorId });
	else createRef(app, repo, refName, commit, { ...options, now, actorId });
	return { branch, commit, blob, mode, created: !entry };
}

/** One file of an initial commit. */
export interface InitialFile {
	path: string;
	content: string;
}

/**
 * The initial commit of a new repository (auto_init): the files in one tree, committed by
 * `person` with GitHub's message "Initial commit", and the default branch pointing to it. Records
 * the push of the new branch (GitHub reports the first commit of an auto-initialized repository as
 * a push).
 * @param now ISO timestamp
 * @returns the commit's sha
 */
export function initialCommit(
	app: App,
	repo: RepositoryRow,
	files: InitialFile[],
	person: Ident,
	now: string,
	actorId: number | null,
): string {
	const inputs = files.map((file) => ({
		path: file.path,
		mode: '100644' as const,
		sha: storeObject(app, repo.id, 'blob', Buffer.from(file.content, 'utf8'), now),
	}));
	const tree = createTree(app, repo.id, undefined, inputs, now);
	const commit = createCommit(
		app,
		repo.id,
		{ message: 'Initial commit', tree, parents: [], author: person, committer: person, signature: null },
		now,
	);
	createRef(app, repo, `refs/heads/${repo.default_branch}`, commit, { now, actorId });
	return commit;
}
