/**
 * The route access of the authenticated user's star of a repository (GitHub's activity/starring
 * REST API), stated once for REST and GraphQL (Repository.viewerHasStarred): the user acts, the
 * repository is only read.
 */

/** What the routes on the authenticated user's star of {owner}/{repo} share. */
export const STAR = {
	path: '/user/starred/{owner}/{repo}',
	access: 'authenticated' as const,
	resource: { self: true as const, repo: 'read' as const, readOnly: true as const },
};

/** Checking the star: Starring (read) and Metadata (read). */
export const STAR_READ = { ...STAR, permissions: [{ starring: 'read' as const, metadata: 'read' as const }] };
