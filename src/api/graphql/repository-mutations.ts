/**
 * GraphQL's repository mutations: archiveRepository and unarchiveRepository (PATCH
 * /repos/{owner}/{repo} with `archived`: admin access, Administration write) and createRepository
 * (POST /user/repos, or POST /orgs/{org}/repos for an organization's ownerId: its access and
 * creation policies), each through the repository service the REST route calls (src/api/repos/writes.ts).
 * https://docs.github.com/graphql/reference/mutations#createrepository
 */
import { validate } from '../../http/validation';
import type { GuardedContext } from '../../http/route';
import type { OrgAccess } from '../../auth/access/types';
import { fullRepository } from '../repos/render';
import { createBody, updateBody } from '../repos/inputs';
import { createOrganizationRepository, createUserRepository, editRepository } from '../repos/writes';
import { admit } from './access';
import { TypedError } from './errors';
import { MUTATION_POLICIES } from './mutation-access';
import { guarded, type GraphContext } from './resolve';
import { decode, nodeMessage, notFound, repositoryPayload, repositoryTarget } from './targets';

// biome-ignore lint/suspicious/noExplicitAny: sources are REST representations of many shapes
type Source = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: arguments are validated by graphql-js against the schema
type Args = Record<string, any>;

/** Archives or unarchives the repository of node `id`, as PATCH /repos/{owner}/{repo} with `archived` does. */
function setArchived(g: GraphContext, input: Args, archived: boolean) {
	const admitted = repositoryTarget(g, MUTATION_POLICIES.updateRepository, input.repositoryId);
	guarded(undefined, () => editRepository(admitted, admitted.repo, validate(updateBody, { archived }, 'Repository')));
	return { clientMutationId: input.clientMutationId ?? null, repository: repositoryPayload(g, admitted) };
}

export const REPOSITORY_MUTATIONS: Record<string, (source: unknown, args: Args, g: GraphContext) => unknown> = {
	archiveRepository: (_s, { input }, g) => setArchived(g, input, true),
	unarchiveRepository: (_s, { input }, g) => setArchived(g, input, false),
	/**
	 * createRepository: for the viewer (POST /user/repos), or for the organization `ownerId` names
	 * (POST /orgs/{org}/repos, with `teamId` granted access); another user's account is FORBIDDEN.
	 */
	createRepository: (_s, { input }, g) => {
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
		const { app, principal } = g.ctx;
		const owner = input.ownerId == null ? undefined : app.stores.accounts.byId(decode(input.ownerId).id);
		if (input.ownerId != null) {
			const node = decode(input.ownerId);
			if (!owner || (node.type !== 'User' && node.type !== 'Organization') || owner.type !== node.type) throw notFound(input.ownerId);
		}
		if (owner?.type === 'Organization') {
			body.visibility = visibility;
			if (input.teamId != null) {
				const team = decode(input.teamId);
				if (team.type !== 'Team') throw notFound(input.teamId);
				body.team_id = team.id;
			}
			const repo = guarded(nodeMessage(input.ownerId), () => {
				const admitted = admit(g.ctx, MUTATION_POLICIES.createOrgRepository, { org: owner.login }) as GuardedContext & {
					org: OrgAccess;
				};
				return createOrganizationRepository(admitted, admitted.org, validate(createBody, body, 'Repository'));
			});
			return {
				clientMutationId: input.clientMutationId ?? null,
				repository: { ...fullRepository(app, repo, owner, 'admin'), __typename: 'Repository' },
			};
		}
		if (owner && owner.id !== principal.user?.id)
			throw new TypedError('FORBIDDEN', `${principal.user?.login ?? 'The caller'} cannot create a repository for ${owner.login}.`);
		const created = guarded(undefined, () => {
			const admitted = admit(g.ctx, MUTATION_POLICIES.createUserRepository, {});
			return createUserRepository(admitted, validate(createBody, body, 'Repository'));
		});
		return {
			clientMutationId: input.clientMutationId ?? null,
			repository: { ...fullRepository(app, created.repo, created.owner, 'admin'), __typename: 'Repository' },
		};
	},
};
