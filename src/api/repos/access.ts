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

/** Creating a repository: Administration (write); classic `public_repo` suffices for public ones (the service checks `repo` for others). */
const REPOSITORY_CREATE = {
	access: 'authenticated' as const,
	permissions: [{ administration: 'write' as const }],
	scopes: ['repo', 'public_repo'],
};

/** POST /user/repos: the user's own account, which a token bound to an organization does not reach. */
export const REPOSITORY_CREATE_USER = { ...REPOSITORY_CREATE, resource: { self: true as const, bound: true as const } };

/** POST /orgs/{org}/repos: members of the organization (its creation policies: the service). */
export const REPOSITORY_CREATE_ORG = { ...REPOSITORY_CREATE, resource: { org: 'member' as const } };

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
