/**
 * The route access of reading this feature's resources, stated once for REST and GraphQL.
 */

/** Reading commit statuses (GitHub's commits/statuses REST API): Commit statuses (read); public repositories without a token. */
export const STATUSES_READ = {
	permissions: [{ statuses: 'read' as const }],
	access: 'public' as const,
	resource: { repo: 'read' as const },
};
