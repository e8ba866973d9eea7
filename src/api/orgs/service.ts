/**
 * Creating organizations (`gitstead admin create-org`) and deleting them (DELETE /orgs/{org}).
 */
import type { App } from '../../app';
import { events } from '../../events/catalog';
import { createDefaultGroup } from '../runner-groups/service';
import { PermanentTaskError } from '../../jobs/tasks';
import { isoSeconds } from '../../time';
import { assertLogin, assertLoginFree } from '../users/service';
import type { AccountRow } from '../../model/rows';

/**
 * Creates an organization with `ownerId` as its first owner, and its Default runner group.
 * @throws DomainError 422 for an invalid or taken login.
 */
export function createOrganization(
	app: App,
	input: { login: string; ownerId: number; enterpriseId?: number | null; name?: string | null },
): AccountRow {
	assertLogin(input.login, 'Organization', 'login');
	return app.transaction(() => {
		assertLoginFree(app, input.login, 'Organization', 'login');
		const now = isoSeconds(app.clock());
		const id = app.stores.accounts.insert({
			login: input.login,
			type: 'Organization',
			name: input.name ?? null,
			enterpriseId: input.enterpriseId ?? null,
			now,
		});
		app.stores.memberships.insert({ orgId: id, userId: input.ownerId, role: 'admin', state: 'active', inviterId: null, now });
		// Its Default self-hosted runner group, as every organization has.
		createDefaultGroup(app, { org: id }, now);
		return app.stores.accounts.byId(id)!;
	});
}

/** Background task kind deleting the repositories of a large deleted organization (runOrganizationDeletionTask). */
export const ORG_DELETION_TASK = 'organization-deletion';
/** Organizations with at most this many repositories are deleted at once, in the request (about 0.4 ms each, measured). */
export const SYNC_DELETE_REPOSITORIES = 100;
/** Repositories deleted per transaction by the background task. */
export const DELETE_BATCH = 25;

/**
 * Deletes an organization (DELETE /orgs/{org}), inside the caller's transaction: `organization`
 * deleted is recorded first (its payload still has the organization), then the account row goes
 * and every row that names it cascades: teams, memberships, invitations, hooks, Actions settings,
 * runner groups and runners, and its repositories with their contents. Users' forks of its
 * repositories stay, without a parent, as on GitHub.
 *
 * An organization with more than SYNC_DELETE_REPOSITORIES repositories is gone at once all the
 * same, but its repositories are first parked (two statements) with a holder account nobody
 * belongs to (`deleted-organization-{id}`), private and without collaborators, and
 * ORG_DELETION_TASK deletes them DELETE_BATCH per transaction, then the holder: the writer is never
 * held for long.
 * @returns 'done', or 'queued' when repositories are left to the background task
 */
export function deleteOrganization(app: App, org: AccountRow, actorId: number | null): 'done' | 'queued' {
	events.orgDeleted(app, org, actorId);
	let result: 'done' | 'queued' = 'done';
	if (app.stores.orgs.repositoryCount(org.id) > SYNC_DELETE_REPOSITORIES) {
		const holderId = app.stores.accounts.insert({
			login: `deleted-organization-${org.id}`,
			type: 'Organization',
			now: isoSeconds(app.clock()),
		});
		app.stores.orgs.parkRepositories(org.id, holderId);
		app.tasks.enqueue(ORG_DELETION_TASK, { holderId });
		result = 'queued';
	}
	app.stores.accounts.removeOrganization(org.id);
	app.webhooks.invalidate();
	return result;
}

/**
 * Handler of ORG_DELETION_TASK: deletes the holder's repositories DELETE_BATCH per transaction
 * (each cascading to its contents), yielding between batches, then the holder.
 * @throws PermanentTaskError for a malformed payload
 */
export async function runOrganizationDeletionTask(app: App, payload: unknown): Promise<void> {
	const holderId = (payload as { holderId?: unknown } | null)?.holderId;
	if (typeof holderId !== 'number') throw new PermanentTaskError('malformed payload');
	for (;;) {
		const finished = app.transaction(() => {
			const ids = app.stores.orgs.repositoryIds(holderId, DELETE_BATCH);
			for (const id of ids) app.stores.repos.remove(id);
			if (ids.length < DELETE_BATCH) app.stores.accounts.removeOrganization(holderId);
			return ids.length < DELETE_BATCH;
		});
		if (finished) return;
		await new Promise((resolve) => setImmediate(resolve));
	}
}
