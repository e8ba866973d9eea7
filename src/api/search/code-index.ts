/**
 * The code search index (GET /search/code): the files of each repository's default branch (and,
 * through src/api/search/commit-index.ts, its commits for GET /search/commits), kept by
 * the `code-search-index` background task. A push that moves the default branch, and a change of
 * the default branch, queue the task inside their own transaction (enqueueCodeIndex, in
 * src/events/code-index.ts so that writers need not depend on search); the task runs later,
 * outside any request: it walks the branch's tree, compares it with what is indexed (by path and
 * blob id) and writes only the difference, INDEX_BATCH files per transaction, yielding to the event
 * loop between batches so requests keep being served while a large repository is indexed.
 *
 * What is indexed follows GitHub's code search rules
 * (https://docs.github.com/search-github/searching-on-github/searching-code): only the default
 * branch, only files smaller than 384 KB, binary files skipped (a NUL byte in the first 8000 bytes,
 * git's own test), at most MAX_FILES files per repository (the rest is left out and the repository
 * marked incomplete); symbolic links and submodules are not files. A fork's references are
 * copied, not pushed, so it is indexed once something is pushed to its default branch; searches
 * leave forks out unless asked (`fork:true`), as GitHub's code search does.
 */
import type { App } from '../../app';
import { isoSeconds } from '../../time';
import { MODE_TYPE, parseTree } from '../git/objects';
import { peel, resolveCommit } from '../git/service';
import { languageOf } from '../repos/languages';
import { indexCommits } from './commit-index';
import { CODE_INDEX_TASK } from '../../events/code-index';

/** Largest file indexed, in bytes (GitHub: files smaller than 384 KB are searchable). */
export const MAX_FILE_BYTES = 384 * 1024;
/** Files indexed per repository at most. */
export const MAX_FILES = 20_000;
/** Tree entries walked per repository at most (trees included). */
const MAX_ENTRIES = 100_000;
/** Files written per transaction. */
const INDEX_BATCH = 200;
/** Bytes git inspects for a NUL to call a file binary. */
const BINARY_PROBE = 8000;
/** Times the task indexes again when the branch moved while it was indexing (then a new task goes on). */
const MAX_ROUNDS = 3;

/** One file of the default branch's tree. */
interface TreeFile {
	path: string;
	name: string;
	sha: string;
}

/** Trees read between two yields to the event loop while walking. */
const TREES_PER_TURN = 200;

/**
 * The files of a tree, depth first, up to MAX_FILES (`complete` false when some were left out);
 * yields to the event loop every TREES_PER_TURN trees.
 */
async function treeFiles(app: App, repoId: number, rootSha: string): Promise<{ files: TreeFile[]; complete: boolean }> {
	const { git } = app.stores;
	const files: TreeFile[] = [];
	const pending: Array<{ sha: string; prefix: string }> = [{ sha: rootSha, prefix: '' }];
	let walked = 0;
	for (let trees = 1; pending.length; trees++) {
		if (trees % TREES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
		const { sha, prefix } = pending.pop()!;
		const tree = git.object(repoId, sha);
		if (!tree || tree.type !== 'tree') continue;
		for (const entry of parseTree(tree.content)) {
			if (++walked > MAX_ENTRIES || files.length >= MAX_FILES) return { files, complete: false };
			const type = MODE_TYPE[entry.mode];
			const path = `${prefix}${entry.name}`;
			if (type === 'tree') pending.push({ sha: entry.sha, prefix: `${path}/` });
			else if (type === 'blob' && entry.mode !== '120000') files.push({ path, name: entry.name, sha: entry.sha });
		}
	}
	return { files, complete: true };
}

/** The lower-cased extension of a file name, without its dot ('' when none; a leading dot is no extension). */
export function extensionOf(name: string): string {
	const dot = name.lastIndexOf('.');
	return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** A file's text, or null for a binary file (a NUL in its first 8000 bytes). */
function indexableText(content: Buffer): string | null {
	if (content.subarray(0, BINARY_PROBE).includes(0)) return null;
	return content.toString('utf8');
}

/**
 * Brings a repository's code index, then its commit index, to its default branch as it is now
 * (the task's handler). Idempotent:
 * nothing is written when the indexed commit is the branch's. A repository deleted meanwhile is
 * skipped (its rows went with it).
 * @param payload {repoId}
 */
export async function runCodeIndexTask(app: App, payload: unknown): Promise<void> {
	const { repoId } = payload as { repoId: number };
	for (let round = 0; round < MAX_ROUNDS; round++) {
		await indexOnce(app, repoId);
		// The branch's history for commit search (src/api/search/commit-index.ts).
		await indexCommits(app, repoId);
		// Checked synchronously, so no push can slip in between this check and the task's end (a
		// push meanwhile found this task's row queued and queued none of its own).
		if (isCurrent(app, repoId)) return;
	}
	// The branch keeps moving: a later task goes on.
	app.tasks.enqueue(CODE_INDEX_TASK, { repoId });
}

/** True when both indexes are at the repository's default branch (or the repository is gone). */
function isCurrent(app: App, repoId: number): boolean {
	const repo = app.stores.repos.byId(repoId);
	if (!repo) return true;
	const head = resolveCommit(app, repo, `refs/heads/${repo.default_branch}`);
	return app.stores.codeSearch.state(repoId)?.commit_sha === head && app.stores.commitSearch.state(repoId) === head;
}

/** One pass; true when the branch moved during it (index again). */
async function indexOnce(app: App, repoId: number): Promise<boolean> {
	const { repos, codeSearch, git } = app.stores;
	const repo = repos.byId(repoId);
	if (!repo) return false;
	const commit = resolveCommit(app, repo, `refs/heads/${repo.default_branch}`);
	const state = codeSearch.state(repoId);
	if (state && state.commit_sha === commit) return false;
	const tree = commit ? peel(app, repoId, commit, 'tree') : null;
	const { files, complete } = tree ? await treeFiles(app, repoId, tree) : { files: [], complete: true };
	const indexed = codeSearch.indexedFiles(repoId);
	const wanted = new Map(files.map((file) => [file.path, file]));
	const stale = [...indexed].filter(([path, sha]) => wanted.get(path)?.sha !== sha).map(([path]) => path);
	const fresh = files.filter((file) => indexed.get(file.path) !== file.sha);
	const sizes = new Map(git.metas(repoId, [...new Set(fresh.map((file) => file.sha))]).map((meta) => [meta.sha, meta.size]));
	const candidates = fresh.filter((file) => (sizes.get(file.sha) ?? Number.POSITIVE_INFINITY) <= MAX_FILE_BYTES);
	for (let at = 0; at < stale.length; at += INDEX_BATCH * 10) {
		const batch = stale.slice(at, at + INDEX_BATCH * 10);
		app.transaction(() => codeSearch.removeFiles(repoId, batch));
		await new Promise((resolve) => setImmediate(resolve));
	}
	for (let at = 0; at < candidates.length; at += INDEX_BATCH) {
		// Contents are read (and inflated) outside the transaction; only the rows are written in it.
		const batch = candidates.slice(at, at + INDEX_BATCH).flatMap((file) => {
			const object = git.object(repoId, file.sha);
			if (!object || object.type !== 'blob' || object.content.length > MAX_FILE_BYTES) return [];
			const text = indexableText(object.content);
			return [
				{
					path: file.path,
					name: file.name,
					extension: extensionOf(file.name),
					language: languageOf(file.name)?.name ?? null,
					sha: file.sha,
					size: object!.content.length,
					text,
				},
			];
		});
		if (batch.length) app.transaction(() => codeSearch.addFiles(repoId, batch));
		await new Promise((resolve) => setImmediate(resolve));
	}
	const now = isoSeconds(app.clock());
	const current = repos.byId(repoId);
	if (!current) return false;
	const head = resolveCommit(app, current, `refs/heads/${current.default_branch}`);
	app.transaction(() => codeSearch.setState(repoId, commit, !complete, now));
	return head !== commit;
}
