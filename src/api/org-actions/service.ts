/**
 * An organization's Actions policies (GitHub's "Disabling or limiting GitHub Actions for your
 * organization"): which repositories may run Actions, which actions, the default GITHUB_TOKEN
 * permissions, retention, fork pull-request rules, self-hosted runner use, and the OIDC subject
 * claim. Settings are changed as a whole row (store.set) and each change is recorded to the
 * audit-log style `org` event. Enforcement: requireActionsEnabled refuses workflow dispatches and
 * re-runs in repositories the policy leaves without Actions.
 */
import type { App } from '../../app';
import { events } from '../../events/catalog';
import { conflict, invalidField, notFound, unprocessable } from '../../model/errors';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import type { OrgActionsValues, RepositoryList } from './store';

/** Longest artifact and log retention an organization may set, days (GitHub's default maximum; no enterprise policy lowers it here). */
export const MAXIMUM_RETENTION_DAYS = 90;

/** The claims GitHub's OIDC tokens carry that a subject template may include (GitHub's "OpenID Connect reference"). */
export const OIDC_CLAIM_KEYS = [
	'actor',
	'actor_id',
	'base_ref',
	'context',
	'enterprise',
	'enterprise_id',
	'environment',
	'event_name',
	'head_ref',
	'job_workflow_ref',
	'job_workflow_sha',
	'ref',
	'ref_protected',
	'ref_type',
	'repo',
	'repository',
	'repository_id',
	'repository_owner',
	'repository_owner_id',
	'repository_visibility',
	'run_attempt',
	'run_id',
	'run_number',
	'runner_environment',
	'sha',
	'workflow',
	'workflow_ref',
	'workflow_sha',
] as const;

/** GitHub's default subject claim template, shown while an organization has none. */
export const DEFAULT_CLAIM_KEYS = ['repo', 'context'];

/**
 * Changes some settings of `org`: the others keep their values. Records `org` with the audit-log
 * `action` GitHub logs for the change.
 * @param now ISO timestamp
 */
export function updateActionsSettings(
	app: App,
	org: AccountRow,
	patch: Partial<OrgActionsValues>,
	action: string,
	actorId: number | null,
	now: string,
): OrgActionsValues {
	const values = { ...app.stores.orgActions.get(org.id), ...patch };
	app.stores.orgActions.set(org.id, values, now);
	events.orgAudit(app, org, action, actorId);
	return values;
}

/**
 * The repositories of `org` with these ids, in the order given, without repeats.
 * @throws DomainError 422 naming ids that are not repositories of the organization
 */
export function organizationRepositories(app: App, org: AccountRow, ids: number[], field: string): RepositoryRow[] {
	const unique = [...new Set(ids)];
	const found = unique.map((id) => app.stores.repos.byId(id));
	const foreign = unique.filter((_, i) => found[i]?.owner_id !== org.id);
	if (foreign.length) throw invalidField('Organization', field, `not repositories of ${org.login}: ${foreign.join(', ')}`);
	return found as RepositoryRow[];
}

/**
 * The repository {repository_id} of the organization.
 * @throws DomainError 404 for an id that is no repository of the organization
 */
export function organizationRepository(app: App, org: AccountRow, id: number | null): RepositoryRow {
	const repo = id === null ? undefined : app.stores.repos.byId(id);
	if (!repo || repo.owner_id !== org.id) throw notFound();
	return repo;
}

/**
 * Refuses a change to the selection of `list` unless the organization's policy is `selected`
 * (GitHub: "the organization permission policy for enabled_repositories must be configured to
 * selected").
 * @throws DomainError 409
 */
export function requireSelected(values: OrgActionsValues, list: RepositoryList): void {
	const policy = list === 'actions' ? values.enabled_repositories : values.self_hosted_enabled_repositories;
	if (policy !== 'selected') {
		const field = list === 'actions' ? 'enabled_repositories' : 'self-hosted runners enabled_repositories';
		throw conflict(`The organization's ${field} policy must be set to selected to choose repositories.`);
	}
}

/** Whether `repo`'s owner lets it run Actions: every repository of a user; an organization's by its enabled_repositories policy. */
export function actionsEnabled(app: App, repo: RepositoryRow, owner: AccountRow): boolean {
	if (owner.type !== 'Organization') return true;
	const policy = app.stores.orgActions.get(owner.id).enabled_repositories;
	if (policy === 'all') return true;
	if (policy === 'none') return false;
	return app.stores.orgActions.selected(owner.id, 'actions', repo.id);
}

/**
 * Refuses to start workflows (dispatch, re-run) in a repository the organization's policy leaves
 * without Actions.
 * @throws DomainError 422 "Actions are disabled for this repository."
 */
export function requireActionsEnabled(app: App, repo: RepositoryRow, owner: AccountRow): void {
	if (!actionsEnabled(app, repo, owner)) throw unprocessable('Actions are disabled for this repository.');
}
