/**
 * What a full clone sends, known ahead (git's reachability bitmaps, in spirit): the rows of every
 * object reachable from a repository's branches and tags, kept with the tips they were computed
 * for (`git_reachable`). A push that only creates and fast-forwards references adds what it
 * brought (walked in its pack, src/api/git/index-pack.ts); a full clone that had to walk keeps
 * what it walked; every other reference change drops it (src/api/git/writes.ts moveRef). A clone
 * whose wants are exactly those tips then sends the rows without walking a single tree.
 */
import type { App } from '../../app';
import type { RepositoryRow } from '../../model/rows';

/** The tips a full clone wants: the sorted, distinct ids of refs/heads/* and refs/tags/*. */
export function cloneTips(app: App, repo: RepositoryRow): string[] {
	const tips = new Set<string>();
	for (const ref of app.stores.git.allRefs(repo.id)) {
		if (ref.name.startsWith('refs/heads/') || ref.name.startsWith('refs/tags/')) tips.add(ref.sha);
	}
	return [...tips].sort();
}

/** The rows a full clone of the repository sends, when they are known for its current tips. */
export function knownReachable(app: App, repo: RepositoryRow, tips = cloneTips(app, repo)): number[] | null {
	const stored = app.stores.git.reachable(repo.id);
	if (!stored) return tips.length === 0 ? [] : null;
	if (stored.tips.length !== tips.length || stored.tips.some((tip, i) => tip !== tips[i])) return null;
	return stored.rows;
}

/** True when `wants` are exactly the tips (as a set). */
export function wantsAllTips(wants: readonly string[], tips: readonly string[]): boolean {
	const wanted = new Set(wants);
	return wanted.size === tips.length && tips.every((tip) => wanted.has(tip));
}
