/**
 * GitHub's CheckRun and CheckSuite objects, and the GitHub Actions app that owns every check suite
 * and check run Gitstead shows (they are its workflow runs and jobs).
 */
import { nodeId, type Urls } from '../../http/urls';
import type { RepositoryPaths } from '../repos/render';
import type { CheckRunRow, SuiteRow } from './store';

/** GitHub Actions' app id on GitHub (the `app_id` filter of the check lists matches it). */
export const ACTIONS_APP_ID = 15368;
/** The account that owns the GitHub Actions app on GitHub (the organization "github"). */
const GITHUB_ORG_ID = 9919;

const ACTIONS_EVENTS = [
	'branch_protection_rule', 'check_run', 'check_suite', 'create', 'delete', 'deployment', 'deployment_status', 'discussion',
	'discussion_comment', 'fork', 'gollum', 'issues', 'issue_comment', 'label', 'merge_group', 'milestone', 'page_build', 'project',
	'project_card', 'project_column', 'public', 'pull_request', 'pull_request_review', 'pull_request_review_comment', 'push',
	'registry_package', 'release', 'repository', 'repository_dispatch', 'status', 'watch', 'workflow_dispatch', 'workflow_run',
];

const ACTIONS_PERMISSIONS = {
	actions: 'write', administration: 'read', checks: 'write', contents: 'write', deployments: 'write', discussions: 'write',
	issues: 'write', merge_queues: 'write', metadata: 'read', packages: 'write', pages: 'write', pull_requests: 'write',
	repository_hooks: 'write', repository_projects: 'write', security_events: 'write', statuses: 'write', vulnerability_alerts: 'read',
};

/** The GitHub Actions app (Integration) as GitHub shows it in check runs and suites, with this server's URLs. */
export function actionsApp(urls: Urls) {
	const ownerApi = `${urls.apiBase}/users/github`;
	return {
		id: ACTIONS_APP_ID,
		client_id: 'Iv1.05c79e9ad1f6bdfa',
		slug: 'github-actions',
		node_id: nodeId('App', ACTIONS_APP_ID),
		owner: {
			login: 'github',
			id: GITHUB_ORG_ID,
			node_id: nodeId('Organization', GITHUB_ORG_ID),
			avatar_url: `${urls.origin}/avatars/u/${GITHUB_ORG_ID}`,
			gravatar_id: '',
			url: ownerApi,
			html_url: `${urls.origin}/github`,
			followers_url: `${ownerApi}/followers`,
			following_url: `${ownerApi}/following{/other_user}`,
			gists_url: `${ownerApi}/gists{/gist_id}`,
			starred_url: `${ownerApi}/starred{/owner}{/repo}`,
			subscriptions_url: `${ownerApi}/subscriptions`,
			organizations_url: `${ownerApi}/orgs`,
			repos_url: `${ownerApi}/repos`,
			events_url: `${ownerApi}/events{/privacy}`,
			received_events_url: `${ownerApi}/received_events`,
			type: 'Organization',
			user_view_type: 'public',
			site_admin: false,
		},
		name: 'GitHub Actions',
		description: 'Automate your workflow from idea to production',
		external_url: 'https://help.github.com/en/actions',
		html_url: `${urls.origin}/apps/github-actions`,
		created_at: '2018-07-30T09:30:17Z',
		updated_at: '2024-04-10T20:33:16Z',
		permissions: ACTIONS_PERMISSIONS,
		events: ACTIONS_EVENTS,
	};
}

interface StoredPullRequest {
	id: number;
	number: number;
	head: { ref: string; sha: string };
	base: { ref: string; sha: string };
}

/** The pull requests of a run, as check runs and suites show them (PullRequestMinimal). */
function pullRequests(base: RepositoryPaths, repoId: number, repoName: string, json: string) {
	const repo = { id: repoId, url: base.api, name: repoName };
	return (JSON.parse(json) as StoredPullRequest[]).map((pr) => ({
		id: pr.id,
		number: pr.number,
		url: `${base.api}/pulls/${pr.number}`,
		head: { ref: pr.head.ref, sha: pr.head.sha, repo },
		base: { ref: pr.base.ref, sha: pr.base.sha, repo },
	}));
}

/**
 * A CheckRun (a workflow job).
 * @param app actionsApp(urls), built once per answer
 */
export function checkRun(base: RepositoryPaths, repoId: number, repoName: string, app: ReturnType<typeof actionsApp>, row: CheckRunRow) {
	const url = `${base.api}/check-runs/${row.id}`;
	const details = `${base.html}/actions/runs/${row.run_id}/job/${row.id}`;
	return {
		id: row.id,
		name: row.name,
		node_id: nodeId('CheckRun', row.id),
		head_sha: row.head_sha,
		external_id: String(row.id),
		url,
		html_url: details,
		details_url: details,
		status: row.status,
		conclusion: row.conclusion,
		started_at: row.started_at,
		completed_at: row.completed_at,
		output: { title: null, summary: null, text: null, annotations_count: 0, annotations_url: `${url}/annotations` },
		check_suite: { id: row.check_suite_id },
		app,
		pull_requests: pullRequests(base, repoId, repoName, row.pull_requests),
	};
}

interface StoredCommit {
	tree_id: string;
	message: string;
	timestamp: string;
	author: { name: string; email: string } | null;
	committer: { name: string; email: string } | null;
}

/**
 * A CheckSuite (a workflow run).
 * @param repository the repository record (minimal repository), built once per answer
 */
export function checkSuite(base: RepositoryPaths, repoId: number, repoName: string, app: ReturnType<typeof actionsApp>, repository: unknown, row: SuiteRow) {
	const commit = row.head_commit === null ? null : (JSON.parse(row.head_commit) as StoredCommit);
	const url = `${base.api}/check-suites/${row.check_suite_id}`;
	return {
		id: row.check_suite_id,
		node_id: nodeId('CheckSuite', row.check_suite_id),
		head_branch: row.head_branch,
		head_sha: row.head_sha,
		status: row.status,
		conclusion: row.conclusion,
		url,
		before: null,
		after: row.head_sha,
		pull_requests: pullRequests(base, repoId, repoName, row.pull_requests),
		app,
		repository,
		created_at: row.created_at,
		updated_at: row.updated_at,
		rerequestable: true,
		runs_rerequestable: false,
		latest_check_runs_count: row.latest_check_runs_count,
		check_runs_url: `${url}/check-runs`,
		head_commit: commit && {
			id: row.head_sha,
			tree_id: commit.tree_id,
			message: commit.message,
			timestamp: commit.timestamp,
			author: commit.author,
			committer: commit.committer,
		},
	};
}
