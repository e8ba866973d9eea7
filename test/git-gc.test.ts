/**
 * Git maintenance (src/api/git/gc.ts, `gitstead admin gc`): objects no reference reaches go once
 * older than the grace period, young ones and what pushes rely on stay, pull request heads stay,
 * objects the REST API stored whole become deltas, and everything still reads back and clones
 * clean. Fork networks share their objects and outlive their first repository.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gc } from '../src/api/git/gc';
import { epochSeconds } from '../src/time';
import { gitIn, hasGit } from './helpers/git';
import { storedObjectCount } from './helpers/git-objects';
import { startServer, type TestServer } from './helpers/server';

const test = suite('git-gc');
let s: TestServer;
let token: string;
let work: string;

const b64 = (text: string) => Buffer.from(text).toString('base64');
/** The test server's clock, in epoch seconds (objects are dated by it). */
const now = () => epochSeconds(s.clock.now);
const repoId = (owner: string, name: string) => s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.byLogin(owner)!.id, name)!.id;

async function put(repo: string, path: string, text: string, sha?: string): Promise<{ commit: string; blob: string }> {
	const res = await s.request('PUT', `/repos/octo/${repo}/contents/${path}`, {
		token,
		body: { message: `write ${path}`, content: b64(text), ...(sha ? { sha } : {}) },
	});
	assert.ok(res.status === 201 || res.status === 200, res.text);
	return { commit: res.body.commit.sha, blob: res.body.content.sha };
}

test.before(async () => {
	s = await startServer();
	s.user('octo');
	s.user('forker');
	token = s.fullToken('octo');
	work = mkdtempSync(join(tmpdir(), 'gitstead-gc-'));
});
test.after(async () => {
	await s.close();
	rmSync(work, { recursive: true, force: true });
});

test('objects the REST API stores whole become deltas; every version still reads back', async () => {
	await s.request('POST', '/user/repos', { token, body: { name: 'versions', auto_init: true } });
	const versions: string[] = [];
	let sha: string | undefined;
	// Text that compresses poorly on its own (so a delta is what makes it small).
	let seed = 7;
	const word = () => {
		seed = (seed * 1103515245 + 12345) % 2 ** 31;
		return seed.toString(36);
	};
	const base = Array.from({ length: 400 }, () => `${word()} ${word()} ${word()}`).join('\n');
	for (let i = 0; i < 6; i++) {
		const text = `${base}version ${i}\n`;
		const written = await put('versions', 'doc.txt', text, sha);
		sha = written.blob;
		versions.push(written.commit);
	}
	const id = repoId('octo', 'versions');
	const network = s.app.stores.git.network(id);
	const before = s.app.stores.git.networkBytes(network);
	const report = await gc(s.app, { now: now() });
	assert.ok(report.deltified >= 5, `~> older versions became deltas (${report.deltified})`);
	assert.is(report.deleted, 0, '~> nothing is unreachable');
	assert.ok(s.app.stores.git.networkBytes(network) < before / 2, '~> the data shrank');
	for (const [i, commit] of versions.entries()) {
		const file = await s.get(`/repos/octo/versions/contents/doc.txt?ref=${commit}`, token);
		assert.is(Buffer.from(file.body.content, 'base64').toString(), `${base}version ${i}\n`, `~> version ${i} reads back`);
	}
	assert.ok((await s.get('/repos/octo/versions', token)).body.size > 0, '~> the size is set');
	if (hasGit) {
		const { git } = gitIn(work);
		const url = `${s.origin.replace('http://', `http://x:${token}@`)}/octo/versions.git`;
		const cloned = await git(['clone', '-q', '--no-local', url, join(work, 'versions')]);
		assert.is(cloned.status, 0, cloned.err);
		assert.is((await git(['fsck', '--strict', '--no-dangling'], join(work, 'versions'))).out, '', '~> the clone is clean');
		assert.is((await git(['rev-list', '--count', 'HEAD'], join(work, 'versions'))).out.trim(), '7');
	}
});

test('unreachable objects go once past the grace period; young ones, pull request heads and what pushes relied on stay', async () => {
	await s.request('POST', '/user/repos', { token, body: { name: 'sweep', auto_init: true } });
	const id = repoId('octo', 'sweep');
	const blob = (await s.request('POST', '/repos/octo/sweep/git/blobs', { token, body: { content: 'nobody names me' } })).body.sha;
	const kept = await put('sweep', 'kept.txt', 'kept\n');
	// A branch moved back by force leaves its commit unreachable.
	await s.request('POST', '/repos/octo/sweep/git/refs', { token, body: { ref: 'refs/heads/topic', sha: kept.commit } });
	const dropped = await s.request('PUT', '/repos/octo/sweep/contents/dropped.txt', {
		token,
		body: { message: 'dropped', content: b64('dropped\n'), branch: 'topic' },
	});
	await s.request('PATCH', '/repos/octo/sweep/git/refs/heads/topic', { token, body: { sha: kept.commit, force: true } });
	// A pull request keeps its head even when its branch goes.
	await s.request('POST', '/repos/octo/sweep/git/refs', { token, body: { ref: 'refs/heads/feature', sha: kept.commit } });
	const feature = await s.request('PUT', '/repos/octo/sweep/contents/feature.txt', {
		token,
		body: { message: 'feature', content: b64('feature\n'), branch: 'feature' },
	});
	const pull = await s.request('POST', '/repos/octo/sweep/pulls', { token, body: { title: 'Feature', head: 'feature', base: 'main' } });
	assert.is(pull.status, 201);
	await s.request('DELETE', '/repos/octo/sweep/git/refs/heads/feature', { token });
	const count = () => storedObjectCount(s.app, id);
	const objects = count();

	const young = await gc(s.app, { now: now(), graceDays: 0 });
	assert.is(young.deleted, 0, '~> within the hour, nothing is old enough to go');
	assert.is(count(), objects);

	const dry = await gc(s.app, { now: now() + 3 * 86_400, graceDays: 2, dryRun: true });
	assert.ok(dry.deleted >= 2, `~> a dry run counts what would go (${dry.deleted})`);
	assert.is(count(), objects, '~> and deletes nothing');

	const swept = await gc(s.app, { now: now() + 3 * 86_400, graceDays: 2 });
	assert.ok(swept.deleted >= 2, `~> the unreachable blob and commit went (${swept.deleted})`);
	assert.is((await s.get(`/repos/octo/sweep/git/blobs/${blob}`, token)).status, 404, '~> the unnamed blob is gone');
	assert.is(
		(await s.get(`/repos/octo/sweep/git/commits/${dropped.body.commit.sha}`, token)).status,
		404,
		'~> the dropped commit is gone',
	);
	assert.is(
		(await s.get(`/repos/octo/sweep/git/commits/${feature.body.commit.sha}`, token)).status,
		200,
		"~> the pull request's head stays",
	);
	assert.is((await s.get(`/repos/octo/sweep/pulls/${pull.body.number}/files`, token)).status, 200, '~> and its files');
	assert.is((await s.get('/repos/octo/sweep/contents/kept.txt', token)).status, 200, '~> what a branch reaches stays');
});

test('forks share their network: a fork reads its parent objects, and keeps them when the parent goes', async () => {
	await s.request('POST', '/user/repos', { token, body: { name: 'origin', auto_init: true } });
	const written = await put('origin', 'shared.txt', 'shared\n');
	const fork = await s.request('POST', '/repos/octo/origin/forks', { token: s.fullToken('forker'), body: {} });
	assert.is(fork.status, 202, fork.text);
	const parentId = repoId('octo', 'origin');
	const forkId = repoId('forker', 'origin');
	assert.is(s.app.stores.git.network(forkId), s.app.stores.git.network(parentId), '~> one network');
	const objects = storedObjectCount(s.app, parentId);
	assert.is(storedObjectCount(s.app, forkId), objects, '~> nothing was copied');
	assert.is((await s.request('DELETE', '/repos/octo/origin', { token })).status, 204);
	const file = await s.get(`/repos/forker/origin/contents/shared.txt?ref=${written.commit}`, s.fullToken('forker'));
	assert.is(file.status, 200, '~> the fork still reads the shared objects');
	await gc(s.app, { now: now() + 30 * 86_400, graceDays: 14 });
	assert.is((await s.get('/repos/forker/origin/contents/shared.txt', s.fullToken('forker'))).status, 200, '~> and after gc');
	const network = s.app.stores.git.network(forkId);
	assert.is((await s.request('DELETE', '/repos/forker/origin', { token: s.fullToken('forker') })).status, 204);
	assert.is(s.app.stores.git.objectCount(network), 0, "~> the network's objects go with its last repository");
});

test.run();
