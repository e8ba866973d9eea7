/**
 * Shapes of the collaborators API: GitHub's `collaborator` (a simple user with `permissions`
 * {admin, maintain, push, triage, pull} and `role_name`), `repository-collaborator-permission`
 * ({permission, role_name, user}) and `repository-invitation`.
 */
import type { Urls } from '../../model/urls';
import { nodeId } from '../../model/urls';
import { permissionFlags, roleName, type RepoPermission } from '../../model/repo-permissions';
import { repository } from '../../model/render';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { simpleUser } from '../../model/render';
import type { InvitationRow } from './store';

/** A collaborator: the simple user, its `permissions` flags and `role_name` (read, triage, write, maintain, admin). */
export function collaborator(urls: Urls, user: AccountRow, permission: RepoPermission) {
	return { ...simpleUser(urls, user), permissions: permissionFlags(permission), role_name: roleName(permission) };
}

/**
 * GitHub's legacy permission names (the `permission` of GET …/collaborators/{username}/permission
 * and the `permissions` of invitations): maintain → write, triage → read; null → none.
 */
export function legacyPermission(permission: RepoPermission | null): 'admin' | 'write' | 'read' | 'none' {
	if (!permission) return 'none';
	if (permission === 'admin') return 'admin';
	return permission === 'push' || permission === 'maintain' ? 'write' : 'read';
}

/**
 * {permission, role_name, user}: `permission` the legacy name, `role_name` the role (`none` without
 * access), `user` the collaborator shape.
 */
export function collaboratorPermission(urls: Urls, user: AccountRow, permission: RepoPermission | null) {
	return {
		permission: legacyPermission(permission),
		role_name: permission ? roleName(permission) : 'none',
		user: permission
			? collaborator(urls, user, permission)
			: { ...simpleUser(urls, user), permissions: permissionFlags(null), role_name: 'none' },
	};
}

/** Invitation `permissions`: the role name as GitHub spells it there (read, triage, write, maintain, admin). */
export const invitationPermissions = (permission: RepoPermission) => roleName(permission);

/**
 * A repository invitation: id, node_id, repository (the minimal repository record), invitee,
 * inviter, permissions, created_at, expired (past expires_at at `now`, ISO), url
 * (/user/repository_invitations/{id}) and html_url (the repository's /invitations page).
 */
export function invitation(
	urls: Urls,
	row: InvitationRow,
	repo: RepositoryRow,
	owner: AccountRow,
	people: { invitee: AccountRow | undefined; inviter: AccountRow | undefined },
	now: string,
) {
	return {
		id: row.id,
		node_id: nodeId('RepositoryInvitation', row.id),
		repository: repository(urls, repo, owner, null),
		invitee: people.invitee ? simpleUser(urls, people.invitee) : null,
		inviter: people.inviter ? simpleUser(urls, people.inviter) : null,
		permissions: invitationPermissions(row.permission),
		created_at: row.created_at,
		expired: row.expires_at <= now,
		url: urls.api(`/user/repository_invitations/${row.id}`),
		html_url: urls.html(`/${owner.login}/${repo.name}/invitations`),
	};
}
