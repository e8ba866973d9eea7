/**
 * Rulesets of an organization or of one repository (repository rulesets, whose name is unique
 * within the repository): create, update and delete with GitHub's rules beyond the body's schema
 * (src/api/rulesets/schema.ts): a unique name within the organization, rule types that fit the
 * target (push rulesets take the file rules, branch rulesets no tag_name_pattern, tag rulesets no
 * branch_name_pattern), each rule type once, bypass actors that exist (the organization's teams,
 * installed apps, GitHub's repository role ids, enterprise owners of an organization in an enterprise), conditions for branch and tag rulesets naming the
 * refs. Every create and update stores a version (its state as the REST API renders it) and
 * records the `repository_ruleset` event; every function runs in the caller's transaction.
 */
import type { App } from '../../app';
import { invalidField, validationFailed, type ValidationItem } from '../../model/errors';
import type { AccountRow, RepositoryRow } from '../../model/rows';
import { recordRuleset } from './events';
import { REPOSITORY_ROLE_IDS } from './match';
import { ruleset } from './render';
import { PUSH_RULES, type BypassActor, type Conditions, type Rule } from './schema';
import type { RulesetRow, RulesetValues } from './store';

const RESOURCE = 'Ruleset';

/** A ruleset as given (POST) or after a PUT's fields replaced the stored ones. */
export interface RulesetInput {
	name: string;
	target: RulesetRow['target'];
	enforcement: RulesetRow['enforcement'];
	bypass_actors: BypassActor[];
	conditions: Conditions | null;
	rules: Rule[];
}

/** @throws DomainError 422 for what the schema cannot say (see the module's docstring) */
function check(app: App, org: AccountRow, input: RulesetInput, id: number | null, repoId: number | null): void {
	const taken = repoId === null ? app.stores.rulesets.idByName(org.id, input.name) : app.stores.rulesets.idByRepoName(repoId, input.name);
	if (taken !== undefined && taken !== id) throw invalidField(RESOURCE, 'name', 'Name must be unique', 'already_exists');
	const items: ValidationItem[] = [];
	const seen = new Set<string>();
	input.rules.forEach((rule, i) => {
		const field = `rules.${i}.type`;
		if (seen.has(rule.type))
			items.push({ resource: RESOURCE, field, code: 'invalid', message: `${field}: ${rule.type} is given more than once` });
		seen.add(rule.type);
		const push = PUSH_RULES.has(rule.type);
		if (input.target === 'push' ? !push : push)
			items.push({
				resource: RESOURCE,
				field,
				code: 'invalid',
				message: `${field}: ${rule.type} is not a rule of ${input.target} rulesets`,
			});
		if (
			(rule.type === 'tag_name_pattern' && input.target !== 'tag') ||
			(rule.type === 'branch_name_pattern' && input.target !== 'branch')
		) {
			items.push({
				resource: RESOURCE,
				field,
				code: 'invalid',
				message: `${field}: ${rule.type} is not a rule of ${input.target} rulesets`,
			});
		}
	});
	input.bypass_actors.forEach((actor, i) => {
		const field = `bypass_actors.${i}.actor_id`;
		const id = actor.actor_id ?? -1;
		const known =
			actor.actor_type === 'Team'
				? app.stores.teams.byId(id)?.org_id === org.id
				: actor.actor_type === 'Integration'
					? app.stores.apps.byId(id) !== undefined
					: actor.actor_type === 'RepositoryRole'
						? REPOSITORY_ROLE_IDS[id] !== undefined
						: actor.actor_type === 'EnterpriseOwner'
							? org.enterprise_id !== null
							: true;
		if (!known)
			items.push({
				resource: RESOURCE,
				field,
				code: 'invalid',
				message: `${field}: no ${actor.actor_type} has the id ${actor.actor_id}`,
			});
	});
	if (input.target !== 'push' && input.conditions && !input.conditions.ref_name) {
		items.push({
			resource: RESOURCE,
			field: 'conditions.ref_name',
			code: 'missing_field',
			message: `conditions.ref_name is required for ${input.target} rulesets`,
		});
	}
	if (items.length) throw validationFailed(items);
}

function values(input: RulesetInput): RulesetValues {
	return {
		name: input.name,
		target: input.target,
		enforcement: input.enforcement,
		bypass_actors: JSON.stringify(
			input.bypass_actors.map((a) => ({ actor_id: a.actor_id ?? null, actor_type: a.actor_type, bypass_mode: a.bypass_mode })),
		),
		conditions: input.conditions === null ? null : JSON.stringify(input.conditions),
		rules: JSON.stringify(input.rules),
	};
}

/** Stores the ruleset's state as a version. */
function addVersion(app: App, org: AccountRow, row: RulesetRow, actorId: number | null): void {
	const actor = actorId === null ? undefined : app.stores.accounts.byId(actorId);
	const type = actor ? (actor.type === 'Bot' ? 'Integration' : actor.type) : 'User';
	const state = ruleset(app.urls, org, row);
	app.stores.rulesets.addVersion(row.id, actorId, type, JSON.stringify(state), row.updated_at);
}

/**
 * Creates a ruleset, its first version and the `repository_ruleset` created event.
 * @param org the organization (an organization ruleset) or the repository's owner (a repository ruleset)
 * @param repo the repository of a repository ruleset; undefined for an organization ruleset
 * @param now ISO timestamp
 * @throws DomainError 422 (name taken, rules that do not fit the target, unknown bypass actors)
 */
export function createRuleset(
	app: App,
	org: AccountRow,
	input: RulesetInput,
	now: string,
	actorId: number | null,
	repo?: RepositoryRow,
): RulesetRow {
	check(app, org, input, null, repo?.id ?? null);
	const row = app.stores.rulesets.insert(org.id, values(input), now, repo?.id ?? null);
	addVersion(app, org, row, actorId);
	recordRuleset(app, org, 'created', row, actorId);
	return row;
}

/**
 * Replaces the fields given, stores a version and records `repository_ruleset` edited.
 * @param now ISO timestamp
 * @throws DomainError 422 as createRuleset
 */
export function updateRuleset(
	app: App,
	org: AccountRow,
	row: RulesetRow,
	changes: Partial<RulesetInput>,
	now: string,
	actorId: number | null,
): RulesetRow {
	const input: RulesetInput = {
		name: changes.name ?? row.name,
		target: changes.target ?? row.target,
		enforcement: changes.enforcement ?? row.enforcement,
		bypass_actors: changes.bypass_actors ?? (JSON.parse(row.bypass_actors) as BypassActor[]),
		conditions:
			changes.conditions !== undefined
				? changes.conditions
				: row.conditions === null
					? null
					: (JSON.parse(row.conditions) as Conditions),
		rules: changes.rules ?? (JSON.parse(row.rules) as Rule[]),
	};
	check(app, org, input, row.id, row.repo_id);
	const updated = app.stores.rulesets.update(row, values(input), now);
	addVersion(app, org, updated, actorId);
	recordRuleset(app, org, 'edited', updated, actorId, row);
	return updated;
}

/** Deletes the ruleset (its versions go with it; rule suites stay) and records `repository_ruleset` deleted. */
export function deleteRuleset(app: App, org: AccountRow, row: RulesetRow, actorId: number | null): void {
	// (org_id is the repository's owner for a repository ruleset: the same statement removes both kinds.)
	app.stores.rulesets.remove(org.id, row.id);
	recordRuleset(app, org, 'deleted', row, actorId);
}
