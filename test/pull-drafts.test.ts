/**
 * Draft pull requests through GraphQL (markPullRequestReadyForReview, convertPullRequestToDraft):
 * who may (the author, writers; not readers; not a caller who cannot see the repository), the
 * pull_request webhook's ready_for_review / converted_to_draft, closed pull requests refused.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Receiver } from './helpers/receiver';
import { startServer, type TestServer } from './helpers/server';

const test = suite('pull-drafts');
const receiver = new Receiver();
let s: TestServer;
let olivia: string;
let eve: string;
let mallory: string;
let pullId: string;

const mutate = (token: string, name: string, id: string) =>
	s.request('POST', '/api/graphql', {
		token,
		body: {
			query: `mutation($id: ID!) { ${name}(input: { pullRequestId: $id }) { pullRequest { isDraft number } } }`,
			variables: { id },
		},
	});

test.before(async () => {
	await receiver.start();
	s = await startServer({
		configure(config) {
			config.webhooks.allowed_hosts = ['127.0.0.1'];
		},
	});
	for (const login of ['olivia', 'eve', 'mallory']) s.user(login);
	olivia = s.fullToken('olivia');
	eve = s.fullToken('eve');
	mallory = s.fullToken('mallory');
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'web', auto_init: true } });
	await s.request('POST', '/user/repos', { token: olivia, body: { name: 'secret', auto_init: true, private: true } });
	await s.request('PUT', '/repos/olivia/web/collaborators/eve', { token: olivia, body: { permission: 'pull' } });
	const main = (await s.get('/repos/olivia/web/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/web/git/refs', { token: olivia, body: { ref: 'refs/heads/wip', sha: main } });
	await s.request('PUT', '/repos/olivia/web/contents/wip.txt', {
		token: olivia,
		body: { message: 'wip', content: Buffer.from('wip').toString('base64'), branch: 'wip' },
	});
	await s.request('POST', '/repos/olivia/web/hooks', {
		token: olivia,
		body: { config: { url: `${receiver.origin}/web`, content_type: 'json' }, events: ['pull_request'] },
	});
	const pr = await s.request('POST', '/repos/olivia/web/pulls', {
		token: olivia,
		body: { title: 'WIP', head: 'wip', base: 'main', draft: true },
	});
	pullId = pr.body.node_id;
});
test.after(async () => {
	await s.close();
	await receiver.stop();
});

test('the author marks it ready and turns it back: one issue event per change', async () => {
	const ready = await mutate(olivia, 'markPullRequestReadyForReview', pullId);
	assert.is(ready.body.errors, undefined, JSON.stringify(ready.body.errors));
	assert.is(ready.body.data.markPullRequestReadyForReview.pullRequest.isDraft, false);
	const again = await mutate(olivia, 'markPullRequestReadyForReview', pullId);
	assert.is(again.body.data.markPullRequestReadyForReview.pullRequest.isDraft, false, '~> already ready: no change');
	const draft = await mutate(olivia, 'convertPullRequestToDraft', pullId);
	assert.is(draft.body.data.convertPullRequestToDraft.pullRequest.isDraft, true);
	assert.equal(
		(await s.get('/repos/olivia/web/issues/1/events', olivia)).body.map((e: any) => e.event),
		['ready_for_review', 'convert_to_draft'],
		'~> one event per change',
	);
});

test('readers are FORBIDDEN, outsiders of a private repository NOT_FOUND, closed pull requests UNPROCESSABLE', async () => {
	const reader = await mutate(eve, 'markPullRequestReadyForReview', pullId);
	assert.is(reader.body.errors?.[0]?.type, 'FORBIDDEN', JSON.stringify(reader.body));
	const main = (await s.get('/repos/olivia/secret/git/ref/heads/main', olivia)).body.object.sha;
	await s.request('POST', '/repos/olivia/secret/git/refs', { token: olivia, body: { ref: 'refs/heads/x', sha: main } });
	await s.request('PUT', '/repos/olivia/secret/contents/x.txt', {
		token: olivia,
		body: { message: 'x', content: Buffer.from('x').toString('base64'), branch: 'x' },
	});
	const hidden = await s.request('POST', '/repos/olivia/secret/pulls', {
		token: olivia,
		body: { title: 'X', head: 'x', base: 'main', draft: true },
	});
	const outsider = await mutate(mallory, 'markPullRequestReadyForReview', hidden.body.node_id);
	assert.is(outsider.body.errors?.[0]?.type, 'NOT_FOUND');
	await s.request('PATCH', '/repos/olivia/web/pulls/1', { token: olivia, body: { state: 'closed' } });
	const closed = await mutate(olivia, 'markPullRequestReadyForReview', pullId);
	assert.is(closed.body.errors?.[0]?.type, 'UNPROCESSABLE');
	assert.is((await s.get('/repos/olivia/web/pulls/1', olivia)).body.draft, true, '~> unchanged');
});

test.run();
