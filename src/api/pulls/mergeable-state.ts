/**
 * mergeable, mergeable_state and rebaseable of a pull request as GitHub shows them.
 *
 * Two parts:
 * - the git-level outcome (does head merge into base without conflicts, do its commits replay onto
 *   base), computed by the merge engine in the MERGEABILITY_TASK background task
 *   (src/api/pulls/mergeability.ts) whenever the head or base moves or the pull request is opened,
 *   and stored in the pull_requests row with the head and base shas it was computed for;
 * - what the branch protection and the checks of the moment make of it, decided at every read
 *   (a commit status arriving changes it without any branch moving): draft, blocked (required
 *   reviews, required checks not passed), behind (strict required checks and a base the head lacks),
 *   unstable (other statuses or check runs failing or pending on the head), clean.
 *
 * Stored `mergeable_state` (git level only): 'unknown' (not computed), 'dirty' (conflicts),
 * 'clean' (merges; rebase not computed yet: the fast-forward shortcut of refreshMergeability),
 * 'clean rebaseable' / 'clean unrebaseable' (the task's full answer). The shown state is never one
 * of the suffixed forms.
 *
 * This module imports no merge engine (src/api/git/merge.ts reaches the reference writes, which
 * call the pulls area back): the engine's part lives in mergeability.ts, reached through the task.
 */
import type { App } from '../../app';
import { commitChecksPassed } from '../branches/enforce';
import { ACTIONS_APP_ID } from '../checks/render';
import type { ProtectionSettings } from '../branches/store';
import { isAncestor } from '../git/service';
import { userRepoPermission } from '../../auth/access/repos';
import { atLeast } from '../../model/repo-permissions';
import type { PullRequestRow, PullRow } from '../../model/rows';

/** The background task computing a pull request's git-level mergeability; payload { issueId }. */
export const MERGEABILITY_TASK = 'pull-request-mergeability';

/** What the full form shows. */
export interface Mergeability {
	mergeable: boolean | null;
	state: string;
	rebaseable: boolean | null;
}

/** The git-level outcome parsed from the stored row (see the module's comment). */
export function storedOutcome(pr: PullRequestRow): { git: 'unknown' | 'clean' | 'dirty'; rebaseable: boolean | null } {
	const [git, rebase] = pr.mergeable_state.split(' ');
	if (git === 'dirty') return { git, rebaseable: false };
	if (git === 'clean') return { git, rebaseable: rebase === 'rebaseable' ? true : rebase === 'unrebaseable' ? false : null };
	return { git: 'unknown', rebaseable: null };
}

/** True when the stored outcome was computed for the pull request's current head and base. */
export function storedIsCurrent(pr: PullRequestRow): boolean {
	return pr.mergeable_head_sha === pr.head_sha && pr.mergeable_base_sha === pr.base_sha;
}

/** True when the stored outcome is current and complete (the task has nothing left to do). */
export function mergeabilityKnown(pr: PullRequestRow): boolean {
	const outcome = storedOutcome(pr);
	return storedIsCurrent(pr) && outcome.git !== 'unknown' && (outcome.git === 'dirty' || outcome.rebaseable !== null);
}

/** Per connection: is a mergeability task for this pull request already waiting? */
const queuedStatements = new WeakMap<App['db'], { get(kind: string, payload: string): unknown }>();

/**
 * Queues the mergeability computation of a pull request unless one is already waiting (tasks are
 * idempotent; this only spares duplicates). Call inside the transaction of the change (reads may
 * call it too: the row joins whatever transaction is open, else commits at once).
 */
export function enqueueMergeability(app: App, issueId: number): void {
	let statement = queuedStatements.get(app.db);
	if (!statement) {
		statement = app.db.prepare("SELECT 1 FROM background_tasks WHERE state = 'queued' AND kind = ? AND payload = ? LIMIT 1");
		queuedStatements.set(app.db, statement);
	}
	const payload = { issueId };
	if (statement.get(MERGEABILITY_TASK, JSON.stringify(payload))) return;
	app.tasks.enqueue(MERGEABILITY_TASK, payload);
}

/**
 * Whether the pull request's reviews satisfy required_pull_request_reviews (GitHub's rule): each
 * reviewer's latest decisive review counts when the reviewer has write access (push or more) to
 * the repository — an APPROVED one is an approval (with dismiss_stale_reviews only when it
 * reviewed the current head), a CHANGES_REQUESTED one blocks whatever the approvals, a DISMISSED
 * one counts for nothing. A review change queues the mergeability again (src/api/pulls/reviews.ts)
 * and this is decided at every read, so the state follows the reviews of the moment.
 * @returns GitHub's 405 message when they do not, else null
 */
export function reviewsRequirement(app: App, pr: PullRequestRow, settings: ProtectionSettings): string | null {
	const reviews = settings.required_pull_request_reviews;
	if (!reviews) return null;
	const required = reviews.required_approving_review_count;
	const repo = app.stores.repos.byId(pr.repo_id);
	const owner = repo ? app.stores.accounts.byId(repo.owner_id) : undefined;
	let approvals = 0;
	let changesRequested = false;
	for (const review of app.stores.reviews.latestDecisive(pr.issue_id)) {
		if (review.state === 'DISMISSED' || !repo || !owner) continue;
		const permission = userRepoPermission(app, repo, owner, review.user_id);
		if (!permission || !atLeast(permission, 'push')) continue;
		if (review.state === 'CHANGES_REQUESTED') changesRequested = true;
		else if (!reviews.dismiss_stale_reviews || review.commit_id === pr.head_sha) approvals += 1;
	}
	if (changesRequested) return 'Changes must be made before merging: a reviewer with write access requested changes.';
	if (approvals >= required) return null;
	return required === 1
		? 'At least 1 approving review is required by reviewers with write access.'
		: `At least ${required} approving reviews are required by reviewers with write access.`;
}

/** True when the head lacks commits of the base (the base moved since the head branched off it). */
export function isBehind(app: App, pr: PullRequestRow): boolean {
	return !isAncestor(app, pr.repo_id, pr.base_sha, pr.head_sha);
}

/**
 * The state the protection of the base branch puts a clean pull request in: 'blocked' (required
 * reviews or required checks not passed), 'behind' (strict checks and a base the head lacks), or
 * null (nothing in the way).
 */
export function protectionState(app: App, pr: PullRequestRow): 'blocked' | 'behind' | null {
	const protection = app.stores.branches.protection(pr.repo_id, pr.base_ref);
	if (!protection) return null;
	const settings = protection.settings;
	if (reviewsRequirement(app, pr, settings) !== null) return 'blocked';
	const checks = settings.required_status_checks;
	if (checks?.contexts.length && !commitChecksPassed(app, pr.repo_id, pr.head_sha, checks.contexts).passed) return 'blocked';
	if (checks?.strict && isBehind(app, pr)) return 'behind';
	return null;
}

/** Check run conclusions that pass (GitHub's success, neutral, skipped). */
const PASSING = new Set(['success', 'neutral', 'skipped']);
/** Check runs of the head inspected for `unstable` at most. */
const MAX_RUNS = 100;

/**
 * True when a commit status or a check run (the latest of each name) on the head that no protection
 * requires is failing or still running (GitHub's `unstable`).
 */
function unstable(app: App, pr: PullRequestRow): boolean {
	const required = new Set(app.stores.branches.protection(pr.repo_id, pr.base_ref)?.settings.required_status_checks?.contexts ?? []);
	if (
		app.stores.statuses
			.latestByContext(pr.repo_id, pr.head_sha)
			.some((status) => !required.has(status.context) && status.state !== 'success')
	)
		return true;
	const filter = { name: null, status: null, all: false, appId: null, actionsAppId: ACTIONS_APP_ID };
	return app.stores.checks
		.forCommit(pr.repo_id, pr.head_sha, filter, MAX_RUNS, 0)
		.rows.some((run) => !required.has(run.name) && (run.status !== 'completed' || !PASSING.has(run.conclusion ?? '')));
}

/**
 * mergeable, mergeable_state and rebaseable as the full form shows them. A stored outcome for other
 * shas than the current ones is shown as null/'unknown' and its computation queued.
 */
export function presentMergeability(app: App, row: PullRow): Mergeability {
	const pr = row.pr;
	const unknown: Mergeability = { mergeable: null, state: 'unknown', rebaseable: null };
	if (pr.merged_at !== null) return unknown;
	if (!storedIsCurrent(pr)) {
		if (row.state === 'open') enqueueMergeability(app, pr.issue_id);
		return unknown;
	}
	const outcome = storedOutcome(pr);
	if (outcome.git === 'unknown') return unknown;
	if (outcome.git === 'dirty') return { mergeable: false, state: 'dirty', rebaseable: false };
	// Clean by the fast-forward shortcut: the task still owes rebaseable (queued again should it have been lost).
	if (outcome.rebaseable === null && row.state === 'open') enqueueMergeability(app, pr.issue_id);
	const clean = { mergeable: true, rebaseable: outcome.rebaseable };
	if (row.state === 'closed') return { ...clean, state: 'clean' };
	if (pr.draft === 1) return { ...clean, state: 'draft' };
	const blocked = protectionState(app, pr);
	if (blocked) return { ...clean, state: blocked };
	if (unstable(app, pr)) return { ...clean, state: 'unstable' };
	return { ...clean, state: 'clean' };
}
