/**
 * A stock GitHub client (@octokit/rest) drives the organization and enterprise administration
 * routes: custom properties and migrations through Octokit's methods; budgets, runner groups and
 * global webhooks through octokit.request and octokit.paginate (wrapped lists).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registerRunner } from '../src/api/runner-groups/service';
import { startServer, type TestServer } from './helpers/server';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('octokit-admin');
let s: TestServer;
let octokit: Octokit;

test.before(async () => {
	// The global webhook below points at loopback, which hooks may reach only when allowed.
	s = await startServer({ configure: (c) => void (c.webhooks.allowed_hosts = ['127.0.0.1']) });
	s.user('root', { siteAdmin: true });
	s.enterprise('bigco', 'root');
	s.org('acme', 'root', { enterprise: 'bigco' });
	const { Octokit } = await import('@octokit/rest');
	octokit = new Octokit({ auth: s.fullToken('root'), baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	await octokit.request('POST /orgs/{org}/repos', { org: 'acme', name: 'widgets' });
});
test.after(() => s.close());

test('custom properties – Octokit methods', async () => {
	const batch = await octokit.rest.orgs.customPropertiesForReposCreateOrUpdateOrganizationDefinitions({
		org: 'acme',
		properties: [
			{
				property_name: 'environment',
				value_type: 'single_select',
				allowed_values: ['prod', 'dev'],
				default_value: 'dev',
				required: true,
			},
		],
	});
	assert.is(batch.data[0].property_name, 'environment');
	const one = await octokit.rest.orgs.customPropertiesForReposCreateOrUpdateOrganizationDefinition({
		org: 'acme',
		custom_property_name: 'team',
		value_type: 'string',
	});
	assert.is(one.data.source_type, 'organization');
	const list = await octokit.rest.orgs.customPropertiesForReposGetOrganizationDefinitions({ org: 'acme' });
	assert.equal(
		list.data.map((p) => p.property_name),
		['environment', 'team'],
	);
	const got = await octokit.rest.orgs.customPropertiesForReposGetOrganizationDefinition({
		org: 'acme',
		custom_property_name: 'environment',
	});
	assert.equal(got.data.allowed_values, ['prod', 'dev']);
	await octokit.rest.orgs.customPropertiesForReposDeleteOrganizationDefinition({ org: 'acme', custom_property_name: 'team' });
	const invalid = await octokit.rest.orgs
		.customPropertiesForReposCreateOrUpdateOrganizationDefinition({
			org: 'acme',
			custom_property_name: 'bad',
			value_type: 'single_select',
		})
		.catch((e) => e);
	assert.is(invalid.status, 422);
	assert.match(invalid.message, 'allowed_values');
});

test('migrations – start, status, download through the redirect, repositories, unlock, delete', async () => {
	const started = await octokit.rest.migrations.startForOrg({ org: 'acme', repositories: ['acme/widgets'], lock_repositories: true });
	assert.is(started.status, 201);
	assert.is(started.data.state, 'pending');
	await s.app.tasks.runDue();
	const status = await octokit.rest.migrations.getStatusForOrg({ org: 'acme', migration_id: started.data.id });
	assert.is(status.data.state, 'exported');
	const archive = await octokit.rest.migrations.downloadArchiveForOrg({ org: 'acme', migration_id: started.data.id });
	assert.is(archive.status, 200, '~> Octokit follows the 302 to the archive');
	const bytes = Buffer.from(archive.data as ArrayBuffer);
	assert.is(bytes[0], 0x1f, '~> gzip magic');
	assert.is(bytes[1], 0x8b);
	const repos = await octokit.rest.migrations.listReposForOrg({ org: 'acme', migration_id: started.data.id });
	assert.equal(
		repos.data.map((r) => r.name),
		['widgets'],
	);
	await octokit.rest.migrations.unlockRepoForOrg({ org: 'acme', migration_id: started.data.id, repo_name: 'widgets' });
	await octokit.rest.migrations.deleteArchiveForOrg({ org: 'acme', migration_id: started.data.id });
	const gone = await octokit.rest.migrations.downloadArchiveForOrg({ org: 'acme', migration_id: started.data.id }).catch((e) => e);
	assert.is(gone.status, 404);
	const list = await octokit.rest.migrations.listForOrg({ org: 'acme', exclude: ['repositories'] });
	assert.is(list.data.length, 1);
	assert.not.ok('repositories' in list.data[0]);
});

test('budgets – octokit.paginate reads {budgets, has_next_page, total_count}', async () => {
	for (const sku of ['actions', 'packages', 'codespaces']) {
		await octokit.request('POST /organizations/{org}/settings/billing/budgets', {
			org: 'acme',
			budget_product_sku: sku,
			budget_amount: 10,
		});
	}
	const all = await octokit.paginate('GET /organizations/{org}/settings/billing/budgets', { org: 'acme', per_page: 2 });
	assert.equal(
		(all as Array<{ budget_product_skus: string[] }>).map((b) => b.budget_product_skus[0]),
		['actions', 'packages', 'codespaces'],
	);
	const created = await octokit.request('POST /enterprises/{enterprise}/settings/billing/budgets', {
		enterprise: 'bigco',
		budget_amount: 100,
		prevent_further_usage: true,
		budget_scope: 'enterprise',
		budget_type: 'ProductPricing',
		budget_product_sku: 'actions',
		budget_alerting: { will_alert: false, alert_recipients: [] },
	});
	assert.is(created.data.message, 'Budget successfully created.');
});

test('runner groups – octokit.paginate reads {total_count, runner_groups}', async () => {
	const enterpriseId = s.app.stores.enterprises.bySlug('bigco')!.id;
	registerRunner(s.app, enterpriseId, { name: 'r1', os: 'linux', labels: [] }, '2026-01-01T00:00:00Z');
	for (let i = 0; i < 3; i++)
		await octokit.request('POST /enterprises/{enterprise}/actions/runner-groups', { enterprise: 'bigco', name: `group ${i}` });
	const groups = await octokit.paginate('GET /enterprises/{enterprise}/actions/runner-groups', { enterprise: 'bigco', per_page: 2 });
	assert.equal(
		(groups as Array<{ name: string }>).map((g) => g.name),
		['Default', 'group 0', 'group 1', 'group 2'],
	);
	const runners = await octokit.paginate('GET /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners', {
		enterprise: 'bigco',
		runner_group_id: (groups as Array<{ id: number }>)[0].id,
	});
	assert.equal(
		(runners as Array<{ name: string }>).map((r) => r.name),
		['r1'],
	);
});

test('global webhooks – octokit.request', async () => {
	const hook = await octokit.request('POST /admin/hooks', {
		name: 'web',
		config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' },
		events: ['team'],
	});
	assert.is(hook.status, 201);
	const list = await octokit.request('GET /admin/hooks');
	assert.equal(
		list.data.map((h: { id: number }) => h.id),
		[hook.data.id],
	);
	const ping = await octokit.request('POST /admin/hooks/{hook_id}/pings', { hook_id: hook.data.id });
	assert.is(ping.status, 204);
	await octokit.request('DELETE /admin/hooks/{hook_id}', { hook_id: hook.data.id });
});

test.run();
