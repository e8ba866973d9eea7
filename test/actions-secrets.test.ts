/**
 * Actions secrets and variables of repositories, environments and organizations: each scope's
 * X25519 public key, secrets sealed by the client with libsodium's crypto_box_seal (as gh and
 * Octokit scripts do) and checked to open with the scope's private key, never returned; variables
 * in clear; an organization's visibility and selected repositories; GitHub's permissions, names,
 * limits and error answers; the audit-style events.
 */
import sodium from 'libsodium-wrappers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('actions-secrets');
let s: TestServer;
let olivia: string;
let eve: string;
let walt: string;

/** Seals `value` to a public key (base64) with libsodium, as GitHub's clients do. */
function seal(value: string, key: string): string {
	return Buffer.from(sodium.crypto_box_seal(Buffer.from(value), Buffer.from(key, 'base64'))).toString('base64');
}

/** Seals `value` to the scope's public key and PUTs it. */
async function putSecret(base: string, name: string, value: string, token = olivia, extra: Record<string, unknown> = {}) {
	const key = (await s.get(`${base}/secrets/public-key`, token)).body;
	return s.request('PUT', `${base}/secrets/${name}`, {
		token,
		body: { encrypted_value: seal(value, key.key), key_id: key.key_id, ...extra },
	});
}

test.before(async () => {
	await sodium.ready;
	s = await startServer();
	s.user('olivia');
	s.user('eve');
	s.user('walt');
	olivia = s.fullToken('olivia');
	eve = s.fullToken('eve');
	walt = s.fullToken('walt');
	s.org('acme', 'olivia');
	s.member('acme', 'walt');
	for (const [name, visibility] of [
		['app', 'private'],
		['site', 'public'],
		['tools', 'private'],
	])
		await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name, visibility } });
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'notes', private: true } });
	const invitation = await s.request('PUT', '/repos/olivia/notes/collaborators/walt', { token: olivia, body: { permission: 'push' } });
	await s.request('PATCH', `/user/repository_invitations/${invitation.body.id}`, { token: walt });
	await s.request('PUT', '/repos/acme/app/environments/production', { token: olivia, body: {} });
});
test.after(() => s.close());

test('a public key per scope: key_id and a 32-byte X25519 key, the same on every read; the environment has its own', async () => {
	const first = await s.get('/repos/acme/app/actions/secrets/public-key', olivia);
	assert.is(first.status, 200, first.text);
	assert.type(first.body.key_id, 'string');
	assert.is(Buffer.from(first.body.key, 'base64').length, 32);
	assert.equal((await s.get('/repos/acme/app/actions/secrets/public-key', olivia)).body, first.body);
	const env = (await s.get('/repos/acme/app/environments/production/secrets/public-key', olivia)).body;
	const org = (await s.get('/orgs/acme/actions/secrets/public-key', olivia)).body;
	assert.is.not(env.key_id, first.body.key_id);
	assert.is.not(org.key, first.body.key);
	assert.is((await s.get('/repos/acme/app/environments/nowhere/secrets/public-key', olivia)).status, 404);
});

test('repository secrets: sealed value stored as sent, 201 then 204, listed by upper-case name, never returned', async () => {
	const made = await putSecret('/repos/acme/app/actions', 'deploy_token', 's3cret-value');
	assert.is(made.status, 201, made.text);
	assert.equal(made.body, {});
	const again = await putSecret('/repos/acme/app/actions', 'DEPLOY_TOKEN', 'another');
	assert.is(again.status, 204, again.text);
	const list = await s.get('/repos/acme/app/actions/secrets', olivia);
	assert.is(list.status, 200);
	assert.is(list.body.total_count, 1);
	assert.equal(Object.keys(list.body.secrets[0]).sort(), ['created_at', 'name', 'updated_at']);
	assert.is(list.body.secrets[0].name, 'DEPLOY_TOKEN');
	const one = await s.get('/repos/acme/app/actions/secrets/deploy_token', olivia);
	assert.is(one.status, 200);
	assert.is(one.body.name, 'DEPLOY_TOKEN');
	assert.not.match(list.text + one.text, /another|encrypted|s3cret/);
	// Stored only as the sealed box, which opens with the scope's private key to the value sent.
	const row = s.app.stores.secrets.byName(
		'secret',
		{ repoId: s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin('acme')!.id, 'app')!.id },
		'DEPLOY_TOKEN',
	)!;
	const key = s.app.stores.secrets.key({ repoId: row.repo_id! })!;
	const opened = sodium.crypto_box_seal_open(
		Buffer.from(row.value, 'base64'),
		Buffer.from(key.public_key, 'base64'),
		Buffer.from(key.private_key, 'base64'),
	);
	assert.is(Buffer.from(opened).toString(), 'another');
	assert.is((await s.request('DELETE', '/repos/acme/app/actions/secrets/DEPLOY_TOKEN', { token: olivia })).status, 204);
	assert.is((await s.get('/repos/acme/app/actions/secrets/DEPLOY_TOKEN', olivia)).status, 404);
	assert.is((await s.request('DELETE', '/repos/acme/app/actions/secrets/DEPLOY_TOKEN', { token: olivia })).status, 404);
});

test('a value that does not open, another scope’s key, bad base64 or a missing key_id: 422, nothing stored', async () => {
	const key = (await s.get('/repos/acme/app/actions/secrets/public-key', olivia)).body;
	const other = (await s.get('/repos/acme/tools/actions/secrets/public-key', olivia)).body;
	const wrongKey = await s.request('PUT', '/repos/acme/app/actions/secrets/BAD', {
		token: olivia,
		body: { encrypted_value: seal('x', other.key), key_id: key.key_id },
	});
	assert.is(wrongKey.status, 422, wrongKey.text);
	assert.is(wrongKey.body.message, 'Bad request - validation failed due to an improperly encrypted secret');
	const plain = await s.request('PUT', '/repos/acme/app/actions/secrets/BAD', {
		token: olivia,
		body: { encrypted_value: Buffer.from('not sealed at all, just text').toString('base64'), key_id: key.key_id },
	});
	assert.is(plain.status, 422);
	const staleId = await s.request('PUT', '/repos/acme/app/actions/secrets/BAD', {
		token: olivia,
		body: { encrypted_value: seal('x', key.key), key_id: other.key_id },
	});
	assert.is(staleId.status, 422);
	const notBase64 = await s.request('PUT', '/repos/acme/app/actions/secrets/BAD', {
		token: olivia,
		body: { encrypted_value: 'ainsdr-34234vsdf', key_id: key.key_id },
	});
	assert.is(notBase64.status, 422);
	assert.match(notBase64.body.message, 'does not match');
	const missing = await s.request('PUT', '/repos/acme/app/actions/secrets/BAD', {
		token: olivia,
		body: { encrypted_value: seal('x', key.key) },
	});
	assert.is(missing.status, 422);
	assert.is((await s.get('/repos/acme/app/actions/secrets', olivia)).body.total_count, 0);
});

test('names: letters, digits and underscores, not starting with a digit nor GITHUB_', async () => {
	for (const name of ['GITHUB_TOKEN', '1ST', 'has-dash']) {
		const res = await putSecret('/repos/acme/app/actions', name, 'x');
		assert.is(res.status, 422, `${name}: ${res.text}`);
	}
	const variable = await s.request('POST', '/repos/acme/app/actions/variables', {
		token: olivia,
		body: { name: 'github_x', value: '1' },
	});
	assert.is(variable.status, 422);
});

test('who may: repository administrators (write collaborators 403, outsiders 404); the Secrets permission; classic tokens need repo', async () => {
	assert.is((await s.get('/repos/olivia/notes/actions/secrets', walt)).status, 403, 'a write collaborator');
	assert.is((await s.get('/repos/olivia/notes/actions/secrets', eve)).status, 404, 'cannot see the repository');
	assert.is((await s.get('/repos/acme/app/actions/secrets', walt)).status, 403, 'an organization member without admin');
	const noRepo = s.token('olivia', { scopes: ['read:org'] });
	assert.is((await s.get('/repos/olivia/notes/actions/secrets', noRepo)).status, 403);
	const reader = s.token('olivia', { kind: 'fine-grained', permissions: { secrets: 'read' } });
	assert.is((await s.get('/repos/olivia/notes/actions/secrets', reader)).status, 200);
	const key = (await s.get('/repos/olivia/notes/actions/secrets/public-key', reader)).body;
	const write = await s.request('PUT', '/repos/olivia/notes/actions/secrets/X', {
		token: reader,
		body: { encrypted_value: seal('x', key.key), key_id: key.key_id },
	});
	assert.is(write.status, 403);
	assert.is(write.headers.get('x-accepted-github-permissions'), 'secrets=write');
	const writer = s.token('olivia', { kind: 'fine-grained', permissions: { secrets: 'write' } });
	assert.is((await putSecret('/repos/olivia/notes/actions', 'X', 'x', writer)).status, 201);
	const variables = s.token('olivia', { kind: 'fine-grained', permissions: { secrets: 'write' } });
	assert.is((await s.get('/repos/olivia/notes/actions/variables', variables)).status, 403, 'variables need actions_variables');
	const envOnlySecrets = s.token('olivia', { kind: 'fine-grained', permissions: { secrets: 'read' } });
	assert.is(
		(await s.get('/repos/acme/app/environments/production/secrets', envOnlySecrets)).status,
		403,
		'environment secrets need environments too',
	);
});

test('environment secrets: their own key and list, 404 for an environment that does not exist; deleting the environment deletes them', async () => {
	const made = await putSecret('/repos/acme/app/environments/production', 'db_password', 'hunter2');
	assert.is(made.status, 201, made.text);
	const list = await s.get('/repos/acme/app/environments/production/secrets', olivia);
	assert.equal(
		list.body.secrets.map((x: { name: string }) => x.name),
		['DB_PASSWORD'],
	);
	assert.is((await s.get('/repos/acme/app/actions/secrets/DB_PASSWORD', olivia)).status, 404, 'not a repository secret');
	const key = (await s.get('/repos/acme/app/environments/production/secrets/public-key', olivia)).body;
	const nowhere = await s.request('PUT', '/repos/acme/app/environments/nowhere/secrets/X', {
		token: olivia,
		body: { encrypted_value: seal('x', key.key), key_id: key.key_id },
	});
	assert.is(nowhere.status, 404);
	await s.request('PUT', '/repos/acme/app/environments/temporary', { token: olivia, body: {} });
	assert.is((await putSecret('/repos/acme/app/environments/temporary', 'GONE', 'x')).status, 201);
	await s.request('DELETE', '/repos/acme/app/environments/temporary', { token: olivia });
	await s.request('PUT', '/repos/acme/app/environments/temporary', { token: olivia, body: {} });
	assert.is((await s.get('/repos/acme/app/environments/temporary/secrets', olivia)).body.total_count, 0);
});

test('organization secrets: visibility all, private or selected; the selected repositories; what each repository may use', async () => {
	const ids = Object.fromEntries(
		await Promise.all(['app', 'site', 'tools'].map(async (name) => [name, (await s.get(`/repos/acme/${name}`, olivia)).body.id])),
	);
	assert.is((await putSecret('/orgs/acme/actions', 'EVERYWHERE', 'a', olivia, { visibility: 'all' })).status, 201);
	assert.is((await putSecret('/orgs/acme/actions', 'PRIVATE_ONLY', 'b', olivia, { visibility: 'private' })).status, 201);
	const selected = await putSecret('/orgs/acme/actions', 'ONLY_APP', 'c', olivia, {
		visibility: 'selected',
		selected_repository_ids: [ids.app],
	});
	assert.is(selected.status, 201, selected.text);
	const missingVisibility = await putSecret('/orgs/acme/actions', 'NO_VISIBILITY', 'd');
	assert.is(missingVisibility.status, 422);
	const list = await s.get('/orgs/acme/actions/secrets', olivia);
	assert.is(list.body.total_count, 3);
	const onlyApp = list.body.secrets.find((x: { name: string }) => x.name === 'ONLY_APP');
	assert.is(onlyApp.visibility, 'selected');
	assert.is(onlyApp.selected_repositories_url, `${s.api}/orgs/acme/actions/secrets/ONLY_APP/repositories`);
	const repos = await s.get('/orgs/acme/actions/secrets/ONLY_APP/repositories', olivia);
	assert.equal(
		repos.body.repositories.map((r: { name: string }) => r.name),
		['app'],
	);
	assert.is((await s.request('PUT', `/orgs/acme/actions/secrets/ONLY_APP/repositories/${ids.tools}`, { token: olivia })).status, 204);
	assert.is((await s.get('/orgs/acme/actions/secrets/ONLY_APP/repositories', olivia)).body.total_count, 2);
	assert.is((await s.request('DELETE', `/orgs/acme/actions/secrets/ONLY_APP/repositories/${ids.tools}`, { token: olivia })).status, 204);
	const conflict = await s.request('PUT', '/orgs/acme/actions/secrets/EVERYWHERE/repositories', {
		token: olivia,
		body: { selected_repository_ids: [ids.app] },
	});
	assert.is(conflict.status, 409);
	const names = async (repo: string) =>
		(await s.get(`/repos/acme/${repo}/actions/organization-secrets`, olivia)).body.secrets.map((x: { name: string }) => x.name);
	assert.equal(await names('app'), ['EVERYWHERE', 'ONLY_APP', 'PRIVATE_ONLY']);
	assert.equal(await names('site'), ['EVERYWHERE'], 'a public repository: visibility all only');
	assert.equal(await names('tools'), ['EVERYWHERE', 'PRIVATE_ONLY']);
	assert.is((await s.get('/orgs/acme/actions/secrets', walt)).status, 403, 'a member');
	assert.is((await s.get('/orgs/acme/actions/secrets', eve)).status, 404, 'an outsider');
	const foreign = await putSecret('/orgs/acme/actions', 'FOREIGN', 'x', olivia, {
		visibility: 'selected',
		selected_repository_ids: [(await s.get('/repos/olivia/notes', olivia)).body.id],
	});
	assert.is(foreign.status, 422);
});

test('variables: created (201, 409 for a name taken), listed with their values, updated (renamed), deleted; environment and organization ones', async () => {
	const made = await s.request('POST', '/repos/acme/app/actions/variables', {
		token: olivia,
		body: { name: 'region', value: 'eu-west-1' },
	});
	assert.is(made.status, 201, made.text);
	const taken = await s.request('POST', '/repos/acme/app/actions/variables', { token: olivia, body: { name: 'REGION', value: 'x' } });
	assert.is(taken.status, 409);
	const list = await s.get('/repos/acme/app/actions/variables', olivia);
	assert.is(list.body.total_count, 1);
	assert.is(list.body.variables[0].name, 'REGION');
	assert.is(list.body.variables[0].value, 'eu-west-1');
	assert.is(
		(
			await s.request('PATCH', '/repos/acme/app/actions/variables/REGION', {
				token: olivia,
				body: { name: 'AWS_REGION', value: 'us-east-1' },
			})
		).status,
		204,
	);
	const one = await s.get('/repos/acme/app/actions/variables/AWS_REGION', olivia);
	assert.is(one.body.value, 'us-east-1');
	assert.is((await s.get('/repos/acme/app/actions/variables/REGION', olivia)).status, 404);
	assert.is((await s.request('DELETE', '/repos/acme/app/actions/variables/AWS_REGION', { token: olivia })).status, 204);

	assert.is(
		(
			await s.request('POST', '/repos/acme/app/environments/production/variables', {
				token: olivia,
				body: { name: 'URL', value: 'https://x' },
			})
		).status,
		201,
	);
	assert.is((await s.get('/repos/acme/app/environments/production/variables/URL', olivia)).body.value, 'https://x');

	const ids = [(await s.get('/repos/acme/tools', olivia)).body.id];
	const org = await s.request('POST', '/orgs/acme/actions/variables', {
		token: olivia,
		body: { name: 'TEAM', value: 'core', visibility: 'selected', selected_repository_ids: ids },
	});
	assert.is(org.status, 201, org.text);
	const orgOne = await s.get('/orgs/acme/actions/variables/TEAM', olivia);
	assert.is(orgOne.body.visibility, 'selected');
	assert.is(orgOne.body.selected_repositories_url, `${s.api}/orgs/acme/actions/variables/TEAM/repositories`);
	assert.equal(
		(await s.get('/repos/acme/tools/actions/organization-variables', olivia)).body.variables.map((x: { name: string }) => x.name),
		['TEAM'],
	);
	assert.is((await s.get('/repos/acme/app/actions/organization-variables', olivia)).body.total_count, 0);
	assert.is((await s.request('PATCH', '/orgs/acme/actions/variables/TEAM', { token: olivia, body: { visibility: 'all' } })).status, 204);
	assert.is((await s.get('/repos/acme/app/actions/organization-variables', olivia)).body.total_count, 1);
	assert.is((await s.get('/orgs/acme/actions/variables/TEAM/repositories', olivia)).body.total_count, 0);
});

test('the audit log names each change as GitHub does', async () => {
	const log = await s.get('/orgs/acme/audit-log?per_page=100', olivia);
	assert.is(log.status, 200, log.text);
	const actions = new Set(log.body.map((entry: { action: string }) => entry.action));
	for (const action of [
		'repo.create_actions_secret',
		'repo.update_actions_secret',
		'repo.remove_actions_secret',
		'environment.create_actions_secret',
		'org.create_actions_secret',
		'org.update_actions_secret',
		'repo.create_actions_variable',
		'repo.update_actions_variable',
		'org.create_actions_variable',
	])
		assert.ok(actions.has(action), `${action} in ${[...actions].join(', ')}`);
});

test.run();
