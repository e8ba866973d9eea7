/**
 * Closing keywords (GitHub's "Linking a pull request to an issue using a keyword"; the parser is
 * src/api/issues/closing-keywords.ts): a pull request whose title, body or commit messages say
 * `closes #N` (or `fix`, `resolve`, … `owner/repo#N`) closes those issues when it is merged into
 * the repository's default branch. Only issues of the base repository are closed (`owner/repo`
 * must name it), only open issues that are not pull requests; each is closed by the merger with
 * state_reason `completed` and records `issues` `closed` (and the IssuesEvent), in the transaction
 * of the merge.
 */
import type { Caller } from '../../auth/caller';
import { closingReferences } from '../issues/closing-keywords';
import { issueSnapshot, recordIssueChanges } from '../issues/events';
import type { IssueScope } from '../issues/service';
import { pullComparison } from './service';
import type { PullRow } from '../../model/rows';

/**
 * Closes the issues a merged pull request's title and body name with a closing keyword, when it was
 * merged into the default branch. Call inside the merge's transaction, after the merge.
 * @param now ISO timestamp
 * @returns the numbers of the issues closed
 */
export function closeReferencedIssues(ctx: Caller, scope: IssueScope, pull: PullRow, now: string): number[] {
	if (pull.pr.base_ref !== scope.repo.default_branch) return [];
	const { issues } = ctx.app.stores;
	const closed: number[] = [];
	// The title, the description, and the messages of the commits it brings (GitHub closes from commit messages too).
	const messages = (pullComparison(ctx.app, pull.pr)?.commits ?? []).map((c) => c.data.message);
	const text = [pull.title, pull.body ?? '', ...messages].join('\n');
	// The closed events name the merge commit (the pull request row was read before the merge).
	const mergeCommit = ctx.app.stores.pulls.byIssue(pull.id)?.pr.merge_commit_sha ?? null;
	for (const number of closingReferences(text, scope.owner.login, scope.repo.name)) {
		const issue = issues.byNumber(scope.repo.id, number);
		if (!issue || issue.pull_request || issue.state !== 'open') continue;
		const before = issueSnapshot(ctx, issue);
		const after = issues.update(
			{ ...issue, state: 'closed', state_reason: 'completed', closed_at: now, closed_by_id: ctx.principal.actorId },
			now,
		);
		recordIssueChanges(ctx, scope, before, after, undefined, {}, mergeCommit);
		closed.push(number);
	}
	return closed;
}
