/**
 * The route access of branches and their protection (GitHub's repos/branches and
 * repos/branch-protection REST APIs), stated once for REST and GraphQL: reading branches needs
 * Contents (read), public repositories anonymously too; reading and changing protection needs
 * Administration and the repository's admin role.
 */

/** Reading branches: Contents (read); public repositories without a token. */
export const BRANCHES_READ = {
	permissions: [{ contents: 'read' as const }],
	access: 'public' as const,
	resource: { repo: 'read' as const },
};

/** Reading a branch's protection: Administration (read) and the admin role. */
export const PROTECTION_READ = {
	permissions: [{ administration: 'read' as const }],
	access: 'authenticated' as const,
	resource: { repo: 'admin' as const },
};

/** Changing a branch's protection: Administration (write), the admin role, classic `repo` (`public_repo` on public repositories). */
export const PROTECTION_WRITE = {
	permissions: [{ administration: 'write' as const }],
	access: 'authenticated' as const,
	resource: { repo: 'admin' as const },
	scopes: ['repo', 'public_repo'],
};
