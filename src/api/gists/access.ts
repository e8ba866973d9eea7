/**
 * The route access of reading gists (GitHub's gists API: anyone, no permission; a secret gist is
 * unlisted, not private), stated once for REST and the GraphQL fields that read them.
 */
export const GISTS_READ = { access: 'public' as const, permissions: [] };
