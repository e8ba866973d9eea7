/**
 * Runner group rules (https://docs.github.com/en/enterprise-server@3.19/rest/actions/self-hosted-runner-groups), for
 * an enterprise's groups and an organization's alike (the owner, RunnerOwner): names unique per
 * owner; visibility all or selected (an organization's also private); selected_workflows kept only
 * while restricted_to_workflows is true; the default group cannot be deleted; runners leaving a
 * group return to the default group; registering runners.
 */
import type { App } from '../../app';
import { invalidField, notFound, unprocessable, validationFailed, type ValidationItem } from '../../model/errors';
import type { RunnerGroupRow, RunnerGroupValues, RunnerOwner, RunnerRow } from './store';

/** A workflow reference: owner/repo/path/to/workflow.yml@ref (a ref, tag or SHA is required). */
const WORKFLOW = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/.+\.ya?ml@.+$/;
export const DEFAULT_GROUP_NAME = 'Default';
export const RUNNER_OSES = ['linux', 'macos', 'windows'] as const;

export interface GroupInput {
	name?: string;
	visibility?: 'all' | 'selected' | 'private';
	allows_public_repositories?: boolean;
	restricted_to_workflows?: boolean;
	selected_workflows?: string[];
	network_configuration_id?: string | null;
}

/**
 * The values of a new group (`existing` undefined) or of an update. PATCH's omitted booleans keep
 * their values; its omitted visibility keeps the current one.
 * @throws DomainError 422 listing the problems.
 */
export function groupValues(app: App, owner: RunnerOwner, input: GroupInput, existing?: RunnerGroupRow): RunnerGroupValues {
	const problems: ValidationItem[] = [];
	const name = (input.name ?? existing?.name ?? '').trim();
	if (!name) problems.push({ resource: 'RunnerGroup', field: 'name', code: 'missing_field', message: 'name is required' });
	else if (name.length > 100)
		problems.push({ resource: 'RunnerGroup', field: 'name', code: 'invalid', message: 'at most 100 characters' });
	const same = name ? app.stores.runnerGroups.byName(owner, name) : undefined;
	if (same && same.id !== existing?.id) {
		problems.push({
			resource: 'RunnerGroup',
			field: 'name',
			code: 'already_exists',
			message: `a runner group named "${same.name}" already exists`,
		});
	}
	if (existing?.is_default && input.visibility !== undefined && input.visibility !== 'all') {
		const everyone = 'enterprise' in owner ? 'every organization' : 'every repository';
		problems.push({
			resource: 'RunnerGroup',
			field: 'visibility',
			code: 'invalid',
			message: `the default runner group is visible to ${everyone}`,
		});
	}
	const restricted = input.restricted_to_workflows ?? (existing ? existing.restricted_to_workflows === 1 : false);
	let workflows = input.selected_workflows ?? (existing ? (JSON.parse(existing.selected_workflows) as string[]) : []);
	// selected_workflows is ignored unless restricted_to_workflows is true.
	if (!restricted) workflows = [];
	for (const workflow of workflows) {
		if (!WORKFLOW.test(workflow)) {
			problems.push({
				resource: 'RunnerGroup',
				field: 'selected_workflows',
				code: 'invalid',
				message: `"${workflow}" is not owner/repo/path/workflow.yml@ref (a ref, tag or SHA is required)`,
			});
		}
	}
	if (problems.length) throw validationFailed(problems);
	return {
		name,
		visibility: input.visibility ?? existing?.visibility ?? 'all',
		allows_public_repositories:
			(input.allows_public_repositories ?? (existing ? existing.allows_public_repositories === 1 : false)) ? 1 : 0,
		restricted_to_workflows: restricted ? 1 : 0,
		selected_workflows: JSON.stringify([...new Set(workflows)]),
		network_configuration_id:
			input.network_configuration_id !== undefined ? input.network_configuration_id : (existing?.network_configuration_id ?? null),
	};
}

/** The default group of an enterprise or an organization, made with it. @param now ISO timestamp */
export function createDefaultGroup(app: App, owner: RunnerOwner, now: string): RunnerGroupRow {
	return app.stores.runnerGroups.insert(
		owner,
		{
			name: DEFAULT_GROUP_NAME,
			visibility: 'all',
			allows_public_repositories: 0,
			restricted_to_workflows: 0,
			selected_workflows: '[]',
			network_configuration_id: null,
		},
		true,
		now,
	);
}

/**
 * Ids of organizations of the enterprise.
 * @throws DomainError 422 naming ids that are not organizations of the enterprise.
 */
export function enterpriseOrganizationIds(app: App, enterpriseId: number, ids: number[], field: string): number[] {
	const orgs = new Set(app.stores.enterprises.organizations(enterpriseId).map((org) => org.id));
	const foreign = ids.filter((id) => !orgs.has(id));
	if (foreign.length) throw invalidField('RunnerGroup', field, `not organizations of this enterprise: ${foreign.join(', ')}`);
	return [...new Set(ids)];
}

/**
 * Runners of the owner (an enterprise or an organization).
 * @throws DomainError 422 naming ids that are not its runners.
 */
export function ownerRunners(app: App, owner: RunnerOwner, ids: number[], field: string): RunnerRow[] {
	const found = ids.map((id) => app.stores.runnerGroups.runner(owner, id));
	const missing = ids.filter((_, i) => !found[i]);
	const whose = 'enterprise' in owner ? 'this enterprise' : 'this organization';
	if (missing.length) throw invalidField('RunnerGroup', field, `not runners of ${whose}: ${missing.join(', ')}`);
	return found as RunnerRow[];
}

/**
 * DELETE …/runner-groups/{runner_group_id}: the group goes and its runners return to the owner's
 * default group.
 * @throws DomainError 422 for the default group itself
 */
export function deleteGroup(app: App, owner: RunnerOwner, group: RunnerGroupRow): void {
	if (group.is_default) throw unprocessable('The default runner group cannot be deleted.');
	app.stores.runnerGroups.remove(group, app.stores.runnerGroups.defaultGroup(owner).id);
}

/**
 * PUT …/runner-groups/{runner_group_id}/runners: the group's runners become exactly `runnerIds`
 * (runners of the same owner); the ones left out return to the owner's default group.
 * @throws DomainError 422 naming `runners` for an id that is not one of the owner's runners
 */
export function setGroupRunners(app: App, owner: RunnerOwner, group: RunnerGroupRow, runnerIds: number[]): void {
	const runners = ownerRunners(app, owner, runnerIds, 'runners');
	if (!group.is_default) app.stores.runnerGroups.moveRunners(group.id, app.stores.runnerGroups.defaultGroup(owner).id);
	for (const r of runners) app.stores.runnerGroups.moveRunner(r.id, group.id);
}

/**
 * DELETE …/runner-groups/{runner_group_id}/runners/{runner_id}: the runner returns to the owner's
 * default group.
 * @throws DomainError 404 when the runner is not in the group, 422 for the default group itself
 */
export function removeGroupRunner(app: App, owner: RunnerOwner, group: RunnerGroupRow, found: RunnerRow): void {
	if (found.group_id !== group.id) throw notFound();
	if (group.is_default) throw unprocessable('A runner cannot leave the default group except by joining another group.');
	app.stores.runnerGroups.moveRunner(found.id, app.stores.runnerGroups.defaultGroup(owner).id);
}

/**
 * Registers a self-hosted runner with an enterprise (an enterprise id, or { enterprise }) or an
 * organization ({ org }) (`gitstead admin register-runner`). Its read-only labels are self-hosted,
 * its OS and X64; `labels` adds custom ones.
 * @param now ISO timestamp
 * @throws DomainError 422 for a taken name, an unknown OS or group.
 */
export function registerRunner(
	app: App,
	ownerOrEnterpriseId: RunnerOwner | number,
	input: { name: string; os: string; labels: string[]; group?: string; status?: 'online' | 'offline'; ephemeral?: boolean },
	now: string,
): RunnerRow & { group: RunnerGroupRow } {
	if (!(RUNNER_OSES as readonly string[]).includes(input.os))
		throw invalidField('Runner', 'os', `os must be one of ${RUNNER_OSES.join(', ')}`);
	if (!/^[A-Za-z0-9_.-]{1,64}$/.test(input.name)) throw invalidField('Runner', 'name', `"${input.name}" is not a valid runner name`);
	const owner: RunnerOwner = typeof ownerOrEnterpriseId === 'number' ? { enterprise: ownerOrEnterpriseId } : ownerOrEnterpriseId;
	return app.transaction(() => {
		const group = input.group ? app.stores.runnerGroups.byName(owner, input.group) : app.stores.runnerGroups.defaultGroup(owner);
		if (!group) throw invalidField('Runner', 'group', `no runner group named "${input.group}"`);
		const osLabel = { linux: 'Linux', macos: 'macOS', windows: 'Windows' }[input.os as (typeof RUNNER_OSES)[number]];
		const labels = [
			{ name: 'self-hosted', type: 'read-only' as const },
			{ name: osLabel, type: 'read-only' as const },
			{ name: 'X64', type: 'read-only' as const },
			...input.labels.map((name) => ({ name, type: 'custom' as const })),
		];
		try {
			const runner = app.stores.runnerGroups.insertRunner({
				owner,
				groupId: group.id,
				name: input.name,
				os: input.os,
				status: input.status ?? 'offline',
				ephemeral: input.ephemeral ?? false,
				version: null,
				labels,
				now,
			});
			return { ...runner, group };
		} catch (error) {
			if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
				throw invalidField('Runner', 'name', `a runner named "${input.name}" is already registered`, 'already_exists');
			}
			throw error;
		}
	});
}
