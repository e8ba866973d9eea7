/**
 * Auto-merge of pull requests (GitHub's GraphQL enablePullRequestAutoMerge and
 * disablePullRequestAutoMerge; no REST route sets it, REST shows it as the pull request's
 * `auto_merge`). Enabling stores who asked, the merge method and the commit's title and message;
 * the pull request is then merged as that user, with those, once the base branch's protection lets
 * it: its required reviews approved and its required status checks passed. The domain-event log
 * (src/events/auto-merge.ts) queues AUTO_MERGE_TASK for a repository's waiting pull requests when a
 * status, a check run, a review or a push may have changed that; the task merges through
 * merge-service.ts (the same refusals as a merge by hand) and removes the request once merged.
 * https://docs.github.com/pull-requests/collaborating-with-pull-requests/incorporating-changes-from-a-pull-request/automatically-merging-a-pull-request
 */
import type { App } from '../../app';
import { userRepoPermission } from '../../auth/access/repos';
import { PermanentTaskError } from '../../jobs/tasks';
import { eventContext, type Caller } from '../../auth/caller';
import { DomainError, forbidden } from '../../model/errors';
import { atLeast } from '../../model/repo-permissions';
import type { PullRow } from '../../model/rows';
import { AUTO_MERGE_TASK } from '../../events/auto-merge';
import { isoSeconds } from '../../time';
import { issueScope, type IssueScope } from '../issues/service';
import { recordPullRequest } from './events';
import { updateMergeability } from './mergeability';
import { mergeabilityKnown, presentMergeability } from './mergeable-state';
import { HEAD_MODIFIED, mergePullRequest, type MergeMethod } from './merge-service';

/** What enabling asks for (GitHub's EnablePullRequestAutoMergeInput, REST names). */
export interface AutoMergeInput {
	method: MergeMethod;
	/** The merge commit's headline and body; absent: the method's defaults. */
	title?: string | null;
	message?: string | null;
	authorEmail?: string | null;
	/** The head sha the caller saw; absent: any. */
	expectedHeadSha?: string | null;
}

/** Whether the repository allows each merge method, and GitHub's refusal when it does not. */
const METHODS: Record<MergeMethod, { column: 'allow_merge_commit' | 'allow_squash_merge' | 'allow_rebase_merge'; message: string }> = {
	merge: { column: 'allow_merge_commit', message: 'Merge commits are not allowed on this repository.' },
	squash: { column: 'allow_squash_merge', message: 'Squash merges are not allowed on this repository.' },
	rebase: { column: 'allow_rebase_merge', message: 'Rebase merges are not allowed on this repository.' },
};

/** The pull request's repository with the permission `userId` holds there (the task's merging user). */
function userScope(app: App, pull: PullRow, userId: number): IssueScope {
	const repo = app.stores.repos.byId(pull.repo_id);
	const owner = repo && app.stores.accounts.byId(repo.owner_id);
	if (!repo || !owner) throw new DomainError('NotFound', 'Not Found');
	return issueScope(app, { repo, owner, permission: userRepoPermission(app, repo, owner, userId) });
}

/**
 * Enables auto-merge of an open pull request for the caller (write access to its repository:
 * `scope.permission`, the caller's), in the caller's transaction; enabling it again replaces the method, title and message. GitHub's
 * refusals: the repository does not allow auto-merge, a closed or merged pull request, a method the
 * repository disallows, a head that moved, and a pull request that could be merged right now
 * (GitHub's "Pull request Pull request is in clean status", the prefix doubled: merge it instead).
 * @throws DomainError 403 without write access; 409 HEAD_MODIFIED; 422 for the other refusals
 * @returns the pull request as it now is
 */
export function enableAutoMerge(ctx: Caller, scope: IssueScope, pull: PullRow, input: AutoMergeInput): PullRow {
	const { app } = ctx;
	const actorId = ctx.principal.actorId;
	if (actorId === null || !atLeast(scope.permission, 'push'))
		throw forbidden('You do not have permission to enable auto-merge on this pull request.');
	if (scope.repo.allow_auto_merge !== 1)
		throw new DomainError('Unprocessable', 'Pull request Auto merge is not allowed for this repository');
	if (pull.pr.merged_at !== null) throw new DomainError('Unprocessable', 'Pull request is already merged');
	if (pull.state !== 'open') throw new DomainError('Unprocessable', 'Pull request is closed');
	if (input.expectedHeadSha && input.expectedHeadSha.toLowerCase() !== pull.pr.head_sha) throw new DomainError('Conflict', HEAD_MODIFIED);
	const method = METHODS[input.method];
	if (scope.repo[method.column] !== 1) throw new DomainError('Unprocessable', method.message);
	const state = presentMergeability(app, pull).state;
	if (state === 'clean' || state === 'unstable')
		throw new DomainError('Unprocessable', `Pull request Pull request is in ${state} status`);
	const now = isoSeconds(ctx.now);
	app.stores.autoMerges.set({
		issue_id: pull.id,
		enabled_by_id: actorId,
		merge_method: input.method,
		commit_title: input.title ?? null,
		commit_message: input.message ?? null,
		author_email: input.authorEmail ?? null,
		enabled_at: now,
	});
	app.stores.issues.touch(pull.id, now);
	recordPullRequest(ctx, scope, pull, 'auto_merge_enabled', {}, undefined, []);
	// The requirements may be met already (a status that passed while it was being enabled).
	app.tasks.enqueue(AUTO_MERGE_TASK, { issueId: pull.id });
	return app.stores.pulls.byIssue(pull.id) as PullRow;
}

/**
 * Disables auto-merge of a pull request for the caller (write access, or the user who enabled it),
 * in the caller's transaction. No change, nothing recorded, when it was not enabled.
 * @throws DomainError 403 for other callers
 * @returns the pull request as it now is
 */
export function disableAutoMerge(ctx: Caller, scope: IssueScope, pull: PullRow): PullRow {
	const { app } = ctx;
	const actorId = ctx.principal.actorId;
	const row = app.stores.autoMerges.byIssue(pull.id);
	if (actorId === null || (!atLeast(scope.permission, 'push') && row?.enabled_by_id !== actorId))
		throw forbidden('You do not have permission to disable auto-merge on this pull request.');
	if (!row) return pull;
	app.stores.autoMerges.remove(pull.id);
	app.stores.issues.touch(pull.id, isoSeconds(ctx.now));
	recordPullRequest(ctx, scope, pull, 'auto_merge_disabled', { reason: 'Auto-merge was disabled' }, undefined, []);
	return app.stores.pulls.byIssue(pull.id) as PullRow;
}

/**
 * Handler of AUTO_MERGE_TASK (payload { issueId }): merges the pull request as the user who enabled
 * auto-merge when its mergeability is known and the base branch's protection no longer blocks it.
 * A pull request still waiting (checks pending, reviews missing, behind a strict base, conflicts,
 * a draft) is left as it is; a merge the domain refuses (the user lost write access, a method since
 * disallowed) disables auto-merge, with the refusal as the pull_request event's reason.
 */
export function runAutoMergeTask(app: App, payload: unknown): void {
	const issueId = (payload as { issueId?: unknown } | null)?.issueId;
	if (typeof issueId !== 'number') throw new PermanentTaskError('malformed payload');
	let pull = app.stores.pulls.byIssue(issueId);
	if (!pull || pull.state !== 'open' || pull.pr.merged_at !== null) return;
	if (!mergeabilityKnown(pull.pr)) {
		// Computed outside a writing transaction (the merge engine may be slow), then read again.
		updateMergeability(app, issueId);
		pull = app.stores.pulls.byIssue(issueId);
		if (!pull || pull.state !== 'open') return;
	}
	app.transaction(() => {
		const current = app.stores.pulls.byIssue(issueId);
		const row = app.stores.autoMerges.byIssue(issueId);
		if (!current || !row || current.state !== 'open' || current.pr.merged_at !== null) return;
		const state = presentMergeability(app, current).state;
		if (state !== 'clean' && state !== 'unstable') return;
		const ctx = eventContext(app, row.enabled_by_id);
		const scope = userScope(app, current, row.enabled_by_id ?? 0);
		const refuse = (reason: string) => {
			app.stores.autoMerges.remove(issueId);
			recordPullRequest(ctx, scope, current, 'auto_merge_disabled', { reason }, undefined, []);
		};
		if (row.enabled_by_id === null) return refuse('The user who enabled auto-merge no longer exists');
		if (!atLeast(scope.permission, 'push')) return refuse('The user who enabled auto-merge no longer has write access');
		try {
			mergePullRequest(ctx, scope, current, {
				method: row.merge_method,
				sha: current.pr.head_sha,
				title: row.commit_title ?? undefined,
				message: row.commit_message ?? undefined,
			});
		} catch (error) {
			if (!(error instanceof DomainError)) throw error;
			return refuse(error.message);
		}
		app.stores.autoMerges.remove(issueId);
	});
}
