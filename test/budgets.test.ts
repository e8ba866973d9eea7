/**
 * Billing budgets (https://docs.github.com/en/rest/billing/budgets), organization and enterprise.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('budgets');
let s: TestServer;
let owner: string;
let member: string;
let erin: string;
const ORG = '/organizations/acme/settings/billing/budgets';
const ENT = '/enterprises/bigco/settings/billing/budgets';

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'erin', 'bill', 'oscar']) s.user(login);
	s.enterprise('bigco', 'erin');
	s.app.stores.enterprises.setRole(
		s.app.stores.enterprises.bySlug('bigco')!.id,
		s.app.stores.accounts.user('bill')!.id,
		'billing_manager',
		'2026-01-01T00:00:00Z',
	);
	s.org('acme', 'olivia', { enterprise: 'bigco' });
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	erin = s.fullToken('erin');
	await s.request('POST', '/orgs/acme/repos', { token: owner, body: { name: 'app' } });
});
test.after(() => s.close());

test('organization – create answers {message, budget}; the entity is the organization', async () => {
	const res = await s.request('POST', ORG, {
		token: owner,
		body: {
			budget_amount: 500,
			prevent_further_usage: true,
			budget_scope: 'organization',
			budget_entity_name: '',
			budget_type: 'ProductPricing',
			budget_product_sku: 'actions',
			budget_alerting: { will_alert: true, alert_recipients: ['olivia'] },
		},
	});
	assert.is(res.status, 200);
	assert.is(res.body.message, 'Budget successfully created.');
	assert.match(res.body.budget.id, /^[0-9a-f-]{36}$/);
	assert.equal(res.body.budget, {
		id: res.body.budget.id,
		budget_type: 'ProductPricing',
		budget_product_sku: 'actions',
		budget_scope: 'organization',
		budget_entity_name: 'acme',
		budget_amount: 500,
		prevent_further_usage: true,
		budget_alerting: { will_alert: true, alert_recipients: ['olivia'] },
	});
	const got = await s.get(`${ORG}/${res.body.budget.id}`, owner);
	assert.equal(got.body, res.body.budget);
});

test('organization – budget_type follows the SKU when omitted; repository and user scopes', async () => {
	const sku = await s.request('POST', ORG, {
		token: owner,
		body: { budget_product_sku: 'actions_linux', budget_scope: 'repository', budget_entity_name: 'app', budget_amount: 10 },
	});
	assert.is(sku.status, 200);
	assert.is(sku.body.budget.budget_type, 'SkuPricing');
	assert.is(sku.body.budget.budget_entity_name, 'acme/app');
	const user = await s.request('POST', ORG, {
		token: owner,
		body: {
			budget_type: 'BundlePricing',
			budget_product_sku: 'ai_credits',
			budget_scope: 'user',
			user: 'mike',
			prevent_further_usage: true,
			budget_amount: 20,
		},
	});
	assert.is(user.status, 200);
	assert.is(user.body.budget.user, 'mike');
	assert.is(user.body.budget.budget_entity_name, '', '~> user budgets may have an empty entity name');
	assert.equal(user.body.budget.budget_alerting, { will_alert: false, alert_recipients: [] });
	const multi = await s.request('POST', ORG, {
		token: owner,
		body: {
			budget_product_sku: 'premium_requests',
			budget_scope: 'multi_user_customer',
			prevent_further_usage: true,
			budget_amount: 100,
		},
	});
	assert.is(multi.status, 200);
	assert.is(multi.body.budget.budget_type, 'ProductPricing');
});

test('organization – the spec rules', async () => {
	const missingUser = await s.request('POST', ORG, {
		token: owner,
		body: { budget_type: 'BundlePricing', budget_product_sku: 'ai_credits', budget_scope: 'user', prevent_further_usage: true },
	});
	assert.is(missingUser.status, 400);
	assert.match(missingUser.body.message, 'budget_entity_name is a missing required field');
	const cases: Array<[Record<string, unknown>, string]> = [
		[
			{
				budget_type: 'BundlePricing',
				budget_product_sku: 'ai_credits',
				budget_scope: 'user',
				user: 'mike',
				prevent_further_usage: false,
			},
			'prevent_further_usage',
		],
		[{ budget_product_sku: 'actions', budget_scope: 'multi_user_customer', prevent_further_usage: true }, 'budget_scope'],
		[{ budget_type: 'BundlePricing', budget_product_sku: 'actions' }, 'budget_product_sku'],
		[{ budget_type: 'ProductPricing', budget_product_sku: 'actions_linux' }, 'budget_product_sku'],
		[{ budget_type: 'SkuPricing', budget_product_sku: 'actions' }, 'budget_product_sku'],
		[{ budget_type: 'ProductPricing', budget_product_sku: 'ai_credits' }, 'budget_type'],
		[{ budget_product_sku: 'tea' }, 'budget_product_sku'],
		[{ budget_product_sku: 'actions', budget_scope: 'repository', budget_entity_name: 'nope' }, 'budget_entity_name'],
		[
			{ budget_product_sku: 'actions', budget_alerting: { will_alert: true, alert_recipients: ['ghost'] } },
			'budget_alerting.alert_recipients',
		],
		[
			{
				budget_type: 'BundlePricing',
				budget_product_sku: 'ai_credits',
				budget_scope: 'user',
				user: 'ghost',
				prevent_further_usage: true,
			},
			'user',
		],
		[
			{
				budget_type: 'BundlePricing',
				budget_product_sku: 'ai_credits',
				budget_scope: 'user',
				user: 'mike',
				prevent_further_usage: true,
				budget_alerting: { will_alert: true },
			},
			'budget_alerting',
		],
		[{ budget_product_sku: 'actions', budget_scope: 'enterprise' }, 'budget_scope'],
		[{ budget_product_sku: 'actions', budget_amount: 1.5 }, 'budget_amount'],
		[{ budget_product_sku: 'actions', budget_amount: -1 }, 'budget_amount'],
		[{ budget_amount: 5 }, 'budget_product_sku'],
	];
	for (const [body, field] of cases) {
		const res = await s.request('POST', ORG, { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body)}`);
		assert.ok(
			res.body.errors.some((e: any) => e.field === field),
			`~> ${JSON.stringify(body)} names ${field}: ${JSON.stringify(res.body.errors)}`,
		);
	}
	const total = (await s.get(ORG, owner)).body.total_count;
	assert.is(total, 4, '~> nothing written by refused requests');
});

test('organization – list form, pagination, filters', async () => {
	const list = await s.get(ORG, owner);
	assert.is(list.status, 200);
	assert.equal(Object.keys(list.body), ['budgets', 'has_next_page', 'total_count']);
	assert.is(list.body.total_count, 4);
	assert.is(list.body.has_next_page, false);
	const item = list.body.budgets[0];
	assert.equal(item.budget_product_skus, ['actions']);
	assert.is(item.budget_product_sku, 'actions', '~> and GitHub’s budget_product_sku, which its description requires in list items too');
	const page = await s.get(`${ORG}?per_page=3`, owner);
	assert.is(page.body.budgets.length, 3);
	assert.is(page.body.has_next_page, true);
	assert.match(page.headers.get('link')!, 'rel="next"');
	const second = await s.get(`${ORG}?per_page=3&page=2`, owner);
	assert.is(second.body.budgets.length, 1);
	assert.is(second.body.has_next_page, false);
	const byScope = await s.get(`${ORG}?scope=user`, owner);
	assert.equal(
		byScope.body.budgets.map((b: any) => b.user),
		['mike'],
	);
	assert.is(byScope.body.budgets[0].consumed_amount, 0);
	const byUser = await s.get(`${ORG}?user=mike`, owner);
	assert.is(byUser.body.user, 'mike');
	assert.is(byUser.body.effective_budget.budget_amount, 20);
	assert.is((await s.get(`${ORG}?scope=galaxy`, owner)).status, 422);
});

test('organization – update keeps omitted fields; user budgets stay prevent_further_usage; delete', async () => {
	const list = (await s.get(`${ORG}?scope=user`, owner)).body.budgets;
	const id = list[0].id;
	const update = await s.request('PATCH', `${ORG}/${id}`, { token: owner, body: { budget_amount: 30 } });
	assert.is(update.status, 200);
	assert.is(update.body.message, 'Budget successfully updated.');
	assert.is(update.body.budget.budget_amount, 30);
	assert.is(update.body.budget.user, 'mike');
	assert.is(update.body.budget.consumed_amount, 0);
	assert.is(update.body.budget.prevent_further_usage, true);
	const relax = await s.request('PATCH', `${ORG}/${id}`, { token: owner, body: { prevent_further_usage: false } });
	assert.is(relax.status, 422);
	assert.match(relax.body.errors[0].message, 'must remain true');
	assert.is((await s.request('PATCH', `${ORG}/nope`, { token: owner, body: {} })).status, 404);
	const removed = await s.request('DELETE', `${ORG}/${id}`, { token: owner });
	assert.is(removed.status, 200);
	assert.equal(removed.body, { message: 'Budget successfully deleted.', id, budget_id: id });
	const gone = await s.get(`${ORG}/${id}`, owner);
	assert.is(gone.status, 404);
	assert.is(gone.body.message, `Budget with ID ${id} not found.`);
});

test('organization – update takes the scopes the seed lists, enterprise and cost_center too (regression: they answered 422)', async () => {
	const created = await s.request('POST', ORG, { token: owner, body: { budget_amount: 10, budget_product_sku: 'packages' } });
	assert.is(created.status, 200);
	const id = created.body.budget.id;
	const toCostCenter = await s.request('PATCH', `${ORG}/${id}`, {
		token: owner,
		body: { budget_scope: 'cost_center', budget_entity_name: 'research' },
	});
	assert.is(toCostCenter.status, 200, `~> cost_center: ${toCostCenter.text}`);
	assert.equal([toCostCenter.body.budget.budget_scope, toCostCenter.body.budget.budget_entity_name], ['cost_center', 'research']);
	const toEnterprise = await s.request('PATCH', `${ORG}/${id}`, { token: owner, body: { budget_scope: 'enterprise' } });
	assert.is(toEnterprise.status, 200, `~> enterprise: ${toEnterprise.text}`);
	assert.is(toEnterprise.body.budget.budget_scope, 'enterprise');
	const onCreate = await s.request('POST', ORG, { token: owner, body: { budget_product_sku: 'packages', budget_scope: 'enterprise' } });
	assert.is(onCreate.status, 422, '~> create keeps its own enum (organization, repository, multi_user_customer, user)');
	const unknown = await s.request('PATCH', `${ORG}/${id}`, { token: owner, body: { budget_scope: 'galaxy' } });
	assert.is(unknown.status, 422);
	assert.is((await s.request('DELETE', `${ORG}/${id}`, { token: owner })).status, 200);
});

test('organization – who may call', async () => {
	assert.is((await s.get(ORG)).status, 401);
	assert.is((await s.get(ORG, member)).status, 403);
	assert.is((await s.get('/organizations/nope/settings/billing/budgets', owner)).status, 404);
	const reader = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } });
	assert.is((await s.get(ORG, reader)).status, 200);
	const refused = await s.request('POST', ORG, { token: reader, body: { budget_product_sku: 'actions' } });
	assert.is(refused.status, 403);
	assert.is(refused.headers.get('x-accepted-github-permissions'), 'organization_administration=write');
});

test('enterprise – owners and billing managers; required fields on create', async () => {
	const incomplete = await s.request('POST', ENT, { token: erin, body: { budget_amount: 5, budget_product_sku: 'actions' } });
	assert.is(incomplete.status, 422);
	assert.equal(incomplete.body.errors.map((e: any) => e.field).sort(), [
		'budget_alerting',
		'budget_scope',
		'budget_type',
		'prevent_further_usage',
	]);
	const half = await s.request('POST', ENT, {
		token: erin,
		body: {
			budget_amount: 5,
			prevent_further_usage: true,
			budget_scope: 'enterprise',
			budget_type: 'ProductPricing',
			budget_product_sku: 'actions',
			budget_alerting: { will_alert: false },
		},
	});
	assert.is(half.status, 422, '~> budget_alerting needs both of its fields');
	const res = await s.request('POST', ENT, {
		token: erin,
		body: {
			budget_amount: 200,
			prevent_further_usage: true,
			budget_scope: 'enterprise',
			budget_entity_name: '',
			budget_type: 'ProductPricing',
			budget_product_sku: 'actions',
			budget_alerting: { will_alert: false, alert_recipients: [] },
		},
	});
	assert.is(res.status, 200);
	assert.is(res.body.budget.budget_scope, 'enterprise');
	const org = await s.request('POST', ENT, {
		token: s.fullToken('bill'),
		body: {
			budget_amount: 50,
			prevent_further_usage: false,
			budget_scope: 'organization',
			budget_entity_name: 'ACME',
			budget_type: 'SkuPricing',
			budget_product_sku: 'actions_macos',
			budget_alerting: { will_alert: true, alert_recipients: ['bill'] },
		},
	});
	assert.is(org.status, 200, '~> billing managers create');
	assert.is(org.body.budget.budget_entity_name, 'acme');
	const costCenter = await s.request('POST', ENT, {
		token: erin,
		body: {
			budget_amount: 5,
			prevent_further_usage: true,
			budget_scope: 'multi_user_cost_center',
			budget_entity_name: 'research',
			budget_type: 'BundlePricing',
			budget_product_sku: 'ai_credits',
			budget_alerting: { will_alert: false, alert_recipients: [] },
		},
	});
	assert.is(costCenter.status, 200);
	const list = await s.get(ENT, s.fullToken('bill'));
	assert.is(list.body.total_count, 3);
});

test('enterprise – organization admins create for their organizations only; tokens', async () => {
	const mine = await s.request('POST', ENT, {
		token: owner,
		body: {
			budget_amount: 5,
			prevent_further_usage: true,
			budget_scope: 'repository',
			budget_entity_name: 'acme/app',
			budget_type: 'ProductPricing',
			budget_product_sku: 'packages',
			budget_alerting: { will_alert: false, alert_recipients: [] },
		},
	});
	assert.is(mine.status, 200, '~> an organization admin of the enterprise may create');
	const notMine = await s.request('POST', ENT, {
		token: owner,
		body: {
			budget_amount: 5,
			prevent_further_usage: true,
			budget_scope: 'enterprise',
			budget_type: 'ProductPricing',
			budget_product_sku: 'packages',
			budget_alerting: { will_alert: false, alert_recipients: [] },
		},
	});
	assert.is(notMine.status, 422);
	assert.is((await s.get(ENT, owner)).status, 404, '~> but not list the enterprise budgets (to them, as if there were none)');
	assert.is((await s.get(ENT, member)).status, 404, '~> a member administers nothing here: no enterprise to them');
	assert.is((await s.get(ENT, s.fullToken('oscar'))).status, 404);
	const fine = s.token('erin', { kind: 'fine-grained', permissions: { organization_administration: 'admin' } });
	const refused = await s.get(ENT, fine);
	assert.is(refused.status, 403);
	assert.is(refused.body.message, 'Resource not accessible by personal access token');
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'admin' } });
	assert.is((await s.get(ENT, app)).status, 403);
	const scoped = s.token('erin', { scopes: ['read:enterprise'] });
	assert.is((await s.get(ENT, scoped)).status, 200);
	assert.is((await s.request('POST', ENT, { token: scoped, body: {} })).status, 403);
});

test('feature switch – budgets answer 404 when not enabled', async () => {
	const off = await startServer({ configure: (c) => (c.billing.budgets_enabled = false) });
	off.user('olivia');
	off.org('acme', 'olivia');
	const res = await off.get(ORG, off.fullToken('olivia'));
	assert.is(res.status, 404);
	await off.close();
});

test('enterprise – a pending invitation to be an organization admin grants nothing (code review)', async () => {
	s.user('pam');
	s.org('acme2', 'olivia', { enterprise: 'bigco' });
	s.member('acme', 'pam'); // an enterprise member through acme
	const invited = await s.request('PUT', '/orgs/acme2/memberships/pam', { token: owner, body: { role: 'admin' } });
	assert.is(invited.body.state, 'pending');
	const pam = s.fullToken('pam');
	const body = {
		budget_amount: 7,
		prevent_further_usage: true,
		budget_scope: 'organization',
		budget_entity_name: 'acme2',
		budget_type: 'ProductPricing',
		budget_product_sku: 'actions',
		budget_alerting: { will_alert: false, alert_recipients: [] },
	};
	const pending = await s.request('POST', ENT, { token: pam, body });
	assert.is(pending.status, 404, '~> not an admin of acme2 until the invitation is accepted: no enterprise to administer');
	assert.is(
		(await s.get(ENT, erin)).body.budgets.some((b: any) => b.budget_entity_name === 'acme2'),
		false,
		'~> nothing written',
	);
	await s.request('PATCH', '/user/memberships/orgs/acme2', { token: pam, body: { state: 'active' } });
	assert.is((await s.request('POST', ENT, { token: pam, body })).status, 200, '~> an active admin may');
});

test.run();
