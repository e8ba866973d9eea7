/**
 * Rules of collaborators and repository invitations (GitHub's "Collaborators" and "Repository
 * invitations" REST docs):
 * - adding a user who is not yet a collaborator invites them (an invitation, open 7 days); an
 *   organization member, or a user who already is a direct collaborator, is added (or their
 *   permission changed) at once;
 * - accepting an invitation makes the invitee a direct collaborator (repository_collaborators, the
 *   table the access rules read) and deletes the invitation; declining or revoking deletes it;
 * - personal repositories know read, write and admin only; an organization member may not be given
 *   less than the organization's base permission;
 * - removing a collaborator cancels the invitations they sent and deletes their forks of a private
 *   repository they no longer read.
 * Every change records its event (member added/edited/removed with the MemberEvent feed entry,
 * repository_invitation created with the invitee's notification) in the transaction of the change.
 */
import type { App } from '../../app';
import { isoSeconds } from '../../time';
import { forbidden, invalidField, notFound, unprocessable } from '../../model/errors';
import { basePermission, roleName, strongest, type RepoPermission } from '../../model/repo-permissions';
import { events } from '../../events/catalog';
import { deleteForksWithoutAccess } from '../repos/service';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { unassignEverywhere } from '../issues/unassign';
import { recordStar } from '../starring/events';
import { recordInvitation } from './events';
import { permissionRank, rankPermission, type GrantScope, type InvitationRow } from './store';

/** How long an invitation may be accepted: GitHub's 7 days (milliseconds). */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
/** GitHub's cap: 50 invitations to a repository per 24 hours (organization members added at once do not count). */
export const INVITATIONS_PER_DAY = 50;
const DAY_MS = 24 * 3600 * 1000;

/** The grant sources of a repository, for the collaborator queries. */
export function grantScope(repo: RepositoryRow, owner: AccountRow): GrantScope {
	if (owner.type !== 'Organization') return { repoId: repo.id, orgId: null, ownerId: owner.id, memberRank: 0 };
	const base = basePermission(owner.default_repository_permission);
	let memberRank = base ? permissionRank(base) : 0;
	if (repo.visibility === 'internal') memberRank = Math.max(memberRank, 1);
	return { repoId: repo.id, orgId: owner.id, ownerId: null, memberRank };
}

/**
 * A user's role on the repository from its grants (direct, teams, organization, ownership), null
 * without any: what makes them a collaborator (GET …/collaborators/{username} answers 204).
 */
export function grantedPermission(app: App, repo: RepositoryRow, owner: AccountRow, userId: number): RepoPermission | null {
	const row = app.stores.collaborators.grant(grantScope(repo, owner), userId);
	return row ? rankPermission(row.rank) : null;
}

/**
 * Refuses a role a repository cannot give: personal repositories have read, write and admin only.
 * @throws DomainError 422
 */
export function assertPermissionFits(owner: AccountRow, permission: RepoPermission, field: string): void {
	if (owner.type !== 'Organization' && (permission === 'triage' || permission === 'maintain')) {
		throw invalidField(
			'Repository',
			field,
			`${roleName(permission)} is not a valid permission for a repository owned by a personal account`,
			'custom',
		);
	}
}

/** What PUT …/collaborators/{username} did: an invitation (201), or a direct change (204). */
export type AddResult = { invitation: InvitationRow } | { invitation: null };

/**
 * Adds `user` to the repository with `permission`, or invites them (GitHub's add-a-repository-collaborator).
 * @param now epoch milliseconds
 * @throws DomainError 404 (an organization, not a user), 422 (the owner, a role the repository cannot
 *   give, less than the base permission for a member, a 51st invitation to the repository in 24 hours), 403 (the enterprise allows no outside collaborators)
 */
export function addCollaborator(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	user: AccountRow,
	permission: RepoPermission,
	actorId: number | null,
	now: number,
	roleId: number | null = null,
): AddResult {
	const { stores } = app;
	const at = isoSeconds(now);
	if (user.type !== 'User') throw notFound();
	if (owner.id === user.id) throw invalidField('Repository', 'collaborator', 'Repository owner cannot be a collaborator', 'custom');
	assertPermissionFits(owner, permission, 'permission');
	const current = stores.repos.collaboratorPermission(repo.id, user.id);
	const member = owner.type === 'Organization' && stores.memberships.get(owner.id, user.id)?.state === 'active';
	if (member) {
		const base = basePermission(owner.default_repository_permission);
		if (base && permissionRank(permission) < permissionRank(base)) {
			throw unprocessable(`Cannot assign ${user.login} permission of ${roleName(permission)}`);
		}
	}
	if (current || member) {
		if (current === permission && stores.repos.collaboratorRole(repo.id, user.id) === roleId) return { invitation: null };
		stores.repos.setCollaborator(repo.id, user.id, permission, at, roleId);
		if (current) events.member(app, 'edited', repo, user, { from: current, to: permission }, actorId);
		else events.member(app, 'added', repo, user, { to: permission }, actorId);
		return { invitation: null };
	}
	if (owner.type === 'Organization') assertOutsideCollaboratorsAllowed(app, owner);
	const pending = stores.collaborators.invitationOf(repo.id, user.id);
	if (pending && pending.expires_at > at) {
		if (pending.permission !== permission || pending.role_id !== roleId)
			stores.collaborators.setPermission(pending.id, permission, roleId);
		return { invitation: { ...pending, permission, role_id: roleId } };
	}
	if (stores.collaborators.sentSince(repo.id, isoSeconds(now - DAY_MS)) >= INVITATIONS_PER_DAY) {
		throw invalidField(
			'RepositoryInvitation',
			'invitee',
			`You can only send ${INVITATIONS_PER_DAY} invitations to a repository in 24 hours`,
			'custom',
		);
	}
	// An expired invitation is replaced by a new one (a new id, a new notification).
	if (pending) stores.collaborators.removeInvitation(pending.id);
	const row = stores.collaborators.insertInvitation({
		repo_id: repo.id,
		invitee_id: user.id,
		// The user, or an app's bot account, who invites.
		inviter_id: actorId,
		permission,
		role_id: roleId,
		created_at: at,
		expires_at: isoSeconds(now + INVITATION_LIFETIME_MS),
	});
	recordInvitation(app, repo, owner, row, actorId);
	return { invitation: row };
}

/** @throws DomainError 403 when the organization's enterprise allows no outside collaborators. */
function assertOutsideCollaboratorsAllowed(app: App, org: AccountRow): void {
	const enterprise = org.enterprise_id !== null ? app.stores.enterprises.byId(org.enterprise_id) : undefined;
	if (enterprise && enterprise.allow_outside_collaborators === 0) {
		throw forbidden(`The enterprise ${enterprise.slug} enforces a policy that does not allow outside collaborators.`);
	}
}

/**
 * Removes `user`'s direct access (GitHub's remove-a-repository-collaborator): cancels the
 * invitations they sent to the repository, records member removed, unassigns them from the
 * repository's issues (src/api/issues/unassign.ts), unstars the repository for
 * them, and deletes their forks of a private repository they can no longer read. A user without a direct grant changes nothing.
 * @param now epoch milliseconds of the change (default: the app's clock)
 * @returns whether a direct grant was removed
 */
export function removeCollaborator(
	app: App,
	repo: RepositoryRow,
	owner: AccountRow,
	user: AccountRow,
	actorId: number | null,
	now = app.clock(),
): boolean {
	const { stores } = app;
	stores.collaborators.removeSentBy(repo.id, user.id);
	if (!stores.collaborators.removeCollaborator(repo.id, user.id)) return false;
	events.member(app, 'removed', repo, user, {}, actorId);
	// GitHub unassigns them from the repository's issues and pull requests.
	unassignEverywhere(app, repo, owner, user.id, actorId, now);
	// GitHub unstars the repository for them (star deleted, as if they had unstarred it).
	if (stores.stars.unstar(user.id, repo.id)) recordStar(app, 'deleted', repo, null, user.id);
	deleteForksWithoutAccess(app, owner, actorId);
	return true;
}

/**
 * Accepts an invitation: the invitee becomes a direct collaborator with the invitation's permission
 * (or keeps a stronger direct grant), the invitation is deleted, and member added is recorded with
 * the inviter as its actor (who added them; the invitee when the inviter is gone).
 * @param now epoch milliseconds
 * @throws DomainError 404 when the invitation is not the user's, or has expired
 */
export function acceptInvitation(app: App, id: number, user: AccountRow, now: number): void {
	const { stores } = app;
	const at = isoSeconds(now);
	const row = openInvitation(app, id, user, at);
	const repo = stores.repos.byId(row.repo_id)!;
	const current = stores.repos.collaboratorPermission(repo.id, user.id);
	const permission = strongest(current, row.permission)!;
	// The invitation's custom role comes with it unless a stronger direct grant stays.
	stores.repos.setCollaborator(
		repo.id,
		user.id,
		permission,
		at,
		permission === row.permission ? row.role_id : stores.repos.collaboratorRole(repo.id, user.id),
	);
	stores.collaborators.removeInvitation(row.id);
	if (!current) events.member(app, 'added', repo, user, { to: permission }, row.inviter_id ?? user.id);
	else if (current !== permission) events.member(app, 'edited', repo, user, { from: current, to: permission }, row.inviter_id ?? user.id);
}

/**
 * Declines an invitation (deletes it; GitHub reports nothing).
 * @param now epoch milliseconds
 * @throws DomainError 404 when the invitation is not the user's, or has expired
 */
export function declineInvitation(app: App, id: number, user: AccountRow, now: number): void {
	const row = openInvitation(app, id, user, isoSeconds(now));
	app.stores.collaborators.removeInvitation(row.id);
}

/** The user's open invitation {id}. @param at ISO @throws DomainError 404 */
function openInvitation(app: App, id: number, user: AccountRow, at: string): InvitationRow {
	const row = app.stores.collaborators.invitation(id);
	if (!row || row.invitee_id !== user.id || row.expires_at <= at) throw notFound();
	return row;
}
