/**
 * Unassigning a user from every issue of a repository: GitHub does it when a collaborator is removed
 * ("Unassigns the user from any issues"). Each issue is touched (updated_at) and reports its
 * `unassigned` through the issue events, as DELETE …/issues/{issue_number}/assignees would.
 */
import type { Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { issueSnapshot, recordIssueChanges } from './events';
import { issueRepository } from './service';

/**
 * Unassigns `userId` from every issue and pull request of the route's repository (ctx.repo), in
 * the request's transaction. @returns how many issues changed
 */
export function unassignEverywhere(ctx: Context, userId: number): number {
	const { issues } = ctx.app.stores;
	const rows = issues.assignedIn(ctx.repo.repo.id, userId);
	if (rows.length === 0) return 0;
	const scope = issueRepository(ctx, { allowDisabled: true });
	for (const row of rows) {
		const before = issueSnapshot(ctx, row);
		issues.removeAssignee(row.id, userId);
		issues.touch(row.id, isoSeconds(ctx.now));
		recordIssueChanges(ctx, scope, before, issues.byId(row.id)!);
	}
	return rows.length;
}
