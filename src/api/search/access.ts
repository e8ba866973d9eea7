/**
 * The route access of searching (GitHub's search API: anyone, no permission; what the caller may
 * not read is left out of the results), stated once for REST and GraphQL's `search`.
 */
export const SEARCH_READ = {
	access: 'public' as const,
	resource: 'none' as const,
	permissions: [],
};
