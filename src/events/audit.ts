/**
 * The organization audit log, derived from the domain-event log (src/events/log.ts calls
 * `deriveAudit` in the transaction of the change): one entry per administrative event of an
 * organization, named with GitHub's audit-log actions ("Audit log events for your organization":
 * repo.create, team.add_member, org.add_member, protected_branch.update, git.push, …), with who
 * acted and through which token (id, kind and scopes, never the token), from which address, in which
 * request. Events GitHub does not audit (issues opened, comments, stars, …) derive no entry.
 */
import type { App } from '../app';
import type { Acting } from '../auth/principal';
import type { RepositoryRow, AccountRow } from '../model/rows';

/** An event's audit action: a fixed name, or one built from the event's action. */
type AuditName = string | ((action: string | null) => string | null);

/**
 * GitHub's audit actions by domain event (webhook event name), then by its action. Events absent
 * here are not audited.
 */
const AUDIT_ACTIONS: Record<string, Record<string, AuditName> | AuditName> = {
	organization: {
		member_added: 'org.add_member',
		member_removed: 'org.remove_member',
		member_invited: 'org.invite_member',
		renamed: 'org.rename',
		deleted: 'org.delete',
	},
	membership: { added: 'team.add_member', removed: 'team.remove_member' },
	team: {
		created: 'team.create',
		deleted: 'team.destroy',
		edited: 'team.update',
		added_to_repository: 'team.add_repository',
		removed_from_repository: 'team.remove_repository',
	},
	repository: {
		created: 'repo.create',
		deleted: 'repo.destroy',
		archived: 'repo.archived',
		unarchived: 'repo.unarchived',
		publicized: 'repo.access',
		privatized: 'repo.access',
		renamed: 'repo.rename',
		transferred: 'repo.transfer',
		edited: 'repo.update',
	},
	member: { added: 'repo.add_member', removed: 'repo.remove_member', edited: 'repo.update_member' },
	repository_invitation: (action) => (action ? `repo.invitation_${action}` : null),
	branch_protection_rule: { created: 'protected_branch.create', edited: 'protected_branch.update', deleted: 'protected_branch.destroy' },
	branch_protection_configuration: (action) => (action ? `protected_branch.${action}` : null),
	repository_ruleset: {
		created: 'repository_ruleset.create',
		edited: 'repository_ruleset.update',
		deleted: 'repository_ruleset.destroy',
	},
	custom_property: {
		created: 'custom_property_definition.create',
		updated: 'custom_property_definition.update',
		deleted: 'custom_property_definition.destroy',
	},
	custom_property_values: { updated: 'custom_property_value.update' },
	dependabot_alert: { dismissed: 'repository_vulnerability_alert.dismiss', reopened: 'repository_vulnerability_alert.reopen' },
	release: { published: 'release.publish', created: 'release.create', deleted: 'release.destroy', edited: 'release.update' },
	workflow_dispatch: 'workflows.created_workflow_run',
	deploy_key: { created: 'public_key.create', deleted: 'public_key.delete' },
	installation: {
		created: 'integration_installation.create',
		deleted: 'integration_installation.destroy',
		suspend: 'integration_installation.suspend',
		unsuspend: 'integration_installation.unsuspend',
	},
	installation_repositories: {
		added: 'integration_installation.repositories_added',
		removed: 'integration_installation.repositories_removed',
	},
	security_and_analysis: 'repo.security_and_analysis_update',
	code_security_configuration: (action) => (action ? `code_security_configuration.${action}` : null),
	organization_settings: (action) => (action ? `org.${action}` : null),
	// Audit-only events (no webhook), named by the audit action itself: org.update_actions_settings,
	// repo.create_actions_secret, environment.remove_actions_variable, …
	org: (action) => (action ? `org.${action}` : null),
	repo: (action) => (action ? `repo.${action}` : null),
	environment: (action) => (action ? `environment.${action}` : null),
	push: 'git.push',
	custom_repository_role: { created: 'role.create', updated: 'role.update', deleted: 'role.destroy' },
	organization_role: { assigned: 'org.assign_role', unassigned: 'org.unassign_role' },
	external_group: {
		provisioned: 'external_group.provision',
		updated: 'external_group.update',
		linked: 'external_group.link',
		unlinked: 'external_group.unlink',
	},
};

/** Audit actions of the Git category (GET …/audit-log?include=git|all). */
const GIT_ACTIONS = new Set(['git.push']);

/** GitHub's operation_type of an action, from its verb. */
function operationType(action: string): string {
	const verb = action.slice(action.indexOf('.') + 1);
	if (/^(create|add|invite|publish|created_)/.test(verb) || verb.startsWith('invitation_created')) return 'create';
	if (/^(destroy|delete|remove|dismiss)/.test(verb)) return 'remove';
	if (verb === 'access') return 'access';
	if (verb === 'transfer') return 'transfer';
	return 'modify';
}

/** GitHub's `programmatic_access_type` words for each token kind. */
const ACCESS_TYPES: Record<string, string> = {
	classic: 'Personal access token (classic)',
	'fine-grained': 'Fine-grained personal access token',
	oauth: 'OAuth access token',
	'user-to-server': 'GitHub App user-to-server token',
	installation: 'GitHub App server-to-server token',
	app: 'GitHub App JWT',
};

/** The audit action of an event, or null when GitHub does not audit it. */
export function auditAction(event: string, action: string | null): string | null {
	const entry = AUDIT_ACTIONS[event];
	if (entry === undefined) return null;
	if (typeof entry === 'string') return entry;
	if (typeof entry === 'function') return entry(action);
	const name = action === null ? undefined : entry[action];
	if (name === undefined) return null;
	return typeof name === 'string' ? name : name(action);
}

/** What the event says about its target, read from its webhook payload (built only when audited). */
function target(payload: Record<string, unknown> | undefined): {
	user?: { id: number; login: string };
	team?: string;
	data: Record<string, unknown>;
} {
	if (!payload) return { data: {} };
	const pick = (value: unknown) =>
		value && typeof value === 'object' && typeof (value as { login?: unknown }).login === 'string'
			? { id: Number((value as { id: unknown }).id), login: (value as { login: string }).login }
			: undefined;
	const membership = payload.membership as { user?: unknown; role?: unknown } | undefined;
	const user =
		pick(payload.member) ??
		pick(membership?.user) ??
		pick(payload.user) ??
		pick((payload.invitation as { invitee?: unknown })?.invitee);
	const team = (payload.team as { slug?: string } | undefined)?.slug;
	const data: Record<string, unknown> = {};
	if (membership?.role !== undefined) data.role = membership.role;
	if (payload.changes !== undefined) data.changes = payload.changes;
	const permission =
		(payload.changes as { permission?: { to?: unknown } } | undefined)?.permission?.to ??
		(payload.member as { permission?: unknown } | undefined)?.permission;
	if (permission !== undefined) data.permission = permission;
	const repository = payload.repository as { visibility?: unknown } | undefined;
	if (repository?.visibility !== undefined) data.visibility = repository.visibility;
	for (const key of ['ref', 'before', 'after'] as const) if (typeof payload[key] === 'string') data[key] = payload[key];
	return { user, team, data };
}

/** An event's own audit fields (DomainEvent.audit): user {id, login}, team (slug), the rest as data. */
function fields(audit: Record<string, unknown>): ReturnType<typeof target> {
	const { user, team, ...data } = audit as { user?: { id: number; login: string }; team?: string };
	return { user, team, data };
}

export interface AuditedEvent {
	id: number;
	event: string;
	action: string | null;
	actorId: number | null;
	repo?: RepositoryRow;
	/** The repository's owner/name when it happened. */
	repoName: string | null;
	org: AccountRow;
	webhook?: () => Record<string, unknown>;
	/** The entry's fields for events without a webhook payload (DomainEvent.audit). */
	audit?: Record<string, unknown>;
}

/**
 * Writes the audit entry of `event` when GitHub audits it: inside the transaction of the change.
 * @param acting the request that made the change (null: the command line or a background job)
 */
export function deriveAudit(app: App, event: AuditedEvent, acting: Acting | null, now: number): void {
	const action = auditAction(event.event, event.action);
	if (action === null) return;
	const actor = event.actorId === null ? undefined : app.stores.accounts.byId(event.actorId);
	const { user, team, data } = event.audit ? fields(event.audit) : target(event.webhook?.());
	const principal = acting?.principal;
	const tokenKind = principal && principal.kind !== 'anonymous' ? principal.kind : null;
	app.stores.auditLog.insert({
		event_id: event.id,
		org_id: event.org.id,
		org: event.org.login,
		action,
		category: GIT_ACTIONS.has(action) ? 'git' : 'web',
		operation_type: operationType(action),
		actor_id: actor?.id ?? null,
		actor: actor?.login ?? null,
		user_id: user?.id ?? null,
		user: user?.login ?? null,
		repo_id: event.repo?.id ?? null,
		repo: event.repoName,
		team: team ? `${event.org.login}/${team}` : null,
		token_id: principal?.tokenId ?? null,
		programmatic_access_type: tokenKind ? (ACCESS_TYPES[tokenKind] ?? tokenKind) : null,
		token_scopes: principal && (principal.kind === 'classic' || principal.kind === 'oauth') ? principal.scopeList.join(',') : null,
		actor_ip: acting?.ip ?? null,
		user_agent: acting?.userAgent ?? null,
		request_id: acting?.requestId ?? null,
		data: JSON.stringify(data),
		created_at: now,
	});
}
