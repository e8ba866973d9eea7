/**
 * Row types of the entities every layer shares: accounts (users, organizations, app bots),
 * repositories, teams, enterprises, apps and installations, gists, issues and pull requests,
 * labels and milestones, notification threads. Each is one row of its table as the stores return it (SQLite integers for
 * flags, ISO timestamps as text); the stores in src/api/<area>/store.ts read and write them.
 * Types only: any layer may import them.
 */
import type { NotificationReason } from './notifications';

export interface AccountRow {
	id: number;
	login: string;
	type: 'User' | 'Organization' | 'Bot';
	name: string | null;
	email: string | null;
	company: string | null;
	blog: string | null;
	location: string | null;
	bio: string | null;
	description: string | null;
	site_admin: number;
	enterprise_id: number | null;
	billing_email: string | null;
	default_repository_permission: 'none' | 'read' | 'write' | 'admin';
	members_can_create_repositories: number;
	members_can_create_teams: number;
	has_organization_projects: number;
	has_repository_projects: number;
	created_at: string;
	updated_at: string;
	/** Organizations: members may fork its private and internal repositories (1) or not (0, the default). */
	members_can_fork_private_repositories: number;
	/** Users: `email` is public (1) or private to the user and site administrators (0, the default). */
	email_public: number;
	// Organizations (schema 11): the rest of GitHub's members_can_* policies, 1 allowed.
	members_can_create_public_repositories: number;
	members_can_create_private_repositories: number;
	members_can_create_internal_repositories: number;
	members_can_create_pages: number;
	members_can_create_public_pages: number;
	members_can_create_private_pages: number;
	/** Repository admins who are not owners may delete or transfer repositories (owners always may). */
	members_can_delete_repositories: number;
	members_can_change_repo_visibility: number;
	members_can_invite_outside_collaborators: number;
	members_can_delete_issues: number;
	members_can_view_dependency_insights: number;
	// Organizations (schema 21): the rest of GitHub's "Update an organization" settings.
	twitter_username: string | null;
	/** Every repository of the organization requires sign-off on web commits. */
	web_commit_signoff_required: number;
	advanced_security_enabled_for_new_repositories: number;
	dependabot_alerts_enabled_for_new_repositories: number;
	dependabot_security_updates_enabled_for_new_repositories: number;
	dependency_graph_enabled_for_new_repositories: number;
	secret_scanning_enabled_for_new_repositories: number;
	secret_scanning_push_protection_enabled_for_new_repositories: number;
	secret_scanning_push_protection_custom_link_enabled: number;
	secret_scanning_push_protection_custom_link: string | null;
	deploy_keys_enabled_for_repositories: number;
}

export interface RepositoryRow {
	id: number;
	owner_id: number;
	name: string;
	description: string | null;
	homepage: string | null;
	visibility: 'public' | 'private' | 'internal';
	fork_parent_id: number | null;
	default_branch: string;
	language: string | null;
	license_key: string | null;
	topics: string;
	has_issues: number;
	/** Open issues and pull requests (kept by triggers on issues). */
	open_issues_count: number;
	/** Users who starred it (kept by triggers on stars; GitHub's stargazers_count, watchers_count and watchers). */
	stargazers_count: number;
	/** Users watching it (kept by triggers on repository_subscriptions; GitHub's subscribers_count). */
	subscribers_count: number;
	has_projects: number;
	has_wiki: number;
	has_downloads: number;
	has_discussions: number;
	is_template: number;
	archived: number;
	/** security_and_analysis.advanced_security: 1 enabled. */
	advanced_security: number;
	/** Dependabot alerts are dismissed through reviewed dismissal requests: 1 enabled. */
	delegated_alert_dismissal: number;
	allow_squash_merge: number;
	allow_merge_commit: number;
	allow_rebase_merge: number;
	allow_auto_merge: number;
	delete_branch_on_merge: number;
	created_at: string;
	updated_at: string;
	pushed_at: string | null;
	/** Kilobytes of git data (GitHub's `size`), set by pushes and gc. */
	size: number;
	allow_forking: number;
	web_commit_signoff_required: number;
	allow_update_branch: number;
	use_squash_pr_title_as_default: number;
	squash_merge_commit_title: 'PR_TITLE' | 'COMMIT_OR_PR_TITLE';
	squash_merge_commit_message: 'PR_BODY' | 'COMMIT_MESSAGES' | 'BLANK';
	merge_commit_title: 'PR_TITLE' | 'MERGE_MESSAGE';
	merge_commit_message: 'PR_BODY' | 'PR_TITLE' | 'BLANK';
	/** Direct forks (kept by triggers on repositories; GitHub's forks_count and forks). */
	forks_count: number;
	/** JSON: the security switches of src/api/code-security/switches.ts (name → 1 / 0; absent: the default). */
	security_settings: string;
}

export interface TeamRow {
	id: number;
	org_id: number;
	name: string;
	slug: string;
	description: string | null;
	privacy: 'secret' | 'closed';
	notification_setting: 'notifications_enabled' | 'notifications_disabled';
	permission: string;
	parent_id: number | null;
	ldap_dn: string | null;
	created_at: string;
	updated_at: string;
}

export interface EnterpriseRow {
	id: number;
	slug: string;
	name: string;
	description: string | null;
	website_url: string | null;
	allow_outside_collaborators: number;
	created_at: string;
	updated_at: string;
}

export interface AppRow {
	id: number;
	slug: string;
	name: string;
	description: string | null;
	owner_id: number;
	bot_id: number;
	client_id: string;
	public_key: string;
	permissions: string;
	events: string;
	external_url: string | null;
	created_at: string;
	updated_at: string;
}

export interface InstallationRow {
	id: number;
	app_id: number;
	account_id: number;
	permissions: string;
	repository_selection: 'all' | 'selected';
	suspended_at: string | null;
	created_at: string;
	updated_at: string;
}

export interface GistRow {
	id: number;
	gist_id: string;
	owner_id: number;
	description: string | null;
	public: number;
	created_at: string;
	updated_at: string;
	/** ISO timestamp when a site administrator blocked the gist, else null. */
	blocked_at: string | null;
	block_reason: string | null;
	/** The gist this one was forked from (internal id), or null. */
	fork_of_id: number | null;
}

export interface IssueRow {
	id: number;
	repo_id: number;
	number: number;
	title: string;
	body: string | null;
	user_id: number;
	state: 'open' | 'closed';
	state_reason: 'completed' | 'not_planned' | 'duplicate' | 'reopened' | null;
	locked: number;
	active_lock_reason: string | null;
	pull_request: number;
	comments: number;
	closed_by_id: number | null;
	created_at: string;
	updated_at: string;
	closed_at: string | null;
	/** body rendered as sanitized HTML when it was written; null without a body */
	body_html: string | null;
	/** body rendered as plain text when it was written; null without a body */
	body_text: string | null;
	/** milestones.id of its milestone, or null */
	milestone_id: number | null;
	/** JSON {content: count} of its reactions (triggers keep it) */
	reaction_counts: string;
}

/** The columns every comment row has: its author, its Markdown body (rendered once, when written) and its times. */
export interface CommentColumns {
	id: number;
	user_id: number;
	body: string;
	created_at: string;
	updated_at: string;
	/** body rendered as sanitized HTML when it was written */
	body_html: string;
	/** body rendered as plain text when it was written */
	body_text: string;
}

export interface IssueCommentRow extends CommentColumns {
	repo_id: number;
	issue_id: number;
	/** JSON {content: count} of its reactions (triggers keep it) */
	reaction_counts: string;
}

/** The pull-request part of an issue. Branch names without refs/heads/. */
export interface PullRequestRow {
	issue_id: number;
	/** The base repository (the issue's). */
	repo_id: number;
	/** The repository holding the head branch (this one or a fork in its network); null once deleted. */
	head_repo_id: number | null;
	head_ref: string;
	head_sha: string;
	base_ref: string;
	base_sha: string;
	draft: number;
	maintainer_can_modify: number;
	merged_at: string | null;
	merged_by_id: number | null;
	merge_commit_sha: string | null;
	/** null: not computed (or a real merge is needed to know); 1 mergeable; 0 conflicting. */
	mergeable: number | null;
	mergeable_state: string;
	/** The head and base shas mergeable was computed for (stale when they differ from head_sha/base_sha). */
	mergeable_head_sha: string | null;
	mergeable_base_sha: string | null;
}

/** An issue row with its pull-request part. */
export type PullRow = IssueRow & { pr: PullRequestRow };

/** GitHub's review states. */
export type ReviewState = 'PENDING' | 'COMMENTED' | 'APPROVED' | 'CHANGES_REQUESTED' | 'DISMISSED';

/** One review of a pull request (pull_request_reviews). */
export interface ReviewRow {
	id: number;
	issue_id: number;
	user_id: number;
	state: ReviewState;
	/** '' when none was given. */
	body: string;
	body_html: string | null;
	body_text: string | null;
	/** The commit reviewed. */
	commit_id: string;
	/** ISO timestamp; null while pending. */
	submitted_at: string | null;
	created_at: string;
	updated_at: string;
}

export interface LabelRow {
	id: number;
	repo_id: number;
	name: string;
	color: string;
	description: string | null;
	is_default: number;
}

export interface MilestoneRow {
	id: number;
	repo_id: number;
	number: number;
	title: string;
	description: string | null;
	state: 'open' | 'closed';
	/** ISO timestamp or null */
	due_on: string | null;
	creator_id: number | null;
	open_issues: number;
	closed_issues: number;
	created_at: string;
	updated_at: string;
	closed_at: string | null;
}

export interface ThreadRow {
	id: number;
	user_id: number;
	/** notification_subjects.id */
	subject_id: number;
	repository_id: number;
	/** The thread's reason as of its latest notification; null before the first. */
	reason: NotificationReason | null;
	/** What the user is to the subject so far: the reason their next notification carries at least. */
	standing: NotificationReason | null;
	/** 1: the user follows the thread (took part in it, was mentioned or assigned, or subscribed by hand). */
	subscribed: number;
	/** 1: no notifications for the thread until the user comments or is mentioned. */
	ignored: number;
	/** ISO timestamp: when the subscription began (null without one). */
	subscribed_at: string | null;
	unread: number;
	/** 1: marked done (out of the lists until its next notification). */
	done: number;
	/** ISO timestamp of the latest notification; null before the first. */
	updated_at: string | null;
	/** ISO timestamp. */
	last_read_at: string | null;
}
