/**
 * The `check_run` webhook for the check runs GitHub Apps create and update (GitHub Actions' check
 * runs are workflow jobs, reported as workflow_job): `created` when one is made, `completed` when
 * it reaches status completed (created completed: both). No activity-feed entry, as on GitHub.
 * Payload: action, check_run (with its check_suite object), repository, organization, sender.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import { repositoryPaths } from '../../model/render';
import type { RepositoryRow } from '../../model/rows';
import { withHeadCommit } from './commit';
import { appObject, checkRun, checkSuite } from './render';
import type { CheckRunRow } from './store';

/** Records one check_run event of an app's check run (inside the transaction that wrote it). */
export function recordCheckRun(
	app: App,
	repo: RepositoryRow,
	action: 'created' | 'completed',
	row: CheckRunRow,
	actorId: number | null,
): void {
	record(app, {
		event: 'check_run',
		action,
		actorId,
		repo,
		webhook: () => {
			const owner = app.stores.accounts.byId(repo.owner_id)!;
			const base = repositoryPaths(app.urls, owner.login, repo.name);
			const shownApp = appObject(app, row.app_id);
			const suite = app.stores.checks.suite(repo.id, row.check_suite_id);
			const { repository: _repository, ...suiteObject } = suite
				? checkSuite(base, repo.id, repo.name, shownApp, null, withHeadCommit(app, repo.id, suite))
				: { repository: null };
			return {
				check_run: { ...checkRun(base, repo.id, repo.name, shownApp, row), check_suite: suiteObject },
				...inRepository(app, repo, actorId),
			};
		},
	});
}
