/**
 * Rules of dependabot alerts and their dismissal requests (GitHub's
 * dependabot/* operations).
 *
 * Alerts: refreshAlerts opens one alert per (manifest, package, advisory) whose dependency version
 * is vulnerable, marks open alerts whose dependency is gone or no longer vulnerable `fixed`, and
 * reopens a fixed alert when its vulnerable dependency returns. Dismissed alerts stay dismissed.
 *
 * Delegated alert dismissal (repositories.delegated_alert_dismissal): only reviewers dismiss alerts
 * directly; anyone else with write access asks with a dismissal request that a reviewer approves
 * (the alert is dismissed at once, with the requester's reason and comment, by the reviewer) or
 * denies. Reviewers are the callers whose repository permission is admin: repository admins,
 * organization owners, and apps (installation tokens) holding the route's Dependabot alerts
 * permission (GitHub: organization owners, security managers and custom roles with the
 * "Review/Bypass Dependabot alert dismissal requests" permissions; Gitstead models neither).
 *
 * Dismissal request statuses: `open` when created; `approved`, `denied`, `cancelled` by the
 * review and cancel operations; `expired` once expires_at (7 days after creation) has passed —
 * reads show an overdue open request as expired at once, and the `dismissal-request-expiry` job
 * writes it. `completed` means approved with the dismissal applied: Gitstead applies it in the
 * approval's transaction, so every approved request is completed and the `completed` filter
 * equals `approved`. `pending` is never used (requests open at once).
 */
import type { App } from '../../app';
import { forbidden, invalidField, notFound, unprocessable } from '../../model/errors';
import { isoSeconds } from '../../time';
import type { RepositoryRow } from '../../model/rows';
import { ecosystemName, matchPackages, packageKey } from './advisories';
import { recordAlert } from './events';
import type { AlertRow, DismissedReason, NewAlert, RequestView, ResponseView } from './store';

export { importAdvisories, vulnerabilitiesFor } from './advisories';

/** A dependency of the repository's current dependency set (from the dependency-graph area). */
export interface GraphDependency {
	/** Manifest path relative to the repository root. */
	manifest: string;
	package_url: string;
	/** package-url type or GitHub ecosystem name (pypi / pip, ...) */
	ecosystem: string;
	name: string;
	version: string | null;
	scope: 'runtime' | 'development' | null;
	relationship: 'direct' | 'indirect' | null;
}

export const DISMISSED_REASONS = ['fix_started', 'inaccurate', 'no_bandwidth', 'not_used', 'tolerable_risk'] as const;
export const ALERT_STATES = ['auto_dismissed', 'dismissed', 'fixed', 'open'] as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const RELATIONSHIPS = ['unknown', 'direct', 'transitive', 'inconclusive'] as const;
/** GitHub's limit on dismissed_comment, in characters. */
export const MAX_DISMISSED_COMMENT = 280;
/** GitHub's limit on a review message, in characters. */
export const MAX_REVIEW_MESSAGE = 2048;

/**
 * How long a dismissal request stays open: GitHub's delegated-dismissal requests expire 7 days
 * after they are made (expires_at = created_at + 7 days in GitHub's examples).
 */
export const DISMISSAL_REQUEST_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** time_period filter of the dismissal-request lists: how far back from now, in milliseconds. */
export const TIME_PERIODS = {
	hour: 60 * 60 * 1000,
	day: 24 * 60 * 60 * 1000,
	week: 7 * 24 * 60 * 60 * 1000,
	// GitHub does not define a month; Gitstead takes 30 days.
	month: 30 * 24 * 60 * 60 * 1000,
} as const;
export type TimePeriod = keyof typeof TIME_PERIODS;

/** request_status values of the organization list (the repository list accepts a subset). */
export const ORG_REQUEST_STATUSES = ['completed', 'cancelled', 'approved', 'expired', 'denied', 'open', 'all'] as const;
export const REPO_REQUEST_STATUSES = ['open', 'approved', 'expired', 'denied', 'all'] as const;

const RELATIONSHIP: Record<string, 'direct' | 'transitive'> = { direct: 'direct', indirect: 'transitive' };

// ---------------------------------------------------------------- alerts

/**
 * Brings the repository's alerts in line with its current dependencies (call after every snapshot
 * submission, inside its transaction): opens an alert for each vulnerable (manifest, package,
 * advisory) that has none, keeps the dependency facts of existing alerts current, reopens fixed
 * alerts that are vulnerable again, and marks open alerts `fixed` (fixed_at) whose dependency is
 * gone or no longer vulnerable. Dismissed alerts keep their state. Records dependabot_alert created,
 * reintroduced and fixed for those changes (./events.ts).
 * @param dependencies the repository's whole current dependency set
 * @param now ISO timestamp
 * @param actorId who caused the refresh (the snapshot's submitter; null: the command line)
 */
export function refreshAlerts(
	app: App,
	repo: RepositoryRow,
	dependencies: GraphDependency[],
	now: string,
	actorId: number | null = null,
): void {
	const { dependabot } = app.stores;
	app.transaction(() => {
		const wanted = new Map<string, NewAlert>();
		const matches = matchPackages(app, dependencies);
		for (const [index, dependency] of dependencies.entries()) {
			const ecosystem = ecosystemName(dependency.ecosystem);
			const key = packageKey(ecosystem, dependency.name);
			for (const vulnerability of matches[index]) {
				const id = alertKey(dependency.manifest, ecosystem, key, vulnerability.advisory_id);
				if (wanted.has(id)) continue;
				wanted.set(id, {
					repo_id: repo.id,
					advisory_id: vulnerability.advisory_id,
					manifest_path: dependency.manifest,
					ecosystem,
					package_name: dependency.name,
					package_key: key,
					version: dependency.version,
					scope: dependency.scope,
					relationship: dependency.relationship ? RELATIONSHIP[dependency.relationship] : 'unknown',
					vulnerable_version_range: vulnerability.vulnerable_version_range,
					first_patched_version: vulnerability.first_patched_version,
				});
			}
		}
		const existing = new Map<string, AlertRow>();
		for (const alert of dependabot.alertsOfRepo(repo.id)) {
			existing.set(alertKey(alert.manifest_path, alert.ecosystem, alert.package_key, alert.advisory_id), alert);
		}
		for (const [id, found] of wanted) {
			const alert = existing.get(id);
			if (!alert) {
				recordAlert(app, repo, 'created', dependabot.alertById(dependabot.insertAlert(found, now))!, actorId, now);
				continue;
			}
			dependabot.updateDependency({
				id: alert.id,
				package_name: found.package_name,
				version: found.version,
				scope: found.scope,
				relationship: found.relationship,
				vulnerable_version_range: found.vulnerable_version_range,
				first_patched_version: found.first_patched_version,
			});
			if (alert.state === 'fixed') {
				dependabot.setState({ ...stateOf(alert), state: 'open', fixed_at: null, updated_at: now });
				recordAlert(app, repo, 'reintroduced', dependabot.alertById(alert.id)!, actorId, now);
			}
		}
		for (const [id, alert] of existing) {
			if (!wanted.has(id) && alert.state === 'open') {
				dependabot.setState({ ...stateOf(alert), state: 'fixed', fixed_at: now, updated_at: now });
				recordAlert(app, repo, 'fixed', dependabot.alertById(alert.id)!, actorId, now);
			}
		}
	});
}

function alertKey(manifest: string, ecosystem: string, key: string, advisoryId: number): string {
	return JSON.stringify([manifest, ecosystem, key, advisoryId]);
}

function stateOf(alert: AlertRow) {
	const { id, state, dismissed_at, dismissed_by_id, dismissed_reason, dismissed_comment, fixed_at, updated_at } = alert;
	return { id, state, dismissed_at, dismissed_by_id, dismissed_reason, dismissed_comment, fixed_at, updated_at };
}

/**
 * The alert with this number, as a path parameter.
 * @throws DomainError 404 when the number is malformed or names no alert of the repository
 */
export function loadAlert(app: App, repo: RepositoryRow, number: string): AlertRow {
	const alert = /^\d{1,9}$/.test(number) ? app.stores.dependabot.alertByNumber(repo.id, Number(number)) : undefined;
	if (!alert) throw notFound();
	return alert;
}

export interface AlertUpdate {
	state: 'dismissed' | 'open';
	dismissed_reason?: DismissedReason;
	dismissed_comment?: string;
}

/**
 * PATCH an alert: dismiss it (dismissed_reason required; dismissed_by the actor) or reopen it
 * (the dismissal is cleared). Delegated dismissal is checked by the caller. Records
 * dependabot_alert dismissed when an alert that was not dismissed is, reopened when a dismissed
 * one opens again (dismissing a dismissed alert again only updates its reason and comment;
 * reopening an open one changes nothing).
 * @param repo the alert's repository
 * @param actorId who dismisses (a user or an app's bot)
 * @param now ISO timestamp
 * @throws DomainError 422 without dismissed_reason when dismissing, or for a fixed alert
 */
export function updateAlert(
	app: App,
	repo: RepositoryRow,
	alert: AlertRow,
	update: AlertUpdate,
	actorId: number | null,
	now: string,
): AlertRow {
	if (alert.state === 'fixed') {
		throw unprocessable(
			`Alert ${alert.number} is fixed: its dependency is no longer vulnerable, so it can be neither dismissed nor reopened.`,
		);
	}
	const { dependabot } = app.stores;
	if (update.state === 'dismissed') {
		if (!update.dismissed_reason) {
			throw invalidField(
				'DependabotAlert',
				'dismissed_reason',
				'dismissed_reason is required when state is dismissed',
				'missing_field',
			);
		}
		dependabot.setState({
			...stateOf(alert),
			state: 'dismissed',
			dismissed_at: now,
			dismissed_by_id: actorId,
			dismissed_reason: update.dismissed_reason,
			dismissed_comment: update.dismissed_comment ?? null,
			updated_at: now,
		});
		if (alert.state !== 'dismissed') recordAlert(app, repo, 'dismissed', dependabot.alertById(alert.id)!, actorId, now);
	} else if (alert.state !== 'open') {
		dependabot.setState({
			...stateOf(alert),
			state: 'open',
			dismissed_at: null,
			dismissed_by_id: null,
			dismissed_reason: null,
			dismissed_comment: null,
			updated_at: now,
		});
		recordAlert(app, repo, 'reopened', dependabot.alertById(alert.id)!, actorId, now);
	}
	return dependabot.alertById(alert.id)!;
}

// ---------------------------------------------------------------- dismissal requests

/**
 * Requires delegated alert dismissal on the repository (every dismissal-request operation).
 * @throws DomainError 403 when it is off
 */
export function requireDelegatedDismissal(repo: RepositoryRow): void {
	if (repo.delegated_alert_dismissal !== 1) {
		throw forbidden('Delegated alert dismissal is not enabled for this repository.');
	}
}

/**
 * Requests the dismissal of an open alert: status open, expires_at 7 days later
 * (DISMISSAL_REQUEST_TTL_MS). An overdue open request of the alert is expired first.
 * @param now epoch milliseconds
 * @throws DomainError 422 when the alert is not open or already has an open request
 */
export function createDismissalRequest(
	app: App,
	alert: AlertRow,
	requesterId: number,
	input: { dismissed_reason: DismissedReason; dismissed_comment?: string },
	now: number,
): RequestView {
	const { dependabot } = app.stores;
	const at = isoSeconds(now);
	if (alert.state !== 'open') {
		throw unprocessable(`Alert ${alert.number} is ${alert.state}; only open alerts can be requested for dismissal.`);
	}
	return app.transaction(() => {
		dependabot.expireOverdueOfAlert(alert.id, at);
		if (dependabot.latestRequestOfAlert(alert.id, at)?.status === 'open') {
			throw unprocessable(`Alert ${alert.number} already has an open dismissal request.`);
		}
		const id = dependabot.insertRequest(
			{
				repo_id: alert.repo_id,
				alert_id: alert.id,
				requester_id: requesterId,
				reason: input.dismissed_reason,
				requester_comment: input.dismissed_comment ?? null,
				expires_at: isoSeconds(now + DISMISSAL_REQUEST_TTL_MS),
			},
			at,
		);
		return dependabot.requestById(id, at)!;
	});
}

/**
 * The alert's latest dismissal request (its status as of `now`).
 * @param now ISO timestamp
 * @throws DomainError 404 when the alert has none
 */
export function latestRequest(app: App, alert: AlertRow, now: string): RequestView {
	const request = app.stores.dependabot.latestRequestOfAlert(alert.id, now);
	if (!request) throw notFound();
	return request;
}

/**
 * Approves or denies the alert's open dismissal request, in one transaction: a response row, the
 * request's status (approved / denied), and on approval the alert dismissed with the requested
 * reason and comment, dismissed_by the reviewer (when the alert is still open; a fixed or already
 * dismissed alert is left as it is). The caller has checked that the reviewer is one.
 * @param now ISO timestamp
 * @returns the response (review) id
 * @throws DomainError 404 without a request, 403 for the requester, 422 when the request is not open
 */
export function reviewDismissalRequest(
	app: App,
	repo: RepositoryRow,
	alert: AlertRow,
	reviewerId: number,
	reviewer: boolean,
	review: { status: 'approve' | 'deny'; message: string },
	now: string,
): number {
	const { dependabot } = app.stores;
	return app.transaction(() => {
		const request = latestRequest(app, alert, now);
		if (!reviewer) {
			throw forbidden('Only dismissal reviewers (repository administrators and organization owners) can review dismissal requests.');
		}
		if (request.requester_id === reviewerId) throw forbidden('A requester cannot review their own dismissal request.');
		if (request.status !== 'open') {
			throw unprocessable(
				`The dismissal request for alert ${alert.number} is ${request.status}; only open requests can be reviewed.`,
			);
		}
		const status = review.status === 'approve' ? 'approved' : 'denied';
		const responseId = dependabot.insertResponse(
			{ request_id: request.id, reviewer_id: reviewerId, status, message: review.message },
			now,
		);
		dependabot.setRequestStatus(request.id, status, now);
		if (status === 'approved' && alert.state === 'open') {
			const comment = request.requester_comment ?? undefined;
			const dismissal = { state: 'dismissed' as const, dismissed_reason: request.reason, dismissed_comment: comment };
			updateAlert(app, repo, alert, dismissal, reviewerId, now);
		}
		return responseId;
	});
}

/**
 * Cancels the alert's open dismissal request (status cancelled), by its requester or a reviewer.
 * @param now ISO timestamp
 * @throws DomainError 404 without a request, 403 for anyone else, 422 when the request is not open
 */
export function cancelDismissalRequest(app: App, alert: AlertRow, callerId: number | null, reviewer: boolean, now: string): void {
	app.transaction(() => {
		const request = latestRequest(app, alert, now);
		if (!reviewer && request.requester_id !== callerId) {
			throw forbidden('Only the requester or a dismissal reviewer can cancel a dismissal request.');
		}
		if (request.status !== 'open') {
			throw unprocessable(
				`The dismissal request for alert ${alert.number} is ${request.status}; only open requests can be cancelled.`,
			);
		}
		app.stores.dependabot.setRequestStatus(request.id, 'cancelled', now);
	});
}

/**
 * Expires open dismissal requests whose expires_at has passed (the `dismissal-request-expiry` job),
 * in one transaction.
 * @param now epoch milliseconds
 * @returns how many requests expired
 */
export function expireDismissalRequests(app: App, now: number): number {
	return app.transaction(() => app.stores.dependabot.expireOverdue(isoSeconds(now)));
}

/** Stored statuses a request_status filter selects (null: all). `completed` equals `approved` (see above). */
export function statusFilter(requestStatus: string): string[] | null {
	if (requestStatus === 'all') return null;
	if (requestStatus === 'approved' || requestStatus === 'completed') return ['approved', 'completed'];
	return [requestStatus];
}

/** Responses of the requests, grouped by request id. */
export function responsesByRequest(app: App, requests: RequestView[]): Map<number, ResponseView[]> {
	const grouped = new Map<number, ResponseView[]>();
	if (requests.length === 0) return grouped;
	for (const response of app.stores.dependabot.responsesOf(requests.map((request) => request.id))) {
		const list = grouped.get(response.request_id) ?? [];
		list.push(response);
		grouped.set(response.request_id, list);
	}
	return grouped;
}
