/**
 * Prepared statements for enterprise runner groups, their organizations, and runners.
 */
import type { DB } from '../../db/open';
import type { AccountRow } from '../users/store';

export interface RunnerGroupRow {
	id: number;
	enterprise_id: number;
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
	enterprise_id: number;
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

export function createRunnerGroupStore(db: DB) {
	const byId = db.prepare('SELECT * FROM runner_groups WHERE enterprise_id = ? AND id = ?');
	const byName = db.prepare('SELECT * FROM runner_groups WHERE enterprise_id = ? AND name = ?');
	const defaultGroup = db.prepare('SELECT * FROM runner_groups WHERE enterprise_id = ? AND is_default = 1');
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
	const insert = db.prepare(`
		INSERT INTO runner_groups (enterprise_id, name, visibility, is_default, allows_public_repositories, restricted_to_workflows,
			selected_workflows, network_configuration_id, created_at, updated_at)
		VALUES (@enterpriseId, @name, @visibility, @isDefault, @allows_public_repositories, @restricted_to_workflows,
			@selected_workflows, @network_configuration_id, @now, @now)`);
	const update = db.prepare(`
		UPDATE runner_groups SET name = @name, visibility = @visibility, allows_public_repositories = @allows_public_repositories,
			restricted_to_workflows = @restricted_to_workflows, selected_workflows = @selected_workflows,
			network_configuration_id = @network_configuration_id, updated_at = @now
		WHERE id = @id`);
	const remove = db.prepare('DELETE FROM runner_groups WHERE id = ?');
	const orgs = db.prepare(`
		SELECT a.* FROM runner_group_organizations o JOIN accounts a ON a.id = o.org_id WHERE o.group_id = ? ORDER BY a.id LIMIT ? OFFSET ?`);
	const orgCount = db.prepare('SELECT count(*) FROM runner_group_organizations WHERE group_id = ?').pluck();
	const addOrg = db.prepare('INSERT OR IGNORE INTO runner_group_organizations (group_id, org_id) VALUES (?, ?)');
	const removeOrg = db.prepare('DELETE FROM runner_group_organizations WHERE group_id = ? AND org_id = ?');
	const clearOrgs = db.prepare('DELETE FROM runner_group_organizations WHERE group_id = ?');
	const runners = db.prepare('SELECT * FROM runners WHERE group_id = ? ORDER BY id LIMIT ? OFFSET ?');
	const runnerCount = db.prepare('SELECT count(*) FROM runners WHERE group_id = ?').pluck();
	const runner = db.prepare('SELECT * FROM runners WHERE enterprise_id = ? AND id = ?');
	const moveRunner = db.prepare('UPDATE runners SET group_id = ? WHERE id = ?');
	const moveAll = db.prepare('UPDATE runners SET group_id = ? WHERE group_id = ?');
	const labels = db.prepare('SELECT * FROM runner_labels WHERE runner_id IN (SELECT value FROM json_each(?)) ORDER BY id');
	const insertRunner = db.prepare(`
		INSERT INTO runners (enterprise_id, group_id, name, os, status, busy, ephemeral, version, created_at)
		VALUES (@enterpriseId, @groupId, @name, @os, @status, 0, @ephemeral, @version, @now)`);
	const insertLabel = db.prepare('INSERT OR IGNORE INTO runner_labels (runner_id, name, type) VALUES (?, ?, ?)');

	return {
		get: (enterpriseId: number, id: number) => byId.get(enterpriseId, id) as RunnerGroupRow | undefined,
		byName: (enterpriseId: number, name: string) => byName.get(enterpriseId, name) as RunnerGroupRow | undefined,
		defaultGroup: (enterpriseId: number) => defaultGroup.get(enterpriseId) as RunnerGroupRow,
		list(filter: { enterpriseId: number; visibleTo: number | null; limit: number; offset: number }) {
			return { rows: list.all(filter) as RunnerGroupRow[], total: count.get(filter) as number };
		},
		/** @param now ISO timestamp */
		insert(enterpriseId: number, values: RunnerGroupValues, isDefault: boolean, now: string): RunnerGroupRow {
			const id = Number(insert.run({ ...values, enterpriseId, isDefault: isDefault ? 1 : 0, now }).lastInsertRowid);
			return byId.get(enterpriseId, id) as RunnerGroupRow;
		},
		/** @param now ISO timestamp */
		update(group: RunnerGroupRow, values: RunnerGroupValues, now: string): RunnerGroupRow {
			update.run({ ...values, id: group.id, now });
			return byId.get(group.enterprise_id, group.id) as RunnerGroupRow;
		},
		/** Deletes a group; its runners go back to the default group. */
		remove(group: RunnerGroupRow, defaultId: number): void {
			moveAll.run(defaultId, group.id);
			remove.run(group.id);
		},
		organizations(groupId: number, limit: number, offset: number) {
			return { rows: orgs.all(groupId, limit, offset) as AccountRow[], total: orgCount.get(groupId) as number };
		},
		addOrganization: (groupId: number, orgId: number) => void addOrg.run(groupId, orgId),
		removeOrganization: (groupId: number, orgId: number) => void removeOrg.run(groupId, orgId),
		clearOrganizations: (groupId: number) => void clearOrgs.run(groupId),
		runners(groupId: number, limit: number, offset: number) {
			return { rows: runners.all(groupId, limit, offset) as RunnerRow[], total: runnerCount.get(groupId) as number };
		},
		runner: (enterpriseId: number, id: number) => runner.get(enterpriseId, id) as RunnerRow | undefined,
		moveRunner: (runnerId: number, groupId: number) => void moveRunner.run(groupId, runnerId),
		/** Moves every runner of `fromGroupId` to `toGroupId`. */
		moveRunners: (fromGroupId: number, toGroupId: number) => void moveAll.run(toGroupId, fromGroupId),
		labels: (runnerIds: number[]) => labels.all(JSON.stringify(runnerIds)) as RunnerLabelRow[],
		/** @param now ISO timestamp */
		insertRunner(input: {
			enterpriseId: number;
			groupId: number;
			name: string;
			os: string;
			status: 'online' | 'offline';
			ephemeral: boolean;
			version: string | null;
			labels: Array<{ name: string; type: 'read-only' | 'custom' }>;
			now: string;
		}): RunnerRow {
			const id = Number(insertRunner.run({ ...input, ephemeral: input.ephemeral ? 1 : 0 }).lastInsertRowid);
			for (const label of input.labels) insertLabel.run(id, label.name, label.type);
			return runner.get(input.enterpriseId, id) as RunnerRow;
		},
	};
}
