/**
 * The local advisory database: GitHub's global security advisories (the JSON of GET /advisories)
 * imported with importAdvisories, package ecosystems and names as GitHub compares them, GitHub's
 * version-range syntax (">= 1.0.0, < 1.2.3") evaluated with semver, and vulnerabilitiesFor, which
 * dependency review and refreshAlerts use to find the advisories affecting a package version.
 */
import type Semver from 'semver';

/** semver, loaded on first use rather than at start. */
let semverLibrary: typeof Semver | null = null;
const semver = () => (semverLibrary ??= require('semver') as typeof Semver);
import * as v from 'valibot';
import type { App } from '../../app';
import { isoSeconds } from '../../time';
import type { AdvisoryValues, PackageVulnerability, Severity, VulnerabilityValues } from './store';

/** GitHub's advisory ecosystems (security-advisory-ecosystems). */
export const ECOSYSTEMS = [
	'rubygems',
	'npm',
	'pip',
	'maven',
	'nuget',
	'composer',
	'go',
	'rust',
	'erlang',
	'actions',
	'pub',
	'other',
	'swift',
] as const;

/** package-url types (and other spellings) → GitHub's ecosystem names. */
const ECOSYSTEM_ALIASES: Record<string, string> = {
	pypi: 'pip',
	gem: 'rubygems',
	golang: 'go',
	cargo: 'rust',
	crates: 'rust',
	hex: 'erlang',
	github: 'actions',
	githubactions: 'actions',
	packagist: 'composer',
};

/**
 * GitHub's ecosystem name of a package-url type or ecosystem name, lower-cased: `pypi` → `pip`,
 * `gem` → `rubygems`, `golang` → `go`, `cargo` → `rust`, `hex` → `erlang`; unknown names unchanged.
 */
export function ecosystemName(ecosystem: string): string {
	const lower = ecosystem.trim().toLowerCase();
	return ECOSYSTEM_ALIASES[lower] ?? lower;
}

/**
 * A package name as compared within its ecosystem: pip, nuget and composer names are
 * case-insensitive (pip also treats runs of `-`, `_`, `.` as one `-`, PEP 503); others exact.
 * @param ecosystem GitHub's ecosystem name (see ecosystemName)
 */
export function packageKey(ecosystem: string, name: string): string {
	if (ecosystem === 'pip') return name.toLowerCase().replace(/[-_.]+/g, '-');
	if (ecosystem === 'nuget' || ecosystem === 'composer') return name.toLowerCase();
	return name;
}

// ---------------------------------------------------------------- version ranges

type Operator = '<' | '<=' | '>' | '>=' | '=';
interface Condition {
	operator: Operator;
	version: string;
}

/**
 * A version as semver: valid (loosely: `v1.2.3`, `=1.2.3`) as is, otherwise coerced
 * (`2.13.4.1` → 2.13.4, `1.0.post1` → 1.0.0), keeping a prerelease. Null when it holds no number.
 */
export function toSemver(version: string): string | null {
	const text = version.trim();
	const valid = semver().valid(text, { loose: true });
	if (valid) return valid;
	return semver().coerce(text, { includePrerelease: true })?.version ?? null;
}

/**
 * Parses GitHub's vulnerable_version_range: comma-separated conditions `<op> <version>` with op one
 * of <, <=, >, >=, = (a bare version means =).
 * @returns the conditions, or null when the range cannot be read
 */
export function parseRange(range: string): Condition[] | null {
	const parts = range.split(',').map((part) => part.trim());
	const conditions: Condition[] = [];
	for (const part of parts) {
		const match = /^(<=|>=|<|>|=)?\s*(\S+)$/.exec(part);
		if (!match) return null;
		const version = toSemver(match[2]);
		if (!version) return null;
		conditions.push({ operator: (match[1] ?? '=') as Operator, version });
	}
	return conditions.length ? conditions : null;
}

/**
 * True when `version` lies in GitHub's `range` (every condition holds). Versions compare as semver
 * (see toSemver); an unreadable version or range never matches.
 */
export function inRange(version: string, range: string): boolean {
	const conditions = parseRange(range);
	const value = toSemver(version);
	if (!conditions || !value) return false;
	return conditions.every(({ operator, version: bound }) => {
		const order = semver().compare(value, bound);
		switch (operator) {
			case '<':
				return order < 0;
			case '<=':
				return order <= 0;
			case '>':
				return order > 0;
			case '>=':
				return order >= 0;
			default:
				return order === 0;
		}
	});
}

// ---------------------------------------------------------------- import

const timestamp = v.pipe(
	v.string(),
	v.check((text) => !Number.isNaN(Date.parse(text)), 'must be an ISO 8601 date-time'),
);
const nullableText = v.optional(v.nullable(v.string()), null);
const score = v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(10)));
const cvssEntry = v.nullable(v.looseObject({ vector_string: v.optional(v.nullable(v.string()), null), score: v.optional(score, null) }));

const vulnerabilitySchema = v.looseObject({
	package: v.nullable(
		v.looseObject({
			ecosystem: v.pipe(v.string(), v.transform(ecosystemName), v.picklist(ECOSYSTEMS, `must be one of ${ECOSYSTEMS.join(', ')}`)),
			name: v.nullable(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
		}),
	),
	vulnerable_version_range: v.nullable(
		v.pipe(
			v.string(),
			v.check((range) => parseRange(range) !== null, 'must be a range such as ">= 1.0.0, < 1.2.3"'),
		),
	),
	// GitHub's global form is a string; the alert form is {identifier}.
	first_patched_version: v.optional(v.nullable(v.union([v.string(), v.looseObject({ identifier: v.string() })])), null),
	vulnerable_functions: v.optional(v.nullable(v.array(v.string())), null),
});

const advisorySchema = v.looseObject({
	ghsa_id: v.pipe(v.string(), v.regex(/^GHSA(-[0-9a-z]{4}){3}$/i, 'must be a GHSA id such as GHSA-8f4m-hccc-8qph')),
	cve_id: nullableText,
	type: v.optional(v.picklist(['reviewed', 'unreviewed', 'malware'], 'must be reviewed, unreviewed or malware'), 'reviewed'),
	summary: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(1024, 'must be at most 1024 characters')),
	description: nullableText,
	severity: v.picklist(['low', 'medium', 'high', 'critical', 'unknown'], 'must be low, medium, high, critical or unknown'),
	source_code_location: nullableText,
	identifiers: v.optional(v.nullable(v.array(v.looseObject({ type: v.string(), value: v.string() }))), null),
	// GitHub's global form lists URLs; the alert form lists {url}.
	references: v.optional(v.nullable(v.array(v.union([v.string(), v.looseObject({ url: v.string() })]))), null),
	published_at: timestamp,
	updated_at: timestamp,
	withdrawn_at: v.optional(v.nullable(timestamp), null),
	vulnerabilities: v.optional(v.nullable(v.array(vulnerabilitySchema)), null),
	cvss: v.optional(cvssEntry, null),
	cvss_severities: v.optional(
		v.nullable(v.looseObject({ cvss_v3: v.optional(cvssEntry, null), cvss_v4: v.optional(cvssEntry, null) })),
		null,
	),
	epss: v.optional(v.unknown(), null),
	cwes: v.optional(v.nullable(v.array(v.looseObject({ cwe_id: v.string(), name: v.optional(v.string(), '') }))), null),
});

type AdvisoryInput = v.InferOutput<typeof advisorySchema>;

const iso = (text: string) => isoSeconds(Date.parse(text));

/** The stored values of a validated advisory. */
function advisoryValues(input: AdvisoryInput): { values: AdvisoryValues; vulnerabilities: Omit<VulnerabilityValues, 'advisory_id'>[] } {
	const vulnerabilities: Omit<VulnerabilityValues, 'advisory_id'>[] = [];
	for (const entry of input.vulnerabilities ?? []) {
		if (!entry.package || !entry.package.name || !entry.vulnerable_version_range) continue;
		const patched = entry.first_patched_version;
		vulnerabilities.push({
			ecosystem: entry.package.ecosystem,
			package_name: entry.package.name,
			package_key: packageKey(entry.package.ecosystem, entry.package.name),
			vulnerable_version_range: entry.vulnerable_version_range,
			first_patched_version: patched === null ? null : typeof patched === 'string' ? patched : patched.identifier,
		});
	}
	const cvss = input.cvss ? { vector_string: input.cvss.vector_string, score: input.cvss.score } : null;
	return {
		values: {
			ghsa_id: `GHSA${input.ghsa_id.slice(4).toLowerCase()}`,
			cve_id: input.cve_id,
			type: input.type,
			summary: input.summary,
			description: input.description,
			severity: input.severity,
			cvss: cvss ? JSON.stringify(cvss) : null,
			cvss_severities: input.cvss_severities ? JSON.stringify(input.cvss_severities) : null,
			epss: input.epss === null || input.epss === undefined ? null : JSON.stringify(input.epss),
			cwes: JSON.stringify((input.cwes ?? []).map(({ cwe_id, name }) => ({ cwe_id, name }))),
			identifiers: JSON.stringify((input.identifiers ?? []).map(({ type, value }) => ({ type, value }))),
			reference_urls: JSON.stringify((input.references ?? []).map((ref) => (typeof ref === 'string' ? ref : ref.url))),
			source_code_location: input.source_code_location,
			published_at: iso(input.published_at),
			updated_at: iso(input.updated_at),
			withdrawn_at: input.withdrawn_at ? iso(input.withdrawn_at) : null,
		},
		vulnerabilities,
	};
}

/**
 * Imports GitHub global advisories (objects as GET /advisories returns them), all or nothing: each
 * is validated, then created or replaced by ghsa_id with its vulnerable packages. An advisory that
 * is withdrawn loses its alerts (GitHub removes the alerts of withdrawn advisories). Alerts for
 * new advisories appear at the repository's next dependency snapshot (refreshAlerts).
 * @param now ISO timestamp
 * @throws Error naming the first invalid advisory, its field and the problem (nothing is written then), e.g.
 *   `advisories[3] (GHSA-…): vulnerabilities.0.vulnerable_version_range: must be a range such as ">= 1.0.0, < 1.2.3"`
 */
export function importAdvisories(app: App, advisories: unknown[], now: string): { imported: number; updated: number } {
	if (!Array.isArray(advisories)) throw new Error('advisories: expected a JSON array of advisory objects');
	const parsed = advisories.map((input, index) => {
		const result = v.safeParse(advisorySchema, input);
		if (result.success) return advisoryValues(result.output);
		const ghsa =
			input && typeof input === 'object' && typeof (input as { ghsa_id?: unknown }).ghsa_id === 'string'
				? (input as { ghsa_id: string }).ghsa_id
				: 'no ghsa_id';
		const issue = result.issues[0];
		const field = v.getDotPath(issue) ?? '(advisory)';
		const message = issue.input === undefined && issue.kind === 'schema' ? 'is required' : issue.message;
		throw new Error(`advisories[${index}] (${ghsa}): ${field}: ${message}`);
	});
	const { dependabot } = app.stores;
	return app.transaction(() => {
		let imported = 0;
		let updated = 0;
		for (const { values, vulnerabilities } of parsed) {
			if (dependabot.advisoryByGhsa(values.ghsa_id)) updated++;
			else imported++;
			const id = dependabot.upsertAdvisory(values, now);
			dependabot.replaceVulnerabilities(id, vulnerabilities);
			if (values.withdrawn_at !== null) dependabot.deleteAlertsOfAdvisory(id);
		}
		return { imported, updated };
	});
}

// ---------------------------------------------------------------- matching

/**
 * The vulnerabilities of live advisories (not withdrawn, known severity) affecting each package
 * version, by input index, at most one per advisory (its first matching range). One query for all
 * the packages; a package without a version matches nothing.
 * @param ecosystem package-url type or GitHub ecosystem name
 */
export function matchPackages(
	app: App,
	packages: ReadonlyArray<{ ecosystem: string; name: string; version: string | null }>,
): PackageVulnerability[][] {
	const keys = packages.map(({ ecosystem, name }) => {
		const eco = ecosystemName(ecosystem);
		return [eco, packageKey(eco, name)] as [string, string];
	});
	const candidates = new Map<string, PackageVulnerability[]>();
	const versioned = keys.filter((_, i) => packages[i].version?.trim());
	if (versioned.length) {
		for (const row of app.stores.dependabot.vulnerabilitiesOfPackages(versioned)) {
			const key = `${row.ecosystem}\n${row.package_key}`;
			const list = candidates.get(key);
			if (list) list.push(row);
			else candidates.set(key, [row]);
		}
	}
	return packages.map(({ version }, i) => {
		if (!version?.trim()) return [];
		const seen = new Set<number>();
		const out: PackageVulnerability[] = [];
		for (const row of candidates.get(`${keys[i][0]}\n${keys[i][1]}`) ?? []) {
			if (seen.has(row.advisory_id) || !inRange(version, row.vulnerable_version_range)) continue;
			seen.add(row.advisory_id);
			out.push(row);
		}
		return out;
	});
}

export interface PackageAdvisory {
	severity: Severity;
	advisory_ghsa_id: string;
	advisory_summary: string;
	/** The advisory's web page: `${origin}/advisories/${ghsa_id}` */
	advisory_url: string;
}

/**
 * The advisories affecting each package version,
 * by input index. Withdrawn advisories and those of unknown severity are ignored; a package without
 * a version matches nothing. Ecosystems may be package-url types (`pypi`) or GitHub's names (`pip`).
 */
export function vulnerabilitiesFor(
	app: App,
	packages: Array<{ ecosystem: string; name: string; version: string | null }>,
): PackageAdvisory[][] {
	return matchPackages(app, packages).map((rows) =>
		rows.map((row) => ({
			severity: row.severity,
			advisory_ghsa_id: row.ghsa_id,
			advisory_summary: row.summary,
			advisory_url: `${app.urls.origin}/advisories/${row.ghsa_id}`,
		})),
	);
}
