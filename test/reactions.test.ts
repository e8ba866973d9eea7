/**
 * Reactions to issues and issue comments (GitHub's reactions API): create (201 new, 200 again),
 * list with the content filter, delete by the author, the `reactions` rollup on issues and
 * comments with real counts, and the refusals.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('reactions');
let s: TestServer;
let olivia: string; // owner of acme
let mia: string; // member of acme
let eve: string; // nobody to acme
let commentId: number;

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mia', 'eve']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mia');
	olivia = s.fullToken('olivia');
	mia = s.fullToken('mia');
	eve = s.fullToken('eve');
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'web' } });
	await s.request('POST', '/orgs/acme/repos', { token: olivia, body: { name: 'vault', private: true } });
	await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: 'Shiny' } });
	await s.request('POST', '/repos/acme/vault/issues', { token: olivia, body: { title: 'Secret' } });
	commentId = (await s.request('POST', '/repos/acme/web/issues/1/comments', { token: olivia, body: { body: 'Nice' } })).body.id;
});
test.after(() => s.close());

test('issue reactions: 201 when new, 200 when the user already reacted so; the reaction object', async () => {
	const res = await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: eve, body: { content: 'heart' } });
	assert.is(res.status, 201, '~> a new reaction');
	assert.equal(
		res.body,
		{ id: res.body.id, node_id: res.body.node_id, user: res.body.user, content: 'heart', created_at: '2026-11-22T12:00:00Z' },
		'~> GitHub’s reaction object',
	);
	assert.is(res.body.user.login, 'eve', '~> anyone who reads a public repository reacts');
	const again = await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: eve, body: { content: 'heart' } });
	assert.is(again.status, 200, '~> the same content again: 200');
	assert.is(again.body.id, res.body.id, '~> the same reaction');
	assert.is((await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: mia, body: { content: 'heart' } })).status, 201);
	assert.is((await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: mia, body: { content: '+1' } })).status, 201);
	const issue = await s.get('/repos/acme/web/issues/1', eve);
	assert.equal(
		issue.body.reactions,
		{
			url: `${s.api}/repos/acme/web/issues/1/reactions`,
			total_count: 3,
			'+1': 1,
			'-1': 0,
			laugh: 0,
			hooray: 0,
			confused: 0,
			heart: 2,
			rocket: 0,
			eyes: 0,
		},
		'~> the rollup counts them',
	);
	const listed = await s.get('/repos/acme/web/issues?state=all', eve);
	assert.is(listed.body[0].reactions.total_count, 3, '~> lists carry the counts too');
});

test('list: content filter, pagination; refusals and validation', async () => {
	const all = await s.get('/repos/acme/web/issues/1/reactions');
	assert.is(all.status, 200, '~> public without a token');
	assert.equal(
		all.body.map((r: any) => [r.user.login, r.content]),
		[
			['eve', 'heart'],
			['mia', 'heart'],
			['mia', '+1'],
		],
		'~> ascending',
	);
	const hearts = await s.get('/repos/acme/web/issues/1/reactions?content=heart&per_page=1', eve);
	assert.equal(
		hearts.body.map((r: any) => r.user.login),
		['eve'],
		'~> filtered by content, paged',
	);
	assert.match(hearts.headers.get('link') ?? '', 'rel="next"');
	assert.is((await s.get('/repos/acme/web/issues/1/reactions?content=meh', eve)).status, 422, '~> an unknown content filter is 422');
	const bad = await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: eve, body: { content: 'meh' } });
	assert.is(bad.status, 422, '~> an unknown content is 422');
	assert.is(bad.body.errors[0].field, 'content');
	assert.is(bad.body.errors[0].resource, 'Reaction');
	assert.is(
		(await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: eve, body: {} })).status,
		422,
		'~> content is required',
	);
	assert.is((await s.request('POST', '/repos/acme/web/issues/1/reactions', { body: { content: 'eyes' } })).status, 401, '~> anonymous');
	const noScope = await s.request('POST', '/repos/acme/web/issues/1/reactions', {
		token: s.token('eve', { scopes: ['read:user'] }),
		body: { content: 'eyes' },
	});
	assert.is(noScope.status, 403, '~> a classic token without repo or public_repo');
	const fine = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { issues: 'read' } });
	assert.is(
		(await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: fine, body: { content: 'eyes' } })).status,
		403,
		'~> issues:read only',
	);
	assert.is(
		(await s.request('POST', '/repos/acme/vault/issues/1/reactions', { token: eve, body: { content: 'eyes' } })).status,
		404,
		'~> a hidden private repository',
	);
	assert.is((await s.get('/repos/acme/vault/issues/1/reactions', eve)).status, 404);
	assert.is((await s.get('/repos/acme/web/issues/99/reactions', eve)).status, 404, '~> an unknown issue');
});

test('locked issues take reactions only from those with write access', async () => {
	await s.request('PUT', '/repos/acme/web/issues/1/lock', { token: olivia, body: {} });
	assert.is(
		(await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: eve, body: { content: 'eyes' } })).status,
		403,
		'~> outsiders cannot',
	);
	assert.is(
		(await s.request('POST', '/repos/acme/web/issues/1/reactions', { token: olivia, body: { content: 'eyes' } })).status,
		201,
		'~> the owner can',
	);
	await s.request('DELETE', '/repos/acme/web/issues/1/lock', { token: olivia });
});

test('delete: the author only; 404 for another subject’s reaction; counts follow', async () => {
	const [eveHeart] = (await s.get('/repos/acme/web/issues/1/reactions?content=heart', eve)).body;
	assert.is(
		(await s.request('DELETE', `/repos/acme/web/issues/1/reactions/${eveHeart.id}`, { token: mia })).status,
		403,
		'~> another user’s reaction',
	);
	assert.is((await s.request('DELETE', `/repos/acme/web/issues/1/reactions/${eveHeart.id}`)).status, 401, '~> anonymous');
	assert.is(
		(await s.request('DELETE', `/repos/acme/web/issues/comments/${commentId}/reactions/${eveHeart.id}`, { token: eve })).status,
		404,
		'~> not a reaction of that comment',
	);
	assert.is((await s.request('DELETE', `/repos/acme/web/issues/1/reactions/${eveHeart.id}`, { token: eve })).status, 204, '~> deleted');
	assert.is((await s.request('DELETE', `/repos/acme/web/issues/1/reactions/${eveHeart.id}`, { token: eve })).status, 404, '~> gone');
	const rollup = (await s.get('/repos/acme/web/issues/1', eve)).body.reactions;
	assert.is(rollup.heart, 1, '~> one heart left');
	assert.is(rollup.total_count, 3, '~> mia’s heart and +1, olivia’s eyes');
});

test('comment reactions: the same routes below /issues/comments/{comment_id}; the comment’s rollup', async () => {
	const path = `/repos/acme/web/issues/comments/${commentId}/reactions`;
	const made = await s.request('POST', path, { token: mia, body: { content: 'rocket' } });
	assert.is(made.status, 201);
	assert.is((await s.request('POST', path, { token: mia, body: { content: 'rocket' } })).status, 200, '~> again: 200');
	await s.request('POST', path, { token: eve, body: { content: 'laugh' } });
	const comment = await s.get(`/repos/acme/web/issues/comments/${commentId}`, eve);
	assert.equal(
		comment.body.reactions,
		{
			url: `${s.api}/repos/acme/web/issues/comments/${commentId}/reactions`,
			total_count: 2,
			'+1': 0,
			'-1': 0,
			laugh: 1,
			hooray: 0,
			confused: 0,
			heart: 0,
			rocket: 1,
			eyes: 0,
		},
		'~> the comment’s own counts',
	);
	assert.is((await s.get('/repos/acme/web/issues/1', eve)).body.reactions.total_count, 3, '~> the issue’s stay apart');
	const list = await s.get(`${path}?content=laugh`, eve);
	assert.equal(
		list.body.map((r: any) => r.user.login),
		['eve'],
	);
	assert.is((await s.get('/repos/acme/web/issues/comments/999/reactions', eve)).status, 404, '~> an unknown comment');
	assert.is((await s.request('POST', path, { token: eve, body: { content: 'party' } })).status, 422);
	assert.is((await s.request('DELETE', `${path}/${made.body.id}`, { token: mia })).status, 204);
	const listed = await s.get('/repos/acme/web/issues/1/comments', eve);
	assert.is(listed.body[0].reactions.total_count, 1, '~> comment lists carry the counts');
	// Deleting the comment takes its reactions with it.
	await s.request('DELETE', `/repos/acme/web/issues/comments/${commentId}`, { token: olivia });
	assert.is(
		s.app.db.prepare('SELECT count(*) FROM reactions WHERE comment_id IS NOT NULL').pluck().get(),
		0,
		'~> its reactions are gone',
	);
});

test('a list page costs no query per issue: the counts live on the issue rows, kept by triggers', async () => {
	for (let i = 0; i < 100; i++) {
		const issue = await s.request('POST', '/repos/acme/web/issues', { token: olivia, body: { title: `Bulk ${i}` } });
		await s.request('POST', `/repos/acme/web/issues/${issue.body.number}/reactions`, { token: mia, body: { content: 'hooray' } });
	}
	const page = await s.get('/repos/acme/web/issues?per_page=100', eve);
	assert.is(page.body.length, 100);
	assert.ok(
		page.body.every((issue: any) => issue.title.startsWith('Bulk') && issue.reactions.hooray === 1),
		'~> every issue shows its count',
	);
	const stored = s.app.db.prepare("SELECT reaction_counts FROM issues WHERE title LIKE 'Bulk %'").pluck().all() as string[];
	assert.ok(
		stored.length === 100 && stored.every((counts) => JSON.parse(counts).hooray === 1),
		'~> the rollup is read from the row (reaction_counts), not counted per item',
	);
});

test('Octokit: reactions.createForIssue, listForIssue, deleteForIssue, createForIssueComment', async () => {
	const { Octokit } = await import('@octokit/rest');
	const octokit = new Octokit({ auth: eve, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
	const made = await octokit.rest.reactions.createForIssue({ owner: 'acme', repo: 'web', issue_number: 1, content: 'confused' });
	assert.is(made.status, 201);
	assert.is(made.data.content, 'confused');
	const again = await octokit.rest.reactions.createForIssue({ owner: 'acme', repo: 'web', issue_number: 1, content: 'confused' });
	assert.is(again.status, 200, '~> already there');
	const listed = await octokit.rest.reactions.listForIssue({ owner: 'acme', repo: 'web', issue_number: 1, content: 'confused' });
	assert.equal(
		listed.data.map((r) => r.id),
		[made.data.id],
	);
	const deleted = await octokit.rest.reactions.deleteForIssue({ owner: 'acme', repo: 'web', issue_number: 1, reaction_id: made.data.id });
	assert.is(deleted.status, 204);
	const comment = await s.request('POST', '/repos/acme/web/issues/1/comments', { token: olivia, body: { body: 'More' } });
	const onComment = await octokit.rest.reactions.createForIssueComment({
		owner: 'acme',
		repo: 'web',
		comment_id: comment.body.id,
		content: '-1',
	});
	assert.is(onComment.status, 201);
	const error = await octokit.rest.reactions
		.createForIssue({ owner: 'acme', repo: 'web', issue_number: 1, content: 'nope' as never })
		.catch((e) => e);
	assert.is(error.status, 422, '~> Octokit throws GitHub’s 422');
});

test.run();
