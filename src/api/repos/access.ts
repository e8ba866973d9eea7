/**
 * The route access of reading a repository (GET /repos/{owner}/{repo}, GitHub's "Metadata" read
 * permission; public repositories without a token), stated once for REST and GraphQL.
 */
export const REPOSITORY_READ = {
	access: 'public' as const,
	resource: { repo: 'read' as const },
	permissions: [{ metadata: 'read' as const }],
};

/**
 * The route access of changing a repository's settings (PATCH /repos/{owner}/{repo}; GraphQL's
 * archiveRepository and unarchiveRepository): admin access and Administration (write). An archived
 * repository takes this one change (unarchiving), so the guard lets it through (`writable: false`)
 * and the service refuses the rest.
 */
export const REPOSITORY_ADMIN = {
	access: 'authenticated' as const,
	resource: { repo: 'admin' as const, writable: false as const },
	permissions: [{ administration: 'write' as const }],
	scopes: ['repo', 'public_repo'],
};
