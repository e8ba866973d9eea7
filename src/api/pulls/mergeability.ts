/**
 * The git-level mergeability of a pull request, computed with the merge engine
 * (src/api/git/merge.ts) in the MERGEABILITY_TASK background task (registered in src/compose.ts):
 * whether head merges into base without conflicts (the three-way merge of their trees against the
 * merge base, as the merge commit would be made) and whether head's commits replay onto base one
 * by one (`rebaseable`). Stored in the pull_requests row with the shas it was computed for
 * (mergeable-state.ts describes the encoding and what reads make of it).
 *
 * The task is idempotent: a pull request that is merged, closed, gone, or whose stored outcome is
 * already current is left alone. The merged trees and blobs a clean check writes are kept (content
 * addressed: the merge itself will make the same ones); no commit is written.
 */
import type { App } from '../../app';
import { PermanentTaskError } from '../../model/errors';
import { isoSeconds } from '../../time';
import { mergeBaseTree, mergeTrees, MergeTooLargeError, rebaseList } from '../git/merge';
import { parseCommit } from '../git/objects';
import { mergeabilityKnown } from './mergeable-state';
import { comparisonCounts, objectsRepo } from './service';
import type { PullRequestRow } from '../../model/rows';

/** The git-level outcome: 'dirty', or 'clean' with whether a rebase applies; null when it cannot be known (objects missing, too large). */
export function computeMergeability(app: App, pr: PullRequestRow): { mergeable: boolean; rebaseable: boolean } | null {
	const repoId = objectsRepo(app, pr);
	if (repoId === null) return null;
	const now = isoSeconds(app.clock());
	const tree = (sha: string) => {
		const row = app.stores.git.object(repoId, sha);
		return row && row.type === 'commit' ? parseCommit(row.content).tree : null;
	};
	try {
		const ours = tree(pr.base_sha);
		const theirs = tree(pr.head_sha);
		if (!ours || !theirs) return null;
		const merged = mergeTrees(app, repoId, mergeBaseTree(app, repoId, pr.base_sha, pr.head_sha, now), ours, theirs, now);
		if ('conflicts' in merged) return { mergeable: false, rebaseable: false };
		return { mergeable: true, rebaseable: replays(app, repoId, pr, ours, now) };
	} catch (error) {
		if (error instanceof MergeTooLargeError) return null;
		throw error;
	}
}

/** Whether each commit of the pull request applies onto base in turn (rebaseCommits without writing commits). */
function replays(app: App, repoId: number, pr: PullRequestRow, baseTree: string, now: string): boolean {
	const list = rebaseList(app, repoId, pr.base_sha, pr.head_sha);
	if ('conflicts' in list) return false;
	let current = baseTree;
	for (const sha of list.commits) {
		const commit = parseCommit(app.stores.git.object(repoId, sha)!.content);
		const parent = commit.parents.length ? parseCommit(app.stores.git.object(repoId, commit.parents[0])!.content).tree : null;
		const merged = mergeTrees(app, repoId, parent, current, commit.tree, now);
		if ('conflicts' in merged) return false;
		current = merged.tree;
	}
	return true;
}

/** Computes and stores the mergeability of one pull request for its current head and base. */
export function updateMergeability(app: App, issueId: number): void {
	// The counts the pull request's full form shows, computed here outside any writing transaction:
	// the events of its next change find them ready (service.ts comparisonCounts).
	const pull = app.stores.pulls.byIssue(issueId);
	if (pull && pull.state === 'open') comparisonCounts(app, pull.pr);
	app.transaction(() => {
		const row = app.stores.pulls.byIssue(issueId);
		if (!row || row.state !== 'open' || row.pr.merged_at !== null || mergeabilityKnown(row.pr)) return;
		const outcome = computeMergeability(app, row.pr);
		const state =
			outcome === null ? 'unknown' : outcome.mergeable ? `clean ${outcome.rebaseable ? 'rebaseable' : 'unrebaseable'}` : 'dirty';
		app.stores.pulls.setMergeability(issueId, outcome === null ? null : outcome.mergeable, state, row.pr.head_sha, row.pr.base_sha);
	});
}

/** Handler of MERGEABILITY_TASK (payload { issueId }). */
export function runMergeabilityTask(app: App, payload: unknown): void {
	const issueId = (payload as { issueId?: unknown } | null)?.issueId;
	if (typeof issueId !== 'number') throw new PermanentTaskError('malformed payload');
	updateMergeability(app, issueId);
}
