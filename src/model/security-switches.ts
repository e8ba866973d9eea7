/**
 * The repository security switches a code security configuration drives (repositories'
 * security_and_analysis, kept in repositories.security_settings as JSON {switch: 1 | 0}): their
 * names, Gitstead's value where no configuration set one, and how a repository row shows them.
 */
import type { RepositoryRow } from './rows';

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
