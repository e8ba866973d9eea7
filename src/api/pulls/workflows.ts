/**
 * The pull-request use cases (GitHub's pulls API, for every front end): open a pull request (or
 * convert an issue into one) and update one (title, body, state, base branch,
 * maintainer_can_modify). Each checks the rule, writes in one transaction and records its events
 * itself (src/api/issues/events.ts). Refusals are DomainErrors (src/model/errors.ts): GitHub's 422
 * items for a head or base that is unknown, has no common history or no new commits, or already has
 * an open pull request.
 */
import { callerRepoPermission } from '../../auth/access/repos';
import type { Caller } from '../../auth/caller';
import { forbidden, validationFailed } from '../../model/errors';
import { atLeast } from '../../model/repo-permissions';
import type { AccountRow, IssueRow, PullRow, RepositoryRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { issueSnapshot, recordIssueChanges } from '../issues/events';
import { canTriage, type IssueScope } from '../issues/service';
import { fetchHead, pullComparison, refreshMergeability, reopenPull } from './service';

/** GitHub's 422 for a pull request that cannot be made: a `custom` item with a sentence. */
const custom = (field: string, message: string) => validationFailed([{ resource: 'PullRequest', field, code: 'custom', message }]);
/** GitHub's 422 for an unknown head or base branch. */
const invalid = (field: 'head' | 'base') => validationFailed([{ resource: 'PullRequest', field, code: 'invalid' }]);

/** The branch's commit in a repository, or null when it has no such branch. */
function branchSha(ctx: Pick<Caller, 'app'>, repoId: number, branch: string): string | null {
	return ctx.app.stores.git.ref(repoId, `refs/heads/${branch}`)?.sha ?? null;
}

/**
 * The repository a head names: `branch` (this repository) or `owner:branch` (this repository when
 * the owner owns it, else that owner's fork in this repository's network that the caller can read;
 * `head_repo` names the fork when the owner has several).
 * @returns the repository, its owner and the branch; null when no such repository is readable
 */
export function headRepository(
	ctx: Caller,
	scope: IssueScope,
	head: string,
	headRepo: string | undefined,
): { repo: RepositoryRow; owner: AccountRow; branch: string } | null {
	const colon = head.indexOf(':');
	if (colon === -1 && headRepo === undefined) return { repo: scope.repo, owner: scope.owner, branch: head };
	const login = colon === -1 ? scope.owner.login : head.slice(0, colon);
	const branch = colon === -1 ? head : head.slice(colon + 1);
	const owner = ctx.app.stores.accounts.byLogin(login);
	if (!owner || !branch) return null;
	if (owner.id === scope.owner.id && (headRepo === undefined || headRepo.toLowerCase() === scope.repo.name.toLowerCase())) {
		return { repo: scope.repo, owner: scope.owner, branch };
	}
	const network = new Set(ctx.app.stores.repos.network(scope.repo.id));
	const candidates = ctx.app.stores.repos
		.byIds([...network])
		.filter((r) => r.owner_id === owner.id && (headRepo === undefined || r.name.toLowerCase() === headRepo.toLowerCase()));
	const found = candidates.find((r) => callerRepoPermission({ ...ctx, publicView: ctx.publicView ?? false }, r, owner) !== null);
	return found ? { repo: found, owner, branch } : null;
}

/** What a pull request is opened with: `head` is `branch` or `owner:branch`; `issue` converts that issue instead of a title. */
export interface NewPullRequest {
	title?: string;
	head: string;
	head_repo?: string;
	base: string;
	body?: string | null;
	maintainer_can_modify?: boolean;
	draft?: boolean;
	issue?: number;
}

/** An update of a pull request: absent fields stay as they are. */
export interface PullRequestPatch {
	title?: string;
	body?: string | null;
	state?: 'open' | 'closed';
	base?: string;
	maintainer_can_modify?: boolean;
}

/**
 * Opens a pull request from `head` into `base` of the scope's repository; a fork's head is fetched
 * into it (GitHub's refs/pull/N/head). Converting an issue takes its author or push access.
 * @returns the pull request as stored
 * @throws DomainError 422 (missing title, unknown head or base, no common history, no commits, an
 *   open pull request for the same head and base, an issue that cannot be converted), 403
 */
export function createPullRequest(ctx: Caller, scope: IssueScope, input: NewPullRequest): PullRow {
	return ctx.app.transaction(() => {
		const { stores } = ctx.app;
		if (input.issue === undefined && input.title === undefined) {
			throw validationFailed([{ resource: 'PullRequest', field: 'title', code: 'missing_field' }]);
		}
		const head = headRepository(ctx, scope, input.head, input.head_repo);
		const headSha = head ? branchSha(ctx, head.repo.id, head.branch) : null;
		if (!head || !headSha) throw invalid('head');
		const baseSha = branchSha(ctx, scope.repo.id, input.base);
		if (!baseSha) throw invalid('base');
		const headLabel = `${head.owner.login}:${head.branch}`;
		const existing = stores.pulls.openWithHead(scope.repo.id, head.repo.id, head.branch, input.base);
		if (existing) throw custom('head', `A pull request already exists for ${headLabel}.`);
		const now = isoSeconds(ctx.now);
		// A fork's head is fetched into this repository (GitHub's refs/pull/N/head); a refusal below rolls it back.
		fetchHead(ctx.app, scope.repo.id, head.repo.id, headSha, now);
		const draft = { repo_id: scope.repo.id, head_repo_id: head.repo.id, base_sha: baseSha, head_sha: headSha };
		const comparison = pullComparison(
			ctx.app,
			{ ...draft, issue_id: 0, head_ref: head.branch, base_ref: input.base } as PullRow['pr'],
			1,
		);
		if (!comparison) throw custom('head', `The ${input.head} branch has no history in common with ${input.base}`);
		if (comparison.commits.length === 0) throw custom('head', `No commits between ${input.base} and ${input.head}`);

		const actor = ctx.principal.actorId!;
		let issueRow: IssueRow;
		if (input.issue !== undefined) {
			// Converting an issue: its author or someone with push access; the issue keeps its number and conversation.
			const issue = stores.issues.byNumber(scope.repo.id, input.issue);
			if (!issue || issue.pull_request)
				throw validationFailed([{ resource: 'PullRequest', field: 'issue', code: 'invalid', value: input.issue }]);
			if (issue.user_id !== actor && !atLeast(scope.permission, 'push')) {
				throw forbidden('Must be the author of the issue or have push access to the repository to convert it.');
			}
			issueRow = issue;
		} else {
			issueRow = stores.issues.insert(
				{ repo_id: scope.repo.id, title: input.title!, body: input.body ?? null, user_id: actor, pull_request: true },
				now,
			);
		}
		stores.pulls.insert(
			{
				issue_id: issueRow.id,
				repo_id: scope.repo.id,
				head_repo_id: head.repo.id,
				head_ref: head.branch,
				head_sha: headSha,
				base_ref: input.base,
				base_sha: baseSha,
				draft: input.draft ? 1 : 0,
				maintainer_can_modify: input.maintainer_can_modify && head.repo.id !== scope.repo.id ? 1 : 0,
			},
			now,
		);
		const row = stores.pulls.byIssue(issueRow.id)!;
		refreshMergeability(ctx.app, row.pr);
		const current = stores.pulls.byIssue(issueRow.id)!;
		recordIssueChanges(ctx, scope, null, current);
		return current;
	});
}

/**
 * Updates a pull request: its author or triage access changes title, body and state (reopening
 * needs its branches); changing the base takes push access and an open, unmerged pull request.
 * @returns the pull request as stored after the change
 * @throws DomainError 403, 422 (custom items on `base`, or `state` when it cannot reopen)
 */
export function updatePullRequest(ctx: Caller, scope: IssueScope, current: PullRow, input: PullRequestPatch): PullRow {
	return ctx.app.transaction(() => {
		const actor = ctx.principal.actorId!;
		if (!canTriage(scope) && current.user_id !== actor) {
			throw forbidden('Must be the author of the pull request or have triage access to the repository to update it.');
		}
		const { stores } = ctx.app;
		const before = issueSnapshot(ctx, current);
		const moreChanges: Record<string, unknown> = {};
		if (input.base !== undefined && input.base !== current.pr.base_ref) {
			if (!atLeast(scope.permission, 'push')) throw forbidden('Must have push access to the repository to change the base branch.');
			if (current.pr.merged_at !== null) throw custom('base', 'Cannot change the base branch of a merged pull request.');
			const baseSha = branchSha(ctx, scope.repo.id, input.base);
			if (!baseSha) throw invalid('base');
			if (current.pr.head_repo_id === scope.repo.id && input.base === current.pr.head_ref) {
				throw custom('base', `The base branch ${input.base} is the head branch of this pull request.`);
			}
			const other =
				current.pr.head_repo_id === null
					? undefined
					: stores.pulls.openWithHead(scope.repo.id, current.pr.head_repo_id, current.pr.head_ref, input.base);
			if (other && other.id !== current.id && current.state === 'open') {
				throw custom(
					'base',
					`A pull request already exists for base branch '${input.base}' and head branch '${current.pr.head_ref}'`,
				);
			}
			stores.pulls.setBase(current.id, input.base, baseSha);
			moreChanges.base = { ref: { from: current.pr.base_ref }, sha: { from: current.pr.base_sha } };
		}
		const now = isoSeconds(ctx.now);
		const next: IssueRow = { ...current };
		if (input.title !== undefined) next.title = input.title;
		if (input.body !== undefined) next.body = input.body;
		if (input.state !== undefined && input.state !== current.state) {
			if (input.state === 'closed') {
				Object.assign(next, { state: 'closed', state_reason: null, closed_at: now, closed_by_id: actor });
			} else {
				reopenPull(ctx.app, stores.pulls.byIssue(current.id)!.pr, input.base ?? current.pr.base_ref, now);
				Object.assign(next, { state: 'open', state_reason: null, closed_at: null, closed_by_id: null });
			}
		}
		if (input.maintainer_can_modify !== undefined && current.pr.head_repo_id !== scope.repo.id) {
			stores.pulls.setMaintainerCanModify(current.id, input.maintainer_can_modify);
		}
		stores.issues.update(next, now);
		const updated = stores.pulls.byIssue(current.id)!;
		if (updated.pr.head_sha !== current.pr.head_sha || updated.pr.base_sha !== current.pr.base_sha)
			refreshMergeability(ctx.app, updated.pr);
		recordIssueChanges(ctx, scope, before, updated, undefined, moreChanges);
		return stores.pulls.byIssue(current.id)!;
	});
}
