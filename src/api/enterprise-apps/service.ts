/**
 * Organization installations of an enterprise (GitHub's enterprise-admin/organization-installations):
 * installing an app on an organization of the enterprise with a repository selection (all, selected
 * or none), uninstalling it, and changing the repositories it reaches. The selection is enforced:
 * installation tokens of a 'selected' installation reach only its listed repositories
 * (installation_repositories, read at authentication in src/auth/principal.ts); 'none' is stored as
 * 'selected' with none listed, so it reaches no repository. Every change records a domain event
 * (installation created/deleted, installation_repositories added/removed; the audit log derives
 * integration_installation.*) and forgets cached principals, so tokens see the new selection at once.
 */
import type { App } from '../../app';
import { invalidField, notFound, unprocessable } from '../../model/errors';
import type { InstallationRow, RepositoryRow, AccountRow } from '../../model/rows';
import { recordInstallation, recordInstallationRepositories } from '../apps/events';
import { uninstallApp } from '../apps/service';

/** GitHub's limit of repositories named in one call. */
export const MAX_REPOSITORIES_PER_CALL = 50;

/**
 * The organization's repositories named (simple names, any case), each once.
 * @throws DomainError 422 naming the first that is not a repository of the organization
 */
export function repositoriesNamed(app: App, org: AccountRow, names: string[]): RepositoryRow[] {
	const out = new Map<number, RepositoryRow>();
	for (const name of names) {
		const repo = app.stores.repos.byOwnerAndName(org.id, name);
		if (!repo) throw invalidField('Installation', 'repositories', `${org.login} has no repository named "${name}"`);
		out.set(repo.id, repo);
	}
	return [...out.values()];
}

/** The repositories an installation reaches: null for all of its organization's. */
function reached(app: App, installation: InstallationRow): Set<number> | null {
	return installation.repository_selection === 'all' ? null : new Set(app.stores.apps.selectedRepositoryIds(installation.id));
}

/** Records installation_repositories events for a change of what the installation reaches. */
function recordSelectionChange(
	app: App,
	org: AccountRow,
	installation: InstallationRow,
	before: Set<number> | null,
	actorId: number | null,
): void {
	const current = app.stores.apps.installation(installation.id)!;
	const after = reached(app, current);
	const event = (action: 'added' | 'removed', ids: number[], selection: 'all' | 'selected') =>
		recordInstallationRepositories(app, current, action, ids, selection, actorId);
	if (after === null) {
		if (before !== null)
			event(
				'added',
				app.stores.repos
					.forOwner(org.id)
					.map((r) => r.id)
					.filter((id) => !before.has(id)),
				'all',
			);
	} else if (before === null) {
		event(
			'removed',
			app.stores.repos
				.forOwner(org.id)
				.map((r) => r.id)
				.filter((id) => !after.has(id)),
			'selected',
		);
	} else {
		const added = [...after].filter((id) => !before.has(id));
		const removed = [...before].filter((id) => !after.has(id));
		if (added.length) event('added', added, 'selected');
		if (removed.length) event('removed', removed, 'selected');
	}
	// Cached principals carry the old selection.
	app.authenticator.clear();
}

/**
 * Installs the app with `clientId` on the organization (POST …/installations): a new installation
 * with the app's permissions, or the existing one unsuspended; the selection given applied.
 * @param now ISO timestamp
 * @returns the installation and whether it is new
 * @throws DomainError 422 for an unknown client_id, repositories with 'all' or 'none', none with
 *   'selected', more than 50, or names that are not repositories of the organization
 */
export function installOnOrganization(
	app: App,
	org: AccountRow,
	input: { client_id: string; repository_selection: 'all' | 'selected' | 'none'; repositories?: string[] },
	actorId: number | null,
	now: string,
): { installation: InstallationRow; created: boolean } {
	const target = app.stores.apps.byClientId(input.client_id);
	if (!target) throw invalidField('Installation', 'client_id', `no GitHub App has the client ID "${input.client_id}"`);
	const repos = checkSelection(app, org, input.repository_selection, input.repositories);
	return app.transaction(() => {
		const existing = app.stores.apps.installationOn(target.id, org.id);
		const before = existing ? reached(app, existing) : null;
		const installation = existing ?? app.stores.apps.install(target.id, org.id, target.permissions, now);
		if (existing?.suspended_at) app.stores.apps.setSuspended(existing.id, null, now);
		applySelection(app, installation, input.repository_selection, repos, now);
		if (!existing) {
			recordInstallation(app, app.stores.apps.installation(installation.id)!, 'created', actorId, {
				installation_id: installation.id,
				app: target.slug,
				repository_selection: input.repository_selection,
			});
			app.authenticator.clear();
		} else recordSelectionChange(app, org, installation, before, actorId);
		return { installation: app.stores.apps.installation(installation.id)!, created: !existing };
	});
}

/**
 * Checks a selection and the repositories named with it.
 * @throws DomainError 422 (see installOnOrganization)
 */
function checkSelection(app: App, org: AccountRow, selection: 'all' | 'selected' | 'none', names: string[] | undefined): RepositoryRow[] {
	if (selection === 'selected') {
		if (!names?.length)
			throw invalidField(
				'Installation',
				'repositories',
				"at least one repository is required when repository_selection is 'selected'",
				'missing_field',
			);
	} else if (names?.length) {
		throw invalidField(
			'Installation',
			'repositories',
			`repositories may only be given when repository_selection is 'selected', not '${selection}'`,
		);
	}
	if ((names?.length ?? 0) > MAX_REPOSITORIES_PER_CALL) {
		throw invalidField('Installation', 'repositories', `at most ${MAX_REPOSITORIES_PER_CALL} repositories may be given at a time`);
	}
	return repositoriesNamed(app, org, names ?? []);
}

/** Stores a selection: 'all'; 'selected' exactly `repos`; 'none' selected with nothing listed. */
function applySelection(
	app: App,
	installation: InstallationRow,
	selection: 'all' | 'selected' | 'none',
	repos: RepositoryRow[],
	now: string,
): void {
	const { apps } = app.stores;
	if (selection === 'all') {
		apps.setSelection(installation.id, 'all', now);
		return;
	}
	apps.setSelection(installation.id, 'selected', now);
	const keep = new Set(repos.map((repo) => repo.id));
	apps.removeRepositories(
		installation.id,
		apps.selectedRepositoryIds(installation.id).filter((id) => !keep.has(id)),
	);
	apps.addRepositories(installation.id, [...keep]);
}

/**
 * The installation {installation_id} on the organization.
 * @throws DomainError 404 when it is not an installation on that organization
 */
export function organizationInstallation(app: App, org: AccountRow, id: number | null): InstallationRow {
	const installation = id === null ? undefined : app.stores.apps.installation(id);
	if (!installation || installation.account_id !== org.id) throw notFound();
	return installation;
}

/** Uninstalls (DELETE …/installations/{installation_id}); its tokens go with it. */
export function uninstallFromOrganization(app: App, installation: InstallationRow, actorId: number | null): void {
	uninstallApp(app, installation, actorId);
}

/**
 * Toggles between all and selected repositories (PATCH …/repositories): 'selected' needs at least
 * one repository and reaches exactly those; 'all' takes none.
 * @param now ISO timestamp
 * @throws DomainError 422 (see installOnOrganization)
 */
export function changeSelection(
	app: App,
	org: AccountRow,
	installation: InstallationRow,
	input: { repository_selection: 'all' | 'selected'; repositories?: string[] },
	actorId: number | null,
	now: string,
): InstallationRow {
	const repos = checkSelection(app, org, input.repository_selection, input.repositories);
	return app.transaction(() => {
		const before = reached(app, installation);
		applySelection(app, installation, input.repository_selection, repos, now);
		recordSelectionChange(app, org, installation, before, actorId);
		return app.stores.apps.installation(installation.id)!;
	});
}

/**
 * Grants (add) or removes repositories of a 'selected' installation (PATCH …/repositories/add and
 * …/remove), at most 50 at a time; names already granted (add) or not granted (remove) change nothing.
 * @param now ISO timestamp
 * @throws DomainError 422 for an installation on all repositories, no or more than 50 names, names
 *   that are not repositories of the organization, or removing the last repository
 */
export function changeRepositories(
	app: App,
	org: AccountRow,
	installation: InstallationRow,
	action: 'add' | 'remove',
	names: string[],
	actorId: number | null,
	now: string,
): void {
	if (installation.repository_selection === 'all') {
		throw unprocessable(
			`The installation has access to all repositories of ${org.login}; ${action === 'add' ? 'add' : 'remove'} repositories only on an installation with selected repositories.`,
		);
	}
	if (names.length === 0) throw invalidField('Installation', 'repositories', 'at least one repository is required', 'missing_field');
	if (names.length > MAX_REPOSITORIES_PER_CALL)
		throw invalidField('Installation', 'repositories', `at most ${MAX_REPOSITORIES_PER_CALL} repositories may be given at a time`);
	const repos = repositoriesNamed(app, org, names);
	app.transaction(() => {
		const before = reached(app, installation);
		const ids = repos.map((repo) => repo.id);
		if (action === 'add') app.stores.apps.addRepositories(installation.id, ids);
		else {
			const left = [...before!].filter((id) => !ids.includes(id));
			if (left.length === 0)
				throw unprocessable('You cannot remove the last repository of an installation with selected repositories.');
			app.stores.apps.removeRepositories(installation.id, ids);
		}
		app.stores.apps.touch(installation.id, now);
		recordSelectionChange(app, org, installation, before, actorId);
	});
}
