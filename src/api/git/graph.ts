/**
 * Walks of a repository's commit graph (git_commit_parents) for commit lists, comparisons and
 * protection checks: commits reachable from one commit and not from another, in git log's order,
 * and the ahead/behind counts of two commits. Reads only; nothing here throws for unknown ids.
 */
import type { App } from '../../app';
import { parseCommit, type CommitData } from './objects';

/** Commits read at most by one walk: the history beyond is not listed (its counts stop there too). */
export const MAX_WALK = 100_000;

/** A commit met by a walk: its id and parsed fields. */
export interface WalkedCommit {
	sha: string;
	data: CommitData;
}

/** Parsed commits of one request, read once each. */
export class CommitReader {
	private readonly cache = new Map<string, CommitData | null>();
	constructor(
		private readonly app: App,
		private readonly repoId: number,
	) {}

	/** The commit's fields, or null when `sha` is not a commit of the repository. */
	read(sha: string): CommitData | null {
		let data = this.cache.get(sha);
		if (data === undefined) {
			const row = this.app.stores.git.object(this.repoId, sha);
			data = row && row.type === 'commit' ? parseCommit(row.content) : null;
			this.cache.set(sha, data);
		}
		return data;
	}
}

/** Every commit reachable from `sha` (itself included); empty for null. */
export function reachable(app: App, repoId: number, sha: string | null): Set<string> {
	return sha ? new Set(app.stores.git.ancestors(repoId, sha)) : new Set();
}

/**
 * The commits reachable from `head` and not from any of `exclude`, newest first as `git log`
 * orders them (by committer date, each commit after the child that reached it), visiting at most MAX_WALK.
 * `accept` filters what is returned (the walk goes on through rejected commits); `stop` ends the
 * walk early once true for the returned list.
 */
export function walkCommits(
	app: App,
	repoId: number,
	head: string,
	options: { exclude?: Set<string>; accept?: (commit: WalkedCommit) => boolean; reader?: CommitReader; stopAfter?: number } = {},
): { commits: WalkedCommit[]; complete: boolean } {
	const reader = options.reader ?? new CommitReader(app, repoId);
	const exclude = options.exclude ?? new Set<string>();
	const commits: WalkedCommit[] = [];
	// Pending commits, newest committer date last (popped first): git log's default order (a
	// commit comes after the child that led to it, since it is queued only when that child is shown).
	const pending: WalkedCommit[] = [];
	const queued = new Set<string>();
	const push = (sha: string) => {
		if (queued.has(sha) || exclude.has(sha)) return;
		const data = reader.read(sha);
		if (!data) return;
		queued.add(sha);
		const item = { sha, data };
		// Insert keeping order by (date, then sha) ascending; binary search.
		let lo = 0;
		let hi = pending.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (before(pending[mid], item)) lo = mid + 1;
			else hi = mid;
		}
		pending.splice(lo, 0, item);
	};
	push(head);
	let visited = 0;
	while (pending.length) {
		if (visited >= MAX_WALK) return { commits, complete: false };
		const next = pending.pop()!;
		visited++;
		if (!options.accept || options.accept(next)) {
			commits.push(next);
			if (options.stopAfter !== undefined && commits.length >= options.stopAfter) return { commits, complete: pending.length === 0 };
		}
		for (const parent of next.data.parents) push(parent);
	}
	return { commits, complete: true };
}

/** Orders pending commits: older committer date first, then by id (so the newest pops first). */
function before(a: WalkedCommit, b: WalkedCommit): boolean {
	const da = a.data.committer.seconds;
	const db = b.data.committer.seconds;
	return da < db || (da === db && a.sha > b.sha);
}

/**
 * How two commits relate (GitHub's compare status): commits of `head` not in `base` (ahead_by),
 * of `base` not in `head` (behind_by).
 */
export function aheadBehind(
	app: App,
	repoId: number,
	base: string,
	head: string,
): { ahead: number; behind: number; status: 'identical' | 'ahead' | 'behind' | 'diverged' } {
	if (base === head) return { ahead: 0, behind: 0, status: 'identical' };
	const ofBase = reachable(app, repoId, base);
	const ofHead = reachable(app, repoId, head);
	let ahead = 0;
	for (const sha of ofHead) if (!ofBase.has(sha)) ahead++;
	let behind = 0;
	for (const sha of ofBase) if (!ofHead.has(sha)) behind++;
	const status = ahead && behind ? 'diverged' : ahead ? 'ahead' : behind ? 'behind' : 'identical';
	return { ahead, behind, status };
}
