/**
 * Response shapes: GitHub's dependabot-alert (and dependabot-alert-with-repository for the
 * organization list) and the dismissal request (request_type `depbot_alert_dismissal`).
 */
import type { App } from '../../app';
import type { ApiVersion } from '../../http/negotiation';
import type { Urls } from '../../model/urls';
import type { RepositoryRow, AccountRow } from '../../model/rows';
import { simpleRepository, simpleUser } from '../../model/render';
import type { AdvisoryRow, AlertRow, RequestView, ResponseView } from './store';

/** The request_type value Gitstead answers (GitHub: dependabot_alert_dismissal). */
export const REQUEST_TYPE = 'depbot_alert_dismissal';

/** API and web addresses of a repository's dependabot resources. */
export function repoPaths(urls: Urls, owner: AccountRow | { login: string }, repoName: string) {
	const full = `${owner.login}/${repoName}`;
	return {
		alert: (number: number) => urls.api(`/repos/${full}/dependabot/alerts/${number}`),
		alertHtml: (number: number) => urls.html(`/${full}/security/dependabot/${number}`),
		request: (alertNumber: number) => urls.api(`/repos/${full}/dismissal-requests/dependabot/${alertNumber}`),
	};
}

/** dismissal_request of an alert: GitHub's statuses pending | approved | rejected | cancelled. */
const SIMPLE_REQUEST_STATUS: Record<string, string | undefined> = {
	open: 'pending',
	pending: 'pending',
	approved: 'approved',
	completed: 'approved',
	denied: 'rejected',
	cancelled: 'cancelled',
};

/**
 * Renders alerts of one request: advisories, accounts and repositories are looked up once each.
 * @param now ISO timestamp deciding whether an overdue open dismissal request reads as expired
 */
export class AlertRenderer {
	private readonly advisories = new Map<number, Record<string, unknown>>();
	private readonly repos = new Map<number, { repo: RepositoryRow; owner: AccountRow }>();
	/** alert id → its latest dismissal request (absent: none), read once per list. */
	private requests: Map<number, RequestView> | undefined;

	constructor(
		private readonly app: App,
		private readonly apiVersion: ApiVersion,
		private readonly now: string,
	) {}

	private advisory(id: number): Record<string, unknown> {
		let rendered = this.advisories.get(id);
		if (rendered) return rendered;
		const row = this.app.stores.dependabot.advisoryById(id) as AdvisoryRow;
		const vulnerabilities = this.app.stores.dependabot.vulnerabilitiesOf(id).map((vuln) => ({
			package: { ecosystem: vuln.ecosystem, name: vuln.package_name },
			severity: row.severity,
			vulnerable_version_range: vuln.vulnerable_version_range,
			first_patched_version: vuln.first_patched_version === null ? null : { identifier: vuln.first_patched_version },
		}));
		rendered = {
			ghsa_id: row.ghsa_id,
			cve_id: row.cve_id,
			summary: row.summary,
			description: row.description ?? '',
			vulnerabilities,
			severity: row.severity,
			// Removed in API version 2026-03-10 (GitHub's deprecate_cvss change): use cvss_severities.
			...(this.apiVersion === '2026-03-10' ? {} : { cvss: row.cvss ? JSON.parse(row.cvss) : { vector_string: null, score: 0 } }),
			cvss_severities: row.cvss_severities ? JSON.parse(row.cvss_severities) : null,
			epss: row.epss ? JSON.parse(row.epss) : null,
			cwes: JSON.parse(row.cwes),
			identifiers: JSON.parse(row.identifiers),
			references: (JSON.parse(row.reference_urls) as string[]).map((url) => ({ url })),
			published_at: row.published_at,
			updated_at: row.updated_at,
			withdrawn_at: row.withdrawn_at,
		};
		this.advisories.set(id, rendered);
		return rendered;
	}

	private repository(id: number) {
		let found = this.repos.get(id);
		if (!found) {
			const repo = this.app.stores.repos.byId(id)!;
			found = { repo, owner: this.app.stores.accounts.byId(repo.owner_id)! };
			this.repos.set(id, found);
		}
		return found;
	}

	/** Several alerts, their dismissal requests read in one query. */
	alerts(alerts: AlertRow[], withRepository = false) {
		this.requests = this.app.stores.dependabot.latestRequestsOfAlerts(
			alerts.map((a) => a.id),
			this.now,
		);
		return alerts.map((alert) => this.alert(alert, withRepository));
	}

	/** GitHub's dependabot-alert; with `withRepository`, dependabot-alert-with-repository. */
	alert(alert: AlertRow, withRepository = false) {
		const { urls } = this.app;
		const { repo, owner } = this.repository(alert.repo_id);
		const paths = repoPaths(urls, owner, repo.name);
		const advisory = this.advisory(alert.advisory_id);
		const pkg = { ecosystem: alert.ecosystem, name: alert.package_name };
		const dismisser = alert.dismissed_by_id === null ? undefined : this.app.stores.accounts.byId(alert.dismissed_by_id);
		const request = this.requests ? this.requests.get(alert.id) : this.app.stores.dependabot.latestRequestOfAlert(alert.id, this.now);
		const requestStatus = request ? SIMPLE_REQUEST_STATUS[request.status] : undefined;
		const body: Record<string, unknown> = {
			number: alert.number,
			state: alert.state,
			dependency: {
				package: pkg,
				manifest_path: alert.manifest_path,
				scope: alert.scope,
				relationship: alert.relationship,
			},
			security_advisory: advisory,
			security_vulnerability: {
				package: pkg,
				severity: advisory.severity,
				vulnerable_version_range: alert.vulnerable_version_range,
				first_patched_version: alert.first_patched_version === null ? null : { identifier: alert.first_patched_version },
			},
			url: paths.alert(alert.number),
			html_url: paths.alertHtml(alert.number),
			created_at: alert.created_at,
			updated_at: alert.updated_at,
			dismissed_at: alert.dismissed_at,
			dismissed_by: dismisser ? simpleUser(urls, dismisser) : null,
			dismissed_reason: alert.dismissed_reason,
			dismissed_comment: alert.dismissed_comment,
			fixed_at: alert.fixed_at,
			auto_dismissed_at: alert.auto_dismissed_at,
			// The alert's latest request, unless it expired (GitHub's enum has no expired).
			dismissal_request:
				request && requestStatus
					? {
							id: request.id,
							status: requestStatus,
							requester: { id: request.requester_id, login: request.requester_login },
							created_at: request.created_at,
							url: paths.request(alert.number),
						}
					: null,
		};
		if (withRepository) body.repository = simpleRepository(urls, repo, owner);
		return body;
	}
}

/** A dismissal request. `responses` are the request's reviews, oldest first. */
export function dismissalRequest(urls: Urls, request: RequestView, responses: ResponseView[] = []) {
	const paths = repoPaths(urls, { login: request.owner_login }, request.repo_name);
	const alertNumber = String(request.alert_number);
	return {
		id: request.id,
		number: request.number,
		repository: { id: request.repo_id, name: request.repo_name, full_name: `${request.owner_login}/${request.repo_name}` },
		organization: { id: request.owner_id, name: request.owner_login },
		requester: { actor_id: request.requester_id, actor_name: request.requester_login },
		request_type: REQUEST_TYPE,
		data: [{ reason: request.reason, alert_number: alertNumber, alert_title: request.alert_title }],
		resource_identifier: alertNumber,
		status: request.status,
		requester_comment: request.requester_comment,
		expires_at: request.expires_at,
		created_at: request.created_at,
		responses: responses.map((response) => ({
			id: response.id,
			reviewer: { actor_id: response.reviewer_id, actor_name: response.reviewer_login },
			message: response.message,
			status: response.status,
			created_at: response.created_at,
		})),
		url: paths.request(request.alert_number),
		html_url: paths.alertHtml(request.alert_number),
	};
}
