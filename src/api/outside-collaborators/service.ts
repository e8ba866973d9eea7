/**
 * Outside collaborators: converting a member, removing
 * a collaborator from every repository of the organization.
 */
import type { App } from '../../app';
import { forbidden, PermanentTaskError } from '../../model/errors';
import { assertNotLastOwner } from '../members/service';
import { strongest, type RepoPermission } from '../../model/repo-permissions';
import { deleteForksWithoutAccess } from '../repos/service';
import { teamScope } from '../teams/service';
import type { AccountRow } from '../../model/rows';
import { events } from '../../events/catalog';

/** Background task kind of an asynchronous conversion (PUT … {"async": true}). */
export const CONVERT_TASK = 'convert-member-to-outside-collaborator';

/**
 * The conditions of a conversion: the user is an active member, not the last owner, and the
 * enterprise (if any) allows outside collaborators.
 * @throws DomainError 403 naming the condition that fails.
 */
export function assertConvertible(app: App, org: AccountRow, user: AccountRow): void {
	const membership = app.stores.memberships.get(org.id, user.id);
	if (membership?.state !== 'active') throw forbidden(`${user.login} is not a member of ${org.login}.`);
	assertNotLastOwner(app, org, user.id, 'convert');
	const enterprise = org.enterprise_id !== null ? app.stores.enterprises.byId(org.enterprise_id) : undefined;
	if (enterprise && enterprise.allow_outside_collaborators === 0) {
		throw forbidden(`The enterprise ${enterprise.slug} enforces a policy that does not allow outside collaborators.`);
	}
}

/**
 * Converts a member to an outside collaborator in one transaction: the user leaves the organization
 * and its teams and keeps exactly the repository access their current team memberships granted, as
 * direct collaborator grants.
 * @param now ISO timestamp
 * @throws DomainError 403 when a condition of assertConvertible fails.
 */
export function convertToOutsideCollaborator(app: App, org: AccountRow, user: AccountRow, now: string, actorId: number | null): void {
	app.transaction(() => {
		assertConvertible(app, org, user);
		const role = app.stores.memberships.get(org.id, user.id)!.role;
		const grants = new Map<number, RepoPermission>();
		for (const { repo_id, permission } of app.stores.teams.userTeamGrants(org.id, user.id)) {
			grants.set(repo_id, strongest(grants.get(repo_id), permission)!);
		}
		app.stores.repos.removeCollaborations(user.id, org.id);
		for (const [repoId, permission] of grants) {
			app.stores.repos.setCollaborator(repoId, user.id, permission, now);
			events.member(app, 'added', app.stores.repos.byId(repoId)!, user, { to: permission }, actorId);
		}
		app.stores.memberships.removeTeamMemberships(org.id, user.id);
		app.stores.memberships.remove(org.id, user.id);
		events.orgMember(app, 'member_removed', org, user, role, actorId);
		deleteForksWithoutAccess(app, org, actorId);
	});
	app.cache.invalidate(teamScope(org.id));
}

/** Handler of CONVERT_TASK: payload {orgId, userId, now}. */
export function runConversionTask(app: App, payload: unknown): void {
	const { orgId, userId, now, actorId } = payload as { orgId: number; userId: number; now: string; actorId: number | null };
	const org = app.stores.accounts.byId(orgId);
	const user = app.stores.accounts.byId(userId);
	if (!org || !user) throw new PermanentTaskError('the organization or the user no longer exists');
	try {
		convertToOutsideCollaborator(app, org, user, now, actorId ?? null);
	} catch (error) {
		throw new PermanentTaskError((error as Error).message);
	}
}
