/**
 * Prepared statements for self-hosted runner groups and runners of an owner — an enterprise or
 * (schema 22) an organization (RunnerOwner) — an enterprise group's organizations, an organization
 * group's repositories, and runners' labels.
 */
import type { DB } from '../../db/open';
import type { AccountRow, RepositoryRow } from '../../model/rows';

/** Who owns runner groups and runners: an enterprise, or an organization. */
export type RunnerOwner = { enterprise: number } | { org: number };

/** The owner column and id of `owner`. */
export function ownerKey(owner: RunnerOwner): { column: 'enterprise' | 'org'; id: number } {
	return 'enterprise' in owner ? { column: 'enterprise', id: owner.enterprise } : { column: 'org', id: owner.org };
}

/** The owner of a group or runner row. */
export function ownerOf(row: { enterprise_id: number | null; org_id: number | null }): RunnerOwner {
	return row.enterprise_id !== null ? { enterprise: row.enterprise_id } : { org: row.org_id! };
}

export interface RunnerGroupRow {
	id: number;
	/** The enterprise's group, or null for an organization's. */
	enterprise_id: number | null;
	/** The organization's group, or null for an enterprise's (schema 22). */
	org_id: number | null;
	name: string;
	visibility: 'all' | 'selected' | 'private';
	is_default: number;
	allows_public_repositories: number;
	restricted_to_workflows: number;
	selected_workflows: string;
	workflow_restrictions_read_only: number;
	network_configuration_id: string | null;
	created_at: string;
	updated_at: string;
}

export interface RunnerRow {
	id: number;
	enterprise_id: number | null;
	org_id: number | null;
	group_id: number;
	name: string;
	os: string;
	status: 'online' | 'offline';
	busy: number;
	ephemeral: number;
	version: string | null;
	created_at: string;
}

export interface RunnerLabelRow {
	id: number;
	runner_id: number;
	name: string;
	type: 'read-only' | 'custom';
}

export type RunnerGroupValues = Pick<
	RunnerGroupRow,
	'name' | 'visibility' | 'allows_public_repositories' | 'restricted_to_workflows' | 'selected_workflows' | 'network_configuration_id'
>;

export type RunnerGroupStore = ReturnType<typeof createRunnerGroupStore>;

/** The statements of runner groups, their organizations and repositories, runners and labels, prepared once on `db`. */
export function createRunnerGroupStore(db: DB) {
	/** One statement per owner column: `OWNER` in the SQL becomes enterprise_id or org_id. */
	const keyed = (sql: string) => ({
		enterprise: db.prepare(sql.replaceAll('OWNER', 'enterprise_id')),
		org: db.prepare(sql.replaceAll('OWNER', 'org_id')),
	});
	const byId = keyed('SELECT * FROM runner_groups WHERE OWNER = ? AND id = ?');
	const byName = keyed('SELECT * FROM runner_groups WHERE OWNER = ? AND name = ?');
	const defaultGroup = keyed('SELECT * FROM runner_groups WHERE OWNER = ? AND is_default = 1');
	// visibleTo: an organization id, or NULL for every group.
	const list = db.prepare(`
		SELECT g.* FROM runner_groups g WHERE g.enterprise_id = @enterpriseId AND (@visibleTo IS NULL OR g.visibility = 'all'
			OR (g.visibility = 'selected' AND EXISTS (SELECT 1 FROM runner_group_organizations o WHERE o.group_id = g.id AND o.org_id = @visibleTo)))
		ORDER BY g.id LIMIT @limit OFFSET @offset`);
	const count = db
		.prepare(`
		SELECT count(*) FROM runner_groups g WHERE g.enterprise_id = @enterpriseId AND (@visibleTo IS NULL OR g.visibility = 'all'
			OR (g.visibility = 'selected' AND EXISTS (SELECT 1 FROM runner_group_organizations o WHERE o.group_id = g.id AND o.org_id = @visibleTo)))`)
		.pluck();
	// An organization's groups, then (@enterpriseId not null) the groups its enterprise shares with it.
	const orgGroupsWhere = `(g.org_id = @orgId OR (g.enterprise_id = @enterpriseId AND (g.visibility = 'all'
			OR (g.visibility = 'selected' AND EXISTS (SELECT 1 FROM runner_group_organizations o WHERE o.group_id = g.id AND o.org_id = @orgId)))))`;
	const orgList = db.prepare(
		`SELECT g.* FROM runner_groups g WHERE ${orgGroupsWhere} ORDER BY g.org_id IS NULL, g.id LIMIT @limit OFFSET @offset`,
	);
	const orgCount = db.prepare(`SELECT count(*) FROM runner_groups g WHERE ${orgGroupsWhere}`).pluck();
	const orgVisible = db.prepare(`SELECT g.* FROM runner_groups g WHERE g.id = @id AND ${orgGroupsWhere}`);
	const insert = db.prepare(`
		INSERT INTO runner_groups (enterprise_id, org_id, name, visibility, is_default, allows_public_repositories, restricted_to_workflows,
			selected_workflows, network_configuration_id, created_at, updated_at)
		VALUES (@enterpriseId, @orgId, @name, @visibility, @isDefault, @allows_public_repositories, @restricted_to_workflows,
			@selected_workflows, @network_configuration_id, @now, @now)`);
	const update = db.prepare(`
		UPDATE runner_groups SET name = @name, visibility = @visibility, allows_public_repositories = @allows_public_repositories,
			restricted_to_workflows = @restricted_to_workflows, selected_workflows = @selected_workflows,
			network_configuration_id = @network_configuration_id, updated_at = @now
		WHERE id = @id`);
	const remove = db.prepare('DELETE FROM runner_groups WHERE id = ?');
	const orgs = db.prepare(`
		SELECT a.* FROM runner_group_organizations o JOIN accounts a ON a.id = o.org_id WHERE o.group_id = ? ORDER BY a.id LIMIT ? OFFSET ?`);
	const orgsCount = db.prepare('SELECT count(*) FROM runner_group_organizations WHERE group_id = ?').pluck();
	const addOrg = db.prepare('INSERT OR IGNORE INTO runner_group_organizations (group_id, org_id) VALUES (?, ?)');
	const removeOrg = db.prepare('DELETE FROM runner_group_organizations WHERE group_id = ? AND org_id = ?');
	const clearOrgs = db.prepare('DELETE FROM runner_group_organizations WHERE group_id = ?');
	// Only repositories the group's organization still owns (one transferred away no longer counts).
	const repos = db.prepare(`
		SELECT r.* FROM runner_group_repositories x JOIN runner_groups g ON g.id = x.group_id JOIN repositories r ON r.id = x.repo_id AND r.owner_id = g.org_id
		WHERE x.group_id = ? ORDER BY r.id LIMIT ? OFFSET ?`);
	const reposCount = db
		.prepare(`SELECT count(*) FROM runner_group_repositories x JOIN runner_groups g ON g.id = x.group_id
		JOIN repositories r ON r.id = x.repo_id AND r.owner_id = g.org_id WHERE x.group_id = ?`)
		.pluck();
	const addRepo = db.prepare('INSERT OR IGNORE INTO runner_group_repositories (group_id, repo_id) VALUES (?, ?)');
	const removeRepo = db.prepare('DELETE FROM runner_group_repositories WHERE group_id = ? AND repo_id = ?');
	const clearRepos = db.prepare('DELETE FROM runner_group_repositories WHERE group_id = ?');
	const runners = db.prepare('SELECT * FROM runners WHERE group_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const runnerCount = db.prepare('SELECT count(*) FROM runners WHERE group_id = ?').pluck();
	const runner = keyed('SELECT * FROM runners WHERE OWNER = ? AND id = ?');
	const ownerRunners = keyed('SELECT * FROM runners WHERE OWNER = ? ORDER BY id LIMIT ? OFFSET ?');
	const ownerRunnerCount = keyed('SELECT count(*) FROM runners WHERE OWNER = ?');
	const removeRunner = db.prepare('DELETE FROM runners WHERE id = ?');
	const moveRunner = db.prepare('UPDATE runners SET group_id = ? WHERE id = ?');
	const moveAll = db.prepare('UPDATE runners SET group_id = ? WHERE group_id = ?');
	const labels = db.prepare('SELECT * FROM runner_labels WHERE runner_id IN (SELECT value FROM json_each(?)) ORDER BY id');
	const insertRunner = db.prepare(`
		INSERT INTO runners (enterprise_id, org_id, group_id, name, os, status, busy, ephemeral, version, created_at)
		VALUES (@enterpriseId, @orgId, @groupId, @name, @os, @status, 0, @ephemeral, @version, @now)`);
	const insertLabel = db.prepare('INSERT OR IGNORE INTO runner_labels (runner_id, name, type) VALUES (?, ?, ?)');
	const ids = (owner: RunnerOwner) =>
		'enterprise' in owner ? { enterpriseId: owner.enterprise, orgId: null } : { enterpriseId: null, orgId: owner.org };
	const at = <T>(statements: { enterprise: T; org: T }, owner: RunnerOwner): [T, number] => {
		const key = ownerKey(owner);
		return [statements[key.column], key.id];
	};

	return {
		/** The owner's own group `id`. */
		get(owner: RunnerOwner, id: number) {
			const [statement, ownerId] = at(byId, owner);
			return statement.get(ownerId, id) as RunnerGroupRow | undefined;
		},
		byName(owner: RunnerOwner, name: string) {
			const [statement, ownerId] = at(byName, owner);
			return statement.get(ownerId, name) as RunnerGroupRow | undefined;
		},
		defaultGroup(owner: RunnerOwner) {
			const [statement, ownerId] = at(defaultGroup, owner);
			return statement.get(ownerId) as RunnerGroupRow;
		},
		/** An enterprise's groups; `visibleTo` (an organization id) narrows them to the ones it may use. */
		list(filter: { enterpriseId: number; visibleTo: number | null; limit: number; offset: number }) {
			return { rows: list.all(filter) as RunnerGroupRow[], total: count.get(filter) as number };
		},
		/** An organization's groups, then those its enterprise (`enterpriseId`, or null) shares with it (inherited). */
		ofOrganization(filter: { orgId: number; enterpriseId: number | null; limit: number; offset: number }) {
			return { rows: orgList.all(filter) as RunnerGroupRow[], total: orgCount.get(filter) as number };
		},
		/** Group `id` if it is the organization's or one its enterprise shares with it. */
		visibleToOrganization: (orgId: number, enterpriseId: number | null, id: number) =>
			orgVisible.get({ orgId, enterpriseId, id }) as RunnerGroupRow | undefined,
		/** @param now ISO timestamp */
		insert(owner: RunnerOwner, values: RunnerGroupValues, isDefault: boolean, now: string): RunnerGroupRow {
			const id = Number(insert.run({ ...values, ...ids(owner), isDefault: isDefault ? 1 : 0, now }).lastInsertRowid);
			return this.get(owner, id)!;
		},
		/** @param now ISO timestamp */
		update(group: RunnerGroupRow, values: RunnerGroupValues, now: string): RunnerGroupRow {
			update.run({ ...values, id: group.id, now });
			return this.get(ownerOf(group), group.id)!;
		},
		/** Deletes a group; its runners go back to the default group. */
		remove(group: RunnerGroupRow, defaultId: number): void {
			moveAll.run(defaultId, group.id);
			remove.run(group.id);
		},
		organizations(groupId: number, limit: number, offset: number) {
			return { rows: orgs.all(groupId, limit, offset) as AccountRow[], total: orgsCount.get(groupId) as number };
		},
		addOrganization: (groupId: number, orgId: number) => void addOrg.run(groupId, orgId),
		removeOrganization: (groupId: number, orgId: number) => void removeOrg.run(groupId, orgId),
		clearOrganizations: (groupId: number) => void clearOrgs.run(groupId),
		/** The repositories a selected organization group is available to, by id. */
		repositories(groupId: number, limit: number, offset: number) {
			return { rows: repos.all(groupId, limit, offset) as RepositoryRow[], total: reposCount.get(groupId) as number };
		},
		addRepository: (groupId: number, repoId: number) => void addRepo.run(groupId, repoId),
		removeRepository: (groupId: number, repoId: number) => void removeRepo.run(groupId, repoId),
		clearRepositories: (groupId: number) => void clearRepos.run(groupId),
		runners(groupId: number, limit: number, offset: number) {
			return { rows: runners.all(groupId, limit, offset) as RunnerRow[], total: runnerCount.get(groupId) as number };
		},
		/** Every runner of the owner, by id. */
		ownerRunners(owner: RunnerOwner, limit: number, offset: number) {
			const [statement, ownerId] = at(ownerRunners, owner);
			const [counter] = at(ownerRunnerCount, owner);
			return { rows: statement.all(ownerId, limit, offset) as RunnerRow[], total: counter.pluck().get(ownerId) as number };
		},
		runner(owner: RunnerOwner, id: number) {
			const [statement, ownerId] = at(runner, owner);
			return statement.get(ownerId, id) as RunnerRow | undefined;
		},
		/** Removes a runner (its labels go with it). */
		removeRunner: (runnerId: number) => void removeRunner.run(runnerId),
		moveRunner: (runnerId: number, groupId: number) => void moveRunner.run(groupId, runnerId),
		/** Moves every runner of `fromGroupId` to `toGroupId`. */
		moveRunners: (fromGroupId: number, toGroupId: number) => void moveAll.run(toGroupId, fromGroupId),
		labels: (runnerIds: number[]) => labels.all(JSON.stringify(runnerIds)) as RunnerLabelRow[],
		/** @param now ISO timestamp */
		insertRunner(input: {
			owner: RunnerOwner;
			groupId: number;
			name: string;
			os: string;
			status: 'online' | 'offline';
			ephemeral: boolean;
			version: string | null;
			labels: Array<{ name: string; type: 'read-only' | 'custom' }>;
			now: string;
		}): RunnerRow {
			const { owner, ...rest } = input;
			const id = Number(insertRunner.run({ ...rest, ...ids(owner), ephemeral: input.ephemeral ? 1 : 0 }).lastInsertRowid);
			for (const label of input.labels) insertLabel.run(id, label.name, label.type);
			return this.runner(owner, id)!;
		},
	};
}
