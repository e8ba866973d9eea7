/**
 * The route access the organization reads share (GitHub's orgs API), stated once for REST and the
 * GraphQL fields that read the same resources.
 */

/** Reading an organization (GET /orgs/{org}): anyone; members see more (src/api/orgs/render.ts orgFull). */
export const ORG_READ = {
	access: 'public' as const,
	resource: { org: 'read' as const },
	permissions: [],
};

/** A user's organizations (GET /users/{username}/orgs): anyone; public memberships unless the user asks. */
export const USER_ORGS_READ = {
	access: 'public' as const,
	resource: 'none' as const,
	permissions: [],
};

/** The authenticated user's organizations (GET /user/orgs): the user's own token with an organization or user scope. */
export const OWN_ORGS_READ = {
	access: 'authenticated' as const,
	resource: { self: true as const },
	permissions: [],
	scopes: ['user', 'read:org', 'write:org', 'admin:org'],
};
