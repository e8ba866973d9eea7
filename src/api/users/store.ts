/**
 * Prepared statements for the accounts table (users, organizations, app bots share it).
 *
 * Accounts are read on nearly every request and change rarely, so lookups by login and id are
 * remembered; every write to accounts goes through this store and forgets them, and the app
 * calls forget() when another process commits. Returned rows are frozen: never mutate them.
 */
import type { DB } from '../../db/open';
import type { AccountRow } from '../../model/rows';

/** Kept for src/api/git until it imports src/model/rows. */
export type { AccountRow };

/** GitHub's members_can_* organization policies (organization-full, PATCH /orgs/{org}), each a 0/1 column of accounts. */
export const MEMBER_POLICIES = [
	'members_can_create_repositories',
	'members_can_create_public_repositories',
	'members_can_create_private_repositories',
	'members_can_create_internal_repositories',
	'members_can_create_pages',
	'members_can_create_public_pages',
	'members_can_create_private_pages',
	'members_can_delete_repositories',
	'members_can_change_repo_visibility',
	'members_can_invite_outside_collaborators',
	'members_can_delete_issues',
	'members_can_create_teams',
	'members_can_view_dependency_insights',
	'members_can_fork_private_repositories',
] as const;
export type MemberPolicy = (typeof MEMBER_POLICIES)[number];

/**
 * The other 0/1 organization settings of GitHub's "Update an organization" (schema 21), shown on
 * organization-full to owners: web commit sign-off, the (deprecated) security defaults for new
 * repositories, deploy keys.
 */
export const ORG_FLAGS = [
	'web_commit_signoff_required',
	'advanced_security_enabled_for_new_repositories',
	'dependabot_alerts_enabled_for_new_repositories',
	'dependabot_security_updates_enabled_for_new_repositories',
	'dependency_graph_enabled_for_new_repositories',
	'secret_scanning_enabled_for_new_repositories',
	'secret_scanning_push_protection_enabled_for_new_repositories',
	'secret_scanning_push_protection_custom_link_enabled',
	'deploy_keys_enabled_for_repositories',
] as const;

export type OrgFlag = (typeof ORG_FLAGS)[number];

/** Repository and gist counts shown on user and organization records. */
export interface AccountCounts {
	public_repos: number;
	private_repos: number;
	public_gists: number;
	private_gists: number;
}

/** The text columns of an organization's profile PATCH /orgs/{org} changes (null clears one). */
export type OrgTextField =
	| 'name'
	| 'email'
	| 'company'
	| 'blog'
	| 'location'
	| 'description'
	| 'billing_email'
	| 'twitter_username'
	| 'secret_scanning_push_protection_custom_link';

/** Columns PATCH /orgs/{org} may change. */
export type OrgSettings = Pick<
	AccountRow,
	OrgTextField | 'default_repository_permission' | MemberPolicy | OrgFlag | 'has_organization_projects' | 'has_repository_projects'
>;

/** The columns of a user's profile PATCH /user changes. */
export type UserProfile = Pick<AccountRow, 'name' | 'company' | 'blog' | 'location' | 'bio' | 'email_public' | 'twitter_username'>;

export type AccountStore = ReturnType<typeof createAccountStore>;

/** Remembered lookups kept at most (unknown logins are remembered too, so the map is bounded). */
const MEMO_LIMIT = 50_000;

export function createAccountStore(db: DB) {
	const byLogin = db.prepare('SELECT * FROM accounts WHERE login = ?');
	const byId = db.prepare('SELECT * FROM accounts WHERE id = ?');
	const byIds = db.prepare('SELECT * FROM accounts WHERE id IN (SELECT value FROM json_each(?))');
	const insert = db.prepare(`
		INSERT INTO accounts (login, type, name, email, email_public, site_admin, enterprise_id, billing_email, created_at, updated_at)
		VALUES (@login, @type, @name, @email, @emailPublic, @siteAdmin, @enterpriseId, @billingEmail, @now, @now)`);
	const siteAdmins = db.prepare("SELECT count(*) FROM accounts WHERE type = 'User' AND site_admin = 1").pluck();
	const counts = db.prepare(`
		SELECT (SELECT count(*) FROM repositories WHERE owner_id = @id AND visibility = 'public') AS public_repos,
		       (SELECT count(*) FROM repositories WHERE owner_id = @id AND visibility <> 'public') AS private_repos,
		       (SELECT count(*) FROM gists WHERE owner_id = @id AND public = 1) AS public_gists,
		       (SELECT count(*) FROM gists WHERE owner_id = @id AND public = 0) AS private_gists`);
	const users = db.prepare("SELECT * FROM accounts WHERE type = 'User' ORDER BY id");
	const pageOfType = db.prepare('SELECT * FROM accounts WHERE type = ? ORDER BY id LIMIT ? OFFSET ?');
	const countOfType = db.prepare('SELECT count(*) FROM accounts WHERE type = ?').pluck();
	const setSiteAdmin = db.prepare("UPDATE accounts SET site_admin = ?, updated_at = ? WHERE id = ? AND type = 'User'");
	const seats = db.prepare("SELECT count(*) FROM org_memberships WHERE org_id = ? AND state = 'active'").pluck();
	const updateOrg = db.prepare(`
		UPDATE accounts SET name = @name, email = @email, company = @company, blog = @blog, location = @location,
			description = @description, billing_email = @billing_email, twitter_username = @twitter_username,
			secret_scanning_push_protection_custom_link = @secret_scanning_push_protection_custom_link,
			default_repository_permission = @default_repository_permission,
			${[...MEMBER_POLICIES, ...ORG_FLAGS].map((key) => `${key} = @${key}`).join(', ')},
			has_organization_projects = @has_organization_projects, has_repository_projects = @has_repository_projects,
			updated_at = @updated_at
		WHERE id = @id AND type = 'Organization'`);

	const updateProfile = db.prepare(`
		UPDATE accounts SET company = @company, blog = @blog, location = @location, bio = @bio, updated_at = @updated_at
		WHERE id = @id AND type = 'User'`);
	const setProfile = db.prepare(`
		UPDATE accounts SET name = @name, company = @company, blog = @blog, location = @location, bio = @bio,
			email_public = @email_public, twitter_username = @twitter_username, updated_at = @updated_at
		WHERE id = @id AND type = 'User'`);
	const removeOrg = db.prepare("DELETE FROM accounts WHERE id = ? AND type = 'Organization'");

	const loginMemo = new Map<string, AccountRow | null>();
	const idMemo = new Map<number, AccountRow | null>();
	const remember = <K>(memo: Map<K, AccountRow | null>, key: K, row: AccountRow | undefined) => {
		if (memo.size >= MEMO_LIMIT) memo.clear();
		memo.set(key, row ? Object.freeze(row) : null);
		return row;
	};
	const forget = () => {
		loginMemo.clear();
		idMemo.clear();
	};
	const lookupLogin = (login: string): AccountRow | undefined => {
		const key = login.toLowerCase();
		const memo = loginMemo.get(key);
		return memo !== undefined ? (memo ?? undefined) : remember(loginMemo, key, byLogin.get(login) as AccountRow | undefined);
	};
	const lookupId = (id: number): AccountRow | undefined => {
		const memo = idMemo.get(id);
		return memo !== undefined ? (memo ?? undefined) : remember(idMemo, id, byId.get(id) as AccountRow | undefined);
	};

	return {
		/** Drops remembered lookups (after another process wrote accounts). */
		forget,
		byLogin: lookupLogin,
		byId: lookupId,
		/** Accounts by id, in one query (avoid N+1). */
		byIds: (ids: number[]) => byIds.all(JSON.stringify(ids)) as AccountRow[],
		/**
		 * Accounts by id for rendering many rows: the remembered ones from memory, the others in one
		 * query (none when every id is remembered).
		 */
		mapByIds(ids: Iterable<number>): Map<number, AccountRow> {
			const out = new Map<number, AccountRow>();
			let missing: number[] | null = null;
			for (const id of ids) {
				if (out.has(id)) continue;
				const known = idMemo.get(id);
				if (known) out.set(id, known);
				else if (known === undefined) (missing ??= []).push(id);
			}
			if (missing) {
				for (const account of byIds.all(JSON.stringify([...new Set(missing)])) as AccountRow[]) {
					out.set(account.id, remember(idMemo, account.id, account)!);
				}
			}
			return out;
		},
		user(login: string): AccountRow | undefined {
			const row = lookupLogin(login);
			return row?.type === 'User' ? row : undefined;
		},
		organization(login: string): AccountRow | undefined {
			const row = lookupLogin(login);
			return row?.type === 'Organization' ? row : undefined;
		},
		/** @param now ISO timestamp */
		insert(input: {
			login: string;
			type: AccountRow['type'];
			name?: string | null;
			email?: string | null;
			/** Users: show `email` to others. */
			emailPublic?: boolean;
			siteAdmin?: boolean;
			enterpriseId?: number | null;
			billingEmail?: string | null;
			now: string;
		}): number {
			forget();
			return Number(
				insert.run({
					login: input.login,
					type: input.type,
					name: input.name ?? null,
					email: input.email ?? null,
					emailPublic: input.emailPublic ? 1 : 0,
					siteAdmin: input.siteAdmin ? 1 : 0,
					enterpriseId: input.enterpriseId ?? null,
					billingEmail: input.billingEmail ?? null,
					now: input.now,
				}).lastInsertRowid,
			);
		},
		/** @param updatedAt ISO timestamp */
		/** An organization's filled seats: its active members (owners included). */
		seats: (orgId: number) => seats.get(orgId) as number,
		updateOrgSettings(id: number, settings: OrgSettings, updatedAt: string): void {
			forget();
			updateOrg.run({ ...settings, id, updated_at: updatedAt });
		},
		/** A user's public profile fields (company, blog, location, bio); updatedAt ISO. */
		updateProfile(
			id: number,
			profile: { company: string | null; blog: string | null; location: string | null; bio: string | null },
			updatedAt: string,
		): void {
			forget();
			updateProfile.run({ ...profile, id, updated_at: updatedAt });
		},
		/** Everything PATCH /user changes of a user's profile; updatedAt ISO. */
		setProfile(id: number, profile: UserProfile, updatedAt: string): void {
			forget();
			setProfile.run({ ...profile, id, updated_at: updatedAt });
		},
		/**
		 * Deletes an organization; its repositories, teams, memberships, hooks and settings go with it
		 * (foreign keys cascade).
		 */
		removeOrganization(id: number): void {
			forget();
			removeOrg.run(id);
		},
		siteAdminCount: () => siteAdmins.get() as number,
		counts: (id: number) => counts.get({ id }) as AccountCounts,
		users: () => users.all() as AccountRow[],
		/** One page of the users or of the organizations, in id order, and how many there are. */
		page(type: 'User' | 'Organization', limit: number, offset: number): { rows: AccountRow[]; total: number } {
			return { rows: pageOfType.all(type, limit, offset) as AccountRow[], total: countOfType.get(type) as number };
		},
		/** Makes a user a site administrator or not. @param now ISO timestamp @returns false for no such user */
		setSiteAdmin(id: number, siteAdmin: boolean, now: string): boolean {
			forget();
			return setSiteAdmin.run(siteAdmin ? 1 : 0, now, id).changes > 0;
		},
	};
}
