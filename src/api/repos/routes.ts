/**
 * Repositories, as far as teams need them: POST /orgs/{org}/repos, GET /orgs/{org}/repos,
 * GET /repos/{owner}/{repo} (GitHub's repos API; not in the spec's matrix, so the permissions are
 * GitHub's: Administration repository write to create, Metadata read to read).
 */
import * as v from 'valibot';
import { forbidden, invalidField } from '../../http/errors';
import { created, ok, paged } from '../../http/reply';
import { route } from '../../http/route';
import { isoSeconds } from '../../time';
import { loadOrganization, memberAccess } from '../orgs/access';
import { callerRepoPermission, loadRepository } from './access';
import { LICENSES } from './licenses';
import type { RepoPermission } from './permissions';
import { repository } from './render';

const flag = v.optional(v.boolean());
const createBody = v.object({
	name: v.pipe(v.string(), v.minLength(1)),
	description: v.optional(v.nullable(v.string())),
	homepage: v.optional(v.nullable(v.string())),
	private: flag,
	visibility: v.optional(v.picklist(['public', 'private', 'internal'])),
	has_issues: flag,
	has_projects: flag,
	has_wiki: flag,
	has_downloads: flag,
	has_discussions: flag,
	is_template: flag,
	team_id: v.optional(v.pipe(v.number(), v.integer())),
	auto_init: flag,
	gitignore_template: v.optional(v.string()),
	license_template: v.optional(v.string()),
	allow_squash_merge: flag,
	allow_merge_commit: flag,
	allow_rebase_merge: flag,
	allow_auto_merge: flag,
	delete_branch_on_merge: flag,
});

const listQuery = v.object({
	type: v.optional(v.picklist(['all', 'public', 'private', 'forks', 'sources', 'member'])),
	sort: v.optional(v.picklist(['created', 'updated', 'pushed', 'full_name'])),
	direction: v.optional(v.picklist(['asc', 'desc'])),
});

/** GitHub's rule: characters other than letters, digits, '.', '-' and '_' become '-'. */
export function repositoryName(requested: string): string {
	return requested.trim().replace(/[^A-Za-z0-9._-]/g, '-');
}

const bit = (value: boolean | undefined, fallback: boolean) => ((value ?? fallback) ? 1 : 0);

export const repositoryRoutes = [
	route({
		method: 'POST',
		path: '/orgs/{org}/repos',
		docs: 'repos/repos#create-an-organization-repository',
		permissions: [{ administration: 'write' }],
		scopes: ['repo', 'public_repo'],
		access: 'authenticated',
		resource: 'Repository',
		body: createBody,
		handler(ctx) {
			const access = memberAccess(ctx, 'create its repositories');
			const org = access.org;
			if (!access.admin && org.members_can_create_repositories === 0) {
				throw forbidden(`Members of ${org.login} may not create repositories; ask an owner.`);
			}
			const body = ctx.body;
			const name = repositoryName(body.name);
			if (!name || name === '.' || name === '..' || name.length > 100 || /\.git$/i.test(name)) {
				throw invalidField('Repository', 'name', `"${body.name}" is not a valid repository name`);
			}
			if (body.license_template !== undefined && !LICENSES[body.license_template]) {
				throw invalidField('Repository', 'license_template', `unknown license template "${body.license_template}"; known: ${Object.keys(LICENSES).join(', ')}`);
			}
			const visibility = body.visibility ?? (body.private ? 'private' : 'public');
			const { stores } = ctx.app;
			const now = isoSeconds(ctx.now);
			const repoId = ctx.app.db.transaction(() => {
				if (stores.repos.byOwnerAndName(org.id, name)) {
					throw invalidField('Repository', 'name', 'name already exists on this account', 'custom');
				}
				const team = body.team_id === undefined ? undefined : stores.teams.byId(body.team_id);
				if (body.team_id !== undefined && (!team || team.org_id !== org.id)) {
					throw invalidField('Repository', 'team_id', `team ${body.team_id} is not a team of ${org.login}`);
				}
				const id = stores.repos.insert(
					{
						owner_id: org.id,
						name,
						description: body.description ?? null,
						homepage: body.homepage ?? null,
						visibility,
						default_branch: 'main',
						license_key: body.license_template ?? null,
						has_issues: bit(body.has_issues, true),
						has_projects: bit(body.has_projects, true),
						has_wiki: bit(body.has_wiki, true),
						has_downloads: bit(body.has_downloads, true),
						has_discussions: bit(body.has_discussions, false),
						is_template: bit(body.is_template, false),
						allow_squash_merge: bit(body.allow_squash_merge, true),
						allow_merge_commit: bit(body.allow_merge_commit, true),
						allow_rebase_merge: bit(body.allow_rebase_merge, true),
						allow_auto_merge: bit(body.allow_auto_merge, false),
						delete_branch_on_merge: bit(body.delete_branch_on_merge, false),
					},
					now,
				);
				// The member who creates a repository administers it, as on GitHub.
				if (access.userId !== null && !access.admin) stores.repos.setCollaborator(id, access.userId, 'admin', now);
				if (team) stores.teams.setGrant(team.id, id, team.permission as RepoPermission, now);
				return id;
			})();
			ctx.app.cache.invalidate(`teams:${org.id}`);
			const repo = stores.repos.byId(repoId)!;
			return created(repository(ctx.app.urls, repo, org, 'admin'), ctx.app.urls.api(`/repos/${org.login}/${repo.name}`));
		},
	}),
	route({
		method: 'GET',
		path: '/orgs/{org}/repos',
		docs: 'repos/repos#list-organization-repositories',
		permissions: [{ metadata: 'read' }],
		access: 'public',
		resource: 'Repository',
		query: listQuery,
		pagination: true,
		handler(ctx) {
			const org = loadOrganization(ctx);
			const type = ctx.query.type ?? 'all';
			const sort = ctx.query.sort ?? 'created';
			const direction = ctx.query.direction ?? (sort === 'full_name' ? 'asc' : 'desc');
			const visible = ctx.app.stores.repos
				.forOwner(org.id)
				.map((repo) => ({ repo, permission: callerRepoPermission(ctx, repo, org) }))
				.filter(({ repo, permission }) => {
					if (!permission) return false;
					if (type === 'public') return repo.visibility === 'public';
					if (type === 'private') return repo.visibility !== 'public';
					if (type === 'forks') return repo.fork_parent_id !== null;
					if (type === 'sources') return repo.fork_parent_id === null;
					return true;
				});
			const key = (repo: (typeof visible)[number]['repo']) =>
				sort === 'full_name' ? repo.name.toLowerCase() : sort === 'updated' ? repo.updated_at : sort === 'pushed' ? (repo.pushed_at ?? '') : repo.created_at;
			visible.sort((a, b) => (key(a.repo) < key(b.repo) ? -1 : key(a.repo) > key(b.repo) ? 1 : a.repo.id - b.repo.id) * (direction === 'asc' ? 1 : -1));
			const page = visible.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
			return paged(page.map(({ repo, permission }) => repository(ctx.app.urls, repo, org, ctx.publicView ? null : permission)), visible.length);
		},
	}),
	route({
		method: 'GET',
		path: '/repos/{owner}/{repo}',
		docs: 'repos/repos#get-a-repository',
		permissions: [{ metadata: 'read' }],
		access: 'public',
		handler(ctx) {
			const { repo, owner, permission } = loadRepository(ctx);
			return ok(repository(ctx.app.urls, repo, owner, ctx.publicView ? null : permission));
		},
	}),
];
