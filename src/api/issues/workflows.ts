/**
 * The issue use cases (GitHub's issues API, whatever front end calls them): open an issue, update
 * it (the author-or-triage rule and the open/closed state machine), lock and unlock it, change its
 * labels and assignees. Each checks the domain rule, writes in one transaction (a savepoint inside
 * a request's write transaction) and records its events itself: it takes the issue's snapshot
 * before the change and records what differs after it (events.ts), so no caller can forget.
 * Refusals are DomainErrors (src/model/errors.ts). Labels, assignees and milestones given by
 * callers without push (on open) or triage (on update) access are dropped, as GitHub does.
 */
import type { Caller } from '../../auth/caller';
import { forbidden, invalidField, notFound } from '../../model/errors';
import { atLeast } from '../../model/repo-permissions';
import type { IssueRow, LabelRow } from '../../model/rows';
import { isoSeconds } from '../../time';
import { issueSnapshot, recordIssueChanges } from './events';
import { canTriage, ensureLabels, type IssueScope, MAX_ASSIGNEES, resolveAssignees, resolveMilestone } from './service';

/** Label names as requests give them: strings or {name} objects. */
export type LabelInput = Array<string | { name?: string }>;

/** What an issue is opened with; `milestone` is its number (null or absent: none). */
export interface NewIssue {
	title: string;
	body?: string | null;
	/** Assignee logins (absent: none). */
	assignees?: string[];
	labels?: LabelInput;
	milestone?: string | number | null;
}

/** An update of an issue: absent fields stay as they are. */
export interface IssuePatch {
	title?: string;
	body?: string | null;
	state?: 'open' | 'closed';
	state_reason?: 'completed' | 'not_planned' | 'duplicate' | 'reopened' | null;
	/** Assignee logins replacing the current ones. */
	assignees?: string[];
	/** Labels replacing the current ones (created when missing). */
	labels?: LabelInput;
	/** The milestone's number; null removes it. */
	milestone?: string | number | null;
}

function actorOf(caller: Caller): number {
	const actor = caller.principal.actorId;
	if (actor === null) throw forbidden('A user must act to change an issue.');
	return actor;
}

/**
 * Opens an issue in the scope's repository (the caller can read it; issues are on). Labels,
 * assignees and the milestone apply only with push access.
 * @returns the issue as stored
 * @throws DomainError 422 for an unknown milestone, an unassignable login or a blank label name
 */
export function createIssue(caller: Caller, scope: IssueScope, input: NewIssue): IssueRow {
	const actor = actorOf(caller);
	return caller.app.transaction(() => {
		const push = atLeast(scope.permission, 'push');
		const milestone = push ? resolveMilestone(caller, scope, input.milestone) : undefined;
		const now = isoSeconds(caller.now);
		const { issues, labels } = caller.app.stores;
		let row = issues.insert(
			{ repo_id: scope.repo.id, title: input.title, body: input.body ?? null, user_id: actor, pull_request: false },
			now,
		);
		if (milestone) {
			issues.setMilestone(row.id, milestone.id);
			row = issues.byId(row.id)!;
		}
		const withAssignees = push && Boolean(input.assignees?.length);
		const withLabels = push && Boolean(input.labels?.length);
		if (withAssignees)
			issues.replaceAssignees(
				row.id,
				resolveAssignees(caller, scope, input.assignees!).map((a) => a.id),
			);
		if (withLabels)
			labels.attach(
				row.id,
				ensureLabels(caller, scope, input.labels!).map((l) => l.id),
			);
		// Opened without labels or assignees: it has none, nothing to read back.
		const bare = withAssignees || withLabels ? undefined : { row, labels: [], assigneeIds: [] };
		recordIssueChanges(caller, scope, null, row, undefined, {}, null, bare);
		return row;
	});
}

/**
 * Updates an issue or a pull request's issue: its author may change title, body and state; with
 * triage access anyone may, and labels, assignees and the milestone too. The state machine: closing
 * takes a reason (completed by default; never `reopened`), reopening has the reason `reopened`; a
 * pull request reopens only while its branches exist (App.pullRequestHooks.prepareReopen).
 * @returns the issue as stored after the change
 * @throws DomainError 403 for neither author nor triager, 422 for a reason the state does not
 *   allow, an unknown milestone, an unassignable login, or a pull request that cannot reopen
 */
export function updateIssue(caller: Caller, scope: IssueScope, issue: IssueRow, patch: IssuePatch): IssueRow {
	const actor = caller.principal.actorId;
	const triage = canTriage(scope);
	if (!triage && issue.user_id !== actor) {
		throw forbidden('Must be the author of the issue or have triage access to the repository to update it.');
	}
	return caller.app.transaction(() => {
		const before = issueSnapshot(caller, issue);
		const milestone = triage ? resolveMilestone(caller, scope, patch.milestone) : undefined;
		const next: IssueRow = { ...issue };
		if (patch.title !== undefined) next.title = patch.title;
		if (patch.body !== undefined) next.body = patch.body;
		const now = isoSeconds(caller.now);
		if (patch.state !== undefined && patch.state !== issue.state) {
			const reason = patch.state_reason ?? null;
			if (patch.state === 'closed') {
				if (reason === 'reopened') throw invalidField('Issue', 'state_reason', 'a closed issue cannot have the reason reopened');
				Object.assign(next, { state: 'closed', state_reason: reason ?? 'completed', closed_at: now, closed_by_id: actor });
			} else {
				if (reason && reason !== 'reopened')
					throw invalidField('Issue', 'state_reason', `an open issue cannot have the reason ${reason}`);
				// A pull request reopens only with its branches (the same rule as PATCH …/pulls/{n}).
				if (issue.pull_request) {
					const pull = caller.app.stores.pulls.byIssue(issue.id);
					if (pull) caller.app.pullRequestHooks.prepareReopen(caller.app, pull.pr, pull.pr.base_ref, now);
				}
				Object.assign(next, { state: 'open', state_reason: 'reopened', closed_at: null, closed_by_id: null });
			}
		}
		const { issues, labels } = caller.app.stores;
		if (milestone !== undefined) issues.setMilestone(issue.id, milestone?.id ?? null);
		const updated = issues.update(next, now);
		if (triage) {
			if (patch.assignees !== undefined)
				issues.replaceAssignees(
					issue.id,
					resolveAssignees(caller, scope, patch.assignees).map((a) => a.id),
				);
			if (patch.labels !== undefined)
				labels.replace(
					issue.id,
					ensureLabels(caller, scope, patch.labels).map((l) => l.id),
				);
		}
		recordIssueChanges(caller, scope, before, updated);
		return updated;
	});
}

/**
 * A change of an issue's own state other than its fields (lock, labels, assignees): `change`, then
 * updated_at, in one transaction, recorded from the snapshot before it.
 * @returns the issue as stored after the change
 */
function changeIssue(caller: Caller, scope: IssueScope, issue: IssueRow, change: () => void): IssueRow {
	return caller.app.transaction(() => {
		const before = issueSnapshot(caller, issue);
		change();
		caller.app.stores.issues.touch(issue.id, isoSeconds(caller.now));
		const after = caller.app.stores.issues.byId(issue.id)!;
		recordIssueChanges(caller, scope, before, after);
		return after;
	});
}

/**
 * Locks an issue's conversation (push access; the route's guard checks it) with an optional reason
 * (off-topic, too heated, resolved, spam), or unlocks it (`lock` false).
 */
export function setIssueLock(caller: Caller, scope: IssueScope, issue: IssueRow, lock: boolean, reason: string | null = null): IssueRow {
	return caller.app.transaction(() => {
		const before = issueSnapshot(caller, issue);
		caller.app.stores.issues.setLock(issue.id, lock, lock ? reason : null, isoSeconds(caller.now));
		const after = caller.app.stores.issues.byId(issue.id)!;
		recordIssueChanges(caller, scope, before, after);
		return after;
	});
}

/**
 * Adds labels to an issue (`mode` attach) or replaces its labels (`replace`; an empty list clears
 * them); labels named are created when missing, as on GitHub. Triage access (the route's guard).
 * @returns the issue's labels after the change
 * @throws DomainError 422 for a blank or overlong label name
 */
export function setIssueLabels(
	caller: Caller,
	scope: IssueScope,
	issue: IssueRow,
	labels: LabelInput,
	mode: 'attach' | 'replace',
): LabelRow[] {
	const store = caller.app.stores.labels;
	changeIssue(caller, scope, issue, () =>
		store[mode](
			issue.id,
			ensureLabels(caller, scope, labels).map((l) => l.id),
		),
	);
	return store.forIssues([issue.id]).get(issue.id) ?? [];
}

/**
 * Removes one label (by name) from an issue. Triage access (the route's guard).
 * @returns the issue's labels after the change
 * @throws DomainError 404 "Label does not exist" when the repository has no such label or the issue lacks it
 */
export function removeIssueLabel(caller: Caller, scope: IssueScope, issue: IssueRow, name: string): LabelRow[] {
	const store = caller.app.stores.labels;
	changeIssue(caller, scope, issue, () => {
		const existing = store.byName(scope.repo.id, name);
		if (!existing || !store.detach(issue.id, existing.id)) throw notFound('Label does not exist');
	});
	return store.forIssues([issue.id]).get(issue.id) ?? [];
}

/**
 * Adds assignees (logins) to an issue; ones already assigned are kept. Triage access (the route's guard).
 * @returns the issue as stored after the change
 * @throws DomainError 422 for a login that cannot be assigned or more than ten assignees in all
 */
export function addAssignees(caller: Caller, scope: IssueScope, issue: IssueRow, logins: string[]): IssueRow {
	return changeIssue(caller, scope, issue, () => {
		const { issues } = caller.app.stores;
		const current = issues.assignees([issue.id]).get(issue.id) ?? [];
		const added = resolveAssignees(caller, scope, logins).filter((a) => !current.includes(a.id));
		if (current.length + added.length > MAX_ASSIGNEES) {
			throw invalidField('Issue', 'assignees', `an issue can have at most ${MAX_ASSIGNEES} assignees`);
		}
		issues.addAssignees(
			issue.id,
			added.map((a) => a.id),
		);
	});
}

/**
 * Removes assignees (logins; unknown or unassigned ones are ignored, as on GitHub). Triage access.
 * @returns the issue as stored after the change
 */
export function removeAssignees(caller: Caller, scope: IssueScope, issue: IssueRow, logins: string[]): IssueRow {
	return changeIssue(caller, scope, issue, () => {
		const { accounts, issues } = caller.app.stores;
		for (const login of logins) {
			const account = accounts.user(login);
			if (account) issues.removeAssignee(issue.id, account.id);
		}
	});
}
