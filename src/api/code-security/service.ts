/**
 * Code security configurations (GitHub's code-security/configurations operations) and the
 * repository security switches they drive.
 *
 * A configuration is a set of settings (GitHub's field names: each feature `enabled`, `disabled`
 * or `not_set`). Attaching it to repositories sets their switches: `enabled`/`disabled` set the
 * switch, `not_set` leaves it. The switches are the repository's security_and_analysis:
 * advanced_security and dependabot_delegated_alert_dismissal (columns of repositories), and the
 * others in repositories.security_settings. Dependabot alerts read `dependabot_alerts` (disabled:
 * 403, GitHub's "Dependabot alerts are disabled for this repository."), dependency review reads
 * `dependency_graph` and advanced_security. Gitstead's defaults for a repository no configuration
 * touched: dependency graph and Dependabot alerts enabled (Gitstead computes both for every
 * repository), everything else disabled.
 *
 * Every repository whose switches a change moves records one `security_and_analysis` event
 * (GitHub's webhook of that name: changes.from.security_and_analysis, the repository as it is now).
 */
import type { App } from '../../app';
import { invalidField } from '../../model/errors';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import type { ConfigurationRow, DefaultForNewRepos } from './store';
import { type Settings, settingsOf } from './settings';
import { repositorySwitches, securityAndAnalysis } from './switches';
import { SWITCHES, type SwitchName } from '../../model/security-switches';

export { repositorySwitches, securityAndAnalysis, switchOn } from './switches';
export { SWITCHES, type SwitchName } from '../../model/security-switches';
export { ADVANCED_SECURITY, SETTING_DEFAULTS, type Settings, settingsOf, TRISTATE, type Tristate } from './settings';

/** What to set: a switch name (or advanced_security / dependabot_delegated_alert_dismissal) → on. */
export type SwitchChange = Partial<Record<SwitchName | 'advanced_security' | 'dependabot_delegated_alert_dismissal', boolean>>;

/** The switch changes a configuration makes: its `enabled` / `disabled` settings (`not_set` makes none). */
export function changesOf(settings: Settings): SwitchChange {
	const change: SwitchChange = {};
	for (const name of SWITCHES) {
		const value = settings[name];
		if (value === 'enabled' || value === 'disabled') change[name] = value === 'enabled';
	}
	change.advanced_security = settings.advanced_security !== 'disabled';
	const dismissal = settings.dependabot_delegated_alert_dismissal;
	if (dismissal === 'enabled' || dismissal === 'disabled') change.dependabot_delegated_alert_dismissal = dismissal === 'enabled';
	return change;
}

/**
 * Refuses a repository-level change of a setting its enforced configuration sets (GitHub's
 * enforcement: "enforced" configurations keep repository administrators from changing them).
 * @throws DomainError 422 (security_and_analysis) naming the configuration
 */
export function checkEnforcedChange(app: App, repo: RepositoryRow, change: SwitchChange): void {
	const id = app.stores.codeSecurity.attachment(repo.id);
	const config = id === undefined ? undefined : app.stores.codeSecurity.byId(id);
	// An attachment made by another owner (the repository was transferred since) binds nothing.
	if (!config || (config.org_id !== null && config.org_id !== repo.owner_id)) return;
	const settings = settingsOf(config);
	if (settings.enforcement !== 'enforced') return;
	const wanted = changesOf(settings);
	for (const [name, on] of Object.entries(change) as Array<[keyof SwitchChange, boolean]>) {
		if (wanted[name] !== undefined && wanted[name] !== on) {
			throw invalidField(
				'Repository',
				'security_and_analysis',
				`${name} is set by the enforced code security configuration "${config.name}"; change the configuration, or detach the repository from it`,
			);
		}
	}
}

/** Writes the switches of repositories.security_settings a change names (no event: the caller records it). */
export function writeSwitches(app: App, repoId: number, change: SwitchChange): void {
	const stored = app.stores.codeSecurity.switches(repoId);
	let any = false;
	for (const name of SWITCHES) {
		const wanted = change[name];
		if (wanted === undefined) continue;
		stored[name] = wanted ? 1 : 0;
		any = true;
	}
	if (any) app.stores.codeSecurity.setSwitches(repoId, stored);
}

/**
 * Sets the repository's switches; when any moves, records security_and_analysis with the previous
 * security_and_analysis in changes.from.
 * @returns true when a switch moved
 */
export function applySwitches(app: App, repo: RepositoryRow, change: SwitchChange, actorId: number | null): boolean {
	const { stores } = app;
	const current = stores.repos.byId(repo.id) ?? repo;
	const before = securityAndAnalysis(app, current);
	const stored = stores.codeSecurity.switches(repo.id);
	let moved = false;
	for (const name of SWITCHES) {
		const wanted = change[name];
		if (wanted === undefined) continue;
		const now = repositorySwitches(app, repo.id)[name] === 1;
		stored[name] = wanted ? 1 : 0;
		if (now !== wanted) moved = true;
	}
	stores.codeSecurity.setSwitches(repo.id, stored);
	const advanced = change.advanced_security === undefined ? current.advanced_security : change.advanced_security ? 1 : 0;
	const dismissal =
		change.dependabot_delegated_alert_dismissal === undefined
			? current.delegated_alert_dismissal
			: change.dependabot_delegated_alert_dismissal
				? 1
				: 0;
	if (advanced !== current.advanced_security || dismissal !== current.delegated_alert_dismissal) {
		stores.repos.setSecurity(repo.id, { advanced_security: advanced, delegated_alert_dismissal: dismissal });
		moved = true;
	}
	if (moved) securityAndAnalysisChanged(app, current, before, actorId);
	return moved;
}

/** security_and_analysis: the repository's security features changed (`before`: as they were). */
export function securityAndAnalysisChanged(app: App, repo: RepositoryRow, before: Record<string, unknown>, actorId: number | null): void {
	record(app, {
		event: 'security_and_analysis',
		action: null,
		actorId,
		repo,
		webhook: () => {
			const base = inRepository(app, repo, actorId);
			const current = app.stores.repos.byId(repo.id) ?? repo;
			return {
				changes: { from: { security_and_analysis: before } },
				...base,
				repository: { ...(base.repository as Record<string, unknown>), security_and_analysis: securityAndAnalysis(app, current) },
			};
		},
	});
}

/** Attach scopes of POST …/attach. */
export const ATTACH_SCOPES = ['all', 'all_without_configurations', 'public', 'private_or_internal', 'selected'] as const;
export type AttachScope = (typeof ATTACH_SCOPES)[number];

/**
 * The organization's repositories a scope names.
 * @throws DomainError 422 when `selected` names no repositories or one that is not the organization's
 */
export function scopeRepositories(app: App, org: AccountRow, scope: AttachScope, selected: number[] | undefined): RepositoryRow[] {
	const all = app.stores.repos.forOwner(org.id);
	switch (scope) {
		case 'all':
			return all;
		case 'all_without_configurations':
			return all.filter((repo) => app.stores.codeSecurity.attachment(repo.id) === undefined);
		case 'public':
			return all.filter((repo) => repo.visibility === 'public');
		case 'private_or_internal':
			return all.filter((repo) => repo.visibility !== 'public');
		case 'selected': {
			if (!selected?.length)
				throw invalidField(
					'CodeSecurityConfiguration',
					'selected_repository_ids',
					'selected_repository_ids is required when scope is selected',
					'missing_field',
				);
			const byId = new Map(all.map((repo) => [repo.id, repo]));
			return selected.map((id) => {
				const repo = byId.get(id);
				if (!repo)
					throw invalidField(
						'CodeSecurityConfiguration',
						'selected_repository_ids',
						`repository ${id} is not a repository of ${org.login}`,
					);
				return repo;
			});
		}
	}
}

/** Attaches the configuration to each repository and applies its settings. */
export function attachConfiguration(app: App, config: ConfigurationRow, repos: RepositoryRow[], actorId: number | null, now: string): void {
	const change = changesOf(settingsOf(config));
	for (const repo of repos) {
		app.stores.codeSecurity.attach(repo.id, config.id, now);
		applySwitches(app, repo, change, actorId);
	}
}

/**
 * A new repository of an organization: the organization's default configuration for its
 * visibility, if any, is attached (GitHub's default_for_new_repos).
 */
export function attachDefaultConfiguration(app: App, owner: AccountRow, repo: RepositoryRow, actorId: number | null, now: string): void {
	if (owner.type !== 'Organization') return;
	const wanted: DefaultForNewRepos = repo.visibility === 'public' ? 'public' : 'private_and_internal';
	const match = app.stores.codeSecurity
		.defaults(owner.id)
		.find((row) => row.default_for_new_repos === 'all' || row.default_for_new_repos === wanted);
	if (match) attachConfiguration(app, match, [repo], actorId, now);
}

/**
 * Makes `config` the organization's default for `value`; the defaults it overlaps give way
 * (a configuration for `all` takes both; one for public or private_and_internal takes that half
 * from an `all` default, which keeps the other half).
 */
export function setDefault(app: App, orgId: number, config: ConfigurationRow, value: DefaultForNewRepos | 'none'): void {
	const store = app.stores.codeSecurity;
	if (value !== 'none') {
		for (const other of store.defaults(orgId)) {
			if (other.id === config.id) continue;
			const kept: DefaultForNewRepos | 'none' =
				value === 'all' || other.default_for_new_repos === value
					? 'none'
					: other.default_for_new_repos === 'all'
						? value === 'public'
							? 'private_and_internal'
							: 'public'
						: other.default_for_new_repos;
			store.setDefault(orgId, other.id, kept);
		}
	}
	store.setDefault(orgId, config.id, value);
}

/**
 * GitHub's dependencies between settings: a feature needs the one it builds on.
 * @throws DomainError 422 naming the setting
 */
export function checkSettings(settings: Settings): void {
	const needs = (field: keyof Settings, on: keyof Settings, sentence: string) => {
		if (settings[field] === 'enabled' && settings[on] !== 'enabled') throw invalidField('CodeSecurityConfiguration', field, sentence);
	};
	needs('dependabot_alerts', 'dependency_graph', 'Dependabot alerts require the dependency graph to be enabled');
	needs('dependabot_security_updates', 'dependabot_alerts', 'Dependabot security updates require Dependabot alerts to be enabled');
	needs(
		'dependency_graph_autosubmit_action',
		'dependency_graph',
		'Automatic dependency submission requires the dependency graph to be enabled',
	);
	needs('secret_scanning_push_protection', 'secret_scanning', 'Push protection requires secret scanning to be enabled');
	needs('secret_scanning_validity_checks', 'secret_scanning', 'Validity checks require secret scanning to be enabled');
	needs('secret_scanning_non_provider_patterns', 'secret_scanning', 'Non-provider patterns require secret scanning to be enabled');
	needs('secret_scanning_delegated_bypass', 'secret_scanning_push_protection', 'Delegated bypass requires push protection to be enabled');
}

/** The security products of POST /orgs/{org}/{security_product}/{enablement}, with the switch each sets. */
export const SECURITY_PRODUCTS = {
	dependency_graph: 'dependency_graph',
	dependabot_alerts: 'dependabot_alerts',
	dependabot_security_updates: 'dependabot_security_updates',
	advanced_security: 'advanced_security',
	code_scanning_default_setup: 'code_scanning_default_setup',
	secret_scanning: 'secret_scanning',
	secret_scanning_push_protection: 'secret_scanning_push_protection',
} as const;
export type SecurityProduct = keyof typeof SECURITY_PRODUCTS;
