/**
 * Prepared statements for the accounts table (users, organizations, app bots share it).
 */
import type { DB } from '../../db/open';

export interface AccountRow {
	id: number;
	login: string;
	type: 'User' | 'Organization' | 'Bot';
	name: string | null;
	email: string | null;
	company: string | null;
	blog: string | null;
	location: string | null;
	bio: string | null;
	description: string | null;
	site_admin: number;
	enterprise_id: number | null;
	billing_email: string | null;
	default_repository_permission: 'none' | 'read' | 'write' | 'admin';
	members_can_create_repositories: number;
	members_can_create_teams: number;
	has_organization_projects: number;
	has_repository_projects: number;
	created_at: string;
	updated_at: string;
}

/** Repository counts shown on user and organization records. */
export interface AccountCounts {
	public_repos: number;
	private_repos: number;
}

export type AccountStore = ReturnType<typeof createAccountStore>;

export function createAccountStore(db: DB) {
	const byLogin = db.prepare('SELECT * FROM accounts WHERE login = ?');
	const byId = db.prepare('SELECT * FROM accounts WHERE id = ?');
	const byIds = db.prepare('SELECT * FROM accounts WHERE id IN (SELECT value FROM json_each(?))');
	const insert = db.prepare(`
		INSERT INTO accounts (login, type, name, email, site_admin, enterprise_id, billing_email, created_at, updated_at)
		VALUES (@login, @type, @name, @email, @siteAdmin, @enterpriseId, @billingEmail, @now, @now)`);
	const siteAdmins = db.prepare("SELECT count(*) FROM accounts WHERE type = 'User' AND site_admin = 1").pluck();
	const counts = db.prepare(`
		SELECT count(*) FILTER (WHERE visibility = 'public') AS public_repos,
		       count(*) FILTER (WHERE visibility <> 'public') AS private_repos
		FROM repositories WHERE owner_id = ?`);
	const users = db.prepare("SELECT * FROM accounts WHERE type = 'User' ORDER BY id");

	return {
		byLogin: (login: string) => byLogin.get(login) as AccountRow | undefined,
		byId: (id: number) => byId.get(id) as AccountRow | undefined,
		/** Accounts by id, in one query (avoid N+1). */
		byIds: (ids: number[]) => byIds.all(JSON.stringify(ids)) as AccountRow[],
		user(login: string): AccountRow | undefined {
			const row = byLogin.get(login) as AccountRow | undefined;
			return row?.type === 'User' ? row : undefined;
		},
		organization(login: string): AccountRow | undefined {
			const row = byLogin.get(login) as AccountRow | undefined;
			return row?.type === 'Organization' ? row : undefined;
		},
		/** @param now ISO timestamp */
		insert(input: {
			login: string;
			type: AccountRow['type'];
			name?: string | null;
			email?: string | null;
			siteAdmin?: boolean;
			enterpriseId?: number | null;
			billingEmail?: string | null;
			now: string;
		}): number {
			return Number(
				insert.run({
					login: input.login,
					type: input.type,
					name: input.name ?? null,
					email: input.email ?? null,
					siteAdmin: input.siteAdmin ? 1 : 0,
					enterpriseId: input.enterpriseId ?? null,
					billingEmail: input.billingEmail ?? null,
					now: input.now,
				}).lastInsertRowid,
			);
		},
		siteAdminCount: () => siteAdmins.get() as number,
		counts: (id: number) => counts.get(id) as AccountCounts,
		users: () => users.all() as AccountRow[],
	};
}
