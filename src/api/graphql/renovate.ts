/**
 * The GraphQL fields Renovate reads beyond the common ones (its repoInfoQuery:
 * Repository.hasVulnerabilityAlertsEnabled, autoMergeAllowed, defaultBranchRef.target.oid), read
 * from the stores: the repository row and the git refs. The Repository and Ref sources are the
 * ones src/api/graphql/resolve.ts made after the caller's read access was checked, so nothing here
 * widens what a caller sees.
 * https://docs.github.com/graphql/reference/objects#repository
 */
import type { RepositoryRow } from '../../model/rows';
import { switchesOf } from '../../model/security-switches';
import type { GraphContext } from './resolve';

// biome-ignore lint/suspicious/noExplicitAny: sources are the REST-shaped objects resolve.ts makes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;
type Resolver = (source: Source, args: Args, g: GraphContext) => unknown;

/** The row of a Repository source (its REST `id`). */
function repositoryRow(g: GraphContext, s: Source): RepositoryRow | undefined {
	return typeof s.id === 'number' ? g.ctx.app.stores.repos.byId(s.id) : undefined;
}

/** The row of the repository a Ref source belongs to (its `__repo`: owner/name). */
function refRepository(g: GraphContext, ref: Source): RepositoryRow | undefined {
	const [login, name] = String(ref.__repo ?? '').split('/');
	const owner = login ? g.ctx.app.stores.accounts.byLogin(login) : undefined;
	return owner && name ? g.ctx.app.stores.repos.byOwnerAndName(owner.id, name) : undefined;
}

/** Resolvers by type and field, merged over resolve.ts's RESOLVERS by src/api/graphql/execute.ts. */
export const RENOVATE_RESOLVERS: Record<string, Record<string, Resolver>> = {
	Repository: {
		// The repository's Dependabot alerts switch (GET/PUT/DELETE /repos/{owner}/{repo}/vulnerability-alerts).
		hasVulnerabilityAlertsEnabled: (s, _a, g) => {
			const row = repositoryRow(g, s);
			return row ? switchesOf(row).dependabot_alerts === 1 : false;
		},
		// The repository's allow_auto_merge setting (PATCH /repos/{owner}/{repo}).
		autoMergeAllowed: (s, _a, g) => repositoryRow(g, s)?.allow_auto_merge === 1,
	},
	Ref: {
		// The object the ref points at: a branch's tip commit (an annotated tag is not served: null).
		target: (ref, _a, g) => {
			const repo = refRepository(g, ref);
			const row = repo && g.ctx.app.stores.git.ref(repo.id, `${ref.prefix}${ref.name}`);
			if (!row || row.type !== 'commit') return null;
			return { __typename: 'Commit', sha: row.sha, __repo: `/repos/${ref.__repo}` };
		},
	},
	Commit: {
		abbreviatedOid: (s) => String(s.sha).slice(0, 7),
	},
};
