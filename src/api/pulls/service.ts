/**
 * Shared rules of the pull-request routes (GitHub's "Pulls" REST API): one pull request by number,
 * the comparison of its base and head (commits, changed files, line counts, from the merge base to
 * the head as GitHub's three-dot diff), its mergeability as far as it can be known without a merge,
 * and the batch rendering of the simple and full forms.
 *
 * Mergeability: a fast-forward (the base commit in the head's history) is known clean at once;
 * everything else is the merge engine's, computed in a background task, and what the protection
 * and checks make of it is decided at each read (src/api/pulls/mergeable-state.ts).
 */
import type { App } from '../../app';
import { notFound, validationFailed } from '../../model/errors';
import type { Caller } from '../../auth/caller';
import { diffTrees, filePatch, type TreeChange } from '../git/diff';
import { CommitReader, reachable, walkCommits, type WalkedCommit } from '../git/graph';
import { parseCommit, parseTag, parseTree } from '../git/objects';
import { isAncestor, mergeBase } from '../git/service';
import { issueRepository, renderIssues, type IssueScope, type RequestParts } from '../issues/service';
import { enqueueMergeability, presentMergeability } from './mergeable-state';
import { autoMerge, pullRequest, type PullCounts, type PullSide } from './render';
import { requestedReviewers } from './requested';
import type { PullRequestRow, PullRow } from '../../model/rows';
import { deferred } from '../../events/deferred';

/** GitHub lists at most 250 commits of a pull request. */
export const MAX_PULL_COMMITS = 250;
/** GitHub lists at most 3,000 files of a pull request. */
export const MAX_PULL_FILES = 3000;

/** The issue context of the route's repository; pull requests answer even with issues turned off. */
export function pullScope(ctx: Pick<RequestParts, 'app' | 'repo'>): IssueScope {
	return issueRepository(ctx, { allowDisabled: true });
}

/** The pull request of the path's {pull_number}. @throws DomainError 404 (also for a plain issue's number) */
export function loadPull(ctx: Pick<RequestParts, 'app' | 'params'>, scope: IssueScope): PullRow {
	const text = ctx.params.pull_number;
	const number = text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : null;
	const row = number ? ctx.app.stores.pulls.byNumber(scope.repo.id, number) : undefined;
	if (!row) throw notFound();
	return row;
}

/** Head and base as the shapes show them: branch, commit, repository and its owner. */
export function pullSides(app: App, scope: IssueScope, pr: PullRequestRow): { head: PullSide; base: PullSide } {
	const headRepo =
		pr.head_repo_id === null ? null : pr.head_repo_id === scope.repo.id ? scope.repo : (app.stores.repos.byId(pr.head_repo_id) ?? null);
	const headOwner = headRepo
		? headRepo.id === scope.repo.id
			? scope.owner
			: (app.stores.accounts.byId(headRepo.owner_id) ?? null)
		: null;
	return {
		head: { ref: pr.head_ref, sha: pr.head_sha, repo: headRepo, owner: headOwner },
		base: { ref: pr.base_ref, sha: pr.base_sha, repo: scope.repo, owner: scope.owner },
	};
}

/**
 * Copies the head commit of a pull request from a fork, with every object it reaches that the base
 * repository lacks (commits, trees, blobs; submodule entries name commits elsewhere and are not
 * followed), into the base repository — what GitHub keeps as refs/pull/N/head — so the comparison,
 * the files, the diff and later the merge read one repository. Objects are content-addressed:
 * what the base already holds, and everything below it, is skipped.
 * @param now ISO timestamp
 */
export function fetchHead(app: App, baseRepoId: number, headRepoId: number, headSha: string, now: string): void {
	const { git } = app.stores;
	// A fork network shares its objects: nothing to copy within one.
	if (baseRepoId === headRepoId || git.network(baseRepoId) === git.network(headRepoId)) return;
	const queue = [headSha];
	const seen = new Set<string>();
	while (queue.length) {
		const sha = queue.pop()!;
		if (seen.has(sha)) continue;
		seen.add(sha);
		if (git.meta(baseRepoId, sha)) continue;
		const object = git.object(headRepoId, sha);
		if (!object) continue;
		if (object.type === 'commit') {
			const data = parseCommit(object.content);
			git.insert(baseRepoId, sha, 'commit', object.content, now, data.parents);
			queue.push(data.tree, ...data.parents);
		} else {
			git.insert(baseRepoId, sha, object.type, object.content, now);
			if (object.type === 'tree') {
				for (const entry of parseTree(object.content)) if (entry.mode !== '160000') queue.push(entry.sha);
			} else if (object.type === 'tag') {
				queue.push(parseTag(object.content).object);
			}
		}
	}
}

/**
 * The repository whose objects hold both the base and the head commit: the base repository (a
 * fork's head is fetched into it, fetchHead), or the head's fork (a fork holds its parent's
 * objects as of the fork). null when neither does.
 */
export function objectsRepo(app: App, pr: Pick<PullRequestRow, 'repo_id' | 'head_repo_id' | 'base_sha' | 'head_sha'>): number | null {
	const has = (repoId: number, sha: string) => app.stores.git.meta(repoId, sha)?.type === 'commit';
	for (const id of [pr.repo_id, pr.head_repo_id]) if (id !== null && has(id, pr.base_sha) && has(id, pr.head_sha)) return id;
	return null;
}

/** What a pull request changes: its commits (oldest first) and its files from the merge base to the head. */
export interface PullComparison {
	repoId: number;
	mergeBase: string;
	/** Every commit of head that base lacks, oldest first. */
	commits: WalkedCommit[];
	changes: TreeChange[];
}

/**
 * A pull request's commits (of head, not of base: git log base..head), oldest first, without the
 * diff; null when no repository holds both sides.
 */
export function pullCommits(app: App, pr: PullRequestRow): WalkedCommit[] | null {
	const repoId = objectsRepo(app, pr);
	if (repoId === null) return null;
	const reader = new CommitReader(app, repoId);
	const { commits } = walkCommits(app, repoId, pr.head_sha, { exclude: reachable(app, repoId, pr.base_sha), reader });
	return commits.reverse();
}

/** The comparison of a pull request's base and head, or null when no repository holds both or they share no history. */
export function pullComparison(app: App, pr: PullRequestRow, fileLimit = MAX_PULL_FILES): PullComparison | null {
	const repoId = objectsRepo(app, pr);
	if (repoId === null) return null;
	const base = mergeBase(app, repoId, pr.base_sha, pr.head_sha);
	if (!base) return null;
	const reader = new CommitReader(app, repoId);
	// The commits of head that base lacks (git log base..head), oldest first. Not commits/service's
	// comparisonCommits: that module reaches the reference writes, which call this area back.
	const { commits } = walkCommits(app, repoId, pr.head_sha, { exclude: reachable(app, repoId, pr.base_sha), reader });
	commits.reverse();
	const changes = diffTrees(app, repoId, reader.read(base)!.tree, reader.read(pr.head_sha)!.tree, fileLimit).changes;
	return { repoId, mergeBase: base, commits, changes };
}

/**
 * The git-level mergeability of head into base: mergeable and `clean` when the base commit is in
 * the head's history (a fast-forward); null and `unknown` when a three-way merge would be needed
 * (the merge engine's to decide) or the objects are not at hand.
 */
export function gitMergeability(app: App, pr: PullRequestRow): { mergeable: boolean | null; state: string } {
	const repoId = objectsRepo(app, pr);
	if (repoId !== null && isAncestor(app, repoId, pr.base_sha, pr.head_sha)) return { mergeable: true, state: 'clean' };
	return { mergeable: null, state: 'unknown' };
}

/**
 * The pull request's head or base moved, or it was opened: stores the git-level mergeability for
 * the current shas as far as it is known at once (a fast-forward is clean; else unknown) and queues
 * the merge engine's computation (src/api/pulls/mergeable-state.ts, mergeability.ts).
 */
export function refreshMergeability(app: App, pr: PullRequestRow): void {
	const { mergeable, state } = gitMergeability(app, pr);
	app.stores.pulls.setMergeability(pr.issue_id, mergeable, state, pr.head_sha, pr.base_sha);
	enqueueMergeability(app, pr.issue_id);
}

/** What a comparison of base and head counts: commits, lines added and deleted, files changed. */
export interface ComparisonCounts {
	commits: number;
	additions: number;
	deletions: number;
	changed_files: number;
}

/** Comparison counts kept per app, by repository and shas (git objects never change): at most this many. */
const COUNTS_KEPT = 512;
const countsKept = new WeakMap<App, Map<string, ComparisonCounts>>();

/**
 * The comparison counts of a pull request's base and head (a merge base, a commit walk and a diff
 * of every changed file), remembered by objects repository and shas: the same pair is compared once.
 * Events recorded inside a writing transaction (the pull request's full form in payloads) do not
 * call it for a pair not compared yet: they take placeholders computed after commit (eventCounts).
 */
export function comparisonCounts(app: App, pr: PullRequestRow): ComparisonCounts {
	const repoId = objectsRepo(app, pr);
	const key = repoId === null ? null : `${repoId}:${pr.base_sha}:${pr.head_sha}`;
	let kept = countsKept.get(app);
	const known = key === null ? undefined : kept?.get(key);
	if (known) return known;
	const comparison = pullComparison(app, pr);
	let additions = 0;
	let deletions = 0;
	if (comparison) {
		for (const change of comparison.changes) {
			const patch = filePatch(app, comparison.repoId, change);
			additions += patch.additions;
			deletions += patch.deletions;
		}
	}
	const counted = {
		commits: comparison?.commits.length ?? 0,
		additions,
		deletions,
		changed_files: comparison?.changes.length ?? 0,
	};
	if (key !== null) {
		if (!kept) countsKept.set(app, (kept = new Map()));
		if (kept.size >= COUNTS_KEPT) kept.delete(kept.keys().next().value!);
		kept.set(key, counted);
	}
	return counted;
}

/**
 * The comparison counts for an event payload recorded inside a writing transaction: the kept ones
 * when this pair was compared before, else placeholders computed once after commit
 * (src/events/deferred.ts), so no merge base or diff runs while the write lock is held.
 */
function eventCounts(app: App, pr: PullRequestRow): ComparisonCounts {
	const repoId = objectsRepo(app, pr);
	const key = repoId === null ? null : `${repoId}:${pr.base_sha}:${pr.head_sha}`;
	const known = key === null ? undefined : countsKept.get(app)?.get(key);
	if (known || key === null) return known ?? comparisonCounts(app, pr);
	const frozen = { ...pr };
	const later = (field: keyof ComparisonCounts) =>
		deferred(app, `comparison:${key}:${field}`, () => comparisonCounts(app, frozen)[field]) as unknown as number;
	return {
		commits: later('commits'),
		additions: later('additions'),
		deletions: later('deletions'),
		changed_files: later('changed_files'),
	};
}

/**
 * A comparison count again from a placeholder's arguments (`<repoId>:<base sha>:<head sha>:<field>`,
 * as eventCounts makes them under the kind `comparison`), for src/events/deferred.ts completeLeftovers.
 * @returns the count, or null for arguments it cannot read
 */
export function comparisonPart(app: App, args: string): number | null {
	const [repoId, base, head, field] = args.split(':');
	if (!/^\d+$/.test(repoId) || !base || !head || !['commits', 'additions', 'deletions', 'changed_files'].includes(field)) return null;
	const pr = { repo_id: Number(repoId), head_repo_id: null, base_sha: base, head_sha: head } as unknown as PullRequestRow;
	return comparisonCounts(app, pr)[field as keyof ComparisonCounts];
}

/** The counts of the full form: commits, lines and files of the comparison, mergeability. */
function counts(app: App, row: PullRow, inEvent: boolean): PullCounts {
	const { mergeable, state, rebaseable } = presentMergeability(app, row);
	return {
		...(inEvent ? eventCounts(app, row.pr) : comparisonCounts(app, row.pr)),
		mergeable,
		mergeable_state: state,
		rebaseable,
		merged_by: row.pr.merged_by_id === null ? null : (app.stores.accounts.byId(row.pr.merged_by_id) ?? null),
		review_comments: app.stores.reviews.submittedCommentCounts([row.id]).get(row.id) ?? 0,
	};
}

/**
 * Renders pull requests: the simple form (lists), or the full form (`full`: one pull request;
 * `'event'`: the full form of an event payload recorded in a writing transaction, whose comparison
 * counts not known yet are computed after commit). Labels, assignees, milestones and authors are
 * loaded once for all rows.
 * @param media the body fields' media type (default the request's; null for the raw body of events)
 */
export function renderPulls(ctx: Caller, scope: IssueScope, rows: PullRow[], full: boolean | 'event', media = ctx.media) {
	const issues = renderIssues(ctx, scope, rows, false, media) as Array<Record<string, unknown> & { url: string; number: number }>;
	const requested = requestedReviewers(
		ctx.app,
		scope.owner,
		rows.map((row) => row.id),
	);
	const autoMerges = ctx.app.stores.autoMerges.byIssues(rows.filter((row) => row.state === 'open').map((row) => row.id));
	return rows.map((row, index) => {
		const { head, base } = pullSides(ctx.app, scope, row.pr);
		const auto = autoMerges.get(row.id);
		return pullRequest(
			ctx.app.urls,
			scope.paths,
			issues[index],
			row.pr,
			head,
			base,
			requested.get(row.id)!,
			full ? counts(ctx.app, row, full === 'event') : undefined,
			// Shown while the pull request is open (the request goes with the merge).
			auto && row.pr.merged_at === null
				? autoMerge(ctx.app.urls, auto, auto.enabled_by_id === null ? undefined : ctx.app.stores.accounts.byId(auto.enabled_by_id))
				: null,
		);
	});
}

/**
 * Reopening a closed pull request (PATCH …/pulls/{n} or PATCH …/issues/{n} with state open): the
 * head and base branches must still exist (GitHub refuses it once the head branch is deleted);
 * the head follows its branch again (fetched from a fork).
 * @param now ISO timestamp
 * @throws DomainError 422 (custom, field state) when the pull request is merged or a branch is gone
 */
export function reopenPull(app: App, pr: PullRequestRow, baseRef: string, now: string): void {
	const refuse = (message: string) => validationFailed([{ resource: 'PullRequest', field: 'state', code: 'custom', message }]);
	if (pr.merged_at !== null) throw refuse('state cannot be changed. The pull request has already been merged.');
	const headSha = pr.head_repo_id === null ? null : (app.stores.git.ref(pr.head_repo_id, `refs/heads/${pr.head_ref}`)?.sha ?? null);
	if (!headSha) throw refuse(`state cannot be changed. The ${pr.head_ref} branch has been deleted.`);
	if (!app.stores.git.ref(pr.repo_id, `refs/heads/${baseRef}`))
		throw refuse(`state cannot be changed. The ${baseRef} branch has been deleted.`);
	fetchHead(app, pr.repo_id, pr.head_repo_id!, headSha, now);
	if (headSha !== pr.head_sha) {
		app.stores.pulls.setHead(pr.issue_id, headSha);
		refreshMergeability(app, { ...pr, head_sha: headSha });
	}
}
