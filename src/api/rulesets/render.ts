/**
 * JSON of rulesets (GitHub's repository-ruleset: id, name, target, source_type "Organization" or
 * "Repository", source, enforcement, bypass_actors, conditions, rules, node_id, _links,
 * created_at, updated_at, current_user_can_bypass), ruleset versions (ruleset-version and
 * ruleset-version-with-state), rule suites (rule-suites, rule-suite) and push-rule bypass requests
 * (push-rule-bypass-request).
 */
import { nodeId, type Urls } from '../../model/urls';
import type { AccountRow } from '../../model/rows';
import type { BypassRequestRow, RuleSuiteRow, RulesetRow, RulesetVersionRow } from './store';

/** One evaluation of a rule suite as stored (the ruleset's enforcement at the time). */
export interface StoredEvaluation {
	rule_source: { type: 'ruleset'; id: number; name: string };
	enforcement: 'active' | 'evaluate';
	result: 'pass' | 'fail';
	rule_type: string;
	details: string | null;
}

/** GitHub's _links of a ruleset: the API address and the settings page (the organization's or the repository's). */
function links(urls: Urls, org: AccountRow, row: RulesetRow) {
	if (row.repo_id !== null)
		return {
			self: { href: urls.api(`/repos/${org.login}/${row.repo_name}/rulesets/${row.id}`) },
			html: { href: urls.html(`/${org.login}/${row.repo_name}/rules/${row.id}`) },
		};
	return {
		self: { href: urls.api(`/orgs/${org.login}/rulesets/${row.id}`) },
		html: { href: urls.html(`/organizations/${org.login}/settings/rules/${row.id}`) },
	};
}

/** source_type and source: "Organization" and its login, or "Repository" and owner/name. */
export function rulesetSource(org: AccountRow, row: Pick<RulesetRow, 'repo_id' | 'repo_name'>) {
	return row.repo_id !== null
		? { source_type: 'Repository' as const, source: `${org.login}/${row.repo_name}` }
		: { source_type: 'Organization' as const, source: org.login };
}

/** The list form (GET /orgs/{org}/rulesets, GET /repos/…/rulesets): no bypass actors, conditions or rules. */
export function rulesetSummary(urls: Urls, org: AccountRow, row: RulesetRow) {
	return { ...rulesetHead(org, row), ...rulesetTail(urls, org, row) };
}

/** The fields a ruleset starts with, in GitHub's order, in both forms. */
function rulesetHead(org: AccountRow, row: RulesetRow) {
	return { id: row.id, name: row.name, target: row.target, ...rulesetSource(org, row), enforcement: row.enforcement };
}

/** The fields a ruleset ends with, in GitHub's order, in both forms. */
function rulesetTail(urls: Urls, org: AccountRow, row: RulesetRow) {
	return {
		node_id: nodeId('RepositoryRuleset', row.id),
		_links: links(urls, org, row),
		created_at: row.created_at,
		updated_at: row.updated_at,
	};
}

/**
 * The whole ruleset.
 * @param canBypass the caller's bypass mode (current_user_can_bypass), or undefined to leave it out
 */
export function ruleset(urls: Urls, org: AccountRow, row: RulesetRow, canBypass?: 'always' | 'pull_requests_only' | 'never') {
	return {
		...rulesetHead(org, row),
		bypass_actors: JSON.parse(row.bypass_actors) as unknown[],
		...(canBypass === undefined ? {} : { current_user_can_bypass: canBypass }),
		conditions: row.conditions === null ? null : (JSON.parse(row.conditions) as unknown),
		rules: JSON.parse(row.rules) as unknown[],
		...rulesetTail(urls, org, row),
	};
}

/** A version without its state (GET …/history). */
export function rulesetVersion(row: RulesetVersionRow) {
	return { version_id: row.id, actor: { id: row.actor_id, type: row.actor_type }, updated_at: row.updated_at };
}

/** A version with the ruleset as it was (GET …/history/{version_id}). */
export function rulesetVersionWithState(row: RulesetVersionRow) {
	return { ...rulesetVersion(row), state: JSON.parse(row.state) as Record<string, unknown> };
}

/** The list form of a rule suite. */
export function ruleSuiteSummary(row: RuleSuiteRow) {
	return {
		id: row.id,
		actor_id: row.actor_id,
		actor_name: row.actor_name,
		before_sha: row.before_sha,
		after_sha: row.after_sha,
		ref: row.ref,
		repository_id: row.repository_id,
		repository_name: row.repository_name,
		pushed_at: row.pushed_at,
		result: row.result,
		evaluation_result: row.evaluation_result,
	};
}

/**
 * A rule suite with its evaluations; a ruleset deleted since shows enforcement "deleted ruleset".
 * @param exists whether a ruleset still exists
 */
export function ruleSuite(row: RuleSuiteRow, exists: (rulesetId: number) => boolean) {
	const evaluations = JSON.parse(row.rule_evaluations) as StoredEvaluation[];
	return {
		...ruleSuiteSummary(row),
		rule_evaluations: evaluations.map((e) => ({
			...e,
			enforcement: exists(e.rule_source.id) ? e.enforcement : ('deleted ruleset' as const),
		})),
	};
}

/** A push-rule bypass request. */
export function bypassRequest(
	urls: Urls,
	row: BypassRequestRow,
	org: AccountRow,
	repo: { id: number; name: string; owner: string } | undefined,
	requester: AccountRow | undefined,
) {
	const fullName = repo ? `${repo.owner}/${repo.name}` : null;
	return {
		id: row.id,
		number: row.number,
		repository: { id: repo?.id ?? null, name: repo?.name ?? null, full_name: fullName },
		organization: { id: org.id, name: org.login },
		requester: { actor_id: row.requester_id, actor_name: requester?.login ?? '' },
		request_type: row.request_type,
		data: row.data === null ? null : (JSON.parse(row.data) as unknown[]),
		resource_identifier: row.resource_identifier,
		status: row.status,
		requester_comment: row.requester_comment,
		expires_at: row.expires_at,
		created_at: row.created_at,
		responses: JSON.parse(row.responses) as unknown[],
		url: urls.api(`/repos/${fullName}/bypass-requests/push-rules/${row.number}`),
		html_url: urls.html(`/${fullName}/exemptions/${row.number}`),
	};
}
