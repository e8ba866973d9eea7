/**
 * Immutable releases (GitHub's orgs immutable-releases operations): the organization's policy
 * (all, none, selected repositories), who may set it (the matrix's organization_administration),
 * and what it enforces — a release published in an enforced repository reads `immutable: true`,
 * takes no asset uploads, changes or deletions, keeps its tag where it is (the git refs API
 * refuses to move or delete it, 422) and its tag name for good.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from './helpers/server';

const test = suite('immutable-releases');
let s: TestServer;
let owner: string;
let member: string;
let outsider: string;
const S = '/orgs/acme/settings/immutable-releases';
const ids: Record<string, number> = {};
const commits: Record<string, string> = {};

async function must(method: string, path: string, body?: unknown): Promise<any> {
	const res = await s.request(method, path, { token: owner, body });
	assert.ok(res.status >= 200 && res.status < 300, `~> setup ${method} ${path} answered ${res.status}: ${res.text}`);
	return res.body;
}

async function upload(release: any, name: string, token = owner) {
	const url = release.upload_url.replace('{?name,label}', `?name=${encodeURIComponent(name)}`);
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/zip', Authorization: `Bearer ${token}` },
		body: 'bytes',
	});
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

test.before(async () => {
	s = await startServer();
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	member = s.fullToken('mike');
	outsider = s.fullToken('nora');
	for (const repo of ['app', 'lib']) {
		ids[repo] = (await must('POST', '/orgs/acme/repos', { name: repo })).id;
		const tree = await must('POST', `/repos/acme/${repo}/git/trees`, {
			tree: [{ path: 'README', mode: '100644', type: 'blob', content: repo }],
		});
		const first = (await must('POST', `/repos/acme/${repo}/git/commits`, { message: 'first', tree: tree.sha, parents: [] })).sha;
		await must('POST', `/repos/acme/${repo}/git/refs`, { ref: 'refs/heads/main', sha: first });
		const second = (await must('POST', `/repos/acme/${repo}/git/commits`, { message: 'second', tree: tree.sha, parents: [first] })).sha;
		commits[`${repo}1`] = first;
		commits[`${repo}2`] = second;
	}
});
test.after(() => s.close());

test('GET: none until set; who may call', async () => {
	const res = await s.get(S, owner);
	assert.is(res.status, 200);
	assert.equal(res.body, { enforced_repositories: 'none' });
	assert.is(res.headers.get('x-accepted-service-permissions'), 'organization_administration=read');
	assert.is((await s.get(S, member)).status, 403, '~> members are refused');
	assert.is((await s.get(S, outsider)).status, 404, '~> outsiders see nothing');
	assert.is((await s.get(S)).status, 401);
	const read = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { organization_administration: 'read' } });
	assert.is((await s.get(S, read)).status, 200, '~> organization_administration read reads');
	assert.is((await s.request('PUT', S, { token: read, body: { enforced_repositories: 'all' } })).status, 403, '~> read does not write');
	const none = s.token('olivia', { kind: 'fine-grained', org: 'acme', permissions: { members: 'write' } });
	assert.is((await s.get(S, none)).status, 403, '~> without it: refused');
	assert.is((await s.request('PUT', S, { token: member, body: { enforced_repositories: 'all' } })).status, 403);
	const iat = s.token('olivia', { kind: 'installation', org: 'acme', permissions: { organization_administration: 'write' } });
	assert.is(
		(await s.request('PUT', S, { token: iat, body: { enforced_repositories: 'none' } })).status,
		204,
		'~> the organization’s app sets it (IAT)',
	);
});

test('PUT: selected with repositories; the selection routes; 422 and 409', async () => {
	assert.is((await s.request('PUT', S, { token: owner, body: { enforced_repositories: 'some' } })).status, 422);
	assert.is((await s.request('PUT', S, { token: owner, body: {} })).status, 422, '~> enforced_repositories is required');
	assert.is(
		(await s.request('PUT', S, { token: owner, body: { enforced_repositories: 'all', selected_repository_ids: [ids.app] } })).status,
		422,
		'~> ids only with selected',
	);
	assert.is(
		(await s.request('PUT', S, { token: owner, body: { enforced_repositories: 'selected', selected_repository_ids: [999999] } }))
			.status,
		422,
		'~> not a repository of acme',
	);
	assert.is(
		(await s.request('PUT', `${S}/repositories/${ids.app}`, { token: owner })).status,
		409,
		'~> choosing repositories needs selected',
	);
	assert.is(
		(await s.request('PUT', S, { token: owner, body: { enforced_repositories: 'selected', selected_repository_ids: [ids.lib] } }))
			.status,
		204,
	);
	const get = await s.get(S, owner);
	assert.equal(get.body, { enforced_repositories: 'selected', selected_repositories_url: `${s.api}${S}/repositories` });
	assert.is((await s.request('PUT', `${S}/repositories/${ids.app}`, { token: owner })).status, 204);
	assert.is((await s.request('PUT', `${S}/repositories/999999`, { token: owner })).status, 404);
	const list = await s.get(`${S}/repositories`, owner);
	assert.is(list.body.total_count, 2);
	assert.equal(
		list.body.repositories.map((r: any) => r.name),
		['app', 'lib'],
	);
	assert.is((await s.request('DELETE', `${S}/repositories/${ids.lib}`, { token: owner })).status, 204);
	assert.is((await s.request('PUT', `${S}/repositories`, { token: owner, body: { selected_repository_ids: [ids.app] } })).status, 204);
	assert.equal(
		(await s.get(`${S}/repositories`, owner)).body.repositories.map((r: any) => r.name),
		['app'],
	);
	assert.is((await s.request('PUT', `${S}/repositories`, { token: owner, body: {} })).status, 422);
	assert.is((await s.request('PUT', `${S}/repositories`, { token: member, body: { selected_repository_ids: [] } })).status, 403);
});

test('enforcement: a release published in an enforced repository is immutable; assets and tag locked; notes still change', async () => {
	// A draft takes assets; publishing makes it immutable.
	const draft = await must('POST', '/repos/acme/app/releases', { tag_name: 'v1', target_commitish: commits.app1, draft: true });
	assert.is((await upload(draft, 'before.zip')).status, 201, '~> a draft takes assets');
	const published = await must('PATCH', `/repos/acme/app/releases/${draft.id}`, { draft: false });
	assert.is(published.immutable, true, '~> published immutable');
	assert.is((await s.get(`/repos/acme/app/releases/${draft.id}`, owner)).body.immutable, true, '~> reads immutable: true');

	const refused = await upload(published, 'after.zip');
	assert.is(refused.status, 422, '~> no upload');
	assert.is(refused.body.message, 'Cannot upload assets to an immutable release', '~> GitHub’s sentence');
	const assetId = published.assets[0].id;
	assert.is(
		(await s.request('PATCH', `/repos/acme/app/releases/assets/${assetId}`, { token: owner, body: { name: 'renamed.zip' } })).status,
		422,
		'~> no asset change',
	);
	assert.is(
		(await s.request('DELETE', `/repos/acme/app/releases/assets/${assetId}`, { token: owner })).status,
		422,
		'~> no asset deletion',
	);

	const moved = await s.request('PATCH', '/repos/acme/app/git/refs/tags/v1', { token: owner, body: { sha: commits.app2, force: true } });
	assert.is(moved.status, 422, '~> the tag does not move');
	assert.is(moved.body.message, 'Cannot update a tag that belongs to an immutable release.');
	const deleted = await s.request('DELETE', '/repos/acme/app/git/refs/tags/v1', { token: owner });
	assert.is(deleted.status, 422, '~> nor go');
	assert.is((await s.get('/repos/acme/app/git/ref/tags/v1', owner)).body.object.sha, commits.app1, '~> the tag is where it was');

	const notes = await s.request('PATCH', `/repos/acme/app/releases/${draft.id}`, {
		token: owner,
		body: { name: 'Version 1', body: 'Notes', prerelease: true },
	});
	assert.is(notes.status, 200, '~> title, notes and prerelease still change');
	assert.is(
		(await s.request('PATCH', `/repos/acme/app/releases/${draft.id}`, { token: owner, body: { tag_name: 'v1.0' } })).status,
		422,
		'~> the tag name does not',
	);
	assert.is(
		(await s.request('PATCH', `/repos/acme/app/releases/${draft.id}`, { token: owner, body: { draft: true } })).status,
		422,
		'~> no unpublishing',
	);

	// Deleting the release frees its tag, but the name is never used again.
	assert.is((await s.request('DELETE', `/repos/acme/app/releases/${draft.id}`, { token: owner })).status, 204);
	assert.is(
		(await s.request('DELETE', '/repos/acme/app/git/refs/tags/v1', { token: owner })).status,
		204,
		'~> the tag of a deleted release goes',
	);
	const again = await s.request('POST', '/repos/acme/app/releases', {
		token: owner,
		body: { tag_name: 'v1', target_commitish: commits.app2 },
	});
	assert.is(again.status, 422, '~> the tag name was used by an immutable release');
	assert.equal(again.body.errors, [
		{ resource: 'Release', code: 'custom', field: 'tag_name', message: 'tag_name was used by an immutable release' },
	]);
	assert.is(
		(await s.request('POST', '/repos/acme/app/git/refs', { token: owner, body: { ref: 'refs/tags/v1', sha: commits.app2 } })).status,
		422,
		'~> nor as a bare tag',
	);
});

test('not enforced: repositories outside the policy, and releases published before it', async () => {
	const free = await must('POST', '/repos/acme/lib/releases', { tag_name: 'v1', target_commitish: commits.lib1 });
	assert.is(free.immutable, false, '~> lib is not selected');
	assert.is((await upload(free, 'a.zip')).status, 201);
	assert.is(
		(await s.request('PATCH', '/repos/acme/lib/git/refs/tags/v1', { token: owner, body: { sha: commits.lib2, force: true } })).status,
		200,
		'~> its tag moves',
	);
	await must('PUT', S, { enforced_repositories: 'all' });
	assert.is((await s.get(`/repos/acme/lib/releases/${free.id}`, owner)).body.immutable, false, '~> published before: stays mutable');
	assert.is((await upload(free, 'b.zip')).status, 201);
	const locked = await must('POST', '/repos/acme/lib/releases', { tag_name: 'v2', target_commitish: commits.lib1 });
	assert.is(locked.immutable, true, '~> all: every repository');
	await must('PUT', S, { enforced_repositories: 'none' });
	assert.is(
		(await s.get(`/repos/acme/lib/releases/${locked.id}`, owner)).body.immutable,
		true,
		'~> an immutable release stays immutable',
	);
	assert.is((await upload(locked, 'c.zip')).status, 422);
});

test.run();
