/**
 * The route access the team reads share (GitHub's teams API: the organization's members, secret
 * teams only to their members and the organization's owners), stated once for REST and the
 * GraphQL fields that read the same resources. Permissions come from the permission matrix.
 */

/** Reading a team and its child teams, members and repositories (GET /orgs/{org}/teams/{team_slug}…). */
export const TEAM_READ = {
	access: 'authenticated' as const,
	resource: { team: 'member' as const },
};

/** Listing an organization's teams (GET /orgs/{org}/teams): its members. */
export const TEAMS_LIST = {
	access: 'authenticated' as const,
	resource: { org: 'member' as const },
};
