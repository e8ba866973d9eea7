/**
 * The route access of reading an organization's members (GET /orgs/{org}/members: anyone sees
 * the public members, members every member), stated once for REST and the GraphQL fields that read
 * it. Permissions come from the permission matrix.
 */
export const MEMBERS_READ = {
	access: 'public' as const,
	resource: { org: 'read' as const },
};
