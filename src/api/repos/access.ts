/**
 * The route access of reading a repository (GET /repos/{owner}/{repo}, GitHub's "Metadata" read
 * permission; public repositories without a token), stated once for REST and GraphQL.
 */
export const REPOSITORY_READ = {
	access: 'public' as const,
	resource: { repo: 'read' as const },
	permissions: [{ metadata: 'read' as const }],
};
