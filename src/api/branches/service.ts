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
import type { ActorIds, ProtectionRow, ProtectionSettings } from './store';
import { followRename } from '../pulls/follow';

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

/**
 * Renames a branch (POST …/branches/{branch}/rename): the reference moves to the new name with its
 * protection; the repository's default branch follows when it was the default; the old name
 * redirects to the new one (GET …/branches/<old>: 301) until a branch takes it. Records `create`
 * of the new name and `delete` of the old one (with their pushes), as the two reference changes;
 * open pull requests into the branch are retargeted, those from it closed (src/api/pulls/follow.ts).
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
	followRename(app, repo, from, name, now, actorId);
	return repo;
}
