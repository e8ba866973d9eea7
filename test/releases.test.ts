/**
 * Releases and release assets (GitHub's "Releases" and "Release assets" REST APIs): create (the tag
 * made on publish), drafts seen with push access only, latest, by tag, update, delete; assets
 * streamed to the blob folder at the upload_url, downloaded as bytes, renamed, deleted with their
 * files; the release webhook and ReleaseEvent; an Octokit round trip.
 */
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sweepAssetFiles } from '../src/api/releases/service';
import { isoSeconds } from '../src/time';
import { startServer, type TestServer } from './helpers/server';
import { hookDeliveries, mustSucceed } from './helpers/setup';

type Octokit = import('@octokit/rest', { with: { 'resolution-mode': 'import' }}).Octokit;

const test = suite('releases');
let s: TestServer;
let owner: string;
let pusher: string;
let reader: string;
let hookId: number;
let main: string;
let octokit: Octokit;
const APP = '/repos/acme/app';
const ASSET_LIMIT = 64 * 1024;

const must = (method: string, path: string, body?: unknown, token = owner) => mustSucceed(s, method, path, body, token);

/** POSTs bytes to a URL (an upload_url with its template filled in). */
async function upload(url: string, bytes: Buffer | string, token: string | null = pusher, contentType = 'application/zip') {
	const headers: Record<string, string> = { 'Content-Type': contentType };
	if (token) headers.Authorization = `Bearer ${token}`;
	const res = await fetch(url, { method: 'POST', headers, body: bytes as Uint8Array<ArrayBuffer> });
	const text = await res.text();
	return {
		status: res.status,
		headers: res.headers,
		text,
		body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined,
	};
}

const uploadUrl = (release: any, name: string, label?: string) =>
	release.upload_url.replace('{?name,label}', `?name=${encodeURIComponent(name)}${label ? `&label=${encodeURIComponent(label)}` : ''}`);

const assetFiles = () => {
	const dir = join(s.dataDir, 'blobs', 'release-assets');
	return existsSync(dir) ? readdirSync(dir) : [];
};

const deliveries = (event: string) => hookDeliveries(s, hookId, event);

test.before(async () => {
	s = await startServer({ configure: (config) => void (config.storage.max_asset_bytes = ASSET_LIMIT) });
	for (const login of ['olivia', 'mike', 'nora']) s.user(login);
	s.org('acme', 'olivia');
	s.member('acme', 'mike');
	owner = s.fullToken('olivia');
	await must('POST', '/orgs/acme/repos', { name: 'app' });
	await must('POST', '/orgs/acme/repos', { name: 'vault', private: true });
	const app = s.app.stores.repos.byOwnerAndName(s.app.stores.accounts.organization('acme')!.id, 'app')!;
	s.app.stores.repos.setCollaborator(app.id, s.app.stores.accounts.user('mike')!.id, 'push', isoSeconds(s.clock.now));
	pusher = s.token('mike', { scopes: ['repo'] });
	reader = s.fullToken('nora');
	for (const repo of ['app', 'vault']) {
		const tree = await must('POST', `/repos/acme/${repo}/git/trees`, {
			tree: [{ path: 'README', mode: '100644', type: 'blob', content: repo }],
		});
		const sha = (await must('POST', `/repos/acme/${repo}/git/commits`, { message: 'first', tree: tree.sha, parents: [] })).sha;
		await must('POST', `/repos/acme/${repo}/git/refs`, { ref: 'refs/heads/main', sha });
		if (repo === 'app') main = sha;
	}
	hookId = (
		await must('POST', `${APP}/hooks`, {
			name: 'web',
			config: { url: 'https://hooks.example.com/r', content_type: 'json' },
			events: ['release', 'create'],
		})
	).id;
	const { Octokit } = await import('@octokit/rest');
	octokit = new Octokit({ auth: owner, baseUrl: s.api, log: { debug() {}, info() {}, warn() {}, error() {} } });
});
test.after(() => s.close());

test("POST /releases publishes a release: 201, GitHub's shape, the tag created at target_commitish, events created/published/released", async () => {
	const res = await s.request('POST', `${APP}/releases`, {
		token: pusher,
		body: { tag_name: 'v1.0.0', name: 'One', body: 'First **release**' },
	});
	assert.is(res.status, 201, `~> created: ${res.text}`);
	assert.is(res.headers.get('location'), res.body.url, '~> Location');
	for (const key of [
		'url',
		'html_url',
		'assets_url',
		'upload_url',
		'tarball_url',
		'zipball_url',
		'id',
		'node_id',
		'tag_name',
		'target_commitish',
		'name',
		'body',
		'draft',
		'prerelease',
		'created_at',
		'published_at',
		'author',
		'assets',
	]) {
		assert.ok(key in res.body, `~> release has ${key}`);
	}
	assert.is(res.body.target_commitish, 'main', '~> target_commitish defaults to the default branch');
	assert.is(
		res.body.upload_url,
		`${s.api}/repos/acme/app/releases/${res.body.id}/assets{?name,label}`,
		'~> upload_url is served here, as a URI template',
	);
	assert.is(res.body.author.login, 'mike', '~> the author');
	assert.is(res.body.html_url, `${s.origin}/acme/app/releases/tag/v1.0.0`, '~> html_url');
	assert.ok(res.body.published_at, '~> published');
	const ref = await s.get(`${APP}/git/ref/tags/v1.0.0`, owner);
	assert.is(ref.status, 200, '~> the tag exists');
	assert.is(ref.body.object.sha, main, '~> at target_commitish');
	const html = await s.get(`${APP}/releases/${res.body.id}`, owner, { Accept: 'application/vnd.github.html+json' });
	assert.match(html.body.body_html, /<strong>release<\/strong>/, '~> body_html rendered at write');
	assert.equal(
		deliveries('release').map((d) => d.action),
		['created', 'published', 'released'],
		'~> release created, published, released',
	);
	assert.equal(
		deliveries('create').map((d) => d.ref),
		['v1.0.0'],
		"~> the tag's create event",
	);
	const payload = deliveries('release')[1];
	assert.is(payload.release.tag_name, 'v1.0.0', "~> the payload's release");
	assert.is(payload.repository.full_name, 'acme/app', '~> repository');
	assert.is(payload.sender.login, 'mike', '~> sender');
	const feed = await s.get(`${APP}/events`, owner);
	const entry = feed.body.find((e: any) => e.type === 'ReleaseEvent');
	assert.ok(entry, '~> a ReleaseEvent in the feed');
	assert.is(entry.payload.action, 'published', '~> for published');
	assert.is(entry.payload.release.tag_name, 'v1.0.0', '~> with the release');
});

test('target_commitish "" (hub release create) or null means the default branch, as on GitHub; on update it changes nothing', async () => {
	const res = await s.request('POST', `${APP}/releases`, {
		token: pusher,
		body: { tag_name: 'v-hub', target_commitish: '', name: 'hub', body: '', draft: false, prerelease: false },
	});
	assert.is(res.status, 201, `~> created: ${res.text}`);
	assert.is(res.body.target_commitish, 'main', '~> the default branch');
	const ref = await s.get(`${APP}/git/ref/tags/v-hub`, owner);
	assert.is(ref.body.object.sha, main, '~> the tag at the default branch');
	const draft = await s.request('POST', `${APP}/releases`, {
		token: pusher,
		body: { tag_name: 'v-null', target_commitish: null, draft: true },
	});
	assert.is(draft.status, 201, `~> null: ${draft.text}`);
	assert.is(draft.body.target_commitish, 'main');
	const edit = await s.request('PATCH', `${APP}/releases/${draft.body.id}`, {
		token: pusher,
		body: { target_commitish: '', name: 'renamed' },
	});
	assert.is(edit.status, 200, `~> updated: ${edit.text}`);
	assert.is(edit.body.target_commitish, 'main', '~> unchanged');
	for (const id of [res.body.id, draft.body.id]) await s.request('DELETE', `${APP}/releases/${id}`, { token: pusher });
	await s.request('DELETE', `${APP}/git/refs/tags/v-hub`, { token: pusher });
});

test('422: tag_name missing or invalid, a duplicate tag (already_exists), bad target_commitish, bad make_latest; nothing written', async () => {
	let res = await s.request('POST', `${APP}/releases`, { token: pusher, body: {} });
	assert.is(res.status, 422, '~> tag_name required');
	assert.is(res.body.errors[0].field, 'tag_name', '~> names tag_name');
	res = await s.request('POST', `${APP}/releases`, { token: pusher, body: { tag_name: 'v1.0.0' } });
	assert.is(res.status, 422, '~> a duplicate tag');
	assert.equal(
		res.body.errors[0],
		{ resource: 'Release', code: 'already_exists', field: 'tag_name', message: 'tag_name already exists' },
		"~> GitHub's already_exists",
	);
	res = await s.request('POST', `${APP}/releases`, { token: pusher, body: { tag_name: 'bad..tag' } });
	assert.is(res.status, 422, '~> an invalid tag');
	res = await s.request('POST', `${APP}/releases`, { token: pusher, body: { tag_name: 'v9', target_commitish: 'nope' } });
	assert.is(res.status, 422, '~> an unknown target_commitish');
	assert.is(res.body.errors[0].field, 'target_commitish', '~> names target_commitish');
	res = await s.request('POST', `${APP}/releases`, { token: pusher, body: { tag_name: 'v9', make_latest: 'yes' } });
	assert.is(res.status, 422, '~> a bad make_latest');
	assert.is((await s.get(`${APP}/git/ref/tags/v9`, owner)).status, 404, '~> no tag made');
});

test('who may: anonymous 401 and readers 403 on writes; a classic token without repo 403; private repository 404', async () => {
	assert.is((await s.request('POST', `${APP}/releases`, { body: { tag_name: 'x' } })).status, 401, '~> anonymous: 401');
	assert.is(
		(await s.request('POST', `${APP}/releases`, { token: reader, body: { tag_name: 'x' } })).status,
		403,
		'~> no push access: 403',
	);
	const scopeless = s.token('mike', { scopes: ['read:org'] });
	assert.is(
		(await s.request('POST', `${APP}/releases`, { token: scopeless, body: { tag_name: 'x' } })).status,
		403,
		'~> without repo scope: 403',
	);
	assert.is((await s.get('/repos/acme/vault/releases', reader)).status, 404, '~> a private repository: 404');
	assert.is(
		(await s.request('POST', '/repos/acme/vault/releases', { token: reader, body: { tag_name: 'x' } })).status,
		404,
		'~> writing to it: 404',
	);
	const list = await s.get(`${APP}/releases`);
	assert.is(list.status, 200, "~> anonymous reads a public repository's releases");
});

test('drafts: no tag until published, seen only with push access; publishing records published and prereleased', async () => {
	const draft = await must('POST', `${APP}/releases`, { tag_name: 'v2.0.0-rc1', draft: true, prerelease: true, name: 'RC' }, pusher);
	assert.is(draft.draft, true);
	assert.is(draft.published_at, null, '~> a draft is not published');
	assert.is(draft.html_url, `${s.origin}/acme/app/releases/tag/untagged-${draft.id}`, '~> untagged html_url');
	assert.is((await s.get(`${APP}/git/ref/tags/v2.0.0-rc1`, owner)).status, 404, '~> no tag for a draft');
	assert.is((await s.get(`${APP}/releases/${draft.id}`, reader)).status, 404, '~> hidden from readers');
	assert.is((await s.get(`${APP}/releases/${draft.id}`)).status, 404, '~> hidden from anonymous callers');
	assert.not.ok(
		(await s.get(`${APP}/releases`, reader)).body.some((r: any) => r.id === draft.id),
		"~> not in a reader's list",
	);
	assert.ok(
		(await s.get(`${APP}/releases`, pusher)).body.some((r: any) => r.id === draft.id),
		"~> in a pusher's list",
	);
	assert.is((await s.get(`${APP}/releases/tags/v2.0.0-rc1`, owner)).status, 404, '~> by tag: published releases only');
	const before = deliveries('release').length;
	const published = await must('PATCH', `${APP}/releases/${draft.id}`, { draft: false }, pusher);
	assert.is(published.draft, false, '~> published');
	assert.ok(published.published_at, '~> published_at set');
	assert.is((await s.get(`${APP}/git/ref/tags/v2.0.0-rc1`, owner)).status, 200, '~> the tag made on publish');
	assert.equal(
		deliveries('release')
			.slice(before)
			.map((d) => d.action),
		['published', 'prereleased'],
		'~> published, prereleased',
	);
	assert.is((await s.get(`${APP}/releases/tags/v2.0.0-rc1`)).body.id, draft.id, '~> by tag now');
});

test('latest: the newest published full release, or the one make_latest chose; edits record edited with changes', async () => {
	let latest = await s.get(`${APP}/releases/latest`);
	assert.is(latest.body.tag_name, 'v1.0.0', '~> a pre-release is never latest');
	const two = await must('POST', `${APP}/releases`, { tag_name: 'v2.0.0', make_latest: 'false' });
	latest = await s.get(`${APP}/releases/latest`);
	assert.is(latest.body.tag_name, 'v1.0.0', '~> make_latest false keeps the latest');
	const before = deliveries('release').length;
	const edited = await must('PATCH', `${APP}/releases/${two.id}`, { make_latest: 'true', name: 'Two' });
	assert.is(edited.name, 'Two', '~> renamed');
	latest = await s.get(`${APP}/releases/latest`);
	assert.is(latest.body.tag_name, 'v2.0.0', '~> make_latest true makes it latest');
	const events = deliveries('release').slice(before);
	assert.equal(
		events.map((d) => d.action),
		['edited'],
		'~> edited',
	);
	assert.equal(events[0].changes, { name: { from: null }, make_latest: { to: true } }, '~> with the changes');
	assert.is((await s.get('/repos/acme/vault/releases/latest', owner)).status, 404, '~> no release: 404');
	const bad = await s.request('PATCH', `${APP}/releases/${two.id}`, { token: owner, body: { tag_name: 'v1.0.0' } });
	assert.is(bad.status, 422, "~> renaming onto another release's tag: 422");
	assert.is((await s.request('PATCH', `${APP}/releases/999999`, { token: owner, body: {} })).status, 404, '~> unknown release: 404');
});

test('assets: upload streamed to the blob folder, listed, downloaded as bytes, renamed, duplicate 422, deleted with its file', async () => {
	const rel = (await s.get(`${APP}/releases/tags/v1.0.0`)).body;
	const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
	const res = await upload(uploadUrl(rel, 'build output.zip', 'Build'), bytes);
	assert.is(res.status, 201, `~> uploaded: ${res.text}`);
	for (const key of [
		'url',
		'browser_download_url',
		'id',
		'node_id',
		'name',
		'label',
		'state',
		'content_type',
		'size',
		'download_count',
		'created_at',
		'updated_at',
		'uploader',
	]) {
		assert.ok(key in res.body, `~> asset has ${key}`);
	}
	assert.is(res.body.name, 'build.output.zip', "~> GitHub's renaming of special characters");
	assert.is(res.body.label, 'Build', '~> label');
	assert.is(res.body.size, 5000, '~> size');
	assert.is(res.body.content_type, 'application/zip', '~> content_type from the request');
	assert.is(res.body.uploader.login, 'mike', '~> uploader');
	assert.equal(assetFiles().length, 1, '~> one file in the blob folder');
	const dup = await upload(uploadUrl(rel, 'build output.zip'), 'again');
	assert.is(dup.status, 422, '~> a duplicate name: 422');
	assert.is(dup.body.errors[0].code, 'already_exists', '~> already_exists');
	const nameless = await upload(rel.upload_url.replace('{?name,label}', ''), 'x');
	assert.is(nameless.status, 422, '~> name required: 422');
	assert.is(nameless.body.errors[0].field, 'name', '~> names name');
	assert.is((await upload(uploadUrl(rel, 'x.bin'), 'x', null)).status, 401, '~> anonymous: 401');
	assert.is((await upload(uploadUrl(rel, 'x.bin'), 'x', reader)).status, 403, '~> reader: 403');
	assert.is((await upload(`${s.api}/repos/acme/app/releases/999999/assets?name=x.bin`, 'x')).status, 404, '~> unknown release: 404');
	assert.equal(assetFiles().length, 1, '~> refused uploads leave no file');

	const list = await s.get(rel.assets_url);
	assert.equal(
		list.body.map((a: any) => a.name),
		['build.output.zip'],
		'~> listed',
	);
	assert.equal(
		(await s.get(`${APP}/releases/${rel.id}`)).body.assets.map((a: any) => a.id),
		[res.body.id],
		'~> in the release',
	);
	const json = await s.get(res.body.url);
	assert.is(json.body.id, res.body.id, '~> the asset as JSON by default');
	const raw = await fetch(res.body.url, { headers: { Accept: 'application/octet-stream' } });
	assert.is(raw.status, 200, '~> bytes with Accept: application/octet-stream');
	assert.is(raw.headers.get('content-type'), 'application/octet-stream', '~> octet-stream');
	assert.is(raw.headers.get('content-disposition'), 'attachment; filename="build.output.zip"', '~> Content-Disposition');
	assert.ok(Buffer.from(await raw.arrayBuffer()).equals(bytes), '~> the same bytes');
	const browser = await fetch(res.body.browser_download_url);
	assert.is(browser.status, 200, `~> browser_download_url served (${res.body.browser_download_url})`);
	assert.ok(Buffer.from(await browser.arrayBuffer()).equals(bytes), '~> the same bytes there');
	assert.is((await s.get(res.body.url)).body.download_count, 2, '~> downloads counted');

	const renamed = await s.request('PATCH', res.body.url, { token: pusher, body: { name: 'app.zip', label: 'App' } });
	assert.is(renamed.status, 200, '~> renamed');
	assert.is(renamed.body.name, 'app.zip');
	const second = await upload(uploadUrl(rel, 'other.zip'), 'other');
	assert.is(second.status, 201);
	const clash = await s.request('PATCH', second.body.url, { token: pusher, body: { name: 'app.zip' } });
	assert.is(clash.status, 422, "~> renaming onto another asset's name: 422");
	assert.is((await s.request('PATCH', second.body.url, { token: reader, body: { name: 'z.zip' } })).status, 403, '~> reader: 403');
	assert.is((await s.request('DELETE', second.body.url, { token: pusher })).status, 204, '~> deleted');
	assert.is((await s.get(second.body.url)).status, 404, '~> gone');
	assert.equal(assetFiles().length, 1, '~> its file deleted');
});

test('uploads over storage.max_asset_bytes answer 413 and leave no file, with or without Content-Length', async () => {
	const rel = (await s.get(`${APP}/releases/tags/v1.0.0`)).body;
	const big = await upload(uploadUrl(rel, 'big.bin'), Buffer.alloc(ASSET_LIMIT + 1));
	assert.is(big.status, 413, '~> announced too large: 413');
	// Chunked, without Content-Length: stopped while streaming.
	const url = new URL(uploadUrl(rel, 'chunked.bin'));
	const status = await new Promise<number>((resolve, reject) => {
		const req = httpRequest(
			url,
			{ method: 'POST', headers: { Authorization: `Bearer ${pusher}`, 'Transfer-Encoding': 'chunked' } },
			(res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			},
		);
		req.on('error', reject);
		let sent = 0;
		const pump = () => {
			while (sent < ASSET_LIMIT * 4) {
				sent += 8192;
				if (!req.write(Buffer.alloc(8192))) return void req.once('drain', pump);
			}
			req.end();
		};
		pump();
	});
	assert.is(status, 413, '~> streamed too large: 413');
	await new Promise((resolve) => setTimeout(resolve, 50));
	assert.equal(assetFiles().length, 1, '~> no file left behind');
	assert.not.ok(
		(await s.get(rel.assets_url)).body.some((a: any) => a.name === 'chunked.bin' || a.name === 'big.bin'),
		'~> no asset',
	);
});

test('deleting a release deletes its assets and their files, the tag stays; records deleted', async () => {
	const rel = await must('POST', `${APP}/releases`, { tag_name: 'v3.0.0' });
	const up = await upload(uploadUrl(rel, 'three.zip'), 'three');
	assert.is(up.status, 201);
	assert.equal(assetFiles().length, 2, '~> two files');
	const before = deliveries('release').length;
	assert.is((await s.request('DELETE', `${APP}/releases/${rel.id}`, { token: reader })).status, 403, '~> reader: 403');
	assert.is((await s.request('DELETE', `${APP}/releases/${rel.id}`, { token: pusher })).status, 204, '~> deleted');
	assert.is((await s.get(`${APP}/releases/${rel.id}`)).status, 404, '~> gone');
	assert.is((await s.get(up.body.url)).status, 404, '~> its asset gone');
	assert.equal(assetFiles().length, 1, '~> its file deleted');
	assert.is((await s.get(`${APP}/git/ref/tags/v3.0.0`, owner)).status, 200, '~> the tag stays (as on GitHub)');
	const events = deliveries('release').slice(before);
	assert.equal(
		events.map((d) => d.action),
		['deleted'],
		'~> deleted',
	);
	assert.equal(
		events[0].release.assets.map((a: any) => a.name),
		['three.zip'],
		'~> the payload shows the assets it had',
	);
});

test('the sweep deletes asset files no row names once they are an hour old, and keeps the others', async () => {
	const dir = join(s.dataDir, 'blobs', 'release-assets');
	const named = assetFiles();
	writeFileSync(join(dir, 'orphan-old'), 'x');
	writeFileSync(join(dir, 'orphan-new'), 'x');
	const hourAgo = new Date(Date.now() - 2 * 3600_000);
	utimesSync(join(dir, 'orphan-old'), hourAgo, hourAgo);
	assert.is(sweepAssetFiles(s.app, Date.now()), 1, '~> one file swept');
	assert.equal(assetFiles().sort(), [...named, 'orphan-new'].sort(), '~> named files and young files stay');
	rmSync(join(dir, 'orphan-new'));
});

test('Octokit: createRelease → uploadReleaseAsset → getReleaseAsset with octet-stream → the same bytes', async () => {
	const { data: rel } = await octokit.rest.repos.createRelease({
		owner: 'acme',
		repo: 'app',
		tag_name: 'v4.0.0',
		name: 'Four',
		body: 'Notes',
	});
	assert.is(rel.tag_name, 'v4.0.0');
	const bytes = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7) % 256));
	const { data: uploaded } = await octokit.rest.repos.uploadReleaseAsset({
		owner: 'acme',
		repo: 'app',
		release_id: rel.id,
		url: rel.upload_url,
		name: 'four.bin',
		data: bytes as unknown as string,
		headers: { 'content-type': 'application/octet-stream', 'content-length': bytes.length },
	});
	assert.is(uploaded.size, bytes.length, '~> uploaded at the upload_url');
	const { data } = await octokit.rest.repos.getReleaseAsset({
		owner: 'acme',
		repo: 'app',
		asset_id: uploaded.id,
		headers: { accept: 'application/octet-stream' },
	});
	assert.ok(Buffer.from(data as unknown as ArrayBuffer).equals(bytes), '~> the same bytes back');
	const { data: listed } = await octokit.rest.repos.listReleaseAssets({ owner: 'acme', repo: 'app', release_id: rel.id });
	assert.equal(
		listed.map((a) => a.name),
		['four.bin'],
		'~> listed',
	);
	const { data: latest } = await octokit.rest.repos.getLatestRelease({ owner: 'acme', repo: 'app' });
	assert.is(latest.tag_name, 'v4.0.0', '~> the newest full release is latest');
	await octokit.rest.repos.deleteRelease({ owner: 'acme', repo: 'app', release_id: rel.id });
});

test.run();
