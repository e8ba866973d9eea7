/**
 * Prepared statements for Actions secrets and variables (one table, `kind` telling them apart),
 * their scopes' key pairs and the repositories an organization secret or variable is given to.
 * A scope is one repository, one environment or one organization.
 */
import type { DB } from '../../db/open';
import { repositorySelection } from '../../model/repository-selection';
import type { RepositoryRow } from '../repos/store';

/** Where a secret or variable lives. */
export type SecretScope = { repoId: number } | { environmentId: number } | { orgId: number };

export type SecretKind = 'secret' | 'variable';

export type Visibility = 'all' | 'private' | 'selected';

export interface SecretKeyRow {
	id: number;
	repo_id: number | null;
	environment_id: number | null;
	org_id: number | null;
	key_id: string;
	/** base64, 32 bytes (X25519). */
	public_key: string;
	/** base64, 32 bytes (X25519); never answered. */
	private_key: string;
	created_at: string;
}

export interface SecretRow {
	id: number;
	kind: SecretKind;
	repo_id: number | null;
	environment_id: number | null;
	org_id: number | null;
	name: string;
	/** A variable's value; a secret's sealed box (base64) as the client sent it. */
	value: string;
	key_id: string | null;
	visibility: Visibility | null;
	created_at: string;
	updated_at: string;
}

/** The statement parameters of a scope: the ids, 0 for the two it is not. */
function scopeParams(scope: SecretScope) {
	return {
		repo: 'repoId' in scope ? scope.repoId : 0,
		env: 'environmentId' in scope ? scope.environmentId : 0,
		org: 'orgId' in scope ? scope.orgId : 0,
	};
}

/** Nullable columns of a scope, for inserts. */
function scopeColumns(scope: SecretScope) {
	const { repo, env, org } = scopeParams(scope);
	return { repo_id: repo || null, environment_id: env || null, org_id: org || null };
}

export type SecretStore = ReturnType<typeof createSecretStore>;

export function createSecretStore(db: DB) {
	// Index actions_secret_keys_scope / actions_secrets_name: the scope's ids with 0 for none.
	const SCOPE = 'ifnull(repo_id, 0) = @repo AND ifnull(environment_id, 0) = @env AND ifnull(org_id, 0) = @org';
	const key = db.prepare(`SELECT * FROM actions_secret_keys WHERE ${SCOPE}`);
	const insertKey = db.prepare(`
		INSERT INTO actions_secret_keys (repo_id, environment_id, org_id, key_id, public_key, private_key, created_at)
		VALUES (@repo_id, @environment_id, @org_id, @key_id, @public_key, @private_key, @now)
		ON CONFLICT DO NOTHING`);
	const page = db.prepare(`SELECT * FROM actions_secrets WHERE kind = @kind AND ${SCOPE} ORDER BY name LIMIT @limit OFFSET @offset`);
	const count = db.prepare(`SELECT count(*) FROM actions_secrets WHERE kind = @kind AND ${SCOPE}`).pluck();
	const byName = db.prepare(`SELECT * FROM actions_secrets WHERE kind = @kind AND ${SCOPE} AND name = @name`);
	const byId = db.prepare('SELECT * FROM actions_secrets WHERE id = ?');
	const insert = db.prepare(`
		INSERT INTO actions_secrets (kind, repo_id, environment_id, org_id, name, value, key_id, visibility, created_at, updated_at)
		VALUES (@kind, @repo_id, @environment_id, @org_id, @name, @value, @key_id, @visibility, @now, @now)`);
	const update = db.prepare(`
		UPDATE actions_secrets SET name = @name, value = @value, key_id = @key_id, visibility = @visibility, updated_at = @now WHERE id = @id`);
	const remove = db.prepare('DELETE FROM actions_secrets WHERE id = ?');
	const selection = repositorySelection(db, 'actions_secret_repositories', 'secret_id', 'repo_id', 'r.id');
	// An organization's secrets or variables a repository of it may use: visibility all; private for
	// private and internal repositories; selected when it is listed.
	const REACHES = `kind = @kind AND org_id = @org AND (visibility = 'all'
		OR (visibility = 'private' AND @private = 1)
		OR (visibility = 'selected' AND EXISTS (SELECT 1 FROM actions_secret_repositories s WHERE s.secret_id = actions_secrets.id AND s.repo_id = @repoId)))`;
	const reachingPage = db.prepare(`SELECT * FROM actions_secrets WHERE ${REACHES} ORDER BY name LIMIT @limit OFFSET @offset`);
	const reachingCount = db.prepare(`SELECT count(*) FROM actions_secrets WHERE ${REACHES}`).pluck();

	return {
		/** The scope's key pair, if made yet. */
		key: (scope: SecretScope) => key.get(scopeParams(scope)) as SecretKeyRow | undefined,
		/**
		 * Stores the scope's key pair unless it has one (a concurrent first read made it).
		 * @param now ISO timestamp
		 * @returns the scope's key pair
		 */
		insertKey(scope: SecretScope, pair: { keyId: string; publicKey: string; privateKey: string }, now: string): SecretKeyRow {
			insertKey.run({ ...scopeColumns(scope), key_id: pair.keyId, public_key: pair.publicKey, private_key: pair.privateKey, now });
			return key.get(scopeParams(scope)) as SecretKeyRow;
		},
		/** One page of a scope's secrets or variables by name, and how many there are. */
		page(kind: SecretKind, scope: SecretScope, limit: number, offset: number) {
			const params = { ...scopeParams(scope), kind };
			return { rows: page.all({ ...params, limit, offset }) as SecretRow[], total: count.get(params) as number };
		},
		count: (kind: SecretKind, scope: SecretScope) => count.get({ ...scopeParams(scope), kind }) as number,
		/** @param name upper case */
		byName: (kind: SecretKind, scope: SecretScope, name: string) =>
			byName.get({ ...scopeParams(scope), kind, name }) as SecretRow | undefined,
		byId: (id: number) => byId.get(id) as SecretRow | undefined,
		/** @param now ISO timestamp */
		insert(
			kind: SecretKind,
			scope: SecretScope,
			values: { name: string; value: string; keyId: string | null; visibility: Visibility | null },
			now: string,
		): SecretRow {
			const id = insert.run({
				...scopeColumns(scope),
				kind,
				name: values.name,
				value: values.value,
				key_id: values.keyId,
				visibility: values.visibility,
				now,
			}).lastInsertRowid;
			return byId.get(id) as SecretRow;
		},
		/** @param now ISO timestamp */
		update(
			id: number,
			values: { name: string; value: string; keyId: string | null; visibility: Visibility | null },
			now: string,
		): SecretRow {
			update.run({ id, name: values.name, value: values.value, key_id: values.keyId, visibility: values.visibility, now });
			return byId.get(id) as SecretRow;
		},
		remove: (id: number) => remove.run(id).changes > 0,
		/** Ids of the repositories a 'selected' organization secret or variable is given to. */
		selectedIds: selection.ids,
		/** One page of them (by id) and how many there are. */
		selectedPage: selection.page,
		/** Gives exactly these repositories. */
		replaceSelected(id: number, repoIds: number[]): void {
			selection.clear(id);
			for (const repoId of repoIds) selection.add(id, repoId);
		},
		/** @returns whether it was not given before */
		addSelected: selection.add,
		/** @returns whether it was given */
		removeSelected: selection.remove,
		/** One page of the organization's secrets or variables `repo` may use, by name, and how many. */
		reaching(kind: SecretKind, orgId: number, repo: RepositoryRow, limit: number, offset: number) {
			const params = { kind, org: orgId, repoId: repo.id, private: repo.visibility === 'public' ? 0 : 1 };
			return { rows: reachingPage.all({ ...params, limit, offset }) as SecretRow[], total: reachingCount.get(params) as number };
		},
	};
}
