/**
 * The route access of reading a user's public profile (GET /users/{username}: anyone, no
 * permission, as GitHub's users API), stated once for REST and the GraphQL fields that read it.
 */
export const USER_READ = {
	access: 'public' as const,
	resource: 'none' as const,
	permissions: [],
};
