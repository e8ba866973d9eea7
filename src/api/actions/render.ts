/**
 * Response shapes: GitHub's Workflow, WorkflowRun (with
 * every field of GitHub's workflow-run schema) and Job records.
 */
import { simpleCommit } from '../../model/simple-commit';
import { nodeId, type Urls } from '../../model/urls';
import { repository, repositoryPaths, type RepositoryPaths } from '../../model/render';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import type { AccountStore } from '../users/store';
import { simpleUser, type SimpleUser } from '../../model/render';
import type { JobRow, RunRow, WorkflowRow } from './store';

/** A repository's addresses (repositoryPaths of the repos area). */
export type RepoUrls = RepositoryPaths;

export const repoUrls = (urls: Urls, owner: AccountRow, repo: RepositoryRow): RepoUrls => repositoryPaths(urls, owner.login, repo.name);

/** The Workflow record. @param defaultBranch the branch html_url points into */
export function workflow(base: RepoUrls, defaultBranch: string, row: WorkflowRow) {
	return {
		id: row.id,
		node_id: nodeId('Workflow', row.id),
		name: row.name,
		path: row.path,
		state: row.state,
		created_at: row.created_at,
		updated_at: row.updated_at,
		url: `${base.api}/actions/workflows/${row.id}`,
		html_url: `${base.html}/blob/${defaultBranch}/${row.path}`,
		badge_url: `${base.html}/workflows/${encodeURIComponent(row.name)}/badge.svg`,
		...(row.state === 'deleted' ? { deleted_at: row.updated_at } : {}),
	};
}

interface StoredPullRequest {
	id: number;
	number: number;
	head: { ref: string; sha: string };
	base: { ref: string; sha: string };
}

/**
 * Renders the runs of one repository. The repository record (the same for every run, and the
 * largest part of each) is built and serialized once per renderer.
 */
export class RunRenderer {
	private readonly base: RepoUrls;
	private record: ReturnType<typeof repository> | undefined;
	private recordJson: string | undefined;

	constructor(
		private readonly urls: Urls,
		private readonly accounts: AccountStore,
		private readonly repo: RepositoryRow,
		private readonly owner: AccountRow,
	) {
		this.base = repoUrls(urls, owner, repo);
	}

	private repository() {
		this.record ??= repository(this.urls, this.repo, this.owner, null);
		return this.record;
	}

	private readonly users = new Map<number, SimpleUser | null>();

	/** A run's actor or triggering actor, rendered once per account. */
	private user(id: number | null) {
		if (id === null) return null;
		let user = this.users.get(id);
		if (user === undefined) {
			const account = this.accounts.byId(id);
			this.users.set(id, (user = account ? simpleUser(this.urls, account) : null));
		}
		return user;
	}

	/** Every field but repository and head_repository, in GitHub's order. */
	private fields(row: RunRow, excludePullRequests: boolean) {
		const runUrl = `${this.base.api}/actions/runs/${row.id}`;
		const repoRef = { id: this.repo.id, url: this.base.api, name: this.repo.name };
		const pulls = excludePullRequests ? [] : (JSON.parse(row.pull_requests) as StoredPullRequest[]);
		return {
			id: row.id,
			name: row.name,
			node_id: nodeId('WorkflowRun', row.id),
			check_suite_id: row.check_suite_id,
			check_suite_node_id: nodeId('CheckSuite', row.check_suite_id),
			head_branch: row.head_branch,
			head_sha: row.head_sha,
			path: row.path,
			run_number: row.run_number,
			event: row.event,
			display_title: row.display_title,
			status: row.status,
			conclusion: row.conclusion,
			workflow_id: row.workflow_id,
			url: runUrl,
			html_url: `${this.base.html}/actions/runs/${row.id}`,
			pull_requests: pulls.map((pr) => ({
				id: pr.id,
				number: pr.number,
				url: `${this.base.api}/pulls/${pr.number}`,
				head: { ref: pr.head.ref, sha: pr.head.sha, repo: repoRef },
				base: { ref: pr.base.ref, sha: pr.base.sha, repo: repoRef },
			})),
			created_at: row.created_at,
			updated_at: row.updated_at,
			actor: this.user(row.actor_id),
			run_attempt: row.run_attempt,
			referenced_workflows: [],
			run_started_at: row.run_started_at,
			triggering_actor: this.user(row.triggering_actor_id),
			jobs_url: `${runUrl}/jobs`,
			logs_url: `${runUrl}/logs`,
			check_suite_url: `${this.base.api}/check-suites/${row.check_suite_id}`,
			artifacts_url: `${runUrl}/artifacts`,
			cancel_url: `${runUrl}/cancel`,
			rerun_url: `${runUrl}/rerun`,
			previous_attempt_url: row.run_attempt > 1 ? `${runUrl}/attempts/${row.run_attempt - 1}` : null,
			workflow_url: `${this.base.api}/actions/workflows/${row.workflow_id}`,
			head_commit: simpleCommit(row.head_sha, row.head_commit),
			head_repository_id: this.repo.id,
		};
	}

	/** One WorkflowRun. */
	run(row: RunRow, excludePullRequests = false) {
		const record = this.repository();
		return { ...this.fields(row, excludePullRequests), repository: record, head_repository: record };
	}

	/**
	 * `{total_count, workflow_runs}` serialized: each run's own fields are stringified and the
	 * repository's JSON (built once) spliced in, instead of serializing it twice per run.
	 */
	listJson(rows: RunRow[], total: number, excludePullRequests: boolean): string {
		this.recordJson ??= JSON.stringify(this.repository());
		const tail = `,"repository":${this.recordJson},"head_repository":${this.recordJson}}`;
		const items = rows.map((row) => JSON.stringify(this.fields(row, excludePullRequests)).slice(0, -1) + tail);
		return `{"total_count":${total},"workflow_runs":[${items.join(',')}]}`;
	}
}

/** The Job record. */
export function job(base: RepoUrls, row: JobRow) {
	return {
		id: row.id,
		run_id: row.run_id,
		workflow_name: row.workflow_name,
		head_branch: row.head_branch,
		run_url: `${base.api}/actions/runs/${row.run_id}`,
		run_attempt: row.run_attempt,
		node_id: nodeId('WorkflowJob', row.id),
		head_sha: row.head_sha,
		url: `${base.api}/actions/jobs/${row.id}`,
		html_url: `${base.html}/actions/runs/${row.run_id}/job/${row.id}`,
		status: row.status,
		conclusion: row.conclusion,
		created_at: row.created_at,
		started_at: row.started_at,
		completed_at: row.completed_at,
		name: row.name,
		steps: JSON.parse(row.steps) as unknown[],
		check_run_url: `${base.api}/check-runs/${row.id}`,
		labels: JSON.parse(row.labels) as string[],
		runner_id: row.runner_id,
		runner_name: row.runner_name,
		runner_group_id: row.runner_group_id,
		runner_group_name: row.runner_group_name,
	};
}
