/**
 * The route access of the authenticated user's star of a repository (GitHub's activity/starring:
 * GET, PUT and DELETE /user/starred/{owner}/{repo}), stated once for REST and for GraphQL
 * (Repository.viewerHasStarred, addStar, removeStar): the user acts on their own stars ("Starring"
 * user permission; classic tokens `public_repo` for a public repository, `repo` for a private
 * one); the repository is only read.
 */

/** What the routes on the caller's star of {owner}/{repo} share: the user acts, the repository is only read. */
export const STAR = {
	path: '/user/starred/{owner}/{repo}',
	access: 'authenticated' as const,
	resource: { self: true as const, repo: 'read' as const, readOnly: true as const },
};

/** Checking the star: Starring (read) and Metadata (read). */
export const STAR_READ = { ...STAR, permissions: [{ starring: 'read' as const, metadata: 'read' as const }] };

/** Starring and unstarring: Starring (write) and Metadata (read). */
export const STAR_WRITE = { ...STAR, permissions: [{ starring: 'write' as const, metadata: 'read' as const }] };
