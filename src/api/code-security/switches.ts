/**
 * The repository security switches a code security configuration drives (repositories'
 * security_and_analysis, kept in repositories.security_settings): read by the areas that gate on
 * them (Dependabot alerts, dependency review) and by the repository renderer. Imports no events
 * and no store, so any area may read them.
 */
import type { App } from '../../app';
import type { RepositoryRow } from '../repos/store';

/**
 * Repository switches a configuration drives, kept in repositories.security_settings (1 / 0), with
 * Gitstead's value for a repository no configuration set.
 */
export const SWITCH_DEFAULTS = {
	dependency_graph: 1,
	dependency_graph_autosubmit_action: 0,
	dependabot_alerts: 1,
	dependabot_security_updates: 0,
	code_scanning_default_setup: 0,
	secret_scanning: 0,
	secret_scanning_push_protection: 0,
	secret_scanning_validity_checks: 0,
	secret_scanning_non_provider_patterns: 0,
	private_vulnerability_reporting: 0,
} as const;
export type SwitchName = keyof typeof SWITCH_DEFAULTS;
export const SWITCHES = Object.keys(SWITCH_DEFAULTS) as SwitchName[];

/** Every switch of a repository: 1 enabled, 0 disabled. */
export function repositorySwitches(app: App, repoId: number): Record<SwitchName, number> {
	return { ...SWITCH_DEFAULTS, ...app.stores.codeSecurity.switches(repoId) } as Record<SwitchName, number>;
}

/** True when the repository's switch is on (e.g. `dependabot_alerts`). */
export function switchOn(app: App, repoId: number, name: SwitchName): boolean {
	return repositorySwitches(app, repoId)[name] === 1;
}

/** Every switch of a repository row: 1 enabled, 0 disabled. */
export function switchesOf(repo: Pick<RepositoryRow, 'security_settings'>): Record<SwitchName, number> {
	return { ...SWITCH_DEFAULTS, ...(JSON.parse(repo.security_settings ?? '{}') as Record<string, number>) } as Record<SwitchName, number>;
}

/** GitHub's security_and_analysis object of a repository row (administrators see it). */
export function securityAndAnalysisOf(repo: RepositoryRow): Record<string, { status: 'enabled' | 'disabled' }> {
	const status = (on: number) => ({ status: on === 1 ? ('enabled' as const) : ('disabled' as const) });
	const on = switchesOf(repo);
	return {
		advanced_security: status(repo.advanced_security),
		dependabot_delegated_alert_dismissal: status(repo.delegated_alert_dismissal),
		dependabot_security_updates: status(on.dependabot_security_updates),
		secret_scanning: status(on.secret_scanning),
		secret_scanning_push_protection: status(on.secret_scanning_push_protection),
		secret_scanning_non_provider_patterns: status(on.secret_scanning_non_provider_patterns),
		secret_scanning_validity_checks: status(on.secret_scanning_validity_checks),
	};
}

/** security_and_analysis of the repository as it is now (read again: a change may have moved it). */
export function securityAndAnalysis(app: App, repo: RepositoryRow): Record<string, { status: 'enabled' | 'disabled' }> {
	return securityAndAnalysisOf(app.stores.repos.byId(repo.id) ?? repo);
}
