/**
 * The route access of the authenticated user's subscription to a repository (GitHub's
 * activity/watching REST API), stated once for REST and GraphQL (Repository.viewerSubscription):
 * classic and OAuth tokens; the repository is only read.
 */

/** What the routes on the authenticated user's subscription to {owner}/{repo} share. */
export const SUBSCRIPTION = {
	path: '/repos/{owner}/{repo}/subscription',
	permissions: [],
	tokens: ['classic', 'oauth'] as const,
	scopes: ['notifications', 'repo'],
	access: 'authenticated' as const,
	resource: { self: true as const, repo: 'read' as const, readOnly: true as const },
};
