/**
 * The roles GitHub predefines (organization roles, "Using organization roles") and the repository
 * fine-grained permissions custom repository roles add to their base role ("About custom repository
 * roles"; GET /orgs/{org}/repository-fine-grained-permissions).
 */
import type { RepoPermission } from '../../model/repo-permissions';

/** A predefined organization role: `base_role` on every repository of the organization. */
export interface OrganizationRoleDefinition {
	/** GitHub's ids of its predefined roles. */
	id: number;
	name: string;
	description: string;
	base_role: 'read' | 'triage' | 'write' | 'maintain' | 'admin';
	/** The repository permission it grants on every repository of the organization. */
	permission: RepoPermission;
}

export const ORGANIZATION_ROLES: readonly OrganizationRoleDefinition[] = [
	{
		id: 8132,
		name: 'all_repo_read',
		description: 'Grants read access to all repositories in the organization.',
		base_role: 'read',
		permission: 'pull',
	},
	{
		id: 8133,
		name: 'all_repo_triage',
		description: 'Grants triage access to all repositories in the organization.',
		base_role: 'triage',
		permission: 'triage',
	},
	{
		id: 8134,
		name: 'all_repo_write',
		description: 'Grants write access to all repositories in the organization.',
		base_role: 'write',
		permission: 'push',
	},
	{
		id: 8135,
		name: 'all_repo_maintain',
		description: 'Grants maintenance access to all repositories in the organization.',
		base_role: 'maintain',
		permission: 'maintain',
	},
	{
		id: 8136,
		name: 'all_repo_admin',
		description: 'Grants admin access to all repositories in the organization.',
		base_role: 'admin',
		permission: 'admin',
	},
];

/** SQL: the rank (pull 1 … admin 5) an organization role id grants, 0 for none. */
export const ORGANIZATION_ROLE_RANK_SQL = (column: string) =>
	`(CASE ${column} ${ORGANIZATION_ROLES.map((role, i) => `WHEN ${role.id} THEN ${i + 1}`).join(' ')} ELSE 0 END)`;

export function organizationRole(id: number): OrganizationRoleDefinition | undefined {
	return ORGANIZATION_ROLES.find((role) => role.id === id);
}

/**
 * Repository fine-grained permissions (name → description), as GitHub lists them for custom
 * repository roles. Gitstead honours those its routes have (ENFORCED), the others are stored.
 */
export const REPOSITORY_FINE_GRAINED_PERMISSIONS: ReadonlyArray<{ name: string; description: string }> = [
	{ name: 'add_assignee', description: 'Assign or remove a user' },
	{ name: 'remove_assignee', description: 'Remove an assigned user' },
	{ name: 'add_label', description: 'Add or remove a label' },
	{ name: 'remove_label', description: 'Remove a label' },
	{ name: 'close_issue', description: 'Close an issue' },
	{ name: 'reopen_issue', description: 'Reopen a closed issue' },
	{ name: 'delete_issue', description: 'Delete an issue' },
	{ name: 'mark_as_duplicate', description: 'Mark an issue or pull request as a duplicate' },
	{ name: 'set_milestone', description: 'Set the milestone on an issue or pull request' },
	{ name: 'set_issue_type', description: 'Set the issue type on an issue' },
	{ name: 'close_pull_request', description: 'Close a pull request' },
	{ name: 'reopen_pull_request', description: 'Reopen a closed pull request' },
	{ name: 'request_pr_review', description: 'Request a pull request review' },
	{ name: 'read_code_scanning', description: 'Read code scanning results' },
	{ name: 'write_code_scanning', description: 'Upload code scanning results' },
	{ name: 'delete_alerts_code_scanning', description: 'Delete code scanning results' },
	{ name: 'view_secret_scanning_alerts', description: 'View secret scanning results' },
	{ name: 'resolve_secret_scanning_alerts', description: 'Dismiss or reopen secret scanning results' },
	{ name: 'view_dependabot_alerts', description: 'View Dependabot alerts' },
	{ name: 'resolve_dependabot_alerts', description: 'Dismiss or reopen Dependabot alerts' },
	{ name: 'manage_webhooks', description: 'Manage webhooks' },
	{ name: 'manage_deploy_keys', description: 'Manage deploy keys' },
	{ name: 'edit_repo_metadata', description: 'Edit the repository description, homepage and social preview' },
	{ name: 'manage_topics', description: 'Manage the repository topics' },
	{ name: 'manage_settings_wiki', description: 'Manage the wiki settings' },
	{ name: 'manage_settings_projects', description: 'Manage the projects settings' },
	{ name: 'manage_settings_merge_types', description: 'Manage the pull request merge types' },
	{ name: 'manage_settings_pages', description: 'Manage the GitHub Pages settings' },
	{ name: 'edit_repo_protections', description: 'Manage branch protections' },
	{ name: 'push_protected_branch', description: 'Push to protected branches' },
	{ name: 'bypass_branch_protection', description: 'Bypass branch protections' },
	{ name: 'create_tag', description: 'Create tags' },
	{ name: 'delete_tag', description: 'Delete tags' },
	{ name: 'jump_merge_queue', description: 'Jump the merge queue' },
	{ name: 'create_solo_merge_queue_entry', description: 'Create a solo merge queue entry' },
	{ name: 'edit_repo_custom_properties_values', description: 'Edit the custom property values of the repository' },
	{ name: 'set_interaction_limits', description: 'Set interaction limits' },
	{ name: 'create_discussion_category', description: 'Create a discussion category' },
	{ name: 'edit_discussion_category', description: 'Edit a discussion category' },
	{ name: 'delete_discussion_category', description: 'Delete a discussion category' },
	{ name: 'toggle_discussion_answer', description: 'Mark or unmark a discussion answer' },
	{ name: 'convert_issues_to_discussions', description: 'Convert issues to discussions' },
	{ name: 'close_discussion', description: 'Close a discussion' },
	{ name: 'reopen_discussion', description: 'Reopen a discussion' },
	{ name: 'delete_discussion_comment', description: 'Delete a discussion comment' },
];

export const REPOSITORY_PERMISSION_NAMES: ReadonlySet<string> = new Set(REPOSITORY_FINE_GRAINED_PERMISSIONS.map((p) => p.name));

/** A custom role's base_role → the repository permission its grants hold. */
export const BASE_ROLE_PERMISSION: Record<'read' | 'triage' | 'write' | 'maintain', RepoPermission> = {
	read: 'pull',
	triage: 'triage',
	write: 'push',
	maintain: 'maintain',
};
