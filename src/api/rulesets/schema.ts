/**
 * The request bodies of organization rulesets (POST and PUT /orgs/{org}/rulesets…), as valibot
 * schemas following GitHub's OpenAPI description (components/schemas/org-rules,
 * org-ruleset-conditions, repository-ruleset-bypass-actor): each rule type with its own
 * parameters, GitHub's bounds (max_file_size 1–100, max_file_path_length 1–32767, review count
 * 0–10, merge-queue limits), regular-expression patterns that must compile. A failure is the
 * pipeline's 422 "Validation Failed" with errors[] naming the field (rules.0.parameters.pattern).
 */
import * as v from 'valibot';

const int = v.pipe(v.number(), v.integer());
const bounded = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const strings = v.array(v.string());

/** The rule types GitHub documents for organization rulesets (merge_queue included, as repository rulesets take it). */
export const RULE_TYPES = [
	'creation',
	'update',
	'deletion',
	'required_linear_history',
	'merge_queue',
	'required_deployments',
	'required_signatures',
	'pull_request',
	'required_status_checks',
	'non_fast_forward',
	'commit_message_pattern',
	'commit_author_email_pattern',
	'committer_email_pattern',
	'branch_name_pattern',
	'tag_name_pattern',
	'file_path_restriction',
	'max_file_path_length',
	'file_extension_restriction',
	'max_file_size',
	'workflows',
	'code_scanning',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** A rule without parameters. */
const bare = <T extends RuleType>(type: T) => v.object({ type: v.literal(type) });
const withParameters = <T extends RuleType, P extends v.GenericSchema>(type: T, parameters: P) =>
	v.object({ type: v.literal(type), parameters });

/** True when `pattern` compiles as a regular expression (GitHub answers 422 for one RE2 rejects). */
function compiles(pattern: string): boolean {
	try {
		new RegExp(pattern);
		return true;
	} catch {
		return false;
	}
}

/** commit_message_pattern and the other name/e-mail pattern rules: operator, pattern, negate, name. */
const patternParameters = v.pipe(
	v.object({
		name: v.optional(v.string()),
		negate: v.optional(v.boolean()),
		operator: v.picklist(['starts_with', 'ends_with', 'contains', 'regex']),
		pattern: v.string(),
	}),
	v.check((p) => p.operator !== 'regex' || compiles(p.pattern), 'pattern is not a valid regular expression'),
);

const reviewer = v.object({ id: int, type: v.literal('Team') });

/** One rule of a ruleset, by `type` (GitHub's org-rules). */
export const ruleSchema = v.variant('type', [
	bare('creation'),
	withParameters('update', v.object({ update_allows_fetch_and_merge: v.boolean() })),
	bare('deletion'),
	bare('required_linear_history'),
	withParameters(
		'merge_queue',
		v.object({
			check_response_timeout_minutes: bounded(1, 360),
			grouping_strategy: v.picklist(['ALLGREEN', 'HEADGREEN']),
			max_entries_to_build: bounded(0, 100),
			max_entries_to_merge: bounded(0, 100),
			merge_method: v.picklist(['MERGE', 'SQUASH', 'REBASE']),
			min_entries_to_merge: bounded(0, 100),
			min_entries_to_merge_wait_minutes: bounded(0, 360),
		}),
	),
	withParameters('required_deployments', v.object({ required_deployment_environments: strings })),
	bare('required_signatures'),
	withParameters(
		'pull_request',
		v.object({
			allowed_merge_methods: v.optional(
				v.pipe(v.array(v.picklist(['merge', 'squash', 'rebase'])), v.minLength(1, 'at least one merge method must be allowed')),
			),
			dismiss_stale_reviews_on_push: v.boolean(),
			require_code_owner_review: v.boolean(),
			require_last_push_approval: v.boolean(),
			required_approving_review_count: bounded(0, 10),
			required_review_thread_resolution: v.boolean(),
			required_reviewers: v.optional(v.array(v.object({ file_patterns: strings, minimum_approvals: int, reviewer }))),
		}),
	),
	withParameters(
		'required_status_checks',
		v.object({
			do_not_enforce_on_create: v.optional(v.boolean()),
			required_status_checks: v.array(v.object({ context: v.pipe(v.string(), v.minLength(1)), integration_id: v.optional(int) })),
			strict_required_status_checks_policy: v.boolean(),
		}),
	),
	bare('non_fast_forward'),
	withParameters('commit_message_pattern', patternParameters),
	withParameters('commit_author_email_pattern', patternParameters),
	withParameters('committer_email_pattern', patternParameters),
	withParameters('branch_name_pattern', patternParameters),
	withParameters('tag_name_pattern', patternParameters),
	withParameters('file_path_restriction', v.object({ restricted_file_paths: strings })),
	withParameters('max_file_path_length', v.object({ max_file_path_length: bounded(1, 32767) })),
	withParameters('file_extension_restriction', v.object({ restricted_file_extensions: strings })),
	withParameters('max_file_size', v.object({ max_file_size: bounded(1, 100) })),
	withParameters(
		'workflows',
		v.object({
			do_not_enforce_on_create: v.optional(v.boolean()),
			workflows: v.array(
				v.object({ path: v.string(), ref: v.optional(v.string()), repository_id: int, sha: v.optional(v.string()) }),
			),
		}),
	),
	withParameters(
		'code_scanning',
		v.object({
			code_scanning_tools: v.array(
				v.object({
					alerts_threshold: v.picklist(['none', 'errors', 'errors_and_warnings', 'all']),
					security_alerts_threshold: v.picklist(['none', 'critical', 'high_or_higher', 'medium_or_higher', 'all']),
					tool: v.string(),
				}),
			),
		}),
	),
]);
/** One rule as validated (and stored). */
export type Rule = v.InferOutput<typeof ruleSchema>;

/** Rule types a push ruleset takes (file rules); branch and tag rulesets take the others. */
export const PUSH_RULES: ReadonlySet<string> = new Set([
	'file_path_restriction',
	'max_file_path_length',
	'file_extension_restriction',
	'max_file_size',
]);

/** Bypass actor types GitHub takes (components/schemas/repository-ruleset-bypass-actor). */
export const ACTOR_TYPES = ['Integration', 'OrganizationAdmin', 'RepositoryRole', 'Team', 'DeployKey', 'EnterpriseOwner'] as const;

/** repository-ruleset-bypass-actor: actor_id is required for Integration, RepositoryRole and Team. */
export const bypassActorSchema = v.pipe(
	v.object({
		actor_id: v.optional(v.nullable(int)),
		actor_type: v.picklist(ACTOR_TYPES),
		bypass_mode: v.optional(v.picklist(['always', 'pull_request']), 'always'),
	}),
	v.check(
		(a) => !['Integration', 'RepositoryRole', 'Team'].includes(a.actor_type) || typeof a.actor_id === 'number',
		'actor_id is required for this actor_type',
	),
	v.check(
		(a) => !(a.actor_type === 'DeployKey' && a.bypass_mode === 'pull_request'),
		'pull_request is not applicable for the DeployKey actor type',
	),
);
export type BypassActor = v.InferOutput<typeof bypassActorSchema>;

const includeExclude = v.object({ include: v.optional(strings, []), exclude: v.optional(strings, []) });
const propertySpec = v.object({
	name: v.pipe(v.string(), v.minLength(1)),
	property_values: strings,
	source: v.optional(v.picklist(['custom', 'system']), 'custom'),
});

/**
 * org-ruleset-conditions: ref_name, and exactly one of repository_name, repository_id or
 * repository_property (GitHub's oneOf).
 */
export const conditionsSchema = v.pipe(
	v.object({
		ref_name: v.optional(includeExclude),
		repository_name: v.optional(
			v.object({ include: v.optional(strings, []), exclude: v.optional(strings, []), protected: v.optional(v.boolean()) }),
		),
		repository_id: v.optional(v.object({ repository_ids: v.optional(v.array(int), []) })),
		repository_property: v.optional(
			v.object({ include: v.optional(v.array(propertySpec), []), exclude: v.optional(v.array(propertySpec), []) }),
		),
	}),
	v.check(
		(c) => [c.repository_name, c.repository_id, c.repository_property].filter((x) => x !== undefined).length === 1,
		'conditions must name exactly one of repository_name, repository_id or repository_property',
	),
);
export type Conditions = v.InferOutput<typeof conditionsSchema>;

const fields = {
	name: v.pipe(v.string(), v.minLength(1, 'name must not be empty')),
	target: v.picklist(['branch', 'tag', 'push']),
	enforcement: v.picklist(['disabled', 'active', 'evaluate']),
	bypass_actors: v.array(bypassActorSchema),
	conditions: v.nullable(conditionsSchema),
	rules: v.array(ruleSchema),
};

/** POST /orgs/{org}/rulesets: name and enforcement required; target defaults to branch. */
export const createBody = v.object({
	name: fields.name,
	target: v.optional(fields.target, 'branch'),
	enforcement: fields.enforcement,
	bypass_actors: v.optional(fields.bypass_actors, []),
	conditions: v.optional(fields.conditions, null),
	rules: v.optional(fields.rules, []),
	source_type: v.optional(v.picklist(['Repository', 'Organization'])),
});

/** PUT /orgs/{org}/rulesets/{ruleset_id}: every field optional; the ones given replace. */
export const updateBody = v.object({
	name: v.optional(fields.name),
	target: v.optional(fields.target),
	enforcement: v.optional(fields.enforcement),
	bypass_actors: v.optional(fields.bypass_actors),
	conditions: v.optional(fields.conditions),
	rules: v.optional(fields.rules),
});

/** A repository ruleset's conditions (GitHub's repository-ruleset-conditions): only ref_name. */
const repositoryConditions = v.nullable(v.object({ ref_name: v.optional(includeExclude) }));

/** POST /repos/{owner}/{repo}/rulesets: as the organization's, with only ref_name conditions. */
export const repositoryCreateBody = v.object({ ...createBody.entries, conditions: v.optional(repositoryConditions, null) });

/** PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}: every field optional; the ones given replace. */
export const repositoryUpdateBody = v.object({ ...updateBody.entries, conditions: v.optional(repositoryConditions) });
