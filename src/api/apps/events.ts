/**
 * The events GitHub sends a GitHub App about its installations (webhook events `installation`:
 * created, deleted, suspend, unsuspend, new_permissions_accepted; `installation_repositories`:
 * added, removed), recorded through the domain-event log: delivered to the app's own hook only
 * (DomainEvent.toApp), and to the organization's audit log (integration_installation.*). The payload
 * is built when the event is recorded, so an installation deleted in the same change is still
 * described as it was.
 */
import type { App } from '../../app';
import { type DomainEvent, record } from '../../events/log';
import { sender } from '../../events/payloads';
import { nodeId } from '../../model/urls';
import type { RepositoryRow } from '../../model/rows';
import type { AccountRow } from '../../model/rows';
import { installation as renderInstallation } from './render';
import type { InstallationRow } from '../../model/rows';

/** A repository as installation payloads list it. */
function repositoryItem(repo: RepositoryRow, owner: AccountRow) {
	return {
		id: repo.id,
		node_id: nodeId('Repository', repo.id),
		name: repo.name,
		full_name: `${owner.login}/${repo.name}`,
		private: repo.visibility !== 'public',
	};
}

/** The repositories an installation reaches now (all of its account's, or those selected). */
function reached(app: App, row: InstallationRow): RepositoryRow[] {
	const all = app.stores.repos.forOwner(row.account_id);
	if (row.repository_selection === 'all') return all;
	const selected = new Set(app.stores.apps.selectedRepositoryIds(row.id));
	return all.filter((repo) => selected.has(repo.id));
}

/** The `installation` object of these payloads: the whole installation, as the REST API renders it. */
function installationObject(app: App, row: InstallationRow) {
	const target = app.stores.apps.byId(row.app_id)!;
	return renderInstallation(app.urls, row, target, app.stores.accounts.byId(row.account_id)!);
}

/**
 * Records an installation's event: delivered to the installation's app only (its hook), and to the
 * audit log of the account when it is an organization.
 * @param payload the webhook payload without `action`
 * @param audit the audit-log entry's fields
 */
function recordForApp(
	app: App,
	row: InstallationRow,
	account: AccountRow,
	event: Pick<DomainEvent, 'event' | 'action' | 'actorId'>,
	payload: Record<string, unknown>,
	audit: Record<string, unknown>,
): void {
	record(app, {
		...event,
		org: account.type === 'Organization' ? account : undefined,
		audit,
		toApp: { appId: row.app_id, installationId: row.id, webhook: () => payload },
	});
}

/**
 * Records `installation` with `action` for the installation as it is now (call before deleting it).
 * @param audit the audit-log fields (an organization's installations)
 */
export function recordInstallation(
	app: App,
	row: InstallationRow,
	action: 'created' | 'deleted' | 'suspend' | 'unsuspend' | 'new_permissions_accepted',
	actorId: number | null,
	audit?: Record<string, unknown>,
): void {
	const account = app.stores.accounts.byId(row.account_id)!;
	const payload = {
		installation: installationObject(app, row),
		...(action === 'created' || action === 'deleted'
			? { repositories: reached(app, row).map((repo) => repositoryItem(repo, account)) }
			: {}),
		requester: null,
		...sender(app, actorId),
	};
	const entry = audit ?? { installation_id: row.id, app: app.stores.apps.byId(row.app_id)!.slug };
	recordForApp(app, row, account, { event: 'installation', action, actorId }, payload, entry);
}

/**
 * Records `installation_repositories` (added or removed) for repositories an installation gained or lost.
 * @param selection the installation's repository_selection after the change
 */
export function recordInstallationRepositories(
	app: App,
	row: InstallationRow,
	action: 'added' | 'removed',
	repositoryIds: number[],
	selection: 'all' | 'selected',
	actorId: number | null,
): void {
	const account = app.stores.accounts.byId(row.account_id)!;
	const items = repositoryIds.flatMap((id) => {
		const repo = app.stores.repos.byId(id);
		return repo ? [repositoryItem(repo, account)] : [];
	});
	const payload = {
		installation: installationObject(app, row),
		repository_selection: selection,
		repositories_added: action === 'added' ? items : [],
		repositories_removed: action === 'removed' ? items : [],
		requester: null,
		...sender(app, actorId),
	};
	recordForApp(app, row, account, { event: 'installation_repositories', action, actorId }, payload, {
		installation_id: row.id,
		repository_selection: selection,
		repositories: repositoryIds,
	});
}
