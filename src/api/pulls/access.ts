/**
 * The route access every pull-request route shares (GitHub's "Pulls" REST API): reading needs
 * Pull requests (read), public repositories answer without a token; writing needs Pull requests
 * (write), classic tokens `repo` (or `public_repo` on public repositories). Routes that need more
 * (push access to merge, admin of the head) say so in their own `resource`.
 */

/** Reading pull requests: Pull requests (read); public repositories without a token. */
export const PULLS_READ = {
	access: 'public' as const,
	resource: { repo: 'read' as const },
	permissions: [{ pull_requests: 'read' as const }],
};

/** Opening, changing and reviewing pull requests: Pull requests (write); `public_repo` on public repositories. */
export const PULLS_WRITE = {
	access: 'authenticated' as const,
	resource: { repo: 'read' as const },
	permissions: [{ pull_requests: 'write' as const }],
	scopes: ['repo', 'public_repo'],
};

/** Merging a pull request: push access to the base repository and Contents (write). */
export const PULLS_MERGE = {
	access: 'authenticated' as const,
	resource: { repo: 'push' as const },
	permissions: [{ contents: 'write' as const }],
	scopes: ['repo', 'public_repo'],
};
