/**
 * The route access the issue routes share (GitHub's "Issues" REST API), stated once for REST and
 * for the GraphQL fields that read or change the same resources.
 */

/** Reading issues: Issues or Pull requests (read), either suffices; public repositories without a token. */
export const ISSUES_READ = {
	access: 'public' as const,
	resource: { repo: 'read' as const },
	permissions: [{ issues: 'read' as const }, { pull_requests: 'read' as const }],
};

/**
 * Changing issues: Issues or Pull requests (write). Anyone who can read a repository opens issues
 * and comments in it (classic `public_repo` on public repositories); triage changes need triage.
 */
export const ISSUES_WRITE = {
	access: 'authenticated' as const,
	resource: { repo: 'read' as const },
	permissions: [{ issues: 'write' as const }, { pull_requests: 'write' as const }],
	// public_repo: issues and comments on public repositories (the guard hides private ones from it).
	scopes: ['repo', 'public_repo'],
};
