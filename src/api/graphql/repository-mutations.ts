/**
 * GraphQL's repository mutations: archiveRepository, unarchiveRepository, createRepository.
 */
import { call, type GraphContext } from './resolve';
import { TypedError } from './errors';
import { decode, notFound } from './targets';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

const seg = (s: string | number) => encodeURIComponent(String(s));
const write = (g: GraphContext, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
	call(g, method, path, { body });

/** /repos/{owner}/{repo} of a repository node id. */
function repoPath(g: GraphContext, id: unknown): string {
	const node = decode(id);
	const { stores } = g.ctx.app;
	const repo = node.type === 'Repository' ? stores.repos.byId(node.id) : undefined;
	const owner = repo && stores.accounts.byId(repo.owner_id);
	if (!repo || !owner) throw notFound(id);
	return `/repos/${seg(owner.login)}/${seg(repo.name)}`;
}

export const REPOSITORY_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	archiveRepository: (_s: unknown, { input }: Args, g: GraphContext) => {
		const repo = write(g, 'PATCH', repoPath(g, input.repositoryId), { archived: true }).body;
		return { clientMutationId: input.clientMutationId ?? null, repository: { ...repo, __typename: 'Repository' } };
	},
	unarchiveRepository: (_s: unknown, { input }: Args, g: GraphContext) => {
		const repo = write(g, 'PATCH', repoPath(g, input.repositoryId), { archived: false }).body;
		return { clientMutationId: input.clientMutationId ?? null, repository: { ...repo, __typename: 'Repository' } };
	},
	createRepository: (_s: unknown, { input }: Args, g: GraphContext) => {
		const visibility = String(input.visibility).toLowerCase();
		const body: Source = {
			name: input.name,
			private: visibility !== 'public',
			has_issues: input.hasIssuesEnabled ?? true,
			has_wiki: input.hasWikiEnabled ?? false,
			is_template: input.template ?? false,
		};
		if (input.description != null) body.description = input.description;
		if (input.homepageUrl != null) body.homepage = input.homepageUrl;
		let path = '/user/repos';
		if (input.ownerId != null) {
			const node = decode(input.ownerId);
			const owner = g.ctx.app.stores.accounts.byId(node.id);
			if (!owner || (node.type !== 'User' && node.type !== 'Organization')) throw notFound(input.ownerId);
			if (owner.type === 'Organization') {
				path = `/orgs/${seg(owner.login)}/repos`;
				body.visibility = visibility;
				if (input.teamId != null) {
					const team = decode(input.teamId);
					body.team_id = team.id;
				}
			} else if (owner.id !== g.ctx.principal.user?.id) {
				throw new TypedError(
					'FORBIDDEN',
					`${g.ctx.principal.user?.login ?? 'The caller'} cannot create a repository for ${owner.login}.`,
				);
			}
		}
		const repo = write(g, 'POST', path, body).body;
		return { clientMutationId: input.clientMutationId ?? null, repository: { ...repo, __typename: 'Repository' } };
	},
};
