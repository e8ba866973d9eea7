/**
 * The web interface over HTTP: pages answer HTML at GitHub's paths, sign-in with a session cookie,
 * CSRF on every form, the security headers, and the access rules (private repositories and secret
 * teams answer the same 404 page as missing ones; signed out; suspended users). The API keeps
 * answering JSON and never accepts the session cookie.
 */
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { setSiteAdmin } from '../src/api/users/admin';
import { sessionStore, setUserPassword } from '../src/auth/sessions';
import { startServer, type TestServer } from './helpers/server';

const test = suite('web');
let s: TestServer;
const HTML = { Accept: 'text/html,application/xhtml+xml' };
const PASSWORD = 'correct horse battery';

async function page(path: string, cookie?: string, headers: Record<string, string> = {}) {
	const res = await fetch(`${s.origin}${path}`, {
		headers: { ...HTML, ...(cookie ? { Cookie: cookie } : {}), ...headers },
		redirect: 'manual',
	});
	return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The hidden authenticity_token of a page's form. */
const tokenIn = (html: string) => /name="authenticity_token" value="([^"]+)"/.exec(html)?.[1] ?? '';

async function post(path: string, fields: Record<string, string>, cookie: string, headers: Record<string, string> = {}) {
	const res = await fetch(`${s.origin}${path}`, {
		method: 'POST',
		headers: { ...HTML, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, ...headers },
		body: new URLSearchParams(fields).toString(),
		redirect: 'manual',
	});
	return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Signs in through the form; returns the session cookie. */
async function signIn(login: string, password = PASSWORD): Promise<{ status: number; cookie: string; text: string }> {
	const form = await page('/login');
	const csrfCookie = (form.headers.get('set-cookie') ?? '').split(';')[0];
	const res = await post('/login', { authenticity_token: tokenIn(form.text), login, password }, csrfCookie);
	const session = (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('gitstead_session=')) ?? '';
	return { status: res.status, cookie: session.split(';')[0], text: res.text };
}

test.before(async () => {
	s = await startServer();
	s.user('alice');
	s.user('bob');
	s.user('mallory');
	s.user('root', { siteAdmin: true });
	s.org('acme', 'alice');
	s.member('acme', 'bob');
	for (const login of ['alice', 'bob', 'mallory', 'root']) await setUserPassword(s.app, s.app.stores.accounts.user(login)!.id, PASSWORD);
	const alice = s.fullToken('alice');
	await s.request('POST', '/orgs/acme/repos', {
		token: alice,
		body: { name: 'widget', auto_init: true, description: 'A <b>widget</b>' },
	});
	await s.request('POST', '/orgs/acme/repos', { token: alice, body: { name: 'secret-sauce', private: true, auto_init: true } });
	await s.request('PUT', '/repos/acme/widget/contents/index.html', {
		token: alice,
		body: { message: 'Add a page', content: Buffer.from('<script>alert(1)</script>\n').toString('base64') },
	});
	await s.request('PUT', '/repos/acme/widget/contents/src/app.ts', {
		token: alice,
		body: { message: 'Add code', content: Buffer.from('export const answer: number = 42;\n').toString('base64') },
	});
	await s.request('POST', '/repos/acme/widget/issues', { token: alice, body: { title: 'First <issue>', body: 'Hello **world**' } });
	await s.request('POST', '/repos/acme/widget/issues/1/labels', { token: alice, body: { labels: ['bug', 'good first issue'] } });
	await s.request('POST', '/orgs/acme/teams', { token: alice, body: { name: 'Hidden', privacy: 'secret' } });
	await s.request('POST', '/orgs/acme/teams', { token: alice, body: { name: 'Open', privacy: 'closed' } });
});
test.after(() => s.close());

test('signed out: the explore page, a public repository and its files answer HTML with the security headers', async () => {
	const home = await page('/');
	assert.is(home.status, 200);
	assert.match(home.headers.get('content-type') ?? '', 'text/html');
	const csp = home.headers.get('content-security-policy') ?? '';
	assert.match(csp, "frame-ancestors 'none'");
	assert.match(csp, "script-src 'self'");
	assert.not.match(csp, 'unsafe-inline');
	assert.is(home.headers.get('x-content-type-options'), 'nosniff');
	assert.match(home.text, 'Sign in');
	assert.match(home.text, 'acme/widget');
	assert.not.match(home.text, 'secret-sauce');
	const repo = await page('/acme/widget');
	assert.is(repo.status, 200);
	assert.match(repo.text, 'A &lt;b>widget&lt;/b>', 'user content is escaped');
	assert.match(repo.text, `${s.origin}/acme/widget.git`);
	const blob = await page('/acme/widget/blob/main/src/app.ts');
	assert.is(blob.status, 200);
	assert.match(blob.text, 'hljs-keyword');
	assert.match(blob.text, 'id="L1"');
	for (const path of [
		'/acme/widget/tree/main/src',
		'/acme/widget/commits/main',
		'/acme/widget/branches',
		'/acme/widget/tags',
		'/acme/widget/releases',
		'/acme/widget/issues',
		'/acme/widget/pulls',
		'/acme/widget/issues/1',
		'/acme',
		'/alice',
		'/explore',
		'/orgs/acme/people',
	]) {
		const res = await page(path);
		assert.is(res.status, 200, path);
	}
	const issue = await page('/acme/widget/issues/1');
	assert.match(issue.text, 'First &lt;issue>');
	assert.match(issue.text, '<strong>world</strong>');
	const commits = await page('/acme/widget/commits/main');
	const sha = /\/acme\/widget\/commit\/([0-9a-f]{40})/.exec(commits.text)![1];
	const commit = await page(`/acme/widget/commit/${sha}`);
	assert.is(commit.status, 200);
	assert.match(commit.text, 'gs-diff');
});

test('raw files are text/plain in a sandbox: a stored HTML file never runs in the site origin', async () => {
	const raw = await page('/acme/widget/raw/main/index.html');
	assert.is(raw.status, 200);
	assert.match(raw.headers.get('content-type') ?? '', 'text/plain');
	assert.match(raw.headers.get('content-security-policy') ?? '', 'sandbox');
	assert.is(raw.text, '<script>alert(1)</script>\n');
	// curl (no text/html) gets the raw file too.
	const curl = await fetch(`${s.origin}/acme/widget/raw/main/src/app.ts`);
	assert.is(curl.status, 200);
});

test('private repositories and secret teams answer the 404 page of missing ones', async () => {
	const missing = await page('/acme/nothing-here');
	const hidden = await page('/acme/secret-sauce');
	assert.is(missing.status, 404);
	assert.is(hidden.status, 404);
	// The same page but for the path it names (the sign-in link comes back to it).
	assert.is(hidden.text.replaceAll('secret-sauce', 'X'), missing.text.replaceAll('nothing-here', 'X'));
	assert.is((await page('/acme/secret-sauce/blob/main/README.md')).status, 404);
	assert.is((await page('/acme/secret-sauce/raw/main/README.md')).status, 404);
	const { cookie: bob } = await signIn('bob');
	// bob is a member: the closed team shows, the secret one (not his) is a 404 like a missing team.
	assert.is((await page('/orgs/acme/teams/open', bob)).status, 200);
	const secret = await page('/orgs/acme/teams/hidden', bob);
	const none = await page('/orgs/acme/teams/nope', bob);
	assert.is(secret.status, 404);
	assert.is(none.status, 404);
	const { cookie: alice } = await signIn('alice');
	assert.is((await page('/orgs/acme/teams/hidden', alice)).status, 200);
	assert.is((await page('/acme/secret-sauce', alice)).status, 200);
	// Signed out, teams are never shown.
	assert.is((await page('/orgs/acme/teams/open')).status, 404);
});

test('sign-in: a session cookie (HttpOnly, SameSite=Lax), wrong passwords refused, sign-out ends the session', async () => {
	const wrong = await signIn('alice', 'not the password');
	assert.is(wrong.status, 422);
	assert.match(wrong.text, 'Incorrect username or password.');
	assert.is(wrong.cookie, '');
	const form = await page('/login');
	assert.match(form.text, 'Username or email address');
	assert.match(form.text, '>Password<');
	assert.match(form.text, 'Sign in');
	const ok = await signIn('alice');
	assert.is(ok.status, 303);
	assert.ok(ok.cookie.startsWith('gitstead_session='));
	const settings = await page('/settings/tokens', ok.cookie);
	assert.is(settings.status, 200);
	assert.match(settings.text, 'Signed in as <strong>alice</strong>');
	// Logging out needs the form's token.
	assert.is((await post('/logout', {}, ok.cookie)).status, 403);
	const out = await post('/logout', { authenticity_token: tokenIn(settings.text) }, ok.cookie);
	assert.is(out.status, 303);
	assert.is((await page('/settings/tokens', ok.cookie)).status, 302, 'the session is gone');
});

test('the API never accepts the session cookie', async () => {
	const { cookie } = await signIn('alice');
	const res = await fetch(`${s.api}/user`, { headers: { Cookie: cookie } });
	assert.is(res.status, 401);
	const json = await fetch(`${s.origin}/user`, { headers: { Cookie: cookie, ...HTML } });
	assert.is(json.status, 401);
	assert.match(json.headers.get('content-type') ?? '', 'json');
});

test('CSRF: forms without the token, or from another origin, are refused', async () => {
	const { cookie } = await signIn('alice');
	const settings = await page('/settings/tokens', cookie);
	const token = tokenIn(settings.text);
	assert.is((await post('/settings/tokens', { note: 'x', kind: 'classic' }, cookie)).status, 403);
	const foreign = await post('/settings/tokens', { note: 'x', kind: 'classic', authenticity_token: token }, cookie, {
		Origin: 'https://evil.example',
	});
	assert.is(foreign.status, 403);
	assert.is(s.app.tokens.list(s.app.stores.accounts.user('alice')!.id).filter((t) => t.note === 'x').length, 0);
});

test('tokens: created in settings (shown once), usable with REST, deleted', async () => {
	const { cookie } = await signIn('bob');
	const settings = await page('/settings/tokens', cookie);
	const form = new URLSearchParams({ authenticity_token: tokenIn(settings.text), note: 'laptop', kind: 'classic', expires_in: '30' });
	form.append('scopes', 'repo');
	form.append('scopes', 'read:org');
	const res = await fetch(`${s.origin}/settings/tokens`, {
		method: 'POST',
		headers: { ...HTML, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: s.origin },
		body: form.toString(),
	});
	const html = await res.text();
	assert.is(res.status, 200);
	const secret = /id="new-token">(ghp_[A-Za-z0-9]+)</.exec(html)?.[1];
	assert.ok(secret, 'the token is shown');
	const user = await s.get('/user', secret);
	assert.is(user.status, 200);
	assert.is(user.body.login, 'bob');
	assert.match(user.headers.get('x-oauth-scopes') ?? '', 'repo');
	const again = await page('/settings/tokens', cookie);
	assert.not.match(again.text, secret!);
	const id = /\/settings\/tokens\/(\d+)\/delete/.exec(again.text)![1];
	assert.is((await post(`/settings/tokens/${id}/delete`, { authenticity_token: tokenIn(again.text) }, cookie)).status, 303);
	assert.is((await s.get('/user', secret)).status, 401);
	// A fine-grained token.
	const fine = await post(
		'/settings/tokens',
		{ authenticity_token: tokenIn(again.text), note: 'ci', kind: 'fine-grained', permissions: 'contents:read' },
		cookie,
	);
	assert.match(fine.text, /github_pat_/);
});

test('sessions: listed in settings and revoked', async () => {
	const first = await signIn('mallory');
	const second = await signIn('mallory');
	const list = await page('/settings/sessions', first.cookie);
	const ids = [...list.text.matchAll(/\/settings\/sessions\/(\d+)\/revoke/g)].map((m) => m[1]);
	assert.ok(ids.length >= 2);
	const other = ids.find((id) => !list.text.includes(`sessions/${id}/revoke"`) || true)!;
	for (const id of ids) {
		if ((await page('/settings/sessions', second.cookie)).status !== 200) break;
		if (id === other) await post(`/settings/sessions/${id}/revoke`, { authenticity_token: tokenIn(list.text) }, first.cookie);
	}
	const statuses = [(await page('/settings/sessions', first.cookie)).status, (await page('/settings/sessions', second.cookie)).status];
	assert.ok(statuses.includes(302), 'one session was revoked');
});

test('suspended users cannot sign in, their sessions end and their tokens are refused', async () => {
	const { cookie } = await signIn('mallory');
	const token = s.token('mallory', { scopes: ['repo'] });
	const user = s.app.stores.accounts.user('mallory')!;
	s.app.transaction(() => sessionStore(s.app).suspend(user.id, new Date().toISOString(), 'test'));
	s.app.authenticator.clear();
	assert.is((await page('/settings/tokens', cookie)).status, 302);
	const again = await signIn('mallory');
	assert.is(again.status, 403);
	assert.match(again.text, 'suspended');
	const api = await s.get('/user', token);
	assert.is(api.status, 403);
	assert.is(api.body.message, 'Sorry. Your account was suspended.');
	s.app.transaction(() => sessionStore(s.app).unsuspend(user.id));
	s.app.authenticator.clear();
});

test('sign-in attempts are throttled per account', async () => {
	s.user('target');
	await setUserPassword(s.app, s.app.stores.accounts.user('target')!.id, PASSWORD);
	let last = 0;
	for (let i = 0; i < 11; i++) last = (await signIn('target', 'wrong password!')).status;
	assert.is(last, 429);
	assert.is((await signIn('target')).status, 429, 'even the right password waits');
});

test('browsers get the HTML 404 page; other clients and /api/v3 keep GitHub’s JSON', async () => {
	const browser = await page('/no/such/page/here');
	assert.is(browser.status, 404);
	assert.match(browser.headers.get('content-type') ?? '', 'text/html');
	const api = await fetch(`${s.origin}/no/such/page/here`);
	assert.is(api.status, 404);
	assert.match(api.headers.get('content-type') ?? '', 'json');
	const below = await fetch(`${s.api}/acme/widget`, { headers: HTML });
	assert.match(below.headers.get('content-type') ?? '', 'json');
	const meta = await page('/meta');
	assert.match(meta.headers.get('content-type') ?? '', 'json');
	const repoJson = await fetch(`${s.origin}/repos/acme/widget`, { headers: HTML });
	assert.is(repoJson.status, 200);
	assert.match(repoJson.headers.get('content-type') ?? '', 'json');
});

test('notifications: one thread marked read or done, all marked read, with CSRF forms', async () => {
	const alice = s.fullToken('alice');
	for (const title of ['Ping one', 'Ping two', 'Ping three'])
		await s.request('POST', '/repos/acme/widget/issues', { token: alice, body: { title, body: 'cc @bob' } });
	const { cookie } = await signIn('bob');
	const list = await page('/notifications', cookie);
	assert.is(list.status, 200);
	for (const title of ['Ping one', 'Ping two', 'Ping three']) assert.match(list.text, title);
	assert.is([...list.text.matchAll(/\/notifications\/threads\/(\d+)\/read/g)].length, 3);
	const api = s.token('bob', { scopes: ['notifications', 'repo'] });
	const threads = (await s.get('/notifications', api)).body as Array<{ id: string; subject: { title: string } }>;
	const ids = ['Ping one', 'Ping two', 'Ping three'].map((title) => threads.find((t) => t.subject.title === title)!.id);
	const token = tokenIn(list.text);
	// Without the form's token: refused, nothing changes.
	assert.is((await post(`/notifications/threads/${ids[0]}/read`, {}, cookie)).status, 403);
	const read = await post(`/notifications/threads/${ids[0]}/read`, { authenticity_token: token }, cookie);
	assert.is(read.status, 303);
	assert.is(read.headers.get('location'), '/notifications');
	const thread = await s.get(`/notifications/threads/${ids[0]}`, api);
	assert.is(thread.body.unread, false);
	// Someone else's thread is a 404.
	const { cookie: mallory } = await signIn('mallory');
	const malloryToken = tokenIn((await page('/notifications', mallory)).text);
	assert.is((await post(`/notifications/threads/${ids[1]}/read`, { authenticity_token: malloryToken }, mallory)).status, 404);
	assert.is((await post(`/notifications/threads/${ids[1]}/done`, { authenticity_token: token }, cookie)).status, 303);
	const unread = await page('/notifications', cookie);
	assert.not.match(unread.text, 'Ping one');
	assert.not.match(unread.text, 'Ping two');
	assert.match(unread.text, 'Ping three');
	const all = await post('/notifications/mark_read', { authenticity_token: token }, cookie);
	assert.is(all.status, 303);
	assert.match((await page('/notifications', cookie)).text, 'All caught up!');
	const everything = await page('/notifications?all=1', cookie);
	assert.match(everything.text, 'Ping one');
	assert.match(everything.text, 'Ping three');
	assert.not.match(everything.text, 'Ping two', 'a done thread leaves the list');
});

test('search: repositories, issues, pull requests and users, with what the viewer may read', async () => {
	const anonymous = await page('/search?q=sauce');
	assert.is(anonymous.status, 200);
	assert.not.match(anonymous.text, 'acme/secret-sauce');
	const { cookie } = await signIn('alice');
	const signedIn = await page('/search?q=sauce', cookie);
	assert.match(signedIn.text, 'href="/acme/secret-sauce"');
	const issues = await page('/search?q=First&type=issues');
	assert.match(issues.text, 'href="/acme/widget/issues/1"');
	assert.match(issues.text, 'gs-lc-d73a4a', 'labels in colour');
	assert.match(issues.text, /Issues<span class="Counter ml-2">1</);
	const users = await page('/search?q=ali&type=users');
	assert.match(users.text, 'href="/alice"');
	const pulls = await page('/search?q=First&type=pullrequests');
	assert.match(pulls.text, 'No pull requests matched your search');
	// A qualifier value GitHub refuses: the page says why.
	const bad = await page('/search?q=is:bogus');
	assert.is(bad.status, 200);
	assert.match(bad.text, 'flash-error');
	assert.match(bad.text, 'is not a repository state');
	assert.match((await page('/search')).text, 'Search Gitstead');
	// The header's search box submits here.
	assert.match(anonymous.text, 'action="/search"');
});

test('site admin: users and organizations, suspend and unsuspend, the site-admin role, global webhooks; 404 for everyone else', async () => {
	await s.request('POST', '/admin/hooks', {
		token: s.fullToken('root'),
		body: { name: 'web', config: { url: 'https://hooks.example.com/site' }, events: ['user', 'repository'], active: false },
	});
	const { cookie: alice } = await signIn('alice');
	for (const path of ['/stafftools', '/stafftools/users', '/stafftools/users/bob', '/stafftools/organizations', '/stafftools/hooks'])
		assert.is((await page(path, alice)).status, 404, path);
	assert.is((await page('/stafftools')).status, 302, 'signed out: sign in first');
	const { cookie: root } = await signIn('root');
	const users = await page('/stafftools/users', root);
	assert.is(users.status, 200);
	for (const login of ['alice', 'bob', 'mallory']) assert.match(users.text, `href="/stafftools/users/${login}"`);
	assert.match((await page('/stafftools/organizations', root)).text, 'href="/acme"');
	const hooks = await page('/stafftools/hooks', root);
	assert.match(hooks.text, 'https://hooks.example.com/site');
	const hookId = /\/stafftools\/hooks\/(\d+)/.exec(hooks.text)![1];
	assert.match((await page(`/stafftools/hooks/${hookId}`, root)).text, 'Recent deliveries');
	assert.is((await page('/stafftools/hooks/999999', root)).status, 404);
	// Suspend mallory: her session ends and her token is refused; unsuspend.
	const { cookie: mallory } = await signIn('mallory');
	const malloryToken = s.token('mallory', { scopes: ['repo'] });
	const userPage = await page('/stafftools/users/mallory', root);
	assert.match(userPage.text, 'Make site administrator');
	const token = tokenIn(userPage.text);
	assert.is((await post('/stafftools/users/mallory/suspend', { reason: 'left' }, root)).status, 403, 'CSRF');
	assert.is(
		(
			await post(
				'/stafftools/users/mallory/suspend',
				{ authenticity_token: tokenIn((await page('/', alice)).text), reason: 'x' },
				alice,
			)
		).status,
		404,
	);
	const suspended = await post('/stafftools/users/mallory/suspend', { authenticity_token: token, reason: 'left the company' }, root);
	assert.is(suspended.status, 303);
	const after = await page('/stafftools/users/mallory', root);
	assert.match(after.text, 'Suspended');
	assert.match(after.text, 'left the company');
	assert.is((await page('/settings/tokens', mallory)).status, 302, 'her session ended');
	assert.is((await s.get('/user', malloryToken)).status, 403);
	assert.is((await post('/stafftools/users/mallory/unsuspend', { authenticity_token: token }, root)).status, 303);
	assert.is((await s.get('/user', malloryToken)).status, 200);
	// The site-admin role: bob promoted, then not suspendable; demoted again.
	assert.is((await post('/stafftools/users/bob/promote', { authenticity_token: token }, root)).status, 303);
	assert.is(s.app.stores.accounts.user('bob')!.site_admin, 1);
	const refused = await post('/stafftools/users/bob/suspend', { authenticity_token: token }, root);
	assert.is(refused.status, 422);
	assert.match(refused.text, 'is a site administrator; remove the role before suspending');
	assert.is((await post('/stafftools/users/bob/demote', { authenticity_token: token }, root)).status, 303);
	assert.is(s.app.stores.accounts.user('bob')!.site_admin, 0);
	// Nobody changes their own standing; the last site administrator stays one.
	assert.is((await post('/stafftools/users/root/demote', { authenticity_token: token }, root)).status, 422);
	assert.throws(() => setSiteAdmin(s.app, s.app.stores.accounts.user('root')!, false, null), /last site administrator/);
});

test('gists at the html_url the API hands out: files rendered and highlighted, comments, lists, raw files', async () => {
	const alice = s.fullToken('alice');
	const created = await s.request('POST', '/gists', {
		token: alice,
		body: {
			description: 'Notes <b>bold</b>',
			public: true,
			files: { 'notes.md': { content: '# Title\n\nSome **strong** words' }, 'code.ts': { content: 'export const x: number = 1;\n' } },
		},
	});
	assert.is(created.status, 201);
	const id = created.body.id as string;
	await s.request('POST', `/gists/${id}/comments`, { token: s.fullToken('bob'), body: { body: 'Nice _work_' } });
	const secret = await s.request('POST', '/gists', {
		token: alice,
		body: { public: false, files: { 'secret.txt': { content: 'hidden <script>alert(1)</script>' } } },
	});
	const html = new URL(created.body.html_url as string);
	const shown = await page(html.pathname);
	assert.is(shown.status, 200);
	assert.match(shown.text, 'Notes &lt;b>bold&lt;/b>');
	assert.match(shown.text, '<strong>strong</strong>');
	assert.match(shown.text, 'hljs-keyword');
	assert.match(shown.text, '<em>work</em>');
	assert.match(shown.text, '1 comment');
	assert.is((await page(`/gist/alice/${id}`)).status, 200);
	const moved = await page(`/gist/bob/${id}`);
	assert.is(moved.status, 301);
	assert.is(moved.headers.get('location'), `/gist/alice/${id}`);
	// Lists: a user's public gists (their own secret ones too), and everyone's public ones.
	const list = await page('/gist/alice');
	assert.match(list.text, `href="/gist/alice/${id}"`);
	assert.not.match(list.text, secret.body.id);
	const { cookie } = await signIn('alice');
	assert.match((await page('/gist/alice', cookie)).text, secret.body.id);
	assert.match((await page('/gist')).text, `href="/gist/alice/${id}"`);
	// A secret gist is unlisted, not private: its id is enough.
	const unlisted = await page(`/gist/${secret.body.id}`);
	assert.is(unlisted.status, 200);
	assert.match(unlisted.text, 'hidden &lt;script');
	assert.not.match(unlisted.text, '<script>alert');
	const raw = await page(`/gist/alice/${secret.body.id}/raw/secret.txt`);
	assert.is(raw.status, 200);
	assert.match(raw.headers.get('content-type') ?? '', 'text/plain');
	assert.match(raw.headers.get('content-security-policy') ?? '', 'sandbox');
	assert.is(raw.text, 'hidden <script>alert(1)</script>');
	assert.is((await fetch(`${s.origin}/gist/alice/${id}/raw/code.ts`)).status, 200, 'curl gets raw files too');
	assert.is((await page('/gist/0123456789abcdef')).status, 404);
	assert.is((await page(`/gist/alice/${id}/raw/nope.txt`)).status, 404);
	// A blocked gist: 403 with the reason.
	const row = s.app.stores.gists.byGistId(secret.body.id)!;
	s.app.transaction(() => s.app.stores.gists.block(row.id, new Date().toISOString(), 'spam'));
	const blocked = await page(`/gist/${secret.body.id}`);
	assert.is(blocked.status, 403);
	assert.match(blocked.text, 'blocked by a site administrator: spam');
});

test('release assets of a private repository download from the page with the session’s access', async () => {
	const alice = s.fullToken('alice');
	const release = await s.request('POST', '/repos/acme/secret-sauce/releases', {
		token: alice,
		body: { tag_name: 'v1.0.0', name: 'One' },
	});
	assert.is(release.status, 201);
	const url = (release.body.upload_url as string).replace('{?name,label}', '?name=recipe.bin');
	const uploaded = await fetch(url, {
		method: 'POST',
		headers: { Authorization: `Bearer ${alice}`, 'Content-Type': 'application/octet-stream' },
		body: 'the secret recipe',
	});
	assert.is(uploaded.status, 201);
	const { cookie } = await signIn('alice');
	const releases = await page('/acme/secret-sauce/releases', cookie);
	const href = /href="(\/acme\/secret-sauce\/releases\/download\/[^"]+)"/.exec(releases.text)?.[1];
	assert.is(href, '/acme/secret-sauce/releases/download/v1.0.0/recipe.bin');
	const download = await page(href!, cookie);
	assert.is(download.status, 200);
	assert.is(download.text, 'the secret recipe');
	assert.match(download.headers.get('content-disposition') ?? '', 'attachment; filename="recipe.bin"');
	assert.is(download.headers.get('content-type'), 'application/octet-stream');
	// Without the session (or as someone who cannot read the repository): the 404 of a missing file.
	assert.is((await page(href!)).status, 404);
	const { cookie: mallory } = await signIn('mallory');
	assert.is((await page(href!, mallory)).status, 404);
	assert.is((await fetch(`${s.origin}${href}`)).status, 404, 'the API path takes tokens, not the cookie');
	assert.is((await fetch(`${s.origin}${href}`, { headers: { Authorization: `Bearer ${alice}` } })).status, 200);
});

test('timelines: an issue’s and a pull request’s events between their comments', async () => {
	const alice = s.fullToken('alice');
	// One second between the steps: the timeline is in time order (the test clock stands still otherwise).
	const step = async (method: string, path: string, body: unknown) => {
		s.clock.advance(1000);
		return s.request(method, path, { token: alice, body });
	};
	const created = await step('POST', '/repos/acme/widget/issues', { title: 'Timeline me' });
	const n = created.body.number;
	await step('POST', `/repos/acme/widget/issues/${n}/labels`, { labels: ['bug'] });
	await step('POST', `/repos/acme/widget/issues/${n}/comments`, { body: 'A **comment**' });
	await step('POST', `/repos/acme/widget/issues/${n}/assignees`, { assignees: ['alice'] });
	await step('PATCH', `/repos/acme/widget/issues/${n}`, { title: 'Timeline me twice' });
	await step('PATCH', `/repos/acme/widget/issues/${n}`, { state: 'closed', state_reason: 'not_planned' });
	const issue = await page(`/acme/widget/issues/${n}`);
	const text = issue.text.replace(/<[^>]+>/g, '');
	const order = [
		'opened this',
		'added bug label',
		'A comment',
		'self-assigned this',
		'changed the title Timeline me Timeline me twice',
		'closed this as not planned',
	];
	let at = 0;
	for (const words of order) {
		const found = text.indexOf(words, at);
		assert.ok(found >= 0, `~> "${words}" after position ${at}`);
		at = found;
	}
	// A pull request: a review requested, the commits, the merge.
	const main = (await s.get('/repos/acme/widget/git/ref/heads/main', alice)).body.object.sha;
	await step('POST', '/repos/acme/widget/git/refs', { ref: 'refs/heads/timeline', sha: main });
	await step('PUT', '/repos/acme/widget/contents/timeline.txt', {
		message: 'Add the timeline file',
		content: Buffer.from('t\n').toString('base64'),
		branch: 'timeline',
	});
	const pull = await step('POST', '/repos/acme/widget/pulls', { title: 'Timeline PR', head: 'timeline', base: 'main' });
	await step('POST', `/repos/acme/widget/pulls/${pull.body.number}/requested_reviewers`, { reviewers: ['bob'] });
	const open = await page(`/acme/widget/pull/${pull.body.number}`);
	assert.match(open.text, 'bob (requested)');
	const merged = await step('PUT', `/repos/acme/widget/pulls/${pull.body.number}/merge`, {});
	assert.is(merged.status, 200);
	const done = (await page(`/acme/widget/pull/${pull.body.number}`)).text.replace(/<[^>]+>/g, '');
	let from = 0;
	for (const words of [
		'Add the timeline file',
		'requested a review from bob',
		`merged commit ${merged.body.sha.slice(0, 7)}`,
		'closed this',
	]) {
		const found = done.indexOf(words, from);
		assert.ok(found >= 0, `~> "${words}" in the pull request's timeline after ${from}`);
		from = found;
	}
});

test('labels in their colours: one style element allowed by its hash, no inline style attribute', async () => {
	const issue = await page('/acme/widget/issues/1');
	// Text in black or white, whichever contrasts more: on bug's d73a4a black (4.6:1 against 4.57:1), on 7057ff white.
	assert.match(issue.text, /class="gs-label mr-1 gs-lc-d73a4a"/);
	const style = /<style>([^<]*)<\/style>/.exec(issue.text)?.[1] ?? '';
	assert.match(style, '.gs-lc-d73a4a{background-color:#d73a4a;color:#000000');
	assert.match(style, '.gs-lc-7057ff{background-color:#7057ff;color:#ffffff');
	const hash = createHash('sha256').update(style).digest('base64');
	const csp = issue.headers.get('content-security-policy') ?? '';
	assert.match(csp, `style-src 'self' 'sha256-${hash}'`);
	assert.not.match(csp, 'unsafe-inline');
	assert.not.match(issue.text, ' style="');
	const list = await page('/acme/widget/issues');
	assert.match(list.text, 'gs-lc-7057ff');
	// Pages without labels keep the plain policy.
	assert.match((await page('/explore')).headers.get('content-security-policy') ?? '', "style-src 'self';");
});

test('assets: content-hashed, immutable, compressed', async () => {
	const home = await page('/');
	const css = /href="(\/_assets\/gitstead-[0-9a-f]+\.css)"/.exec(home.text)![1];
	const res = await fetch(`${s.origin}${css}`, { headers: { 'Accept-Encoding': 'gzip' } });
	assert.is(res.status, 200);
	assert.match(res.headers.get('cache-control') ?? '', 'immutable');
	assert.match(res.headers.get('content-type') ?? '', 'text/css');
	assert.match(await res.text(), '.Box');
	assert.is((await page('/_assets/gitstead-0000.css')).status, 404);
});

test.run();
