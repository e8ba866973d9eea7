/**
 * Repository settings pages over HTTP (`/{owner}/{repo}/settings…`): administrators only (everyone
 * else gets the 404 page of a missing repository), the Settings tab, and every form going through
 * the services REST uses — checked by reading the result back through the REST API: general
 * settings, visibility and archiving; collaborators, invitations and teams; branch protection
 * rules; webhooks with their deliveries and redelivery. CSRF on every form.
 */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { repoSettingsPages } from '../src/web/pages/repo-settings';
import { Receiver } from './helpers/receiver';
import { startWebServer, tokenIn, webClient } from './helpers/web';
import type { TestServer } from './helpers/server';

const test = suite('web settings');
let s: TestServer;
const receiver = new Receiver();
const PASSWORD = 'correct horse battery';
let alice = '';
let bob = '';
let aliceToken = '';

const { page, post, signIn, submit } = webClient(() => s.origin, PASSWORD);

const api = async (method: string, path: string, body?: unknown) => s.request(method, path, { token: aliceToken, body });

test.before(async () => {
	await receiver.start();
	({ s, aliceToken } = await startWebServer({ members: ['bob'], outsiders: ['mallory'], password: PASSWORD }));
	await api('POST', '/orgs/acme/teams', { name: 'Open', privacy: 'closed' });
	const main = await api('GET', '/repos/acme/widget/git/ref/heads/main');
	await api('POST', '/repos/acme/widget/git/refs', {
		ref: 'refs/heads/release',
		sha: (main.body as { object: { sha: string } }).object.sha,
	});
	alice = await signIn('alice');
	bob = await signIn('bob');
});
test.after(async () => {
	s.close();
	await receiver.stop();
});

test('administrators see the Settings tab and the settings pages; others get the 404 page', async () => {
	const repo = await page('/acme/widget', alice);
	assert.match(repo.text, 'href="/acme/widget/settings"');
	const asBob = await page('/acme/widget', bob);
	assert.is(asBob.status, 200);
	assert.not.match(asBob.text, '/acme/widget/settings', 'a member without admin sees no Settings tab');
	for (const path of [
		'/acme/widget/settings',
		'/acme/widget/settings/access',
		'/acme/widget/settings/branches',
		'/acme/widget/settings/branch_protection_rules/new',
		'/acme/widget/settings/hooks',
		'/acme/widget/settings/hooks/new',
		'/acme/vault/settings',
	]) {
		assert.is((await page(path, alice)).status, 200, path);
		const other = await page(path, bob);
		assert.is(other.status, 404, `${path} for a non-admin`);
		assert.match(other.headers.get('content-type') ?? '', 'text/html');
		assert.is((await page(path)).status, 404, `${path} signed out`);
	}
	// The same page as a missing repository's.
	const missing = await page('/acme/nothing-here/settings', bob);
	assert.is(missing.status, 404);
	const hidden = await page('/acme/vault/settings', bob);
	const strip = (html: string) => html.replace(/name="authenticity_token" value="[^"]*"/, '');
	assert.is(strip(hidden.text), strip(missing.text));
	// Writes refused to non-admins with the 404 page too.
	const sent = await submit(bob, '/acme/widget', '/acme/widget/settings', { section: 'general', name: 'widget', description: 'x' });
	assert.is(sent.status, 404);
});

test('forms without the CSRF token or from another origin are refused', async () => {
	const noToken = await post('/acme/widget/settings', { section: 'general', name: 'widget', description: 'hacked' }, alice);
	assert.is(noToken.status, 403);
	const form = await page('/acme/widget/settings', alice);
	const foreign = await post(
		'/acme/widget/settings',
		{ authenticity_token: tokenIn(form.text), section: 'general', name: 'widget', description: 'hacked' },
		alice,
		{ Origin: 'https://evil.example' },
	);
	assert.is(foreign.status, 403);
	const repo = await api('GET', '/repos/acme/widget');
	assert.is.not((repo.body as { description: string | null }).description, 'hacked');
});

test('general settings: description, website, default branch, features, merge methods, rename', async () => {
	const saved = await submit(alice, '/acme/widget/settings', '/acme/widget/settings', {
		section: 'general',
		name: 'widget',
		description: 'A <b>widget</b>',
		homepage: 'https://widget.example',
		default_branch: 'release',
	});
	assert.is(saved.status, 303);
	assert.is(saved.headers.get('location'), '/acme/widget/settings?saved=1');
	let repo = (await api('GET', '/repos/acme/widget')).body as Record<string, unknown>;
	assert.is(repo.description, 'A <b>widget</b>');
	assert.is(repo.homepage, 'https://widget.example');
	assert.is(repo.default_branch, 'release');
	const shown = await page('/acme/widget/settings?saved=1', alice);
	assert.match(shown.text, 'value="A &lt;b>widget&lt;/b>"');
	assert.match(shown.text, 'Settings saved.');
	const noBranch = await submit(alice, '/acme/widget/settings', '/acme/widget/settings', {
		section: 'general',
		name: 'widget',
		default_branch: 'nope',
	});
	assert.is(noBranch.status, 422);
	assert.match(noBranch.text, 'There is no branch named nope.');
	await submit(alice, '/acme/widget/settings', '/acme/widget/settings', { section: 'general', name: 'widget', default_branch: 'main' });

	// Features: unchecked boxes turn features off.
	await submit(alice, '/acme/widget/settings', '/acme/widget/settings', { section: 'features', has_issues: '1', is_template: '1' });
	repo = (await api('GET', '/repos/acme/widget')).body as Record<string, unknown>;
	assert.is(repo.has_issues, true);
	assert.is(repo.is_template, true);
	assert.is(repo.has_wiki, false);
	assert.is(repo.has_projects, false);

	// Merge methods: at least one.
	const none = await submit(alice, '/acme/widget/settings', '/acme/widget/settings', { section: 'merge', delete_branch_on_merge: '1' });
	assert.is(none.status, 422);
	assert.match(none.text, 'You must allow at least one merge method.');
	await submit(alice, '/acme/widget/settings', '/acme/widget/settings', {
		section: 'merge',
		allow_squash_merge: '1',
		delete_branch_on_merge: '1',
	});
	repo = (await api('GET', '/repos/acme/widget')).body as Record<string, unknown>;
	assert.is(repo.allow_squash_merge, true);
	assert.is(repo.allow_merge_commit, false);
	assert.is(repo.allow_rebase_merge, false);
	assert.is(repo.delete_branch_on_merge, true);

	// Rename: the settings follow the new name; the old name redirects.
	const renamed = await submit(alice, '/acme/widget/settings', '/acme/widget/settings', { section: 'general', name: 'gadget' });
	assert.is(renamed.status, 303);
	assert.is(renamed.headers.get('location'), '/acme/gadget/settings?saved=1');
	assert.is((await page('/acme/widget/settings', alice)).status, 301);
	const taken = await submit(alice, '/acme/gadget/settings', '/acme/gadget/settings', { section: 'general', name: 'vault' });
	assert.is(taken.status, 422);
	assert.match(taken.text, 'name already exists on this account');
	await submit(alice, '/acme/gadget/settings', '/acme/gadget/settings', { section: 'general', name: 'widget' });
	assert.is((await api('GET', '/repos/acme/widget')).status, 200);
});

test('visibility and archiving go through the repository rules', async () => {
	const priv = await submit(alice, '/acme/widget/settings', '/acme/widget/settings/visibility', { visibility: 'private' });
	assert.is(priv.status, 303);
	assert.is(((await api('GET', '/repos/acme/widget')).body as { visibility: string }).visibility, 'private');
	await submit(alice, '/acme/widget/settings', '/acme/widget/settings/visibility', { visibility: 'public' });
	assert.is(((await api('GET', '/repos/acme/widget')).body as { visibility: string }).visibility, 'public');

	const archived = await submit(alice, '/acme/widget/settings', '/acme/widget/settings/archive', { archived: '1' });
	assert.is(archived.status, 303);
	assert.is(((await api('GET', '/repos/acme/widget')).body as { archived: boolean }).archived, true);
	const shown = await page('/acme/widget/settings', alice);
	assert.match(shown.text, 'This repository has been archived.');
	assert.match(shown.text, 'Unarchive this repository');
	// An archived repository takes no other change (the service's rule, as PATCH answers 403).
	const refused = await submit(alice, '/acme/widget/settings', '/acme/widget/settings', {
		section: 'general',
		name: 'widget',
		description: 'changed while archived',
	});
	assert.is(refused.status, 403);
	assert.match(refused.text, 'Repository was archived so is read-only.');
	await submit(alice, '/acme/widget/settings', '/acme/widget/settings/archive', { archived: '0' });
	assert.is(((await api('GET', '/repos/acme/widget')).body as { archived: boolean }).archived, false);
});

test('collaborators and teams: add a member at once, invite an outsider, change, remove, cancel', async () => {
	const from = '/acme/widget/settings/access';
	const added = await submit(alice, from, '/acme/widget/settings/access/collaborators', { login: 'bob', permission: 'maintain' });
	assert.is(added.status, 303);
	const bobRole = await api('GET', '/repos/acme/widget/collaborators/bob/permission');
	assert.is((bobRole.body as { role_name: string }).role_name, 'maintain');
	const invited = await submit(alice, from, '/acme/widget/settings/access/collaborators', { login: 'mallory', permission: 'push' });
	assert.is(invited.headers.get('location'), '/acme/widget/settings/access?invited=mallory');
	const invitations = (await api('GET', '/repos/acme/widget/invitations')).body as Array<{ id: number; invitee: { login: string } }>;
	assert.equal(
		invitations.map((i) => i.invitee.login),
		['mallory'],
	);
	let shown = await page(from, alice);
	assert.match(shown.text, 'Pending invite');
	assert.match(shown.text, 'mallory');
	const unknown = await submit(alice, from, '/acme/widget/settings/access/collaborators', { login: 'nobody-here', permission: 'push' });
	assert.is(unknown.status, 422);
	assert.match(unknown.text, 'There is no user named nobody-here.');
	const badRole = await submit(alice, from, '/acme/widget/settings/access/collaborators', { login: 'bob', permission: 'owner' });
	assert.is(badRole.status, 422);

	// Bob (now a maintainer, not an admin) still sees no settings.
	assert.is((await page('/acme/widget/settings', bob)).status, 404);
	await submit(alice, from, '/acme/widget/settings/access/collaborators/bob', { permission: 'admin' });
	assert.is(((await api('GET', '/repos/acme/widget/collaborators/bob/permission')).body as { role_name: string }).role_name, 'admin');
	assert.is((await page('/acme/widget/settings', bob)).status, 200, 'an admin collaborator manages settings');
	await submit(alice, from, '/acme/widget/settings/access/collaborators/bob/remove', {});
	assert.is((await page('/acme/widget/settings', bob)).status, 404);
	assert.is(((await api('GET', '/repos/acme/widget/collaborators/bob/permission')).body as { role_name: string }).role_name, 'read');

	await submit(alice, from, `/acme/widget/settings/access/invitations/${invitations[0].id}/remove`, {});
	assert.equal((await api('GET', '/repos/acme/widget/invitations')).body, []);
	assert.is((await submit(alice, from, '/acme/widget/settings/access/invitations/999999/remove', {})).status, 404);

	// Teams.
	const team = await submit(alice, from, '/acme/widget/settings/access/teams', { team: 'open', permission: 'triage' });
	assert.is(team.status, 303);
	let grant = await s.request('GET', '/orgs/acme/teams/open/repos/acme/widget', {
		token: aliceToken,
		headers: { Accept: 'application/vnd.github.v3.repository+json' },
	});
	assert.is((grant.body as { role_name: string }).role_name, 'triage');
	shown = await page(from, alice);
	assert.match(shown.text, 'href="/orgs/acme/teams/open"');
	await submit(alice, from, '/acme/widget/settings/access/teams/open', { permission: 'push' });
	grant = await s.request('GET', '/orgs/acme/teams/open/repos/acme/widget', {
		token: aliceToken,
		headers: { Accept: 'application/vnd.github.v3.repository+json' },
	});
	assert.is((grant.body as { role_name: string }).role_name, 'write');
	const noTeam = await submit(alice, from, '/acme/widget/settings/access/teams', { team: 'ghosts', permission: 'pull' });
	assert.is(noTeam.status, 422);
	assert.match(noTeam.text, 'There is no team named ghosts in acme.');
	await submit(alice, from, '/acme/widget/settings/access/teams/open/remove', {});
	assert.is((await api('GET', '/orgs/acme/teams/open/repos/acme/widget')).status, 404);
});

test('branch protection rules: create, edit, refuse a missing branch, delete', async () => {
	const from = '/acme/widget/settings/branch_protection_rules/new';
	const created = await submit(alice, from, '/acme/widget/settings/branch_protection_rules', {
		branch: 'main',
		require_reviews: '1',
		required_approving_review_count: '2',
		dismiss_stale_reviews: '1',
		require_status_checks: '1',
		strict: '1',
		contexts: 'ci/build\nci/test\n',
		enforce_admins: '1',
		required_linear_history: '1',
	});
	assert.is(created.status, 303);
	let protection = (await api('GET', '/repos/acme/widget/branches/main/protection')).body as Record<string, any>;
	assert.is(protection.required_pull_request_reviews.required_approving_review_count, 2);
	assert.is(protection.required_pull_request_reviews.dismiss_stale_reviews, true);
	assert.equal(protection.required_status_checks.contexts, ['ci/build', 'ci/test']);
	assert.is(protection.required_status_checks.strict, true);
	assert.is(protection.enforce_admins.enabled, true);
	assert.is(protection.required_linear_history.enabled, true);
	assert.is(protection.allow_force_pushes.enabled, false);

	const list = await page('/acme/widget/settings/branches', alice);
	assert.match(list.text, '2 approving reviews');
	const id = /\/settings\/branch_protection_rules\/(\d+)"/.exec(list.text)![1];
	const edit = `/acme/widget/settings/branch_protection_rules/${id}`;
	const form = await page(edit, alice);
	assert.is(form.status, 200);
	assert.match(form.text, 'ci/build\nci/test');
	await submit(alice, edit, edit, { allow_force_pushes: '1', allow_deletions: '1', required_approving_review_count: '1' });
	protection = (await api('GET', '/repos/acme/widget/branches/main/protection')).body as Record<string, any>;
	assert.is(protection.required_pull_request_reviews, undefined);
	assert.is(protection.required_status_checks, undefined);
	assert.is(protection.allow_force_pushes.enabled, true);
	assert.is(protection.allow_deletions.enabled, true);
	assert.is(protection.enforce_admins.enabled, false);

	const missing = await submit(alice, from, '/acme/widget/settings/branch_protection_rules', { branch: 'nope' });
	assert.is(missing.status, 422);
	assert.match(missing.text, 'There is no branch named nope in this repository.');
	const twice = await submit(alice, from, '/acme/widget/settings/branch_protection_rules', { branch: 'main' });
	assert.is(twice.status, 422);
	assert.is((await page('/acme/widget/settings/branch_protection_rules/999999', alice)).status, 404);
	assert.is((await page(edit, bob)).status, 404);

	await submit(alice, edit, `${edit}/delete`, {});
	assert.is((await api('GET', '/repos/acme/widget/branches/main/protection')).status, 404);
});

test('webhooks: create (pinged), list, edit keeping the secret, deliveries with request and response, redeliver, delete', async () => {
	const url = receiver.url('/web-hook');
	const created = await submit(alice, '/acme/widget/settings/hooks/new', '/acme/widget/settings/hooks', {
		url,
		content_type: 'json',
		secret: 's3cret',
		events_mode: 'selected',
		events: ['issues', 'push'],
		active: '1',
	});
	assert.is(created.status, 303);
	const location = created.headers.get('location')!;
	const id = /\/settings\/hooks\/(\d+)\?saved=1$/.exec(location)![1];
	let hook = (await api('GET', `/repos/acme/widget/hooks/${id}`)).body as Record<string, any>;
	assert.equal(hook.events, ['issues', 'push']);
	assert.is(hook.config.content_type, 'json');
	assert.is(hook.config.secret, '********');
	await s.app.webhooks.deliverDue();
	await receiver.waitFor((got) => got.some((r) => r.path === '/web-hook' && r.event === 'ping'));
	assert.match((await page('/acme/widget/settings/hooks', alice)).text, url);

	// Edit: an empty secret keeps the one set.
	await submit(alice, location, `/acme/widget/settings/hooks/${id}`, { url, content_type: 'form', events_mode: 'all', active: '1' });
	hook = (await api('GET', `/repos/acme/widget/hooks/${id}`)).body as Record<string, any>;
	assert.equal(hook.events, ['*']);
	assert.is(hook.config.content_type, 'form');
	assert.is(hook.config.secret, '********');
	const refused = await submit(alice, location, `/acme/widget/settings/hooks/${id}`, { url: 'ftp://example.com/x', events_mode: 'push' });
	assert.is(refused.status, 422);
	assert.match(refused.text, 'is not an http(s) URL');
	const noEvents = await submit(alice, location, `/acme/widget/settings/hooks/${id}`, { url, events_mode: 'selected' });
	assert.is(noEvents.status, 422);
	assert.match(noEvents.text, 'Choose at least one event.');
	const duplicate = await submit(alice, '/acme/widget/settings/hooks/new', '/acme/widget/settings/hooks', {
		url,
		events_mode: 'push',
		active: '1',
	});
	assert.is(duplicate.status, 422);
	assert.match(duplicate.text, 'Hook already exists on this repository');

	// Recent deliveries, one delivery's request and response, redeliver.
	const manage = await page(`/acme/widget/settings/hooks/${id}`, alice);
	assert.match(manage.text, 'Recent Deliveries');
	const deliveryPath = new RegExp(`/acme/widget/settings/hooks/${id}/deliveries/(\\d+)`).exec(manage.text)![0];
	const delivery = await page(deliveryPath, alice);
	assert.is(delivery.status, 200);
	assert.match(delivery.text, 'X-GitHub-Event: ping');
	assert.match(delivery.text, '&quot;zen&quot;');
	assert.match(delivery.text, 'Response 200');
	assert.match(delivery.text, 'Redeliver');
	assert.is((await page(deliveryPath, bob)).status, 404);
	const before = receiver.received.length;
	const again = await submit(alice, deliveryPath, `${deliveryPath}/redeliver`, {});
	assert.is(again.status, 303);
	await s.app.webhooks.deliverDue();
	await receiver.waitFor((got) => got.length > before && got.at(-1)!.event === 'ping');
	const redelivered = await page(again.headers.get('location')!, alice);
	assert.is(redelivered.status, 200);

	await submit(alice, location, `/acme/widget/settings/hooks/${id}/delete`, {});
	assert.is((await api('GET', `/repos/acme/widget/hooks/${id}`)).status, 404);
	assert.is((await page(`/acme/widget/settings/hooks/${id}`, alice)).status, 404);
});

test('profile: /settings/profile saves through the users service, as PATCH /user does', async () => {
	const form = await page('/settings/profile', alice);
	assert.is(form.status, 200);
	assert.match(form.text, 'Update profile');
	assert.is((await page('/settings/profile')).status, 302, 'signed out: to the sign-in page');
	const saved = await submit(alice, '/settings/profile', '/settings/profile', {
		name: 'Alice <A.>',
		email: 'alice@example.com',
		bio: 'Builds widgets',
		blog: 'https://alice.example',
		twitter_username: '@alice_w',
		company: 'Acme',
		location: 'Lyon',
	});
	assert.is(saved.status, 303);
	assert.is(saved.headers.get('location'), '/settings/profile?saved=1');
	const me = (await api('GET', '/user')).body as Record<string, unknown>;
	assert.is(me.name, 'Alice <A.>');
	assert.is(me.bio, 'Builds widgets');
	assert.is(me.blog, 'https://alice.example');
	assert.is(me.twitter_username, 'alice_w');
	assert.is(me.company, 'Acme');
	assert.is(me.location, 'Lyon');
	assert.is(((await s.request('GET', '/users/alice')).body as { email: string }).email, 'alice@example.com', 'the public email');
	await submit(alice, '/settings/profile', '/settings/profile', { name: 'Alice <A.>', email: '' });
	assert.is(((await s.request('GET', '/users/alice')).body as { email: string | null }).email, null, 'hidden again');
	const shown = await page('/settings/profile?saved=1', alice);
	assert.match(shown.text, 'value="Alice &lt;A.>"');
	assert.match(shown.text, 'Profile updated successfully.');
	// The bio's limit, as PATCH /user.
	const long = await submit(alice, '/settings/profile', '/settings/profile', { name: 'Alice', bio: 'x'.repeat(161) });
	assert.is(long.status, 422);
	assert.match(long.text, 'bio is too long (maximum is 160 characters)');
	assert.is(((await api('GET', '/user')).body as { name: string }).name, 'Alice <A.>', 'nothing written');
	// Emptying a field clears it.
	await submit(alice, '/settings/profile', '/settings/profile', { name: 'Alice', company: '', location: '', bio: '', blog: '' });
	const cleared = (await api('GET', '/user')).body as Record<string, unknown>;
	assert.is(cleared.company, null);
	assert.is(cleared.blog, '');
	const noToken = await post('/settings/profile', { name: 'Mallory' }, alice);
	assert.is(noToken.status, 403);
});

test('PATCH /user: the profile and the public email; the user scope or the Profile permission', async () => {
	const bobToken = s.fullToken('bob');
	const res = await s.request('PATCH', '/user', { token: bobToken, body: { name: 'Bob', company: 'Acme', hireable: true } });
	assert.is(res.status, 200);
	assert.is((res.body as { name: string }).name, 'Bob');
	assert.is(((await s.request('GET', '/users/bob')).body as { company: string }).company, 'Acme');
	const wrongEmail = await s.request('PATCH', '/user', { token: bobToken, body: { email: 'someone@else.example' } });
	assert.is(wrongEmail.status, 422);
	assert.is((wrongEmail.body as { errors: Array<{ field: string }> }).errors[0].field, 'email');
	const noScope = s.token('bob', { scopes: ['repo'] });
	assert.is((await s.request('PATCH', '/user', { token: noScope, body: { name: 'X' } })).status, 403);
	assert.is((await s.request('PATCH', '/user', { body: { name: 'X' } })).status, 401);
});

test('fuzz: malformed form fields and path parameters of every settings form never answer 5xx', async () => {
	const token = tokenIn((await page('/acme/widget/settings', alice)).text);
	const text = fc.oneof(
		fc.string({ maxLength: 20 }),
		fc.constantFrom(
			'',
			' ',
			'0',
			'1',
			'-1',
			'999999999999999999999',
			'push',
			'admin',
			'main',
			'*',
			'null',
			'../..',
			'%00',
			'\u0000',
			'é'.repeat(300),
		),
		fc.string({ minLength: 2000, maxLength: 3000 }),
	);
	const fields = fc.dictionary(
		fc.constantFrom(
			'section',
			'name',
			'description',
			'homepage',
			'default_branch',
			'visibility',
			'archived',
			'login',
			'permission',
			'team',
			'branch',
			'required_approving_review_count',
			'contexts',
			'url',
			'content_type',
			'secret',
			'events_mode',
			'events',
			'active',
			'email',
			'bio',
			'blog',
			'twitter_username',
		),
		fc.oneof(text, fc.array(text, { maxLength: 4 })),
		{ maxKeys: 8 },
	);
	const param = fc.oneof(
		fc.constantFrom('1', '0', 'bob', 'open', '99999999999999999999', 'x'.repeat(300), '%2e%2e', '-1'),
		fc.string({ maxLength: 12 }),
	);
	const routes = [
		...repoSettingsPages.filter((r) => r.method === 'POST' && !r.path.endsWith('/archive') && !r.path.endsWith('/visibility')),
		{ method: 'POST', path: '/settings/profile' },
	];
	const started = Date.now();
	for (const route of routes) {
		await fc.assert(
			fc.asyncProperty(fields, param, async (form, value) => {
				const path = route.path
					.replace('{owner}', 'acme')
					.replace('{repo}', 'widget')
					.replace(/\{[a-z_]+\}/g, encodeURIComponent(value));
				const res = await post(path, { authenticity_token: token, ...form }, alice);
				assert.ok(res.status < 500, `${route.method} ${path} ${JSON.stringify(form).slice(0, 200)}: ${res.status}`);
				assert.ok([200, 303, 403, 404, 413, 422].includes(res.status), `${path}: ${res.status}`);
			}),
			{ numRuns: 12, endOnFailure: true },
		);
	}
	assert.ok(Date.now() - started < 120_000);
	// The repository is still there and readable, whatever the renames tried.
	const repos = (await api('GET', '/orgs/acme/repos')).body as Array<{ name: string }>;
	assert.ok(repos.length >= 2);
});

test.run();
