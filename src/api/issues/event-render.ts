/**
 * GitHub's issue event shapes (issue-event, and the events of issue-event-for-issue and
 * timeline-issue-events: labeled, assigned, milestoned, renamed, review_requested,
 * review_dismissed, locked, closed, merged, referenced, head_ref_force_pushed, …) from
 * issue_events rows: `actor`, `event`, `commit_id` / `commit_url`, `created_at` and the event's own
 * fields (label, assignee and assigner, milestone, rename, requested_reviewer / requested_team and
 * review_requester, dismissed_review, lock_reason, state_reason).
 */
import type { App } from '../../app';
import { nodeId, type Urls } from '../../model/urls';
import type { RepositoryPaths } from '../../model/render';
import { teamListForm } from '../../model/render';
import type { TeamRow } from '../../model/rows';
import { simpleUser } from '../../model/render';
import type { AccountRow } from '../../model/rows';
import type { IssueEventRow } from './event-store';

/** What rendering events needs besides the rows: accounts and teams by id (loaded once per answer). */
export interface EventPeople {
	accounts: Map<number, AccountRow>;
	teams: Map<number, TeamRow>;
	/** The organization login of the repository's teams (requested_team). */
	orgLogin: string;
}

/** The account ids and team ids a list of events names (for one query each). */
export function namedIn(rows: readonly IssueEventRow[]): { accountIds: number[]; teamIds: number[] } {
	const accountIds = new Set<number>();
	const teamIds = new Set<number>();
	for (const row of rows) {
		if (row.actor_id !== null) accountIds.add(row.actor_id);
		const details = JSON.parse(row.details) as Record<string, unknown>;
		for (const key of ['assignee_id', 'requested_reviewer_id', 'reviewer_id']) {
			if (typeof details[key] === 'number') accountIds.add(details[key] as number);
		}
		const team = details.requested_team as { id?: unknown } | undefined;
		if (typeof team?.id === 'number') teamIds.add(team.id);
	}
	return { accountIds: [...accountIds], teamIds: [...teamIds] };
}

/**
 * The accounts and teams a list of events names (and the parents of those teams), one query each.
 * @param orgLogin the login of the repository's owner (the organization of its teams)
 */
export function peopleOf(app: App, orgLogin: string, rows: readonly IssueEventRow[]): EventPeople {
	const { accountIds, teamIds } = namedIn(rows);
	const { stores } = app;
	const teams = new Map(stores.teams.byIds(teamIds).map((team) => [team.id, team]));
	const parents = [...teams.values()].flatMap((team) => (team.parent_id !== null && !teams.has(team.parent_id) ? [team.parent_id] : []));
	for (const team of stores.teams.byIds(parents)) teams.set(team.id, team);
	return { accounts: stores.accounts.mapByIds(accountIds), teams, orgLogin };
}

/** One issue event. `issue` (the repository-wide list) is the rendered issue it belongs to. */
export function issueEvent(urls: Urls, paths: RepositoryPaths, row: IssueEventRow, people: EventPeople, issue?: unknown) {
	const user = (id: unknown) => {
		const account = typeof id === 'number' ? people.accounts.get(id) : undefined;
		return account ? simpleUser(urls, account) : null;
	};
	const actor = user(row.actor_id);
	const details = JSON.parse(row.details) as Record<string, unknown>;
	const own: Record<string, unknown> = {};
	switch (row.event) {
		case 'labeled':
		case 'unlabeled':
			own.label = details.label;
			break;
		case 'assigned':
		case 'unassigned':
			own.assignee = user(details.assignee_id);
			own.assigner = actor;
			break;
		case 'milestoned':
		case 'demilestoned':
			own.milestone = details.milestone;
			break;
		case 'renamed':
			own.rename = details.rename;
			break;
		case 'review_requested':
		case 'review_request_removed': {
			own.review_requester = actor;
			if (typeof details.requested_reviewer_id === 'number') own.requested_reviewer = user(details.requested_reviewer_id);
			const stored = details.requested_team as { id?: number } | undefined;
			const team = typeof stored?.id === 'number' ? people.teams.get(stored.id) : undefined;
			if (team) {
				const parent = team.parent_id === null ? undefined : people.teams.get(team.parent_id);
				own.requested_team = teamListForm(urls, people.orgLogin, team, parent);
			}
			break;
		}
		case 'review_dismissed':
			own.dismissed_review = details.dismissed_review;
			break;
		case 'locked':
			own.lock_reason = details.lock_reason ?? null;
			break;
		case 'closed':
		case 'reopened':
			own.state_reason = (details.state_reason as string | undefined) ?? null;
			break;
	}
	return {
		id: row.id,
		node_id: nodeId('IssueEvent', row.id),
		url: `${paths.api}/issues/events/${row.id}`,
		actor,
		event: row.event,
		commit_id: row.commit_id,
		commit_url: row.commit_id ? `${paths.api}/commits/${row.commit_id}` : null,
		created_at: row.created_at,
		...own,
		...(issue !== undefined ? { issue } : {}),
		performed_via_github_app: null,
	};
}
