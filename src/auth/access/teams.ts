/**
 * Which teams a caller may see. Secret teams are visible only to organization owners (and the
 * organization's app) and the team's members; closed teams to every organization member. A team
 * the caller cannot see answers 404, and looks exactly like one that does not exist.
 */
import type { App } from '../../app';
import type { TeamRow } from '../../model/rows';
import { orgAccess } from './orgs';
import type { OrgAccess, TeamAccess, Viewer } from './types';

/**
 * True when a caller of standing `access` may see the team: owners and the app every team of the
 * organization, members its closed teams and the secret teams they belong to.
 */
export function teamVisible(app: App, access: OrgAccess, team: TeamRow): boolean {
	if (team.org_id !== access.org.id) return false;
	if (access.admin) return true;
	if (!access.member) return false;
	if (team.privacy === 'closed') return true;
	return access.userId !== null && app.stores.teams.membership(team.id, access.userId)?.state === 'active';
}

/**
 * The caller's standing in a team, or undefined when the caller may not see it (answer 404).
 */
export function teamAccess(viewer: Viewer, team: TeamRow): TeamAccess | undefined {
	const org = viewer.app.stores.accounts.byId(team.org_id)!;
	const access = orgAccess(viewer, org);
	if (!teamVisible(viewer.app, access, team)) return undefined;
	const membership = access.userId !== null ? viewer.app.stores.teams.membership(team.id, access.userId) : undefined;
	const teamRole = membership?.state === 'active' ? membership.role : null;
	return { ...access, team, teamRole, manage: access.admin || teamRole === 'maintainer' };
}
