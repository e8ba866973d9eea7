/**
 * Domain events of rulesets (the organization's and repositories' own): GitHub's `repository_ruleset` webhook (created, edited,
 * deleted), recorded through the event log inside the transaction of the change by
 * src/api/rulesets/service.ts. Activity feeds show none of them.
 *
 * Payload (GitHub's webhook docs, webhook-repository-ruleset-*): { repository_ruleset (the ruleset
 * as the REST API renders it), changes? (edited: name, enforcement { from }; conditions and rules
 * { updated: true } when they changed), organization, enterprise?, sender }.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inOrganization, inRepository, sender } from '../../events/payloads';
import type { AccountRow } from '../../model/rows';
import { ruleset } from './render';
import type { RulesetRow } from './store';

/**
 * repository_ruleset created / edited / deleted.
 * @param row the ruleset as written (deleted: as it was)
 * @param before edited: the ruleset before the change, for `changes`
 */
export function recordRuleset(
	app: App,
	org: AccountRow,
	action: 'created' | 'edited' | 'deleted',
	row: RulesetRow,
	actorId: number | null,
	before?: RulesetRow,
): void {
	// A repository ruleset's event is the repository's (its hooks, with `repository` in the payload).
	const repo = row.repo_id === null ? undefined : app.stores.repos.byId(row.repo_id);
	record(app, {
		event: 'repository_ruleset',
		action,
		actorId,
		...(repo ? { repo, ...(org.type === 'Organization' ? { org } : {}) } : { org }),
		webhook: () => {
			const changes: Record<string, unknown> = {};
			if (before) {
				if (before.name !== row.name) changes.name = { from: before.name };
				if (before.enforcement !== row.enforcement) changes.enforcement = { from: before.enforcement };
				if (before.target !== row.target) changes.target = { from: before.target };
				if (before.conditions !== row.conditions) changes.conditions = { updated: true };
				if (before.rules !== row.rules) changes.rules = { updated: true };
				if (before.bypass_actors !== row.bypass_actors) changes.bypass_actors = { updated: true };
			}
			return {
				repository_ruleset: ruleset(app.urls, org, row),
				...(before ? { changes } : {}),
				...(repo ? inRepository(app, repo, actorId) : { ...inOrganization(app, org), ...sender(app, actorId) }),
			};
		},
	});
}
