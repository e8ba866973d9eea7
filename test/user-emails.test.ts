/**
 * The authenticated user's email addresses (GET/POST/DELETE /user/emails, GET /user/public_emails,
 * PATCH /user/email/visibility) as GitHub answers them: the account's email is the primary one, the
 * noreply address is always listed, added addresses start unverified; GitHub's 422 bodies; the
 * "Email addresses" permission for fine-grained tokens and the user:email / user scopes for
 * classic ones; a verified added address links commits to its user.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../src/api/users/service';
import { verifyEmail } from '../src/api/users/emails';
import { startServer, type TestServer } from './helpers/server';

const test = suite('user-emails');
let s: TestServer;
let alice: string;
let noreply: string;

test.before(async () => {
	s = await startServer();
	const user = createUser(s.app, { login: 'alice', email: 'alice@example.com' });
	createUser(s.app, { login: 'bob', email: 'bob@example.com' });
	s.user('carol');
	alice = s.fullToken('alice');
	noreply = `${user.id}+alice@users.noreply.${new URL(s.origin).hostname}`;
});
test.after(async () => {
	await s?.close();
});

const primary = (visibility: string) => ({ email: 'alice@example.com', primary: true, verified: true, visibility });
const noreplyEmail = () => ({ email: noreply, primary: false, verified: true, visibility: null });

test('GET /user/emails: the primary address (private) and the noreply address; no public ones yet', async () => {
	const res = await s.get('/user/emails', alice);
	assert.is(res.status, 200);
	assert.equal(res.body, [primary('private'), noreplyEmail()]);
	const pub = await s.get('/user/public_emails', alice);
	assert.is(pub.status, 200);
	assert.equal(pub.body, []);
	// A user without an email: only the noreply address.
	const carol = await s.get('/user/emails', s.fullToken('carol'));
	assert.is(carol.body.length, 1);
	assert.is(carol.body[0].primary, false);
	assert.match(carol.body[0].email, /\+carol@users\.noreply\./);
});

test('POST /user/emails: {emails}, an array or one address; added unverified, listed after the primary', async () => {
	const added = await s.request('POST', '/user/emails', { token: alice, body: { emails: ['alice@work.example', 'Alice@Home.example'] } });
	assert.is(added.status, 201, added.text);
	assert.equal(added.body, [
		{ email: 'alice@work.example', primary: false, verified: false, visibility: null },
		{ email: 'Alice@Home.example', primary: false, verified: false, visibility: null },
	]);
	const asArray = await s.request('POST', '/user/emails', { token: alice, body: ['alice@array.example'] });
	assert.is(asArray.status, 201, asArray.text);
	const asString = await s.request('POST', '/user/emails', { token: alice, body: 'alice@string.example' });
	assert.is(asString.status, 201, asString.text);
	assert.equal(
		(await s.get('/user/emails', alice)).body.map((e: { email: string }) => e.email),
		['alice@example.com', 'alice@work.example', 'Alice@Home.example', 'alice@array.example', 'alice@string.example', noreply],
	);
	// Paged as GitHub pages lists.
	const page = await s.get('/user/emails?per_page=2&page=2', alice);
	assert.equal(
		page.body.map((e: { email: string }) => e.email),
		['Alice@Home.example', 'alice@array.example'],
	);
	assert.match(page.headers.get('link') ?? '', 'rel="next"');
});

test("POST /user/emails: 422 for an address in use (this account's, another's, without case), invalid or reserved; nothing added", async () => {
	const before = (await s.get('/user/emails', alice)).body;
	for (const [email, message] of [
		['ALICE@work.example', 'email is already in use'],
		['bob@example.com', 'email is already in use'],
		['not-an-address', 'email is invalid'],
		[noreply, 'email is reserved'],
	]) {
		const res = await s.request('POST', '/user/emails', { token: alice, body: { emails: ['fresh@new.example', email] } });
		assert.is(res.status, 422, `${email}: ${res.text}`);
		assert.is(res.body.message, 'Validation Failed');
		assert.equal(res.body.errors, [{ resource: 'UserEmail', field: 'email', code: 'custom', message, value: email }]);
	}
	const twice = await s.request('POST', '/user/emails', { token: alice, body: { emails: ['same@new.example', 'Same@new.example'] } });
	assert.is(twice.status, 422);
	const empty = await s.request('POST', '/user/emails', { token: alice, body: { emails: [] } });
	assert.is(empty.status, 422);
	const wrong = await s.request('POST', '/user/emails', { token: alice, body: { emails: [42] } });
	assert.is(wrong.status, 422, wrong.text);
	assert.equal((await s.get('/user/emails', alice)).body, before, 'nothing was added');
});

test('PATCH /user/email/visibility: the primary address public, then private again (GET /users/{username} follows)', async () => {
	const res = await s.request('PATCH', '/user/email/visibility', { token: alice, body: { visibility: 'public' } });
	assert.is(res.status, 200, res.text);
	assert.equal(res.body[0], primary('public'));
	assert.equal((await s.get('/user/public_emails', alice)).body, [primary('public')]);
	assert.is((await s.get('/users/alice')).body.email, 'alice@example.com');
	const back = await s.request('PATCH', '/user/email/visibility', { token: alice, body: { visibility: 'private' } });
	assert.is(back.status, 200);
	assert.equal(back.body[0], primary('private'));
	assert.is((await s.get('/users/alice')).body.email, null);
	const bad = await s.request('PATCH', '/user/email/visibility', { token: alice, body: { visibility: 'secret' } });
	assert.is(bad.status, 422);
	const none = await s.request('PATCH', '/user/email/visibility', { token: s.fullToken('carol'), body: { visibility: 'public' } });
	assert.is(none.status, 422, 'no primary address to show');
});

test('DELETE /user/emails: 204; the primary and noreply addresses refused (422), an unknown one 404; all or nothing', async () => {
	const res = await s.request('DELETE', '/user/emails', {
		token: alice,
		body: { emails: ['ALICE@ARRAY.example', 'alice@string.example'] },
	});
	assert.is(res.status, 204, res.text);
	const left = (await s.get('/user/emails', alice)).body.map((e: { email: string }) => e.email);
	assert.equal(left, ['alice@example.com', 'alice@work.example', 'Alice@Home.example', noreply]);
	const primaryGone = await s.request('DELETE', '/user/emails', {
		token: alice,
		body: { emails: ['alice@work.example', 'alice@example.com'] },
	});
	assert.is(primaryGone.status, 422);
	assert.is(primaryGone.body.errors[0].message, 'Cannot delete your primary email address');
	const unknown = await s.request('DELETE', '/user/emails', { token: alice, body: ['alice@work.example', 'nobody@example.com'] });
	assert.is(unknown.status, 404);
	assert.equal(
		(await s.get('/user/emails', alice)).body.map((e: { email: string }) => e.email),
		left,
		'nothing deleted',
	);
	// The address is free again for anyone.
	const bob = await s.request('POST', '/user/emails', { token: s.fullToken('bob'), body: { emails: ['alice@string.example'] } });
	assert.is(bob.status, 201);
});

test('who may: classic user:email reads, user writes; fine-grained "Email addresses" read / write; others 403', async () => {
	const readScope = s.token('alice', { scopes: ['user:email'] });
	assert.is((await s.get('/user/emails', readScope)).status, 200);
	const refused = await s.request('POST', '/user/emails', { token: readScope, body: { emails: ['x@scope.example'] } });
	assert.is(refused.status, 403);
	assert.is(refused.headers.get('x-accepted-oauth-scopes'), 'user');
	const noScope = await s.get('/user/emails', s.token('alice', { scopes: ['repo'] }));
	assert.is(noScope.status, 403);
	assert.is(noScope.headers.get('x-accepted-oauth-scopes'), 'user:email, user');
	const userScope = s.token('alice', { scopes: ['user'] });
	assert.is((await s.request('POST', '/user/emails', { token: userScope, body: ['x@scope.example'] })).status, 201);

	const fineRead = s.token('alice', { kind: 'fine-grained', permissions: { emails: 'read' } });
	assert.is((await s.get('/user/public_emails', fineRead)).status, 200);
	const fineRefused = await s.request('DELETE', '/user/emails', { token: fineRead, body: ['x@scope.example'] });
	assert.is(fineRefused.status, 403);
	assert.match(fineRefused.headers.get('x-accepted-github-permissions') ?? '', 'emails=write');
	const fineNone = s.token('alice', { kind: 'fine-grained', permissions: { profile: 'write' } });
	assert.is((await s.get('/user/emails', fineNone)).status, 403);
	const fineWrite = s.token('alice', { kind: 'fine-grained', permissions: { emails: 'write' } });
	assert.is((await s.request('DELETE', '/user/emails', { token: fineWrite, body: ['x@scope.example'] })).status, 204);
	assert.is((await s.get('/user/emails')).status, 401, 'anonymous');
});

test("a verified added address links commits to its user (the commit's author)", async () => {
	await s.request('POST', '/user/repos', { token: alice, body: { name: 'notes', auto_init: true } });
	const main = (await s.get('/repos/alice/notes/git/ref/heads/main', alice)).body.object.sha;
	const base = (await s.get(`/repos/alice/notes/git/commits/${main}`, alice)).body.tree.sha;
	const author = { name: 'Alice at work', email: 'alice@work.example', date: '2026-11-01T10:00:00Z' };
	const made = await s.request('POST', '/repos/alice/notes/git/commits', {
		token: alice,
		body: { message: 'From work', tree: base, parents: [main], author },
	});
	assert.is(made.status, 201, made.text);
	assert.is((await s.get(`/repos/alice/notes/commits/${made.body.sha}`, alice)).body.author, null, 'unverified: not linked');
	verifyEmail(s.app, s.app.stores.accounts.user('alice')!, 'alice@work.example');
	const listed = (await s.get('/user/emails', alice)).body.find((e: { email: string }) => e.email === 'alice@work.example');
	assert.is(listed.verified, true);
	assert.is((await s.get(`/repos/alice/notes/commits/${made.body.sha}`, alice)).body.author?.login, 'alice');
});

test.run();
