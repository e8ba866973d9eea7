/**
 * The merge use cases (GitHub's "Merge a pull request" and "Update a pull request branch"), for
 * every front end:
 *
 * - mergePullRequest: builds the commit of the merge method with the merge engine
 *   (src/api/git/merge.ts) — `merge` a commit with two parents, `squash` one commit on the base,
 *   `rebase` the pull request's commits replayed — and moves the base branch through writes.ts
 *   updateRef (viaPullRequest: branch protection applies, required checks read on the pull
 *   request's head); then the pull request is merged (merged_at, merged_by, merge_commit_sha), its
 *   issue closed (`pull_request` `closed` with merged true, the PullRequestEvent), the issues its
 *   closing keywords name closed (closing.ts) and, with the repository's delete_branch_on_merge,
 *   its head branch deleted. Refusals are GitHub's: 409 when `sha` is not the head, 405 for a
 *   closed or conflicting pull request, a merge method the repository disallows, and what the base
 *   branch's protection refuses.
 * - updatePullRequestBranch: merges the base into the head branch (a merge commit on it, moved with
 *   updateRef in the head repository); 422 on an expected head sha mismatch or conflicts.
 *
 * Both throw DomainErrors (src/model/errors.ts) and record their events through the reference
 * writes and the issue recorders; they run inside the caller's write transaction (a savepoint).
 */
import type { Caller } from '../../auth/caller';
import { conflict, DomainError, forbidden, notMergeable, unprocessable } from '../../model/errors';
import { isoSeconds } from '../../time';
import { atLeast } from '../../model/repo-permissions';
import { callerRepoPermission } from '../../auth/access/repos';
import { checksMessage, commitChecksPassed } from '../branches/enforce';
import { callerPerson } from '../contents/service';
import { mergeCommit, MergeTooLargeError, rebaseCommits, squashCommit, type CommitMergeResult } from '../git/merge';
import type { Ident } from '../git/objects';
import { deleteRef, updateRef } from '../git/writes';
import { issueSnapshot, recordIssueChanges } from '../issues/events';
import type { IssueScope } from '../issues/service';
import type { RepositoryRow, PullRow } from '../../model/rows';
import { closeReferencedIssues } from './closing';
import { computeMergeability } from './mergeability';
import { isBehind, reviewsRequirement } from './mergeable-state';
import { fetchHead, objectsRepo, pullComparison } from './service';

/** GitHub's 405 for a rebase merge whose commits do not replay onto the base. */
export const NOT_REBASEABLE = "This branch can't be rebased";
/** GitHub's 409 when `sha` is not the head any more. */
export const HEAD_MODIFIED = 'Head branch was modified. Review and try the merge again.';

/** GitHub's merge methods. */
export type MergeMethod = 'merge' | 'squash' | 'rebase';

/** The repository setting that allows each method, and GitHub's 405 when it is off. */
const METHOD_SETTING: Record<MergeMethod, { allowed: (repo: RepositoryRow) => boolean; message: string }> = {
	merge: { allowed: (repo) => repo.allow_merge_commit === 1, message: 'Merge commits are not allowed on this repository.' },
	squash: { allowed: (repo) => repo.allow_squash_merge === 1, message: 'Squash merges are not allowed on this repository.' },
	rebase: { allowed: (repo) => repo.allow_rebase_merge === 1, message: 'Rebase merges are not allowed on this repository.' },
};

/** An account as a git identity (its name or login, its public email or GitHub's noreply address), dated now. */
function person(ctx: Caller, accountId: number): Ident {
	const p = callerPerson(ctx.app, accountId);
	return { name: p.name, email: p.email, seconds: Math.floor(ctx.now / 1000), tz: '+0000' };
}

/** The first line of a commit message, and the rest after the blank line. */
function splitMessage(message: string): { subject: string; body: string } {
	const text = message.replace(/\n+$/, '');
	const newline = text.indexOf('\n');
	if (newline === -1) return { subject: text, body: '' };
	return { subject: text.slice(0, newline), body: text.slice(newline + 1).replace(/^\n+/, '') };
}

const join = (title: string, message: string) => (message === '' ? title : `${title}\n\n${message}`);

/**
 * The commit message of a merge or squash as GitHub makes it, from the repository's defaults
 * (merge_commit_title/message, squash_merge_commit_title/message) unless commit_title or
 * commit_message is given.
 */
function commitMessage(
	ctx: Caller,
	scope: IssueScope,
	pull: PullRow,
	method: 'merge' | 'squash',
	title: string | undefined,
	message: string | undefined,
): string {
	const repo = scope.repo;
	const body = pull.body ?? '';
	if (method === 'merge') {
		const headOwner = pull.pr.head_repo_id === null ? null : ctx.app.stores.repos.byId(pull.pr.head_repo_id);
		const ownerLogin = headOwner ? (ctx.app.stores.accounts.byId(headOwner.owner_id)?.login ?? scope.owner.login) : scope.owner.login;
		const defaultTitle =
			repo.merge_commit_title === 'PR_TITLE'
				? `${pull.title} (#${pull.number})`
				: `Merge pull request #${pull.number} from ${ownerLogin}/${pull.pr.head_ref}`;
		const setting = repo.merge_commit_message;
		const defaultMessage = setting === 'PR_BODY' ? body : setting === 'BLANK' ? '' : pull.title;
		return join(title ?? defaultTitle, message ?? defaultMessage);
	}
	const commits = pullComparison(ctx.app, pull.pr)?.commits ?? [];
	const only = commits.length === 1 ? splitMessage(commits[0].data.message) : null;
	const defaultTitle =
		repo.squash_merge_commit_title === 'COMMIT_OR_PR_TITLE' && only
			? `${only.subject} (#${pull.number})`
			: `${pull.title} (#${pull.number})`;
	const setting = repo.squash_merge_commit_message;
	let defaultMessage: string;
	if (setting === 'PR_BODY') defaultMessage = body;
	else if (setting === 'BLANK') defaultMessage = '';
	else if (only && repo.squash_merge_commit_title === 'COMMIT_OR_PR_TITLE') defaultMessage = only.body;
	else defaultMessage = commits.map((c) => `* ${c.data.message.replace(/\n+$/, '')}`).join('\n\n');
	if (message === undefined) {
		// GitHub's attribution of a squash: the merger authors it, the other authors of its commits are co-authors.
		const merger = callerPerson(ctx.app, ctx.principal.actorId);
		const seen = new Set([merger.email.toLowerCase()]);
		const trailers: string[] = [];
		for (const c of commits) {
			const email = c.data.author.email.toLowerCase();
			if (seen.has(email)) continue;
			seen.add(email);
			trailers.push(`Co-authored-by: ${c.data.author.name} <${c.data.author.email}>`);
		}
		if (trailers.length) defaultMessage = join(defaultMessage, trailers.join('\n'));
	}
	return join(title ?? defaultTitle, message ?? defaultMessage);
}

/**
 * What the base branch's protection refuses before any commit is made (405, GitHub's messages):
 * required reviews (mergeable-state.ts reviewsRequirement, where reviews will plug in), required
 * checks on the head, a head behind the base under strict checks. An administrator passes unless
 * enforce_admins. The reference write checks the rest (restrictions, linear history, signatures).
 */
function checkProtection(ctx: Caller, scope: IssueScope, pull: PullRow, admin: boolean): void {
	const protection = ctx.app.stores.branches.protection(scope.repo.id, pull.pr.base_ref);
	if (!protection) return;
	const settings = protection.settings;
	if (admin && !settings.enforce_admins) return;
	const reviews = reviewsRequirement(ctx.app, pull.pr, settings);
	if (reviews) throw notMergeable(reviews);
	const checks = settings.required_status_checks;
	if (checks?.contexts.length) {
		const result = commitChecksPassed(ctx.app, scope.repo.id, pull.pr.head_sha, checks.contexts);
		if (!result.passed) throw notMergeable(checksMessage(result.states));
	}
	if (checks?.strict && isBehind(ctx.app, pull.pr)) throw notMergeable('Head branch is out of date. Review and try the merge again.');
}

/** Builds the commit of the merge method; a conflict or a merge too large to make is 405. */
function buildCommit(
	ctx: Caller,
	scope: IssueScope,
	pull: PullRow,
	method: MergeMethod,
	title: string | undefined,
	message: string | undefined,
	now: string,
): string {
	const { app } = ctx;
	const repoId = scope.repo.id;
	const merger = person(ctx, ctx.principal.actorId!);
	let result: CommitMergeResult;
	try {
		if (method === 'rebase') {
			result = rebaseCommits(app, repoId, { base: pull.pr.base_sha, head: pull.pr.head_sha, committer: merger }, now);
		} else {
			const text = commitMessage(ctx, scope, pull, method, title, message);
			// GitHub (since 2020): merge and squash commits made through the API are authored by the merger.
			const input = { base: pull.pr.base_sha, head: pull.pr.head_sha, message: text, author: merger, committer: merger };
			result = method === 'merge' ? mergeCommit(app, repoId, input, now) : squashCommit(app, repoId, input, now);
		}
	} catch (error) {
		if (error instanceof MergeTooLargeError) throw notMergeable();
		throw error;
	}
	if ('conflicts' in result) {
		// A rebase can conflict where a merge would not (a commit that does not apply on its own, a merge commit in the history).
		if (method === 'rebase' && computeMergeability(app, pull.pr)?.mergeable) throw notMergeable(NOT_REBASEABLE);
		app.stores.pulls.setMergeability(pull.id, false, 'dirty', pull.pr.head_sha, pull.pr.base_sha);
		throw notMergeable();
	}
	return result.sha;
}

/** Runs a reference write of a merge; its 422 refusals (branch protection) are GitHub's 405 for a merge. */
function asMergeRefusal<T>(fn: () => T): T {
	try {
		return fn();
	} catch (error) {
		if (error instanceof DomainError && error.status === 422) throw notMergeable(error.message);
		throw error;
	}
}

/**
 * The repository's delete_branch_on_merge: the merged head branch is deleted when it lives in the
 * base repository, is not the default branch and no other open pull request is based on it; a
 * protected branch that refuses deletion stays (as on GitHub, the merge still succeeds).
 */
function deleteMergedHead(ctx: Caller, scope: IssueScope, pull: PullRow, admin: boolean): void {
	const { app } = ctx;
	const branch = pull.pr.head_ref;
	if (scope.repo.delete_branch_on_merge !== 1 || pull.pr.head_repo_id !== scope.repo.id || branch === scope.repo.default_branch) return;
	if (app.stores.git.ref(scope.repo.id, `refs/heads/${branch}`)?.sha !== pull.pr.head_sha) return;
	if (app.stores.pulls.openByBase(scope.repo.id, branch).length) return;
	try {
		app.transaction(() => deleteRef(app, scope.repo, `refs/heads/${branch}`, { actorId: ctx.principal.actorId, admin }));
	} catch (error) {
		if (!(error instanceof DomainError)) throw error;
	}
}

/** What a merge request asks for: the method, the head it expects, the commit's title and message (defaults: the repository's). */
export interface MergeInput {
	method: MergeMethod;
	/** The head sha the caller saw; absent: any. */
	sha?: string;
	title?: string;
	message?: string;
}

/**
 * Merges a pull request (push access to the base repository; the route's guard checks it).
 * @returns the sha of the commit the base branch now points at
 * @throws DomainError 403 without an acting user, 409 HEAD_MODIFIED, 405 (notMergeable) for a
 *   merged, closed, draft or conflicting pull request, a disallowed method, a moved base or what
 *   branch protection refuses
 */
export function mergePullRequest(ctx: Caller, scope: IssueScope, pull: PullRow, input: MergeInput): string {
	const { app } = ctx;
	return app.transaction(() => {
		const actor = ctx.principal.actorId;
		if (actor === null) throw forbidden('A user must act to merge a pull request.');
		if (pull.pr.merged_at !== null || pull.state !== 'open') throw notMergeable();
		if (pull.pr.draft === 1) throw notMergeable('Pull Request is still a draft');
		if (input.sha !== undefined && input.sha.toLowerCase() !== pull.pr.head_sha) throw conflict(HEAD_MODIFIED);
		const method = input.method;
		if (!METHOD_SETTING[method].allowed(scope.repo)) throw notMergeable(METHOD_SETTING[method].message);
		// The base branch must still be where the pull request saw it, and hold both commits.
		const baseRef = `refs/heads/${pull.pr.base_ref}`;
		const current = app.stores.git.ref(scope.repo.id, baseRef);
		if (!current) throw notMergeable();
		if (current.sha !== pull.pr.base_sha) throw notMergeable('Base branch was modified. Review and try the merge again.');
		if (objectsRepo(app, pull.pr) !== scope.repo.id) throw notMergeable();
		const admin = atLeast(scope.permission, 'admin');
		checkProtection(ctx, scope, pull, admin);

		const now = isoSeconds(ctx.now);
		const sha = buildCommit(ctx, scope, pull, method, input.title, input.message, now);
		asMergeRefusal(() =>
			updateRef(app, scope.repo, baseRef, sha, { now, actorId: actor, admin, viaPullRequest: true, checksSha: pull.pr.head_sha }),
		);

		// The base followed its branch (pulls/follow.ts); a merged pull request keeps the base it was merged into.
		const { pulls, issues } = app.stores;
		pulls.setBase(pull.id, pull.pr.base_ref, pull.pr.base_sha);
		pulls.setMerged(pull.id, now, actor, sha);
		const before = issueSnapshot(ctx, pull);
		const closed = issues.update(
			{ ...issues.byId(pull.id)!, state: 'closed', state_reason: null, closed_at: now, closed_by_id: actor },
			now,
		);
		recordIssueChanges(ctx, scope, before, closed);
		closeReferencedIssues(ctx, scope, pull, now);
		deleteMergedHead(ctx, scope, pull, admin);
		return sha;
	});
}

/** What updating a branch asks for: the head sha the caller saw (absent: any). */
export interface UpdateBranchInput {
	expectedHeadSha?: string;
}

/**
 * Merges the base branch into a pull request's head branch (Pull requests write; push access to the
 * head branch, or to the base with maintainer_can_modify).
 * @throws DomainError 403 without push access to the head, 422 for a gone head repository, a
 *   closed pull request, an expected head sha mismatch, a moved head, nothing new on the base, or
 *   conflicts
 */
export function updatePullRequestBranch(ctx: Caller, scope: IssueScope, pull: PullRow, input: UpdateBranchInput): void {
	const { app } = ctx;
	app.transaction(() => {
		const actor = ctx.principal.actorId;
		if (actor === null) throw forbidden('A user must act to update a pull request branch.');
		const headRepo = pull.pr.head_repo_id === null ? undefined : app.stores.repos.byId(pull.pr.head_repo_id);
		const headOwner = headRepo && app.stores.accounts.byId(headRepo.owner_id);
		if (!headRepo || !headOwner) throw unprocessable('The head repository of this pull request no longer exists.');
		const headPermission =
			headRepo.id === scope.repo.id
				? scope.permission
				: callerRepoPermission({ ...ctx, publicView: ctx.publicView ?? false }, headRepo, headOwner);
		const maintainer = pull.pr.maintainer_can_modify === 1 && atLeast(scope.permission, 'push');
		if (!atLeast(headPermission, 'push') && !maintainer)
			throw forbidden('Must have push access to the head branch of this pull request to update it.');
		if (pull.pr.merged_at !== null || pull.state !== 'open') throw unprocessable('Pull request must be open to update its branch.');
		const expected = input.expectedHeadSha;
		if (expected !== undefined && expected.toLowerCase() !== pull.pr.head_sha) {
			throw unprocessable('expected head sha didn’t match current head ref.');
		}
		const headRef = `refs/heads/${pull.pr.head_ref}`;
		const current = app.stores.git.ref(headRepo.id, headRef);
		if (!current || current.sha !== pull.pr.head_sha) throw unprocessable(`The ${pull.pr.head_ref} branch has changed; try again.`);
		if (!isBehind(app, pull.pr)) throw unprocessable('There are no new commits on the base branch.');
		const now = isoSeconds(ctx.now);
		// The head repository (a fork) gets the base's objects it lacks, then the merge is made there.
		fetchHead(app, headRepo.id, scope.repo.id, pull.pr.base_sha, now);
		const me = person(ctx, actor);
		let result: CommitMergeResult;
		try {
			result = mergeCommit(
				app,
				headRepo.id,
				{
					base: pull.pr.head_sha,
					head: pull.pr.base_sha,
					message: `Merge branch '${pull.pr.base_ref}' into ${pull.pr.head_ref}`,
					author: me,
					committer: me,
				},
				now,
			);
		} catch (error) {
			if (error instanceof MergeTooLargeError) throw unprocessable('merge conflict between base and head');
			throw error;
		}
		if ('conflicts' in result) throw unprocessable('merge conflict between base and head');
		updateRef(app, headRepo, headRef, result.sha, { now, actorId: actor, admin: atLeast(headPermission, 'admin') });
	});
}
