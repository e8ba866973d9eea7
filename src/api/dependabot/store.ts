/**
 * Prepared statements for security advisories, dependabot alerts and their dismissal requests
 * (schema.sql, block "dependabot alerts and dismissal requests").
 *
 * List filters are optional parameters (`@x IS NULL OR ...`; comma lists travel as JSON arrays and
 * are read with json_each). Alert and request counts per repository are small (hundreds), so one
 * statement per list order serves every filter combination.
 */
import type { DB } from '../../db/open';

export type Severity = 'low' | 'medium' | 'high' | 'critical';
export type AlertState = 'open' | 'dismissed' | 'fixed' | 'auto_dismissed';
export type DismissedReason = 'fix_started' | 'inaccurate' | 'no_bandwidth' | 'not_used' | 'tolerable_risk';
export type RequestStatus = 'pending' | 'open' | 'approved' | 'denied' | 'expired' | 'completed' | 'cancelled';

export interface AdvisoryRow {
	id: number;
	ghsa_id: string;
	cve_id: string | null;
	type: 'reviewed' | 'unreviewed' | 'malware';
	summary: string;
	description: string | null;
	severity: Severity | 'unknown';
	/** JSON {vector_string, score} or null */
	cvss: string | null;
	/** JSON {cvss_v3, cvss_v4} or null */
	cvss_severities: string | null;
	/** JSON or null */
	epss: string | null;
	/** JSON [{cwe_id, name}] */
	cwes: string;
	/** JSON [{type, value}] */
	identifiers: string;
	/** JSON array of URLs */
	reference_urls: string;
	source_code_location: string | null;
	published_at: string;
	updated_at: string;
	withdrawn_at: string | null;
	imported_at: string;
}

export type AdvisoryValues = Omit<AdvisoryRow, 'id' | 'imported_at'>;

export interface VulnerabilityRow {
	id: number;
	advisory_id: number;
	ecosystem: string;
	package_name: string;
	package_key: string;
	vulnerable_version_range: string;
	first_patched_version: string | null;
}

export type VulnerabilityValues = Omit<VulnerabilityRow, 'id'>;

/** A vulnerability of a live (not withdrawn, known severity) advisory, with the advisory's facts. */
export interface PackageVulnerability extends VulnerabilityRow {
	ghsa_id: string;
	severity: Severity;
	summary: string;
}

export interface AlertRow {
	id: number;
	repo_id: number;
	number: number;
	advisory_id: number;
	manifest_path: string;
	ecosystem: string;
	package_name: string;
	package_key: string;
	version: string | null;
	scope: 'runtime' | 'development' | null;
	relationship: 'direct' | 'transitive' | 'unknown' | null;
	vulnerable_version_range: string;
	first_patched_version: string | null;
	state: AlertState;
	dismissed_at: string | null;
	dismissed_by_id: number | null;
	dismissed_reason: DismissedReason | null;
	dismissed_comment: string | null;
	fixed_at: string | null;
	auto_dismissed_at: string | null;
	created_at: string;
	updated_at: string;
}

export type NewAlert = Pick<
	AlertRow,
	| 'repo_id'
	| 'advisory_id'
	| 'manifest_path'
	| 'ecosystem'
	| 'package_name'
	| 'package_key'
	| 'version'
	| 'scope'
	| 'relationship'
	| 'vulnerable_version_range'
	| 'first_patched_version'
>;

/** The dependency facts refreshAlerts keeps current on an existing alert. */
export type AlertDependency = Pick<
	AlertRow,
	'id' | 'package_name' | 'version' | 'scope' | 'relationship' | 'vulnerable_version_range' | 'first_patched_version'
>;

export type AlertStateChange = Pick<
	AlertRow,
	'id' | 'state' | 'dismissed_at' | 'dismissed_by_id' | 'dismissed_reason' | 'dismissed_comment' | 'fixed_at' | 'updated_at'
>;

/** Filters of the alert lists: null means "not given"; arrays are any-of. */
export interface AlertFilter {
	repoId: number | null;
	orgId: number | null;
	/** Installation tokens limited to some repositories. */
	repoIds: number[] | null;
	states: string[] | null;
	severities: string[] | null;
	ecosystems: string[] | null;
	packages: string[] | null;
	manifests: string[] | null;
	scope: string | null;
	relationships: string[] | null;
	/** 'general' or 'malware' lists */
	classifications: string[] | null;
	/** only alerts with a first patched version */
	hasPatch: boolean;
}

export type AlertOrder = 'created_asc' | 'created_desc' | 'updated_asc' | 'updated_desc';

export interface RequestRow {
	id: number;
	repo_id: number;
	number: number;
	alert_id: number;
	requester_id: number;
	reason: DismissedReason;
	requester_comment: string | null;
	status: RequestStatus;
	expires_at: string;
	created_at: string;
	updated_at: string;
}

/** A request with what its representation needs. `status` is the effective one (overdue open → expired). */
export interface RequestView extends RequestRow {
	alert_number: number;
	alert_title: string;
	requester_login: string;
	repo_name: string;
	owner_id: number;
	owner_login: string;
}

export interface ResponseView {
	id: number;
	request_id: number;
	reviewer_id: number;
	reviewer_login: string;
	status: 'approved' | 'denied' | 'dismissed';
	message: string | null;
	created_at: string;
}

/** Filters of the dismissal-request lists: null means "not given". */
export interface RequestFilter {
	repoId: number | null;
	orgId: number | null;
	repoIds: number[] | null;
	repoName: string | null;
	requesterId: number | null;
	reviewerId: number | null;
	/** ISO timestamp: created at or after */
	since: string;
	/** effective statuses, any-of */
	statuses: string[] | null;
	/** ISO timestamp of the request: open requests expiring at or before it count as expired */
	now: string;
}

const json = (list: readonly unknown[] | null) => (list === null ? null : JSON.stringify(list));

export type DependabotStore = ReturnType<typeof createDependabotStore>;

export function createDependabotStore(db: DB) {
	// ------------------------------------------------------------------ advisories
	const advisoryByGhsa = db.prepare('SELECT * FROM security_advisories WHERE ghsa_id = ?');
	const advisoryById = db.prepare('SELECT * FROM security_advisories WHERE id = ?');
	const upsertAdvisory = db
		.prepare(`
		INSERT INTO security_advisories (ghsa_id, cve_id, type, summary, description, severity, cvss, cvss_severities, epss, cwes,
			identifiers, reference_urls, source_code_location, published_at, updated_at, withdrawn_at, imported_at)
		VALUES (@ghsa_id, @cve_id, @type, @summary, @description, @severity, @cvss, @cvss_severities, @epss, @cwes,
			@identifiers, @reference_urls, @source_code_location, @published_at, @updated_at, @withdrawn_at, @now)
		ON CONFLICT (ghsa_id) DO UPDATE SET cve_id = excluded.cve_id, type = excluded.type, summary = excluded.summary,
			description = excluded.description, severity = excluded.severity, cvss = excluded.cvss,
			cvss_severities = excluded.cvss_severities, epss = excluded.epss, cwes = excluded.cwes, identifiers = excluded.identifiers,
			reference_urls = excluded.reference_urls, source_code_location = excluded.source_code_location,
			published_at = excluded.published_at, updated_at = excluded.updated_at, withdrawn_at = excluded.withdrawn_at,
			imported_at = excluded.imported_at
		RETURNING id`)
		.pluck();
	const deleteVulnerabilities = db.prepare('DELETE FROM advisory_vulnerabilities WHERE advisory_id = ?');
	const insertVulnerability = db.prepare(`
		INSERT INTO advisory_vulnerabilities (advisory_id, ecosystem, package_name, package_key, vulnerable_version_range, first_patched_version)
		VALUES (@advisory_id, @ecosystem, @package_name, @package_key, @vulnerable_version_range, @first_patched_version)`);
	const vulnerabilitiesOf = db.prepare('SELECT * FROM advisory_vulnerabilities WHERE advisory_id = ? ORDER BY id');
	const packageVulnerabilities = db.prepare(`
		SELECT v.*, a.ghsa_id, a.severity, a.summary FROM advisory_vulnerabilities v
		JOIN security_advisories a ON a.id = v.advisory_id
		WHERE v.ecosystem = ? AND v.package_key = ? AND a.withdrawn_at IS NULL AND a.severity <> 'unknown'
		ORDER BY a.id, v.id`);
	// The same for many packages at once: a JSON array of [ecosystem, package_key] pairs.
	const vulnerabilitiesOfPackages = db.prepare(`
		SELECT v.*, a.ghsa_id, a.severity, a.summary
		FROM (SELECT DISTINCT json_extract(value, '$[0]') AS ecosystem, json_extract(value, '$[1]') AS package_key FROM json_each(?)) p
		JOIN advisory_vulnerabilities v ON v.ecosystem = p.ecosystem AND v.package_key = p.package_key
		JOIN security_advisories a ON a.id = v.advisory_id
		WHERE a.withdrawn_at IS NULL AND a.severity <> 'unknown'
		ORDER BY a.id, v.id`);
	const deleteAlertsOfAdvisory = db.prepare('DELETE FROM dependabot_alerts WHERE advisory_id = ?');
	// The advisory feed (src/api/feeds): the most recently updated advisories and their packages.
	const latestAdvisories = db.prepare('SELECT * FROM security_advisories ORDER BY updated_at DESC, id DESC LIMIT ?');
	const packagesOfAdvisories = db.prepare(`
		SELECT DISTINCT advisory_id, package_name FROM advisory_vulnerabilities
		WHERE advisory_id IN (SELECT value FROM json_each(?)) ORDER BY advisory_id, package_name`);

	// ------------------------------------------------------------------ sequences
	const nextAlertNumber = db
		.prepare(`
		INSERT INTO dependabot_sequences (repo_id, alerts) VALUES (?, 1)
		ON CONFLICT (repo_id) DO UPDATE SET alerts = alerts + 1 RETURNING alerts`)
		.pluck();
	const nextRequestNumber = db
		.prepare(`
		INSERT INTO dependabot_sequences (repo_id, dismissal_requests) VALUES (?, 1)
		ON CONFLICT (repo_id) DO UPDATE SET dismissal_requests = dismissal_requests + 1 RETURNING dismissal_requests`)
		.pluck();

	// ------------------------------------------------------------------ alerts
	const alertsOfRepo = db.prepare('SELECT * FROM dependabot_alerts WHERE repo_id = ? ORDER BY number');
	const alertByNumber = db.prepare('SELECT * FROM dependabot_alerts WHERE repo_id = ? AND number = ?');
	const alertById = db.prepare('SELECT * FROM dependabot_alerts WHERE id = ?');
	const insertAlert = db
		.prepare(`
		INSERT INTO dependabot_alerts (repo_id, number, advisory_id, manifest_path, ecosystem, package_name, package_key, version, scope,
			relationship, vulnerable_version_range, first_patched_version, state, created_at, updated_at)
		VALUES (@repo_id, @number, @advisory_id, @manifest_path, @ecosystem, @package_name, @package_key, @version, @scope,
			@relationship, @vulnerable_version_range, @first_patched_version, 'open', @now, @now)
		RETURNING id`)
		.pluck();
	const updateDependency = db.prepare(`
		UPDATE dependabot_alerts SET package_name = @package_name, version = @version, scope = @scope, relationship = @relationship,
			vulnerable_version_range = @vulnerable_version_range, first_patched_version = @first_patched_version
		WHERE id = @id`);
	const setState = db.prepare(`
		UPDATE dependabot_alerts SET state = @state, dismissed_at = @dismissed_at, dismissed_by_id = @dismissed_by_id,
			dismissed_reason = @dismissed_reason, dismissed_comment = @dismissed_comment, fixed_at = @fixed_at, updated_at = @updated_at
		WHERE id = @id`);
	const alertWhere = `
		FROM dependabot_alerts a
		JOIN security_advisories s ON s.id = a.advisory_id
		JOIN repositories r ON r.id = a.repo_id
		WHERE (@repoId IS NULL OR a.repo_id = @repoId)
			AND (@orgId IS NULL OR r.owner_id = @orgId)
			AND (@repoIds IS NULL OR a.repo_id IN (SELECT value FROM json_each(@repoIds)))
			AND (@states IS NULL OR a.state IN (SELECT value FROM json_each(@states)))
			AND (@severities IS NULL OR s.severity IN (SELECT value FROM json_each(@severities)))
			AND (@ecosystems IS NULL OR a.ecosystem IN (SELECT value FROM json_each(@ecosystems)))
			AND (@packages IS NULL OR a.package_name IN (SELECT value FROM json_each(@packages)))
			AND (@manifests IS NULL OR a.manifest_path IN (SELECT value FROM json_each(@manifests)))
			AND (@scope IS NULL OR a.scope = @scope)
			AND (@relationships IS NULL OR coalesce(a.relationship, 'unknown') IN (SELECT value FROM json_each(@relationships)))
			AND (@classifications IS NULL
				OR (CASE s.type WHEN 'malware' THEN 'malware' ELSE 'general' END) IN (SELECT value FROM json_each(@classifications)))
			AND (@hasPatch = 0 OR a.first_patched_version IS NOT NULL)`;
	const ORDERS: Record<AlertOrder, string> = {
		created_asc: 'a.created_at ASC, a.id ASC',
		created_desc: 'a.created_at DESC, a.id DESC',
		updated_asc: 'a.updated_at ASC, a.id ASC',
		updated_desc: 'a.updated_at DESC, a.id DESC',
	};
	const listAlerts = new Map(
		Object.entries(ORDERS).map(([order, by]) => [
			order as AlertOrder,
			db.prepare(`SELECT a.* ${alertWhere} ORDER BY ${by} LIMIT @limit OFFSET @offset`),
		]),
	);
	const countAlerts = db.prepare(`SELECT count(*) ${alertWhere}`).pluck();
	const bindAlerts = (f: AlertFilter) => ({
		repoId: f.repoId,
		orgId: f.orgId,
		repoIds: json(f.repoIds),
		states: json(f.states),
		severities: json(f.severities),
		ecosystems: json(f.ecosystems),
		packages: json(f.packages),
		manifests: json(f.manifests),
		scope: f.scope,
		relationships: json(f.relationships),
		classifications: json(f.classifications),
		hasPatch: f.hasPatch ? 1 : 0,
	});

	// ------------------------------------------------------------------ dismissal requests
	const EFFECTIVE = `CASE WHEN d.status = 'open' AND d.expires_at <= @now THEN 'expired' ELSE d.status END`;
	const REQUEST_VIEW = `
		SELECT d.id, d.repo_id, d.number, d.alert_id, d.requester_id, d.reason, d.requester_comment, ${EFFECTIVE} AS status,
			d.expires_at, d.created_at, d.updated_at, a.number AS alert_number, s.summary AS alert_title, u.login AS requester_login,
			r.name AS repo_name, o.id AS owner_id, o.login AS owner_login
		FROM dependabot_dismissal_requests d
		JOIN dependabot_alerts a ON a.id = d.alert_id
		JOIN security_advisories s ON s.id = a.advisory_id
		JOIN accounts u ON u.id = d.requester_id
		JOIN repositories r ON r.id = d.repo_id
		JOIN accounts o ON o.id = r.owner_id`;
	const insertRequest = db
		.prepare(`
		INSERT INTO dependabot_dismissal_requests (repo_id, number, alert_id, requester_id, reason, requester_comment, status, expires_at,
			created_at, updated_at)
		VALUES (@repo_id, @number, @alert_id, @requester_id, @reason, @requester_comment, 'open', @expires_at, @now, @now)
		RETURNING id`)
		.pluck();
	const requestById = db.prepare(`${REQUEST_VIEW} WHERE d.id = @id`);
	const latestRequestOfAlert = db.prepare(`${REQUEST_VIEW} WHERE d.alert_id = @alertId ORDER BY d.id DESC LIMIT 1`);
	// The latest request of each of several alerts.
	const latestRequestsOfAlerts = db.prepare(`${REQUEST_VIEW}
		WHERE d.id IN (SELECT max(id) FROM dependabot_dismissal_requests WHERE alert_id IN (SELECT value FROM json_each(@ids)) GROUP BY alert_id)`);
	const requestWhere = `
		WHERE (@repoId IS NULL OR d.repo_id = @repoId)
			AND (@orgId IS NULL OR r.owner_id = @orgId)
			AND (@repoIds IS NULL OR d.repo_id IN (SELECT value FROM json_each(@repoIds)))
			AND (@repoName IS NULL OR r.name = @repoName)
			AND (@requesterId IS NULL OR d.requester_id = @requesterId)
			AND (@reviewerId IS NULL OR EXISTS (
				SELECT 1 FROM dependabot_dismissal_responses x WHERE x.request_id = d.id AND x.reviewer_id = @reviewerId))
			AND d.created_at >= @since
			AND (@statuses IS NULL OR ${EFFECTIVE} IN (SELECT value FROM json_each(@statuses)))`;
	const listRequests = db.prepare(`${REQUEST_VIEW} ${requestWhere} ORDER BY d.created_at DESC, d.id DESC LIMIT @limit OFFSET @offset`);
	const countRequests = db
		.prepare(`
		SELECT count(*) FROM dependabot_dismissal_requests d JOIN repositories r ON r.id = d.repo_id ${requestWhere}`)
		.pluck();
	const bindRequests = (f: RequestFilter) => ({
		repoId: f.repoId,
		orgId: f.orgId,
		repoIds: json(f.repoIds),
		repoName: f.repoName,
		requesterId: f.requesterId,
		reviewerId: f.reviewerId,
		since: f.since,
		statuses: json(f.statuses),
		now: f.now,
	});
	const setRequestStatus = db.prepare(`UPDATE dependabot_dismissal_requests SET status = @status, updated_at = @now WHERE id = @id`);
	const expireOverdue = db.prepare(`
		UPDATE dependabot_dismissal_requests SET status = 'expired', updated_at = @now WHERE status = 'open' AND expires_at <= @now`);
	const expireOverdueOfAlert = db.prepare(`
		UPDATE dependabot_dismissal_requests SET status = 'expired', updated_at = @now
		WHERE alert_id = @alertId AND status = 'open' AND expires_at <= @now`);
	const insertResponse = db
		.prepare(`
		INSERT INTO dependabot_dismissal_responses (request_id, reviewer_id, status, message, created_at)
		VALUES (@request_id, @reviewer_id, @status, @message, @now) RETURNING id`)
		.pluck();
	const responsesOf = db.prepare(`
		SELECT x.*, u.login AS reviewer_login FROM dependabot_dismissal_responses x JOIN accounts u ON u.id = x.reviewer_id
		WHERE x.request_id IN (SELECT value FROM json_each(?)) ORDER BY x.id`);

	return {
		// advisories
		advisoryByGhsa: (ghsaId: string) => advisoryByGhsa.get(ghsaId) as AdvisoryRow | undefined,
		advisoryById: (id: number) => advisoryById.get(id) as AdvisoryRow | undefined,
		/** Creates or replaces an advisory (by ghsa_id). @param now ISO timestamp @returns its id */
		upsertAdvisory: (values: AdvisoryValues, now: string) => upsertAdvisory.get({ ...values, now }) as number,
		/** Replaces the vulnerable packages of an advisory. */
		replaceVulnerabilities(advisoryId: number, rows: Omit<VulnerabilityValues, 'advisory_id'>[]): void {
			deleteVulnerabilities.run(advisoryId);
			for (const row of rows) insertVulnerability.run({ ...row, advisory_id: advisoryId });
		},
		vulnerabilitiesOf: (advisoryId: number) => vulnerabilitiesOf.all(advisoryId) as VulnerabilityRow[],
		/** Vulnerabilities of live advisories (not withdrawn, known severity) for one package. */
		packageVulnerabilities: (ecosystem: string, packageKey: string) =>
			packageVulnerabilities.all(ecosystem, packageKey) as PackageVulnerability[],
		/** packageVulnerabilities for many [ecosystem, package_key] pairs in one query. */
		vulnerabilitiesOfPackages: (packages: Array<[string, string]>) =>
			vulnerabilitiesOfPackages.all(JSON.stringify(packages)) as PackageVulnerability[],
		/** Removes every alert of an advisory (it was withdrawn). @returns alerts removed */
		deleteAlertsOfAdvisory: (advisoryId: number) => deleteAlertsOfAdvisory.run(advisoryId).changes,
		/** The `limit` most recently updated advisories (withdrawn ones too), newest first. */
		latestAdvisories: (limit: number) => latestAdvisories.all(limit) as AdvisoryRow[],
		/** The affected package names of each advisory, by advisory id, in one query. */
		packagesOfAdvisories(ids: readonly number[]): Map<number, string[]> {
			const out = new Map<number, string[]>();
			if (ids.length === 0) return out;
			for (const row of packagesOfAdvisories.all(JSON.stringify(ids)) as Array<{ advisory_id: number; package_name: string }>) {
				const names = out.get(row.advisory_id);
				if (names) names.push(row.package_name);
				else out.set(row.advisory_id, [row.package_name]);
			}
			return out;
		},

		// alerts
		alertsOfRepo: (repoId: number) => alertsOfRepo.all(repoId) as AlertRow[],
		alertByNumber: (repoId: number, number: number) => alertByNumber.get(repoId, number) as AlertRow | undefined,
		alertById: (id: number) => alertById.get(id) as AlertRow | undefined,
		/** Opens an alert with the repository's next number. @param now ISO timestamp @returns its id */
		insertAlert(alert: NewAlert, now: string): number {
			const number = nextAlertNumber.get(alert.repo_id) as number;
			return insertAlert.get({ ...alert, number, now }) as number;
		},
		updateDependency: (values: AlertDependency) => void updateDependency.run(values),
		setState: (change: AlertStateChange) => void setState.run(change),
		listAlerts(filter: AlertFilter, order: AlertOrder, page: { limit: number; offset: number }) {
			const bound = bindAlerts(filter);
			return {
				rows: listAlerts.get(order)!.all({ ...bound, ...page }) as AlertRow[],
				total: countAlerts.get(bound) as number,
			};
		},

		// dismissal requests
		/** Opens a request with the repository's next number. @returns its id */
		insertRequest(
			values: Pick<RequestRow, 'repo_id' | 'alert_id' | 'requester_id' | 'reason' | 'requester_comment' | 'expires_at'>,
			now: string,
		): number {
			const number = nextRequestNumber.get(values.repo_id) as number;
			return insertRequest.get({ ...values, number, now }) as number;
		},
		/** @param now ISO timestamp deciding whether an overdue open request reads as expired */
		requestById: (id: number, now: string) => requestById.get({ id, now }) as RequestView | undefined,
		latestRequestOfAlert: (alertId: number, now: string) => latestRequestOfAlert.get({ alertId, now }) as RequestView | undefined,
		/** alert id → its latest dismissal request, for several alerts. @param now ISO timestamp */
		latestRequestsOfAlerts(alertIds: number[], now: string): Map<number, RequestView> {
			const rows = latestRequestsOfAlerts.all({ ids: JSON.stringify(alertIds), now }) as RequestView[];
			return new Map(rows.map((row) => [row.alert_id, row]));
		},
		listRequests(filter: RequestFilter, page: { limit: number; offset: number }) {
			const bound = bindRequests(filter);
			return {
				rows: listRequests.all({ ...bound, ...page }) as RequestView[],
				total: countRequests.get(bound) as number,
			};
		},
		setRequestStatus: (id: number, status: RequestStatus, now: string) => void setRequestStatus.run({ id, status, now }),
		/** Marks every overdue open request expired. @returns how many */
		expireOverdue: (now: string) => expireOverdue.run({ now }).changes,
		/** Marks the alert's overdue open request expired. @returns how many (0 or 1) */
		expireOverdueOfAlert: (alertId: number, now: string) => expireOverdueOfAlert.run({ alertId, now }).changes,
		/** @returns the response id */
		insertResponse: (values: Pick<ResponseView, 'request_id' | 'reviewer_id' | 'status' | 'message'>, now: string) =>
			insertResponse.get({ ...values, now }) as number,
		/** Responses of the requests, oldest first. */
		responsesOf: (requestIds: number[]) => responsesOf.all(JSON.stringify(requestIds)) as ResponseView[],
	};
}
