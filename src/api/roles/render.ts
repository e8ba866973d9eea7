/**
 * GitHub's role records: organization-role (predefined roles), organization-custom-repository-role,
 * team-role-assignment, user-role-assignment and the repository fine-grained permission list.
 */
import type { Urls } from '../../model/urls';
import { teamListForm } from '../../model/render';
import type { TeamRow, AccountRow } from '../../model/rows';
import { simpleUser } from '../../model/render';
import type { OrganizationRoleDefinition } from './catalog';
import type { CustomRepositoryRoleRow } from './store';

/** organization-role: a predefined role as the organization offers it. */
export function organizationRole(org: AccountRow, role: OrganizationRoleDefinition) {
	return {
		id: role.id,
		name: role.name,
		description: role.description,
		base_role: role.base_role,
		source: 'Predefined',
		permissions: [] as string[],
		organization: null,
		created_at: org.created_at,
		updated_at: org.created_at,
	};
}

/** organization-custom-repository-role */
export function customRepositoryRole(urls: Urls, org: AccountRow, row: CustomRepositoryRoleRow) {
	return {
		id: row.id,
		name: row.name,
		description: row.description,
		base_role: row.base_role,
		permissions: JSON.parse(row.permissions) as string[],
		organization: simpleUser(urls, org),
		created_at: row.created_at,
		updated_at: row.updated_at,
	};
}

/** team-role-assignment: a team holding an organization role (always directly). */
export function teamRoleAssignment(urls: Urls, org: AccountRow, team: TeamRow, parent: TeamRow | undefined) {
	return { assignment: 'direct', ...teamListForm(urls, org.login, team, parent) };
}

/** user-role-assignment: a member holding a role directly, through teams (indirect), or both (mixed). */
export function userRoleAssignment(
	urls: Urls,
	org: AccountRow,
	user: AccountRow,
	direct: boolean,
	teams: Array<{ team: TeamRow; parent: TeamRow | undefined }>,
) {
	const assignment = direct ? (teams.length ? 'mixed' : 'direct') : 'indirect';
	return {
		assignment,
		inherited_from: teams.map(({ team, parent }) => teamListForm(urls, org.login, team, parent)),
		...simpleUser(urls, user),
	};
}
