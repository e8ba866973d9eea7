/**
 * Custom repository roles where repository access is given: PUT …/collaborators/{username} and
 * PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo} take `permission` as a repository role
 * (pull, triage, push, maintain, admin) or the name of one of the organization's custom repository
 * roles, whose grant then holds its base role and names the role (role_id).
 */
import type { App } from '../../app';
import { invalidField } from '../../model/errors';
import { REPO_PERMISSIONS, type RepoPermission } from '../../model/repo-permissions';
import type { AccountRow } from '../../model/rows';
import { BASE_ROLE_PERMISSION } from './catalog';

/** A repository role as a grant holds it. */
export interface RepositoryRole {
	permission: RepoPermission;
	/** The custom repository role, or null for a predefined role. */
	roleId: number | null;
}

/**
 * The role `name` means on a repository of `owner`.
 * @throws DomainError 422 (field `permission`) for a name that is neither a repository role nor a
 *   custom repository role of the owning organization
 */
export function repositoryRole(app: App, owner: AccountRow, name: string, resource: string): RepositoryRole {
	if ((REPO_PERMISSIONS as readonly string[]).includes(name)) return { permission: name as RepoPermission, roleId: null };
	const custom = owner.type === 'Organization' ? app.stores.roles.customRoleByName(owner.id, name) : undefined;
	if (!custom) {
		throw invalidField(
			resource,
			'permission',
			`permission must be one of pull, triage, push, maintain, admin, or a custom repository role of ${owner.login}`,
		);
	}
	return { permission: BASE_ROLE_PERMISSION[custom.base_role], roleId: custom.id };
}
