/**
 * Repository roles: pull < triage < push < maintain < admin, their role names (read, triage,
 * write, maintain, admin) and the permissions object GitHub puts on repository records.
 */

export type RepoPermission = 'pull' | 'triage' | 'push' | 'maintain' | 'admin';
export const REPO_PERMISSIONS: readonly RepoPermission[] = ['pull', 'triage', 'push', 'maintain', 'admin'];

const RANK: Record<RepoPermission, number> = { pull: 1, triage: 2, push: 3, maintain: 4, admin: 5 };

export function atLeast(held: RepoPermission | null | undefined, needed: RepoPermission): boolean {
	return !!held && RANK[held] >= RANK[needed];
}

/** The stronger of two permissions (either may be missing). */
export function strongest(a: RepoPermission | null | undefined, b: RepoPermission | null | undefined): RepoPermission | null {
	if (!a) return b ?? null;
	if (!b) return a;
	return RANK[a] >= RANK[b] ? a : b;
}

/** GitHub's role_name for a permission. */
export function roleName(permission: RepoPermission): string {
	switch (permission) {
		case 'pull':
			return 'read';
		case 'push':
			return 'write';
		default:
			return permission;
	}
}

/** The permissions object {admin, maintain, push, triage, pull}. */
export function permissionFlags(permission: RepoPermission | null) {
	return {
		admin: atLeast(permission, 'admin'),
		maintain: atLeast(permission, 'maintain'),
		push: atLeast(permission, 'push'),
		triage: atLeast(permission, 'triage'),
		pull: atLeast(permission, 'pull'),
	};
}

/** An organization's base permission for members ('none', 'read', 'write', 'admin'). */
export function basePermission(setting: string): RepoPermission | null {
	switch (setting) {
		case 'read':
			return 'pull';
		case 'write':
			return 'push';
		case 'admin':
			return 'admin';
		default:
			return null;
	}
}
