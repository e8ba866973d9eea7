/**
 * An organization's security settings outside code security configurations: Dependabot's
 * repository access (at GitHub's /dependabot/ path and the spec's /depbot/ spelling), secret
 * scanning pattern configurations (GitHub's shapes, the version's 409) and GitHub Advanced Security
 * active committers (commit authors of the last 90 days on repositories with advanced security).
 * Each: owners 2xx, members 403, outsiders 404, organization_administration read vs write vs none,
 * installation and user-to-server tokens, 422.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('org-security-settings');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;
const ids: Record<string, number> = {};
const A = '/orgs/acme/dependabot/repository-access';
const P = '/orgs/acme/secret-scanning/pattern-configurations';
const B = '/orgs/acme/settings/billing/advanced-security';
const DAY = 24 * 60 * 60;

async function must(method: string, path: string, body?: unknown): Promise<any> {
	const res = await s.request(method, path, { token: owner, body });
	assert.ok(res.status >= 200 && res.status < 300, `~> setup ${method} ${path} answered ${res.status}: ${res.text}`);
	return res.body;
}

const fineGrained = (level?: 'read' | 'write') =>
	s.token('olivia', {
		kind: 'fine-grained',
		org: 'acme',
		permissions: level ? { organization_administration: level } : { members: 'read' },
	});

/** The standard refusals of a route: member 403, outsider 404, anonymous 401, no permission 403. */
async function refusals(method: string, path: string, body?: unknown) {
	assert.is((await s.request(method, path, { token: member, body })).status, 403, `~> ${method} ${path}: members are refused`);
	assert.is((await s.request(method, path, { token: outsider, body })).status, 404, `~> ${method} ${path}: outsiders see nothing`);
	assert.is((await s.request(method, path, { body })).status, 401, `~> ${method} ${path}: anonymous`);
	assert.is(
		(await s.request(method, path, { token: fineGrained(), body })).status,
		403,
		`~> ${method} ${path}: without organization_administration`,
	);
	if (method !== 'GET')
		assert.is(
			(await s.request(method, path, { token: fineGrained('read'), body })).status,
			403,
			`~> ${method} ${path}: read does not write`,
		);
}

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora', 'dora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('nora');
	for (const [name, visibility] of [
		['app', 'private'],
		['lib', 'private'],
		['site', 'public'],
	])
		ids[name] = (await must('POST', '/orgs/acme/repos', { name, visibility })).id;
	ids.theirs = (await s.request('POST', '/user/repos', { token: outsider, body: { name: 'theirs' } })).body.id;
});
test.after(() => s.close());

// ------------------------------------------------------------------ Dependabot repository access

test('Dependabot repository access: GET, PATCH add / remove, PUT default-level; both spellings', async () => {
	const empty = await s.get(A, owner);
	assert.is(empty.status, 200);
	assert.equal(empty.body, { default_level: null, accessible_repositories: [] });
	assert.is(empty.headers.get('x-accepted-service-permissions'), 'organization_administration=read');
	assert.is((await s.request('PATCH', A, { token: owner, body: { repository_ids_to_add: [ids.app, ids.lib] } })).status, 204);
	assert.is(
		(await s.request('PATCH', '/orgs/acme/depbot/repository-access', { token: owner, body: { repository_ids_to_remove: [ids.lib] } }))
			.status,
		204,
		'~> the depbot spelling',
	);
	assert.is((await s.request('PUT', `${A}/default-level`, { token: owner, body: { default_level: 'internal' } })).status, 204);
	const read = await s.get('/orgs/acme/depbot/repository-access', fineGrained('read'));
	assert.is(read.status, 200, '~> organization_administration read reads');
	assert.is(read.body.default_level, 'internal');
	assert.equal(
		read.body.accessible_repositories.map((r: any) => r.full_name),
		['acme/app'],
	);
	assert.ok('hooks_url' in read.body.accessible_repositories[0], '~> simple-repository');
	assert.is(
		(await s.request('PATCH', A, { token: fineGrained('write'), body: { repository_ids_to_add: [ids.site] } })).status,
		204,
		'~> write changes',
	);
	const iat = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'read' } });
	assert.is((await s.get(A, iat)).status, 200, '~> the organization’s app reads (IAT)');
	const uat = s.token('olivia', { kind: 'user-to-server', org: 'acme', permissions: { organization_administration: 'write' } });
	assert.is((await s.request('PUT', `${A}/default-level`, { token: uat, body: { default_level: 'public' } })).status, 204, '~> UAT');
});

test('Dependabot repository access: 422 and refusals', async () => {
	assert.is(
		(await s.request('PATCH', A, { token: owner, body: { repository_ids_to_add: [ids.theirs] } })).status,
		422,
		'~> not a repository of acme',
	);
	assert.is((await s.request('PATCH', A, { token: owner, body: { repository_ids_to_add: ['app'] } })).status, 422);
	assert.is((await s.request('PUT', `${A}/default-level`, { token: owner, body: { default_level: 'private' } })).status, 422);
	assert.is((await s.request('PUT', `${A}/default-level`, { token: owner, body: {} })).status, 422);
	await refusals('GET', A);
	await refusals('PATCH', A, { repository_ids_to_add: [] });
	await refusals('PUT', `${A}/default-level`, { default_level: 'public' });
});

// ------------------------------------------------------------------ pattern configurations

test('pattern configurations: GitHub’s shape, PATCH with the version, 409 for a stale one, 422', async () => {
	const first = await s.get(P, owner);
	assert.is(first.status, 200);
	assert.is(first.body.pattern_config_version, null, '~> never changed');
	assert.equal(first.body.custom_pattern_overrides, []);
	const aws = first.body.provider_pattern_overrides.find((p: any) => p.token_type === 'AWS_ACCESS_KEY_ID');
	for (const key of [
		'token_type',
		'slug',
		'display_name',
		'alert_total',
		'alert_total_percentage',
		'false_positives',
		'false_positive_rate',
		'bypass_rate',
		'default_setting',
		'setting',
	]) {
		assert.ok(key in aws, `~> a provider pattern has ${key}`);
	}
	assert.is(aws.setting, 'not-set');
	const changed = await s.request('PATCH', P, {
		token: owner,
		body: {
			pattern_config_version: null,
			provider_pattern_settings: [{ token_type: 'AWS_ACCESS_KEY_ID', push_protection_setting: 'disabled' }],
		},
	});
	assert.is(changed.status, 200);
	const version = changed.body.pattern_config_version;
	assert.type(version, 'string');
	const after = await s.get(P, owner);
	assert.is(after.body.pattern_config_version, version);
	assert.is(after.body.provider_pattern_overrides.find((p: any) => p.token_type === 'AWS_ACCESS_KEY_ID').setting, 'disabled');
	const stale = await s.request('PATCH', P, { token: owner, body: { pattern_config_version: null, provider_pattern_settings: [] } });
	assert.is(stale.status, 409, '~> a stale version: someone else changed it');
	const next = await s.request('PATCH', P, {
		token: fineGrained('write'),
		body: {
			pattern_config_version: version,
			provider_pattern_settings: [{ token_type: 'AWS_ACCESS_KEY_ID', push_protection_setting: 'not-set' }],
		},
	});
	assert.is(next.status, 200, '~> the current version passes');
	assert.is.not(next.body.pattern_config_version, version, '~> a new version');
	assert.is(
		(await s.get(P, owner)).body.provider_pattern_overrides.find((p: any) => p.token_type === 'AWS_ACCESS_KEY_ID').setting,
		'not-set',
	);
	assert.is(
		(
			await s.request('PATCH', P, {
				token: owner,
				body: { provider_pattern_settings: [{ token_type: 'NO_SUCH', push_protection_setting: 'enabled' }] },
			})
		).status,
		422,
	);
	assert.is(
		(
			await s.request('PATCH', P, {
				token: owner,
				body: { provider_pattern_settings: [{ token_type: 'AWS_ACCESS_KEY_ID', push_protection_setting: 'on' }] },
			})
		).status,
		422,
	);
	assert.is(
		(
			await s.request('PATCH', P, {
				token: owner,
				body: { custom_pattern_settings: [{ token_type: 'mine', push_protection_setting: 'enabled' }] },
			})
		).status,
		422,
		'~> no custom pattern of that id',
	);
	await refusals('GET', P);
	await refusals('PATCH', P, {});
});

// ------------------------------------------------------------------ active committers

test('active committers: authors of the last 90 days on repositories with advanced security', async () => {
	const now = Math.floor(s.clock.now / 1000);
	const commitAs = async (repo: string, email: string, ageDays: number, parents: string[]) => {
		const tree = await must('POST', `/repos/acme/${repo}/git/trees`, {
			tree: [{ path: 'f', mode: '100644', type: 'blob', content: `${email}${ageDays}` }],
		});
		const date = new Date((now - ageDays * DAY) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
		return (
			await must('POST', `/repos/acme/${repo}/git/commits`, {
				message: 'x',
				tree: tree.sha,
				parents,
				author: { name: email, email, date },
			})
		).sha;
	};
	// GitHub's noreply addresses name the account: <id>+<login>@users.noreply.<host>.
	const noreply = (login: string) =>
		`${s.app.stores.accounts.user(login)!.id}+${login}@users.noreply.${s.app.urls.host.replace(/:\d+$/, '')}`;
	const emails = { olivia: noreply('olivia'), mike: noreply('mike'), dora: noreply('dora') };
	// app: olivia 100 days ago (too old), mike 10 days ago, olivia 3 days ago; a stranger's email counts no one.
	let head = await commitAs('app', emails.olivia, 100, []);
	head = await commitAs('app', emails.mike, 10, [head]);
	head = await commitAs('app', 'stranger@example.com', 5, [head]);
	head = await commitAs('app', emails.olivia, 3, [head]);
	await must('POST', '/repos/acme/app/git/refs', { ref: 'refs/heads/main', sha: head });
	// lib: dora on a branch, 1 day ago; lib has no advanced security.
	const lib = await commitAs('lib', emails.dora, 1, []);
	await must('POST', '/repos/acme/lib/git/refs', { ref: 'refs/heads/main', sha: lib });
	await must('PATCH', '/repos/acme/app', { security_and_analysis: { advanced_security: { status: 'enabled' } } });

	const res = await s.get(B, owner);
	assert.is(res.status, 200);
	assert.is(res.body.total_count, 1, '~> one repository with advanced security');
	assert.is(res.body.total_advanced_security_committers, 2, '~> mike and olivia');
	assert.is(res.body.maximum_advanced_security_committers, 3, '~> dora too, were lib to enable it');
	const [repo] = res.body.repositories;
	assert.is(repo.name, 'acme/app');
	assert.is(repo.advanced_security_committers, 2);
	const olivia = repo.advanced_security_committers_breakdown.find((c: any) => c.user_login === 'olivia');
	assert.is(olivia.last_pushed_date, new Date((now - 3 * DAY) * 1000).toISOString().slice(0, 10), '~> her latest commit');
	assert.is(olivia.last_pushed_email, emails.olivia);
	assert.is((await s.get(`${B}?advanced_security_product=secret_protection`, owner)).body.total_count, 1);
	assert.is((await s.get(`${B}?advanced_security_product=everything`, owner)).status, 422);
	assert.is((await s.get(B, fineGrained('read'))).status, 200, '~> organization_administration read');
	await refusals('GET', B);
});

test.run();
