/**
 * Writing to a repository's git database (GitHub's git database API: blobs, trees, commits, tag
 * objects, references) with GitHub's rules and messages. Every function runs inside the caller's
 * transaction (the pipeline wraps each write request in one) and throws HttpError 409/422 before
 * anything is kept. createRef and updateRef are the one reference-update path: the rules the
 * application was wired with (App.refRules: branch protection, src/api/branches/enforce.ts, then
 * organization rulesets, src/api/rulesets/enforce.ts) check every writer there, and what follows
 * references (App.refFollowers: the pull requests whose head or base is the branch,
 * src/api/pulls/follow.ts) follows them there.
 */
import type { App } from '../../app';
import { conflict, invalidField, unprocessable, type ValidationItem, validationFailed } from '../../model/errors';
import {
	badEntryName,
	encodeCommit,
	encodeTag,
	encodeTree,
	FULL_SHA,
	hashObject,
	isValidRefName,
	MODE_TYPE,
	parseIsoDate,
	parseTree,
	type Ident,
	type ObjectType,
	type TreeEntry,
	type TreeMode,
} from './objects';
import { isAncestor, peel } from './service';
import { isoSeconds } from '../../time';
import { recordCreateRef, recordDeleteRef, recordPush } from './events';
import type { RepositoryRow } from '../../model/rows';

/**
 * Who writes a reference and how, for branch protection (src/api/branches/enforce.ts), rulesets
 * and the events.
 */
export interface RefWrite {
	/** ISO timestamp (default: the app's clock). */
	now?: string;
	/** Who acts (the events' actor and sender; null: the command line). */
	actorId: number | null;
	/** The actor administers the repository (bypasses what enforce_admins leaves to administrators). */
	admin?: boolean;
	/** The write is a pull request's merge. */
	viaPullRequest?: boolean;
	/** A pull request's merge: the head commit whose checks count for required status checks (not the new merge commit). */
	checksSha?: string;
}

/** A reference moved by someone else between reading it and writing it (compare-and-swap failed). */
export class RefRaceError extends Error {
	constructor(
		readonly ref: string,
		readonly current: string | null,
	) {
		super(`cannot lock ref '${ref}': reference moved`);
	}
}

/** GitHub's answer for git operations on a repository without commits. */
export const EMPTY_REPOSITORY = 'Git Repository is empty.';

/**
 * Stores an object (content-addressed: storing it twice keeps one).
 * @param now ISO timestamp
 * @returns its object id
 */
export function storeObject(app: App, repoId: number, type: ObjectType, content: Buffer, now: string, parents: string[] = []): string {
	const sha = hashObject(type, content);
	app.stores.git.insert(repoId, sha, type, content, now, parents);
	return sha;
}

/** @throws HttpError 409 "Git Repository is empty." when the repository holds no commit */
export function requireCommits(app: App, repoId: number): void {
	if (!app.stores.git.hasCommits(repoId)) throw conflict(EMPTY_REPOSITORY);
}

/** Lowercase full id, or null when `text` is not 40 hex digits. */
export function fullSha(text: string): string | null {
	const lower = text.toLowerCase();
	return FULL_SHA.test(lower) ? lower : null;
}

// ---------------------------------------------------------------------------------------------
// Blobs

/**
 * A blob's bytes from the request: 'utf-8' text, or 'base64' (whitespace allowed, as GitHub's
 * decoder allows line breaks).
 * @throws HttpError 422 for text that is not base64
 */
export function blobContent(content: string, encoding: 'utf-8' | 'base64'): Buffer {
	if (encoding === 'utf-8') return Buffer.from(content, 'utf8');
	const compact = content.replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
		throw invalidField('Blob', 'content', 'content is not valid base64');
	}
	return Buffer.from(compact, 'base64');
}

// ---------------------------------------------------------------------------------------------
// Trees

/** Longest path of a tree entry, in characters (PATH_MAX); it also bounds how deep one request nests. */
export const MAX_PATH = 4096;

/** One item of POST /git/trees `tree`, after schema validation. */
export interface TreeInput {
	path: string;
	mode: TreeMode;
	type?: 'blob' | 'tree' | 'commit';
	sha?: string | null;
	content?: string;
}

/** A directory being edited: entries as stored, and subdirectories loaded for editing. */
interface Dir {
	entries: Map<string, TreeEntry>;
	children: Map<string, Dir>;
}

function loadDir(app: App, repoId: number, sha: string | null): Dir {
	const entries = new Map<string, TreeEntry>();
	if (sha) for (const entry of parseTree(app.stores.git.object(repoId, sha)!.content)) entries.set(entry.name, entry);
	return { entries, children: new Map() };
}

/** Writes the edited directories bottom-up; an emptied subdirectory disappears. @returns the tree's sha */
function writeDir(app: App, repoId: number, dir: Dir, now: string): string | null {
	for (const [name, child] of dir.children) {
		const sha = writeDir(app, repoId, child, now);
		if (sha === null) dir.entries.delete(name);
		else dir.entries.set(name, { mode: '040000', name, sha });
	}
	if (dir.entries.size === 0) return null;
	return storeObject(app, repoId, 'tree', encodeTree([...dir.entries.values()]), now);
}

/**
 * Builds a tree (POST /git/trees): the entries of `baseTree` (if given) with the request's
 * entries applied by path; nested paths ('a/b/c.txt') edit subtrees, `content` writes a blob,
 * `sha: null` deletes a path (which must exist). Blob and tree ids must exist in the repository
 * with that type; submodule (commit) ids are taken as given.
 * @param now ISO timestamp
 * @throws HttpError 422 with GitHub's messages ("base_tree is not a valid tree oid",
 *   "tree.sha <sha> is not a valid blob", ...) or a validation error naming tree.<i>.<field>
 * @returns the new tree's sha
 */
export function createTree(app: App, repoId: number, baseTree: string | undefined, inputs: TreeInput[], now: string): string {
	const { git } = app.stores;
	let base: string | null = null;
	if (baseTree !== undefined) {
		base = fullSha(baseTree);
		if (!base || git.meta(repoId, base)?.type !== 'tree') throw unprocessable('base_tree is not a valid tree oid');
	}
	const problems: ValidationItem[] = [];
	const problem = (index: number, field: string, message: string) =>
		problems.push({ resource: 'Tree', field: `tree.${index}.${field}`, code: 'invalid', message });
	// Check every item first, so a bad request reports all of its problems and writes nothing.
	const checked = inputs.map((input, index) => {
		const type = MODE_TYPE[input.mode];
		if (input.type !== undefined && input.type !== type)
			problem(index, 'type', `mode ${input.mode} is for a ${type}, not a ${input.type}`);
		const parts = input.path.split('/');
		const bad =
			input.path.length > MAX_PATH
				? `has more than ${MAX_PATH} characters`
				: parts.map(badEntryName).find((reason) => reason !== null);
		if (bad) problem(index, 'path', `"${input.path.slice(0, 200)}" ${bad}`);
		const hasSha = input.sha !== undefined;
		if (hasSha && input.content !== undefined) problem(index, 'content', 'use either tree.sha or content, not both');
		if (!hasSha && input.content === undefined) problem(index, 'sha', 'tree.sha or content is required');
		if (input.content !== undefined && type !== 'blob')
			problem(index, 'content', `content makes a blob; mode ${input.mode} is for a ${type}`);
		let sha: string | null = null;
		if (typeof input.sha === 'string') {
			sha = fullSha(input.sha);
			if (!sha) problem(index, 'sha', `"${input.sha}" is not a full object id (40 hexadecimal digits)`);
		}
		return { input, type, parts, sha };
	});
	if (problems.length) throw validationFailed(problems);
	for (const { input, type, sha } of checked) {
		if (sha && type !== 'commit' && git.meta(repoId, sha)?.type !== type)
			throw unprocessable(`tree.sha ${input.sha} is not a valid ${type}`);
	}

	const root = loadDir(app, repoId, base);
	for (const { input, parts, sha } of checked) {
		let dir = root;
		let missing = false;
		for (const part of parts.slice(0, -1)) {
			let child = dir.children.get(part);
			if (!child) {
				const existing = dir.entries.get(part);
				if (input.sha === null && existing?.mode !== '040000') {
					missing = true;
					break;
				}
				child = loadDir(app, repoId, existing?.mode === '040000' ? existing.sha : null);
				dir.children.set(part, child);
			}
			dir = child;
		}
		const name = parts[parts.length - 1];
		if (input.sha === null) {
			if (missing || (!dir.entries.has(name) && !dir.children.has(name))) {
				throw unprocessable(`tree.path ${input.path} cannot be deleted: it does not exist in base_tree`);
			}
			dir.entries.delete(name);
			dir.children.delete(name);
			continue;
		}
		const id = sha ?? storeObject(app, repoId, 'blob', Buffer.from(input.content!, 'utf8'), now);
		dir.children.delete(name);
		dir.entries.set(name, { mode: input.mode, name, sha: id });
	}
	return writeDir(app, repoId, root, now) ?? storeObject(app, repoId, 'tree', Buffer.alloc(0), now);
}

// ---------------------------------------------------------------------------------------------
// Commits and tags

/** A person as a request gives it. */
export interface PersonInput {
	name: string;
	email: string;
	date?: string;
}

/**
 * Checks a person and fixes the date: the given ISO 8601 date with its offset, or now (UTC).
 * @param field errors[].field prefix: 'author', 'committer', 'tagger'
 * @throws HttpError 422 for a name or email git cannot store (with '<', '>' or a line break), or a bad date
 */
export function ident(resource: string, field: string, person: PersonInput, nowMs: number): Ident {
	const problems: ValidationItem[] = [];
	for (const key of ['name', 'email'] as const) {
		const value = person[key];
		if (value.trim() === '')
			problems.push({ resource, field: `${field}.${key}`, code: 'missing_field', message: `${field}.${key} must not be blank` });
		else if (/[<>\n\0]/.test(value)) {
			problems.push({
				resource,
				field: `${field}.${key}`,
				code: 'invalid',
				message: `${field}.${key} must not contain '<', '>' or line breaks`,
			});
		}
	}
	let when = { seconds: Math.floor(nowMs / 1000), tz: '+0000' };
	if (person.date !== undefined) {
		const parsed = parseIsoDate(person.date);
		if (!parsed)
			problems.push({ resource, field: `${field}.date`, code: 'invalid', message: `"${person.date}" is not an ISO 8601 timestamp` });
		else when = parsed;
	}
	if (problems.length) throw validationFailed(problems);
	return { name: person.name.trim(), email: person.email.trim(), ...when };
}

export interface CommitInput {
	message: string;
	tree: string;
	parents: string[];
	author: Ident;
	committer: Ident;
	signature: string | null;
}

/**
 * Creates a commit (POST /git/commits), encoded byte for byte as git would.
 * @param now ISO timestamp
 * @throws HttpError 422 "Tree SHA does not exist" / "Parent SHA does not exist or is not a commit object"
 * @returns the commit's sha
 */
export function createCommit(app: App, repoId: number, input: CommitInput, now: string): string {
	const { content, parents } = commitContent(app, repoId, input);
	return storeObject(app, repoId, 'commit', content, now, parents);
}

/**
 * The bytes of the commit createCommit would store (its checks included), and its parents.
 * @throws DomainError 422 as createCommit
 */
export function commitContent(app: App, repoId: number, input: CommitInput): { content: Buffer; parents: string[] } {
	const { git } = app.stores;
	const tree = fullSha(input.tree);
	if (!tree || git.meta(repoId, tree)?.type !== 'tree') throw unprocessable('Tree SHA does not exist');
	const parents = input.parents.map((parent) => {
		const sha = fullSha(parent);
		if (!sha || git.meta(repoId, sha)?.type !== 'commit') throw unprocessable('Parent SHA does not exist or is not a commit object');
		return sha;
	});
	let signature = input.signature;
	if (signature !== null && signature.trim() === '') signature = null;
	if (signature !== null && !signature.endsWith('\n')) signature += '\n';
	const content = encodeCommit({ tree, parents, author: input.author, committer: input.committer, message: input.message, signature });
	return { content, parents };
}

export interface TagInput {
	tag: string;
	message: string;
	object: string;
	type: ObjectType;
	tagger: Ident;
}

/**
 * Creates an annotated tag object (POST /git/tags); the reference refs/tags/<tag> is separate.
 * @param now ISO timestamp
 * @throws HttpError 409 for a repository without commits, 422 when the object does not exist or is not of `type`
 * @returns the tag object's sha
 */
export function createTag(app: App, repoId: number, input: TagInput, now: string): string {
	return storeObject(app, repoId, 'tag', tagContent(app, repoId, input), now);
}

/**
 * The bytes of the tag object createTag would store (its checks included).
 * @throws DomainError as createTag
 */
export function tagContent(app: App, repoId: number, input: TagInput): Buffer {
	requireCommits(app, repoId);
	if (input.tag.trim() === '' || /[\n\0]/.test(input.tag)) throw invalidField('Tag', 'tag', 'tag must be a non-blank name on one line');
	const object = fullSha(input.object);
	const meta = object ? app.stores.git.meta(repoId, object) : undefined;
	if (!object || !meta) throw unprocessable('Object does not exist');
	if (meta.type !== input.type) throw invalidField('Tag', 'type', `object ${object} is a ${meta.type}, not a ${input.type}`);
	return encodeTag({ object, type: input.type, tag: input.tag, tagger: input.tagger, message: input.message });
}

// ---------------------------------------------------------------------------------------------
// References

/**
 * A reference name Gitstead keeps: refs/heads/<branch> or refs/tags/<tag>, valid for git
 * (check-ref-format).
 * @throws HttpError 422 "<ref> is not a valid ref name."
 */
export function checkRefName(name: string): void {
	if (!(name.startsWith('refs/heads/') || name.startsWith('refs/tags/')) || !isValidRefName(name)) {
		throw unprocessable(`${name} is not a valid ref name.`);
	}
}

/** The object a reference may point to: branches need commits. @throws HttpError 422 */
function refTarget(app: App, repoId: number, name: string, shaText: string): { sha: string; type: ObjectType } {
	const sha = fullSha(shaText);
	const meta = sha ? app.stores.git.meta(repoId, sha) : undefined;
	if (!sha || !meta) throw unprocessable('Object does not exist');
	if (name.startsWith('refs/heads/') && meta.type !== 'commit')
		throw unprocessable(`Object ${sha} is a ${meta.type}; a branch must point to a commit`);
	return { sha, type: meta.type };
}

/**
 * The one reference-update path: every writer (the git refs API, contents, merges, releases'
 * tags, pushes over git) moves references here. Checks branch protection and rulesets for the
 * writer, writes the reference only if it still holds `before` (compare-and-swap), sets
 * pushed_at for branches, records the create/delete/push events and lets the pull requests
 * follow their branches.
 * @param before the reference's value now (null: it is created)
 * @param after its new value (null: it is deleted)
 * @throws the protection and ruleset refusals (HTTP 422, src/api/branches/enforce.ts,
 *   src/api/rulesets/enforce.ts); RefRaceError when the reference is no longer at `before`
 */
export function moveRef(app: App, repo: RepositoryRow, name: string, before: string | null, after: string | null, write: RefWrite): void {
	const now = write.now ?? isoSeconds(app.clock());
	const writer = {
		actorId: write.actorId,
		admin: write.admin === true,
		viaPullRequest: write.viaPullRequest,
		checksSha: write.checksSha,
	};
	if (before !== after) {
		for (const rule of app.refRules) rule(app, repo, name, before, after, writer);
	}
	const { git } = app.stores;
	// What a full clone sends is no longer known (a push that can tell writes it again).
	if (before !== after) git.dropReachable(repo.id);
	if (before === null) {
		const existing = git.ref(repo.id, name);
		if (existing) throw new RefRaceError(name, existing.sha);
		git.insertRef(repo.id, name, after!, now);
	} else if (after === null) {
		const current = git.ref(repo.id, name);
		if (!current || current.sha !== before) throw new RefRaceError(name, current?.sha ?? null);
		git.deleteRef(repo.id, name);
	} else if (!git.swapRef(repo.id, name, before, after, now)) {
		throw new RefRaceError(name, git.ref(repo.id, name)?.sha ?? null);
	}
	if (after !== null && name.startsWith('refs/heads/')) git.touchPushed(repo.id, now);
	if (before === after) return;
	if (before === null) recordCreateRef(app, repo, name, after!, write.actorId);
	else if (after === null) recordDeleteRef(app, repo, name, before, write.actorId);
	else recordPush(app, repo, name, before, after, write.actorId);
	// What follows the reference (App.refFollowers: pull requests whose head or base is this branch).
	if (after !== null) for (const follow of app.refFollowers) follow(app, repo, name, after, write.actorId);
}

/**
 * Creates a reference (POST /git/refs), recording the create and push events.
 * @throws HttpError 409 for a repository without commits; 422 for an invalid name, an existing
 *   reference ("Reference already exists"), or a missing object ("Object does not exist")
 */
export function createRef(
	app: App,
	repo: RepositoryRow,
	name: string,
	shaText: string,
	write: RefWrite,
): { sha: string; type: ObjectType } {
	requireCommits(app, repo.id);
	checkRefName(name);
	if (app.stores.git.ref(repo.id, name)) throw unprocessable('Reference already exists');
	const target = refTarget(app, repo.id, name, shaText);
	moveRef(app, repo, name, null, target.sha, write);
	return target;
}

/**
 * Moves a reference (PATCH /git/refs/{ref}); without `force` only forward, to a commit that has
 * the current one in its history (annotated tags are followed to their commits); records the push.
 * @throws HttpError 409 for a repository without commits; 422 "Reference does not exist",
 *   "Object does not exist", "Update is not a fast forward", and the branch protection refusals
 *   of src/api/branches/enforce.ts checkRefUpdate ("Cannot force-push to this branch", ...)
 */
export function updateRef(
	app: App,
	repo: RepositoryRow,
	name: string,
	shaText: string,
	write: RefWrite & { force?: boolean },
): { sha: string; type: ObjectType } {
	requireCommits(app, repo.id);
	const current = app.stores.git.ref(repo.id, name);
	if (!current) throw unprocessable('Reference does not exist');
	const target = refTarget(app, repo.id, name, shaText);
	if (!write.force && current.sha !== target.sha) {
		const from = peel(app, repo.id, current.sha, 'commit');
		const to = peel(app, repo.id, target.sha, 'commit');
		if (!from || !to || !isAncestor(app, repo.id, from, to)) throw unprocessable('Update is not a fast forward');
	}
	moveRef(app, repo, name, current.sha, target.sha, write);
	return target;
}

/**
 * Deletes a reference (DELETE /git/refs/{ref}); the default branch stays. Records the delete and
 * push events.
 * @throws HttpError 409 for a repository without commits; 422 "Reference does not exist", "Cannot delete the default branch",
 *   "Cannot delete this protected branch" (src/api/branches/enforce.ts)
 */
export function deleteRef(app: App, repo: RepositoryRow, name: string, write: RefWrite): void {
	requireCommits(app, repo.id);
	const current = app.stores.git.ref(repo.id, name);
	if (!current) throw unprocessable('Reference does not exist');
	if (name === `refs/heads/${repo.default_branch}`) throw unprocessable('Cannot delete the default branch');
	moveRef(app, repo, name, current.sha, null, { ...write, viaPullRequest: undefined, checksSha: undefined });
}
