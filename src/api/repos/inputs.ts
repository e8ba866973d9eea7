/**
 * The bodies of the repository writes (GitHub's repos API: create, update), shared by the REST
 * routes and the GraphQL mutations that make the same changes.
 */
import * as v from 'valibot';

const flag = v.optional(v.boolean());
const securityStatus = v.optional(v.object({ status: v.picklist(['enabled', 'disabled'], 'status must be enabled or disabled') }));
/** Body of PATCH /repos/{owner}/{repo}. */
export const updateBody = v.object({
	name: v.optional(v.pipe(v.string(), v.minLength(1, "name can't be blank"))),
	description: v.optional(v.nullable(v.string())),
	homepage: v.optional(v.nullable(v.string())),
	private: flag,
	visibility: v.optional(v.picklist(['public', 'private', 'internal'], 'visibility must be public, private or internal')),
	default_branch: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(255))),
	has_issues: flag,
	has_projects: flag,
	has_wiki: flag,
	has_downloads: flag,
	has_discussions: flag,
	is_template: flag,
	archived: flag,
	allow_squash_merge: flag,
	allow_merge_commit: flag,
	allow_rebase_merge: flag,
	allow_auto_merge: flag,
	delete_branch_on_merge: flag,
	allow_forking: flag,
	web_commit_signoff_required: flag,
	allow_update_branch: flag,
	use_squash_pr_title_as_default: flag,
	squash_merge_commit_title: v.optional(
		v.picklist(['PR_TITLE', 'COMMIT_OR_PR_TITLE'], 'squash_merge_commit_title must be PR_TITLE or COMMIT_OR_PR_TITLE'),
	),
	squash_merge_commit_message: v.optional(
		v.picklist(['PR_BODY', 'COMMIT_MESSAGES', 'BLANK'], 'squash_merge_commit_message must be PR_BODY, COMMIT_MESSAGES or BLANK'),
	),
	merge_commit_title: v.optional(v.picklist(['PR_TITLE', 'MERGE_MESSAGE'], 'merge_commit_title must be PR_TITLE or MERGE_MESSAGE')),
	merge_commit_message: v.optional(
		v.picklist(['PR_BODY', 'PR_TITLE', 'BLANK'], 'merge_commit_message must be PR_BODY, PR_TITLE or BLANK'),
	),
	security_and_analysis: v.optional(
		v.object({
			advanced_security: securityStatus,
			dependabot_delegated_alert_dismissal: securityStatus,
			secret_scanning: securityStatus,
			secret_scanning_push_protection: securityStatus,
			secret_scanning_non_provider_patterns: securityStatus,
			secret_scanning_validity_checks: securityStatus,
		}),
	),
});
/** A template name where "" means not given, as GitHub reads it (Terraform's provider always sends both). */
const emptyIsAbsent = v.optional(
	v.pipe(
		v.string(),
		v.transform((s) => (s === '' ? undefined : s)),
	),
);
/** Body of repository creation (organization and user). */
export const createBody = v.object({
	name: v.pipe(v.string(), v.minLength(1)),
	description: v.optional(v.nullable(v.string())),
	homepage: v.optional(v.nullable(v.string())),
	private: flag,
	visibility: v.optional(v.picklist(['public', 'private', 'internal'])),
	has_issues: flag,
	has_projects: flag,
	has_wiki: flag,
	has_downloads: flag,
	has_discussions: flag,
	is_template: flag,
	team_id: v.optional(v.pipe(v.number(), v.integer())),
	auto_init: flag,
	gitignore_template: emptyIsAbsent,
	license_template: emptyIsAbsent,
	allow_squash_merge: flag,
	allow_merge_commit: flag,
	allow_rebase_merge: flag,
	allow_auto_merge: flag,
	delete_branch_on_merge: flag,
});
