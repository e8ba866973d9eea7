/**
 * GitHub's CheckRun and CheckSuite objects, and the GitHub Actions app that owns every check suite
 * and check run Gitstead shows (they are its workflow runs and jobs).
 */
import { simpleCommit } from '../../model/simple-commit';
import type { App } from '../../app';
import { nodeId, type Urls } from '../../model/urls';
import { integration } from '../apps/render';
import type { RepositoryPaths } from '../../model/render';
import type { CheckRunRow, SuiteRow } from './store';

/** GitHub Actions' app id on GitHub (the `app_id` filter of the check lists matches it). */
export const ACTIONS_APP_ID = 15368;
/** The account that owns the GitHub Actions app on GitHub (the organization "github"). */
const GITHUB_ORG_ID = 9919;

const ACTIONS_EVENTS = [
	'branch_protection_rule',
	'check_run',
	'check_suite',
	'create',
	'delete',
	'deployment',
	'deployment_status',
	'discussion',
	'discussion_comment',
	'fork',
	'gollum',
	'issues',
	'issue_comment',
	'label',
	'merge_group',
	'milestone',
	'page_build',
	'project',
	'project_card',
	'project_column',
	'public',
	'pull_request',
	'pull_request_review',
	'pull_request_review_comment',
	'push',
	'registry_package',
	'release',
	'repository',
	'repository_dispatch',
	'status',
	'watch',
	'workflow_dispatch',
	'workflow_run',
];

const ACTIONS_PERMISSIONS = {
	actions: 'write',
	administration: 'read',
	checks: 'write',
	contents: 'write',
	deployments: 'write',
	discussions: 'write',
	issues: 'write',
	merge_queues: 'write',
	metadata: 'read',
	packages: 'write',
	pages: 'write',
	pull_requests: 'write',
	repository_hooks: 'write',
	repository_projects: 'write',
	security_events: 'write',
	statuses: 'write',
	vulnerability_alerts: 'read',
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

/** The app object a check run or suite shows: GitHub Actions', or an app's integration record. */
export type AppObject = Record<string, unknown>;

/** The app object of app `appId` (null: GitHub Actions); an app since deleted shows as null. */
export function appObject(app: App, appId: number | null): AppObject | null {
	if (appId === null) return actionsApp(app.urls);
	const row = app.stores.apps.byId(appId);
	const owner = row && app.stores.accounts.byId(row.owner_id);
	return row && owner ? integration(app.urls, row, owner, app.stores.apps.installationCount(row.id)) : null;
}

/**
 * A CheckRun: a workflow job, or an app's check run.
 * @param app the app object of its app (actionsApp(urls) for jobs), built once per answer
 */
export function checkRun(base: RepositoryPaths, repoId: number, repoName: string, app: AppObject | null, row: CheckRunRow) {
	const url = `${base.api}/check-runs/${row.id}`;
	const job = row.run_id !== null;
	const page = job ? `${base.html}/actions/runs/${row.run_id}/job/${row.id}` : `${base.html}/runs/${row.id}`;
	return {
		id: row.id,
		name: row.name,
		node_id: nodeId('CheckRun', row.id),
		head_sha: row.head_sha,
		external_id: job ? String(row.id) : (row.external_id ?? ''),
		url,
		html_url: page,
		details_url: job ? page : (row.details_url ?? page),
		status: row.status,
		conclusion: row.conclusion,
		started_at: row.started_at,
		completed_at: row.completed_at,
		output: {
			title: row.output_title,
			summary: row.output_summary,
			text: row.output_text,
			annotations_count: 0,
			annotations_url: `${url}/annotations`,
		},
		check_suite: { id: row.check_suite_id },
		app,
		pull_requests: pullRequests(base, repoId, repoName, row.pull_requests),
	};
}

/** Conclusions of a suite's runs, most telling first: the suite concludes with the first one present. */
const CONCLUSION_ORDER = ['action_required', 'cancelled', 'timed_out', 'failure', 'neutral', 'success', 'skipped', 'stale'];

/**
 * An app suite's status and conclusion from its runs: in_progress while one runs, queued while
 * others wait (or without runs), completed with the most telling conclusion once all are.
 */
export function suiteState(row: SuiteRow): { status: string; conclusion: string | null } {
	if (row.run_id !== null) return { status: row.status ?? 'queued', conclusion: row.conclusion };
	if (row.latest_check_runs_count === 0) return { status: 'queued', conclusion: null };
	if ((row.running_runs ?? 0) > 0) return { status: 'in_progress', conclusion: null };
	if ((row.open_runs ?? 0) > 0) return { status: 'queued', conclusion: null };
	const present = new Set((row.conclusions ?? '').split(','));
	return { status: 'completed', conclusion: CONCLUSION_ORDER.find((c) => present.has(c)) ?? null };
}

/**
 * A CheckSuite (a workflow run, or an app's suite).
 * @param repository the repository record (minimal repository), built once per answer
 */
export function checkSuite(
	base: RepositoryPaths,
	repoId: number,
	repoName: string,
	app: AppObject | null,
	repository: unknown,
	row: SuiteRow,
) {
	const state = suiteState(row);
	const url = `${base.api}/check-suites/${row.check_suite_id}`;
	return {
		id: row.check_suite_id,
		node_id: nodeId('CheckSuite', row.check_suite_id),
		head_branch: row.head_branch,
		head_sha: row.head_sha,
		status: state.status,
		conclusion: state.conclusion,
		url,
		before: null,
		after: row.head_sha,
		pull_requests: pullRequests(base, repoId, repoName, row.pull_requests),
		app,
		repository,
		created_at: row.created_at,
		updated_at: row.updated_at,
		rerequestable: true,
		runs_rerequestable: row.run_id === null,
		latest_check_runs_count: row.latest_check_runs_count,
		check_runs_url: `${url}/check-runs`,
		head_commit: simpleCommit(row.head_sha, row.head_commit),
	};
}
