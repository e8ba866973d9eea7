/**
 * The route access of reading a repository (GET /repos/{owner}/{repo}, GitHub's "Metadata" read
 * permission; public repositories without a token), stated once for REST and GraphQL.
 */
export const REPOSITORY_READ = {
	access: 'public' as const,
	resource: { repo: 'read' as const },
	permissions: [{ metadata: 'read' as const }],
};

/** Listing an organization's repositories (GET /orgs/{org}/repos): anyone; what each caller sees is filtered. */
export const ORG_REPOSITORIES_READ = {
	access: 'public' as const,
	resource: { org: 'read' as const },
	permissions: [{ metadata: 'read' as const }],
};

/** Listing a user's repositories (GET /users/{username}/repos): anyone; what each caller sees is filtered. */
export const ACCOUNT_REPOSITORIES_READ = {
	access: 'public' as const,
	resource: 'none' as const,
	permissions: [{ metadata: 'read' as const }],
};

/**
 * Listing the authenticated user's repositories (GET /user/repos): Metadata (read), which every
 * fine-grained token holds, so no permission to ask for.
 */
export const OWN_REPOSITORIES_READ = {
	access: 'authenticated' as const,
	resource: { self: true as const },
	permissions: [],
};
