/**
 * The route access of reading a user's public profile (GET /users/{username}: anyone, no
 * permission, as GitHub's users API), stated once for REST and the GraphQL fields that read it.
 */
export const USER_READ = {
	access: 'public' as const,
	resource: 'none' as const,
	permissions: [],
};

/**
 * GET /user (the authenticated user): any signed-in user or token, no permission; stated once for
 * REST and GraphQL's `viewer`.
 */
export const AUTHENTICATED_USER = {
	method: 'GET' as const,
	path: '/user',
	docs: 'users/users#get-the-authenticated-user',
	permissions: [],
	access: 'authenticated' as const,
	resource: { self: true as const },
};
