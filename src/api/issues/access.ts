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

/** Changing an issue's labels and assignees: triage access. */
export const ISSUES_TRIAGE = { ...ISSUES_WRITE, resource: { repo: 'triage' as const } };

/** Locking and unlocking conversations: push access. */
export const ISSUES_LOCK = { ...ISSUES_WRITE, resource: { repo: 'push' as const } };

/**
 * Administering issues (transfer, pin, unpin, delete; GitHub offers them through GraphQL only):
 * Issues (write) — Pull requests (write) does not reach them; classic `repo`, or `public_repo` on
 * public repositories. Who may do each (write or admin access) is the service's rule.
 */
export const ISSUES_ADMIN = { ...ISSUES_WRITE, permissions: [{ issues: 'write' as const }] };
