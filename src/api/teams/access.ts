/**
 * Finding a team the caller may see. A team is addressed three ways, all answered by the same
 * handlers: /orgs/{org}/teams/{team_slug}, /organizations/{org_id}/team/{team_id} and the legacy
 * /teams/{team_id}. Secret teams are visible only to organization owners and the team's members;
 * closed teams to every organization member. A team the caller cannot see answers 404.
 */
import type { App } from '../../app';
import { notFound } from '../../http/errors';
import { idParam } from '../../http/route';
import type { Context } from '../../http/route';
import { orgAccess, type OrgAccess } from '../orgs/access';
import type { TeamRow } from './store';

export interface TeamAccess extends OrgAccess {
	team: TeamRow;
	/** The caller's direct active role in the team. */
	teamRole: 'member' | 'maintainer' | null;
	/** Organization owner, the app, or a team maintainer: may change the team. */
	manage: boolean;
}


/** The team and organization a path names, or 404. */
function findTeam(ctx: Context): { team: TeamRow; orgLogin?: string } {
	const { stores } = ctx.app;
	const { params } = ctx;
	let team: TeamRow | undefined;
	if (params.team_slug !== undefined) {
		const org = stores.accounts.organization(params.org);
		team = org && stores.teams.bySlug(org.id, params.team_slug.toLowerCase());
	} else {
		const teamId = idParam(params.team_id);
		team = teamId === null ? undefined : stores.teams.byId(teamId);
		if (team && params.org_id !== undefined && idParam(params.org_id) !== team.org_id) team = undefined;
	}
	if (!team) throw notFound();
	return { team };
}

/** True when the caller may see the team. */
export function canSeeTeam(ctx: Context, access: OrgAccess, team: TeamRow): boolean {
	return teamVisible(ctx.app, access, team);
}

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
 * Loads the team named by the path with the caller's standing.
 * @throws HttpError 404 when it does not exist or the caller cannot see it.
 */
export function loadTeam(ctx: Context): TeamAccess {
	const { team } = findTeam(ctx);
	const org = ctx.app.stores.accounts.byId(team.org_id)!;
	const access = orgAccess(ctx, org);
	if (!canSeeTeam(ctx, access, team)) throw notFound();
	const membership = access.userId !== null ? ctx.app.stores.teams.membership(team.id, access.userId) : undefined;
	const teamRole = membership?.state === 'active' ? membership.role : null;
	return { ...access, team, teamRole, manage: access.admin || teamRole === 'maintainer' };
}
