/**
 * The route access of reading this feature's resources, stated once for REST and GraphQL.
 */

/** Reading check runs and suites (GitHub's checks REST API): Checks (read); public repositories without a token. */
export const CHECKS_READ = {
	permissions: [{ checks: 'read' as const }],
	access: 'public' as const,
	resource: { repo: 'read' as const },
};
