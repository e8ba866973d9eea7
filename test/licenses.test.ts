/**
 * GitHub's licenses (choosealicense.com's data): GET /licenses (the commonly used ones, `featured`),
 * GET /licenses/{license} with its text and rules, and repository creation with auto_init writing
 * LICENSE from `license_template` ([year] and [fullname] filled in, as GitHub does) and .gitignore
 * from `gitignore_template`, for a user's and an organization's repository.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../src/api/users/service';
import { startServer, type TestServer } from './helpers/server';

const test = suite('licenses');
let s: TestServer;
let alice: string;

test.before(async () => {
	s = await startServer();
	createUser(s.app, { login: 'alice', name: 'Alice Liddell' });
	alice = s.fullToken('alice');
	s.org('acme', 'alice');
});
test.after(async () => {
	await s?.close();
});

/** A file of a repository's default branch, decoded. */
async function file(repo: string, path: string): Promise<string> {
	const res = await s.get(`/repos/${repo}/contents/${path}`, alice);
	assert.is(res.status, 200, `${repo}/${path}: ${res.text}`);
	return Buffer.from(res.body.content, 'base64').toString('utf8');
}

test('GET /licenses: the 13 commonly used licenses as license-simple, featured filter, paged; anonymous', async () => {
	const res = await s.get('/licenses');
	assert.is(res.status, 200);
	assert.equal(
		res.body.map((l: { key: string }) => l.key),
		[
			'agpl-3.0',
			'apache-2.0',
			'bsd-2-clause',
			'bsd-3-clause',
			'bsl-1.0',
			'cc0-1.0',
			'epl-2.0',
			'gpl-2.0',
			'gpl-3.0',
			'lgpl-2.1',
			'mit',
			'mpl-2.0',
			'unlicense',
		],
	);
	const mit = res.body.find((l: { key: string }) => l.key === 'mit');
	assert.equal(Object.keys(mit).sort(), ['html_url', 'key', 'name', 'node_id', 'spdx_id', 'url']);
	assert.is(mit.url, `${s.api}/licenses/mit`);
	const featured = await s.get('/licenses?featured=true');
	assert.equal(
		featured.body.map((l: { key: string }) => l.key),
		['apache-2.0', 'gpl-3.0', 'mit'],
	);
	const page = await s.get('/licenses?per_page=5&page=3');
	assert.equal(
		page.body.map((l: { key: string }) => l.key),
		['mit', 'mpl-2.0', 'unlicense'],
	);
	assert.is((await s.get('/licenses?featured=maybe')).status, 422);
});

test('GET /licenses/{license}: text, rules and implementation of any license GitHub knows (any case); 404 otherwise', async () => {
	const res = await s.get('/licenses/MIT');
	assert.is(res.status, 200);
	assert.is(res.body.key, 'mit');
	assert.is(res.body.spdx_id, 'MIT');
	assert.is(res.body.featured, true);
	assert.match(res.body.body, 'Copyright (c) [year] [fullname]');
	assert.ok(res.body.permissions.includes('commercial-use'));
	assert.ok(res.body.conditions.includes('include-copyright'));
	assert.ok(res.body.limitations.includes('liability'));
	assert.match(res.body.implementation, 'LICENSE');
	const isc = await s.get('/licenses/isc');
	assert.is(isc.status, 200, 'a license not commonly used is served too');
	assert.is(isc.body.name, 'ISC License');
	assert.is((await s.get('/licenses/not-a-license')).status, 404);
});

test('auto_init with license_template: LICENSE with the year and the holder filled in; the repository shows its license', async () => {
	const made = await s.request('POST', '/user/repos', {
		token: alice,
		body: { name: 'tool', auto_init: true, license_template: 'isc', gitignore_template: 'Node' },
	});
	assert.is(made.status, 201, made.text);
	assert.is(made.body.license.key, 'isc');
	const text = await file('alice/tool', 'LICENSE');
	assert.match(text, /^ISC License\n\nCopyright \(c\) 2026, Alice Liddell\n/);
	assert.not.match(text, '[year]');
	const gitignore = await file('alice/tool', '.gitignore');
	assert.is(gitignore, (await s.get('/gitignore/templates/Node')).body.source);
	const detected = await s.get('/repos/alice/tool/license', alice);
	assert.is(detected.status, 200);

	// AGPL (its text was missing before): written whole.
	const agpl = await s.request('POST', '/user/repos', {
		token: alice,
		body: { name: 'server', auto_init: true, license_template: 'agpl-3.0' },
	});
	assert.is(agpl.status, 201, agpl.text);
	assert.match(await file('alice/server', 'LICENSE'), 'GNU AFFERO GENERAL PUBLIC LICENSE');
	assert.is((await s.get('/repos/alice/server/license', alice)).body.license.key, 'agpl-3.0');

	// Apache's appendix keeps its own placeholders, as on GitHub.
	await s.request('POST', '/user/repos', { token: alice, body: { name: 'lib', auto_init: true, license_template: 'apache-2.0' } });
	assert.match(await file('alice/lib', 'LICENSE'), 'Copyright [yyyy] [name of copyright owner]');
});

test("an organization's repository: the organization holds the copyright; empty template names are ignored; unknown ones 422", async () => {
	const made = await s.request('POST', '/orgs/acme/repos', {
		token: alice,
		body: { name: 'site', auto_init: true, license_template: 'MIT', gitignore_template: 'Go' },
	});
	assert.is(made.status, 201, made.text);
	assert.is(made.body.license.key, 'mit', 'the key without case');
	assert.match(await file('acme/site', 'LICENSE'), 'Copyright (c) 2026 acme\n');
	assert.match(await file('acme/site', '.gitignore'), 'go.work');
	// Terraform's GitHub provider always sends both, empty: GitHub ignores them.
	const empty = await s.request('POST', '/orgs/acme/repos', {
		token: alice,
		body: { name: 'plain', auto_init: true, license_template: '', gitignore_template: '' },
	});
	assert.is(empty.status, 201, empty.text);
	assert.is(empty.body.license, null);
	assert.is((await s.get('/repos/acme/plain/contents/LICENSE', alice)).status, 404);
	const unknown = await s.request('POST', '/orgs/acme/repos', {
		token: alice,
		body: { name: 'x', auto_init: true, license_template: 'nope' },
	});
	assert.is(unknown.status, 422);
	assert.is(unknown.body.errors[0].field, 'license_template');
});

test.run();
