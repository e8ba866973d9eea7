/**
 * Dependency submission and dependency review.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importAdvisories } from '../src/api/dependabot/service';
import { startServer, type TestServer } from './helpers/server';

const test = suite('dependency-graph');
let s: TestServer;
let owner: string;
let eve: string;
const commits: Record<string, string> = {};
const R = '/repos/acme/shop';

const npm = (name: string, version: string, extra: Record<string, unknown> = {}) => ({
	package_url: `pkg:npm/${name.replace('@', '%40')}@${version}`,
	relationship: 'direct',
	scope: 'runtime',
	...extra,
});

function snapshot(sha: string, ref: string, manifests: Record<string, unknown>, job = { correlator: 'ci', detector: 'npm-detector' }) {
	return {
		version: 0,
		job: { id: `run-${Math.random()}`, correlator: job.correlator, html_url: 'https://ci.example/run' },
		sha,
		ref,
		detector: { name: job.detector, version: '1.0.0', url: 'https://example.com/detector' },
		metadata: { runner: 'linux' },
		manifests,
		scanned: '2026-11-22T11:00:00Z',
	};
}

const lock = (resolved: Record<string, unknown>) => ({
	'package-lock.json': { name: 'package-lock.json', file: { source_location: 'package-lock.json' }, resolved },
});

async function commit(message: string, parents: string[]): Promise<string> {
	const tree = (
		await s.request('POST', `${R}/git/trees`, {
			token: owner,
			body: { tree: [{ path: 'README.md', mode: '100644', type: 'blob', content: message }] },
		})
	).body.sha;
	return (await s.request('POST', `${R}/git/commits`, { token: owner, body: { message, tree, parents } })).body.sha;
}

const submit = (body: unknown, token = owner, repo = R) => s.request('POST', `${repo}/dependency-graph/snapshots`, { token, body });

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	owner = s.fullToken('olivia');
	eve = s.fullToken('eve');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'shop' } });
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'vault', private: true } });
	// main: root ← main2;  feature: root ← feature1
	commits.root = await commit('root', []);
	commits.main2 = await commit('main 2', [commits.root]);
	commits.feature1 = await commit('feature 1', [commits.root]);
	await s.request('POST', `${R}/git/refs`, { token: owner, body: { ref: 'refs/heads/main', sha: commits.main2 } });
	await s.request('POST', `${R}/git/refs`, { token: owner, body: { ref: 'refs/heads/feature', sha: commits.feature1 } });
	await s.request('POST', `${R}/git/refs`, { token: owner, body: { ref: 'refs/tags/v1', sha: commits.root } });
});
test.after(() => s.close());

test('submit: 201 {id, created_at, message, result}; counted in the dependency_snapshots category', async () => {
	const coreBefore = (await s.get('/rate_limit', owner)).body.resources.core.used;
	const res = await submit(
		snapshot(commits.root, 'refs/heads/main', lock({ lodash: npm('lodash', '4.17.20'), express: npm('express', '4.18.0') })),
	);
	assert.is(res.status, 201);
	assert.equal(Object.keys(res.body).sort(), ['created_at', 'id', 'message', 'result']);
	assert.is(res.body.result, 'SUCCESS');
	assert.is(res.body.created_at, '2026-11-22T12:00:00Z');
	assert.ok(Number.isInteger(res.body.id));
	assert.is(res.headers.get('x-ratelimit-resource'), 'dependency_snapshots');
	assert.is(res.headers.get('x-ratelimit-limit'), '100');
	assert.is(res.headers.get('x-ratelimit-used'), '1');
	const status = await s.get('/rate_limit', owner);
	assert.is(status.body.resources.dependency_snapshots.used, 1);
	assert.is(status.body.resources.core.used, coreBefore, '~> not counted as core');
});

test('submit: validation (422) and denial', async () => {
	const good = () => snapshot(commits.root, 'refs/heads/main', lock({ lodash: npm('lodash', '4.17.20') }));
	const cases: Array<[string, (body: any) => void]> = [
		['sha longer than 40 characters', (b) => (b.sha = `${commits.root}a`)],
		['sha empty', (b) => (b.sha = '')],
		['ref not a full reference', (b) => (b.ref = 'main')],
		['nine metadata keys', (b) => (b.metadata = Object.fromEntries([...Array(9).keys()].map((i) => [`k${i}`, i])))],
		['non-scalar metadata', (b) => (b.metadata = { nested: { a: 1 } })],
		['missing job', (b) => delete b.job],
		['missing detector.url', (b) => delete b.detector.url],
		['missing scanned', (b) => delete b.scanned],
		['version not an integer', (b) => (b.version = 1.5)],
		['unknown field', (b) => (b.extra = true)],
		['bad relationship', (b) => (b.manifests['package-lock.json'].resolved.lodash.relationship = 'sideways')],
		[
			'manifest metadata with nine keys',
			(b) => (b.manifests['package-lock.json'].metadata = Object.fromEntries([...Array(9).keys()].map((i) => [`k${i}`, 'v']))),
		],
		['package_url not a purl', (b) => (b.manifests['package-lock.json'].resolved.lodash.package_url = 'npm:lodash')],
		['package_url malformed purl', (b) => (b.manifests['package-lock.json'].resolved.lodash.package_url = 'pkg:')],
	];
	for (const [name, mutate] of cases) {
		const body = good();
		mutate(body);
		const res = await submit(body);
		assert.is(res.status, 422, `~> ${name}`);
		assert.ok(res.body.errors?.length, `~> ${name}: errors[] names the field`);
	}
	// The seed: sha is "at most 40 characters" — any string up to 40 characters, not only 40 hex digits (regression).
	for (const sha of [commits.root.slice(0, 7), 'z'.repeat(40), 'v1.2.3']) {
		const body = good();
		body.sha = sha;
		const res = await submit(body);
		assert.is(res.status, 201, `~> sha ${sha}: ${res.text}`);
	}
	assert.is((await s.request('POST', `${R}/dependency-graph/snapshots`, { body: good() })).status, 401);
	assert.is((await submit(good(), eve)).status, 403, '~> a public repository read-only to the caller: 403');
	assert.is((await submit(good(), eve, '/repos/acme/vault')).status, 404, '~> a private repository the caller cannot see: 404');
	const readOnly = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { contents: 'read' } });
	const denied = await submit(good(), readOnly);
	assert.is(denied.status, 403);
	assert.is(denied.headers.get('x-accepted-github-permissions'), 'contents=write');
});

test('review: base...head resolves branches, tags and SHAs through the merge base; added and removed rows', async () => {
	await submit(
		snapshot(
			commits.feature1,
			'refs/heads/feature',
			lock({
				lodash: npm('lodash', '4.17.21', {
					metadata: { license: 'MIT', source_repository_url: 'https://github.com/lodash/lodash' },
				}),
				express: npm('express', '4.18.0'),
				axios: npm('@types/node', '20.0.0', { scope: 'development', relationship: 'indirect' }),
			}),
		),
	);
	// main moved on (main2) with a change the feature branch never saw: not part of the review.
	await submit(snapshot(commits.main2, 'refs/heads/main', lock({ lodash: npm('lodash', '4.17.20'), express: npm('express', '5.0.0') })));
	const res = await s.get(`${R}/dependency-graph/compare/main...feature`);
	assert.is(res.status, 200, '~> public repository: no token needed');
	assert.equal(
		res.body.map((c: any) => [c.change_type, c.name, c.version]),
		[
			['removed', 'lodash', '4.17.20'],
			['added', '@types/node', '20.0.0'],
			['added', 'lodash', '4.17.21'],
		],
	);
	const added = res.body.find((c: any) => c.name === 'lodash' && c.change_type === 'added');
	assert.equal(added, {
		change_type: 'added',
		manifest: 'package-lock.json',
		ecosystem: 'npm',
		name: 'lodash',
		version: '4.17.21',
		package_url: 'pkg:npm/lodash@4.17.21',
		license: 'MIT',
		source_repository_url: 'https://github.com/lodash/lodash',
		vulnerabilities: [],
		scope: 'runtime',
	});
	assert.is(res.body.find((c: any) => c.name === '@types/node').scope, 'development');
	const bySha = await s.get(`${R}/dependency-graph/compare/${commits.root}...${commits.feature1.slice(0, 10)}`);
	assert.equal(bySha.body, res.body, '~> full and abbreviated SHAs');
	const byTag = await s.get(`${R}/dependency-graph/compare/v1...feature`);
	assert.equal(byTag.body, res.body, '~> tags');
	const reverse = await s.get(`${R}/dependency-graph/compare/feature...main`);
	assert.equal(
		reverse.body.map((c: any) => [c.change_type, c.name, c.version]),
		[
			['removed', 'express', '4.18.0'],
			['added', 'express', '5.0.0'],
		],
	);
	const unpaged = await s.get(`${R}/dependency-graph/compare/main...feature?per_page=2`);
	assert.equal(unpaged.body, res.body, '~> not paginated: per_page is no parameter of dependency review (regression)');
	assert.is(unpaged.headers.get('link'), null, '~> no Link header');
});

test('review: name filters one manifest; errors 400, 404, 403', async () => {
	await submit(
		snapshot(
			commits.feature1,
			'refs/heads/feature',
			{
				'requirements.txt': {
					name: 'requirements.txt',
					resolved: { django: { package_url: 'pkg:pypi/Django@4.2.1', relationship: 'direct' } },
				},
			},
			{ correlator: 'python', detector: 'pip-detector' },
		),
	);
	const all = await s.get(`${R}/dependency-graph/compare/main...feature`);
	assert.ok(
		all.body.some(
			(c: any) => c.manifest === 'requirements.txt' && c.ecosystem === 'pip' && c.name === 'django' && c.scope === 'unknown',
		),
	);
	const only = await s.get(`${R}/dependency-graph/compare/main...feature?name=requirements.txt`);
	assert.equal(
		only.body.map((c: any) => c.name),
		['django'],
	);
	for (const bad of ['main..feature', 'main', '...feature', 'main...']) {
		const res = await s.get(`${R}/dependency-graph/compare/${bad}`);
		assert.is(res.status, 400, `~> ${bad}`);
	}
	assert.is((await s.get(`${R}/dependency-graph/compare/main...nope`)).status, 404);
	assert.is((await s.get(`/repos/acme/vault/dependency-graph/compare/main...feature`, eve)).status, 404);
	const vault = await s.get(`/repos/acme/vault/dependency-graph/compare/main...feature`, owner);
	assert.is(vault.status, 403, '~> private without advanced security');
	assert.match(vault.body.message, 'Advanced Security');
	const fork = await s.request('POST', `${R}/forks`, { token: eve, body: {} });
	assert.is(fork.status, 202);
	const forked = await s.get(`/repos/eve/shop/dependency-graph/compare/main...feature`, eve);
	assert.is(forked.status, 403);
	assert.match(forked.body.message, 'forks');
});

test('review of a private repository with advanced security', async () => {
	const vault = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'vault')!;
	s.app.stores.repos.setSecurity(vault.id, { advanced_security: 1, delegated_alert_dismissal: 0 });
	const tree = (
		await s.request('POST', '/repos/acme/vault/git/trees', {
			token: owner,
			body: { tree: [{ path: 'a', mode: '100644', type: 'blob', content: 'a' }] },
		})
	).body.sha;
	const root = (await s.request('POST', '/repos/acme/vault/git/commits', { token: owner, body: { message: 'root', tree, parents: [] } }))
		.body.sha;
	await s.request('POST', '/repos/acme/vault/git/refs', { token: owner, body: { ref: 'refs/heads/main', sha: root } });
	const res = await s.get(`/repos/acme/vault/dependency-graph/compare/main...main`, owner);
	assert.is(res.status, 200);
	assert.equal(res.body, []);
});

test('advisories: vulnerabilities in review rows; a default-branch snapshot opens and fixes dependabot alerts', async () => {
	importAdvisories(
		s.app,
		[
			{
				ghsa_id: 'GHSA-jf85-cpcp-j695',
				cve_id: 'CVE-2019-10744',
				summary: 'Prototype Pollution in lodash',
				description: 'lodash before 4.17.12 is vulnerable to Prototype Pollution.',
				type: 'reviewed',
				severity: 'critical',
				identifiers: [{ type: 'GHSA', value: 'GHSA-jf85-cpcp-j695' }],
				references: [],
				published_at: '2019-07-10T19:45:23Z',
				updated_at: '2024-01-01T00:00:00Z',
				withdrawn_at: null,
				vulnerabilities: [
					{
						package: { ecosystem: 'npm', name: 'lodash' },
						vulnerable_version_range: '< 4.17.21',
						first_patched_version: '4.17.21',
					},
				],
				cvss: null,
				cwes: [],
			},
		],
		'2026-11-22T12:00:00Z',
	);
	const review = await s.get(`${R}/dependency-graph/compare/main...feature?name=package-lock.json`);
	const removed = review.body.find((c: any) => c.change_type === 'removed' && c.name === 'lodash');
	assert.equal(removed.vulnerabilities, [
		{
			severity: 'critical',
			advisory_ghsa_id: 'GHSA-jf85-cpcp-j695',
			advisory_summary: 'Prototype Pollution in lodash',
			advisory_url: `${s.origin}/advisories/GHSA-jf85-cpcp-j695`,
		},
	]);
	assert.equal(
		review.body.find((c: any) => c.change_type === 'added' && c.name === 'lodash').vulnerabilities,
		[],
		'~> 4.17.21 is patched',
	);

	// The default branch's latest snapshot (main2: lodash 4.17.20) counts once a snapshot is submitted after the import.
	await submit(snapshot(commits.main2, 'refs/heads/main', lock({ lodash: npm('lodash', '4.17.20'), express: npm('express', '5.0.0') })));
	const alerts = await s.get(`${R}/dependabot/alerts`, owner);
	assert.is(alerts.status, 200);
	assert.equal(
		alerts.body.map((a: any) => [
			a.number,
			a.state,
			a.dependency.package.name,
			a.dependency.manifest_path,
			a.security_advisory.ghsa_id,
		]),
		[[1, 'open', 'lodash', 'package-lock.json', 'GHSA-jf85-cpcp-j695']],
	);
	await submit(snapshot(commits.main2, 'refs/heads/main', lock({ lodash: npm('lodash', '4.17.21'), express: npm('express', '5.0.0') })));
	const fixed = await s.get(`${R}/dependabot/alerts/1`, owner);
	assert.is(fixed.body.state, 'fixed', '~> upgrading on the default branch fixes the alert');
	assert.ok(fixed.body.fixed_at);
	const feature = await submit(snapshot(commits.feature1, 'refs/heads/feature', lock({ lodash: npm('lodash', '4.0.0') })));
	assert.is(feature.status, 201);
	assert.is((await s.get(`${R}/dependabot/alerts?state=open`, owner)).body.length, 0, '~> other branches raise no alerts');
});

test("precedence: the latest snapshot per (correlator, detector); first correlator's detector; same detector merges", async () => {
	const sha = commits.feature1;
	const ref = 'refs/heads/feature';
	const names = async () =>
		(await s.get(`${R}/dependency-graph/compare/main...feature?name=yarn.lock`)).body.map(
			(c: any) => `${c.change_type} ${c.name}@${c.version}`,
		);
	const yarn = (resolved: Record<string, unknown>) => ({ 'yarn.lock': { name: 'yarn.lock', resolved } });
	await submit(snapshot(sha, ref, yarn({ a: npm('left-pad', '1.0.0') }), { correlator: 'matrix-node18', detector: 'yarn' }));
	await submit(snapshot(sha, ref, yarn({ b: npm('right-pad', '1.0.0') }), { correlator: 'matrix-node20', detector: 'yarn' }));
	assert.equal(await names(), ['added left-pad@1.0.0', 'added right-pad@1.0.0'], '~> the same detector: merged');
	await submit(snapshot(sha, ref, yarn({ a: npm('left-pad', '1.1.0') }), { correlator: 'matrix-node18', detector: 'yarn' }));
	assert.equal(await names(), ['added left-pad@1.1.0', 'added right-pad@1.0.0'], '~> only the latest snapshot of a correlator counts');
	await submit(snapshot(sha, ref, yarn({ c: npm('center-pad', '2.0.0') }), { correlator: 'a-first', detector: 'other-tool' }));
	assert.equal(await names(), ['added center-pad@2.0.0'], '~> another detector whose correlator sorts first wins the manifest');
	await submit(snapshot(sha, ref, yarn({ d: npm('zz-pad', '1.0.0') }), { correlator: 'z-last', detector: 'third-tool' }));
	assert.equal(await names(), ['added center-pad@2.0.0'], '~> a later correlator of another detector does not');
});

test('review: every change in one answer, past any page size (regression: it was paginated, 30 a page)', async () => {
	const base = await commit('many base', [commits.root]);
	const head = await commit('many head', [base]);
	await s.request('POST', `${R}/git/refs`, { token: owner, body: { ref: 'refs/heads/many', sha: head } });
	const packages = Object.fromEntries([...Array(120).keys()].map((i) => [`pkg-${i}`, npm(`pkg-${i}`, '1.0.0')]));
	assert.is(
		(await submit(snapshot(head, 'refs/heads/many', lock(packages), { correlator: 'many', detector: 'npm-detector' }))).status,
		201,
	);
	const res = await s.get(`${R}/dependency-graph/compare/${base}...many`);
	assert.is(res.status, 200);
	assert.is(res.body.length, 120, '~> all 120 added packages, more than the 100 a page could hold');
	assert.is(res.headers.get('link'), null);
});

test.run();
