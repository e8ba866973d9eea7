/**
 * Branches and their protection, with GitHub's rules and messages: finding a branch (404 "Branch
 * not found"), its protection (404 "Branch not protected"), saving protection with the
 * branch_protection_rule event, and renaming a branch (the ref moves, its protection with it, the
 * default branch follows). Every function runs in the caller's transaction.
 */
import type { App } from '../../app';
import { invalidField, notFound, unprocessable } from '../../model/errors';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import { recordCreateRef, recordDeleteRef } from '../git/events';
import { isValidRefName } from '../git/objects';
import type { RepoView } from '../git/render';
import { protectionRule } from './render';
import type { ActorIds, ProtectionRow, ProtectionSettings, ReviewSettings, StatusChecksSettings } from './store';

/** GitHub's answers for a missing branch and an unprotected one. */
export const BRANCH_NOT_FOUND = 'Branch not found';
export const BRANCH_NOT_PROTECTED = 'Branch not protected';

/**
 * The branch `name` of the repository: its head commit.
 * @throws DomainError 404 "Branch not found"
 */
export function requireBranch(app: App, repoId: number, name: string): { name: string; sha: string } {
	const ref = app.stores.git.ref(repoId, `refs/heads/${name}`);
	if (!ref) throw notFound(BRANCH_NOT_FOUND);
	return { name, sha: ref.sha };
}

/**
 * The protection of an existing branch.
 * @throws DomainError 404 "Branch not found", "Branch not protected"
 */
export function requireProtection(app: App, repoId: number, name: string): ProtectionRow {
	requireBranch(app, repoId, name);
	const row = app.stores.branches.protection(repoId, name);
	if (!row) throw notFound(BRANCH_NOT_PROTECTED);
	return row;
}

/** Who a request names in a restriction or allowance: logins, team slugs, app slugs. */
export interface ActorNames {
	users?: string[];
	teams?: string[];
	apps?: string[];
}

/**
 * Resolves logins, team slugs (of the repository's organization) and app slugs to ids.
 * @param field errors[].field prefix, e.g. 'restrictions'
 * @throws DomainError 422 for a user repository (GitHub: only organization repositories restrict
 *   users and teams) or a name that names nothing
 */
export function resolveActors(app: App, view: RepoView, names: ActorNames, field: string): ActorIds {
	const { stores } = app;
	const any = (names.users?.length ?? 0) + (names.teams?.length ?? 0) + (names.apps?.length ?? 0) > 0;
	if (view.owner.type !== 'Organization' && any)
		throw unprocessable('Only organization repositories can have users and team restrictions');
	const ids: ActorIds = { users: [], teams: [], apps: [] };
	for (const login of names.users ?? []) {
		const user = stores.accounts.user(login);
		if (!user) throw invalidField('Branch', `${field}.users`, `User "${login}" could not be found.`);
		if (!ids.users.includes(user.id)) ids.users.push(user.id);
	}
	for (const slug of names.teams ?? []) {
		const team = stores.teams.bySlug(view.owner.id, slug.toLowerCase());
		if (!team) throw invalidField('Branch', `${field}.teams`, `Team "${slug}" could not be found in ${view.owner.login}.`);
		if (!ids.teams.includes(team.id)) ids.teams.push(team.id);
	}
	for (const slug of names.apps ?? []) {
		const row = stores.apps.bySlug(slug);
		if (!row) throw invalidField('Branch', `${field}.apps`, `App "${slug}" could not be found.`);
		if (!ids.apps.includes(row.id)) ids.apps.push(row.id);
	}
	return ids;
}

/**
 * Saves a branch's protection and records branch_protection_rule `created` (it was unprotected)
 * or `edited` (with `changes`: the rule fields that changed, their previous values), if anything
 * changed.
 * @param now ISO timestamp
 */
export function saveProtection(
	app: App,
	view: RepoView,
	branch: string,
	settings: ProtectionSettings,
	now: string,
	actorId: number | null,
): ProtectionRow {
	const before = app.stores.branches.protection(view.repo.id, branch);
	if (before && JSON.stringify(before.settings) === JSON.stringify(settings)) return before;
	const row = app.stores.branches.saveProtection(view.repo.id, branch, settings, now);
	const rule = protectionRule(app, row);
	let changes: Record<string, { from: unknown }> | undefined;
	if (before) {
		const old = protectionRule(app, before) as Record<string, unknown>;
		changes = {};
		for (const [key, value] of Object.entries(rule)) {
			if (key !== 'updated_at' && JSON.stringify(old[key]) !== JSON.stringify(value)) changes[key] = { from: old[key] };
		}
	}
	record(app, {
		event: 'branch_protection_rule',
		action: before ? 'edited' : 'created',
		actorId,
		repo: view.repo,
		webhook: () => ({ rule, ...(changes ? { changes } : {}), ...inRepository(app, view.repo, actorId) }),
	});
	return row;
}

/** Removes a branch's protection, recording branch_protection_rule `deleted`. @returns false when it had none */
export function removeProtection(app: App, view: RepoView, branch: string, actorId: number | null): boolean {
	const before = app.stores.branches.protection(view.repo.id, branch);
	if (!before) return false;
	app.stores.branches.removeProtection(view.repo.id, branch);
	const rule = protectionRule(app, before);
	record(app, {
		event: 'branch_protection_rule',
		action: 'deleted',
		actorId,
		repo: view.repo,
		webhook: () => ({ rule, ...inRepository(app, view.repo, actorId) }),
	});
	return true;
}

/** Required status checks as a request gives them: `checks` (with the app expected), or `contexts` (any app). */
export interface StatusChecksInput {
	strict?: boolean;
	contexts?: string[];
	checks?: Array<{ context: string; app_id?: number | null }>;
}

/** Required pull request reviews as a request gives them (people by login, team slug, app slug). */
export interface ReviewsInput {
	dismissal_restrictions?: ActorNames;
	dismiss_stale_reviews?: boolean;
	require_code_owner_reviews?: boolean;
	/** 0–6 approvals. */
	required_approving_review_count?: number;
	require_last_push_approval?: boolean;
	bypass_pull_request_allowances?: ActorNames;
}

/** A whole protection as PUT …/branches/{branch}/protection takes it (null: that part off). */
export interface ProtectionInput {
	required_status_checks: (StatusChecksInput & { strict: boolean }) | null;
	enforce_admins: boolean | null;
	required_pull_request_reviews: ReviewsInput | null;
	restrictions: { users: string[]; teams: string[]; apps?: string[] } | null;
	required_linear_history?: boolean | null;
	allow_force_pushes?: boolean | null;
	allow_deletions?: boolean | null;
	block_creations?: boolean | null;
	required_conversation_resolution?: boolean | null;
	lock_branch?: boolean | null;
	allow_fork_syncing?: boolean | null;
}

/** Contexts and checks as stored: `checks` wins when given (each context once), else `contexts` (any app), else `current`'s. */
export function statusChecks(input: StatusChecksInput, current: StatusChecksSettings | null): StatusChecksSettings {
	const strict = input.strict ?? current?.strict ?? false;
	if (input.checks !== undefined) {
		const checks = input.checks.map((c) => ({ context: c.context, app_id: c.app_id ?? null }));
		return { strict, contexts: [...new Set(checks.map((c) => c.context))], checks };
	}
	if (input.contexts !== undefined) {
		const unique = [...new Set(input.contexts)];
		return { strict, contexts: unique, checks: unique.map((context) => ({ context, app_id: null })) };
	}
	return { strict, contexts: current?.contexts ?? [], checks: current?.checks ?? [] };
}

/**
 * Review settings as stored: the input's fields over `current`'s (one approval by default).
 * @throws DomainError 422 for actors that name nothing (resolveActors)
 */
export function reviewSettings(app: App, view: RepoView, input: ReviewsInput, current: ReviewSettings | null): ReviewSettings {
	const actors = (given: ActorNames | undefined, field: string, was: ActorIds | null) => {
		if (given === undefined) return was;
		const ids = resolveActors(app, view, given, field);
		return ids.users.length + ids.teams.length + ids.apps.length ? ids : null;
	};
	return {
		dismiss_stale_reviews: input.dismiss_stale_reviews ?? current?.dismiss_stale_reviews ?? false,
		require_code_owner_reviews: input.require_code_owner_reviews ?? current?.require_code_owner_reviews ?? false,
		required_approving_review_count: input.required_approving_review_count ?? current?.required_approving_review_count ?? 1,
		require_last_push_approval: input.require_last_push_approval ?? current?.require_last_push_approval ?? false,
		dismissal_restrictions: actors(
			input.dismissal_restrictions,
			'required_pull_request_reviews.dismissal_restrictions',
			current?.dismissal_restrictions ?? null,
		),
		bypass_pull_request_allowances: actors(
			input.bypass_pull_request_allowances,
			'required_pull_request_reviews.bypass_pull_request_allowances',
			current?.bypass_pull_request_allowances ?? null,
		),
	};
}

/**
 * Replaces the protection of an existing branch (PUT …/branches/{branch}/protection, GraphQL's
 * branch protection rule mutations): the whole rule from `input`, required signatures kept as
 * they were unless `requiredSignatures` says (REST sets them through their own endpoints).
 * Records branch_protection_rule created or edited (saveProtection).
 * @param options.now ISO timestamp
 * @throws DomainError 404 "Branch not found"; 422 for actors that name nothing or restrictions on a user's repository
 */
export function replaceProtection(
	app: App,
	view: RepoView,
	branch: string,
	input: ProtectionInput,
	options: { now: string; actorId: number | null; requiredSignatures?: boolean },
): ProtectionRow {
	const name = requireBranch(app, view.repo.id, branch).name;
	const current = app.stores.branches.protection(view.repo.id, name)?.settings ?? null;
	const settings: ProtectionSettings = {
		required_status_checks: input.required_status_checks ? statusChecks(input.required_status_checks, null) : null,
		enforce_admins: input.enforce_admins === true,
		required_pull_request_reviews: input.required_pull_request_reviews
			? reviewSettings(app, view, input.required_pull_request_reviews, null)
			: null,
		restrictions: input.restrictions ? resolveActors(app, view, input.restrictions, 'restrictions') : null,
		required_signatures: options.requiredSignatures ?? current?.required_signatures ?? false,
		required_linear_history: input.required_linear_history === true,
		allow_force_pushes: input.allow_force_pushes === true,
		allow_deletions: input.allow_deletions === true,
		block_creations: input.block_creations === true,
		required_conversation_resolution: input.required_conversation_resolution === true,
		lock_branch: input.lock_branch === true,
		allow_fork_syncing: input.allow_fork_syncing === true,
	};
	return saveProtection(app, view, name, settings, options.now, options.actorId);
}

/**
 * Renames a branch (POST …/branches/{branch}/rename): the reference moves to the new name with its
 * protection; the repository's default branch follows when it was the default; the old name
 * redirects to the new one (GET …/branches/<old>: 301) until a branch takes it. Records `create`
 * of the new name and `delete` of the old one (with their pushes), as the two reference changes;
 * open pull requests into the branch are retargeted, those from it closed (app.branchRenameFollowers:
 * src/api/pulls/follow.ts followRename).
 * @param now ISO timestamp
 * @throws DomainError 404 "Branch not found"; 422 for an invalid or taken name
 * @returns the repository row after the rename
 */
export function renameBranch(app: App, view: RepoView, from: string, to: string, now: string, actorId: number | null) {
	const { stores } = app;
	const branch = requireBranch(app, view.repo.id, from);
	const name = to.replace(/^refs\/heads\//, '');
	if (!isValidRefName(`refs/heads/${name}`)) throw invalidField('Branch', 'new_name', `${to} is not a valid branch name.`);
	if (name === from) return view.repo;
	if (stores.git.ref(view.repo.id, `refs/heads/${name}`))
		throw invalidField('Branch', 'new_name', `A branch named ${name} already exists.`, 'already_exists');
	stores.git.deleteRef(view.repo.id, `refs/heads/${from}`);
	stores.git.insertRef(view.repo.id, `refs/heads/${name}`, branch.sha, now);
	stores.branches.recordRename(view.repo.id, from, name);
	if (stores.branches.protection(view.repo.id, from)) {
		stores.branches.removeProtection(view.repo.id, name);
		stores.branches.renameProtection(view.repo.id, from, name, now);
	}
	let repo = view.repo;
	if (repo.default_branch === from) repo = stores.repos.update({ ...repo, default_branch: name, updated_at: now });
	recordCreateRef(app, repo, `refs/heads/${name}`, branch.sha, actorId);
	recordDeleteRef(app, repo, `refs/heads/${from}`, branch.sha, actorId);
	for (const follow of app.branchRenameFollowers) follow(app, repo, from, name, now, actorId);
	return repo;
}
