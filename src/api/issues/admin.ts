/**
 * Issue administration GitHub offers through GraphQL only (gh issue transfer, gh issue pin/unpin,
 * gh issue delete): transferring an issue to another repository of the same owner, pinning it
 * (at most 3 per repository), deleting it. Each use case checks GitHub's rule, writes in one
 * transaction and records its `issues` event (webhook actions `transferred`, `pinned`, `unpinned`,
 * `deleted`; the issue events `transferred`, `pinned`, `unpinned` in the timeline).
 * https://docs.github.com/issues/tracking-your-work-with-issues/administering-issues/transferring-an-issue-to-another-repository
 */
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import type { Caller } from '../../auth/caller';
import { forbidden, unprocessable } from '../../model/errors';
import { repository } from '../../model/render';
import { atLeast } from '../../model/repo-permissions';
import type { IssueRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { createLabel } from './labels';
import { type IssueScope, renderIssues } from './service';

/** Issues a repository pins at most (GitHub's limit). */
export const MAX_PINNED = 3;

/** The issue as webhook payloads carry it (raw body). */
const payloadIssue = (caller: Caller, scope: IssueScope, row: IssueRow) =>
	renderIssues({ ...caller, media: null }, scope, [row], true, null)[0];

/** Options of a transfer. */
export interface TransferOptions {
	/**
	 * Create the issue's labels the destination lacks (same name, color and description; GitHub's
	 * createLabelsIfMissing), each recording its `label` `created` event, so none is dropped.
	 */
	createLabelsIfMissing?: boolean;
}

/**
 * Moves an issue to `to`, a repository of the same owner, where it takes the next number (GitHub's
 * transfer): comments, reactions and its timeline follow; labels and the milestone are kept where
 * the destination has ones of the same name (title, names compared without case), else dropped —
 * or, with `createLabelsIfMissing`, its missing labels are created there first; assignees stay; a pin is
 * dropped. The old number answers 301 to the issue's new address from then on. The `transferred`
 * webhook goes to the source repository with `changes.new_issue` and `changes.new_repository`; the
 * destination's hooks get `opened` with `changes.old_issue` and `changes.old_repository`.
 * @throws DomainError 403 without write access to both repositories; 422 for a pull request, the
 *   same repository, another owner, a private source and a public destination, or a destination
 *   with issues turned off
 * @returns the issue as it now is
 */
export function transferIssue(caller: Caller, from: IssueScope, issue: IssueRow, to: IssueScope, options: TransferOptions = {}): IssueRow {
	if (!atLeast(from.permission, 'push') || !atLeast(to.permission, 'push'))
		throw forbidden('You must have write access to both repositories to transfer an issue.');
	if (issue.pull_request) throw unprocessable('Pull requests cannot be transferred.');
	if (from.repo.id === to.repo.id) throw unprocessable('The issue is already in this repository.');
	if (from.owner.id !== to.owner.id)
		throw unprocessable('Issues can only be transferred between repositories owned by the same user or organization.');
	if (from.repo.visibility !== 'public' && to.repo.visibility === 'public')
		throw unprocessable('Issues cannot be transferred from a private repository to a public repository.');
	if (to.repo.has_issues === 0) throw unprocessable('Issues are disabled for the destination repository.');
	if (to.repo.archived) throw forbidden('The destination repository is archived.');
	const { app } = caller;
	const now = isoSeconds(caller.now);
	return app.transaction(() => {
		const old = payloadIssue(caller, from, issue);
		if (options.createLabelsIfMissing) {
			for (const row of app.stores.labels.forIssues([issue.id]).get(issue.id) ?? []) {
				if (!app.stores.labels.byName(to.repo.id, row.name))
					createLabel(caller, to, { name: row.name, color: row.color, description: row.description });
			}
		}
		app.stores.issueAdmin.transfer(issue, to.repo.id, now);
		const moved = app.stores.issues.byId(issue.id)!;
		const current = payloadIssue(caller, to, moved);
		const actorId = caller.principal.actorId;
		record(app, {
			event: 'issues',
			action: 'transferred',
			actorId,
			repo: from.repo,
			webhook: () => ({
				changes: { new_issue: current, new_repository: repository(app.urls, to.repo, to.owner, null) },
				issue: old,
				...inRepository(app, from.repo, actorId),
			}),
			timeline: [
				{
					issueId: moved.id,
					repoId: to.repo.id,
					event: 'transferred',
					details: { from_repository: `${from.owner.login}/${from.repo.name}` },
				},
			],
		});
		// The destination hears of it as an issue opened there, with where it came from (GitHub's
		// `issues` `opened` with `changes.old_issue` and `changes.old_repository`).
		record(app, {
			event: 'issues',
			action: 'opened',
			actorId,
			repo: to.repo,
			webhook: () => ({
				changes: { old_issue: old, old_repository: repository(app.urls, from.repo, from.owner, null) },
				issue: current,
				...inRepository(app, to.repo, actorId),
			}),
		});
		return moved;
	});
}

/**
 * Pins an issue to its repository or unpins it (GitHub: people with write access; at most 3
 * pinned per repository; pull requests are not pinned). No change, nothing recorded, when it
 * already is so.
 * @throws DomainError 403 below write access; 422 for a pull request or a fourth pin
 */
export function setIssuePinned(caller: Caller, scope: IssueScope, issue: IssueRow, pinned: boolean): IssueRow {
	if (!atLeast(scope.permission, 'push')) throw forbidden('You must have write access to the repository to pin issues.');
	if (issue.pull_request) throw unprocessable('Pull requests cannot be pinned.');
	const { app } = caller;
	const store = app.stores.issueAdmin;
	return app.transaction(() => {
		if (store.isPinned(issue.id) === pinned) return issue;
		if (pinned && store.pinned(scope.repo.id).length >= MAX_PINNED)
			throw unprocessable(`A repository can pin at most ${MAX_PINNED} issues: unpin one first.`);
		if (pinned) store.pin(issue, caller.principal.actorId, isoSeconds(caller.now));
		else store.unpin(issue.id);
		const action = pinned ? 'pinned' : 'unpinned';
		const rendered = payloadIssue(caller, scope, issue);
		const actorId = caller.principal.actorId;
		record(app, {
			event: 'issues',
			action,
			actorId,
			repo: scope.repo,
			webhook: () => ({ issue: rendered, ...inRepository(app, scope.repo, actorId) }),
			timeline: [{ issueId: issue.id, event: action, details: {} }],
		});
		return issue;
	});
}

/**
 * Deletes an issue for good (GitHub: repository administrators only; pull requests cannot be
 * deleted): its comments, reactions and timeline go with it; its number is never given again and
 * answers 410 Gone. The `deleted` webhook carries the issue as it was.
 * @throws DomainError 403 below admin; 422 for a pull request
 */
export function deleteIssue(caller: Caller, scope: IssueScope, issue: IssueRow): void {
	if (!atLeast(scope.permission, 'admin')) throw forbidden('Must have admin rights to Repository.');
	if (issue.pull_request) throw unprocessable('Pull requests cannot be deleted.');
	const { app } = caller;
	app.transaction(() => {
		const rendered = payloadIssue(caller, scope, issue);
		const actorId = caller.principal.actorId;
		record(app, {
			event: 'issues',
			action: 'deleted',
			actorId,
			repo: scope.repo,
			webhook: () => ({ issue: rendered, ...inRepository(app, scope.repo, actorId) }),
		});
		app.stores.issueAdmin.delete(issue, isoSeconds(caller.now));
	});
}

/**
 * What an issue number no longer held leads to: the issue it was transferred as (`moved`), or
 * `deleted`; undefined when the number never left (or never was).
 */
export function formerIssue(caller: Pick<Caller, 'app'>, repoId: number, number: number): { moved: IssueRow } | 'deleted' | undefined {
	const tombstone = caller.app.stores.issueAdmin.tombstone(repoId, number);
	if (!tombstone) return undefined;
	const moved = tombstone.issue_id === null ? undefined : caller.app.stores.issues.byId(tombstone.issue_id);
	return moved ? { moved } : 'deleted';
}
