/**
 * The route access of reading this feature's resources, stated once for REST and GraphQL.
 */

/** Reading commits (GitHub's commits REST API): Contents (read); public repositories without a token. */
export const COMMITS_READ = {
	permissions: [{ contents: 'read' as const }],
	access: 'public' as const,
	resource: { repo: 'read' as const },
};
