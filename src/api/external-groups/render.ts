/**
 * GitHub's external-group shapes (teams/external-groups): the list item `{group_id, group_name,
 * updated_at}` and the group with its linked teams and members.
 */
import type { App } from '../../app';
import type { ExternalGroupMemberRow, ExternalGroupRow } from './store';

/** An item of `groups` (GET /orgs/{org}/external-groups, a team's linked groups). */
export function externalGroupSummary(group: ExternalGroupRow) {
	return { group_id: group.id, group_name: group.name, updated_at: group.updated_at };
}

/**
 * The group with its teams and the members given (one page): member_name defaults to the login and
 * member_email to "" when the import gave none (GitHub's schema has strings).
 */
export function externalGroupFull(app: App, group: ExternalGroupRow, members: ExternalGroupMemberRow[]) {
	return {
		...externalGroupSummary(group),
		teams: app.stores.externalGroups.teams(group.id).map((team) => ({ team_id: team.id, team_name: team.name })),
		members: members.map((member) => ({
			member_id: member.id,
			member_login: member.login,
			member_name: member.name ?? member.login,
			member_email: member.email ?? '',
		})),
	};
}
