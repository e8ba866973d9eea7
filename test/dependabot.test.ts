/**
 * Dependabot alerts, the local advisory database and dismissal requests for dependency alerts
 * (GitHub's dependabot/* operations).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importAdvisories, inRange, vulnerabilitiesFor } from '../src/api/dependabot/advisories';
import { dependabotRoutes } from '../src/api/dependabot/routes';
import { DISMISSAL_REQUEST_TTL_MS, expireDismissalRequests, refreshAlerts, type GraphDependency } from '../src/api/dependabot/service';
import { refreshAllAlerts } from '../src/api/dependency-graph/service';
import type { RepositoryRow } from '../src/model/rows';
import { isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';
import { captureWebhooks as captureWebhooksOf, eventMark as eventMarkOf, eventsSince as eventsSinceOf } from './helpers/setup';

const test = suite('dependabot');
let s: TestServer;
/** olivia: owner of acme (admin everywhere, a dismissal reviewer). */
let owner: string;
/** walt: member of acme with push on acme/app (classic, security_events only: public repositories). */
let writer: string;
/** walt with repo too. */
let writerRepo: string;
/** ada: member with admin on acme/app (a reviewer, not an owner). */
let admin: string;
/** rita: member with the base read permission. */
let reader: string;
/** nora: no role in acme. */
let outsider: string;

const APP = '/repos/acme/app';
const VAULT = '/repos/acme/vault';
const OTHER = '/repos/acme/other';
const ALERT_KEYS = [
	'number',
	'state',
	'dependency',
	'security_advisory',
	'security_vulnerability',
	'url',
	'html_url',
	'created_at',
	'updated_at',
	'dismissed_at',
	'dismissed_by',
	'dismissed_reason',
	'dismissed_comment',
	'fixed_at',
	'auto_dismissed_at',
	'dismissal_request',
];
const REQUEST_KEYS = [
	'id',
	'number',
	'repository',
	'organization',
	'requester',
	'request_type',
	'data',
	'resource_identifier',
	'status',
	'requester_comment',
	'expires_at',
	'created_at',
	'responses',
	'url',
	'html_url',
];

const advisory = (ghsa: string, fields: Record<string, unknown>) => ({
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
	references: [`https://github.com/advisories/${ghsa}`],
	published_at: '2024-01-02T03:04:05Z',
	updated_at: '2024-02-03T04:05:06Z',
	github_reviewed_at: '2024-01-02T03:04:05Z',
	nvd_published_at: null,
	withdrawn_at: null,
	vulnerabilities: [],
	cvss: null,
	cwes: [],
	credits: [],
	...fields,
});
const vuln = (ecosystem: string, name: string, range: string, patched: string | null) => ({
	package: { ecosystem, name },
	vulnerable_version_range: range,
	first_patched_version: patched,
	vulnerable_functions: [],
});

const LODASH = 'GHSA-jf85-cpcp-j695';
const LODASH_NO_PATCH = 'GHSA-p6mc-m468-83gw';
const REQUESTS = 'GHSA-j8r2-6x86-q33q';
const MINIMIST = 'GHSA-xvch-5gv4-984h';
const LEFT_PAD = 'GHSA-4w2v-q235-vp99';
const EVIL = 'GHSA-9c47-m6qq-7p4h';

const ADVISORIES = [
	advisory(LODASH, {
		cve_id: 'CVE-2019-10744',
		summary: 'Prototype Pollution in lodash',
		severity: 'critical',
		cvss: { vector_string: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:H', score: 9.1 },
		cwes: [{ cwe_id: 'CWE-1321', name: 'Prototype Pollution' }],
		identifiers: [
			{ type: 'GHSA', value: LODASH },
			{ type: 'CVE', value: 'CVE-2019-10744' },
		],
		epss: [{ percentage: 0.01, percentile: 0.5 }],
		vulnerabilities: [vuln('npm', 'lodash', '< 4.17.12', '4.17.12')],
	}),
	advisory(REQUESTS, {
		summary: 'Requests leaks Proxy-Authorization headers',
		severity: 'medium',
		vulnerabilities: [vuln('pip', 'requests', '>= 2.3.0, < 2.31.0', '2.31.0')],
	}),
	advisory(MINIMIST, {
		severity: 'critical',
		withdrawn_at: '2024-03-01T00:00:00Z',
		vulnerabilities: [vuln('npm', 'minimist', '< 1.2.6', '1.2.6')],
	}),
	advisory(LEFT_PAD, { severity: 'unknown', type: 'unreviewed', vulnerabilities: [vuln('npm', 'left-pad', '< 2.0.0', null)] }),
	advisory(LODASH_NO_PATCH, { severity: 'low', vulnerabilities: [vuln('npm', 'lodash', '>= 4.0.0, < 4.17.21', null)] }),
	advisory(EVIL, { severity: 'critical', type: 'malware', vulnerabilities: [vuln('npm', 'evil-pkg', '>= 0', null)] }),
];

const dep = (
	manifest: string,
	ecosystem: string,
	name: string,
	version: string | null,
	extra: Partial<GraphDependency> = {},
): GraphDependency => ({
	manifest,
	package_url: `pkg:${ecosystem}/${name}${version ? `@${version}` : ''}`,
	ecosystem,
	name,
	version,
	scope: 'runtime',
	relationship: 'direct',
	...extra,
});

/** acme/app's dependencies: alerts 1, 2 (lodash), 3 (evil-pkg, malware), 4 (Requests). */
const APP_DEPENDENCIES: GraphDependency[] = [
	dep('package.json', 'npm', 'lodash', '4.17.11'),
	dep('package.json', 'npm', 'minimist', '1.2.0'),
	dep('package.json', 'npm', 'left-pad', '1.0.0'),
	dep('package-lock.json', 'npm', 'evil-pkg', '1.0.0', { scope: 'development', relationship: 'indirect' }),
	dep('requirements.txt', 'pypi', 'Requests', '2.25.0', { relationship: null }),
	dep('package.json', 'npm', 'express', '4.18.0'),
	dep('web/package.json', 'npm', 'lodash', null),
];

const repoRow = (name: string): RepositoryRow => s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, name)!;
const now = () => isoSeconds(s.clock.now);
const setDelegated = (name: string, on: boolean) =>
	s.app.stores.repos.setSecurity(repoRow(name).id, { advanced_security: 0, delegated_alert_dismissal: on ? 1 : 0 });
const numbers = (res: { body: any[] }) => res.body.map((alert: any) => alert.number);

const eventMark = () => eventMarkOf(s);
const eventsSince = (mark: number) => eventsSinceOf(s, mark);
const captureWebhooks = () => captureWebhooksOf(s);

/** A dependency snapshot of acme/events' default branch with lodash at `version` (package.json). */
const lodashSnapshot = (version: string) => ({
	version: 0,
	job: { id: `job-${version}`, correlator: 'ci' },
	sha: 'a'.repeat(40),
	ref: 'refs/heads/main',
	detector: { name: 'npm-detector', version: '1.0.0', url: 'https://example.com/detector' },
	manifests: {
		'package.json': {
			name: 'package.json',
			resolved: { lodash: { package_url: `pkg:npm/lodash@${version}`, relationship: 'direct', scope: 'runtime' } },
		},
	},
	scanned: '2026-11-22T11:00:00Z',
});

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'walt', 'ada', 'rita', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	for (const login of ['walt', 'ada', 'rita']) s.member('acme', login);
	owner = s.fullToken('olivia');
	for (const [name, visibility] of [
		['app', 'public'],
		['vault', 'private'],
		['other', 'public'],
		['events', 'public'],
	]) {
		const res = await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name, visibility } });
		assert.is(res.status, 201);
	}
	const at = now();
	s.app.stores.repos.setCollaborator(repoRow('app').id, s.app.stores.accounts.user('walt')!.id, 'push', at);
	s.app.stores.repos.setCollaborator(repoRow('other').id, s.app.stores.accounts.user('walt')!.id, 'push', at);
	s.app.stores.repos.setCollaborator(repoRow('events').id, s.app.stores.accounts.user('walt')!.id, 'push', at);
	s.app.stores.repos.setCollaborator(repoRow('app').id, s.app.stores.accounts.user('ada')!.id, 'admin', at);
	writer = s.token('walt', { scopes: ['security_events'] });
	writerRepo = s.token('walt', { scopes: ['repo'] });
	admin = s.token('ada', { scopes: ['security_events'] });
	reader = s.fullToken('rita');
	outsider = s.fullToken('nora');
});
test.after(() => s.close());

// ---------------------------------------------------------------- advisory database

test('inRange – GitHub range syntax compared as semver', () => {
	assert.ok(inRange('4.17.11', '< 4.17.12'));
	assert.not.ok(inRange('4.17.12', '< 4.17.12'));
	assert.ok(inRange('2.3.0', '>= 2.3.0, < 2.31.0'));
	assert.not.ok(inRange('2.31.0', '>= 2.3.0, < 2.31.0'));
	assert.ok(inRange('1.0.0', '= 1.0.0'));
	assert.ok(inRange('1.0.0', '1.0.0'), '~> a bare version means =');
	assert.ok(inRange('v1.2.3', '<= 1.2.3'), '~> a v prefix is read');
	assert.ok(inRange('1.2', '> 1.1.9'), '~> short versions are coerced');
	assert.ok(inRange('2.0.0-beta.1', '< 2.0.0'), '~> prereleases sort before their release');
	assert.not.ok(inRange('not-a-version', '< 9'));
	assert.not.ok(inRange('1.0.0', 'between 1 and 2'));
});

test('importAdvisories – imports, then updates by ghsa_id', () => {
	const first = importAdvisories(s.app, ADVISORIES, now());
	assert.equal(first, { imported: 6, updated: 0 });
	const again = importAdvisories(s.app, [ADVISORIES[0]], now());
	assert.equal(again, { imported: 0, updated: 1 });
	const row = s.app.stores.dependabot.advisoryByGhsa(LODASH)!;
	assert.is(row.summary, 'Prototype Pollution in lodash');
	assert.is(s.app.stores.dependabot.vulnerabilitiesOf(row.id).length, 1, '~> vulnerabilities replaced, not duplicated');
});

test('importAdvisories – a clear error naming the advisory and field; nothing written', () => {
	const bad = [
		advisory('GHSA-2222-3333-4444', {}),
		advisory('GHSA-5555-6666-7777', { vulnerabilities: [vuln('npm', 'x', 'between 1 and 2', null)] }),
	];
	assert.throws(
		() => importAdvisories(s.app, bad, now()),
		/advisories\[1\] \(GHSA-5555-6666-7777\): vulnerabilities\.0\.vulnerable_version_range: must be a range/,
	);
	assert.is(s.app.stores.dependabot.advisoryByGhsa('GHSA-2222-3333-4444'), undefined, '~> all or nothing');
	assert.throws(
		() => importAdvisories(s.app, [advisory('GHSA-2222-3333-4444', { severity: 'severe' })], now()),
		/advisories\[0\] \(GHSA-2222-3333-4444\): severity: must be low, medium, high, critical or unknown/,
	);
	assert.throws(() => importAdvisories(s.app, [{ summary: 'x' }], now()), /advisories\[0\] \(no ghsa_id\): ghsa_id: is required/);
	assert.throws(
		() => importAdvisories(s.app, [advisory('CVE-2020-1234', {})], now()),
		/advisories\[0\] \(CVE-2020-1234\): ghsa_id: must be a GHSA id/,
	);
	assert.throws(
		() => importAdvisories(s.app, [advisory('GHSA-2222-3333-4444', { vulnerabilities: [vuln('cobol', 'x', '< 1', null)] })], now()),
		/vulnerabilities\.0\.package\.ecosystem: must be one of/,
	);
	assert.throws(
		() => importAdvisories(s.app, [advisory('GHSA-2222-3333-4444', { published_at: 'yesterday' })], now()),
		/published_at: must be an ISO 8601 date-time/,
	);
});

test('vulnerabilitiesFor – per input index; ecosystems, names, withdrawn and unknown advisories', () => {
	const result = vulnerabilitiesFor(s.app, [
		{ ecosystem: 'npm', name: 'lodash', version: '4.17.11' },
		{ ecosystem: 'pypi', name: 'Requests', version: '2.25.0' },
		{ ecosystem: 'pip', name: 'REQUESTS', version: '2.31.0' },
		{ ecosystem: 'npm', name: 'Lodash', version: '4.17.11' },
		{ ecosystem: 'npm', name: 'lodash', version: null },
		{ ecosystem: 'npm', name: 'minimist', version: '1.0.0' },
		{ ecosystem: 'npm', name: 'left-pad', version: '1.0.0' },
		{ ecosystem: 'npm', name: 'lodash', version: '4.17.20' },
	]);
	assert.is(result.length, 8);
	assert.equal(result[0], [
		{
			severity: 'critical',
			advisory_ghsa_id: LODASH,
			advisory_summary: 'Prototype Pollution in lodash',
			advisory_url: `${s.origin}/advisories/${LODASH}`,
		},
		{
			severity: 'low',
			advisory_ghsa_id: LODASH_NO_PATCH,
			advisory_summary: `summary of ${LODASH_NO_PATCH}`,
			advisory_url: `${s.origin}/advisories/${LODASH_NO_PATCH}`,
		},
	]);
	assert.equal(
		result[1].map((v) => v.advisory_ghsa_id),
		[REQUESTS],
		'~> pypi is pip; pip names compare case-insensitively',
	);
	assert.equal(result[2], [], '~> the patched version is not vulnerable');
	assert.equal(result[3], [], '~> npm names compare exactly');
	assert.equal(result[4], [], '~> no version, no match');
	assert.equal(result[5], [], '~> withdrawn advisories are ignored');
	assert.equal(result[6], [], '~> advisories of unknown severity are ignored');
	assert.equal(
		result[7].map((v) => v.advisory_ghsa_id),
		[LODASH_NO_PATCH],
	);
});

// ---------------------------------------------------------------- alerts

test('refreshAlerts – opens alerts; list and get in GitHub shape at both spellings', async () => {
	refreshAlerts(s.app, repoRow('app'), APP_DEPENDENCIES, now());
	refreshAlerts(s.app, repoRow('vault'), [dep('package.json', 'npm', 'lodash', '4.17.20')], now());
	const list = await s.get(`${APP}/dependabot/alerts?direction=asc`, writer);
	assert.is(list.status, 200, list.text);
	assert.equal(numbers(list), [1, 2, 3, 4]);
	const alert = list.body[0];
	assert.equal(Object.keys(alert), ALERT_KEYS);
	assert.is(alert.state, 'open');
	assert.equal(alert.dependency, {
		package: { ecosystem: 'npm', name: 'lodash' },
		manifest_path: 'package.json',
		scope: 'runtime',
		relationship: 'direct',
	});
	assert.equal(alert.security_vulnerability, {
		package: { ecosystem: 'npm', name: 'lodash' },
		severity: 'critical',
		vulnerable_version_range: '< 4.17.12',
		first_patched_version: { identifier: '4.17.12' },
	});
	assert.equal(alert.security_advisory, {
		ghsa_id: LODASH,
		cve_id: 'CVE-2019-10744',
		summary: 'Prototype Pollution in lodash',
		description: `description of ${LODASH}`,
		vulnerabilities: [
			{
				package: { ecosystem: 'npm', name: 'lodash' },
				severity: 'critical',
				vulnerable_version_range: '< 4.17.12',
				first_patched_version: { identifier: '4.17.12' },
			},
		],
		severity: 'critical',
		cvss: { vector_string: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:H', score: 9.1 },
		cvss_severities: null,
		epss: [{ percentage: 0.01, percentile: 0.5 }],
		cwes: [{ cwe_id: 'CWE-1321', name: 'Prototype Pollution' }],
		identifiers: [
			{ type: 'GHSA', value: LODASH },
			{ type: 'CVE', value: 'CVE-2019-10744' },
		],
		references: [{ url: `https://github.com/advisories/${LODASH}` }],
		published_at: '2024-01-02T03:04:05Z',
		updated_at: '2024-02-03T04:05:06Z',
		withdrawn_at: null,
	});
	assert.is(alert.url, `${s.api}${APP}/dependabot/alerts/1`);
	assert.is(alert.html_url, `${s.origin}/acme/app/security/dependabot/1`);
	assert.is(alert.created_at, now());
	assert.is(alert.dismissed_by, null);
	assert.is(alert.fixed_at, null);
	assert.is(alert.dismissal_request, null);
	assert.equal(list.body[2].dependency, {
		package: { ecosystem: 'npm', name: 'evil-pkg' },
		manifest_path: 'package-lock.json',
		scope: 'development',
		relationship: 'transitive',
	});
	assert.equal(list.body[3].dependency.package, { ecosystem: 'pip', name: 'Requests' });
	assert.is(list.body[3].dependency.relationship, 'unknown');
	assert.is(list.body[1].security_vulnerability.first_patched_version, null);
	assert.equal(list.body[3].security_advisory.cvss, { vector_string: null, score: 0 }, '~> no CVSS: score 0, as GitHub answers');
	const depbot = await s.get(`${APP}/depbot/alerts?direction=asc`, writer);
	assert.equal(depbot.body, list.body, '~> /depbot/ answers the same');
	const one = await s.get(`${APP}/dependabot/alerts/1`, writer);
	assert.is(one.status, 200);
	assert.equal(one.body, alert);
	assert.equal((await s.get(`${APP}/depbot/alerts/1`, writer)).body, alert);
	const v2026 = await s.get(`${APP}/dependabot/alerts/1`, writer, { 'X-GitHub-Api-Version': '2026-03-10' });
	assert.not.ok('cvss' in v2026.body.security_advisory, '~> cvss is gone in 2026-03-10');
	assert.is((await s.get(`${APP}/dependabot/alerts/99`, writer)).status, 404);
	assert.is((await s.get(`${APP}/dependabot/alerts/abc`, writer)).status, 404);
	assert.is((await s.get(`${VAULT}/dependabot/alerts`, owner)).body.length, 1, '~> numbers are per repository');
	assert.is((await s.get(`${VAULT}/dependabot/alerts`, owner)).body[0].number, 1);
	assert.equal(numbers(await s.get(`${OTHER}/dependabot/alerts`, writer)), []);
});

test('alerts – who may read: write access, token scopes and permissions', async () => {
	assert.is((await s.get(`${APP}/dependabot/alerts`)).status, 401);
	const nora = await s.get(`${APP}/dependabot/alerts`, outsider);
	assert.is(nora.status, 403, '~> a public repository without write access');
	assert.is((await s.get(`${APP}/depbot/alerts/1`, reader)).status, 403, '~> read access is not enough');
	assert.is((await s.get(`${VAULT}/dependabot/alerts`, outsider)).status, 404, '~> a private repository stays invisible');
	// security_events stands in for repo on Dependabot routes: private repositories are reached, the role still counts.
	assert.is(
		(await s.get(`${VAULT}/dependabot/alerts`, writer)).status,
		403,
		'~> security_events reaches a private repository; walt only reads vault',
	);
	const ownerEvents = s.token('olivia', { scopes: ['security_events'] });
	assert.is(
		(await s.get(`${VAULT}/dependabot/alerts`, ownerEvents)).status,
		200,
		'~> security_events alone: alerts of a private repository',
	);
	assert.is((await s.get(`${VAULT}/dismissal-requests/dependabot`, ownerEvents)).status !== 404, true, '~> and its dismissal requests');
	assert.is(
		(await s.get(`${VAULT}/dependabot/alerts`, s.token('olivia', { scopes: ['public_repo'] }))).status,
		404,
		'~> public_repo: public repositories only',
	);
	const noScope = s.token('walt', { scopes: ['read:org'] });
	const denied = await s.get(`${APP}/dependabot/alerts`, noScope);
	assert.is(denied.status, 403);
	assert.match(denied.body.message, 'security_events');
	assert.is(denied.headers.get('x-accepted-oauth-scopes'), 'security_events, repo, public_repo');
	const fine = s.token('walt', { kind: 'fine-grained', org: 'acme', permissions: { vulnerability_alerts: 'read' } });
	const ok = await s.get(`${APP}/dependabot/alerts`, fine);
	assert.is(ok.status, 200);
	assert.is(ok.headers.get('x-accepted-github-permissions'), 'vulnerability_alerts=read');
	const without = s.token('walt', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'read' } });
	assert.is((await s.get(`${APP}/dependabot/alerts`, without)).status, 403);
	const readOnly = await s.request('PATCH', `${APP}/dependabot/alerts/1`, {
		token: fine,
		body: { state: 'dismissed', dismissed_reason: 'inaccurate' },
	});
	assert.is(readOnly.status, 403, '~> dismissing needs write');
	const app = await s.get(`${VAULT}/dependabot/alerts`, s.token('olivia', { kind: 'installation', org: 'acme' }));
	assert.is(app.status, 200, '~> an installation reads the repositories of its account');
});

test('alerts – filters, sort and pagination', async () => {
	const get = async (query: string) => {
		const res = await s.get(`${APP}/dependabot/alerts?${query}`, writer);
		assert.is(res.status, 200, `~> ${query}: ${res.text}`);
		return numbers(res);
	};
	assert.equal(await get(''), [4, 3, 2, 1], '~> newest first by default');
	assert.equal(await get('severity=critical'), [3, 1]);
	assert.equal(await get('severity=low,medium'), [4, 2]);
	assert.equal(await get('ecosystem=pip'), [4]);
	assert.equal(await get('package=lodash,evil-pkg&direction=asc'), [1, 2, 3]);
	assert.equal(await get('manifest=package-lock.json,requirements.txt'), [4, 3]);
	assert.equal(await get('scope=development'), [3]);
	assert.equal(await get('relationship=transitive'), [3]);
	assert.equal(await get('relationship=direct,unknown'), [4, 2, 1]);
	assert.equal(await get('classification=malware'), [3]);
	assert.equal(await get('classification=general&direction=asc'), [1, 2, 4]);
	assert.equal(await get('has=patch'), [4, 1]);
	assert.equal(await get('state=open'), [4, 3, 2, 1]);
	assert.equal(await get('state=dismissed,fixed'), []);
	assert.equal(await get('sort=epss_percentage&direction=asc'), [1, 2, 3, 4], '~> epss_percentage sorts as created');
	const paged = await s.get(`${APP}/dependabot/alerts?per_page=3&page=1`, writer);
	assert.equal(numbers(paged), [4, 3, 2]);
	assert.match(paged.headers.get('link')!, /page=2>; rel="next"/);
	assert.equal(await get('per_page=3&page=2'), [1]);
	for (const query of [
		'state=closed',
		'severity=severe',
		'ecosystem=cobol',
		'scope=test',
		'sort=name',
		'direction=up',
		'has=fix',
		'relationship=cousin',
	]) {
		const res = await s.get(`${APP}/dependabot/alerts?${query}`, writer);
		assert.is(res.status, 422, `~> ${query}`);
		assert.is(typeof res.body.errors[0], 'string', '~> GitHub’s validation-error-simple: errors[] are sentences');
		assert.ok(res.body.errors[0].startsWith(query.split('=')[0]), `~> the sentence names the parameter: ${res.body.errors[0]}`);
	}
});

test('update – dismiss and reopen; validation', async () => {
	const path = `${APP}/dependabot/alerts/2`;
	for (const [body, field] of [
		[{}, 'state'],
		[{ state: 'closed' }, 'state'],
		[{ state: 'dismissed' }, 'dismissed_reason'],
		[{ state: 'dismissed', dismissed_reason: 'bored' }, 'dismissed_reason'],
		[{ state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'x'.repeat(281) }, 'dismissed_comment'],
	] as Array<[Record<string, unknown>, string]>) {
		const res = await s.request('PATCH', path, { token: writer, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.equal(Object.keys(res.body), ['message', 'errors', 'documentation_url', 'status']);
		assert.is(typeof res.body.errors[0], 'string', '~> GitHub’s validation-error-simple: errors[] are sentences');
		assert.ok(res.body.errors[0].startsWith(field), `~> the sentence names the field: ${res.body.errors[0]}`);
	}
	s.clock.advance(60_000);
	const dismissed = await s.request('PATCH', path, {
		token: writer,
		body: { state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'only used in tests' },
	});
	assert.is(dismissed.status, 200, dismissed.text);
	assert.is(dismissed.body.state, 'dismissed');
	assert.is(dismissed.body.dismissed_reason, 'tolerable_risk');
	assert.is(dismissed.body.dismissed_comment, 'only used in tests');
	assert.is(dismissed.body.dismissed_by.login, 'walt');
	assert.is(dismissed.body.dismissed_at, now());
	assert.is(dismissed.body.updated_at, now());
	assert.equal(numbers(await s.get(`${APP}/dependabot/alerts?sort=updated`, writer)).slice(0, 1), [2], '~> sort=updated');
	assert.equal(numbers(await s.get(`${APP}/dependabot/alerts?state=dismissed`, writer)), [2]);
	const reopened = await s.request('PATCH', `${APP}/depbot/alerts/2`, { token: writer, body: { state: 'open' } });
	assert.is(reopened.status, 200);
	assert.is(reopened.body.state, 'open');
	assert.is(reopened.body.dismissed_by, null);
	assert.is(reopened.body.dismissed_reason, null);
	assert.is(reopened.body.dismissed_at, null);
	assert.is((await s.request('PATCH', `${APP}/dependabot/alerts/2`, { token: reader, body: { state: 'open' } })).status, 403);
	assert.is((await s.request('PATCH', `${APP}/dependabot/alerts/99`, { token: writer, body: { state: 'open' } })).status, 404);
	assert.is((await s.request('PATCH', `${VAULT}/dependabot/alerts/1`, { token: outsider, body: { state: 'open' } })).status, 404);
});

test('update – delegated alert dismissal: only reviewers dismiss directly', async () => {
	setDelegated('app', true);
	const refused = await s.request('PATCH', `${APP}/dependabot/alerts/2`, {
		token: writer,
		body: { state: 'dismissed', dismissed_reason: 'no_bandwidth' },
	});
	assert.is(refused.status, 403);
	assert.match(refused.body.message, 'dismissal-requests/dependabot/2');
	const byAdmin = await s.request('PATCH', `${APP}/dependabot/alerts/2`, {
		token: admin,
		body: { state: 'dismissed', dismissed_reason: 'no_bandwidth' },
	});
	assert.is(byAdmin.status, 200, '~> a repository admin is a reviewer');
	assert.is(byAdmin.body.dismissed_by.login, 'ada');
	const reopen = await s.request('PATCH', `${APP}/dependabot/alerts/2`, { token: writer, body: { state: 'open' } });
	assert.is(reopen.status, 200, '~> reopening needs no reviewer');
	const byOwner = await s.request('PATCH', `${APP}/dependabot/alerts/2`, {
		token: owner,
		body: { state: 'dismissed', dismissed_reason: 'not_used' },
	});
	assert.is(byOwner.status, 200, '~> an organization owner is a reviewer');
	assert.is((await s.request('PATCH', `${APP}/dependabot/alerts/2`, { token: owner, body: { state: 'open' } })).status, 200);
	setDelegated('app', false);
});

test('refreshAlerts – fixed when the dependency goes, reopened when it returns; dismissed stays dismissed', async () => {
	// Dismiss the Requests alert (4); then upgrade lodash past 4.17.12 (alert 1 fixed, alert 2 still vulnerable) and drop Requests and evil-pkg.
	assert.is(
		(
			await s.request('PATCH', `${APP}/dependabot/alerts/4`, {
				token: writer,
				body: { state: 'dismissed', dismissed_reason: 'inaccurate' },
			})
		).status,
		200,
	);
	s.clock.advance(60_000);
	const upgraded = [dep('package.json', 'npm', 'lodash', '4.17.15')];
	refreshAlerts(s.app, repoRow('app'), upgraded, now());
	const fixed = await s.get(`${APP}/dependabot/alerts/1`, writer);
	assert.is(fixed.body.state, 'fixed');
	assert.is(fixed.body.fixed_at, now());
	assert.is(fixed.body.updated_at, now());
	assert.is((await s.get(`${APP}/dependabot/alerts/2`, writer)).body.state, 'open', '~> still vulnerable to the other advisory');
	assert.is((await s.get(`${APP}/dependabot/alerts/3`, writer)).body.state, 'fixed', '~> the dependency is gone');
	assert.is((await s.get(`${APP}/dependabot/alerts/4`, writer)).body.state, 'dismissed', '~> dismissed alerts keep their state');
	assert.equal(numbers(await s.get(`${APP}/dependabot/alerts?state=fixed`, writer)), [3, 1]);
	const cannot = await s.request('PATCH', `${APP}/dependabot/alerts/1`, {
		token: writer,
		body: { state: 'dismissed', dismissed_reason: 'inaccurate' },
	});
	assert.is(cannot.status, 422, '~> a fixed alert is neither dismissed nor reopened');
	s.clock.advance(60_000);
	refreshAlerts(s.app, repoRow('app'), APP_DEPENDENCIES, now());
	const back = await s.get(`${APP}/dependabot/alerts/1`, writer);
	assert.is(back.body.state, 'open', '~> the vulnerable version returned');
	assert.is(back.body.fixed_at, null);
	assert.is((await s.get(`${APP}/dependabot/alerts/3`, writer)).body.state, 'open');
	assert.is((await s.get(`${APP}/dependabot/alerts/4`, writer)).body.state, 'dismissed');
	assert.equal(numbers(await s.get(`${APP}/dependabot/alerts`, writer)), [4, 3, 2, 1], '~> no new alerts: the same numbers');
	assert.is((await s.request('PATCH', `${APP}/dependabot/alerts/4`, { token: writer, body: { state: 'open' } })).status, 200);
});

test('organization alerts – owners only, with the repository', async () => {
	const res = await s.get('/orgs/acme/dependabot/alerts?package=lodash&direction=asc', owner);
	assert.is(res.status, 200, res.text);
	assert.equal(
		res.body.map((a: any) => [a.repository.full_name, a.number]),
		[
			['acme/app', 1],
			['acme/app', 2],
			['acme/vault', 1],
		],
	);
	const repo = res.body[2].repository;
	assert.is(repo.private, true);
	assert.is(repo.url, `${s.api}/repos/acme/vault`);
	assert.is(repo.owner.login, 'acme');
	assert.not.ok('clone_url' in repo, '~> simple-repository');
	assert.equal(Object.keys(res.body[0]), [...ALERT_KEYS, 'repository']);
	assert.equal(
		(await s.get('/orgs/acme/depbot/alerts?severity=critical,low', owner)).body.map((a: any) => [a.repository.name, a.number]),
		[
			['vault', 1],
			['app', 3],
			['app', 2],
			['app', 1],
		],
	);
	assert.is((await s.get('/orgs/acme/dependabot/alerts', writerRepo)).status, 403, '~> members are not owners');
	assert.is((await s.get('/orgs/acme/dependabot/alerts', outsider)).status, 404, '~> what owners manage is concealed from outsiders');
	assert.is((await s.get('/orgs/nope/dependabot/alerts', owner)).status, 404);
	assert.is((await s.get('/orgs/acme/dependabot/alerts?state=nope', owner)).status, 422);
});

test('importAdvisories – withdrawing an advisory removes its alerts', async () => {
	importAdvisories(s.app, [advisory('GHSA-m5x3-6x7g-8c8c', { vulnerabilities: [vuln('npm', 'express', '< 4.19.0', '4.19.0')] })], now());
	refreshAlerts(s.app, repoRow('other'), [dep('package.json', 'npm', 'express', '4.18.0')], now());
	assert.equal(numbers(await s.get(`${OTHER}/dependabot/alerts`, writer)), [1]);
	importAdvisories(
		s.app,
		[
			advisory('GHSA-m5x3-6x7g-8c8c', {
				withdrawn_at: '2025-01-01T00:00:00Z',
				vulnerabilities: [vuln('npm', 'express', '< 4.19.0', '4.19.0')],
			}),
		],
		now(),
	);
	assert.equal(numbers(await s.get(`${OTHER}/dependabot/alerts`, writer)), []);
	assert.is((await s.get(`${OTHER}/dependabot/alerts/1`, writer)).status, 404);
	importAdvisories(s.app, [advisory('GHSA-m5x3-6x7g-8c8c', { vulnerabilities: [vuln('npm', 'express', '< 4.19.0', '4.19.0')] })], now());
	refreshAlerts(s.app, repoRow('other'), [dep('package.json', 'npm', 'express', '4.18.0')], now());
	assert.equal(numbers(await s.get(`${OTHER}/dependabot/alerts`, writer)), [2], '~> alert numbers are never reused');
});

// ---------------------------------------------------------------- dismissal requests

test('dismissal requests – delegated alert dismissal must be on', async () => {
	const cases: Array<[string, string, unknown?]> = [
		['GET', `${OTHER}/dismissal-requests/dependabot`],
		['GET', `${OTHER}/dismissal-requests/dependabot/2`],
		['POST', `${OTHER}/dismissal-requests/dependabot/2`, { dismissed_reason: 'no_bandwidth' }],
		['PATCH', `${OTHER}/dismissal-requests/dependabot/2`, { status: 'approve', message: 'ok' }],
		['DELETE', `${OTHER}/dismissal-requests/dependabot/2`],
	];
	for (const [method, path, body] of cases) {
		const res = await s.request(method, path, { token: owner, body });
		assert.is(res.status, 403, `~> ${method} ${path}`);
		assert.is(res.body.message, 'Delegated alert dismissal is not enabled for this repository.');
	}
	setDelegated('app', true);
});

test('create – 201 DismissalRequest; one open request per open alert', async () => {
	s.clock.advance(60_000);
	const res = await s.request('POST', `${APP}/dismissal-requests/dependabot/1`, {
		token: writer,
		body: { dismissed_reason: 'no_bandwidth', dismissed_comment: 'No bandwidth to fix this right now' },
	});
	assert.is(res.status, 201, res.text);
	const body = res.body;
	assert.equal(Object.keys(body), REQUEST_KEYS);
	const app = repoRow('app');
	const acme = s.app.stores.accounts.organization('acme')!;
	const walt = s.app.stores.accounts.user('walt')!;
	assert.equal(body, {
		id: body.id,
		number: 1,
		repository: { id: app.id, name: 'app', full_name: 'acme/app' },
		organization: { id: acme.id, name: 'acme' },
		requester: { actor_id: walt.id, actor_name: 'walt' },
		request_type: 'depbot_alert_dismissal',
		data: [{ reason: 'no_bandwidth', alert_number: '1', alert_title: 'Prototype Pollution in lodash' }],
		resource_identifier: '1',
		status: 'open',
		requester_comment: 'No bandwidth to fix this right now',
		expires_at: isoSeconds(s.clock.now + DISMISSAL_REQUEST_TTL_MS),
		created_at: now(),
		responses: [],
		url: `${s.api}${APP}/dismissal-requests/dependabot/1`,
		html_url: `${s.origin}/acme/app/security/dependabot/1`,
	});
	assert.is(DISMISSAL_REQUEST_TTL_MS, 7 * 24 * 3600 * 1000);
	assert.is(res.headers.get('location'), body.url);
	const alert = await s.get(`${APP}/dependabot/alerts/1`, writer);
	assert.equal(alert.body.dismissal_request, {
		id: body.id,
		status: 'pending',
		requester: { id: walt.id, login: 'walt' },
		created_at: now(),
		url: body.url,
	});
	const again = await s.request('POST', `${APP}/dismissal-requests/depbot/1`, {
		token: writer,
		body: { dismissed_reason: 'tolerable_risk' },
	});
	assert.is(again.status, 422, '~> an open request exists');
	assert.match(again.body.message, 'already has an open dismissal request');
	const second = await s.request('POST', `${APP}/dismissal-requests/depbot/3`, {
		token: writer,
		body: { dismissed_reason: 'tolerable_risk' },
	});
	assert.is(second.status, 201, '~> the /depbot/ spelling');
	assert.is(second.body.number, 2);
	assert.is(second.body.requester_comment, null);
});

test('create – validation and denial', async () => {
	const path = `${APP}/dismissal-requests/dependabot/2`;
	for (const [body, field] of [
		[{}, 'dismissed_reason'],
		[{ dismissed_reason: 'bored' }, 'dismissed_reason'],
		[{ dismissed_reason: 'not_used', dismissed_comment: 'x'.repeat(281) }, 'dismissed_comment'],
	] as Array<[Record<string, unknown>, string]>) {
		const res = await s.request('POST', path, { token: writer, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.is(res.body.errors[0].field, field);
		assert.is(res.body.errors[0].resource, 'DismissalRequest');
	}
	assert.is(
		(await s.request('POST', path, { token: writer, raw: '{nope', headers: { 'Content-Type': 'application/json' } })).status,
		400,
	);
	assert.is(
		(await s.request('POST', `${APP}/dismissal-requests/dependabot/99`, { token: writer, body: { dismissed_reason: 'not_used' } }))
			.status,
		404,
	);
	assert.is((await s.request('POST', path, { body: { dismissed_reason: 'not_used' } })).status, 401);
	assert.is(
		(await s.request('POST', path, { token: reader, body: { dismissed_reason: 'not_used' } })).status,
		403,
		'~> needs write access',
	);
	assert.is((await s.request('POST', path, { token: outsider, body: { dismissed_reason: 'not_used' } })).status, 403);
	const fineRead = s.token('walt', { kind: 'fine-grained', org: 'acme', permissions: { vulnerability_alerts: 'read' } });
	assert.is((await s.request('POST', path, { token: fineRead, body: { dismissed_reason: 'not_used' } })).status, 403);
	// Alert 4 dismissed → not open.
	assert.is(
		(
			await s.request('PATCH', `${APP}/dependabot/alerts/4`, {
				token: owner,
				body: { state: 'dismissed', dismissed_reason: 'inaccurate' },
			})
		).status,
		200,
	);
	const notOpen = await s.request('POST', `${APP}/dismissal-requests/dependabot/4`, {
		token: writer,
		body: { dismissed_reason: 'not_used' },
	});
	assert.is(notOpen.status, 422);
	assert.match(notOpen.body.message, 'is dismissed');
	assert.is((await s.request('PATCH', `${APP}/dependabot/alerts/4`, { token: owner, body: { state: 'open' } })).status, 200);
});

test('get – the latest request of an alert', async () => {
	const res = await s.get(`${APP}/dismissal-requests/dependabot/1`, writer);
	assert.is(res.status, 200);
	assert.is(res.body.number, 1);
	assert.is(res.body.status, 'open');
	assert.equal((await s.get(`${APP}/dismissal-requests/depbot/1`, writer)).body, res.body);
	assert.is((await s.get(`${APP}/dismissal-requests/dependabot/2`, writer)).status, 404, '~> alert 2 has no request');
	assert.is((await s.get(`${APP}/dismissal-requests/dependabot/99`, writer)).status, 404);
	assert.is((await s.get(`${APP}/dismissal-requests/dependabot/1`, reader)).status, 403);
	assert.is((await s.get(`${APP}/dismissal-requests/dependabot/1`)).status, 401);
	assert.is((await s.get(`${VAULT}/dismissal-requests/dependabot/1`, outsider)).status, 404);
	const noScope = s.token('walt', { scopes: ['public_repo'] });
	const denied = await s.get(`${APP}/dismissal-requests/dependabot/1`, noScope);
	assert.is(denied.status, 403, '~> classic tokens need security_events');
	assert.is(denied.headers.get('x-accepted-oauth-scopes'), 'security_events');
});

test('review – reviewers only, never their own request; approve dismisses the alert', async () => {
	const path = `${APP}/dismissal-requests/dependabot/1`;
	for (const [body, field] of [
		[{ status: 'approve' }, 'message'],
		[{ message: 'ok' }, 'status'],
		[{ status: 'accept', message: 'ok' }, 'status'],
		[{ status: 'approve', message: 'x'.repeat(2049) }, 'message'],
	] as Array<[Record<string, unknown>, string]>) {
		const res = await s.request('PATCH', path, { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.is(res.body.errors[0].field, field);
	}
	const byWriter = await s.request('PATCH', path, { token: writer, body: { status: 'approve', message: 'mine' } });
	assert.is(byWriter.status, 403, '~> write access is not a reviewer');
	assert.match(byWriter.body.message, 'Only dismissal reviewers');
	assert.is(
		(await s.request('PATCH', `${APP}/dismissal-requests/dependabot/2`, { token: owner, body: { status: 'approve', message: 'x' } }))
			.status,
		404,
	);
	// ada (admin) asks for alert 2, then cannot approve it herself.
	const own = await s.request('POST', `${APP}/dismissal-requests/dependabot/2`, {
		token: admin,
		body: { dismissed_reason: 'fix_started' },
	});
	assert.is(own.status, 201);
	const self = await s.request('PATCH', `${APP}/dismissal-requests/dependabot/2`, {
		token: admin,
		body: { status: 'approve', message: 'fine by me' },
	});
	assert.is(self.status, 403);
	assert.match(self.body.message, 'cannot review their own');

	s.clock.advance(60_000);
	const approved = await s.request('PATCH', path, { token: owner, body: { status: 'approve', message: 'Used in tests.' } });
	assert.is(approved.status, 200, approved.text);
	assert.equal(Object.keys(approved.body), ['dismissal_review_id']);
	const request = await s.get(path, writer);
	assert.is(request.body.status, 'approved');
	const olivia = s.app.stores.accounts.user('olivia')!;
	assert.equal(request.body.responses, [
		{
			id: approved.body.dismissal_review_id,
			reviewer: { actor_id: olivia.id, actor_name: 'olivia' },
			message: 'Used in tests.',
			status: 'approved',
			created_at: now(),
		},
	]);
	const alert = await s.get(`${APP}/dependabot/alerts/1`, writer);
	assert.is(alert.body.state, 'dismissed');
	assert.is(alert.body.dismissed_reason, 'no_bandwidth', '~> the requested reason');
	assert.is(alert.body.dismissed_comment, 'No bandwidth to fix this right now');
	assert.is(alert.body.dismissed_by.login, 'olivia', '~> dismissed by the reviewer');
	assert.is(alert.body.dismissed_at, now());
	assert.is(alert.body.dismissal_request.status, 'approved');
	const twice = await s.request('PATCH', path, { token: owner, body: { status: 'deny', message: 'changed my mind' } });
	assert.is(twice.status, 422, '~> only open requests are reviewed');

	const denied = await s.request('PATCH', `${APP}/dismissal-requests/depbot/2`, {
		token: owner,
		body: { status: 'deny', message: 'Fix it instead.' },
	});
	assert.is(denied.status, 200);
	const deniedRequest = await s.get(`${APP}/dismissal-requests/dependabot/2`, writer);
	assert.is(deniedRequest.body.status, 'denied');
	assert.is(deniedRequest.body.responses[0].status, 'denied');
	assert.is((await s.get(`${APP}/dependabot/alerts/2`, writer)).body.state, 'open', '~> a denial leaves the alert open');
	assert.is((await s.get(`${APP}/dependabot/alerts/2`, writer)).body.dismissal_request.status, 'rejected');
	// A new request after a denial is allowed.
	assert.is(
		(await s.request('POST', `${APP}/dismissal-requests/dependabot/2`, { token: writer, body: { dismissed_reason: 'not_used' } }))
			.status,
		201,
	);
});

test('review – an app installation is a reviewer', async () => {
	const bot = s.token('olivia', { kind: 'installation', org: 'acme' });
	const res = await s.request('PATCH', `${APP}/dismissal-requests/dependabot/2`, {
		token: bot,
		body: { status: 'deny', message: 'automated triage' },
	});
	assert.is(res.status, 200, res.text);
	const request = await s.get(`${APP}/dismissal-requests/dependabot/2`, writer);
	assert.is(request.body.status, 'denied');
	assert.is(request.body.responses[0].reviewer.actor_name, 'test-app[bot]');
});

test('cancel – by the requester or a reviewer, while open', async () => {
	// Request 2 (alert 3, by walt) is open.
	const path = `${APP}/dismissal-requests/dependabot/3`;
	const byOther = await s.request('DELETE', path, { token: s.token('rita', { scopes: ['repo'] }) });
	assert.is(byOther.status, 403, '~> rita has no write access');
	s.app.stores.repos.setCollaborator(repoRow('app').id, s.app.stores.accounts.user('rita')!.id, 'push', now());
	const notRequester = await s.request('DELETE', path, { token: reader });
	assert.is(notRequester.status, 403, '~> neither the requester nor a reviewer');
	assert.match(notRequester.body.message, 'requester or a dismissal reviewer');
	const cancelled = await s.request('DELETE', path, { token: writer });
	assert.is(cancelled.status, 204);
	assert.is(cancelled.text, '');
	assert.is((await s.get(path, writer)).body.status, 'cancelled');
	assert.is((await s.request('DELETE', path, { token: writer })).status, 422, '~> no longer open');
	assert.is(
		(await s.request('DELETE', `${APP}/dismissal-requests/dependabot/4`, { token: writer })).status,
		404,
		'~> alert 4 has no request',
	);
	assert.is((await s.get(`${APP}/dependabot/alerts/3`, writer)).body.state, 'open');
	// A reviewer cancels someone else's request, at the /depbot/ spelling.
	assert.is((await s.request('POST', path, { token: writer, body: { dismissed_reason: 'not_used' } })).status, 201);
	assert.is((await s.request('DELETE', `${APP}/dismissal-requests/depbot/3`, { token: admin })).status, 204);
	assert.is((await s.request('DELETE', path)).status, 401);
});

test('lists – repository and organization, filters and their defaults', async () => {
	// Requests so far, all on acme/app: 1 approved (alert 1), 2 cancelled (alert 3), 3 denied (alert 2, ada),
	// 4 denied by the app (alert 2), 5 cancelled (alert 3).
	const repoList = async (query: string, token = writer) => {
		const res = await s.get(`${APP}/dismissal-requests/dependabot?${query}`, token);
		assert.is(res.status, 200, `~> ${query}: ${res.text}`);
		return res.body.map((r: any) => r.number);
	};
	const orgList = async (query: string, token = owner) => {
		const res = await s.get(`/orgs/acme/dismissal-requests/dependabot?${query}`, token);
		assert.is(res.status, 200, `~> ${query}: ${res.text}`);
		return res.body.map((r: any) => r.number);
	};
	assert.equal(await repoList(''), [5, 4, 3, 2, 1], '~> newest first');
	assert.equal(await repoList('request_status=denied'), [4, 3]);
	assert.equal(await repoList('request_status=approved'), [1]);
	assert.equal(await repoList('request_status=open'), []);
	assert.equal(await repoList('requester=ada'), [3]);
	assert.equal(await repoList('requester=walt&request_status=all'), [5, 4, 2, 1]);
	assert.equal(await repoList('reviewer=olivia'), [3, 1]);
	assert.equal(await repoList(`reviewer=${encodeURIComponent('test-app[bot]')}`), [4]);
	assert.equal(await repoList('reviewer=nobody-at-all'), []);
	assert.equal(await repoList('time_period=hour'), [5, 4, 3, 2, 1]);
	const full = await s.get(`${APP}/dismissal-requests/depbot`, writer);
	assert.is(full.status, 200);
	const first = full.body.find((r: any) => r.number === 1);
	assert.is(first.status, 'approved');
	assert.is(first.responses.length, 1);
	const paged = await s.get(`${APP}/dismissal-requests/dependabot?per_page=2&page=2`, writer);
	assert.equal(
		paged.body.map((r: any) => r.number),
		[3, 2],
	);
	assert.match(paged.headers.get('link')!, /rel="prev"/);
	for (const query of ['request_status=completed', 'request_status=cancelled', 'request_status=nope', 'time_period=year']) {
		const res = await s.get(`${APP}/dismissal-requests/dependabot?${query}`, writer);
		assert.is(res.status, 422, `~> repository list: ${query}`);
		assert.is(res.body.errors[0].field, query.split('=')[0]);
	}

	assert.equal(await orgList(''), [5, 4, 3, 2, 1]);
	assert.equal(await orgList('request_status=cancelled'), [5, 2]);
	assert.equal(await orgList('request_status=completed'), [1], '~> completed: approved and dismissed');
	assert.equal(await orgList('repository_name=APP&requester=walt'), [5, 4, 2, 1]);
	assert.equal(await orgList('repository_name=vault'), []);
	assert.equal(
		(await s.get('/orgs/acme/dismissal-requests/depbot?request_status=approved', owner)).body.map((r: any) => r.number),
		[1],
	);
	for (const query of ['request_status=pending', 'time_period=decade']) {
		assert.is((await s.get(`/orgs/acme/dismissal-requests/dependabot?${query}`, owner)).status, 422, `~> organization list: ${query}`);
	}
	const member = await s.get('/orgs/acme/dismissal-requests/dependabot', writerRepo);
	assert.is(member.status, 403, '~> organization owners only');
	assert.is((await s.get('/orgs/acme/dismissal-requests/dependabot')).status, 401);
	assert.is((await s.get('/orgs/nope/dismissal-requests/dependabot', owner)).status, 404);
	const fine = s.token('olivia', {
		kind: 'fine-grained',
		org: 'acme',
		permissions: { organization_dependabot_dismissal_requests: 'read' },
	});
	const byFine = await s.get('/orgs/acme/dismissal-requests/dependabot', fine);
	assert.is(byFine.status, 200);
	assert.is(byFine.headers.get('x-accepted-github-permissions'), 'organization_dependabot_dismissal_requests=read');
	const wrongPermission = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { vulnerability_alerts: 'read' } });
	assert.is((await s.get('/orgs/acme/dismissal-requests/dependabot', wrongPermission)).status, 403);

	// Two days later: the organization list defaults to the last day, the repository list to the last month.
	s.clock.advance(2 * 24 * 3600 * 1000);
	assert.equal(await orgList(''), [], '~> organization default time_period: day');
	assert.equal(await orgList('time_period=week'), [5, 4, 3, 2, 1]);
	assert.equal(await repoList(''), [5, 4, 3, 2, 1], '~> repository default time_period: month');
	assert.equal(await repoList('time_period=day'), []);
	s.clock.advance(31 * 24 * 3600 * 1000);
	assert.equal(await repoList(''), []);
	assert.equal(await orgList('time_period=month'), []);
});

test('expiry – open requests expire 7 days after creation (injectable clock)', async () => {
	const created = await s.request('POST', `${APP}/dismissal-requests/dependabot/3`, {
		token: writer,
		body: { dismissed_reason: 'tolerable_risk' },
	});
	assert.is(created.status, 201);
	assert.is(expireDismissalRequests(s.app, s.clock.now), 0);
	s.clock.advance(DISMISSAL_REQUEST_TTL_MS - 1000);
	assert.is(expireDismissalRequests(s.app, s.clock.now), 0, '~> not yet');
	assert.is((await s.get(`${APP}/dismissal-requests/dependabot/3`, writer)).body.status, 'open');
	s.clock.advance(1000);
	assert.is(
		(await s.get(`${APP}/dismissal-requests/dependabot/3`, writer)).body.status,
		'expired',
		'~> reads show an overdue request as expired',
	);
	assert.equal(
		(await s.get(`${APP}/dismissal-requests/dependabot?request_status=expired`, writer)).body.map((r: any) => r.number),
		[6],
	);
	assert.equal((await s.get(`${APP}/dismissal-requests/dependabot?request_status=open`, writer)).body, []);
	const review = await s.request('PATCH', `${APP}/dismissal-requests/dependabot/3`, {
		token: owner,
		body: { status: 'approve', message: 'late' },
	});
	assert.is(review.status, 422, '~> an expired request cannot be reviewed');
	assert.is(
		(await s.get(`${APP}/dependabot/alerts/3`, writer)).body.dismissal_request,
		null,
		'~> GitHub has no expired dismissal_request status',
	);
	assert.is(expireDismissalRequests(s.app, s.clock.now), 1);
	assert.is(s.app.stores.dependabot.requestById(created.body.id, '1970-01-01T00:00:00Z')!.status, 'expired', '~> written');
	assert.is(expireDismissalRequests(s.app, s.clock.now), 0);
	const again = await s.request('POST', `${APP}/dismissal-requests/dependabot/3`, {
		token: writer,
		body: { dismissed_reason: 'tolerable_risk' },
	});
	assert.is(again.status, 201, '~> a new request after expiry');
	// An overdue request not yet written by the job does not block a new one either.
	s.clock.advance(DISMISSAL_REQUEST_TTL_MS);
	const third = await s.request('POST', `${APP}/dismissal-requests/dependabot/3`, {
		token: writer,
		body: { dismissed_reason: 'tolerable_risk' },
	});
	assert.is(third.status, 201);
	assert.is(s.app.stores.dependabot.requestById(again.body.id, '1970-01-01T00:00:00Z')!.status, 'expired');
});

test('events – dependabot_alert created, dismissed, reopened, fixed, reintroduced; GitHub payload', async () => {
	const E = '/repos/acme/events';
	const submit = async (version: string, token: string) => {
		const res = await s.request('POST', `${E}/dependency-graph/snapshots`, { token, body: lodashSnapshot(version) });
		assert.is(res.status, 201, res.text);
	};
	const step = async (label: string, action: () => Promise<unknown>, expected: string[]) => {
		const before = eventMark();
		await action();
		assert.equal(eventsSince(before), expected, `~> ${label}`);
	};
	const patch = async (number: number, body: Record<string, unknown>, token = writer) => {
		const res = await s.request('PATCH', `${E}/dependabot/alerts/${number}`, { token, body });
		assert.is(res.status, 200, res.text);
	};
	const capture = captureWebhooks();
	try {
		await step(
			'a vulnerable dependency submitted: one alert per advisory, sent by the submitter',
			() => submit('4.17.11', writerRepo),
			['dependabot_alert.created by walt', 'dependabot_alert.created by walt'],
		);
		const created = capture.seen[0];
		assert.equal([created.event, created.action], ['dependabot_alert', 'created']);
		assert.equal(Object.keys(created.payload), ['alert', 'repository', 'organization', 'sender']);
		const { dismissal_request: _request, ...rendered } = (await s.get(`${E}/dependabot/alerts/1`, writer)).body;
		assert.equal(
			created.payload.alert,
			rendered,
			'~> the alert as the API renders it, without dismissal_request (not in the webhook schema)',
		);
		assert.equal(
			Object.keys(created.payload.alert),
			ALERT_KEYS.filter((key) => key !== 'dismissal_request'),
		);
		assert.is(created.payload.alert.security_advisory.ghsa_id, LODASH);
		assert.is(created.payload.repository.full_name, 'acme/events');
		assert.is(created.payload.organization.login, 'acme');
		assert.is(created.payload.sender.login, 'walt');
		await step('the same dependencies again change nothing', () => submit('4.17.11', writerRepo), []);

		await step('dismissed by walt', () => patch(1, { state: 'dismissed', dismissed_reason: 'tolerable_risk' }), [
			'dependabot_alert.dismissed by walt',
		]);
		const dismissed = capture.seen.at(-1)!.payload.alert;
		assert.equal([dismissed.state, dismissed.dismissed_reason, dismissed.dismissed_by.login], ['dismissed', 'tolerable_risk', 'walt']);
		await step(
			'dismissing a dismissed alert only changes its reason',
			() => patch(1, { state: 'dismissed', dismissed_reason: 'inaccurate' }),
			[],
		);
		await step('reopened', () => patch(1, { state: 'open' }), ['dependabot_alert.reopened by walt']);
		await step('reopening an open alert changes nothing', () => patch(1, { state: 'open' }), []);
		await step('refused requests record nothing', async () => {
			assert.is(
				(
					await s.request('PATCH', `${E}/dependabot/alerts/1`, {
						token: reader,
						body: { state: 'dismissed', dismissed_reason: 'inaccurate' },
					})
				).status,
				403,
			);
			assert.is((await s.request('PATCH', `${E}/dependabot/alerts/1`, { token: writer, body: { state: 'dismissed' } })).status, 422);
		}, []);

		await step('upgraded past the first advisory: fixed', () => submit('4.17.15', owner), ['dependabot_alert.fixed by olivia']);
		assert.equal([capture.seen.at(-1)!.payload.alert.number, capture.seen.at(-1)!.payload.alert.state], [1, 'fixed']);
		await step(
			'the vulnerable version returns: reintroduced (GitHub reopened the previously-fixed alert)',
			() => submit('4.17.11', owner),
			['dependabot_alert.reintroduced by olivia'],
		);
		const reintroduced = capture.seen.at(-1)!.payload.alert;
		assert.equal([reintroduced.number, reintroduced.state, reintroduced.fixed_at], [1, 'open', null]);
		await step('importing advisories (the command line) refreshes alerts with no sender', async () => {
			importAdvisories(
				s.app,
				[advisory(LODASH, { severity: 'critical', vulnerabilities: [vuln('npm', 'lodash', '< 4.17.10', '4.17.10')] })],
				now(),
			);
			refreshAllAlerts(s.app, now());
			importAdvisories(
				s.app,
				[advisory(LODASH, { severity: 'critical', vulnerabilities: [vuln('npm', 'lodash', '< 4.17.12', '4.17.12')] })],
				now(),
			);
			refreshAllAlerts(s.app, now());
		}, ['dependabot_alert.fixed by null', 'dependabot_alert.reintroduced by null']);
		assert.not.ok('sender' in capture.seen.at(-1)!.payload);

		setDelegated('events', true);
		await step('a dismissal request changes no alert', async () => {
			const res = await s.request('POST', `${E}/dismissal-requests/dependabot/2`, {
				token: writer,
				body: { dismissed_reason: 'no_bandwidth' },
			});
			assert.is(res.status, 201);
		}, []);
		await step('its approval dismisses the alert, by the reviewer', async () => {
			const res = await s.request('PATCH', `${E}/dismissal-requests/dependabot/2`, {
				token: owner,
				body: { status: 'approve', message: 'ok' },
			});
			assert.is(res.status, 200);
		}, ['dependabot_alert.dismissed by olivia']);
		assert.equal([capture.seen.at(-1)!.payload.alert.number, capture.seen.at(-1)!.payload.alert.dismissed_reason], [2, 'no_bandwidth']);
		await step('an expiring request changes no alert', async () => {
			assert.is(
				(await s.request('POST', `${E}/dismissal-requests/dependabot/1`, { token: writer, body: { dismissed_reason: 'not_used' } }))
					.status,
				201,
			);
			s.clock.advance(DISMISSAL_REQUEST_TTL_MS);
			assert.ok(expireDismissalRequests(s.app, s.clock.now) >= 1);
			assert.is((await s.get(`${E}/dismissal-requests/dependabot/1`, writer)).body.status, 'expired');
		}, []);
		setDelegated('events', false);
	} finally {
		capture.stop();
	}
});

test('every route answers at both spellings', () => {
	const paths = new Set(dependabotRoutes.map((r) => `${r.method} ${r.path}`));
	assert.is(paths.size, 20);
	for (const key of paths) {
		if (key.includes('/dependabot')) assert.ok(paths.has(key.replace('/dependabot', '/depbot')), `~> ${key}`);
	}
});

test.run();
