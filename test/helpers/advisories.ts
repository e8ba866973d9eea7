/**
 * A security advisory as GitHub's global advisory API returns it (GET /advisories/{ghsa_id}), for
 * one vulnerable npm package: the fixture the suites import with importAdvisories.
 */
export function advisory(ghsa: string, name: string, range: string, patched: string) {
	return {
		ghsa_id: ghsa,
		cve_id: null,
		url: `https://api.github.com/advisories/${ghsa}`,
		html_url: `https://github.com/advisories/${ghsa}`,
		repository_advisory_url: null,
		summary: `summary of ${ghsa}`,
		description: `description of ${ghsa}`,
		type: 'reviewed',
		severity: 'high',
		source_code_location: null,
		identifiers: [{ type: 'GHSA', value: ghsa }],
		references: [],
		published_at: '2024-01-02T03:04:05Z',
		updated_at: '2024-02-03T04:05:06Z',
		github_reviewed_at: '2024-01-02T03:04:05Z',
		nvd_published_at: null,
		withdrawn_at: null,
		vulnerabilities: [
			{
				package: { ecosystem: 'npm', name },
				vulnerable_version_range: range,
				first_patched_version: patched,
				vulnerable_functions: [],
			},
		],
		cvss: null,
		cwes: [],
		credits: [],
	};
}
