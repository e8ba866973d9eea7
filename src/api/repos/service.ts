/**
 * Creating repositories (organization, user and fork), with GitHub's naming rules.
 */
import {
	attachDefaultConfiguration,
	checkEnforcedChange,
	securityAndAnalysis,
	securityAndAnalysisChanged,
	writeSwitches,
	type SwitchChange,
} from '../code-security/service';
import type { App } from '../../app';
import { userRepoPermission } from '../../auth/access/repos';
import { forbidden, invalidField } from '../../model/errors';
import type { AccountRow, RepositoryRow, TeamRow } from '../../model/rows';
import { LICENSES } from '../../model/licenses';
import type { RepoPermission } from '../../model/repo-permissions';
import { events } from '../../events/catalog';
import { orgSimple } from '../../model/render';
import { webhookUser } from '../../events/payloads';
import { autoInitialize, checkGitignoreTemplate } from '../contents/init';
import { enqueueCodeIndex } from '../../events/code-index';

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
 * @throws DomainError 422 for an invalid or taken name, an unknown license or gitignore template, or a team_id outside the organization.
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
	// License keys are GitHub's, compared without case ("MIT" is mit).
	const licenseKey = input.license_template?.toLowerCase();
	if (licenseKey !== undefined && !Object.hasOwn(LICENSES, licenseKey)) {
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
				license_key: licenseKey ?? options.forkOf?.license_key ?? null,
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
		// The organization's default code security configuration for the repository's visibility.
		attachDefaultConfiguration(app, owner, repo, options.actorId, options.now);
		if (input.auto_init && !options.forkOf) {
			const nowMs = Date.parse(options.now);
			autoInitialize(
				app,
				repo,
				owner,
				{ gitignore: input.gitignore_template, license: licenseKey },
				nowMs,
				options.now,
				options.actorId,
			);
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

/**
 * Deletes a repository with everything in it in one transaction: the `repository` deleted event
 * first (its webhook reaches the organization's and global hooks; the repository's own hooks go
 * with it), then the row, whose foreign keys cascade to every table that names it (issues,
 * comments, labels, git objects and refs, hooks and deliveries, deployments, runs, alerts, stars,
 * subscriptions, notification threads, topics, redirects, …). Its forks are detached (they stay,
 * without a parent), as on GitHub.
 */
export function deleteRepository(app: App, repo: RepositoryRow, actorId: number | null): void {
	app.transaction(() => {
		events.repository(app, 'deleted', repo, actorId);
		app.stores.repos.remove(repo.id);
	});
}

/**
 * Transfers a repository to another account at once, in one transaction (POST
 * /repos/{owner}/{repo}/transfer; the caller checked who may): renamed to `newName` if given,
 * internal becomes private outside an organization, the former organization's team grants end and
 * `teams` of the new organization get theirs, the old owner/name redirects, users' forks that lose
 * read access go (the private-fork rule), and `repository` transferred is recorded with
 * `changes.owner.from` (a `user` or an `organization`).
 * @param options.now ISO timestamp
 * @throws DomainError 422 for an invalid name or one the new owner already uses
 */
export function transferRepository(
	app: App,
	repo: RepositoryRow,
	from: AccountRow,
	to: AccountRow,
	options: { newName?: string; teams: readonly TeamRow[]; actorId: number | null; now: string },
): RepositoryRow {
	const name = options.newName === undefined ? repo.name : repositoryName(options.newName);
	if (!name || name === '.' || name === '..' || name.length > 100 || /\.git$/i.test(name)) {
		throw invalidField('Repository', 'new_name', `"${options.newName}" is not a valid repository name`);
	}
	const { stores } = app;
	return app.transaction(() => {
		const taken = stores.repos.byOwnerAndName(to.id, name);
		if (taken && taken.id !== repo.id)
			throw invalidField('Repository', 'new_owner', `${to.login} already has a repository named ${name}`, 'custom');
		const visibility = repo.visibility === 'internal' && to.type !== 'Organization' ? 'private' : repo.visibility;
		const moved = stores.repos.transfer(repo, { ownerId: to.id, name, visibility, now: options.now });
		for (const team of options.teams) stores.teams.setGrant(team.id, moved.id, team.permission as RepoPermission, options.now);
		// A code security configuration belongs to the organization it leaves (the settings stay).
		if (to.id !== from.id) stores.codeSecurity.detach(moved.id);
		const previous = from.type === 'Organization' ? { organization: orgSimple(app.urls, from) } : { user: webhookUser(app, from) };
		events.repository(app, 'transferred', moved, options.actorId, { owner: { from: previous } });
		if (to.id !== from.id) deleteForksWithoutAccess(app, to, options.actorId);
		return moved;
	});
}

/** GitHub's topic rules: a lowercase letter or digit first, then those and hyphens; 50 characters; 20 topics. */
export const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;
export const MAX_TOPICS = 20;

/**
 * Replaces a repository's topics (PUT /repos/{owner}/{repo}/topics): names are saved lowercase,
 * duplicates once, in the order given; a change records `repository` edited with
 * `changes.topics.from`, as GitHub does.
 * @returns the topics now
 * @throws DomainError 422 "Validation Failed" (resource Repository, field topics) for a name GitHub
 *   refuses or more than 20 topics
 */
export function replaceTopics(app: App, repo: RepositoryRow, names: readonly string[], actorId: number | null): string[] {
	const topics = [...new Set(names.map((name) => name.trim().toLowerCase()))];
	const bad = topics.find((name) => !TOPIC.test(name));
	if (bad !== undefined) {
		throw invalidField(
			'Repository',
			'topics',
			`${JSON.stringify(bad)} is not a valid topic: topics must start with a lowercase letter or number, consist of 50 characters or less, and can include hyphens`,
		);
	}
	if (topics.length > MAX_TOPICS) throw invalidField('Repository', 'topics', `a repository can have at most ${MAX_TOPICS} topics`);
	const before = JSON.parse(repo.topics) as string[];
	if (before.length === topics.length && before.every((name, i) => name === topics[i])) return topics;
	return app.transaction(() => {
		app.stores.repos.setTopics(repo.id, topics);
		events.repository(app, 'edited', app.stores.repos.byId(repo.id)!, actorId, { topics: { from: before } });
		return topics;
	});
}

/** Body of PATCH /repos/{owner}/{repo} (GitHub's update-a-repository; security_and_analysis statuses). */
export interface UpdateRepositoryInput extends Partial<Omit<CreateRepositoryInput, 'team_id' | 'license_template'>> {
	default_branch?: string;
	archived?: boolean;
	allow_forking?: boolean;
	web_commit_signoff_required?: boolean;
	allow_update_branch?: boolean;
	use_squash_pr_title_as_default?: boolean;
	squash_merge_commit_title?: RepositoryRow['squash_merge_commit_title'];
	squash_merge_commit_message?: RepositoryRow['squash_merge_commit_message'];
	merge_commit_title?: RepositoryRow['merge_commit_title'];
	merge_commit_message?: RepositoryRow['merge_commit_message'];
	security_and_analysis?: {
		advanced_security?: { status: 'enabled' | 'disabled' };
		/** GitHub's code security configuration setting of that name, kept per repository. */
		dependabot_delegated_alert_dismissal?: { status: 'enabled' | 'disabled' };
		/** The switches of src/api/code-security/switches.ts. */
		secret_scanning?: { status: 'enabled' | 'disabled' };
		secret_scanning_push_protection?: { status: 'enabled' | 'disabled' };
		secret_scanning_non_provider_patterns?: { status: 'enabled' | 'disabled' };
		secret_scanning_validity_checks?: { status: 'enabled' | 'disabled' };
	};
}

/** The default commit messages GitHub offers: [title, message] pairs of its settings page. */
const SQUASH_DEFAULTS = ['COMMIT_OR_PR_TITLE COMMIT_MESSAGES', 'PR_TITLE BLANK', 'PR_TITLE COMMIT_MESSAGES', 'PR_TITLE PR_BODY'];
const MERGE_DEFAULTS = ['MERGE_MESSAGE PR_TITLE', 'PR_TITLE BLANK', 'PR_TITLE PR_BODY'];

/**
 * Applies the squash and merge commit defaults of an update to `next`. GitHub's rules: a message
 * needs its title in the same request (`squash_merge_commit_title` is "Required when using
 * `squash_merge_commit_message`"), and only the pairs its settings page offers are taken
 * (use_squash_pr_title_as_default, the deprecated switch, sets the squash title).
 * @throws DomainError 422 (field named) for a message without its title or a pair GitHub does not offer
 */
function mergeMessages(input: UpdateRepositoryInput, next: RepositoryRow): void {
	if (input.squash_merge_commit_message !== undefined && input.squash_merge_commit_title === undefined) {
		throw invalidField(
			'Repository',
			'squash_merge_commit_title',
			'squash_merge_commit_title is required when using squash_merge_commit_message',
		);
	}
	if (input.merge_commit_message !== undefined && input.merge_commit_title === undefined) {
		throw invalidField('Repository', 'merge_commit_title', 'merge_commit_title is required when using merge_commit_message');
	}
	if (input.use_squash_pr_title_as_default !== undefined && input.squash_merge_commit_title === undefined) {
		next.squash_merge_commit_title = input.use_squash_pr_title_as_default ? 'PR_TITLE' : 'COMMIT_OR_PR_TITLE';
		next.squash_merge_commit_message = 'COMMIT_MESSAGES';
	}
	if (input.squash_merge_commit_title !== undefined) {
		next.squash_merge_commit_title = input.squash_merge_commit_title;
		// A title alone keeps the message when the pair stays valid, else takes the title's first pair.
		next.squash_merge_commit_message =
			input.squash_merge_commit_message ??
			(SQUASH_DEFAULTS.includes(`${input.squash_merge_commit_title} ${next.squash_merge_commit_message}`)
				? next.squash_merge_commit_message
				: 'COMMIT_MESSAGES');
		if (!SQUASH_DEFAULTS.includes(`${next.squash_merge_commit_title} ${next.squash_merge_commit_message}`)) {
			throw invalidField(
				'Repository',
				'squash_merge_commit_message',
				`squash_merge_commit_message ${next.squash_merge_commit_message} cannot be used with squash_merge_commit_title ${next.squash_merge_commit_title}`,
			);
		}
		next.use_squash_pr_title_as_default = next.squash_merge_commit_title === 'PR_TITLE' ? 1 : 0;
	}
	if (input.merge_commit_title !== undefined) {
		next.merge_commit_title = input.merge_commit_title;
		next.merge_commit_message =
			input.merge_commit_message ??
			(MERGE_DEFAULTS.includes(`${input.merge_commit_title} ${next.merge_commit_message}`)
				? next.merge_commit_message
				: input.merge_commit_title === 'MERGE_MESSAGE'
					? 'PR_TITLE'
					: 'BLANK');
		if (!MERGE_DEFAULTS.includes(`${next.merge_commit_title} ${next.merge_commit_message}`)) {
			throw invalidField(
				'Repository',
				'merge_commit_message',
				`merge_commit_message ${next.merge_commit_message} cannot be used with merge_commit_title ${next.merge_commit_title}`,
			);
		}
	}
}

/**
 * Who may make a change, beyond the admin role the caller checked: an archived repository takes
 * one change only, being unarchived ("Repository was archived so is read-only."), and a
 * repository locked for a migration none; in an organization whose members_can_change_repo_visibility
 * is off, only its owners (and apps) change a repository's visibility.
 * @param actor the user who asks (null for an app installation), and whether an installation asks
 * @throws DomainError 403
 */
export function checkRepositoryUpdate(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	input: UpdateRepositoryInput,
	actor: { userId: number | null; installation: boolean },
): void {
	const unarchive = Object.keys(input).length === 1 && input.archived === false;
	if (!unarchive && repo.archived === 1) throw forbidden('Repository was archived so is read-only.');
	if (!unarchive && app.stores.migrations.isLocked(repo.id))
		throw forbidden('Repository is locked for migration; unlock it to change it.');
	const visibility = input.visibility ?? (input.private === undefined ? repo.visibility : input.private ? 'private' : 'public');
	if (visibility !== repo.visibility && owner.type === 'Organization' && owner.members_can_change_repo_visibility !== 1) {
		const membership = actor.userId === null ? undefined : app.stores.memberships.get(owner.id, actor.userId);
		if (!actor.installation && (membership?.state !== 'active' || membership.role !== 'admin')) {
			throw forbidden(`Only owners of ${owner.login} may change the visibility of its repositories.`);
		}
	}
}

/**
 * Updates a repository in one transaction and sends the repository webhooks GitHub sends
 * (renamed, privatized/publicized, archived/unarchived, edited with `changes`).
 * @param options.now ISO timestamp
 * @throws DomainError 422 for an invalid or taken name, or internal visibility outside an organization
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
		'has_issues',
		'has_projects',
		'has_wiki',
		'has_downloads',
		'has_discussions',
		'is_template',
		'archived',
		'allow_squash_merge',
		'allow_merge_commit',
		'allow_rebase_merge',
		'allow_auto_merge',
		'delete_branch_on_merge',
		'allow_forking',
		'web_commit_signoff_required',
		'allow_update_branch',
		'use_squash_pr_title_as_default',
	] as const;
	for (const flag of flags) if (input[flag] !== undefined) next[flag] = input[flag] ? 1 : 0;
	mergeMessages(input, next);
	const security = input.security_and_analysis;
	const securityChange: SwitchChange = {};
	for (const [name, value] of Object.entries(security ?? {}))
		if (value) securityChange[name as keyof SwitchChange] = value.status === 'enabled';
	// An enforced code security configuration keeps what it sets (GitHub's enforcement).
	checkEnforcedChange(app, repo, securityChange);
	if (security?.advanced_security) next.advanced_security = security.advanced_security.status === 'enabled' ? 1 : 0;
	if (security?.dependabot_delegated_alert_dismissal) {
		next.delegated_alert_dismissal = security.dependabot_delegated_alert_dismissal.status === 'enabled' ? 1 : 0;
	}
	const securityBefore = securityAndAnalysis(app, repo);
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
		// Code search reads the default branch: a new one is indexed (later, by a background task).
		if (edited.default_branch) enqueueCodeIndex(app, updated.id);
		writeSwitches(app, updated.id, securityChange);
		const current = app.stores.repos.byId(updated.id) ?? updated;
		// GitHub's security_and_analysis webhook: the security features changed.
		if (JSON.stringify(securityAndAnalysis(app, current)) !== JSON.stringify(securityBefore))
			securityAndAnalysisChanged(app, current, securityBefore, actorId);
		return current;
	});
}

/**
 * Forks `source` into `target` (POST …/forks; the caller may create repositories there, which the
 * route checks). A private or internal source forks only when the repository allows forking
 * (allow_forking) and, in an organization, when members_can_fork_private_repositories is on; the
 * fork keeps the source's privacy (internal becomes private). GitHub answers a second request with
 * the fork the target already has.
 * @param options.now ISO timestamp
 * @returns the fork, and whether it existed already
 * @throws DomainError 403 when the source's settings forbid forking, 422 for a taken name
 */
export function forkRepository(
	app: App,
	source: { repo: RepositoryRow; owner: AccountRow },
	target: AccountRow,
	options: { name?: string; collaboratorId: number | null; now: string; actorId: number | null },
): { repo: RepositoryRow; existing: boolean } {
	if (
		source.owner.type === 'Organization' &&
		source.repo.visibility !== 'public' &&
		source.owner.members_can_fork_private_repositories !== 1
	) {
		throw forbidden('This organization does not allow private repository forking.');
	}
	// The repository's own allow_forking ("true to allow private forks"): it governs forks of private and internal repositories.
	if (source.repo.visibility !== 'public' && source.repo.allow_forking !== 1) throw forbidden('This repository does not allow forking.');
	const existing = app.stores.repos.forkOf(target.id, source.repo.id);
	if (existing) return { repo: existing, existing: true };
	const repo = createRepository(
		app,
		target,
		{
			name: options.name ?? source.repo.name,
			description: source.repo.description,
			homepage: source.repo.homepage,
			visibility: source.repo.visibility === 'internal' ? 'private' : source.repo.visibility,
		},
		{ collaboratorId: options.collaboratorId, now: options.now, forkOf: source.repo, actorId: options.actorId },
	);
	return { repo, existing: false };
}
