/**
 * Prepared statements for enterprises and their owners and billing managers.
 */
import type { DB } from '../../db/open';
import type { EnterpriseRow, AccountRow } from '../../model/rows';

export type EnterpriseStore = ReturnType<typeof createEnterpriseStore>;

export function createEnterpriseStore(db: DB) {
	const bySlug = db.prepare('SELECT * FROM enterprises WHERE slug = ?');
	const byId = db.prepare('SELECT * FROM enterprises WHERE id = ?');
	const insert = db.prepare(`
		INSERT INTO enterprises (slug, name, allow_outside_collaborators, created_at, updated_at)
		VALUES (@slug, @name, @allowOutsideCollaborators, @now, @now)`);
	const addMember = db.prepare(`
		INSERT INTO enterprise_members (enterprise_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (enterprise_id, user_id) DO UPDATE SET role = excluded.role`);
	const role = db.prepare('SELECT role FROM enterprise_members WHERE enterprise_id = ? AND user_id = ?').pluck();
	// Members of an enterprise: active members of its organizations.
	const isMember = db
		.prepare(`
		SELECT EXISTS (SELECT 1 FROM org_memberships m JOIN accounts o ON o.id = m.org_id
			WHERE o.enterprise_id = ? AND m.user_id = ? AND m.state = 'active')`)
		.pluck();
	// Active admins of one of its organizations (they manage their organizations' budgets).
	const isOrganizationAdmin = db
		.prepare(`
		SELECT EXISTS (SELECT 1 FROM org_memberships m JOIN accounts o ON o.id = m.org_id
			WHERE o.enterprise_id = ? AND m.user_id = ? AND m.state = 'active' AND m.role = 'admin')`)
		.pluck();
	const organizations = db.prepare("SELECT * FROM accounts WHERE type = 'Organization' AND enterprise_id = ? ORDER BY id");

	return {
		bySlug: (slug: string) => bySlug.get(slug) as EnterpriseRow | undefined,
		byId: (id: number) => byId.get(id) as EnterpriseRow | undefined,
		/** @param now ISO timestamp */
		insert: (input: { slug: string; name: string; allowOutsideCollaborators: boolean; now: string }) =>
			Number(insert.run({ ...input, allowOutsideCollaborators: input.allowOutsideCollaborators ? 1 : 0 }).lastInsertRowid),
		/** @param now ISO timestamp */
		setRole: (enterpriseId: number, userId: number, memberRole: 'owner' | 'billing_manager', now: string) =>
			void addMember.run(enterpriseId, userId, memberRole, now),
		role: (enterpriseId: number, userId: number) => role.get(enterpriseId, userId) as 'owner' | 'billing_manager' | undefined,
		isMember: (enterpriseId: number, userId: number) => (isMember.get(enterpriseId, userId) as number) === 1,
		isOrganizationAdmin: (enterpriseId: number, userId: number) => (isOrganizationAdmin.get(enterpriseId, userId) as number) === 1,
		organizations: (enterpriseId: number) => organizations.all(enterpriseId) as AccountRow[],
	};
}
