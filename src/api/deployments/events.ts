/**
 * Domain events of deployments (GitHub's `deployment` and `deployment_status` webhooks), recorded
 * through the event log inside the transaction of the change by src/api/deployments/service.ts.
 * Activity feeds show neither (GitHub has no feed event type for them).
 *
 * Payloads (GitHub's webhook docs; @octokit/openapi-webhooks, GHES 3.19, webhook-deployment-created
 * and webhook-deployment-status-created):
 * - deployment created: { deployment, workflow: null, workflow_run: null, repository,
 *   organization?, enterprise?, sender }. Gitstead's deployments are made through the API, never by
 *   a workflow run, so workflow and workflow_run (required, nullable) are null.
 * - deployment_status created: { deployment_status, deployment, repository, organization?,
 *   enterprise?, sender }. check_run, workflow and workflow_run are optional and left out: no
 *   status comes from a check run or a workflow run here. `deployment` is the deployment as the
 *   status left it (its environment may have moved).
 *
 * Inactive statuses (posted, or added by auto_inactive to earlier deployments) are recorded as
 * events of their own but deliver no webhook: GitHub's deployment_status documentation says "A
 * webhook event is not fired for deployment statuses with an `inactive` state."
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import { repositoryPaths } from '../../model/render';
import type { RepositoryRow } from '../../model/rows';
import { deployment as renderDeployment, deploymentStatus as renderStatus, performedVia } from './render';
import type { DeploymentRow, StatusRow } from './store';

/** A deployment as webhooks show it: GitHub's deployment record. */
function deploymentObject(app: App, repo: RepositoryRow, row: DeploymentRow) {
	const owner = app.stores.accounts.byId(repo.owner_id)!;
	const creator = row.creator_id === null ? undefined : app.stores.accounts.byId(row.creator_id);
	return renderDeployment(
		app.urls,
		repositoryPaths(app.urls, owner.login, repo.name),
		row,
		creator,
		performedVia(app, row.performed_via_app_id),
	);
}

/**
 * deployment created: a deployment was made (POST /repos/{owner}/{repo}/deployments).
 * @param actorId who created it (a user or an app's bot account): the sender
 */
export function recordDeploymentCreated(app: App, repo: RepositoryRow, row: DeploymentRow, actorId: number | null): void {
	record(app, {
		event: 'deployment',
		action: 'created',
		actorId,
		repo,
		webhook: () => ({
			deployment: deploymentObject(app, repo, row),
			workflow: null,
			workflow_run: null,
			...inRepository(app, repo, actorId),
		}),
	});
}

/**
 * deployment_status created: a status was added to a deployment, by a caller or by auto_inactive
 * (each inactive status of an earlier deployment is its own event). Inactive statuses deliver no
 * webhook (see the module comment).
 * @param row the deployment after the status (its current environment)
 * @param actorId who posted the status (for auto_inactive: who posted the status that caused it)
 */
export function recordDeploymentStatus(app: App, repo: RepositoryRow, row: DeploymentRow, status: StatusRow, actorId: number | null): void {
	record(app, {
		event: 'deployment_status',
		action: 'created',
		actorId,
		repo,
		webhook:
			status.state === 'inactive'
				? undefined
				: () => {
						const owner = app.stores.accounts.byId(repo.owner_id)!;
						const creator = status.creator_id === null ? undefined : app.stores.accounts.byId(status.creator_id);
						return {
							deployment_status: renderStatus(app.urls, repositoryPaths(app.urls, owner.login, repo.name), status, creator),
							deployment: deploymentObject(app, repo, row),
							...inRepository(app, repo, actorId),
						};
					},
	});
}
