/**
 * Which organization rulesets apply where, and who bypasses them (GitHub's "About rulesets",
 * "Creating rulesets for repositories in your organization"):
 * - ref_name: include/exclude of fnmatch patterns over full reference names (refs/heads/main,
 *   refs/heads/release/**), `~DEFAULT_BRANCH`, `~ALL`; a branch ruleset sees refs/heads/…, a tag
 *   ruleset refs/tags/…;
 * - repository_name: include/exclude of fnmatch patterns over repository names, `~ALL`;
 * - repository_id: the listed repositories;
 * - repository_property: every include spec matches and no exclude spec does. `custom` properties
 *   take the organization's definitions' default values (Gitstead stores no per-repository values
 *   yet); `system` properties are the repository's own: visibility, fork, language, archived,
 *   template.
 * Bypass actors: OrganizationAdmin (organization owners), EnterpriseOwner (owners of the
 * organization's enterprise), Team (its active members), RepositoryRole
 * (actor_id 2 maintain, 4 write, 5 admin, and 1 read, 3 triage: the actor's role on the repository
 * at least that one), Integration (the app's bot); DeployKey never matches (Gitstead has no deploy keys).
 */
import type picomatch from 'picomatch';
import type { App } from '../../app';
import { userRepoPermission } from '../../auth/access/repos';
import { atLeast, type RepoPermission } from '../../model/repo-permissions';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import type { BypassActor, Conditions } from './schema';
import type { RulesetRow } from './store';

/** GitHub's ids of the built-in repository roles (bypass actors of type RepositoryRole). */
export const REPOSITORY_ROLE_IDS: Readonly<Record<number, RepoPermission>> = {
	1: 'pull',
	2: 'maintain',
	3: 'triage',
	4: 'push',
	5: 'admin',
};

const matchers = new Map<string, (text: string) => boolean>();
/** fnmatch over the whole text: `*` stays within a path segment, `**` crosses them. */
function fnmatch(pattern: string, text: string): boolean {
	let matcher = matchers.get(pattern);
	if (!matcher) {
		// picomatch is loaded at the first match, not while the server starts.
		matcher = (require('picomatch') as typeof picomatch)(pattern, { dot: true, nobrace: true, noextglob: true });
		if (matchers.size > 1000) matchers.clear();
		matchers.set(pattern, matcher);
	}
	return matcher(text);
}

/** The kind of reference a ruleset target covers ('push' rulesets cover every push). */
function refKind(target: RulesetRow['target'], ref: string): boolean {
	if (target === 'branch') return ref.startsWith('refs/heads/');
	if (target === 'tag') return ref.startsWith('refs/tags/');
	return ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/');
}

/** One ref_name pattern against a full reference name. */
function refPattern(pattern: string, ref: string, repo: RepositoryRow): boolean {
	if (pattern === '~ALL') return true;
	if (pattern === '~DEFAULT_BRANCH') return ref === `refs/heads/${repo.default_branch}`;
	return fnmatch(pattern, ref);
}

/** The ruleset's ref_name condition admits `ref` (full name). Push rulesets need none. */
export function refMatches(ruleset: Pick<RulesetRow, 'target'>, conditions: Conditions | null, ref: string, repo: RepositoryRow): boolean {
	if (!refKind(ruleset.target, ref)) return false;
	const refName = conditions?.ref_name;
	if (!refName) return ruleset.target === 'push';
	if (!refName.include.some((p) => refPattern(p, ref, repo))) return false;
	return !refName.exclude.some((p) => refPattern(p, ref, repo));
}

/** The values of a repository's properties: the custom ones (definitions' defaults) and the system ones. */
export function repositoryPropertyValues(
	app: App,
	org: AccountRow,
	repo: RepositoryRow,
): { custom: Map<string, string[]>; system: Map<string, string[]> } {
	const custom = new Map<string, string[]>();
	for (const definition of app.stores.customProperties.list({ kind: 'organization', id: org.id })) {
		if (definition.default_value === null) continue;
		const value = JSON.parse(definition.default_value) as string | string[] | null;
		if (value === null) continue;
		custom.set(definition.property_name.toLowerCase(), Array.isArray(value) ? value : [value]);
	}
	const system = new Map<string, string[]>([
		['visibility', [repo.visibility]],
		['fork', [String(repo.fork_parent_id !== null)]],
		['archived', [String(repo.archived === 1)]],
		['template', [String(repo.is_template === 1)]],
	]);
	if (repo.language) system.set('language', [repo.language]);
	return { custom, system };
}

/** The ruleset's repository condition admits the repository. */
export function repositoryMatches(app: App, org: AccountRow, conditions: Conditions | null, repo: RepositoryRow): boolean {
	if (!conditions) return false;
	if (conditions.repository_id) return conditions.repository_id.repository_ids.includes(repo.id);
	if (conditions.repository_name) {
		const { include, exclude } = conditions.repository_name;
		const name = repo.name.toLowerCase();
		const hit = (p: string) => p === '~ALL' || fnmatch(p.toLowerCase(), name);
		return include.some(hit) && !exclude.some(hit);
	}
	if (conditions.repository_property) {
		const values = repositoryPropertyValues(app, org, repo);
		const hit = (spec: { name: string; property_values: string[]; source: 'custom' | 'system' }) => {
			const held = values[spec.source].get(spec.source === 'custom' ? spec.name.toLowerCase() : spec.name) ?? [];
			return spec.property_values.some((value) => held.includes(value));
		};
		const { include, exclude } = conditions.repository_property;
		return include.every(hit) && !exclude.some(hit);
	}
	return false;
}

/** The ruleset's conditions, parsed. */
export function conditionsOf(ruleset: RulesetRow): Conditions | null {
	return ruleset.conditions === null ? null : (JSON.parse(ruleset.conditions) as Conditions);
}

/** The ruleset applies to `ref` (full name) of `repo` (an organization repository). */
export function rulesetApplies(app: App, org: AccountRow, ruleset: RulesetRow, repo: RepositoryRow, ref: string): boolean {
	const conditions = conditionsOf(ruleset);
	// A repository ruleset applies to its own repository only: its ref_name condition decides.
	if (ruleset.repo_id !== null) return ruleset.repo_id === repo.id && refMatches(ruleset, conditions, ref, repo);
	return refMatches(ruleset, conditions, ref, repo) && repositoryMatches(app, org, conditions, repo);
}

/** Whether one bypass actor entry covers the account `actorId` (on `repo`, for repository roles). */
function actorMatches(app: App, org: AccountRow, actor: BypassActor, actorId: number, repo: RepositoryRow | null): boolean {
	switch (actor.actor_type) {
		case 'OrganizationAdmin': {
			const membership = app.stores.memberships.get(org.id, actorId);
			return membership?.state === 'active' && membership.role === 'admin';
		}
		case 'EnterpriseOwner':
			return org.enterprise_id !== null && app.stores.enterprises.role(org.enterprise_id, actorId) === 'owner';
		case 'Team':
			return actor.actor_id != null && app.stores.teams.membership(actor.actor_id, actorId)?.state === 'active';
		case 'Integration':
			return actor.actor_id != null && app.stores.apps.byId(actor.actor_id)?.bot_id === actorId;
		case 'RepositoryRole': {
			const role = actor.actor_id == null ? undefined : REPOSITORY_ROLE_IDS[actor.actor_id];
			if (!role || !repo) return false;
			return atLeast(userRepoPermission(app, repo, org, actorId), role);
		}
		default:
			return false;
	}
}

/**
 * How the account may bypass the ruleset: 'always', 'pull_requests_only' (only through pull
 * requests) or 'never'. `repo` is needed for RepositoryRole actors (null: none of those match).
 */
export function bypassMode(
	app: App,
	org: AccountRow,
	ruleset: RulesetRow,
	actorId: number | null,
	repo: RepositoryRow | null,
): 'always' | 'pull_requests_only' | 'never' {
	if (actorId === null) return 'never';
	let mode: 'always' | 'pull_requests_only' | 'never' = 'never';
	for (const actor of JSON.parse(ruleset.bypass_actors) as BypassActor[]) {
		if (!actorMatches(app, org, actor, actorId, repo)) continue;
		if (actor.bypass_mode === 'always') return 'always';
		mode = 'pull_requests_only';
	}
	return mode;
}
