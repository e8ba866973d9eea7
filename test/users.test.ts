/**
 * Users: GET /user and GET /users/{username} (GitHub's users API), and what of a user others see.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../src/api/users/service';
import { startServer, type TestServer } from './helpers/server';

const test = suite('users');
let s: TestServer;

test.before(async () => {
	s = await startServer();
	createUser(s.app, { login: 'priya', email: 'priya@example.com' });
	createUser(s.app, { login: 'pablo', email: 'pablo@example.com', emailPublic: true });
	s.user('olivia');
});
test.after(() => s.close());

test('email – private unless the user made it public; the user always sees their own (regression)', async () => {
	const other = s.fullToken('olivia');
	for (const token of [other, undefined]) {
		const priya = await s.get('/users/priya', token);
		assert.is(priya.status, 200);
		assert.is(priya.body.email, null, '~> a private email is never shown to others');
		assert.not.ok(priya.text.includes('priya@example.com'), '~> nowhere in the answer');
		assert.is((await s.get('/users/pablo', token)).body.email, 'pablo@example.com', '~> a public email is');
	}
	const own = await s.get('/user', s.fullToken('priya'));
	assert.is(own.body.email, 'priya@example.com', '~> the user sees their own');
});

test('email – commits made through the API by a user with a private email carry GitHub noreply address', async () => {
	const token = s.fullToken('priya');
	await s.request('POST', '/user/repos', { token, body: { name: 'notes' } });
	const tree = await s.request('POST', '/repos/priya/notes/git/trees', {
		token,
		body: { tree: [{ path: 'a', mode: '100644', type: 'blob', content: 'a' }] },
	});
	const commit = await s.request('POST', '/repos/priya/notes/git/commits', {
		token,
		body: { message: 'm', tree: tree.body.sha, parents: [] },
	});
	assert.is(commit.status, 201);
	assert.match(commit.body.author.email, /@users\.noreply\./, '~> the private email stays out of the commit');
	assert.not.ok(JSON.stringify(commit.body).includes('priya@example.com'));
});

test.run();
