/**
 * A repository's security switches as they are now (src/model/security-switches.ts names them):
 * read by the areas that gate on them (Dependabot alerts, dependency review). Imports no events
 * and no store, so any area may read them.
 */
import type { App } from '../../app';
import type { RepositoryRow } from '../../model/rows';
import { SWITCH_DEFAULTS, securityAndAnalysisOf, type SwitchName } from '../../model/security-switches';

/** Every switch of a repository: 1 enabled, 0 disabled. */
export function repositorySwitches(app: App, repoId: number): Record<SwitchName, number> {
	return { ...SWITCH_DEFAULTS, ...app.stores.codeSecurity.switches(repoId) } as Record<SwitchName, number>;
}

/** True when the repository's switch is on (e.g. `dependabot_alerts`). */
export function switchOn(app: App, repoId: number, name: SwitchName): boolean {
	return repositorySwitches(app, repoId)[name] === 1;
}

/** security_and_analysis of the repository as it is now (read again: a change may have moved it). */
export function securityAndAnalysis(app: App, repo: RepositoryRow): Record<string, { status: 'enabled' | 'disabled' }> {
	return securityAndAnalysisOf(app.stores.repos.byId(repo.id) ?? repo);
}
