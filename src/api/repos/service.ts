/**
 * Creating repositories (organization, user and fork), with GitHub's naming rules.
 */
import type { App } from '../../app';
import { userRepoPermission } from '../../auth/access/repos';
import { invalidField } from '../../http/errors';
import type { AccountRow } from '../users/store';
import { LICENSES } from './licenses';
import type { RepoPermission } from '../../auth/repo-permissions';
import { events } from '../../events/catalog';
import type { RepositoryRow } from './store';
import { autoInitialize, checkGitignoreTemplate } from '../contents/init';

/** GitHub's rule: characters other than letters, digits, '.', '-' and '_' become '-'. */
export function repositoryName(requested: string): string {
	return requested.trim().replace(/[^A-Za-z0-9._-]/g, '-');
}

export interface CreateRepositoryInput {
	name: string;
	description?: string | null;
	homepage?: string | null;
	private?: boolean;
	visibility?: 'public' | 'private' | 'internal';
	has_issues?: boolean;
	has_projects?: boolean;
	has_wiki?: boolean;
	has_downloads?: boolean;
	has_discussions?: boolean;
	is_template?: boolean;
	team_id?: number;
	license_template?: string;
	/** Create an initial commit (README.md, .gitignore, LICENSE) on the default branch. */
	auto_init?: boolean;
	/** A gitignore template's name (GET /gitignore/templates), written as .gitignore with auto_init. */
	gitignore_template?: string;
	allow_squash_merge?: boolean;
	allow_merge_commit?: boolean;
	allow_rebase_merge?: boolean;
	allow_auto_merge?: boolean;
	delete_branch_on_merge?: boolean;
}

const bit = (value: boolean | undefined, fallback: boolean) => ((value ?? fallback) ? 1 : 0);

/**
 * Creates a repository owned by `owner` in one transaction, with GitHub's default labels; the user
 * who creates it watches it.
 * @param options.collaboratorId user given admin access as a direct collaborator (a member creating an org repository)
 * @param options.forkOf the repository this one is a fork of: its git objects and refs are copied, a fork event is sent
 * @param options.actorId who acts (webhook sender), null for an app or the command line
 * @param options.now ISO timestamp
 * With `auto_init`, the default branch gets an initial commit (src/api/contents/init.ts).
 * @throws HttpError 422 for an invalid or taken name, an unknown license or gitignore template, or a team_id outside the organization.
 */
export function createRepository(
	app: App,
	owner: AccountRow,
	input: CreateRepositoryInput,
	options: { collaboratorId: number | null; now: string; forkOf?: RepositoryRow; actorId: number | null },
): RepositoryRow {
	const name = repositoryName(input.name);
	if (!name || name === '.' || name === '..' || name.length > 100 || /\.git$/i.test(name)) {
		throw invalidField('Repository', 'name', `"${input.name}" is not a valid repository name`);
	}
	if (input.license_template !== undefined && !Object.hasOwn(LICENSES, input.license_template)) {
		throw invalidField(
			'Repository',
			'license_template',
			`unknown license template "${input.license_template}"; known: ${Object.keys(LICENSES).join(', ')}`,
		);
	}
	if (input.visibility === 'internal' && owner.type !== 'Organization') {
		throw invalidField('Repository', 'visibility', 'internal repositories belong to organizations');
	}
	checkGitignoreTemplate(input.gitignore_template);
	const visibility = input.visibility ?? (input.private ? 'private' : 'public');
	const { stores } = app;
	const repo = app.transaction(() => {
		if (stores.repos.byOwnerAndName(owner.id, name)) {
			throw invalidField('Repository', 'name', 'name already exists on this account', 'custom');
		}
		const team = input.team_id === undefined ? undefined : stores.teams.byId(input.team_id);
		if (input.team_id !== undefined && (!team || team.org_id !== owner.id)) {
			throw invalidField('Repository', 'team_id', `team ${input.team_id} is not a team of ${owner.login}`);
		}
		const id = stores.repos.insert(
			{
				owner_id: owner.id,
				name,
				description: input.description ?? null,
				homepage: input.homepage ?? null,
				visibility,
				fork_parent_id: options.forkOf?.id ?? null,
				default_branch: options.forkOf?.default_branch ?? 'main',
				license_key: input.license_template ?? options.forkOf?.license_key ?? null,
				has_issues: bit(input.has_issues, !options.forkOf),
				has_projects: bit(input.has_projects, true),
				has_wiki: bit(input.has_wiki, true),
				has_downloads: bit(input.has_downloads, true),
				has_discussions: bit(input.has_discussions, false),
				is_template: bit(input.is_template, false),
				allow_squash_merge: bit(input.allow_squash_merge, true),
				allow_merge_commit: bit(input.allow_merge_commit, true),
				allow_rebase_merge: bit(input.allow_rebase_merge, true),
				allow_auto_merge: bit(input.allow_auto_merge, false),
				delete_branch_on_merge: bit(input.delete_branch_on_merge, false),
			},
			options.now,
		);
		if (options.collaboratorId !== null) stores.repos.setCollaborator(id, options.collaboratorId, 'admin', options.now);
		stores.labels.createDefaults(id);
		if (options.forkOf) stores.git.copyRepository(options.forkOf.id, id);
		// GitHub subscribes whoever creates a repository (a user; apps and the command line watch nothing).
		const creator = options.actorId === null ? undefined : stores.accounts.byId(options.actorId);
		if (creator?.type === 'User') stores.subscriptions.set(creator.id, id, { subscribed: true, ignored: false }, options.now);
		const repo = stores.repos.byId(id)!;
		events.repositoryCreated(app, repo, options.actorId);
		if (options.forkOf) events.fork(app, options.forkOf, repo, options.actorId);
		if (options.collaboratorId !== null) {
			events.member(app, 'added', repo, stores.accounts.byId(options.collaboratorId)!, { to: 'admin' }, options.actorId);
		}
		if (team) {
			stores.teams.setGrant(team.id, id, team.permission as RepoPermission, options.now);
			events.teamRepository(app, 'added_to_repository', owner, team, repo, options.actorId);
		}
		if (input.auto_init && !options.forkOf) {
			const nowMs = Date.parse(options.now);
			autoInitialize(app, repo, owner, { gitignore: input.gitignore_template, license: input.license_template }, nowMs, options.now, options.actorId);
			return stores.repos.byId(id)!;
		}
		return repo;
	});
	return repo;
}

/**
 * GitHub's rule for private forks: a user who can no longer read a private or internal repository
 * loses their fork of it ("Removing a member from your organization": the member's forks of the
 * organization's private repositories are deleted). Checks the users' forks of `owner`'s
 * non-public repositories and deletes those whose owner lost read access. Call it inside the
 * transaction of every change that may take read access away (a member, an outside collaborator or
 * a team member removed, a team's repository or parent changed, a team deleted, the base
 * permission lowered), so the change and the deletions commit together.
 * @returns the forks deleted
 */
export function deleteForksWithoutAccess(app: App, owner: AccountRow, actorId: number | null): RepositoryRow[] {
	const deleted: RepositoryRow[] = [];
	for (const fork of app.stores.repos.userForksOfPrivate(owner.id)) {
		const parent = app.stores.repos.byId(fork.fork_parent_id!)!;
		if (userRepoPermission(app, parent, owner, fork.owner_id) !== null) continue;
		events.repository(app, 'deleted', fork, actorId);
		app.stores.repos.remove(fork.id);
		deleted.push(fork);
	}
	return deleted;
}

/** Body of PATCH /repos/{owner}/{repo} (GitHub's update-a-repository; security_and_analysis statuses). */
export interface UpdateRepositoryInput extends Partial<Omit<CreateRepositoryInput, 'team_id' | 'license_template'>> {
	default_branch?: string;
	archived?: boolean;
	security_and_analysis?: {
		advanced_security?: { status: 'enabled' | 'disabled' };
		/** GitHub's code security configuration setting of that name, kept per repository. */
		dependabot_delegated_alert_dismissal?: { status: 'enabled' | 'disabled' };
	};
}

/**
 * Updates a repository in one transaction and sends the repository webhooks GitHub sends
 * (renamed, privatized/publicized, archived/unarchived, edited with `changes`).
 * @param options.now ISO timestamp
 * @throws HttpError 422 for an invalid or taken name, or internal visibility outside an organization
 */
export function updateRepository(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	input: UpdateRepositoryInput,
	options: { actorId: number | null; now: string },
): RepositoryRow {
	const next: RepositoryRow = { ...repo, updated_at: options.now };
	if (input.name !== undefined) {
		const name = repositoryName(input.name);
		if (!name || name === '.' || name === '..' || name.length > 100 || /\.git$/i.test(name)) {
			throw invalidField('Repository', 'name', `"${input.name}" is not a valid repository name`);
		}
		next.name = name;
	}
	if (input.description !== undefined) next.description = input.description;
	if (input.homepage !== undefined) next.homepage = input.homepage;
	if (input.visibility !== undefined) next.visibility = input.visibility;
	else if (input.private !== undefined) next.visibility = input.private ? 'private' : 'public';
	if (next.visibility === 'internal' && owner.type !== 'Organization') {
		throw invalidField('Repository', 'visibility', 'internal repositories belong to organizations');
	}
	if (input.default_branch !== undefined) next.default_branch = input.default_branch;
	const flags = [
		'has_issues', 'has_projects', 'has_wiki', 'has_downloads', 'has_discussions', 'is_template', 'archived', 'allow_squash_merge',
		'allow_merge_commit', 'allow_rebase_merge', 'allow_auto_merge', 'delete_branch_on_merge',
	] as const;
	for (const flag of flags) if (input[flag] !== undefined) next[flag] = input[flag] ? 1 : 0;
	const security = input.security_and_analysis;
	if (security?.advanced_security) next.advanced_security = security.advanced_security.status === 'enabled' ? 1 : 0;
	if (security?.dependabot_delegated_alert_dismissal) {
		next.delegated_alert_dismissal = security.dependabot_delegated_alert_dismissal.status === 'enabled' ? 1 : 0;
	}
	return app.transaction(() => {
		if (next.name.toLowerCase() !== repo.name.toLowerCase() && app.stores.repos.byOwnerAndName(owner.id, next.name)) {
			throw invalidField('Repository', 'name', 'name already exists on this account', 'custom');
		}
		const updated = app.stores.repos.update(next);
		const { actorId } = options;
		if (updated.name !== repo.name) events.repository(app, 'renamed', updated, actorId, { repository: { name: { from: repo.name } } });
		if ((updated.visibility === 'public') !== (repo.visibility === 'public')) {
			events.repository(app, updated.visibility === 'public' ? 'publicized' : 'privatized', updated, actorId);
		}
		if (updated.archived !== repo.archived) events.repository(app, updated.archived ? 'archived' : 'unarchived', updated, actorId);
		const edited: Record<string, { from: unknown }> = {};
		for (const field of ['description', 'homepage', 'default_branch'] as const) {
			if (updated[field] !== repo[field]) edited[field] = { from: repo[field] };
		}
		if (Object.keys(edited).length) events.repository(app, 'edited', updated, actorId, edited);
		return updated;
	});
}
