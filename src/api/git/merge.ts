/**
 * The merge engine of pull requests: three-way merges of trees as git's `ort` strategy
 * makes them for the common cases, and the commits of GitHub's three merge methods (merge commit,
 * squash, rebase) built on top. Nothing here moves a reference: the caller moves the base branch
 * with writes.ts `updateRef`, so branch protection applies to merges as to every other write.
 *
 * - mergeBase(app, repoId, a, b): the best common ancestor (service.ts; re-exported), and
 *   mergeBaseTree: the tree merged against (a virtual base for criss-cross histories);
 * - mergeTrees(app, repoId, base, ours, theirs, now): one merged tree, or the conflicting paths;
 * - mergeText(base, ours, theirs): one text file's line merge;
 * - mergeCommit / squashCommit / rebaseCommits: the new commit (or head) id, or the conflicts;
 *   rebaseList: the commits a rebase replays.
 *
 * Errors: MergeTooLargeError past the bounds (MERGE_LIMITS, MAX_REBASE_COMMITS); a plain Error when
 * an id given is not a commit (or tree) of the repository (a caller's bug: resolve ids first).
 *
 * What git does and this does not: rename detection (a rename is a deletion plus an addition
 * here, so a rename on one side and an edit on the other is a modify/delete conflict), merging
 * submodule pointers (both moved differently is a conflict, git may fast-forward one), and
 * conflict markers (a conflict is reported, never written). Line merges (diff3.ts) follow git's
 * xdiff: Myers' diff, git's hunk sliding, git's rule for touching changes.
 */
import type { App } from '../../app';
import {
	encodeCommit,
	encodeTree,
	hashObject,
	parseCommit,
	parseTree,
	type CommitData,
	type Ident,
	type TreeEntry,
	type TreeMode,
} from './objects';
import { merge3 } from './diff3';
import { mergeBase, mergeBases } from './service';
import { storeObject } from './writes';

export { mergeBase, mergeBases };

/** Entries (files and directories, at every level) one merge visits at most. */
export const MAX_MERGE_ENTRIES = 100_000;
/** Bytes of blob content one merge line-merges at most (base, ours and theirs counted). */
export const MAX_MERGE_BYTES = 64 * 1024 * 1024;
/** A blob changed on both sides and larger than this (bytes, either side) is not line-merged: a conflict. */
export const MAX_MERGE_FILE = 8 * 1024 * 1024;
/** Commits one rebase replays at most. */
export const MAX_REBASE_COMMITS = 250;
/** Bytes git inspects for a NUL to call a blob binary (buffer_is_binary). */
const BINARY_SNIFF = 8000;

/** Why a path does not merge. */
export type ConflictReason =
	| 'content' // both sides changed the same lines of a text file
	| 'add/add' // both sides added the path with different content
	| 'modify/delete' // one side changed the file, the other deleted it
	| 'file/directory' // a file on one side, a directory with content on the other
	| 'mode' // both added the file with different modes
	| 'type' // a regular file, a symbolic link or a submodule became different kinds on each side
	| 'binary' // a binary file changed on both sides
	| 'symlink' // a symbolic link retargeted differently on both sides
	| 'submodule' // a submodule moved to different commits on both sides
	| 'too large' // a file over MAX_MERGE_FILE, or needing over diff3.ts MAX_EDITS line edits, changed on both sides
	| 'merge commit'; // rebase: the pull request's history holds a merge commit

/** One conflicting path ('' for a conflict of the whole history, e.g. a merge commit in a rebase: then `commit` names it). */
export interface MergeConflict {
	path: string;
	reason: ConflictReason;
	/** Rebase: the pull request commit whose replay conflicted. */
	commit?: string;
}

/** A tree merge's outcome. */
export type TreeMergeResult = { tree: string } | { conflicts: MergeConflict[] };
/** A commit builder's outcome: the new commit (for a rebase, the new head). */
export type CommitMergeResult = { sha: string } | { conflicts: MergeConflict[] };

/** Thrown when a merge exceeds its limits' entries or bytes (MERGE_LIMITS), or a rebase MAX_REBASE_COMMITS: too large to merge here. */
export class MergeTooLargeError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'MergeTooLargeError';
	}
}

/** A file-like entry (blob, symbolic link or submodule) of one side. */
interface FileSide {
	mode: TreeMode;
	sha: string;
}

/** The bounds of one tree merge (defaults: MAX_MERGE_ENTRIES, MAX_MERGE_BYTES, MAX_MERGE_FILE). */
export interface MergeLimits {
	/** Tree entries compared at most. */
	entries: number;
	/** Bytes line-merged at most (base, ours and theirs counted). */
	bytes: number;
	/** Largest blob (bytes) line-merged; a larger one changed on both sides is a 'too large' conflict. */
	file: number;
}

/** The default bounds. */
export const MERGE_LIMITS: Readonly<MergeLimits> = { entries: MAX_MERGE_ENTRIES, bytes: MAX_MERGE_BYTES, file: MAX_MERGE_FILE };

/** What one merge has stored and visited (for the bounds). */
interface MergeState {
	app: App;
	repoId: number;
	limits: MergeLimits;
	entries: number;
	bytes: number;
	conflicts: MergeConflict[];
	/** New objects, stored only when the whole merge is clean. */
	pending: Map<string, { type: 'blob' | 'tree'; content: Buffer }>;
}

type Kind = 'file' | 'symlink' | 'submodule';
const kind = (mode: TreeMode): Kind => (mode === '120000' ? 'symlink' : mode === '160000' ? 'submodule' : 'file');
const sameFile = (a: FileSide | null, b: FileSide | null): boolean =>
	a === null ? b === null : b !== null && a.mode === b.mode && a.sha === b.sha;

function readEntries(state: MergeState, sha: string | null): Map<string, TreeEntry> {
	const map = new Map<string, TreeEntry>();
	if (!sha) return map;
	const row = state.app.stores.git.object(state.repoId, sha);
	if (!row || row.type !== 'tree') throw new Error(`merge: ${sha} is not a tree of repository ${state.repoId}`);
	for (const entry of parseTree(row.content)) map.set(entry.name, entry);
	return map;
}

function blobContent(state: MergeState, sha: string): Buffer {
	const row = state.app.stores.git.object(state.repoId, sha);
	if (!row || row.type !== 'blob') throw new Error(`merge: ${sha} is not a blob of repository ${state.repoId}`);
	return row.content;
}

/** git's binary test: a NUL among the first 8000 bytes. */
export function isBinaryContent(content: Buffer): boolean {
	return content.subarray(0, BINARY_SNIFF).includes(0);
}

/**
 * A line-level three-way merge of text (git's xdl_merge rules, see diff3.ts): changes of one side
 * apply; the same change on both sides applies once; changes of both sides that overlap or touch
 * are a conflict.
 * @returns the merged text; null on a conflict or when a side's diff exceeds diff3.ts MAX_EDITS
 */
export function mergeText(base: string, ours: string, theirs: string): string | null {
	const merged = merge3(base, ours, theirs);
	return merged === 'conflict' || merged === 'too large' ? null : merged;
}

/** The merged content of a regular file changed on both sides (git's handle_content_merge). */
function mergeBlob(state: MergeState, path: string, base: FileSide | null, ours: FileSide, theirs: FileSide): string | null {
	if (ours.sha === theirs.sha) return ours.sha;
	if (base && base.sha === ours.sha) return theirs.sha;
	if (base && base.sha === theirs.sha) return ours.sha;
	// Both added different content: git merges against an empty base, which always conflicts.
	if (!base || kind(base.mode) !== 'file') {
		state.conflicts.push({ path, reason: 'add/add' });
		return null;
	}
	const { git } = state.app.stores;
	const sizes = [base, ours, theirs].map((side) => git.meta(state.repoId, side.sha)?.size ?? 0);
	if (sizes.some((size) => size > state.limits.file)) {
		state.conflicts.push({ path, reason: 'too large' });
		return null;
	}
	state.bytes += sizes[0] + sizes[1] + sizes[2];
	if (state.bytes > state.limits.bytes)
		throw new MergeTooLargeError(`merge: more than ${state.limits.bytes} bytes of files changed on both sides`);
	const [b, o, t] = [base, ours, theirs].map((side) => blobContent(state, side.sha));
	if (isBinaryContent(b) || isBinaryContent(o) || isBinaryContent(t)) {
		state.conflicts.push({ path, reason: 'binary' });
		return null;
	}
	// Text is merged as latin1: one character per byte, so any bytes (UTF-8 or not) round-trip.
	const merged = merge3(b.toString('latin1'), o.toString('latin1'), t.toString('latin1'));
	if (merged === 'conflict' || merged === 'too large') {
		state.conflicts.push({ path, reason: merged === 'conflict' ? 'content' : 'too large' });
		return null;
	}
	return stage(state, 'blob', Buffer.from(merged, 'latin1'));
}

/** Keeps a new object for storing when the whole merge is clean. @returns its id */
function stage(state: MergeState, type: 'blob' | 'tree', content: Buffer): string {
	const sha = hashObject(type, content);
	state.pending.set(sha, { type, content });
	return sha;
}

/** The merge of one path's file part (null: no file there). */
function mergeFile(
	state: MergeState,
	path: string,
	base: FileSide | null,
	ours: FileSide | null,
	theirs: FileSide | null,
): FileSide | null {
	if (sameFile(ours, theirs)) return ours;
	if (sameFile(base, ours)) return theirs;
	if (sameFile(base, theirs)) return ours;
	if (!ours || !theirs) {
		state.conflicts.push({ path, reason: 'modify/delete' });
		return null;
	}
	const k = kind(ours.mode);
	if (k !== kind(theirs.mode)) {
		state.conflicts.push({ path, reason: 'type' });
		return null;
	}
	if (k !== 'file') {
		// Retargeted links and moved submodules: one side's change wins, both changing differently conflicts.
		if (ours.sha === theirs.sha) return ours;
		if (base && base.sha === ours.sha && base.mode === ours.mode) return theirs;
		if (base && base.sha === theirs.sha && base.mode === theirs.mode) return ours;
		state.conflicts.push({ path, reason: base ? k : 'add/add' });
		return null;
	}
	// Modes (the executable bit): one side's change wins; different modes added on both sides conflict.
	let mode: TreeMode;
	if (ours.mode === theirs.mode) mode = ours.mode;
	else if (base && base.mode === ours.mode) mode = theirs.mode;
	else if (base && base.mode === theirs.mode) mode = ours.mode;
	else {
		state.conflicts.push({ path, reason: 'mode' });
		return null;
	}
	const sha = mergeBlob(state, path, base, ours, theirs);
	return sha === null ? null : { mode, sha };
}

const treePart = (entry: TreeEntry | undefined): string | null => (entry?.mode === '040000' ? entry.sha : null);
const filePart = (entry: TreeEntry | undefined): FileSide | null =>
	entry && entry.mode !== '040000' ? { mode: entry.mode, sha: entry.sha } : null;

/**
 * Merges three directories (null: absent); conflicts are collected in `state`.
 * @returns the merged tree's id, or null when it is empty (an empty directory disappears, as in git)
 */
function mergeDir(state: MergeState, prefix: string, base: string | null, ours: string | null, theirs: string | null): string | null {
	if (ours === theirs) return ours;
	if (base === ours) return theirs;
	if (base === theirs) return ours;
	const b = readEntries(state, base);
	const o = readEntries(state, ours);
	const t = readEntries(state, theirs);
	const names = [...new Set([...b.keys(), ...o.keys(), ...t.keys()])].sort();
	state.entries += names.length;
	if (state.entries > state.limits.entries)
		throw new MergeTooLargeError(`merge: more than ${state.limits.entries} tree entries to compare`);
	const result: TreeEntry[] = [];
	for (const name of names) {
		const path = prefix + name;
		const [be, oe, te] = [b.get(name), o.get(name), t.get(name)];
		// A name may be a file on one side and a directory on another: each part merges on its own (as
		// ort does), and both surviving is a file/directory conflict.
		const dir = mergeDir(state, `${path}/`, treePart(be), treePart(oe), treePart(te));
		const file = mergeFile(state, path, filePart(be), filePart(oe), filePart(te));
		if (dir && file) state.conflicts.push({ path, reason: 'file/directory' });
		else if (dir) result.push({ mode: '040000', name, sha: dir });
		else if (file) result.push({ mode: file.mode, name, sha: file.sha });
	}
	if (result.length === 0) return null;
	return stage(state, 'tree', encodeTree(result));
}

/** The empty tree's id (git's well-known 4b825dc…). */
export const EMPTY_TREE = hashObject('tree', Buffer.alloc(0));

/**
 * Three-way merge of trees (what `git merge-tree --write-tree` computes with the ort strategy, rename
 * detection aside): per path, what one side changed wins, the same change on both sides applies
 * once, text files changed on both sides merge by lines; subtrees merge recursively, an emptied
 * directory disappears. Conflicts (ConflictReason) are reported by path, in path order.
 * @param baseTree the merge base's tree, or null (unrelated histories: like --allow-unrelated-histories)
 * @param now ISO timestamp for stored objects
 * @param limits the bounds (MERGE_LIMITS)
 * @returns `{ tree }` when clean (the new blobs and trees are stored, nothing else), or `{ conflicts }`
 *   and nothing stored
 * @throws MergeTooLargeError past limits.entries / limits.bytes; Error when an id is not a tree
 */
export function mergeTrees(
	app: App,
	repoId: number,
	baseTree: string | null,
	oursTree: string,
	theirsTree: string,
	now: string,
	limits: MergeLimits = MERGE_LIMITS,
): TreeMergeResult {
	const state: MergeState = { app, repoId, limits, entries: 0, bytes: 0, conflicts: [], pending: new Map() };
	const tree = mergeDir(state, '', baseTree, oursTree, theirsTree) ?? EMPTY_TREE;
	if (state.conflicts.length) return { conflicts: state.conflicts.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0)) };
	for (const [sha, object] of state.pending) {
		if (storeObject(app, repoId, object.type, object.content, now) !== sha) throw new Error('merge: object id mismatch');
	}
	if (tree === EMPTY_TREE) storeObject(app, repoId, 'tree', Buffer.alloc(0), now);
	return { tree };
}

// ---------------------------------------------------------------------------------------------
// Merge bases

/** Nesting of virtual merge bases computed at most (criss-cross histories of criss-cross histories). */
const MAX_VIRTUAL_DEPTH = 4;

function commitData(app: App, repoId: number, sha: string): CommitData {
	const row = app.stores.git.object(repoId, sha);
	if (!row || row.type !== 'commit') throw new Error(`merge: ${sha} is not a commit of repository ${repoId}`);
	return parseCommit(row.content);
}

/**
 * The tree to merge two commits against, as merge-ort picks it: the merge base's tree; null when the
 * commits share no history. With several best common ancestors (a criss-cross history) git merges
 * them into a virtual base, oldest first; so does this when that inner merge is clean (its tree is
 * stored, unreferenced). When it conflicts (git would write conflict markers into the virtual base),
 * or past MAX_VIRTUAL_DEPTH, the newest base (by committer date, then id: mergeBase's pick) is used.
 * @param now ISO timestamp for the stored virtual base
 * @param depth how deep in virtual bases this call is (callers leave it at 0)
 * @returns the tree's id, or null for unrelated histories
 * @throws Error when a or b is not a commit of the repository
 */
export function mergeBaseTree(app: App, repoId: number, a: string, b: string, now: string, depth = 0): string | null {
	const bases = mergeBases(app, repoId, a, b);
	if (bases.length === 0) return null;
	const newest = commitData(app, repoId, bases[0]).tree;
	if (bases.length === 1 || depth >= MAX_VIRTUAL_DEPTH) return newest;
	const oldestFirst = [...bases].reverse();
	let merged = commitData(app, repoId, oldestFirst[0]).tree;
	for (const next of oldestFirst.slice(1)) {
		// The inner base: of the first base and this one (exact for the usual two bases).
		const inner = mergeBaseTree(app, repoId, oldestFirst[0], next, now, depth + 1);
		const result = mergeTrees(app, repoId, inner, merged, commitData(app, repoId, next).tree, now);
		if ('conflicts' in result) return newest;
		merged = result.tree;
	}
	return merged;
}

// ---------------------------------------------------------------------------------------------
// GitHub's merge methods. None moves a reference.

/** What a merge commit or squash commit is made of. */
export interface MergeInput {
	/** The base branch's head commit (first parent). */
	base: string;
	/** The pull request's head commit. */
	head: string;
	/** The commit message, verbatim (GitHub's "Merge pull request #N from owner/branch\n\n<title>" is the caller's). */
	message: string;
	author: Ident;
	committer: Ident;
}

function writeCommit(app: App, repoId: number, commit: Omit<CommitData, 'signature'>, now: string): string {
	return storeObject(app, repoId, 'commit', encodeCommit({ ...commit, signature: null }), now, commit.parents);
}

/** The tree of base and head merged (against their merge base, see mergeBaseTree). */
function mergeHeads(app: App, repoId: number, base: string, head: string, now: string): TreeMergeResult {
	const ours = commitData(app, repoId, base).tree;
	const theirs = commitData(app, repoId, head).tree;
	return mergeTrees(app, repoId, mergeBaseTree(app, repoId, base, head, now), ours, theirs, now);
}

/**
 * GitHub's "Create a merge commit": a commit with two parents (base head, pull request head) whose
 * tree is the three-way merge of both (git merge --no-ff).
 * @param now ISO timestamp
 * @returns the new commit's id (no reference moves), or the conflicts (nothing reachable written)
 * @throws MergeTooLargeError; Error when base or head is not a commit of the repository
 */
export function mergeCommit(app: App, repoId: number, input: MergeInput, now: string): CommitMergeResult {
	const merged = mergeHeads(app, repoId, input.base, input.head, now);
	if ('conflicts' in merged) return merged;
	const parents = [input.base, input.head];
	return {
		sha: writeCommit(
			app,
			repoId,
			{ tree: merged.tree, parents, author: input.author, committer: input.committer, message: input.message },
			now,
		),
	};
}

/**
 * GitHub's "Squash and merge": one commit on the base head (one parent) holding the merged tree
 * (git merge --squash, then commit).
 * @param now ISO timestamp
 * @returns the new commit's id (no reference moves), or the conflicts (nothing reachable written)
 * @throws MergeTooLargeError; Error when base or head is not a commit of the repository
 */
export function squashCommit(app: App, repoId: number, input: MergeInput, now: string): CommitMergeResult {
	const merged = mergeHeads(app, repoId, input.base, input.head, now);
	if ('conflicts' in merged) return merged;
	return {
		sha: writeCommit(
			app,
			repoId,
			{ tree: merged.tree, parents: [input.base], author: input.author, committer: input.committer, message: input.message },
			now,
		),
	};
}

/** What a rebase replays. */
export interface RebaseInput {
	/** The base branch's head commit: the replayed commits go on top of it. */
	base: string;
	/** The pull request's head commit. */
	head: string;
	/** The committer of every new commit (each keeps its author, author date and message). */
	committer: Ident;
}

/**
 * The commits of the pull request, oldest first: head's first-parent chain back to the merge base
 * of base and head (the whole chain for unrelated histories).
 * @returns the commits, or a conflict naming a merge commit met on the way
 * @throws MergeTooLargeError past MAX_REBASE_COMMITS
 */
export function rebaseList(app: App, repoId: number, base: string, head: string): { commits: string[] } | { conflicts: MergeConflict[] } {
	const stop = new Set(app.stores.git.ancestors(repoId, base));
	const commits: string[] = [];
	for (let sha: string | undefined = head; sha && !stop.has(sha); ) {
		const data = commitData(app, repoId, sha);
		if (data.parents.length > 1) return { conflicts: [{ path: '', reason: 'merge commit', commit: sha }] };
		if (commits.length >= MAX_REBASE_COMMITS) throw new MergeTooLargeError(`rebase: more than ${MAX_REBASE_COMMITS} commits to replay`);
		commits.push(sha);
		sha = data.parents[0];
	}
	return { commits: commits.reverse() };
}

/**
 * GitHub's "Rebase and merge": each commit of the pull request (rebaseList), oldest first, replayed
 * onto the base head as `git cherry-pick` does (a three-way merge with the commit's parent tree as
 * base, the new head's tree as ours, the commit's tree as theirs). Each new commit keeps the
 * original author and message; the committer is `input.committer`; signatures are dropped. A commit
 * whose change is already on the base (its replay changes nothing) is dropped, as `git rebase` drops
 * it; a commit that was empty to begin with is kept.
 * @param now ISO timestamp
 * @returns the new head's id (base itself when nothing is left to replay; no reference moves), or
 *   the conflicts of the first commit that does not apply (each carrying that commit's id)
 * @throws MergeTooLargeError; Error when base or head is not a commit of the repository
 */
export function rebaseCommits(app: App, repoId: number, input: RebaseInput, now: string): CommitMergeResult {
	const list = rebaseList(app, repoId, input.base, input.head);
	if ('conflicts' in list) return list;
	let current = input.base;
	let currentTree = commitData(app, repoId, input.base).tree;
	for (const sha of list.commits) {
		const commit = commitData(app, repoId, sha);
		const parentTree = commit.parents.length ? commitData(app, repoId, commit.parents[0]).tree : null;
		const merged = mergeTrees(app, repoId, parentTree, currentTree, commit.tree, now);
		if ('conflicts' in merged) return { conflicts: merged.conflicts.map((conflict) => ({ ...conflict, commit: sha })) };
		if (merged.tree === currentTree && parentTree !== commit.tree) continue;
		current = writeCommit(
			app,
			repoId,
			{ tree: merged.tree, parents: [current], author: commit.author, committer: input.committer, message: commit.message },
			now,
		);
		currentTree = merged.tree;
	}
	return { sha: current };
}
