/**
 * Unassigning a user from every issue of a repository: GitHub does it when a collaborator is removed
 * ("Unassigns the user from any issues"). Each issue is touched (updated_at) and reports its
 * `unassigned` through the issue events, as DELETE …/issues/{issue_number}/assignees would.
 */
import type { App } from '../../app';
import type { Caller } from '../../auth/caller';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { issueSnapshot, recordIssueChanges } from './events';
import { issueScope } from './service';

/**
 * Unassigns `userId` from every issue and pull request of `repo` (issues turned off or not), in the
 * caller's transaction (a savepoint of its own), recording each change for `actorId`.
 * @param now epoch milliseconds of the change (default: the app's clock)
 * @returns how many issues changed
 */
export function unassignEverywhere(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	userId: number,
	actorId: number | null,
	now = app.clock(),
): number {
	const { issues } = app.stores;
	const rows = issues.assignedIn(repo.id, userId);
	if (rows.length === 0) return 0;
	const caller: Caller = { app, now, media: null, principal: { actorId } as Caller['principal'] };
	// Recording reads no permission of the scope: the remover's is not needed.
	const scope = issueScope(app, { repo, owner, permission: null });
	return app.transaction(() => {
		for (const row of rows) {
			const before = issueSnapshot(caller, row);
			issues.removeAssignee(row.id, userId);
			issues.touch(row.id, isoSeconds(now));
			recordIssueChanges(caller, scope, before, issues.byId(row.id)!);
		}
		return rows.length;
	});
}
