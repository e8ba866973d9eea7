/**
 * Repositories: create (organization, user, fork), list them (an organization's, the authenticated
 * user's, a user's, every public one), get one (by name or id), update, delete and transfer it,
 * its topics, languages and contributors (GitHub's repos API; not in the permission matrix, so the permissions are
 * GitHub's: Administration repository write to create, update, delete and transfer, Metadata read
 * to read).
 */
import {
	ACCOUNT_REPOSITORIES_READ,
	ORG_REPOSITORIES_READ,
	OWN_REPOSITORIES_READ,
	REPOSITORY_ADMIN,
	REPOSITORY_CREATE_ORG,
	REPOSITORY_CREATE_USER,
	REPOSITORY_READ,
} from './access';
import { createBody, updateBody } from './inputs';
import { createOrganizationRepository, createUserRepository, editRepository, repositoryCreator, requireScopeFor } from './writes';
import * as v from 'valibot';
import { forbidden, invalidField, notFound, unprocessable } from '../../model/errors';
import { created, noContent, ok, paged } from '../../http/reply';
import { route, type Context } from '../../http/route';
import { isoSeconds } from '../../time';
import { orgAccess } from '../../auth/access/orgs';
import { callerRepoPermission } from '../../auth/access/repos';
import { requireReach } from '../../auth/principal';
import type { RepositoryFilter, RepositorySort } from './store';
import { timestampParam } from '../../http/validation';
import {
	accountRepositories,
	authenticatedUserRepositories,
	organizationRepositories,
	renderListed,
	type Affiliation,
	type ListedRepositoryEntry,
} from './listing';
import { fullRepository } from './render';
import { repository, simpleUser } from '../../model/render';
import { deleteRepository, forkRepository, replaceTopics, transferRepository } from './service';
import { repositoryLanguages } from './languages';
import type { RepositoryRow, AccountRow } from '../../model/rows';

const listQuery = v.object({
	type: v.optional(v.picklist(['all', 'public', 'private', 'forks', 'sources', 'member'])),
	sort: v.optional(v.picklist(['created', 'updated', 'pushed', 'full_name'])),
	direction: v.optional(v.picklist(['asc', 'desc'])),
});

const sortParam = v.optional(
	v.picklist(['created', 'updated', 'pushed', 'full_name'], 'sort must be created, updated, pushed or full_name'),
);
const directionParam = v.optional(v.picklist(['asc', 'desc'], 'direction must be asc or desc'));
const AFFILIATIONS = ['owner', 'collaborator', 'organization_member'] as const;
/** Query of GET /user/repos. */
const userReposQuery = v.object({
	visibility: v.optional(v.picklist(['all', 'public', 'private'], 'visibility must be all, public or private')),
	affiliation: v.optional(
		v.pipe(
			v.string(),
			v.check(
				(text) => text.split(',').every((part) => (AFFILIATIONS as readonly string[]).includes(part.trim())),
				'affiliation must be a comma-separated list of owner, collaborator and organization_member',
			),
		),
	),
	type: v.optional(v.picklist(['all', 'owner', 'public', 'private', 'member'], 'type must be all, owner, public, private or member')),
	sort: sortParam,
	direction: directionParam,
	since: v.optional(timestampParam('since')),
	before: v.optional(timestampParam('before')),
});
/** Query of GET /users/{username}/repos. */
const accountReposQuery = v.object({
	type: v.optional(v.picklist(['all', 'owner', 'member'], 'type must be all, owner or member')),
	sort: sortParam,
	direction: directionParam,
});

/** The default direction of GitHub's repository lists: asc for full_name, desc otherwise. */
const defaultDirection = (sort: RepositorySort) => (sort === 'full_name' ? 'asc' : 'desc');

/**
 * The organization policy members_can_delete_repositories, which also governs transfers: owners
 * (and the organization's app) always may; other repository administrators only when it allows.
 * @throws DomainError 403 "Must have admin rights to Repository." as GitHub answers
 */
function requireDeletePolicy(ctx: Context): void {
	const { owner } = ctx.repo;
	if (owner.type !== 'Organization' || owner.members_can_delete_repositories === 1 || ctx.principal.kind === 'installation') return;
	const membership = ctx.principal.user && ctx.app.stores.memberships.get(owner.id, ctx.principal.user.id);
	if (membership?.state !== 'active' || membership.role !== 'admin') throw forbidden('Must have admin rights to Repository.');
}

/**
 * Whether the caller may create a repository of this visibility in `target` (a transfer's new
 * owner): the user themself, an organization's owners (and its app), its members when the
 * organization's members_can_create_* policies allow.
 */
function mayCreateIn(ctx: Context, target: AccountRow, visibility: RepositoryRow['visibility']): boolean {
	if (target.type === 'User') return ctx.principal.user?.id === target.id;
	if (target.type !== 'Organization') return false;
	const access = orgAccess(ctx, target);
	if (access.admin) return true;
	if (!access.member || target.members_can_create_repositories !== 1) return false;
	if (visibility === 'public') return target.members_can_create_public_repositories === 1;
	if (visibility === 'internal') return target.members_can_create_internal_repositories === 1;
	return target.members_can_create_private_repositories === 1;
}

/** What both creation routes share: Administration (write); public_repo suffices for public ones. */
const CREATE = {
	method: 'POST' as const,
	errorResource: 'Repository',
	body: createBody,
};

/** GET /repos/{owner}/{repo} and GET /repositories/{repository_id}: the guarded repository's full form. */
function getRepository(ctx: Context) {
	const { repo, owner, permission } = ctx.repo;
	return ok(fullRepository(ctx.app, repo, owner, ctx.publicView ? null : permission));
}

export const repositoryRoutes = [
	route({
		...CREATE,
		path: '/orgs/{org}/repos',
		docs: 'repos/repos#create-an-organization-repository',
		...REPOSITORY_CREATE_ORG,
		handler(ctx) {
			const org = ctx.org.org;
			const repo = createOrganizationRepository(ctx, ctx.org, ctx.body);
			return created(fullRepository(ctx.app, repo, org, 'admin'), ctx.app.urls.api(`/repos/${org.login}/${repo.name}`));
		},
	}),
	route({
		...CREATE,
		path: '/user/repos',
		docs: 'repos/repos#create-a-repository-for-the-authenticated-user',
		...REPOSITORY_CREATE_USER,
		handler(ctx) {
			const { repo, owner } = createUserRepository(ctx, ctx.body);
			return created(fullRepository(ctx.app, repo, owner, 'admin'), ctx.app.urls.api(`/repos/${owner.login}/${repo.name}`));
		},
	}),
	route({
		method: 'POST',
		path: '/repos/{owner}/{repo}/forks',
		docs: 'repos/forks#create-a-fork',
		permissions: [{ administration: 'write', contents: 'read' }],
		scopes: ['repo', 'public_repo'],
		access: 'authenticated',
		// The source is only read; the fork is created in the caller's account or a named organization.
		resource: { repo: 'read', readOnly: true },
		errorResource: 'Fork',
		body: v.object({
			organization: v.optional(v.string()),
			name: v.optional(v.pipe(v.string(), v.minLength(1))),
			default_branch_only: v.optional(v.boolean()),
		}),
		handler(ctx) {
			// The fork keeps the source's privacy (the guard hides non-public sources from tokens without `repo`).
			const source = ctx.repo;
			let target;
			let collaboratorId: number | null = null;
			if (ctx.body.organization !== undefined) {
				const org = ctx.app.stores.accounts.organization(ctx.body.organization);
				const access = org && orgAccess(ctx, org);
				if (!org || !access?.member)
					throw invalidField('Fork', 'organization', `you cannot create repositories in ${ctx.body.organization}`);
				collaboratorId = repositoryCreator(access, source.repo.visibility === 'internal' ? 'private' : source.repo.visibility);
				target = org;
			} else {
				if (!ctx.principal.user) throw invalidField('Fork', 'organization', 'an app must name the organization to fork into');
				// The default target is the user's own account, which a token bound to an organization does not reach.
				requireReach(ctx.principal, ctx.principal.user.id);
				target = ctx.app.stores.accounts.byId(ctx.principal.user.id)!;
			}
			const fork = forkRepository(ctx.app, source, target, {
				name: ctx.body.name,
				collaboratorId,
				now: isoSeconds(ctx.now),
				actorId: ctx.principal.actorId,
			});
			// GitHub answers 202: the fork's git data is copied in the background.
			const permission = fork.existing ? callerRepoPermission(ctx, fork.repo, target) : 'admin';
			return { status: 202, body: fullRepository(ctx.app, fork.repo, target, permission) };
		},
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/repos',
		docs: 'repos/repos#list-organization-repositories',
		...ORG_REPOSITORIES_READ,
		errorResource: 'Repository',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const { org } = ctx.org;
			const type = ctx.query.type ?? 'all';
			const sort = ctx.query.sort ?? 'created';
			const direction = ctx.query.direction ?? (sort === 'full_name' ? 'asc' : 'desc');
			const filter: RepositoryFilter = {
				ownerId: org.id,
				visibility: type === 'public' ? 'public' : type === 'private' ? 'private' : 'any',
				fork: type === 'forks' ? 'fork' : type === 'sources' ? 'source' : 'any',
			};
			const { items, total } = organizationRepositories(ctx, ctx.org, filter, sort, direction, {
				limit: ctx.page.perPage,
				offset: ctx.page.offset,
			});
			return paged(items, total);
		},
	}),
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}',
		docs: 'repos/repos#get-a-repository',
		...REPOSITORY_READ,
		handler: getRepository,
	}),
	route({
		// Archived: checked by the service, since unarchiving is the one change an archived repository takes.
		...REPOSITORY_ADMIN,
		method: 'PATCH',
		path: '/repos/{owner}/{repo}',
		docs: 'repos/repos#update-a-repository',
		errorResource: 'Repository',
		body: updateBody,
		handler(ctx) {
			const updated = editRepository(ctx, ctx.repo, ctx.body);
			return ok(fullRepository(ctx.app, updated, ctx.repo.owner, 'admin'));
		},
	}),
	route({
		method: 'DELETE',
		path: '/repos/{owner}/{repo}',
		docs: 'repos/repos#delete-a-repository',
		permissions: [{ administration: 'write' }],
		scopes: ['delete_repo'],
		access: 'authenticated',
		// An archived repository may still be deleted.
		resource: { repo: 'admin', writable: false },
		handler(ctx) {
			const { repo } = ctx.repo;
			requireDeletePolicy(ctx);
			deleteRepository(ctx.app, repo, ctx.principal.actorId);
			return noContent();
		},
	}),
	route({
		method: 'POST',
		path: '/repos/{owner}/{repo}/transfer',
		docs: 'repos/repos#transfer-a-repository',
		permissions: [{ administration: 'write' }],
		scopes: ['repo', 'public_repo'],
		access: 'authenticated',
		resource: { repo: 'admin' },
		errorResource: 'Repository',
		body: v.object({
			new_owner: v.pipe(v.string('new_owner must be a login'), v.minLength(1, "new_owner can't be blank")),
			new_name: v.optional(v.pipe(v.string(), v.minLength(1, "new_name can't be blank"))),
			team_ids: v.optional(v.array(v.pipe(v.number(), v.integer()), 'team_ids must be an array of team ids')),
		}),
		handler(ctx) {
			const { repo, owner } = ctx.repo;
			requireScopeFor(ctx, repo.visibility);
			// Transferring gives the repository away: the policy that governs deleting it applies.
			requireDeletePolicy(ctx);
			const target = ctx.app.stores.accounts.byLogin(ctx.body.new_owner);
			const visibility = repo.visibility === 'internal' && target?.type !== 'Organization' ? 'private' : repo.visibility;
			// GitHub invites a user to accept; Gitstead transfers at once, so only where the caller may
			// create repositories itself.
			if (!target || target.type === 'Bot' || !mayCreateIn(ctx, target, visibility)) {
				throw invalidField('Repository', 'new_owner', `you cannot transfer repositories to ${ctx.body.new_owner}`);
			}
			requireReach(ctx.principal, target.id);
			if (ctx.body.team_ids?.length && target.type !== 'Organization') {
				throw invalidField('Repository', 'team_ids', 'team_ids apply to a transfer to an organization only');
			}
			const teams = [...new Set(ctx.body.team_ids ?? [])].map((id) => {
				const team = ctx.app.stores.teams.byId(id);
				if (!team || team.org_id !== target.id)
					throw invalidField('Repository', 'team_ids', `team ${id} is not a team of ${target.login}`);
				return team;
			});
			const moved = transferRepository(ctx.app, repo, owner, target, {
				newName: ctx.body.new_name,
				teams,
				actorId: ctx.principal.actorId,
				now: isoSeconds(ctx.now),
			});
			return { status: 202, body: fullRepository(ctx.app, moved, target, callerRepoPermission(ctx, moved, target)) };
		},
	}),
	route({
		...REPOSITORY_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/topics',
		docs: 'repos/repos#get-all-repository-topics',
		handler(ctx) {
			return ok({ names: JSON.parse(ctx.repo.repo.topics) as string[] });
		},
	}),
	route({
		method: 'PUT',
		path: '/repos/{owner}/{repo}/topics',
		docs: 'repos/repos#replace-all-repository-topics',
		permissions: [{ administration: 'write' }],
		scopes: ['repo', 'public_repo'],
		access: 'authenticated',
		// GitHub's maintain role manages topics; so does a custom repository role with manage_topics.
		resource: { repo: 'maintain', grantedBy: 'manage_topics' },
		errorResource: 'Repository',
		// GitHub's description answers this route's 422 as validation-error-simple.
		errorShape: 'simple',
		body: v.object({ names: v.array(v.string('names must be strings'), 'names must be an array of topics') }),
		handler(ctx) {
			requireScopeFor(ctx, ctx.repo.repo.visibility);
			return ok({ names: replaceTopics(ctx.app, ctx.repo.repo, ctx.body.names, ctx.principal.actorId) });
		},
	}),
	route({
		...REPOSITORY_READ,
		method: 'GET',
		path: '/repos/{owner}/{repo}/languages',
		docs: 'repos/repos#list-repository-languages',
		handler(ctx) {
			return ok(repositoryLanguages(ctx.app, ctx.repo.repo));
		},
	}),
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}/contributors',
		docs: 'repos/repos#list-repository-contributors',
		permissions: [{ metadata: 'read' }],
		access: 'public',
		resource: { repo: 'read' },
		query: v.object({ anon: v.optional(v.string()) }),
		pagination: true,
		handler(ctx) {
			const { repo } = ctx.repo;
			const { git, commitSearch, accounts } = ctx.app.stores;
			// An empty repository has no contributors: GitHub answers 204.
			if (!git.ref(repo.id, `refs/heads/${repo.default_branch}`)) return noContent();
			const anonymous = ctx.query.anon === '1' || ctx.query.anon === 'true';
			const { rows, total } = commitSearch.contributors(repo.id, anonymous, ctx.page.perPage, ctx.page.offset);
			const urls = ctx.app.urls;
			const items = rows.map((row) => {
				const account = row.author_id === null ? undefined : accounts.byId(row.author_id);
				return account
					? { ...simpleUser(urls, account), contributions: row.contributions }
					: { email: row.email, name: row.name, type: 'Anonymous', contributions: row.contributions };
			});
			return paged(items, total);
		},
	}),
	route({
		method: 'GET',
		path: '/user/repos',
		docs: 'repos/repos#list-repositories-for-the-authenticated-user',
		...OWN_REPOSITORIES_READ,
		errorResource: 'Repository',
		query: userReposQuery,
		pagination: true,
		handler(ctx) {
			const { query } = ctx;
			if (query.type !== undefined && (query.visibility !== undefined || query.affiliation !== undefined)) {
				throw unprocessable('If you specify visibility or affiliation, you cannot specify type.');
			}
			const type = query.type ?? 'all';
			const affiliations = new Set<Affiliation>(
				query.affiliation !== undefined
					? (query.affiliation.split(',').map((part) => part.trim()) as Affiliation[])
					: type === 'owner'
						? ['owner']
						: type === 'member'
							? ['collaborator', 'organization_member']
							: AFFILIATIONS,
			);
			const visibility = query.visibility ?? (type === 'public' || type === 'private' ? type : 'all');
			const sort = query.sort ?? 'full_name';
			const all = authenticatedUserRepositories(
				ctx,
				{ affiliations, visibility, since: query.since, before: query.before },
				sort,
				query.direction ?? defaultDirection(sort),
			);
			return listPage(ctx, all);
		},
	}),
	route({
		method: 'GET',
		path: '/users/{username}/repos',
		docs: 'repos/repos#list-repositories-for-a-user',
		...ACCOUNT_REPOSITORIES_READ,
		errorResource: 'Repository',
		query: accountReposQuery,
		pagination: true,
		handler(ctx) {
			const account = ctx.app.stores.accounts.byLogin(ctx.params.username);
			if (!account || account.type === 'Bot') throw notFound();
			const sort = ctx.query.sort ?? 'full_name';
			const all = accountRepositories(ctx, account, ctx.query.type ?? 'owner', sort, ctx.query.direction ?? defaultDirection(sort));
			return listPage(ctx, all);
		},
	}),
	route({
		method: 'GET',
		path: '/repositories',
		docs: 'repos/repos#list-public-repositories',
		permissions: [{ metadata: 'read' }],
		access: 'public',
		resource: 'none',
		query: v.object({ since: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'since must be a repository id'))) }),
		pagination: true,
		handler(ctx) {
			// Paginated by `since` (the last id seen), not by page: GitHub's Link has next only.
			const perPage = ctx.page.perPage;
			const rows = ctx.app.stores.repos.publicSince(Number(ctx.query.since ?? 0), perPage);
			const owners = ctx.app.stores.accounts.mapByIds(new Set(rows.map((repo) => repo.owner_id)));
			const body = rows.flatMap((repo) => {
				const owner = owners.get(repo.owner_id);
				return owner ? [repository(ctx.app.urls, repo, owner, null)] : [];
			});
			const headers: Record<string, string> = {};
			if (rows.length === perPage) {
				headers.Link = `<${ctx.app.urls.api('/repositories')}?per_page=${perPage}&since=${rows[rows.length - 1].id}>; rel="next"`;
			}
			return { status: 200, body, headers };
		},
	}),
	route({
		method: 'GET',
		path: '/repositories/{repository_id}',
		docs: 'repos/repos#get-a-repository',
		permissions: [{ metadata: 'read' }],
		access: 'public',
		// The guard finds the repository by id and applies the rules of GET /repos/{owner}/{repo}.
		resource: { repo: 'read' },
		handler: getRepository,
	}),
];

/** One page (ctx.page) of a whole list, each repository with the caller's permission unless a public view. */
function listPage(ctx: Context, all: ListedRepositoryEntry[]) {
	return paged(renderListed(ctx, all.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage)), all.length);
}
