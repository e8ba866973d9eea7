/**
 * Prepared statements for the tokens table. Used by the HTTP layer (authentication) and by
 * `gitstead admin create-token|list-tokens|revoke-token`.
 */
import type { DB } from '../db/open';
import type { GrantedPermissions } from './permissions';
import { generateToken, hashToken, type TokenKind } from './tokens';

export interface TokenRow {
	id: number;
	kind: TokenKind;
	user_id: number | null;
	created_by_id: number | null;
	scopes: string;
	permissions: string;
	resource_owner_id: number | null;
	installation_id: number | null;
	repository_ids: string | null;
	note: string | null;
	/** Epoch seconds. */
	created_at: number;
	expires_at: number | null;
	last_used_at: number | null;
	revoked_at: number | null;
	token_last_eight: string;
}

/** A token row joined with its user and installation, as authentication needs it. */
export interface AuthenticatedTokenRow extends TokenRow {
	login: string | null;
	site_admin: number | null;
	account_type: string | null;
	/** The installation's permissions (app tokens). */
	installation_permissions: string | null;
	installation_account_id: number | null;
	/** The app's bot account (app tokens). */
	bot_id: number | null;
	/** App tokens of an installation with repository_selection 'selected': a JSON array of the repository ids it reaches; else null. */
	installation_repository_ids: string | null;
	/** 1 when the token's user is suspended (user_suspensions). */
	suspended: number;
}

export interface NewToken {
	kind: TokenKind;
	userId: number | null;
	createdById: number | null;
	scopes?: string[];
	permissions?: GrantedPermissions;
	resourceOwnerId?: number | null;
	installationId?: number | null;
	repositoryIds?: number[] | null;
	note?: string | null;
	/** Epoch seconds. */
	now: number;
	/** Epoch seconds; null: never. */
	expiresAt?: number | null;
}

export type TokenStore = ReturnType<typeof createTokenStore>;

/** @param onChange called after a token is revoked (authentication caches forget it) */
export function createTokenStore(db: DB, onChange: () => void = () => {}) {
	const insert = db.prepare(`
		INSERT INTO tokens (kind, token_hash, token_last_eight, user_id, created_by_id, scopes, permissions,
			resource_owner_id, installation_id, repository_ids, note, created_at, expires_at)
		VALUES (@kind, @hash, @lastEight, @userId, @createdById, @scopes, @permissions, @resourceOwnerId, @installationId,
			@repositoryIds, @note, @now, @expiresAt)`);
	const byHash = db.prepare(`
		SELECT t.*, a.login, a.site_admin, a.type AS account_type,
			EXISTS (SELECT 1 FROM user_suspensions s WHERE s.user_id = t.user_id) AS suspended, i.permissions AS installation_permissions,
			i.account_id AS installation_account_id, p.bot_id,
			CASE WHEN i.repository_selection = 'selected' THEN
				(SELECT json_group_array(s.repository_id) FROM installation_repositories s WHERE s.installation_id = i.id) END AS installation_repository_ids
		FROM tokens t LEFT JOIN accounts a ON a.id = t.user_id
			LEFT JOIN installations i ON i.id = t.installation_id LEFT JOIN apps p ON p.id = i.app_id
		WHERE t.token_hash = ?`);
	const byId = db.prepare('SELECT * FROM tokens WHERE id = ?');
	const all = db.prepare(`SELECT t.*, a.login FROM tokens t LEFT JOIN accounts a ON a.id = t.user_id ORDER BY t.id`);
	const forUser = db.prepare(
		`SELECT t.*, a.login FROM tokens t LEFT JOIN accounts a ON a.id = t.user_id WHERE t.user_id = ? ORDER BY t.id`,
	);
	const revoke = db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
	const touch = db.prepare('UPDATE tokens SET last_used_at = ? WHERE id = ?');

	return {
		/** Creates a token; the secret is returned once and never stored. */
		create(input: NewToken): { id: number; token: string } {
			const token = generateToken(input.kind);
			const result = insert.run({
				kind: input.kind,
				hash: hashToken(token),
				lastEight: token.slice(-8),
				userId: input.userId,
				createdById: input.createdById,
				scopes: (input.scopes ?? []).join(','),
				permissions: JSON.stringify(input.permissions ?? {}),
				resourceOwnerId: input.resourceOwnerId ?? null,
				installationId: input.installationId ?? null,
				repositoryIds: input.repositoryIds ? JSON.stringify(input.repositoryIds) : null,
				note: input.note ?? null,
				now: input.now,
				expiresAt: input.expiresAt ?? null,
			});
			return { id: Number(result.lastInsertRowid), token };
		},
		findByHash: (hash: Buffer) => byHash.get(hash) as AuthenticatedTokenRow | undefined,
		get: (id: number) => byId.get(id) as TokenRow | undefined,
		list: (userId?: number) => (userId === undefined ? all.all() : forUser.all(userId)) as Array<TokenRow & { login: string | null }>,
		/** Revokes; false when already revoked or unknown. @param now epoch seconds */
		revoke(id: number, now: number): boolean {
			const changed = revoke.run(now, id).changes > 0;
			onChange();
			return changed;
		},
		/** Records use. @param now epoch seconds */
		touch: (id: number, now: number) => void touch.run(now, id),
	};
}
