/**
 * A code security configuration's settings (GitHub's field names and defaults), read by the
 * service that applies them and by the renderer that answers them.
 * https://docs.github.com/rest/code-security/configurations
 */
import type { ConfigurationRow } from './store';

export type Tristate = 'enabled' | 'disabled' | 'not_set';
export const TRISTATE = ['enabled', 'disabled', 'not_set'] as const;
export const ADVANCED_SECURITY = ['enabled', 'disabled', 'code_security', 'secret_protection'] as const;

/** The settings of a configuration, GitHub's names; objects are GitHub's option objects. */
export interface Settings {
	advanced_security: (typeof ADVANCED_SECURITY)[number];
	code_security: Tristate | null;
	secret_protection: Tristate | null;
	dependency_graph: Tristate;
	dependency_graph_autosubmit_action: Tristate;
	dependency_graph_autosubmit_action_options: { labeled_runners: boolean };
	dependabot_alerts: Tristate;
	dependabot_security_updates: Tristate;
	dependabot_delegated_alert_dismissal: Tristate;
	code_scanning_options: { allow_advanced: boolean | null } | null;
	code_scanning_default_setup: Tristate;
	code_scanning_default_setup_options: { runner_type: 'standard' | 'labeled' | 'not_set'; runner_label: string | null } | null;
	code_scanning_delegated_alert_dismissal: Tristate;
	secret_scanning: Tristate;
	secret_scanning_push_protection: Tristate;
	secret_scanning_delegated_bypass: Tristate;
	secret_scanning_delegated_bypass_options: {
		reviewers: Array<{ reviewer_id: number; reviewer_type: 'TEAM' | 'ROLE'; mode: 'ALWAYS' | 'EXEMPT' }>;
	};
	secret_scanning_validity_checks: Tristate;
	secret_scanning_non_provider_patterns: Tristate;
	secret_scanning_generic_secrets: Tristate;
	secret_scanning_delegated_alert_dismissal: Tristate;
	secret_scanning_extended_metadata: Tristate;
	private_vulnerability_reporting: Tristate;
	enforcement: 'enforced' | 'unenforced';
}

/** GitHub's defaults for a configuration created without the setting (create-configuration's schema). */
export const SETTING_DEFAULTS: Settings = {
	advanced_security: 'disabled',
	code_security: null,
	secret_protection: null,
	dependency_graph: 'enabled',
	dependency_graph_autosubmit_action: 'disabled',
	dependency_graph_autosubmit_action_options: { labeled_runners: false },
	dependabot_alerts: 'disabled',
	dependabot_security_updates: 'disabled',
	dependabot_delegated_alert_dismissal: 'disabled',
	code_scanning_options: null,
	code_scanning_default_setup: 'disabled',
	code_scanning_default_setup_options: null,
	code_scanning_delegated_alert_dismissal: 'not_set',
	secret_scanning: 'disabled',
	secret_scanning_push_protection: 'disabled',
	secret_scanning_delegated_bypass: 'disabled',
	secret_scanning_delegated_bypass_options: { reviewers: [] },
	secret_scanning_validity_checks: 'disabled',
	secret_scanning_non_provider_patterns: 'disabled',
	secret_scanning_generic_secrets: 'disabled',
	secret_scanning_delegated_alert_dismissal: 'not_set',
	secret_scanning_extended_metadata: 'not_set',
	private_vulnerability_reporting: 'disabled',
	enforcement: 'enforced',
};

/** The settings of a stored configuration (stored JSON over the defaults). */
export function settingsOf(row: ConfigurationRow): Settings {
	return { ...SETTING_DEFAULTS, ...(JSON.parse(row.settings) as Partial<Settings>) };
}
