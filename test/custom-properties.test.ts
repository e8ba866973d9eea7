/**
 * Custom property definitions of organizations (https://docs.github.com/en/rest/orgs/custom-properties)
 * and of an enterprise's organizations.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('custom-properties');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;

const ORG_KEYS = [
	'property_name',
	'url',
	'source_type',
	'value_type',
	'required',
	'default_value',
	'description',
	'allowed_values',
	'values_editable_by',
	'require_explicit_values',
];

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'oscar', 'erin']) s.user(login);
	s.enterprise('bigco', 'erin');
	s.org('acme', 'olivia', { enterprise: 'bigco' });
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('oscar');
});
test.after(() => s.close());

test('organization – batch create, list, get', async () => {
	const res = await s.request('PATCH', '/orgs/acme/properties/schema', {
		token: owner,
		body: {
			properties: [
				{
					property_name: 'environment',
					value_type: 'single_select',
					required: true,
					default_value: 'production',
					description: 'Prod or dev environment',
					allowed_values: ['production', 'development'],
					values_editable_by: 'org_actors',
				},
				{ property_name: 'service', value_type: 'string' },
				{ property_name: 'team', value_type: 'string', description: 'Team owning the repository' },
			],
		},
	});
	assert.is(res.status, 200);
	assert.is(res.body.length, 3);
	assert.equal(Object.keys(res.body[0]), ORG_KEYS);
	assert.equal(res.body[0], {
		property_name: 'environment',
		url: `${s.api}/orgs/acme/properties/schema/environment`,
		source_type: 'organization',
		value_type: 'single_select',
		required: true,
		default_value: 'production',
		description: 'Prod or dev environment',
		allowed_values: ['production', 'development'],
		values_editable_by: 'org_actors',
		require_explicit_values: false,
	});
	assert.is(res.body[1].values_editable_by, 'org_actors', '~> the default editor');
	assert.is(res.body[1].allowed_values, null);
	const list = await s.get('/orgs/acme/properties/schema', member);
	assert.is(list.status, 200, '~> members read');
	assert.equal(
		list.body.map((p: any) => p.property_name),
		['environment', 'service', 'team'],
	);
	const one = await s.get('/orgs/acme/properties/schema/environment', member);
	assert.equal(one.body, res.body[0]);
	assert.is((await s.get('/orgs/acme/properties/schema/nope', member)).status, 404);
});

test('organization – a batch replaces definitions; omitted optional fields revert to defaults', async () => {
	const first = await s.request('PUT', '/orgs/acme/properties/schema/tier', {
		token: owner,
		body: {
			value_type: 'multi_select',
			allowed_values: ['gold', 'silver', 'bronze'],
			default_value: ['gold'],
			required: true,
			values_editable_by: 'org_and_repo_actors',
			description: 'Tiers',
			require_explicit_values: true,
		},
	});
	assert.is(first.status, 200);
	assert.equal(first.body.default_value, ['gold']);
	assert.is(first.body.values_editable_by, 'org_and_repo_actors');
	assert.is(first.body.require_explicit_values, true);
	const replaced = await s.request('PATCH', '/orgs/acme/properties/schema', {
		token: owner,
		body: { properties: [{ property_name: 'tier', value_type: 'multi_select', allowed_values: ['gold', 'silver'] }] },
	});
	assert.is(replaced.status, 200);
	assert.equal(replaced.body[0], {
		property_name: 'tier',
		url: `${s.api}/orgs/acme/properties/schema/tier`,
		source_type: 'organization',
		value_type: 'multi_select',
		required: false,
		default_value: null,
		description: null,
		allowed_values: ['gold', 'silver'],
		values_editable_by: 'org_actors',
		require_explicit_values: false,
	});
});

test('organization – validation names the field; a bad batch writes nothing', async () => {
	const cases: Array<[Record<string, unknown>, string, RegExp]> = [
		[{ value_type: 'single_select' }, 'allowed_values', /needs allowed_values/],
		[{ value_type: 'string', allowed_values: ['a'] }, 'allowed_values', /applies only to single_select/],
		[{ value_type: 'single_select', allowed_values: Array.from({ length: 201 }, (_, i) => `v${i}`) }, 'allowed_values', /at most 200/],
		[{ value_type: 'single_select', allowed_values: ['a', 'a'] }, 'allowed_values', /listed twice/],
		[{ value_type: 'single_select', allowed_values: ['a', 'b'], default_value: 'c' }, 'default_value', /not among allowed_values/],
		[{ value_type: 'multi_select', allowed_values: ['a', 'b'], default_value: 'a' }, 'default_value', /array/],
		[{ value_type: 'multi_select', allowed_values: ['a', 'b'], default_value: ['a', 'z'] }, 'default_value', /"z" not among/],
		[{ value_type: 'true_false', default_value: 'yes' }, 'default_value', /"true" or "false"/],
		[{ value_type: 'url', default_value: 'ftp://x' }, 'default_value', /not an http\(s\) URL/],
		[{ value_type: 'string', required: true }, 'default_value', /needs a default_value/],
		[{ value_type: 'string', values_editable_by: 'enterprise_actors' }, 'values_editable_by', /org_actors/],
		[{ value_type: 'number' }, 'value_type', /./],
	];
	for (const [body, field, message] of cases) {
		const res = await s.request('PUT', '/orgs/acme/properties/schema/probe', { token: owner, body });
		assert.is(res.status, 422, `~> ${JSON.stringify(body).slice(0, 80)}`);
		const error = res.body.errors.find((e: any) => e.field === field);
		assert.ok(error, `~> names ${field}: ${JSON.stringify(res.body.errors)}`);
		assert.match(error.message, message);
	}
	const badName = await s.request('PUT', '/orgs/acme/properties/schema/has%20space', { token: owner, body: { value_type: 'string' } });
	assert.is(badName.status, 422);
	assert.is(badName.body.errors[0].field, 'property_name');
	const batch = await s.request('PATCH', '/orgs/acme/properties/schema', {
		token: owner,
		body: {
			properties: [
				{ property_name: 'fine', value_type: 'string' },
				{ property_name: 'broken', value_type: 'single_select' },
			],
		},
	});
	assert.is(batch.status, 422);
	assert.is(batch.body.errors[0].field, 'properties[1].allowed_values');
	const duplicate = await s.request('PATCH', '/orgs/acme/properties/schema', {
		token: owner,
		body: {
			properties: [
				{ property_name: 'twin', value_type: 'string' },
				{ property_name: 'TWIN', value_type: 'string' },
			],
		},
	});
	assert.is(duplicate.status, 422);
	const tooMany = await s.request('PATCH', '/orgs/acme/properties/schema', {
		token: owner,
		body: { properties: Array.from({ length: 101 }, (_, i) => ({ property_name: `p${i}`, value_type: 'string' })) },
	});
	assert.is(tooMany.status, 422);
	const empty = await s.request('PATCH', '/orgs/acme/properties/schema', { token: owner, body: { properties: [] } });
	assert.is(empty.status, 422);
	const names = (await s.get('/orgs/acme/properties/schema', owner)).body.map((p: any) => p.property_name);
	assert.not.ok(names.includes('fine') || names.includes('twin') || names.includes('probe'), '~> nothing written');
});

test('organization – who may read and write', async () => {
	assert.is((await s.get('/orgs/acme/properties/schema')).status, 401);
	assert.is((await s.get('/orgs/acme/properties/schema', outsider)).status, 403);
	assert.is((await s.get('/orgs/nope/properties/schema', owner)).status, 404);
	const byMember = await s.request('PUT', '/orgs/acme/properties/schema/x', { token: member, body: { value_type: 'string' } });
	assert.is(byMember.status, 403);
	const reader = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_custom_properties: 'read' } });
	assert.is((await s.get('/orgs/acme/properties/schema', reader)).status, 200);
	const refused = await s.request('PUT', '/orgs/acme/properties/schema/x', { token: reader, body: { value_type: 'string' } });
	assert.is(refused.status, 403);
	assert.is(refused.headers.get('x-accepted-service-permissions'), 'organization_custom_properties=admin');
	const app = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_custom_properties: 'admin' } });
	const byApp = await s.request('PUT', '/orgs/acme/properties/schema/from_app', {
		token: app,
		body: { value_type: 'true_false', default_value: 'false' },
	});
	assert.is(byApp.status, 200);
	const scoped = s.token('olivia', { scopes: ['read:org'] });
	assert.is((await s.get('/orgs/acme/properties/schema', scoped)).status, 200);
	const noAdmin = await s.request('PUT', '/orgs/acme/properties/schema/x', { token: scoped, body: { value_type: 'string' } });
	assert.is(noAdmin.status, 403);
	assert.is(noAdmin.headers.get('x-accepted-oauth-scopes'), 'admin:org');
});

test('organization – delete', async () => {
	assert.is((await s.request('DELETE', '/orgs/acme/properties/schema/team', { token: member })).status, 403);
	assert.is((await s.request('DELETE', '/orgs/acme/properties/schema/team', { token: owner })).status, 204);
	assert.is((await s.get('/orgs/acme/properties/schema/team', owner)).status, 404);
	assert.is((await s.request('DELETE', '/orgs/acme/properties/schema/team', { token: owner })).status, 404);
});

test('enterprise – owners define organization properties', async () => {
	const erin = s.fullToken('erin');
	const put = await s.request('PUT', '/enterprises/bigco/org-properties/schema/region', {
		token: erin,
		body: { value_type: 'single_select', allowed_values: ['emea', 'amer'], default_value: 'emea', required: true },
	});
	assert.is(put.status, 200);
	assert.equal(put.body, {
		property_name: 'region',
		url: `${s.api}/enterprises/bigco/org-properties/schema/region`,
		source_type: 'enterprise',
		value_type: 'single_select',
		required: true,
		default_value: 'emea',
		description: null,
		allowed_values: ['emea', 'amer'],
		values_editable_by: null,
	});
	const batch = await s.request('PATCH', '/enterprises/bigco/org-properties/schema', {
		token: erin,
		body: {
			properties: [
				{
					property_name: 'cost_center',
					value_type: 'string',
					values_editable_by: 'enterprise_and_org_actors',
					source_type: 'enterprise',
				},
			],
		},
	});
	assert.is(batch.status, 200);
	assert.is(batch.body[0].values_editable_by, 'enterprise_and_org_actors');
	const wrongEditor = await s.request('PUT', '/enterprises/bigco/org-properties/schema/bad', {
		token: erin,
		body: { value_type: 'string', values_editable_by: 'org_actors' },
	});
	assert.is(wrongEditor.status, 422);
	const list = await s.get('/enterprises/bigco/org-properties/schema', erin);
	assert.equal(
		list.body.map((p: any) => p.property_name),
		['region', 'cost_center'],
	);
	assert.is(
		(await s.get('/orgs/acme/properties/schema/region', owner)).status,
		404,
		'~> enterprise and organization definitions are apart',
	);
	assert.is((await s.request('DELETE', '/enterprises/bigco/org-properties/schema/cost_center', { token: erin })).status, 204);
});

test('enterprise – access: non-administrators see no enterprise (same answer as none), scopes', async () => {
	const member = await s.get('/enterprises/bigco/org-properties/schema', owner);
	const missing = await s.get('/enterprises/nope/org-properties/schema', owner);
	assert.is(member.status, 404, '~> an organization owner is an enterprise member, not an owner');
	assert.equal(member.body, missing.body, '~> an existing enterprise answers exactly as a missing one');
	assert.is((await s.get('/enterprises/bigco/org-properties/schema', outsider)).status, 404);
	assert.is((await s.get('/enterprises/nope/org-properties/schema', s.fullToken('erin'))).status, 404);
	const reader = s.token('erin', { scopes: ['read:enterprise'] });
	assert.is((await s.get('/enterprises/bigco/org-properties/schema', reader)).status, 200);
	const denied = await s.request('PUT', '/enterprises/bigco/org-properties/schema/x', { token: reader, body: { value_type: 'string' } });
	assert.is(denied.status, 403);
	assert.is(denied.headers.get('x-accepted-oauth-scopes'), 'admin:enterprise');
	const app = s.token('olivia', {
		kind: 'installation',
		org: 'acme',
		permissions: { enterprise_custom_properties_for_organizations: 'admin' },
	});
	assert.is((await s.get('/enterprises/bigco/org-properties/schema', app)).status, 403, '~> installation tokens are refused');
});

test('enterprise – tokens bound to an account outside the enterprise are refused (code review)', async () => {
	s.org('solo', 'erin'); // erin's own organization, not part of bigco
	s.member('acme', 'erin');
	const permissions = { enterprise_custom_properties_for_organizations: 'admin' } as const;
	const body = { value_type: 'string' };
	const solo = s.token('erin', { kind: 'fine-grained', org: 'solo', permissions });
	const put = await s.request('PUT', '/enterprises/bigco/org-properties/schema/tier', { token: solo, body });
	assert.is(put.status, 403);
	assert.is(put.body.message, 'Resource not accessible by personal access token');
	assert.is((await s.get('/enterprises/bigco/org-properties/schema', solo)).status, 403);
	const personal = s.token('erin', { kind: 'fine-grained', permissions });
	assert.is((await s.request('PUT', '/enterprises/bigco/org-properties/schema/tier', { token: personal, body })).status, 403);
	const soloApp = s.token('erin', { kind: 'user-to-server', org: 'solo', permissions });
	const byApp = await s.request('PUT', '/enterprises/bigco/org-properties/schema/tier', { token: soloApp, body });
	assert.is(byApp.status, 403);
	assert.is(byApp.body.message, 'Resource not accessible by integration');
	assert.is((await s.get('/enterprises/bigco/org-properties/schema/tier', s.fullToken('erin'))).status, 404, '~> nothing written');
	const acme = s.token('erin', { kind: 'fine-grained', org: 'acme', permissions });
	assert.is(
		(await s.request('PUT', '/enterprises/bigco/org-properties/schema/tier', { token: acme, body })).status,
		200,
		'~> a token for an organization of bigco',
	);
	const acmeApp = s.token('erin', { kind: 'user-to-server', org: 'acme', permissions });
	assert.is((await s.get('/enterprises/bigco/org-properties/schema/tier', acmeApp)).status, 200);
	assert.is(
		(await s.get('/enterprises/bigco/org-properties/schema', s.token('oscar', { kind: 'fine-grained', permissions }))).status,
		404,
		'~> outsiders still see nothing',
	);
});

test.run();
