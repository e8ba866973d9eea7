/**
 * Domain events of Dependabot alerts (GitHub's `dependabot_alert` webhook), recorded through the
 * event log inside the transaction of the change by src/api/dependabot/service.ts. Activity feeds
 * show none of them.
 *
 * Actions, as GitHub names them (@octokit/openapi-webhooks, GHES 3.19, webhook-dependabot-alert-*):
 * - created: refreshAlerts opened an alert (a vulnerable dependency was submitted, or an advisory
 *   imported matches a dependency);
 * - fixed: refreshAlerts found the open alert's dependency gone or no longer vulnerable;
 * - reintroduced: refreshAlerts reopened a fixed alert whose vulnerable dependency returned
 *   (GitHub: "github reopened the previously-fixed alert"; `reopened` is a user's reopening);
 * - dismissed / reopened: a user (PATCH of the alert) or a reviewer approving a dismissal request
 *   dismissed it, or a user reopened a dismissed alert.
 * auto_dismissed and auto_reopened belong to Dependabot's auto-triage rules, which Gitstead does
 * not have: no alert ever becomes auto_dismissed, so neither is recorded. Dismissal requests
 * (created, reviewed, cancelled, expired) change no alert and have no dependabot_alert action.
 * Alerts removed with a withdrawn advisory record nothing: GHES 3.19 has no action for it (GitHub
 * added `withdrawn` later, for github.com and GHES 3.24).
 *
 * Payload: { alert (GitHub's dependabot-alert as the REST API renders it at API version
 * 2022-11-28, without dismissal_request: the webhook schema's alert has no such field and allows
 * no other), repository, organization?, enterprise?, sender }. The sender is the acting user;
 * for the changes refreshAlerts finds (created, fixed, reintroduced), whoever submitted the
 * snapshot or imported the advisories that caused them (GitHub names its own account; Gitstead has
 * none), absent when that was the command line.
 */
import type { App } from '../../app';
import { record } from '../../events/log';
import { inRepository } from '../../events/payloads';
import { DEFAULT_API_VERSION } from '../../http/negotiation';
import type { RepositoryRow } from '../../model/rows';
import { AlertRenderer } from './render';
import type { AlertRow } from './store';

export type AlertAction = 'created' | 'dismissed' | 'reopened' | 'fixed' | 'reintroduced';

/**
 * dependabot_alert `action` for an alert.
 * @param alert the alert as the change left it
 * @param now ISO timestamp (the change's), deciding how the alert's dismissal request reads
 * @param actorId who caused the change (see the module comment)
 */
export function recordAlert(
	app: App,
	repo: RepositoryRow,
	action: AlertAction,
	alert: AlertRow,
	actorId: number | null,
	now: string,
): void {
	record(app, {
		event: 'dependabot_alert',
		action,
		actorId,
		repo,
		webhook: () => {
			const { dismissal_request: _request, ...fields } = new AlertRenderer(app, DEFAULT_API_VERSION, now).alert(alert);
			return { alert: fields, ...inRepository(app, repo, actorId) };
		},
	});
}
